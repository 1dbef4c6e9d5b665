--- A Poisson equation by conjugate gradients: the 5-point Laplacian on a
-- k x k grid (Dirichlet boundary) solved with ga.scipy.sparse.linalg.cg
-- and a Jacobi (diagonal) preconditioner. Every iteration runs on the GPU
-- without reading a value back (the solver checks convergence every 8
-- iterations); the callback counts the iterations.
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 examples/sparse_laplacian_cg.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()
local sparse = ga.scipy.sparse
local linalg = sparse.linalg

local k = 64
local n = k * k
-- off-diagonals +-1 are cut at the grid's row ends
local side = {}
for i = 1, n - 1 do side[i] = (i % k == 0) and 0 or -1 end
local A = sparse.diags({ ga.full(n - k, -1), side, ga.full(n, 4), side, ga.full(n - k, -1) },
  { -k, -1, 0, 1, k }, { format = "csr" })
A:eliminate_zeros()
print(("Laplacian: %d x %d, %d stored entries"):format(n, n, A.nnz))

-- Jacobi: M = diag(A)^-1, as a sparse diagonal matrix
local M = sparse.diags(ga.divide(1.0, A:diagonal()), 0, { format = "csr" })

local b = ga.ones(n)
local iterations = 0
local x, info = linalg.cg(A, b, { rtol = 1e-8, M = M, callback = function() iterations = iterations + 1 end })
print(("cg: info = %d after %d iterations"):format(info, iterations))

local check = ga.linalg.norm(ga.subtract(A:dot(x), b)):item() / ga.linalg.norm(b):item()
print(("relative residual of the solution: %.3e"):format(check))
example.check(info == 0, "cg did not converge (info = %d)", info)
example.check(check <= 1e-8, "the residual %.3g is above the requested tolerance", check)

-- the CPU's residual: the 5-point stencil applied here to x's values
local hx, r2 = x:totable(), 0
for i = 1, k do
  for j = 1, k do
    local p = (i - 1) * k + j
    local ax = 4 * hx[p] - (j > 1 and hx[p - 1] or 0) - (j < k and hx[p + 1] or 0)
             - (i > 1 and hx[p - k] or 0) - (i < k and hx[p + k] or 0)
    r2 = r2 + (ax - 1) ^ 2
  end
end
example.close(math.sqrt(r2 / n), 0, 1e-8, "the CPU's relative residual |A x - b| / |b|")
print("sparse_laplacian_cg: ok")
