--- Types of the jit: the 15 dtypes (bfloat16 among them), the weak types of Lua numbers (NumPy 2's
-- weak Python scalars: a literal 2 or 0.5 takes the other operand's type),
-- array (pointer) types, and the promotion between them, which is NumPy's
-- (core.result_type: the same table the arrays use).
local core = require "gpuarray.core"
local internal = require "gpuarray.internal"

local M = {}

local CTYPE, KIND, SIZE, COMPUTE = internal.CTYPE, internal.KIND, internal.SIZE, internal.COMPUTE   -- C's dtype table
M.CTYPE, M.KIND, M.SIZE = CTYPE, KIND, SIZE

local T = {}
for name, ct in pairs(CTYPE) do
  T[name] = { name = name, ctype = ct, kind = KIND[name], size = SIZE[name] }
end
-- Lua integers and floats: weak, held as int64 / double
T.weak_int = { name = "int64", ctype = "long long", kind = "i", size = 8, weak = true }
T.weak_float = { name = "float64", ctype = "double", kind = "f", size = 8, weak = true }
T.void = { name = "void", ctype = "void", void = true }
M.T = T

function M.show(t)
  if t.array then return (t.shared and "shared " or "") .. t.elem.name .. " array" end
  if t.weak then return t.kind == "i" and "Lua integer" or "Lua float" end
  return t.name
end

local arrays = {}
--- The array type of elements of type elem (interned: types compare with ==)
function M.array(elem, shared)
  local key = elem.name .. (shared and "s" or "")
  local a = arrays[key]
  if not a then
    a = { array = true, elem = elem, shared = shared, name = elem.name .. "[]", ctype = elem.ctype .. " *" }
    arrays[key] = a
  end
  return a
end

function M.is_numeric(t) return t.kind ~= nil and not t.array end
function M.is_int(t) return t.kind == "i" or t.kind == "u" end
function M.is_float(t) return t.kind == "f" end
function M.is_complex(t) return t.kind == "c" end
--- integer-like for indexing and bitwise operators (bool is not)
function M.is_integer(t) return t.kind == "i" or t.kind == "u" end

local ORDER = { b = 1, i = 2, u = 2, f = 3, c = 4 }
local REP = { i = 0, f = 0.0, b = false }

local memo = {}
--- NumPy's promotion of two numeric types (weak ones take the other side's)
function M.promote(a, b)
  if a == b then return a end
  if a.weak and b.weak then return ORDER[a.kind] >= ORDER[b.kind] and a or b end
  local key = a.name .. (a.weak and "~" or "") .. "," .. b.name .. (b.weak and "~" or "")
  local r = memo[key]
  if r then return r end
  if a.weak then
    r = T[core.result_type(b.name, REP[a.kind])]
  elseif b.weak then
    r = T[core.result_type(a.name, REP[b.kind])]
  else
    r = T[core.result_type(a.name, b.name)]
  end
  memo[key] = r
  return r
end

--- The type a weak type stands for once it must be concrete (a declaration)
function M.concrete(t)
  if t.weak then return T[t.name] end
  return t
end

--- code (a C expression of type from) as type to
local SUFFIX = { uint32 = "u", uint64 = "ull" }   -- int32: written as is when it fits (above)

function M.conv(code, from, to)
  if from == to or from.ctype == to.ctype then return code end
  -- an integer literal converts by writing it in the other type
  local lit = from.kind == "i" and (code:match("^(%d+)LL$") or code:match("^%((%-%d+)LL%)$"))
  if lit then
    local v = math.tointeger(tonumber(lit))
    local neg = v < 0
    if to.name == "int32" and v == -2147483648 then
      return "(-2147483647 - 1)"            -- C reads -2147483648 as -(a long)
    elseif to.name == "int32" and v >= -2147483648 and v <= 2147483647 then
      return neg and "(" .. lit .. ")" or lit
    elseif SUFFIX[to.name] and not neg and v <= 4294967295 then
      return lit .. SUFFIX[to.name]
    elseif (to.name == "float32" or to.name == "float64") and v > -16777216 and v < 16777216 then
      local f = lit .. ".0" .. (to.name == "float32" and "f" or "")
      return neg and "(" .. f .. ")" or f
    end
  end
  -- complex numbers and the 16-bit floats (computed in float) convert through ga_cast
  if from.kind == "c" or to.kind == "c" or COMPUTE[from.name] ~= from.name or COMPUTE[to.name] ~= to.name then
    return ("ga_cast<%s>(%s)"):format(to.ctype, code)
  end
  return ("((%s)(%s))"):format(to.ctype, code)
end

--- The C type arithmetic of type t computes in: float16 and bfloat16 in float
function M.compute(t)
  local c = COMPUTE[t.name]
  return c and c ~= t.name and T[c] or t
end

local INF = "__longlong_as_double(0x7ff0000000000000LL)"
local NAN = "__longlong_as_double(0x7ff8000000000000LL)"

--- A Lua number or boolean as a C literal (of its weak type)
function M.literal(v)
  if type(v) == "boolean" then return v and "true" or "false" end
  if math.type(v) == "integer" then
    if v == math.mininteger then return "(-9223372036854775807LL - 1)" end
    -- typed as the int64 a Lua integer is (conv shortens it where it can)
    local s = tostring(v) .. "LL"
    return v < 0 and "(" .. s .. ")" or s
  end
  if v ~= v then return NAN end
  if v == math.huge then return INF end
  if v == -math.huge then return "(-" .. INF .. ")" end
  local s = ("%.17g"):format(v)
  if tonumber(s) ~= v then s = ("%.17g"):format(v) end
  if not s:find("[%.eEn]") then s = s .. ".0" end
  return (v < 0 or (v == 0 and 1 / v < 0)) and "(" .. s .. ")" or s
end

local RANGE = {
  int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
  int64 = { math.mininteger, math.maxinteger }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
  uint32 = { 0, 4294967295 }, uint64 = { 0, math.maxinteger },
}
--- Does the Lua integer v fit the integer type t?
function M.fits(v, t)
  local r = RANGE[t.name]
  return math.type(v) == "integer" and r ~= nil and v >= r[1] and v <= r[2]
end

--- The weak type of a Lua value (nil for anything else)
function M.of_value(v)
  if math.type(v) == "integer" then return T.weak_int end
  if math.type(v) == "float" then return T.weak_float end
  if type(v) == "boolean" then return T.bool end
  return nil
end

return M
