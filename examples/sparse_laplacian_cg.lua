--- Conjugate gradients on a sparse 2-D Laplacian (the 5-point stencil on a
-- k x k grid), every step written with ga operations: SpMV through
-- cuSPARSE, dot products and vector updates on the GPU.
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 examples/sparse_laplacian_cg.lua
local ga = require "gpuarray"
local sparse = ga.sparse

local k = 64
local n = k * k
-- off-diagonals +-1 are cut at the grid's row ends
local side = {}
for i = 1, n - 1 do side[i] = (i % k == 0) and 0 or -1 end
local A = sparse.diags({ ga.full(n - k, -1), side, ga.full(n, 4), side, ga.full(n - k, -1) },
  { -k, -1, 0, 1, k }, { format = "csr" })
A:sum_duplicates()
print(("Laplacian: %d x %d, %d stored entries"):format(n, n, A.nnz))

local b = ga.ones(n)
local x = ga.zeros(n)
local r = b - A:dot(x)
local p = r:copy()
local rs = ga.dot(r, r):item()
local r0 = math.sqrt(rs)
for it = 1, 200 do
  local Ap = A:dot(p)
  local alpha = rs / ga.dot(p, Ap):item()
  x = x + alpha * p
  r = r - alpha * Ap
  local rs_new = ga.dot(r, r):item()
  if it % 20 == 0 then print(("step %3d  |r|/|r0| = %.3e"):format(it, math.sqrt(rs_new) / r0)) end
  if math.sqrt(rs_new) < 1e-8 * r0 then
    print(("converged after %d steps"):format(it))
    break
  end
  p = r + (rs_new / rs) * p
  rs = rs_new
end
local check = ga.linalg.norm(A:dot(x) - b):item() / ga.linalg.norm(b):item()
print(("relative residual of the solution: %.3e"):format(check))
