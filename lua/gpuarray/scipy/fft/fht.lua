--- The fast Hankel transform (FFTLog, Hamilton 2000) as SciPy's fht and
-- ifht: the input on a logarithmic grid, multiplied by the transform's
-- coefficients u_m in Fourier space (rfft, product, irfft, reversed). The
-- coefficients, a function of n, dln, mu, offset and bias only, are
-- computed on the host in Lua (complex log-gamma by Stirling's series after
-- a shift) and copied to the device once per call.
return function(ga, sfft)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local fail = internal.fail

  -- complex log-gamma: recurrence up to |z| >= 10, then Stirling's series
  -- (principal branch continued along the shift, as SciPy's loggamma)
  local function cadd(a, b) return { a[1] + b[1], a[2] + b[2] } end
  local function cmul(a, b) return { a[1] * b[1] - a[2] * b[2], a[1] * b[2] + a[2] * b[1] } end
  local function cdiv(a, b)
    local d = b[1] * b[1] + b[2] * b[2]
    return { (a[1] * b[1] + a[2] * b[2]) / d, (a[2] * b[1] - a[1] * b[2]) / d }
  end
  local function clog(a) return { math.log(math.sqrt(a[1] * a[1] + a[2] * a[2])), math.atan(a[2], a[1]) } end
  local B = { 1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400 }
  local function cloggamma(z)
    local shift = { 0, 0 }
    -- log gamma(z) = log gamma(z + k) - sum log(z + j), summed as logs so the branch follows
    while z[1] * z[1] + z[2] * z[2] < 100 do
      local l = clog(z)
      shift = { shift[1] - l[1], shift[2] - l[2] }
      z = { z[1] + 1, z[2] }
    end
    local lz = clog(z)
    local r = cadd(cmul({ z[1] - 0.5, z[2] }, lz), { -z[1] + 0.5 * math.log(2 * math.pi), -z[2] })
    local zi = cdiv({ 1, 0 }, z)
    local zi2 = cmul(zi, zi)
    local s, p = { 0, 0 }, zi
    for _, b in ipairs(B) do
      s = cadd(s, { b * p[1], b * p[2] })
      p = cmul(p, zi2)
    end
    return cadd(cadd(r, s), shift)
  end

  local function is_pole(x) return x <= 0 and x == math.floor(x) end

  -- the coefficients u_m, m = 0 .. n//2 (n points, spacing dln):
  -- u_m = 2^q (kr)^(-2 i y) 2^(2 i y) gamma(xp + i y) / gamma(xm - i y),
  -- y = pi m / (n dln), xp = (mu + 1 + q) / 2, xm = (mu + 1 - q) / 2;
  -- the last made real; u_0 = 2^q gamma(xp) / gamma(xm) at the poles
  local function coeffs(n, dln, mu, offset, bias)
    local lnkr, q = offset, bias
    -- in floats, as NumPy's: an integer mu of 2^63 - 1 wrapped to -2^63
    local xp = (mu + 1.0 + q) / 2
    local xm = (mu + 1.0 - q) / 2
    local re, im = {}, {}
    for m = 0, n // 2 do
      local y = math.pi * m / (n * dln)
      if m == 0 and (is_pole(xp) or is_pole(xm)) then
        -- gamma(xp) / gamma(xm): 0 when xm is a pole (and xp is not), inf when xp is
        if is_pole(xm) and not is_pole(xp) then re[1], im[1] = 0, 0
        elseif is_pole(xp) and not is_pole(xm) then re[1], im[1] = math.huge, 0
        else
          -- both poles: the limit (-1)^(xm - xp) (-xm)! / (-xp)! (SciPy's
          -- 2^q poch(xm, q)), the product over the q factors between the
          -- two, not the two factorials (-xm of 2^62 looped for ever); 2^q
          -- and the ratio grow or shrink together, so it stops at inf or 0
          local r = 2 ^ q
          if xm <= xp then
            for k = -xp + 1, -xm do
              r = r * k
              if r == math.huge or r == 0 then break end
            end
          else
            for k = -xm + 1, -xp do
              r = r / k
              if r == math.huge or r == 0 then break end
            end
          end
          re[1], im[1] = r * ((xm - xp) % 2 == 0 and 1 or -1), 0
        end
      else
        local gp = cloggamma({ xp, y })
        local gm = cloggamma({ xm, -y })
        local lr = math.log(2) * q + gp[1] - gm[1]
        local li = 2 * y * (math.log(2) - lnkr) + gp[2] - gm[2]
        local mag = math.exp(lr)
        re[m + 1], im[m + 1] = mag * math.cos(li), mag * math.sin(li)
      end
    end
    im[#im] = 0
    return re, im
  end
  sfft._fht_coeffs = coeffs

  local function fht_impl(a, dln, mu, offset, bias, inverse, fname)
    if not internal.is_array(a) then a = ga.asarray(a) end
    if a.ndim == 0 then fail(fname .. ": a must be at least 1-d") end
    -- (the rfft below refuses it too, SciPy's TypeError)
    if a.dtype == "complex64" or a.dtype == "complex128" then fail(fname .. ": a must be real, got " .. a.dtype) end
    local n = a.shape[a.ndim]
    if n == 0 then return a:copy() end
    -- no points: no coefficients to compute (n//2 + 1 of them for a
    -- zero-size {0, 2^40} ran past 10^8 instructions); float64 as below
    if a.size == 0 then return ga.empty(a.shape, "float64") end
    local re, im = coeffs(n, dln, mu, offset, bias)
    -- a singular transform (or inverse) still gives SciPy's answer
    if not inverse and re[1] == math.huge then re[1] = 0 end
    if inverse and re[1] == 0 and im[1] == 0 then re[1] = math.huge end
    local j, jc
    if bias ~= 0 then
      jc = (n - 1) / 2
      j = ga.arange(n, "float64")
    end
    if bias ~= 0 then
      local e = inverse and ((j - jc) * dln + offset) * bias or (j - jc) * (-bias * dln)
      a = a * ga.exp(e)
    end
    local A = ga.fft.rfft(a, nil, -1)
    if inverse then
      -- divided by conj(u); 1/inf is 0
      local ure, uim = ga.array(re, "float64"), ga.array(im, "float64")
      local d = ure * ure + uim * uim
      local inv_re = ga.where(d:eq(math.huge), 0, ure / d)
      local inv_im = ga.where(d:eq(math.huge), 0, uim / d)
      A = A * (inv_re + inv_im * { 0, 1 })
    else
      A = A * (ga.array(re, "float64") + ga.array(im, "float64") * { 0, 1 })
    end
    local y = ga.flip(ga.fft.irfft(A, n, -1), -1)
    if bias ~= 0 then
      local e = inverse and (j - jc) * (bias * dln) or ((j - jc) * dln + offset) * (-bias)
      y = y * ga.exp(e)
    end
    return y
  end

  api.def(sfft, [[
scipy.fft.fht(a: array_like, dln: number, mu: number, offset: number = 0.0, bias: number = 0.0) -> ndarray
The fast Hankel transform (FFTLog) of a on a logarithmic grid of spacing dln, order mu, along the last axis.
]], function(a, dln, mu, offset, bias) return fht_impl(a, dln, mu, offset, bias, false, "scipy.fft.fht") end)
  api.def(sfft, [[
scipy.fft.ifht(A: array_like, dln: number, mu: number, offset: number = 0.0, bias: number = 0.0) -> ndarray
The inverse fast Hankel transform, along the last axis.
]], function(a, dln, mu, offset, bias) return fht_impl(a, dln, mu, offset, bias, true, "scipy.fft.ifht") end)
end
