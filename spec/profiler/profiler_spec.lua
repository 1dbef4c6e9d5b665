-- ga.profiler's NVTX ranges: without a tool attached they are no-ops that
-- check their arguments and keep push/pop balanced; with an NVTX injection
-- library (tools/nvtx-inject.c, built here: NVTX loads it as Nsight Systems
-- loads its own) each range reaches the tool with its name and color. On a
-- GPU a range spans a matmul (tools/nvtx-check.sh shows it in nsys/ncu).
local helper = require "helper"
local ga = helper.ga
local profiler = ga.profiler

describe("profiler ranges without a tool", function()
  it("range_push/range_pop and time_range run as no-ops", function()
    assert.same({}, { profiler.range_push("outer") })
    profiler.range_push("inner", { color = 0xFF00FF00 })
    profiler.range_pop()
    profiler.range_pop()
    assert.same({ 1, nil, "three", n = 3 },
                table.pack(profiler.time_range("r", function() return 1, nil, "three" end)))
    assert.same({ n = 0 }, table.pack(profiler.time_range("empty", function() end)))
  end)

  it("names and colors are checked before a range opens", function()
    helper.assert_gaerror(function() profiler.range_push("") end, "profiler.range_push: the range's name is empty")
    helper.assert_gaerror(function() profiler.range_push("a\0b") end, "contains a NUL byte")
    helper.assert_gaerror(function() profiler.range_push(42) end, "profiler.range_push: name must be a string")
    helper.assert_gaerror(function() profiler.range_push("x", { color = -1 }) end, "color must be an ARGB value")
    helper.assert_gaerror(function() profiler.range_push("x", { color = 0x100000000 }) end,
                          "got 4294967296")
    helper.assert_gaerror(function() profiler.range_push("x", { colour = 1 }) end, "did you mean 'color'")
    helper.assert_gaerror(function() profiler.time_range("", function() end) end, "profiler.time_range: the range")
    helper.assert_gaerror(function() profiler.time_range("x", 42) end, "profiler.time_range: fn must be")
    -- none of them opened a range
    helper.assert_gaerror(function() profiler.range_pop() end,
                          "profiler.range_pop: no range is open (range_push opens one)")
  end)

  it("range_pop without an open range raises, and pushes and pops balance", function()
    helper.assert_gaerror(function() profiler.range_pop() end, "no range is open")
    profiler.range_push("a")
    profiler.range_pop()
    helper.assert_gaerror(function() profiler.range_pop() end, "no range is open")
  end)

  it("time_range closes its range when fn raises, and passes fn's error unchanged", function()
    local ok, err = pcall(profiler.time_range, "boom", function() error("the user's", 0) end)
    assert.is_false(ok)
    assert.equal("the user's", err)
    local t = {}
    ok, err = pcall(profiler.time_range, "boom", function() error(t) end)
    assert.is_false(ok)
    assert.equal(t, err)
    -- a gpuarray error inside fn names the function that raised it, not time_range
    local e = helper.assert_gaerror(function() profiler.time_range("z", function() ga.zeros("bad") end) end)
    assert.matches("^gpuarray: zeros: ", e)
    helper.assert_gaerror(function() profiler.range_pop() end, "no range is open")
  end)
end)

describe("profiler.profile and profiler.benchmark", function()
  it("check their arguments; profile needs a device", function()
    helper.assert_gaerror(function() profiler.profile(3) end, "profiler.profile: fn must be a function, got 3")
    helper.assert_gaerror(function() profiler.profile(function() end, 1) end, "profiler.profile: too many arguments")
    if not ga.is_available() then
      local ran = false
      helper.assert_gaerror(function() profiler.profile(function() ran = true end) end,
                            "profiler.profile: no CUDA device to profile")
      assert.is_false(ran)
    end
    assert.equal(ga.benchmark, profiler.benchmark)
  end)

  helper.gpu_it("profile returns fn's results and passes its error, the profiler stopped after both", function()
    assert.same({ 1, "two", n = 2 }, table.pack(profiler.profile(function() return 1, "two" end)))
    local ok, err = pcall(profiler.profile, function() error("the user's", 0) end)
    assert.is_false(ok)
    assert.equal("the user's", err)
    -- stopped: a second profile starts afresh
    assert.equal(6, profiler.profile(function() return ga.arange(4):sum():item() end))
  end)
end)

describe("profiler ranges seen by an NVTX tool", function()
  local base = os.tmpname()
  local so = base .. ".so"
  local built, out = helper.sh(("cc -shared -fPIC -I/usr/local/cuda/include -o %s tools/nvtx-inject.c"):format(so))
  local tool_it = built and it or function(name) pending(name .. " (no C compiler: " .. out .. ")") end

  tool_it("gets each range's name, color and end, in order", function()
    local ok, log = helper.sh(("NVTX_INJECTION64_PATH=%s LUA_PATH='lua/?.lua;lua/?/init.lua;;' " ..
                                 "LUA_CPATH='build/?.so;;' lua5.4 -e %q"):format(so, [[
      local ga = require "gpuarray"
      local p = ga.profiler
      io.stderr:write("before\n")
      io.stderr:write(p.time_range("user range", function()
        p.range_push("nested", { color = 0xFF336699 })
        p.range_pop()
        return "done\n"
      end))
      pcall(p.time_range, "raising", function() error("x") end)]]))
    assert.is_true(ok, log)
    assert.equal(table.concat({
      "before",
      "nvtx: injection loaded",
      "nvtx: push user range",
      "nvtx: push nested (color 0xff336699)",
      "nvtx: pop",
      "nvtx: pop",
      "done",
      "nvtx: push raising",
      "nvtx: pop",
      "" }, "\n"), log)
  end)
  teardown(function() os.remove(so); os.remove(base) end)
end)

describe("profiler ranges on a GPU", function()
  helper.gpu_it("time_range around a matmul returns its product (sync: the range spans the kernel)", function()
    local a = ga.arange(12, "float32"):reshape(3, 4)
    local b = ga.arange(8, "float32"):reshape(4, 2)
    local c = profiler.time_range("matmul", function() return ga.matmul(a, b) end, { sync = true })
    -- A[i][k] = 4(i-1) + k-1, B[k][j] = 2(k-1) + j-1
    local want = {}
    for i = 1, 3 do
      want[i] = {}
      for j = 1, 2 do
        local s = 0
        for k = 1, 4 do s = s + (4 * (i - 1) + k - 1) * (2 * (k - 1) + j - 1) end
        want[i][j] = s
      end
    end
    assert.same(want, c:totable())
    helper.assert_gaerror(function() profiler.range_pop() end, "no range is open")
  end)
end)
