-- Fault injection (GPUARRAY_FAIL=kind:N, or core._test.fault(kind, N) from Lua):
-- the N-th allocation, compile, launch or library-handle call fails once.
-- Every public function must then raise a gpuarray: error, leave its
-- arguments as they were, and leak nothing (the pool's used bytes come back).
-- Compiles run here; the rest needs a GPU (helper.gpu_it).
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gpu_it = helper.gpu_it

local function rand_list(n)
  return helper.random_table({ n }, function() return math.random(-1000, 1000) / 8 end)
end

describe("fault injection without a GPU", function()
  after_each(function()
    for _, k in ipairs({ "alloc", "compile", "launch", "lib" }) do core._test.fault(k, 0) end
  end)

  it("fails the N-th compile once, with a gpuarray error", function()
    local src = "__global__ void k(float *x) { x[0] = %d; }"
    core._test.fault("compile", 2)
    assert.is_number(core._test.compile(src:format(math.random(1e6)), nil, 90))
    helper.assert_gaerror(function() core._test.compile(src:format(math.random(1e6)), nil, 90) end, "injected")
    assert.is_number(core._test.compile(src:format(math.random(1e6)), nil, 90))   -- once only
    assert.equal(2, core._test.fault("compile", 0))          -- counted up to the one that failed
  end)

  it("GPUARRAY_FAIL arms kinds for a whole process", function()
    local script = [[
      local core = require "gpuarray.core"
      local function try(i)
        local ok, err = pcall(core._test.compile, ("__global__ void k%d() {}"):format(i), nil, 90)
        io.write(ok and "ok " or (tostring(err):match("^gpuarray: .*injected") and "injected " or tostring(err)))
      end
      for i = 1, 4 do try(i) end
    ]]
    local cmd = ("GPUARRAY_FAIL=alloc:9,compile:3 LUA_PATH=%q LUA_CPATH=%q lua5.4 -e %q 2>&1")
      :format(package.path, package.cpath, script)
    local p = assert(io.popen(cmd))
    local out = p:read("a")
    p:close()
    assert.equal("ok ok injected ok ", out)
  end)

  it("counts without failing when disarmed, and knows its kinds", function()
    core._test.fault("compile", 0)
    assert.is_number(core._test.compile("__global__ void k() {}", nil, 90))
    assert.equal(0, core._test.fault("compile", 0))          -- disarmed kinds do not count
    helper.assert_gaerror(function() core._test.fault("disk", 1) end, "unknown kind")
  end)
end)

-- Public functions over x (float32 vector), y (float32 vector), i (int64
-- indices): each returns fresh results and changes none of its arguments
local CASES = {
  { "add", function(x, y) return ga.add(x, y) end },
  { "operators", function(x, y) return x * 2 + y end },
  { "sqrt", function(x) return ga.sqrt(ga.abs(x)) end },
  { "astype", function(x) return x:astype("float64") end },
  { "copy", function(x) return x:copy() end },
  { "strided copy", function(x) return x[{ { 1, -1, 2 } }]:copy() end },
  { "sum", function(x) return x:sum() end },
  { "max axis", function(x) return x:reshape(4, -1):max(2) end },
  { "mean", function(x) return x:mean() end },
  { "var", function(x) return x:var() end },
  { "argmax", function(x) return x:argmax() end },
  { "cumsum", function(x) return ga.cumsum(x) end },
  { "where", function(x, y) return ga.where(x:gt(0), x, y) end },
  { "clip", function(x) return ga.clip(x, -1, 1) end },
  { "isclose", function(x, y) return ga.isclose(x, y) end },
  { "take", function(x, _, i) return ga.take(x, i) end },
  { "mask", function(x) return x[x:gt(0)] end },
  { "nonzero", function(x) return ga.nonzero(x) end },
  { "concatenate", function(x, y) return ga.concatenate({ x, y }) end },
  { "tile", function(x) return ga.tile(x, 2) end },
  { "roll", function(x) return ga.roll(x, 3) end },
  { "zeros", function() return ga.zeros({ 5, 7 }) end },
  { "arange", function() return ga.arange(100) end },
  { "array", function() return ga.array(rand_list(50)) end },
  { "totable", function(x) return x:totable() end },
  { "ElementwiseKernel", function(x, y)
      return ga.ElementwiseKernel("float32 a, float32 b", "float32 c", "c = a - 2 * b", "fault_ek")(x, y)
    end },
  { "ReductionKernel", function(x)
      return ga.ReductionKernel("float32 a", "float32 s", "a * a", "a + b", "s = a", "0", "fault_rk")(x)
    end },
}

local function snapshot(...)
  local t = {}
  for i, a in ipairs({ ... }) do t[i] = a:totable() end
  return t
end

-- Arm kind at N = 1, 2, ... until the call makes fewer than N such calls:
-- every armed run must fail cleanly, the last must succeed
local function exhaust(kind, fn, ...)
  local pool = ga.get_default_memory_pool()
  local args = { ... }
  local before = snapshot(...)
  local fired = 0
  for n = 1, 64 do
    collectgarbage()
    collectgarbage()
    ga.synchronize()
    local used = pool:used_bytes()
    core._test.fault(kind, n)
    -- ga.eval: with lazy evaluation on, an elementwise call records and its
    -- memory is taken when the value is computed; the fault lands there
    local ok, err = pcall(function() return ga.eval(fn(table.unpack(args))) end)
    local calls = core._test.fault(kind, 0)
    if calls < n then
      assert(ok, ("%s: failed with no fault injected: %s"):format(kind, tostring(err)))
      return fired
    end
    fired = fired + 1
    assert.is_false(ok, ("%s:%d was injected but the call succeeded"):format(kind, n))
    assert(tostring(err):find("^gpuarray: "), "not a gpuarray error: " .. tostring(err))
    err = nil
    collectgarbage()
    collectgarbage()
    ga.synchronize()
    assert.equal(used, pool:used_bytes(), ("%s:%d leaked device memory"):format(kind, n))
    helper.assert_same(before, snapshot(...))
  end
  error(kind .. ": more than 64 calls of one kind")
end

describe("fault injection on the GPU", function()
  local x, y, i
  before_each(function()
    if not helper.gpu then return end
    x = ga.array(rand_list(64), "float32")
    y = ga.array(rand_list(64), "float32")
    i = ga.array({ 1, 5, 64, 2, 2 }, "int64")
  end)

  for _, kind in ipairs({ "alloc", "launch" }) do
    for _, case in ipairs(CASES) do
      gpu_it(("%s failures in %s raise, change nothing and leak nothing"):format(kind, case[1]), function()
        case[2](x, y, i)                -- compiled and cached first: only kind fails
        local fired = exhaust(kind, case[2], x, y, i)
        if case[1] ~= "totable" and kind == "alloc" then assert.is_true(fired > 0) end
      end)
    end
  end

  gpu_it("compile failures raise and leave the kernel usable", function()
    local body = ("c = a + %d"):format(math.random(1e6))      -- a kernel no cache holds
    local k = ga.ElementwiseKernel("float32 a", "float32 c", body, "fault_fresh")
    assert.is_true(exhaust("compile", function(a) return k(a) end, x) > 0)
    helper.assert_same(ga.add(x, tonumber(body:match("%d+"))):totable(), k(x):totable(), 1e-6)
  end)

  gpu_it("library-handle failures raise a gpuarray error", function()
    if not core._test.blas_dot then return pending("no library call yet") end
    exhaust("lib", function(a, b) return core._test.blas_dot(a, b) end, x, y)
  end)

  gpu_it("streams, events and pinned buffers fail cleanly too", function()
    local s = ga.Stream()
    exhaust("alloc", function(a)
      local _ <close> = s:scope()
      local z = a * 3
      local e = ga.Event()
      e:record(s)
      e:synchronize()
      return z
    end, x)
    local h = ga.pinned_empty({ 64 }, "float32")
    exhaust("launch", function(a) local z = a + 1; z:get(h); ga.synchronize() return h end, x)
  end)
end)
