--- FIR design and partial fractions (cupyx.scipy.signal's firwin,
-- firwin2, firls, minimum_phase, kaiser_beta, kaiser_atten, kaiserord,
-- savgol_coeffs, unique_roots, residue, residuez, invres, invresz). The
-- math runs on the host (host/fir.lua, host/residue.lua); the taps come
-- back as float64 ndarrays.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local R = require("gpuarray.scipy.signal.host.fir")
  local RZ = require("gpuarray.scipy.signal.host.residue")
  local HW = require("gpuarray.scipy.signal.host.windows")
  local U = S.U
  local fail, vec, up, num = U.fail, U.vec, U.up, U.num

  local function name(n) return "scipy.signal." .. n end
  local function nums(v, fname, what)
    local l = vec(v, fname, what)
    for i, x in ipairs(l) do l[i] = num(x, fname, what) end
    return l
  end
  -- the taps are computed one by one in a Lua list and windowed: bounded
  -- as a window is (2^24 points) rather than run for hours
  local function check_numtaps(numtaps, fname)
    if math.type(numtaps) ~= "integer" or numtaps < 1 then fail(fname .. ": numtaps must be a positive integer") end
    if numtaps > HW.MAX_M then
      fail(("%s: numtaps = %d is more than the %d taps the host computes a filter for"):format(fname, numtaps,
        HW.MAX_M))
    end
  end
  local function window_arg(w, fname)
    if type(w) == "table" and not U.is_array(w) and U.is_array(w[2]) then
      return { w[1], vec(w[2], fname, "the window's parameter") }
    end
    return w
  end

  api.def(signal, [[
scipy.signal.kaiser_beta(a: number) -> number
The Kaiser window's beta for a stopband attenuation of a dB.
]], function(a) return R.kaiser_beta(a) end)

  api.def(signal, [[
scipy.signal.kaiser_atten(numtaps: integer, width: number) -> number
The attenuation (dB) of a Kaiser FIR filter of numtaps taps and transition width (fraction of Nyquist).
]], function(numtaps, width) return R.kaiser_atten(numtaps, width) end)

  api.def(signal, [[
scipy.signal.kaiserord(ripple: number, width: number) -> integer, number
The taps and beta of a Kaiser-window FIR filter with ripple dB attenuation and transition width.
]], function(ripple, width) return S.host(name("kaiserord"), R.kaiserord, ripple, width) end)

  api.def(signal, [[
scipy.signal.firwin(numtaps: integer, cutoff: number|array_like, width: number? = nil,
                    window: string|number|list = "hamming", pass_zero: boolean|string = true,
                    scale: boolean = true, nyq: number? = nil, fs: number? = nil) -> ndarray
An FIR filter by the window method: cutoff edges (fractions of fs/2, fs 2
by default), pass_zero true (or "lowpass"/"bandstop") passes DC; width
picks a Kaiser window for that transition width.
]], function(numtaps, cutoff, width, window, pass_zero, scale, nyq, fs)
    local fname = name("firwin")
    check_numtaps(numtaps, fname)
    local c = type(cutoff) == "number" and { cutoff } or nums(cutoff, fname, "cutoff")
    return up(S.host(fname, R.firwin, numtaps, c, width, window_arg(window, fname), pass_zero, scale, nyq, fs),
              "float64")
  end)

  api.def(signal, [[
scipy.signal.firwin2(numtaps: integer, freq: array_like, gain: array_like, nfreqs: integer? = nil,
                     window: string|number|list? = "hamming", nyq: number? = nil,
                     antisymmetric: boolean = false, fs: number? = nil) -> ndarray
An FIR filter by frequency sampling: the gain interpolated between the
points (freq, gain), freq from 0 to fs/2.
]], function(numtaps, freq, gain, nfreqs, window, nyq, antisymmetric, fs)
    local fname = name("firwin2")
    check_numtaps(numtaps, fname)
    -- the response is sampled at nfreqs points on the host (its default
    -- is at most 2^24 + 1 for numtaps within the bound)
    if nfreqs ~= nil and nfreqs > HW.MAX_M + 1 then
      fail(("%s: nfreqs = %d is more than the %d points the host samples a response at"):format(fname, nfreqs,
        HW.MAX_M + 1))
    end
    return up(S.host(fname, R.firwin2, numtaps, nums(freq, fname, "freq"), nums(gain, fname, "gain"), nfreqs,
                     window_arg(window, fname), nyq, antisymmetric, fs), "float64")
  end)

  api.def(signal, [[
scipy.signal.firls(numtaps: integer, bands: array_like, desired: array_like, weight: array_like? = nil,
                   nyq: number? = nil, fs: number? = nil) -> ndarray
A linear-phase FIR filter (numtaps odd) minimising the weighted squared error
to a piecewise-linear response: bands are edge pairs, desired the gains there.
]], function(numtaps, bands, desired, weight, nyq, fs)
    local fname = name("firls")
    local flat = function(v, what)
      if U.is_array(v) then return nums(v:ravel(), fname, what) end
      if type(v) == "table" and type(v[1]) == "table" then
        local o = {}
        for _, r in ipairs(v) do
          if type(r) ~= "table" or U.is_array(r) then
            fail(("%s: %s must be a list of numbers or of pairs"):format(fname, what))
          end
          for _, x in ipairs(r) do o[#o + 1] = num(x, fname, what) end
        end
        return o
      end
      return nums(v, fname, what)
    end
    local w = weight ~= nil and flat(weight, "weight") or nil
    return up(S.host(fname, R.firls, numtaps, flat(bands, "bands"), flat(desired, "desired"), w, nyq, fs), "float64")
  end)

  api.def(signal, [[
scipy.signal.minimum_phase(h: array_like, method: "homomorphic"|"hilbert" = "homomorphic",
                           n_fft: integer? = nil) -> ndarray
The minimum-phase version of a linear-phase FIR filter h (about half its length).
]], function(h, method, n_fft)
    local fname = name("minimum_phase")
    -- the host transforms n_fft points in Lua lists, several times: bounded
    -- as a window is (2^24 points) rather than run for hours
    if n_fft ~= nil and n_fft > HW.MAX_M then
      fail(("%s: n_fft = %d is more than the %d points the host transforms"):format(fname, n_fft, HW.MAX_M))
    end
    local l = vec(h, fname, "h")
    if cx.any_complex(l) then fail(fname .. ": Complex filters not supported") end
    return up(S.host(fname, R.minimum_phase, cx.reals(l), method, n_fft), "float64")
  end)

  api.def(signal, [[
scipy.signal.savgol_coeffs(window_length: integer, polyorder: integer, deriv: integer = 0, delta: number = 1.0,
                           pos: number? = nil, use: "conv"|"dot" = "conv") -> ndarray
The Savitzky-Golay filter coefficients: a least-squares polynomial of degree
polyorder over window_length points, its deriv-th derivative at pos (0-based
within the window, the middle by default; a value, as SciPy's).
]], function(window_length, polyorder, deriv, delta, pos, use)
    return up(S.host(name("savgol_coeffs"), R.savgol_coeffs, window_length, polyorder, deriv, delta, pos, use),
              "float64")
  end)

  ---------------------------------------------------------------------------
  -- partial fractions

  local RTYPE = [["max"|"maximum"|"min"|"minimum"|"avg"|"mean"]]
  local function out_list(l, force_complex)
    return up(l, (force_complex or cx.any_cx(l)) and "complex128" or "float64")
  end

  api.def(signal, ([[
scipy.signal.unique_roots(p: array_like, tol: number = 0.001, rtype: %s = "min") -> ndarray, ndarray
The distinct roots of p (those within tol merged by rtype) and their multiplicities (int64).
]]):format(RTYPE), function(p, tol, rtype)
    local fname = name("unique_roots")
    local u, m = S.host(fname, RZ.unique_roots, vec(p, fname, "p"), tol, rtype)
    return out_list(u), #m > 0 and ga.array(m, "int64") or ga.empty(0, "int64")
  end)

  -- residue / residuez: the host's partial fractions, uploaded
  local function partial_fractions(n, fn, b, a, tol, rtype)
    local fname = name(n)
    local r, p, k = S.host(fname, fn, vec(b, fname, "b"), vec(a, fname, "a"), tol, rtype)
    local complex = cx.any_cx(p)
    return out_list(r, complex), out_list(p, complex), out_list(k)
  end

  api.def(signal, ([[
scipy.signal.residue(b: array_like, a: array_like, tol: number = 0.001, rtype: %s = "avg") -> ndarray, ndarray, ndarray
The partial fractions of b(s)/a(s): residues r, poles p, direct terms k.
]]):format(RTYPE), function(b, a, tol, rtype)
    return partial_fractions("residue", RZ.residue, b, a, tol, rtype)
  end)

  api.def(signal, ([[
scipy.signal.residuez(b: array_like, a: array_like, tol: number = 0.001, rtype: %s = "avg") -> ndarray, ndarray, ndarray
The partial fractions of b(z)/a(z) in powers of z^-1: residues r, poles p, direct terms k.
]]):format(RTYPE), function(b, a, tol, rtype)
    return partial_fractions("residuez", RZ.residuez, b, a, tol, rtype)
  end)

  api.def(signal, ([[
scipy.signal.invres(r: array_like, p: array_like, k: array_like, tol: number = 0.001,
                    rtype: %s = "avg") -> ndarray, ndarray
b(s), a(s) from partial fractions (residues r, poles p, direct terms k).
]]):format(RTYPE), function(r, p, k, tol, rtype)
    local fname = name("invres")
    local b, a = S.host(fname, RZ.invres, vec(r, fname, "r"), vec(p, fname, "p"), vec(k, fname, "k"), tol, rtype)
    return out_list(b), out_list(a)
  end)

  api.def(signal, ([[
scipy.signal.invresz(r: array_like, p: array_like, k: array_like, tol: number = 0.001,
                     rtype: %s = "avg") -> ndarray, ndarray
b(z), a(z) from partial fractions in powers of z^-1.
]]):format(RTYPE), function(r, p, k, tol, rtype)
    local fname = name("invresz")
    local b, a = S.host(fname, RZ.invresz, vec(r, fname, "r"), vec(p, fname, "p"), vec(k, fname, "k"), tol, rtype)
    return out_list(b), out_list(a)
  end)
end
