--- A sparse matrix from COO triplets (1-based, duplicates summed), turned
-- into CSR, multiplied by a vector on the GPU with cuSPARSE, then used to
-- solve A x = y back with spsolve (cuSOLVER's sparse QR here: A is not
-- symmetric).
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 examples/sparse_coo_csr_dot.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()
local sparse = ga.scipy.sparse

-- (row, col, value): the entry (3, 2) appears twice and sums to 5
local row = ga.array({ 1, 1, 2, 3, 3, 3 }, "int32")
local col = ga.array({ 1, 3, 2, 1, 2, 2 }, "int32")
local val = ga.array({ 4, -1, 2, 1, 2, 3 }, "float64")

local A = sparse.coo_matrix({ val, { row, col } }, { shape = { 3, 3 } })
print(A)                                   -- coo_matrix, 6 stored entries
local C = A:tocsr()                        -- sorted, duplicates summed
print(C)
print("indptr ", C.indptr)                 -- 1-based: row i is entries indptr[i] .. indptr[i+1]-1
print("indices", C.indices)
print("data   ", C.data)

local x = ga.array({ 1, 2, 3 }, "float64")
local y = C:dot(x)                         -- SpMV
print("A x    ", y)
print("dense  ", ga.matmul(C:toarray(), x))
-- A = {{4, 0, -1}, {0, 2, 0}, {1, 5, 0}} on paper: A x = {1, 4, 11}
example.close(y:totable(), { 1, 4, 11 }, 1e-12, "A x")

-- and back: the solution of A z = y is x
local z = sparse.linalg.spsolve(C, y)
print("solve  ", z)
example.close(z:totable(), { 1, 2, 3 }, 1e-12, "spsolve(A, A x)")
print("sparse_coo_csr_dot: ok")
