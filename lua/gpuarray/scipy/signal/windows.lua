--- scipy.signal.windows (cupyx.scipy.signal.windows): every window and
-- get_window. The numbers are computed on the host (host/windows.lua: a
-- window has at most a few thousand points and is made once per design)
-- and uploaded as one float64 array, as SciPy returns them.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local U = require("gpuarray.scipy.signal.util")(ga)
  local HW = require("gpuarray.scipy.signal.host.windows")
  local fail = U.fail
  local windows = {}
  signal.windows = windows

  -- the host computes a window point by point into a Lua list: bound it
  -- (2^24 points, 128 MiB as float64) rather than run for hours
  local MAX_M = HW.MAX_M
  local MAX_DPSS_WORK = HW.MAX_DPSS_WORK
  local function check_M(M, fname)
    if math.type(M) ~= "integer" or M < 0 then
      fail(fname .. ": Window length M must be a non-negative integer")
    end
    if M > MAX_M then
      fail(("%s: Window length M = %d is more than the %d points a window is computed for"):format(fname, M, MAX_M))
    end
  end

  -- the windows with no parameter but M and sym
  local PLAIN = {
    boxcar = "The boxcar (rectangular) window: all ones.",
    triang = "The triangular window (its ends are not zero, unlike bartlett's).",
    parzen = "The Parzen window (piecewise cubic, de la Vallee Poussin).",
    bohman = "The Bohman window (a cosine convolved with itself).",
    blackman = "The Blackman window (three cosine terms 0.42, 0.5, 0.08).",
    nuttall = "Nuttall's minimum 4-term Blackman-Harris window.",
    blackmanharris = "The minimum 4-term Blackman-Harris window.",
    flattop = "The flat top window (5 cosine terms: amplitude-accurate spectra).",
    bartlett = "The Bartlett window: triangular, zero at both ends.",
    hann = "The Hann window: 0.5 - 0.5 cos, zero at both ends.",
    hamming = "The Hamming window: 0.54 - 0.46 cos.",
    barthann = "The modified Bartlett-Hann window.",
    cosine = "The cosine (sine) window: sin(pi (n + 1/2) / M).",
  }
  local SUFFIX = "\nsym false gives the periodic window (for spectral analysis): M + 1 symmetric points"
    .. " without the last."
  for name, doc in pairs(PLAIN) do
    api.def(windows, ("scipy.signal.windows.%s(M: integer, sym: boolean = true) -> ndarray\n%s%s\n")
      :format(name, doc, SUFFIX), function(M, sym)
        check_M(M, "scipy.signal.windows." .. name)
        return U.up(HW[name](M, sym), "float64")
      end)
  end

  api.def(windows, [[
scipy.signal.windows.lanczos(M: integer, *, sym: boolean = true) -> ndarray
The Lanczos (sinc) window: sinc(2n/(M-1) - 1).
]], function(M, sym)
    check_M(M, "scipy.signal.windows.lanczos")
    return U.up(HW.lanczos(M, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.general_cosine(M: integer, a: array_like, sym: boolean = true) -> ndarray
A weighted sum of cosine terms: sum over k of a[k] cos(k x), x from -pi to pi.
]], function(M, a, sym)
    check_M(M, "scipy.signal.windows.general_cosine")
    local list = U.vec(a, "scipy.signal.windows.general_cosine", "a")
    for i, v in ipairs(list) do list[i] = U.num(v, "scipy.signal.windows.general_cosine", "a") end
    return U.up(HW.general_cosine(M, list, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.general_hamming(M: integer, alpha: number, sym: boolean = true) -> ndarray
The generalized Hamming window: alpha - (1 - alpha) cos.
]], function(M, alpha, sym)
    check_M(M, "scipy.signal.windows.general_hamming")
    return U.up(HW.general_hamming(M, alpha, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.tukey(M: integer, alpha: number = 0.5, sym: boolean = true) -> ndarray
The Tukey (tapered cosine) window: alpha 0 is a boxcar, 1 a Hann window.
]], function(M, alpha, sym)
    check_M(M, "scipy.signal.windows.tukey")
    return U.up(HW.tukey(M, alpha, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.kaiser(M: integer, beta: number, sym: boolean = true) -> ndarray
The Kaiser window: I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta).
]], function(M, beta, sym)
    check_M(M, "scipy.signal.windows.kaiser")
    return U.up(HW.kaiser(M, beta, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.kaiser_bessel_derived(M: integer, beta: number, *, sym: boolean = true) -> ndarray
The Kaiser-Bessel derived window (MDCT): symmetric only, M even.
]], function(M, beta, sym)
    local fname = "scipy.signal.windows.kaiser_bessel_derived"
    check_M(M, fname)
    if not sym then fail(fname .. ": Kaiser-Bessel Derived windows are only defined for symmetric shapes") end
    if M >= 1 and M % 2 == 1 then
      fail(fname .. ": Kaiser-Bessel Derived windows are only defined for even number of points")
    end
    return U.up(HW.kaiser_bessel_derived(M, beta), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.gaussian(M: integer, std: number, sym: boolean = true) -> ndarray
The Gaussian window exp(-n^2 / (2 std^2)), n from the middle.
]], function(M, std, sym)
    check_M(M, "scipy.signal.windows.gaussian")
    return U.up(HW.gaussian(M, std, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.general_gaussian(M: integer, p: number, sig: number, sym: boolean = true) -> ndarray
The generalized Gaussian window exp(-|n / sig|^(2p) / 2).
]], function(M, p, sig, sym)
    check_M(M, "scipy.signal.windows.general_gaussian")
    return U.up(HW.general_gaussian(M, p, sig, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.chebwin(M: integer, at: number, sym: boolean = true) -> ndarray
The Dolph-Chebyshev window: equiripple sidelobes at attenuation `at` dB.
]], function(M, at, sym)
    check_M(M, "scipy.signal.windows.chebwin")
    return U.up(S.host("scipy.signal.windows.chebwin", HW.chebwin, M, at, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.exponential(M: integer, center: number? = nil, tau: number = 1.0, sym: boolean = true) -> ndarray
The exponential (Poisson) window exp(-|n - center| / tau); center nil: the middle.
]], function(M, center, tau, sym)
    local fname = "scipy.signal.windows.exponential"
    if sym and center ~= nil then fail(fname .. ": If sym==True, center must be None.") end
    check_M(M, fname)
    return U.up(HW.exponential(M, center, tau, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.taylor(M: integer, nbar: integer = 4, sll: number = 30, norm: boolean = true,
                            sym: boolean = true) -> ndarray
The Taylor window (radar): nbar nearly constant sidelobes sll dB below the peak.
]], function(M, nbar, sll, norm, sym)
    check_M(M, "scipy.signal.windows.taylor")
    return U.up(S.host("scipy.signal.windows.taylor", HW.taylor, M, nbar, sll, norm, sym), "float64")
  end)

  api.def(windows, [[
scipy.signal.windows.dpss(M: integer, NW: number, Kmax: integer? = nil, sym: boolean = true,
                          norm: integer|"approximate"|"subsample"? = nil,
                          return_ratios: boolean = false) -> ndarray[, ndarray]
Discrete prolate spheroidal (Slepian) sequences: the Kmax most concentrated
windows of half-bandwidth NW (one 1-D window when Kmax is nil, else Kmax x M).
return_ratios adds their concentration ratios.
]], function(M, NW, Kmax, sym, norm, return_ratios)
    local fname = "scipy.signal.windows.dpss"
    check_M(M, fname)
    if M <= 1 then return U.up(HW.boxcar(M, true), "float64") end
    if norm == nil then norm = Kmax == nil and "approximate" or 2 end
    if norm ~= 2 and norm ~= "approximate" and norm ~= "subsample" then
      fail(("%s: norm must be one of (2, 'approximate', 'subsample'), got %s"):format(fname, tostring(norm)))
    end
    local singleton = Kmax == nil
    local K = Kmax or 1
    if not (K > 0 and K <= M) then fail(fname .. ": Kmax must be greater than 0 and less than M") end
    if NW >= M / 2 then fail(fname .. ": NW must be less than M/2.") end
    if NW <= 0 then fail(fname .. ": NW must be positive") end
    -- the host eigensolver's work grows as M * Kmax: bounded (host/windows.lua)
    if M * K > MAX_DPSS_WORK then
      fail(("%s: M * Kmax = %d * %d is more than the %d this host eigensolver computes"):format(fname, M, K,
        MAX_DPSS_WORK))
    end
    local wins, ratios = HW.dpss(M, NW, K, sym, norm, return_ratios)
    local w = singleton and U.up(wins[1], "float64") or U.up2(wins, "float64")
    if not return_ratios then return w end
    return w, singleton and ratios[1] or U.up(ratios, "float64")
  end)

  --- The host list of get_window(window, Nx, fftbins) (spectral.lua and
  -- the FIR design use it too); S is signal's private table
  function S.window_host(window, Nx, fftbins, fname)
    check_M(Nx, fname)
    if U.is_array(window) then fail(fname .. ": window must be a name, a number or a list") end
    if type(window) == "table" and U.is_array(window[2]) then
      window = { window[1], U.vec(window[2], fname, "the window's parameter") }
    end
    return S.host(fname, HW.get_window, window, Nx, fftbins)
  end

  api.def(windows, [[
scipy.signal.windows.get_window(window: string|number|list, Nx: integer, fftbins: boolean = true) -> ndarray
A window by name: "hann", a number (a Kaiser window's beta), or a list
{"kaiser", 8.6} of a name and its parameters. fftbins true (the default)
gives the periodic window, false the symmetric one.
]], function(window, Nx, fftbins)
    return U.up(S.window_host(window, Nx, fftbins, "scipy.signal.windows.get_window"), "float64")
  end)
  signal.get_window = windows.get_window
  api.alias("scipy.signal.get_window", windows.get_window)

  return windows
end
