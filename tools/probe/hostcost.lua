-- Where the event-timed bench time of a call goes: its host time per call
-- (a small input on the same path), its median event time one call at a
-- time (as bench/run.lua's B.gpu_ms, host latency included) and its time
-- per call when 20 calls are queued back to back (the device's own time)
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local core = ga._core
local T = require "timing"
local host_us, queued_us = T.host_us, T.queued_us
local N = 1 << 26
local x = ga.random.random(N, "float32")
local xb = x:astype("bfloat16")
local xn = ga.where(x:lt(0.01), 0 / 0, x):astype("float32")
local A = ga.random.random({ 4096, 4096 }, "float32")
local Q = 1 << 24
local acc = ga.zeros(1 << 16, "float32")
local idx = ga.random.randint(1, (1 << 16) + 1, Q, "int64")
local w = x[{ { 1, Q } }]
local img2 = ga.random.random({ 2048, 2048 }, "float32")
local P = 1 << 22
local coords = (ga.random.random({ 2, P }, "float32") * 2047):astype("float32")
local sx, sxb, sA = x[{ { 1, 4096 } }], xb[{ { 1, 4096 } }], ga.random.random({ 64, 64 }, "float32")
local sacc, sidx, sw = ga.zeros(64, "float32"), ga.random.randint(1, 65, 256, "int64"), x[{ { 1, 256 } }]
local scoords = coords[{ {}, { 1, 256 } }]:copy()
local nd = ga.scipy.ndimage
local cases = {
  { "copy", function() return x:copy() end, function() return sx:copy() end },
  { "sum_f32", function() return x:sum() end, function() return sx:sum() end },
  { "sum_bf16", function() return xb:sum() end, function() return sxb:sum() end },
  { "nanmean", function() return ga.nanmean(xn) end, function() return ga.nanmean(sx) end },
  { "pad", function() return ga.pad(A, 32, "reflect") end, function() return ga.pad(sA, 32, "reflect") end },
  { "add_at", function() ga.add.at(acc, idx, w) end, function() ga.add.at(sacc, sidx, sw) end },
  { "map_coordinates", function() return nd.map_coordinates(img2, coords, nil, 1) end,
    function() return nd.map_coordinates(img2, scoords, nil, 1) end },
  { "add_reduce", function() return ga.add.reduce(x) end, function() return ga.add.reduce(sx) end },
}
for _, c in ipairs(cases) do
  local g = core._test.gpu_time_ms(c[2], 20) * 1e3
  local q = queued_us(c[2], 20)
  local h = host_us(c[3], 2000)
  print(("%-16s event %8.2f us  queued %8.2f us  host(small) %6.2f us"):format(c[1], g, q, h))
end
