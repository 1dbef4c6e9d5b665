--- Convolution and correlation (cupyx.scipy.signal's convolve, correlate,
-- fftconvolve, oaconvolve, convolve2d, correlate2d, sepfir2d,
-- choose_conv_method, correlation_lags).
--
-- Every mode is one formula in "full" coordinates: out[o] = sum over k of
-- in2[k] in1[o + off - k], with off 0 (full), (n2 - 1) // 2 (same) or
-- min(n1, n2) - 1 (valid) per axis; correlate is convolve with in2
-- reversed and conjugated, as SciPy defines it. Two engines compute it:
-- a direct kernel (each output sums over the smaller operand: the sum is
-- symmetric in the two) and the FFT (real or complex transforms over the
-- convolved axes, padded only as far as the mode's window needs, one
-- product scaled in the same lazily fused kernel, the inverse unscaled,
-- the window a view). method = "auto" picks by a cost model (below).
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local core = ga._core
  local U = S.U
  local fail = U.fail

  local function name(n) return "scipy.signal." .. n end

  local CTYPE = { float16 = "float16", float32 = "float", float64 = "double", complex64 = "complex64",
                  complex128 = "complex128", int8 = "int8", int16 = "int16", int32 = "int32", int64 = "int64",
                  uint8 = "uint8", uint16 = "uint16", uint32 = "uint32", uint64 = "uint64" }
  local ACC = { float16 = "float" }

  local PRE = nil
  local function prelude()
    PRE = PRE or (core.compile.kernel_source("common") .. core.compile.kernel_source("math"))
    return PRE
  end

  -- the direct N-D kernel: one thread per output, the odometer over the
  -- outer axes of the summed operand, a tight loop over its last axis
  local ND_SRC = [[
extern "C" __global__ void ga_conv_nd(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ out,
                                      const long long *__restrict__ meta, int D, long long nout) {
  const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= nout) return;
  const long long *na = meta, *nb = meta + D, *os = meta + 2 * D, *off = meta + 3 * D;
  long long f[8], lo[8], hi[8], k[8];
  long long rem = o;
  bool empty = false;
  for (int d = D - 1; d >= 0; d--) {
    const long long od = rem % os[d];
    rem /= os[d];
    f[d] = od + off[d];
    lo[d] = f[d] - (na[d] - 1) > 0 ? f[d] - (na[d] - 1) : 0;
    hi[d] = nb[d] - 1 < f[d] ? nb[d] - 1 : f[d];
    if (lo[d] > hi[d]) empty = true;
  }
  A s = A(0);
  if (!empty) {
    for (int d = 0; d < D; d++) k[d] = lo[d];
    const int L = D - 1;
    for (;;) {
      long long ib = 0, ia = 0;
      for (int d = 0; d < L; d++) {
        ib = ib * nb[d] + k[d];
        ia = ia * na[d] + (f[d] - k[d]);
      }
      ib = ib * nb[L] + lo[L];
      ia = ia * na[L] + (f[L] - lo[L]);
      for (long long q = lo[L]; q <= hi[L]; q++, ib++, ia--) s = s + (A)a[ia] * (A)b[ib];
      int d = L - 1;
      while (d >= 0) {
        if (++k[d] <= hi[d]) break;
        k[d] = lo[d];
        d--;
      }
      if (d < 0) break;
    }
  }
  out[o] = (T)s;
}
]]

  -- the index an out-of-range position r reads in an axis of n samples:
  -- mode 0 none (the fill value: -1), 1 periodic, 2 mirrored with the edge
  -- repeated (SciPy's "symm", ndimage's "reflect"), 3 mirrored about the
  -- edge ("mirror"), 4 the nearest edge
  local INDEX_SRC = [[
__device__ __forceinline__ long long ga_sig_index(long long r, long long n, int mode) {
  if (r >= 0 && r < n) return r;
  if (mode == 0) return -1;
  if (mode == 4) return r < 0 ? 0 : n - 1;
  if (mode == 1) {
    const long long m = r % n;
    return m < 0 ? m + n : m;
  }
  if (mode == 3) {
    if (n == 1) return 0;
    const long long p = 2 * n - 2;
    long long m = r % p;
    if (m < 0) m += p;
    return m < n ? m : p - m;
  }
  const long long p = 2 * n;
  long long m = r % p;
  if (m < 0) m += p;
  return m < n ? m : p - 1 - m;
}
template <typename X> __device__ __forceinline__ X ga_sig_fill(double r, double i) { return (X)r; }
template <> __device__ __forceinline__ complex64 ga_sig_fill<complex64>(double r, double i) {
  return complex64((float)r, (float)i);
}
template <> __device__ __forceinline__ complex128 ga_sig_fill<complex128>(double r, double i) {
  return complex128(r, i);
}
]]

  -- convolve2d / correlate2d with boundary conditions: in1 read through
  -- the boundary mode past its edges; flip 1 for convolution (full index
  -- f = o + off, in1 at f - k), 0 for correlation (in1 at f + k - (n2 - 1),
  -- in2 conjugated by the caller)
  local B2_SRC = [[
extern "C" __global__ void ga_conv2d(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ out,
                                     long long n1r, long long n1c, long long n2r, long long n2c, long long osr,
                                     long long osc, long long offr, long long offc, int flip, int bound,
                                     double fill_re, double fill_im) {
  const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= osr * osc) return;
  const A fill = ga_sig_fill<A>(fill_re, fill_im);
  const long long fr = o / osc + offr, fc = o % osc + offc;
  A s = A(0);
  for (long long kr = 0; kr < n2r; kr++) {
    const long long rr = ga_sig_index(flip ? fr - kr : fr + kr - (n2r - 1), n1r, bound);
    for (long long kc = 0; kc < n2c; kc++) {
      const long long cc = ga_sig_index(flip ? fc - kc : fc + kc - (n2c - 1), n1c, bound);
      const A v = (rr < 0 || cc < 0) ? fill : (A)a[rr * n1c + cc];
      s = s + v * (A)b[kr * n2c + kc];
    }
  }
  out[o] = (T)s;
}
]]

  -- a 1-D convolution along the last axis of rows x n, output n long,
  -- centred as ndimage's convolve1d: y[j] = sum_k w[k] x[j - k + L // 2],
  -- x read past its ends through the boundary mode (cval for mode 0)
  local C1_SRC = [[
extern "C" __global__ void ga_conv1d(const T *__restrict__ x, const T *__restrict__ w, T *__restrict__ y,
                                     long long rows, long long n, int L, int mode, double cval_re,
                                     double cval_im) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * n) return;
  const long long r = i / n, j = i % n;
  const A cval = ga_sig_fill<A>(cval_re, cval_im);
  A s = A(0);
  for (int k = 0; k < L; k++) {
    const long long p = ga_sig_index(j - k + L / 2, n, mode);
    const A v = p < 0 ? cval : (A)x[r * n + p];
    s = s + (A)w[k] * v;
  }
  y[i] = (T)s;
}
]]

  local kernels = {}
  local function kernel(which, dt)
    local key = which .. ":" .. dt
    if kernels[key] then return kernels[key] end
    local body = ({ nd = ND_SRC, ["2d"] = B2_SRC, ["1d"] = C1_SRC })[which]
    local src = prelude() .. ("typedef %s T;\ntypedef %s A;\n"):format(CTYPE[dt], ACC[dt] or CTYPE[dt])
      .. INDEX_SRC .. body
    local k = ga.RawKernel(src, ({ nd = "ga_conv_nd", ["2d"] = "ga_conv2d", ["1d"] = "ga_conv1d" })[which])
    kernels[key] = k
    return k
  end
  S.conv_kernel = kernel   -- the CPU specs compile it

  local function as_input(x, fname, what)
    x = U.arr(x, fname, what)
    return x
  end

  -- the dtype convolution computes in (bool in int64, then back)
  local function conv_dtype(a, b)
    local dt = ga.result_type(a.dtype, b.dtype)
    return dt
  end

  -- output shape and offsets of a mode
  local function mode_geometry(n1, n2, mode, fname)
    local os, off = {}, {}
    if mode == "valid" then
      local ge, le = true, true
      for d = 1, #n1 do
        ge = ge and n1[d] >= n2[d]
        le = le and n1[d] <= n2[d]
      end
      if not (ge or le) then
        fail(fname .. ": For 'valid' mode, one must be at least as large as the other in every dimension")
      end
    end
    for d = 1, #n1 do
      if mode == "full" then
        os[d], off[d] = n1[d] + n2[d] - 1, 0
      elseif mode == "same" then
        os[d], off[d] = n1[d], (n2[d] - 1) // 2
      else
        os[d], off[d] = math.abs(n1[d] - n2[d]) + 1, math.min(n1[d], n2[d]) - 1
      end
    end
    return os, off
  end
  S.mode_geometry = mode_geometry

  local function prod(t)
    local p = 1
    for _, v in ipairs(t) do p = p * v end
    return p
  end

  --- The direct engine: in1, in2 of one dtype and ndim (1..8)
  local function direct(in1, in2, mode, fname)
    local n1, n2 = in1.shape, in2.shape
    local os, off = mode_geometry(n1, n2, mode, fname)
    local dt = in1.dtype
    local kdt = dt == "bool" and "int64" or dt
    local a, b = ga.ascontiguousarray(U.cast(in1, kdt)), ga.ascontiguousarray(U.cast(in2, kdt))
    -- sum over the smaller operand (the formula is symmetric in the two)
    if b.size > a.size then a, b, n1, n2 = b, a, n2, n1 end
    local out = ga.empty(os, kdt)
    local nout = out.size
    if nout > 0 then
      if a.size == 0 or b.size == 0 then
        out:fill(0)
      else
        local meta = {}
        for d = 1, #n1 do
          meta[d], meta[#n1 + d], meta[2 * #n1 + d], meta[3 * #n1 + d] = n1[d], n2[d], os[d], off[d]
        end
        local threads = 256
        kernel("nd", kdt)((nout + threads - 1) // threads, threads,
                          { a, b, out, ga.array(meta, "int64"), #n1, nout })
      end
    end
    return U.cast(out, dt)
  end

  ---------------------------------------------------------------------------
  -- FFT engine

  --- The smallest 7-smooth number >= n (cuFFT's fast sizes: 2, 3, 5, 7)
  local function fast_len(n)
    if n <= 6 then return math.max(n, 1) end
    local best = math.huge
    local p7 = 1
    while p7 < 2 * n do
      local p5 = p7
      while p5 < 2 * n do
        local p3 = p5
        while p3 < 2 * n do
          local p2 = p3
          while p2 < n do p2 = p2 * 2 end
          if p2 < best then best = p2 end
          p3 = p3 * 3
        end
        p5 = p5 * 5
      end
      p7 = p7 * 7
    end
    return best
  end
  S.fast_len = fast_len

  -- the transform length an axis needs: the full length, less the part of
  -- it the mode's window never sees wrap onto (circular convolution of
  -- length L puts full[i + L] onto i: harmless for i < the window's start),
  -- and never less than either input (both are padded to it: "same" with
  -- in2 longer than in1 needs more than full - start)
  local function fft_len(n1, n2, mode)
    local full = n1 + n2 - 1
    local start
    if mode == "full" then start = 0
    elseif mode == "same" then start = (n2 - 1) // 2
    else start = math.min(n1, n2) - 1 end
    return fast_len(math.max(full - start, n1, n2, 1))
  end
  S.fft_len = fft_len

  local function padded(x, shape, dt)
    local same = true
    for d = 1, x.ndim do same = same and x.shape[d] == shape[d] end
    if same then return U.cast(x, dt) end
    local z = ga.zeros(shape, dt)
    local key = {}
    for d = 1, x.ndim do key[d] = { 1, x.shape[d] } end
    if x.size > 0 then z[key] = x end
    return z
  end

  --- fftconvolve over the axes (a list of 1-based axes); in1, in2 of one
  -- ndim, the other axes equal or 1 (broadcast)
  local function fftconv(in1, in2, mode, axes, fname)
    local nd = in1.ndim
    local dt = ga.result_type(in1.dtype, in2.dtype)
    local complex = U.is_complex(dt)
    dt = U.inexact(dt)
    local conv = {}
    for _, a in ipairs(axes) do conv[a] = true end
    -- the shapes: convolved axes padded, the others broadcast
    local s1, s2, outshape, L = {}, {}, {}, {}
    for d = 1, nd do
      local a, b = in1.shape[d], in2.shape[d]
      if conv[d] then
        L[#L + 1] = fft_len(a, b, mode)
        s1[d], s2[d] = L[#L], L[#L]
      else
        if a ~= b and a ~= 1 and b ~= 1 then
          fail(("%s: incompatible shapes for in1 and in2: %s and %s"):format(fname, U.shape_str(in1.shape),
            U.shape_str(in2.shape)))
        end
        s1[d], s2[d] = a, b
      end
    end
    local n1, n2 = {}, {}
    for i, a in ipairs(axes) do n1[i], n2[i] = in1.shape[a], in2.shape[a] end
    local os, off = mode_geometry(n1, n2, mode, fname)
    for d = 1, nd do outshape[d] = math.max(in1.shape[d], in2.shape[d]) end
    for i, a in ipairs(axes) do outshape[a] = os[i] end
    if in1.size == 0 or in2.size == 0 then return ga.zeros(outshape, dt) end
    local total = 1
    for _, l in ipairs(L) do total = total * l end
    local a1, a2 = padded(in1, s1, dt), padded(in2, s2, dt)
    local fft = ga.fft
    local prodf
    if complex then
      local F1, F2 = fft.fftn(a1, nil, axes), fft.fftn(a2, nil, axes)
      prodf = fft.ifftn(F1 * F2 * (1 / total), nil, axes, "forward")
    else
      local F1, F2 = fft.rfftn(a1, nil, axes), fft.rfftn(a2, nil, axes)
      local lastn = {}
      for i, a in ipairs(axes) do lastn[i] = s1[a] end
      prodf = fft.irfftn(F1 * F2 * (1 / total), lastn, axes, "forward")
    end
    -- the mode's window (a view)
    local key = {}
    for d = 1, nd do key[d] = {} end
    for i, a in ipairs(axes) do key[a] = { off[i] + 1, off[i] + os[i] } end
    return prodf[key]
  end

  local function axes_arg(axes, nd, fname)
    if axes == nil then
      local t = {}
      for d = 1, nd do t[d] = d end
      return t
    end
    if type(axes) == "number" then axes = { axes } end
    local out, seen = {}, {}
    for i, a in ipairs(axes) do
      out[i] = U.axis(a, nd, fname)
      if seen[out[i]] then fail(fname .. ": all axes must be unique") end
      seen[out[i]] = true
    end
    table.sort(out)
    return out
  end

  local function same_ndim(in1, in2, fname)
    if in1.ndim ~= in2.ndim then fail(fname .. ": in1 and in2 should have the same dimensionality") end
    if in1.ndim == 0 then fail(fname .. ": in1 and in2 must be at least 1-D") end
    if in1.ndim > 8 then fail(fname .. ": at most 8 dimensions") end
  end

  local MODE = [["full"|"valid"|"same"]]

  api.def(signal, ([[
scipy.signal.fftconvolve(in1: array_like, in2: array_like, mode: %s = "full", axes: integer|list? = nil) -> ndarray
Convolve two N-D arrays with FFTs (over axes, 1-based, all by default; the
other axes broadcast). Real inputs use real transforms. "same" and "valid"
return a view of the padded product's window.
]]):format(MODE), function(in1, in2, mode, axes)
    local fname = name("fftconvolve")
    in1, in2 = as_input(in1, fname, "in1"), as_input(in2, fname, "in2")
    same_ndim(in1, in2, fname)
    return fftconv(in1, in2, mode, axes_arg(axes, in1.ndim, fname), fname)
  end)

  api.def(signal, ([[
scipy.signal.oaconvolve(in1: array_like, in2: array_like, mode: %s = "full", axes: integer|list? = nil) -> ndarray
Convolve with FFTs as overlap-add does (SciPy's values). On the GPU one
padded transform of the whole array is faster than many small ones, so this
is fftconvolve's computation.
]]):format(MODE), function(in1, in2, mode, axes)
    local fname = name("oaconvolve")
    in1, in2 = as_input(in1, fname, "in1"), as_input(in2, fname, "in2")
    same_ndim(in1, in2, fname)
    return fftconv(in1, in2, mode, axes_arg(axes, in1.ndim, fname), fname)
  end)

  ---------------------------------------------------------------------------
  -- choosing the method: a model of the device's cost

  -- The direct kernel does out_size * min(n1, n2) multiply-adds from
  -- L1-cached loads, about R_DIRECT of them a second on an H100-class
  -- device; the FFT path does three transforms of the padded size (each
  -- about 5 N log2 N flops, memory-bound, R_FFT a second) and three
  -- elementwise passes, plus a fixed cost of launches and plan lookups.
  local R_DIRECT, R_FFT = 4e11, 2e12
  local T_DIRECT, T_FFT = 5e-6, 40e-6
  local function costs(n1, n2, mode)
    local out, full, padded_n = 1, 1, 1
    local small = math.min(prod(n1), prod(n2))
    for d = 1, #n1 do
      local f = n1[d] + n2[d] - 1
      local o = mode == "full" and f or (mode == "same" and n1[d] or math.abs(n1[d] - n2[d]) + 1)
      out = out * o
      full = full * f
      padded_n = padded_n * fft_len(n1[d], n2[d], mode)
    end
    local direct_t = T_DIRECT + out * small / R_DIRECT
    local fft_t = T_FFT + 3 * 5 * padded_n * math.log(math.max(padded_n, 2), 2) / R_FFT
    return direct_t, fft_t
  end
  S.conv_costs = costs

  local INT = { int8 = true, int16 = true, int32 = true, int64 = true, uint8 = true, uint16 = true,
                uint32 = true, uint64 = true }

  -- SciPy's rules, then the model: integers whose products can pass 2^52
  -- and booleans stay direct (exact), the rest take the cheaper engine
  local function choose(in1, in2, mode)
    if in1.dtype == "bool" or in2.dtype == "bool" then return "direct" end
    if INT[in1.dtype] or INT[in2.dtype] then
      if in1.size > 0 and in2.size > 0 then
        local m1 = ga.max(ga.abs(in1)):item()
        local m2 = ga.max(ga.abs(in2)):item()
        if m1 * m2 * math.min(in1.size, in2.size) > 2 ^ 52 - 1 then return "direct" end
      end
    end
    local d, f = costs(in1.shape, in2.shape, mode)
    return f < d and "fft" or "direct"
  end

  local function timed(fn)
    fn()
    ga.synchronize()
    local e0, e1 = ga.Event({ timing = true }), ga.Event({ timing = true })
    e0:record()
    fn()
    e1:record()
    e1:synchronize()
    return ga.get_elapsed_time(e0, e1) / 1000
  end

  api.def(signal, ([[
scipy.signal.choose_conv_method(in1: array_like, in2: array_like, mode: %s = "full",
                                measure: boolean = false) -> string[, table]
"direct" or "fft", whichever convolve would run faster: integers that
could lose precision in floats and booleans take "direct"; otherwise a
model of the device's cost (docs/scipy-signal.md). measure = true times both
on the device and also returns {direct = s, fft = s}.
]]):format(MODE), function(in1, in2, mode, measure)
    local fname = name("choose_conv_method")
    in1, in2 = as_input(in1, fname, "in1"), as_input(in2, fname, "in2")
    same_ndim(in1, in2, fname)
    if measure then
      local t = {
        direct = timed(function() direct(in1, in2, mode, fname) end),
        fft = timed(function() fftconv(in1, in2, mode, axes_arg(nil, in1.ndim, fname), fname) end),
      }
      return t.fft < t.direct and "fft" or "direct", t
    end
    return choose(in1, in2, mode)
  end)

  local function convolve(in1, in2, mode, method, fname)
    same_ndim(in1, in2, fname)
    if method == "auto" then method = choose(in1, in2, mode) end
    if method == "direct" then
      local dt = conv_dtype(in1, in2)
      return direct(U.cast(in1, dt), U.cast(in2, dt), mode, fname)
    end
    local out = fftconv(in1, in2, mode, axes_arg(nil, in1.ndim, fname), fname)
    local rt = ga.result_type(in1.dtype, in2.dtype)
    if INT[rt] then return ga.around(out):astype(rt) end
    if rt == "bool" then return out:astype("bool") end
    return out
  end
  S.convolve = convolve

  local METHOD = [["auto"|"direct"|"fft"]]
  api.def(signal, ([[
scipy.signal.convolve(in1: array_like, in2: array_like, mode: %s = "full", method: %s = "auto") -> ndarray
Convolve two N-D arrays (same number of dimensions): "full", "same" (in1's
shape, centred) or "valid"; method "direct", "fft" or "auto" (a cost model).
]]):format(MODE, METHOD), function(in1, in2, mode, method)
    local fname = name("convolve")
    return convolve(as_input(in1, fname, "in1"), as_input(in2, fname, "in2"), mode, method, fname)
  end)

  --- in2 reversed along every axis and conjugated (SciPy's _reverse_and_conj)
  local function reverse_conj(x)
    local key = {}
    for d = 1, x.ndim do key[d] = { nil, nil, -1 } end
    local r = x[key]
    if U.is_complex(x.dtype) then r = ga.conj(r) end
    return r
  end
  S.reverse_conj = reverse_conj

  api.def(signal, ([[
scipy.signal.correlate(in1: array_like, in2: array_like, mode: %s = "full", method: %s = "auto") -> ndarray
Cross-correlate two N-D arrays: convolve(in1, in2 reversed and conjugated, mode), SciPy's definition.
]]):format(MODE, METHOD), function(in1, in2, mode, method)
    local fname = name("correlate")
    in1, in2 = as_input(in1, fname, "in1"), as_input(in2, fname, "in2")
    same_ndim(in1, in2, fname)
    return convolve(in1, reverse_conj(in2), mode, method, fname)
  end)

  ---------------------------------------------------------------------------
  -- 2-D with boundary conditions

  local BOUND = { fill = 0, pad = 0, wrap = 1, circular = 1, symm = 2, symmetric = 2 }

  local function conv2d(in1, in2, mode, boundary, fillvalue, flip, fname)
    if in1.ndim ~= 2 or in2.ndim ~= 2 then fail(fname .. ": inputs must both be 2-D arrays") end
    local bound = BOUND[boundary]
    if bound == nil then fail(fname .. ": Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and "
      .. "'symmetric' (or 'symm').") end
    local swapped = false
    if mode == "valid" then
      local n1, n2 = in1.shape, in2.shape
      local ge = n1[1] >= n2[1] and n1[2] >= n2[2]
      local le = n1[1] <= n2[1] and n1[2] <= n2[2]
      if not (ge or le) then
        fail(fname .. ": For 'valid' mode, one must be at least as large as the other in every dimension")
      end
      if not ge then in1, in2, swapped = in2, in1, true end
    end
    local dt = ga.result_type(in1.dtype, in2.dtype)
    local kdt = dt == "bool" and "int64" or dt
    local a = ga.ascontiguousarray(U.cast(in1, kdt))
    local b = U.cast(in2, kdt)
    if not flip and U.is_complex(kdt) then b = ga.conj(b) end
    b = ga.ascontiguousarray(b)
    local n1r, n1c, n2r, n2c = a.shape[1], a.shape[2], b.shape[1], b.shape[2]
    local osr, osc, offr, offc
    if mode == "full" then
      osr, osc, offr, offc = n1r + n2r - 1, n1c + n2c - 1, 0, 0
    elseif mode == "same" then
      osr, osc = n1r, n1c
      if flip then offr, offc = (n2r - 1) // 2, (n2c - 1) // 2 else offr, offc = n2r // 2, n2c // 2 end
    else
      osr, osc, offr, offc = n1r - n2r + 1, n1c - n2c + 1, n2r - 1, n2c - 1
    end
    local out = ga.empty({ osr, osc }, kdt)
    local nout = osr * osc
    if nout > 0 then
      if a.size == 0 then fail(fname .. ": in1 must not be empty") end
      local threads = 256
      kernel("2d", kdt)((nout + threads - 1) // threads, threads,
                        { a, b, out, n1r, n1c, n2r, n2c, osr, osc, offr, offc, flip and 1 or 0, bound,
                          fillvalue + 0.0, 0.0 })
    end
    out = U.cast(out, dt)
    if swapped and not flip then out = out[{ { nil, nil, -1 }, { nil, nil, -1 } }] end
    return out
  end

  local BOUNDARY = [["fill"|"pad"|"wrap"|"circular"|"symm"|"symmetric"]]
  api.def(signal, ([[
scipy.signal.convolve2d(in1: array_like, in2: array_like, mode: %s = "full", boundary: %s = "fill",
                        fillvalue: number = 0) -> ndarray
Convolve two 2-D arrays directly; in1 is read past its edges as the
boundary says: fillvalue, periodic ("wrap") or mirrored ("symm").
]]):format(MODE, BOUNDARY), function(in1, in2, mode, boundary, fillvalue)
    local fname = name("convolve2d")
    return conv2d(as_input(in1, fname, "in1"), as_input(in2, fname, "in2"), mode, boundary, fillvalue, true, fname)
  end)

  api.def(signal, ([[
scipy.signal.correlate2d(in1: array_like, in2: array_like, mode: %s = "full", boundary: %s = "fill",
                         fillvalue: number = 0) -> ndarray
Cross-correlate two 2-D arrays directly, with convolve2d's boundaries
("same" centres as SciPy's correlate2d: on n2 // 2).
]]):format(MODE, BOUNDARY), function(in1, in2, mode, boundary, fillvalue)
    local fname = name("correlate2d")
    return conv2d(as_input(in1, fname, "in1"), as_input(in2, fname, "in2"), mode, boundary, fillvalue, false, fname)
  end)

  api.def(signal, [[
scipy.signal.sepfir2d(input: array_like, hrow: array_like, hcol: array_like) -> ndarray
Convolve a 2-D array with the separable filter hrow (along rows) x hcol
(along columns), mirror-symmetric boundaries, the output in's shape.
]], function(input, hrow, hcol)
    local fname = name("sepfir2d")
    local x = as_input(input, fname, "input")
    if x.ndim ~= 2 then fail(fname .. ": input must be 2-D") end
    local dt = U.inexact(x.dtype)
    local hr, hc = U.cast(as_input(hrow, fname, "hrow"), dt), U.cast(as_input(hcol, fname, "hcol"), dt)
    if hr.ndim ~= 1 or hc.ndim ~= 1 then fail(fname .. ": hrow and hcol must be 1-D") end
    if hr.size % 2 == 0 or hc.size % 2 == 0 then fail(fname .. ": hrow and hcol must be odd length") end
    -- rows first, then columns, each mirrored past the edges (edge repeated)
    local r = S.conv1d_axis(U.cast(x, dt), hr, 2, "reflect", 0)
    return S.conv1d_axis(r, hc, 1, "reflect", 0)
  end)

  local MODE1 = { constant = 0, wrap = 1, reflect = 2, mirror = 3, nearest = 4 }

  --- ndimage's convolve1d along axis (1-based): y[j] = sum_k w[k]
  -- x[j - k + #w // 2], x's boundary mode "constant" (cval), "wrap",
  -- "reflect", "mirror" or "nearest"; x's dtype (inexact), w cast to it
  function S.conv1d_axis(x, w, axis, mode, cval)
    local dt = x.dtype
    local x2, back = S.as_rows(x, axis, dt)
    local rows, n = x2.shape[1], x2.shape[2]
    local y = ga.empty({ rows, n }, dt)
    if rows * n > 0 then
      local threads = 256
      kernel("1d", dt)((rows * n + threads - 1) // threads, threads,
                       { x2, ga.ascontiguousarray(U.cast(w, dt)), y, rows, n, w.size, MODE1[mode], cval + 0.0, 0.0 })
    end
    return back(y)
  end

  api.def(signal, ([[
scipy.signal.correlation_lags(in1_len: integer, in2_len: integer, mode: %s = "full") -> ndarray
The lags (values, not positions) at which correlate's 1-D output is taken.
]]):format(MODE), function(in1_len, in2_len, mode)
    local lo, hi
    if mode == "full" then
      lo, hi = -in2_len + 1, in1_len - 1
    elseif mode == "same" then
      -- the middle in1_len lags of the full range (SciPy's slicing)
      lo = -in2_len + 1 + (in1_len + in2_len - 1) // 2 - in1_len // 2
      hi = lo + in1_len - 1
    else
      local lag_max = in1_len - in2_len
      if lag_max >= 0 then lo, hi = 0, lag_max else lo, hi = lag_max, 0 end
    end
    return ga.arange(lo, hi + 1, 1, "int64")
  end)
end
