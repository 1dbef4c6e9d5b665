--- The dtype routines made in Lua (API.md §1, §14): min_scalar_type,
-- common_type, issubdtype, isdtype, typename and mintypecode, as NumPy's
-- (isdtype as NumPy 2's). dtype, result_type, promote_types, can_cast,
-- finfo and iinfo are C's (src/array/dtype_lua.c). Answers are dtype names
-- (strings), as ga.result_type's; typename and mintypecode answer NumPy's
-- type characters (ga.dtype(name).char).
--
-- NumPy's structured-dtype helpers (make_aligned_dtype, format_parser) have
-- no counterpart: an ndarray here has one of the 14 numeric dtypes, and
-- nothing could hold a record.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local fail, is_array = internal.fail, internal.is_array
  local KIND = internal.KIND
  local def = api.def

  local function mt_name(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") or nil
  end
  local function is_scalar_object(v) return type(v) == "userdata" and mt_name(v) == "gpuarray.scalar" end

  -- a dtype's name from what the binder's `dtype` takes (a name, ga.float32,
  -- a typed scalar, what ga.dtype returns), or nil
  local function dtype_name(v)
    if type(v) == "string" then return KIND[v] and v or nil end
    if is_scalar_object(v) then return v.dtype end
    if type(v) == "userdata" and mt_name(v) == "gpuarray.dtype" then return v.name end
    if type(v) == "table" and type(rawget(v, "name")) == "string" and KIND[v.name] then return v.name end
    return nil
  end

  ---------------------------------------------------------------------------
  -- min_scalar_type: NumPy's value-based rule (convert_datatype.c's
  -- min_scalar_type_num): an integer >= 0 the smallest unsigned dtype, a
  -- negative one the smallest signed; a float float16 when |v| < 65000 or
  -- not finite, float32 when |v| < 3.4e38 (float64 values only); a complex
  -- complex64 when both parts are within +-3.4e38 (complex128 values only)

  local function unsigned_for(v)
    if v <= 0xff then return "uint8" end
    if v <= 0xffff then return "uint16" end
    if v <= 0xffffffff then return "uint32" end
    return "uint64"
  end
  local function signed_for(v)
    if v >= -0x80 then return "int8" end
    if v >= -0x8000 then return "int16" end
    if v >= -0x80000000 then return "int32" end
    return "int64"
  end
  local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end
  local function in_f32(v) return v > -3.4e38 and v < 3.4e38 end

  -- the smallest dtype holding the value v of dtype dt (a complex v: re, im)
  local function min_for(dt, v, im)
    local k = KIND[dt]
    if k == "b" then return "bool" end
    if k == "u" then return unsigned_for(v) end
    if k == "i" then return v >= 0 and unsigned_for(v) or signed_for(v) end
    if k == "f" then
      if dt == "float16" then return dt end
      if (v > -65000 and v < 65000) or not finite(v) then return "float16" end
      if dt == "float64" and in_f32(v) then return "float32" end
      return dt
    end
    if dt == "complex128" and in_f32(v) and in_f32(im) then return "complex64" end
    return dt
  end

  def(ga, [[
min_scalar_type(a: any) -> string
The smallest dtype that holds the scalar a (a Lua number, boolean, complex
{re, im} pair, typed scalar or 0-d ndarray) as NumPy's: an integer >= 0
gives the smallest unsigned dtype, a negative one the smallest signed one,
a float float16 when |a| < 65000 (or inf, NaN), else float32 when |a| <
3.4e38. An ndarray of one or more dimensions gives its dtype. A 0-d ndarray
is read (one synchronization).
]], function(a)
    local t = type(a)
    if t == "boolean" then return "bool" end
    if math.type(a) == "integer" then return min_for("int64", a) end
    if t == "number" then return min_for("float64", a) end
    if t == "table" and not getmetatable(a) and rawlen(a) == 2 and type(rawget(a, 1)) == "number"
        and type(rawget(a, 2)) == "number" then
      return min_for("complex128", rawget(a, 1), rawget(a, 2))
    end
    if is_scalar_object(a) or (is_array(a) and a.ndim == 0) then
      local re, im = a:item()
      if type(re) == "table" then re, im = re[1], re[2] end
      return min_for(a.dtype, re, im)
    end
    if is_array(a) then return a.dtype end
    fail(("min_scalar_type: a must be a scalar (a number, a boolean, a {re, im} pair, a typed scalar) "
      .. "or an ndarray, got %s"):format(mt_name(a) or t))
  end)

  ---------------------------------------------------------------------------
  -- common_type: NumPy's scalar type for the arrays' values in a float or
  -- complex dtype: integers count as float64, the widest precision wins,
  -- complex when any is complex; no argument gives float16, as NumPy's

  local PRECISION = { float16 = 16, float32 = 32, float64 = 64, complex64 = 32, complex128 = 64 }
  local FLOAT_OF = { [16] = "float16", [32] = "float32", [64] = "float64" }
  local COMPLEX_OF = { [16] = "complex64", [32] = "complex64", [64] = "complex128" }

  def(ga, [[
common_type(...: any) -> string
The float or complex dtype the values of every argument (ndarrays or typed
scalars) fit, as NumPy's common_type: integer dtypes count as float64, the
widest precision wins, complex when any is; bool raises; no argument gives
float16.
]], function(...)
    local n = select("#", ...)
    local precision, complex = 16, false
    for i = 1, n do
      local x = select(i, ...)
      if not (is_array(x) or is_scalar_object(x)) then
        fail(("common_type: argument %d must be an ndarray or a typed scalar, got %s"):format(i,
          mt_name(x) or type(x)))
      end
      local dt = x.dtype
      local k = KIND[dt]
      if k == "b" then fail(("common_type: argument %d is a bool array: no common type for it"):format(i)) end
      local p = (k == "i" or k == "u") and 64 or PRECISION[dt]
      if p > precision then precision = p end
      complex = complex or k == "c"
    end
    return complex and COMPLEX_OF[precision] or FLOAT_OF[precision]
  end)

  ---------------------------------------------------------------------------
  -- issubdtype: NumPy's abstract types, by name, above the dtypes
  --   generic -> bool | number; number -> integer | inexact;
  --   integer -> signedinteger | unsignedinteger; inexact -> floating | complexfloating

  local PARENT = {
    number = "generic", integer = "number", inexact = "number",
    signedinteger = "integer", unsignedinteger = "integer",
    floating = "inexact", complexfloating = "inexact",
  }
  local KIND_PARENT = { b = "generic", i = "signedinteger", u = "unsignedinteger", f = "floating",
                        c = "complexfloating" }
  local ABSTRACT = { "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
                     "floating", "complexfloating" }

  -- a dtype's name or an abstract type's
  local function type_name(v, what)
    if type(v) == "string" and (PARENT[v] or v == "generic") then return v end
    local dt = dtype_name(v)
    if dt then return dt end
    fail(("issubdtype: %s must be a dtype or one of the abstract types %s, got %s"):format(what,
      table.concat(ABSTRACT, ", "), type(v) == "string" and ("%q"):format(v) or (mt_name(v) or type(v))))
  end

  def(ga, [[
issubdtype(arg1: dtype|string, arg2: dtype|string) -> boolean
Whether arg1 is arg2 or below it in NumPy's type hierarchy. Either is a
dtype or an abstract type by name: "generic" (above all), "number",
"integer", "signedinteger", "unsignedinteger", "inexact", "floating",
"complexfloating" (ga.issubdtype(x.dtype, "floating")).
]], function(arg1, arg2)
    local a, b = type_name(arg1, "arg1"), type_name(arg2, "arg2")
    while a do
      if a == b then return true end
      a = KIND[a] and KIND_PARENT[KIND[a]] or PARENT[a]
    end
    return false
  end)

  ---------------------------------------------------------------------------
  -- isdtype: NumPy 2's (the array API's kinds)

  local KINDS = {
    ["bool"] = { b = true },
    ["signed integer"] = { i = true },
    ["unsigned integer"] = { u = true },
    ["integral"] = { i = true, u = true },
    ["real floating"] = { f = true },
    ["complex floating"] = { c = true },
    ["numeric"] = { i = true, u = true, f = true, c = true },
  }

  local function is_kind(dt, kind)
    if type(kind) == "string" and KINDS[kind] then return KINDS[kind][KIND[dt]] == true end
    local other = dtype_name(kind)
    if other then return other == dt end
    if type(kind) == "string" then
      fail(("isdtype: kind %q is no dtype and none of the kind names \"bool\", \"signed integer\", "
        .. "\"unsigned integer\", \"integral\", \"real floating\", \"complex floating\", \"numeric\""):format(kind))
    end
    fail(("isdtype: kind must be a dtype, a kind name or a list of them, got %s"):format(mt_name(kind) or type(kind)))
  end

  def(ga, [[
isdtype(dtype: dtype, kind: dtype|string|list) -> boolean
Whether dtype is of kind (NumPy 2's isdtype): a dtype (the same dtype), a
kind name ("bool", "signed integer", "unsigned integer", "integral", "real
floating", "complex floating", "numeric": every one but bool), or a list
of them (any).
]], function(dtype, kind)
    local dt = dtype_name(dtype)
    if type(kind) == "table" and not getmetatable(kind) and rawget(kind, "name") == nil then
      local n = rawlen(kind)
      local any = false
      for i = 1, n do
        local k = rawget(kind, i)
        if k == nil then fail(("isdtype: kind has a hole at entry %d"):format(i)) end
        any = is_kind(dt, k) or any   -- every entry checked, as NumPy's
      end
      return any
    end
    return is_kind(dt, kind)
  end)

  ---------------------------------------------------------------------------
  -- typename and mintypecode: NumPy's type characters

  local TYPENAME = {
    S1 = "character", ["?"] = "bool", b = "signed char", B = "unsigned char", h = "short",
    H = "unsigned short", i = "integer", I = "unsigned integer", l = "long integer",
    L = "unsigned long integer", q = "long long integer", Q = "unsigned long long integer",
    f = "single precision", d = "double precision", g = "long precision", F = "complex single precision",
    D = "complex double precision", G = "complex long double precision", S = "string", U = "unicode",
    V = "void", O = "object",
  }

  def(ga, [[
typename(char: string) -> string
The description of a type character, NumPy's table: "d" is "double
precision", "F" "complex single precision", "?" "bool" (ga.dtype(name).char
gives a dtype's character; NumPy's table has none for float16's "e").
]], function(char)
    local name = TYPENAME[char]
    if not name then fail(("typename: no description for the type character %q"):format(char)) end
    return name
  end)

  -- NumPy's order of preference (larger types first; mintypecode returns
  -- the first of the candidates in it)
  local BY_SIZE = "GDFgdfQqLlIiHhBb?"

  def(ga, [[
mintypecode(typechars: string|list, typeset: string = "GDFgdf", default: string = "d") -> string
The type character of the smallest type in typeset that every type in
typechars casts to safely, as NumPy's: typechars is a string of type
characters, or a list of them and of ndarrays (their dtype's character);
default when none of them is in typeset; "D" for "F" with "d".
]], function(typechars, typeset, default)
    local codes = {}
    if type(typechars) == "string" then
      for c in typechars:gmatch(".") do codes[#codes + 1] = c end
    else
      for i = 1, rawlen(typechars) do
        local t = rawget(typechars, i)
        if is_array(t) then t = ga.dtype(t.dtype).char end
        if type(t) ~= "string" then
          fail(("mintypecode: typechars entry %d must be a type character or an ndarray, got %s"):format(i,
            mt_name(t) or type(t)))
        end
        codes[#codes + 1] = t
      end
    end
    local chosen, any = {}, false
    for _, c in ipairs(codes) do
      if #c == 1 and typeset:find(c, 1, true) then chosen[c], any = true, true end
    end
    if not any then return default end
    if chosen.F and chosen.d then return "D" end
    local best
    for c in pairs(chosen) do
      local at = BY_SIZE:find(c, 1, true)
      if not at then
        fail(("mintypecode: %q has no place in NumPy's size order %q"):format(c, BY_SIZE))
      end
      if best == nil or at < best then best = at end
    end
    return BY_SIZE:sub(best, best)
  end)
end
