--- Where a fresh process spends compile_cached_ms (bench/elementwise.lua):
-- the same steps, timed one by one. Not a bench area (run.lua does not load
-- it); run it by hand on the device, twice with the same cache directory
-- (the first run fills the disk cache, the second is the cached case):
--   GPUARRAY_CACHE_DIR=$(mktemp -d) LUA_PATH="lua/?.lua;lua/?/init.lua;;" \
--     LUA_CPATH="build/?.so;;" lua5.4 bench/startup_probe.lua
-- Prints one line per step in milliseconds; require is timed by the caller
-- of require, so it is measured with os.clock (CPU time) only.
local c0 = os.clock()
local ga = require "gpuarray"
local core = ga._core
local cpu_require = (os.clock() - c0) * 1e3

local steps, t = {}, core.runtime.now()
local function step(name, f)
  f()
  local now = core.runtime.now()
  steps[#steps + 1] = ("%-44s %8.2f ms"):format(name, (now - t) * 1e3)
  t = now
end

local k, a
step("ElementwiseKernel object (host only)", function()
  k = ga.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x * 3.25f + y", "bench_fresh")
end)
step("device_count (cuInit)", function() ga.device_count() end)
step("synchronize (primary context creation)", function() ga.synchronize() end)
step("device_properties (cudaGetDeviceProperties)", function() ga.device_properties() end)
step("empty(4) (first pool allocation)", function() a = ga.empty(4, "float32") end)
step("fill (copy engine kernel: cache, load, launch)", function() a:fill(1) end)
step("k(a, a) (disk cache, load, allocate, launch)", function() k(a, a) end)
step("stream sync", function() core._test.stream_sync() end)
step("k(a, a) again (memoised)", function() k(a, a); core._test.stream_sync() end)

print(("%-44s %8.2f ms (CPU)"):format("require gpuarray", cpu_require))
for _, s in ipairs(steps) do print(s) end
