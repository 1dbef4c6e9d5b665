-- ga.scipy.linalg and numpy.linalg's additions (eig, eigvals, cond,
-- tensorsolve, tensorinv, multi_dot, cross, matrix_transpose, norms):
-- values against SciPy/NumPy (spec/scipy/linalg/ref.lua, written by
-- ref.py), identities on random batches, errors; CPU: declarations, the
-- checks made before the device, the kernels' compiles.
local helper = require "helper"
local ga = helper.ga
local R = dofile("spec/scipy/linalg/ref.lua")
local sl = ga.scipy.linalg
local api = require "gpuarray.api"

-- got against a reference table (complex values as {re, im} pairs):
-- shape and values within tol relative to the reference's largest entry
local function near(got, ref, tol, what)
  tol = tol or 1e-10
  local r = ga.array(ref, got.dtype)
  assert.same(r.shape, got.shape, (what or "") .. ": shape")
  if r.size == 0 then return end
  local diff = ga.max(ga.abs(ga.subtract(got, r))):item()
  local scale = math.max(1, ga.max(ga.abs(r)):item())
  assert(diff <= tol * scale, ("%s: largest difference %.3g (tolerance %.3g)"):format(what or "values", diff,
    tol * scale))
end

local function rand(shape, dt, seed)
  local rs = ga.random.RandomState(seed or 7)
  local x = rs:standard_normal(shape, "float64")
  if dt and dt:match("complex") then
    x = ga.add(x:astype(dt), ga.multiply(rs:standard_normal(shape, "float64"):astype(dt), ga.complex128(0, 1)))
  end
  return dt and x:astype(dt) or x
end

local TSV = { "solve_triangular", "khatri_rao", "bandwidth", "expm", "lu", "lu_factor", "lu_solve", "block_diag",
  "circulant", "companion", "convolution_matrix", "dft", "fiedler", "fiedler_companion", "hadamard", "hankel",
  "helmert", "hilbert", "leslie", "toeplitz", "cho_factor", "cho_solve", "sqrtm", "logm" }

describe("scipy.linalg without a GPU", function()
  it("has CuPy's names, each declared", function()
    for _, n in ipairs(TSV) do
      assert.is_function(sl[n], n)
      assert.is_not_nil(api.entry(sl[n]), n .. " is declared")
      assert.equal("scipy.linalg." .. n, api.entry(sl[n]).info.qualname)
    end
    for _, n in ipairs({ "eig", "eigvals", "cond", "tensorsolve", "tensorinv", "multi_dot", "cross",
      "matrix_transpose", "matmul", "vector_norm", "matrix_norm", "svdvals" }) do
      assert.is_not_nil(api.entry(ga.linalg[n]), "linalg." .. n)
    end
    assert.equal(ga.scipy.linalg, require("gpuarray").scipy.linalg)
  end)

  it("checks arguments before touching the device", function()
    helper.assert_gaerror(function() sl.solve_triangular(1, 1, 3) end, "scipy.linalg.solve_triangular: trans")
    helper.assert_gaerror(function() sl.solve_triangular(1, 1, "X") end, "trans must be")
    helper.assert_gaerror(function() sl.solve_triangular(1, 1, 0, "yes") end, "lower must be a boolean")
    helper.assert_gaerror(function() sl.lu_solve({}, 1) end, "scipy.linalg.lu_solve: lu_and_piv must be {lu, piv}")
    helper.assert_gaerror(function() sl.cho_solve({ 1 }, 1) end, "c_and_lower must be {c, lower}")
    helper.assert_gaerror(function() sl.hadamard(6) end, "power of 2")
    helper.assert_gaerror(function() sl.hadamard(0) end, "power of 2")
    -- past 2^62 the doubling loop that found the power never ended (fuzz decl)
    helper.assert_gaerror(function() sl.hadamard(math.maxinteger - 1, "int16") end, "power of 2")
    helper.assert_gaerror(function() sl.dft(4, "x") end, "scale must be one of")
    helper.assert_gaerror(function() sl.convolution_matrix({ 1 }, 0) end, "n must be a positive integer")
    helper.assert_gaerror(function() sl.convolution_matrix({ 1 }, 2, "wrap") end, "mode must be one of")
    helper.assert_gaerror(function() sl.hilbert(-1) end, "n must be non-negative")
    helper.assert_gaerror(function() sl.expm("x") end, "scipy.linalg.expm: A must be an array")
    helper.assert_gaerror(function() sl.sqrtm(1, { dsip = false }) end, "did you mean 'disp'")
    helper.assert_gaerror(function() ga.linalg.tensorinv(1, 0.5) end, "ind must be an integer")
    helper.assert_gaerror(function() ga.linalg.multi_dot({ 1 }) end, "at least two arrays")
  end)

  it("helper.capture_warnings sees what library code warns (the spec file's own `warn` is not the library's)",
    function()
      local lib = load("warn('gpuarray: ', 'from the library')", "=lib", "t", _G)
      local before = _G.warn
      local got, ok = helper.capture_warnings(lib)
      assert.is_true(ok)
      assert.same({ "gpuarray: from the library" }, got)
      assert.equal(before, _G.warn, "warn restored")
      local _, ok2, err = helper.capture_warnings(error, "boom", 0)
      assert.is_false(ok2)
      assert.equal("boom", err)
      assert.equal(before, _G.warn, "warn restored after an error")
    end)

  it("compiles its kernels (LU permutation, Fiedler companion, eig's pair unpacking)", function()
    sl._perm_kernel():compile("int64", "int32", "int64", "int64", "int64")
    for _, t in ipairs({ "float32", "float64" }) do sl._fiedler_companion_kernel():compile(t, "int64", t) end
    ga.linalg._eig_unpack_kernel():compile("float32", "complex64", "int64", "complex64")
    ga.linalg._eig_unpack_kernel():compile("float64", "complex128", "int64", "complex128")
  end)

  it("expm's Pade coefficients are (2m-j)! m! / ((2m)! j! (m-j)!) scaled to b_m = 1", function()
    -- (degree 9 once had four wrong: expm was off by 3e-2 for 1-norms in (0.95, 2.1])
    for m, b in pairs(require("gpuarray.scipy.linalg.pade").coefficients) do
      assert.equal(m + 1, #b, "degree " .. m)
      local want = 1
      for j = m, 0, -1 do
        assert(b[j + 1] == want, ("degree %d: b_%d = %s, want %d"):format(m, j, tostring(b[j + 1]), want))
        -- b_(j-1) = b_j (2m - j + 1) j / (m - j + 1), exact in integers
        if j > 0 then want = want * (2 * m - j + 1) * j // (m - j + 1) end
      end
    end
  end)
end)

describe("scipy.linalg", function()
  helper.gpu_it("solve_triangular: lower, upper, trans 0/1/2, unit diagonal, complex; against SciPy", function()
    local L, U = ga.array(R.tri_L), ga.array(R.tri_U)
    near(sl.solve_triangular(L, R.tri_b, 0, true), R.tri_L_b, 1e-12, "L x = b")
    near(sl.solve_triangular(L, R.tri_B, 1, true), R.tri_L_B_T, 1e-12, "L^T X = B")
    near(sl.solve_triangular(L, R.tri_B, "T", true), R.tri_L_B_T, 1e-12, "trans \"T\"")
    near(sl.solve_triangular(U, R.tri_B), R.tri_U_B, 1e-12, "U X = B")
    near(sl.solve_triangular(L, R.tri_b, { lower = true, unit_diagonal = true }), R.tri_L_b_unit, 1e-12, "unit")
    near(sl.solve_triangular(ga.array(R.tri_Lc, "complex128"), R.tri_b, 2, true), R.tri_Lc_b_C, 1e-12, "L^H x = b")
    -- F-ordered operands (views of transposed copies): cuBLAS gets C-order copies
    local Lf = ga.ascontiguousarray(L:transpose()):transpose()
    local Bf = ga.ascontiguousarray(ga.array(R.tri_B):transpose()):transpose()
    assert.is_true(Lf.flags.f_contiguous and not Lf.flags.c_contiguous)
    near(sl.solve_triangular(Lf, Bf, 1, true), R.tri_L_B_T, 1e-12, "F-ordered L^T X = B")
    near(Bf, R.tri_B, 0, "b is not overwritten")
    -- only the named triangle is read
    local noisy = ga.add(L, ga.triu(ga.ones({ 4, 4 }), 1))
    near(sl.solve_triangular(noisy, R.tri_b, 0, true), R.tri_L_b, 1e-12, "upper triangle ignored")
    local x32 = sl.solve_triangular(L:astype("float32"), ga.array(R.tri_b, "float32"), 0, true)
    assert.equal("float32", x32.dtype)
    near(x32:astype("float64"), R.tri_L_b, 1e-5, "float32")
  end)

  helper.gpu_it("solve_triangular: batches broadcast and agree with one matrix at a time", function()
    local A = ga.add(ga.tril(rand({ 3, 5, 5 }, "float64", 3)), ga.multiply(ga.eye(5), 6))
    local B = rand({ 5, 2 }, "float64", 4)
    local X = sl.solve_triangular(A, B, 0, true)
    assert.same({ 3, 5, 2 }, X.shape)
    for i = 1, 3 do
      local xi = sl.solve_triangular(A[i], B, 0, true)
      near(X[i], xi:totable(), 1e-12, "matrix " .. i)
      near(ga.matmul(ga.tril(A[i]), X[i]), B:totable(), 1e-12, "A x = b, matrix " .. i)
    end
    local xv = sl.solve_triangular(A, ga.ones(5), 0, true)
    assert.same({ 3, 5 }, xv.shape)
    assert.same({ 3, 0 }, sl.solve_triangular(ga.eye(3), ga.ones({ 3, 0 })).shape)
  end)

  helper.gpu_it("solve_triangular: a zero on the diagonal raises naming it (1-based), mismatched shapes", function()
    local A = ga.array({ { 1, 0, 0 }, { 2, 0, 0 }, { 1, 1, 3 } })
    helper.assert_gaerror(function() sl.solve_triangular(A, { 1, 2, 3 }, 0, true) end,
      "scipy.linalg.solve_triangular: matrix is singular: resolution failed at diagonal 2")
    -- unit_diagonal never reads it
    -- (x1 = 1, x2 = 2 - 2 x1 = 0, x3 = 3 - x1 - x2 = 2: SciPy's [1, 0, 2])
    near(sl.solve_triangular(A, { 1, 2, 3 }, { lower = true, unit_diagonal = true }), { 1, 0, 2 }, 1e-12)
    local Ab = ga.stack({ ga.eye(3), A })
    helper.assert_gaerror(function() sl.solve_triangular(Ab, { 1, 2, 3 }, 0, true) end, "(matrix 2 of the batch)")
    helper.assert_gaerror(function() sl.solve_triangular(ga.eye(3), ga.ones(4)) end, "does not match")
    helper.assert_gaerror(function() sl.solve_triangular(ga.ones({ 2, 3 }), ga.ones(2)) end, "not square")
  end)

  helper.gpu_it("lu_factor (1-based pivots) and lu_solve (trans 0, 1, 2) against SciPy", function()
    local lu, piv = sl.lu_factor(R.lu_A)
    near(lu, R.lu_lu, 1e-12, "lu")
    assert.equal("int32", piv.dtype)
    assert.same(R.lu_piv, piv:totable())
    for t = 0, 2 do near(sl.lu_solve({ lu, piv }, R.tri_B, t), R["lu_solve_" .. t], 1e-12, "trans " .. t) end
    local x = sl.lu_solve({ lu, piv }, R.lu_b)
    near(ga.matmul(ga.array(R.lu_A), x), R.lu_b, 1e-12, "a x = b")
    -- complex a^H x = b
    local ac = rand({ 4, 4 }, "complex128", 9)
    local luc, pc = sl.lu_factor(ac)
    local bc = rand({ 4 }, "complex128", 10)
    local xc = sl.lu_solve({ luc, pc }, bc, 2)
    near(ga.matmul(ga.conj(ac:swapaxes(-1, -2)), xc), bc:totable(), 1e-12, "a^H x = b")
  end)

  helper.gpu_it("lu_factor batched, lu_solve broadcasting, pivots checked", function()
    local a = rand({ 3, 6, 6 }, "float64", 11)
    local lu, piv = sl.lu_factor(a)
    assert.same({ 3, 6 }, piv.shape)
    local b = rand({ 6, 2 }, "float64", 12)
    local x = sl.lu_solve({ lu, piv }, b)
    assert.same({ 3, 6, 2 }, x.shape)
    for i = 1, 3 do near(ga.matmul(a[i], x[i]), b:totable(), 1e-10, "matrix " .. i) end
    helper.assert_gaerror(function() sl.lu_solve({ lu, ga.zeros({ 3, 6 }, "int32") }, b) end,
      "pivot 0 is out of range [1, 6] (piv is 1-based)")
    helper.assert_gaerror(function() sl.lu_solve({ lu, piv:astype("float64") }, b) end, "integer array")
    helper.assert_gaerror(function() sl.lu_solve({ lu, piv[1] }, b) end, "does not match")
  end)

  helper.gpu_it("lu_factor warns for an exactly singular matrix, as SciPy", function()
    local warned, ok, err = helper.capture_warnings(sl.lu_factor, { { 1, 2, 3 }, { 2, 4, 6 }, { 1, 0, 1 } })
    assert(ok, tostring(err))
    assert(#warned == 1, ("one warning expected, got %d"):format(#warned))
    assert(warned[1]:find("scipy.linalg.lu_factor: diagonal number 3 is exactly zero: singular matrix", 1, true),
      warned[1])
    -- an invertible matrix does not warn
    local none = helper.capture_warnings(sl.lu_factor, { { 2, 1 }, { 1, 3 } })
    assert(#none == 0, tostring(none[1]))
  end)

  helper.gpu_it("lu: P L U of square, tall and wide matrices against SciPy; permute_l", function()
    for _, name in ipairs({ "sq", "tall", "wide" }) do
      local P, L, U = sl.lu(R["lu_" .. name .. "_a"])
      near(P, R["lu_" .. name .. "_P"], 0, name .. " P")
      near(L, R["lu_" .. name .. "_L"], 1e-12, name .. " L")
      near(U, R["lu_" .. name .. "_U"], 1e-12, name .. " U")
      local PL = sl.lu(R["lu_" .. name .. "_a"], true)
      near(PL, R["lu_" .. name .. "_PL"], 1e-12, name .. " P L")
    end
    local a = rand({ 2, 5, 3 }, "float64", 13)
    local P, L, U = sl.lu(a)
    assert.same({ 2, 5, 5 }, P.shape)
    near(ga.matmul(P, ga.matmul(L, U)), a:totable(), 1e-12, "batched P L U = a")
  end)

  helper.gpu_it("cho_factor (lower and upper) and cho_solve against SciPy; not positive definite raises", function()
    local c, low = sl.cho_factor(R.cho_S, true)
    assert.is_true(low)
    near(c, R.cho_L, 1e-12, "L")
    local cu, lowu = sl.cho_factor(R.cho_S)
    assert.is_false(lowu)
    near(cu, R.cho_U, 1e-12, "U")
    near(sl.cho_solve({ cu, lowu }, R.tri_B), R.cho_x, 1e-12, "upper solve")
    near(sl.cho_solve({ c, low }, R.tri_B), R.cho_x, 1e-12, "lower solve")
    local xv = sl.cho_solve({ c, low }, R.tri_b)
    near(ga.matmul(ga.array(R.cho_S), xv), R.tri_b, 1e-12, "vector")
    helper.assert_gaerror(function() sl.cho_factor(ga.multiply(ga.eye(3), -1)) end,
      "scipy.linalg.cho_factor: matrix is not positive definite")
  end)

  helper.gpu_it("expm against SciPy: small, moderate and large norms, complex, float32, batched", function()
    near(sl.expm(R.expm_E1), R.expm_r1, 1e-13, "small norm")
    near(sl.expm(R.expm_E2), R.expm_r2, 1e-12, "moderate")
    near(sl.expm(R.expm_E3), R.expm_r3, 1e-10, "large (squarings)")
    near(sl.expm(ga.array(R.expm_Ec, "complex128")), R.expm_rc, 1e-12, "complex")
    for i, E in ipairs(R.expm_bands) do
      near(sl.expm(E), R.expm_bands_r[i], 1e-13, ("Pade degree %d's band"):format(({ 3, 5, 7, 9, 13 })[i]))
    end
    local e32 = sl.expm(ga.array(R.expm_E2, "float32"))
    assert.equal("float32", e32.dtype)
    near(e32:astype("float64"), R.expm_r2, 2e-5, "float32")
    local batch = ga.stack({ ga.array(R.expm_E2), ga.array(R.expm_E3) })
    local eb = sl.expm(batch)
    near(eb[1], R.expm_r2, 1e-10, "batch 1")
    near(eb[2], R.expm_r3, 1e-10, "batch 2")
    near(sl.expm(ga.zeros({ 3, 3 })), ga.eye(3):totable(), 0, "expm(0) = I")
    assert.same({ 0, 0 }, sl.expm(ga.zeros({ 0, 0 })).shape)
  end)

  helper.gpu_it("sqrtm and logm against SciPy (SPD, non-symmetric, a negative eigenvalue gives complex)", function()
    near(sl.sqrtm(R.sqrtm_S), R.sqrtm_rS, 1e-10, "sqrtm SPD")
    near(sl.sqrtm(R.sqrtm_N), R.sqrtm_rN, 1e-10, "sqrtm nonsymmetric")
    near(sl.logm(R.sqrtm_N), R.logm_rN, 1e-10, "logm nonsymmetric")
    near(sl.logm(R.sqrtm_S), R.logm_rS, 1e-10, "logm SPD")
    local sn = sl.sqrtm(R.neg)
    assert.equal("complex128", sn.dtype)
    near(sn, R.sqrtm_neg, 1e-10, "sqrtm negative eigenvalue")
    local ln = sl.logm(R.neg)
    assert.equal("complex128", ln.dtype)
    near(ln, R.logm_neg, 1e-10, "logm negative eigenvalue")
    -- and with a complex pair just above the negative axis (the turn off the cut stays below it)
    near(sl.sqrtm(R.near), R.sqrtm_near, 1e-10, "sqrtm: -3 and -1.998 +- i")
    near(sl.logm(R.near), R.logm_near, 1e-10, "logm: -3 and -1.998 +- i")
    local X, err = sl.sqrtm(R.sqrtm_S, false)
    assert(err:item() < 1e-20, "sqrtm error estimate " .. tostring(err:item()))
    near(ga.matmul(X, X), R.sqrtm_S, 1e-10, "X X = A")
    local Lg, lerr = sl.logm(R.sqrtm_N, false)
    assert(lerr < 1e-12, "logm error estimate " .. lerr)
    near(sl.expm(Lg), R.sqrtm_N, 1e-10, "expm(logm(A)) = A")
    helper.assert_gaerror(function() sl.sqrtm({ { 1, 0 }, { 0, 0 } }) end, "scipy.linalg.sqrtm: the matrix is singular")
  end)

  helper.gpu_it("special matrices against SciPy", function()
    near(sl.toeplitz({ 1, 2, 3 }, { 1, 4, 5, 6 }), R.toeplitz_1, 0, "toeplitz")
    near(sl.toeplitz(ga.array({ { 1, 0 }, { 2, 3 }, { 4, -1 } }, "complex128")), R.toeplitz_2, 0, "toeplitz Hermitian")
    near(sl.hankel({ 1, 17, 99 }), R.hankel_1, 0, "hankel")
    near(sl.hankel({ 1, 2, 3, 4 }, { 4, 7, 7, 8, 9 }), R.hankel_2, 0, "hankel r")
    near(sl.circulant({ 1, 2, 3, 4 }), R.circulant, 0, "circulant")
    near(sl.hilbert(4), R.hilbert, 1e-15, "hilbert")
    near(sl.companion({ 1, -10, 31, -30 }), R.companion, 1e-15, "companion")
    for _, mode in ipairs({ "full", "same", "valid" }) do
      near(sl.convolution_matrix({ -1, 4, -2 }, 5, mode), R["convmat_" .. mode], 0, "convolution_matrix " .. mode)
    end
    near(sl.convolution_matrix({ 1, 2, 3, 4, 5, 6 }, 3, "same"), R.convmat_long_same, 0, "long same")
    near(sl.dft(5), R.dft, 1e-14, "dft")
    near(sl.dft(4, "sqrtn"), R.dft_sqrtn, 1e-14, "dft sqrtn")
    near(sl.fiedler({ 1, 4, 12, 45, 77 }), R.fiedler, 0, "fiedler")
    near(sl.fiedler_companion({ 1.0, -16.0, 86.0, -176.0, 105.0 }), R.fiedler_companion, 1e-15, "fiedler_companion")
    near(sl.fiedler_companion({ 2.0, -3.0, 1.0, 5.0, -7.0, 4.0, 9.0 }), R.fiedler_companion_6, 1e-15, "fc 6")
    local H = sl.hadamard(4)
    assert.equal("int64", H.dtype)
    near(H, R.hadamard, 0, "hadamard")
    near(sl.helmert(5), R.helmert, 1e-15, "helmert")
    near(sl.helmert(4, true), R.helmert_full, 1e-15, "helmert full")
    near(sl.leslie({ 0.1, 2.0, 1.0, 0.1 }, { 0.2, 0.8, 0.7 }), R.leslie, 0, "leslie")
    near(sl.block_diag({ { 1, 0 }, { 0, 1 } }, { { 3, 4, 5 }, { 6, 7, 8 } }, { { 7 } }, { 1, 2 }), R.block_diag, 0,
      "block_diag")
    assert.same({ 1, 0 }, sl.block_diag().shape)
    near(sl.khatri_rao(R.kr_a, R.kr_b), R.khatri_rao, 1e-15, "khatri_rao")
    local lo, up = sl.bandwidth(R.band)
    assert.same(R.band_lu, { lo, up })
    assert.same({ 0, 0 }, { sl.bandwidth(ga.eye(4)) })
  end)

  helper.gpu_it("special matrices: errors as SciPy's", function()
    helper.assert_gaerror(function() sl.companion({ 0, 1, 2 }) end, "first coefficient in a must not be zero")
    helper.assert_gaerror(function() sl.companion({ 1 }) end, "at least 2")
    helper.assert_gaerror(function() sl.leslie({ 1, 2 }, { 1, 2 }) end, "incorrect lengths")
    helper.assert_gaerror(function() sl.khatri_rao(ga.ones({ 2, 3 }), ga.ones({ 2, 2 })) end, "number of columns")
    helper.assert_gaerror(function() sl.block_diag(ga.ones({ 2, 2, 2 })) end, "argument 1 has 3 dimensions")
    helper.assert_gaerror(function() sl.bandwidth(ga.ones(3)) end, "must be 2-D")
    helper.assert_gaerror(function() sl.fiedler_companion({ 0, 1, 2 }) end, "leading coefficient is zero")
  end)
end)

describe("numpy.linalg additions", function()
  helper.gpu_it("eig/eigvals: complex pairs of a real matrix, real ones stay real, complex input", function()
    local G = ga.array(R.eig_G)
    local w, v = ga.linalg.eig(G)
    assert.equal("complex128", w.dtype)
    assert.equal("complex128", v.dtype)
    near(ga.sort(w), R.eig_G_w, 1e-12, "eigenvalues +-i, 2")
    -- a v = v diag(w), columns of unit norm
    near(ga.matmul(G:astype("complex128"), v), ga.multiply(v, w:reshape(1, 3)):totable(), 1e-12, "A v = v w")
    near(ga.linalg.norm(v, nil, 1), { 1, 1, 1 }, 1e-12, "unit columns")
    local wr, vr = ga.linalg.eig(R.eig_R)
    assert.equal("float64", wr.dtype)
    assert.equal("float64", vr.dtype)
    near(ga.sort(wr), R.eig_R_w, 1e-10, "real eigenvalues")
    near(ga.matmul(ga.array(R.eig_R), vr), ga.multiply(vr, wr:reshape(1, 4)):totable(), 1e-10, "real A v = v w")
    near(ga.sort(ga.linalg.eigvals(ga.array(R.eig_C, "complex128"))), R.eig_C_w, 1e-12, "complex input")
    assert.equal("complex64", ga.linalg.eigvals(ga.array(R.eig_G, "float32")).dtype)
    local wb = ga.linalg.eigvals(ga.stack({ G, G }))
    assert.same({ 2, 3 }, wb.shape)
  end)

  helper.gpu_it("cond in every norm against NumPy; singular gives inf where NumPy does", function()
    for _, p in ipairs({ "none", 1, -1, 2, -2, "inf", "fro", "nuc" }) do
      -- (not `p == "none" and nil or ...`: and/or cannot yield nil)
      local arg = p
      if p == "none" then arg = nil elseif p == "inf" then arg = math.huge end
      local c = ga.linalg.cond(R.cond_A, arg):item()
      local want = R["cond_" .. tostring(p)]
      assert(math.abs(c - want) <= 1e-10 * want, ("cond p=%s: %.17g vs %.17g"):format(tostring(p), c, want))
    end
    -- a singular matrix: the norms through the inverse meet its zero pivot and give inf, as NumPy's
    local sing = { { 1, 2 }, { 2, 4 } }
    for _, p in ipairs({ 1, -1, math.huge, -math.huge, "fro" }) do
      assert.equal(math.huge, ga.linalg.cond(sing, p):item(), "p = " .. tostring(p))
    end
    -- through the singular values NumPy gives inf only where the smallest comes out exactly 0: for this
    -- matrix it is rounding noise (NumPy 1.24: 1.99e-16, cond 2.52e16; the H100: ~9e-35), so the
    -- quotient is huge but finite; a matrix whose SVD is exact has sigma_min = 0 and cond inf (-2: 0)
    local c2 = ga.linalg.cond(sing):item()
    assert(c2 > 1e15, "cond of a singular matrix through its SVD: " .. c2)
    assert.equal(math.huge, ga.linalg.cond({ { 1, 0 }, { 0, 0 } }):item())
    assert.equal(0, ga.linalg.cond({ { 1, 0 }, { 0, 0 } }, -2):item())
  end)

  helper.gpu_it("tensorsolve, tensorinv, multi_dot, cross, matrix_transpose against NumPy", function()
    near(ga.linalg.tensorsolve(R.tsolve_a, R.tsolve_b), R.tsolve_x, 1e-10, "tensorsolve")
    near(ga.linalg.tensorinv(R.tinv_a, 2), R.tinv, 1e-9, "tensorinv")
    near(ga.linalg.multi_dot(R.md), R.md_r, 1e-12, "multi_dot")
    near(ga.linalg.cross(R.cross_a, R.cross_b), R.cross, 1e-14, "cross")
    local x = ga.arange(24):reshape(2, 3, 4)
    assert.same({ 2, 4, 3 }, ga.linalg.matrix_transpose(x).shape)
    helper.assert_gaerror(function() ga.linalg.cross(ga.ones(2), ga.ones(2)) end, "3 are needed")
    helper.assert_gaerror(function() ga.linalg.tensorsolve(ga.ones({ 2, 3 }), ga.ones(2)) end, "does not match")
  end)

  helper.gpu_it("svd(hermitian=true), vector_norm and matrix_norm as NumPy's", function()
    local a = rand({ 4, 4 }, "float64", 21)
    local s = ga.add(a, a:swapaxes(-1, -2))
    local U, S, Vh = ga.linalg.svd(s, { hermitian = true })
    near(S, ga.linalg.svd(s, false, false):totable(), 1e-12, "hermitian singular values")
    near(ga.matmul(ga.multiply(U, S:reshape(1, 4)), Vh), s:totable(), 1e-12, "U S Vh = a")
    -- reductions to one value are 0-d, as NumPy's: the references are numbers
    near(ga.linalg.vector_norm(a), ga.linalg.norm(a:reshape(16)):item(), 1e-12, "vector_norm of all")
    assert.same({ 1, 1 }, ga.linalg.vector_norm(a, { keepdims = true }).shape)
    near(ga.linalg.vector_norm(a, { axis = { 1, 2 }, ord = 1 }), ga.sum(ga.abs(a)):item(), 1e-12, "two axes")
    near(ga.linalg.matrix_norm(a), ga.linalg.norm(a):item(), 1e-12, "matrix_norm fro")
    near(ga.linalg.matrix_norm(a, { ord = 1 }), ga.linalg.norm(a, 1):item(), 1e-12, "matrix_norm 1")
    near(ga.linalg.vector_norm(a, { axis = 2 }), ga.linalg.norm(a, nil, 2):totable(), 1e-12, "rows")
  end)
end)
