--- Linear time-invariant systems on the host, as scipy.signal's
-- _lti_conversion and _ltisys: the conversions between transfer
-- functions, zeros/poles/gain and state space, discretisation
-- (cont2discrete), simulation (lsim, dlsim and the impulse and step
-- responses) and pole placement. A system's matrices are a few rows; a
-- simulation is a sequential recurrence over its time steps. Matrices are
-- lists of real rows (host/mat.lua); errors error({msg = ...}). Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local M = require("gpuarray.scipy.signal.host.mat")
local Z = require("gpuarray.scipy.signal.host.zpk")
local P = require("gpuarray.scipy.signal.host.poly")

local L = {}
local function raise(msg) error({ msg = msg }, 2) end

local function reals(list)
  local o = {}
  for i, v in ipairs(list) do o[i] = cx.re(v) end
  return o
end

--- tf2ss: the controller canonical form of num (a list, or rows) / den
function L.tf2ss(num, den)
  local n, d = Z.normalize(num, den)
  local rows = type(n[1]) == "table" and getmetatable(n[1]) == nil
  local nums = rows and n or { n }
  local Mn, K = #nums[1], #d
  if Mn > K then raise("Improper transfer function. `num` is longer than `den`.") end
  if Mn == 0 or K == 0 then return {}, {}, {}, {} end
  local padded = {}
  for i, r in ipairs(nums) do
    padded[i] = {}
    for j = 1, K - Mn do padded[i][j] = 0.0 end
    for _, v in ipairs(r) do padded[i][#padded[i] + 1] = cx.re(v) end
  end
  d = reals(d)
  local D = {}
  for i = 1, #padded do D[i] = { padded[i][1] } end
  if K == 1 then
    return { { 0.0 } }, { { 0.0 } }, M.zeros(#padded, 1), D
  end
  local A = M.zeros(K - 1, K - 1)
  for j = 1, K - 1 do A[1][j] = -d[j + 1] end
  for i = 2, K - 1 do A[i][i - 1] = 1.0 end
  local B = M.zeros(K - 1, 1)
  B[1][1] = 1.0
  local C = {}
  for i, r in ipairs(padded) do
    C[i] = {}
    for j = 2, K do C[i][j - 1] = r[j] - r[1] * d[j] end
  end
  return A, B, C, D
end

local function shape(m)
  if m == nil then return nil, nil end
  return #m, (#m > 0 and #m[1] or 0)
end

--- abcd_normalize: the missing matrices zero with the shapes the given
-- ones imply
function L.abcd_normalize(A, B, C, D)
  local MA, NA = shape(A)
  local MB, NB = shape(B)
  local MC, NC = shape(C)
  local MD, ND = shape(D)
  local p = MA or MB or NC
  local q = NB or ND
  local r = MC or MD
  if p == nil or q == nil or r == nil then raise("Not enough information on the system.") end
  local function restore(m, rr, cc)
    if m == nil or (#m == 0) then return M.zeros(rr, cc) end
    local a, b = shape(m)
    if a == 0 and b == 0 then return M.zeros(rr, cc) end
    if a ~= rr or b ~= cc then raise("The input arrays have incompatible shapes.") end
    return m
  end
  local _ = NA
  return restore(A, p, p), restore(B, p, q), restore(C, r, p), restore(D, r, q)
end

--- numpy.poly of a square matrix: the characteristic polynomial (from
-- its eigenvalues, as NumPy does)
function L.charpoly(A)
  if #A == 0 then return { 1.0 } end
  local wr, wi = M.eigvals(A)
  local roots = {}
  for i = 1, #wr do roots[i] = wi[i] == 0 and wr[i] or cx.new(wr[i], wi[i]) end
  return reals(P.from_roots(roots))
end

function L.ss2tf(A, B, C, D, input)
  A, B, C, D = L.abcd_normalize(A, B, C, D)
  -- (no outputs: no inputs either, as SciPy's D of shape (0, 0))
  local nout, nin = #D, #D > 0 and #D[1] or 0
  input = input or 0
  if input < 0 or input >= nin then raise("System does not have the input specified.") end
  local Bi, Di = {}, {}
  for i = 1, #B do Bi[i] = { B[i][input + 1] } end
  for i = 1, nout do Di[i] = { D[i][input + 1] } end
  local den = #A > 0 and L.charpoly(A) or { 1.0 }
  if #Bi * (#Bi > 0 and 1 or 0) == 0 and (#C == 0 or #C[1] == 0) then
    local num = {}
    for i = 1, nout do num[i] = Di[i][1] end
    if #A == 0 then den = {} end
    return num, den
  end
  local n = #A
  local num = {}
  for k = 1, nout do
    local BCk = M.zeros(n, n)
    for i = 1, n do for j = 1, n do BCk[i][j] = A[i][j] - Bi[i][1] * C[k][j] end end
    local pk = L.charpoly(BCk)
    num[k] = {}
    for j = 1, n + 1 do num[k][j] = pk[j] + (Di[k][1] - 1) * den[j] end
  end
  return num, den
end

function L.zpk2ss(z, p, k)
  local b, a = Z.zpk2tf(z, p, k)
  return L.tf2ss(b, a)
end

function L.ss2zpk(A, B, C, D, input)
  local num, den = L.ss2tf(A, B, C, D, input)
  if type(num[1]) == "table" then
    if #num > 1 then raise("ss2zpk: a single-output system is needed") end
    num = num[1]
  end
  return Z.tf2zpk(num, den)
end

---------------------------------------------------------------------------
-- discretisation

local function block(m, r0, r1, c0, c1)
  local o = {}
  for i = r0, r1 do
    local row = {}
    for j = c0, c1 do row[#row + 1] = m[i][j] end
    o[#o + 1] = row
  end
  return o
end

--- cont2discrete of a state space (A, B, C, D): Ad, Bd, Cd, Dd
function L.c2d_ss(a, b, c, d, dt, method, alpha)
  local n = #a
  local m = #b > 0 and #b[1] or 0
  if method == "gbt" then
    if alpha == nil then
      raise("Alpha parameter must be specified for the generalized bilinear transform (gbt) method")
    end
    if alpha < 0 or alpha > 1 then raise("Alpha parameter must be within the interval [0,1] for the gbt method") end
    local I = M.eye(n)
    local ima = M.add(I, M.scale(a, alpha * dt), -1)
    local ad = M.solve(ima, M.add(I, M.scale(a, (1.0 - alpha) * dt)))
    local bd = M.solve(ima, M.scale(b, dt))
    local cd = M.T(M.solve(M.T(ima), M.T(c)))
    local dd = M.add(d, M.scale(M.mul(c, bd), alpha))
    return ad, bd, cd, dd
  elseif method == "bilinear" or method == "tustin" then
    return L.c2d_ss(a, b, c, d, dt, "gbt", 0.5)
  elseif method == "euler" or method == "forward_diff" then
    return L.c2d_ss(a, b, c, d, dt, "gbt", 0.0)
  elseif method == "backward_diff" then
    return L.c2d_ss(a, b, c, d, dt, "gbt", 1.0)
  elseif method == "zoh" then
    local em = M.zeros(n + m, n + m)
    for i = 1, n do
      for j = 1, n do em[i][j] = a[i][j] * dt end
      for j = 1, m do em[i][n + j] = b[i][j] * dt end
    end
    local ms = M.expm(em)
    return block(ms, 1, n, 1, n), block(ms, 1, n, n + 1, n + m), c, d
  elseif method == "foh" then
    local em = M.zeros(n + 2 * m, n + 2 * m)
    for i = 1, n do
      for j = 1, n do em[i][j] = a[i][j] * dt end
      for j = 1, m do em[i][n + j] = b[i][j] * dt end
    end
    for i = 1, m do em[n + i][n + m + i] = 1.0 end
    local ms = M.expm(em)
    local ms11, ms12, ms13 = block(ms, 1, n, 1, n), block(ms, 1, n, n + 1, n + m), block(ms, 1, n, n + m + 1, n + 2 * m)
    local bd = M.add(M.add(ms12, ms13, -1), M.mul(ms11, ms13))
    return ms11, bd, c, M.add(d, M.mul(c, ms13))
  elseif method == "impulse" then
    for _, r in ipairs(d) do for _, v in ipairs(r) do
      if math.abs(v) > 1e-8 then raise("Impulse method is only applicableto strictly proper systems") end
    end end
    local ad = M.expm(M.scale(a, dt))
    return ad, M.scale(M.mul(ad, b), dt), c, M.scale(M.mul(c, b), dt)
  end
  raise(("Unknown transformation method '%s'"):format(tostring(method)))
end

---------------------------------------------------------------------------
-- simulation

--- lsim: T (a list of uniform steps from T[1] >= 0), U (nil, or a list of
-- rows: one per time, n_inputs each), X0 (a list or nil); returns yout
-- rows (time x outputs) and xout rows (time x states)
function L.lsim(A, B, C, D, U, T, X0, interp)
  local n = #A
  local nin = #B > 0 and #B[1] or 0
  local nsteps = #T
  -- (SciPy's IndexError on T[0])
  if nsteps == 0 then raise("T must hold at least one time") end
  local x0 = {}
  for i = 1, n do x0[i] = X0 and X0[i] or 0.0 end
  local xout = {}
  if T[1] == 0 then
    xout[1] = x0
  elseif T[1] > 0 then
    xout[1] = M.uncol(M.mul(M.expm(M.scale(A, T[1])), M.col(x0)))
  else
    raise("Initial time must be nonnegative")
  end
  local no_input = U == nil
  if not no_input then
    local any = false
    for _, r in ipairs(U) do for _, v in ipairs(r) do if v ~= 0 then any = true end end end
    no_input = not any
  end
  local function out_rows()
    local y = {}
    for t = 1, nsteps do
      local row = {}
      for o = 1, #C do
        local s = 0.0
        for i = 1, n do s = s + C[o][i] * xout[t][i] end
        if not no_input then for j = 1, nin do s = s + D[o][j] * U[t][j] end end
        row[o] = s
      end
      y[t] = row
    end
    return y
  end
  if nsteps == 1 then return out_rows(), xout end
  local dt = T[2] - T[1]
  for t = 2, nsteps do
    if math.abs((T[t] - T[t - 1]) / dt - 1.0) > 1e-5 then raise("lsim needs uniform time steps") end
  end
  local function step(x, Ad, u0, Bd0, u1, Bd1)
    local xn = {}
    for j = 1, n do
      local s = 0.0
      for i = 1, n do s = s + x[i] * Ad[i][j] end
      if u0 then for k = 1, nin do s = s + u0[k] * Bd0[k][j] end end
      if u1 then for k = 1, nin do s = s + u1[k] * Bd1[k][j] end end
      xn[j] = s
    end
    return xn
  end
  if no_input then
    local E = M.expm(M.scale(M.T(A), dt))
    for t = 2, nsteps do xout[t] = step(xout[t - 1], E) end
    return out_rows(), xout
  end
  if #U ~= nsteps then raise("U must have the same number of rows as elements in T.") end
  if #U[1] ~= nin then raise("System does not define that many inputs.") end
  if not interp then
    local Mm = M.zeros(n + nin, n + nin)
    for i = 1, n do
      for j = 1, n do Mm[i][j] = A[i][j] * dt end
      for j = 1, nin do Mm[i][n + j] = B[i][j] * dt end
    end
    local E = M.expm(M.T(Mm))
    local Ad, Bd = block(E, 1, n, 1, n), block(E, n + 1, n + nin, 1, n)
    for t = 2, nsteps do xout[t] = step(xout[t - 1], Ad, U[t - 1], Bd) end
  else
    local Mm = M.zeros(n + 2 * nin, n + 2 * nin)
    for i = 1, n do
      for j = 1, n do Mm[i][j] = A[i][j] * dt end
      for j = 1, nin do Mm[i][n + j] = B[i][j] * dt end
    end
    for i = 1, nin do Mm[n + i][n + nin + i] = 1.0 end
    local E = M.expm(M.T(Mm))
    local Ad = block(E, 1, n, 1, n)
    local Bd1 = block(E, n + nin + 1, n + 2 * nin, 1, n)
    local Bd0 = M.add(block(E, n + 1, n + nin, 1, n), Bd1, -1)
    for t = 2, nsteps do xout[t] = step(xout[t - 1], Ad, U[t - 1], Bd0, U[t], Bd1) end
  end
  return out_rows(), xout
end

--- The default times of a continuous response: 0 .. 7 time constants
function L.default_times(A, n)
  local r = math.huge
  if #A > 0 then
    local wr = M.eigvals(A)
    for _, v in ipairs(wr) do r = math.min(r, math.abs(v)) end
  end
  if r == 0.0 or r == math.huge then r = 1.0 end
  local tc = 1.0 / r
  local t = {}
  for i = 0, n - 1 do t[i + 1] = n > 1 and 7 * tc * i / (n - 1) or 0.0 end
  if n > 1 then t[n] = 7 * tc end
  return t
end

--- dlsim of a state space: u rows (time x inputs), optionally resampled
-- at the system's steps when t is given; returns tout, yout rows, xout rows
function L.dlsim(A, B, C, D, dt, u, t, x0)
  local nstates = #A
  local nin = #B > 0 and #B[1] or 0
  local out_samples, stoptime
  if t == nil then
    out_samples = #u
    stoptime = (out_samples - 1) * dt
  else
    -- (SciPy's IndexError on t[-1])
    if #t == 0 then raise("t must hold at least one time") end
    stoptime = t[#t]
    -- the steps are a Lua list: bounded (2^24, as the responses' n), and a
    -- NaN or an infinity is no count at all
    if not (stoptime / dt < 1 << 24) then -- luacheck: ignore 581 (NaN)
      raise(("the last time / dt = %s / %s steps are more than the %d dlsim computes"):format(
        tostring(stoptime), tostring(dt), 1 << 24))
    end
    out_samples = math.floor(stoptime / dt) + 1
  end
  local tout = {}
  for i = 0, out_samples - 1 do tout[i + 1] = out_samples > 1 and stoptime * i / (out_samples - 1) or 0.0 end
  if out_samples > 1 then tout[out_samples] = stoptime end
  local u_dt = u
  if t ~= nil then
    u_dt = {}
    for i, tt in ipairs(tout) do
      if tt < t[1] - 1e-12 or tt > t[#t] + 1e-12 then raise("A value in x_new is out of the interpolation range.") end
      local lo = 1
      while lo < #t - 1 and t[lo + 1] <= tt do lo = lo + 1 end
      local hi = math.min(lo + 1, #t)
      local f = hi == lo and 0 or (tt - t[lo]) / (t[hi] - t[lo])
      u_dt[i] = {}
      for k = 1, nin do u_dt[i][k] = u[lo][k] + f * (u[hi][k] - u[lo][k]) end
    end
  end
  local x = {}
  for i = 1, nstates do x[i] = x0 and x0[i] or 0.0 end
  local xout, yout = {}, {}
  for s = 1, out_samples do
    xout[s] = x
    local y = {}
    for o = 1, #C do
      local acc = 0.0
      for i = 1, nstates do acc = acc + C[o][i] * x[i] end
      for k = 1, nin do acc = acc + D[o][k] * u_dt[s][k] end
      y[o] = acc
    end
    yout[s] = y
    if s < out_samples then
      local xn = {}
      for i = 1, nstates do
        local acc = 0.0
        for j = 1, nstates do acc = acc + A[i][j] * x[j] end
        for k = 1, nin do acc = acc + B[i][k] * u_dt[s][k] end
        xn[i] = acc
      end
      x = xn
    end
  end
  return tout, yout, xout
end

---------------------------------------------------------------------------
-- pole placement

-- the order SciPy places poles in: reals sorted, then each conjugate pair
-- (negative imaginary part first) sorted
function L.order_poles(poles)
  local re, im = {}, {}
  for _, p in ipairs(poles) do
    if cx.im(p) == 0 then re[#re + 1] = cx.re(p) elseif cx.im(p) < 0 then im[#im + 1] = p end
  end
  table.sort(re)
  table.sort(im, function(a, b)
    if cx.re(a) ~= cx.re(b) then return cx.re(a) < cx.re(b) end
    return cx.im(a) < cx.im(b)
  end)
  local out = {}
  for _, v in ipairs(re) do out[#out + 1] = v end
  local function has(v)
    for _, p in ipairs(poles) do if cx.re(p) == cx.re(v) and cx.im(p) == cx.im(v) then return true end end
    return false
  end
  for _, p in ipairs(im) do
    if has(cx.conj(p)) then
      out[#out + 1] = cx.from(p)
      out[#out + 1] = cx.from(cx.conj(p))
    end
  end
  if #out ~= #poles then raise("Complex poles must come with their conjugates") end
  return out
end

-- the rank of a real matrix: singular values (the square roots of B^T B's
-- eigenvalues) above max(n, m) eps times the largest, numpy's default
local function rank(a)
  -- the smaller Gram matrix: the larger one's extra eigenvalues are zeros
  -- that rounding can lift past tol (a 1 x 4 B had rank 4, past its 1 row)
  local wide = #a < #a[1]
  local w = M.eigh(wide and M.mul(a, M.T(a)) or M.mul(M.T(a), a))
  local big = 0.0
  for _, v in ipairs(w) do big = math.max(big, math.sqrt(math.max(v, 0))) end
  local tol = big * math.max(#a, #a[1]) * 2.220446049250313e-16
  local r = 0
  for _, v in ipairs(w) do if math.sqrt(math.max(v, 0)) > tol then r = r + 1 end end
  return math.min(r, #a, #a[1])
end
L.rank = rank

--- place_poles (host/place.lua does the placement): the gain, the
-- computed poles, the requested poles (ordered), X, rtol, iterations
function L.place_poles(A, B, poles, method, rtol, maxiter)
  local n = #A
  poles = L.order_poles(poles)
  if #poles > n then raise(("maximum number of poles is %d but you asked for %d"):format(n, #poles)) end
  if #poles < n then raise(("number of poles is %d but you should provide %d"):format(#poles, n)) end
  local rB = rank(B)
  for _, p in ipairs(poles) do
    local count = 0
    for _, q in ipairs(poles) do if cx.re(p) == cx.re(q) and cx.im(p) == cx.im(q) then count = count + 1 end end
    if count > rB then raise("at least one of the requested pole is repeated more than rank(B) times") end
  end
  if method ~= "YT" and method ~= "KNV0" then raise("The method keyword must be one of 'YT' or 'KNV0'") end
  if method == "KNV0" then
    for _, p in ipairs(poles) do if cx.im(p) ~= 0 then raise("Complex poles are not supported by KNV0") end end
  end
  if maxiter < 1 then raise("maxiter must be at least equal to 1") end
  if rtol > 1 then raise("rtol can not be greater than 1") end
  local gain, X, cur_rtol, nb_iter = require("gpuarray.scipy.signal.host.place").place(A, B, poles, method, rtol,
                                                                                      maxiter, rB)
  local closed = M.add(A, M.mul(B, gain), -1)
  local wr, wi = M.eigvals(closed)
  local computed = {}
  for i = 1, #wr do computed[i] = wi[i] == 0 and wr[i] or cx.new(wr[i], wi[i]) end
  return gain, L.order_poles(computed), poles, X, cur_rtol, nb_iter
end

return L
