--- Adding and removing elements (API.md §14): delete, insert, append,
-- resize, trim_zeros. Each makes a new array.
--
-- Positions are 1-based, negative from the end (-1 is the last element).
-- delete removes the elements at the given positions; insert puts values
-- BEFORE the given positions, from 1 (in front) to n + 1 (at the end):
-- ga.insert(x, 2, v) is NumPy's np.insert(x, 1, v).
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  -- (x, axis) with x flattened when axis is nil; returns x, 1-based axis
  local function along(a, axis, fname)
    local x = args.array(ga, a, fname)
    if axis == nil then return x:ravel(), 1 end
    if x.ndim == 0 then fail(fname .. ": a 0-d array has no axis") end
    return x, args.axis(axis, x.ndim, fname)
  end

  local function key_range(nd, ax, a, b) return args.range_key(nd, ax, a, b) end

  -- a position list from an integer, a list or an integer ndarray, as Lua
  -- integers (an ndarray is read back); bool masks are returned as arrays
  local function positions(obj, fname)
    if math.type(obj) == "integer" then return { obj }, true end
    if is_array(obj) then
      if obj.dtype == "bool" then return obj end
      if not args.INDEX_DTYPES[obj.dtype] then fail(fname .. ": positions must be integers, got " .. obj.dtype) end
      if obj.ndim > 1 then fail(fname .. ": positions must be one integer or a 1-D list") end
      return obj.ndim == 0 and { obj:item() } or obj:totable(), obj.ndim == 0
    end
    if type(obj) ~= "table" then fail(fname .. ": positions must be an integer, a list or an integer ndarray") end
    local list = args.plain(obj, fname, "the positions")
    local bools = #list > 0
    for _, v in ipairs(list) do bools = bools and type(v) == "boolean" end
    if bools then return ga.array(list, "bool") end
    for i, v in ipairs(list) do
      if math.type(v) ~= "integer" then
        fail(("%s: position %d must be an integer, got %s"):format(fname, i, tostring(v)))
      end
    end
    return list, false
  end

  -- a 1-based position (negative from the end) on an axis of length n, 0-based
  local function zero_based(p, n, fname, what)
    if p >= 1 and p <= n then return p - 1 end
    if p <= -1 and p >= -n then return n + p end
    fail(("%s: %s %d is out of range for an axis of length %d"):format(fname, what, p, n))
  end

  def(ga, [[
delete(arr: array_like, obj: integer|list|ndarray, axis: integer?) -> ndarray
A copy of arr without the elements (or the sub-arrays along axis) at the
1-based positions obj (negative from the end; repeats allowed), or where
the bool mask obj is true. Without axis arr is flattened first.
]], function(arr, obj, axis)
    local x, ax = along(arr, axis, "delete")
    local n, nd = x.shape[ax], x.ndim
    local pos, one = positions(obj, "delete")
    local keep
    if is_array(pos) then      -- a bool mask along the axis
      if pos.ndim ~= 1 or pos.shape[1] ~= n then
        fail(("delete: a mask must be 1-D of length %d, got shape %s"):format(n, internal.shape_str(pos.shape)))
      end
      keep = ga.logical_not(pos)
    else
      if one then
        local p = zero_based(pos[1], n, "delete", "position")
        local parts = {}
        if p > 0 then parts[#parts + 1] = x[key_range(nd, ax, 1, p)] end
        if p + 1 < n then parts[#parts + 1] = x[key_range(nd, ax, p + 2, n)] end
        if #parts == 0 then
          local s = x.shape
          s[ax] = 0
          return ga.empty(s, x.dtype)
        end
        return ga.concatenate(parts, ax)
      end
      local idx = {}
      for i, p in ipairs(pos) do idx[i] = zero_based(p, n, "delete", "position") + 1 end
      if #idx == 0 then return x:copy() end
      keep = ga.ones(n, "bool")
      keep[ga.array(idx, "int64")] = false
    end
    local sel = ga.nonzero(keep)
    return ga.take(x, sel, ax)
  end)

  def(ga, [[
append(arr: array_like, values: array_like, axis: integer?) -> ndarray
arr and values joined along axis (ga.concatenate; they agree in shape
except along it), or both flattened and joined when axis is nil.
]], function(arr, values, axis)
    local x, v = args.array(ga, arr, "append"), args.array(ga, values, "append")
    if axis == nil then return ga.concatenate({ x:ravel(), v:ravel() }, 1) end
    return ga.concatenate({ x, v }, axis)
  end)

  def(ga, [[
insert(arr: array_like, obj: integer|list|ndarray, values: array_like, axis: integer?) -> ndarray
A copy of arr with values inserted before the 1-based positions obj along
axis (1 puts them in front, n + 1 at the end; negative from the end), cast
to arr's dtype. One integer position inserts values as a block (broadcast
to it); a list inserts one value per position. Without axis arr is
flattened first.
]], function(arr, obj, values, axis)
    local x, ax = along(arr, axis, "insert")
    local n, nd = x.shape[ax], x.ndim
    local pos, scalar = positions(obj, "insert")
    if is_array(pos) then fail("insert: positions must be integers, not a bool mask") end
    local function before(p)
      if p >= 1 and p <= n + 1 then return p - 1 end
      if p <= -1 and p >= -n then return n + p end
      fail(("insert: position %d is out of range for an axis of length %d (1 .. %d)"):format(p, n, n + 1))
    end
    local idx = {}
    for i, p in ipairs(pos) do idx[i] = before(p) end
    local v = args.array(ga, values, "insert")
    if v.dtype ~= x.dtype then v = v:astype(x.dtype) end
    if #pos == 1 then
      local index = idx[1]
      while v.ndim < nd do v = v:reshape(1, table.unpack(v.shape)) end
      if scalar then v = ga.moveaxis(v, 1, ax) end
      local numnew = v.shape[ax]
      local s = x.shape
      s[ax] = n + numnew
      local new = ga.empty(s, x.dtype)
      if index > 0 then new[key_range(nd, ax, 1, index)] = x[key_range(nd, ax, 1, index)] end
      if numnew > 0 then new[key_range(nd, ax, index + 1, index + numnew)] = v end
      if index < n then new[key_range(nd, ax, index + numnew + 1, n + numnew)] = x[key_range(nd, ax, index + 1, n)] end
      return new
    end
    local numnew = #pos
    if numnew == 0 then return x:copy() end
    -- where each value lands: its position plus the count of values
    -- inserted before it (a stable order of the positions)
    local order = {}
    for i = 1, numnew do order[i] = i end
    table.sort(order, function(a, b) if idx[a] ~= idx[b] then return idx[a] < idx[b] end return a < b end)
    local landing, source = {}, {}
    for t, i in ipairs(order) do
      landing[t] = idx[i] + t        -- 1-based position in the result
      source[t] = n + i              -- 1-based position in cat (arr, then the values)
    end
    local s = x.shape
    s[ax] = numnew
    local cat = ga.concatenate({ x, ga.broadcast_to(v, s) }, ax)
    local total = n + numnew
    -- every other position of the result takes arr's elements in order:
    -- result j (0-based) holds arr's (j - (values landing at or before j)) + 1
    local j = ga.arange(0, total, "int64")
    local land = ga.array(landing, "int64")
    local src = ga.add(ga.subtract(j, ga.searchsorted(ga.subtract(land, 1), j, "right")), 2)
    src[land] = ga.array(source, "int64")
    return ga.take(cat, src, ax)
  end)

  def(ga, [[
resize(a: array_like, new_shape: shape) -> ndarray
A new array of new_shape holding a's elements (flattened, C order)
repeated cyclically as often as needed; zeros when a is empty.
]], function(a, new_shape)
    local x = args.array(ga, a, "resize"):ravel()
    local s = type(new_shape) == "table" and new_shape or { new_shape }
    for _, d in ipairs(s) do
      if d < 0 then fail("resize: every length of new_shape must be non-negative") end
    end
    local size = args.prod(s)
    if size == 0 or x.size == 0 then return ga.zeros(s, x.dtype) end
    local reps = -(-size // x.size)
    return ga.tile(x, reps)[{ { 1, size } }]:reshape(s)
  end)

  def(ga, [[
trim_zeros(filt: array_like, trim: "fb"|"bf"|"f"|"b" = "fb", axis: integer?) -> ndarray
A view of filt without its leading ("f") and/or trailing ("b") zeros, along
every axis or only along axis (for N-D filt: the zero hyperplanes at the
ends). An array of zeros gives an empty one. Synchronizes.
]], function(filt, trim, axis)
    local x = args.array(ga, filt, "trim_zeros")
    local nd = x.ndim
    if nd == 0 then fail("trim_zeros: filt must have at least 1 dimension") end
    local ax = axis and args.axis(axis, nd, "trim_zeros")
    local nz = ga.argwhere(x)
    local start, stop = {}, {}
    if nz.shape[1] == 0 then
      for d = 1, nd do start[d], stop[d] = 1, 0 end
    else
      local lo, hi = ga.min(nz, 1):totable(), ga.max(nz, 1):totable()
      local front, back = trim:find("f", 1, true), trim:find("b", 1, true)
      for d = 1, nd do
        start[d] = front and lo[d] or 1
        stop[d] = back and hi[d] or x.shape[d]
      end
    end
    local key = {}
    for d = 1, nd do key[d] = (ax == nil or d == ax) and { start[d], stop[d] } or {} end
    return x[key]
  end)
end
