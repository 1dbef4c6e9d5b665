--- The chirp z-transform (cupyx.scipy.signal's czt, zoom_fft, CZT, ZoomFFT,
-- czt_points): Bluestein's algorithm, X_k = sum_j x_j A^-j W^(jk), as one
-- elementwise product, an FFT, a product with the chirp's spectrum (made
-- once per transform object), an inverse FFT and a product, over the last
-- axis in batches (ga.fft). The chirps are computed on the host.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local U = S.U
  local fail = U.fail

  local function name(n) return "scipy.signal." .. n end
  local pi = math.pi

  local function cplx(v, fname, what)
    if v == nil then return nil end
    return U.scalar(v, fname, what)
  end

  local MAX_POINTS = 1 << 24
  local function sizes(n, m, fname)
    if math.type(n) ~= "integer" or n < 1 then
      fail(("%s: Invalid number of CZT data points (%s) specified. n must be positive and integer type.")
        :format(fname, tostring(n)))
    end
    -- the chirps and points are computed on the host, point by point into
    -- Lua lists: bounded (2^24 points) rather than run for hours
    if n > MAX_POINTS then
      fail(("%s: n = %d is more than the %d points the host computes chirps for"):format(fname, n, MAX_POINTS))
    end
    if m == nil then return n end
    if math.type(m) ~= "integer" or m < 1 then
      fail(("%s: Invalid number of CZT output points (%s) specified. m must be positive and integer type.")
        :format(fname, tostring(m)))
    end
    if m > MAX_POINTS then
      fail(("%s: m = %d is more than the %d points the host computes chirps for"):format(fname, m, MAX_POINTS))
    end
    return m
  end

  -- w^e for a complex (or real) w and a real e: exp(e log w), principal log
  local function cpow(w, e)
    if type(w) == "number" and w > 0 then return w ^ e end
    return cx.exp(cx.mul(cx.log(w), e))
  end

  local Transform = {}
  local METHODS = {}
  Transform.__index = METHODS

  -- the device arrays of a transform: Awk2 (n), the chirp's spectrum (nfft), wk2 (m)
  local function setup(obj, Awk2, wk2)
    local n, m = obj.n, obj.m
    local nfft = S.fast_len(n + m - 1)
    local chirp = {}
    for i = n, 2, -1 do chirp[#chirp + 1] = cx.div(1, wk2[i]) end
    for i = 1, m do chirp[#chirp + 1] = cx.div(1, wk2[i]) end
    local spec = ga.fft.fft(U.up(chirp, "complex128"), nfft)
    local wm = {}
    for i = 1, m do wm[i] = wk2[i] end
    rawset(obj, "_dev", { Awk2 = U.up(Awk2, "complex128"), F = spec, wk2 = U.up(wm, "complex128"), nfft = nfft })
    return obj
  end

  local function new_czt(n, m, w, a, fname)
    m = sizes(n, m, fname)
    a = cplx(a, fname, "a") or 1.0
    w = cplx(w, fname, "w")
    local K = math.max(m, n)
    local wk2 = {}
    if w == nil then
      w = cx.exp(cx.new(0, -2 * pi / m))
      for k = 0, K - 1 do wk2[k + 1] = cx.exp(cx.new(0, -pi * ((k * k) % (2 * m)) / m)) end
    else
      for k = 0, K - 1 do wk2[k + 1] = cx.from(cpow(w, k * k / 2.0)) end
    end
    local Awk2 = {}
    -- A^-k as NumPy's complex power computes it: by squaring while |k| < 100,
    -- exp(-k log A) past that (one step a point, not log2 k of them)
    local ca, log_a = cx.from(a), cx.log(cx.from(a))
    for k = 0, n - 1 do
      local apow = k < 100 and cx.ipow(ca, -k) or cx.exp(cx.mul(log_a, -k))
      Awk2[k + 1] = cx.mul(apow, wk2[k + 1])
    end
    local obj = setmetatable({ n = n, m = m, w = w, a = a }, Transform)
    return setup(obj, Awk2, wk2)
  end

  local function new_zoom(n, fn, m, fs, endpoint, fname)
    m = sizes(n, m, fname)
    local f1, f2
    if type(fn) == "number" then f1, f2 = 0.0, fn
    elseif type(fn) == "table" and rawlen(fn) == 2 then f1, f2 = rawget(fn, 1), rawget(fn, 2)
    elseif type(fn) == "table" and rawlen(fn) == 1 then f1, f2 = 0.0, rawget(fn, 1)
    else fail(fname .. ": fn must be a scalar or 2-length sequence") end
    -- (the frequencies are host numbers: a typed scalar is read, {re, im} refused)
    local function freq(f)
      f = U.scalar(f, fname, "fn")
      if type(f) ~= "number" then fail(fname .. ": fn must hold real frequencies") end
      return f
    end
    f1, f2 = freq(f1), freq(f2)
    local scale
    if endpoint then scale = ((f2 - f1) * m) / (fs * (m - 1)) else scale = (f2 - f1) / fs end
    local K = math.max(m, n)
    local wk2 = {}
    for k = 0, K - 1 do wk2[k + 1] = cx.exp(cx.new(0, -pi * scale * k * k / m)) end
    local Awk2 = {}
    for k = 0, n - 1 do Awk2[k + 1] = cx.mul(cx.exp(cx.new(0, -2 * pi * f1 / fs * k)), wk2[k + 1]) end
    local obj = setmetatable({ n = n, m = m, f1 = f1, f2 = f2, fs = fs, w = cx.exp(cx.new(0, -2 * pi / m * scale)),
                               a = cx.exp(cx.new(0, 2 * pi * f1 / fs)) }, Transform)
    return setup(obj, Awk2, wk2)
  end

  local function apply(obj, x, axis, fname)
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    if x.shape[ax] ~= obj.n then
      fail(("%s: CZT defined for length %d, not %d"):format(fname, obj.n, x.shape[ax]))
    end
    local d = rawget(obj, "_dev")
    local xl, back = U.axis_last(x, ax)
    local dt = (x.dtype == "float32" or x.dtype == "complex64") and "complex64" or "complex128"
    local A, F, wk = U.cast(d.Awk2, dt), U.cast(d.F, dt), U.cast(d.wk2, dt)
    local X = ga.fft.fft(U.cast(xl, dt) * A, d.nfft)
    local y = ga.fft.ifft(X * F)
    local key = {}
    for i = 1, y.ndim - 1 do key[i] = {} end
    key[y.ndim] = { obj.n, obj.n + obj.m - 1 }
    return back(y[key] * wk)
  end

  api.def(METHODS, [[
scipy.signal.CZT:points() -> ndarray
The points of the z-plane the transform samples: A W^-k, k = 0 .. m - 1.
]], function(self)
    return signal.czt_points(self.m, { cx.re(self.w), cx.im(self.w) }, { cx.re(self.a), cx.im(self.a) })
  end)
  api.def(METHODS, [[
scipy.signal.CZT:transform(x: array_like, *, axis: integer = -1) -> ndarray
Apply the transform along axis (x's length there must be n); calling the object is the same.
]], function(self, x, axis) return apply(self, x, axis, "scipy.signal.CZT") end)
  Transform.__call = function(self, ...) return METHODS.transform(self, ...) end
  Transform.__tostring = function(self) return ("CZT(n=%d, m=%d)"):format(self.n, self.m) end
  api.class("scipy.signal.CZT", METHODS)
  -- "CZT" is what the constructors return, "scipy.signal.CZT" the methods' self
  local function is_czt(v) return getmetatable(v) == Transform end
  api.set_type("CZT", is_czt)
  api.set_type("scipy.signal.CZT", is_czt)

  api.def(signal, [[
scipy.signal.CZT(n: integer, m: integer? = nil, w: scalar? = nil, a: scalar = 1) -> CZT
A chirp z-transform of n points to m (n by default) along the spiral
A W^-k (w: W, the unit circle's m-th root by default; a: A); call it with
an array (t(x) or t(x, {axis =})).
]], function(n, m, w, a) return new_czt(n, m, w, a, name("CZT")) end)

  api.def(signal, [[
scipy.signal.ZoomFFT(n: integer, fn: number|list, m: integer? = nil, *, fs: number = 2,
                     endpoint: boolean = false) -> CZT
A zoom FFT: the spectrum of n points at m frequencies over [f1, f2) (fn =
{f1, f2}, or f2 alone from 0), fs the sampling frequency; call it as a CZT.
]], function(n, fn, m, fs, endpoint) return new_zoom(n, fn, m, fs, endpoint, name("ZoomFFT")) end)

  api.def(signal, [[
scipy.signal.czt(x: array_like, m: integer? = nil, w: scalar? = nil, a: scalar = 1, *, axis: integer = -1) -> ndarray
The chirp z-transform of x along axis (CZT(n, m, w, a)(x)).
]], function(x, m, w, a, axis)
    local fname = name("czt")
    local xa = U.arr(x, fname, "x")
    if xa.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local t = new_czt(xa.shape[U.axis(axis, xa.ndim, fname)], m, w, a, fname)
    return apply(t, xa, axis, fname)
  end)

  api.def(signal, [[
scipy.signal.zoom_fft(x: array_like, fn: number|list, m: integer? = nil, *, fs: number = 2, endpoint: boolean = false,
                      axis: integer = -1) -> ndarray
The spectrum of x along axis at m frequencies over fn (ZoomFFT).
]], function(x, fn, m, fs, endpoint, axis)
    local fname = name("zoom_fft")
    local xa = U.arr(x, fname, "x")
    if xa.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local t = new_zoom(xa.shape[U.axis(axis, xa.ndim, fname)], fn, m, fs, endpoint, fname)
    return apply(t, xa, axis, fname)
  end)

  api.def(signal, [[
scipy.signal.czt_points(m: integer, w: scalar? = nil, a: scalar = 1) -> ndarray
The m points of the z-plane a chirp z-transform samples (complex128).
]], function(m, w, a)
    local fname = name("czt_points")
    m = sizes(1, m, fname)
    a = cplx(a, fname, "a") or 1.0
    w = cplx(w, fname, "w")
    local pts = {}
    for k = 0, m - 1 do
      if w == nil then
        pts[k + 1] = cx.mul(a, cx.exp(cx.new(0, 2 * pi * k / m)))
      else
        pts[k + 1] = cx.mul(a, cpow(cx.from(w), -k))
      end
    end
    return U.up(pts, "complex128")
  end)
end
