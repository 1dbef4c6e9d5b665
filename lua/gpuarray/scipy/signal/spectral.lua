--- Spectral analysis (cupyx.scipy.signal's periodogram, welch, csd,
-- coherence, spectrogram, stft, istft, check_COLA, check_NOLA,
-- lombscargle, vectorstrength).
--
-- SciPy's _spectral_helper on the device: one kernel cuts the segments
-- (strided reads of the signal, no copy of it), removes each segment's
-- mean or line (a block reduction per segment) and multiplies by the
-- window, writing the zero-padded segments the batched FFT (ga.fft)
-- transforms; welch then sums |X|^2 over the segments in one reduction
-- and scales the few results (welch_f32_2^24_ms is why: one pass over
-- the signal, one transform, one reduction).
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local core = ga._core
  local cx = require("gpuarray.scipy.signal.host.cx")
  local U = S.U
  local fail, vec = U.fail, U.vec

  local function name(n) return "scipy.signal." .. n end

  local CTYPE = { float32 = "float", float64 = "double", complex64 = "complex64", complex128 = "complex128" }
  local REAL = { float32 = "float32", float64 = "float64", complex64 = "float32", complex128 = "float64" }

  local FRAMES_SRC = [[
// one block per (row, segment): the segment's mean (detrend 1) or
// least-squares line (detrend 2) removed, times the window, zero-padded
// to nfft
extern "C" __global__ void ga_frames(const T *__restrict__ x, const R *__restrict__ win, T *__restrict__ out,
                                     long long n, long long nseg, long long nstep, int nperseg, int nfft,
                                     int detrend) {
  __shared__ T red0[256];
  __shared__ T red1[256];
  const long long row = blockIdx.x / nseg, seg = blockIdx.x % nseg;
  const T *f = x + row * n + seg * nstep;
  T *o = out + (long long)blockIdx.x * nfft;
  const int tid = threadIdx.x;
  T a = T(0), b = T(0);
  if (detrend) {
    T s0 = T(0), s1 = T(0);
    for (int i = tid; i < nperseg; i += blockDim.x) {
      const T v = f[i];
      s0 = s0 + v;
      if (detrend == 2) s1 = s1 + v * (R)i;
    }
    red0[tid] = s0;
    red1[tid] = s1;
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d >>= 1) {
      if (tid < d) {
        red0[tid] = red0[tid] + red0[tid + d];
        red1[tid] = red1[tid] + red1[tid + d];
      }
      __syncthreads();
    }
    const R np = (R)nperseg;
    if (detrend == 1) {
      a = red0[0] / np;
    } else {
      // the line a + b i through the segment, i = 0 .. nperseg - 1
      const R si = np * (np - 1) / 2, sii = (np - 1) * np * (2 * np - 1) / 6;
      const R det = np * sii - si * si;
      if (det != 0) b = (red1[0] * np - red0[0] * si) / det;
      a = (red0[0] - b * si) / np;
    }
  }
  for (int i = tid; i < nfft; i += blockDim.x) {
    o[i] = i < nperseg ? (f[i] - (a + b * (R)i)) * win[i] : T(0);
  }
}
]]

  -- the squared magnitudes of X summed over its middle axis (segments)
  local SUMSQ = [[
template <typename X> __device__ __forceinline__ double ga_abs2(const X &v) { return (double)v * (double)v; }
template <> __device__ __forceinline__ double ga_abs2<complex64>(const complex64 &v) {
  return (double)v.re * v.re + (double)v.im * v.im;
}
template <> __device__ __forceinline__ double ga_abs2<complex128>(const complex128 &v) {
  return v.re * v.re + v.im * v.im;
}
]]

  -- a kernel of this file for one dtype (T the element type, R its real
  -- type), compiled once
  local kernels = {}
  local function typed_kernel(src, entry, dt)
    local key = entry .. ":" .. dt
    if not kernels[key] then
      kernels[key] = ga.RawKernel(core.compile.kernel_source("common") .. core.compile.kernel_source("math")
        .. ("typedef %s T;\ntypedef %s R;\n"):format(CTYPE[dt], CTYPE[REAL[dt]]) .. src, entry)
    end
    return kernels[key]
  end
  local function frames_kernel(dt) return typed_kernel(FRAMES_SRC, "ga_frames", dt) end
  local function sumsq_kernel()
    if not kernels.sumsq then
      kernels.sumsq = ga.ReductionKernel("T x", "float64 y", "ga_abs2(x)", "a + b", "y = a", "0", "ga_spectral_sumsq",
                                         { preamble = SUMSQ, reduce_type = "float64" })
    end
    return kernels.sumsq
  end
  S.spectral_kernels = function(dt)
    frames_kernel(dt)
    return sumsq_kernel()
  end

  ---------------------------------------------------------------------------
  -- the segments

  -- a window argument: a name / number / {name, params...} (get_window,
  -- periodic) or an array of taps; returns the host list and nperseg
  local function triage(window, nperseg, input_length, fname)
    local is_spec = type(window) == "string" or type(window) == "number"
      or (type(window) == "table" and not U.is_array(window) and type(window[1]) == "string")
    if is_spec then
      if type(window) == "number" then fail(fname .. ": window must be 1-D") end
      if nperseg == nil then nperseg = 256 end
      if nperseg > input_length then nperseg = input_length end
      return S.window_host(window, nperseg, true, fname), nperseg
    end
    local w = vec(window, fname, "window")
    for i, v in ipairs(w) do w[i] = cx.re(v) end
    if input_length < #w then fail(fname .. ": window is longer than input signal") end
    if nperseg == nil then nperseg = #w
    elseif nperseg ~= #w then fail(fname .. ": value specified for nperseg is different from length of window") end
    return w, nperseg
  end
  S.triage = triage

  local function detrend_code(detrend, fname)
    if detrend == false or detrend == nil then return 0 end
    if detrend == "constant" or detrend == "c" then return 1 end
    if detrend == "linear" or detrend == "l" then return 2 end
    if type(detrend) == "function" then return -1 end
    fail(fname .. ": detrend must be false, \"constant\", \"linear\" or a function")
  end

  --- the windowed segments of x (rows x n, dtype dt): rows x nseg x nfft
  local function segments(x2, win, nperseg, noverlap, nfft, detrend, fname)
    local dt = x2.dtype
    local rows, n = x2.shape[1], x2.shape[2]
    local nstep = nperseg - noverlap
    local nseg = (n - noverlap) // nstep
    if nseg < 1 then nseg = 0 end
    local code = detrend_code(detrend, fname)
    local wdev = U.cast(U.up(win, "float64"), REAL[dt])
    local out = ga.empty({ rows, nseg, nfft }, dt)
    if rows * nseg == 0 then return out, nseg end
    if code >= 0 then
      frames_kernel(dt)(rows * nseg, 256, { x2, wdev, out, n, nseg, nstep, nperseg, nfft, code })
      return out, nseg
    end
    -- a user's detrend: the plain segments, its result, then the window
    local plain = ga.empty({ rows, nseg, nperseg }, dt)
    frames_kernel(dt)(rows * nseg, 256, { x2, U.cast(ga.ones(nperseg, "float64"), REAL[dt]), plain, n, nseg, nstep,
                                          nperseg, nperseg, 0 })
    local d = api.call_user(detrend, plain)
    if not U.is_array(d) then fail(fname .. ": detrend must return an ndarray") end
    local w = U.cast(d, dt) * wdev
    if nfft == nperseg then return ga.ascontiguousarray(w), nseg end
    out:fill(0)
    out[{ {}, {}, { 1, nperseg } }] = w
    return out, nseg
  end

  local BOUNDARY_EXT = { even = "even", odd = "odd", constant = "constant", zeros = "zeros" }

  --- SciPy's _spectral_helper: freqs, times (ndarrays) and the per-segment
  -- spectra as (outer..., nseg, nfreq) plus what placing them needs
  local function helper(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode,
                        boundary, padded, fname)
    local same = y == nil
    x = U.arr(x, fname, "x")
    if not same then y = U.arr(y, fname, "y") end
    local outdt = ga.result_type(x.dtype, "complex64")
    if not same then outdt = ga.result_type(outdt, y.dtype) end
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local dt = U.is_complex(outdt) and ((U.is_complex(x.dtype) or (not same and U.is_complex(y.dtype))) and outdt
      or REAL[outdt]) or outdt
    if nperseg ~= nil and (math.type(nperseg) ~= "integer" or nperseg < 1) then
      fail(fname .. ": nperseg must be a positive integer")
    end
    local xl = U.axis_last(x, ax)
    local yl = (not same) and U.axis_last(y, U.axis(axis, y.ndim, fname)) or nil
    local n = xl.shape[xl.ndim]
    if not same then
      local ny = yl.shape[yl.ndim]
      if ny ~= n then
        local function pad(a, m)
          local shape = a.shape
          shape[#shape] = m - shape[#shape]
          return ga.concatenate({ a, ga.zeros(shape, a.dtype) }, a.ndim)
        end
        if n < ny then xl = pad(xl, ny) else yl = pad(yl, n) end
        n = math.max(n, ny)
      end
      local ok, bx, by = pcall(function()
        local sx, sy = xl.shape, yl.shape
        sx[#sx], sy[#sy] = 1, 1
        local outer = ga.broadcast_shapes(sx, sy)
        outer[#outer] = n
        return ga.broadcast_to(xl, outer), ga.broadcast_to(yl, outer)
      end)
      if not ok then fail(fname .. ": x and y cannot be broadcast together.") end
      xl, yl = bx, by
    end
    local win
    win, nperseg = triage(window, nperseg, n, fname)
    -- an empty signal leaves no segment (SciPy returns empty arrays; here
    -- the error says why, before any step divides by the segment length)
    if nperseg < 1 then fail(fname .. ": x is empty along the axis: no segment to take") end
    if nfft == nil then nfft = nperseg
    elseif nfft < nperseg then fail(fname .. ": nfft must be greater than or equal to nperseg.") end
    if noverlap == nil then noverlap = nperseg // 2 end
    if noverlap >= nperseg then fail(fname .. ": noverlap must be less than nperseg.") end
    local nstep = nperseg - noverlap
    local function prepare(a)
      a = U.cast(a, dt)
      if boundary ~= nil then
        local kind = BOUNDARY_EXT[boundary]
        if not kind then
          fail(("%s: Unknown boundary option '%s', must be one of: ['even', 'odd', 'constant', 'zeros', nil]")
            :format(fname, tostring(boundary)))
        end
        local e = nperseg // 2
        if kind == "zeros" then
          local shape = a.shape
          shape[#shape] = e
          local z = ga.zeros(shape, dt)
          a = ga.concatenate({ z, a, z }, a.ndim)
        else
          a = S.extend(a, e, a.ndim, kind, fname)
        end
      end
      if padded then
        local len = a.shape[a.ndim]
        local nadd = (-(len - nperseg) % nstep) % nperseg
        if nadd > 0 then
          local shape = a.shape
          shape[#shape] = nadd
          a = ga.concatenate({ a, ga.zeros(shape, dt) }, a.ndim)
        end
      end
      return a
    end
    xl = prepare(xl)
    if not same then yl = prepare(yl) end
    local total = xl.shape[xl.ndim]
    local outer = xl.shape
    outer[#outer] = nil
    local rows = 1
    for _, v in ipairs(outer) do rows = rows * v end
    local x2 = ga.ascontiguousarray(xl):reshape({ rows, total })
    local scale
    local ws, ws2 = 0.0, 0.0
    for _, v in ipairs(win) do ws, ws2 = ws + v, ws2 + v * v end
    if scaling == "density" then scale = 1.0 / (fs * ws2)
    elseif scaling == "spectrum" then scale = 1.0 / ws ^ 2
    else fail(("%s: Unknown scaling: '%s'"):format(fname, tostring(scaling))) end
    if mode == "stft" then scale = math.sqrt(scale) end
    local onesided = return_onesided and not U.is_complex(dt)
    local freqs = onesided and ga.fft.rfftfreq(nfft, 1 / fs) or ga.fft.fftfreq(nfft, 1 / fs)
    local X, nseg = segments(x2, win, nperseg, noverlap, nfft, detrend, fname)
    local fftf = onesided and ga.fft.rfft or ga.fft.fft
    X = fftf(X)
    local Y
    if not same then
      local y2 = ga.ascontiguousarray(yl):reshape({ rows, total })
      Y = fftf((segments(y2, win, nperseg, noverlap, nfft, detrend, fname)))
    end
    return {
      freqs = freqs, X = X, Y = Y, scale = scale, onesided = onesided, nfft = nfft, outer = outer, ax = ax,
      nd = x.ndim, nseg = nseg, outdt = outdt, same = same, fs = fs, nperseg = nperseg, nstep = nstep,
      boundary = boundary,
    }
  end

  --- the segments' centre times, SciPy's (nperseg/2 + k nstep) / fs, less
  -- (nperseg/2) / fs with a boundary extension: on the device, and only
  -- for spectrogram and stft, which return them (a host list of nseg
  -- numbers was most of welch_f32_2^24's time: 131071 segments). The same
  -- float64 operations in the same order: the same bits.
  local function seg_times(h)
    local t = (ga.arange(0, h.nseg, 1, "float64") * h.nstep + h.nperseg / 2) / h.fs
    if h.boundary ~= nil then t = t - (h.nperseg / 2) / h.fs end
    return t
  end

  -- the doubling of a one-sided spectrum (not the DC bin, nor Nyquist's
  -- for even nfft), times scale, as a row of weights
  local function side_weights(h, nfreq, rdt)
    local w = {}
    for k = 1, nfreq do
      local double = h.onesided and k > 1 and not (h.nfft % 2 == 0 and k == nfreq)
      w[k] = h.scale * (double and 2 or 1)
    end
    return U.cast(U.up(w, "float64"), rdt)
  end

  -- a (outer..., nfreq) result with the frequencies moved to the data's axis
  local function place(h, r)
    local nd = h.nd
    local perm = {}
    for d = 1, nd - 1 do perm[#perm + 1] = d end
    table.insert(perm, h.ax, nd)
    local shape = {}
    for i, v in ipairs(h.outer) do shape[i] = v end
    shape[#shape + 1] = r.shape[#r.shape]
    return r:reshape(shape):transpose(perm)
  end

  -- a (rows, nseg, nfreq) result as SciPy's (..., nfreq at axis, ..., nseg)
  local function place_segments(h, r)
    local nd = h.nd
    local shape = {}
    for i, v in ipairs(h.outer) do shape[i] = v end
    shape[#shape + 1] = h.nseg
    shape[#shape + 1] = r.shape[3]
    r = r:reshape(shape)
    -- (outer..., seg, freq) -> (outer with freq at ax..., seg)
    local perm = {}
    for d = 1, nd - 1 do perm[#perm + 1] = d end
    table.insert(perm, h.ax, nd + 1)
    perm[#perm + 1] = nd
    return r:transpose(perm)
  end

  local function median_bias(n)
    local s = 0.0
    for i = 1, (n - 1) // 2 do
      local ii2 = 2.0 * i
      s = s + 1.0 / (ii2 + 1) - 1.0 / ii2
    end
    return 1 + s
  end

  --- csd's averaging: Pxy (rows, nfreq), real for welch (x == y)
  local function averaged(h, average, fname)
    local X, Y = h.X, h.Y
    local rows, nseg, nfreq = X.shape[1], X.shape[2], X.shape[3]
    local rdt = REAL[h.outdt]
    local w = side_weights(h, nfreq, rdt):reshape({ 1, nfreq })
    if average ~= "mean" and average ~= "median" then
      fail(("%s: average must be \"median\" or \"mean\", got %s"):format(fname, tostring(average)))
    end
    if nseg == 0 then return ga.zeros({ rows, nfreq }, h.same and rdt or h.outdt) end
    if h.same then
      if average == "median" and nseg > 1 then
        local P = ga.real(X * ga.conj(X))
        return U.cast(ga.median(P, { axis = 2 }), rdt) * w / median_bias(nseg)
      end
      local s = sumsq_kernel()(X, { axis = 2 })
      return U.cast(s, rdt) * w * (1.0 / nseg)
    end
    local P = ga.conj(X) * Y
    if average == "median" and nseg > 1 then
      local med = ga.median(ga.real(P), { axis = 2 }) + ga.median(ga.imag(P), { axis = 2 }) * ga.full({}, { 0, 1 },
        "complex128")
      return U.cast(med, h.outdt) * w / median_bias(nseg)
    end
    return U.cast(ga.mean(P, { axis = 2 }), h.outdt) * w
  end

  local WINDOW = "string|number|list|ndarray"
  local DETREND = [[string|boolean|function]]

  local function csd(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average,
                     fname)
    local h = helper(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, "psd", nil,
                     false, fname)
    return h.freqs, place(h, averaged(h, average, fname))
  end

  api.def(signal, ([[
scipy.signal.welch(x: array_like, fs: number = 1.0, window: %s = "hann", nperseg: integer? = nil,
                   noverlap: integer? = nil, nfft: integer? = nil, detrend: %s = "constant",
                   return_onesided: boolean = true, scaling: "density"|"spectrum" = "density", axis: integer = -1,
                   average: "mean"|"median" = "mean") -> ndarray, ndarray
Welch's power spectral density: the averaged periodograms of overlapping
windowed segments (nperseg 256, half overlap by default). Returns the
frequencies and the spectrum (the frequency axis where axis was).
]]):format(WINDOW, DETREND), function(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                                       average)
    return csd(x, nil, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average,
               name("welch"))
  end)

  api.def(signal, ([[
scipy.signal.csd(x: array_like, y: array_like, fs: number = 1.0, window: %s = "hann", nperseg: integer? = nil,
                 noverlap: integer? = nil, nfft: integer? = nil, detrend: %s = "constant",
                 return_onesided: boolean = true, scaling: "density"|"spectrum" = "density", axis: integer = -1,
                 average: "mean"|"median" = "mean") -> ndarray, ndarray
The cross power spectral density of x and y by Welch's method (complex).
]]):format(WINDOW, DETREND), function(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                                       axis, average)
    local fname = name("csd")
    if y == nil then fail(fname .. ": y is required") end
    return csd(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average, fname)
  end)

  api.def(signal, ([[
scipy.signal.periodogram(x: array_like, fs: number = 1.0, window: %s? = "boxcar", nfft: integer? = nil,
                         detrend: %s = "constant", return_onesided: boolean = true,
                         scaling: "density"|"spectrum" = "density", axis: integer = -1) -> ndarray, ndarray
The periodogram: one segment, the whole signal (cropped or padded to nfft).
]]):format(WINDOW, DETREND), function(x, fs, window, nfft, detrend, return_onesided, scaling, axis)
    local fname = name("periodogram")
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local n = x.shape[ax]
    if window == nil then window = "boxcar" end
    local nperseg
    if nfft == nil then nperseg = n
    elseif nfft == n then nperseg = nfft
    elseif nfft > n then nperseg = n
    else
      x = x[U.along(x.ndim, ax, { 1, nfft })]
      nperseg, nfft = nfft, nil
    end
    if not (type(window) == "string" or (type(window) == "table" and type(window[1]) == "string")) then
      local w = vec(window, fname, "window")
      if #w ~= nperseg then
        fail(fname .. ": the size of the window must be the same size of the input on the specified axis")
      end
    end
    return csd(x, nil, fs, window, nperseg, 0, nfft, detrend, return_onesided, scaling, axis, "mean", fname)
  end)

  api.def(signal, ([[
scipy.signal.coherence(x: array_like, y: array_like, fs: number = 1.0, window: %s = "hann", nperseg: integer? = nil,
                       noverlap: integer? = nil, nfft: integer? = nil, detrend: %s = "constant",
                       axis: integer = -1) -> ndarray, ndarray
The magnitude-squared coherence |Pxy|^2 / (Pxx Pyy) by Welch's method.
]]):format(WINDOW, DETREND), function(x, y, fs, window, nperseg, noverlap, nfft, detrend, axis)
    local fname = name("coherence")
    local f, Pxx = csd(x, nil, fs, window, nperseg, noverlap, nfft, detrend, true, "density", axis, "mean", fname)
    local _, Pyy = csd(y, nil, fs, window, nperseg, noverlap, nfft, detrend, true, "density", axis, "mean", fname)
    local _, Pxy = csd(x, y, fs, window, nperseg, noverlap, nfft, detrend, true, "density", axis, "mean", fname)
    local a = ga.abs(Pxy)
    return f, a * a / Pxx / Pyy
  end)

  api.def(signal, ([[
scipy.signal.spectrogram(x: array_like, fs: number = 1.0, window: %s = ({"tukey", 0.25}), nperseg: integer? = nil,
                         noverlap: integer? = nil, nfft: integer? = nil, detrend: %s = "constant",
                         return_onesided: boolean = true, scaling: "density"|"spectrum" = "density",
                         axis: integer = -1, mode: "psd"|"complex"|"magnitude"|"angle"|"phase" = "psd")
                         -> ndarray, ndarray, ndarray
A spectrogram: frequencies, segment times and the spectrum of each segment
(frequency axis where axis was, time last); noverlap nperseg // 8 by default.
]]):format(WINDOW, DETREND), function(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                                       mode)
    local fname = name("spectrogram")
    window = window or { "tukey", 0.25 }
    local xa = U.arr(x, fname, "x")
    if xa.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local n = xa.shape[U.axis(axis, xa.ndim, fname)]
    local win
    win, nperseg = triage(window, nperseg, n, fname)
    if noverlap == nil then noverlap = nperseg // 8 end
    local h = helper(xa, nil, fs, win, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                     mode == "psd" and "psd" or "stft", nil, false, fname)
    local X = h.X
    local nfreq = X.shape[3]
    local r
    if mode == "psd" then
      local w = side_weights(h, nfreq, REAL[h.outdt]):reshape({ 1, 1, nfreq })
      r = U.cast(ga.real(X * ga.conj(X)), REAL[h.outdt]) * w
    else
      r = U.cast(X, h.outdt) * h.scale
      if mode == "magnitude" then r = ga.abs(r)
      elseif mode == "angle" or mode == "phase" then
        r = ga.angle(r)
        -- SciPy unwraps along the frequencies
        if mode == "phase" then r = S.unwrap_axis(r, 3) end
      end
    end
    return h.freqs, seg_times(h), place_segments(h, r)
  end)

  --- numpy.unwrap along axis (1-based) of an ndarray (phases in radians)
  function S.unwrap_axis(p, axis)
    local nd = p.ndim
    local n = p.shape[axis]
    if n < 2 then return p end
    local function sl(lo, hi) return p[U.along(nd, axis, { lo, hi })] end
    local dd = sl(2, n) - sl(1, n - 1)
    local ddmod = ga.mod(dd + math.pi, 2 * math.pi) - math.pi
    ddmod = ga.where(ddmod:eq(-math.pi) & dd:gt(0), ddmod * 0 + math.pi, ddmod)
    local corr = ddmod - dd
    corr = ga.where(ga.abs(dd):lt(math.pi), corr * 0, corr)
    local out = p:copy()
    out[U.along(nd, axis, { 2, n })] = sl(2, n) + ga.cumsum(corr, axis)
    return out
  end

  api.def(signal, ([[
scipy.signal.stft(x: array_like, fs: number = 1.0, window: %s = "hann", nperseg: integer = 256,
                  noverlap: integer? = nil, nfft: integer? = nil, detrend: %s = false,
                  return_onesided: boolean = true, boundary: "even"|"odd"|"constant"|"zeros"|boolean? = "zeros",
                  padded: boolean = true, axis: integer = -1, scaling: "spectrum"|"psd" = "spectrum")
                  -> ndarray, ndarray, ndarray
The short-time Fourier transform: frequencies, segment times and the
complex spectra (frequency axis where axis was, time last); the signal is
extended by nperseg // 2 at both ends (boundary) and zero-padded to whole
segments (padded). boundary false: no extension (SciPy's None).
]]):format(WINDOW, DETREND), function(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, boundary,
                                       padded, axis, scaling)
    local fname = name("stft")
    if boundary == false then boundary = nil end
    if boundary == true then fail(fname .. ": boundary must be a name or false") end
    local sc = scaling == "psd" and "density" or "spectrum"
    local h = helper(x, nil, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, sc, axis, "stft",
                     boundary, padded, fname)
    local r = U.cast(h.X, h.outdt) * h.scale
    return h.freqs, seg_times(h), place_segments(h, r)
  end)

  local OLA_SRC = [[
// the overlap-add of windowed segments: x[p] = sum over the segments s
// covering p of xs[s][p - s nstep] win[p - s nstep], divided by norm[p]
extern "C" __global__ void ga_ola(const T *__restrict__ xs, const R *__restrict__ win, const R *__restrict__ norm,
                                  T *__restrict__ out, long long rows, long long nseg, long long nfft,
                                  long long nperseg, long long nstep, long long nout, long long first) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * nout) return;
  const long long r = i / nout, p = i % nout + first;
  long long s_hi = p / nstep;
  if (s_hi > nseg - 1) s_hi = nseg - 1;
  long long s_lo = p - nperseg + 1 <= 0 ? 0 : (p - nperseg + nstep) / nstep;
  T acc = T(0);
  for (long long s = s_lo; s <= s_hi; s++) {
    const long long k = p - s * nstep;
    if (k >= 0 && k < nperseg) acc = acc + xs[(r * nseg + s) * nfft + k] * win[k];
  }
  const R nv = norm[p];
  out[i] = acc / (nv > (R)1e-10 ? nv : (R)1);
}
]]
  local function ola_kernel(dt) return typed_kernel(OLA_SRC, "ga_ola", dt) end
  S.ola_kernel = ola_kernel

  api.def(signal, ([[
scipy.signal.istft(Zxx: array_like, fs: number = 1.0, window: %s = "hann", nperseg: integer? = nil,
                   noverlap: integer? = nil, nfft: integer? = nil, input_onesided: boolean = true,
                   boundary: boolean = true, time_axis: integer = -1, freq_axis: integer = -2,
                   scaling: "spectrum"|"psd" = "spectrum") -> ndarray, ndarray
The inverse STFT: inverse transforms of the segments, windowed and
overlap-added, divided by the summed squared window. Returns times and x.
]]):format(WINDOW), function(Zxx, fs, window, nperseg, noverlap, nfft, input_onesided, boundary, time_axis, freq_axis,
                             scaling)
    local fname = name("istft")
    local Z = U.arr(Zxx, fname, "Zxx")
    if Z.ndim < 2 then fail(fname .. ": Input stft must be at least 2d!") end
    if not U.is_complex(Z.dtype) then Z = U.cast(Z, Z.dtype == "float32" and "complex64" or "complex128") end
    local nd = Z.ndim
    local ta, fa = U.axis(time_axis, nd, fname), U.axis(freq_axis, nd, fname)
    if ta == fa then fail(fname .. ": Must specify differing time and frequency axes!") end
    local nseg = Z.shape[ta]
    local n_default = input_onesided and 2 * (Z.shape[fa] - 1) or Z.shape[fa]
    if nperseg == nil then nperseg = n_default
    elseif nperseg < 1 then fail(fname .. ": nperseg must be a positive integer") end
    if nfft == nil then
      nfft = (input_onesided and nperseg == n_default + 1) and nperseg or n_default
    elseif nfft < nperseg then fail(fname .. ": nfft must be greater than or equal to nperseg.") end
    if noverlap == nil then noverlap = nperseg // 2 end
    if noverlap >= nperseg then fail(fname .. ": noverlap must be less than nperseg.") end
    local nstep = nperseg - noverlap
    -- (outer..., time, freq): the segments' spectra along the last axis
    local perm = {}
    for d = 1, nd do if d ~= ta and d ~= fa then perm[#perm + 1] = d end end
    local outer = {}
    for i, d in ipairs(perm) do outer[i] = Z.shape[d] end
    perm[#perm + 1] = ta
    perm[#perm + 1] = fa
    local Zt = ga.ascontiguousarray(Z:transpose(perm))
    local win
    if type(window) == "string" or (type(window) == "table" and type(window[1]) == "string") then
      win = S.window_host(window, nperseg, true, fname)
    else
      win = vec(window, fname, "window")
      for i, v in ipairs(win) do win[i] = cx.re(v) end
      if #win ~= nperseg then fail(("%s: window must have length of %d"):format(fname, nperseg)) end
    end
    local xsubs = input_onesided and ga.fft.irfft(Zt, nfft) or ga.fft.ifft(Zt, nfft)
    local dt = xsubs.dtype
    local rdt = REAL[dt]
    local ws, ws2 = 0.0, 0.0
    for _, v in ipairs(win) do ws, ws2 = ws + v, ws2 + v * v end
    local factor = scaling == "spectrum" and ws or math.sqrt(fs * ws2)
    local outlen = nperseg + (nseg - 1) * nstep
    local first, last = 0, outlen - 1
    if boundary then first, last = nperseg // 2, outlen - nperseg // 2 - 1 end
    local nout = math.max(last - first + 1, 0)
    local rows = 1
    for _, v in ipairs(outer) do rows = rows * v end
    local out = ga.empty({ rows, nout }, dt)
    if rows * nout > 0 then
      -- the windows' overlap-added squares (host: as long as the output;
      -- not made for an empty one, whose length may be anything)
      local norm = {}
      for p = 1, outlen do norm[p] = 0.0 end
      for s = 0, nseg - 1 do
        for k = 1, nperseg do norm[s * nstep + k] = norm[s * nstep + k] + win[k] * win[k] end
      end
      local xs = ga.ascontiguousarray(xsubs * factor):reshape({ rows, nseg, nfft })
      local threads = 256
      ola_kernel(dt)((rows * nout + threads - 1) // threads, threads,
                     { xs, U.cast(U.up(win, "float64"), rdt), U.cast(U.up(norm, "float64"), rdt), out, rows, nseg,
                       nfft, nperseg, nstep, nout, first })
    end
    local shape = {}
    for i, v in ipairs(outer) do shape[i] = v end
    shape[#shape + 1] = nout
    local x = out:reshape(shape)
    -- put the time axis back where it was among the outer ones
    if nd > 2 then
      local tpos = ta
      if fa < ta then tpos = tpos - 1 end
      local p2 = {}
      for d = 1, nd - 2 do p2[#p2 + 1] = d end
      table.insert(p2, tpos, nd - 1)
      x = x:transpose(p2)
    end
    local times = ga.arange(0, x.shape[1], 1, "float64") / fs
    return times, x
  end)

  ---------------------------------------------------------------------------
  -- window overlap conditions (host: a window is short)

  local function ola_bins(window, nperseg, noverlap, squared, fname)
    if math.type(nperseg) ~= "integer" or nperseg < 1 then fail(fname .. ": nperseg must be a positive integer") end
    if noverlap >= nperseg then fail(fname .. ": noverlap must be less than nperseg.") end
    if noverlap < 0 then fail(fname .. ": noverlap must be a nonnegative integer") end
    local win
    if type(window) == "string" or (type(window) == "table" and type(window[1]) == "string") then
      win = S.window_host(window, nperseg, true, fname)
    else
      win = vec(window, fname, "window")
      for i, v in ipairs(win) do win[i] = cx.re(v) end
      if #win ~= nperseg then fail(fname .. ": window must have length of nperseg") end
    end
    local step = nperseg - noverlap
    local bins = {}
    for i = 1, step do bins[i] = 0.0 end
    for ii = 0, nperseg // step - 1 do
      for i = 1, step do
        local v = win[ii * step + i]
        bins[i] = bins[i] + (squared and v * v or v)
      end
    end
    local rem = nperseg % step
    for i = 1, rem do
      local v = win[nperseg - rem + i]
      bins[i] = bins[i] + (squared and v * v or v)
    end
    return bins
  end

  api.def(signal, [[
scipy.signal.check_COLA(window: string|list|ndarray, nperseg: integer, noverlap: integer, tol: number = 1e-10)
                        -> boolean
Whether the window's overlapped copies add up to a constant (a Lua boolean).
]], function(window, nperseg, noverlap, tol)
    local bins = ola_bins(window, nperseg, noverlap, false, name("check_COLA"))
    local sorted = { table.unpack(bins) }
    table.sort(sorted)
    local m = #sorted
    local med = m % 2 == 1 and sorted[(m + 1) // 2] or (sorted[m // 2] + sorted[m // 2 + 1]) / 2
    local dev = 0.0
    for _, v in ipairs(bins) do dev = math.max(dev, math.abs(v - med)) end
    return dev < tol
  end)

  api.def(signal, [[
scipy.signal.check_NOLA(window: string|list|ndarray, nperseg: integer, noverlap: integer, tol: number = 1e-10)
                        -> boolean
Whether the window's overlapped squares never vanish (istft can invert).
]], function(window, nperseg, noverlap, tol)
    local bins = ola_bins(window, nperseg, noverlap, true, name("check_NOLA"))
    local mn = math.huge
    for _, v in ipairs(bins) do mn = math.min(mn, v) end
    return mn > tol
  end)

  ---------------------------------------------------------------------------
  -- unevenly sampled data

  local LS_SRC = [[
// the Lomb-Scargle periodogram at frequency w (one thread each)
extern "C" __global__ void ga_lombscargle(const double *__restrict__ x, const double *__restrict__ y,
                                          const double *__restrict__ freqs, double *__restrict__ p, long long nx,
                                          long long nf) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nf) return;
  const double w = freqs[i];
  double xc = 0, xs = 0, cc = 0, ss = 0, cs = 0;
  for (long long j = 0; j < nx; j++) {
    double s, c;
    sincos(w * x[j], &s, &c);
    xc += y[j] * c;
    xs += y[j] * s;
    cc += c * c;
    ss += s * s;
    cs += c * s;
  }
  const double tau = atan2(2 * cs, cc - ss) / (2 * w);
  double s_tau, c_tau;
  sincos(w * tau, &s_tau, &c_tau);
  const double c2 = c_tau * c_tau, s2 = s_tau * s_tau, cs_tau = 2 * c_tau * s_tau;
  const double a = c_tau * xc + s_tau * xs, b = c_tau * xs - s_tau * xc;
  p[i] = 0.5 * (a * a / (c2 * cc + cs_tau * cs + s2 * ss) + b * b / (c2 * ss - cs_tau * cs + s2 * cc));
}
]]
  local function ls_kernel()
    kernels.ls = kernels.ls or ga.RawKernel(LS_SRC, "ga_lombscargle")
    return kernels.ls
  end
  S.ls_kernel = ls_kernel

  api.def(signal, [[
scipy.signal.lombscargle(x: array_like, y: array_like, freqs: array_like, precenter: boolean = false,
                         normalize: boolean = false) -> ndarray
The Lomb-Scargle periodogram of samples y at times x, at the angular
frequencies freqs (float64; one thread per frequency).
]], function(x, y, freqs, precenter, normalize)
    local fname = name("lombscargle")
    x, y, freqs = U.arr(x, fname, "x"), U.arr(y, fname, "y"), U.arr(freqs, fname, "freqs")
    if x.ndim ~= 1 or y.ndim ~= 1 or freqs.ndim ~= 1 then fail(fname .. ": x, y and freqs must be 1-D") end
    if x.size ~= y.size then fail(fname .. ": Input arrays do not have the same size.") end
    x, y, freqs = U.cast(x, "float64"), U.cast(y, "float64"), U.cast(freqs, "float64")
    -- normalize divides by y . y of the samples as given, centred or not (SciPy)
    local yc = precenter and y - ga.mean(y) or y
    local p = ga.empty(freqs.size, "float64")
    if freqs.size > 0 then
      ls_kernel()((freqs.size + 255) // 256, 256, { ga.ascontiguousarray(x), ga.ascontiguousarray(yc),
                                                    ga.ascontiguousarray(freqs), p, x.size, freqs.size })
    end
    if normalize then p = p * (2 / ga.sum(y * y)) end
    return p
  end)

  api.def(signal, [[
scipy.signal.vectorstrength(events: array_like, period: number|array_like) -> ndarray, ndarray
The vector strength and phase of the event times for each period: the
length and angle of the mean of e^(2 pi i t / period). A number period
gives 0-d results.
]], function(events, period)
    local fname = name("vectorstrength")
    local e = U.arr(events, fname, "events")
    if e.ndim > 1 then fail(fname .. ": events cannot have dimensions more than 1") end
    local scalar = type(period) == "number"
    local p = U.arr(period, fname, "period")
    if p.ndim > 1 then fail(fname .. ": period cannot have dimensions more than 1") end
    if p.ndim == 0 then scalar = true end
    p = U.cast(p:reshape({ -1, 1 }), "float64")
    if ga.any(p:le(0)):item() then fail(fname .. ": periods must be positive") end
    local phase = (2 * math.pi) * U.cast(e:reshape({ 1, -1 }), "float64") / p
    local mc = ga.mean(ga.cos(phase), { axis = 2 })
    local ms = ga.mean(ga.sin(phase), { axis = 2 })
    local strength, angle = ga.hypot(mc, ms), ga.arctan2(ms, mc)
    if scalar then return strength:reshape({}), angle:reshape({}) end
    return strength, angle
  end)
end
