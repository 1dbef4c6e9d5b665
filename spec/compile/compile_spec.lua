-- NVRTC compilation, error reporting, the cache key hash and the on-disk
-- cache format. Everything here runs without a GPU.
local core = require "gpuarray.core"

local GOOD = [[
extern "C" __global__ void axpy(float a, const float *x, float *y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
]]

local BAD = [[
extern "C" __global__ void k(float *x) {
  int i = threadIdx.x;
  x[i] = x[i] +* ;
  y = 3;
}
]]

local function errmsg(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(err)
end

local function has(s, part)
  return s:find(part, 1, true) ~= nil
end

describe("compile", function()
  it("reports the NVRTC version", function()
    assert.matches("^%d+%.%d+$", core._test.nvrtc_version())
  end)

  it("compiles a valid kernel for sm_90", function()
    local size = core._test.compile(GOOD, nil, 90)
    assert.is_true(math.type(size) == "integer" and size > 0)
    assert.is_true(core._test.compile(GOOD, {}, 90) > 0)
  end)

  it("compiles C++17 by default and accepts the caller's -std", function()
    local src = [[
template <typename T> __device__ T twice(T v) {
  if constexpr (sizeof(T) == 4) return v + v; else return v * 2;
}
extern "C" __global__ void k(float *x) { x[0] = twice(x[0]); }
]]
    assert.is_true(core._test.compile(src, nil, 90) > 0)
    assert.is_true(core._test.compile(src, { "-std=c++20" }, 90) > 0)
  end)

  it("falls back to PTX for an arch newer than NVRTC knows", function()
    assert.is_true(core._test.compile(GOOD, nil, 990) > 0)
  end)

  it("lets the caller's -arch win", function()
    assert.is_true(core._test.compile(GOOD, { "-arch=sm_90a" }, 90) > 0)
  end)

  it("raises for an arch older than NVRTC supports", function()
    local err = errmsg(core._test.compile, GOOD, nil, 30)
    assert.matches("^gpuarray: ", err)
    assert.is_true(has(err, "sm_30"))
  end)

  it("raises with NVRTC's log and the offending source lines", function()
    local err = errmsg(core._test.compile, BAD, nil, 90)
    assert.matches("^gpuarray: ", err)
    assert.is_true(has(err, "compile error"), err)
    assert.is_true(has(err, "line 3: x[i] = x[i] +* ;"), err)
    assert.is_true(has(err, "line 4: y = 3;"), err)
    assert.is_true(has(err, "expected an expression"), err)   -- NVRTC's own words
    assert.is_true(has(err, '"y" is undefined'), err)
  end)

  it("quotes a line once even with several errors on it", function()
    local err = errmsg(core._test.compile, 'extern "C" __global__ void k() { a = b; }\n', nil, 90)
    local _, n = err:gsub("line 1: ", "")
    assert.equal(1, n)
  end)

  it("raises for a bad option, naming it", function()
    local err = errmsg(core._test.compile, GOOD, { "--no-such-option" }, 90)
    assert.matches("^gpuarray: ", err)
    assert.is_true(has(err, "--no-such-option"), err)
    assert.is_true(has(err, "option"), err)
  end)

  it("requires options to be strings", function()
    assert.matches("^gpuarray: .*not a string", errmsg(core._test.compile, GOOD, { 3 }, 90))
  end)

  it("names the cache directory", function()
    local dir = core.cache_dir()
    local env = os.getenv("GPUARRAY_CACHE_DIR")
    if env and env ~= "" then
      assert.equal(env, dir)
    elseif os.getenv("HOME") then
      assert.equal(os.getenv("HOME") .. "/.cache/gpuarray", dir)
    end
  end)
end)

describe("cache key hash", function()
  it("is 128 bits of hex and deterministic", function()
    local h = core._test.hash(GOOD)
    assert.matches("^%x+$", h)
    assert.equal(32, #h)
    assert.equal(h, core._test.hash(GOOD))
    assert.equal(32, #core._test.hash(""))
  end)

  it("changes with any byte, the length, and position", function()
    local base = core._test.hash(GOOD)
    for i = 1, #GOOD, 7 do
      local c = GOOD:sub(i, i)
      local changed = GOOD:sub(1, i - 1) .. string.char((c:byte() + 1) % 256) .. GOOD:sub(i + 1)
      assert.are_not.equal(base, core._test.hash(changed))
    end
    assert.are_not.equal(base, core._test.hash(GOOD .. "\0"))
    assert.are_not.equal(core._test.hash(""), core._test.hash("\0"))
    assert.are_not.equal(core._test.hash("ab"), core._test.hash("ba"))
  end)

  it("does not collide on many similar strings", function()
    local seen = {}
    for i = 1, 20000 do
      for _, s in ipairs({ tostring(i), ("x"):rep(i % 40) .. i, "kernel_" .. i .. "_float32" }) do
        local h = core._test.hash(s)
        assert.is_true(seen[h] == nil or seen[h] == s, "collision: " .. s)
        seen[h] = s
        -- both 64-bit halves must vary on their own
        local a, b = h:sub(1, 16), h:sub(17)
        assert.are_not.equal(a, b)
      end
    end
  end)
end)

describe("disk cache", function()
  local root, dir

  local function read_file(path)
    local f = assert(io.open(path, "rb"))
    local s = f:read("a")
    f:close()
    return s
  end

  local function write_file(path, s)
    local f = assert(io.open(path, "wb"))
    f:write(s)
    f:close()
  end

  local function entries(d)
    local p = io.popen('ls -A "' .. d .. '" 2>/dev/null')
    local list = {}
    for name in p:lines() do list[#list + 1] = name end
    p:close()
    table.sort(list)
    return list
  end

  before_each(function()
    root = os.tmpname()        -- a fresh name; the cache creates directories itself
    os.remove(root)
    dir = root .. "/a/b"
  end)

  after_each(function()
    for _, d in ipairs({ dir, root .. "/a", root }) do
      for _, name in ipairs(entries(d)) do os.remove(d .. "/" .. name) end
      os.remove(d)
    end
  end)

  local IMAGE = "\127ELF\0\1\2binary\0with\0nuls" .. ("\255"):rep(1000)

  it("writes atomically and reads back the image and lowered names", function()
    assert.is_true(core._test.disk_cache_write(dir, "key-1", IMAGE, { "_Z3fooIfEvPT_", "_Z3barv" }))
    assert.same({ core._test.hash("key-1") .. ".bin" }, entries(dir))   -- no temp file left
    local image, names = core._test.disk_cache_read(dir, "key-1")
    assert.equal(IMAGE, image)
    assert.same({ "_Z3fooIfEvPT_", "_Z3barv" }, names)
  end)

  it("reads nothing for a missing entry", function()
    assert.is_nil(core._test.disk_cache_read(dir, "never-written"))
    assert.is_true(core._test.disk_cache_write(dir, "key-1", IMAGE))
    assert.is_nil(core._test.disk_cache_read(dir, "key-2"))
    local image, names = core._test.disk_cache_read(dir, "key-1")
    assert.equal(IMAGE, image)
    assert.same({}, names)
  end)

  it("rejects corrupt, truncated and misplaced files, then overwrites them", function()
    assert.is_true(core._test.disk_cache_write(dir, "key-1", IMAGE, { "k" }))
    local path = dir .. "/" .. core._test.hash("key-1") .. ".bin"
    local good = read_file(path)

    -- one flipped byte in the image
    local i = #good - 10
    write_file(path, good:sub(1, i - 1) .. string.char((good:byte(i) + 1) % 256) .. good:sub(i + 1))
    assert.is_nil(core._test.disk_cache_read(dir, "key-1"))
    -- truncated, a header alone, empty, garbage
    for _, s in ipairs({ good:sub(1, #good - 1), good:sub(1, 64), "", ("z"):rep(4096) }) do
      write_file(path, s)
      assert.is_nil(core._test.disk_cache_read(dir, "key-1"))
    end
    -- a whole file under another key's name
    write_file(dir .. "/" .. core._test.hash("key-2") .. ".bin", good)
    assert.is_nil(core._test.disk_cache_read(dir, "key-2"))

    -- a fresh write replaces the bad file
    write_file(path, "junk")
    assert.is_true(core._test.disk_cache_write(dir, "key-1", IMAGE, { "k" }))
    assert.equal(IMAGE, (core._test.disk_cache_read(dir, "key-1")))
  end)

  it("skips silently when the directory cannot be made", function()
    write_file(root, "a plain file where the directory should be")
    assert.is_false(core._test.disk_cache_write(root .. "/sub", "key-1", IMAGE))
    assert.is_nil(core._test.disk_cache_read(root .. "/sub", "key-1"))
    os.remove(root)
  end)
end)
