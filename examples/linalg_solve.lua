--- The seed's linalg.solve example: solve A x = b for a random, well
-- conditioned A and print the relative residual ||A x - b|| / ||b||.
--   lua5.4 examples/linalg_solve.lua
local ga = require "gpuarray"

local n = 2000
local i = ga.arange(n * n, "float64")
local A = ga.remainder(ga.multiply(ga.sin(ga.multiply(i, 12.9898)), 43758.5453), 1.0):reshape(n, n)
A = ga.add(A, ga.multiply(ga.eye(n), n))              -- diagonally dominant: well conditioned
local b = ga.cos(ga.arange(n, "float64"))

local x = ga.linalg.solve(A, b)
local r = ga.subtract(ga.matmul(A, x), b)
local rel = ga.linalg.norm(r):item() / ga.linalg.norm(b):item()
print(("n = %d, float64: relative residual ||A x - b|| / ||b|| = %.3e"):format(n, rel))
assert(rel < 1e-12, "residual too large")

local x32 = ga.linalg.solve(A:astype("float32"), b:astype("float32"))
local r32 = ga.subtract(ga.matmul(A:astype("float32"), x32), b:astype("float32"))
print(("n = %d, float32: relative residual = %.3e"):format(n, ga.linalg.norm(r32):item() / ga.linalg.norm(b):item()))
