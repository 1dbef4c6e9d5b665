--- The special functions filter design needs, on the host: complete
-- elliptic integrals and Jacobi elliptic functions (ellip, ellipord),
-- binomial coefficients, factorials. Pure Lua.

local SP = {}

-- the arithmetic-geometric mean of a and b (both > 0)
local function agm(a, b)
  for _ = 1, 100 do
    local an, bn = (a + b) / 2, math.sqrt(a * b)
    if math.abs(an - bn) <= 1e-16 * an then return (an + bn) / 2 end
    a, b = an, bn
  end
  return (a + b) / 2
end

--- K(m) = the complete elliptic integral of the first kind, parameter m
-- (SciPy's ellipk): pi / (2 AGM(1, sqrt(1 - m)))
function SP.ellipk(m)
  if m ~= m then return m end
  if m == 1 then return math.huge end
  if m > 1 then return 0 / 0 end
  if m < 0 then
    -- K(m) = K(m / (m - 1)) / sqrt(1 - m) (imaginary modulus)
    return SP.ellipk(m / (m - 1)) / math.sqrt(1 - m)
  end
  return math.pi / (2 * agm(1, math.sqrt(1 - m)))
end

--- K(1 - p), accurate for p near 0 (SciPy's ellipkm1)
function SP.ellipkm1(p)
  if p ~= p then return p end
  if p == 0 then return math.huge end
  if p < 0 then return 0 / 0 end
  if p > 1 then return SP.ellipk(1 - p) end
  return math.pi / (2 * agm(1, math.sqrt(p)))
end

--- Jacobi's elliptic functions sn, cn, dn and the amplitude ph of u for
-- parameter m in [0, 1] (SciPy's ellipj): the descending Landen / AGM
-- scheme of Abramowitz and Stegun 16.4 (Cephes' ellpj)
function SP.ellipj(u, m)
  if m < 0 or m > 1 or m ~= m then return 0 / 0, 0 / 0, 0 / 0, 0 / 0 end
  if m < 1e-9 then
    local t, s = math.sin(u), math.cos(u)
    local ai = 0.25 * m * (u - t * s)
    local sn = t - ai * s
    local cn = s + ai * t
    local ph = u - ai
    return sn, cn, 1.0 - 0.5 * m * t * t, ph
  end
  if m >= 0.9999999999 then
    local ai = 0.25 * (1.0 - m)
    local eu, emu = math.exp(u), math.exp(-u)
    local b = (eu + emu) / 2
    local t = (eu - emu) / (eu + emu)
    local phi = 1.0 / b
    local twon = b * (eu - emu) / 2
    local sn = t + ai * (twon - u) / (b * b)
    local ph = 2.0 * math.atan(math.exp(u)) - math.pi / 2 + ai * (twon - u) / b
    ai = ai * t * phi
    local cn = phi - ai * (twon - u)
    local dn = phi + ai * (twon + u)
    return sn, cn, dn, ph
  end
  local a, c = { 1.0 }, { 0 }
  local b = math.sqrt(1.0 - m)
  c[1] = math.sqrt(m)
  local twon = 1.0
  local i = 1
  while math.abs(c[i] / a[i]) > 1.1102230246251565e-16 do
    if i > 8 then break end
    local ai = a[i]
    i = i + 1
    c[i] = (ai - b) / 2.0
    local t = math.sqrt(ai * b)
    a[i] = (ai + b) / 2.0
    b = t
    twon = twon * 2.0
  end
  local phi = twon * a[i] * u
  repeat
    local t = c[i] * math.sin(phi) / a[i]
    b = phi
    phi = (math.asin(t) + phi) / 2.0
    i = i - 1
  until i == 1
  local sn = math.sin(phi)
  local t = math.cos(phi)
  local dn = t / math.cos(phi - b)
  -- near dn's zero the quotient loses digits (DLMF 22.20.5)
  if math.abs(dn) < 0.1 then dn = math.sqrt(1 - m * sn * sn) end
  return sn, t, dn, phi
end

--- The binomial coefficient C(n, k) as a float (scipy.special.comb)
function SP.comb(n, k)
  if k < 0 or k > n then return 0.0 end
  local r = 1.0
  for i = 1, k do r = r * (n - k + i) / i end
  return r
end

function SP.factorial(n)
  local r = 1.0
  for i = 2, n do r = r * i end
  return r
end

return SP
