--- scipy.signal.windows' formulas on the host: each window is a Lua list
-- of M numbers (signal/windows.lua uploads it). Windows are short and
-- made once per design, so the host is the right place: the numbers are
-- SciPy's to about 1e-15, and the CPU specs check every one.
--
-- sym = false gives the periodic ("DFT-even") window: the symmetric window
-- of M + 1 points without its last point, as SciPy's _extend/_truncate.
local cx = require("gpuarray.scipy.signal.host.cx")
local HF = require("gpuarray.scipy.signal.host.fft")
local T = require("gpuarray.scipy.signal.host.tridiag")

local W = {}
local function raise(msg) error({ msg = msg }, 2) end

-- a window is computed point by point into a Lua list: signal/windows.lua
-- and the FIR designs that window their taps (firwin, firwin2) bound its
-- length (2^24 points, 128 MiB as float64) rather than run for hours
W.MAX_M = 1 << 24

-- I0 is the window room's (NumPy's Chebyshev series), set when gpuarray loads
local function i0(x)
  local internal = require("gpuarray.internal")
  if not internal.i0 then require("gpuarray") end
  return internal.i0(x)
end

local function ones(M)
  local w = {}
  for i = 1, M do w[i] = 1.0 end
  return w
end

-- the symmetric window of M points made by body(M) -> list, periodic when
-- sym is false; M <= 1 gives M ones (SciPy's _len_guards)
local function make(M, sym, body)
  if M <= 1 then return ones(M) end
  if sym then return body(M) end
  local w = body(M + 1)
  w[#w] = nil
  return w
end

local function linspace(a, b, n)
  local out = {}
  if n == 1 then return { a } end
  local step = (b - a) / (n - 1)
  for i = 0, n - 1 do out[i + 1] = a + i * step end
  out[n] = b
  return out
end

function W.general_cosine(M, a, sym)
  return make(M, sym, function(m)
    local fac = linspace(-math.pi, math.pi, m)
    local w = {}
    for i = 1, m do
      local s = 0.0
      for k = 1, #a do s = s + a[k] * math.cos((k - 1) * fac[i]) end
      w[i] = s
    end
    return w
  end)
end

function W.boxcar(M, sym)
  return make(M, sym, ones)
end

function W.triang(M, sym)
  return make(M, sym, function(m)
    local half = {}
    for n = 1, (m + 1) // 2 do
      half[n] = m % 2 == 0 and (2 * n - 1.0) / m or 2 * n / (m + 1.0)
    end
    local w = {}
    for i = 1, #half do w[i] = half[i] end
    local start = m % 2 == 0 and #half or #half - 1
    for i = start, 1, -1 do w[#w + 1] = half[i] end
    return w
  end)
end

function W.parzen(M, sym)
  return make(M, sym, function(m)
    local w = {}
    for i = 0, m - 1 do
      local n = -(m - 1) / 2.0 + i
      local a = math.abs(n)
      if a <= (m - 1) / 4.0 then
        local r = a / (m / 2.0)
        w[i + 1] = 1 - 6 * r ^ 2.0 + 6 * r ^ 3.0
      else
        w[i + 1] = 2 * (1 - a / (m / 2.0)) ^ 3.0
      end
    end
    return w
  end)
end

function W.bohman(M, sym)
  return make(M, sym, function(m)
    local fac = linspace(-1, 1, m)
    local w = { 0.0 }
    for i = 2, m - 1 do
      local f = math.abs(fac[i])
      w[i] = (1 - f) * math.cos(math.pi * f) + 1.0 / math.pi * math.sin(math.pi * f)
    end
    w[m] = 0.0
    return w
  end)
end

W.COSINE_TERMS = {
  blackman = { 0.42, 0.50, 0.08 },
  nuttall = { 0.3635819, 0.4891775, 0.1365995, 0.0106411 },
  blackmanharris = { 0.35875, 0.48829, 0.14128, 0.01168 },
  flattop = { 0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368 },
}
for name, a in pairs(W.COSINE_TERMS) do
  W[name] = function(M, sym) return W.general_cosine(M, a, sym) end
end

function W.bartlett(M, sym)
  return make(M, sym, function(m)
    local w = {}
    for n = 0, m - 1 do
      w[n + 1] = n <= (m - 1) / 2.0 and 2.0 * n / (m - 1) or 2.0 - 2.0 * n / (m - 1)
    end
    return w
  end)
end

function W.general_hamming(M, alpha, sym)
  return W.general_cosine(M, { alpha, 1.0 - alpha }, sym)
end
function W.hann(M, sym) return W.general_hamming(M, 0.5, sym) end
function W.hamming(M, sym) return W.general_hamming(M, 0.54, sym) end

function W.tukey(M, alpha, sym)
  if M <= 1 then return ones(M) end
  if alpha <= 0 then return ones(M) end
  if alpha >= 1.0 then return W.hann(M, sym) end
  return make(M, sym, function(m)
    local width = math.floor(alpha * (m - 1) / 2.0)
    local w = {}
    for n = 0, m - 1 do
      if n <= width then
        w[n + 1] = 0.5 * (1 + math.cos(math.pi * (-1 + 2.0 * n / alpha / (m - 1))))
      elseif n >= m - width - 1 then
        w[n + 1] = 0.5 * (1 + math.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n / alpha / (m - 1))))
      else
        w[n + 1] = 1.0
      end
    end
    return w
  end)
end

function W.barthann(M, sym)
  return make(M, sym, function(m)
    local w = {}
    for n = 0, m - 1 do
      local fac = math.abs(n / (m - 1.0) - 0.5)
      w[n + 1] = 0.62 - 0.48 * fac + 0.38 * math.cos(2 * math.pi * fac)
    end
    return w
  end)
end

function W.kaiser(M, beta, sym)
  return make(M, sym, function(m)
    local alpha = (m - 1) / 2.0
    local den = i0(beta)
    local w = {}
    for n = 0, m - 1 do
      local t = (n - alpha) / alpha
      w[n + 1] = i0(beta * math.sqrt(1 - t ^ 2.0)) / den
    end
    return w
  end)
end

--- Kaiser-Bessel derived: symmetric only, M even (the caller checks)
function W.kaiser_bessel_derived(M, beta)
  if M < 1 then return {} end
  local k = W.kaiser(M // 2 + 1, beta, true)
  local csum, s = {}, 0.0
  for i = 1, #k do
    s = s + k[i]
    csum[i] = s
  end
  local w = {}
  for i = 1, #k - 1 do w[i] = math.sqrt(csum[i] / csum[#k]) end
  for i = #k - 1, 1, -1 do w[#w + 1] = w[i] end
  return w
end

function W.gaussian(M, std, sym)
  return make(M, sym, function(m)
    local sig2 = 2 * std * std
    local w = {}
    for i = 0, m - 1 do
      local n = i - (m - 1.0) / 2.0
      w[i + 1] = math.exp(-n ^ 2 / sig2)
    end
    return w
  end)
end

function W.general_gaussian(M, p, sig, sym)
  return make(M, sym, function(m)
    local w = {}
    for i = 0, m - 1 do
      local n = i - (m - 1.0) / 2.0
      w[i + 1] = math.exp(-0.5 * math.abs(n / sig) ^ (2 * p))
    end
    return w
  end)
end

local function acosh(x) return math.log(x + math.sqrt(x * x - 1)) end
local function cosh(x) return (math.exp(x) + math.exp(-x)) / 2 end

--- chebwin's largest M: its host FFT of M points (Bluestein's three
-- power-of-two transforms past a power of two) takes about a second here
-- at 2^15; SciPy has no limit, but 2^24 points would take minutes
W.CHEBWIN_MAX = 1 << 15

function W.chebwin(M, at, sym)
  if M > W.CHEBWIN_MAX then
    error({ msg = ("Window length M = %d is more than the %d points chebwin is computed for"):format(M,
      W.CHEBWIN_MAX) })
  end
  return make(M, sym, function(m)
    local order = m - 1.0
    local beta = cosh(1.0 / order * acosh(10 ^ (math.abs(at) / 20.0)))
    local p = {}
    for k = 0, m - 1 do
      local x = beta * math.cos(math.pi * k / m)
      if x > 1 then p[k + 1] = cosh(order * acosh(x))
      elseif x < -1 then p[k + 1] = (2 * (m % 2) - 1) * cosh(order * acosh(-x))
      else p[k + 1] = math.cos(order * math.acos(x)) end
    end
    local w = {}
    if m % 2 == 1 then
      local f = HF.fft(p)
      local n = (m + 1) // 2
      for i = n, 2, -1 do w[#w + 1] = cx.re(f[i]) end
      for i = 1, n do w[#w + 1] = cx.re(f[i]) end
    else
      for k = 1, m do p[k] = cx.mul(p[k], cx.expi(math.pi / m * (k - 1))) end
      local f = HF.fft(p)
      local n = m // 2 + 1
      for i = n, 2, -1 do w[#w + 1] = cx.re(f[i]) end
      for i = 2, n do w[#w + 1] = cx.re(f[i]) end
    end
    local mx = -math.huge
    for _, v in ipairs(w) do mx = math.max(mx, v) end
    for i = 1, #w do w[i] = w[i] / mx end
    return w
  end)
end

function W.cosine(M, sym)
  return make(M, sym, function(m)
    local w = {}
    for n = 0, m - 1 do w[n + 1] = math.sin(math.pi / m * (n + 0.5)) end
    return w
  end)
end

--- center nil: the middle (sym must then be true for a given center: the
-- caller checks SciPy's rule)
function W.exponential(M, center, tau, sym)
  return make(M, sym, function(m)
    local c = center == nil and (m - 1) / 2 or center
    local w = {}
    for n = 0, m - 1 do w[n + 1] = math.exp(-math.abs(n - c) / tau) end
    return w
  end)
end

-- Taylor's window sums nbar - 1 cosines a point after nbar^2 products:
-- bounded (2^22 terms, about a second of Lua) rather than run for minutes
local MAX_TAYLOR_TERMS = 1 << 22

function W.taylor(M, nbar, sll, norm, sym)
  if math.type(nbar) == "integer" and nbar > 0 and nbar > MAX_TAYLOR_TERMS // (nbar + M) then
    raise(("nbar * (nbar + M) = %d * %d is more than the %d terms the host computes"):format(nbar, nbar + M,
      MAX_TAYLOR_TERMS))
  end
  return make(M, sym, function(m)
    local B = 10 ^ (sll / 20)
    local A = acosh(B) / math.pi
    local s2 = nbar ^ 2 / (A ^ 2 + (nbar - 0.5) ^ 2)
    local Fm = {}
    -- (nbar <= 0: no sidelobe terms, as SciPy's empty arange; nbar - 1
    -- would wrap at the smallest integer)
    local nb1 = math.type(nbar) == "integer" and (nbar > 0 and nbar - 1 or 0) or math.max(nbar - 1, 0)
    for mi = 1, nb1 do
      local m2 = mi * mi
      local numer = (mi % 2 == 1 and 1 or -1)
      for j = 1, nb1 do numer = numer * (1 - m2 / s2 / (A ^ 2 + (j - 0.5) ^ 2)) end
      local denom = 2
      for j = 1, nb1 do
        if j ~= mi then denom = denom * (1 - m2 / (j * j)) end
      end
      Fm[mi] = numer / denom
    end
    local function Wn(n)
      local s = 0.0
      for mi = 1, nb1 do s = s + Fm[mi] * math.cos(2 * math.pi * mi * (n - m / 2.0 + 0.5) / m) end
      return 1 + 2 * s
    end
    local w = {}
    for n = 0, m - 1 do w[n + 1] = Wn(n) end
    if norm then
      local scale = 1.0 / Wn((m - 1) / 2)
      for i = 1, m do w[i] = w[i] * scale end
    end
    return w
  end)
end

local function sinc(x)
  if x == 0 then return 1.0 end
  local y = math.pi * x
  return math.sin(y) / y
end
W.sinc = sinc

function W.lanczos(M, sym)
  return make(M, sym, function(m)
    local function right(from, upto)
      local r = {}
      local n = from
      while n < upto do
        r[#r + 1] = sinc(2.0 * n / (m - 1) - 1.0)
        n = n + 1
      end
      return r
    end
    local wh = m % 2 == 0 and right(m / 2, m) or right((m + 1) / 2, m)
    local w = {}
    for i = #wh, 1, -1 do w[#w + 1] = wh[i] end
    if m % 2 == 1 then w[#w + 1] = 1.0 end
    for i = 1, #wh do w[#w + 1] = wh[i] end
    return w
  end)
end

--- Discrete prolate spheroidal sequences: the Kmax eigenvectors of the
-- largest eigenvalues of Percival and Walden's tridiagonal matrix, signs
-- and norm as SciPy. Returns a list of Kmax windows (each a list), and
-- with want_ratios the concentration ratios.
-- the work dpss's host eigensolver is given at most (M * Kmax: about 10^3
-- Lua steps each, half a second in all)
W.MAX_DPSS_WORK = 1 << 16

function W.dpss(M, NW, Kmax, sym, norm, want_ratios)
  local m = sym and M or M + 1
  local Wd = NW / m
  local d, e = {}, {}
  for t = 0, m - 1 do d[t + 1] = ((m - 1 - 2 * t) / 2.0) ^ 2 * math.cos(2 * math.pi * Wd) end
  for t = 1, m - 1 do e[t] = t * (m - t) / 2.0 end
  local vals, vecs = T.eigh_largest(d, e, Kmax)
  local wins = vecs
  for i = 1, Kmax, 2 do
    local s = 0.0
    for _, v in ipairs(wins[i]) do s = s + v end
    if s < 0 then for j = 1, m do wins[i][j] = -wins[i][j] end end
  end
  local thresh = math.max(1e-7, 1.0 / m)
  for i = 2, Kmax, 2 do
    for j = 1, m do
      local v = wins[i][j]
      if v * v > thresh then
        if v < 0 then for q = 1, m do wins[i][q] = -wins[i][q] end end
        break
      end
    end
  end
  local ratios
  if want_ratios then
    ratios = {}
    local r = {}
    for n = 0, m - 1 do r[n + 1] = n == 0 and 2 * Wd or 4 * Wd * sinc(2 * Wd * n) end
    for k = 1, Kmax do
      local x = wins[k]
      local s = 0.0
      for lag = 0, m - 1 do
        local a = 0.0
        for j = 1, m - lag do a = a + x[j] * x[j + lag] end
        s = s + a * r[lag + 1]
      end
      ratios[k] = s
    end
  end
  if norm ~= 2 then
    local mx = -math.huge
    for k = 1, Kmax do for j = 1, m do mx = math.max(mx, wins[k][j]) end end
    for k = 1, Kmax do for j = 1, m do wins[k][j] = wins[k][j] / mx end end
    if m % 2 == 0 then
      local correction
      if norm == "approximate" then
        correction = m ^ 2 / (m ^ 2 + NW)
      else
        local s = HF.rfft(wins[1])
        local total = cx.re(s[1])
        for k = 2, #s do
          local shift = -(1 - 1.0 / m) * (k - 1)
          total = total + cx.re(cx.mul(cx.mul(s[k], 2), cx.expi(-math.pi * shift)))
        end
        correction = m / total
      end
      for k = 1, Kmax do for j = 1, m do wins[k][j] = wins[k][j] * correction end end
    end
  end
  if not sym then
    for k = 1, Kmax do wins[k][m] = nil end
  end
  return wins, ratios, vals
end


-- get_window's names (SciPy's _win_equiv), and whether they need parameters
local EQUIV = {
  { { "barthann", "brthan", "bth" }, "barthann", 0 },
  { { "bartlett", "bart", "brt" }, "bartlett", 0 },
  { { "blackman", "black", "blk" }, "blackman", 0 },
  { { "blackmanharris", "blackharr", "bkh" }, "blackmanharris", 0 },
  { { "bohman", "bman", "bmn" }, "bohman", 0 },
  { { "boxcar", "box", "ones", "rect", "rectangular" }, "boxcar", 0 },
  { { "chebwin", "cheb" }, "chebwin", 1 },
  { { "cosine", "halfcosine" }, "cosine", 0 },
  { { "dpss" }, "dpss", 1 },
  { { "exponential", "poisson" }, "exponential", 0 },
  { { "flattop", "flat", "flt" }, "flattop", 0 },
  { { "gaussian", "gauss", "gss" }, "gaussian", 1 },
  { { "general cosine", "general_cosine" }, "general_cosine", 1 },
  { { "general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs" }, "general_gaussian", 1 },
  { { "general hamming", "general_hamming" }, "general_hamming", 1 },
  { { "hamming", "hamm", "ham" }, "hamming", 0 },
  { { "hann", "han" }, "hann", 0 },
  { { "kaiser", "ksr" }, "kaiser", 1 },
  { { "kaiser bessel derived", "kbd" }, "kaiser_bessel_derived", 1 },
  { { "lanczos", "sinc" }, "lanczos", 0 },
  { { "nuttall", "nutl", "nut" }, "nuttall", 0 },
  { { "parzen", "parz", "par" }, "parzen", 0 },
  { { "taylor", "taylorwin" }, "taylor", 0 },
  { { "triangle", "triang", "tri" }, "triang", 0 },
  { { "tukey", "tuk" }, "tukey", 0 },
}
local BY_NAME, NEEDS = {}, {}
for _, e in ipairs(EQUIV) do
  for _, n in ipairs(e[1]) do
    BY_NAME[n] = e[2]
    NEEDS[n] = e[3] > 0
  end
end

--- get_window(window, Nx, fftbins): window a name, a number (Kaiser's
-- beta) or a list {name, parameters...}; errors as error({msg = ...})
function W.get_window(window, Nx, fftbins)
  local sym = not fftbins
  if math.type(Nx) ~= "integer" or Nx < 0 then raise("Window length M must be a non-negative integer") end
  if type(window) == "number" then return W.kaiser(Nx, window, sym) end
  local name, args = window, {}
  if type(window) == "table" then
    name = window[1]
    for i = 2, rawlen(window) do args[i - 1] = window[i] end
  elseif type(window) ~= "string" then
    raise(("%s as window type is not supported."):format(type(window)))
  end
  if type(name) ~= "string" then raise("a window tuple starts with the window's name") end
  local fn = BY_NAME[name]
  if not fn then raise("Unknown window type.") end
  if type(window) == "string" and NEEDS[name] then
    raise(("The '%s' window needs one or more parameters -- pass a tuple."):format(name))
  end
  if fn == "dpss" then
    if Nx <= 1 then return W.boxcar(Nx, true) end
    -- (windows.dpss's bound on the host eigensolver's work, M * Kmax)
    if Nx > W.MAX_DPSS_WORK then
      raise(("M * Kmax = %d * 1 is more than the %d this host eigensolver computes"):format(Nx, W.MAX_DPSS_WORK))
    end
    local wins = W.dpss(Nx, args[1], 1, sym, "approximate", false)
    return wins[1]
  end
  if fn == "kaiser_bessel_derived" then
    if sym == false then raise("Kaiser-Bessel Derived windows are only defined for symmetric shapes") end
    if Nx % 2 == 1 then raise("Kaiser-Bessel Derived windows are only defined for even number of points") end
    return W.kaiser_bessel_derived(Nx, args[1])
  end
  if fn == "general_cosine" then
    local a = args[1]
    if type(a) ~= "table" then raise("the general cosine window needs a list of weights") end
    return W.general_cosine(Nx, a, sym)
  end
  if fn == "exponential" then
    if sym and args[1] ~= nil then raise("If sym==True, center must be None.") end
    return W.exponential(Nx, args[1], args[2] or 1.0, sym)
  end
  if fn == "tukey" then return W.tukey(Nx, args[1] or 0.5, sym) end
  if fn == "taylor" then
    local norm = args[3]
    if norm == nil then norm = true end
    return W.taylor(Nx, args[1] or 4, args[2] or 30, norm, sym)
  end
  for i, v in ipairs(args) do
    if type(v) ~= "number" then raise(("the %s window's parameter %d must be a number"):format(fn, i)) end
  end
  local n = ({ chebwin = 1, gaussian = 1, general_gaussian = 2, general_hamming = 1, kaiser = 1 })[fn] or 0
  if #args < n then raise(("the %s window needs %d parameter(s)"):format(fn, n)) end
  if n == 0 then return W[fn](Nx, sym) end
  if n == 1 then return W[fn](Nx, args[1], sym) end
  return W[fn](Nx, args[1], args[2], sym)
end

return W
