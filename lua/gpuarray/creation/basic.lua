--- Creating arrays (API.md §2): empty zeros ones full and their _like
-- forms, the ndarray constructor, array asarray asanyarray
-- ascontiguousarray asfortranarray copy astype, and the pinned host arrays
-- (empty_pinned is ga.pinned_empty). The C core (src/array/create.c,
-- transfer.c, pinned.c) allocates and fills; this file declares the public
-- functions and handles order= and array-like fill values.
--
-- order: "C" (row-major) or "F" (column-major) for new arrays; the _like
-- forms default to "K" (keep the prototype's layout: F when it is
-- F-contiguous and not C-contiguous), as NumPy.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def
  local methods = ga.methods

  -- the C core's functions, before their names are declared over
  local C = {
    empty = ga.empty, zeros = ga.zeros, ones = ga.ones, full = ga.full, array = ga.array,
    asarray = ga.asarray, ascontiguousarray = ga.ascontiguousarray, copy = ga.copy,
    pinned_empty = ga.pinned_empty, astype = methods.astype, mcopy = methods.copy, fill = methods.fill,
  }

  -- the core's ascontiguousarray of an ndarray, without the binder's
  -- checks (a hot path's host time counts in a timed call: ndimage's
  -- transforms call it twice a call)
  internal.ascontiguous = C.ascontiguousarray
  -- and its empty(shape, dtype) (pad's common call: ga.empty's Lua checks
  -- cost about 0.3 us of a call's host time)
  internal.empty = C.empty

  local reversed = args.reversed

  --- A new array of shape in order "C" or "F", made by C's maker (the name
  -- of empty, zeros, ones or full: errors name it): an F array is the C
  -- array of the reversed shape, transposed
  local function call(maker, ...)
    -- calls by name, not a tail call: a no-device error names the maker,
    -- which the binder renames to the function the user called
    local r
    if maker == "empty" then r = C.empty(...)
    elseif maker == "zeros" then r = C.zeros(...)
    elseif maker == "ones" then r = C.ones(...)
    else r = C.full(...) end
    return r
  end

  local function make(maker, shape, order, ...)
    if order == "F" then
      local s = type(shape) == "table" and shape or { shape }
      if #s >= 2 then return call(maker, reversed(s), ...):transpose() end
    end
    return call(maker, shape, ...)
  end

  local keep_order = args.layout

  -- zeros(3, 4) is NumPy's zeros((3, 4)) written the C way: the error
  -- says so (before the binder's, which would only say dtype is no dtype)
  --
  -- The common call, empty(shape[, dtype]) with a dtype that is no options
  -- table, goes straight to C's maker, which checks the shape and the
  -- dtype itself under the same name: these are the calls Lua code makes
  -- most, and the binder's frames would triple their host time.
  local function shape_hint(name)
    local f = ga[name]
    local entry = api.entry(f)
    local function hinted(shape, dtype, ...)
      if math.type(shape) == "integer" and math.type(dtype) == "integer" then
        fail(("%s: the shape is one argument: write ga.%s({%d, %d}) for a shape of several dimensions")
          :format(name, name, shape, dtype))
      end
      if select("#", ...) == 0 and type(dtype) ~= "table"
         and (math.type(shape) == "integer" or type(shape) == "table" and shape[1] ~= nil) then
        return call(name, shape, dtype)   -- call names the maker for C's errors
      end
      return f(shape, dtype, ...)
    end
    ga[name] = hinted
    api.attach(entry.decl, hinted)
  end

  def(ga, [[
empty(shape: shape, dtype: dtype?, order: "C"|"F" = "C") -> ndarray
A new array of shape and dtype (the default dtype when nil: float64 unless
ga.set_default_dtype changed it), its values unset.
]], function(shape, dtype, order)
    return make("empty", shape, order, dtype)
  end)

  def(ga, [[
zeros(shape: shape, dtype: dtype?, order: "C"|"F" = "C") -> ndarray
A new array of zeros.
]], function(shape, dtype, order)
    return make("zeros", shape, order, dtype)
  end)

  def(ga, [[
ones(shape: shape, dtype: dtype?, order: "C"|"F" = "C") -> ndarray
A new array of ones.
]], function(shape, dtype, order)
    return make("ones", shape, order, dtype)
  end)

  -- a fill value that is one element: numbers, booleans, typed scalars,
  -- and a {re, im} pair where the dtype is complex (or not given)
  local function one_value(v, dtype)
    local t = type(v)
    if t == "number" or t == "boolean" then return true end
    if t == "userdata" then return not is_array(v) end
    if t == "table" and rawlen(v) == 2 and type(rawget(v, 1)) == "number" and type(rawget(v, 2)) == "number" then
      return dtype == nil or ga.dtype(dtype).kind == "c"
    end
    return false
  end

  -- full's body: a scalar through C's fill, an array-like broadcast into place
  local function full(shape, fill_value, dtype, order)
    if one_value(fill_value, dtype) then return make("full", shape, order, fill_value, dtype) end
    local v = args.array(ga, fill_value, "full")
    local z = make("empty", shape, order, dtype or v.dtype)
    local ok, shp = pcall(ga.broadcast_shapes, v.shape, z.shape)
    if not ok or not args.same_shape(shp, z.shape) then
      fail(("full: a fill value of shape %s cannot be broadcast to %s"):format(internal.shape_str(v.shape),
                                                                                 internal.shape_str(z.shape)))
    end
    z:set(v)
    return z
  end

  shape_hint("empty")
  shape_hint("zeros")
  shape_hint("ones")

  def(ga, [[
full(shape: shape, fill_value: any, dtype: dtype?, order: "C"|"F" = "C") -> ndarray
A new array filled with fill_value: a scalar (its dtype when dtype is nil:
bool, int64, float64, complex128 for a {re, im} pair, or a typed scalar's)
or an array-like broadcast to shape (its dtype when dtype is nil).
]], full)

  -- the prototype of a _like function: an ndarray, or an array-like whose
  -- shape and dtype NumPy would give it
  local function prototype(a, fname)
    if is_array(a) then return a end
    return args.array(ga, a, fname)
  end

  -- shape/dtype/order of a _like result
  local function like(a, dtype, order, shape, fname)
    local p = prototype(a, fname)
    local s = shape or p.shape
    local o = keep_order(p, order)
    if shape and #args.shape_of(shape, fname) ~= p.ndim and (order == "K" or order == "A") then o = "C" end
    return s, dtype or p.dtype, o
  end

  def(ga, [[
empty_like(prototype: array_like, dtype: dtype?, order: "C"|"F"|"A"|"K" = "K", *, shape: shape?) -> ndarray
A new array with the shape and dtype of prototype (or those given), values unset.
]], function(a, dtype, order, shape)
    local s, d, o = like(a, dtype, order, shape, "empty_like")
    return make("empty", s, o, d)
  end)

  def(ga, [[
zeros_like(a: array_like, dtype: dtype?, order: "C"|"F"|"A"|"K" = "K", *, shape: shape?) -> ndarray
A new array of zeros with the shape and dtype of a (or those given).
]], function(a, dtype, order, shape)
    local s, d, o = like(a, dtype, order, shape, "zeros_like")
    return make("zeros", s, o, d)
  end)

  def(ga, [[
ones_like(a: array_like, dtype: dtype?, order: "C"|"F"|"A"|"K" = "K", *, shape: shape?) -> ndarray
A new array of ones with the shape and dtype of a (or those given).
]], function(a, dtype, order, shape)
    local s, d, o = like(a, dtype, order, shape, "ones_like")
    return make("ones", s, o, d)
  end)

  def(ga, [[
full_like(a: array_like, fill_value: any, dtype: dtype?, order: "C"|"F"|"A"|"K" = "K", *, shape: shape?) -> ndarray
A new array with the shape and dtype of a (or those given) filled with
fill_value (a scalar, or an array-like broadcast to the shape), cast to the dtype.
]], function(a, fill_value, dtype, order, shape)
    local s, d, o = like(a, dtype, order, shape, "full_like")
    return full(s, fill_value, d, o)
  end)

  ---------------------------------------------------------------------------
  -- from Lua values and other arrays
  ---------------------------------------------------------------------------

  local function ndmin_view(x, ndmin)
    if x.ndim >= ndmin then return x end
    local s = x.shape
    for _ = 1, ndmin - #s do table.insert(s, 1, 1) end
    return x:reshape(s)
  end

  -- x in the layout order asks for ("C", "F", "A", "K"): x itself when it has it
  local function in_order(x, order)
    local f = x.flags
    if order == "C" and not f.c_contiguous then return C.copy(x, "C") end
    if order == "F" and not f.f_contiguous then return C.copy(x, "F") end
    return x
  end

  local function no_copy(fname)
    fail(fname .. ": copy = false, but a copy is needed (a new dtype, layout, device, or a Lua value)")
  end

  def(ga, [[
array(object: any, dtype: dtype?, *, copy: boolean = true, order: "C"|"F"|"A"|"K" = "K", ndmin: integer = 0,
      shape: shape?) -> ndarray
An array from a (nested) Lua table, a scalar, another ndarray (a copy,
across devices too) or a byte string (with shape and dtype: its C-order
elements). copy = false raises where a copy is needed (NumPy 2); ndmin
prepends axes of length 1.
]], function(object, dtype, copy, order, ndmin, shape)
    if ndmin < 0 or ndmin > 32 then fail(("array: ndmin must be in 0..32, got %d"):format(ndmin)) end
    local x
    if is_array(object) then
      local dt = args.dtype(ga, dtype)
      if not copy then
        if (dt and dt ~= object.dtype) or object.device ~= ga.get_device_id() then no_copy("array") end
        x = object
        if (order == "C" and not x.flags.c_contiguous) or (order == "F" and not x.flags.f_contiguous) then
          no_copy("array")
        end
      else
        local o = keep_order(object, order)
        if object.device ~= ga.get_device_id() then
          x = C.array(object, dt and { dtype = dt } or nil)
          x = in_order(x, o)
        else
          x = C.copy(object, o)
          if dt and dt ~= x.dtype then x = C.astype(x, dt) end
        end
      end
    else
      if not copy then no_copy("array") end
      if shape ~= nil and type(object) ~= "string" then fail("array: shape is for byte strings only") end
      x = C.array(object, (dtype ~= nil or shape ~= nil) and { dtype = dtype, shape = shape } or nil)
      if order == "F" then x = in_order(x, "F") end
    end
    return ndmin_view(x, ndmin)
  end)

  local function asarray(a, dtype, order, copy, fname)
    if copy == true then return ga.array(a, dtype, { order = order or "K" }) end
    if is_array(a) then
      local dt = args.dtype(ga, dtype)
      local same = (dt == nil or dt == a.dtype) and a.device == ga.get_device_id()
      local x = a
      if not same then
        if copy == false then no_copy(fname) end
        x = C.asarray(a, dt)
      end
      if order == "C" or order == "F" then
        local y = in_order(x, order)
        if y ~= x and copy == false then no_copy(fname) end
        x = y
      end
      return x
    end
    if copy == false then no_copy(fname) end
    local x = dtype ~= nil and C.asarray(a, dtype) or C.asarray(a)
    if order == "F" then x = in_order(x, "F") end
    return x
  end

  def(ga, [[
asarray(a: any, dtype: dtype?, order: "C"|"F"|"A"|"K"?, *, copy: boolean?) -> ndarray
a itself when it is an ndarray of that dtype (and layout, when order is
"C" or "F"), else a new array as ga.array makes it. copy = true always
copies, copy = false raises where a copy is needed.
]], function(a, dtype, order, copy)
    return asarray(a, dtype, order, copy, "asarray")
  end)
  ga.asanyarray = ga.asarray
  api.alias("asanyarray", ga.asarray)

  def(ga, [[
ascontiguousarray(a: array_like, dtype: dtype?) -> ndarray
a as a C-contiguous array of at least one dimension (a itself when it is one).
]], function(a, dtype)
    local x = asarray(a, dtype, nil, nil, "ascontiguousarray")
    return ndmin_view(C.ascontiguousarray(x), 1)
  end)

  def(ga, [[
asfortranarray(a: array_like, dtype: dtype?) -> ndarray
a as an F-contiguous (column-major) array of at least one dimension (a
itself when it is one).
]], function(a, dtype)
    local x = ndmin_view(asarray(a, dtype, nil, nil, "asfortranarray"), 1)
    return in_order(x, "F")
  end)

  def(ga, [[
copy(a: array_like, order: "C"|"F"|"A"|"K" = "K") -> ndarray
A copy of a (C order unless order asks for F, or "K"/"A" keep an F layout).
]], function(a, order)
    local x = args.array(ga, a, "copy")
    if x ~= a then return in_order(x, order == "F" and "F" or "C") end
    return C.copy(x, keep_order(x, order))
  end)

  ---------------------------------------------------------------------------
  -- the methods that copy or cast
  ---------------------------------------------------------------------------

  def(methods, [[
ndarray:copy(order: "C"|"F"|"A"|"K" = "C") -> ndarray
A copy of the array, C order unless order asks for F ("A" and "K": F for an
F-contiguous array that is not C-contiguous).
]], function(self, order)
    return C.mcopy(self, keep_order(self, order))
  end)

  def(methods, [[
ndarray:astype(dtype: dtype, order: "C"|"F"|"A"|"K" = "K", *, copy: boolean = true) -> ndarray
The array cast to dtype (C's casts: float to integer truncates toward
zero). copy = false returns the array itself when dtype and layout already match.
]], function(self, dtype, order, copy)
    local o = keep_order(self, order)
    local dt = args.dtype(ga, dtype)
    if not copy and dt == self.dtype then
      local f = self.flags
      if order == "K" or order == "A" or (o == "C" and f.c_contiguous) or (o == "F" and f.f_contiguous) then
        return self
      end
    end
    if o == "F" and self.ndim >= 2 then
      return C.astype(self:transpose(), dt):transpose()
    end
    return C.astype(self, dt)
  end)

  def(ga, [[
astype(x: ndarray, dtype: dtype, *, copy: boolean = true) -> ndarray
x cast to dtype (the Array API's astype; x:astype is the method).
]], function(x, dtype, copy)
    return x:astype(dtype, { copy = copy })
  end)

  def(methods, [[
ndarray:fill(value: scalar)
Set every element to value (cast to the array's dtype); returns the array.
]], C.fill)

  ---------------------------------------------------------------------------
  -- the ndarray constructor
  ---------------------------------------------------------------------------

  def(ga, [[
ndarray(shape: shape, dtype: dtype?, *, strides: shape?, order: "C"|"F" = "C") -> ndarray
A new array, as CuPy's ndarray(shape, dtype): values unset. strides (in
bytes, non-negative) lay it out over a buffer just large enough for them.
]], function(shape, dtype, strides, order)
    if strides == nil then return make("empty", shape, order, dtype) end
    local s = type(shape) == "table" and shape or { shape }
    local st = type(strides) == "table" and strides or { strides }
    if #st ~= #s then
      fail(("ndarray: %d strides for %d dimensions"):format(#st, #s))
    end
    local item = ga.dtype(dtype or ga.get_default_dtype()).itemsize
    local span = item
    for d = 1, #s do
      if st[d] % item ~= 0 then
        fail(("ndarray: stride %d is not a multiple of the itemsize %d"):format(st[d], item))
      end
      if s[d] == 0 then span = 0 break end
      span = span + (s[d] - 1) * st[d]
    end
    local buf = C.empty(math.max(span // item, 0), dtype)
    return ga.lib.stride_tricks.as_strided(buf, s, st)
  end)

  ---------------------------------------------------------------------------
  -- pinned host arrays (cupyx.empty_pinned and friends)
  ---------------------------------------------------------------------------

  def(ga, [[
pinned_empty(shape: shape, dtype: dtype?, order: "C" = "C") -> object
A new array in page-locked host memory (cupyx's empty_pinned), values unset:
the fast way between host and device (x:set(h), x:get(h)).
]], function(shape, dtype)
    return C.pinned_empty(shape, dtype)
  end)
  ga.empty_pinned = ga.pinned_empty
  api.alias("empty_pinned", ga.pinned_empty)

  def(ga, [[
zeros_pinned(shape: shape, dtype: dtype?, order: "C" = "C") -> object
A new page-locked host array of zeros.
]], function(shape, dtype)
    return C.pinned_empty(shape, dtype):fill(0)
  end)

  local function is_pinned(v)
    local mt = getmetatable(v)
    return type(v) == "userdata" and type(mt) == "table" and mt.__name == "gpuarray.PinnedArray"
  end

  local function like_pinned(a, dtype, shape, fname)
    -- a pinned array has a dtype and a shape too
    local p = is_array(a) or is_pinned(a)
    local s = shape or (p and a.shape) or args.shape_of(a, fname)
    local d = dtype or (p and a.dtype) or args.array(ga, a, fname).dtype
    return C.pinned_empty(s, d)
  end

  def(ga, [[
empty_like_pinned(a: any, dtype: dtype?, order: "C" = "C", *, shape: shape?) -> object
A new page-locked host array with the shape and dtype of a (an ndarray, a
pinned array or an array-like), values unset.
]], function(a, dtype, _, shape)
    return like_pinned(a, dtype, shape, "empty_like_pinned")
  end)

  def(ga, [[
zeros_like_pinned(a: any, dtype: dtype?, order: "C" = "C", *, shape: shape?) -> object
A new page-locked host array of zeros with the shape and dtype of a.
]], function(a, dtype, _, shape)
    return like_pinned(a, dtype, shape, "zeros_like_pinned"):fill(0)
  end)
end
