--- FIR filter design on the host, as scipy.signal's: Kaiser's formulas
-- (kaiser_beta, kaiser_atten, kaiserord), the window method (firwin,
-- firwin2), least squares (firls), minimum_phase, and Savitzky-Golay
-- coefficients (savgol_coeffs, and the matrix savgol_filter's "interp"
-- mode fits the edges with). Lists of numbers; errors error({msg = ...}).
-- Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local W = require("gpuarray.scipy.signal.host.windows")
local HF = require("gpuarray.scipy.signal.host.fft")
local M = require("gpuarray.scipy.signal.host.mat")
local SP = require("gpuarray.scipy.signal.host.special")

local R = {}
local function raise(msg) error({ msg = msg }, 2) end

local function sinc(x) return W.sinc(x) end

--- fs from (fs, nyq) as SciPy's _get_fs
function R.get_fs(fs, nyq)
  if nyq == nil and fs == nil then return 2 end
  if nyq ~= nil then
    if fs ~= nil then raise("Values cannot be given for both 'nyq' and 'fs'.") end
    return 2 * nyq
  end
  return fs
end

function R.kaiser_beta(a)
  if a > 50 then return 0.1102 * (a - 8.7) end
  if a > 21 then return 0.5842 * (a - 21) ^ 0.4 + 0.07886 * (a - 21) end
  return 0.0
end

function R.kaiser_atten(numtaps, width)
  return 2.285 * (numtaps - 1) * math.pi * width + 7.95
end

function R.kaiserord(ripple, width)
  local A = math.abs(ripple)
  if A < 8 then
    raise(("Requested maximum ripple attentuation %f is too small for the Kaiser formula."):format(A))
  end
  local beta = R.kaiser_beta(A)
  local numtaps = (A - 7.95) / 2.285 / (math.pi * width) + 1
  return math.tointeger(math.ceil(numtaps)), beta
end

--- firwin(numtaps, cutoff (a list), width, window, pass_zero (boolean or
-- a band name), scale, nyq, fs)
function R.firwin(numtaps, cutoff, width, window, pass_zero, scale, nyq, fs)
  nyq = 0.5 * R.get_fs(fs, nyq)
  local c = {}
  for i, v in ipairs(cutoff) do c[i] = v / nyq end
  if #c == 0 then raise("At least one cutoff frequency must be given.") end
  local lo, hi = math.huge, -math.huge
  for _, v in ipairs(c) do lo, hi = math.min(lo, v), math.max(hi, v) end
  if lo <= 0 or hi >= 1 then
    raise("Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2.")
  end
  for i = 2, #c do
    if c[i] - c[i - 1] <= 0 then raise("Invalid cutoff frequencies: the frequencies must be strictly increasing.") end
  end
  if width ~= nil then
    local atten = R.kaiser_atten(numtaps, width / nyq)
    window = { "kaiser", R.kaiser_beta(atten) }
  end
  if type(pass_zero) == "string" then
    if pass_zero == "lowpass" or pass_zero == "bandstop" then
      if pass_zero == "lowpass" and #c ~= 1 then
        raise(("cutoff must have one element if pass_zero==\"lowpass\", got (%d,)"):format(#c))
      elseif pass_zero == "bandstop" and #c <= 1 then
        raise(("cutoff must have at least two elements if pass_zero==\"bandstop\", got (%d,)"):format(#c))
      end
      pass_zero = true
    elseif pass_zero == "highpass" or pass_zero == "bandpass" then
      if pass_zero == "highpass" and #c ~= 1 then
        raise(("cutoff must have one element if pass_zero==\"highpass\", got (%d,)"):format(#c))
      elseif pass_zero == "bandpass" and #c <= 1 then
        raise(("cutoff must have at least two elements if pass_zero==\"bandpass\", got (%d,)"):format(#c))
      end
      pass_zero = false
    else
      raise(('pass_zero must be True, False, "bandpass", "lowpass", "highpass", or "bandstop", got %s')
        :format(pass_zero))
    end
  end
  local pass_nyquist = ((#c % 2 == 1) ~= pass_zero)
  if pass_nyquist and numtaps % 2 == 0 then
    raise("A filter with an even number of coefficients must have zero response at the Nyquist frequency.")
  end
  local edges = {}
  if pass_zero then edges[1] = 0.0 end
  for _, v in ipairs(c) do edges[#edges + 1] = v end
  if pass_nyquist then edges[#edges + 1] = 1.0 end
  local alpha = 0.5 * (numtaps - 1)
  local h = {}
  for n = 1, numtaps do h[n] = 0.0 end
  for b = 1, #edges, 2 do
    local left, right = edges[b], edges[b + 1]
    for n = 1, numtaps do
      local m = (n - 1) - alpha
      h[n] = h[n] + right * sinc(right * m)
      h[n] = h[n] - left * sinc(left * m)
    end
  end
  local win = W.get_window(window, numtaps, false)
  for n = 1, numtaps do h[n] = h[n] * win[n] end
  if scale then
    local left, right = edges[1], edges[2]
    local f
    if left == 0 then f = 0.0 elseif right == 1 then f = 1.0 else f = 0.5 * (left + right) end
    local s = 0.0
    for n = 1, numtaps do s = s + h[n] * math.cos(math.pi * ((n - 1) - alpha) * f) end
    for n = 1, numtaps do h[n] = h[n] / s end
  end
  return h
end

-- numpy.interp for increasing xp
local function interp(x, xp, fp)
  if x <= xp[1] then return fp[1] end
  if x >= xp[#xp] then return fp[#fp] end
  local lo, hi = 1, #xp
  while hi - lo > 1 do
    local mid = (lo + hi) // 2
    if xp[mid] <= x then lo = mid else hi = mid end
  end
  local slope = (fp[hi] - fp[lo]) / (xp[hi] - xp[lo])
  return slope * (x - xp[lo]) + fp[lo]
end

function R.firwin2(numtaps, freq, gain, nfreqs, window, nyq, antisymmetric, fs)
  nyq = 0.5 * R.get_fs(fs, nyq)
  if #freq ~= #gain then raise("freq and gain must be of same length.") end
  if nfreqs ~= nil and numtaps >= nfreqs then
    raise(("ntaps must be less than nfreqs, but firwin2 was called with ntaps=%d and nfreqs=%s")
      :format(numtaps, tostring(nfreqs)))
  end
  if freq[1] ~= 0 or freq[#freq] ~= nyq then raise("freq must start with 0 and end with fs/2.") end
  local f = {}
  for i, v in ipairs(freq) do f[i] = v end
  local repeated = false
  for i = 2, #f do
    if f[i] - f[i - 1] < 0 then raise("The values in freq must be nondecreasing.") end
    if f[i] == f[i - 1] then repeated = true end
  end
  for i = 2, #f - 1 do
    if (f[i] - f[i - 1]) + (f[i + 1] - f[i]) == 0 then raise("A value in freq must not occur more than twice.") end
  end
  if f[2] == 0 then raise("Value 0 must not be repeated in freq") end
  if f[#f - 1] == nyq then raise("Value fs/2 must not be repeated in freq") end
  local ftype
  if antisymmetric then ftype = numtaps % 2 == 0 and 4 or 3 else ftype = numtaps % 2 == 0 and 2 or 1 end
  if ftype == 2 and gain[#gain] ~= 0.0 then
    raise("A Type II filter must have zero gain at the Nyquist frequency.")
  elseif ftype == 3 and (gain[1] ~= 0.0 or gain[#gain] ~= 0.0) then
    raise("A Type III filter must have zero gain at zero and Nyquist frequencies.")
  elseif ftype == 4 and gain[1] ~= 0.0 then
    raise("A Type IV filter must have zero gain at zero frequency.")
  end
  if nfreqs == nil then nfreqs = 1 + 2 ^ math.ceil(math.log(numtaps, 2)) end
  nfreqs = math.tointeger(nfreqs)
  if repeated then
    local eps = 2.220446049250313e-16 * nyq
    for k = 1, #f - 1 do
      if f[k] == f[k + 1] then
        f[k] = f[k] - eps
        f[k + 1] = f[k + 1] + eps
      end
    end
    for k = 2, #f do
      if f[k] - f[k - 1] <= 0 then
        raise(("freq cannot contain numbers that are too close (within eps * (fs/2): %s) to a repeated value")
          :format(tostring(eps)))
      end
    end
  end
  local fx2 = {}
  for i = 0, nfreqs - 1 do
    local x = i * (nyq / (nfreqs - 1))
    if i == nfreqs - 1 then x = nyq end
    local fx = interp(x, f, gain)
    local shift = cx.expi(-(numtaps - 1) / 2.0 * math.pi * x / nyq)
    if ftype > 2 then shift = cx.mul(shift, cx.I) end
    fx2[i + 1] = cx.mul(fx, shift)
  end
  local full = HF.irfft(fx2)
  local wind
  if window ~= nil then wind = W.get_window(window, numtaps, false) end
  local out = {}
  for n = 1, numtaps do out[n] = full[n] * (wind and wind[n] or 1) end
  if ftype == 3 then out[#out // 2 + 1] = 0.0 end
  return out
end

-- firls solves a dense system of (numtaps + 1) / 2 unknowns on the host
-- (cubic work): bounded (seconds of Lua) rather than run for hours
local MAX_FIRLS_TAPS = 1025

function R.firls(numtaps, bands, desired, weight, nyq, fs)
  nyq = 0.5 * R.get_fs(fs, nyq)
  if math.type(numtaps) ~= "integer" or numtaps % 2 == 0 or numtaps < 1 then raise("numtaps must be odd and >= 1") end
  if numtaps > MAX_FIRLS_TAPS then
    raise(("numtaps = %d is more than the %d taps this host least-squares design solves for"):format(numtaps,
      MAX_FIRLS_TAPS))
  end
  local Mh = (numtaps - 1) // 2
  if nyq <= 0 then raise(("nyq must be positive, got %s <= 0."):format(tostring(nyq))) end
  local bd = {}
  for i, v in ipairs(bands) do bd[i] = v / nyq end
  if #bd % 2 ~= 0 then raise("bands must contain frequency pairs.") end
  for _, v in ipairs(bd) do
    if v < 0 or v > 1 then raise("bands must be between 0 and 1 relative to Nyquist") end
  end
  if #bd ~= #desired then
    raise(("desired must have one entry per frequency, got %d gains for %d frequencies."):format(#desired, #bd))
  end
  local nb = #bd // 2
  for i = 1, nb do
    if bd[2 * i] - bd[2 * i - 1] <= 0 or (i > 1 and bd[2 * i - 1] - bd[2 * i - 3] < 0) then
      raise("bands must be monotonically nondecreasing and have width > 0.")
    end
    if i > 1 and bd[2 * i - 2] > bd[2 * i - 1] then raise("bands must not overlap.") end
  end
  for _, v in ipairs(desired) do if v < 0 then raise("desired must be non-negative.") end end
  weight = weight or {}
  if #weight == 0 then for i = 1, nb do weight[i] = 1.0 end end
  if #weight ~= nb then
    raise(("weight must be the same size as the number of band pairs (%d)."):format(nb))
  end
  for _, v in ipairs(weight) do if v < 0 then raise("weight must be non-negative.") end end
  -- q[n] = sum over bands of w (sinc(f1 n) f1 - sinc(f0 n) f0)
  local q = {}
  for n = 0, numtaps - 1 do
    local s = 0.0
    for i = 1, nb do
      local f0, f1 = bd[2 * i - 1], bd[2 * i]
      s = s + (sinc(f1 * n) * f1 - sinc(f0 * n) * f0) * weight[i]
    end
    q[n + 1] = s
  end
  local Q = M.zeros(Mh + 1, Mh + 1)
  for i = 0, Mh do
    for j = 0, Mh do Q[i + 1][j + 1] = q[math.abs(i - j) + 1] + q[i + j + 1] end
  end
  local b = {}
  for n = 0, Mh do
    local s = 0.0
    for i = 1, nb do
      local f0, f1 = bd[2 * i - 1], bd[2 * i]
      local d0, d1 = desired[2 * i - 1], desired[2 * i]
      local m = (d1 - d0) / (f1 - f0)
      local c = d0 - f0 * m
      local function term(f)
        local v = f * (m * f + c) * sinc(f * n)
        if n == 0 then v = v - m * f * f / 2.0
        else v = v + m * math.cos(n * math.pi * f) / (math.pi * n) ^ 2 end
        return v
      end
      s = s + (term(f1) - term(f0)) * weight[i]
    end
    b[n + 1] = s
  end
  local a
  local ok, x = pcall(M.solve, Q, M.col(b))
  if ok then
    a = M.uncol(x)
    for _, v in ipairs(a) do if v ~= v or math.abs(v) == math.huge then ok = false end end
  end
  if not ok then a = M.solve_sym_lstsq(Q, b) end
  local coeffs = {}
  for i = Mh + 1, 2, -1 do coeffs[#coeffs + 1] = a[i] end
  coeffs[#coeffs + 1] = 2 * a[1]
  for i = 2, Mh + 1 do coeffs[#coeffs + 1] = a[i] end
  return coeffs
end

-- the discrete Hilbert transform magnitude to minimum phase (SciPy's _dhtm)
local function dhtm(mag)
  local n = #mag
  local sig = {}
  local midpt = n // 2
  for i = 1, n do sig[i] = 0.0 end
  for i = 2, midpt do sig[i] = 1.0 end
  for i = midpt + 2, n do sig[i] = -1.0 end
  local logm = {}
  for i = 1, n do logm[i] = math.log(mag[i]) end
  local il = HF.ifft(logm)
  for i = 1, n do il[i] = cx.mul(il[i], sig[i]) end
  local f = HF.fft(il)
  local e = {}
  for i = 1, n do e[i] = cx.mul(mag[i], cx.exp(f[i])) end
  local r = HF.ifft(e)
  local out = {}
  for i = 1, n do out[i] = cx.re(r[i]) end
  return out
end

function R.minimum_phase(h, method, n_fft)
  if #h <= 2 then raise("h must be 1-D and at least 2 samples long") end
  if method ~= "homomorphic" and method ~= "hilbert" then
    raise(('method must be "homomorphic" or "hilbert", got %s'):format(tostring(method)))
  end
  local nh = #h
  local n_half = nh // 2
  if n_fft == nil then n_fft = math.tointeger(2 ^ math.ceil(math.log(2 * (nh - 1) / 0.01, 2))) end
  if n_fft < nh then raise(("n_fft must be at least len(h)==%d"):format(nh)) end
  local hmin
  if method == "hilbert" then
    local F = HF.fft(h, n_fft)
    local H = {}
    local mx, mn = -math.huge, math.huge
    for k = 1, n_fft do
      local w = (k - 1) * (2 * math.pi / n_fft * n_half)
      H[k] = cx.re(cx.mul(F[k], cx.expi(w)))
      mx, mn = math.max(mx, H[k]), math.min(mn, H[k])
    end
    local dp, ds = mx - 1, 0 - mn
    local Sc = 4.0 / (math.sqrt(1 + dp + ds) + math.sqrt(1 - dp + ds)) ^ 2
    for k = 1, n_fft do H[k] = math.sqrt((H[k] + ds) * Sc) + 1e-10 end
    hmin = dhtm(H)
  else
    local F = HF.fft(h, n_fft)
    local t = {}
    local mn = math.huge
    for k = 1, n_fft do
      t[k] = cx.abs(F[k])
      if t[k] > 0 then mn = math.min(mn, t[k]) end
    end
    for k = 1, n_fft do t[k] = 0.5 * math.log(t[k] + 1e-7 * mn) end
    local it = HF.ifft(t)
    local win = {}
    for k = 1, n_fft do win[k] = 0.0 end
    win[1] = 1
    local stop = (nh + 1) // 2
    for k = 2, stop do win[k] = 2 end
    if nh % 2 == 1 then win[stop + 1] = 1 end
    for k = 1, n_fft do it[k] = cx.re(it[k]) * win[k] end
    local f = HF.fft(it)
    for k = 1, n_fft do f[k] = cx.exp(f[k]) end
    local r = HF.ifft(f)
    hmin = {}
    for k = 1, n_fft do hmin[k] = cx.re(r[k]) end
  end
  local out = {}
  for i = 1, n_half + nh % 2 do out[i] = hmin[i] end
  return out
end

--- savgol_coeffs: the filter that fits a polynomial of degree polyorder
-- to window_length points and evaluates its deriv-th derivative at pos
-- the fit is a host QR of window_length x (polyorder + 1): its work is
-- bounded (about a second of Lua) rather than left to run for minutes
local MAX_SAVGOL_WORK = 1 << 20
R.MAX_SAVGOL_WORK = MAX_SAVGOL_WORK

function R.savgol_coeffs(window_length, polyorder, deriv, delta, pos, use)
  if polyorder >= window_length then raise("polyorder must be less than window_length.") end
  -- (polyorder + 1 past 2^10 alone exceeds it; its square could wrap)
  local cols = math.max(polyorder, 0) + 1
  if cols > 1 << 10 or window_length > MAX_SAVGOL_WORK // (cols * cols) then
    raise(("window_length * (polyorder + 1)^2 = %d * %d^2 is more than the %d this host fit computes"):format(
      window_length, cols, MAX_SAVGOL_WORK))
  end
  local halflen, rem = window_length // 2, window_length % 2
  if pos == nil then pos = rem == 0 and halflen - 0.5 or halflen end
  if not (pos >= 0 and pos < window_length) then raise("pos must be nonnegative and less than window_length.") end
  if use ~= "conv" and use ~= "dot" then raise("`use` must be 'conv' or 'dot'") end
  local out = {}
  if deriv > polyorder then
    for i = 1, window_length do out[i] = 0.0 end
    return out
  end
  local x = {}
  for i = 1, window_length do x[i] = -pos + (i - 1) end
  if use == "conv" then
    local r = {}
    for i = 1, window_length do r[i] = x[window_length - i + 1] end
    x = r
  end
  local A = M.zeros(polyorder + 1, window_length)
  for o = 0, polyorder do
    for i = 1, window_length do A[o + 1][i] = x[i] ^ o end
  end
  local y = {}
  for o = 0, polyorder do y[o + 1] = 0.0 end
  y[deriv + 1] = SP.factorial(deriv) / (delta ^ deriv)
  return M.lstsq(A, y)
end

--- The matrix of savgol_filter's "interp" edges: row r gives the fitted
-- polynomial's deriv-th derivative at positions[r] (0-based) of a window
-- of window_length samples, as a combination of those samples (polyfit
-- is a linear projection, so the edge fit is a small matrix product)
function R.savgol_edge_matrix(window_length, polyorder, deriv, delta, positions)
  -- Vandermonde with highest power first (np.polyfit)
  local V = M.zeros(window_length, polyorder + 1)
  for i = 1, window_length do
    for o = 0, polyorder do V[i][o + 1] = (i - 1) ^ (polyorder - o) end
  end
  local rows = {}
  for r = 1, #positions do rows[r] = {} end
  for j = 1, window_length do
    local e = {}
    for i = 1, window_length do e[i] = i == j and 1.0 or 0.0 end
    local p = M.lstsq(V, e)
    -- the derivative of the polynomial p (highest power first), deriv times
    for _ = 1, deriv do
      local n = #p
      local dp = {}
      for k = 1, n - 1 do dp[k] = p[k] * (n - k) end
      p = #dp > 0 and dp or { 0.0 }
    end
    for r, at in ipairs(positions) do
      local s = 0.0
      for k = 1, #p do s = s * at + p[k] end
      rows[r][j] = s / delta ^ deriv
    end
  end
  return rows
end

return R
