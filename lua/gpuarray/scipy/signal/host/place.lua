--- Pole placement on the host, as scipy.signal's place_poles: the state
-- feedback K with eig(A - B K) = poles, chosen robust (the eigenvectors X
-- well conditioned) by Tits and Yang's method ("YT") or Kautsky, Nichols
-- and Van Dooren's ("KNV0"). QR factorisations follow LAPACK's Householder
-- conventions (dlarfg / zlarfg), so the null-space bases, the starting X
-- and the iterations are SciPy's. Matrices are lists of rows of numbers or
-- host complex values (host/cx.lua); errors error({msg = ...}). Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local M = require("gpuarray.scipy.signal.host.mat")

local PL = {}
local function raise(msg) error({ msg = msg }, 2) end

local SQRT_EPS = math.sqrt(2.220446049250313e-16)

---------------------------------------------------------------------------
-- small dense helpers on rows of numbers or complex values

local function cols(a) return #a > 0 and #a[1] or 0 end

local function column(a, j)
  local v = {}
  for i = 1, #a do v[i] = a[i][j] end
  return v
end

local function set_column(a, j, v)
  for i = 1, #a do a[i][j] = v[i] end
end

local function norm(v)
  local s = 0.0
  for _, x in ipairs(v) do s = s + cx.abs2(x) end
  return math.sqrt(s)
end

local function allclose0(v)
  for _, x in ipairs(v) do if cx.abs(x) > 1e-8 then return false end end
  return true
end

local function close(a, b) return math.abs(a - b) <= 1e-8 + 1e-5 * math.abs(b) end

--- The full QR of an n x k matrix as LAPACK's geqrf + orgqr (ungqr for
-- complex): reflectors H = I - tau v v^H with v[1] = 1 and beta real of
-- sign opposite to alpha's real part; returns Q (n x n) and R (n x k)
function PL.qr_full(a)
  local n, k = #a, cols(a)
  local r = {}
  for i = 1, n do
    r[i] = {}
    for j = 1, k do r[i][j] = a[i][j] end
  end
  local refl = {}
  for c = 1, math.min(n - 1, k) do
    local alpha = r[c][c]
    local xnorm = 0.0
    for i = c + 1, n do xnorm = xnorm + cx.abs2(r[i][c]) end
    xnorm = math.sqrt(xnorm)
    local ar, ai = cx.parts(alpha)
    if xnorm == 0 and ai == 0 then
      refl[c] = nil
    else
      local beta = math.sqrt(ar * ar + ai * ai + xnorm * xnorm)
      if ar >= 0 then beta = -beta end
      local tau = cx.new((beta - ar) / beta, -ai / beta)
      local scale = cx.div(1, cx.sub(alpha, beta))
      local v = { [c] = 1.0 }
      for i = c + 1, n do v[i] = cx.mul(r[i][c], scale) end
      refl[c] = { v = v, tau = tau }
      -- the trailing columns: A := H^H A = A - conj(tau) v (v^H A)
      r[c][c] = beta
      for i = c + 1, n do r[i][c] = 0.0 end
      local ct = cx.conj(tau)
      for j = c + 1, k do
        local s = 0
        for i = c, n do s = cx.add(s, cx.mul(cx.conj(v[i]), r[i][j])) end
        s = cx.mul(ct, s)
        for i = c, n do r[i][j] = cx.sub(r[i][j], cx.mul(v[i], s)) end
      end
    end
  end
  -- Q = H(1) H(2) ... applied to the identity (orgqr / ungqr)
  local q = {}
  for i = 1, n do
    q[i] = {}
    for j = 1, n do q[i][j] = i == j and 1.0 or 0.0 end
  end
  for c = math.min(n - 1, k), 1, -1 do
    local h = refl[c]
    if h then
      for j = 1, n do
        local s = 0
        for i = c, n do s = cx.add(s, cx.mul(cx.conj(h.v[i]), q[i][j])) end
        s = cx.mul(h.tau, s)
        for i = c, n do q[i][j] = cx.sub(q[i][j], cx.mul(h.v[i], s)) end
      end
    end
  end
  return q, r
end

-- the singular triplets of a small real matrix, largest first: u_i, s_i,
-- v_i (from the eigenvectors of m^T m; u_i = m v_i / s_i)
local function svd_small(m)
  local w, V = M.eigh(M.mul(M.T(m), m))
  local order = {}
  for i = 1, #w do order[i] = i end
  table.sort(order, function(p, q) return w[p] > w[q] end)
  local out = {}
  for r, idx in ipairs(order) do
    local s = math.sqrt(math.max(w[idx], 0))
    local v = column(V, idx)
    local u = {}
    for i = 1, #m do
      local acc = 0.0
      for j = 1, #v do acc = acc + m[i][j] * v[j] end
      u[i] = s > 0 and acc / s or 0.0
    end
    out[r] = { u = u, s = s, v = v }
  end
  return out
end

-- the eigenpairs of a small Hermitian matrix, by |eigenvalue| descending:
-- the real symmetric embedding [[Re, -Im], [Im, Re]] has each eigenvalue
-- twice; the complex vectors are read back and orthonormalised
local function eigh_hermitian(h)
  local k = #h
  local e = M.zeros(2 * k, 2 * k)
  for i = 1, k do
    for j = 1, k do
      local re, im = cx.parts(h[i][j])
      e[i][j], e[i][k + j] = re, -im
      e[k + i][j], e[k + i][k + j] = im, re
    end
  end
  local w, V = M.eigh(e)
  local order = {}
  for i = 1, #w do order[i] = i end
  table.sort(order, function(p, q) return math.abs(w[p]) > math.abs(w[q]) end)
  local vals, vecs = {}, {}
  for _, idx in ipairs(order) do
    local c = {}
    for i = 1, k do c[i] = cx.new(V[i][idx], V[k + i][idx]) end
    for _, prev in ipairs(vecs) do
      local dot = 0
      for i = 1, k do dot = cx.add(dot, cx.mul(cx.conj(prev[i]), c[i])) end
      for i = 1, k do c[i] = cx.sub(c[i], cx.mul(dot, prev[i])) end
    end
    local nrm = norm(c)
    if nrm > 0.5 and #vecs < k then
      for i = 1, k do c[i] = cx.div(c[i], nrm) end
      vecs[#vecs + 1] = c
      vals[#vals + 1] = w[idx]
    end
  end
  return vals, vecs
end

-- K v for a real n x k basis K and a vector v of k
local function apply(K, v)
  local out = {}
  for i = 1, #K do
    local s = 0
    for j = 1, #v do s = cx.add(s, cx.mul(K[i][j], v[j])) end
    out[i] = s
  end
  return out
end

local function without(X, skip)
  local out = {}
  for i = 1, #X do
    out[i] = {}
    for j = 1, cols(X) do
      if not skip[j] then out[i][#out[i] + 1] = X[i][j] end
    end
  end
  return out
end

local function knv0(ker, X, j)
  local Q = PL.qr_full(without(X, { [j] = true }))
  local q = column(Q, #Q)
  local K = ker[j]
  local y = apply(K, apply(M.T(K), q))
  if not allclose0(y) then
    local nrm = norm(y)
    for i = 1, #y do y[i] = cx.re(y[i]) / nrm end
    set_column(X, j, y)
  end
end

local function yt_real(ker, Q, X, i, j)
  local n = #X
  local u, v = column(Q, #Q - 1), column(Q, #Q)
  -- m = K_i^T (u v^T - v u^T) K_j
  local Ki, Kj = ker[i], ker[j]
  local uvt = M.zeros(n, n)
  for p = 1, n do for q = 1, n do uvt[p][q] = cx.re(u[p]) * cx.re(v[q]) - cx.re(v[p]) * cx.re(u[q]) end end
  local m = M.mul(M.mul(M.T(Ki), uvt), Kj)
  local sv = svd_small(m)
  local xij = {}
  for p = 1, n do xij[p], xij[n + p] = X[p][i], X[p][j] end
  local kmn    -- the columns of [K_i mu; K_j nu], as vectors of 2n
  if not close(sv[1].s, sv[2] and sv[2].s or 0) then
    local a, b = apply(Ki, sv[1].u), apply(Kj, sv[1].v)
    local c = {}
    for p = 1, n do c[p], c[n + p] = a[p], b[p] end
    kmn = { c }
  else
    kmn = {}
    for r = 1, 2 do
      local a, b = apply(Ki, sv[r].u), apply(Kj, sv[r].v)
      local c = {}
      for p = 1, n do c[p], c[n + p] = a[p], b[p] end
      kmn[r] = c
    end
  end
  -- t = kmn kmn^T x (the columns are not orthonormal: sum of c (c . x))
  local t = {}
  for p = 1, 2 * n do t[p] = 0.0 end
  for _, c in ipairs(kmn) do
    local dot = 0.0
    for p = 1, 2 * n do dot = dot + cx.re(c[p]) * cx.re(xij[p]) end
    for p = 1, 2 * n do t[p] = t[p] + cx.re(c[p]) * dot end
  end
  if not allclose0(t) then
    local nrm = norm(t)
    for p = 1, n do
      X[p][i] = math.sqrt(2) * t[p] / nrm
      X[p][j] = math.sqrt(2) * t[n + p] / nrm
    end
  else
    for p = 1, n do X[p][i], X[p][j] = cx.re(kmn[1][p]), cx.re(kmn[1][n + p]) end
  end
end

local function yt_complex(ker, Q, X, i, j)
  local n = #X
  local ur, ui = column(Q, #Q - 1), column(Q, #Q)
  local u = {}
  for p = 1, n do u[p] = cx.new(math.sqrt(2) * cx.re(ur[p]), math.sqrt(2) * cx.re(ui[p])) end
  local K = ker[i]
  local k = cols(K)
  -- m = K^H (u u^H - conj(u) u^T) K
  local mid = {}
  for p = 1, n do
    mid[p] = {}
    for q = 1, n do
      mid[p][q] = cx.sub(cx.mul(u[p], cx.conj(u[q])), cx.mul(cx.conj(u[p]), u[q]))
    end
  end
  local m = {}
  for a = 1, k do
    m[a] = {}
    for b = 1, k do
      local s = 0
      for p = 1, n do
        local inner = 0
        for q = 1, n do inner = cx.add(inner, cx.mul(mid[p][q], K[q][b])) end
        s = cx.add(s, cx.mul(cx.conj(K[p][a]), inner))
      end
      m[a][b] = s
    end
  end
  local vals, vecs = eigh_hermitian(m)
  local W
  if not close(math.abs(vals[1]), math.abs(vals[2] or 0)) then
    W = { apply(K, vecs[1]) }
  else
    W = { apply(K, vecs[1]), apply(K, vecs[2]) }
  end
  local xij = {}
  for p = 1, n do xij[p] = cx.new(cx.re(X[p][i]), cx.re(X[p][j])) end
  -- kmu kmu^H x with kmu = K mu: the projector scaled by |kmu|^2 per column
  local t = {}
  for p = 1, n do t[p] = 0 end
  for _, w in ipairs(W) do
    local dot = 0
    for p = 1, n do dot = cx.add(dot, cx.mul(cx.conj(w[p]), xij[p])) end
    for p = 1, n do t[p] = cx.add(t[p], cx.mul(w[p], dot)) end
  end
  if not allclose0(t) then
    local nrm = norm(t)
    for p = 1, n do
      X[p][i] = cx.re(t[p]) / nrm
      X[p][j] = cx.im(t[p]) / nrm
    end
  else
    for p = 1, n do X[p][i], X[p][j] = cx.re(W[1][p]), cx.im(W[1][p]) end
  end
end

-- The sweeps of SciPy's loops: sweep() updates X's columns until |det X|
-- changes by less than rtol (relative) or maxiter sweeps were made
local function iterate(X, maxiter, rtol, sweep)
  local stop, nb_try, cur_rtol = false, 0, 0.0
  while nb_try < maxiter and not stop do
    local detb = math.abs(M.det(X))
    sweep()
    local det = math.max(SQRT_EPS, math.abs(M.det(X)))
    cur_rtol = math.abs((det - detb) / det)
    if cur_rtol < rtol and det > SQRT_EPS then stop = true end
    nb_try = nb_try + 1
  end
  return stop, cur_rtol, nb_try
end

-- SciPy's _YT_loop: the order of the column pairs, then the sweeps
local function yt_loop(ker, X, poles, maxiter, rtol)
  local nb_real = 0
  for _, p in ipairs(poles) do if cx.im(p) == 0 then nb_real = nb_real + 1 end end
  local hnb = nb_real // 2
  local o1, o2 = {}, {}
  local function add(a, b) o1[#o1 + 1], o2[#o2 + 1] = a, b end
  if nb_real > 0 then add(nb_real, 1) end
  local npoles = #poles
  local r_comp = {}
  for v = nb_real + 1, npoles, 2 do r_comp[#r_comp + 1] = v end
  local function add_comp() for _, v in ipairs(r_comp) do add(v, v + 1) end end
  local real0 = cx.im(poles[1]) == 0
  for r = 1, hnb + nb_real % 2 - 1 do add(2 * r, 2 * r + 1) end
  add_comp()
  for r = 1, hnb do add(2 * r - 1, 2 * r) end
  if hnb == 0 and real0 then add(1, 1) end
  add_comp()
  for jj = 2, hnb + nb_real % 2 - 1 do
    for i = 1, hnb do add(i, i + jj) end
  end
  if hnb == 0 and real0 then add(1, 1) end
  add_comp()
  for jj = 2, hnb + nb_real % 2 - 1 do
    for i = hnb + 1, nb_real do
      local idx = i + jj
      if idx > nb_real then idx = i + jj - nb_real end
      add(i, idx)
    end
  end
  if hnb == 0 and real0 then add(1, 1) end
  add_comp()
  for i = 1, hnb do add(i, i + hnb) end
  if hnb == 0 and real0 then add(1, 1) end
  add_comp()
  return iterate(X, maxiter, rtol, function()
    for q = 1, #o1 do
      local i, j = o1[q], o2[q]
      if i == j then
        knv0(ker, X, i)
      else
        local Q = PL.qr_full(without(X, { [i] = true, [j] = true }))
        if cx.im(poles[i]) == 0 then yt_real(ker, Q, X, i, j) else yt_complex(ker, Q, X, i, j) end
      end
    end
  end)
end

local function knv0_loop(ker, X, n, maxiter, rtol)
  return iterate(X, maxiter, rtol, function() for j = 1, n do knv0(ker, X, j) end end)
end

-- solve a complex square system (Gaussian elimination, partial pivoting)
local function csolve(a, b)
  local n, m = #a, cols(b)
  local A, Bm = {}, {}
  for i = 1, n do
    A[i], Bm[i] = {}, {}
    for j = 1, n do A[i][j] = a[i][j] end
    for j = 1, m do Bm[i][j] = b[i][j] end
  end
  for c = 1, n do
    local p, best = c, cx.abs(A[c][c])
    for i = c + 1, n do if cx.abs(A[i][c]) > best then p, best = i, cx.abs(A[i][c]) end end
    if best == 0 then raise("singular") end
    A[c], A[p] = A[p], A[c]
    Bm[c], Bm[p] = Bm[p], Bm[c]
    for i = c + 1, n do
      local f = cx.div(A[i][c], A[c][c])
      for j = c, n do A[i][j] = cx.sub(A[i][j], cx.mul(f, A[c][j])) end
      for j = 1, m do Bm[i][j] = cx.sub(Bm[i][j], cx.mul(f, Bm[c][j])) end
    end
  end
  local X = {}
  for i = n, 1, -1 do
    X[i] = {}
    for j = 1, m do
      local s = Bm[i][j]
      for q = i + 1, n do s = cx.sub(s, cx.mul(A[i][q], X[q][j])) end
      X[i][j] = cx.div(s, A[i][i])
    end
  end
  return X
end

--- The placement: A (n x n), B (n x m) real rows, poles ordered as SciPy
-- orders them (reals sorted, then conjugate pairs); returns the gain K,
-- the transfer matrix X, rtol and the iterations (nil: not iterated)
function PL.place(A, B, poles, method, rtol, maxiter, rankB)
  local n = #A
  local U, R = PL.qr_full(B)
  if rankB == n then
    local diag = M.zeros(n, n)
    local idx = 1
    while idx <= n do
      local p = poles[idx]
      diag[idx][idx] = cx.re(p)
      if cx.im(p) ~= 0 then
        diag[idx][idx + 1] = -cx.im(p)
        diag[idx + 1][idx + 1] = cx.re(p)
        diag[idx + 1][idx] = cx.im(p)
        idx = idx + 1
      end
      idx = idx + 1
    end
    local rhs = M.add(diag, A, -1)
    local K = M.zeros(cols(B), n)
    for j = 1, n do
      local x = M.lstsq(B, column(rhs, j))
      for i = 1, cols(B) do K[i][j] = -x[i] end
    end
    return K, M.eye(n), 0 / 0, 0 / 0
  end
  -- the null spaces of (A - p I)^T restricted to B's orthogonal complement
  local ker, X = {}, {}
  for i = 1, n do X[i] = {} end
  local j = 1
  while j <= n do
    local p = poles[j]
    local ps = {}
    for i = 1, n do
      ps[i] = {}
      for c = 1, n - rankB do
        local s = 0
        for q = 1, n do s = cx.add(s, cx.mul(U[q][rankB + c], cx.sub(A[q][i], q == i and p or 0))) end
        ps[i][c] = s
      end
    end
    local Qp = PL.qr_full(ps)
    local K = {}
    for i = 1, n do
      K[i] = {}
      for c = n - rankB + 1, n do K[i][#K[i] + 1] = Qp[i][c] end
    end
    local t = {}
    for i = 1, n do
      local s = 0
      for c = 1, rankB do s = cx.add(s, K[i][c]) end
      t[i] = s
    end
    local nrm = norm(t)
    if cx.im(p) ~= 0 then
      -- a complex pole: its null space is complex; the iterations use it as
      -- given (SciPy keeps the complex basis for both columns)
      for i = 1, n do
        X[i][j] = cx.re(cx.div(t[i], nrm))
        X[i][j + 1] = cx.im(cx.div(t[i], nrm))
      end
      ker[j], ker[j + 1] = K, K
      j = j + 2
    else
      for i = 1, n do
        X[i][j] = cx.re(cx.div(t[i], nrm))
        for c = 1, rankB do K[i][c] = cx.re(K[i][c]) end
      end
      ker[j] = K
      j = j + 1
    end
  end
  local cur_rtol, nb_iter = 0.0, 0
  if rankB > 1 then
    local _
    if method == "KNV0" then _, cur_rtol, nb_iter = knv0_loop(ker, X, n, maxiter, rtol)
    else _, cur_rtol, nb_iter = yt_loop(ker, X, poles, maxiter, rtol) end
  end
  -- the complex transfer matrix: conjugate pairs of columns
  local Xc = {}
  for i = 1, n do
    Xc[i] = {}
    for c = 1, n do Xc[i][c] = cx.from(X[i][c]) end
  end
  local idx = 1
  while idx < n do
    if cx.im(poles[idx]) ~= 0 then
      for i = 1, n do
        local re, im = cx.re(X[i][idx]), cx.re(X[i][idx + 1])
        Xc[i][idx] = cx.new(re, -im)
        Xc[i][idx + 1] = cx.new(re, im)
      end
      idx = idx + 1
    end
    idx = idx + 1
  end
  -- m = (X^T \ (diag(poles) X^T))^T ; K = -(z \ (u0^T (m - A)))
  local XT, rhs = {}, {}
  for i = 1, n do
    XT[i], rhs[i] = {}, {}
    for q = 1, n do
      XT[i][q] = Xc[q][i]
      rhs[i][q] = cx.mul(poles[i], Xc[q][i])
    end
  end
  local ok, mT = pcall(csolve, XT, rhs)
  if not ok then
    raise("The poles you've chosen can't be placed. Check the controllability matrix and try another set of poles")
  end
  local z, rhs2 = {}, {}
  for i = 1, rankB do
    z[i] = {}
    for c = 1, cols(B) do z[i][c] = R[i][c] end
    rhs2[i] = {}
    for c = 1, n do
      local s = 0
      for q = 1, n do s = cx.add(s, cx.mul(cx.conj(U[q][i]), cx.sub(mT[c][q], A[q][c]))) end
      rhs2[i][c] = s
    end
  end
  if rankB ~= cols(B) then
    raise("The poles you've chosen can't be placed. Check the controllability matrix and try another set of poles")
  end
  local ok2, g = pcall(csolve, z, rhs2)
  if not ok2 then
    raise("The poles you've chosen can't be placed. Check the controllability matrix and try another set of poles")
  end
  local K = {}
  for i = 1, #g do
    K[i] = {}
    for c = 1, n do K[i][c] = -cx.re(g[i][c]) end
  end
  return K, Xc, cur_rtol, nb_iter
end

return PL
