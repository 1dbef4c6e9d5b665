--- NumPy's interp: piecewise-linear interpolation of (xp, fp) at x, one
-- thread per query with a binary search over the knots
-- (kernels/math/interp.cuh). The result is float64 (complex128 for a
-- complex fp: the real and imaginary parts interpolate apart), as NumPy's.
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local core = ga._core
  local fail = internal.fail

  local kernel, combine
  local function interp_kernel()
    kernel = kernel or ga.ElementwiseKernel(
      "X x, raw P xp, raw F fp, int64 n, float64 left, float64 right, bool has_left, bool has_right",
      "float64 y",
      "y = ga_interp((double)x, xp, fp, n, has_left ? left : (double)fp[0], has_right ? right : (double)fp[n - 1])",
      "ga_interp",
      { preamble = core.compile.kernel_source("interp") })
    return kernel
  end

  internal.math_kernels = internal.math_kernels or {}
  internal.math_kernels.interp = interp_kernel   -- for the specs (NVRTC compiles)

  local function real_interp(x, xp, fp, left, right)
    -- the defaults (fp's ends) are read in the kernel: no synchronization
    local y = ga.empty(x.shape, "float64")
    interp_kernel()(x, xp, fp, xp.size, left or 0.0, right or 0.0, left ~= nil, right ~= nil, y)
    return y
  end

  local function part(v, k)   -- a Lua complex {re, im} or number: one part
    if type(v) == "table" then return v[k] end
    if v == nil then return nil end   -- no left/right: fp's end, both parts
    if k == 2 then return 0.0 end
    return v
  end

  api.def(ga, [[
interp(x: array_like, xp: array_like, fp: array_like, left: scalar?, right: scalar?, period: number?) -> ndarray
Linear interpolation of the points (xp, fp) at x: xp increasing (not
checked, as NumPy); left and right for x below xp[1] and above xp[n]
(default fp[1] and fp[n]); period: xp and x taken modulo it (left and right
then unused). float64 results (complex128 for a complex fp).
]], function(x, xp, fp, left, right, period)
    x, xp, fp = ga.asarray(x), ga.asarray(xp), ga.asarray(fp)
    if xp.ndim ~= 1 or fp.ndim ~= 1 then fail("interp: xp and fp must be 1-D sequences") end
    if xp.size ~= fp.size then fail("interp: fp and xp are not of the same length") end
    if xp.size == 0 then fail("interp: array of sample points is empty") end
    if x.dtype:match("^complex") or xp.dtype:match("^complex") then
      fail("interp: x and xp must be real")
    end
    if period ~= nil then
      if period == 0 then fail("interp: period must be a non-zero value") end
      period = math.abs(period)
      left, right = nil, nil
      x = ga.remainder(x:astype("float64"), period)
      local xm = ga.remainder(xp:astype("float64"), period)
      local order = ga.argsort(xm)
      xm, fp = ga.take(xm, order), ga.take(fp, order)
      local n = xm.size
      xp = ga.concatenate({ xm[{ { n, n } }] - period, xm, xm[{ { 1, 1 } }] + period })
      fp = ga.concatenate({ fp[{ { n, n } }], fp, fp[{ { 1, 1 } }] })
    end
    if not fp.dtype:match("^complex") then
      return real_interp(x, xp, fp, left, right)
    end
    local re = real_interp(x, xp, ga.real(fp), part(left, 1), part(right, 1))
    local im = real_interp(x, xp, ga.imag(fp), part(left, 2), part(right, 2))
    combine = combine or ga.ElementwiseKernel("float64 re, float64 im", "complex128 z", "z = complex128(re, im)",
                                              "ga_interp_complex")
    return combine(re, im)
  end)
end
