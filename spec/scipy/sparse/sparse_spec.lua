-- ga.scipy.sparse (= ga.sparse): DIA, the *_array kinds, the combinators
-- (kron, stacks, bmat, block_diag, tril, triu, find, spdiags), the
-- elementwise operations and reductions, against SciPy's values
-- (spec/scipy/sparse/ref.lua, written by ref.py); CPU: the names and their
-- declarations, the early checks, the kernels' compiles.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"
local R = dofile("spec/scipy/sparse/ref.lua")
local sparse = ga.scipy.sparse

local function near(got, ref, tol, what)
  tol = tol or 1e-12
  if not ga.is_ndarray(got) then got = ga.asarray(got) end
  local r = ga.array(ref, got.dtype)
  assert.same(r.shape, got.shape, (what or "") .. ": shape")
  if r.size == 0 then return end
  local diff = ga.max(ga.abs(ga.subtract(got, r))):item()
  assert(diff <= tol * math.max(1, ga.max(ga.abs(r)):item()),
    ("%s: largest difference %.3g"):format(what or "values", diff))
end

local TSV = { "coo_array", "csc_array", "csr_array", "dia_array", "coo_matrix", "csc_matrix", "csr_matrix",
  "dia_matrix", "eye_array", "diags_array", "block_array", "random_array", "eye", "identity", "diags", "spdiags",
  "bmat", "rand", "random", "kron", "kronsum", "hstack", "vstack", "block_diag", "tril", "triu", "matrix_transpose",
  "permute_dims", "swapaxes", "find", "get_index_dtype", "safely_cast_index_arrays", "issparse", "isspmatrix",
  "isspmatrix_csc", "isspmatrix_csr", "isspmatrix_coo", "isspmatrix_dia" }

describe("scipy.sparse without a GPU", function()
  it("is ga.sparse, with CuPy's names, each declared", function()
    assert.equal(ga.sparse, sparse)
    for _, n in ipairs(TSV) do
      assert.is_function(sparse[n], n)
      assert.is_not_nil(api.entry(sparse[n]), n .. " is declared")
    end
    assert.equal(sparse.linalg, ga.scipy.sparse.linalg)
    assert.is_function(sparse.csgraph.connected_components)
  end)

  it("checks arguments before touching the device", function()
    helper.assert_gaerror(function() sparse.csr_matrix(5) end, "sparse.csr_matrix: expected")
    helper.assert_gaerror(function() sparse.eye(2, 3, { format = "bsr" }) end, "format must be one of")
    helper.assert_gaerror(function() sparse.coo_matrix({ -1, 3 }) end, "shape")
    helper.assert_gaerror(function() sparse.random(3, 3, 2) end, "density")
    helper.assert_gaerror(function() sparse.bmat({}) end, "must not be empty")
    helper.assert_gaerror(function() sparse.hstack({}) end, "non-empty list")
    helper.assert_gaerror(function() sparse.csr_matrix({ 2, 2 }, { shpae = { 2, 2 } }) end, "did you mean 'shape'")
    assert.is_false(sparse.issparse({}))
    assert.is_false(sparse.isspmatrix(5))
    assert.equal("int32", sparse.get_index_dtype({}, 1000))
    assert.equal("int64", sparse.get_index_dtype({}, 2 ^ 40))
  end)

  it("reads a constructor's Lua tables as tuples or as dense rows", function()
    local c = sparse._impl.classify
    assert.equal("shape", (c({ 2, 3 }, "f")))
    assert.equal("dense", (c({ { 1, 2 }, { 3, 4 } }, "f")))
    assert.equal("dense", (c({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } }, "f")))
    assert.equal("dense", (c({ { { 1, 0 }, { 2, 1 } } }, "f")))                 -- complex pairs
    assert.equal("coo", (c({ { 1, 2 }, { { 1, 2 }, { 2, 1 } } }, "f")))
    assert.equal("compressed", (c({ { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3, 4 } }, "f")))   -- data, indices, indptr
    assert.equal("compressed", (c({ ga.array, { 1, 2, 3 }, { 1, 2, 4 } }, "f")))         -- not all plain lists
    assert.equal("compressed", (c({ { 1, 2 }, { 1, 2 }, { 1, 2, 3, 3 } }, "f")))
    assert.equal("pair", (c({ { { 1, 2 } }, { 0 } }, "f")))                   -- DIA data, offsets
    assert.equal("pair", (c({ { 1, 2, 3 }, 0 }, "f")))
    helper.assert_gaerror(function() c(5, "sparse.csr_matrix") end, "expected")
  end)

  it("compiles its kernels (scatter add, row extrema) for every value dtype", function()
    for _, t in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      sparse._impl.add_kernel():compile("int64", t, t)
      for _, kind in ipairs({ "max", "min" }) do
        sparse._impl.row_extremum_kernel(kind):compile("int32", "int32", t, "int32", "int64", t, "int64")
      end
    end
  end)
end)

describe("scipy.sparse", function()
  local S, T

  helper.gpu_it("elementwise operations with SciPy's results (union, intersection, zeros dropped)", function()
    S, T = sparse.csr_matrix(ga.array(R.D)), sparse.csr_matrix(ga.array(R.E))
    near((S + T):toarray(), R.D_plus_E, 1e-14, "S + T")
    near(S:multiply(T):toarray(), R.D_mul_E, 1e-14, "multiply")
    near(S:maximum(T):toarray(), R.D_max_E, 0, "maximum")
    near(S:minimum(T):toarray(), R.D_min_E, 0, "minimum")
    near(S:maximum(0):toarray(), R.D_max_0, 0, "maximum(0)")
    near(S:abs():toarray(), R.D_abs, 0, "abs")
    near(S:abs():sqrt():toarray(), R.D_sqrt_abs, 1e-15, "sqrt")
    near(S:power(3):toarray(), R.D_power3, 1e-14, "power")
    near(S:multiply(ga.array(R.E)):toarray(), R.D_mul_E, 1e-14, "multiply dense")
    near((S / 2):toarray(), ga.divide(ga.array(R.D), 2):totable(), 0, "S / 2")
    assert.equal("csr", (S + T).format)
    helper.assert_gaerror(function() return S + 1 end, "nonzero scalar")
    helper.assert_gaerror(function() return S + sparse.eye(3) end, "inconsistent shapes")
    -- a sparse array multiplies elementwise, a matrix takes the product
    local Sa = sparse.csr_array(ga.array(R.D))
    assert.is_true(Sa.is_array)
    near((Sa * sparse.csr_array(ga.array(R.E))):toarray(), R.D_mul_E, 1e-14, "array *")
    near((S * sparse.csr_matrix(ga.array(R.E)):transpose()):toarray(),
      ga.matmul(ga.array(R.D), ga.array(R.E):swapaxes(1, 2)):totable(), 1e-14, "matrix *")
    assert.is_true(sparse.isspmatrix(S))
    assert.is_false(sparse.isspmatrix(Sa))
    assert.is_true(sparse.isspmatrix_csr(S))
  end)

  helper.gpu_it("reductions: sum, mean, max/min (implicit zeros), argmax/argmin (1-based), diagonal", function()
    S = sparse.csr_matrix(ga.array(R.D))
    assert.near(R.D_sum, S:sum():item(), 1e-12)
    near(S:sum(1), R.D_sum1, 1e-14, "sum(1)")
    near(S:sum(2), R.D_sum2, 1e-14, "sum(2)")
    near(S:mean(1), R.D_mean1, 1e-14, "mean(1)")
    assert.equal(R.D_max, S:max():item())
    assert.equal(R.D_min, S:min():item())
    near(S:max(1), R.D_max1, 0, "max(1)")
    near(S:min(2), R.D_min2, 0, "min(2)")
    assert.equal(R.D_argmax, S:argmax())
    assert.equal(R.D_argmin, S:argmin())
    assert.same(R.D_argmax1, S:argmax(1):totable())
    assert.same(R.D_argmin2, S:argmin(2):totable())
    near(S:diagonal(), R.D_diag, 0, "diagonal")
    near(S:diagonal(1), R.D_diag1, 0, "diagonal(1)")
    near(S:diagonal(-2), R.D_diagm2, 0, "diagonal(-2)")
    assert.equal(R.D_count_nonzero, S:count_nonzero())
    local csc = S:tocsc()
    assert.equal(R.D_argmax, csc:argmax())
    near(csc:max(1), R.D_max1, 0, "CSC max(1)")
  end)

  helper.gpu_it("DIA both ways, dia_matrix from (data, offsets), spdiags, diags", function()
    S = sparse.csr_matrix(ga.array(R.D))
    local d = S:todia()
    assert.equal("dia", d.format)
    assert.same(R.D_dia_offsets, d.offsets:totable())
    near(d.data, R.D_dia_data, 0, "DIA data")
    near(d:toarray(), R.D, 0, "DIA -> dense")
    near(d:tocsr():toarray(), R.D, 0, "DIA -> CSR")
    near(d.T:toarray(), ga.array(R.D):swapaxes(1, 2):totable(), 0, "DIA transpose")
    near(d:dot(ga.ones(5)), ga.matmul(ga.array(R.D), ga.ones(5)):totable(), 1e-14, "DIA product")
    local dm = sparse.dia_matrix({ { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } }, { 0, 1 } }, { shape = { 4, 4 } })
    near(dm:toarray(), R.dia_from, 0, "dia_matrix")
    near(sparse.spdiags({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } }, { 0, -1, 2 }, 4, 4):toarray(), R.spdiags,
      0, "spdiags")
    near(sparse.diags({ { 1, 2, 3 }, { 4, 5 }, { 6 } }, { 0, 1, -2 }, { shape = { 3, 3 } }):toarray(), R.diags, 0,
      "diags")
    helper.assert_gaerror(function() sparse.dia_matrix({ { { 1, 2 } }, { 0, 1 } }, { shape = { 2, 2 } }) end,
      "does not match the number of offsets")
  end)

  helper.gpu_it("kron, kronsum, hstack, vstack, bmat, block_diag, tril, triu, find", function()
    S, T = sparse.csr_matrix(ga.array(R.D)), sparse.csr_matrix(ga.array(R.E))
    near(sparse.kron({ { 1, 2 }, { 0, 3 } }, sparse.csr_matrix(ga.array({ { 0, 1 }, { 1, 0 }, { 2, 2 } }))):toarray(),
      R.kron, 0, "kron")
    near(sparse.kronsum({ { 1, 2 }, { 0, 3 } }, { { 0, 1, 1 }, { 1, 0, 0 }, { 2, 2, 5 } }):toarray(), R.kronsum, 0,
      "kronsum")
    near(sparse.hstack({ S, T }):toarray(), R.hstack, 0, "hstack")
    near(sparse.vstack({ S, T }):toarray(), R.vstack, 0, "vstack")
    near(sparse.bmat({ { S, false }, { false, T } }):toarray(), R.bmat, 0, "bmat")
    near(sparse.block_diag({ S, sparse.csr_matrix(ga.array({ { 7.0 } })), T }):toarray(), R.block_diag, 0,
      "block_diag")
    near(sparse.tril(S, -1):toarray(), R.D_tril, 0, "tril")
    near(sparse.triu(S, 1):toarray(), R.D_triu1, 0, "triu")
    local I, J, V = sparse.find(S)
    assert.same(R.D_find_I, I:totable())
    assert.same(R.D_find_J, J:totable())
    near(V, R.D_find_V, 0, "find values")
    helper.assert_gaerror(function() sparse.hstack({ S, sparse.eye(4) }) end, "incompatible row dimensions")
    assert.same({ 5, 6 }, sparse.swapaxes(S, 1, 2).shape)
    assert.same({ 5, 6 }, sparse.permute_dims(S).shape)
    assert.same({ 6, 5 }, sparse.permute_dims(S, { 1, 2 }).shape)
    local a, b = sparse.safely_cast_index_arrays(S, "int64")
    assert.equal("int64", a.dtype)
    assert.same(S.indices:totable(), a:totable())
    assert.same(S.indptr:totable(), b:totable())
  end)

  helper.gpu_it("random, rand and random_array: distinct positions, values in [0, 1), a sampler", function()
    local A = sparse.random(50, 40, 0.1, { format = "csr", random_state = 3 })
    assert.equal(200, A.nnz)
    assert.equal("csr", A.format)
    local B = sparse.random(50, 40, 0.1, { format = "csr", seed = 3 })
    assert.is_true(ga.array_equal(A:toarray(), B:toarray()))
    assert.equal("coo", sparse.rand(10, 10, 0.2).format)
    local C = sparse.random_array({ 20, 30 }, { density = 0.05, data_sampler = function(k) return ga.full(k, 7.0) end })
    assert.is_true(C.is_array)
    assert.equal(30, C.nnz)
    assert.equal(7 * 30, C:sum():item())
    -- the sampler's own error passes unchanged (user code)
    local ok, err = pcall(sparse.random, 5, 5, 0.5, { data_rvs = function() error("mine", 0) end })
    assert.is_false(ok)
    assert.equal("mine", err)
  end)
end)
