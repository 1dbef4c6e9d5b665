--- Sparse eigensolvers: eigsh (thick-restart Lanczos, as CuPy's), svds
-- (eigsh of A^H A or A A^H), lobpcg (Knyazev's block method).
--
-- eigsh: a pass runs Lanczos steps to ncv vectors on the device without a
-- read back (each step: A v, the full reorthogonalisation h = V^H w, w -=
-- V h as two products, the norm into the device), then reads the small
-- matrix of coefficients once (one read back a pass), finds its
-- eigenpairs with cuSOLVER's eigh and keeps the k wanted Ritz vectors as
-- the start of the next pass (Wu and Simon's thick restart). maxiter
-- counts passes (SciPy's ARPACK counts restarts; CuPy's maxiter counts
-- Lanczos steps: the same work as CuPy's maxiter = s is ceil((s - ncv) /
-- (ncv - k)) + 1 passes here). Without convergence after maxiter passes
-- the current estimates are returned (SciPy raises ArpackNoConvergence).
return function(ga, L)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local K = L._krylov
  local la = ga.linalg

  local function re(v) return type(v) == "table" and v[1] or v end

  -- the k wanted indices (1-based) of eigenvalues w (host list)
  local function wanted(w, k, which)
    local idx = {}
    for i = 1, #w do idx[i] = i end
    if which == "LM" then table.sort(idx, function(a, b) return math.abs(w[a]) > math.abs(w[b]) end)
    elseif which == "SM" then table.sort(idx, function(a, b) return math.abs(w[a]) < math.abs(w[b]) end)
    elseif which == "LA" then table.sort(idx, function(a, b) return w[a] > w[b] end)
    else table.sort(idx, function(a, b) return w[a] < w[b] end) end            -- SA
    local out = {}
    for i = 1, k do out[i] = idx[i] end
    return out
  end

  --- V^H x into out (a fresh vector when nil): V's rows against x
  local function coeffs(V, x, out)
    local complex = K.is_complex(x.dtype)
    if out == nil then
      return complex and ga.conj(ga.matmul(V, ga.conj(x))) or ga.matmul(V, x)
    end
    if complex then return ga.conj(ga.matmul(V, ga.conj(x)), { out = out }) end
    return ga.matmul(V, x, { out = out })
  end

  --- Thick-restart Lanczos on the Hermitian operator mv (n x n, dtype
  -- dt): eigenvalues (host list, ascending) and the Ritz vectors (n x k)
  local function lanczos(mv, n, dt, k, which, ncv, v0, maxiter, tol, vectors)
    local scale = L._gmres_kernels()
    local V = ga.empty({ ncv + 1, n }, dt)
    local Hb = ga.zeros({ ncv, ncv + 1 }, dt)
    local v = v0 and K.vector(v0, n, "scipy.sparse.linalg.eigsh", "v0"):astype(dt) or
      ga.random.RandomState(20261127):random(n, K.REAL[dt]):astype(dt)
    local vn = K.number(K.nrm2(v))
    if vn == 0 then fail("scipy.sparse.linalg.eigsh: v0 must not be zero") end
    ga.multiply(v, 1 / vn, { out = V[1] })
    local kk, theta, s = 0, {}, {}
    local eps = K.EPS[K.REAL[dt]]
    tol = tol > 0 and tol or eps
    local w, Y, pick
    for pass = 1, maxiter do
      for j = kk + 1, ncv do
        local x = K.apply({ mv = mv }, V[j], dt)
        local Vj = V[{ { 1, j } }]
        local hrow = Hb[j][{ { 1, j } }]
        -- classical Gram-Schmidt twice ("twice is enough"): after one pass
        -- V drifts from orthogonality (1e-8 after the 35 steps of a 40 x 40
        -- Laplacian), the restarts amplify it and the Ritz values leave the
        -- spectrum (77 for eigenvalues in (0.2, 4.2)); the second pass's
        -- coefficients are added to the first's
        coeffs(Vj, x, hrow)
        x = ga.subtract(x, ga.matmul(hrow, Vj))
        local h2 = coeffs(Vj, x)
        x = ga.subtract(x, ga.matmul(h2, Vj))
        ga.add(hrow, h2, { out = hrow })
        local beta = Hb[j][{ { j + 1, j + 1 } }]:reshape({})
        K.nrm2(x, beta)
        scale(x, beta, V[j + 1])
      end
      -- the projected matrix: kept Ritz values, their couplings s to the
      -- first new vector (an arrowhead), then the Lanczos tridiagonal
      local H = Hb:totable()
      local T = {}
      for i = 1, ncv do
        T[i] = {}
        for j = 1, ncv do T[i][j] = 0 end
      end
      for i = 1, kk do
        T[i][i] = theta[i]
        T[i][kk + 1], T[kk + 1][i] = s[i], s[i]
      end
      for j = kk + 1, ncv do
        T[j][j] = re(H[j][j])
        if j < ncv then T[j][j + 1], T[j + 1][j] = re(H[j][j + 1]), re(H[j][j + 1]) end
      end
      local beta_m = re(H[ncv][ncv + 1])
      local wd, Yd = la.eigh(ga.array(T, "float64"))
      w, Y = wd:totable(), Yd:totable()
      pick = wanted(w, k, which)
      local done = true
      for _, i in ipairs(pick) do
        if math.abs(beta_m * Y[ncv][i]) > tol * math.max(math.abs(w[i]), eps) then done = false end
      end
      if done or pass == maxiter then break end
      -- restart: V[1..k] = Y_k^T V[1..ncv], V[k+1] = V[ncv+1]
      local Yk = {}
      for a = 1, k do
        Yk[a] = {}
        for r = 1, ncv do Yk[a][r] = Y[r][pick[a]] end
      end
      local kept = ga.matmul(ga.array(Yk, K.REAL[dt]):astype(dt), V[{ { 1, ncv } }])
      V[{ { 1, k } }] = kept
      V[k + 1] = V[ncv + 1]
      for a = 1, k do
        theta[a] = w[pick[a]]
        s[a] = beta_m * Y[ncv][pick[a]]
      end
      kk = k
      Hb:fill(0)
    end
    -- ascending, as SciPy's
    table.sort(pick, function(a, b) return w[a] < w[b] end)
    local vals = {}
    for a, i in ipairs(pick) do vals[a] = w[i] end
    if not vectors then return vals end
    local Yk = {}
    for r = 1, ncv do
      Yk[r] = {}
      for a = 1, k do Yk[r][a] = Y[r][pick[a]] end
    end
    local X = ga.matmul(V[{ { 1, ncv } }]:swapaxes(1, 2), ga.array(Yk, K.REAL[dt]):astype(dt))
    return vals, ga.ascontiguousarray(X)
  end
  L._lanczos = lanczos

  local function default_ncv(k, n) return math.min(math.max(2 * k, k + 32), n - 1) end

  def(L, [[
scipy.sparse.linalg.eigsh(A: sparse|LinearOperator|array_like, k: integer = 6, M: any = nil, sigma: number?,
                          which: "LM"|"LA"|"SA"|"SM" = "LM", v0: array_like?, ncv: integer?, maxiter: integer?,
                          tol: number = 0, return_eigenvectors: boolean = true, Minv: any = nil, OPinv: any = nil,
                          mode: string = "normal") -> ndarray, ndarray
k eigenvalues (ascending) and eigenvectors (n x k) of the Hermitian A by thick-restart Lanczos (CuPy's
method): which "LM" largest magnitude, "LA" / "SA" largest / smallest algebraic, "SM" smallest magnitude.
ncv defaults to min(max(2k, k + 32), n - 1); tol 0 means the dtype's eps; maxiter counts restart passes
(default 10 n). M, sigma, Minv and OPinv (generalised and shift-invert modes) are not supported on the GPU
and raise, as CuPy's.
]], function(A, k, M, sigma, which, v0, ncv, maxiter, tol, vectors, Minv, OPinv)
    local fname = "scipy.sparse.linalg.eigsh"
    if M ~= nil or sigma ~= nil or Minv ~= nil or OPinv ~= nil then
      fail(fname .. ": M, sigma, Minv and OPinv (generalised and shift-invert problems) are not supported")
    end
    local op = K.operator(A, fname)
    if op.m ~= op.n then fail(("%s: A must be square, got shape {%d,%d}"):format(fname, op.m, op.n)) end
    local n = op.n
    if k <= 0 or k >= n then fail(("%s: k must be in [1, n - 1] = [1, %d], got %d"):format(fname, n - 1, k)) end
    ncv = ncv or default_ncv(k, n)
    if ncv <= k or ncv > n then fail(("%s: ncv must be in (k, n] = (%d, %d], got %d"):format(fname, k, n, ncv)) end
    maxiter = maxiter or n * 10
    if maxiter < 1 then fail(fname .. ": maxiter must be positive") end
    local dt = K.float_dtype(op.dtype or "float64")
    op.cast(dt)
    local vals, X = lanczos(op.mv, n, dt, k, which, ncv, v0, maxiter, tol, vectors)
    local w = ga.array(vals, K.REAL[dt])
    if not vectors then return w end
    return w, X
  end)

  def(L, [[
scipy.sparse.linalg.svds(A: sparse|LinearOperator|array_like, k: integer = 6, ncv: integer?, tol: number = 0,
                         which: "LM"|"SM" = "LM", v0: array_like?, maxiter: integer?,
                         return_singular_vectors: boolean|"u"|"vh" = true,
                         solver: "arpack"|"lobpcg"|"propack" = "arpack",
                         random_state: any = nil, options: table?) -> ndarray, ndarray, ndarray
k singular values (ascending) and vectors of A (m x n) from eigsh of A^H A (or A A^H when m < n): u (m x
k), s, vt (k x n). which "LM" largest, "SM" smallest. solver names SciPy's; all run the Lanczos method.
]], function(A, k, ncv, tol, which, v0, maxiter, rsv)
    local fname = "scipy.sparse.linalg.svds"
    local op = K.operator(A, fname)
    local m, n = op.m, op.n
    local short = math.min(m, n)
    if k <= 0 or k >= short then fail(("%s: k must be in [1, min(m, n) - 1] = [1, %d], got %d"):format(fname,
        short - 1, k)) end
    local dt = K.float_dtype(op.dtype or "float64")
    op.cast(dt)
    local function mvd(x) return K.apply(op, x, dt) end
    local function rmvd(x)
      local y = op.rmv(x)
      if y.dtype ~= dt then y = y:astype(dt) end
      return ga.ascontiguousarray(y)
    end
    local tall = m >= n
    local gram = tall and function(x) return rmvd(mvd(x)) end or function(x) return mvd(rmvd(x)) end
    local size = tall and n or m
    ncv = ncv or default_ncv(k, size)
    ncv = math.min(ncv, size)
    local want = rsv ~= false
    local vals, X = lanczos(gram, size, dt, k, which == "SM" and "SA" or "LA", ncv, v0, maxiter or size * 10, tol,
      want)
    local s = {}
    for i, v in ipairs(vals) do s[i] = math.sqrt(math.max(v, 0)) end
    local sd = ga.array(s, K.REAL[dt])
    if not want then return sd end
    -- the other side: A v / s (or A^H u / s); zero singular values give zero vectors
    local inv = {}
    for i, v in ipairs(s) do inv[i] = v > 0 and 1 / v or 0 end
    local invd = ga.array(inv, K.REAL[dt]):astype(dt):reshape(1, k)
    local other = {}
    for j = 1, k do
      local col = X[{ {}, j }]
      other[j] = tall and mvd(ga.ascontiguousarray(col)) or rmvd(ga.ascontiguousarray(col))
    end
    local O = ga.multiply(ga.stack(other, 2), invd)
    local U, Vm
    if tall then U, Vm = O, X else U, Vm = X, O end
    local vt = ga.ascontiguousarray(K.is_complex(dt) and ga.conj(Vm:swapaxes(1, 2)) or Vm:swapaxes(1, 2))
    if rsv == "u" then return U, sd, nil end
    if rsv == "vh" then return nil, sd, vt end
    return ga.ascontiguousarray(U), sd, vt
  end)

  ---------------------------------------------------------------------------
  -- lobpcg
  ---------------------------------------------------------------------------

  -- columns of X orthonormal in the B inner product (B nil: the identity):
  -- Cholesky of the Gram matrix, X L^-H; nil when it is not positive definite
  local function b_orthonormal(X, BX)
    local G = ga.matmul(K.is_complex(X.dtype) and ga.conj(X:swapaxes(1, 2)) or X:swapaxes(1, 2), BX or X)
    G = ga.multiply(ga.add(G, ga.conj(G:swapaxes(1, 2))), 0.5)
    local ok, Lc = pcall(la.cholesky, G)
    if not ok then return nil end
    local Li = la.inv(Lc)
    local T = ga.conj(Li:swapaxes(1, 2))
    return ga.matmul(X, T), BX and ga.matmul(BX, T) or nil
  end

  def(L, [[
scipy.sparse.linalg.lobpcg(A: sparse|LinearOperator|array_like, X: array_like, B: sparse|LinearOperator|array_like?,
                           M: sparse|LinearOperator|array_like?, Y: array_like?, tol: number?, maxiter: integer?,
                           largest: boolean = true, verbosityLevel: integer = 0, retLambdaHistory: boolean = false,
                           retResidualNormsHistory: boolean = false, restartControl: integer = 20)
  -> ndarray, ndarray, table, table
The largest (or smallest) eigenpairs of A x = lambda B x (A, B Hermitian, B positive definite) by
Locally Optimal Block Preconditioned Conjugate Gradients from the n x k block X: lambda (k,), the
eigenvectors (n x k), and with retLambdaHistory / retResidualNormsHistory the histories (Lua lists of
ndarrays). M preconditions, Y (n x j) constrains to its B-orthogonal complement. tol defaults to
sqrt(eps) n, maxiter to 20. Reads the residual norms back each iteration.
]], function(A, X, B, M, Y, tol, maxiter, largest, verbosity, ret_lambda, ret_res)
    local fname = "scipy.sparse.linalg.lobpcg"
    local op = K.operator(A, fname)
    local n = op.n
    if op.m ~= n then fail(("%s: A must be square, got shape {%d,%d}"):format(fname, op.m, n)) end
    if not is_array(X) then X = ga.asarray(X) end
    if X.ndim == 1 then X = X:reshape(X.size, 1) end
    if X.ndim ~= 2 or X.shape[1] ~= n then fail(fname .. ": X must be n x k with n = A's size") end
    local k = X.shape[2]
    if 3 * k > n then fail(("%s: the block size k = %d must be at most n / 3 = %d"):format(fname, k, n // 3)) end
    local dt = K.float_dtype(op.dtype or "float64", X.dtype)
    op.cast(dt)
    local function apply(o, Z)
      local cols = {}
      for j = 1, Z.shape[2] do cols[j] = K.apply(o, ga.ascontiguousarray(Z[{ {}, j }]), dt) end
      return ga.stack(cols, 2)
    end
    local bop = B ~= nil and K.operator(B, fname, "B") or nil
    if bop then bop.cast(dt) end
    local mop = M ~= nil and K.operator(M, fname, "M") or nil
    if mop then mop.cast(dt) end
    local function H(Z) return K.is_complex(dt) and ga.conj(Z:swapaxes(1, 2)) or Z:swapaxes(1, 2) end
    local Yc, BY
    if Y ~= nil then
      Yc = (is_array(Y) and Y or ga.asarray(Y)):astype(dt)
      if Yc.ndim == 1 then Yc = Yc:reshape(n, 1) end
      BY = bop and apply(bop, Yc) or Yc
    end
    local function constrain(Z)
      if not Yc then return Z end
      -- Z - Y (Y^H B Y)^-1 (B Y)^H Z
      local G = ga.matmul(H(Yc), BY)
      return ga.subtract(Z, ga.matmul(Yc, la.solve(G, ga.matmul(H(BY), Z))))
    end
    tol = tol or math.sqrt(K.EPS[K.REAL[dt]]) * n
    maxiter = maxiter or 20
    X = constrain(X:astype(dt))
    local BX = bop and apply(bop, X) or nil
    X, BX = b_orthonormal(X, BX)
    if not X then fail(fname .. ": the initial block X is linearly dependent") end
    local AX = apply(op, X)
    local lam_h, res_h = {}, {}
    local gram = ga.matmul(H(X), AX)
    local wd, C = la.eigh(ga.multiply(ga.add(gram, ga.conj(gram:swapaxes(1, 2))), 0.5))
    local order = largest and ga.flip(ga.arange(1, k + 1, "int64")) or ga.arange(1, k + 1, "int64")
    wd, C = wd:take(order), C:take(order, 2)
    X, AX = ga.matmul(X, C), ga.matmul(AX, C)
    if BX then BX = ga.matmul(BX, C) end
    local P, AP, BP
    local lam = wd
    for it = 1, maxiter do
      local lr = ga.multiply(BX or X, lam:reshape(1, k):astype(dt))
      local R = ga.subtract(AX, lr)
      local rn = ga.sqrt(ga.sum(ga.real(ga.multiply(ga.conj(R), R)), { axis = 1 }))
      if ret_lambda then lam_h[#lam_h + 1] = lam:copy() end
      if ret_res then res_h[#res_h + 1] = rn end
      local active = rn:totable()
      local idx = {}
      for j = 1, k do if active[j] > tol then idx[#idx + 1] = j end end
      if verbosity > 0 then print(("lobpcg: iteration %d, %d unconverged"):format(it, #idx)) end
      if #idx == 0 then break end
      local sel = ga.array(idx, "int64")
      local W = R:take(sel, 2)
      if mop then W = apply(mop, W) end
      W = constrain(W)
      -- W orthogonal to X (B inner product), then B-orthonormal
      W = ga.subtract(W, ga.matmul(X, ga.matmul(H(BX or X), W)))
      local BW = bop and apply(bop, W) or nil
      W, BW = b_orthonormal(W, BW)
      if not W then break end
      local AW = apply(op, W)
      local S, AS, BS = { X, W }, { AX, AW }, { BX or X, BW or W }
      if P then
        local Pa = P:take(sel, 2)
        local APa, BPa = AP:take(sel, 2), BP and BP:take(sel, 2) or nil
        local Pn, BPn = b_orthonormal(Pa, BPa)
        if Pn then
          -- the same combination on A P
          local G = ga.matmul(H(Pa), BPa or Pa)
          G = ga.multiply(ga.add(G, ga.conj(G:swapaxes(1, 2))), 0.5)
          local Tm = ga.conj(la.inv(la.cholesky(G)):swapaxes(1, 2))
          S[3], AS[3], BS[3] = Pn, ga.matmul(APa, Tm), BPn or Pn
        end
      end
      local Sm, ASm, BSm = ga.concatenate(S, 2), ga.concatenate(AS, 2), ga.concatenate(BS, 2)
      local GA = ga.matmul(H(Sm), ASm)
      local GB = ga.matmul(H(Sm), BSm)
      GA = ga.multiply(ga.add(GA, ga.conj(GA:swapaxes(1, 2))), 0.5)
      GB = ga.multiply(ga.add(GB, ga.conj(GB:swapaxes(1, 2))), 0.5)
      -- the generalised Rayleigh-Ritz problem through GB's Cholesky factor
      local ok, Lg = pcall(la.cholesky, GB)
      if not ok then break end
      local Li = la.inv(Lg)
      local Cm = ga.matmul(Li, ga.matmul(GA, ga.conj(Li:swapaxes(1, 2))))
      local ww, Z = la.eigh(ga.multiply(ga.add(Cm, ga.conj(Cm:swapaxes(1, 2))), 0.5))
      local m = ww.size
      local ord = largest and ga.arange(m, m - k, -1, "int64") or ga.arange(1, k + 1, "int64")
      lam = ww:take(ord)
      local Cc = ga.matmul(ga.conj(Li:swapaxes(1, 2)), Z:take(ord, 2))
      local kx = k
      local Cx = Cc[{ { 1, kx }, {} }]
      local Cr = Cc[{ { kx + 1, Sm.shape[2] }, {} }]
      local Srest, ASrest = Sm[{ {}, { kx + 1, Sm.shape[2] } }], ASm[{ {}, { kx + 1, Sm.shape[2] } }]
      P = ga.matmul(Srest, Cr)
      AP = ga.matmul(ASrest, Cr)
      BP = bop and ga.matmul(BSm[{ {}, { kx + 1, Sm.shape[2] } }], Cr) or nil
      X = ga.add(ga.matmul(X, Cx), P)
      AX = ga.add(ga.matmul(AX, Cx), AP)
      if bop then BX = ga.add(ga.matmul(BX, Cx), BP) end
    end
    return lam, X, lam_h, res_h
  end)
end
