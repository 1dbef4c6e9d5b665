--- NumPy's convolve: the discrete linear convolution of two 1-D arrays,
-- one thread per output summing its overlap (kernel below). The engine,
-- internal.convolve1d(a, v, mode), is shared with correlate (statistics):
-- correlate(a, v) is convolve(a, conj(v) reversed) with NumPy's modes.
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local fail = internal.fail

  local function ctype(dt) return internal.COMPUTE[dt] end   -- float16, bfloat16 accumulate in float

  local kernels = {}
  local function kernel(T)
    local k = kernels[T]
    if k then return k end
    local C = ctype(T)
    k = ga.ElementwiseKernel("raw T a, raw T v, int64 n, int64 m, int64 off", "T y", ([[
      const long long f_ = i + off;
      const long long lo_ = f_ - (n - 1) > 0 ? f_ - (n - 1) : 0;
      const long long hi_ = f_ < m - 1 ? f_ : m - 1;
      %s acc_ = (%s)0;
      for (long long j_ = lo_; j_ <= hi_; j_++) acc_ = acc_ + (%s)a[f_ - j_] * (%s)v[j_];
      y = acc_;]]):format(C, C, C, C), "ga_convolve_" .. T)
    kernels[T] = k
    return k
  end

  internal.math_kernels = internal.math_kernels or {}
  internal.math_kernels.convolve = kernel   -- for the specs (NVRTC compiles)

  --- y[k] = sum_j a[k + off - j] v[j] for NumPy's mode, a and v 1-D
  function internal.convolve1d(a, v, mode, fname)
    a, v = ga.asarray(a), ga.asarray(v)
    if a.ndim == 0 then a = a:reshape(1) end
    if v.ndim == 0 then v = v:reshape(1) end
    if a.ndim ~= 1 or v.ndim ~= 1 then fail(fname .. ": a and v must be one-dimensional") end
    if a.size == 0 then fail(fname .. ": a cannot be empty") end
    if v.size == 0 then fail(fname .. ": v cannot be empty") end
    if v.size > a.size then a, v = v, a end
    local n, m = a.size, v.size
    local T = ga.result_type(a, v)
    if a.dtype ~= T then a = a:astype(T) end
    if v.dtype ~= T then v = v:astype(T) end
    local len, off
    if mode == "full" then len, off = n + m - 1, 0
    elseif mode == "same" then len, off = n, (m - 1) // 2
    else len, off = n - m + 1, m - 1 end
    local y = ga.empty(len, T)
    kernel(T)(a, v, n, m, off, y)
    return y
  end

  api.def(ga, [[
convolve(a: array_like, v: array_like, mode: "full"|"same"|"valid" = "full") -> ndarray
Discrete linear convolution of two 1-D arrays: "full" (length n + m - 1),
"same" (length max(n, m), centred) or "valid" (where they overlap fully).
]], function(a, v, mode)
    return internal.convolve1d(a, v, mode, "convolve")
  end)
end
