--- Least squares by Golub-Kahan bidiagonalisation: lsqr and lsmr (Paige
-- and Saunders; Fong and Saunders), SciPy's translations line by line.
-- A may be rectangular (m x n); each iteration is two products (A v and
-- A^H u), two or three norms into the device state and one or two
-- one-thread scalar steps running SciPy's recurrences and stopping tests
-- in double precision (krylov.lua); the status is read back every 8
-- iterations. Their many return values are SciPy's, in its order.
return function(ga, L)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail = internal.fail
  local K = L._krylov

  local SYM_ORTHO = [[
// SciPy's _sym_ortho: a stable Givens rotation [c s; -s c] [a; b] = [r; 0]
__device__ __forceinline__ double ga_sgn(double x) { return (double)((x > 0) - (x < 0)); }
__device__ void ga_sym_ortho(double a, double b, double *c, double *s, double *r) {
  if (b == 0) { *c = ga_sgn(a); *s = 0; *r = fabs(a); }
  else if (a == 0) { *c = 0; *s = ga_sgn(b); *r = fabs(b); }
  else if (fabs(b) > fabs(a)) {
    double tau = a / b; *s = ga_sgn(b) / sqrt(1 + tau * tau); *c = *s * tau; *r = b / *s;
  } else {
    double tau = b / a; *c = ga_sgn(a) / sqrt(1 + tau * tau); *s = *c * tau; *r = a / *c;
  }
}
]]

  local function slots(names)
    local idx = {}
    for i, v in ipairs(names) do idx[v] = i - 1 end
    return idx
  end

  -- the bidiagonalisation's shared vector kernels, for a state with slots
  -- alfa (the current alpha), beta
  local function bidiag_kernels(prefix, I, alfa)
    return {
      -- u = A v - alpha u
      u = ga.ElementwiseKernel("T av, T u, raw T st", "T un", ("un = av - st[%d] * u;"):format(I[alfa]),
        prefix .. "_u"),
      -- u /= beta when beta > 0
      us = ga.ElementwiseKernel("raw T st", "T u", ("if (ga_real(st[%d]) > 0) u = u / st[%d];"):format(I.beta,
        I.beta), prefix .. "_us"),
      -- v = A^H u - beta v when beta > 0
      v = ga.ElementwiseKernel("T s, T v, raw T st", "T vn", ("vn = ga_real(st[%d]) > 0 ? s - st[%d] * v : v;")
        :format(I.beta, I.beta), prefix .. "_v"),
      -- v /= alpha when beta > 0 and alpha > 0
      vs = ga.ElementwiseKernel("T vn, raw T st", "T v", ("v = (ga_real(st[%d]) > 0 && ga_real(st[%d]) > 0) ? " ..
        "vn / st[%d] : vn;"):format(I.beta, I[alfa], I[alfa]), prefix .. "_vs"),
    }
  end

  -- the starting vectors of both: u = b - A x0 normalised, v = A^H u
  -- normalised (SciPy's lines before the loop); reads the norms back
  local function bidiag_start(op, b, x, dt, n)
    local u = b
    local beta
    if x then
      u = ga.subtract(b, K.apply(op, x, dt))
      beta = K.number(K.nrm2(u))
    else
      x = ga.zeros(n, dt)
      beta = K.number(K.nrm2(b))
    end
    local v, alfa
    if beta > 0 then
      u = ga.ascontiguousarray(ga.multiply(u, 1 / beta))
      v = ga.ascontiguousarray(op.rmv(u):astype(dt))
      alfa = K.number(K.nrm2(v))
    else
      u = ga.ascontiguousarray(u)
      v = ga.zeros(n, dt)
      alfa = 0
    end
    if alfa > 0 then v = ga.multiply(v, 1 / alfa) end
    return x, u, v, beta, alfa
  end

  local function set_state(st, names, dt, values)
    local I = slots(names)
    local init = {}
    for i = 1, #names do init[i] = 0 end
    for k, v in pairs(values) do init[I[k] + 1] = v end
    st.st:set(ga.array(init, K.REAL[dt]):astype(dt))
  end

  local function system(A, b, x0, fname)
    local op, bb, x, dt = K.system(A, b, x0, nil, fname, false)
    return op, bb, x, dt, op.m, op.n
  end

  ---------------------------------------------------------------------------
  -- lsqr
  ---------------------------------------------------------------------------

  local LSQR = { "run", "act", "istop", "itn", "alfa", "beta", "bn", "an", "ww", "anorm", "acond", "ddnorm", "res2",
    "xnorm", "xxnorm", "z", "cs2", "sn2", "rhobar", "phibar", "rnorm", "r1norm", "r2norm", "arnorm", "t1", "t2",
    "rho" }
  local lq = {}
  function L._lsqr_kernels()
    if lq.s1 then return lq end
    local I = slots(LSQR)
    lq.bd = bidiag_kernels("ga_lsqr", I, "alfa")
    lq.s1 = K.program("ga_lsqr_s1", LSQR, [[
      act = run;
      if (act != 0) {
        beta = bn;
        if (beta > 0) anorm = sqrt(anorm * anorm + alfa * alfa + beta * beta + damp * damp);
      }]], "real", "float64 damp")
    lq.s2 = K.program("ga_lsqr_s2", LSQR, [[
      if (act != 0) {
        if (beta > 0) alfa = an;
        double rhobar1, psi;
        if (damp > 0) {
          rhobar1 = sqrt(rhobar * rhobar + damp * damp);
          double cs1 = rhobar / rhobar1, sn1 = damp / rhobar1;
          psi = sn1 * phibar;
          phibar = cs1 * phibar;
        } else { rhobar1 = rhobar; psi = 0; }
        double cs, sn, rr;
        ga_sym_ortho(rhobar1, beta, &cs, &sn, &rr);
        rho = rr;
        double theta = sn * alfa;
        rhobar = -cs * alfa;
        double phi = cs * phibar;
        phibar = sn * phibar;
        double tau = sn * phi;
        t1 = phi / rho;
        t2 = -theta / rho;
        ddnorm = ddnorm + ww / (rho * rho);
        double delta = sn2 * rho, gambar = -cs2 * rho;
        double rhs = phi - delta * z, zbar = rhs / gambar;
        xnorm = sqrt(xxnorm + zbar * zbar);
        double gamma = sqrt(gambar * gambar + theta * theta);
        cs2 = gambar / gamma;
        sn2 = theta / gamma;
        z = rhs / gamma;
        xxnorm = xxnorm + z * z;
        acond = anorm * sqrt(ddnorm);
        double res1 = phibar * phibar;
        res2 = res2 + psi * psi;
        rnorm = sqrt(res1 + res2);
        arnorm = alfa * fabs(tau);
        if (damp > 0) {
          double r1sq = rnorm * rnorm - damp * damp * xxnorm;
          r1norm = sqrt(fabs(r1sq));
          if (r1sq < 0) r1norm = -r1norm;
        } else r1norm = rnorm;
        r2norm = rnorm;
        double test1 = rnorm / bnorm, test2 = arnorm / (anorm * rnorm + eps), test3 = 1 / (acond + eps);
        double tt1 = test1 / (1 + anorm * xnorm / bnorm), rtol = btol + atol * anorm * xnorm / bnorm;
        itn = itn + 1;
        if (itn >= iter_lim) istop = 7;
        if (1 + test3 <= 1) istop = 6;
        if (1 + test2 <= 1) istop = 5;
        if (1 + tt1 <= 1) istop = 4;
        if (test3 <= ctol) istop = 3;
        if (test2 <= atol) istop = 2;
        if (test1 <= rtol) istop = 1;
        if (istop != 0) run = 0;
      }]], "real", "float64 damp, float64 atol, float64 btol, float64 ctol, float64 bnorm, float64 eps, " ..
      "int64 iter_lim", SYM_ORTHO)
    -- x += t1 w; w = v + t2 w (and var += |w / rho|^2 before, when asked)
    lq.xw = ga.ElementwiseKernel("T v, raw T st", "T x, T w", ([[
      if (ga_real(st[%d]) != 0) { x = x + st[%d] * w; w = v + st[%d] * w; }]]):format(I.act, I.t1, I.t2),
      "ga_lsqr_xw")
    lq.var = ga.ElementwiseKernel("T w, raw T st", "R var", ([[
      if (ga_real(st[%d]) != 0) { T dk = w / st[%d]; var = var + (R)ga_real(ga_conj(dk) * dk); }]]):format(
      I.act, I.rho), "ga_lsqr_var")
    return lq
  end

  def(L, [[
scipy.sparse.linalg.lsqr(A: sparse|LinearOperator|array_like, b: array_like, damp: number = 0.0,
                         atol: number = 1e-6, btol: number = 1e-6, conlim: number = 1e8, iter_lim: integer?,
                         show: boolean = false, calc_var: boolean = false, x0: array_like?)
  -> ndarray, integer, integer, number, number, number, number, number, number, ndarray
The least-squares solution of A x = b (or of the damped problem with damp), A m x n: x, istop (SciPy's
stopping reason 0-7), itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var (the diagonal of (A^H A +
damp^2 I)^-1 estimated with calc_var, else zeros). iter_lim defaults to 2 n.
]], function(A, b, damp, atol, btol, conlim, iter_lim, show, calc_var, x0)
    local fname = "scipy.sparse.linalg.lsqr"
    local op, bb, x, dt, _, n = system(A, b, x0, fname)
    iter_lim = iter_lim or 2 * n
    local rdt = K.REAL[dt]
    local var = ga.zeros(n, rdt)
    local bnorm = K.number(K.nrm2(bb))
    local u, v, beta, alfa
    x, u, v, beta, alfa = bidiag_start(op, bb, x, dt, n)
    local w = v:copy()
    local arnorm = alfa * beta
    if arnorm == 0 then
      return x, 0, 0, beta, beta, 0, 0, arnorm, 0, var
    end
    local ctol = conlim > 0 and 1 / conlim or 0
    local k = L._lsqr_kernels()
    local st = K.state(LSQR, dt)
    set_state(st, LSQR, dt, { run = 1, alfa = alfa, beta = beta, rhobar = alfa, phibar = beta, rnorm = beta,
      r1norm = beta, r2norm = beta, arnorm = arnorm, cs2 = -1 })
    local S = st.slot
    local eps = K.EPS[rdt]
    for it = 1, iter_lim do
      local un = ga.empty(bb.size, dt)
      k.bd.u(K.apply(op, v, dt), u, st.st, un)
      u = un
      K.nrm2(u, S.bn)
      K.run(k.s1, st, damp)
      k.bd.us(st.st, u)
      local s = op.rmv(u)
      if s.dtype ~= dt then s = s:astype(dt) end
      local vn = ga.empty(n, dt)
      k.bd.v(ga.ascontiguousarray(s), v, st.st, vn)
      K.nrm2(vn, S.an)
      K.nrm2sq(w, S.ww)
      K.run(k.s2, st, damp, atol, btol, ctol, bnorm, eps, iter_lim)
      v = ga.empty(n, dt)
      k.bd.vs(vn, st.st, v)
      if calc_var then k.var(w, st.st, var) end
      k.xw(v, st.st, x, w)
      if it % K.CHECK_EVERY == 0 and K.number(S.run) == 0 then break end
    end
    local function num(name) return K.number(S[name]) end
    local istop, itn = math.tointeger(num("istop")), math.tointeger(num("itn"))
    if show then
      print(("lsqr: istop = %d, itn = %d, r1norm = %.4e, anorm = %.4e, acond = %.4e"):format(istop, itn,
        num("r1norm"), num("anorm"), num("acond")))
    end
    return x, istop, itn, num("r1norm"), num("r2norm"), num("anorm"), num("acond"), num("arnorm"), num("xnorm"), var
  end)

  ---------------------------------------------------------------------------
  -- lsmr
  ---------------------------------------------------------------------------

  local LSMR = { "run", "act", "istop", "itn", "alpha", "beta", "bn", "an", "alphabar", "rho", "rhobar", "cbar",
    "sbar", "zeta", "zetabar", "betadd", "betad", "rhodold", "tautildeold", "thetatilde", "d", "normA2", "maxrbar",
    "minrbar", "normA", "condA", "normx2", "normr", "normar", "chb", "cx", "ch" }
  local lm = {}
  function L._lsmr_kernels()
    if lm.s1 then return lm end
    local I = slots(LSMR)
    lm.bd = bidiag_kernels("ga_lsmr", I, "alpha")
    lm.s1 = K.program("ga_lsmr_s1", LSMR, [[
      act = run;
      if (act != 0) beta = bn;]], "real")
    lm.s2 = K.program("ga_lsmr_s2", LSMR, [[
      if (act != 0) {
        if (beta > 0) alpha = an;
        double chat, shat, alphahat;
        ga_sym_ortho(alphabar, damp, &chat, &shat, &alphahat);
        double rhoold = rho, c, s, rr;
        ga_sym_ortho(alphahat, beta, &c, &s, &rr);
        rho = rr;
        double thetanew = s * alpha;
        alphabar = c * alpha;
        double rhobarold = rhobar, zetaold = zeta, thetabar = sbar * rho, rhotemp = cbar * rho;
        double cb, sb, rb;
        ga_sym_ortho(cbar * rho, thetanew, &cb, &sb, &rb);
        cbar = cb; sbar = sb; rhobar = rb;
        zeta = cbar * zetabar;
        zetabar = -sbar * zetabar;
        chb = -(thetabar * rho / (rhoold * rhobarold));
        cx = zeta / (rho * rhobar);
        ch = -(thetanew / rho);
        double betaacute = chat * betadd, betacheck = -shat * betadd, betahat = c * betaacute;
        betadd = -s * betaacute;
        double thetatildeold = thetatilde, ct, stl, rt;
        ga_sym_ortho(rhodold, thetabar, &ct, &stl, &rt);
        thetatilde = stl * rhobar;
        rhodold = ct * rhobar;
        betad = -stl * betad + ct * betahat;
        tautildeold = (zetaold - thetatildeold * tautildeold) / rt;
        double taud = (zeta - thetatilde * tautildeold) / rhodold;
        d = d + betacheck * betacheck;
        normr = sqrt(d + (betad - taud) * (betad - taud) + betadd * betadd);
        normA2 = normA2 + beta * beta;
        normA = sqrt(normA2);
        normA2 = normA2 + alpha * alpha;
        if (rhobarold > maxrbar) maxrbar = rhobarold;
        itn = itn + 1;
        if (itn > 1 && rhobarold < minrbar) minrbar = rhobarold;
        condA = fmax(maxrbar, rhotemp) / fmin(minrbar, rhotemp);
        normar = fabs(zetabar);
      }]], "real", "float64 damp", SYM_ORTHO)
    lm.s3 = K.program("ga_lsmr_s3", LSMR, [[
      if (act != 0) {
        double normx = sqrt(normx2);
        double test1 = normr / normb;
        double test2 = (normA * normr) != 0 ? normar / (normA * normr) : __longlong_as_double(0x7ff0000000000000LL);
        double test3 = 1 / condA;
        double t1 = test1 / (1 + normA * normx / normb), rtol = btol + atol * normA * normx / normb;
        if (itn >= maxiter) istop = 7;
        if (1 + test3 <= 1) istop = 6;
        if (1 + test2 <= 1) istop = 5;
        if (1 + t1 <= 1) istop = 4;
        if (test3 <= ctol) istop = 3;
        if (test2 <= atol) istop = 2;
        if (test1 <= rtol) istop = 1;
        if (istop > 0) run = 0;
      }]], "real", "float64 atol, float64 btol, float64 ctol, float64 normb, int64 maxiter")
    -- hbar = h + chb hbar; x += cx hbar; h = v + ch h
    lm.xh = ga.ElementwiseKernel("T v, raw T st", "T x, T h, T hbar", ([[
      if (ga_real(st[%d]) != 0) {
        T hb = h + st[%d] * hbar;
        hbar = hb;
        x = x + st[%d] * hb;
        h = v + st[%d] * h;
      }]]):format(I.act, I.chb, I.cx, I.ch), "ga_lsmr_xh")
    return lm
  end

  def(L, [[
scipy.sparse.linalg.lsmr(A: sparse|LinearOperator|array_like, b: array_like, damp: number = 0.0,
                         atol: number = 1e-6, btol: number = 1e-6, conlim: number = 1e8, maxiter: integer?,
                         show: boolean = false, x0: array_like?)
  -> ndarray, integer, integer, number, number, number, number, number
LSMR for the least-squares solution of A x = b (damped with damp), A m x n: x, istop (SciPy's stopping
reason 0-7), itn, normr, normar, normA, condA, normx. maxiter defaults to min(m, n).
]], function(A, b, damp, atol, btol, conlim, maxiter, show, x0)
    local fname = "scipy.sparse.linalg.lsmr"
    local op, bb, x, dt, m, n = system(A, b, x0, fname)
    maxiter = maxiter or math.min(m, n)
    if maxiter < 0 then fail(fname .. ": maxiter must be non-negative") end
    local normb = K.number(K.nrm2(bb))
    local u, v, beta, alpha
    x, u, v, beta, alpha = bidiag_start(op, bb, x, dt, n)
    local normar = alpha * beta
    if normar == 0 then return x, 0, 0, beta, normar, alpha, 1, 0 end
    if normb == 0 then return ga.zeros(n, dt), 0, 0, beta, normar, alpha, 1, 0 end
    local ctol = conlim > 0 and 1 / conlim or 0
    local k = L._lsmr_kernels()
    local st = K.state(LSMR, dt)
    set_state(st, LSMR, dt, { run = 1, alpha = alpha, beta = beta, alphabar = alpha, rho = 1, rhobar = 1, cbar = 1,
      zetabar = alpha * beta, betadd = beta, rhodold = 1, normA2 = alpha * alpha, minrbar = 1e100, normA = alpha,
      condA = 1, normr = beta, normar = normar })
    local S = st.slot
    local h, hbar = v:copy(), ga.zeros(n, dt)
    for it = 1, maxiter do
      local un = ga.empty(bb.size, dt)
      k.bd.u(K.apply(op, v, dt), u, st.st, un)
      u = un
      K.nrm2(u, S.bn)
      K.run(k.s1, st)
      k.bd.us(st.st, u)
      local s = op.rmv(u)
      if s.dtype ~= dt then s = s:astype(dt) end
      local vn = ga.empty(n, dt)
      k.bd.v(ga.ascontiguousarray(s), v, st.st, vn)
      K.nrm2(vn, S.an)
      K.run(k.s2, st, damp)
      v = ga.empty(n, dt)
      k.bd.vs(vn, st.st, v)
      k.xh(v, st.st, x, h, hbar)
      K.nrm2sq(x, S.normx2)
      K.run(k.s3, st, atol, btol, ctol, normb, maxiter)
      if it % K.CHECK_EVERY == 0 and K.number(S.run) == 0 then break end
    end
    local function num(name) return K.number(S[name]) end
    local istop, itn = math.tointeger(num("istop")), math.tointeger(num("itn"))
    if show then
      print(("lsmr: istop = %d, itn = %d, normr = %.4e, normA = %.4e, condA = %.4e"):format(istop, itn,
        num("normr"), num("normA"), num("condA")))
    end
    return x, istop, itn, num("normr"), num("normar"), num("normA"), num("condA"), math.sqrt(num("normx2"))
  end)
end
