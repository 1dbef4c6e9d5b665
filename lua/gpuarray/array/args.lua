--- Argument normalisation shared by the array routines of the creation,
-- manipulation and select rooms: arrays from array-likes, 1-based axes,
-- plain lists read raw, dtype names. Everything here is pure Lua: no
-- device work unless an array must be made from a Lua value.
local internal = require "gpuarray.internal"
local fail, is_array = internal.fail, internal.is_array

local args = {}

--- A 1-based axis (negative from the end) checked against ndim; returns
-- the positive axis
function args.axis(axis, ndim, fname)
  if math.type(axis) ~= "integer" then
    fail(("%s: axis must be an integer, got %s"):format(fname, tostring(axis)))
  end
  if axis >= 1 and axis <= ndim then return axis end
  if axis <= -1 and axis >= -ndim then return ndim + 1 + axis end
  fail(("%s: axis %d is out of range for an array of %d dimensions"):format(fname, axis, ndim))
end

--- A user's list as a plain one, read raw (no __index or __len of theirs
-- can make it endless); a hole raises naming what
function args.plain(t, fname, what)
  local n = rawlen(t)
  local out = {}
  for i = 1, n do
    out[i] = rawget(t, i)
    if out[i] == nil and fname then fail(("%s: %s has a hole at entry %d"):format(fname, what, i)) end
  end
  return out
end

--- An integer or a list of integers as a list of distinct positive axes
-- (1-based, negative from the end) for an array of ndim dimensions
function args.axes(axis, ndim, fname)
  local list = type(axis) == "table" and args.plain(axis, fname, "axis") or { axis }
  local seen, out = {}, {}
  for i, a in ipairs(list) do
    local d = args.axis(a, ndim, fname)
    if seen[d] then fail(("%s: axis %d is repeated"):format(fname, a)) end
    seen[d] = true
    out[i] = d
  end
  return out
end

--- v as an ndarray: arrays pass through, Lua values and typed scalars are
-- uploaded (ga.asarray), anything else raises naming fname
function args.array(ga, v, fname, dtype)
  if is_array(v) then
    if dtype and v.dtype ~= dtype then return v:astype(dtype) end
    return v
  end
  local t = type(v)
  if t == "table" or t == "number" or t == "boolean" or t == "userdata" then
    return dtype and ga.asarray(v, dtype) or ga.asarray(v)
  end
  fail(("%s: expected an array (an ndarray, a number or a nested table), got %s"):format(fname, t))
end

--- A dtype argument (a name, a dtype object, a typed-scalar constructor)
-- as its name; nil stays nil
function args.dtype(ga, d)
  if d == nil then return nil end
  if type(d) == "string" then return ga.dtype(d).name end
  return ga.dtype(d).name
end

--- The shape of a nested Lua table (the shape ga.array would give it),
-- without making an array: {} is {0}; ragged tables raise. A complex
-- {re, im} pair is read as two numbers, as ga.array does without a dtype.
function args.table_shape(t, fname)
  local shape = {}
  local level = t
  while type(level) == "table" and not is_array(level) do
    local n = rawlen(level)
    shape[#shape + 1] = n
    if n == 0 then break end
    level = rawget(level, 1)
  end
  -- every entry must agree (a ragged table raises, as in ga.array)
  local function check(v, d)
    if d > #shape then
      if type(v) == "table" and not is_array(v) then fail(fname .. ": the nested table is ragged") end
      return
    end
    if type(v) ~= "table" or rawlen(v) ~= shape[d] then fail(fname .. ": the nested table is ragged") end
    for i = 1, shape[d] do check(rawget(v, i), d + 1) end
  end
  check(t, 1)
  return shape
end

--- The shape of any array-like without uploading it: an ndarray's shape,
-- a nested table's, {} for a scalar
function args.shape_of(v, fname)
  if is_array(v) then return v.shape end
  if type(v) == "table" then return args.table_shape(v, fname) end
  return {}
end

function args.same_shape(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] ~= b[i] then return false end
  end
  return true
end

function args.prod(shape)
  local n = 1
  for _, v in ipairs(shape) do n = n * v end
  return n
end

--- A non-negative integer count (sizes, repetitions), or raise
function args.count(n, fname, what)
  if math.type(n) ~= "integer" or n < 0 then
    fail(("%s: %s must be a non-negative integer, got %s"):format(fname, what, tostring(n)))
  end
  return n
end

--- A key selecting [a, b] (1-based, inclusive) along axis, all of the others
function args.range_key(ndim, axis, a, b, step)
  local key = {}
  for d = 1, ndim do key[d] = {} end
  key[axis] = { a, b, step }
  return key
end

--- A list reversed (a new one)
function args.reversed(t)
  local r = {}
  for i = #t, 1, -1 do r[#r + 1] = t[i] end
  return r
end

--- The layout order "K" and "A" stand for on x: F for an F-contiguous
-- array that is not C-contiguous, else C; "C" and "F" as they are
function args.layout(x, order)
  if order == "K" or order == "A" then
    local f = x.flags
    return (f.f_contiguous and not f.c_contiguous) and "F" or "C"
  end
  return order
end

--- The element strides of a shape in C order (or F order), and the size
function args.elem_strides(shape, order)
  local st, acc = {}, 1
  if order == "F" then
    for k = 1, #shape do st[k] = acc acc = acc * shape[k] end
  else
    for k = #shape, 1, -1 do st[k] = acc acc = acc * shape[k] end
  end
  return st, acc
end

--- Whether v names a dtype (a name, a dtype object or constructor, a
-- table with a name), as the creation routines take one by position
function args.is_dtype(v)
  local t = type(v)
  return t == "string" or (t == "userdata" and not internal.is_array(v))
    or (t == "table" and type(rawget(v, "name")) == "string")
end

--- The integer dtypes an index array may have
args.INDEX_DTYPES = {
  int8 = true, int16 = true, int32 = true, int64 = true,
  uint8 = true, uint16 = true, uint32 = true, uint64 = true,
}

--- NumPy's can_cast(from, to, casting) for dtype names (ga.can_cast when
-- the module has it): "no"/"equiv" the same dtype, "safe" no loss,
-- "same_kind" safe or within a kind or to a higher kind (b < u < i < f < c,
-- but never i to u), "unsafe" anything
local KIND_RANK = { b = 0, u = 1, i = 2, f = 3, c = 4 }
function args.can_cast(ga, from, to, casting)
  if ga.can_cast then return ga.can_cast(from, to, casting) end
  if casting == "unsafe" then return true end
  if casting == "no" or casting == "equiv" then return from == to end
  local safe = ga.result_type(from, to) == to
  if casting == "safe" or safe then return safe end
  local kf, kt = ga.dtype(from).kind, ga.dtype(to).kind
  if kf == kt then return true end
  return KIND_RANK[kf] < KIND_RANK[kt] and not (kf == "i" and kt == "u")
end

args.INTEGRAL = {
  bool = true, int8 = true, int16 = true, int32 = true, int64 = true,
  uint8 = true, uint16 = true, uint32 = true, uint64 = true,
}

return args
