--- Means, variances and products of centred data (NumPy 2): average,
-- nanmean, nanvar, nanstd (one pass each: a ReductionKernel whose
-- accumulator counts the non-NaN values beside their sum, or their
-- Welford state), cov and corrcoef (the centred data times its transpose:
-- one cuBLAS GEMM), correlate (one ElementwiseKernel, a thread an output).
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local fail, is_array = internal.fail, internal.is_array
  local A = require("gpuarray.statistics.axes")(ga)

  local KIND = function(dt) return internal.KIND[dt] or ga.dtype(dt).kind end
  local function as_array(x)
    if is_array(x) then return x end
    return ga.asarray(x)
  end
  -- a reduction's axis option: 1-based list as the built-ins take it
  local function axis_opt(axis, nd, fname)
    if axis == nil then return nil end
    local set = A.set(axis, nd, fname)
    local list = {}
    for d = 1, nd do if set[d] then list[#list + 1] = d end end
    return list
  end

  ---------------------------------------------------------------------------
  -- average
  api.def(ga, [[
average(a: array_like, axis: axes?, weights: array_like?, returned: boolean = false, *,
        keepdims: boolean = false) -> ndarray, ndarray?
The weighted average along axis (1-based, a list, or nil: all). weights has
a's shape, or is 1-D along the one given axis. returned: also the sum of the
weights (the count without weights), broadcast to the result's shape.
]], function(a, axis, weights, returned, keepdims)
    a = as_array(a)
    local ax = axis_opt(axis, a.ndim, "average")
    local avg, scl
    if weights == nil then
      avg = ga.mean(a, { axis = ax, keepdims = keepdims })
      if returned then
        scl = ga.full(avg.shape, avg.size > 0 and a.size // avg.size or 0, avg.dtype)
      end
    else
      local w = as_array(weights)
      local rt = ga.result_type(a.dtype, w.dtype)
      local k = KIND(a.dtype)
      if k == "b" or k == "i" or k == "u" then rt = ga.result_type(rt, "float64") end
      local same = #a.shape == #w.shape
      for d = 1, math.min(#a.shape, #w.shape) do same = same and a.shape[d] == w.shape[d] end
      if not same then
        if axis == nil then fail("average: axis must be given when the shapes of a and weights differ") end
        if w.ndim ~= 1 then fail("average: 1-D weights expected when the shapes of a and weights differ") end
        if #ax ~= 1 then fail("average: 1-D weights need exactly one axis") end
        if w.size ~= a.shape[ax[1]] then fail("average: the length of weights differs from that of a along axis") end
        local shape = {}
        for d = 1, a.ndim do shape[d] = d == ax[1] and w.size or 1 end
        w = w:reshape(shape)
      end
      scl = ga.sum(ga.broadcast_to(w, a.shape), { axis = ax, keepdims = keepdims, dtype = rt })
      if ga.any(scl:eq(0)):item() then fail("average: weights sum to zero, can't be normalized") end
      avg = ga.sum(ga.multiply(a:astype(rt), w:astype(rt)), { axis = ax, keepdims = keepdims, dtype = rt }) / scl
      if returned and #scl.shape ~= #avg.shape then scl = ga.broadcast_to(scl, avg.shape) end
    end
    if returned then return avg, scl end
    return avg
  end)

  ---------------------------------------------------------------------------
  -- nanmean, nanvar, nanstd: one pass each
  -- nanmean's accumulator: the sum and the count of the non-NaN values;
  -- C the count's type (int below 2^31 elements: 32-bit adds and an
  -- 8-byte state for float, the same integer counts as long long)
  local PREAMBLE = [[
template <typename S, typename C> struct ga_nsum { S s; C c; };
template <typename S, typename C>
__device__ __forceinline__ ga_nsum<S, C> ga_nsum_of(S v, bool ok) {
  ga_nsum<S, C> r;
  r.s = ok ? v : (S)0;
  r.c = ok ? 1 : 0;
  return r;
}
template <typename S, typename C>
__device__ __forceinline__ ga_nsum<S, C> ga_nsum_add(const ga_nsum<S, C> &a, const ga_nsum<S, C> &b) {
  ga_nsum<S, C> r;
  r.s = a.s + b.s;
  r.c = a.c + b.c;
  return r;
}
__device__ __forceinline__ double ga_nstat_nan() { return __longlong_as_double(0x7ff8000000000000LL); }
]]
  local kernels = {}
  -- kind "mean" | "var" | "std"; S the accumulator's C type; ddof is
  -- written into the post-map (a kernel per value met: 0 and 1, in
  -- practice); C nanmean's count type ("int" or "long long")
  local function nan_kernel(kind, S, ddof, C)
    C = C or "long long"
    local key = kind .. S .. (ddof and ("%.17g"):format(ddof) or "") .. C
    if kernels[key] then return kernels[key] end
    local k
    local outp = (S == "double" and "float64" or "float32") .. " y"
    if kind == "mean" then
      local N = ("%s, %s"):format(S, C)
      k = ga.ReductionKernel("T x", outp, ("ga_nsum_of<%s>((%s)x, (%s)x == (%s)x)"):format(N, S, S, S),
        "ga_nsum_add(a, b)", ("y = a.c ? a.s / (%s)a.c : (%s)ga_nstat_nan()"):format(S, S),
        ("ga_nsum_of<%s>((%s)0, false)"):format(N, S), "ga_nanmean_" .. S .. (C == "int" and "_c32" or ""),
        { reduce_type = ("ga_nsum<%s>"):format(N), preamble = PREAMBLE })
    else
      local post = kind == "std" and "sqrt(a.m2 / (double)d)" or "a.m2 / (double)d"
      k = ga.ReductionKernel("T x", outp,
        ("(%s)x == (%s)x ? ga_welford_one<%s, %s>((%s)x) : ga_welford_none<%s, %s>()"):format(S, S, S, S, S, S, S),
        "ga_welford_combine(a, b)",
        ("double d = (double)a.n - %.17g; y = d <= 0 ? ga_nstat_nan() : (double)(%s)"):format(ddof, post),
        ("ga_welford_none<%s, %s>()"):format(S, S), "ga_nan" .. kind .. "_" .. S,
        { reduce_type = ("ga_welford<%s, %s>"):format(S, S), preamble = PREAMBLE })
    end
    kernels[key] = k
    return k
  end
  internal.nan_moment_kernels = nan_kernel   -- for the compile specs

  -- the result dtype and the accumulator of a nan reduction
  local function nan_types(a, dtype, fname)
    local k = KIND(a.dtype)
    if k == "c" then fail(fname .. ": complex values are not supported") end
    local O = dtype and ga.dtype(dtype).name or ((k == "f") and a.dtype or "float64")
    if KIND(O) ~= "f" then fail(("%s: dtype must be a float dtype, got %s"):format(fname, O)) end
    return O, O == "float64" and "double" or "float"
  end

  local C32 = (1 << 31) - 1
  local function nan_reduce(fname, kind, a, axis, dtype, out, keepdims, ddof)
    a = as_array(a)
    local O, S = nan_types(a, dtype, fname)
    local k = nan_kernel(kind, S, ddof, kind == "mean" and a.size <= C32 and "int" or nil)
    local r
    if axis == nil and not keepdims then
      r = k(a)     -- every axis: no options to read (the bench's nanmean)
    else
      r = k(a, { axis = axis_opt(axis, a.ndim, fname), keepdims = keepdims })
    end
    if r.dtype ~= O then r = r:astype(O) end
    if out ~= nil then
      internal.check_out(out, r.shape, fname)
      out:set(r)
      return out
    end
    return r
  end

  api.def(ga, [[
nanmean(a: array_like, axis: axes?, dtype: dtype?, out: ndarray?, keepdims: boolean = false) -> ndarray
The mean along axis, leaving NaNs out (an all-NaN slice gives NaN). One pass:
the sum and the count of the non-NaN values together. Integers give float64.
]], function(a, axis, dtype, out, keepdims)
    return nan_reduce("nanmean", "mean", a, axis, dtype, out, keepdims)
  end)
  for _, kind in ipairs({ "var", "std" }) do
    api.def(ga, ([[
nan%s(a: array_like, axis: axes?, dtype: dtype?, out: ndarray?, ddof: number = 0,
       keepdims: boolean = false) -> ndarray
The %s along axis, leaving NaNs out: NaN where fewer than ddof + 1 values
remain. One pass (Welford's counts, means and squared deviations, merged
with Chan's formula).
]]):format(kind, kind == "var" and "variance" or "standard deviation"), function(a, axis, dtype, out, ddof, keepdims)
      return nan_reduce("nan" .. kind, kind, a, axis, dtype, out, keepdims, ddof)
    end)
  end

  ---------------------------------------------------------------------------
  -- cov, corrcoef

  -- x as a 2-D float array of variables in rows
  local function variables(x, rowvar, dt)
    x = as_array(x)
    if x.ndim > 2 then fail("cov: m has more than 2 dimensions") end
    if x.ndim < 2 then x = x:reshape(1, x.size) end
    if x.dtype ~= dt then x = x:astype(dt) end
    if not rowvar and x.shape[1] ~= 1 then x = x:transpose() end
    return x
  end

  local function weights_of(w, nobs, what)
    w = as_array(w)
    if w.ndim > 1 then fail(("cov: cannot handle multidimensional %s"):format(what)) end
    if w.ndim == 0 or w.size ~= nobs then fail(("cov: incompatible numbers of samples and %s"):format(what)) end
    if w.size > 0 and ga.any(w:lt(0)):item() then fail(("cov: %s cannot be negative"):format(what)) end
    return w
  end

  local function cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype)
    m = as_array(m)
    local dt = dtype and ga.dtype(dtype).name or ga.result_type(m.dtype, "float64")
    if y ~= nil then dt = dtype and dt or ga.result_type(dt, as_array(y).dtype) end
    local X = variables(m, rowvar, dt)
    if X.shape[1] == 0 then return ga.empty({ 0, 0 }, dt) end
    if y ~= nil then X = ga.concatenate({ X, variables(y, rowvar, dt) }, 1) end
    if ddof == nil then ddof = bias and 0 or 1 end
    local nobs = X.shape[2]
    local w
    if fweights ~= nil then
      local f = weights_of(fweights, nobs, "fweights")
      local k = KIND(f.dtype)
      if k ~= "i" and k ~= "u" and k ~= "b" then
        if f.size > 0 and ga.any(ga.not_equal(f, ga.around(f))):item() then fail("cov: fweights must be integer") end
      end
      w = f:astype("float64")
    end
    local aw
    if aweights ~= nil then
      aw = weights_of(aweights, nobs, "aweights"):astype("float64")
      w = w and w * aw or aw
    end
    local avg, fact
    local rdt = KIND(dt) == "c" and (dt == "complex64" and "float32" or "float64") or dt
    if w == nil then
      avg = ga.mean(X, { axis = 2, keepdims = true })
      fact = nobs - ddof
    else
      local wsum = w:sum():item()
      if wsum == 0 then fail("cov: weights sum to zero, can't be normalized") end
      local wt = w:astype(rdt)
      avg = ga.sum(X * wt, { axis = 2, keepdims = true }) / wsum
      if ddof == 0 then fact = wsum
      elseif aw == nil then fact = wsum - ddof
      else fact = wsum - ddof * (w * aw):sum():item() / wsum end
    end
    if fact <= 0 then fact = 0.0 end
    local Xc = X - avg
    local XT = w and (Xc * w:astype(rdt)):transpose() or Xc:transpose()
    if KIND(dt) == "c" then XT = ga.conj(XT) end
    local c = ga.matmul(Xc, XT) * (1 / fact)
    if c.dtype ~= dt then c = c:astype(dt) end
    return ga.squeeze(c)
  end

  api.def(ga, [[
cov(m: array_like, y: array_like?, rowvar: boolean = true, bias: boolean = false, ddof: integer?,
    fweights: array_like?, aweights: array_like?, *, dtype: dtype?) -> ndarray
The covariance matrix of the variables in m's rows (columns with rowvar =
false), y's appended. ddof defaults to 1 (0 with bias); fweights are integer
repeat counts, aweights relative weights. One GEMM of the centred data. The
dtype defaults to float64 at least, as NumPy's.
]], cov)

  api.def(ga, [[
corrcoef(x: array_like, y: array_like?, rowvar: boolean = true, bias: any?, ddof: any?, *,
         dtype: dtype?) -> ndarray
Pearson correlation coefficients: cov scaled by the standard deviations,
clipped to [-1, 1]. bias and ddof have no effect (NumPy deprecated them).
]], function(x, y, rowvar, _, _, dtype)
    local c = cov(x, y, rowvar, false, nil, nil, nil, dtype)
    if c.ndim == 0 then return c / c end
    local n = c.shape[1]
    local d = ga.diagonal(c)
    local sd = ga.sqrt(KIND(c.dtype) == "c" and ga.real(d) or d)
    c = c / sd:reshape(n, 1) / sd:reshape(1, n)
    if KIND(c.dtype) == "c" then
      return ga.clip(ga.real(c), -1, 1) + ga.clip(ga.imag(c), -1, 1) * ga.asarray({ 0, 1 }, c.dtype)
    end
    return ga.clip(c, -1, 1)
  end)

  ---------------------------------------------------------------------------
  -- correlate
  local CORR_PREAMBLE = [[
template <typename T> __device__ __forceinline__ T ga_cconj(const T &v) { return v; }
template <typename T> __device__ __forceinline__ complex<T> ga_cconj(const complex<T> &v) {
  return complex<T>(v.re, -v.im);
}
template <typename T> struct ga_corr_acc { typedef T t; };
template <> struct ga_corr_acc<float16> { typedef float t; };
template <> struct ga_corr_acc<bfloat16> { typedef float t; };
]]
  local corr_kernel
  internal.correlate_kernel = function()
    corr_kernel = corr_kernel or ga.ElementwiseKernel("raw T a, raw T v, int64 na, int64 nv, int64 off", "T c", [[
      typedef typename ga_corr_acc<T>::t Acc;
      const long long k = i + off - (nv - 1);
      long long j0 = k < 0 ? -k : 0, j1 = na - k < nv ? na - k : nv;
      Acc s = Acc(0);
      for (long long j = j0; j < j1; j++) s = s + (Acc)a[k + j] * (Acc)ga_cconj(v[j]);
      c = (T)s;
    ]], "ga_correlate", { preamble = CORR_PREAMBLE })
    return corr_kernel
  end

  api.def(ga, [[
correlate(a: array_like, v: array_like, mode: "valid"|"same"|"full" = "valid") -> ndarray
The cross-correlation of two 1-D sequences: c[k] = sum over n of
a[n + k] * conj(v[n]), NumPy's modes.
]], function(a, v, mode)
    a, v = as_array(a), as_array(v)
    if a.ndim ~= 1 or v.ndim ~= 1 then fail("correlate: object too deep for desired array (1-D inputs only)") end
    local na, nv = a.size, v.size
    if na == 0 then fail("correlate: a cannot be empty") end
    if nv == 0 then fail("correlate: v cannot be empty") end
    local dt = ga.result_type(a.dtype, v.dtype)
    a, v = ga.ascontiguousarray(a:astype(dt)), ga.ascontiguousarray(v:astype(dt))
    local lo, hi = math.min(na, nv), math.max(na, nv)
    local off, len
    if mode == "full" then off, len = 0, na + nv - 1
    elseif mode == "same" then off, len = na >= nv and (lo - 1) // 2 or lo // 2, hi
    else off, len = lo - 1, hi - lo + 1 end
    return internal.correlate_kernel()(a, v, na, nv, off, ga.empty(len, dt))
  end)
end
