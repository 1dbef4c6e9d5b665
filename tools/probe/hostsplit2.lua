-- map_coordinates' and add.at's host time split into their steps (small inputs)
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local function us(f, n) return T.host_us(f, n or 3000) end
local nd = ga.scipy.ndimage
local img = ga.random.random({ 64, 64 }, "float32")
local co = ga.random.random({ 2, 256 }, "float32")
local y = ga.empty(256, "float32")
local spec = { kind = "coords", order = 1, mode = 4, nin = 2, nout = 1, i32 = true, fast1 = true }
local k = nd._transform_kernel(spec)
local opts = { size = 256 }
local cases = {
  { "map_coordinates", function() return nd.map_coordinates(img, co, nil, 1) end },
  { "ascontiguousarray", function() return ga.ascontiguousarray(img) end },
  { "empty 1d", function() return ga.empty({ 256 }, "float32") end },
  { "transform_kernel", function() return nd._transform_kernel(spec) end },
  { "kernel call", function() k(img, co, 64, 64, 256, 0.0, 0, y, opts) end },
  { "co.shape", function() return co.shape end },
  { "co.dtype", function() return co.dtype end },
  { "img.ndim", function() return img.ndim end },
}
for _, c in ipairs(cases) do print(("%-18s %7.2f us"):format(c[1], us(c[2]))) end
local acc, idx, w = ga.zeros(64, "float32"), ga.random.randint(1, 65, 256, "int64"), ga.random.random(256, "float32")
print(("%-18s %7.2f us"):format("add.at", us(function() ga.add.at(acc, idx, w) end)))
print(("%-18s %7.2f us"):format("w.shape", us(function() return w.shape end)))
