-- ga.sparse: construction checks, conversions that round-trip to the same
-- dense matrix, SpMV / SpMM / SpGEMM against dense ga.matmul, arithmetic and
-- constructors (GPU); argument errors and the scatter kernel's compile (CPU).
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local sparse = ga.sparse

local function dense_table(m, n, density, cplx)
  local t = {}
  for i = 1, m do
    t[i] = {}
    for j = 1, n do
      local v = math.random() < density and math.random(-8, 8) / 2 or 0
      t[i][j] = cplx and { v, v ~= 0 and math.random(-4, 4) or 0 } or v
    end
  end
  return t
end

local function close(a, b, tol)
  assert.is_true(ga.allclose(a, b, { rtol = tol or 1e-5, atol = tol or 1e-5 }))
end

describe("ga.sparse", function()
  it("rejects what it cannot build, before touching the device", function()
    helper.assert_gaerror(function() sparse.csr_matrix(5) end, "expected")
    helper.assert_gaerror(function() sparse.coo_matrix({ -1, 3 }) end, "shape")
    helper.assert_gaerror(function() sparse.eye(2, 3, { format = "bsr" }) end)
    assert.is_false(sparse.issparse({}))
  end)

  it("the scatter-add kernel compiles for every value dtype", function()
    local k = ga.sparse._impl.add_kernel()
    for _, t in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local src, opts = core._test.elementwise_kernel_source(k, { types = { "int64", t, t }, layout = "flat", vec = 1 })
      assert.is_true(core._test.compile(src, opts, 90) > 0, t)
    end
  end)

  helper.gpu_it("COO -> CSR -> CSC -> COO round-trips to the same dense matrix, every dtype", function()
    for _, t in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local cplx = t:match("complex") ~= nil
      local dt = dense_table(13, 9, 0.3, cplx)
      local D = ga.array(dt, t)
      local S = sparse.coo_matrix(D)
      assert.equal(t, S.dtype)
      assert.same({ 13, 9 }, S.shape)
      local csr, csc = S:tocsr(), S:tocsc()
      assert.equal("csr", csr.format)
      assert.equal("csc", csc.format)
      for _, M in ipairs({ S, csr, csc, csr:tocoo(), csc:tocsr(), csr:tocsc(), csc:tocoo():tocsc() }) do
        assert.is_true(ga.array_equal(D, M:toarray()), t .. " " .. M.format)
      end
      assert.is_true(ga.array_equal(D:transpose(), csr.T:toarray()))
      assert.is_true(ga.array_equal(D:transpose(), S.T:toarray()))
      assert.equal(S.nnz, csr.nnz)
      -- 1-based arrays read back and rebuild the matrix
      local again = sparse.csr_matrix({ csr.data, csr.indices, csr.indptr }, { shape = { 13, 9 } })
      assert.is_true(ga.array_equal(D, again:toarray()))
      local c2 = sparse.csc_matrix({ csc.data, csc.indices, csc.indptr }, { shape = { 13, 9 } })
      assert.is_true(ga.array_equal(D, c2:toarray()))
    end
  end)

  helper.gpu_it("COO triplets with duplicates sum, in any order, 1-based", function()
    local row = { 3, 1, 3, 2, 3, 1 }
    local col = { 2, 4, 2, 1, 1, 4 }
    local val = { 1, 2, 3, 4, 5, 6 }
    local S = sparse.coo_matrix({ ga.array(val, "float64"), { row, col } }, { shape = { 3, 4 } })
    local ref = { { 0, 0, 0, 8 }, { 4, 0, 0, 0 }, { 5, 4, 0, 0 } }
    helper.assert_same(ref, S:toarray():totable())
    local csr = S:tocsr()
    assert.equal(4, csr.nnz)
    helper.assert_same({ 1, 2, 3, 5 }, csr.indptr:totable())
    helper.assert_same({ 4, 1, 1, 2 }, csr.indices:totable())
    helper.assert_same({ 8, 4, 5, 4 }, csr.data:totable())
    S:sum_duplicates()
    assert.equal(4, S.nnz)
    helper.assert_same({ 1, 2, 3, 3 }, S.row:totable())
    helper.assert_same(ref, sparse.csr_matrix({ val, { row, col } }):toarray():totable())
  end)

  helper.gpu_it("malformed input raises a clear error", function()
    local d = ga.array({ 1, 2, 3 }, "float32")
    helper.assert_gaerror(function() sparse.coo_matrix({ d, { { 1, 2, 5 }, { 1, 1, 1 } } }, { shape = { 4, 4 } }) end,
      "out of range")
    helper.assert_gaerror(function() sparse.coo_matrix({ d, { { 1, 0, 2 }, { 1, 1, 1 } } }, { shape = { 4, 4 } }) end,
      "out of range")
    helper.assert_gaerror(function() sparse.coo_matrix({ d, { { 1, 2 }, { 1, 1, 1 } } }) end, "mismatched lengths")
    helper.assert_gaerror(function() sparse.csr_matrix({ d, { 1, 2, 3 }, { 1, 3, 2, 4 } }) end, "must not decrease")
    helper.assert_gaerror(function() sparse.csr_matrix({ d, { 1, 2, 3 }, { 0, 2, 4 } }) end, "start at 1")
    helper.assert_gaerror(function() sparse.csr_matrix({ d, { 1, 2 }, { 1, 2, 4 } }) end, "mismatched lengths")
    helper.assert_gaerror(function() sparse.csr_matrix({ d, { 1, 2, 9 }, { 1, 2, 4 } }, { shape = { 2, 4 } }) end,
      "out of range")
    local S = sparse.eye(3)
    helper.assert_gaerror(function() return S:dot(ga.ones(4)) end, "not aligned")
    helper.assert_gaerror(function() return S + sparse.eye(4) end, "one shape")
  end)

  helper.gpu_it("SpMV, SpMM and SpGEMM match dense matmul", function()
    for _, t in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local cplx = t:match("complex") ~= nil
      local D = ga.array(dense_table(40, 30, 0.2, cplx), t)
      local E = ga.array(dense_table(30, 25, 0.2, cplx), t)
      local x = ga.random.random(30, "float64"):astype(t)
      local X = ga.random.random({ 30, 7 }, "float64"):astype(t)
      for _, fmt in ipairs({ "csr", "csc", "coo" }) do
        local S = sparse[fmt .. "_matrix"](D)
        local y = S:dot(x)
        assert.same({ 40 }, y.shape)
        assert.equal(t, y.dtype)
        close(ga.matmul(D, x), y)
        close(ga.matmul(D, X), S:dot(X))
        close(ga.matmul(D, X), sparse.matmul(S, X))
        local P = S:dot(sparse[fmt .. "_matrix"](E))
        assert.equal("csr", P.format)
        close(ga.matmul(D, E), P:toarray())
        close(ga.matmul(D:transpose(), ga.ones(40, t)), S.T:dot(ga.ones(40, t)))
      end
    end
    local S = sparse.eye(5)
    close(ga.ones(5), S:dot(ga.ones(5, "int32")))   -- integer operands promote to float64
  end)

  helper.gpu_it("scalar products, sums, and constructors", function()
    local D = ga.array(dense_table(8, 6, 0.4), "float64")
    local S = sparse.csr_matrix(D)
    close(D * 2.5, (S * 2.5):toarray())
    close(D * -1, (-S):toarray())
    close(D * 3, (3 * S):toarray())
    local D2 = ga.array(dense_table(8, 6, 0.4), "float64")
    local S2 = sparse.coo_matrix(D2)
    close(D + D2, (S + S2):toarray())
    close(D - D2, (S - S2):toarray())
    assert.near(D:sum():item(), S:sum():item(), 1e-9)
    close(D:sum(1), S:sum(1))
    close(D:sum(2), S:sum(2))
    close(ga.eye(4, 6, 1), sparse.eye(4, 6, { k = 1 }):toarray())
    close(ga.eye(5), sparse.eye(5, { format = "csc" }):toarray())
    local L = sparse.diags({ { 1, 1, 1 }, { -2, -2, -2, -2 }, { 1, 1, 1 } }, { -1, 0, 1 })
    helper.assert_same({ { -2, 1, 0, 0 }, { 1, -2, 1, 0 }, { 0, 1, -2, 1 }, { 0, 0, 1, -2 } }, L:toarray():totable())
    local R = sparse.random(300, 200, 0.05, { dtype = "float32", seed = 7 })
    assert.equal(3000, R.nnz)
    assert.equal("float32", R.dtype)
    assert.same({ 300, 200 }, R.shape)
    local Rd = R:toarray()
    assert.equal(3000, ga.count_nonzero(Rd):item())
    assert.is_true(Rd:ge(0):all():item() and Rd:lt(1):all():item())
    local R2 = sparse.random(300, 200, 0.05, { dtype = "float32", seed = 7 })
    assert.is_true(ga.array_equal(Rd, R2:toarray()))
  end)
end)
