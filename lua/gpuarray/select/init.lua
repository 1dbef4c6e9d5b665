--- Selecting and comparing elements (docs/api.md §4, §5):
--   integer-array indexing: x[idx], x[idx] = v, ga.take, ga.put
--   ga.where(c, x, y), ga.clip, ga.around / ga.round; the kernels of
--   ga.isclose and ga.array_equal (declared in lua/gpuarray/logic).
--
-- Integer-array indices are 1-based and wrap instead of raising (a check
-- would need a sync). On an axis of length n, index k selects the 0-based
-- position (k - 1) mod n for k >= 0 and (k + n) mod n for k < 0 (floor
-- modulo): 1..n and -n..-1 select as everywhere in the API, n + 1 wraps to
-- the first element, 0 and -n - 1 to the last. kernels/select/gather.cuh is the
-- implementation (src/select/gather.c launches it).
--
-- where/clip/isclose/array_equal/around are ElementwiseKernels built here
-- once per signature; their helpers (SELECT_PREAMBLE) are plain CUDA so the
-- CI specs compile them with NVRTC without a device.
return function(ga)
  local core = ga._core
  local methods = ga.methods

  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array, shape_str = internal.fail, internal.is_array, internal.shape_str
  local lazy_op = core.elementwise.lazy_op

  local function shape_of(v)
    return is_array(v) and v.shape or {}
  end

  ---------------------------------------------------------------------------
  -- integer-array indexing
  ---------------------------------------------------------------------------

  -- An index argument as an integer ndarray: arrays pass through (their
  -- dtype is checked in C), a Lua integer is a 0-d index, a list an int64 array.
  local function as_index(idx, fname)
    if is_array(idx) then return idx end
    if math.type(idx) == "integer" then return ga.array(idx, "int64") end
    if type(idx) == "table" then return ga.array(idx, "int64") end
    fail(("%s: indices must be an integer ndarray, an integer or a list of integers, got %s")
      :format(fname, type(idx)))
  end

  local INDEX_DTYPES = {
    int8 = true, int16 = true, int32 = true, int64 = true,
    uint8 = true, uint16 = true, uint32 = true, uint64 = true,
  }

  -- checked here too (C checks again) so that a bad key fails before the
  -- value is converted, which may touch the device
  local function check_index(idx, fname)
    if not INDEX_DTYPES[idx.dtype] then
      fail(("%s: index arrays must have an integer dtype, got %s"):format(fname, idx.dtype))
    end
    return idx
  end

  local function as_values(v, dtype)
    if is_array(v) then return v end
    return ga.array(v, dtype)
  end

  -- an index array for mode "clip" (clamped into 1..n) or "raise" (checked:
  -- synchronizes); "wrap", the default, is the engine's own rule
  local function apply_mode(idx, n, mode, fname)
    if mode == "wrap" or idx.size == 0 then return idx end
    if n == 0 then fail(fname .. ": cannot take from an empty axis") end
    -- clamped, as NumPy's clip mode, which turns off counting from the end
    if mode == "clip" then return ga.clip(idx, 1, n) end
    local lo, hi = ga.min(idx):item(), ga.max(idx):item()
    if lo < -n or hi > n or (lo <= 0 and ga.any(ga.equal(idx, 0)):item()) then
      fail(("%s: an index is out of range for an axis of length %d (positions 1..%d or -%d..-1)")
        :format(fname, n, n, n))
    end
    return idx
  end

  local function take(a, indices, axis, out, mode, fname)
    local x = is_array(a) and a or ga.asarray(a)
    local idx = check_index(as_index(indices, fname), fname)
    if mode ~= "wrap" then
      local n = axis == nil and x.size or x.shape[args.axis(axis, x.ndim, fname)]
      idx = apply_mode(idx, n, mode, fname)
    end
    return core.select.take(x, idx, axis, out, fname)
  end

  api.def(ga, [[
take(a: array_like, indices: integer|list|ndarray, axis: integer?, out: ndarray?,
     mode: "wrap"|"clip"|"raise" = "wrap") -> ndarray
Elements of a at the 1-based positions indices along axis (a flattened
when nil): the result has shape a.shape[..axis-1] .. indices.shape ..
a.shape[axis+1..]. mode "wrap" (the default, no check: n + 1 is the first
element again, 0 the last; -1 is the last), "clip" (clamped into range) or
"raise" (checked: synchronizes). out (any layout, cast) receives the result.
clip clamps into 1..n, negative positions to 1, as NumPy's clip mode.
]], function(a, indices, axis, out, mode)
    return take(a, indices, axis, out, mode, "take")
  end)
  methods.take = ga.take
  api.alias("ndarray:take", ga.take)

  api.def(ga, [[
put(a: ndarray, ind: integer|list|ndarray, v: array_like, mode: "wrap"|"clip"|"raise" = "wrap") -> ndarray
a.flat[ind] = v in place: ind are flat 1-based C-order positions, v is
repeated cyclically when shorter than ind (NumPy's rule) and cast to a's
dtype. mode as in ga.take. When a position repeats, which of its values
lands is unspecified. Returns a.
]], function(a, ind, v, mode)
    local idx = check_index(as_index(ind, "put"), "put")
    idx = apply_mode(idx, a.size, mode, "put")
    core.select.put(a, idx, as_values(v, a.dtype))
    return a
  end)
  methods.put = ga.put
  api.alias("ndarray:put", ga.put)

  -- x[key] with an ndarray key (index.c dispatches here): a bool key is a
  -- mask (core.select.mask_get: src/select/mask.c), an integer key gathers rows.
  local function index_array_get(x, key)
    if key.dtype == "bool" then return core.select.mask_get(x, key) end
    if x.ndim == 0 then fail("index: a 0-d array cannot be indexed with an integer array") end
    return core.select.take(x, key, 1, nil, "index")
  end

  -- x[key] = value: value is an ndarray, a Lua scalar or a nested table,
  -- broadcast to key.shape .. x.shape[2..] and cast to x's dtype.
  local function index_array_set(x, key, value)
    if key.dtype == "bool" then return core.select.mask_set(x, key, value) end
    check_index(key, "index")
    if x.ndim == 0 then fail("index: a 0-d array cannot be indexed with an integer array") end
    core.select.scatter(x, key, as_values(value, x.dtype), "index")
  end
  core.ndarray.set_hooks({ index_array_get = index_array_get, index_array_set = index_array_set })

  ---------------------------------------------------------------------------
  -- elementwise selections
  ---------------------------------------------------------------------------

  -- CUDA helpers for the kernels below. Comparisons use NumPy's NaN rules;
  -- float16 and bfloat16 compute in float; complex compares and rounds part by part.
  local PREAMBLE = [[
template <typename T> __device__ __forceinline__ bool ga_sel_isnan(T v) { return v != v; }
template <typename T> __device__ __forceinline__ bool ga_sel_isnan(complex<T> v) {
  return v.re != v.re || v.im != v.im;
}
// maximum / minimum as NumPy's: a NaN on either side wins; complex numbers
// order lexicographically (ga_lt, kernels/common/math.cuh)
template <typename T> __device__ __forceinline__ T ga_sel_max(T a, T b) {
  return ga_sel_isnan(a) ? a : (ga_sel_isnan(b) ? b : (ga_lt(a, b) ? b : a));
}
template <typename T> __device__ __forceinline__ T ga_sel_min(T a, T b) {
  return ga_sel_isnan(a) ? a : (ga_sel_isnan(b) ? b : (ga_lt(b, a) ? b : a));
}

// isclose: |x - y| <= atol + rtol * |y| with y finite, or x == y; NaNs are
// equal only with equal_nan. Real types compute in their own precision.
template <typename R> __device__ __forceinline__ bool ga_sel_close_r(R x, R y, R rtol, R atol, bool eqn) {
  if (x == y) return true;
  if (x != x || y != y) return eqn && x != x && y != y;
  R d = x - y, ay = y;
  if (d < (R)0) d = -d;
  if (ay < (R)0) ay = -ay;
  return ay - ay == (R)0 && d <= atol + rtol * ay;     // ay - ay == 0: y is finite
}
template <typename T> __device__ __forceinline__ bool ga_sel_close(T x, T y, double rtol, double atol, bool eqn) {
  return ga_sel_close_r<double>((double)x, (double)y, rtol, atol, eqn);
}
__device__ __forceinline__ bool ga_sel_close(float x, float y, double rtol, double atol, bool eqn) {
  return ga_sel_close_r<float>(x, y, (float)rtol, (float)atol, eqn);
}
__device__ __forceinline__ bool ga_sel_close(float16 x, float16 y, double rtol, double atol, bool eqn) {
  return ga_sel_close_r<float>((float)x, (float)y, (float)rtol, (float)atol, eqn);
}
__device__ __forceinline__ bool ga_sel_close(bfloat16 x, bfloat16 y, double rtol, double atol, bool eqn) {
  return ga_sel_close_r<float>((float)x, (float)y, (float)rtol, (float)atol, eqn);
}
__device__ __forceinline__ double ga_sel_abs(complex<double> v) { return hypot(v.re, v.im); }
__device__ __forceinline__ float ga_sel_abs(complex<float> v) { return hypotf(v.re, v.im); }
template <typename T>
__device__ __forceinline__ bool ga_sel_close(complex<T> x, complex<T> y, double rtol, double atol, bool eqn) {
  if (x.re == y.re && x.im == y.im) return true;
  if (ga_sel_isnan(x) || ga_sel_isnan(y)) return eqn && ga_sel_isnan(x) && ga_sel_isnan(y);
  T d = ga_sel_abs(complex<T>(x.re - y.re, x.im - y.im)), ay = ga_sel_abs(y);
  return ay - ay == (T)0 && d <= (T)atol + (T)rtol * ay;
}

template <typename T> __device__ __forceinline__ bool ga_sel_eq(T a, T b, bool eqn) {
  return a == b || (eqn && a != a && b != b);
}
__device__ __forceinline__ bool ga_sel_eq(float16 a, float16 b, bool eqn) {
  return ga_sel_eq<float>((float)a, (float)b, eqn);
}
__device__ __forceinline__ bool ga_sel_eq(bfloat16 a, bfloat16 b, bool eqn) {
  return ga_sel_eq<float>((float)a, (float)b, eqn);
}
template <typename T> __device__ __forceinline__ bool ga_sel_eq(complex<T> a, complex<T> b, bool eqn) {
  return (a.re == b.re && a.im == b.im) || (eqn && ga_sel_isnan(a) && ga_sel_isnan(b));
}

// around: NumPy's rint(x * 10^d) / 10^d (or rint(x / 10^-d) * 10^-d)
__device__ __forceinline__ double ga_sel_round(double v, double f, bool neg) {
  return neg ? rint(v / f) * f : rint(v * f) / f;
}
__device__ __forceinline__ float ga_sel_round(float v, double f, bool neg) {
  float g = (float)f;
  return neg ? rintf(v / g) * g : rintf(v * g) / g;
}
__device__ __forceinline__ float16 ga_sel_round(float16 v, double f, bool neg) {
  return float16(ga_sel_round((float)v, f, neg));
}
__device__ __forceinline__ bfloat16 ga_sel_round(bfloat16 v, double f, bool neg) {
  return bfloat16(ga_sel_round((float)v, f, neg));
}
template <typename T> __device__ __forceinline__ complex<T> ga_sel_round(complex<T> v, double f, bool neg) {
  return complex<T>(ga_sel_round(v.re, f, neg), ga_sel_round(v.im, f, neg));
}
// integers (negative decimals only): computed in double, cast back
template <typename T> __device__ __forceinline__ T ga_sel_round_int(T v, double f) {
  return ga_cast<T>(rint(ga_cast<double>(v) / f) * f);
}
]]

  -- The kernels as data: {in_params, out_params, operation}. isclose and
  -- array_equal compute in a dtype F named in the operation (one kernel each).
  local DEFS = {
    where = { "C c, X x, Y y", "Z z", "z = ga_cast<bool>(c) ? ga_cast<Z>(x) : ga_cast<Z>(y)" },
    clip = { "X x, A lo, B hi", "Z z", "z = ga_sel_min(ga_sel_max(ga_cast<Z>(x), ga_cast<Z>(lo)), ga_cast<Z>(hi))" },
    clip_lo = { "X x, A lo", "Z z", "z = ga_sel_max(ga_cast<Z>(x), ga_cast<Z>(lo))" },
    clip_hi = { "X x, B hi", "Z z", "z = ga_sel_min(ga_cast<Z>(x), ga_cast<Z>(hi))" },
    round = { "X x, float64 f, bool neg", "Z z", "z = ga_cast<Z>(ga_sel_round(x, f, neg))" },
    round_int = { "X x, float64 f", "Z z", "z = ga_cast<Z>(ga_sel_round_int(x, f))" },
  }
  local TEMPLATES = {
    isclose = { "A a, B b, float64 rtol, float64 atol, bool eqn", "bool z",
                "z = ga_sel_close(ga_cast<%s>(a), ga_cast<%s>(b), rtol, atol, eqn)" },
    equal = { "A a, B b, bool eqn", "bool z", "z = ga_sel_eq(ga_cast<%s>(a), ga_cast<%s>(b), eqn)" },
  }
  local function def_of(name, f)
    if f == nil then return DEFS[name] end
    local t = TEMPLATES[name]
    return { t[1], t[2], t[3]:format(f, f) }
  end
  -- for the CI spec, which compiles every definition with NVRTC
  internal.select_defs = { preamble = PREAMBLE, fixed = DEFS, templates = TEMPLATES, def_of = def_of }

  local kernels = {}
  local function kernel(name, f)
    local key = f and name .. "_" .. f or name
    local k = kernels[key]
    if not k then
      if not ga.ElementwiseKernel then fail(name .. ": needs ga.ElementwiseKernel (the elementwise engine)") end
      local d = def_of(name, f)
      k = ga.ElementwiseKernel(d[1], d[2], d[3], "ga_" .. key, { preamble = PREAMBLE })
      kernels[key] = k
    end
    return k
  end

  -- A Lua scalar as a typed scalar of dtype (so a placeholder type binds to
  -- the result dtype); arrays and typed scalars pass through. A table here
  -- is a {re, im} pair (result_type accepted it): a complex weak scalar, as
  -- in the ufuncs, never a 2-element array.
  local function as_operand(v, dtype, fname)
    if type(v) == "number" or type(v) == "boolean" then return ga[dtype](v) end
    if type(v) == "table" then
      if ga.dtype(dtype).kind ~= "c" then
        fail(("%s: cannot cast a complex {re, im} pair to %s (casting rule 'same_kind')"):format(fname, dtype))
      end
      return ga[dtype](v)
    end
    return v
  end

  local function result_shape(fname, ...)
    local shapes = {}
    for i = 1, select("#", ...) do shapes[i] = shape_of((select(i, ...))) end
    local ok, shape = pcall(ga.broadcast_shapes, table.unpack(shapes))
    if not ok then
      local parts = {}
      for i, s in ipairs(shapes) do parts[i] = shape_str(s) end
      fail(("%s: shapes %s cannot be broadcast together"):format(fname, table.concat(parts, ", ")))
    end
    return shape
  end

  -- opts.out when given (its shape must be the broadcast shape), else a new array
  local function output(fname, shape, dtype, out)
    if out == nil then return ga.empty(shape, dtype) end
    return internal.check_out(out, shape, fname)
  end

  api.def(ga, [[
where(condition: array_like, x: array_like?, y: array_like?, *, out: ndarray?, dtype: dtype?) -> ndarray
x where condition is true, else y, broadcast together; dtype
ga.result_type(x, y) unless given; out receives it. A {re, im} pair for x
or y is a complex scalar (weak, as in the ufuncs). With the condition
alone it is ga.nonzero(condition): 1-based positions, one array per axis.
]], function(c, x, y, out, dtype)
    local tracer = internal.tracer
    if tracer then   -- ga.fuse is recording (internal.set_tracer)
      local took, r = tracer("where", nil, c, x, y, { out = out, dtype = dtype })
      if took then return r end
    end
    if x == nil and y == nil then
      if out ~= nil or dtype ~= nil then fail("where: out and dtype go with x and y") end
      return ga.nonzero(c)
    end
    if x == nil or y == nil then fail("where: give both x and y, or only the condition") end
    if type(c) == "table" then c = ga.asarray(c, "bool") end
    dtype = dtype and ga.dtype(dtype).name or ga.result_type(x, y)
    local shape = result_shape("where", c, x, y)
    if type(c) ~= "userdata" then c = ga.bool(c ~= nil and c ~= false and c ~= 0) end
    x, y = as_operand(x, dtype, "where"), as_operand(y, dtype, "where")
    if out == nil then   -- recorded when lazy evaluation is on (src/elementwise/lazy_lua.c)
      local p = lazy_op("where", dtype, c, x, y)
      if p then return p end
    end
    local z = output("where", shape, dtype, out)
    kernel("where")(c, x, y, z)
    return z
  end)

  local INT_RANGE = {
    int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
    uint8 = { 0, 255 }, uint16 = { 0, 65535 }, uint32 = { 0, 4294967295 },
    uint64 = { 0, math.maxinteger },
  }

  --- clip(x, lo, hi, out, dtype): min(max(x, lo), hi) with NumPy's NaN
  -- propagation; lo or hi may be nil. Lua integer bounds outside an
  -- integer x's range are clamped to it (NumPy 2.1), so clip(uint8, -1, 300)
  -- stays uint8.
  local function clip(x, lo, hi, out, forced)
    local tracer = internal.tracer
    if tracer then
      local took, r = tracer("clip", nil, x, lo, hi, { out = out, dtype = forced })
      if took then return r end
    end
    local opts = { out = out, dtype = forced }
    if not is_array(x) then x = ga.asarray(x) end
    local range = INT_RANGE[x.dtype]
    if range and not opts.dtype then
      if math.type(lo) == "integer" then lo = math.min(math.max(lo, range[1]), range[2]) end
      if math.type(hi) == "integer" then hi = math.min(math.max(hi, range[1]), range[2]) end
    end
    local dtype = opts.dtype and ga.dtype(opts.dtype).name
    if not dtype then
      if lo ~= nil and hi ~= nil then dtype = ga.result_type(x, lo, hi)
      elseif lo ~= nil then dtype = ga.result_type(x, lo)
      elseif hi ~= nil then dtype = ga.result_type(x, hi)
      else dtype = x.dtype end
    end
    local shape = result_shape("clip", x, lo, hi)
    if opts.out == nil and (lo ~= nil or hi ~= nil) then   -- recorded when lazy (lazy_lua.c)
      local p = lazy_op("clip", dtype, x, lo ~= nil and as_operand(lo, dtype, "clip") or nil,
                        hi ~= nil and as_operand(hi, dtype, "clip") or nil)
      if p then return p end
    end
    local z = output("clip", shape, dtype, opts.out)
    if lo == nil and hi == nil then
      z:set(x)
    elseif hi == nil then
      kernel("clip_lo")(x, as_operand(lo, dtype, "clip"), z)
    elseif lo == nil then
      kernel("clip_hi")(x, as_operand(hi, dtype, "clip"), z)
    else
      kernel("clip")(x, as_operand(lo, dtype, "clip"), as_operand(hi, dtype, "clip"), z)
    end
    return z
  end

  -- isclose, allclose and array_equal (lua/gpuarray/logic) launch the
  -- kernels defined here, beside the helpers they share
  internal.select_kernel = kernel
  internal.select_operand = as_operand
  internal.select_output = output
  internal.select_result_shape = result_shape

  local INTEGRAL = {
    bool = true, int8 = true, int16 = true, int32 = true, int64 = true,
    uint8 = true, uint16 = true, uint32 = true, uint64 = true,
  }

  --- around(x, decimals, out) (also ga.round): round half to even at
  -- `decimals` decimal places (negative: to tens, hundreds, ...), as NumPy:
  -- rint(x * 10^d) / 10^d. Integer arrays keep their dtype (a copy when
  -- decimals >= 0); complex rounds both parts; float16 rounds in float.
  local function around(x, decimals, out)
    local opts = { out = out }
    if not is_array(x) then x = ga.asarray(x) end
    local dtype = x.dtype
    local z = output("around", x.shape, dtype, opts.out)
    local f = 10.0 ^ math.abs(decimals)
    if INTEGRAL[dtype] then
      if decimals >= 0 then
        z:set(x)
      else
        kernel("round_int")(x, ga.float64(f), z)
      end
      return z
    end
    kernel("round")(x, ga.float64(f), ga.bool(decimals < 0), z)
    return z
  end

  -- the declarations (API.md §0; the math family's rows)
  api.def(ga, [[
clip(a: array_like, a_min|min: array_like?, a_max|max: array_like?, out: ndarray?, *, dtype: dtype?) -> ndarray
Limit the values to [a_min, a_max] (either may be nil), broadcast; NaN
propagates. Lua integer bounds past an integer array's range are clamped
to it (NumPy 2.1: clip(uint8, -1, 300) stays uint8).
]], clip)
  api.def(ga, [[
around(a: array_like, decimals: integer = 0, out: ndarray?) -> ndarray
Round half to even at decimals decimal places (negative: tens, hundreds,
...), as NumPy's rint(x * 10^d) / 10^d; integers keep their dtype, complex
numbers round both parts.
]], around)
  ga.round = ga.around
  api.alias("round", ga.around)

  -- x:clip(lo, hi), x:round(decimals), NumPy's method forms
  if methods.clip == nil then methods.clip = ga.clip end
  if methods.round == nil then methods.round = ga.around end
  api.alias("ndarray:clip", ga.clip)
  api.alias("ndarray:round", ga.around)

  require("gpuarray.select.indices")(ga)
  require("gpuarray.select.along")(ga)
  require("gpuarray.select.choose")(ga)
  require("gpuarray.select.strides")(ga)
  require("gpuarray.select.scatter")(ga)
  require("gpuarray.select.concat")(ga)
end
