--- The discrete cosine and sine transforms of types 1-4 on cuFFT, with
-- SciPy's definitions, norms and orthogonalize. The algorithms, step for
-- step, are tools/fft/dct_proto.py (checked there against scipy.fft for
-- every type, norm and length); each step is one kernel or one cuFFT call:
--   DCT-II   v = x reordered (evens, then odds reversed); rfft; y_k =
--            2 Re(exp(-i pi k / 2N) V_k)      (Makhoul; the dct2 bench key)
--   DCT-III  the same run backwards: V_k = exp(i pi k / 2N)(x_k - i x_N-k)/2,
--            irfft, the reordering undone, times 2N
--   DCT-I    the even extension of length 2(N-1), rfft, real part
--   DST-I    the odd extension of length 2(N+1), rfft, minus imaginary part
--   DCT-IV   2 Re(exp(-i pi (2k+1) / 4N) FFT_2N(x_n exp(-i pi n / 2N)))
--   DST-II/III/IV from DCT-II/III/IV with the input reversed or its signs
--            alternated.
-- Each 1-D transform runs along the last axis of a contiguous (rows, N)
-- array; another axis is first swapped last (a transposing copy).
return function(ga)
  local internal = require "gpuarray.internal"
  local core = ga._core
  local fail = internal.fail
  local M = {}

  -- kernels per precision: R the real type, C the complex one
  local SRC = {
    permute2 = { "raw R x, int64 N", "R v", [=[
      const long long j = i % N, b = i - j;
      v = x[b + (j < (N + 1) / 2 ? 2 * j : 2 * (N - 1 - j) + 1)]]=] },
    twiddle2 = { "raw C V, int64 N, int64 M, R f0, R f", "R y", [=[
      const long long k = i % N, b = i / N;
      const C v = k < M ? V[b * M + k] : ga_conj(V[b * M + N - k]);
      R s, c;
      sincospi((R)k / (R)(2 * N), &s, &c);
      y = (R)2 * (v.re * c + v.im * s) * (k == 0 ? f0 : f)]=] },
    twiddle3 = { "raw R x, int64 N, R x0scale", "C V", [=[
      const long long M = N / 2 + 1, k = i % M, b = i / M;
      const R a = x[b * N + k] * (k == 0 ? x0scale : (R)1);
      const R z = k > 0 ? x[b * N + N - k] : (R)0;
      R s, c;
      sincospi((R)k / (R)(2 * N), &s, &c);
      V = C((R)0.5 * (a * c + z * s), (R)0.5 * (a * s - z * c))]=] },
    unpermute3 = { "raw R v, int64 N, R f", "R u", [=[
      const long long m = i % N, b = i - m;
      u = v[b + ((m & 1) == 0 ? m / 2 : N - 1 - (m - 1) / 2)] * f]=] },
    even1 = { "raw R x, int64 N, R e", "R z", [=[
      const long long L = 2 * N - 2, j = i % L, b = i / L;
      const long long s = j < N ? j : L - j;
      z = x[b * N + s] * ((s == 0 || s == N - 1) ? e : (R)1)]=] },
    real1 = { "raw C Z, int64 N, R f, R fe", "R y", [=[
      const long long k = i % N, b = i / N;
      y = Z[b * N + k].re * f * ((k == 0 || k == N - 1) ? fe : (R)1)]=] },
    odd1 = { "raw R x, int64 N", "R z", [=[
      const long long L = 2 * N + 2, j = i % L, b = i / L;
      z = (j == 0 || j == N + 1) ? (R)0 : (j <= N ? x[b * N + j - 1] : -x[b * N + L - j - 1])]=] },
    imag1 = { "raw C Z, int64 N, R f", "R y", [=[
      const long long k = i % N, b = i / N;
      y = -Z[b * (N + 2) + k + 1].im * f]=] },
    pre4 = { "raw R x, int64 N", "C z", [=[
      const long long L = 2 * N, j = i % L, b = i / L;
      if (j < N) {
        R s, c;
        sincospi((R)j / (R)(2 * N), &s, &c);
        const R a = x[b * N + j];
        z = C(a * c, -a * s);
      } else {
        z = C((R)0, (R)0);
      }]=] },
    post4 = { "raw C Z, int64 N, R f", "R y", [=[
      const long long k = i % N, b = i / N;
      const C v = Z[b * 2 * N + k];
      R s, c;
      sincospi((R)(2 * k + 1) / (R)(4 * N), &s, &c);
      y = (R)2 * (v.re * c + v.im * s) * f]=] },
  }
  local kernels = {}
  local function K(name, R)
    local key = name .. R
    local k = kernels[key]
    if k then return k end
    local C = R == "float32" and "complex64" or "complex128"
    local s = SRC[name]
    local function sub(t) return (t:gsub("%f[%w]R%f[%W]", R):gsub("%f[%w]C%f[%W]", C)) end
    local body = s[3]:gsub("%f[%w]R%f[%W]", R == "float32" and "float" or "double")
                     :gsub("%f[%w]C%f[%W]", C)
    k = ga.ElementwiseKernel(sub(s[1]), sub(s[2]), body, "sfft_" .. name)
    kernels[key] = k
    return k
  end
  --- for the CPU specs: every kernel of precision R, and its parameters' dtypes
  M.kernels = function(R)
    local list, dtypes = {}, {}
    local C = R == "float32" and "complex64" or "complex128"
    for name, src in pairs(SRC) do
      list[name] = K(name, R)
      local dt = {}
      for t in (src[1] .. ", " .. src[2]):gsub("raw ", ""):gmatch("(%w+) [%w_]+") do
        dt[#dt + 1] = t == "R" and R or t == "C" and C or t
      end
      dtypes[name] = dt
    end
    return list, dtypes
  end

  local function i64(n) return ga.int64(n) end
  local function rval(R, v) return R == "float32" and ga.float32(v) or ga.float64(v) end

  -- the cores, on x: a contiguous (rows, N) array of R; results (rows, N)
  local function dct2_core(x, N, R, f0, f)
    local v = ga.empty(x.shape, R)
    K("permute2", R)(x, i64(N), v)
    local V = core.fft.exec(v, "r2c", 1)
    local y = ga.empty(x.shape, R)
    K("twiddle2", R)(V, i64(N), i64(N // 2 + 1), rval(R, f0), rval(R, f), y)
    return y
  end
  local function dct3_core(x, N, R, x0scale, f)
    local rows = x.shape[1]
    local V = ga.empty({ rows, N // 2 + 1 }, R == "float32" and "complex64" or "complex128")
    K("twiddle3", R)(x, i64(N), rval(R, x0scale), V)
    local v = core.fft.exec(V, "c2r", 1, N)   -- unnormalized: sum V_k e^{+}, i.e. N times numpy's irfft
    local u = ga.empty(x.shape, R)
    K("unpermute3", R)(v, i64(N), rval(R, 2 * f), u)   -- 2N (1/N of irfft folded: cuFFT's c2r is unscaled)
    return u
  end
  local function dct1_core(x, N, R, e, f, fe)
    local rows = x.shape[1]
    local z = ga.empty({ rows, 2 * N - 2 }, R)
    K("even1", R)(x, i64(N), rval(R, e), z)
    local Z = core.fft.exec(z, "r2c", 1)
    local y = ga.empty(x.shape, R)
    K("real1", R)(Z, i64(N), rval(R, f), rval(R, fe), y)
    return y
  end
  local function dst1_core(x, N, R, f)
    local rows = x.shape[1]
    local z = ga.empty({ rows, 2 * N + 2 }, R)
    K("odd1", R)(x, i64(N), z)
    local Z = core.fft.exec(z, "r2c", 1)
    local y = ga.empty(x.shape, R)
    K("imag1", R)(Z, i64(N), rval(R, f), y)
    return y
  end
  local function dct4_core(x, N, R, f)
    local rows = x.shape[1]
    local z = ga.empty({ rows, 2 * N }, R == "float32" and "complex64" or "complex128")
    K("pre4", R)(x, i64(N), z)
    local Z = core.fft.exec(z, "c2c", 1, false)
    local y = ga.empty(x.shape, R)
    K("post4", R)(Z, i64(N), rval(R, f), y)
    return y
  end

  local SQ2 = math.sqrt(2)
  local function alternating(N, R)
    local a = ga.arange(N, R) % 2
    return 1 - 2 * a            -- 1, -1, 1, ...
  end
  local function reversed(x) return ga.ascontiguousarray(ga.flip(x, 2)) end

  --- the forward transform of type t (kind "dct" or "dst") with SciPy's
  -- norm and orthogonalize, on a contiguous (rows, N) array of R
  local function transform(kind, t, x, N, R, norm, orth)
    local size = t == 1 and (kind == "dct" and 2 * (N - 1) or 2 * (N + 1)) or 2 * N
    local f = norm == "forward" and 1 / size or norm == "ortho" and 1 / math.sqrt(size) or 1
    if kind == "dct" then
      if t == 1 then return dct1_core(x, N, R, orth and SQ2 or 1, f, orth and 1 / SQ2 or 1) end
      if t == 2 then return dct2_core(x, N, R, orth and f / SQ2 or f, f) end
      if t == 3 then return dct3_core(x, N, R, orth and SQ2 or 1, f) end
      return dct4_core(x, N, R, f)
    end
    if t == 1 then return dst1_core(x, N, R, f) end
    if t == 2 then
      -- DST-II(x)_k = DCT-II(x (-1)^n)_(N-1-k); SciPy 1.10 scales its first entry
      local y = reversed(dct2_core(x * alternating(N, R), N, R, f, f))
      if orth then
        local first = y[{ {}, 1 }]
        first:mul_(1 / SQ2)
      end
      return y
    end
    if t == 3 then
      -- DST-III(x)_k = (-1)^k DCT-III(reversed x)_k; SciPy 1.10 scales x's first entry
      if orth then
        x = x:copy()
        local first = x[{ {}, 1 }]
        first:mul_(SQ2)
      end
      return dct3_core(reversed(x), N, R, 1, f) * alternating(N, R)
    end
    return dct4_core(reversed(x), N, R, f) * alternating(N, R)
  end

  local INVERSE = { 2, 3, 2, 4 }
  INVERSE[1], INVERSE[2], INVERSE[3] = 1, 3, 2
  local SWAP = { backward = "forward", forward = "backward", ortho = "ortho" }

  local function float_type(dt)
    if dt == "float64" or dt == "complex128" then return "float64" end
    if dt == "float32" or dt == "float16" or dt == "complex64" then return "float32" end
    return "float64"
  end

  -- x with its axis resized to n (cropped view or zero-padded copy)
  local function resized(x, axis, n, fname)
    local cur = x.shape[axis]
    if n == nil or n == cur then return x end
    if n < 1 then fail(("%s: invalid number of data points (%d)"):format(fname, n)) end
    local key = {}
    for d = 1, x.ndim do key[d] = {} end
    if n < cur then
      key[axis] = { 1, n }
      return x[key]
    end
    local shape = x.shape
    shape[axis] = n
    local z = ga.zeros(shape, x.dtype)
    if cur > 0 then
      key[axis] = { 1, cur }
      z[key] = x
    end
    return z
  end

  --- one transform along one axis (1-based, normalized) of a real array
  local function along(kind, t, x, axis, norm, orth, inverse, fname)
    local R = x.dtype
    local nd = x.ndim
    local moved = axis ~= nd
    local xt = ga.ascontiguousarray(moved and x:swapaxes(axis, nd) or x)
    local shape = xt.shape
    local N = shape[nd]
    if N < 1 or (kind == "dct" and t == 1 and N < 2) then
      fail(("%s: invalid number of data points (%d) for type %d"):format(fname, N, t))
    end
    if xt.size == 0 then return x:copy() end
    local rows = xt.size // N
    if inverse then t, norm = INVERSE[t], SWAP[norm] end
    local y = transform(kind, t, xt:reshape(rows, N), N, R, norm, orth)
    y = y:reshape(shape)
    return moved and y:swapaxes(axis, nd) or y
  end

  --- the public entry: x any array; axes a list of 1-based axes; s the
  -- lengths (or nil); returns the transform (real, or complex for complex x)
  function M.apply(kind, t, x, s, axes, norm, orth, inverse, fname)
    if t ~= 1 and t ~= 2 and t ~= 3 and t ~= 4 then fail(fname .. ": type must be 1, 2, 3 or 4") end
    norm = norm or "backward"
    if orth == nil then orth = norm == "ortho" end
    local dt = x.dtype
    if dt == "complex64" or dt == "complex128" then
      -- SciPy transforms the real and imaginary parts
      local re = M.apply(kind, t, ga.real(x), s, axes, norm, orth, inverse, fname)
      local im = M.apply(kind, t, ga.imag(x), s, axes, norm, orth, inverse, fname)
      return re + im * { 0, 1 }
    end
    local R = float_type(dt)
    if dt ~= R then x = x:astype(R) end
    for i, a in ipairs(axes) do
      if s then x = resized(x, a, s[i], fname) end
    end
    for _, a in ipairs(axes) do x = along(kind, t, x, a, norm, orth, inverse, fname) end
    return x
  end

  return M
end
