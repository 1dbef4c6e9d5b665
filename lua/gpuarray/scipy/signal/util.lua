--- What scipy.signal's files share: moving small arrays between the host
-- design math (host/*.lua: Lua lists of numbers and host complex values)
-- and ndarrays, argument checks, axis handling. Returns function(ga) -> U.
local internal = require("gpuarray.internal")
local cx = require("gpuarray.scipy.signal.host.cx")

return function(ga)
  local U = {}
  local fail, is_array = internal.fail, internal.is_array
  U.fail, U.is_array = fail, is_array
  U.shape_str = internal.shape_str

  --- a in dtype dt (a itself when it already is)
  function U.cast(a, dt)
    if a.dtype == dt then return a end
    return a:astype(dt)
  end

  local COMPLEX = { complex64 = true, complex128 = true }
  local FLOAT = { float16 = true, float32 = true, float64 = true }
  U.COMPLEX, U.FLOAT = COMPLEX, FLOAT
  function U.is_complex(dt) return COMPLEX[dt] == true end

  -- one element of a Lua list: a number, a boolean, or a {re, im} pair
  local function elem(v, fname, what)
    local t = type(v)
    if t == "number" then return v end
    if t == "boolean" then return v and 1 or 0 end
    if t == "table" and not is_array(v) and type(v[1]) == "number" and type(v[2]) == "number" and rawlen(v) == 2 then
      return cx.new(v[1], v[2])
    end
    fail(("%s: %s must hold numbers (or {re, im} pairs), got a %s"):format(fname, what, t))
  end

  --- A 1-D array_like (ndarray, Lua list, number) as a host list
  function U.vec(v, fname, what)
    what = what or "the argument"
    if type(v) == "number" or type(v) == "boolean" then return { elem(v, fname, what) } end
    if is_array(v) then
      if v.ndim > 1 then fail(("%s: %s must be 1-D, got %d dimensions"):format(fname, what, v.ndim)) end
      local t = v:totable()
      if v.ndim == 0 then t = { t } end
      local out = {}
      for i, e in ipairs(t) do out[i] = elem(e, fname, what) end
      return out
    end
    if type(v) ~= "table" then fail(("%s: %s must be an array, got a %s"):format(fname, what, type(v))) end
    local out = {}
    for i = 1, rawlen(v) do out[i] = elem(rawget(v, i), fname, what) end
    return out
  end

  --- A 2-D array_like as a list of host rows (all of one length)
  function U.mat(v, fname, what)
    what = what or "the argument"
    local rows
    if is_array(v) then
      if v.ndim ~= 2 then fail(("%s: %s must be 2-D, got %d dimensions"):format(fname, what, v.ndim)) end
      rows = v:totable()
    elseif type(v) == "table" then
      rows = {}
      for i = 1, rawlen(v) do rows[i] = rawget(v, i) end
      if #rows > 0 and type(rows[1]) ~= "table" then rows = { rows } end
    else
      fail(("%s: %s must be a 2-D array, got a %s"):format(fname, what, type(v)))
    end
    local out = {}
    for i, r in ipairs(rows) do
      if type(r) ~= "table" then fail(("%s: %s must be 2-D"):format(fname, what)) end
      out[i] = {}
      for j = 1, rawlen(r) do out[i][j] = elem(rawget(r, j), fname, what) end
      if #out[i] ~= #out[1] then fail(("%s: %s has rows of different lengths"):format(fname, what)) end
    end
    return out
  end

  --- A number argument (a Lua number, or a 0-d / 1-element ndarray)
  function U.num(v, fname, what)
    if type(v) == "number" then return v end
    if is_array(v) and v.size == 1 then return v:reshape({}):item() end
    fail(("%s: %s must be a number, got %s"):format(fname, what, type(v)))
  end

  --- A `scalar` argument (a number, a boolean, a {re, im} pair, a typed
  -- scalar such as ga.int64(10)) as a host value: a Lua number, or a host
  -- complex for a complex one
  function U.scalar(v, fname, what)
    local t = type(v)
    if t == "number" then return v end
    if t == "boolean" then return v and 1 or 0 end
    if t == "table" and type(rawget(v, 1)) == "number" and type(rawget(v, 2)) == "number" then
      return cx.new(rawget(v, 1), rawget(v, 2))
    end
    local mt = t == "userdata" and getmetatable(v)
    if type(mt) == "table" and rawget(mt, "__name") == "gpuarray.scalar" then
      return U.scalar(v:item(), fname, what)
    end
    fail(("%s: %s must be a scalar (a number or a {re, im} pair), got a %s"):format(fname, what, t))
  end

  local function plain(v)
    if type(v) == "number" then return v end
    return { v[1], v[2] }
  end

  --- A host list as a 1-D ndarray: float64, or complex128 when any element
  -- is complex (or dtype says so)
  function U.up(list, dtype)
    dtype = dtype or (cx.any_cx(list) and "complex128" or "float64")
    if #list == 0 then return ga.empty(0, dtype) end
    local t = {}
    for i, v in ipairs(list) do t[i] = COMPLEX[dtype] and plain(cx.from(v)) or cx.re(v) end
    return ga.array(t, dtype)
  end

  --- A list of host rows as a 2-D ndarray
  function U.up2(rows, dtype, ncol)
    if dtype == nil then
      dtype = "float64"
      for _, r in ipairs(rows) do if cx.any_cx(r) then dtype = "complex128" end end
    end
    if #rows == 0 then return ga.empty({ 0, ncol or 0 }, dtype) end
    if #rows[1] == 0 then return ga.empty({ #rows, 0 }, dtype) end
    local t = {}
    for i, r in ipairs(rows) do
      t[i] = {}
      for j, v in ipairs(r) do t[i][j] = COMPLEX[dtype] and plain(cx.from(v)) or cx.re(v) end
    end
    return ga.array(t, dtype)
  end

  --- The number of dimensions an array_like has (a nested Lua table's depth)
  function U.ndim(x)
    if is_array(x) then return x.ndim end
    local d = 0
    while type(x) == "table" do
      d = d + 1
      x = rawget(x, 1)
    end
    return d
  end

  --- re + i im for two real arrays (complex128, or complex64 from float32)
  function U.complex(re, im)
    local dt = (re.dtype == "float32" and im.dtype == "float32") and "complex64" or "complex128"
    return re:astype(dt) + im:astype(dt) * ga.full({}, { 0, 1 }, dt)
  end

  --- An integer argument within [lo, hi] (hi may be nil)
  function U.int(v, fname, what, lo, hi)
    if math.type(v) ~= "integer" then
      if type(v) == "number" and v == math.floor(v) and v == v then
        return U.int(math.tointeger(v), fname, what, lo, hi)
      end
      fail(("%s: %s must be an integer, got %s"):format(fname, what, tostring(v)))
    end
    if lo and v < lo then fail(("%s: %s must be at least %d, got %d"):format(fname, what, lo, v)) end
    if hi and v > hi then fail(("%s: %s must be at most %d, got %d"):format(fname, what, hi, v)) end
    return v
  end

  --- An ndarray from an array_like (tables become float64 unless they hold
  -- complex pairs, like ga.array)
  function U.arr(x, fname, what)
    if is_array(x) then return x end
    if type(x) == "number" then return ga.array(x) end
    if type(x) == "table" then
      local ok, r = pcall(ga.array, x)
      if ok then return r end
      local list = U.vec(x, fname, what)
      return U.up(list)
    end
    fail(("%s: %s must be an array, got a %s"):format(fname, what or "the argument", type(x)))
  end

  --- The inexact dtype an input computes in (SciPy's rule for most of
  -- signal: floats and complex keep theirs, integers and bool become
  -- float64; float16 and bfloat16 compute in float32)
  function U.inexact(dt)
    if dt == "float16" or dt == "bfloat16" then return "float32" end
    if FLOAT[dt] or COMPLEX[dt] then return dt end
    return "float64"
  end

  --- A 1-based (negative from the end) axis as a 1-based positive axis
  function U.axis(axis, nd, fname)
    local a = math.tointeger(axis)
    if a == nil or a == 0 or a > nd or a < -nd then
      fail(("%s: axis %s is out of bounds for an array of dimension %d"):format(fname, tostring(axis), nd))
    end
    return a < 0 and a + nd + 1 or a
  end

  --- x with axis moved last (a view), and the function that moves an
  -- array's last axis back to where axis was
  function U.axis_last(x, axis)
    local nd = x.ndim
    if axis == nd then return x, function(r) return r end end
    local perm = {}
    for d = 1, nd do if d ~= axis then perm[#perm + 1] = d end end
    perm[#perm + 1] = axis
    local inv = {}
    for d = 1, nd do inv[perm[d]] = d end
    return x:transpose(perm), function(r) return r:transpose(inv) end
  end

  --- The axis's range selector: every other axis whole, axis {lo, hi[, step]}
  function U.along(nd, axis, sel)
    local key = {}
    for d = 1, nd do key[d] = {} end
    key[axis] = sel
    return key
  end

  return U
end
