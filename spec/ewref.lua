--- CPU references for the ufunc specs: NumPy's semantics computed in Lua
-- (integers wrap to their width, floats in double, complex numbers as
-- {re, im} with the same formulas kernels/common/math.cuh uses), input
-- generators per ufunc and dtype, and a tolerant comparison.
local helper = require "helper"

local R = {}

-------------------------------------------------------------------------------
-- dtypes
local INFO = {
  bool = { kind = "b", bits = 8 },
  int8 = { kind = "i", bits = 8 }, int16 = { kind = "i", bits = 16 },
  int32 = { kind = "i", bits = 32 }, int64 = { kind = "i", bits = 64 },
  uint8 = { kind = "u", bits = 8 }, uint16 = { kind = "u", bits = 16 },
  uint32 = { kind = "u", bits = 32 }, uint64 = { kind = "u", bits = 64 },
  float16 = { kind = "f", bits = 16 }, float32 = { kind = "f", bits = 32 }, float64 = { kind = "f", bits = 64 },
  complex64 = { kind = "c", bits = 32 }, complex128 = { kind = "c", bits = 64 },
}
R.INFO = INFO
local CHAR = { ["?"] = "bool", b = "int8", h = "int16", i = "int32", l = "int64", B = "uint8", H = "uint16",
               I = "uint32", L = "uint64", e = "float16", f = "float32", d = "float64", F = "complex64",
               D = "complex128" }
R.CHAR = CHAR

--- Wrap a Lua integer to a dtype's width (64-bit Lua arithmetic already wraps)
function R.wrap(v, dt)
  local info = INFO[dt]
  if info.bits == 64 then return v end
  local m = 1 << info.bits
  v = v & (m - 1)
  if info.kind == "i" and v >= (m >> 1) then v = v - m end
  return v
end

-------------------------------------------------------------------------------
-- real helpers
local huge, nan = math.huge, 0 / 0
local function isnan(x) return x ~= x end
local function isinf(x) return x == huge or x == -huge end
local function signbit(x) return x < 0 or (x == 0 and 1 / x < 0) end
local function copysign(a, b)
  a = math.abs(a)
  if signbit(b) then return -a end
  return a
end
local function log1p(x)
  local u = 1 + x
  if u == 1 then return x end
  return math.log(u) * x / (u - 1)
end
local function expm1(x)
  if math.abs(x) < 1e-5 then return x + x * x / 2 + x * x * x / 6 end
  return math.exp(x) - 1
end
local function hypot(x, y)
  x, y = math.abs(x), math.abs(y)
  if isinf(x) or isinf(y) then return huge end
  if x < y then x, y = y, x end
  if x == 0 then return 0.0 end
  local r = y / x
  return x * math.sqrt(1 + r * r)
end
local function sinh(x)
  if math.abs(x) < 1e-3 then return x + x * x * x / 6 end
  return (math.exp(x) - math.exp(-x)) / 2
end
local function cosh(x) return (math.exp(x) + math.exp(-x)) / 2 end
local function tanh(x)
  if math.abs(x) > 20 then return x > 0 and 1.0 or -1.0 end
  if math.abs(x) < 1e-3 then return x - x * x * x / 3 end
  local e = math.exp(2 * x)
  return (e - 1) / (e + 1)
end
local function asinh(x)
  local a = math.abs(x)
  local r = log1p(a + a * a / (1 + math.sqrt(1 + a * a)))
  return x < 0 and -r or r
end
local function acosh(x) return math.log(x + math.sqrt(x * x - 1)) end
local function atanh(x) return 0.5 * log1p(2 * x / (1 - x)) end
local function cbrt(x)
  if x == 0 or isnan(x) or isinf(x) then return x end
  local r = math.abs(x) ^ (1 / 3)
  r = r - (r * r * r - math.abs(x)) / (3 * r * r)     -- one Newton step
  return x < 0 and -r or r
end
local function rint(x)
  if isnan(x) or isinf(x) then return x end
  local f = math.floor(x)
  local d = x - f
  local r
  if d > 0.5 or (d == 0.5 and f % 2 == 1) then r = f + 1 else r = f end
  if r == 0 then return copysign(0.0, x) end
  return r + 0.0
end
local function trunc(x)
  if isnan(x) or isinf(x) then return x end
  local r = x >= 0 and math.floor(x) or math.ceil(x)
  if r == 0 then return copysign(0.0, x) end
  return r + 0.0
end
local function fmod(a, b)
  if b == 0 or isnan(a) or isnan(b) or isinf(a) then return nan end
  if isinf(b) then return a end
  return math.fmod(a, b)
end
-- NumPy's npy_divmod
local function fdivmod(a, b)
  local mod = fmod(a, b)
  if b == 0 then return a / b, mod end
  local div = (a - mod) / b
  if mod ~= 0 then
    if (b < 0) ~= (mod < 0) then
      mod = mod + b
      div = div - 1
    end
  else
    mod = copysign(0.0, b)
  end
  local fl
  if div ~= 0 then
    fl = math.floor(div)
    if div - fl > 0.5 then fl = fl + 1 end
  else
    fl = copysign(0.0, a / b)
  end
  return fl + 0.0, mod
end
R.real = { isnan = isnan, isinf = isinf, signbit = signbit, copysign = copysign, log1p = log1p,
           expm1 = expm1, hypot = hypot, fdivmod = fdivmod, rint = rint }

-------------------------------------------------------------------------------
-- complex numbers {re, im}
local C = {}
local function cx(re, im) return { re + 0.0, im + 0.0 } end
function C.add(a, b) return cx(a[1] + b[1], a[2] + b[2]) end
function C.sub(a, b) return cx(a[1] - b[1], a[2] - b[2]) end
function C.mul(a, b) return cx(a[1] * b[1] - a[2] * b[2], a[1] * b[2] + a[2] * b[1]) end
function C.div(a, b)
  local abr, abi = math.abs(b[1]), math.abs(b[2])
  if abr >= abi then
    if abr == 0 and abi == 0 then return cx(a[1] / abr, a[2] / abi) end
    local rat = b[2] / b[1]
    local scl = 1.0 / (b[1] + b[2] * rat)
    return cx((a[1] + a[2] * rat) * scl, (a[2] - a[1] * rat) * scl)
  end
  local rat = b[1] / b[2]
  local scl = 1.0 / (b[2] + b[1] * rat)
  return cx((a[1] * rat + a[2]) * scl, (a[2] * rat - a[1]) * scl)
end
function C.abs(z) return hypot(z[1], z[2]) end
function C.exp(z)
  if z[2] == 0 then return cx(math.exp(z[1]), z[2]) end
  local e = math.exp(z[1])
  return cx(e * math.cos(z[2]), e * math.sin(z[2]))
end
function C.log(z) return cx(math.log(hypot(z[1], z[2])), math.atan(z[2], z[1])) end
function C.sqrt(z)
  local x, y = z[1], z[2]
  if x == 0 and y == 0 then return cx(0, y) end
  local t = math.sqrt(0.5 * (math.abs(x) + hypot(x, y)))
  if x >= 0 then return cx(t, y / (2 * t)) end
  return cx(math.abs(y) / (2 * t), copysign(t, y))
end
function C.sin(z) return cx(math.sin(z[1]) * cosh(z[2]), math.cos(z[1]) * sinh(z[2])) end
function C.cos(z) return cx(math.cos(z[1]) * cosh(z[2]), -math.sin(z[1]) * sinh(z[2])) end
function C.sinh(z) return cx(sinh(z[1]) * math.cos(z[2]), cosh(z[1]) * math.sin(z[2])) end
function C.cosh(z) return cx(cosh(z[1]) * math.cos(z[2]), sinh(z[1]) * math.sin(z[2])) end
function C.tanh(z)
  local x, y = z[1], z[2]
  local t = math.tan(y)
  local beta = 1 + t * t
  local s = sinh(x)
  local rho = math.sqrt(1 + s * s)
  local den = 1 + beta * s * s
  return cx(beta * rho * s / den, t / den)
end
function C.tan(z)
  local r = C.tanh({ -z[2], z[1] })
  return cx(r[2], -r[1])
end
function C.asin(z)
  local s1, s2 = C.sqrt({ 1 - z[1], -z[2] }), C.sqrt({ 1 + z[1], z[2] })
  return cx(math.atan(z[1], s1[1] * s2[1] - s1[2] * s2[2]), asinh(s1[1] * s2[2] - s1[2] * s2[1]))
end
function C.acos(z)
  local s1, s2 = C.sqrt({ 1 - z[1], -z[2] }), C.sqrt({ 1 + z[1], z[2] })
  return cx(2 * math.atan(s1[1], s2[1]), asinh(s2[1] * s1[2] - s2[2] * s1[1]))
end
function C.asinh(z)
  local r = C.asin({ -z[2], z[1] })
  return cx(r[2], -r[1])
end
function C.acosh(z)
  local s1, s2 = C.sqrt({ z[1] - 1, z[2] }), C.sqrt({ z[1] + 1, z[2] })
  return cx(asinh(s1[1] * s2[1] + s1[2] * s2[2]), 2 * math.atan(s1[2], s2[1]))
end
function C.atanh(z)
  local a, b = C.log({ 1 + z[1], z[2] }), C.log({ 1 - z[1], -z[2] })
  return cx(0.5 * (a[1] - b[1]), 0.5 * (a[2] - b[2]))
end
function C.atan(z)
  local r = C.atanh({ -z[2], z[1] })
  return cx(r[2], -r[1])
end
function C.pow(a, b)
  if b[1] == 0 and b[2] == 0 then return cx(1, 0) end
  if a[1] == 0 and a[2] == 0 then
    if b[1] > 0 and b[2] == 0 then return cx(0, 0) end
    return cx(nan, nan)
  end
  if b[2] == 0 and b[1] > -100 and b[1] < 100 and b[1] == math.floor(b[1]) then
    local n = math.tointeger(b[1])
    local m = math.abs(n)
    local r, p = cx(1, 0), a
    while m > 0 do
      if m & 1 == 1 then r = C.mul(r, p) end
      m = m >> 1
      if m > 0 then p = C.mul(p, p) end
    end
    if n < 0 then return C.div(cx(1, 0), r) end
    return r
  end
  return C.exp(C.mul(C.log(a), b))
end
function C.sign(z)
  if z[1] == 0 and z[2] == 0 then return cx(0, 0) end
  local m = C.abs(z)
  return cx(z[1] / m, z[2] / m)
end
function C.expm1(z)
  local a = math.sin(0.5 * z[2])
  return cx(expm1(z[1]) * math.cos(z[2]) - 2 * a * a, math.exp(z[1]) * math.sin(z[2]))
end
function C.log1p(z)
  local x, y = z[1] + 1, z[2]
  return cx(math.log(hypot(x, y)), math.atan(y, x))
end
local LN2, LOG2E, LOG10E = 0.6931471805599453, 1.4426950408889634, 0.4342944819032518
function C.exp2(z) return C.exp({ z[1] * LN2, z[2] * LN2 }) end
function C.log2(z)
  local l = C.log(z)
  return cx(l[1] * LOG2E, l[2] * LOG2E)
end
function C.log10(z)
  local l = C.log(z)
  return cx(l[1] * LOG10E, l[2] * LOG10E)
end
function C.lt(a, b)
  return (a[1] < b[1] and a[2] == a[2] and b[2] == b[2]) or (a[1] == b[1] and a[2] < b[2])
end
function C.le(a, b)
  return (a[1] < b[1] and a[2] == a[2] and b[2] == b[2]) or (a[1] == b[1] and a[2] <= b[2])
end
R.C = C

-------------------------------------------------------------------------------
-- integer helpers with NumPy's semantics (a, b already of the dtype)
local function imin(dt) return INFO[dt].kind == "i" and -(1 << (INFO[dt].bits - 1)) or 0 end
local function ifloordiv(a, b, dt)
  if b == 0 then return 0 end
  if b == -1 then return R.wrap(-a, dt) end
  return a // b
end
local function iremainder(a, b)
  if b == 0 or b == -1 then return 0 end
  return a % b
end
local function ifmod(a, b)
  if b == 0 or b == -1 then return 0 end
  return math.fmod(a, b)
end
local function ipow(a, b, dt)
  if b < 0 then
    if a == 1 then return 1 end
    if a == -1 then return (b % 2 == 1) and -1 or 1 end
    return 0
  end
  local r = 1
  for _ = 1, b do r = R.wrap(r * a, dt) end
  return r
end
local function lshift(a, b, dt)
  local bits = INFO[dt].bits
  if b < 0 or b >= bits then return 0 end
  return R.wrap(a << b, dt)
end
local function rshift(a, b, dt)
  local bits = INFO[dt].bits
  if b < 0 or b >= bits then return (INFO[dt].kind == "i" and a < 0) and -1 or 0 end
  if INFO[dt].kind == "i" then
    local r = a >> b                           -- logical in Lua: make it arithmetic
    if a < 0 and b > 0 then r = r | ~((-1) >> b) end
    return r
  end
  return a >> b
end
local function truth(v)
  if type(v) == "table" then return v[1] ~= 0 or v[2] ~= 0 end
  if type(v) == "boolean" then return v end
  return v ~= 0
end
local function num(v)     -- bools as numbers
  if type(v) == "boolean" then return v and 1 or 0 end
  return v
end

-------------------------------------------------------------------------------
-- the references: f(a, b, dt) with dt the loop's input dtype name
local F = {}
local function kind(dt) return INFO[dt].kind end
local function is_c(dt) return kind(dt) == "c" end
local function is_int(dt) return kind(dt) == "i" or kind(dt) == "u" end

F.negative = function(a, _, dt)
  if is_c(dt) then return cx(-a[1], -a[2]) end
  if is_int(dt) then return R.wrap(-a, dt) end
  return -a
end
F.positive = function(a) return a end
F.abs = function(a, _, dt)
  if is_c(dt) then return C.abs(a) end
  if dt == "bool" then return a end
  if is_int(dt) then return R.wrap(a < 0 and -a or a, dt) end
  return math.abs(a)
end
F.sign = function(a, _, dt)
  if is_c(dt) then return C.sign(a) end
  if isnan(a) then return a end
  if a > 0 then return is_int(dt) and 1 or 1.0 end
  if a < 0 then return is_int(dt) and -1 or -1.0 end
  return is_int(dt) and 0 or 0.0
end
F.square = function(a, _, dt)
  if is_c(dt) then return C.mul(a, a) end
  if is_int(dt) then return R.wrap(a * a, dt) end
  return a * a
end
F.reciprocal = function(a, _, dt)
  if is_c(dt) then return C.div(cx(1, 0), a) end
  if is_int(dt) then return (a == 1 or a == -1) and a or 0 end
  return 1 / a
end
F.conj = function(a, _, dt)
  if is_c(dt) then return cx(a[1], -a[2]) end
  return a
end
F.real = function(a, _, dt)
  if is_c(dt) then return a[1] end
  return a
end
F.imag = function(a, _, dt)
  if is_c(dt) then return a[2] end
  if dt == "bool" then return false end
  if is_int(dt) then return 0 end
  return 0.0
end
F.angle = function(a, _, dt)
  if is_c(dt) then return math.atan(a[2], a[1]) end
  return math.atan(0.0, a)
end
local UNARY = {
  sqrt = { math.sqrt, C.sqrt }, exp = { math.exp, C.exp }, exp2 = { function(x) return 2.0 ^ x end, C.exp2 },
  expm1 = { expm1, C.expm1 }, log = { math.log, C.log }, log2 = { function(x) return math.log(x, 2) end, C.log2 },
  log10 = { function(x) return math.log(x, 10) end, C.log10 }, log1p = { log1p, C.log1p },
  sin = { math.sin, C.sin }, cos = { math.cos, C.cos }, tan = { math.tan, C.tan },
  arcsin = { math.asin, C.asin }, arccos = { math.acos, C.acos }, arctan = { math.atan, C.atan },
  sinh = { sinh, C.sinh }, cosh = { cosh, C.cosh }, tanh = { tanh, C.tanh },
  arcsinh = { asinh, C.asinh }, arccosh = { acosh, C.acosh }, arctanh = { atanh, C.atanh },
  cbrt = { cbrt }, deg2rad = { function(x) return x * (math.pi / 180) end },
  rad2deg = { function(x) return x * (180 / math.pi) end }, floor = { function(x) return math.floor(x) + 0.0 end },
  ceil = { function(x) return math.ceil(x) + 0.0 end }, trunc = { trunc }, rint = { rint },
}
-- NumPy 2 keeps integer and bool dtypes for these: the value is unchanged
local KEEPS_INT = { floor = true, ceil = true, trunc = true }
for name, fs in pairs(UNARY) do
  F[name] = function(a, _, dt)
    if KEEPS_INT[name] and (dt == "bool" or is_int(dt)) then return a end
    if is_c(dt) then return fs[2](a) end
    return fs[1](a)
  end
end
F.isnan = function(a, _, dt)
  if is_c(dt) then return isnan(a[1]) or isnan(a[2]) end
  return type(a) == "number" and isnan(a)
end
F.isinf = function(a, _, dt)
  if is_c(dt) then return isinf(a[1]) or isinf(a[2]) end
  return type(a) == "number" and math.type(a) == "float" and isinf(a)
end
F.isfinite = function(a, _, dt)
  if is_c(dt) then return not (isnan(a[1]) or isnan(a[2]) or isinf(a[1]) or isinf(a[2])) end
  if type(a) ~= "number" or math.type(a) == "integer" then return true end
  return not (isnan(a) or isinf(a))
end
F.signbit = function(a) return signbit(a) end
F.logical_not = function(a) return not truth(a) end
F.invert = function(a, _, dt)
  if dt == "bool" then return not a end
  return R.wrap(~a, dt)
end

F.add = function(a, b, dt)
  if is_c(dt) then return C.add(a, b) end
  if dt == "bool" then return a or b end
  if is_int(dt) then return R.wrap(a + b, dt) end
  return a + b
end
F.subtract = function(a, b, dt)
  if is_c(dt) then return C.sub(a, b) end
  if is_int(dt) then return R.wrap(a - b, dt) end
  return a - b
end
F.multiply = function(a, b, dt)
  if is_c(dt) then return C.mul(a, b) end
  if dt == "bool" then return a and b end
  if is_int(dt) then return R.wrap(a * b, dt) end
  return a * b
end
F.divide = function(a, b, dt)
  if is_c(dt) then return C.div(a, b) end
  return num(a) / num(b)
end
F.floor_divide = function(a, b, dt)
  if is_int(dt) then return ifloordiv(a, b, dt) end
  return (fdivmod(a, b))
end
F.remainder = function(a, b, dt)
  if is_int(dt) then return iremainder(a, b) end
  if b == 0 then return nan end
  local _, m = fdivmod(a, b)
  return m
end
F.fmod = function(a, b, dt)
  if is_int(dt) then return ifmod(a, b) end
  return fmod(a, b)
end
F.power = function(a, b, dt)
  if is_c(dt) then return C.pow(a, b) end
  if is_int(dt) then return ipow(a, b, dt) end
  return a ^ b
end
-- complex values order lexicographically (real, then imaginary), as NumPy;
-- a complex value with a NaN part counts as NaN
local function cnan(a) return isnan(a[1]) or isnan(a[2]) end
local function cge(a, b) return a[1] > b[1] or (a[1] == b[1] and a[2] >= b[2]) end
local function cle(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] <= b[2]) end
local function cmp_max(a, b)
  if type(a) == "boolean" then return a or b end
  if type(a) == "table" then
    if cnan(a) then return a elseif cnan(b) then return b end
    return cge(a, b) and a or b
  end
  return (a >= b or isnan(a)) and a or b
end
local function cmp_min(a, b)
  if type(a) == "boolean" then return a and b end
  if type(a) == "table" then
    if cnan(a) then return a elseif cnan(b) then return b end
    return cle(a, b) and a or b
  end
  return (a <= b or isnan(a)) and a or b
end
F.maximum = cmp_max
F.minimum = cmp_min
F.fmax = function(a, b)
  if type(a) == "boolean" then return a or b end
  if type(a) == "table" then
    if cnan(b) then return a elseif cnan(a) then return b end
    return cge(a, b) and a or b
  end
  return (a >= b or isnan(b)) and a or b
end
F.fmin = function(a, b)
  if type(a) == "boolean" then return a and b end
  if type(a) == "table" then
    if cnan(b) then return a elseif cnan(a) then return b end
    return cle(a, b) and a or b
  end
  return (a <= b or isnan(b)) and a or b
end
F.arctan2 = function(a, b) return math.atan(a, b) end
F.hypot = function(a, b) return hypot(a, b) end
F.copysign = function(a, b) return copysign(a, b) end
F.logical_and = function(a, b) return truth(a) and truth(b) end
F.logical_or = function(a, b) return truth(a) or truth(b) end
F.logical_xor = function(a, b) return truth(a) ~= truth(b) end
F.bitwise_and = function(a, b, dt) if dt == "bool" then return a and b end return a & b end
F.bitwise_or = function(a, b, dt) if dt == "bool" then return a or b end return a | b end
F.bitwise_xor = function(a, b, dt) if dt == "bool" then return a ~= b end return a ~ b end
F.left_shift = function(a, b, dt) return lshift(a, b, dt) end
F.right_shift = function(a, b, dt) return rshift(a, b, dt) end
local function ceq(a, b, dt)
  if is_c(dt) then return a[1] == b[1] and a[2] == b[2] end
  return a == b
end
F.equal = ceq
F.not_equal = function(a, b, dt) return not ceq(a, b, dt) end
local function lt(a, b, dt)
  if is_c(dt) then return C.lt(a, b) end
  return num(a) < num(b)
end
local function le(a, b, dt)
  if is_c(dt) then return C.le(a, b) end
  return num(a) <= num(b)
end
F.less = lt
F.less_equal = le
F.greater = function(a, b, dt) return lt(b, a, dt) end
F.greater_equal = function(a, b, dt) return le(b, a, dt) end

-- the rest of NumPy's math ufuncs

-- float16 bits of a value float16 represents exactly, and back
local function half_bits(x)
  local sign = (x < 0 or (x == 0 and 1 / x < 0)) and 0x8000 or 0
  local a = math.abs(x)
  if a == huge then return sign | 0x7c00 end
  if a < 2 ^ -14 then return sign | math.floor(a * 2 ^ 24) end
  local e = math.floor(math.log(a, 2))
  while 2.0 ^ e > a do e = e - 1 end
  while 2.0 ^ (e + 1) <= a do e = e + 1 end
  return sign | ((e + 15) << 10) | math.floor((a / 2.0 ^ e - 1) * 1024)
end
local function half_value(h)
  local sign = (h & 0x8000) ~= 0 and -1 or 1
  local e, m = (h >> 10) & 0x1f, h & 0x3ff
  if e == 31 then return m == 0 and sign * huge or nan end
  if e == 0 then return sign * m * 2.0 ^ -24 end
  return sign * (1 + m / 1024) * 2.0 ^ (e - 15)
end
R.half_bits, R.half_value = half_bits, half_value
F.fabs = function(a) return math.abs(num(a)) + 0.0 end
F.fix = F.trunc
local function bessel_i0(x)      -- the power series: plenty of terms for |x| <= 20
  local t, s, q = 1.0, 1.0, x * x / 4
  for k = 1, 200 do
    t = t * q / (k * k)
    s = s + t
    if t < s * 1e-17 then break end
  end
  return s
end
F.i0 = function(a) return bessel_i0(num(a) + 0.0) end
F.sinc = function(a, _, dt)
  if is_c(dt) then
    if a[1] == 0 and a[2] == 0 then return cx(1, 0) end
    local y = cx(math.pi * a[1], math.pi * a[2])
    return C.div(C.sin(y), y)
  end
  a = num(a) + 0.0
  if a == 0 then return 1.0 end
  if dt == "float32" or dt == "float16" then
    -- NumPy computes a float32 (float16) array's sinc in that precision:
    -- y = pi x rounded, then sin(y) / y; near the integers the rounding of
    -- y moves the result by far more than the comparison's tolerance
    local rnd = R.round
    local y = rnd(rnd(math.pi, dt) * a, dt)
    return rnd(rnd(math.sin(y), dt) / y, dt)
  end
  return math.sin(math.pi * a) / (math.pi * a)
end
F.rsqrt = function(a, _, dt)
  if is_c(dt) then return C.div(cx(1, 0), C.sqrt(a)) end
  return 1 / math.sqrt(a)
end
local function logaddexp(a, b)
  if a == b then return a + LN2 end
  local d = a - b
  if d > 0 then return a + log1p(math.exp(-d)) end
  if d <= 0 then return b + log1p(math.exp(d)) end
  return d
end
F.logaddexp = logaddexp
F.logaddexp2 = function(a, b)
  if a == b then return a + 1 end
  return logaddexp(a * LN2, b * LN2) / LN2
end
F.heaviside = function(a, b)
  if isnan(a) then return a end
  if a == 0 then return b end
  return a < 0 and 0.0 or 1.0
end
-- the neighbour of a toward b in dtype dt's own grid
F.nextafter = function(a, b, dt)
  if isnan(a) or isnan(b) then return nan end
  if a == b then return b end
  local fmt = dt == "float32" and "f" or "d"
  if dt == "float16" then
    local h = half_bits(a)
    if a == 0 then h = (b < 0 and 0x8000 or 0) | 1
    elseif (a < b) == (a > 0) then h = h + 1 else h = h - 1 end
    return half_value(h)
  end
  local ifmt = fmt == "f" and "<i4" or "<i8"
  local bits = string.unpack(ifmt, string.pack("<" .. fmt, a))
  if a == 0 then
    bits = 1
    local tiny = string.unpack("<" .. fmt, string.pack(ifmt, bits))
    return b < 0 and -tiny or tiny
  end
  if (a < b) == (a > 0) then bits = bits + 1 else bits = bits - 1 end
  return (string.unpack("<" .. fmt, string.pack(ifmt, bits)))
end
local function igcd(a, b)
  a, b = math.abs(a), math.abs(b)
  while a ~= 0 do a, b = b % a, a end
  return b
end
F.gcd = function(a, b, dt) return R.wrap(igcd(a, b), dt) end
-- NumPy's: |a| / g * |b| on magnitudes, then wrapped to the dtype (an
-- int8 lcm of 100 and -7 is 700 mod 256 = -68)
F.lcm = function(a, b, dt)
  local g = igcd(a, b)
  if g == 0 then return 0 end
  return R.wrap(math.abs(a) // g * math.abs(b), dt)
end
F.float_power = function(a, b, dt)
  if is_c(dt) then return C.pow(a, b) end
  return num(a) ^ num(b)
end
R.F = F
R.imin = imin

-------------------------------------------------------------------------------
-- inputs: random values of a dtype in a ufunc's domain
local function uniform(lo, hi) return lo + (hi - lo) * math.random() end
local function int_range(dt, small)
  local info = INFO[dt]
  if small and info.bits < 64 then     -- the small range, within the dtype's
    small = math.min(small, info.kind == "u" and (1 << info.bits) - 1 or (1 << (info.bits - 1)) - 1)
  end
  if small then
    if info.kind == "u" then return 0, small end
    return -small, small
  end
  if info.kind == "u" then
    return 0, info.bits == 64 and (1 << 62) or (1 << info.bits) - 1
  end
  if info.bits == 64 then return math.mininteger, math.maxinteger end
  return -(1 << (info.bits - 1)), (1 << (info.bits - 1)) - 1
end
-- per ufunc: {real range for argument 1, argument 2} or a special generator
local DOMAIN = {
  sqrt = { 0.01, 10 }, log = { 0.01, 10 }, log2 = { 0.01, 10 }, log10 = { 0.01, 10 },
  log1p = { -0.9, 10 }, arcsin = { -0.99, 0.99 }, arccos = { -0.99, 0.99 }, arctanh = { -0.95, 0.95 },
  arccosh = { 1.05, 10 }, exp = { -8, 8 }, exp2 = { -10, 10 }, expm1 = { -5, 5 }, sinh = { -5, 5 },
  cosh = { -5, 5 }, reciprocal = { 0.1, 10, signed = true }, power = { 0.2, 4, -3, 3 },
  float_power = { 0.2, 4, -3, 3 }, rsqrt = { 0.01, 10 }, i0 = { -10, 10 }, sinc = { -4, 4 },
  logaddexp = { -20, 20 }, logaddexp2 = { -20, 20 }, heaviside = { -2, 2, -2, 2 },
  divide = { -10, 10, 0.1, 10, signed2 = true }, tan = { -1.4, 1.4 },
}
local INT_SMALL = { multiply = 100, square = 100, power = 5, lcm = 1000, sinc = 8, i0 = 10 }

--- n random inputs for argument `arg` (1 or 2) of ufunc `name` in dtype dt
function R.inputs(name, arg, dt, n)
  local info = INFO[dt]
  local out = {}
  local d = DOMAIN[name] or { -10, 10 }
  local lo, hi = d[1], d[2]
  if arg == 2 and d[3] then lo, hi = d[3], d[4] end
  for i = 1, n do
    local v
    if info.kind == "b" then
      v = math.random() < 0.5
    elseif info.kind == "i" or info.kind == "u" then
      if name == "power" and arg == 2 then
        v = math.random(0, info.kind == "u" and 6 or 6)
      elseif (name == "left_shift" or name == "right_shift") and arg == 2 then
        v = math.random(0, info.bits + 2)
      elseif name == "floor_divide" or name == "remainder" or name == "fmod" then
        local a, b = int_range(dt, arg == 2 and 12 or nil)
        v = math.random(a, b)
      else
        v = math.random(int_range(dt, INT_SMALL[name]))
      end
    elseif info.kind == "f" then
      v = uniform(lo, hi)
      if d.signed and math.random() < 0.5 then v = -v end
      if d.signed2 and arg == 2 and math.random() < 0.5 then v = -v end
    else
      local s = (name == "exp" or name == "sinh" or name == "cosh" or name == "exp2") and 3 or 2
      if name == "power" and arg == 2 then v = { uniform(-2, 2), uniform(-1, 1) }
      else v = { uniform(-s, s), uniform(-s, s) } end
      if i == 1 and name == "power" and arg == 2 then v = { 3.0, 0.0 } end   -- the integer exponent path
    end
    out[i] = v
  end
  return out
end

-------------------------------------------------------------------------------
-- comparison
local function round(v, dt)
  if type(v) ~= "number" or math.type(v) == "integer" then return v end
  if dt == "float16" then return helper.to_half(v) end
  if dt == "float32" or dt == "complex64" then return helper.to_f32(v) end
  return v
end
R.round = round

R.RTOL = { float16 = 1e-3, float32 = 1e-6, float64 = 1e-12, complex64 = 1e-6, complex128 = 1e-12 }

--- Is got close to the reference want for a result of dtype dt?
-- Floats: |got - want| <= rtol * max(|got|, |want|, scale / 16 for
-- results that cancel: a result near 0 from inputs of size scale carries
-- an absolute error of a few ulps of scale, as NumPy's computes in the
-- dtype too, e.g. float32 logaddexp2(-0.6005, -1.5781) = x + log2(1 +
-- 2^(y - x)) is off by 3e-8 (0.25 ulp of 0.59) in a result of 0.008);
-- complex numbers: by components, relative to |z|.
function R.close(want, got, dt, scale)
  local info = INFO[dt]
  if info.kind == "c" then
    local m = math.max(hypot(want[1], want[2]), hypot(got[1], got[2]))
    local rtol = R.RTOL[dt]
    for k = 1, 2 do
      local a, b = round(want[k], dt), got[k]
      if not (a == b or (isnan(a) and isnan(b)) or math.abs(a - b) <= rtol * m + 1e-300) then return false end
    end
    return true
  end
  if dt == "uint64" and math.type(want) == "integer" and want < 0 then
    want = (want >> 11) * 2048.0 + (want & 2047)        -- the unsigned value, as ga_pushvalue rounds it
  end
  if info.kind ~= "f" then return want == got end
  local a, b = round(want, dt), got
  if a == b or (isnan(a) and isnan(b)) then return true end
  if isnan(a) or isnan(b) or isinf(a) or isinf(b) then return false end
  local m = math.max(math.abs(a), math.abs(b), (scale or 0) / 16)
  return math.abs(a - b) <= R.RTOL[dt] * m
end

return R
