-- One operation N times (default 5000), for a tracer to count the CUDA API
-- calls and their host time per call (nsys profile --trace=cuda, then
-- nsys stats --report cuda_api_sum): which calls an operation makes
-- besides its launch. Cases: empty_big (pad's 4160^2 float32 result),
-- empty_small, pad (the bench's), sum_bf16 (2^26), add (4096 float32).
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 tools/probe/api_calls.lua pad
local ga = require "gpuarray"
local case, n = arg[1] or "pad", tonumber(arg[2] or "5000")
local A = ga.random.random({ 4096, 4096 }, "float32")
local xb = ga.random.random(1 << 26, "float32"):astype("bfloat16")
local a, b = ga.random.random(4096, "float32"), ga.random.random(4096, "float32")
local cases = {
  empty_big = function() return ga.empty({ 4160, 4160 }, "float32") end,
  empty_small = function() return ga.empty({ 1 }, "float32") end,
  pad = function() return ga.pad(A, 32, "reflect") end,
  sum_bf16 = function() return xb:sum() end,
  add = function() return a + b end,
}
local f = assert(cases[case], "unknown case")
for _ = 1, 100 do f() end
ga.synchronize()
local t = os.clock()
for _ = 1, n do f() end
ga.synchronize()
print(("%s: %.2f us CPU a call"):format(case, (os.clock() - t) / n * 1e6))
