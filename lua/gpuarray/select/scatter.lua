--- Scatter with accumulation (API.md §14): ga.scatter_add, scatter_max,
-- scatter_min (cupyx's), and the engine under them, which ufunc.at shares
-- (bench key add_at_f32_2^24_into_2^16_ms): a[key] = op(a[key], values)
-- where repeated positions each apply, atomically.
--
--   internal.scatter_apply(op, a, key, values, fname)
--     op: "add" "subtract" "multiply" "maximum" "minimum" "bitwise_and"
--         "bitwise_or" "bitwise_xor" "logical_and" "logical_or", or a table
--         {name = "id", expr = "CUDA of a (the element) and b (the value)",
--          preamble = "device code the expression needs"} in a's dtype;
--     key: a Lua integer or an integer ndarray (positions along axis 1,
--         1-based, wrapping as x[idx] does), a bool ndarray (a mask over
--         a's leading axes), or a table of per-axis selectors as x[key]
--         takes them (integers, {start, stop, step}, {}, ga.newaxis,
--         ga.ellipsis) where integer ndarrays may stand for axes (NumPy's
--         advanced indices: broadcast together; their block of axes goes
--         where the first one is when they are adjacent, else in front);
--     values: broadcast to the selection, cast to a's dtype.
--
-- One ElementwiseKernel per (op, dtype) over the selection, with a raw:
-- each element finds its flat C-order position in a and applies op there
-- with an atomic (native atomicAdd/Max/Min/And/Or/Xor where CUDA has one
-- for the dtype, else a compare-and-swap loop on the aligned 4- or 8-byte
-- word that holds the element; complex128 adds part by part, its other
-- ops have no 16-byte swap and raise).
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array, shape_str = internal.fail, internal.is_array, internal.shape_str
  local def = api.def

  local PREAMBLE = [[
template <typename I> __device__ __forceinline__ I ga_wrap1(I k, I n) {
  I z = k >= 0 ? k - 1 : k + n;
  if (z >= 0 && z < n) return z;
  z %= n;
  return z < 0 ? z + n : z;
}
// old = *p; *p = f(old, b), atomically, for elements of 1, 2, 4 or 8 bytes:
// a compare-and-swap loop on the aligned word holding the element
template <typename T, typename F>
__device__ __forceinline__ void ga_atomic_update(T *p, T b, F f) {
  static_assert(sizeof(T) <= 8, "no atomic update for elements wider than 8 bytes");
  if constexpr (sizeof(T) == 8) {
    unsigned long long *w = (unsigned long long *)p;
    unsigned long long old = *w, assumed;
    do {
      assumed = old;
      T cur, nv;
      memcpy(&cur, &assumed, 8);
      nv = f(cur, b);
      unsigned long long nw;
      memcpy(&nw, &nv, 8);
      if (nw == assumed) break;
      old = atomicCAS(w, assumed, nw);
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 4) {
    unsigned int *w = (unsigned int *)p;
    unsigned int old = *w, assumed;
    do {
      assumed = old;
      T cur, nv;
      memcpy(&cur, &assumed, 4);
      nv = f(cur, b);
      unsigned int nw;
      memcpy(&nw, &nv, 4);
      if (nw == assumed) break;
      old = atomicCAS(w, assumed, nw);
    } while (old != assumed);
  } else {
    const unsigned long long addr = (unsigned long long)p;
    unsigned int *w = (unsigned int *)(addr & ~3ull);
    const unsigned shift = (unsigned)(addr & 3ull) * 8u;
    const unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned int old = *w, assumed;
    do {
      assumed = old;
      unsigned int bits = (assumed & mask) >> shift;
      T cur, nv;
      memcpy(&cur, &bits, sizeof(T));
      nv = f(cur, b);
      unsigned int nb = 0;
      memcpy(&nb, &nv, sizeof(T));
      const unsigned int nw = (assumed & ~mask) | ((nb << shift) & mask);
      if (nw == assumed) break;
      old = atomicCAS(w, assumed, nw);
    } while (old != assumed);
  }
}
// maximum and minimum as NumPy's: a NaN on either side wins; complex
// numbers order lexicographically
template <typename T> __device__ __forceinline__ bool ga_sc_nan(T v) { return v != v; }
template <typename T> __device__ __forceinline__ bool ga_sc_nan(complex<T> v) { return v.re != v.re || v.im != v.im; }
template <typename T> __device__ __forceinline__ T ga_sc_max(T a, T b) {
  return ga_sc_nan(a) ? a : (ga_sc_nan(b) ? b : (ga_lt(a, b) ? b : a));
}
template <typename T> __device__ __forceinline__ T ga_sc_min(T a, T b) {
  return ga_sc_nan(a) ? a : (ga_sc_nan(b) ? b : (ga_lt(b, a) ? b : a));
}
]]

  -- op name -> {expr, native}: native: CUDA overloads of ga_sc_apply for
  -- the dtypes with a hardware atomic (the template takes the others)
  local OPS = {
    add = { expr = "a + b", native = [[
__device__ __forceinline__ void ga_sc_apply(float *p, float b) { atomicAdd(p, b); }
__device__ __forceinline__ void ga_sc_apply(double *p, double b) { atomicAdd(p, b); }
__device__ __forceinline__ void ga_sc_apply(int *p, int b) { atomicAdd(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned int *p, unsigned int b) { atomicAdd(p, b); }
__device__ __forceinline__ void ga_sc_apply(long long *p, long long b) {
  atomicAdd((unsigned long long *)p, (unsigned long long)b);
}
__device__ __forceinline__ void ga_sc_apply(unsigned long long *p, unsigned long long b) { atomicAdd(p, b); }
template <typename T> __device__ __forceinline__ void ga_sc_apply(complex<T> *p, complex<T> b) {
  atomicAdd(&p->re, b.re);
  atomicAdd(&p->im, b.im);
}
]], wide = true },
    subtract = { expr = "a - b" },
    multiply = { expr = "a * b" },
    maximum = { expr = "ga_sc_max(a, b)", native = [[
__device__ __forceinline__ void ga_sc_apply(int *p, int b) { atomicMax(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned int *p, unsigned int b) { atomicMax(p, b); }
__device__ __forceinline__ void ga_sc_apply(long long *p, long long b) { atomicMax(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned long long *p, unsigned long long b) { atomicMax(p, b); }
]] },
    minimum = { expr = "ga_sc_min(a, b)", native = [[
__device__ __forceinline__ void ga_sc_apply(int *p, int b) { atomicMin(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned int *p, unsigned int b) { atomicMin(p, b); }
__device__ __forceinline__ void ga_sc_apply(long long *p, long long b) { atomicMin(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned long long *p, unsigned long long b) { atomicMin(p, b); }
]] },
    bitwise_and = { expr = "a & b", native = [[
__device__ __forceinline__ void ga_sc_apply(int *p, int b) { atomicAnd(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned int *p, unsigned int b) { atomicAnd(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned long long *p, unsigned long long b) { atomicAnd(p, b); }
]] },
    bitwise_or = { expr = "a | b", native = [[
__device__ __forceinline__ void ga_sc_apply(int *p, int b) { atomicOr(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned int *p, unsigned int b) { atomicOr(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned long long *p, unsigned long long b) { atomicOr(p, b); }
]] },
    bitwise_xor = { expr = "a ^ b", native = [[
__device__ __forceinline__ void ga_sc_apply(int *p, int b) { atomicXor(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned int *p, unsigned int b) { atomicXor(p, b); }
__device__ __forceinline__ void ga_sc_apply(unsigned long long *p, unsigned long long b) { atomicXor(p, b); }
]] },
    logical_and = { expr = "(bool)a && (bool)b" },
    logical_or = { expr = "(bool)a || (bool)b" },
  }

  -- the combining functor and the generic ga_sc_apply for an expression
  local function op_source(expr, native)
    return ([[
struct ga_sc_op {
  template <typename T> __device__ __forceinline__ T operator()(T a, T b) const { return (T)(%s); }
};
template <typename T> __device__ __forceinline__ void ga_sc_apply(T *p, T b) { ga_atomic_update(p, b, ga_sc_op()); }
%s]]):format(expr, native or "")
  end

  local OPERATION = [[
    const long long _t = ga_wrap1<long long>((long long)j, n0) * row + (row == 1 ? 0 : (long long)i % row);
    ga_sc_apply(&a[_t], v)]]

  local kernels = {}
  local function kernel(op)
    local def_ = type(op) == "table" and op or OPS[op]
    local name = type(op) == "table" and op.name or op
    if not def_ then fail(("scatter: unknown operation %s"):format(tostring(op))) end
    local k = kernels[name]
    if not k then
      local pre = PREAMBLE .. (type(op) == "table" and (op.preamble or "") or "") .. op_source(def_.expr, def_.native)
      k = ga.ElementwiseKernel("raw T a, J j, T v, int64 n0, int64 row", "", OPERATION, "ga_scatter_" .. name,
                               { preamble = pre })
      kernels[name] = k
    end
    return k, def_
  end
  internal.scatter_kernel = kernel   -- for the CPU spec's NVRTC compile

  ---------------------------------------------------------------------------
  -- keys: the selection's flat positions
  ---------------------------------------------------------------------------

  -- the C-order element strides of a shape
  local function cstrides(shape)
    local st, acc = {}, 1
    for d = #shape, 1, -1 do
      st[d] = acc
      acc = acc * shape[d]
    end
    return st
  end

  -- a range {start, stop, step} on an axis of n: 0-based first, count, step
  -- (inclusive 1-based ends, negatives from the end, clamped, as x[key])
  local function range(r, n, fname)
    local a, b, step = rawget(r, 1), rawget(r, 2), rawget(r, 3)
    if rawlen(r) > 3 then fail(fname .. ": a range is {start, stop, step}") end
    step = step == nil and 1 or step
    for _, v in ipairs({ a or 0, b or 0, step }) do
      if math.type(v) ~= "integer" then fail(fname .. ": range ends and steps must be integers") end
    end
    if step == 0 then fail(fname .. ": a range step cannot be 0") end
    local s = a ~= nil and (a < 0 and n + a or a - 1) or (step > 0 and 0 or n - 1)
    local e = b ~= nil and (b < 0 and n + b or b - 1) or (step > 0 and n - 1 or 0)
    local count
    if step > 0 then
      s, e = math.max(s, 0), math.min(e, n - 1)
      count = e >= s and (e - s) // step + 1 or 0
    else
      s, e = math.min(s, n - 1), math.max(e, 0)
      count = s >= e and (s - e) // -step + 1 or 0
    end
    return count > 0 and s or 0, count, step
  end

  -- an integer index array's values as 0-based positions on an axis of n
  -- (wrapping), int64
  local function wrap0(idx, n, fname)
    if not args.INDEX_DTYPES[idx.dtype] then
      fail(("%s: index arrays must be integers, got %s"):format(fname, idx.dtype))
    end
    if n == 0 then fail(fname .. ": cannot index an empty axis") end
    local k = idx:astype("int64", { copy = false })
    local z = ga.where(ga.less(k, 0), ga.add(k, n), ga.subtract(k, 1))
    return ga.remainder(z, n)
  end

  -- A table key: the 1-based flat positions of the selection in a (an
  -- int64 array of the selection's shape)
  local function table_positions(a, key, fname)
    local shape = a.shape
    local nd = #shape
    local cst = cstrides(shape)
    local entries = args.plain(key, fname, "the key")
    local has_adv, consuming, ell = false, 0, 0
    for _, e in ipairs(entries) do
      if is_array(e) then
        has_adv = true
        if e.dtype == "bool" then fail(fname .. ": a bool array in a key table: give its ga.nonzero positions") end
      end
      if e == ga.ellipsis then ell = ell + 1 elseif e ~= ga.newaxis then consuming = consuming + 1 end
    end
    if ell > 1 then fail(fname .. ": only one ellipsis is allowed") end
    if consuming > nd then fail(("%s: too many indices (%d) for %d dimensions"):format(fname, consuming, nd)) end
    -- one record per entry, the ellipsis and the missing tail as whole axes
    local recs, d = {}, 1
    local function whole()
      recs[#recs + 1] = { kind = "range", axis = d, first = 0, count = shape[d], step = 1 }
      d = d + 1
    end
    for _, e in ipairs(entries) do
      if e == ga.ellipsis then
        for _ = 1, nd - consuming do whole() end
      elseif e == ga.newaxis then
        recs[#recs + 1] = { kind = "new" }
      elseif is_array(e) then
        recs[#recs + 1] = { kind = "adv", axis = d, idx = wrap0(e, shape[d], fname) }
        d = d + 1
      elseif math.type(e) == "integer" then
        local n = shape[d]
        local z = e < 0 and n + e or e - 1
        if e == 0 or z < 0 or z >= n then
          fail(("%s: index %d is out of range for axis %d with size %d"):format(fname, e, d, n))
        end
        if has_adv then
          recs[#recs + 1] = { kind = "adv", axis = d, idx = ga.full({}, z, "int64") }
        else
          recs[#recs + 1] = { kind = "int", axis = d, first = z }
        end
        d = d + 1
      elseif type(e) == "table" then
        if rawlen(e) == 0 then whole() else
          local first, count, step = range(e, shape[d], fname)
          recs[#recs + 1] = { kind = "range", axis = d, first = first, count = count, step = step }
          d = d + 1
        end
      else
        fail(("%s: unsupported selector of type %s"):format(fname, type(e)))
      end
    end
    while d <= nd do whole() end
    -- the advanced block: its shape, and where it goes
    local adv, bshape = {}, nil
    for i, r in ipairs(recs) do
      if r.kind == "adv" then adv[#adv + 1] = i end
    end
    if #adv > 0 then
      local shapes = {}
      for k, i in ipairs(adv) do shapes[k] = recs[i].idx.shape end
      local ok, b = pcall(ga.broadcast_shapes, table.unpack(shapes))
      if not ok then fail(fname .. ": the index arrays cannot be broadcast together") end
      bshape = b
    end
    local adjacent = #adv > 0 and (adv[#adv] - adv[1] == #adv - 1)
    -- the result's axes: each range and newaxis gives one, the block |B|
    local layout, offset = {}, 0
    local block_at
    if #adv > 0 and not adjacent then
      block_at = 1
      for _ = 1, #bshape do layout[#layout + 1] = false end
    end
    for i, r in ipairs(recs) do
      if r.kind == "range" then
        layout[#layout + 1] = r.count
        r.pos = #layout
      elseif r.kind == "new" then
        layout[#layout + 1] = 1
      elseif r.kind == "int" then
        offset = offset + r.first * cst[r.axis]
      elseif i == adv[1] and adjacent then
        block_at = #layout + 1
        for _ = 1, #bshape do layout[#layout + 1] = false end
      end
    end
    local R = #layout
    local rshape = {}
    for k = 1, R do rshape[k] = layout[k] or bshape[k - block_at + 1] end
    -- the sum of each axis's term, broadcast over the result's axes
    local lin = nil
    local function add(term)
      lin = lin and ga.add(lin, term) or term
    end
    for _, r in ipairs(recs) do
      if r.kind == "range" then
        local s = {}
        for k = 1, R do s[k] = 1 end
        s[r.pos] = r.count
        local v = ga.add(ga.multiply(ga.arange(0, r.count, "int64"), r.step * cst[r.axis]), r.first * cst[r.axis])
        add(v:reshape(s))
      elseif r.kind == "adv" then
        local s = {}
        for k = 1, R do s[k] = 1 end
        local b = ga.broadcast_to(r.idx, bshape)
        for k = 1, #bshape do s[block_at + k - 1] = bshape[k] end
        add(ga.multiply(b, cst[r.axis]):reshape(s))
      end
    end
    if lin == nil then lin = ga.full({}, 0, "int64") end
    lin = ga.add(lin, offset + 1)
    if not args.same_shape(lin.shape, rshape) then lin = ga.broadcast_to(lin, rshape) end
    return lin
  end

  ---------------------------------------------------------------------------
  -- the engine
  ---------------------------------------------------------------------------

  local function apply(op, a, key, values, fname)
    fname = fname or "scatter"
    if not is_array(a) then fail(fname .. ": a must be an ndarray") end
    local k, def_ = kernel(op)
    if a.dtype == "complex128" and not def_.wide then
      local name = type(op) == "table" and op.name or op
      fail(("%s: %s is not supported on complex128 (no 16-byte atomic)"):format(fname, name))
    end
    local j, sel, n0, row
    if math.type(key) == "integer" then key = ga.full({}, key, "int64") end
    if is_array(key) and key.dtype ~= "bool" then
      -- positions along the first axis: the selection is key.shape .. a.shape[2..]
      if a.ndim == 0 then fail(fname .. ": a 0-d array cannot be indexed with an integer array") end
      if not args.INDEX_DTYPES[key.dtype] then
        fail(("%s: index arrays must be integers, got %s"):format(fname, key.dtype))
      end
      local s = a.shape
      n0 = s[1]
      row = 1
      sel = key.shape
      local kshape = key.shape
      for d = 2, #s do
        row = row * s[d]
        sel[#sel + 1] = s[d]
        kshape[#kshape + 1] = 1
      end
      if args.prod(sel) > 0 and n0 == 0 then fail(fname .. ": cannot index an empty axis") end
      j = key:reshape(kshape)
    elseif is_array(key) then
      -- a mask over the leading axes
      local ms, s = key.shape, a.shape
      for d = 1, #ms do
        if ms[d] ~= s[d] then
          fail(("%s: a mask of shape %s does not fit an array of shape %s"):format(fname, shape_str(ms), shape_str(s)))
        end
      end
      local pos = (ga.nonzero(key:ravel()))
      row = 1
      sel = { pos.size }
      local kshape = { pos.size }
      for d = #ms + 1, #s do
        row = row * s[d]
        sel[#sel + 1] = s[d]
        kshape[#kshape + 1] = 1
      end
      n0 = args.prod({ table.unpack(s, 1, #ms) })
      j = pos:reshape(kshape)
    elseif type(key) == "table" then
      j = table_positions(a, key, fname)
      sel, n0, row = j.shape, a.size, 1
    else
      fail(("%s: the key must be an integer, an ndarray or a table of selectors, got %s"):format(fname, type(key)))
    end
    local v = args.array(ga, values, fname, a.dtype)
    local ok, vs = pcall(ga.broadcast_shapes, v.shape, sel)
    if not ok or not args.same_shape(vs, sel) then
      fail(("%s: values of shape %s cannot be broadcast to the selection %s"):format(fname, shape_str(v.shape),
                                                                                      shape_str(sel)))
    end
    if args.prod(sel) == 0 then return a end
    if not args.same_shape(j.shape, sel) then j = ga.broadcast_to(j, sel) end
    if not args.same_shape(v.shape, sel) then v = ga.broadcast_to(v, sel) end
    k(a, j, v, n0, row)
    return a
  end
  internal.scatter_apply = apply
  internal.scatter_ops = OPS

  def(ga, [[
scatter_add(a: ndarray, slices: any, value: array_like)
a[slices] += value where repeated positions each add (cupyx's scatter_add;
x[idx] = x[idx] + v would add once). slices: what x[key] takes (an integer
or integer ndarray of 1-based positions along axis 1, wrapping; a bool
mask; a table of per-axis selectors, which may hold integer ndarrays as
NumPy's advanced indices). value broadcasts to the selection, cast to a's dtype.
]], function(a, slices, value)
    apply("add", a, slices, value, "scatter_add")
  end)

  def(ga, [[
scatter_max(a: ndarray, slices: any, value: array_like)
a[slices] = maximum(a[slices], value) where every repeated position takes
part (cupyx's scatter_max); NaN wins, as in ga.maximum. slices as in
ga.scatter_add.
]], function(a, slices, value)
    apply("maximum", a, slices, value, "scatter_max")
  end)

  def(ga, [[
scatter_min(a: ndarray, slices: any, value: array_like)
a[slices] = minimum(a[slices], value) where every repeated position takes
part (cupyx's scatter_min); NaN wins. slices as in ga.scatter_add.
]], function(a, slices, value)
    apply("minimum", a, slices, value, "scatter_min")
  end)
end
