--- Logic (API.md §5, §14): isclose, allclose, array_equal, array_equiv,
-- isposinf, isneginf, isreal, iscomplex, isrealobj, iscomplexobj,
-- isfortran, isscalar. The elementwise tests (isnan, logical_and, equal,
-- ...) are ufuncs (lua/gpuarray/elementwise), all/any reductions.
--
-- isclose and array_equal launch kernels of the select room (one per
-- computing dtype, with the NaN rules there); the others compose ufuncs.
-- The answers that are Lua booleans (allclose, array_equal, array_equiv)
-- synchronize the stream, as NumPy's return a Python bool.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array

  local function as_array(x, fname)
    if is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" or t == "boolean" or t == "userdata" then return ga.asarray(x) end
    fail(("%s: expected an array, got %s"):format(fname, t))
  end

  local function operand(v)
    if type(v) == "table" then return ga.asarray(v) end
    return v
  end

  local function isclose(a, b, rtol, atol, equal_nan, out)
    a, b = operand(a), operand(b)
    local f = ga.result_type(a, b, 1.0)   -- NumPy computes in result_type(a, b, 1.0)
    local shape = internal.select_result_shape("isclose", a, b)
    local z = internal.select_output("isclose", shape, "bool", out)
    local op = internal.select_operand
    internal.select_kernel("isclose", f)(op(a, f, "isclose"), op(b, f, "isclose"), ga.float64(rtol),
      ga.float64(atol), ga.bool(equal_nan), z)
    return z
  end

  def(ga, [[
isclose(a: array_like, b: array_like, rtol: number = 1e-05, atol: number = 1e-08,
        equal_nan: boolean = false, *, out: ndarray?) -> ndarray
Elementwise |a - b| <= atol + rtol * |b| (b finite) or a == b, broadcast, as
a bool array, computed in result_type(a, b, 1.0) (float16 in float32);
NaNs are close only with equal_nan.
]], isclose)

  local function all_true(z)
    if z.size == 0 then return true end
    return ga.all(z):item() == true
  end

  def(ga, [[
allclose(a: array_like, b: array_like, rtol: number = 1e-05, atol: number = 1e-08,
         equal_nan: boolean = false) -> boolean
Whether isclose holds for every element (a Lua boolean; synchronizes).
]], function(a, b, rtol, atol, equal_nan)
    return all_true(isclose(a, b, rtol, atol, equal_nan))
  end)

  local function same_shape(sa, sb)
    if #sa ~= #sb then return false end
    for d = 1, #sa do if sa[d] ~= sb[d] then return false end end
    return true
  end

  -- elementwise a == b (NaN == NaN with eqn) in their promoted dtype, of shape
  local function equal_elements(a, b, eqn, shape)
    local f = ga.result_type(a, b)
    local z = ga.empty(shape, "bool")
    internal.select_kernel("equal", f)(a, b, ga.bool(eqn), z)
    return z
  end

  def(ga, [[
array_equal(a1: array_like, a2: array_like, equal_nan: boolean = false) -> boolean
Same shape and equal elements (a Lua boolean; synchronizes unless the
shapes differ or the arrays are empty). NaN equals NaN only with equal_nan.
]], function(a, b, eqn)
    a, b = as_array(a, "array_equal"), as_array(b, "array_equal")
    if not same_shape(a.shape, b.shape) then return false end
    if a.size == 0 then return true end
    return all_true(equal_elements(a, b, eqn, a.shape))
  end)

  def(ga, [[
array_equiv(a1: array_like, a2: array_like) -> boolean
Shapes that broadcast together and equal elements after broadcasting (a Lua
boolean; synchronizes). NaN is never equal.
]], function(a, b)
    a, b = as_array(a, "array_equiv"), as_array(b, "array_equiv")
    local ok, shape = pcall(ga.broadcast_shapes, a.shape, b.shape)
    if not ok then return false end
    local size = 1
    for _, n in ipairs(shape) do size = size * n end
    if size == 0 then return true end
    return all_true(equal_elements(a, b, false, shape))
  end)

  -- isposinf/isneginf: x == +-inf; NumPy refuses complex values (which
  -- infinity is meant is ambiguous there)
  local function isinf_sign(name, inf)
    return function(x, out)
      x = as_array(x, name)
      local kind = ga.dtype(x.dtype).kind
      if kind == "c" then
        fail(name .. ": this operation is not supported for complex values because it would be ambiguous")
      end
      if kind ~= "f" then
        local z = ga.zeros(x.shape, "bool")
        if out then
          out:set(z)
          return out
        end
        return z
      end
      if out then return ga.equal(x, inf, { out = out }) end
      return ga.equal(x, inf)
    end
  end
  def(ga, [[
isposinf(x: array_like, out: ndarray?) -> ndarray
Elementwise x == +inf, a bool array (false for integers; complex raises).
]], isinf_sign("isposinf", math.huge))
  def(ga, [[
isneginf(x: array_like, out: ndarray?) -> ndarray
Elementwise x == -inf, a bool array (false for integers; complex raises).
]], isinf_sign("isneginf", -math.huge))

  local function is_complex_dtype(x)
    return ga.dtype(x.dtype).kind == "c"
  end

  def(ga, [[
isreal(x: array_like) -> ndarray
Elementwise whether the imaginary part is zero (true for real dtypes), a
bool array of x's shape.
]], function(x)
    x = as_array(x, "isreal")
    if not is_complex_dtype(x) then return ga.ones(x.shape, "bool") end
    return ga.equal(ga.imag(x), 0)
  end)

  def(ga, [[
iscomplex(x: array_like) -> ndarray
Elementwise whether the imaginary part is nonzero (false for real dtypes), a
bool array of x's shape.
]], function(x)
    x = as_array(x, "iscomplex")
    if not is_complex_dtype(x) then return ga.zeros(x.shape, "bool") end
    return ga.not_equal(ga.imag(x), 0)
  end)

  -- the dtype a value has or would have, without touching the device
  local function dtype_of(x)
    if is_array(x) then return x.dtype end
    local t = type(x)
    if t == "userdata" then
      local ok, dt = pcall(function() return x.dtype end)
      if ok and type(dt) == "string" then return dt end
      ok, dt = pcall(function() return x.name end)   -- a dtype object
      if ok and type(dt) == "string" then return dt end
    end
    -- a table from ga.dtype(name); a nested list of Lua numbers is real
    -- (a complex list needs a complex dtype to be read as pairs, API.md §1)
    if t == "table" and type(rawget(x, "name")) == "string" and pcall(ga.dtype, x.name) then return x.name end
    return "float64"
  end

  def(ga, [[
iscomplexobj(x: dict|number|boolean|string|userdata|function) -> boolean
Whether x has a complex dtype (an ndarray, a typed scalar, a dtype); Lua
numbers and tables are real.
]], function(x)
    return ga.dtype(dtype_of(x)).kind == "c"
  end)

  def(ga, [[
isrealobj(x: dict|number|boolean|string|userdata|function) -> boolean
Whether x does not have a complex dtype (the negation of iscomplexobj).
]], function(x)
    return ga.dtype(dtype_of(x)).kind ~= "c"
  end)

  def(ga, [[
isfortran(a: ndarray) -> boolean
Whether a is Fortran-contiguous and not C-contiguous (NumPy's isfortran:
false for 1-D arrays).
]], function(a)
    local f = a.flags
    return f.f_contiguous and not f.c_contiguous
  end)

  def(ga, [[
isscalar(element: dict|number|boolean|string|userdata|function) -> boolean
Whether element is a scalar: a Lua number, boolean or string, or a typed
scalar (ga.float32(1)); ndarrays (0-d too) and tables are not.
]], function(v)
    local t = type(v)
    if t == "number" or t == "boolean" or t == "string" then return true end
    if t == "userdata" then
      local mt = getmetatable(v)
      return mt ~= nil and mt.__name == "gpuarray.scalar"
    end
    return false
  end)
end
