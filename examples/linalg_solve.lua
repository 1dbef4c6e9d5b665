--- The seed's linalg.solve example: solve A x = b for a random, well
-- conditioned A and print the relative residual ||A x - b|| / ||b||.
--   lua5.4 examples/linalg_solve.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local n = 2000
local i = ga.arange(n * n, "float64")
local A = ga.remainder(ga.multiply(ga.sin(ga.multiply(i, 12.9898)), 43758.5453), 1.0):reshape(n, n)
A = ga.add(A, ga.multiply(ga.eye(n), n))              -- diagonally dominant: well conditioned
local b = ga.cos(ga.arange(n, "float64"))

local x = ga.linalg.solve(A, b)
local r = ga.subtract(ga.matmul(A, x), b)
local rel = ga.linalg.norm(r):item() / ga.linalg.norm(b):item()
print(("n = %d, float64: relative residual ||A x - b|| / ||b|| = %.3e"):format(n, rel))
example.check(rel < 1e-12, "float64: relative residual %.3g", rel)

local x32 = ga.linalg.solve(A:astype("float32"), b:astype("float32"))
local r32 = ga.subtract(ga.matmul(A:astype("float32"), x32), b:astype("float32"))
local rel32 = ga.linalg.norm(r32):item() / ga.linalg.norm(b):item()
print(("n = %d, float32: relative residual = %.3e"):format(n, rel32))
example.check(rel32 < 1e-5, "float32: relative residual %.3g", rel32)

-- the CPU's view: rows of A times x, summed here, give b's values back
local hx, hx32, hb = x:totable(), x32:totable(), b:totable()
local got, got32, want = {}, {}, {}
for _, k in ipairs({ 1, 2, 1000, n }) do
  local row, s, s32 = A[{ k }]:totable(), 0, 0
  for j = 1, n do
    s = s + row[j] * hx[j]
    s32 = s32 + example.f32(row[j]) * hx32[j]
  end
  got[#got + 1], got32[#got32 + 1], want[#want + 1] = s, s32, hb[k]
end
example.close(got, want, 1e-10, "float64: (A x)[i] against b[i]")
example.close(got32, want, 1e-3, "float32: (A x)[i] against b[i]")
print("linalg_solve: ok")
