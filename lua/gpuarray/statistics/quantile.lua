--- Order statistics (NumPy 2): median, percentile, quantile and their nan
-- forms, with the 13 methods of numpy.quantile. statistics/qkernels.lua
-- holds the CUDA and says how the two paths (sorted rows, or a selection
-- over one long row) reach the same numbers.
--
-- Result dtypes, as NumPy 2: the methods that pick an element (lower,
-- higher, nearest, inverted_cdf, closest_observation) keep the input's
-- dtype; the others, and median, give the input's float dtype, float64 for
-- integers. q is a value (the kept axes alone) or a list / 1-D array (a
-- leading axis of that length). A NaN in a reduced row makes its result
-- NaN; the nan forms leave NaNs out (an all-NaN row gives NaN).
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local fail, is_array = internal.fail, internal.is_array
  local A = require("gpuarray.statistics.axes")(ga)
  local K = require("gpuarray.statistics.qkernels")

  local FLOAT = { float16 = true, float32 = true, float64 = true, bfloat16 = true }
  local SELECT = { float32 = true, float64 = true }
  local SELECT_MIN = 1 << 17      -- shorter rows sort faster than they select
  local SAMPLE = 1 << 16
  local MARGIN = 512              -- 4 standard deviations of a sample rank (sqrt(SAMPLE) / 2 each)

  local kernels = {}
  local function ew(def)
    local k = kernels[def[4]]
    if not k then
      k = ga.ElementwiseKernel(def[1], def[2], def[3], def[4], { preamble = K.PREAMBLE })
      kernels[def[4]] = k
    end
    return k
  end
  local function count_kernel(dtype)
    local name = "count_" .. dtype
    if not kernels[name] then
      local src, sym = K.count_source(dtype)
      kernels[name] = ga.RawKernel(src, sym)
    end
    return kernels[name]
  end
  --- every kernel of this file, compiled for dtype (the CPU specs run it)
  internal.quantile_kernels = function(dtype, odtype)
    local rows = ew(K.ROWS):compile(dtype, "int64", "int64", "float64", "int64", "int32", "bool", odtype)
    local out = { rows = rows }
    if SELECT[dtype] then
      out.count = count_kernel(dtype)
      out.bracket = ew(K.BRACKET):compile(dtype, "int64", "float64", "int64", dtype, dtype)
      out.pick = ew(K.PICK):compile(dtype, "int64", dtype, "uint64", "float64", "int64", "int32", odtype)
      out.sample = ew(K.SAMPLE):compile(dtype, "int64", dtype)
    end
    return out
  end

  -- q as a list of fractions and the shape it adds (nil: a scalar q)
  local function fractions(q, scale, fname)
    local list, shape
    if type(q) == "number" then
      list = { q }
    elseif is_array(q) then
      if q.ndim > 1 then fail(fname .. ": q must be a scalar or 1-D") end
      if q.ndim == 1 then shape = { q.size } end
      local t = q:astype("float64"):totable()
      list = type(t) == "table" and t or { t }
    else
      list = {}
      for i = 1, rawlen(q) do
        local v = rawget(q, i)
        if type(v) ~= "number" then fail(fname .. ": q must hold numbers") end
        list[i] = v
      end
      shape = { #list }
    end
    local word = scale == 100 and "Percentiles must be in the range [0, 100]" or "Quantiles must be in the range [0, 1]"
    for i, v in ipairs(list) do
      local f = v / scale
      if not (f >= 0 and f <= 1) then fail(fname .. ": " .. word) end
      list[i] = f
    end
    return list, shape
  end

  local function shape_cat(a, b)
    local r = {}
    for _, v in ipairs(a or {}) do r[#r + 1] = v end
    for _, v in ipairs(b) do r[#r + 1] = v end
    return r
  end

  -- the selection over one long contiguous row x (n elements): the results
  -- ({nq}, dtype O), or nil when the rows path must answer
  local function select(x, qs, mid, O, nan)
    local T, L, nq = x.dtype, x.size, #qs
    local samp = ga.empty(SAMPLE, T)
    ew(K.SAMPLE)(x, L, samp)
    local ss = ga.sort(samp)
    local qa = ga.array(qs, "float64")
    local lo, hi = ew(K.BRACKET)(ss, SAMPLE, qa, MARGIN)
    local counts = ga.zeros(2 * nq + 2, "uint64")
    local cap = L // 8
    local cand = ga.empty(cap, T)
    local tiles = (L + K.THREADS * K.ITEMS - 1) // (K.THREADS * K.ITEMS)
    count_kernel(T)(math.min(tiles, 2048), K.THREADS, { x, L, lo, hi, nq, counts, cand, cap })
    local c = counts:totable()
    local nans, total = c[2 * nq + 1], c[2 * nq + 2]
    local n = nan and L - nans or L
    if n == 0 or (not nan and nans > 0) then return ga.full(nq, 0 / 0, O) end
    if total > cap or total == 0 then return nil end
    for i, q in ipairs(qs) do
      local k = math.floor(n * q)
      local w0, w1 = math.max(0, k - 2), math.min(n - 1, k + 1)
      if c[i] > w0 or w1 > c[i] + c[nq + i] - 1 then return nil end
    end
    local sorted = ga.sort(cand[{ { 1, total } }])
    return ew(K.PICK)(sorted, total, lo, counts, qa, n, mid, ga.empty(nq, O))
  end

  -- the rows path: X {rows, L} sorted along its rows, one kernel for every
  -- (quantile, row): {nq, rows}
  local function by_rows(X, qs, mid, O, nan)
    local rows, L = X.shape[1], X.shape[2]
    local s = ga.sort(X, 2)
    local nv
    if nan and FLOAT[X.dtype] then
      nv = ga.sum(ga.logical_not(ga.isnan(X)), { axis = 2 }):astype("int64")
    else
      nv = ga.full(rows, L, "int64")
    end
    local qa = ga.array(qs, "float64"):reshape(#qs, 1)
    return ew(K.ROWS)(s, L, nv, qa, rows, mid, nan, ga.empty({ #qs, rows }, O))
  end

  --- The shared body: fractions qs (qshape nil for a scalar q) of a along
  -- axis by method; median is method "median"
  local function order_stat(fname, a, qs, qshape, axis, out, method, keepdims, nan)
    if not is_array(a) then a = ga.asarray(a) end
    local T = a.dtype
    if T:match("^complex") then fail(fname .. ": a must be an array of real numbers") end
    if T == "bool" then
      if method ~= "median" then
        fail(fname .. ": boolean arrays have no quantiles (NumPy cannot subtract booleans)")
      end
      a, T = a:astype("uint8"), "uint8"
    end
    local mid = K.METHOD[method]
    local O = K.DISCRETE[method] and T or (FLOAT[T] and T or "float64")
    local X, kept, keep1 = A.rows(a, axis, fname)
    local rows, L = X.shape[1], X.shape[2]
    local rshape = shape_cat(qshape, keepdims and keep1 or kept)
    local res
    if rows == 0 then
      res = ga.empty(rshape, O)
    elseif L == 0 then
      if method ~= "median" then fail(fname .. ": cannot take a quantile of an empty array") end
      res = ga.full(rshape, 0 / 0, O)
    else
      if rows == 1 and L >= SELECT_MIN and SELECT[T] and #qs <= K.MAXQ then
        res = select(X:reshape(L), qs, mid, O, nan)
      end
      res = (res or by_rows(X, qs, mid, O, nan)):reshape(rshape)
    end
    if out ~= nil then
      internal.check_out(out, rshape, fname)
      out:set(res)
      return out
    end
    return res
  end

  local METHODS = [["linear"|"lower"|"higher"|"nearest"|"midpoint"|"inverted_cdf"|"averaged_inverted_cdf"|]]
    .. [["closest_observation"|"interpolated_inverted_cdf"|"hazen"|"weibull"|"median_unbiased"|"normal_unbiased"]]

  for _, spec in ipairs({
    { "quantile", 1, false, "The q-th quantiles (q in [0, 1]) along axis, by NumPy 2's method." },
    { "percentile", 100, false, "The q-th percentiles (q in [0, 100]) along axis, by NumPy 2's method." },
    { "nanquantile", 1, true, "quantile, leaving NaNs out (an all-NaN slice gives NaN)." },
    { "nanpercentile", 100, true, "percentile, leaving NaNs out (an all-NaN slice gives NaN)." },
  }) do
    local name, scale, nan = spec[1], spec[2], spec[3]
    api.def(ga, ([[
%s(a: array_like, q: number|list|ndarray, axis: axes?, out: ndarray?, overwrite_input: boolean = false,
   method|interpolation: %s = "linear", keepdims: boolean = false) -> ndarray
%s
axis: 1-based (negative from the end), a list of axes, or nil (all). A list
or 1-D q adds a leading axis. Methods that pick an element (lower, higher,
nearest, inverted_cdf, closest_observation) keep the dtype; the others give
floats (float64 for integers). overwrite_input is accepted and ignored
(the input is never changed).
]]):format(name, METHODS, spec[4]), function(a, q, axis, out, _, method, keepdims)
      local qs, qshape = fractions(q, scale, name)
      return order_stat(name, a, qs, qshape, axis, out, method, keepdims, nan)
    end)
  end

  for _, spec in ipairs({
    { "median", false, "The median along axis (the mean of the two middle values for an even count)." },
    { "nanmedian", true, "median, leaving NaNs out (an all-NaN slice gives NaN)." },
  }) do
    local name, nan = spec[1], spec[2]
    api.def(ga, ([[
%s(a: array_like, axis: axes?, out: ndarray?, overwrite_input: boolean = false,
   keepdims: boolean = false) -> ndarray
%s
axis: 1-based, a list of axes, or nil (all). Floats keep their dtype,
integers give float64; an empty slice gives NaN.
]]):format(name, spec[3]), function(a, axis, out, _, keepdims)
      return order_stat(name, a, { 0.5 }, nil, axis, out, "median", keepdims, nan)
    end)
  end
end
