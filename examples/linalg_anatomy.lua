--- The anatomy of a CuPy program, in Lua: make a random 1000 x 1000 matrix
-- on the GPU, double it in place, take its SVD, and time the whole thing
-- twice, with events on the stream (the device's time) and with the host
-- clock around a synchronisation (what the caller waits), as the seed does.
--   lua5.4 examples/linalg_anatomy.lua
local internal = require("gpuarray.internal")
local ga = require "gpuarray"

-- uniform [0, 1): ga.random when present, else a hash of the index
local function random(shape)
  if ga.random and ga.random.random then return ga.random.random(shape, "float32") end
  local i = ga.arange(shape[1] * shape[2], "float64")
  return ga.remainder(ga.multiply(ga.sin(ga.multiply(i, 78.233)), 43758.5453), 1.0):astype("float32"):reshape(shape)
end

local function program()
  local x = random({ 1000, 1000 })
  x:mul_(2)                               -- x *= 2
  return ga.linalg.svd(x)
end

program()                                 -- warm up: compile kernels, create handles
ga.synchronize()

local start, stop = ga.Event(), ga.Event()
start:record()
local host0 = ga._core.runtime.now()
local U, S, Vh = program()
stop:record()
stop:synchronize()
local host_ms = (ga._core.runtime.now() - host0) * 1e3
local gpu_ms = ga.get_elapsed_time(start, stop)

local function shp(a) return internal.shape_str(a.shape) end
print(("U %s, S %s, Vh %s (%s)"):format(shp(U), shp(S), shp(Vh), S.dtype))
print(("largest singular value %.4f, smallest %.6f"):format(S:item(1), S:item(1000)))
print(("GPU time (events):  %8.3f ms"):format(gpu_ms))
print(("host time (clock):  %8.3f ms"):format(host_ms))
