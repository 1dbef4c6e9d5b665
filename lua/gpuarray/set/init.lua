--- Sets (API.md §14): unique (and the Array API's unique_all,
-- unique_counts, unique_inverse, unique_values), isin, in1d, intersect1d,
-- union1d, setdiff1d, setxor1d.
--
-- unique sorts (the sort room's engine), marks where each run of equal
-- values starts (core.sort.unique_flags) and reads the rest from those marks:
-- the first index of a value is its argsort position at the mark, the
-- inverse a cumulative sum of the marks scattered back, the counts the
-- distances between marks. isin sorts the test values and binary searches
-- each element in one kernel (the isin bench key: a sort of 2^16 values and
-- one pass over 2^24 elements, instead of CuPy's sort of both).
--
-- Every index returned is 1-based (API.md §14): unique's first indices and
-- inverse, intersect1d's indices.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local fail = internal.fail
  local S = internal.sort
  local as_array = S.as_array

  local FLOATISH = { f = true, c = true }

  -- where each run of equal values of sorted 1-D s starts; with equal_nan
  -- false every NaN starts its own run (NumPy: NaNs are then distinct)
  local function run_starts(s, equal_nan)
    local m = core.sort.unique_flags(s)
    if not equal_nan and FLOATISH[ga.dtype(s.dtype).kind] then m = ga.logical_or(m, ga.isnan(s)) end
    return m
  end

  -- the counts of the runs that start at the true elements of m (int64)
  local function run_counts(m)
    local n = m.size
    local starts = ga.arange(1, n + 1, "int64")[m]
    return ga.diff(starts, 1, -1, nil, n + 1)
  end

  local function empty_results(x, want_i, want_inv, want_c, inv_shape)
    local out = { ga.empty(0, x.dtype) }
    if want_i then out[#out + 1] = ga.empty(0, "int64") end
    if want_inv then out[#out + 1] = ga.empty(inv_shape, "int64") end
    if want_c then out[#out + 1] = ga.empty(0, "int64") end
    return table.unpack(out)
  end

  -- unique of the flattened x; the inverse takes inv_shape
  local function unique_flat(x, want_i, want_inv, want_c, equal_nan, inv_shape)
    local flat = x:reshape(x.size)
    local n = flat.size
    if n == 0 then return empty_results(x, want_i, want_inv, want_c, inv_shape) end
    if not (want_i or want_inv or want_c) then
      local s = S.sorted(flat, 1)
      return s[run_starts(s, equal_nan)]
    end
    local idx = ga.argsort(flat)
    local s = flat:take(idx)
    local m = run_starts(s, equal_nan)
    local out = { s[m] }
    if want_i then out[#out + 1] = idx[m] end
    if want_inv then
      local inv = ga.empty(n, "int64")
      ga.put(inv, idx, ga.cumsum(m:astype("int64")))
      out[#out + 1] = inv:reshape(inv_shape)
    end
    if want_c then out[#out + 1] = run_counts(m) end
    return table.unpack(out)
  end

  -- the permutation that moves axis d first, keeping the others' order
  local function first_perm(nd, d)
    local p = { d }
    for k = 1, nd do if k ~= d then p[#p + 1] = k end end
    return p
  end
  local function inverse_perm(p)
    local q = {}
    for i, v in ipairs(p) do q[v] = i end
    return q
  end

  -- unique along axis d: the distinct sub-arrays x[..., k, ...], in
  -- lexicographic order (NaNs are never equal here, as NumPy's)
  local function unique_axis(x, d, want_i, want_inv, want_c)
    local nd = x.ndim
    local perm = first_perm(nd, d)
    local moved = ga.ascontiguousarray(x:transpose(perm))
    local shape = moved.shape
    local n = shape[1]
    local m = moved.size // math.max(n, 1)
    if n == 0 then
      local out = { x:copy(), empty_results(x, want_i, want_inv, want_c, 0) }
      table.remove(out, 2)   -- empty_results' own values
      return table.unpack(out)
    end
    local rest = table.move(shape, 2, #shape, 1, {})
    local function back(vals, k)
      local s = { k }
      for _, v in ipairs(rest) do s[#s + 1] = v end
      return vals:reshape(s):transpose(inverse_perm(perm))
    end
    local y = moved:reshape(n, m)
    local order, ys
    if m == 0 then
      order = ga.arange(1, n + 1, "int64")
      ys = y
    else
      local keys = {}
      for j = m, 1, -1 do keys[#keys + 1] = y[{ {}, j }] end
      order = ga.lexsort(keys)
      ys = ga.take(y, order, 1)
    end
    local starts
    if m == 0 then
      starts = ga.zeros(n, "bool")
      starts[1] = true
    else
      local head = ga.ones(1, "bool")
      if n > 1 then
        local differ = ga.any(ga.not_equal(ys[{ { 2, n } }], ys[{ { 1, n - 1 } }]), { axis = 2 })
        head = ga.concatenate({ head, differ })
      end
      starts = head
    end
    local rows_at = ga.flatnonzero(starts)
    local out = { ga.ascontiguousarray(back(ga.take(ys, rows_at, 1), rows_at.size)) }
    if want_i then out[#out + 1] = order:take(rows_at) end
    if want_inv then
      local inv = ga.empty(n, "int64")
      ga.put(inv, order, ga.cumsum(starts:astype("int64")))
      out[#out + 1] = inv
    end
    if want_c then out[#out + 1] = run_counts(starts) end
    return table.unpack(out)
  end

  def(ga, [[
unique(ar: array_like, return_index: boolean = false, return_inverse: boolean = false,
       return_counts: boolean = false, axis: axis?, *, equal_nan: boolean = true,
       sorted: boolean = true) -> ndarray, ...
The sorted distinct values of ar (flattened without axis), then as asked, in
this order: the 1-based flat index of each value's first occurrence, the
1-based index into the values of each element (the input's shape without
axis, as NumPy 2; 1-D with axis), and how often each value occurs (int64).
equal_nan: NaNs count as one value. With axis: the distinct sub-arrays along
it, in lexicographic order (NaNs never equal there).
]], function(x, want_i, want_inv, want_c, axis, equal_nan)
    x = as_array(x, "unique")
    if axis ~= nil then
      if x.ndim == 0 then fail("unique: axis is out of range for a 0-d array") end
      return unique_axis(x, S.axis(axis, x.ndim, "unique"), want_i, want_inv, want_c)
    end
    return unique_flat(x, want_i, want_inv, want_c, equal_nan, x.shape)
  end)

  def(ga, [[
unique_all(x: array_like) -> ndarray, ndarray, ndarray, ndarray
The Array API's unique_all: values, indices (1-based first occurrences),
inverse_indices (1-based, x's shape), counts; NaNs are distinct.
]], function(x)
    x = as_array(x, "unique_all")
    return unique_flat(x, true, true, true, false, x.shape)
  end)

  def(ga, [[
unique_counts(x: array_like) -> ndarray, ndarray
The Array API's unique_counts: the sorted distinct values and their counts
(int64); NaNs are distinct.
]], function(x)
    x = as_array(x, "unique_counts")
    return unique_flat(x, false, false, true, false, x.shape)
  end)

  def(ga, [[
unique_inverse(x: array_like) -> ndarray, ndarray
The Array API's unique_inverse: the sorted distinct values and, for each
element of x, the 1-based index of its value (int64, x's shape); NaNs are
distinct.
]], function(x)
    x = as_array(x, "unique_inverse")
    return unique_flat(x, false, true, false, false, x.shape)
  end)

  def(ga, [[
unique_values(x: array_like) -> ndarray
The Array API's unique_values: the sorted distinct values of x; NaNs are
distinct.
]], function(x)
    x = as_array(x, "unique_values")
    return (unique_flat(x, false, false, false, false, x.shape))
  end)

  ---------------------------------------------------------------------------
  -- membership

  -- one thread per element: a lower-bound binary search in the sorted test
  -- values (NumPy's order, NaNs last), then equality (a NaN is never found)
  local ISIN_OP = [[
long long lo = 0, hi = n;
while (lo < hi) {
  long long mid = (lo + hi) >> 1;
  if (ga_lt(t[mid], x)) lo = mid + 1; else hi = mid;
}
z = (lo < n && t[lo] == x) != inv]]
  local isin_k
  local function isin_kernel()
    if not isin_k then
      isin_k = ga.ElementwiseKernel("T x, raw T t, int64 n, bool inv", "bool z", ISIN_OP, "ga_isin")
    end
    return isin_k
  end
  internal.set_kernels = isin_kernel   -- for the compile spec

  local function isin(element, test, invert)
    element, test = as_array(element, "isin"), as_array(test, "isin")
    local dt = ga.result_type(element, test)
    if element.size == 0 then return ga.empty(element.shape, "bool") end
    if test.size == 0 then return ga.full(element.shape, invert, "bool") end
    local e = element.dtype == dt and element or element:astype(dt)
    local t = test:reshape(test.size)
    if t.dtype ~= dt then t = t:astype(dt) end
    local ts = S.sorted(t, 1)
    local z = ga.empty(element.shape, "bool")
    isin_kernel()(e, ts, ga.int64(ts.size), ga.bool(invert), z)
    return z
  end
  internal.isin = isin

  def(ga, [[
isin(element: array_like, test_elements: array_like, assume_unique: boolean = false,
     invert: boolean = false, *, kind: "sort"|"table"?) -> ndarray
Whether each element of element is among test_elements (flattened): a bool
array of element's shape (invert: whether it is not). Values compare after
promotion to one dtype; NaN is never found. assume_unique and kind change
nothing (one method: a binary search in the sorted test values).
]], function(element, test, _, invert)
    return isin(element, test, invert)
  end)

  def(ga, [[
in1d(ar1: array_like, ar2: array_like, assume_unique: boolean = false, invert: boolean = false,
     *, kind: "sort"|"table"?) -> ndarray
isin of the flattened ar1: a 1-D bool array (NumPy's deprecated in1d).
]], function(a, b, _, invert)
    a = as_array(a, "in1d")
    return isin(a:reshape(a.size), b, invert)
  end)

  local function flat_of(x, fname)
    x = as_array(x, fname)
    return x:reshape(x.size)
  end

  -- sorted distinct values of a flattened array with their first indices;
  -- assume_unique skips the distinct step (the argsort still orders them)
  local function unique_with_index(a, assume_unique)
    if a.size == 0 then return ga.empty(0, a.dtype), ga.empty(0, "int64") end
    if assume_unique then
      local idx = ga.argsort(a)
      return a:take(idx), idx
    end
    return unique_flat(a, true, false, false, true, a.shape)
  end

  def(ga, [[
intersect1d(ar1: array_like, ar2: array_like, assume_unique: boolean = false,
            return_indices: boolean = false) -> ndarray, ...
The sorted values found in both (flattened) arrays, in their promoted dtype;
with return_indices also the 1-based flat index of each value's first
occurrence in ar1 and in ar2.
]], function(a, b, assume_unique, return_indices)
    a, b = flat_of(a, "intersect1d"), flat_of(b, "intersect1d")
    local dt = ga.result_type(a, b)
    local ua, ia = unique_with_index(a, assume_unique)
    local ub, ib = unique_with_index(b, assume_unique)
    local common, first_a
    if ua.size == 0 or ub.size == 0 then
      common, first_a = ga.empty(0, ua.dtype), ga.empty(0, "int64")
    else
      local m = isin(ua, ub, false)
      common, first_a = ua[m], ia[m]
    end
    local vals = common.dtype == dt and common or common:astype(dt)
    if not return_indices then return vals end
    if common.size == 0 then return vals, first_a, ga.empty(0, "int64") end
    -- each common value's place among ar2's distinct values (ub is sorted)
    local at = ga.searchsorted(ub:astype(dt), vals)
    return vals, first_a, ib:take(at)
  end)

  def(ga, [[
union1d(ar1: array_like, ar2: array_like) -> ndarray
The sorted distinct values of both (flattened) arrays, in their promoted dtype.
]], function(a, b)
    a, b = flat_of(a, "union1d"), flat_of(b, "union1d")
    local dt = ga.result_type(a, b)
    if a.dtype ~= dt then a = a:astype(dt) end
    if b.dtype ~= dt then b = b:astype(dt) end
    return (unique_flat(ga.concatenate({ a, b }), false, false, false, true, { a.size + b.size }))
  end)

  def(ga, [[
setdiff1d(ar1: array_like, ar2: array_like, assume_unique: boolean = false) -> ndarray
The distinct values of ar1 not in ar2 (flattened), sorted, in ar1's dtype;
with assume_unique, ar1's values in their order.
]], function(a, b, assume_unique)
    a, b = flat_of(a, "setdiff1d"), flat_of(b, "setdiff1d")
    if not assume_unique then
      a = unique_flat(a, false, false, false, true, a.shape)
    end
    if a.size == 0 then return a end
    return a[isin(a, b, true)]
  end)

  def(ga, [[
setxor1d(ar1: array_like, ar2: array_like, assume_unique: boolean = false) -> ndarray
The sorted values in exactly one of the (flattened) arrays, in their
promoted dtype.
]], function(a, b, assume_unique)
    a, b = flat_of(a, "setxor1d"), flat_of(b, "setxor1d")
    local dt = ga.result_type(a, b)
    if a.dtype ~= dt then a = a:astype(dt) end
    if b.dtype ~= dt then b = b:astype(dt) end
    if not assume_unique then
      a = unique_flat(a, false, false, false, true, a.shape)
      b = unique_flat(b, false, false, false, true, b.shape)
    end
    local parts = {}
    if a.size > 0 then parts[#parts + 1] = b.size > 0 and a[isin(a, b, true)] or a end
    if b.size > 0 then parts[#parts + 1] = a.size > 0 and b[isin(b, a, true)] or b end
    if #parts == 0 then return ga.empty(0, dt) end
    local all = #parts == 1 and parts[1] or ga.concatenate(parts)
    return S.sorted(all, 1)
  end)
end
