--- The scalar solvers filter design calls, written step for step as
-- scipy.optimize's so that the designs land on SciPy's numbers: fminbound
-- (Brent's bounded minimisation: the bandstop order estimates), newton
-- (Newton's method with a derivative; the secant method without: Bessel
-- filter poles and their magnitude normalisation). Pure Lua.
local O = {}

local function sign(v)
  if v > 0 then return 1 elseif v < 0 then return -1 end
  return 0
end

--- argmin of f over [x1, x2] (SciPy's fminbound / _minimize_scalar_bounded)
function O.fminbound(f, x1, x2, xatol, maxfun)
  xatol = xatol or 1e-5
  maxfun = maxfun or 500
  local sqrt_eps = math.sqrt(2.2e-16)
  local golden_mean = 0.5 * (3.0 - math.sqrt(5.0))
  local a, b = x1, x2
  local fulc = a + golden_mean * (b - a)
  local nfc, xf = fulc, fulc
  local rat, e = 0.0, 0.0
  local x = xf
  local fx = f(x)
  local num = 1
  local ffulc, fnfc = fx, fx
  local xm = 0.5 * (a + b)
  local tol1 = sqrt_eps * math.abs(xf) + xatol / 3.0
  local tol2 = 2.0 * tol1
  while math.abs(xf - xm) > (tol2 - 0.5 * (b - a)) do
    local golden = true
    if math.abs(e) > tol1 then
      golden = false
      local r = (xf - nfc) * (fx - ffulc)
      local q = (xf - fulc) * (fx - fnfc)
      local p = (xf - fulc) * q - (xf - nfc) * r
      q = 2.0 * (q - r)
      if q > 0.0 then p = -p end
      q = math.abs(q)
      r = e
      e = rat
      if math.abs(p) < math.abs(0.5 * q * r) and p > q * (a - xf) and p < q * (b - xf) then
        rat = (p + 0.0) / q
        x = xf + rat
        if (x - a) < tol2 or (b - x) < tol2 then
          local si = sign(xm - xf) + ((xm - xf) == 0 and 1 or 0)
          rat = tol1 * si
        end
      else
        golden = true
      end
    end
    if golden then
      if xf >= xm then e = a - xf else e = b - xf end
      rat = golden_mean * e
    end
    local si = sign(rat) + (rat == 0 and 1 or 0)
    x = xf + si * math.max(math.abs(rat), tol1)
    local fu = f(x)
    num = num + 1
    if fu <= fx then
      if x >= xf then a = xf else b = xf end
      fulc, ffulc = nfc, fnfc
      nfc, fnfc = xf, fx
      xf, fx = x, fu
    else
      if x < xf then a = x else b = x end
      if fu <= fnfc or nfc == xf then
        fulc, ffulc = nfc, fnfc
        nfc, fnfc = x, fu
      elseif fu <= ffulc or fulc == xf or fulc == nfc then
        fulc, ffulc = x, fu
      end
    end
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * math.abs(xf) + xatol / 3.0
    tol2 = 2.0 * tol1
    if num >= maxfun then break end
  end
  return xf
end

--- A root of f near x0 (SciPy's newton, real or complex values through
-- the arithmetic module ar): Newton's method when fprime is given, else
-- the secant method started at x0 (1 + 1e-4) +- 1e-4
function O.newton(f, x0, fprime, tol, maxiter, ar)
  tol = tol or 1.48e-8
  maxiter = maxiter or 50
  local abs = ar and ar.abs or math.abs
  local sub = ar and ar.sub or function(p, q) return p - q end
  local div = ar and ar.div or function(p, q) return p / q end
  local p0 = x0
  if fprime then
    for _ = 1, maxiter do
      local fval = f(p0)
      if abs(fval) == 0 then return p0 end
      local fder = fprime(p0)
      if abs(fder) == 0 then return p0 end
      local p = sub(p0, div(fval, fder))
      if abs(sub(p, p0)) <= tol then return p end
      p0 = p
    end
    return p0
  end
  local eps = 1e-4
  local p1 = x0 * (1 + eps)
  p1 = p1 + (p1 >= 0 and eps or -eps)
  local q0, q1 = f(p0), f(p1)
  if math.abs(q1) < math.abs(q0) then p0, p1, q0, q1 = p1, p0, q1, q0 end
  for _ = 1, maxiter do
    local p
    if q1 == q0 then return (p1 + p0) / 2 end
    if math.abs(q1) > math.abs(q0) then
      p = (-q0 / q1 * p1 + p0) / (1 - q0 / q1)
    else
      p = (-q1 / q0 * p0 + p1) / (1 - q1 / q0)
    end
    if math.abs(p - p1) <= tol then return p end
    p0, q0 = p1, q1
    p1 = p
    q1 = f(p1)
  end
  return p1
end

return O
