-- pad's and map_coordinates' host time split into their steps (small
-- inputs: the device is idle, what is timed is the host)
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local function us(f, n) return T.host_us(f, n or 3000) end
local rows = require "gpuarray.manipulation.pad_rows"
local gather = require "gpuarray.manipulation.pad_gather"
local A = ga.random.random({ 64, 64 }, "float32")
local out = ga.empty({ 128, 128 }, "float32")
local W = { { 32, 32 }, { 32, 32 } }
local p = rows.plan(A.shape, A.strides, 4, W, "reflect")
local k = rows.kernel(ga, "reflect", 4, 1)
local args = { A, out, table.unpack(p.args) }
local cases = {
  { "pad", function() return ga.pad(A, 32, "reflect") end },
  { "A.shape", function() return A.shape end },
  { "A.strides", function() return A.strides end },
  { "empty 2d", function() return ga.empty({ 128, 128 }, "float32") end },
  { "rows.plan", function() return rows.plan(A.shape, A.strides, 4, W, "reflect") end },
  { "rows.kernel", function() return rows.kernel(ga, "reflect", 4, 1) end },
  { "rawkernel launch", function() k(p.grid, p.block, args) end },
  { "merge", function() return gather.merge(A, W) end },
  { "rows.launch", function() return rows.launch(ga, p, A, out) end },
  { "is_array", function() return require("gpuarray.internal").is_array(A) end },
  { "add", function() return A + A end },
}
for _, c in ipairs(cases) do
  print(("%-18s %7.2f us"):format(c[1], us(c[2])))
end
local nd = ga.scipy.ndimage
local img = ga.random.random({ 64, 64 }, "float32")
local co = ga.random.random({ 2, 256 }, "float32")
print(("%-18s %7.2f us"):format("map_coordinates", us(function() return nd.map_coordinates(img, co, nil, 1) end)))
local acc, idx, w = ga.zeros(64, "float32"), ga.random.randint(1, 65, 256, "int64"), ga.random.random(256, "float32")
print(("%-18s %7.2f us"):format("add.at", us(function() ga.add.at(acc, idx, w) end)))
print(("%-18s %7.2f us"):format("broadcast_to", us(function() return ga.broadcast_to(w, { 256 }) end)))
print(("%-18s %7.2f us"):format("asarray(arr)", us(function() return ga.asarray(idx) end)))
local xb = ga.random.random(4096, "float32"):astype("bfloat16")
print(("%-18s %7.2f us"):format("sum bf16", us(function() return xb:sum() end)))
