--- IIR filter design on the host, as scipy.signal's: iirfilter and the
-- named designs (butter cheby1 cheby2 ellip bessel), the order estimates
-- (buttord cheb1ord cheb2ord ellipord, band_stop_obj), iirdesign, and the
-- notch / peak / comb / gammatone designs. Frequencies are Lua numbers or
-- lists of two; results are zpk, ba or sos as host lists (host/zpk.lua).
-- Errors: error({msg = ...}). Pure Lua.
local cx = require("gpuarray.scipy.signal.host.cx")
local Z = require("gpuarray.scipy.signal.host.zpk")
local SP = require("gpuarray.scipy.signal.host.special")
local O = require("gpuarray.scipy.signal.host.optim")

local H = {}
local raise = Z.raise

local function list(w)
  if type(w) == "number" then return { w } end
  local o = {}
  for i, v in ipairs(w) do o[i] = v end
  return o
end

local BAND = { band = "bandpass", bandpass = "bandpass", pass = "bandpass", bp = "bandpass",
               bs = "bandstop", bandstop = "bandstop", bands = "bandstop", stop = "bandstop",
               l = "lowpass", low = "lowpass", lowpass = "lowpass", lp = "lowpass",
               high = "highpass", highpass = "highpass", h = "highpass", hp = "highpass" }
local FILTERS = { butter = "butter", butterworth = "butter", cauer = "ellip", elliptic = "ellip", ellip = "ellip",
                  bessel = "bessel", bessel_phase = "bessel", bessel_delay = "bessel", bessel_mag = "bessel",
                  cheby1 = "cheby1", chebyshev1 = "cheby1", chebyshevi = "cheby1",
                  cheby2 = "cheby2", chebyshev2 = "cheby2", chebyshevii = "cheby2" }
local BESSEL_NORM = { bessel = "phase", bessel_phase = "phase", bessel_delay = "delay", bessel_mag = "mag" }
H.FILTERS = FILTERS

--- iirfilter(N, Wn, rp, rs, btype, analog, ftype, output, fs, norm):
-- returns {z, p, k}, {b, a} or {sos} (a list of results)
function H.iirfilter(N, Wn, rp, rs, btype, analog, ftype, output, fs, norm)
  ftype, btype, output = ftype:lower(), btype:lower(), output:lower()
  local W = list(Wn)
  if fs ~= nil then
    if analog then raise("fs cannot be specified for an analog filter") end
    for i = 1, #W do W[i] = 2 * W[i] / fs end
  end
  for _, w in ipairs(W) do
    if w <= 0 then raise("filter critical frequencies must be greater than 0") end
  end
  -- (not <, rather than >=: a NaN is not less either)
  if #W > 1 and not (W[1] < W[2]) then raise("Wn[0] must be less than Wn[1]") end -- luacheck: ignore 581
  local bt = BAND[btype]
  if not bt then raise(("'%s' is an invalid bandtype for filter."):format(btype)) end
  local ft = FILTERS[ftype]
  if not ft then raise(("'%s' is not a valid basic IIR filter."):format(ftype)) end
  if output ~= "ba" and output ~= "zpk" and output ~= "sos" then
    raise(("'%s' is not a valid output form."):format(output))
  end
  if rp ~= nil and rp < 0 then raise("passband ripple (rp) must be positive") end
  if rs ~= nil and rs < 0 then raise("stopband attenuation (rs) must be positive") end
  local z, p, k
  if ft == "butter" then
    z, p, k = Z.buttap(N)
  elseif ft == "bessel" then
    z, p, k = Z.besselap(N, norm or BESSEL_NORM[ftype])
  elseif ft == "cheby1" then
    if rp == nil then raise("passband ripple (rp) must be provided to design a Chebyshev I filter.") end
    z, p, k = Z.cheb1ap(N, rp)
  elseif ft == "cheby2" then
    if rs == nil then raise("stopband attenuation (rs) must be provided to design an Chebyshev II filter.") end
    z, p, k = Z.cheb2ap(N, rs)
  else
    if rs == nil or rp == nil then raise("Both rp and rs must be provided to design an elliptic filter.") end
    z, p, k = Z.ellipap(N, rp, rs)
  end
  local warped = {}
  if not analog then
    for _, w in ipairs(W) do
      if w <= 0 or w >= 1 then
        if fs ~= nil then
          raise(("Digital filter critical frequencies must be 0 < Wn < fs/2 (fs=%s -> fs/2=%s)"):format(
            tostring(fs), tostring(fs / 2)))
        end
        raise("Digital filter critical frequencies must be 0 < Wn < 1")
      end
    end
    for i, w in ipairs(W) do warped[i] = 2 * 2.0 * math.tan(math.pi * w / 2.0) end
  else
    warped = W
  end
  if bt == "lowpass" or bt == "highpass" then
    if #W ~= 1 then raise("Must specify a single critical frequency Wn for lowpass or highpass filter") end
    if bt == "lowpass" then z, p, k = Z.lp2lp_zpk(z, p, k, warped[1])
    else z, p, k = Z.lp2hp_zpk(z, p, k, warped[1]) end
  else
    if #W < 2 then raise("Wn must specify start and stop frequencies for bandpass or bandstop filter") end
    local bw = warped[2] - warped[1]
    local wo = math.sqrt(warped[1] * warped[2])
    if bt == "bandpass" then z, p, k = Z.lp2bp_zpk(z, p, k, wo, bw)
    else z, p, k = Z.lp2bs_zpk(z, p, k, wo, bw) end
  end
  if not analog then z, p, k = Z.bilinear_zpk(z, p, k, 2.0) end
  if output == "zpk" then return { z, p, k } end
  if output == "ba" then
    local b, a = Z.zpk2tf(z, p, k)
    return { b, a }
  end
  return { Z.zpk2sos(z, p, k, nil, analog) }
end

---------------------------------------------------------------------------
-- order estimates

local function validate_gpass_gstop(gpass, gstop)
  if gpass <= 0.0 then raise("gpass should be larger than 0.0")
  elseif gstop <= 0.0 then raise("gstop should be larger than 0.0")
  elseif gpass > gstop then raise("gpass should be smaller than gstop") end
end
H.validate_gpass_gstop = validate_gpass_gstop

local log10 = function(x) return math.log(x, 10) end

--- SciPy's band_stop_obj: the order needed when passband edge ind (1 or 2)
-- is moved to wp
function H.band_stop_obj(wp, ind, passb, stopb, gpass, gstop, kind)
  validate_gpass_gstop(gpass, gstop)
  local pc = { passb[1], passb[2] }
  pc[ind] = wp
  local nat = math.huge
  for i = 1, 2 do
    local v = math.abs(stopb[i] * (pc[1] - pc[2]) / (stopb[i] ^ 2 - pc[1] * pc[2]))
    nat = math.min(nat, v)
  end
  if kind == "butter" then
    local GSTOP, GPASS = 10 ^ (0.1 * math.abs(gstop)), 10 ^ (0.1 * math.abs(gpass))
    return log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * log10(nat))
  elseif kind == "cheby" then
    local GSTOP, GPASS = 10 ^ (0.1 * math.abs(gstop)), 10 ^ (0.1 * math.abs(gpass))
    return Z.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / Z.acosh(nat)
  elseif kind == "ellip" then
    local GSTOP, GPASS = 10 ^ (0.1 * gstop), 10 ^ (0.1 * gpass)
    local arg1 = math.sqrt((GPASS - 1.0) / (GSTOP - 1.0))
    local arg0 = 1.0 / nat
    local d00, d01 = SP.ellipk(arg0 ^ 2), SP.ellipk(1 - arg0 ^ 2)
    local d10, d11 = SP.ellipk(arg1 ^ 2), SP.ellipk(1 - arg1 ^ 2)
    return d00 * d11 / (d01 * d10)
  end
  raise("Incorrect type: " .. tostring(kind))
end

-- the common first half of the *ord functions: the band type (1 low,
-- 2 high, 3 stop, 4 pass), the prewarped edges and the natural frequency
local function ord_setup(wp, ws, gpass, gstop, analog, fs, kind, strict_low)
  validate_gpass_gstop(gpass, gstop)
  wp, ws = list(wp), list(ws)
  if #wp ~= #ws or (#wp ~= 1 and #wp ~= 2) then
    raise(("wp and ws must have one or two elements each, and the same shape, got %d and %d elements"):format(
      #wp, #ws))
  end
  if fs ~= nil then
    if analog then raise("fs cannot be specified for an analog filter") end
    for i = 1, #wp do wp[i] = 2 * wp[i] / fs end
    for i = 1, #ws do ws[i] = 2 * ws[i] / fs end
  end
  local ftype = 2 * (#wp - 1)
  if strict_low then
    ftype = ftype + (wp[1] < ws[1] and 1 or 2)
  else
    ftype = ftype + 1 + (wp[1] >= ws[1] and 1 or 0)
  end
  local passb, stopb = {}, {}
  for i = 1, #wp do passb[i] = analog and wp[i] * 1.0 or math.tan(math.pi * wp[i] / 2.0) end
  for i = 1, #ws do stopb[i] = analog and ws[i] * 1.0 or math.tan(math.pi * ws[i] / 2.0) end
  local nat = {}
  if ftype == 1 then
    for i = 1, #stopb do nat[i] = stopb[i] / passb[i] end
  elseif ftype == 2 then
    for i = 1, #stopb do nat[i] = passb[i] / stopb[i] end
  elseif ftype == 3 then
    passb[1] = O.fminbound(function(w) return H.band_stop_obj(w, 1, passb, stopb, gpass, gstop, kind) end,
                           passb[1], stopb[1] - 1e-12)
    passb[2] = O.fminbound(function(w) return H.band_stop_obj(w, 2, passb, stopb, gpass, gstop, kind) end,
                           stopb[2] + 1e-12, passb[2])
    for i = 1, 2 do nat[i] = (stopb[i] * (passb[1] - passb[2])) / (stopb[i] ^ 2 - passb[1] * passb[2]) end
  else
    for i = 1, 2 do nat[i] = (stopb[i] ^ 2 - passb[1] * passb[2]) / (stopb[i] * (passb[1] - passb[2])) end
  end
  local m = math.huge
  for _, v in ipairs(nat) do m = math.min(m, math.abs(v)) end
  return ftype, passb, stopb, m
end

local function finish_wn(WN, analog, fs)
  local wn = {}
  for i, v in ipairs(WN) do wn[i] = analog and v or (2.0 / math.pi) * math.atan(v) end
  if fs ~= nil then for i = 1, #wn do wn[i] = wn[i] * fs / 2 end end
  if #wn == 1 then return wn[1] end
  return wn
end

local function ceil_int(v)
  local c = math.ceil(v)
  return math.tointeger(c) or c
end

function H.buttord(wp, ws, gpass, gstop, analog, fs)
  local ftype, passb, _, nat = ord_setup(wp, ws, gpass, gstop, analog, fs, "butter", false)
  local GSTOP, GPASS = 10 ^ (0.1 * math.abs(gstop)), 10 ^ (0.1 * math.abs(gpass))
  local ord = ceil_int(log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * log10(nat)))
  local W0 = ord == 0 and 1.0 or (GPASS - 1.0) ^ (-1.0 / (2.0 * ord))
  local WN
  if ftype == 1 then
    WN = {}
    for i = 1, #passb do WN[i] = W0 * passb[i] end
  elseif ftype == 2 then
    WN = {}
    for i = 1, #passb do WN[i] = passb[i] / W0 end
  elseif ftype == 3 then
    local discr = math.sqrt((passb[2] - passb[1]) ^ 2 + 4 * W0 ^ 2 * passb[1] * passb[2])
    WN = { math.abs(((passb[2] - passb[1]) + discr) / (2 * W0)), math.abs(((passb[2] - passb[1]) - discr) / (2 * W0)) }
    table.sort(WN)
  else
    WN = {}
    for i, w0 in ipairs({ -W0, W0 }) do
      WN[i] = math.abs(-w0 * (passb[2] - passb[1]) / 2.0 +
                       math.sqrt(w0 ^ 2 / 4.0 * (passb[2] - passb[1]) ^ 2 + passb[1] * passb[2]))
    end
    table.sort(WN)
  end
  return ord, finish_wn(WN, analog, fs)
end

function H.cheb1ord(wp, ws, gpass, gstop, analog, fs)
  local _, passb, _, nat = ord_setup(wp, ws, gpass, gstop, analog, fs, "cheby", true)
  local GSTOP, GPASS = 10 ^ (0.1 * math.abs(gstop)), 10 ^ (0.1 * math.abs(gpass))
  local ord = ceil_int(Z.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / Z.acosh(nat))
  return ord, finish_wn(passb, analog, fs)
end

function H.cheb2ord(wp, ws, gpass, gstop, analog, fs)
  local ftype, passb, _, nat = ord_setup(wp, ws, gpass, gstop, analog, fs, "cheby", true)
  local GSTOP, GPASS = 10 ^ (0.1 * math.abs(gstop)), 10 ^ (0.1 * math.abs(gpass))
  local ord = ceil_int(Z.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / Z.acosh(nat))
  local new_freq = 1.0 / cx.cosh(1.0 / ord * Z.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0))))
  local out
  if ftype == 1 then
    out = {}
    for i = 1, #passb do out[i] = passb[i] / new_freq end
  elseif ftype == 2 then
    out = {}
    for i = 1, #passb do out[i] = passb[i] * new_freq end
  elseif ftype == 3 then
    local n1 = new_freq / 2.0 * (passb[1] - passb[2]) +
      math.sqrt(new_freq ^ 2 * (passb[2] - passb[1]) ^ 2 / 4.0 + passb[2] * passb[1])
    out = { n1, passb[2] * passb[1] / n1 }
  else
    local n1 = 1.0 / (2.0 * new_freq) * (passb[1] - passb[2]) +
      math.sqrt((passb[2] - passb[1]) ^ 2 / (4.0 * new_freq ^ 2) + passb[2] * passb[1])
    out = { n1, passb[1] * passb[2] / n1 }
  end
  return ord, finish_wn(out, analog, fs)
end

function H.ellipord(wp, ws, gpass, gstop, analog, fs)
  local _, passb, _, nat = ord_setup(wp, ws, gpass, gstop, analog, fs, "ellip", false)
  local arg1_sq = Z.pow10m1(0.1 * gpass) / Z.pow10m1(0.1 * gstop)
  local arg0 = 1.0 / nat
  local d00, d01 = SP.ellipk(arg0 ^ 2), SP.ellipkm1(arg0 ^ 2)
  local d10, d11 = SP.ellipk(arg1_sq), SP.ellipkm1(arg1_sq)
  local ord = ceil_int(d00 * d11 / (d01 * d10))
  return ord, finish_wn(passb, analog, fs)
end

local ORD = { butter = H.buttord, ellip = H.ellipord, cheby1 = H.cheb1ord, cheby2 = H.cheb2ord }

function H.iirdesign(wp, ws, gpass, gstop, analog, ftype, output, fs)
  local ft = FILTERS[ftype]
  if not ft then raise("Invalid IIR filter type: " .. tostring(ftype)) end
  local ordfunc = ORD[ft]
  if not ordfunc then raise(("%s does not have order selection. Use iirfilter function."):format(ftype)) end
  validate_gpass_gstop(gpass, gstop)
  local wpl, wsl = list(wp), list(ws)
  if #wpl ~= #wsl or #wpl > 2 or #wpl < 1 then
    raise("wp and ws must have one or two elements each, and the same shape")
  end
  for i = 1, #wpl do
    if wpl[i] <= 0 or wsl[i] <= 0 then raise("Values for wp, ws must be greater than 0") end
  end
  if not analog then
    for i = 1, #wpl do
      if fs == nil then
        if wpl[i] >= 1 or wsl[i] >= 1 then raise("Values for wp, ws must be less than 1") end
      elseif wpl[i] >= fs / 2 or wsl[i] >= fs / 2 then
        raise(("Values for wp, ws must be less than fs/2 (fs=%s -> fs/2=%s)"):format(tostring(fs), tostring(fs / 2)))
      end
    end
  end
  if #wpl == 2 then
    if not ((wsl[1] < wpl[1] and wpl[2] < wsl[2]) or (wpl[1] < wsl[1] and wsl[2] < wpl[2])) then
      raise("Passband must lie strictly inside stopband or vice versa")
    end
  end
  local band_type = 2 * (#wpl - 1) + 1
  if wpl[1] >= wsl[1] then band_type = band_type + 1 end
  local btype = ({ "lowpass", "highpass", "bandstop", "bandpass" })[band_type]
  local N, Wn = ordfunc(wpl, wsl, gpass, gstop, analog, fs)
  return H.iirfilter(N, Wn, gpass, gstop, btype, analog, ftype, output, fs)
end

---------------------------------------------------------------------------
-- notch, peak, comb, gammatone

local function notch_peak(w0, Q, ftype, fs)
  w0 = 2 * w0 / fs
  if w0 > 1.0 or w0 < 0.0 then raise("w0 should be such that 0 < w0 < 1") end
  local bw = w0 / Q * math.pi
  w0 = w0 * math.pi
  local gb = 1 / math.sqrt(2)
  local beta
  if ftype == "notch" then beta = (math.sqrt(1.0 - gb ^ 2.0) / gb) * math.tan(bw / 2.0)
  else beta = (gb / math.sqrt(1.0 - gb ^ 2.0)) * math.tan(bw / 2.0) end
  local gain = 1.0 / (1.0 + beta)
  local b
  if ftype == "notch" then b = { gain * 1.0, gain * (-2.0 * math.cos(w0)), gain * 1.0 }
  else b = { (1.0 - gain) * 1.0, (1.0 - gain) * 0.0, (1.0 - gain) * -1.0 } end
  local a = { 1.0, -2.0 * gain * math.cos(w0), 2.0 * gain - 1.0 }
  return b, a
end
function H.iirnotch(w0, Q, fs) return notch_peak(w0, Q, "notch", fs or 2.0) end
function H.iirpeak(w0, Q, fs) return notch_peak(w0, Q, "peak", fs or 2.0) end

function H.iircomb(w0, Q, ftype, fs, pass_zero)
  ftype = ftype:lower()
  if not (0 < w0 and w0 < fs / 2) then
    raise(("w0 must be between 0 and %s (nyquist), but given %s."):format(tostring(fs / 2), tostring(w0)))
  end
  if ftype ~= "notch" and ftype ~= "peak" then raise("ftype must be either notch or peak.") end
  -- Python's round: half to even
  local q = fs / w0
  local N = math.floor(q + 0.5)
  if q + 0.5 == N and N % 2 == 1 then N = N - 1 end
  N = math.tointeger(N)
  -- the comb has N + 1 taps, made as host lists: bounded (SciPy is not)
  if N == nil or N > 1 << 24 then
    raise(("fs / w0 = %.17g: a comb of more than %d taps is not made"):format(q, 1 << 24))
  end
  if math.abs(w0 - fs / N) / fs > 1e-14 then raise("fs must be divisible by w0.") end
  w0 = (2 * math.pi * w0) / fs
  local w_delta = w0 / Q
  local G0, G = 1, 0
  if ftype == "peak" then G0, G = 0, 1 end
  local GB = 1 / math.sqrt(2)
  local beta = math.sqrt((GB ^ 2 - G0 ^ 2) / (G ^ 2 - GB ^ 2)) * math.tan(N * w_delta / 4)
  local ax = (1 - beta) / (1 + beta)
  local bx = (G0 + G * beta) / (1 + beta)
  local cxv = (G0 - G * beta) / (1 + beta)
  local negative = (ftype == "peak" and pass_zero) or (ftype == "notch" and not pass_zero)
  local b, a = {}, {}
  for i = 1, N + 1 do b[i], a[i] = 0.0, 0.0 end
  b[1] = bx
  b[N + 1] = negative and -cxv or cxv
  a[1] = 1.0
  a[N + 1] = negative and -ax or ax
  return b, a
end

local function hz_to_erb(hz) return hz / 9.26449 + 24.7 end

function H.gammatone(freq, ftype, order, numtaps, fs)
  fs = fs or 2
  ftype = ftype:lower()
  if not (0 < freq and freq < fs / 2) then
    raise(("The frequency must be between 0 and %s (nyquist), but given %s."):format(tostring(fs / 2), tostring(freq)))
  end
  if ftype ~= "fir" and ftype ~= "iir" then raise("ftype must be either fir or iir.") end
  if ftype == "fir" then
    order = order or 4
    numtaps = numtaps or math.max(math.floor(fs * 0.015), 15)
    if not (0 < order and order <= 24) then raise("Invalid order: order must be > 0 and <= 24.") end
    local bw = 1.019 * hz_to_erb(freq)
    local scale = 2 * (2 * math.pi * bw) ^ order
    scale = scale / SP.factorial(order - 1)
    scale = scale / fs
    local b = {}
    for n = 0, numtaps - 1 do
      local t = n / fs
      b[n + 1] = (t ^ (order - 1)) * math.exp(-2 * math.pi * bw * t) * math.cos(2 * math.pi * freq * t) * scale
    end
    return b, { 1.0 }
  end
  local T = 1.0 / fs
  local bw = 2 * math.pi * 1.019 * hz_to_erb(freq)
  local fr = 2 * freq * math.pi * T
  local bwT = bw * T
  local g1 = cx.mul(-2 * T, cx.expi(2 * fr))
  local g2 = cx.mul(2 * T, cx.exp(cx.new(-bwT, fr)))
  local g3 = math.sqrt(3 + 2 ^ (3 / 2)) * math.sin(fr)
  local g4 = math.sqrt(3 - 2 ^ (3 / 2)) * math.sin(fr)
  local g5 = cx.expi(2 * fr)
  local g = cx.add(g1, cx.mul(g2, math.cos(fr) - g4))
  g = cx.mul(g, cx.add(g1, cx.mul(g2, math.cos(fr) + g4)))
  g = cx.mul(g, cx.add(g1, cx.mul(g2, math.cos(fr) - g3)))
  g = cx.mul(g, cx.add(g1, cx.mul(g2, math.cos(fr) + g3)))
  local d = cx.add(cx.sub(-2 / math.exp(2 * bwT), cx.mul(2, g5)), cx.div(cx.mul(2, cx.add(1, g5)), math.exp(bwT)))
  g = cx.div(g, cx.ipow(d, 4))
  g = cx.abs(g)
  local e = math.exp
  local b = {
    (T ^ 4) / g,
    -4 * T ^ 4 * math.cos(fr) / e(bw * T) / g,
    6 * T ^ 4 * math.cos(2 * fr) / e(2 * bw * T) / g,
    -4 * T ^ 4 * math.cos(3 * fr) / e(3 * bw * T) / g,
    T ^ 4 * math.cos(4 * fr) / e(4 * bw * T) / g,
  }
  local a = {
    1.0,
    -8 * math.cos(fr) / e(bw * T),
    4 * (4 + 3 * math.cos(2 * fr)) / e(2 * bw * T),
    -8 * (6 * math.cos(fr) + math.cos(3 * fr)) / e(3 * bw * T),
    2 * (18 + 16 * math.cos(2 * fr) + math.cos(4 * fr)) / e(4 * bw * T),
    -8 * (6 * math.cos(fr) + math.cos(3 * fr)) / e(5 * bw * T),
    4 * (4 + 3 * math.cos(2 * fr)) / e(6 * bw * T),
    -8 * math.cos(fr) / e(7 * bw * T),
    e(-8 * bw * T),
  }
  return b, a
end

return H
