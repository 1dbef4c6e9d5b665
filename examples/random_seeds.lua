--- The seeds' random lines, in Lua: module-level functions with a dtype
-- (cp.random.random(..., dtype=cp.float32)) and a Generator
-- (cp.random.default_rng(123)).
--   lua5.4 examples/random_seeds.lua
local internal = require("gpuarray.internal")
local ga = require "gpuarray"

-- cp.random.random((1000, 1000), dtype=cp.float32)
local a = ga.random.random({ 1000, 1000 }, "float32")
print(a.dtype, internal.shape_str(a.shape), ("mean %.4f"):format(a:mean():item()))

-- rng = cp.random.default_rng(123); rng.standard_normal(10 ** 6)
local rng = ga.random.default_rng(123)
local z = rng:standard_normal(1000000)
print(z.dtype, ("mean %.4f, std %.4f"):format(z:mean():item(), z:std():item()))
print("integers", table.concat(rng:integers(0, 10, 8):totable(), " "))

-- reproducible: the same seed, the same numbers
ga.random.seed(7)
local first = ga.random.rand(3)
ga.random.seed(7)
assert(ga.array_equal(first, ga.random.rand(3)))
print("seed(7) twice gives", tostring(first))
