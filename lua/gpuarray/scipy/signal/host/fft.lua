--- A discrete Fourier transform on the host, for design math on short
-- sequences (chebwin's window, firwin2's and minimum_phase's spectra,
-- dpss's autocorrelation): radix-2 for powers of two, Bluestein's chirp
-- z-transform (three radix-2 transforms) for any other length. Complex
-- values are host/cx.lua's; the result is a list of complex values.
-- NumPy's convention: forward e^(-2 pi i jk/n), inverse scaled by 1/n.
local cx = require("gpuarray.scipy.signal.host.cx")

local F = {}

-- in-place iterative radix-2 on parallel arrays re, im (0-based), n a
-- power of two; sign -1 forward, +1 inverse (unscaled)
local function radix2(re, im, n, sign)
  local j = 0
  for i = 0, n - 2 do
    if i < j then
      re[i], re[j] = re[j], re[i]
      im[i], im[j] = im[j], im[i]
    end
    local m = n >> 1
    while m >= 1 and j & m ~= 0 do
      j = j ~ m
      m = m >> 1
    end
    j = j | m
  end
  local len = 2
  while len <= n do
    local half = len >> 1
    local ang = sign * 2 * math.pi / len
    for k = 0, half - 1 do
      local wr, wi = math.cos(ang * k), math.sin(ang * k)
      for s = 0, n - 1, len do
        local a, b = s + k, s + k + half
        local tr = re[b] * wr - im[b] * wi
        local ti = re[b] * wi + im[b] * wr
        re[b], im[b] = re[a] - tr, im[a] - ti
        re[a], im[a] = re[a] + tr, im[a] + ti
      end
    end
    len = len << 1
  end
end

local function pow2_at_least(n)
  local m = 1
  while m < n do m = m << 1 end
  return m
end
F.pow2_at_least = pow2_at_least

-- the unscaled transform of x (a list of numbers or complex values) with
-- sign -1 (forward) or +1; returns parallel 0-based arrays re, im
local function transform(x, sign)
  local n = #x
  local re, im = {}, {}
  if n == 0 then return re, im end
  if n & (n - 1) == 0 then
    for i = 0, n - 1 do re[i], im[i] = cx.parts(x[i + 1]) end
    radix2(re, im, n, sign)
    return re, im
  end
  -- Bluestein: X_k = conj(w_k) * sum_j (x_j conj(w_j)) w_{k-j}, w_j = e^(i pi j^2/n) (sign -1)
  local m = pow2_at_least(2 * n - 1)
  local wr, wi = {}, {}
  for j = 0, n - 1 do
    local a = math.pi * ((j * j) % (2 * n)) / n
    wr[j], wi[j] = math.cos(a), -sign * math.sin(a)
  end
  local ar, ai, br, bi = {}, {}, {}, {}
  for i = 0, m - 1 do ar[i], ai[i], br[i], bi[i] = 0, 0, 0, 0 end
  for j = 0, n - 1 do
    local xr, xi = cx.parts(x[j + 1])
    -- x_j * conj(w_j)
    ar[j] = xr * wr[j] + xi * wi[j]
    ai[j] = xi * wr[j] - xr * wi[j]
    br[j], bi[j] = wr[j], wi[j]
    if j > 0 then br[m - j], bi[m - j] = wr[j], wi[j] end
  end
  radix2(ar, ai, m, -1)
  radix2(br, bi, m, -1)
  for i = 0, m - 1 do
    ar[i], ai[i] = ar[i] * br[i] - ai[i] * bi[i], ar[i] * bi[i] + ai[i] * br[i]
  end
  radix2(ar, ai, m, 1)
  for k = 0, n - 1 do
    local cr, ci = ar[k] / m, ai[k] / m
    re[k] = cr * wr[k] + ci * wi[k]
    im[k] = ci * wr[k] - cr * wi[k]
  end
  return re, im
end

local function pack(re, im, n, scale)
  local out = {}
  for k = 0, n - 1 do out[k + 1] = cx.new(re[k] * scale, im[k] * scale) end
  return out
end

--- numpy.fft.fft(x, n): x zero-padded or cropped to n
function F.fft(x, n)
  n = n or #x
  local y = {}
  for i = 1, n do y[i] = x[i] or 0 end
  local re, im = transform(y, -1)
  return pack(re, im, n, 1)
end

--- numpy.fft.ifft(x, n)
function F.ifft(x, n)
  n = n or #x
  local y = {}
  for i = 1, n do y[i] = x[i] or 0 end
  local re, im = transform(y, 1)
  return pack(re, im, n, 1 / n)
end

--- numpy.fft.irfft(x, n): the real inverse of a half spectrum
-- (n // 2 + 1 values used; default n = 2 (#x - 1)); returns numbers
function F.irfft(x, n)
  n = n or 2 * (#x - 1)
  local full = {}
  local half = n // 2 + 1
  for k = 1, half do full[k] = x[k] or 0 end
  -- DC and (n even) Nyquist imaginary parts are ignored, as pocketfft does
  full[1] = cx.re(full[1])
  if n % 2 == 0 then full[half] = cx.re(full[half]) end
  for k = half + 1, n do full[k] = cx.conj(full[n - k + 2]) end
  local re = transform(full, 1)
  local out = {}
  for k = 0, n - 1 do out[k + 1] = re[k] / n end
  return out
end

--- numpy.fft.rfft(x, n): the first n // 2 + 1 values of the transform
function F.rfft(x, n)
  local y = F.fft(x, n)
  local out = {}
  for k = 1, #y // 2 + 1 do out[k] = y[k] end
  return out
end

return F
