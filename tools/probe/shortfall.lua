-- The kernels behind the bench keys still short of their bar (issues 25-28,
-- 30), each run 3 times after a warm-up, for ncu to time: tools/probe/shortfall.sh
local ga = require "gpuarray"
local which = arg[1] or "all"
local N = 1 << 26
local x = ga.random.random(N, "float32")
local function run(name, f)
  if which ~= "all" and which ~= name then return end
  f(); ga.synchronize()
  for _ = 1, 3 do f() end
  ga.synchronize()
end
local xb = x:astype("bfloat16")
run("copy", function() return x:copy() end)
run("sum_f32", function() return x:sum() end)
run("sum_bf16", function() return xb:sum() end)
local xn = ga.where(x:lt(0.01), 0 / 0, x):astype("float32")
run("nanmean", function() return ga.nanmean(xn) end)
local A = ga.random.random({ 4096, 4096 }, "float32")
run("pad", function() return ga.pad(A, 32, "reflect") end)
local Q = 1 << 24
local acc = ga.zeros(1 << 16, "float32")
local idx = ga.random.randint(1, (1 << 16) + 1, Q, "int64")
local w = x[{ { 1, Q } }]
run("add_at", function() ga.add.at(acc, idx, w) end)
local rs = ga.random.RandomState(2024)
local img2 = rs:random(2048 * 2048, "float32"):reshape(2048, 2048)
local P = 1 << 22
local coords = (rs:random(2 * P, "float32") * 2047):astype("float32"):reshape(2, P)
run("map_coordinates", function() return ga.scipy.ndimage.map_coordinates(img2, coords, nil, 1) end)
