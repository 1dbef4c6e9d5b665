--- Picking and placing by condition or choice (API.md §14): choose,
-- compress, select, place, putmask, fill_diagonal (extract is with the
-- sorting/searching routines). Compositions
-- of take_along_axis, nonzero, take/put and where.
--
-- choose's indices are 1-based choice numbers (1 picks the first choice).
local MAX_CHOICES = 64     -- NumPy 2's limit (NPY_MAXARGS)

return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array, shape_str = internal.fail, internal.is_array, internal.shape_str
  local def = api.def
  local methods = ga.methods

  local function array(a, fname, dtype) return args.array(ga, a, fname, dtype) end

  -- a bool array from a condition (any dtype: nonzero is true)
  local function as_bool(c, fname)
    local x = array(c, fname)
    if x.dtype ~= "bool" then x = ga.not_equal(x, 0) end
    return x
  end

  def(ga, [[
choose(a: array_like, choices: list|ndarray, out: ndarray?, mode: "raise"|"wrap"|"clip" = "raise") -> ndarray
Each element of the result comes from the choice that a names there: a holds 1-based choice
numbers, broadcast with every choice (a list of array-likes, or an array
whose first axis lists them). mode "raise" (checked: synchronizes), "wrap"
(modulo the count: 0 is the last) or "clip" (clamped into 1..n). At most
64 choices, as NumPy.
]], function(a, choices, out, mode)
    local idx = array(a, "choose")
    if not args.INDEX_DTYPES[idx.dtype] and idx.dtype ~= "bool" then
      fail("choose: a must hold integer choice numbers, got " .. idx.dtype)
    end
    local list = {}
    if is_array(choices) then
      if choices.ndim == 0 then fail("choose: choices must have at least one axis") end
      if choices.shape[1] > MAX_CHOICES then
        fail(("choose: %d choices are more than %d"):format(choices.shape[1], MAX_CHOICES))
      end
      for k = 1, choices.shape[1] do list[k] = choices[{ k, ga.ellipsis }] end
    else
      for k, c in ipairs(args.plain(choices, "choose", "choices")) do list[k] = array(c, "choose") end
    end
    local n = #list
    if n == 0 then fail("choose: choices is empty") end
    if n > MAX_CHOICES then fail(("choose: %d choices are more than %d"):format(n, MAX_CHOICES)) end
    if mode == "raise" and idx.size > 0 then
      if ga.min(idx):item() < 1 or ga.max(idx):item() > n then
        fail(("choose: a choice number is outside 1..%d"):format(n))
      end
    elseif mode == "clip" then
      idx = ga.clip(idx, 1, n)
    end
    local shapes, types = { idx.shape }, {}
    for k, c in ipairs(list) do
      shapes[k + 1] = c.shape
      types[k] = c.dtype
    end
    local ok, shape = pcall(ga.broadcast_shapes, table.unpack(shapes))
    if not ok then fail("choose: a and the choices cannot be broadcast together") end
    local dtype = ga.result_type(table.unpack(types))
    -- the choices stacked along a new first axis, picked along it
    local full = { n, table.unpack(shape) }
    local stacked = ga.empty(full, dtype)
    for k, c in ipairs(list) do stacked[k] = c end
    local pick = ga.broadcast_to(idx, shape):reshape({ 1, table.unpack(shape) })
    local r = ga.take_along_axis(stacked, pick, 1):reshape(shape)
    if out then
      internal.check_out(out, shape, "choose"):set(r)
      return out
    end
    return r
  end)
  methods.choose = ga.choose
  api.alias("ndarray:choose", ga.choose)

  def(ga, [[
compress(condition: array_like, a: array_like, axis: integer?, out: ndarray?) -> ndarray
The slices of a along axis (a flattened when nil) where the 1-D condition
is true; a condition shorter than the axis counts as false past its end.
Synchronizes.
]], function(condition, a, axis, out)
    local x = array(a, "compress")
    local ax = 1
    if axis == nil then x = x:ravel() else ax = args.axis(axis, x.ndim, "compress") end
    local c = as_bool(condition, "compress")
    if c.ndim ~= 1 then fail("compress: condition must be 1-D") end
    local n = x.shape[ax]
    if c.shape[1] > n then
      local tail = c[{ { n + 1, c.shape[1] } }]
      if ga.any(tail):item() then
        fail(("compress: condition has a true entry past the %d elements of axis %d"):format(n, ax))
      end
      c = c[{ { 1, n } }]
    end
    local pos = (ga.nonzero(c))
    local r = ga.take(x, pos, ax)
    if out then
      internal.check_out(out, r.shape, "compress"):set(r)
      return out
    end
    return r
  end)
  def(methods, [[
ndarray:compress(condition: array_like, axis: integer?, out: ndarray?) -> ndarray
ga.compress(condition, self, axis, out).
]], function(self, condition, axis, out) return ga.compress(condition, self, axis, out) end)

  def(ga, [[
select(condlist: list, choicelist: list, default: array_like = 0) -> ndarray
Elements from the choice of the first condition that holds (conditions
are bool array-likes), default where none does; everything broadcasts.
The dtype is that of the choices and default together (Lua numbers are
weak scalars).
]], function(condlist, choicelist, default)
    local conds = args.plain(condlist, "select", "condlist")
    local choices = args.plain(choicelist, "select", "choicelist")
    if #conds ~= #choices then
      fail(("select: %d conditions and %d choices"):format(#conds, #choices))
    end
    if #conds == 0 then fail("select: the condition list is empty") end
    local types, shapes = {}, {}
    for i, c in ipairs(choices) do
      if type(c) ~= "number" then choices[i] = array(c, "select") end
      types[i] = choices[i]
      shapes[#shapes + 1] = args.shape_of(choices[i], "select")
    end
    if type(default) ~= "number" then default = array(default, "select") end
    types[#types + 1] = default
    shapes[#shapes + 1] = args.shape_of(default, "select")
    for i, c in ipairs(conds) do
      conds[i] = array(c, "select")
      if conds[i].dtype ~= "bool" then
        fail(("select: condition %d must be a bool array, got %s"):format(i, conds[i].dtype))
      end
      shapes[#shapes + 1] = conds[i].shape
    end
    local dtype = ga.result_type(table.unpack(types))
    local ok, shape = pcall(ga.broadcast_shapes, table.unpack(shapes))
    if not ok then fail("select: the conditions and choices cannot be broadcast together") end
    local result = ga.full(shape, default, dtype)
    for i = #conds, 1, -1 do
      result = ga.where(conds[i], choices[i], result, { dtype = dtype })
    end
    return result
  end)

  def(ga, [[
place(arr: ndarray, mask: array_like, vals: array_like)
arr's elements where mask (of arr's size) is true, in C order, set to the
first values of vals, repeated as often as needed. Synchronizes.
]], function(arr, mask, vals)
    local m = as_bool(mask, "place")
    if m.size ~= arr.size then
      fail(("place: mask has %d elements, arr %d"):format(m.size, arr.size))
    end
    local pos = (ga.nonzero(m:ravel()))
    if pos.size == 0 then return end
    local v = array(vals, "place", arr.dtype):ravel()
    if v.size == 0 then fail("place: vals is empty but the mask selects elements") end
    ga.put(arr, pos, v)
  end)

  def(ga, [[
putmask(a: ndarray, mask: array_like, values: array_like)
a.flat[n] = values.flat[n] wherever mask.flat[n] is true (mask of a's
shape; values repeated cyclically when smaller than a), in place, cast to
a's dtype.
]], function(a, mask, values)
    local m = as_bool(mask, "putmask")
    if not args.same_shape(m.shape, a.shape) then
      fail(("putmask: mask has shape %s, a has %s"):format(shape_str(m.shape), shape_str(a.shape)))
    end
    if a.size == 0 then return end
    local v = array(values, "putmask", a.dtype)
    if v.size == 0 then fail("putmask: values is empty") end
    if v.size ~= a.size then v = ga.resize(v, a.shape) else v = v:reshape(a.shape) end
    a:set(ga.where(m, v, a))
  end)

  def(ga, [[
fill_diagonal(a: ndarray, val: array_like, wrap: boolean = false)
Set the main diagonal of a (at least 2-D, all axes of one length unless
2-D) to val (repeated cyclically), in place. wrap: in a tall 2-D matrix
the diagonal starts again below the square part, as NumPy's.
]], function(a, val, wrap)
    if a.ndim < 2 then fail("fill_diagonal: the array must have at least 2 dimensions") end
    local s = a.shape
    local step, last
    if a.ndim == 2 then
      step = s[2] + 1
      last = wrap and a.size or math.min(a.size, s[2] * s[2])
    else
      for d = 2, #s do
        if s[d] ~= s[1] then fail("fill_diagonal: all dimensions of the array must be of equal length") end
      end
      step, last = 1, a.size
      local p = 1
      for d = 1, #s - 1 do
        p = p * s[d]
        step = step + p
      end
    end
    if last == 0 then return end
    local pos = ga.arange(1, last + 1, step, "int64")
    if pos.size == 0 then return end
    ga.put(a, pos, array(val, "fill_diagonal", a.dtype))
  end)
end
