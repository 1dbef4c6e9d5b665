--- Frequency responses on the host (scipy.signal's freqz, freqz_zpk,
-- sosfreqz, freqs, freqs_zpk, findfreqs, group_delay): a filter has a
-- handful of coefficients and the response a few hundred points, so each
-- point is a Horner evaluation here. w is returned as SciPy computes it
-- (a given worN goes through 2 pi w / fs and back). Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local Z = require("gpuarray.scipy.signal.host.zpk")

local F = {}
local raise = Z.raise

-- a response is computed point by point in a Lua list: bounded (2^24
-- points, as windows and czt) rather than run for hours
local MAX_POINTS = 1 << 24
F.MAX_POINTS = MAX_POINTS

--- numpy.linspace(a, b, n, endpoint)
function F.linspace(a, b, n, endpoint)
  -- (NumPy's words; n - 1 would wrap at the smallest integer)
  if n < 0 then raise(("Number of samples, %s, must be non-negative."):format(tostring(n))) end
  if n > MAX_POINTS then
    raise(("%s points are more than the %d a response is computed at"):format(tostring(n), MAX_POINTS))
  end
  local out = {}
  if n == 0 then return out end
  local div = endpoint and n - 1 or n
  local step = div > 0 and (b - a) / div or 0
  for i = 0, n - 1 do out[i + 1] = a + i * step end
  if endpoint and n > 1 then out[n] = b end
  return out
end

--- numpy.around (half to even) at 0 decimals
function F.around(x)
  local f = math.floor(x)
  local r = x - f
  if r > 0.5 or (r == 0.5 and f % 2 == 1) then f = f + 1 end
  return f
end

-- the frequencies of a digital response: worN an integer (that many
-- points over [0, pi) or [0, 2 pi)) or a list of frequencies in fs units
local function digital_w(worN, whole, fs, include_nyquist)
  if worN == nil then worN = 512 end
  if type(worN) == "number" then
    if worN < 0 then raise(("worN must be nonnegative, got %s"):format(tostring(worN))) end
    local last = whole and 2 * math.pi or math.pi
    return F.linspace(0, last, worN, include_nyquist and not whole)
  end
  local w = {}
  for i, v in ipairs(worN) do w[i] = 2 * math.pi * v / fs end
  return w
end

local function to_fs(w, fs)
  local out = {}
  for i, v in ipairs(w) do out[i] = v * fs / (2 * math.pi) end
  return out
end

-- sum c[k] x^(k-1) (numpy.polynomial's polyval: lowest power first)
local function polyval_low(x, c)
  local s = 0
  for k = #c, 1, -1 do s = cx.add(cx.mul(s, x), c[k]) end
  return s
end

--- freqz(b, a, worN, whole, fs, include_nyquist) -> w, h
function F.freqz(b, a, worN, whole, fs, include_nyquist)
  fs = fs or 2 * math.pi
  local w = digital_w(worN, whole, fs, include_nyquist)
  local h = {}
  for i, wi in ipairs(w) do
    local zm1 = cx.expi(-wi)
    h[i] = cx.from(cx.div(polyval_low(zm1, b), polyval_low(zm1, a)))
  end
  return to_fs(w, fs), h
end

local function from_roots(x, r)
  local s = 1
  for _, v in ipairs(r) do s = cx.mul(s, cx.sub(x, v)) end
  return s
end

function F.freqz_zpk(z, p, k, worN, whole, fs)
  fs = fs or 2 * math.pi
  local w = digital_w(worN, whole, fs, false)
  local h = {}
  for i, wi in ipairs(w) do
    local zm1 = cx.expi(wi)
    h[i] = cx.from(cx.mul(k, cx.div(from_roots(zm1, z), from_roots(zm1, p))))
  end
  return to_fs(w, fs), h
end

function F.sosfreqz(sos, worN, whole, fs)
  if #sos == 0 then raise("Cannot compute frequencies with no sections") end
  local w, h
  for _, s in ipairs(sos) do
    local rw, rh = F.freqz({ s[1], s[2], s[3] }, { s[4], s[5], s[6] }, worN, whole, fs, false)
    if h == nil then
      w, h = rw, rh
    else
      for i = 1, #h do h[i] = cx.from(cx.mul(h[i], rh[i])) end
    end
  end
  return w, h
end

--- findfreqs(num, den, N, kind): N log-spaced frequencies around the
-- poles' and zeros' magnitudes (kind "ba": num, den are polynomials; "zp":
-- zeros and poles)
function F.findfreqs(num, den, N, kind)
  local P = require("gpuarray.scipy.signal.host.poly")
  local ep, tz
  if kind == "ba" then
    ep, tz = P.roots(den), P.roots(num)
  elseif kind == "zp" then
    ep, tz = den, num
  else
    raise("input must be one of {'ba', 'zp'}")
  end
  if #ep == 0 then ep = { -1000 } end
  local ez = {}
  for _, v in ipairs(ep) do if cx.im(v) >= 0 then ez[#ez + 1] = v end end
  for _, v in ipairs(tz) do if cx.abs(v) < 1e5 and cx.im(v) >= 0 then ez[#ez + 1] = v end end
  local hi, lo = -math.huge, math.huge
  for _, v in ipairs(ez) do
    local integ = cx.abs(v) < 1e-10 and 1 or 0
    hi = math.max(hi, 3 * math.abs(cx.re(v) + integ) + 1.5 * cx.im(v))
    lo = math.min(lo, math.abs(cx.re(v) + integ) + 2 * cx.im(v))
  end
  local hfreq = F.around(math.log(hi, 10) + 0.5)
  local lfreq = F.around(math.log(0.1 * lo, 10) - 0.5)
  local e = F.linspace(lfreq, hfreq, N, true)
  local w = {}
  for i, v in ipairs(e) do w[i] = 10 ^ v end
  return w
end

function F.freqs(b, a, worN)
  local w
  if worN == nil then worN = 200 end
  if type(worN) == "number" then w = F.findfreqs(b, a, worN, "ba") else w = worN end
  local P = require("gpuarray.scipy.signal.host.poly")
  local h = {}
  for i, wi in ipairs(w) do
    local s = cx.new(0, wi)
    h[i] = cx.from(cx.div(P.val(b, s), P.val(a, s)))
  end
  return w, h
end

function F.freqs_zpk(z, p, k, worN)
  local w
  if worN == nil then worN = 200 end
  if type(worN) == "number" then w = F.findfreqs(z, p, worN, "zp") else w = worN end
  local h = {}
  for i, wi in ipairs(w) do
    local s = cx.new(0, wi)
    h[i] = cx.from(cx.mul(k, cx.div(from_roots(s, z), from_roots(s, p))))
  end
  return w, h
end

--- group_delay({b, a}, w, whole, fs) -> w, gd (singular points give 0)
function F.group_delay(b, a, w, whole, fs)
  fs = fs or 2 * math.pi
  local P = require("gpuarray.scipy.signal.host.poly")
  local ws = digital_w(w, whole, fs, false)
  local ar = {}
  for i = 1, #a do ar[i] = a[#a - i + 1] end
  local c = P.mul(b, ar)
  local cr = {}
  for i = 1, #c do cr[i] = cx.mul(c[i], i - 1) end
  local gd = {}
  for i, wi in ipairs(ws) do
    local zz = cx.expi(-wi)
    local num, den = polyval_low(zz, cr), polyval_low(zz, c)
    local v = cx.re(cx.div(num, den)) - #a + 1
    if v ~= v or v == math.huge or v == -math.huge then v = 0.0 end
    gd[i] = v
  end
  return to_fs(ws, fs), gd
end

return F
