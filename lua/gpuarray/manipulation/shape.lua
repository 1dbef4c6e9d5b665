--- Changing shapes and axes (API.md §3, §14): reshape ravel flatten
-- transpose permute_dims matrix_transpose swapaxes moveaxis rollaxis
-- squeeze expand_dims, broadcast_to broadcast_shapes broadcast_arrays
-- broadcast, atleast_1d/2d/3d, ndim shape size, copyto require
-- asarray_chkfinite. The views are made by the C core (src/array/ndarray.c:
-- shapes and strides only, no device work); this file declares them and
-- adds NumPy's order=, tuples of axes and the Lua-side routines.
--
-- Axes are 1-based, negative from the end; positions in rollaxis and
-- moveaxis are axis numbers too.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array, shape_str = internal.fail, internal.is_array, internal.shape_str
  local def = api.def
  local methods = ga.methods

  -- the C core's view makers, before their names are declared over
  local C = {
    reshape = methods.reshape, ravel = methods.ravel, flatten = methods.flatten, transpose = methods.transpose,
    swapaxes = methods.swapaxes, squeeze = methods.squeeze, broadcast_to = ga.broadcast_to,
    broadcast_shapes = ga.broadcast_shapes,
  }

  local function array(a, fname) return args.array(ga, a, fname) end

  local reversed = args.reversed
  -- "A" and "K" read an F-contiguous array (that is not C-contiguous) in F order
  local read_order = args.layout

  -- whether r holds x's memory (a view) rather than a copy
  local function shares(r, x)
    return r.size == 0 or r.data_ptr == x.data_ptr
  end

  local function reshape(x, shape, order, copy, fname)
    local o = read_order(x, order)
    local r
    if o == "F" then
      local s = type(shape) == "table" and shape or { shape }
      r = C.reshape(x:transpose(), reversed(s)):transpose()
    else
      r = C.reshape(x, shape)
    end
    if copy == true and shares(r, x) then return r:copy() end
    if copy == false and not shares(r, x) then
      fail(fname .. ": copy = false, but this reshape needs a copy (the strides do not allow a view)")
    end
    return r
  end

  def(ga, [[
reshape(a: array_like, shape|newshape: shape, order: "C"|"F"|"A" = "C", *, copy: boolean?) -> ndarray
a with a new shape and the same elements, read and placed in order (C:
row-major; F: column-major; A: F for an F-contiguous a). A view where the
strides allow, else a copy (copy = true always copies, false raises
instead). One length may be -1: inferred.
]], function(a, shape, order, copy)
    return reshape(array(a, "reshape"), shape, order, copy, "reshape")
  end)

  -- the shape of x:reshape(...) and x:transpose(...): one list or several integers
  local function list_args(fname, what, ...)
    local n = select("#", ...)
    if n == 1 and type((...)) == "table" then return (...) end
    local t = {}
    for i = 1, n do
      local v = select(i, ...)
      if math.type(v) ~= "integer" then
        fail(("%s: %s must be integers or one list, argument %d is %s"):format(fname, what, i, tostring(v)))
      end
      t[i] = v
    end
    return t
  end

  def(methods, [[
ndarray:reshape(...: integer|shape, *, order: "C"|"F"|"A" = "C", copy: boolean?) -> ndarray
The array with a new shape, given as one list or as integers
(x:reshape(2, 3) or x:reshape({2, 3})): ga.reshape's rules.
]], function(self, order, copy, ...)
    if select("#", ...) == 0 then fail("reshape: a shape is required") end
    return reshape(self, list_args("reshape", "the lengths", ...), order, copy, "reshape")
  end)

  local function ravel(x, order)
    if read_order(x, order) == "F" then return C.ravel(x:transpose()) end
    return C.ravel(x)
  end

  def(ga, [[
ravel(a: array_like, order: "C"|"F"|"A"|"K" = "C") -> ndarray
a flattened to 1-D, read in order: a view where the strides allow, else a copy.
]], function(a, order)
    return ravel(array(a, "ravel"), order)
  end)
  def(methods, [[
ndarray:ravel(order: "C"|"F"|"A"|"K" = "C") -> ndarray
The array flattened to 1-D (a view where possible): ga.ravel.
]], ravel)

  def(methods, [[
ndarray:flatten(order: "C"|"F"|"A"|"K" = "C") -> ndarray
A 1-D copy of the array, read in order.
]], function(self, order)
    if read_order(self, order) == "F" then return C.flatten(self:transpose()) end
    return C.flatten(self)
  end)

  def(ga, [[
transpose(a: array_like, axes: axes?) -> ndarray
A view with the axes permuted: axes[i] is the axis of a that becomes axis
i (1-based); reversed when nil.
]], function(a, axes)
    local x = array(a, "transpose")
    if axes == nil then return C.transpose(x) end
    return C.transpose(x, type(axes) == "table" and axes or { axes })
  end)
  ga.permute_dims = ga.transpose
  api.alias("permute_dims", ga.transpose)

  def(methods, [[
ndarray:transpose(...: integer|axes) -> ndarray
A view with the axes permuted, given as one list or as integers; reversed
when none are given.
]], function(self, ...)
    if select("#", ...) == 0 then return C.transpose(self) end
    return C.transpose(self, list_args("transpose", "the axes", ...))
  end)

  def(ga, [[
matrix_transpose(x: array_like) -> ndarray
A view of x with its last two axes swapped (x has at least 2 dimensions).
]], function(x)
    x = array(x, "matrix_transpose")
    if x.ndim < 2 then fail(("matrix_transpose: x must have at least 2 dimensions, got %d"):format(x.ndim)) end
    return C.swapaxes(x, -1, -2)
  end)

  def(ga, [[
swapaxes(a: array_like, axis1: integer, axis2: integer) -> ndarray
A view of a with the two axes exchanged.
]], function(a, axis1, axis2)
    return C.swapaxes(array(a, "swapaxes"), axis1, axis2)
  end)
  methods.swapaxes = ga.swapaxes
  api.alias("ndarray:swapaxes", ga.swapaxes)

  def(ga, [[
moveaxis(a: array_like, source: axes, destination: axes) -> ndarray
A view of a with the axes in source moved to the positions in destination
(1-based, negative from the end); the other axes keep their order.
]], function(a, source, destination)
    local x = array(a, "moveaxis")
    local nd = x.ndim
    local src, dst = args.axes(source, nd, "moveaxis"), args.axes(destination, nd, "moveaxis")
    if #src ~= #dst then
      fail(("moveaxis: %d source axes and %d destinations"):format(#src, #dst))
    end
    local moved, order = {}, {}
    for _, d in ipairs(src) do moved[d] = true end
    for d = 1, nd do
      if not moved[d] then order[#order + 1] = d end
    end
    local pairs_ = {}
    for i = 1, #src do pairs_[i] = { dst[i], src[i] } end
    table.sort(pairs_, function(p, q) return p[1] < q[1] end)
    for _, p in ipairs(pairs_) do table.insert(order, p[1], p[2]) end
    return C.transpose(x, order)
  end)

  def(ga, [[
rollaxis(a: array_like, axis: integer, start: integer = 1) -> ndarray
A view of a with axis moved to lie before position start (1 .. ndim + 1,
negative from the end); prefer moveaxis.
]], function(a, axis, start)
    local x = array(a, "rollaxis")
    local n = x.ndim
    local ax = args.axis(axis, n, "rollaxis")
    local s = start < 0 and n + 1 + start or start
    if s < 1 or s > n + 1 then
      fail(("rollaxis: start %d is out of range for an array of %d dimensions (1 .. %d)"):format(start, n, n + 1))
    end
    if ax < s then s = s - 1 end
    if ax == s then return C.reshape(x, x.shape) end
    local order = {}
    for d = 1, n do
      if d ~= ax then order[#order + 1] = d end
    end
    table.insert(order, s, ax)
    return C.transpose(x, order)
  end)

  def(ga, [[
squeeze(a: array_like, axis: axes?) -> ndarray
A view of a without axes of length 1 (only those of axis when given; each
must have length 1).
]], function(a, axis)
    local x = array(a, "squeeze")
    if axis == nil then return C.squeeze(x) end
    return C.squeeze(x, args.axes(axis, x.ndim, "squeeze"))
  end)
  methods.squeeze = ga.squeeze
  api.alias("ndarray:squeeze", ga.squeeze)

  def(ga, [[
expand_dims(a: array_like, axis: axes) -> ndarray
A view of a with new axes of length 1 at the positions in axis (an
integer or a list, 1-based positions in the result, negative from its end).
]], function(a, axis)
    local x = array(a, "expand_dims")
    local nd = x.ndim + (type(axis) == "table" and rawlen(axis) or 1)
    if nd > 32 then fail(("expand_dims: the result would have %d dimensions (at most 32)"):format(nd)) end
    local new = {}
    for _, d in ipairs(args.axes(axis, nd, "expand_dims")) do new[d] = true end
    local s, src = {}, x.shape
    local k = 1
    for d = 1, nd do
      if new[d] then
        s[d] = 1
      else
        s[d] = src[k]
        k = k + 1
      end
    end
    return C.reshape(x, s)
  end)
  methods.expand_dims = ga.expand_dims
  api.alias("ndarray:expand_dims", ga.expand_dims)

  ---------------------------------------------------------------------------
  -- broadcasting
  ---------------------------------------------------------------------------

  def(ga, [[
broadcast_to(array: array_like, shape: shape) -> ndarray
A read-only-by-convention view of array broadcast to shape (stride 0 on
the repeated axes; writing through it writes the shared elements).
]], function(a, shape)
    return C.broadcast_to(array(a, "broadcast_to"), shape)
  end)

  def(ga, [[
broadcast_shapes(...: shape) -> shape
The shape the given shapes broadcast to (NumPy's rules), a new list.
]], C.broadcast_shapes)

  local function shapes_of(fname, ...)
    local n = select("#", ...)
    local arrays, shapes = {}, {}
    for i = 1, n do
      arrays[i] = array((select(i, ...)), fname)
      shapes[i] = arrays[i].shape
    end
    return arrays, shapes, n
  end

  local function broadcast_shape(fname, shapes, n)
    local ok, shape = pcall(C.broadcast_shapes, table.unpack(shapes, 1, n))
    if not ok then
      local parts = {}
      for i = 1, n do parts[i] = shape_str(shapes[i]) end
      fail(("%s: shapes %s cannot be broadcast together"):format(fname, table.concat(parts, ", ")))
    end
    return shape
  end

  def(ga, [[
broadcast_arrays(...: array_like) -> ndarray...
Views of the arguments broadcast against each other, as multiple return values.
]], function(...)
    local arrays, shapes, n = shapes_of("broadcast_arrays", ...)
    local shape = broadcast_shape("broadcast_arrays", shapes, n)
    local out = {}
    for i = 1, n do
      out[i] = args.same_shape(shapes[i], shape) and arrays[i] or C.broadcast_to(arrays[i], shape)
    end
    return table.unpack(out, 1, n)
  end)

  def(ga, [[
broadcast(...: array_like) -> table
CuPy's broadcast object: a table with shape, ndim (and nd), size, numiter
(the number of arguments) and values (the arguments broadcast, a list of views).
]], function(...)
    local arrays, shapes, n = shapes_of("broadcast", ...)
    local shape = broadcast_shape("broadcast", shapes, n)
    local values = {}
    for i = 1, n do values[i] = C.broadcast_to(arrays[i], shape) end
    return { shape = shape, ndim = #shape, nd = #shape, size = args.prod(shape), numiter = n, values = values }
  end)

  local function atleast(n, x)
    local nd = x.ndim
    if nd >= n then return x end
    local s = x.shape
    if n == 1 then return C.reshape(x, { 1 }) end
    if n == 2 then return C.reshape(x, nd == 0 and { 1, 1 } or { 1, s[1] }) end
    if nd == 0 then return C.reshape(x, { 1, 1, 1 }) end
    if nd == 1 then return C.reshape(x, { 1, s[1], 1 }) end
    return C.reshape(x, { s[1], s[2], 1 })
  end
  internal.atleast = atleast

  for n = 1, 3 do
    def(ga, ([[
atleast_%dd(...: array_like) -> ndarray...
Each argument as an array of at least %d dimension%s (new axes of length 1:%s),
one result per argument (multiple return values).
]]):format(n, n, n == 1 and "" or "s", ({ " a scalar becomes {1}", " {n} becomes {1, n}",
      " {n} becomes {1, n, 1}, {m, n} becomes {m, n, 1}" })[n]), function(...)
      local k = select("#", ...)
      local out = {}
      for i = 1, k do out[i] = atleast(n, array((select(i, ...)), "atleast_" .. n .. "d")) end
      return table.unpack(out, 1, k)
    end)
  end

  ---------------------------------------------------------------------------
  -- queries and small conversions
  ---------------------------------------------------------------------------

  def(ga, [[
ndim(a: array_like) -> integer
The number of dimensions of a (an ndarray, a scalar: 0, or a nested table).
]], function(a)
    return #args.shape_of(a, "ndim")
  end)

  def(ga, [[
shape(a: array_like) -> shape
The shape of a (an ndarray, a scalar: {}, or a nested table), a new list.
]], function(a)
    return args.shape_of(a, "shape")
  end)

  def(ga, [[
size(a: array_like, axis: integer?) -> integer
The number of elements of a, or its length along axis.
]], function(a, axis)
    local s = args.shape_of(a, "size")
    if axis == nil then return args.prod(s) end
    return s[args.axis(axis, #s, "size")]
  end)

  local function can_cast(from, to, casting) return args.can_cast(ga, from, to, casting) end

  def(ga, [[
copyto(dst: ndarray, src: array_like, casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "same_kind",
       where: array_like = true)
Copy src into dst, broadcast to dst's shape and cast under the casting
rule; where (a bool array-like, broadcast) selects the elements written.
]], function(dst, src, casting, where)
    local from
    if is_array(src) then
      from = src.dtype
    elseif type(src) == "table" then
      src = ga.asarray(src)
      from = src.dtype
    else
      from = ga.result_type(dst.dtype, src)   -- a weak scalar takes dst's kind when it fits
      if casting ~= "unsafe" and not can_cast(from, dst.dtype, casting) then
        fail(("copyto: cannot cast a %s scalar to %s under the rule '%s'"):format(type(src), dst.dtype, casting))
      end
      from = dst.dtype
    end
    if not can_cast(from, dst.dtype, casting) then
      fail(("copyto: cannot cast %s to %s under the rule '%s'"):format(from, dst.dtype, casting))
    end
    local ss = args.shape_of(src, "copyto")
    local shape = broadcast_shape("copyto", { ss, dst.shape }, 2)
    if not args.same_shape(shape, dst.shape) then
      fail(("copyto: src of shape %s cannot be broadcast to dst's %s"):format(shape_str(ss), shape_str(dst.shape)))
    end
    if where == true then
      dst:set(src)
      return
    end
    if where == false then return end
    local w = args.array(ga, where, "copyto")
    if w.dtype ~= "bool" then fail("copyto: where must be a bool array, got " .. w.dtype) end
    dst:set(ga.where(w, src, dst))
  end)

  local REQUIRE = {
    C = "C", C_CONTIGUOUS = "C", CONTIGUOUS = "C", F = "F", F_CONTIGUOUS = "F", FORTRAN = "F",
    A = "A", ALIGNED = "A", W = "W", WRITEABLE = "W", O = "O", OWNDATA = "O", E = "E", ENSUREARRAY = "E",
  }

  def(ga, [[
require(a: array_like, dtype: dtype?, requirements: string|list?) -> ndarray
a as an array of dtype meeting the requirements ("C" contiguous, "F"
contiguous, "O" owning its data, "A" aligned, "W" writeable, "E" an
ndarray; also their long names): a itself when it already does.
]], function(a, dtype, requirements)
    local reqs = type(requirements) == "string" and { requirements } or (requirements or {})
    local want = {}
    for i, r in ipairs(args.plain(reqs, "require", "requirements")) do
      local k = type(r) == "string" and REQUIRE[r:upper()]
      if not k then fail(("require: requirement %d, %s, is not one of C F A W O E"):format(i, tostring(r))) end
      want[k] = true
    end
    if want.C and want.F then fail("require: both C and F contiguous cannot be required") end
    local x = ga.asarray(a, dtype)
    if want.C then x = ga.ascontiguousarray(x) end
    if want.F then x = ga.asfortranarray(x) end
    if want.O and not x.flags.owndata then x = x:copy(want.F and "F" or "C") end
    return x
  end)

  def(ga, [[
asarray_chkfinite(a: array_like, dtype: dtype?, order: "C"|"F"|"A"|"K"?) -> ndarray
ga.asarray(a, dtype, order), raising when it holds an infinity or a NaN
(synchronizes).
]], function(a, dtype, order)
    local x = ga.asarray(a, dtype, order)
    local k = ga.dtype(x.dtype).kind
    if (k == "f" or k == "c") and x.size > 0 then
      local ok = ga.all(ga.isfinite(x))
      if is_array(ok) then ok = ok:item() end
      if not ok then fail("asarray_chkfinite: the array must not contain infinities or NaNs") end
    end
    return x
  end)
end
