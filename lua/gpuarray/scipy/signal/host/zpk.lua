--- Filter algebra on the host, as scipy.signal's _filter_design.py does
-- it: analog prototypes (buttap cheb1ap cheb2ap ellipap besselap), the
-- frequency transformations (lp2lp lp2hp lp2bp lp2bs, zpk and tf forms),
-- the bilinear transform, and the conversions between zeros/poles/gain,
-- transfer functions (b, a) and second-order sections. Lists of numbers
-- and host complex values (host/cx.lua); an error is raised as
-- error({msg = ...}) so the public wrapper can name itself. Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local P = require("gpuarray.scipy.signal.host.poly")
local SP = require("gpuarray.scipy.signal.host.special")
local O = require("gpuarray.scipy.signal.host.optim")

local Z = {}

local function raise(msg) error({ msg = msg }, 2) end
Z.raise = raise

local EPS = 2.220446049250313e-16

local function copy(t)
  local o = {}
  for i, v in ipairs(t) do o[i] = v end
  return o
end
Z.copy = copy

local function prod(list)
  local r = 1
  for _, v in ipairs(list) do r = cx.mul(r, v) end
  return r
end

local function map(list, f)
  local o = {}
  for i, v in ipairs(list) do o[i] = f(v) end
  return o
end

local function append(a, b)
  local o = copy(a)
  for _, v in ipairs(b) do o[#o + 1] = v end
  return o
end
Z.append = append

-- The prototypes and the conversions after them are O(N^2) host loops
-- (a Bessel prototype's root finder 50 N^2 complex steps): orders are
-- bounded rather than left to run for minutes, far above any filter that
-- float64 coefficients still describe
local MAX_ORDER, MAX_BESSEL_ORDER = 200, 50
Z.MAX_ORDER, Z.MAX_BESSEL_ORDER = MAX_ORDER, MAX_BESSEL_ORDER

local function check_order(N, max)
  if math.type(N) ~= "integer" or N < 0 then raise("Filter order must be a nonnegative integer") end
  max = max or MAX_ORDER
  if N > max then raise(("Filter order N = %d is more than the %d this design computes"):format(N, max)) end
end

---------------------------------------------------------------------------
-- analog lowpass prototypes: z, p, k with cutoff 1 rad/s

function Z.buttap(N)
  check_order(N)
  local p = {}
  for m = -N + 1, N - 1, 2 do
    p[#p + 1] = cx.mul(-1, cx.exp(cx.new(0, math.pi * m / (2 * N))))
  end
  return {}, p, 1
end

local function asinh(x) return math.log(x + math.sqrt(x * x + 1)) end
local function acosh(x) return math.log(x + math.sqrt(x * x - 1)) end
Z.asinh, Z.acosh = asinh, acosh

function Z.cheb1ap(N, rp)
  check_order(N)
  if N == 0 then return {}, {}, 10 ^ (-rp / 20) end
  local eps = math.sqrt(10 ^ (0.1 * rp) - 1.0)
  local mu = 1.0 / N * asinh(1 / eps)
  local p = {}
  for m = -N + 1, N - 1, 2 do
    local theta = math.pi * m / (2 * N)
    p[#p + 1] = cx.mul(-1, cx.sinh(cx.new(mu, theta)))
  end
  local k = cx.re(prod(map(p, function(v) return cx.mul(-1, v) end)))
  if N % 2 == 0 then k = k / math.sqrt(1 + eps * eps) end
  return {}, p, k
end

function Z.cheb2ap(N, rs)
  check_order(N)
  if N == 0 then return {}, {}, 1 end
  local de = 1.0 / math.sqrt(10 ^ (0.1 * rs) - 1)
  local mu = asinh(1.0 / de) / N
  local ms = {}
  if N % 2 == 1 then
    for m = -N + 1, -1, 2 do ms[#ms + 1] = m end
    for m = 2, N - 1, 2 do ms[#ms + 1] = m end
  else
    for m = -N + 1, N - 1, 2 do ms[#ms + 1] = m end
  end
  local z = {}
  for i, m in ipairs(ms) do
    -- -conj(1j / sin(m pi / 2N))
    z[i] = cx.conj(cx.mul(-1, cx.div(cx.I, math.sin(m * math.pi / (2.0 * N)))))
  end
  local p = {}
  local smu, cmu = cx.sinh(mu), cx.cosh(mu)
  for m = -N + 1, N - 1, 2 do
    local v = cx.mul(-1, cx.exp(cx.new(0, math.pi * m / (2 * N))))
    v = cx.new(smu * cx.re(v), cmu * cx.im(v))
    p[#p + 1] = cx.div(1.0, v)
  end
  local k = cx.re(cx.div(prod(map(p, function(v) return cx.mul(-1, v) end)),
                         prod(map(z, function(v) return cx.mul(-1, v) end))))
  return z, p, k
end

-- e^x - 1 to full precision near 0 (Kahan's trick: the rounding of e^x
-- cancels in (u - 1) x / log u)
local function expm1(x)
  local u = math.exp(x)
  if u == 1.0 then return x end
  local um1 = u - 1.0
  if um1 == -1.0 then return -1.0 end
  if u == math.huge then return u end
  return um1 * x / math.log(u)
end
Z.expm1 = expm1
local function pow10m1(x) return expm1(math.log(10) * x) end
Z.pow10m1 = pow10m1

-- the elliptic modulus for the degree equation (SciPy's _ellipdeg)
local function ellipdeg(n, m1)
  local K1 = SP.ellipk(m1)
  local K1p = SP.ellipkm1(m1)
  local q1 = math.exp(-math.pi * K1p / K1)
  local q = q1 ^ (1 / n)
  local num, den = 0.0, 0.0
  for m = 0, 7 do num = num + q ^ (m * (m + 1)) end
  for m = 1, 8 do den = den + q ^ (m * m) end
  den = 1 + 2 * den
  return 16 * q * (num / den) ^ 4
end

-- the inverse Jacobi sn by Landen's transformation (SciPy's _arc_jac_sn),
-- for a complex w
local function arc_jac_sn(w, m)
  local function complement(kx) return cx.sqrt(cx.mul(cx.sub(1, kx), cx.add(1, kx))) end
  local k = math.sqrt(m)
  if k > 1 then return 0 / 0 end
  local ks = { k }
  local niter = 0
  while ks[#ks] ~= 0 do
    local k_ = ks[#ks]
    local k_p = cx.re(complement(k_))
    ks[#ks + 1] = (1 - k_p) / (1 + k_p)
    niter = niter + 1
    if niter > 10 then raise("Landen transformation not converging") end
  end
  local K = 1.0
  for i = 2, #ks do K = K * (1 + ks[i]) end
  K = K * math.pi / 2
  local wn = w
  for i = 1, #ks - 1 do
    local kn, knext = ks[i], ks[i + 1]
    wn = cx.div(cx.mul(2, wn), cx.mul(1 + knext, cx.add(1, complement(cx.mul(kn, wn)))))
  end
  -- arcsin of a complex value: -i log(i w + sqrt(1 - w^2))
  local iw = cx.mul(cx.I, wn)
  local asin = cx.mul(cx.new(0, -1), cx.log(cx.add(iw, cx.sqrt(cx.sub(1, cx.mul(wn, wn))))))
  return cx.mul(K * 2 / math.pi, asin)
end

function Z.ellipap(N, rp, rs)
  check_order(N)
  if N == 0 then return {}, {}, 10 ^ (-rp / 20) end
  if N == 1 then
    local p = -math.sqrt(1.0 / pow10m1(0.1 * rp))
    return {}, { p }, -p
  end
  local eps_sq = pow10m1(0.1 * rp)
  local eps = math.sqrt(eps_sq)
  local ck1_sq = eps_sq / pow10m1(0.1 * rs)
  if ck1_sq == 0 then raise("Cannot design a filter with given rp and rs specifications.") end
  local val0 = SP.ellipk(ck1_sq)
  local m = ellipdeg(N, ck1_sq)
  local capk = SP.ellipk(m)
  local s, c, d = {}, {}, {}
  for j = 1 - N % 2, N - 1, 2 do
    local sj, cj, dj = SP.ellipj(j * capk / N, m)
    s[#s + 1], c[#c + 1], d[#d + 1] = sj, cj, dj
  end
  local z = {}
  for _, sj in ipairs(s) do
    if math.abs(sj) > 2e-16 then z[#z + 1] = cx.new(0, 1.0 / (math.sqrt(m) * sj)) end
  end
  local nz = #z
  for i = 1, nz do z[#z + 1] = cx.conj(z[i]) end
  local r = arc_jac_sn(cx.new(0, 1.0 / eps), ck1_sq)
  if math.abs(cx.re(r)) > 1e-14 then raise("ellipap: the inverse Jacobi sc did not converge") end
  r = cx.im(r)
  local v0 = capk * r / (N * val0)
  local sv, cvv, dv = SP.ellipj(v0, 1 - m)
  local p = {}
  for i = 1, #s do
    local den = 1 - (d[i] * sv) ^ 2.0
    p[i] = cx.new(-(c[i] * d[i] * sv * cvv) / den, -(s[i] * dv) / den)
  end
  local np_ = #p
  if N % 2 == 1 then
    local norm = 0.0
    for i = 1, np_ do norm = norm + cx.abs2(p[i]) end
    norm = math.sqrt(norm)
    for i = 1, np_ do
      if math.abs(cx.im(p[i])) > 2e-16 * norm then p[#p + 1] = cx.conj(p[i]) end
    end
  else
    for i = 1, np_ do p[#p + 1] = cx.conj(p[i]) end
  end
  local k = cx.re(cx.div(prod(map(p, function(v) return cx.mul(-1, v) end)),
                         prod(map(z, function(v) return cx.mul(-1, v) end))))
  if N % 2 == 0 then k = k / math.sqrt(1 + eps_sq) end
  return z, p, k
end

-- Bessel filter poles are 1/x for the zeros x of kve(N + 1/2, 1/x), that
-- is of g(x) = sum_k (N + k)! / (k! (N - k)!) (x / 2)^k (the closed form
-- of K at half-integer order). SciPy starts from Campos and Calderon's
-- guesses, runs Aberth's iteration and polishes with Newton's method on
-- kve; here g's residual in the polishing steps is summed in double-double
-- arithmetic (Dekker's products), because in plain doubles the terms of g
-- cancel near a zero and the roots would lose digits as N grows (1e-12 at
-- N = 12, 1e-4 at N = 25).
local function campos_zeros(n)
  if n == 1 then return { cx.new(-1, 0) } end
  local function pv(x, c)   -- numpy.polynomial.polynomial.polyval: c[1] + c[2] x + ...
    local s = 0
    for i = #c, 1, -1 do s = s * x + c[i] end
    return s
  end
  local s = pv(n, { 0, 0, 2, 0, -3, 1 })
  local b3 = pv(n, { 16, -8 }) / s
  local b2 = pv(n, { -24, -12, 12 }) / s
  local b1 = pv(n, { 8, 24, -12, -2 }) / s
  local b0 = pv(n, { 0, -6, 0, 5, -1 }) / s
  local r = pv(n, { 0, 0, 2, 1 })
  local a1 = pv(n, { -6, -6 }) / r
  local a2 = 6 / r
  local out = {}
  for k = 1, n do
    out[k] = cx.new(pv(k, { 0, a1, a2 }), pv(k, { b0, b1, b2, b3 }))
  end
  return out
end


-- double-double helpers: a value is hi + lo
local function two_sum(a, b)
  local s = a + b
  local bb = s - a
  return s, (a - (s - bb)) + (b - bb)
end
local function split(a)
  local t = 134217729.0 * a
  local hi = t - (t - a)
  return hi, a - hi
end
local function two_prod(a, b)
  local p = a * b
  local ah, al = split(a)
  local bh, bl = split(b)
  return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl
end
local function dd_add(ah, al, bh, bl)
  local s, e = two_sum(ah, bh)
  e = e + al + bl
  return two_sum(s, e)
end
local function dd_mul_d(ah, al, b)
  local p, e = two_prod(ah, b)
  e = e + al * b
  return two_sum(p, e)
end
local function dd_div_d(ah, al, b)
  local q1 = ah / b
  local p, e = two_prod(q1, b)
  local rh = dd_add(ah, al, -p, -e)
  return two_sum(q1, rh / b)
end

-- g's coefficients (lowest power first) as double-double pairs
local function bessel_coeffs(N)
  local ch, cl = { 1.0 }, { 0.0 }
  local h, l = 1.0, 0.0
  for k = 1, N do
    -- a_k = a_{k-1} (N + k)(N - k + 1) / k, then / 2 for (x / 2)^k
    h, l = dd_mul_d(h, l, (N + k) * (N - k + 1))
    h, l = dd_div_d(h, l, k)
    h, l = h / 2, l / 2
    ch[k + 1], cl[k + 1] = h, l
  end
  return ch, cl
end

-- g(x) for a complex x: Horner in double-double, rounded to a complex value
local function g_dd(ch, cl, x)
  local xr, xi = cx.parts(x)
  local rh, rl, ih, il = 0.0, 0.0, 0.0, 0.0
  for k = #ch, 1, -1 do
    -- (r + i m)(xr + i xi) + c
    local a1h, a1l = dd_mul_d(rh, rl, xr)
    local a2h, a2l = dd_mul_d(ih, il, xi)
    local b1h, b1l = dd_mul_d(rh, rl, xi)
    local b2h, b2l = dd_mul_d(ih, il, xr)
    local nrh, nrl = dd_add(a1h, a1l, -a2h, -a2l)
    nrh, nrl = dd_add(nrh, nrl, ch[k], cl[k])
    ih, il = dd_add(b1h, b1l, b2h, b2l)
    rh, rl = nrh, nrl
  end
  return cx.new(rh + rl, ih + il)
end

local function g_prime(ch, x)
  local s = 0
  for k = #ch, 2, -1 do s = cx.add(cx.mul(s, x), ch[k] * (k - 1)) end
  return s
end

local function bessel_zeros(N)
  if N == 0 then return {} end
  local x = campos_zeros(N)
  local ch, cl = bessel_coeffs(N)
  local function f(v)
    local s = 0
    for k = #ch, 1, -1 do s = cx.add(cx.mul(s, v), ch[k]) end
    return s
  end
  local function fp(v) return g_prime(ch, v) end
  -- Aberth's iteration (SciPy's _aberth: tol 1e-15, 50 iterations)
  local n = #x
  for _ = 1, 50 do
    local alpha = {}
    for k = 1, n do alpha[k] = cx.mul(-1, cx.div(f(x[k]), fp(x[k]))) end
    local done = true
    for k = 1, n do
      local beta = 0
      for j = k + 1, n do beta = cx.add(beta, cx.div(1, cx.sub(x[k], x[j]))) end
      for j = 1, k - 1 do beta = cx.add(beta, cx.div(1, cx.sub(x[k], x[j]))) end
      x[k] = cx.from(cx.add(x[k], cx.div(alpha[k], cx.add(1, cx.mul(alpha[k], beta)))))
      if cx.abs(alpha[k]) > 1e-15 then done = false end
    end
    if done then break end
  end
  -- Newton's polishing with the double-double residual
  for i = 1, n do
    for _ = 1, 8 do
      local step = cx.div(g_dd(ch, cl, x[i]), fp(x[i]))
      x[i] = cx.from(cx.sub(x[i], step))
      if cx.abs(step) <= 1e-17 * cx.abs(x[i]) then break end
    end
  end
  local out = {}
  for i = 1, n do out[i] = cx.div(cx.add(x[i], cx.conj(x[n - i + 1])), 2) end
  return out
end

local function falling_factorial(x, n)
  local v = 1
  for k = x - n + 1, x do v = v * k end
  return v
end

function Z.besselap(N, norm)
  check_order(N, MAX_BESSEL_ORDER)
  norm = norm or "phase"
  if N == 0 then return {}, {}, 1.0 end
  local zeros = bessel_zeros(N)
  local p = map(zeros, function(v) return cx.div(1, v) end)
  -- (2N)! / N! / 2^N: exact integers while they fit in 64 bits, as SciPy's
  local a_last
  if N <= 14 then
    a_last = falling_factorial(2 * N, N) // (1 << N)
  else
    a_last = 1.0
    for k = N + 1, 2 * N do a_last = a_last * k / 2 end
  end
  local k
  if norm == "delay" or norm == "mag" then
    k = a_last
    if norm == "mag" then
      local function G(w)
        local den = 1
        for _, pv in ipairs(p) do den = cx.mul(den, cx.sub(cx.new(0, w), pv)) end
        return math.abs(k / cx.abs(den))
      end
      local nf = O.newton(function(w) return G(w) - 1 / math.sqrt(2) end, 1.5)
      p = map(p, function(v) return cx.div(v, nf) end)
      k = nf ^ (-N) * a_last
    end
  elseif norm == "phase" then
    local f = 10 ^ (-math.log(a_last, 10) / N)
    p = map(p, function(v) return cx.mul(v, f) end)
    k = 1
  else
    raise("normalization not understood")
  end
  return {}, p, k + 0.0
end

---------------------------------------------------------------------------
-- frequency transformations (zpk)

local function relative_degree(z, p)
  local degree = #p - #z
  if degree < 0 then raise("Improper transfer function. Must have at least as many poles as zeros.") end
  return degree
end

function Z.lp2lp_zpk(z, p, k, wo)
  wo = wo or 1.0
  local degree = relative_degree(z, p)
  return map(z, function(v) return cx.mul(wo, v) end), map(p, function(v) return cx.mul(wo, v) end),
         k * wo ^ degree
end

function Z.lp2hp_zpk(z, p, k, wo)
  wo = wo or 1.0
  local degree = relative_degree(z, p)
  local zh = map(z, function(v) return cx.div(wo, v) end)
  local ph = map(p, function(v) return cx.div(wo, v) end)
  for _ = 1, degree do zh[#zh + 1] = 0.0 end
  local kh = k * cx.re(cx.div(prod(map(z, function(v) return cx.mul(-1, v) end)),
                              prod(map(p, function(v) return cx.mul(-1, v) end))))
  return zh, ph, kh
end

local function shifted(list, wo)
  -- v + sqrt(v^2 - wo^2) and v - sqrt(v^2 - wo^2), all complex
  local a, b = {}, {}
  for i, v in ipairs(list) do
    v = cx.from(v)
    local r = cx.sqrt(cx.sub(cx.mul(v, v), wo * wo))
    a[i] = cx.from(cx.add(v, r))
    b[i] = cx.from(cx.sub(v, r))
  end
  return append(a, b)
end

function Z.lp2bp_zpk(z, p, k, wo, bw)
  wo, bw = wo or 1.0, bw or 1.0
  local degree = relative_degree(z, p)
  local zb = shifted(map(z, function(v) return cx.mul(v, bw / 2) end), wo)
  local pb = shifted(map(p, function(v) return cx.mul(v, bw / 2) end), wo)
  for _ = 1, degree do zb[#zb + 1] = cx.new(0, 0) end
  return zb, pb, k * bw ^ degree
end

function Z.lp2bs_zpk(z, p, k, wo, bw)
  wo, bw = wo or 1.0, bw or 1.0
  local degree = relative_degree(z, p)
  local zb = shifted(map(z, function(v) return cx.div(bw / 2, v) end), wo)
  local pb = shifted(map(p, function(v) return cx.div(bw / 2, v) end), wo)
  for _ = 1, degree do zb[#zb + 1] = cx.new(0, wo) end
  for _ = 1, degree do zb[#zb + 1] = cx.new(0, -wo) end
  local kb = k * cx.re(cx.div(prod(map(z, function(v) return cx.mul(-1, v) end)),
                              prod(map(p, function(v) return cx.mul(-1, v) end))))
  return zb, pb, kb
end

function Z.bilinear_zpk(z, p, k, fs)
  local degree = relative_degree(z, p)
  local fs2 = 2.0 * fs
  local zz = map(z, function(v) return cx.div(cx.add(fs2, v), cx.sub(fs2, v)) end)
  local pz = map(p, function(v) return cx.div(cx.add(fs2, v), cx.sub(fs2, v)) end)
  for _ = 1, degree do zz[#zz + 1] = -1.0 end
  local kz = k * cx.re(cx.div(prod(map(z, function(v) return cx.sub(fs2, v) end)),
                              prod(map(p, function(v) return cx.sub(fs2, v) end))))
  return zz, pz, kz
end

---------------------------------------------------------------------------
-- transfer functions

--- SciPy's normalize for a 1-D numerator (b) or a list of numerators
-- (rows): a's leading zeros trimmed, both divided by a[1], the leading
-- all-zero columns of b trimmed (one kept). Returns b (same form), a.
function Z.normalize(b, a)
  local rows = type(b[1]) == "table" and getmetatable(b[1]) == nil
  local nums = rows and b or { b }
  local allzero = true
  for _, v in ipairs(a) do if cx.abs(v) ~= 0 then allzero = false end end
  if allzero or #a == 0 then raise("Denominator must have at least on nonzero element.") end
  local den = P.trim_leading(a)
  local width = 0
  for _, r in ipairs(nums) do width = math.max(width, #r) end
  local out = {}
  for i, r in ipairs(nums) do
    out[i] = {}
    for j = 1, width do
      local v = r[j - (width - #r)] or 0
      out[i][j] = cx.div(v, den[1])
    end
  end
  local d0 = den[1]
  local dn = map(den, function(v) return cx.div(v, d0) end)
  local lead = 0
  for j = 1, width do
    local zero = true
    for i = 1, #out do if cx.abs(out[i][j]) > 1e-14 then zero = false end end
    if not zero then break end
    lead = lead + 1
  end
  if lead > 0 then
    if lead == width then lead = lead - 1 end
    for i = 1, #out do
      local r = {}
      for j = lead + 1, width do r[#r + 1] = out[i][j] end
      out[i] = r
    end
  end
  return rows and out or out[1], dn
end

function Z.tf2zpk(b, a)
  b, a = Z.normalize(b, a)
  if type(b[1]) == "table" and getmetatable(b[1]) == nil then raise("tf2zpk: b must be 1-D") end
  -- (SciPy's IndexError: the gain is b[1])
  if #b == 0 then raise("b must have at least one coefficient") end
  local a0 = a[1]
  b = map(b, function(v) return cx.div(v, a0) end)
  a = map(a, function(v) return cx.div(v, a0) end)
  local k = b[1]
  local bn = map(b, function(v) return cx.div(v, k) end)
  return P.roots(bn), P.roots(a), k
end

--- zpk -> b, a (b a list of rows when z is: multi-output systems)
function Z.zpk2tf(z, p, k)
  local b
  if type(z[1]) == "table" and getmetatable(z[1]) == nil then
    b = {}
    for i, row in ipairs(z) do
      local ki = type(k) == "table" and (k[i] or k[1]) or k
      b[i] = map(P.from_roots(row), function(v) return cx.mul(ki, v) end)
    end
  else
    b = map(P.from_roots(z), function(v) return cx.mul(k, v) end)
  end
  local a = P.from_roots(p)
  return b, a
end

function Z.sos2tf(sos)
  local b, a = { 1.0 }, { 1.0 }
  for _, s in ipairs(sos) do
    b = P.mul(b, { s[1], s[2], s[3] })
    a = P.mul(a, { s[4], s[5], s[6] })
  end
  return b, a
end

function Z.sos2zpk(sos)
  local z, p, k = {}, {}, 1.0
  for si, s in ipairs(sos) do
    local zz, pp, kk = Z.tf2zpk({ s[1], s[2], s[3] }, { s[4], s[5], s[6] })
    for i = 1, 2 do
      z[2 * (si - 1) + i] = cx.from(zz[i] or 0)
      p[2 * (si - 1) + i] = cx.from(pp[i] or 0)
    end
    k = k * cx.re(kk)
  end
  return z, p, k
end

-- SciPy's _cplxreal: the complex values of z, one of each conjugate pair
-- (averaged), and the real values, both sorted
function Z.cplxreal(z, tol)
  if #z == 0 then return {}, {} end
  tol = tol or 100 * EPS
  local idx = {}
  for i = 1, #z do idx[i] = i end
  table.sort(idx, function(i, j)
    local a, b = z[i], z[j]
    if cx.re(a) ~= cx.re(b) then return cx.re(a) < cx.re(b) end
    if math.abs(cx.im(a)) ~= math.abs(cx.im(b)) then return math.abs(cx.im(a)) < math.abs(cx.im(b)) end
    return i < j
  end)
  local zr, rest = {}, {}
  for _, i in ipairs(idx) do
    local v = z[i]
    if math.abs(cx.im(v)) <= tol * cx.abs(v) then zr[#zr + 1] = cx.re(v) else rest[#rest + 1] = v end
  end
  if #rest == 0 then return {}, zr end
  local zp, zn = {}, {}
  for _, v in ipairs(rest) do
    if cx.im(v) > 0 then zp[#zp + 1] = v elseif cx.im(v) < 0 then zn[#zn + 1] = v end
  end
  if #zp ~= #zn then raise("Array contains complex value with no matching conjugate.") end
  -- runs of nearly equal real parts, each sorted by |imag|
  local i = 1
  while i <= #zp do
    local j = i
    while j < #zp and cx.re(zp[j + 1]) - cx.re(zp[j]) <= tol * cx.abs(zp[j]) do j = j + 1 end
    if j > i then
      for _, chunk in ipairs({ zp, zn }) do
        local part = {}
        for q = i, j do part[#part + 1] = chunk[q] end
        table.sort(part, function(a, b) return math.abs(cx.im(a)) < math.abs(cx.im(b)) end)
        for q = i, j do chunk[q] = part[q - i + 1] end
      end
    end
    i = j + 1
  end
  local zc = {}
  for q = 1, #zp do
    if cx.abs(cx.sub(zp[q], cx.conj(zn[q]))) > tol * cx.abs(zn[q]) then
      raise("Array contains complex value with no matching conjugate.")
    end
    zc[q] = cx.div(cx.add(zp[q], cx.conj(zn[q])), 2)
  end
  return zc, zr
end

local function isreal(v) return cx.im(v) == 0 end

-- the index (1-based) of the element of fro nearest to `to` that is real,
-- complex or any (ties: the first)
local function nearest_idx(fro, to, which)
  local best, bestd = nil, math.huge
  for i, v in ipairs(fro) do
    local ok = which == "any" or (which == "real") == isreal(v)
    if ok then
      local d = cx.abs(cx.sub(v, to))
      if d < bestd then best, bestd = i, d end
    end
  end
  return best
end

local function single_zpksos(z, p, k)
  local sos = { 0, 0, 0, 0, 0, 0 }
  local b, a = Z.zpk2tf(z, p, k)
  for i = 1, #b do sos[3 - #b + i] = cx.re(b[i]) end
  for i = 1, #a do sos[6 - #a + i] = cx.re(a[i]) end
  return sos
end

--- zeros, poles, gain -> second-order sections (SciPy's zpk2sos: pole
-- pairs from the one nearest the unit circle (digital) or the imaginary
-- axis (analog), each with its nearest zeros)
function Z.zpk2sos(z, p, k, pairing, analog)
  -- a NaN is neither real nor one of a conjugate pair: SciPy's _cplxreal
  -- drops it and its pairing then finds no pole (an argmin of nothing);
  -- here the pairing took the worst of no poles
  for _, list in ipairs({ z, p }) do
    for _, v in ipairs(list) do
      if cx.re(v) ~= cx.re(v) or cx.im(v) ~= cx.im(v) then raise("zeros and poles must not be NaN") end
    end
  end
  pairing = pairing or (analog and "minimal" or "nearest")
  if pairing ~= "nearest" and pairing ~= "keep_odd" and pairing ~= "minimal" then
    raise(("pairing must be one of ['nearest', 'keep_odd', 'minimal'], not %s"):format(tostring(pairing)))
  end
  if analog and pairing ~= "minimal" then raise('for analog zpk2sos conversion, pairing must be "minimal"') end
  if #z == 0 and #p == 0 then
    if not analog then return { { cx.re(k), 0.0, 0.0, 1.0, 0.0, 0.0 } } end
    return { { 0.0, 0.0, cx.re(k), 0.0, 0.0, 1.0 } }
  end
  z, p = copy(z), copy(p)
  local n_sections
  if pairing ~= "minimal" then
    for _ = 1, math.max(#z - #p, 0) do p[#p + 1] = 0.0 end
    for _ = 1, math.max(#p - #z, 0) do z[#z + 1] = 0.0 end
    n_sections = (math.max(#p, #z) + 1) // 2
    if #p % 2 == 1 and pairing == "nearest" then
      p[#p + 1] = 0.0
      z[#z + 1] = 0.0
    end
  else
    if #p < #z then raise("for analog zpk2sos conversion, must have len(p)>=len(z)") end
    n_sections = (#p + 1) // 2
  end
  z = append(Z.cplxreal(z))
  p = append(Z.cplxreal(p))
  if not cx.is_real(k) then raise("k must be real") end
  k = cx.re(k)
  local function idx_worst(list)
    local best, bestv = nil, math.huge
    for i, v in ipairs(list) do
      local d = analog and math.abs(cx.re(v)) or math.abs(1 - cx.abs(v))
      if d < bestv then best, bestv = i, d end
    end
    return best
  end
  local function count_real(list)
    local n = 0
    for _, v in ipairs(list) do if isreal(v) then n = n + 1 end end
    return n
  end
  local sos = {}
  for si = n_sections, 1, -1 do
    local p1 = table.remove(p, idx_worst(p))
    if isreal(p1) and count_real(p) == 0 then
      if pairing ~= "minimal" then
        local z1 = table.remove(z, nearest_idx(z, p1, "real"))
        sos[si] = single_zpksos({ z1, 0 }, { p1, 0 }, 1)
      elseif #z > 0 then
        local z1 = table.remove(z, nearest_idx(z, p1, "real"))
        sos[si] = single_zpksos({ z1 }, { p1 }, 1)
      else
        sos[si] = single_zpksos({}, { p1 }, 1)
      end
    elseif #p + 1 == #z and not isreal(p1) and count_real(p) == 1 and count_real(z) == 1 then
      local z1 = table.remove(z, nearest_idx(z, p1, "complex"))
      sos[si] = single_zpksos({ z1, cx.conj(z1) }, { p1, cx.conj(p1) }, 1)
    else
      local p2
      if isreal(p1) then
        local reals = {}
        for i, v in ipairs(p) do if isreal(v) then reals[#reals + 1] = i end end
        local sub = {}
        for i, ri in ipairs(reals) do sub[i] = p[ri] end
        p2 = table.remove(p, reals[idx_worst(sub)])
      else
        p2 = cx.conj(p1)
      end
      if #z > 0 then
        local z1 = table.remove(z, nearest_idx(z, p1, "any"))
        if not isreal(z1) then
          sos[si] = single_zpksos({ z1, cx.conj(z1) }, { p1, p2 }, 1)
        elseif #z > 0 then
          local z2 = table.remove(z, nearest_idx(z, p1, "real"))
          sos[si] = single_zpksos({ z1, z2 }, { p1, p2 }, 1)
        else
          sos[si] = single_zpksos({ z1 }, { p1, p2 }, 1)
        end
      else
        sos[si] = single_zpksos({}, { p1, p2 }, 1)
      end
    end
  end
  for j = 1, 3 do sos[1][j] = sos[1][j] * k end
  return sos
end

function Z.tf2sos(b, a, pairing, analog)
  local z, p, k = Z.tf2zpk(b, a)
  return Z.zpk2sos(z, p, k, pairing, analog)
end

---------------------------------------------------------------------------
-- transformations of transfer functions (b, a)

function Z.lp2lp(b, a, wo)
  local d, n = #a, #b
  -- (SciPy's IndexError: its powers of wo run as far as a is long)
  if d == 0 then raise("Denominator must have at least on nonzero element.") end
  local M = math.max(d, n)
  local pwo = {}
  for i = 1, M do pwo[i] = wo ^ (M - i) end
  local start1 = math.max(n - d, 0)
  local start2 = math.max(d - n, 0)
  local bo, ao = {}, {}
  for i = 1, n do bo[i] = cx.mul(b[i], pwo[start1 + 1] / pwo[start2 + i]) end
  for i = 1, d do ao[i] = cx.mul(a[i], pwo[start1 + 1] / pwo[start1 + i]) end
  return Z.normalize(bo, ao)
end

function Z.lp2hp(b, a, wo)
  local d, n = #a, #b
  local M = math.max(d, n)
  local pwo = {}
  for i = 1, M do pwo[i] = wo ~= 1 and wo ^ (i - 1) or 1.0 end
  local outa, outb = {}, {}
  if d >= n then
    for i = 1, d do outa[i] = cx.mul(a[d - i + 1], pwo[i]) end
    for i = 1, d do outb[i] = i <= n and cx.mul(b[n - i + 1], pwo[i]) or 0.0 end
  else
    for i = 1, n do outb[i] = cx.mul(b[n - i + 1], pwo[i]) end
    for i = 1, n do outa[i] = i <= d and cx.mul(a[d - i + 1], pwo[i]) or 0.0 end
  end
  return Z.normalize(outb, outa)
end

local comb = SP.comb

function Z.lp2bp(b, a, wo, bw)
  local D, N = #a - 1, #b - 1
  local ma = math.max(N, D)
  local Np, Dp = N + ma, D + ma
  local wosq = wo * wo
  local function build(c, deg, outdeg)
    local out = {}
    for j = 0, outdeg do
      local val = 0.0
      for i = 0, deg do
        for k = 0, i do
          if ma - i + 2 * k == j then
            val = cx.add(val, cx.mul(comb(i, k) * wosq ^ (i - k) / bw ^ i, c[deg - i + 1]))
          end
        end
      end
      out[outdeg - j + 1] = val
    end
    return out
  end
  return Z.normalize(build(b, N, Np), build(a, D, Dp))
end

function Z.lp2bs(b, a, wo, bw)
  local D, N = #a - 1, #b - 1
  local M = math.max(N, D)
  local Np, Dp = M + M, M + M
  local wosq = wo * wo
  local function build(c, deg, outdeg)
    local out = {}
    for j = 0, outdeg do
      local val = 0.0
      for i = 0, deg do
        for k = 0, M - i do
          if i + 2 * k == j then
            val = cx.add(val, cx.mul(comb(M - i, k) * wosq ^ (M - i - k) * bw ^ i, c[deg - i + 1]))
          end
        end
      end
      out[outdeg - j + 1] = val
    end
    return out
  end
  return Z.normalize(build(b, N, Np), build(a, D, Dp))
end

function Z.bilinear(b, a, fs)
  local D, N = #a - 1, #b - 1
  local M = math.max(N, D)
  local function build(c, deg)
    local out = {}
    for j = 0, M do
      local val = 0.0
      for i = 0, deg do
        for k = 0, i do
          for l = 0, M - i do
            if k + l == j then
              val = cx.add(val, cx.mul(comb(i, k) * comb(M - i, l) * (2 * fs) ^ i * (-1) ^ k, c[deg - i + 1]))
            end
          end
        end
      end
      out[j + 1] = cx.re(val)
    end
    return out
  end
  return Z.normalize(build(b, N), build(a, D))
end

return Z
