--- Resampling and friends (cupyx.scipy.signal's upfirdn, resample,
-- resample_poly, decimate, detrend, hilbert, hilbert2).
-- upfirdn is one polyphase kernel: output i sums h[k] x[(i down - k) / up]
-- over the k that divide evenly, never forming the upsampled signal; x is
-- extended past its ends by SciPy's nine modes inside the kernel.
-- resample works on the spectrum (ga.fft), resample_poly is upfirdn with a
-- Kaiser-windowed lowpass, decimate a lowpass then every q-th sample.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local core = ga._core
  local cx = require("gpuarray.scipy.signal.host.cx")
  local R = require("gpuarray.scipy.signal.host.fir")
  local H = require("gpuarray.scipy.signal.host.iir")
  local U = S.U
  local fail, vec = U.fail, U.vec

  local function name(n) return "scipy.signal." .. n end

  local CTYPE = { float32 = "float", float64 = "double", complex64 = "complex64", complex128 = "complex128" }
  local MODES = { constant = 0, wrap = 1, edge = 2, smooth = 3, symmetric = 4, reflect = 5, antisymmetric = 6,
                  antireflect = 7, line = 8 }
  local MODE_LIST = [["constant"|"wrap"|"edge"|"smooth"|"symmetric"|"reflect"|"antisymmetric"|"antireflect"|"line"]]

  local SRC = [[
// x[j] of a row of n samples, extended past its ends (SciPy's upfirdn modes:
// 0 constant 1 wrap 2 edge 3 smooth 4 symmetric 5 reflect 6 antisymmetric
// 7 antireflect 8 line)
__device__ __forceinline__ T ga_ufd_x(const T *xr, long long j, long long n, int mode, T cval) {
  if (j >= 0 && j < n) return xr[j];
  if (mode == 0) return cval;
  if (n == 1) return mode == 6 ? ((j % 2 == 0) ? xr[0] : -xr[0]) : xr[0];
  switch (mode) {
  case 1: { long long m = j % n; if (m < 0) m += n; return xr[m]; }
  case 2: return j < 0 ? xr[0] : xr[n - 1];
  case 3: return j < 0 ? xr[0] + (T)(double)j * (xr[1] - xr[0])
                       : xr[n - 1] + (T)(double)(j - n + 1) * (xr[n - 1] - xr[n - 2]);
  case 4: { const long long p = 2 * n; long long m = j % p; if (m < 0) m += p;
            return m < n ? xr[m] : xr[p - 1 - m]; }
  case 5: { const long long p = 2 * n - 2; long long m = j % p; if (m < 0) m += p;
            return m < n ? xr[m] : xr[p - m]; }
  case 6: { const long long p = 2 * n; long long m = j % p; if (m < 0) m += p;
            return m < n ? xr[m] : -xr[p - 1 - m]; }
  case 7: { const long long p = 2 * n - 2;
            long long q = j / p, r = j % p;
            if (r < 0) { r += p; q -= 1; }
            const T base = r < n ? xr[r] : (T)2.0 * xr[n - 1] - xr[p - r];
            return base + (T)(2.0 * (double)q) * (xr[n - 1] - xr[0]); }
  default: return xr[0] + (T)((double)j / (double)(n - 1)) * (xr[n - 1] - xr[0]);
  }
}
extern "C" __global__ void ga_upfirdn(const T *__restrict__ x, const T *__restrict__ h, T *__restrict__ y,
                                      long long rows, long long n, long long nh, long long nout, long long up,
                                      long long down, int mode, double cval_re, double cval_im) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * nout) return;
  const long long r = i / nout, o = i % nout;
  const T *xr = x + r * n;
  const T cval = ga_sig_fill<T>(cval_re, cval_im);
  const long long t = o * down;
  T s = T(0);
  for (long long k = t % up; k < nh; k += up) {
    const long long j = (t - k) / up;
    s = s + h[k] * ga_ufd_x(xr, j, n, mode, cval);
  }
  y[i] = s;
}
]]
  local FILL = [[
template <typename X> __device__ __forceinline__ X ga_sig_fill(double r, double i) { return (X)r; }
template <> __device__ __forceinline__ complex64 ga_sig_fill<complex64>(double r, double i) {
  return complex64((float)r, (float)i);
}
template <> __device__ __forceinline__ complex128 ga_sig_fill<complex128>(double r, double i) {
  return complex128(r, i);
}
]]

  local kernels = {}
  local function kernel(dt)
    if not kernels[dt] then
      local src = core.compile.kernel_source("common") .. core.compile.kernel_source("math")
        .. ("typedef %s T;\n"):format(CTYPE[dt]) .. FILL .. SRC
      kernels[dt] = ga.RawKernel(src, "ga_upfirdn")
    end
    return kernels[dt]
  end
  S.upfirdn_kernel = kernel

  --- upfirdn on an ndarray (the engine of resample_poly and decimate)
  local function upfirdn(h, x, up, down, axis, mode, cval, fname)
    if h.ndim ~= 1 or h.size == 0 then fail(fname .. ": h must be 1-D with non-zero length") end
    if up < 1 or down < 1 then fail(fname .. ": up and down must be >= 1") end
    local dt = ga.result_type(ga.result_type(h.dtype, x.dtype), "float32")
    if not CTYPE[dt] then fail(fname .. ": dtype " .. dt .. " is not supported") end
    local x2, back = S.as_rows(x, axis, dt)
    local rows, n = x2.shape[1], x2.shape[2]
    local nh = h.size
    local nout = ((n - 1) * up + nh - 1) // down + 1
    if n == 0 then nout = 0 end
    local y = ga.empty({ rows, nout }, dt)
    if rows * nout > 0 then
      local threads = 256
      local c = cval or 0
      kernel(dt)((rows * nout + threads - 1) // threads, threads,
                 { x2, ga.ascontiguousarray(U.cast(h, dt)), y, rows, n, nh, nout, up, down, MODES[mode],
                   cx.re(c) + 0.0, cx.im(c) + 0.0 })
    end
    return back(y)
  end
  S.upfirdn = upfirdn

  api.def(signal, ([[
scipy.signal.upfirdn(h: array_like, x: array_like, up: integer = 1, down: integer = 1, axis: integer = -1,
                     mode: %s = "constant", cval: number = 0) -> ndarray
Upsample x by up (zeros inserted), filter with the FIR h, downsample by down
(one polyphase kernel: only the kept outputs are computed). x is extended
past its ends by mode (cval for "constant").
]]):format(MODE_LIST), function(h, x, up, down, axis, mode, cval)
    local fname = name("upfirdn")
    h, x = U.arr(h, fname, "h"), U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    return upfirdn(h, x, up, down, U.axis(axis, x.ndim, fname), mode, cval, fname)
  end)

  local function gcd(a, b)
    while b ~= 0 do a, b = b, a % b end
    return a
  end

  local PADFUNCS = { mean = true, median = true, minimum = true, maximum = true }

  local MAX_RATE = 1 << 13
  local function resample_poly(x, up, down, axis, window, padtype, cval, fname)
    if math.type(up) ~= "integer" then fail(fname .. ": up must be an integer") end
    if math.type(down) ~= "integer" then fail(fname .. ": down must be an integer") end
    if up < 1 or down < 1 then fail(fname .. ": up and down must be >= 1") end
    if cval ~= nil and padtype ~= "constant" then fail(fname .. ": cval has no effect when padtype is " .. padtype) end
    if not PADFUNCS[padtype] and not MODES[padtype] then
      fail(fname .. ": padtype must be one of: maximum, mean, median, minimum, constant, wrap, edge, smooth, "
        .. "symmetric, reflect, antisymmetric, antireflect, line")
    end
    local g = gcd(up, down)
    up, down = up // g, down // g
    if up == 1 and down == 1 then return x:copy() end
    -- the default filter has 20 max(up, down) + 1 taps designed on the host
    -- (and the padding is found a step at a time): the rates are bounded
    if math.max(up, down) > MAX_RATE then
      fail(("%s: up / down = %d / %d (reduced) is past the rate of %d the host designs filters for"):format(fname,
        up, down, MAX_RATE))
    end
    local n_in = x.shape[axis]
    local n_out = n_in * up
    n_out = n_out // down + ((n_out % down ~= 0) and 1 or 0)
    local h, half_len
    if U.is_array(window) or (type(window) == "table" and type(window[1]) == "number") then
      h = vec(window, fname, "window")
      half_len = (#h - 1) // 2
    else
      local max_rate = math.max(up, down)
      half_len = 10 * max_rate
      h = S.host(fname, R.firwin, 2 * half_len + 1, { 1.0 / max_rate }, nil, window, true, true)
    end
    for i = 1, #h do h[i] = cx.mul(h[i], up) end
    local n_pre_pad = down - half_len % down
    local n_post_pad = 0
    local n_pre_remove = (half_len + n_pre_pad) // down
    local function out_len(hl) return ((n_in - 1) * up + hl - 1) // down + 1 end
    while out_len(#h + n_pre_pad + n_post_pad) < n_out + n_pre_remove do n_post_pad = n_post_pad + 1 end
    local hp = {}
    for _ = 1, n_pre_pad do hp[#hp + 1] = 0.0 end
    for _, v in ipairs(h) do hp[#hp + 1] = v end
    for _ = 1, n_post_pad do hp[#hp + 1] = 0.0 end
    local mode, cv = "constant", 0
    local background
    if PADFUNCS[padtype] then
      local f = ({ mean = ga.mean, median = ga.median, minimum = ga.min, maximum = ga.max })[padtype]
      background = f(x, { axis = axis, keepdims = true })
      x = x - background
    else
      mode = padtype
      if padtype == "constant" then cv = cval or 0 end
    end
    local y = upfirdn(U.up(hp), x, up, down, axis, mode, cv, fname)
    y = y[U.along(y.ndim, axis, { n_pre_remove + 1, n_pre_remove + n_out })]
    if background then y = y + background end
    return y
  end

  api.def(signal, [[
scipy.signal.resample_poly(x: array_like, up: integer, down: integer, axis: integer = 1,
                           window: string|number|list|ndarray = ({"kaiser", 5.0}),
                           padtype: string = "constant", cval: number? = nil) -> ndarray
Resample x along axis (the first by default, as SciPy) by up / down with a
polyphase FIR (a Kaiser-windowed lowpass unless window gives the taps).
padtype extends x (an upfirdn mode) or removes its "mean", "median",
"minimum" or "maximum" first.
]], function(x, up, down, axis, window, padtype, cval)
    local fname = name("resample_poly")
    window = window or { "kaiser", 5.0 }
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    return resample_poly(x, up, down, U.axis(axis, x.ndim, fname), window, padtype, cval, fname)
  end)

  api.def(signal, [[
scipy.signal.resample(x: array_like, num: integer, t: array_like? = nil, axis: integer = 1,
                      window: string|number|list|ndarray|callable? = nil, domain: "time"|"freq" = "time")
                      -> ndarray[, ndarray]
Resample x to num samples along axis (the first by default) with the FFT:
the spectrum truncated or zero-padded. With t (the sample times), also the
new times.
]], function(x, num, t, axis, window, domain)
    local fname = name("resample")
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    if math.type(num) ~= "integer" or num < 0 then fail(fname .. ": num must be a non-negative integer") end
    local ax = U.axis(axis, x.ndim, fname)
    local nd = x.ndim
    local Nx = x.shape[ax]
    local real = not U.is_complex(x.dtype)
    local fft = ga.fft
    local X
    if domain == "time" then
      X = real and fft.rfft(x, nil, ax) or fft.fft(x, nil, ax)
    else
      X = x
      real = false
    end
    if window ~= nil then
      local W
      if type(window) == "function" or (type(window) == "table" and getmetatable(window)
          and getmetatable(window).__call) then
        W = api.call_user(window, fft.fftfreq(Nx))
      elseif U.is_array(window) then
        if window.ndim ~= 1 or window.size ~= Nx then fail(fname .. ": window must have the same length as data") end
        W = window
      else
        W = fft.ifftshift(U.up(S.window_host(window, Nx, true, fname), "float64"))
      end
      local shp = {}
      for d = 1, nd do shp[d] = 1 end
      if real then
        local wl = vec(W, fname, "window")
        local wr = { wl[1] }
        for i = 2, Nx do wr[i] = 0.5 * (cx.re(wl[i]) + cx.re(wl[Nx - i + 2])) end
        local m = X.shape[ax]
        shp[ax] = m
        local rdt = X.dtype == "complex64" and "float32" or "float64"
        X = X * U.cast(U.up(table.move(wr, 1, m, 1, {}), "float64"), rdt):reshape(shp)
      else
        shp[ax] = Nx
        X = X * W:reshape(shp)
      end
    end
    local newshape = X.shape
    newshape[ax] = real and num // 2 + 1 or num
    local Y = ga.zeros(newshape, X.dtype)
    local N = math.min(num, Nx)
    local nyq = N // 2 + 1
    local function sl(a, lo, hi) return a[U.along(nd, ax, { lo, hi })] end
    if nyq >= 1 and N > 0 then Y[U.along(nd, ax, { 1, nyq })] = sl(X, 1, nyq) end
    if not real and N > 2 then
      -- negative frequencies: the last N - nyq of each
      local k = N - nyq
      if k > 0 then Y[U.along(nd, ax, { num - k + 1, num })] = sl(X, Nx - k + 1, Nx) end
    end
    if N % 2 == 0 and N > 0 then
      local h = N // 2 + 1
      if num < Nx then
        if real then
          Y[U.along(nd, ax, { h, h })] = sl(Y, h, h) * 2.0
        else
          Y[U.along(nd, ax, { num - N // 2 + 1, num - N // 2 + 1 })] = sl(Y, num - N // 2 + 1, num - N // 2 + 1)
            + sl(X, Nx - N // 2 + 1, Nx - N // 2 + 1)
        end
      elseif Nx < num then
        Y[U.along(nd, ax, { h, h })] = sl(Y, h, h) * 0.5
        if not real then
          Y[U.along(nd, ax, { num - N // 2 + 1, num - N // 2 + 1 })] = sl(Y, h, h)
        end
      end
    end
    local y
    if real then y = fft.irfft(Y, num, ax) else y = fft.ifft(Y, nil, ax) end
    y = y * (num / Nx)
    if t == nil then return y end
    local tl = vec(t, fname, "t")
    if #tl < 2 then fail(fname .. ": t must have at least two samples") end
    local step = (cx.re(tl[2]) - cx.re(tl[1])) * Nx / num
    local new_t = ga.arange(0, num, 1, "float64") * step + cx.re(tl[1])
    return y, new_t
  end)

  api.def(signal, [[
scipy.signal.decimate(x: array_like, q: integer, n: integer? = nil, ftype: "iir"|"fir" = "iir", axis: integer = -1,
                      zero_phase: boolean = true) -> ndarray
Downsample by q after an anti-aliasing lowpass: a Chebyshev I of order n (8)
("iir") or a Hamming-window FIR of n + 1 taps (20 q + 1) ("fir"), run
forwards and backwards when zero_phase.
]], function(x, q, n, ftype, axis, zero_phase)
    local fname = name("decimate")
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    if math.type(q) ~= "integer" or q < 1 then fail(fname .. ": q must be a positive integer") end
    local ax = U.axis(axis, x.ndim, fname)
    local rt = x.dtype
    if rt ~= "float32" and rt ~= "float64" and rt ~= "complex64" and rt ~= "complex128" then rt = "float64" end
    local nd = x.ndim
    if ftype == "fir" then
      local taps = n or 20 * q
      local b = S.host(fname, R.firwin, taps + 1, { 1.0 / q }, nil, "hamming", true, true)
      local bh = U.cast(U.up(b, "float64"), rt == "float32" and "float32" or "float64")
      if zero_phase then return resample_poly(U.cast(x, rt), 1, q, ax, bh, "constant", nil, fname) end
      local n_out = x.shape[ax] // q + ((x.shape[ax] % q ~= 0) and 1 or 0)
      local y = upfirdn(bh, U.cast(x, rt), 1, q, ax, "constant", 0, fname)
      return y[U.along(nd, ax, { 1, n_out })]
    end
    local order = n or 8
    local sos = S.host(fname, H.iirfilter, order, 0.8 / q, 0.05, nil, "low", false, "cheby1", "sos")[1]
    local sosa = U.cast(U.up2(sos, "float64", 6), (rt == "float32" or rt == "complex64") and "float32" or "float64")
    local y = zero_phase and signal.sosfiltfilt(sosa, U.cast(x, rt), axis) or signal.sosfilt(sosa, U.cast(x, rt), axis)
    return y[U.along(nd, ax, { nil, nil, q })]
  end)

  ---------------------------------------------------------------------------
  -- detrend

  api.def(signal, [[
scipy.signal.detrend(data: array_like, axis: integer = -1, type: "linear"|"l"|"constant"|"c" = "linear",
                     bp: integer|array_like = 0, overwrite_data: boolean = false) -> ndarray
Remove the mean ("constant") or the least-squares line ("linear"; piecewise
between the breakpoints bp, sample positions as values, 0-based as SciPy's)
along axis.
]], function(data, axis, dtype_kind, bp, _)
    local fname = name("detrend")
    local x = U.arr(data, fname, "data")
    if x.ndim == 0 then fail(fname .. ": data must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local nd = x.ndim
    if dtype_kind == "constant" or dtype_kind == "c" then
      return x - ga.mean(x, { axis = ax, keepdims = true })
    end
    local dt = x.dtype
    if dt ~= "float32" and dt ~= "float64" and dt ~= "complex64" and dt ~= "complex128" then dt = "float64" end
    local N = x.shape[ax]
    local bps = { 0, N }
    for _, v in ipairs(type(bp) == "number" and { bp } or vec(bp, fname, "bp")) do bps[#bps + 1] = cx.re(v) end
    table.sort(bps)
    local uniq = {}
    for _, v in ipairs(bps) do
      if v > N then fail(fname .. ": Breakpoints must be less than length of data along given axis.") end
      if uniq[#uniq] ~= v then uniq[#uniq + 1] = v end
    end
    local out = U.cast(x, dt):copy()
    -- (nothing to fit: an empty array's segments are not summed point by point)
    if out.size == 0 then return out end
    for m = 1, #uniq - 1 do
      local lo, hi = uniq[m], uniq[m + 1]
      local npts = hi - lo
      if npts > 0 then
        local seg = out[U.along(nd, ax, { lo + 1, hi })]
        -- least squares on [t, 1], t = (1..npts) / npts: the 2 x 2 normal equations
        local st, stt = 0.0, 0.0
        for k = 1, npts do
          local tk = k / npts
          st, stt = st + tk, stt + tk * tk
        end
        local det = stt * npts - st * st
        local shp = {}
        for d = 1, nd do shp[d] = 1 end
        shp[ax] = npts
        local rdt = (dt == "float32" or dt == "complex64") and "float32" or "float64"
        local t = U.cast(ga.arange(1, npts + 1, 1, "float64") * (1.0 / npts), rdt):reshape(shp)
        local s0 = ga.sum(seg, { axis = ax, keepdims = true })
        local s1 = ga.sum(seg * t, { axis = ax, keepdims = true })
        local c0, c1
        if det == 0 then
          c0, c1 = s0 * 0, s0 / npts
        else
          c0 = (s1 * npts - s0 * st) / det
          c1 = (s0 * stt - s1 * st) / det
        end
        out[U.along(nd, ax, { lo + 1, hi })] = seg - (t * c0 + c1)
      end
    end
    return out
  end)

  ---------------------------------------------------------------------------
  -- analytic signals

  local function hilbert_weights(N, dt)
    local h = {}
    for i = 1, N do h[i] = 0.0 end
    if N % 2 == 0 then
      h[1], h[N // 2 + 1] = 1.0, 1.0
      for i = 2, N // 2 do h[i] = 2.0 end
    else
      h[1] = 1.0
      for i = 2, (N + 1) // 2 do h[i] = 2.0 end
    end
    return U.cast(U.up(h, "float64"), dt)
  end

  api.def(signal, [[
scipy.signal.hilbert(x: array_like, N: integer? = nil, axis: integer = -1) -> ndarray
The analytic signal x + i H(x) along axis (FFT, one-sided spectrum doubled),
N samples (x's length by default).
]], function(x, N, axis)
    local fname = name("hilbert")
    x = U.arr(x, fname, "x")
    if U.is_complex(x.dtype) then fail(fname .. ": x must be real.") end
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    N = N or x.shape[ax]
    if N <= 0 then fail(fname .. ": N must be positive.") end
    local Xf = ga.fft.fft(x, N, ax)
    -- (an empty spectrum: its weights, N host numbers, are not made)
    if Xf.size == 0 then return Xf end
    local shp = {}
    for d = 1, x.ndim do shp[d] = 1 end
    shp[ax] = N
    local rdt = Xf.dtype == "complex64" and "float32" or "float64"
    return ga.fft.ifft(Xf * hilbert_weights(N, rdt):reshape(shp), nil, ax)
  end)

  api.def(signal, [[
scipy.signal.hilbert2(x: array_like, N: integer|list? = nil) -> ndarray
The 2-D analytic signal of a 2-D array (N: the transform's shape).
]], function(x, N)
    local fname = name("hilbert2")
    x = U.arr(x, fname, "x")
    if x.ndim ~= 2 then fail(fname .. ": x must be 2-D.") end
    if U.is_complex(x.dtype) then fail(fname .. ": x must be real.") end
    local s
    if N == nil then s = x.shape
    elseif type(N) == "number" then
      if N <= 0 then fail(fname .. ": When given as a tuple, N must hold exactly two positive integers") end
      s = { N, N }
    else
      if #N ~= 2 or math.type(N[1]) ~= "integer" or math.type(N[2]) ~= "integer" or N[1] <= 0 or N[2] <= 0 then
        fail(fname .. ": When given as a tuple, N must hold exactly two positive integers")
      end
      s = { N[1], N[2] }
    end
    local Xf = ga.fft.fft2(x, s, { 1, 2 })
    if Xf.size == 0 then return Xf end
    local rdt = Xf.dtype == "complex64" and "float32" or "float64"
    local h1 = hilbert_weights(s[1], rdt):reshape({ s[1], 1 })
    local h2 = hilbert_weights(s[2], rdt):reshape({ 1, s[2] })
    return ga.fft.ifft2(Xf * (h1 * h2), nil, { 1, 2 })
  end)
end
