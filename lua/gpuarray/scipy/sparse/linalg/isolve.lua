--- The Krylov solvers of square systems: cg, gmres, bicgstab, cgs, minres,
-- with SciPy's arguments (x0, rtol|tol, atol, maxiter, M, callback) and
-- its results (x, info: 0 converged, > 0 the iterations done without
-- converging, < 0 a breakdown), following SciPy 1.12's loops line by line
-- (its stopping rule: the residual norm below max(atol, rtol ||b||)).
--
-- No iteration reads a value back (krylov.lua says how): cg keeps rho,
-- p.q and the iteration count on the device and fuses its vector updates
-- (p = z + beta p; x += alpha p with r -= alpha q) into two kernels, the
-- dot products into one reduction each; bicgstab, cgs and minres run
-- their scalar recurrences in one-thread kernels; gmres reads its small
-- Hessenberg matrix once per restart cycle (the least-squares problem is
-- solved on the host, as CuPy's is).
return function(ga, L)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail = internal.fail
  local K = L._krylov

  -- the stopping tolerance and the early returns SciPy makes before the
  -- loop: nil, x when b = 0 (x = b, info 0)
  local function tolerance(b, rtol, atol, fname)
    if rtol < 0 or atol < 0 then fail(fname .. ": rtol and atol must be non-negative") end
    local bnrm = K.number(K.nrm2(b))
    if bnrm == 0 then return nil end
    return math.max(atol, rtol * bnrm), bnrm
  end

  local function start(op, b, x, dt)
    if x then return x, ga.ascontiguousarray(ga.subtract(b, K.apply(op, x, dt))) end
    return ga.zeros(b.size, dt), b:copy()
  end

  local function check_maxiter(maxiter, default, fname)
    maxiter = maxiter or default
    if maxiter < 0 then fail(("%s: maxiter must be non-negative, got %d"):format(fname, maxiter)) end
    return maxiter
  end

  ---------------------------------------------------------------------------
  -- cg
  ---------------------------------------------------------------------------

  local cg_p, cg_xr
  --- the two fused vector updates of cg (for the compile specs too). Both
  -- do nothing once ||r||^2 < atol^2 at the iteration's start (SciPy's
  -- return), and cg_xr counts the iterations that ran.
  function L._cg_kernels()
    cg_p = cg_p or ga.ElementwiseKernel("T z, T rho, T rho_prev, T rr, T atol2", "T p",
      "if (ga_real(rr) >= ga_real(atol2)) p = z + (rho / rho_prev) * p;", "ga_cg_p")
    cg_xr = cg_xr or ga.ElementwiseKernel("T p, T q, T rho, T pq, T rr, T atol2", "T x, T r, raw T count", [[
      if (ga_real(rr) >= ga_real(atol2)) {
        T alpha = rho / pq;
        x = x + alpha * p;
        r = r - alpha * q;
        if (i == 0) count[0] = count[0] + (T)1;
      }]], "ga_cg_xr")
    return cg_p, cg_xr
  end

  def(L, [[
scipy.sparse.linalg.cg(A: sparse|LinearOperator|array_like, b: array_like, x0: array_like?, *,
                       rtol|tol: number = 1e-5, atol: number = 0.0, maxiter: integer?,
                       M: sparse|LinearOperator|array_like?, callback: callable?) -> ndarray, integer
Conjugate gradients for A x = b, A Hermitian positive definite: x and info (0: ||b - A x|| < max(atol,
rtol ||b||); maxiter (default 10 n): not reached). M approximates A^-1; callback(x) after each
iteration. Convergence is read back every 8 iterations (every one with a callback).
]], function(A, b, x0, rtol, atol, maxiter, M, callback)
    local fname = "scipy.sparse.linalg.cg"
    local op, bb, x, dt, psolve = K.system(A, b, x0, M, fname)
    local n = bb.size
    maxiter = check_maxiter(maxiter, n * 10, fname)
    local tol = tolerance(bb, rtol, atol, fname)
    if not tol then return bb, 0 end
    local atol2 = tol * tol
    local kp, kxr = L._cg_kernels()
    local r
    x, r = start(op, bb, x, dt)
    local count = ga.zeros({}, dt)
    local z = psolve and psolve(r) or r
    local rho = psolve and K.dot(r, z) or K.nrm2sq(r)
    local rr = psolve and K.nrm2sq(r) or rho
    local p = z:copy()
    local rho_prev
    local check = callback and 1 or (tol > 0 and K.CHECK_EVERY or nil)
    local ran = 0
    for it = 1, maxiter do
      if it > 1 then kp(z, rho, rho_prev, rr, atol2, p) end
      local q = K.apply(op, p, dt)
      local pq = K.dot(p, q)
      kxr(p, q, rho, pq, rr, atol2, x, r, count)
      ran = it
      if check and it % check == 0 and K.number(count) < it then break end
      if callback then api.call_user(callback, x) end
      rho_prev = rho
      z = psolve and psolve(r) or r
      rho = psolve and K.dot(r, z) or K.nrm2sq(r)
      rr = psolve and K.nrm2sq(r) or rho
    end
    if ran > 0 and K.number(count) < ran then return x, 0 end
    return x, maxiter
  end)

  ---------------------------------------------------------------------------
  -- gmres
  ---------------------------------------------------------------------------

  -- complex arithmetic on {re, im} pairs for the small least-squares
  -- problem on the host (real values are pairs with im = 0)
  local function cx(v) if type(v) == "table" then return v[1], v[2] end return v, 0 end
  local function cabs(a, b) return math.sqrt(a * a + b * b) end

  --- Givens rotations on the (k+1) x k Hessenberg matrix H (H[i][j] pairs
  -- or numbers, row i = column i of the matrix: Ht) reducing g = beta e1:
  -- returns the residual estimates res[j] = |g_{j+1}| after j columns and
  -- a solver y(k) for the first k columns
  local function hessenberg_lsq(Ht, k, beta)
    local R = {}                    -- R[j] = column j: { {re, im}, ... } (j+1 entries)
    for j = 1, k do
      R[j] = {}
      for i = 1, j + 1 do
        local re, im = cx(Ht[j][i])
        R[j][i] = { re, im }
      end
    end
    local cs, sn = {}, {}
    local g = { { beta, 0 } }
    for i = 2, k + 1 do g[i] = { 0, 0 } end
    local res = {}
    for j = 1, k do
      local col = R[j]
      for i = 1, j - 1 do          -- earlier rotations on column j
        local c, s = cs[i], sn[i]
        local a, b = col[i], col[i + 1]
        -- [a; b] <- [c a + s b; -conj(s) a + c b]
        local na = { c * a[1] + s[1] * b[1] - s[2] * b[2], c * a[2] + s[1] * b[2] + s[2] * b[1] }
        local nb = { -(s[1] * a[1] + s[2] * a[2]) + c * b[1], -(s[1] * a[2] - s[2] * a[1]) + c * b[2] }
        col[i], col[i + 1] = na, nb
      end
      local f, h = col[j], col[j + 1]
      local af, ah = cabs(f[1], f[2]), cabs(h[1], h[2])
      local c, s, r
      if ah == 0 then
        c, s, r = 1, { 0, 0 }, { f[1], f[2] }
      elseif af == 0 then
        c, s, r = 0, { h[1] / ah, -h[2] / ah }, { ah, 0 }
      else
        local t = math.sqrt(af * af + ah * ah)
        local uf = { f[1] / af, f[2] / af }                     -- f / |f|
        c = af / t
        s = { (uf[1] * h[1] + uf[2] * h[2]) / t, (uf[2] * h[1] - uf[1] * h[2]) / t }  -- uf conj(h) / t
        r = { uf[1] * t, uf[2] * t }
      end
      cs[j], sn[j] = c, s
      col[j], col[j + 1] = r, { 0, 0 }
      local gj = g[j]
      g[j] = { c * gj[1], c * gj[2] }
      g[j + 1] = { -(s[1] * gj[1] + s[2] * gj[2]), -(s[1] * gj[2] - s[2] * gj[1]) }
      res[j] = cabs(g[j + 1][1], g[j + 1][2])
    end
    local function solve(kk)
      local y = {}
      for i = kk, 1, -1 do
        local re, im = g[i][1], g[i][2]
        for l = i + 1, kk do
          local a, yl = R[l][i], y[l]
          re = re - (a[1] * yl[1] - a[2] * yl[2])
          im = im - (a[1] * yl[2] + a[2] * yl[1])
        end
        local d = R[i][i]
        local dd = d[1] * d[1] + d[2] * d[2]
        if dd == 0 then y[i] = { 0, 0 }
        else y[i] = { (re * d[1] + im * d[2]) / dd, (im * d[1] - re * d[2]) / dd } end
      end
      return y
    end
    return res, solve
  end
  L._hessenberg_lsq = hessenberg_lsq

  local gm_scale
  function L._gmres_kernels()
    gm_scale = gm_scale or ga.ElementwiseKernel("T w, T hn", "T v",
      "v = ga_real(hn) > 0 ? w / hn : T(0);", "ga_gmres_scale")
    return gm_scale
  end

  def(L, [[
scipy.sparse.linalg.gmres(A: sparse|LinearOperator|array_like, b: array_like, x0: array_like?, *,
                          rtol|tol: number = 1e-5, atol: number = 0.0, restart: integer?, maxiter: integer?,
                          M: sparse|LinearOperator|array_like?, callback: callable?,
                          callback_type: "x"|"pr_norm"|"legacy"?) -> ndarray, integer
Restarted GMRES for A x = b (restart: the Krylov dimension, default 20): x and info (0 converged; else
maxiter, SciPy's count of restart cycles, default 10 n; CuPy's maxiter counts Arnoldi steps). M is a right
preconditioner. callback_type "x": callback(x) after each cycle; "pr_norm" (default): callback(the
relative residual estimate) after each Arnoldi step (one read back a step then). One read back a cycle.
]], function(A, b, x0, rtol, atol, restart, maxiter, M, callback, callback_type)
    local fname = "scipy.sparse.linalg.gmres"
    local op, bb, x, dt, psolve = K.system(A, b, x0, M, fname)
    local n = bb.size
    restart = math.min(restart or 20, n)
    if restart < 1 and n > 0 then fail(fname .. ": restart must be positive") end
    maxiter = check_maxiter(maxiter, n * 10, fname)
    local tol, bnrm = tolerance(bb, rtol, atol, fname)
    if not tol then return bb, 0 end
    callback_type = callback_type or "pr_norm"
    local scale = L._gmres_kernels()
    local complex = K.is_complex(dt)
    local r
    x, r = start(op, bb, x, dt)
    local V = ga.empty({ restart + 1, n }, dt)
    local Ht = ga.zeros({ restart, restart + 1 }, dt)
    -- h V_j lands here and w - h V_j in w itself: a step allocates only
    -- the product A v (each dropped 4 MiB result cost about 11 us of the
    -- collector's pacing on the host, which a step of ~100 us of device
    -- work waited for: gmres on the bench's 2^20 unknowns was host-bound)
    local hv = ga.empty(n, dt)
    local hv_out = { out = hv }
    local rnorm = K.number(K.nrm2(r))
    if rnorm <= tol then return x, 0 end
    for _ = 1, maxiter do
      ga.multiply(r, 1 / rnorm, { out = V[1] })
      local res, solve
      local k = restart
      for j = 1, restart do
        local vj = V[j]
        local w = K.apply(op, psolve and psolve(vj) or vj, dt)
        local Vj = V[{ { 1, j } }]
        local hrow = Ht[j][{ { 1, j } }]
        if complex then
          ga.conj(ga.matmul(Vj, ga.conj(w)), { out = hrow })     -- V^H w
        else
          ga.matmul(Vj, w, { out = hrow })
        end
        ga.matmul(hrow, Vj, hv_out)
        if rawequal(w, vj) then w = ga.subtract(w, hv) else ga.subtract(w, hv, { out = w }) end
        local hn = Ht[j][{ { j + 1, j + 1 } }]:reshape({})
        K.nrm2(w, hn)
        scale(w, hn, V[j + 1])
        if callback and callback_type ~= "x" then
          -- SciPy reports the preconditioned residual estimate each step
          local est = hessenberg_lsq(Ht:totable(), j, rnorm)
          api.call_user(callback, est[j] / bnrm)
          if est[j] <= tol then k = j; break end
        end
      end
      -- the least-squares problem of the cycle, on the host (one read back)
      res, solve = hessenberg_lsq(Ht:totable(), k, rnorm)
      for j = 1, k do
        if res[j] <= tol then k = j; break end       -- SciPy's inner loop stops there
      end
      local y = solve(k)
      local yd = ga.array(complex and y or (function()
        local t = {}
        for i = 1, k do t[i] = y[i][1] end
        return t
      end)(), dt)
      local u = ga.matmul(yd, V[{ { 1, k } }])
      if psolve then u = psolve(u) end
      x = ga.add(x, u)
      r = ga.subtract(bb, K.apply(op, x, dt))
      rnorm = K.number(K.nrm2(r))
      if callback and callback_type == "x" then api.call_user(callback, x) end
      if rnorm <= tol then return x, 0 end
      Ht:fill(0)
    end
    return x, maxiter
  end)

  ---------------------------------------------------------------------------
  -- bicgstab
  ---------------------------------------------------------------------------

  local BICG = { "status", "count", "nr", "rho", "rho_prev", "omega", "alpha", "beta", "rv", "ns", "tt", "ts" }
  local bicg = {}
  local function slots(names)
    local idx = {}
    for i, v in ipairs(names) do idx[v] = i - 1 end
    return idx
  end

  --- bicgstab's kernels: the scalar steps (SciPy's tests and recurrences)
  -- and the gated vector updates. Status: 0 running, 1 converged, 2
  -- converged at s (x += alpha phat still to do), -10 / -11 breakdowns.
  function L._bicgstab_kernels()
    if bicg.s1 then return bicg end
    local I = slots(BICG)
    bicg.s1 = K.program("ga_bicgstab_s1", BICG, [[
      if (ga_real(status) == 0) {
        if (ga_real(nr) < ga_real(atol2)) status = T(1);
        else if (ga_abs(rho) < ga_real(rhotol)) status = T(-10);
        else if (ga_real(count) > 0 && ga_abs(omega) < ga_real(rhotol)) status = T(-11);
        else beta = ga_real(count) > 0 ? (rho / rho_prev) * (alpha / omega) : T(0);
      }]], "T", "T atol2, T rhotol")
    bicg.s2 = K.program("ga_bicgstab_s2", BICG, [[
      if (ga_real(status) == 0) {
        if (ga_real(rv) == 0 && ga_imag(rv) == 0) status = T(-11);
        else alpha = rho / rv;
      }]], "T")
    bicg.s3 = K.program("ga_bicgstab_s3", BICG, [[
      if (ga_real(status) == 0 && ga_real(ns) < ga_real(atol2)) status = T(2);]], "T", "T atol2")
    bicg.s4 = K.program("ga_bicgstab_s4", BICG, [[
      if (ga_real(status) == 0) omega = ts / tt;]], "T")
    bicg.s5 = K.program("ga_bicgstab_s5", BICG, [[
      if (ga_real(status) == 2) status = T(1);
      else if (ga_real(status) == 0) { rho_prev = rho; count = count + T(1); }]], "T")
    bicg.p = ga.ElementwiseKernel("T r, T v, raw T st", "T p", ([[
      if (ga_real(st[%d]) == 0) p = r + st[%d] * (p - st[%d] * v);]]):format(I.status, I.beta, I.omega),
      "ga_bicgstab_p")
    bicg.r = ga.ElementwiseKernel("T v, raw T st", "T r", ([[
      if (ga_real(st[%d]) == 0) r = r - st[%d] * v;]]):format(I.status, I.alpha), "ga_bicgstab_r")
    bicg.xr = ga.ElementwiseKernel("T phat, T shat, T t, raw T st", "T x, T r", ([[
      T s = st[%d];
      if (ga_real(s) == 0) { x = x + st[%d] * phat + st[%d] * shat; r = r - st[%d] * t; }
      else if (ga_real(s) == 2) x = x + st[%d] * phat;]]):format(I.status, I.alpha, I.omega, I.omega, I.alpha),
      "ga_bicgstab_xr")
    return bicg
  end

  -- the loop's end: x and info from the status (1: converged)
  local function finish(x, status_slot, maxiter)
    local s = K.number(status_slot)
    if s == 1 then return x, 0 end
    if s < 0 then return x, math.tointeger(s) end
    return x, maxiter
  end

  local function eps2(dt)
    local e = K.EPS[K.REAL[dt]]
    return e * e
  end

  def(L, [[
scipy.sparse.linalg.bicgstab(A: sparse|LinearOperator|array_like, b: array_like, x0: array_like?, *,
                             rtol|tol: number = 1e-5, atol: number = 0.0, maxiter: integer?,
                             M: sparse|LinearOperator|array_like?, callback: callable?) -> ndarray, integer
BiConjugate Gradient Stabilized for A x = b: x and info (0 converged, maxiter (default 10 n) not
reached, -10 / -11 rho / omega breakdown, as SciPy). Status read back every 8 iterations.
]], function(A, b, x0, rtol, atol, maxiter, M, callback)
    local fname = "scipy.sparse.linalg.bicgstab"
    local op, bb, x, dt, psolve = K.system(A, b, x0, M, fname)
    maxiter = check_maxiter(maxiter, bb.size * 10, fname)
    local tol = tolerance(bb, rtol, atol, fname)
    if not tol then return bb, 0 end
    local atol2, rhotol = tol * tol, eps2(dt)
    local k = L._bicgstab_kernels()
    local r
    x, r = start(op, bb, x, dt)
    local rt = r:copy()
    local st = K.state(BICG, dt)
    local S = st.slot
    local p, v = ga.zeros(bb.size, dt), ga.zeros(bb.size, dt)
    local check = callback and 1 or K.CHECK_EVERY
    for it = 1, maxiter do
      K.nrm2sq(r, S.nr)
      K.dot(rt, r, S.rho)
      K.run(k.s1, st, atol2, rhotol)
      k.p(r, v, st.st, p)
      local phat = psolve and psolve(p) or p
      v = K.apply(op, phat, dt)
      K.dot(rt, v, S.rv)
      K.run(k.s2, st)
      k.r(v, st.st, r)
      K.nrm2sq(r, S.ns)
      K.run(k.s3, st, atol2)
      local shat = psolve and psolve(r) or r
      local t = K.apply(op, shat, dt)
      K.dot(t, t, S.tt)
      K.dot(t, r, S.ts)
      K.run(k.s4, st)
      k.xr(phat, shat, t, st.st, x, r)
      K.run(k.s5, st)
      if it % check == 0 and K.number(S.status) ~= 0 then break end
      if callback then api.call_user(callback, x) end
    end
    return finish(x, S.status, maxiter)
  end)

  ---------------------------------------------------------------------------
  -- cgs
  ---------------------------------------------------------------------------

  local CGS = { "status", "count", "nr", "rho", "rho_prev", "alpha", "beta", "rv" }
  local cgsk = {}
  function L._cgs_kernels()
    if cgsk.s1 then return cgsk end
    local I = slots(CGS)
    cgsk.s1 = K.program("ga_cgs_s1", CGS, [[
      if (ga_real(status) == 0) {
        if (ga_real(nr) < ga_real(atol2)) status = T(1);
        else if (ga_abs(rho) < ga_real(rhotol)) status = T(-10);
        else beta = ga_real(count) > 0 ? rho / rho_prev : T(0);
      }]], "T", "T atol2, T rhotol")
    cgsk.s2 = K.program("ga_cgs_s2", CGS, [[
      if (ga_real(status) == 0) {
        if (ga_real(rv) == 0 && ga_imag(rv) == 0) status = T(-11);
        else alpha = rho / rv;
      }]], "T")
    cgsk.s3 = K.program("ga_cgs_s3", CGS, [[
      if (ga_real(status) == 0) { rho_prev = rho; count = count + T(1); }]], "T")
    -- u = r + beta q; p = u + beta (q + beta p)
    cgsk.up = ga.ElementwiseKernel("T r, T q, raw T st", "T u, T p", ([[
      if (ga_real(st[%d]) == 0) { T b = st[%d]; T uu = r + b * q; u = uu; p = uu + b * (q + b * p); }]]):format(
      I.status, I.beta), "ga_cgs_up")
    -- q = u - alpha vhat; w = u + q
    cgsk.q = ga.ElementwiseKernel("T u, T vhat, raw T st", "T q, T w", ([[
      if (ga_real(st[%d]) == 0) q = u - st[%d] * vhat;
      w = u + q;]]):format(I.status, I.alpha), "ga_cgs_q")
    cgsk.x = ga.ElementwiseKernel("T uhat, raw T st", "T x", ([[
      if (ga_real(st[%d]) == 0) x = x + st[%d] * uhat;]]):format(I.status, I.alpha), "ga_cgs_x")
    return cgsk
  end

  def(L, [[
scipy.sparse.linalg.cgs(A: sparse|LinearOperator|array_like, b: array_like, x0: array_like?, *,
                        rtol|tol: number = 1e-5, atol: number = 0.0, maxiter: integer?,
                        M: sparse|LinearOperator|array_like?, callback: callable?) -> ndarray, integer
Conjugate Gradient Squared for A x = b: x and info (0 converged, maxiter (default 10 n) not reached, -10
/ -11 breakdowns, as SciPy). The residual is recomputed each iteration, as SciPy's.
]], function(A, b, x0, rtol, atol, maxiter, M, callback)
    local fname = "scipy.sparse.linalg.cgs"
    local op, bb, x, dt, psolve = K.system(A, b, x0, M, fname)
    maxiter = check_maxiter(maxiter, bb.size * 10, fname)
    local tol = tolerance(bb, rtol, atol, fname)
    if not tol then return bb, 0 end
    local atol2, rhotol = tol * tol, eps2(dt)
    local k = L._cgs_kernels()
    local r
    x, r = start(op, bb, x, dt)
    local rt = r:copy()
    local st = K.state(CGS, dt)
    local S = st.slot
    local nvec = bb.size
    local p, u, q, w = ga.zeros(nvec, dt), ga.zeros(nvec, dt), ga.zeros(nvec, dt), ga.empty(nvec, dt)
    local check = callback and 1 or K.CHECK_EVERY
    for it = 1, maxiter do
      K.nrm2sq(r, S.nr)
      K.dot(rt, r, S.rho)
      K.run(k.s1, st, atol2, rhotol)
      k.up(r, q, st.st, u, p)
      local phat = psolve and psolve(p) or p
      local vhat = K.apply(op, phat, dt)
      K.dot(rt, vhat, S.rv)
      K.run(k.s2, st)
      k.q(u, vhat, st.st, q, w)
      local uhat = psolve and psolve(w) or w
      k.x(uhat, st.st, x)
      r = ga.subtract(bb, K.apply(op, x, dt))
      K.run(k.s3, st)
      if it % check == 0 and K.number(S.status) ~= 0 then break end
      if callback then api.call_user(callback, x) end
    end
    return finish(x, S.status, maxiter)
  end)

  ---------------------------------------------------------------------------
  -- minres
  ---------------------------------------------------------------------------

  local MINRES = { "run", "err", "istop", "oldb", "beta", "beta1", "dbar", "epsln", "oldeps", "phibar", "rhs1",
    "rhs2", "tnorm2", "gmax", "gmin", "cs", "sn", "alfa", "delta", "gamma", "phi", "denom", "root", "ynorm2",
    "betasq", "Anorm", "Acond", "rnorm" }
  local mr = {}
  function L._minres_kernels()
    if mr.s1 then return mr end
    local I = slots(MINRES)
    -- after beta^2 = r2.y: the rotation of this step (SciPy's lines from
    -- "oldb = beta" to "denom = 1/gamma")
    mr.s1 = K.program("ga_minres_s1", MINRES, [[
      if (run != 0) {
        oldb = beta;
        if (betasq < 0) { err = 1; run = 0; }
        else {
          beta = sqrt(betasq);
          tnorm2 += alfa * alfa + oldb * oldb + beta * beta;
          if (it == 1 && beta / beta1 <= 10 * eps) istop = -1;
          oldeps = epsln;
          delta = cs * dbar + sn * alfa;
          double gbar = sn * dbar - cs * alfa;
          epsln = sn * beta;
          dbar = -cs * beta;
          root = hypot(gbar, dbar);
          gamma = hypot(gbar, beta);
          if (gamma < eps) gamma = eps;
          cs = gbar / gamma;
          sn = beta / gamma;
          phi = cs * phibar;
          phibar = sn * phibar;
          denom = 1.0 / gamma;
        }
      }]], "real", "float64 eps, int64 it")
    -- after x += phi w and ||x||^2: the norms and SciPy's stopping tests
    mr.s2 = K.program("ga_minres_s2", MINRES, [[
      if (run != 0) {
        if (gamma > gmax) gmax = gamma;
        if (gamma < gmin) gmin = gamma;
        double z = rhs1 / gamma;
        rhs1 = rhs2 - delta * z;
        rhs2 = -epsln * z;
        Anorm = sqrt(tnorm2);
        double ynorm = sqrt(ynorm2);
        double epsx = Anorm * ynorm * eps;
        rnorm = phibar;
        double inf = __longlong_as_double(0x7ff0000000000000LL);
        double test1 = (ynorm == 0 || Anorm == 0) ? inf : rnorm / (Anorm * ynorm);
        double test2 = Anorm == 0 ? inf : root / Anorm;
        Acond = gmax / gmin;
        if (istop == 0) {
          double t1 = 1 + test1, t2 = 1 + test2;
          if (t2 <= 1) istop = 2;
          if (t1 <= 1) istop = 1;
          if (it >= maxiter) istop = 6;
          if (Acond >= 0.1 / eps) istop = 4;
          if (epsx >= beta1) istop = 3;
          if (test2 <= rtol) istop = 2;
          if (test1 <= rtol) istop = 1;
        }
        if (istop != 0) run = 0;
      }]], "real", "float64 eps, float64 rtol, int64 it, int64 maxiter")
    mr.v = ga.ElementwiseKernel("T y, raw T st", "T v", ("v = y / st[%d];"):format(I.beta), "ga_minres_v")
    mr.y1 = ga.ElementwiseKernel("T v, T r1, T shift, int64 it, raw T st", "T y", ([[
      y = y - shift * v;
      if (it >= 2) y = y - (st[%d] / st[%d]) * r1;]]):format(I.beta, I.oldb), "ga_minres_y1")
    mr.y2 = ga.ElementwiseKernel("T r2, raw T st", "T y", ("y = y - (st[%d] / st[%d]) * r2;"):format(I.alfa, I.beta),
      "ga_minres_y2")
    mr.w = ga.ElementwiseKernel("T v, T w1, T w2, raw T st", "T w", ("w = (v - st[%d] * w1 - st[%d] * w2) * st[%d];")
      :format(I.oldeps, I.delta, I.denom), "ga_minres_w")
    mr.x = ga.ElementwiseKernel("T w, raw T st", "T x", ("if (ga_real(st[%d]) != 0) x = x + st[%d] * w;"):format(
      I.run, I.phi), "ga_minres_x")
    return mr
  end

  def(L, [[
scipy.sparse.linalg.minres(A: sparse|LinearOperator|array_like, b: array_like, x0: array_like?, *,
                           shift: number = 0.0, rtol|tol: number = 1e-5, maxiter: integer?,
                           M: sparse|LinearOperator|array_like?, callback: callable?, show: boolean = false,
                           check: boolean = false) -> ndarray, integer
MINRES for (A - shift I) x = b, A Hermitian (possibly indefinite or singular): x and info (0: one of
SciPy's stopping tests passed; maxiter (default 5 n): not reached). M must be Hermitian positive
definite. check tests A and M for symmetry first (reads back). Status read back every 8 iterations.
]], function(A, b, x0, shift, rtol, maxiter, M, callback, show, check)
    local fname = "scipy.sparse.linalg.minres"
    local op, bb, x, dt, psolve = K.system(A, b, x0, M, fname)
    local n = bb.size
    maxiter = check_maxiter(maxiter, 5 * n, fname)
    local eps = K.EPS[K.REAL[dt]]
    local r1 = x and ga.ascontiguousarray(ga.subtract(bb, K.apply(op, x, dt))) or bb:copy()
    x = x or ga.zeros(n, dt)
    local y = psolve and psolve(r1) or r1
    local beta1 = K.number(K.dot(r1, y))
    if beta1 < 0 then fail(fname .. ": indefinite preconditioner") end
    if beta1 == 0 then return x, 0 end
    if K.number(K.nrm2(bb)) == 0 then return bb, 0 end
    beta1 = math.sqrt(beta1)
    if check then
      local w = K.apply(op, y, dt)
      local r2 = K.apply(op, w, dt)
      local s, t = K.number(K.dot(w, w)), K.number(K.dot(y, r2))
      if math.abs(s - t) > (s + eps) * eps ^ (1 / 3) then fail(fname .. ": non-symmetric matrix") end
      if psolve then
        r2 = psolve(y)
        s, t = K.number(K.dot(y, y)), K.number(K.dot(r1, r2))
        if math.abs(s - t) > (s + eps) * eps ^ (1 / 3) then fail(fname .. ": non-symmetric preconditioner") end
      end
    end
    local k = L._minres_kernels()
    local init = {}
    for i = 1, #MINRES do init[i] = 0 end
    local I = slots(MINRES)
    init[I.run + 1], init[I.cs + 1], init[I.gmin + 1] = 1, -1, K.REAL[dt] == "float32" and 3.4028234663852886e38 or
      1.7976931348623157e308
    for _, name in ipairs({ "beta", "beta1", "phibar", "rhs1" }) do init[I[name] + 1] = beta1 end
    local st = K.state(MINRES, dt)
    st.st:set(ga.array(init, K.REAL[dt]):astype(dt))
    local S = st.slot
    local w, w2 = ga.zeros(n, dt), ga.zeros(n, dt)
    local r2 = r1
    local every = callback and 1 or K.CHECK_EVERY
    local it = 0
    while it < maxiter do
      it = it + 1
      local v = ga.empty(n, dt)
      k.v(y, st.st, v)
      y = K.apply(op, v, dt)
      k.y1(v, r1, shift, it, st.st, y)
      K.dot(v, y, S.alfa)
      k.y2(r2, st.st, y)
      r1, r2 = r2, y
      y = psolve and psolve(r2) or r2
      K.dot(r2, y, S.betasq)
      K.run(k.s1, st, eps, it)
      local w1
      w1, w2 = w2, w
      w = ga.empty(n, dt)
      k.w(v, w1, w2, st.st, w)
      k.x(w, st.st, x)
      K.nrm2sq(x, S.ynorm2)
      K.run(k.s2, st, eps, rtol, it, maxiter)
      if it % every == 0 or it == maxiter then
        if K.number(S.err) ~= 0 then fail(fname .. ": non-symmetric matrix") end
        local running = K.number(S.run) ~= 0
        if callback then api.call_user(callback, x) end
        if not running then break end
      end
    end
    if K.number(S.err) ~= 0 then fail(fname .. ": non-symmetric matrix") end
    local istop = math.tointeger(K.number(S.istop))
    if show then
      print(("minres: istop = %d, itn <= %d, Anorm = %.4e, Acond = %.4e, rnorm = %.4e"):format(istop, it,
        K.number(S.Anorm), K.number(S.Acond), K.number(S.rnorm)))
    end
    return x, istop == 6 and maxiter or 0
  end)
end
