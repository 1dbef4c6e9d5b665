--- IIR filter design (cupyx.scipy.signal's): the named designs, iirfilter,
-- iirdesign and the order estimates, analog prototypes, frequency
-- transformations, conversions between zpk / (b, a) / sos, and frequency
-- responses. The math is host/*.lua's (small arrays, SciPy's algorithms);
-- these declarations read the arguments, run it and upload the results as
-- SciPy returns them: b, a and sos float64, zeros and poles float64 or
-- complex128, gains Lua numbers, orders Lua integers.
return function(_, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local Z = require("gpuarray.scipy.signal.host.zpk")
  local H = require("gpuarray.scipy.signal.host.iir")
  local F = require("gpuarray.scipy.signal.host.freq")
  local U = S.U
  local fail, vec, up, num = U.fail, U.vec, U.up, U.num

  local function name(n) return "scipy.signal." .. n end

  -- a frequency argument: a number or a list / array of one or two
  local function freqs_arg(w, fname, what)
    if type(w) == "number" then return w end
    local l = vec(w, fname, what)
    for i, v in ipairs(l) do l[i] = num(v, fname, what) end
    if #l == 1 then return l[1] end
    return l
  end
  S.freqs_arg = freqs_arg

  -- a design's host result ({z, p, k}, {b, a} or {sos}) as SciPy returns it
  local function out(res, output)
    if output == "zpk" then return up(res[1]), up(res[2]), cx.re(res[3]) end
    if output == "sos" then return U.up2(res[1], "float64", 6) end
    return up(res[1]), up(res[2])
  end
  S.design_out = out

  local function check_N(N, fname)
    if math.type(N) ~= "integer" or N < 0 then fail(fname .. ": Filter order must be a nonnegative integer") end
  end

  local OUTPUT = [["ba"|"zpk"|"sos"]]
  local BTYPE = [[string]]

  local function iir(fname, N, Wn, rp, rs, btype, analog, ftype, output, fs, norm)
    check_N(N, fname)
    local res = S.host(fname, H.iirfilter, N, freqs_arg(Wn, fname, "Wn"), rp, rs, btype, analog, ftype, output,
                       fs, norm)
    return out(res, output)
  end

  local TAIL = [[
Returns b, a (output "ba"), z, p, k ("zpk": k a number) or sos (an n x 6 array).
Digital frequencies are fractions of Nyquist unless fs is given; analog ones rad/s.]]

  api.def(signal, ([[
scipy.signal.iirfilter(N: integer, Wn: number|array_like, rp: number? = nil, rs: number? = nil,
                       btype: %s = "band", analog: boolean = false, ftype: string = "butter",
                       output: %s = "ba", fs: number? = nil) -> ndarray, ndarray
An IIR filter of order N: ftype "butter", "cheby1" (needs rp), "cheby2" (rs),
"ellip" (rp, rs), "bessel" (also "bessel_phase", "bessel_delay", "bessel_mag").
%s
]]):format(BTYPE, OUTPUT, TAIL), function(N, Wn, rp, rs, btype, analog, ftype, output, fs)
    return iir(name("iirfilter"), N, Wn, rp, rs, btype, analog, ftype, output, fs)
  end)

  api.def(signal, ([[
scipy.signal.butter(N: integer, Wn: number|array_like, btype: %s = "low", analog: boolean = false,
                    output: %s = "ba", fs: number? = nil) -> ndarray, ndarray
A Butterworth filter (maximally flat passband) of order N.
%s
]]):format(BTYPE, OUTPUT, TAIL), function(N, Wn, btype, analog, output, fs)
    return iir(name("butter"), N, Wn, nil, nil, btype, analog, "butter", output, fs)
  end)

  api.def(signal, ([[
scipy.signal.cheby1(N: integer, rp: number, Wn: number|array_like, btype: %s = "low",
                    analog: boolean = false, output: %s = "ba", fs: number? = nil) -> ndarray, ndarray
A Chebyshev type I filter: equiripple passband with rp dB of ripple.
%s
]]):format(BTYPE, OUTPUT, TAIL), function(N, rp, Wn, btype, analog, output, fs)
    return iir(name("cheby1"), N, Wn, rp, nil, btype, analog, "cheby1", output, fs)
  end)

  api.def(signal, ([[
scipy.signal.cheby2(N: integer, rs: number, Wn: number|array_like, btype: %s = "low",
                    analog: boolean = false, output: %s = "ba", fs: number? = nil) -> ndarray, ndarray
A Chebyshev type II filter: equiripple stopband rs dB down.
%s
]]):format(BTYPE, OUTPUT, TAIL), function(N, rs, Wn, btype, analog, output, fs)
    return iir(name("cheby2"), N, Wn, nil, rs, btype, analog, "cheby2", output, fs)
  end)

  api.def(signal, ([[
scipy.signal.ellip(N: integer, rp: number, rs: number, Wn: number|array_like, btype: %s = "low",
                   analog: boolean = false, output: %s = "ba", fs: number? = nil) -> ndarray, ndarray
An elliptic (Cauer) filter: rp dB passband ripple, rs dB stopband attenuation.
%s
]]):format(BTYPE, OUTPUT, TAIL), function(N, rp, rs, Wn, btype, analog, output, fs)
    return iir(name("ellip"), N, Wn, rp, rs, btype, analog, "ellip", output, fs)
  end)

  api.def(signal, ([[
scipy.signal.bessel(N: integer, Wn: number|array_like, btype: %s = "low", analog: boolean = false,
                    output: %s = "ba", norm: "phase"|"delay"|"mag" = "phase", fs: number? = nil) -> ndarray, ndarray
A Bessel/Thomson filter (maximally flat group delay); norm picks what Wn means.
%s
]]):format(BTYPE, OUTPUT, TAIL), function(N, Wn, btype, analog, output, norm, fs)
    return iir(name("bessel"), N, Wn, nil, nil, btype, analog, "bessel", output, fs, norm)
  end)

  api.def(signal, ([[
scipy.signal.iirdesign(wp: number|array_like, ws: number|array_like, gpass: number, gstop: number,
                       analog: boolean = false, ftype: string = "ellip", output: %s = "ba",
                       fs: number? = nil) -> ndarray, ndarray
The lowest-order IIR filter of type ftype that loses at most gpass dB in the
passband edge(s) wp and at least gstop dB at the stopband edge(s) ws.
]]):format(OUTPUT), function(wp, ws, gpass, gstop, analog, ftype, output, fs)
    local fname = name("iirdesign")
    local res = S.host(fname, H.iirdesign, freqs_arg(wp, fname, "wp"), freqs_arg(ws, fname, "ws"), gpass, gstop,
                       analog, ftype, output, fs)
    return out(res, output)
  end)

  for _, f in ipairs({ "buttord", "cheb1ord", "cheb2ord", "ellipord" }) do
    api.def(signal, ([[
scipy.signal.%s(wp: number|array_like, ws: number|array_like, gpass: number, gstop: number,
                analog: boolean = false, fs: number? = nil) -> integer, number|ndarray
The lowest order (and the natural frequency Wn to design with) meeting the
passband loss gpass dB at wp and the stopband attenuation gstop dB at ws.
]]):format(f), function(wp, ws, gpass, gstop, analog, fs)
      local fname = name(f)
      local N, Wn = S.host(fname, H[f], freqs_arg(wp, fname, "wp"), freqs_arg(ws, fname, "ws"), gpass, gstop,
                           analog, fs)
      if type(Wn) == "table" then Wn = up(Wn, "float64") end
      return N, Wn
    end)
  end

  api.def(signal, [[
scipy.signal.band_stop_obj(wp: number, ind: integer, passb: array_like, stopb: array_like, gpass: number,
                           gstop: number, type: "butter"|"cheby"|"ellip") -> number
The band-stop order estimate when passband edge ind (1 or 2, 1-based) moves to wp.
]], function(wp, ind, passb, stopb, gpass, gstop, kind)
    local fname = name("band_stop_obj")
    if ind ~= 1 and ind ~= 2 then fail(fname .. ": ind must be 1 or 2 (1-based)") end
    return S.host(fname, H.band_stop_obj, wp, ind, vec(passb, fname, "passb"), vec(stopb, fname, "stopb"), gpass,
                  gstop, kind)
  end)

  ---------------------------------------------------------------------------
  -- analog prototypes

  local function proto(f, ...)
    local z, p, k = S.host(name(f), Z[f], ...)
    return up(z, "float64"), up(p, "complex128"), k + 0.0
  end
  api.def(signal, [[
scipy.signal.buttap(N: integer) -> ndarray, ndarray, number
The analog Butterworth prototype of order N (cutoff 1 rad/s): z, p, k.
]], function(N) return proto("buttap", N) end)
  api.def(signal, [[
scipy.signal.cheb1ap(N: integer, rp: number) -> ndarray, ndarray, number
The analog Chebyshev type I prototype: z, p, k.
]], function(N, rp) return proto("cheb1ap", N, rp) end)
  api.def(signal, [[
scipy.signal.cheb2ap(N: integer, rs: number) -> ndarray, ndarray, number
The analog Chebyshev type II prototype: z, p, k (zeros complex).
]], function(N, rs)
    local z, p, k = S.host(name("cheb2ap"), Z.cheb2ap, N, rs)
    return up(z, "complex128"), up(p, "complex128"), k + 0.0
  end)
  api.def(signal, [[
scipy.signal.ellipap(N: integer, rp: number, rs: number) -> ndarray, ndarray, number
The analog elliptic prototype: z, p, k.
]], function(N, rp, rs)
    local z, p, k = S.host(name("ellipap"), Z.ellipap, N, rp, rs)
    return up(z, "complex128"), up(p, N == 1 and "float64" or "complex128"), k + 0.0
  end)
  api.def(signal, [[
scipy.signal.besselap(N: integer, norm: "phase"|"delay"|"mag" = "phase") -> ndarray, ndarray, number
The analog Bessel prototype: z, p, k.
]], function(N, norm) return proto("besselap", N, norm) end)

  ---------------------------------------------------------------------------
  -- transformations

  local function zpk_in(z, p, k, fname)
    return vec(z, fname, "z"), vec(p, fname, "p"), num(k, fname, "k")
  end
  local function zpk_out(z, p, k)
    local complex = cx.any_cx(z) or cx.any_cx(p)
    return up(z, complex and "complex128" or nil), up(p, complex and "complex128" or nil), cx.re(k)
  end

  for _, f in ipairs({ "lp2lp_zpk", "lp2hp_zpk" }) do
    api.def(signal, ([[
scipy.signal.%s(z: array_like, p: array_like, k: number, wo: number = 1.0) -> ndarray, ndarray, number
Transform a lowpass prototype (zeros, poles, gain) to a %s filter with cutoff wo.
]]):format(f, f == "lp2lp_zpk" and "lowpass" or "highpass"), function(z, p, k, wo)
      local fname = name(f)
      local zz, pp, kk = zpk_in(z, p, k, fname)
      return zpk_out(S.host(fname, Z[f], zz, pp, kk, wo))
    end)
  end
  for _, f in ipairs({ "lp2bp_zpk", "lp2bs_zpk" }) do
    api.def(signal, ([[
scipy.signal.%s(z: array_like, p: array_like, k: number, wo: number = 1.0, bw: number = 1.0) -> ndarray, ndarray, number
Transform a lowpass prototype to a band-%s filter centred on wo, bandwidth bw.
]]):format(f, f == "lp2bp_zpk" and "pass" or "stop"), function(z, p, k, wo, bw)
      local fname = name(f)
      local zz, pp, kk = zpk_in(z, p, k, fname)
      local rz, rp, rk = S.host(fname, Z[f], zz, pp, kk, wo, bw)
      return up(rz, "complex128"), up(rp, "complex128"), rk
    end)
  end
  api.def(signal, [[
scipy.signal.bilinear_zpk(z: array_like, p: array_like, k: number, fs: number) -> ndarray, ndarray, number
The bilinear transform of an analog filter's zeros, poles and gain (s -> 2 fs (z - 1)/(z + 1)).
]], function(z, p, k, fs)
    local fname = name("bilinear_zpk")
    local zz, pp, kk = zpk_in(z, p, k, fname)
    return zpk_out(S.host(fname, Z.bilinear_zpk, zz, pp, kk, fs))
  end)

  local function ba_in(b, a, fname)
    return vec(b, fname, "b"), vec(a, fname, "a")
  end
  for _, f in ipairs({ "lp2lp", "lp2hp" }) do
    api.def(signal, ([[
scipy.signal.%s(b: array_like, a: array_like, wo: number = 1.0) -> ndarray, ndarray
Transform a lowpass transfer function b, a to a %s one with cutoff wo.
]]):format(f, f == "lp2lp" and "lowpass" or "highpass"), function(b, a, wo)
      local fname = name(f)
      local bb, aa = ba_in(b, a, fname)
      local rb, ra = S.host(fname, Z[f], bb, aa, wo)
      return up(rb), up(ra)
    end)
  end
  for _, f in ipairs({ "lp2bp", "lp2bs" }) do
    api.def(signal, ([[
scipy.signal.%s(b: array_like, a: array_like, wo: number = 1.0, bw: number = 1.0) -> ndarray, ndarray
Transform a lowpass transfer function to a band-%s one centred on wo, bandwidth bw.
]]):format(f, f == "lp2bp" and "pass" or "stop"), function(b, a, wo, bw)
      local fname = name(f)
      local bb, aa = ba_in(b, a, fname)
      local rb, ra = S.host(fname, Z[f], bb, aa, wo, bw)
      return up(rb), up(ra)
    end)
  end
  api.def(signal, [[
scipy.signal.bilinear(b: array_like, a: array_like, fs: number = 1.0) -> ndarray, ndarray
The bilinear transform of an analog transfer function b, a to a digital one.
]], function(b, a, fs)
    local fname = name("bilinear")
    local bb, aa = ba_in(b, a, fname)
    local rb, ra = S.host(fname, Z.bilinear, bb, aa, fs)
    return up(rb, "float64"), up(ra, "float64")
  end)

  ---------------------------------------------------------------------------
  -- conversions

  -- b as a list (1-D) or a list of rows (2-D)
  local function num_in(b, fname)
    if U.is_array(b) and b.ndim == 2 then return U.mat(b, fname, "b"), true end
    if type(b) == "table" and not U.is_array(b) and type(b[1]) == "table" and #b[1] ~= 2 then
      return U.mat(b, fname, "b"), true
    end
    return vec(b, fname, "b"), false
  end
  S.num_in = num_in

  api.def(signal, [[
scipy.signal.normalize(b: array_like, a: array_like) -> ndarray, ndarray
Normalize a transfer function: a's leading zeros dropped, a[1] made 1, b's
leading zero coefficients dropped. b may be 2-D (one numerator per row).
]], function(b, a)
    local fname = name("normalize")
    local bb, rows = num_in(b, fname)
    local nb, na = S.host(fname, Z.normalize, bb, vec(a, fname, "a"))
    return rows and U.up2(nb) or up(nb), up(na)
  end)

  api.def(signal, [[
scipy.signal.zpk2tf(z: array_like, p: array_like, k: number|array_like) -> ndarray, ndarray
Zeros, poles and gain to the transfer function's b, a (real when the roots come in conjugate pairs).
]], function(z, p, k)
    local fname = name("zpk2tf")
    local zz, rows
    if U.is_array(z) and z.ndim == 2 then zz, rows = U.mat(z, fname, "z"), true else zz = vec(z, fname, "z") end
    -- (SciPy's IndexError on z[0])
    if rows and #zz == 0 then fail(fname .. ": a 2-D z must have at least one row") end
    local kk = type(k) == "number" and k or vec(k, fname, "k")
    if type(kk) == "table" and #kk == 1 then kk = kk[1] end
    -- several gains: one per row of a 2-D z
    if type(kk) == "table" and not (rows and #kk == #zz) then
      fail(("%s: k must be a number, or one gain per row of a 2-D z (got %d gains)"):format(fname, #kk))
    end
    local b, a = S.host(fname, Z.zpk2tf, zz, vec(p, fname, "p"), kk)
    return rows and U.up2(b) or up(b), up(a)
  end)

  api.def(signal, [[
scipy.signal.tf2zpk(b: array_like, a: array_like) -> ndarray, ndarray, number
A transfer function's zeros, poles and gain.
]], function(b, a)
    local fname = name("tf2zpk")
    local z, p, k = S.host(fname, Z.tf2zpk, ba_in(b, a, fname))
    return up(z), up(p), cx.re(k)
  end)

  local PAIRING = [["nearest"|"keep_odd"|"minimal"?]]
  api.def(signal, ([[
scipy.signal.zpk2sos(z: array_like, p: array_like, k: number, pairing: %s = nil, *, analog: boolean = false) -> ndarray
Zeros, poles and gain to second-order sections (n x 6: b0 b1 b2 1 a1 a2).
pairing: "nearest" (digital default), "keep_odd", "minimal" (analog's).
]]):format(PAIRING), function(z, p, k, pairing, analog)
    local fname = name("zpk2sos")
    local zz, pp, kk = zpk_in(z, p, k, fname)
    return U.up2(S.host(fname, Z.zpk2sos, zz, pp, kk, pairing, analog), "float64", 6)
  end)

  api.def(signal, ([[
scipy.signal.tf2sos(b: array_like, a: array_like, pairing: %s = nil, *, analog: boolean = false) -> ndarray
A transfer function to second-order sections.
]]):format(PAIRING), function(b, a, pairing, analog)
    local fname = name("tf2sos")
    local bb, aa = ba_in(b, a, fname)
    return U.up2(S.host(fname, Z.tf2sos, bb, aa, pairing, analog), "float64", 6)
  end)

  -- an sos argument as host rows (checked as SciPy's _validate_sos)
  local function sos_in(sos, fname)
    local rows = U.mat(sos, fname, "sos")
    for _, r in ipairs(rows) do
      if #r ~= 6 then fail(fname .. ": sos array must be shape (n_sections, 6)") end
    end
    return rows
  end
  S.sos_in = sos_in

  api.def(signal, [[
scipy.signal.sos2tf(sos: array_like) -> ndarray, ndarray
Second-order sections to one transfer function b, a.
]], function(sos)
    local fname = name("sos2tf")
    local b, a = S.host(fname, Z.sos2tf, sos_in(sos, fname))
    return up(b), up(a)
  end)

  api.def(signal, [[
scipy.signal.sos2zpk(sos: array_like) -> ndarray, ndarray, number
Second-order sections to zeros, poles (2 per section, complex128) and gain.
]], function(sos)
    local fname = name("sos2zpk")
    local z, p, k = S.host(fname, Z.sos2zpk, sos_in(sos, fname))
    return up(z, "complex128"), up(p, "complex128"), k
  end)

  ---------------------------------------------------------------------------
  -- notch, peak, comb, gammatone

  api.def(signal, [[
scipy.signal.iirnotch(w0: number, Q: number, fs: number = 2.0) -> ndarray, ndarray
A second-order notch filter at w0 with quality factor Q.
]], function(w0, Q, fs)
    local b, a = S.host(name("iirnotch"), H.iirnotch, w0, Q, fs)
    return up(b), up(a)
  end)
  api.def(signal, [[
scipy.signal.iirpeak(w0: number, Q: number, fs: number = 2.0) -> ndarray, ndarray
A second-order peak (resonator) filter at w0 with quality factor Q.
]], function(w0, Q, fs)
    local b, a = S.host(name("iirpeak"), H.iirpeak, w0, Q, fs)
    return up(b), up(a)
  end)
  api.def(signal, [[
scipy.signal.iircomb(w0: number, Q: number, ftype: "notch"|"peak" = "notch", fs: number = 2.0, *,
                     pass_zero: boolean = false) -> ndarray, ndarray
A comb filter: notches (or peaks) at the multiples of w0 (fs must be a multiple of w0).
]], function(w0, Q, ftype, fs, pass_zero)
    local b, a = S.host(name("iircomb"), H.iircomb, w0, Q, ftype, fs, pass_zero)
    return up(b), up(a)
  end)
  api.def(signal, [[
scipy.signal.gammatone(freq: number, ftype: "fir"|"iir", order: integer? = nil, numtaps: integer? = nil,
                       fs: number? = nil) -> ndarray, ndarray
A gammatone filter (auditory models) centred on freq, FIR or IIR.
]], function(freq, ftype, order, numtaps, fs)
    local b, a = S.host(name("gammatone"), H.gammatone, freq, ftype, order, numtaps, fs)
    return up(b, "float64"), up(a, "float64")
  end)

  ---------------------------------------------------------------------------
  -- frequency responses

  local WORN = "integer|array_like"
  local function worn(w, fname)
    if w == nil or type(w) == "number" then
      if type(w) == "number" and math.type(w) ~= "integer" then return { w } end
      return w
    end
    local l = vec(w, fname, "worN")
    for i, v in ipairs(l) do l[i] = num(v, fname, "worN") end
    return l
  end

  api.def(signal, ([[
scipy.signal.freqz(b: array_like, a: array_like = 1, worN: %s = 512, whole: boolean = false,
                   plot: callable? = nil, fs: number = 6.283185307179586,
                   include_nyquist: boolean = false) -> ndarray, ndarray
The frequency response of a digital filter: w (in fs units) and h (complex128).
worN: a number of points over [0, fs/2) (whole: [0, fs)) or the frequencies.
plot, if given, is called with w, h.
]]):format(WORN), function(b, a, worN, whole, plot, fs, include_nyquist)
    local fname = name("freqz")
    local bb, aa = ba_in(b, a, fname)
    local w, h = S.host(fname, F.freqz, bb, aa, worn(worN, fname), whole, fs, include_nyquist)
    local wa, ha = up(w, "float64"), up(h, "complex128")
    if plot then api.call_user(plot, wa, ha) end
    return wa, ha
  end)

  api.def(signal, ([[
scipy.signal.freqz_zpk(z: array_like, p: array_like, k: number, worN: %s = 512, whole: boolean = false,
                       fs: number = 6.283185307179586) -> ndarray, ndarray
The frequency response of a digital filter given as zeros, poles and gain.
]]):format(WORN), function(z, p, k, worN, whole, fs)
    local fname = name("freqz_zpk")
    local zz, pp, kk = zpk_in(z, p, k, fname)
    local w, h = S.host(fname, F.freqz_zpk, zz, pp, kk, worn(worN, fname), whole, fs)
    return up(w, "float64"), up(h, "complex128")
  end)

  api.def(signal, ([[
scipy.signal.freqz_sos(sos: array_like, worN: %s = 512, whole: boolean = false,
                       fs: number = 6.283185307179586) -> ndarray, ndarray
The frequency response of second-order sections (the product of the sections').
]]):format(WORN), function(sos, worN, whole, fs)
    local fname = name("freqz_sos")
    local rows = sos_in(sos, fname)
    for _, r in ipairs(rows) do
      if r[4] ~= 1 then fail(fname .. ": sos[:, 3] should be all ones") end
    end
    local w, h = S.host(fname, F.sosfreqz, rows, worn(worN, fname), whole, fs)
    return up(w, "float64"), up(h, "complex128")
  end)
  signal.sosfreqz = signal.freqz_sos
  api.alias("scipy.signal.sosfreqz", signal.freqz_sos)

  api.def(signal, ([[
scipy.signal.freqs(b: array_like, a: array_like, worN: %s = 200, plot: callable? = nil) -> ndarray, ndarray
The frequency response of an analog filter b(s)/a(s): w (rad/s) and h. An
integer worN picks that many frequencies around the poles and zeros (findfreqs).
]]):format(WORN), function(b, a, worN, plot)
    local fname = name("freqs")
    local bb, aa = ba_in(b, a, fname)
    local w, h = S.host(fname, F.freqs, bb, aa, worn(worN, fname))
    local wa, ha = up(w, "float64"), up(h, "complex128")
    if plot then api.call_user(plot, wa, ha) end
    return wa, ha
  end)

  api.def(signal, ([[
scipy.signal.freqs_zpk(z: array_like, p: array_like, k: number, worN: %s = 200) -> ndarray, ndarray
The frequency response of an analog filter given as zeros, poles and gain.
]]):format(WORN), function(z, p, k, worN)
    local fname = name("freqs_zpk")
    local zz, pp, kk = zpk_in(z, p, k, fname)
    local w, h = S.host(fname, F.freqs_zpk, zz, pp, kk, worn(worN, fname))
    return up(w, "float64"), up(h, "complex128")
  end)

  api.def(signal, [[
scipy.signal.findfreqs(num: array_like, den: array_like, N: integer, kind: "ba"|"zp" = "ba") -> ndarray
N log-spaced frequencies that show an analog filter's response (around its poles and zeros).
]], function(numr, den, N, kind)
    local fname = name("findfreqs")
    return up(S.host(fname, F.findfreqs, vec(numr, fname, "num"), vec(den, fname, "den"), N, kind), "float64")
  end)

  api.def(signal, ([[
scipy.signal.group_delay(system: list, w: %s = 512, whole: boolean = false,
                         fs: number = 6.283185307179586) -> ndarray, ndarray
The group delay of a digital filter system = {b, a}: w and the delay in
samples (0 where the response is singular, as SciPy).
]]):format(WORN), function(system, w, whole, fs)
    local fname = name("group_delay")
    if #system ~= 2 then fail(fname .. ": system must be {b, a}") end
    local bb, aa = ba_in(system[1], system[2], fname)
    local rw, gd = S.host(fname, F.group_delay, bb, aa, worn(w, fname), whole, fs)
    return up(rw, "float64"), up(gd, "float64")
  end)
end
