--- Sorting and searching (API.md §7, §14): ga.sort, x:sort(), argsort,
-- msort, sort_complex, lexsort, partition, argpartition, searchsorted,
-- nanargmax, nanargmin, flatnonzero, extract; the counting functions
-- (bincount, histogram, digitize, diff) are in sort/count.lua, unique and
-- the set routines in lua/gpuarray/set/.
--
-- The device side is one radix sort of rows (src/engine/sort.c): sorting
-- along an axis moves that axis last and sorts every row in one call.
-- Order is NumPy's: NaNs last, -0.0 equal to 0.0 (argsort keeps their input
-- order: every sort here is stable), complex values by real part, then
-- imaginary part. complex128, and every lexsort, chains stable sorts from
-- the least significant key to the most significant one.
--
-- Indices are 1-based: argsort gives 1-based positions along the axis, and
-- searchsorted the 1-based position at which each value would be inserted
-- (1: before the first element, #a + 1: after the last). axis = false is
-- NumPy's axis=None (the flattened array).
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local methods = ga.methods
  local fail, is_array = internal.fail, internal.is_array

  local S = {}
  internal.sort = S

  function S.as_array(x, fname)
    if is_array(x) then return x end
    if type(x) == "table" or type(x) == "number" or type(x) == "boolean" then return ga.asarray(x) end
    if type(x) == "userdata" then return ga.asarray(x) end   -- a typed scalar
    fail(("%s: expected an ndarray, got %s"):format(fname, type(x)))
  end
  local as_array = S.as_array

  --- axis: an integer (1-based, negative from the end) or false (the
  -- flattened array); nil takes def. Returns the axis, or false.
  function S.axis(axis, nd, fname, def_axis)
    if axis == nil then axis = def_axis end
    if axis == false then return false end
    if math.type(axis) ~= "integer" then
      fail(("%s: axis must be an integer or false (flattened), got %s"):format(fname, tostring(axis)))
    end
    if nd == 0 then fail(fname .. ": a 0-d array has no axis to sort along (use axis = false)") end
    if axis >= 1 and axis <= nd then return axis end
    if axis <= -1 and axis >= -nd then return nd + 1 + axis end
    fail(("%s: axis %d is out of range for an array of %d dimensions"):format(fname, axis, nd))
  end

  -- x with axis d moved last (a view; the engine copies it to C order), or
  -- x flattened when d is false. Returns the array and the row length.
  local function rows(x, d)
    if d == false then
      x = x:reshape(x.size)
      return x, x.size
    end
    local nd = x.ndim
    if d ~= nd then x = ga.swapaxes(x, d, nd) end
    return x, x.shape[nd]
  end
  local function unrows(y, x, d)
    if d == false or d == x.ndim then return y end
    return ga.ascontiguousarray(ga.swapaxes(y, d, x.ndim))
  end

  -- The keys of one sort, least significant first: complex128 is two
  -- float64 keys (imaginary, then real)
  local function keys_of(x)
    if x.dtype == "complex128" then return { ga.imag(x), ga.real(x) } end
    return { x }
  end

  --- Stable sort of the rows of the keys (same shape, least significant
  -- first): the engine's final mode ("argsort": int64 1-based in-row
  -- indices, "perm": uint32 0-based flat positions)
  function S.chain(keys, rowlen, mode)
    local p
    for i, k in ipairs(keys) do
      local last = i == #keys
      p = core.sort.sort(k, last and rowlen or k.size, last and mode or "perm", p)
    end
    return p
  end

  -- flat positions (uint32, 0-based) to an int64 1-based index array
  local function positions(p)
    return p:astype("int64") + 1
  end

  -- Complex values sort through their order (then a gather), because the
  -- radix keys of the values themselves would order -0.0 before 0.0 in the
  -- real part, and so decide on it where NumPy looks at the imaginary part
  local function sorted(x, d)
    local r, rowlen = rows(x, d)
    if not r.dtype:match("^complex") then return unrows(core.sort.sort(r, rowlen, "sort"), x, d) end
    r = ga.ascontiguousarray(r)
    local p = S.chain(keys_of(r), rowlen, "perm")
    return unrows(r:reshape(r.size):take(positions(p)):reshape(r.shape), x, d)
  end
  S.sorted = sorted

  -- axis = true is no NumPy value: only false (flattened) or an integer
  local function axis_arg(axis, fname)
    if axis == true then fail(fname .. ": axis must be an integer or false (the flattened array), got true") end
    return axis
  end

  local KINDS = [["quicksort"|"mergesort"|"heapsort"|"stable"]]

  def(ga, ([[
sort(a: array_like, axis: axis|boolean = -1, kind: %s?, *, stable: boolean?) -> ndarray
A sorted copy of a along axis (1-based, negative from the end; false: the
flattened array). NaNs sort last, complex values by real then imaginary
part. Every kind is the same stable radix sort.
]]):format(KINDS), function(x, axis)
    axis = axis_arg(axis, "sort")
    x = as_array(x, "sort")
    return sorted(x, S.axis(axis, x.ndim, "sort", -1))
  end)

  def(methods, ([[
ndarray:sort(axis: axis = -1, kind: %s?, *, stable: boolean?) -> ndarray
Sorts the array in place along axis (1-based, negative from the end) and
returns it. ga.sort(x, false) sorts the flattened copy.
]]):format(KINDS), function(x, axis)
    local d = S.axis(axis, x.ndim, "sort", -1)
    local r = sorted(x, d)
    local key = {}
    for i = 1, x.ndim do key[i] = {} end
    x[key] = r
    return x
  end)

  local function argsort(x, axis)
    axis = axis_arg(axis, "argsort")
    x = as_array(x, "argsort")
    local d = S.axis(axis, x.ndim, "argsort", -1)
    local r, rowlen = rows(x, d)
    if r.dtype == "complex128" then r = ga.ascontiguousarray(r) end
    return unrows(S.chain(keys_of(r), rowlen, "argsort"), x, d)
  end
  def(ga, ([[
argsort(a: array_like, axis: axis|boolean = -1, kind: %s?, *, stable: boolean?) -> ndarray
The int64 1-based positions along axis that sort a (stable: equal values
keep their order); axis false: flat positions of the flattened array.
]]):format(KINDS), argsort)
  methods.argsort = ga.argsort
  api.alias("ndarray:argsort", ga.argsort)

  def(ga, [[
msort(a: array_like) -> ndarray
A copy of a sorted along its first axis (NumPy's deprecated msort: sort(a, 1)).
]], function(x)
    x = as_array(x, "msort")
    return sorted(x, S.axis(1, x.ndim, "msort", 1))
  end)

  -- NumPy's sort_complex: bytes and shorts become complex64, everything
  -- else that is not complex complex128
  local TO_COMPLEX64 = { int8 = true, uint8 = true, int16 = true, uint16 = true }
  def(ga, [[
sort_complex(a: array_like) -> ndarray
a sorted along its last axis, as a complex array: real part first, then
imaginary; int8/16 and uint8/16 give complex64, other real dtypes complex128.
]], function(x)
    x = as_array(x, "sort_complex")
    local s = sorted(x, S.axis(-1, x.ndim, "sort_complex", -1))
    if s.dtype:match("^complex") then return s end
    return s:astype(TO_COMPLEX64[s.dtype] and "complex64" or "complex128")
  end)

  def(ga, [[
lexsort(keys: list|ndarray, axis: axis = -1) -> ndarray
The int64 1-based positions that sort by the last key first, then the one
before it, ... (NumPy's order); keys is a list of arrays of one shape, or an
array whose first axis lists them.
]], function(keys, axis)
    local list = {}
    if is_array(keys) then
      if keys.ndim < 1 then fail("lexsort: keys must have at least one dimension") end
      if keys.size == 0 and keys.shape[1] > 0 then
        -- zero-size keys (of any count along the first axis): the empty order, at once
        local shape = table.move(keys.shape, 2, keys.ndim, 1, {})
        if #shape == 0 then fail("lexsort: keys must have at least one dimension") end
        S.axis(axis, #shape, "lexsort", -1)
        return ga.empty(shape, "int64")
      end
      for i = 1, keys.shape[1] do list[i] = keys[i] end
    else
      for i, k in ipairs(keys) do list[i] = as_array(k, "lexsort") end
    end
    if #list == 0 then fail("lexsort: need at least one key") end
    local shape = list[1].shape
    for i = 2, #list do
      if internal.shape_str(list[i].shape) ~= internal.shape_str(shape) then
        fail(("lexsort: all keys must have one shape, got %s and %s"):format(internal.shape_str(shape),
          internal.shape_str(list[i].shape)))
      end
    end
    if #shape == 0 then fail("lexsort: keys must have at least one dimension") end
    local d = S.axis(axis, #shape, "lexsort", -1)
    local ks, rowlen = {}, nil
    for _, k in ipairs(list) do
      local r
      r, rowlen = rows(k, d)
      r = ga.ascontiguousarray(r)
      for _, part in ipairs(keys_of(r)) do ks[#ks + 1] = part end
    end
    return unrows(S.chain(ks, rowlen, "argsort"), list[1], d)
  end)

  local function check_kth(kth, x, d, fname)
    local len = d == false and x.size or x.shape[d]
    local list = type(kth) == "table" and kth or { kth }
    for _, k in ipairs(list) do
      if math.type(k) ~= "integer" or k == 0 or k > len or k < -len then
        fail(("%s: kth %s is out of range for an axis of length %d"):format(fname, tostring(k), len))
      end
    end
  end

  def(ga, [[
partition(a: array_like, kth: integer|list, axis: axis|boolean = -1, kind: "introselect" = "introselect") -> ndarray
A copy in which the kth element (1-based, negative from the end, or a list
of them) is the one a sort would put there, smaller ones before it and
larger ones after. This returns the sorted array, which has the property for
every kth.
]], function(x, kth, axis)
    axis = axis_arg(axis, "partition")
    x = as_array(x, "partition")
    local d = S.axis(axis, x.ndim, "partition", -1)
    check_kth(kth, x, d, "partition")
    return sorted(x, d)
  end)

  def(methods, [[
ndarray:partition(kth: integer|list, axis: axis = -1, kind: "introselect" = "introselect") -> ndarray
Partitions the array in place along axis around the kth element (1-based),
as ga.partition; returns it.
]], function(x, kth, axis)
    local d = S.axis(axis, x.ndim, "partition", -1)
    check_kth(kth, x, d, "partition")
    local r = sorted(x, d)
    local key = {}
    for i = 1, x.ndim do key[i] = {} end
    x[key] = r
    return x
  end)

  def(ga, [[
argpartition(a: array_like, kth: integer|list, axis: axis|boolean = -1, kind: "introselect" = "introselect") -> ndarray
The int64 1-based positions that partition a around kth (1-based): this is
the stable argsort, which partitions for every kth.
]], function(x, kth, axis)
    axis = axis_arg(axis, "argpartition")
    x = as_array(x, "argpartition")
    local d = S.axis(axis, x.ndim, "argpartition", -1)
    check_kth(kth, x, d, "argpartition")
    return argsort(x, d)
  end)
  methods.argpartition = ga.argpartition
  api.alias("ndarray:argpartition", ga.argpartition)

  local function searchsorted(a, v, side, sorter)
    a = as_array(a, "searchsorted")
    if a.ndim ~= 1 then fail(("searchsorted: a must be 1-D, got shape %s"):format(internal.shape_str(a.shape))) end
    if sorter ~= nil then
      sorter = as_array(sorter, "searchsorted")
      if sorter.ndim ~= 1 or sorter.size ~= a.size then
        fail(("searchsorted: sorter must be 1-D of a's length %d, got shape %s"):format(a.size,
          internal.shape_str(sorter.shape)))
      end
      a = a:take(sorter)
    end
    local t = ga.result_type(a, v)
    if not is_array(v) then v = ga.array(v, t) end
    if a.dtype ~= t then a = a:astype(t) end
    if v.dtype ~= t then v = v:astype(t) end
    return core.sort.searchsorted(a, v, side == "right")
  end
  def(ga, [[
searchsorted(a: array_like, v: array_like, side: "left"|"right" = "left", sorter: array_like?) -> ndarray
For each value of v, the 1-based position in sorted 1-D a before which it
would be inserted to keep a sorted: "left" puts it before equal values,
"right" after them (1: before the first element, #a + 1: after the last).
sorter: the 1-based positions that sort a (ga.argsort(a)); the result then
counts in the sorted order. int64, v's shape; a Lua number gives a 0-d array.
]], searchsorted)
  def(methods, [[
ndarray:searchsorted(v: array_like, side: "left"|"right" = "left", sorter: array_like?) -> ndarray
ga.searchsorted(self, v, side, sorter): 1-based insertion positions.
]], searchsorted)

  -- nanargmax/nanargmin: NaN is replaced by the value that never wins,
  -- then argmax/argmin; a slice of NaNs only raises, as NumPy (one sync)
  local function nanarg(which, fill)
    return function(x, axis, out, keepdims)
      local fname = "nan" .. which
      x = as_array(x, fname)
      local kind = ga.dtype(x.dtype).kind
      local opts = { axis = axis, out = out, keepdims = keepdims }
      if kind ~= "f" and kind ~= "c" then return ga[which](x, opts) end
      if x.size == 0 then return ga[which](x, opts) end   -- argmax's own error
      local nan = ga.isnan(x)
      -- no axis: over every element ({ axis = nil } would be `{}`, an
      -- empty axis list: all() over no axis)
      local allnan = axis == nil and ga.all(nan) or ga.all(nan, axis)
      if ga.any(allnan):item() then fail(fname .. ": All-NaN slice encountered") end
      local filled = ga.where(nan, kind == "c" and { fill, 0 } or fill, x)
      return ga[which](filled, opts)
    end
  end
  def(ga, [[
nanargmax(a: array_like, axis: axis?, out: ndarray?, *, keepdims: boolean = false) -> ndarray
The 1-based position of the largest value ignoring NaNs (flat without axis),
int64; a slice of NaNs only raises.
]], nanarg("argmax", -math.huge))
  def(ga, [[
nanargmin(a: array_like, axis: axis?, out: ndarray?, *, keepdims: boolean = false) -> ndarray
The 1-based position of the smallest value ignoring NaNs (flat without
axis), int64; a slice of NaNs only raises.
]], nanarg("argmin", math.huge))

  def(ga, [[
flatnonzero(a: array_like) -> ndarray
The 1-based flat (C-order) positions of the nonzero elements of a, int64.
]], function(x)
    x = as_array(x, "flatnonzero")
    return (ga.nonzero(x:reshape(x.size)))
  end)

  def(ga, [[
extract(condition: array_like, arr: array_like) -> ndarray
The elements of arr (flattened, C order) where condition (flattened) is
nonzero, 1-D. condition may be shorter than arr; where longer, its extra
elements must be zero.
]], function(c, a)
    c, a = as_array(c, "extract"), as_array(a, "extract")
    local cf, af = c:reshape(c.size), a:reshape(a.size)
    if cf.dtype ~= "bool" then cf = ga.not_equal(cf, 0) end
    if cf.size > af.size then
      if cf[{ { af.size + 1, cf.size } }]:any():item() then
        fail(("extract: condition has a nonzero element past arr's %d elements"):format(af.size))
      end
      cf = cf[{ { 1, af.size } }]
    elseif cf.size < af.size then
      af = af[{ { 1, cf.size } }]
    end
    if af.size == 0 then return ga.empty(0, a.dtype) end
    return af[cf]
  end)

  require("gpuarray.sort.count")(ga)
end
