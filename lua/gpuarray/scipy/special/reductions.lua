--- logsumexp, softmax and log_softmax (scipy.special's row reductions).
-- float32 and float64 inputs without weights take one pass: a reduction
-- whose state is the pair (running max m, sum s of exp(x - m)), merged as
-- (M, s1 exp(m1 - M) + s2 exp(m2 - M)) (the "online softmax"): one read
-- of the input for logsumexp, and one more read and one write for softmax
-- (y = exp(x - lse)): the bench keys softmax_f32_8192x4096_ms and
-- logsumexp_f32_8192x4096_ms. Weights (b), return_sign and other dtypes
-- take the composed path, as SciPy computes it.
return function(ga, special)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local fail = internal.fail
  local is_array = internal.is_array

  local PAIR = [[
struct sf_lse { T m, s; };
__device__ __forceinline__ sf_lse sf_lse_of(T x) { sf_lse r; r.m = x; r.s = (T)1; return r; }
__device__ __forceinline__ sf_lse sf_lse_id() {
  sf_lse r;
  r.m = -(T)__longlong_as_double(0x7ff0000000000000LL);
  r.s = (T)0;
  return r;
}
// the larger max wins (a NaN wins), the other sum is rescaled to it
__device__ __forceinline__ sf_lse sf_lse_add(const sf_lse &a, const sf_lse &b) {
  const T M = (a.m > b.m || a.m != a.m) ? a.m : b.m;
  sf_lse r;
  r.m = M;
  r.s = (a.m == M ? a.s : a.s * exp(a.m - M)) + (b.m == M ? b.s : b.s * exp(b.m - M));
  return r;
}
]]
  local lse_kernel, softmax_kernel, logsoftmax_kernel
  local function kernels()
    if lse_kernel then return end
    lse_kernel = ga.ReductionKernel("T x", "T y", "sf_lse_of(x)", "sf_lse_add(a, b)",
                                    "y = a.m + log(a.s)",
                                    "sf_lse_id()", "sf_logsumexp", { reduce_type = "sf_lse", preamble = PAIR })
    softmax_kernel = ga.ElementwiseKernel("T x, T l", "T y", "y = exp(x - l)", "sf_softmax")
    logsoftmax_kernel = ga.ElementwiseKernel("T x, T l", "T y", "y = x - l", "sf_log_softmax")
  end

  --- for the CPU specs: the kernels, to compile without a GPU
  function special._row_kernels()
    kernels()
    return lse_kernel, softmax_kernel, logsoftmax_kernel
  end

  local FAST = { float32 = true, float64 = true }
  local function float_of(dt)
    local k = internal.KIND[dt]
    if k == "f" or k == "c" then
      return dt
    end
    return "float64"
  end

  local function input(x, fname)
    if is_array(x) then return x end
    local t = type(x)
    if t == "number" or t == "table" or t == "boolean" then return ga.asarray(x) end
    fail(("%s: a must be an ndarray or a number, got %s"):format(fname, t))
  end

  local function check_axis(x, axis, fname)
    if axis == nil then return nil end
    local list = type(axis) == "table" and axis or { axis }
    for _, a in ipairs(list) do
      if math.type(a) ~= "integer" or a == 0 or a > x.ndim or a < -x.ndim then
        fail(("%s: axis %s is out of range for %d dimensions"):format(fname, tostring(a), x.ndim))
      end
    end
    return axis
  end

  --- the (keepdims) log-sum-exp of x over axis by the one-pass kernel
  local function lse_fast(x, axis)
    kernels()
    return lse_kernel(x, { axis = axis, keepdims = true })
  end

  local function lse_composed(a, axis, b, keepdims, return_sign)
    local dt = b ~= nil and ga.result_type(a, b) or a.dtype
    dt = float_of(dt)
    if a.dtype ~= dt then a = a:astype(dt) end
    local amax = ga.max(a, { axis = axis, keepdims = true })
    amax = ga.where(ga.isfinite(amax), amax, 0)
    local tmp = ga.exp(a - amax)
    if b ~= nil then tmp = tmp * b end
    local s = ga.sum(tmp, { axis = axis, keepdims = keepdims })
    local sgn
    if return_sign then
      sgn = ga.sign(s)
      s = ga.abs(s)
    end
    local out = ga.log(s) + (keepdims and amax or amax:reshape(s.shape))
    if out.dtype ~= dt then out = out:astype(dt) end
    return out, sgn
  end

  api.def(special, [[
scipy.special.logsumexp(a: array_like, axis: axis|axes? , b: array_like?, keepdims: boolean = false,
                        return_sign: boolean = false) -> ndarray, ndarray?
log(sum(b * exp(a))) over axis (1-based; every axis when nil), without overflow. With return_sign,
also the sign of the sum (the log is then of its absolute value); b weights the terms.
]], function(a, axis, b, keepdims, return_sign)
    local fname = "scipy.special.logsumexp"
    a = input(a, fname)
    axis = check_axis(a, axis, fname)
    if b ~= nil then b = input(b, fname) end
    if a.size == 0 then fail(fname .. ": a is empty") end
    if b == nil and not return_sign and FAST[a.dtype] then
      local r = lse_fast(a, axis)
      if keepdims then return r end
      local shape = {}
      if axis ~= nil then
        local drop = {}
        for _, d in ipairs(type(axis) == "table" and axis or { axis }) do drop[d < 0 and d + a.ndim + 1 or d] = true end
        for d = 1, a.ndim do if not drop[d] then shape[#shape + 1] = a.shape[d] end end
      end
      return r:reshape(shape)
    end
    local out, sgn = lse_composed(a, axis, b, keepdims, return_sign)
    if return_sign then return out, sgn end
    return out
  end)

  local function softmax_like(x, axis, fname, log)
    x = input(x, fname)
    axis = check_axis(x, axis, fname)
    local dt = float_of(x.dtype)
    if dt == "complex64" or dt == "complex128" then fail(fname .. ": complex inputs are not supported") end
    if x.size == 0 then return ga.empty(x.shape, dt) end
    local work = FAST[x.dtype] and x or x:astype(internal.COMPUTE[dt])
    local lse = FAST[work.dtype] and lse_fast(work, axis) or lse_composed(work, axis, nil, true, false)
    kernels()
    local y = (log and logsoftmax_kernel or softmax_kernel)(work, lse)
    if y.dtype ~= dt then y = y:astype(dt) end
    return y
  end

  api.def(special, [[
scipy.special.softmax(x: array_like, axis: axis|axes?) -> ndarray
exp(x) / sum(exp(x)) over axis (1-based; every axis when nil), computed as exp(x - logsumexp(x)).
]], function(x, axis) return softmax_like(x, axis, "scipy.special.softmax", false) end)

  api.def(special, [[
scipy.special.log_softmax(x: array_like, axis: axis|axes?) -> ndarray
x - logsumexp(x) over axis (1-based; every axis when nil): the logarithm of softmax, without its underflow.
]], function(x, axis) return softmax_like(x, axis, "scipy.special.log_softmax", true) end)
end
