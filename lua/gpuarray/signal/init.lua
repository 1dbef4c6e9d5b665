--- ga.signal: cupyx.signal's routines (radar and channelizer tools from
-- cuSignal): channelize_poly, convolve1d3o, pulse_compression,
-- pulse_doppler, cfar_alpha, ca_cfar, freq_shift. They build on
-- ga.scipy.signal (loaded when one of them is first called) and ga.fft.
return function(ga)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local signal = {}
  ga.signal = signal

  local function private()
    local _ = ga.scipy.signal
    return internal.scipy_signal
  end

  -- the kernels, by name (made on first use; the CPU specs compile them)
  local KDEF = {
    freq_shift = { "T x, float64 c", "complex128 out", [[
      double s, co;
      sincos(c * (double)i, &s, &co);
      out = complex128(co, s) * (complex128)x;
    ]] },
    cfar1 = { "raw float32 cs, int64 n, int64 g, int64 r, float32 scale", "float32 m", [[
        const long long x = i;
        if (x < g + r || x >= n - g - r) { m = 0; }
        else {
          const float big = cs[x + g + r] - (x - g - r - 1 >= 0 ? cs[x - g - r - 1] : 0.0f);
          const float small = cs[x + g] - (x - g - 1 >= 0 ? cs[x - g - 1] : 0.0f);
          m = scale * (big - small);
        }
      ]] },
    cfar2 = { "raw float32 s, int64 W, int64 H, int64 gx, int64 gy, int64 rx, int64 ry, float32 scale", "float32 m", [[
        const long long x = i / H, y = i % H;
        if (x < gx + rx || x >= W - gx - rx || y < gy + ry || y >= H - gy - ry) { m = 0; }
        else {
          // the sum over the rectangle [x0, x1] x [y0, y1] from the summed-area table
          #define GA_SAT(x0, x1, y0, y1) (s[(x1) * H + (y1)] - ((x0) > 0 ? s[((x0) - 1) * H + (y1)] : 0.0f) \
            - ((y0) > 0 ? s[(x1) * H + (y0) - 1] : 0.0f) + ((x0) > 0 && (y0) > 0 ? s[((x0) - 1) * H + (y0) - 1] : 0.0f))
          const float outer = GA_SAT(x - gx - rx, x + gx + rx, y - gy - ry, y + gy + ry);
          const float inner = GA_SAT(x - gx, x + gx, y - gy, y + gy);
          #undef GA_SAT
          m = scale * (outer - inner);
        }
      ]] },
    conv3o = { "raw T a, raw T k, int64 W, int64 H, int64 D", "T out", [[
      T s = T(0);
      for (long long x = 0; x < W; x++)
        for (long long y = 0; y < H; y++) {
          const T ab = a[i + W - x - 1] * a[i + H - y - 1];
          for (long long z = 0; z < D; z++) s = s + ab * a[i + D - z - 1] * k[(H * x + y) * D + z];
        }
      out = s;
    ]] },
    channelize = { "raw T x, raw T h, int64 C, int64 taps", "T y", [[
      const long long bid = i / C, ch = i % C;
      T s = T(0);
      for (long long t = 0; t < taps && t <= bid; t++)
        s = s + h[t * C + ch] * x[(bid - t) * C + (C - 1 - ch)];
      y = T(s.re, -s.im);   // the sum of conj(h) conj(x)
    ]] },
  }
  local kernels = {}
  local function ew(key)
    if not kernels[key] then
      local d = KDEF[key]
      kernels[key] = ga.ElementwiseKernel(d[1], d[2], d[3], "ga_cupyx_signal_" .. key)
    end
    return kernels[key]
  end
  internal.cupyx_signal_kernel = ew

  local function arr(x, fname, what)
    local S = private()
    return S.U.arr(x, fname, what)
  end

  -- a window for the pulse functions: a function of the FFT frequencies,
  -- an ndarray of n taps, or a get_window spec (symmetric)
  local function window_of(window, n, dt, fname)
    local S = private()
    if type(window) == "function" then
      return S.U.cast(api.call_user(window, ga.fft.fftfreq(n)), dt)
    end
    if is_array(window) then
      if window.ndim ~= 1 or window.size ~= n then fail(fname .. ": window must have the same length as data") end
      return S.U.cast(window, dt)
    end
    return S.U.cast(S.U.up(S.window_host(window, n, false, fname), "float64"), dt)
  end

  local function real_of(dt) return (dt == "complex64" or dt == "float32") and "float32" or "float64" end

  api.def(signal, [[
signal.freq_shift(x: array_like, freq: number, fs: number) -> ndarray
Shift a signal's spectrum by freq (Hz) at sampling rate fs: x[n] e^(-2 pi i freq n / fs) (complex128).
]], function(x, freq, fs)
    local fname = "signal.freq_shift"
    x = arr(x, fname, "x")
    local c = -2 * math.pi * freq / fs
    local k = ew("freq_shift")
    return k(x:reshape({ -1 }), c):reshape(x.shape)
  end)

  api.def(signal, [[
signal.cfar_alpha(pfa: number, N: integer) -> number
The CA-CFAR threshold factor for a probability of false alarm pfa over N reference cells.
]], function(pfa, N) return N * (pfa ^ (-1.0 / N) - 1) end)

  api.def(signal, [[
signal.ca_cfar(array: array_like, guard_cells: integer|list, reference_cells: integer|list,
               pfa: number = 0.001) -> ndarray, ndarray
Cell-averaging CFAR of a 1-D or 2-D array: the threshold (float32: alpha /
N times the sum of the reference cells around each cell, zero where the
window does not fit) and the detections (array above the threshold).
guard_cells and reference_cells are one-sided counts (a pair for 2-D).
]], function(array, guard, ref, pfa)
    local fname = "signal.ca_cfar"
    local x = arr(array, fname, "array")
    if x.ndim > 2 or x.ndim < 1 then fail(fname .. ": Only 1D and 2D arrays are currently supported.") end
    local xf = ga.ascontiguousarray(x:astype("float32"))
    local mask
    if x.ndim == 1 then
      if type(guard) ~= "number" or type(ref) ~= "number" then fail(fname .. ": cell counts must be integers") end
      if x.size <= 2 * guard + 2 * ref then fail(fname .. ": Array too small for given parameters") end
      local N = 2 * ref
      local alpha = signal.cfar_alpha(pfa, N)
      local csum = ga.cumsum(xf, 1, { dtype = "float32" })
      mask = ew("cfar1")(csum, x.size, guard, ref, ga.float32(alpha / N), ga.empty(x.size, "float32"))
    else
      if type(guard) ~= "table" or type(ref) ~= "table" or #guard ~= 2 or #ref ~= 2 then
        fail(fname .. ": Guard and reference cells must be two dimensional.")
      end
      local gx, gy, rx, ry = guard[1], guard[2], ref[1], ref[2]
      if x.shape[1] - 2 * gx - 2 * rx <= 0 then
        fail(fname .. ": Array first dimension too small for given parameters.")
      end
      if x.shape[2] - 2 * gy - 2 * ry <= 0 then
        fail(fname .. ": Array second dimension too small for given parameters.")
      end
      local N = 2 * rx * (2 * ry + 2 * gy + 1) + 2 * (2 * gx + 1) * ry
      local alpha = signal.cfar_alpha(pfa, N)
      local sat = ga.cumsum(ga.cumsum(xf, 1, { dtype = "float32" }), 2, { dtype = "float32" })
      mask = ew("cfar2")(sat, x.shape[1], x.shape[2], gx, gy, rx, ry, ga.float32(alpha / N),
                         ga.empty(x.shape, "float32"))
    end
    return mask, (x - mask):gt(0)
  end)

  api.def(signal, [[
signal.pulse_compression(x: array_like, template: array_like, normalize: boolean = false,
                         window: string|number|list|ndarray|function? = nil, nfft: integer? = nil) -> ndarray
Matched filtering of pulses (rows of x) with the transmitted template, in
the frequency domain (nfft points, the samples per pulse by default).
]], function(x, template, normalize, window, nfft)
    local fname = "signal.pulse_compression"
    x, template = arr(x, fname, "x"), arr(template, fname, "template")
    if x.ndim ~= 2 then fail(fname .. ": x must be 2-D (pulses x samples)") end
    if template.ndim ~= 1 then fail(fname .. ": template must be 1-D") end
    nfft = nfft or x.shape[2]
    local t = template
    if window ~= nil then t = t * window_of(window, t.size, real_of(t.dtype), fname) end
    if normalize then t = t / ga.linalg.norm(t) end
    local fx = ga.fft.fft(x, nfft)
    local ft = ga.conj(ga.fft.fft(t, nfft))
    return ga.fft.ifft(fx * ft, nfft)
  end)

  api.def(signal, [[
signal.pulse_doppler(x: array_like, window: string|number|list|ndarray|function? = nil, nfft: integer? = nil) -> ndarray
Pulse-Doppler processing: the FFT across the pulses (x's first axis, nfft
points, the number of pulses by default), windowed along it.
]], function(x, window, nfft)
    local fname = "signal.pulse_doppler"
    x = arr(x, fname, "x")
    if x.ndim ~= 2 then fail(fname .. ": x must be 2-D (pulses x samples)") end
    nfft = nfft or x.shape[1]
    if window ~= nil then x = x * window_of(window, x.shape[1], real_of(x.dtype), fname):reshape({ -1, 1 }) end
    return ga.fft.fft(x, nfft, 1)
  end)

  api.def(signal, [[
signal.convolve1d3o(in1: array_like, in2: array_like, mode: "valid" = "valid", method: "direct" = "direct") -> ndarray
The third-order (Volterra) convolution of a 1-D signal with a 3-D kernel:
out[n] = sum over x, y, z of in1[n + W-1-x] in1[n + H-1-y] in1[n + D-1-z] in2[x, y, z].
]], function(in1, in2, _, _)
    local fname = "signal.convolve1d3o"
    local a, k = arr(in1, fname, "in1"), arr(in2, fname, "in2")
    if a.ndim ~= 1 then fail(fname .. ": in1 should have one dimension") end
    if k.ndim ~= 3 then fail(fname .. ": in2 should have three dimension") end
    local dt = ga.result_type(a.dtype, k.dtype)
    local W, H, D = k.shape[1], k.shape[2], k.shape[3]
    local n = a.size - math.max(W, H, D) + 1
    if n < 1 then fail(fname .. ": in1 is shorter than in2") end
    local kern = ew("conv3o")
    return kern(ga.ascontiguousarray(a:astype(dt)), ga.ascontiguousarray(k:astype(dt)), W, H, D, ga.empty(n, dt))
  end)

  api.def(signal, [[
signal.channelize_poly(x: array_like, h: array_like, n_chans: integer) -> ndarray
A polyphase channelizer: x split into n_chans channels (channel spacing
equal to their number) with the prototype filter h; n_chans x (#x //
n_chans) complex outputs.
]], function(x, h, n_chans)
    local fname = "signal.channelize_poly"
    x, h = arr(x, fname, "x"), arr(h, fname, "h")
    if x.ndim ~= 1 or h.ndim ~= 1 then fail(fname .. ": x and h must be 1-D") end
    if n_chans < 1 then fail(fname .. ": n_chans must be positive") end
    local dt = ga.promote_types(x.dtype, h.dtype)
    local odt
    if dt == "float32" or dt == "complex64" then odt = "complex64"
    elseif dt == "float64" or dt == "complex128" then odt = "complex128"
    else fail(("%s: Data type (%s) not allowed."):format(fname, dt)) end
    local n_taps = h.size // n_chans
    local n_pts = x.size // n_chans
    local cdt = dt:find("complex") and dt or odt
    local kern = ew("channelize")
    local y = kern(ga.ascontiguousarray(x:astype(cdt)), ga.ascontiguousarray(h:astype(cdt)), n_chans, n_taps,
                   ga.empty({ n_pts, n_chans }, cdt))
    return ga.conj(ga.fft.fft(y)).T
  end)
end
