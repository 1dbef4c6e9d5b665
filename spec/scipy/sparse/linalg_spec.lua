-- ga.scipy.sparse.linalg: the Krylov solvers converge to the requested
-- tolerance on SPD, nonsymmetric and ill-conditioned systems and report
-- info as SciPy when they do not; LinearOperator; spsolve, triangular
-- solves, splu / spilu; eigsh, svds, lobpcg; norm, matrix_power,
-- expm_multiply; csgraph. Values against NumPy/SciPy (ref.lua, written by
-- ref.py). CPU: declarations, checks before the device, every solver
-- kernel compiled for the four value dtypes.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"
local R = dofile("spec/scipy/sparse/ref.lua")
local sparse = ga.scipy.sparse
local L = sparse.linalg

local function near(got, ref, tol, what)
  if not ga.is_ndarray(got) then got = ga.asarray(got) end
  local r = ga.array(ref, got.dtype)
  assert.same(r.shape, got.shape, (what or "") .. ": shape")
  if r.size == 0 then return end
  local diff = ga.max(ga.abs(ga.subtract(got, r))):item()
  assert(diff <= tol * math.max(1, ga.max(ga.abs(r)):item()),
    ("%s: largest difference %.3g (tolerance %.3g)"):format(what or "values", diff, tol))
end

-- ||b - A x|| / ||b||
local function relres(A, x, b)
  local bb = ga.asarray(b)
  return ga.linalg.norm(ga.subtract(A:dot(x), bb)):item() / ga.linalg.norm(bb):item()
end

local TSV = { "LinearOperator", "aslinearoperator", "matrix_power", "norm", "spsolve", "spsolve_triangular",
  "factorized", "bicgstab", "cg", "cgs", "gmres", "minres", "lsqr", "lsmr", "eigsh", "lobpcg", "svds", "splu",
  "spilu", "expm_multiply" }

describe("scipy.sparse.linalg without a GPU", function()
  it("has CuPy's names, each declared; LinearOperator's methods too", function()
    for _, n in ipairs(TSV) do
      assert.is_function(L[n], n)
      assert.is_not_nil(api.entry(L[n]), n .. " is declared")
    end
    for _, m in ipairs({ "matvec", "rmatvec", "matmat", "rmatmat", "dot", "adjoint", "transpose" }) do
      assert.is_not_nil(api.entry("LinearOperator:" .. m), m)
    end
  end)

  it("checks arguments before touching the device", function()
    helper.assert_gaerror(function() L.cg(1, 2, { rtol = "x" }) end, "rtol must be a number")
    helper.assert_gaerror(function() L.cg(1, 2, { rtoll = 1 }) end, "did you mean 'rtol'")
    helper.assert_gaerror(function() L.gmres(1, 2, { callback_type = "y" }) end, "callback_type must be one of")
    helper.assert_gaerror(function() L.eigsh(1, { M = 1 }) end, "not supported")
    helper.assert_gaerror(function() L.eigsh(1, { which = "BE" }) end, "which must be one of")
    helper.assert_gaerror(function() L.LinearOperator({ 2, 2 }) end, "matvec or matmat is needed")
    helper.assert_gaerror(function() L.LinearOperator(5, print) end, "invalid shape")
    helper.assert_gaerror(function() L.spsolve(1, 2) end, "A must be a sparse")
    helper.assert_gaerror(function() L.splu({}, 2) end)
  end)

  it("compiles every solver kernel for the four value dtypes", function()
    local K = L._krylov
    for _, t in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local r = (t == "complex64" or t == "float32") and "float32" or "float64"
      local d, n2, n = K.reduction_kernels()
      d:compile(t, t); n2:compile(t); n:compile(t)
      local kp, kxr = L._cg_kernels()
      kp:compile(t, t, t, t, t, t)
      kxr:compile(t, t, t, t, t, t, t, t, t)
      L._gmres_kernels():compile(t, t, t)
      local b = L._bicgstab_kernels()
      b.s1:compile(t, t, t, t); b.s2:compile(t, t); b.s3:compile(t, t, t); b.s4:compile(t, t); b.s5:compile(t, t)
      b.p:compile(t, t, t, t); b.r:compile(t, t, t); b.xr:compile(t, t, t, t, t, t)
      local c = L._cgs_kernels()
      c.s1:compile(t, t, t, t); c.s2:compile(t, t); c.s3:compile(t, t)
      c.up:compile(t, t, t, t, t); c.q:compile(t, t, t, t, t); c.x:compile(t, t, t)
      local m = L._minres_kernels()
      m.s1:compile(t, "float64", "int64", t); m.s2:compile(t, "float64", "float64", "int64", "int64", t)
      m.v:compile(t, t, t); m.y1:compile(t, t, t, "int64", t, t); m.y2:compile(t, t, t)
      m.w:compile(t, t, t, t, t); m.x:compile(t, t, t)
      local q = L._lsqr_kernels()
      q.s1:compile(t, "float64", t)
      q.s2:compile(t, "float64", "float64", "float64", "float64", "float64", "float64", "int64", t)
      q.xw:compile(t, t, t, t); q.var:compile(t, t, r)
      q.bd.u:compile(t, t, t, t); q.bd.us:compile(t, t); q.bd.v:compile(t, t, t, t); q.bd.vs:compile(t, t, t)
      local l = L._lsmr_kernels()
      l.s1:compile(t, t); l.s2:compile(t, "float64", t); l.s3:compile(t, "float64", "float64", "float64", "float64",
        "int64", t)
      l.xh:compile(t, t, t, t, t)
    end
    local cs = sparse.csgraph._kernels()
    cs.hook:compile("int32", "int32", "int32", "int32")
    cs.jump:compile("int32", "int32")
    cs.colour:compile("int32", "int32", "int32", "int32", "int32")
    cs.back:compile("int32", "int32", "int32", "int32", "int32", "int32")
  end)

  it("calls its reduction kernels with no trailing nil (a ReductionKernel takes it for the output)", function()
    local K = L._krylov
    -- a scalar gets past the output check to the input one: the call shape is right
    for name, f in pairs({ nrm2 = function() return K.nrm2(3.0) end, nrm2sq = function() return K.nrm2sq(3.0) end,
      dot = function() return K.dot(3.0, 2.0) end }) do
      local err = helper.assert_gaerror(f, "needs at least one ndarray input")
      assert(not err:find("output", 1, true), name .. ": " .. err)
    end
    helper.assert_gaerror(function() return K.nrm2(3.0, 5) end, "out must be an ndarray")
  end)

  it("solves the small Hessenberg least-squares problem of gmres on the host (real and complex)", function()
    -- H (3 x 2) with rows of Ht: column j of H is Ht[j]
    local Ht = { { 2, 1, 0 }, { 1, 3, 0.5 } }
    local res, solve = L._hessenberg_lsq(Ht, 2, 1)
    local y = solve(2)
    -- the residual of min ||e1 - H y||: check against the normal equations
    local H = { { 2, 1 }, { 1, 3 }, { 0, 0.5 } }
    local r = { 1 - (H[1][1] * y[1][1] + H[1][2] * y[2][1]), -(H[2][1] * y[1][1] + H[2][2] * y[2][1]),
      -(H[3][1] * y[1][1] + H[3][2] * y[2][1]) }
    for c = 1, 2 do
      local g = H[1][c] * r[1] + H[2][c] * r[2] + H[3][c] * r[3]
      assert(math.abs(g) < 1e-14, "H^T r = 0")
    end
    assert(math.abs(res[2] - math.sqrt(r[1] ^ 2 + r[2] ^ 2 + r[3] ^ 2)) < 1e-14, "the residual estimate")
    local cres, csolve = L._hessenberg_lsq({ { { 1, 1 }, { 2, 0 } } }, 1, 1)
    local cy = csolve(1)
    -- min |1 - h y| with h = (1 + i, 2): y = conj(h1)/|h|^2
    assert(math.abs(cy[1][1] - 1 / 6) < 1e-14 and math.abs(cy[1][2] + 1 / 6) < 1e-14, "complex y")
    assert(math.abs(cres[1] - math.sqrt(1 - 1 / 6 * 2)) < 1e-12, "complex residual")
  end)
end)

describe("scipy.sparse.linalg", function()
  local function systems()
    return sparse.csr_matrix(ga.array(R.spd)), sparse.csr_matrix(ga.array(R.ns)), ga.array(R.spd_b)
  end

  helper.gpu_it("cg, minres, gmres, bicgstab, cgs converge on an SPD system to the tolerance asked", function()
    local A, _, b = systems()
    -- minres stops as SciPy's: ||r|| <= rtol Anorm ||x||, Anorm its estimate of ||A|| (the Frobenius norm
    -- of the Lanczos tridiagonal, <= ||A||_F), not on ||r|| / ||b||: here ||A||_F = 16.5, ||x|| = 14.4,
    -- ||b|| = 4.41, so ||r|| / ||b|| <= 5.4e-9 (SciPy 1.10's own minres stops at 3.20e-9, the H100 too)
    local bound_minres = 1e-10 * ga.linalg.norm(ga.array(R.spd)):item() * ga.linalg.norm(ga.array(R.spd_x)):item() /
      ga.linalg.norm(b):item()
    for _, name in ipairs({ "cg", "minres", "gmres", "bicgstab", "cgs" }) do
      local x, info = L[name](A, b, { rtol = 1e-10 })
      assert.equal(0, info, name .. " info")
      assert.equal("float64", x.dtype)
      local rr = relres(A, x, b)
      assert(rr <= (name == "minres" and bound_minres or 1e-10), ("%s: relative residual %g"):format(name, rr))
      near(x, R.spd_x, 1e-8, name .. " solution")
    end
    -- float32 stays float32
    local x32, info32 = L.cg(A:astype("float32"), b:astype("float32"), { rtol = 1e-5 })
    assert.equal(0, info32)
    assert.equal("float32", x32.dtype)
  end)

  helper.gpu_it("gmres, bicgstab, cgs on a nonsymmetric system; x0, callback, atol", function()
    local _, N, b = systems()
    for _, name in ipairs({ "gmres", "bicgstab", "cgs" }) do
      local x, info = L[name](N, b, { rtol = 1e-10 })
      assert.equal(0, info, name)
      near(x, R.ns_x, 1e-8, name)
    end
    local calls = 0
    local x, info = L.gmres(N, b, { rtol = 1e-10, restart = 5, callback = function(res)
      calls = calls + 1
      assert.is_number(res)
    end })
    assert.equal(0, info)
    assert(calls > 0, "the pr_norm callback ran")
    near(x, R.ns_x, 1e-8, "gmres restart 5")
    -- x0 at the solution: converged before any iteration
    local x2, info2 = L.bicgstab(N, b, { x0 = ga.array(R.ns_x), atol = 1e-6, rtol = 0 })
    assert.equal(0, info2)
    near(x2, R.ns_x, 1e-12, "x0 kept")
    -- cg's callback runs once per iteration, never after convergence
    local A = systems()
    local its = 0
    local _, ci = L.cg(A, b, { rtol = 1e-8, callback = function() its = its + 1 end })
    assert.equal(0, ci)
    assert(its > 0 and its <= 40, "iterations " .. its)
  end)

  helper.gpu_it("an ill-conditioned system: info = maxiter without convergence (SciPy's), then convergence", function()
    local A = sparse.csr_matrix(ga.array(R.ill))
    local b = ga.array(R.spd_b)
    local _, info = L.cg(A, b, { rtol = 1e-12, maxiter = 5 })
    assert.equal(R.ill_cg_info, info)
    local _, ginfo = L.gmres(A, b, { rtol = 1e-12, restart = 3, maxiter = 2 })
    assert.equal(2, ginfo)
    -- a Jacobi preconditioner makes it easy
    local M = sparse.diags(ga.divide(1.0, A:diagonal()), 0, { format = "csr" })
    local x, info2 = L.cg(A, b, { rtol = 1e-10, M = M })
    assert.equal(0, info2)
    near(x, R.ill_x, 1e-8, "preconditioned cg")
    local xb, ib = L.bicgstab(A, b, { rtol = 1e-10, M = M })
    assert.equal(0, ib)
    near(xb, R.ill_x, 1e-8, "preconditioned bicgstab")
  end)

  helper.gpu_it("LinearOperator: from functions and matrices, shapes, composition, user errors", function()
    local A, _, b = systems()
    local op = L.LinearOperator(A.shape, function(v) return A:dot(v) end, function(v) return A:dot(v) end)
    assert.equal("float64", op.dtype)
    local x, info = L.cg(op, b, { rtol = 1e-10 })
    assert.equal(0, info)
    near(x, R.spd_x, 1e-8, "cg on an operator")
    assert.same({ 40, 1 }, op:matvec(b:reshape(40, 1)).shape)
    assert.same({ 40, 3 }, op:matmat(ga.ones({ 40, 3 })).shape)
    local two = op * op
    near(two:matvec(b), A:dot(A:dot(b)):totable(), 1e-12, "product operator")
    near((op + op):matvec(b), ga.multiply(A:dot(b), 2):totable(), 1e-12, "sum operator")
    near((3 * op):matvec(b), ga.multiply(A:dot(b), 3):totable(), 1e-12, "scaled operator")
    near((op ^ 2):matvec(b), A:dot(A:dot(b)):totable(), 1e-12, "power operator")
    near(op.H:matvec(b), A:dot(b):totable(), 1e-12, "adjoint")
    local D = L.aslinearoperator(ga.array(R.ns))
    near(D:rmatvec(b), ga.matmul(ga.array(R.ns):swapaxes(1, 2), b):totable(), 1e-12, "rmatvec of a matrix")
    local bad = L.LinearOperator({ 40, 40 }, function() error("user failure", 0) end, nil, nil, "float64")
    local ok, err = pcall(L.cg, bad, b)
    assert.is_false(ok)
    assert.equal("user failure", err)
    local wrong = L.LinearOperator({ 40, 40 }, function() return ga.ones(3) end, nil, nil, "float64")
    helper.assert_gaerror(function() wrong:matvec(b) end, "invalid shape")
  end)

  helper.gpu_it("lsqr and lsmr: least squares of a 30 x 12 system against NumPy's lstsq", function()
    local A = sparse.csr_matrix(ga.array(R.ls_A))
    local b = ga.array(R.ls_b)
    local x, istop, itn = L.lsqr(A, b, { atol = 1e-12, btol = 1e-12 })
    assert(istop >= 1 and istop <= 3, "lsqr istop " .. istop)
    assert(itn > 0)
    near(x, R.ls_x, 1e-8, "lsqr")
    local xm, istopm = L.lsmr(A, b, { atol = 1e-12, btol = 1e-12 })
    assert(istopm >= 1 and istopm <= 3, "lsmr istop " .. istopm)
    near(xm, R.ls_x, 1e-8, "lsmr")
    local _, _, _, _, _, _, _, _, _, var = L.lsqr(A, b, { calc_var = true })
    assert.same({ 12 }, var.shape)
    assert(ga.all(ga.greater(var, 0)):item(), "var is positive")
  end)

  helper.gpu_it("spsolve: Cholesky (SPD), QR (nonsymmetric), several right-hand sides, singular", function()
    local A, N, b = systems()
    near(L.spsolve(A, b), R.spd_x, 1e-10, "spsolve SPD")
    near(L.spsolve(N, b), R.ns_x, 1e-10, "spsolve nonsymmetric")
    near(L.spsolve(A, b, "NATURAL"), R.spd_x, 1e-10, "NATURAL order")
    local X = L.spsolve(A, ga.stack({ b, ga.multiply(b, 2) }, 2))
    assert.same({ 40, 2 }, X.shape)
    near(X[{ {}, 2 }], ga.multiply(ga.array(R.spd_x), 2):totable(), 1e-10, "second column")
    local x32 = L.spsolve(A:astype("float32"), b:astype("float32"))
    assert.equal("float32", x32.dtype)
    near(x32:astype("float64"), R.spd_x, 1e-4, "float32")
    local warned, ok, xs = helper.capture_warnings(L.spsolve, sparse.csr_matrix(ga.array({ { 1, 2 }, { 2, 4 } })),
      ga.ones(2))
    assert(ok, tostring(xs))
    assert(#warned == 1 and warned[1]:find("scipy.sparse.linalg.spsolve: matrix is exactly singular", 1, true),
      tostring(warned[1]))
    assert.is_true(ga.all(ga.isnan(xs)):item())
    assert.equal(0, #helper.capture_warnings(L.spsolve, A, b), "an invertible matrix does not warn")
  end)

  -- float32 systems are factorised in float64 (dsolve.lua's WIDE): on the
  -- 128^2 Poisson matrix (cond ~ 7e3) SciPy's float32 SuperLU is off by
  -- 4.8e-5 of max|x| with a residual of 2.2e-4; the double solution
  -- rounded to float32 is off by half an ulp, residual 9.2e-5 (SciPy's
  -- numbers, computed with the same float32 products). The bench key
  -- spsolve_poisson_256^2 asks for a residual under 1e-3 (3.6e-4 rounded,
  -- 9.1e-4 by SuperLU in float32, ~1e-3 by a float32 Cholesky on the device)
  helper.gpu_it("spsolve: a float32 SPD system is solved to float32's rounding (factorised in float64)", function()
    local side = 128
    local n = side * side
    local T = sparse.diags({ ga.full(side - 1, -1, "float32"), ga.full(side, 2, "float32"),
      ga.full(side - 1, -1, "float32") }, { -1, 0, 1 }, { shape = { side, side }, format = "csr" })
    local A = sparse.kronsum(T, T, "csr"):astype("float32")
    assert.same({ n, n }, A.shape)
    assert.equal("float32", A.dtype)
    -- the 5-point Laplacian's entries sum to 4 side (the boundary rows')
    local total = ga.sum(A:dot(ga.ones(n, "float32"))):item()
    assert(total == 4 * side, ("the Laplacian's entries sum to %g, not %d"):format(total, 4 * side))
    local b = ga.ones(n, "float32")
    local x = L.spsolve(A, b)
    assert.equal("float32", x.dtype)
    assert.same({ n }, x.shape)
    local x64 = L.spsolve(A:astype("float64"), b:astype("float64"))
    local xmax = ga.max(x64):item()
    assert(math.abs(xmax - 1225.7819526640596) <= 1e-9 * 1225.78,
      ("the float64 solution's max is %.17g, SciPy's 1225.7819526640596"):format(xmax))
    local err = ga.max(ga.abs(ga.subtract(x:astype("float64"), x64))):item() / xmax
    assert(err <= 1.2e-7, ("the float32 solution is off by %.3g of max|x| (rounding alone: <= 6e-8; a float32 "
      .. "factorisation: ~5e-5)"):format(err))
    local res = relres(A, x, b)
    assert(res < 1.5e-4, ("relative residual %.3g (SciPy: 9.2e-5 for the rounded solution, 2.2e-4 in float32)")
      :format(res))
    -- complex64 is widened the same way: the same system, imaginary part 0
    local xc = L.spsolve(A:astype("complex64"), b:astype("complex64"))
    assert.equal("complex64", xc.dtype)
    local errc = ga.max(ga.abs(ga.subtract(xc:astype("complex128"), x64))):item() / xmax
    assert(errc <= 1.2e-7, ("the complex64 solution is off by %.3g of max|x|"):format(errc))
  end)

  -- three cases, not one: a device failure names the solver (an SpSV crash
  -- once took the whole file down before any of them reported)
  helper.gpu_it("spsolve_triangular: lower, upper (CSC), two right-hand sides; a zero diagonal raises", function()
    local Lt = sparse.csr_matrix(ga.array(R.tri_L))
    local b = ga.array(R.ls_b)[{ { 1, 12 } }]
    near(L.spsolve_triangular(Lt, b), R.tri_x, 1e-12, "lower")
    near(L.spsolve_triangular(Lt.T, b, false), R.tri_xu, 1e-12, "upper")
    local X = L.spsolve_triangular(Lt, ga.stack({ b, ga.multiply(b, 2) }, 2))
    assert.same({ 12, 2 }, X.shape)
    near(X[{ {}, 2 }], ga.multiply(ga.array(R.tri_x), 2):totable(), 1e-12, "second column")
    helper.assert_gaerror(function() L.spsolve_triangular(sparse.csr_matrix(ga.array({ { 1, 0 }, { 1, 0 } })), { 1, 1 })
    end, "diagonal 2 is zero")
  end)

  helper.gpu_it("splu and factorized: solve, solve T, L U = Pr A Pc", function()
    local _, N, bb = systems()
    local F = L.splu(N:tocsc())
    near(F:solve(bb), R.ns_x, 1e-10, "splu solve")
    local xt = F:solve(bb, "T")
    near(N.T:dot(xt), bb:totable(), 1e-10, "splu solve trans")
    assert.same({ 40, 40 }, F.shape)
    -- P A Q^T = L U with SciPy's perm_r / perm_c (1-based)
    local P = F.perm_r:astype("int64")
    local Q = F.perm_c:astype("int64")
    local Ad = N:toarray()
    local LU = F.L:dot(F.U):toarray()
    local rowsA = ga.take(ga.take(Ad, ga.argsort(P), 1), ga.argsort(Q), 2)
    near(LU, rowsA:totable(), 1e-10, "L U = Pr A Pc")
    near(F.L:diagonal(), ga.ones(40):totable(), 0, "L has a unit diagonal")
    local solve = L.factorized(N)
    near(solve(bb), R.ns_x, 1e-10, "factorized")
  end)

  helper.gpu_it("spilu: ILU(0) preconditions gmres; exact on a tridiagonal, transposed too", function()
    local A, N, bb = systems()
    local I = L.spilu(N)
    local M = L.LinearOperator(N.shape, function(v) return I:solve(v) end)
    local x, info = L.gmres(N, bb, { rtol = 1e-10, M = M })
    assert.equal(0, info)
    near(x, R.ns_x, 1e-8, "gmres with spilu")
    -- ILU(0) of a tridiagonal matrix is its exact LU; A is symmetric, so
    -- A^T x = b has the same x (the transposed triangular solves)
    local F = L.spilu(A)
    near(F:solve(bb), R.spd_x, 1e-10, "ILU(0) exact on a tridiagonal")
    near(F:solve(bb, "T"), R.spd_x, 1e-10, "ILU(0) solve T")
    near(F:solve(bb, "H"), R.spd_x, 1e-10, "ILU(0) solve H (real: T)")
  end)

  helper.gpu_it("eigsh, svds and lobpcg against NumPy's eigenvalues and singular values", function()
    local A = systems()
    local w, V = L.eigsh(A, { k = 3, which = "LA", tol = 1e-10 })
    near(w, R.spd_w_top3, 1e-8, "eigsh LA")
    assert.same({ 40, 3 }, V.shape)
    near(ga.matmul(A:toarray(), V), ga.multiply(V, w:reshape(1, 3)):totable(), 1e-6, "A V = V w")
    -- the Ritz vectors stay orthonormal through the restarts (one Gram-Schmidt pass a step lost it)
    near(ga.matmul(V:swapaxes(1, 2), V), ga.eye(3):totable(), 1e-10, "eigsh LA: V^T V = I")
    local ws = L.eigsh(A, { k = 3, which = "SA", tol = 1e-10, ncv = 39, maxiter = 200, return_eigenvectors = false })
    near(ws, R.spd_w_low3, 1e-6, "eigsh SA")
    local B = sparse.csr_matrix(ga.array(R.ls_A))
    local u, s, vt = L.svds(B, { k = 3, tol = 1e-10 })
    near(s, R.ls_s_top3, 1e-8, "svds")
    near(ga.matmul(B:toarray(), vt:swapaxes(1, 2)), ga.multiply(u, s:reshape(1, 3)):totable(), 1e-6, "A v = u s")
    near(ga.matmul(u:swapaxes(1, 2), u), ga.eye(3):totable(), 1e-8, "u orthonormal")
    local lam = L.lobpcg(A, ga.random.RandomState(4):random({ 40, 3 }), { tol = 1e-8, maxiter = 200 })
    near(ga.sort(lam), R.spd_w_top3, 1e-6, "lobpcg largest")
    helper.assert_gaerror(function() L.eigsh(A, { k = 40 }) end, "k must be in")
  end)

  helper.gpu_it("norm, matrix_power, expm_multiply against SciPy", function()
    local A, N = systems()
    assert.near(R.spd_norm_fro, L.norm(A):item(), 1e-12)
    assert.near(R.spd_norm_1, L.norm(A, 1):item(), 1e-12)
    assert.near(R.ns_norm_inf, L.norm(N, math.huge):item(), 1e-12)
    assert.near(R.ns_norm_m1, L.norm(N, -1):item(), 1e-12)
    near(L.norm(N, nil, 2), R.ns_norm_ax2, 1e-12, "row norms")
    near(L.matrix_power(N, 3):toarray(), R.ns_pow3, 1e-12, "matrix_power")
    local E = sparse.csr_matrix(ga.array(R.em_A))
    near(L.expm_multiply(E, ga.array(R.em_B)), R.em, 1e-10, "expm_multiply")
    near(L.expm_multiply(E, ga.array(R.em_B)[{ {}, 1 }], { start = 0, stop = 1, num = 4 }), R.em_lin, 1e-10,
      "expm_multiply at 4 points")
  end)

  helper.gpu_it("csgraph.connected_components: weak labels as SciPy's, strong as a partition", function()
    local G = sparse.csr_matrix(ga.array(R.G))
    local n, lab = sparse.csgraph.connected_components(G, { connection = "weak" })
    assert.equal(R.G_weak_n, n)
    assert.same(R.G_weak_labels, lab:totable())
    local ns, labs = sparse.csgraph.connected_components(G, { connection = "strong" })
    assert.equal(R.G_strong_n, ns)
    -- the same partition: i and j share a label here iff they do in SciPy's
    local got, want = labs:totable(), R.G_strong_labels
    for i = 1, #want do
      for j = 1, #want do
        assert.equal(want[i] == want[j], got[i] == got[j], ("vertices %d and %d"):format(i, j))
      end
    end
    assert.equal(R.G_weak_n, sparse.csgraph.connected_components(G, false, { return_labels = false }))
  end)
end)
