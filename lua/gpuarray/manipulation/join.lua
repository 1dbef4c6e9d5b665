--- Joining arrays (API.md §3, §14): concatenate (concat), stack, hstack,
-- vstack, dstack, column_stack. Everything is views plus the copy engine
-- (`view:set(src)`: any layout, broadcasting, casts), so no kernels of
-- its own. Axes are 1-based, negative from the end; lists of arrays are
-- Lua lists; the result has ga.result_type of the inputs (dtype=
-- overrides it, out= receives it), cast under the casting rule.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, shape_str = internal.fail, internal.shape_str
  local def = api.def

  -- the list of arrays a joining routine takes: a non-empty Lua list
  local function array_list(list, fname)
    if rawlen(list) == 0 then fail(fname .. ": expected a non-empty list of arrays") end
    local arrays = {}
    for i, a in ipairs(args.plain(list, fname, "the list of arrays")) do arrays[i] = args.array(ga, a, fname) end
    return arrays
  end
  internal.array_list = array_list

  local function result_dtype(arrays, dtype, out)
    if dtype then return args.dtype(ga, dtype) end
    if out then return out.dtype end
    -- all at once: NumPy's promotion of many dtypes does not depend on their
    -- order, a pairwise fold does ((int16, uint16, float32) is float32)
    local dts = {}
    for i, a in ipairs(arrays) do dts[i] = a.dtype end
    return ga.result_type(table.unpack(dts))
  end

  local function check_casting(arrays, to, casting, fname)
    for i, a in ipairs(arrays) do
      if not args.can_cast(ga, a.dtype, to, casting) then
        fail(("%s: array %d of %s cannot be cast to %s under the rule '%s'"):format(fname, i, a.dtype, to, casting))
      end
    end
  end

  -- arrays already agree outside axis ax
  local function join(arrays, ax, out, dtype, casting, fname)
    local shape = arrays[1].shape
    local nd = #shape
    local total = 0
    for _, a in ipairs(arrays) do total = total + a.shape[ax] end
    shape[ax] = total
    local dt = result_dtype(arrays, dtype, out)
    if dtype and out and out.dtype ~= dt then
      fail(("%s: dtype %s and out's dtype %s differ: give one"):format(fname, dt, out.dtype))
    end
    check_casting(arrays, dt, casting, fname)
    if out then internal.check_out(out, shape, fname) else out = ga.empty(shape, dt) end
    local pos = 1
    for _, a in ipairs(arrays) do
      local len = a.shape[ax]
      if len > 0 then out[args.range_key(nd, ax, pos, pos + len - 1)]:set(a) end
      pos = pos + len
    end
    return out
  end

  local function concatenate(list, axis, out, dtype, casting)
    local arrays = array_list(list, "concatenate")
    if axis == false then
      for i, a in ipairs(arrays) do arrays[i] = a:ravel() end
      axis = 1
    end
    local first = arrays[1].shape
    local nd = #first
    if nd == 0 then fail("concatenate: 0-d arrays cannot be concatenated") end
    local ax = args.axis(axis, nd, "concatenate")
    for i = 2, #arrays do
      local s = arrays[i].shape
      local ok = #s == nd
      for d = 1, nd do ok = ok and (d == ax or s[d] == first[d]) end
      if not ok then
        fail(("concatenate: array %d has shape %s, array 1 has %s: they must agree except along axis %d")
          :format(i, shape_str(s), shape_str(first), ax))
      end
    end
    return join(arrays, ax, out, dtype, casting, "concatenate")
  end

  def(ga, [[
concatenate(arrays: list, axis: integer|false = 1, out: ndarray?, *, dtype: dtype?,
            casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "same_kind") -> ndarray
The arrays joined along an existing axis (1-based; false: each flattened
first). They agree in shape except along it.
]], concatenate)
  ga.concat = ga.concatenate
  api.alias("concat", ga.concatenate)

  def(ga, [[
stack(arrays: list, axis: integer = 1, out: ndarray?, *, dtype: dtype?,
      casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "same_kind") -> ndarray
The arrays (all of one shape) joined along a new axis, at position axis of
the result (1-based, negative from its end).
]], function(list, axis, out, dtype, casting)
    local arrays = array_list(list, "stack")
    local first = arrays[1].shape
    for i = 2, #arrays do
      if not args.same_shape(arrays[i].shape, first) then
        fail(("stack: all arrays must have the same shape; array 1 has %s, array %d has %s")
          :format(shape_str(first), i, shape_str(arrays[i].shape)))
      end
    end
    local ax = args.axis(axis, #first + 1, "stack")
    local expanded = {}
    for i, a in ipairs(arrays) do expanded[i] = ga.expand_dims(a, ax) end
    return join(expanded, ax, out, dtype, casting, "stack")
  end)

  local function each(list, fn, fname)
    local arrays = array_list(list, fname)
    for i, a in ipairs(arrays) do arrays[i] = fn(a) end
    return arrays
  end

  def(ga, [[
hstack(tup: list, *, dtype: dtype?, casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "same_kind") -> ndarray
The arrays joined along axis 2 (axis 1 for 1-D arrays); scalars become 1-D.
]], function(list, dtype, casting)
    local arrays = each(list, function(a) return internal.atleast(1, a) end, "hstack")
    return concatenate(arrays, arrays[1].ndim == 1 and 1 or 2, nil, dtype, casting)
  end)

  def(ga, [[
vstack(tup: list, *, dtype: dtype?, casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "same_kind") -> ndarray
The arrays joined along axis 1, 1-D arrays as rows {1, n}.
]], function(list, dtype, casting)
    return concatenate(each(list, function(a) return internal.atleast(2, a) end, "vstack"), 1, nil, dtype, casting)
  end)

  def(ga, [[
dstack(tup: list) -> ndarray
The arrays joined along axis 3 (ga.atleast_3d of each first).
]], function(list)
    return concatenate(each(list, function(a) return internal.atleast(3, a) end, "dstack"), 3, nil, nil, "same_kind")
  end)

  def(ga, [[
column_stack(tup: list) -> ndarray
1-D arrays as the columns of a 2-D array (2-D arrays join as they are),
joined along axis 2.
]], function(list)
    local arrays = each(list, function(a)
      if a.ndim < 2 then return internal.atleast(2, a):transpose() end
      return a
    end, "column_stack")
    return concatenate(arrays, 2, nil, nil, "same_kind")
  end)
end
