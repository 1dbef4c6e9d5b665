--- Complex numbers on the host, for scipy.signal's design math (poles,
-- zeros, frequency responses of small filters). A complex value is the
-- pair {re, im} that totable() gives and ga.array() takes for complex
-- dtypes, with a metatable for arithmetic; a real value stays a Lua
-- number, so real filters never pay for complex arithmetic. Operators mix
-- the two freely (2 * z, z + 1). Pure Lua: the CPU specs use it directly.
local cx = {}

local CX = {}
CX.__index = CX

local function new(re, im)
  return setmetatable({ re, im }, CX)
end
cx.new = new
cx.I = new(0, 1)

local function is_cx(v) return getmetatable(v) == CX end
cx.is = is_cx

local function parts(v)
  if type(v) == "number" then return v, 0 end
  return v[1], v[2]
end
cx.parts = parts

function cx.re(v) return type(v) == "number" and v or v[1] end
function cx.im(v) return type(v) == "number" and 0 or v[2] end

--- v as a complex value (a pair {re, im} or a number)
function cx.from(v)
  if type(v) == "number" then return new(v, 0) end
  if is_cx(v) then return v end
  return new(v[1], v[2])
end

--- v as a Lua number when its imaginary part is exactly 0
function cx.simplify(v)
  if type(v) ~= "number" and v[2] == 0 then return v[1] end
  return v
end

CX.__add = function(a, b)
  local ar, ai = parts(a)
  local br, bi = parts(b)
  return new(ar + br, ai + bi)
end
CX.__sub = function(a, b)
  local ar, ai = parts(a)
  local br, bi = parts(b)
  return new(ar - br, ai - bi)
end
-- products and quotients as NumPy's complex loops compute them (a real
-- operand promoted to complex first), so signed zeros land where NumPy's
-- do: they choose the branch of a square root on the negative real axis
CX.__mul = function(a, b)
  local ar, ai = parts(a)
  local br, bi = parts(b)
  return new(ar * br - ai * bi, ar * bi + ai * br)
end
-- Smith's algorithm with NumPy's scaling (no overflow for large denominators)
CX.__div = function(a, b)
  local ar, ai = parts(a)
  local br, bi = parts(b)
  local abr, abi = math.abs(br), math.abs(bi)
  if abr >= abi then
    if abr == 0 and abi == 0 then return new(ar / abr, ai / abr) end
    local rat = bi / br
    local scl = 1.0 / (br + bi * rat)
    return new((ar + ai * rat) * scl, (ai - ar * rat) * scl)
  end
  local rat = br / bi
  local scl = 1.0 / (bi + br * rat)
  return new((ar * rat + ai) * scl, (ai * rat - ar) * scl)
end
CX.__unm = function(a) return new(-a[1], -a[2]) end
CX.__eq = function(a, b) return a[1] == b[1] and a[2] == b[2] end
CX.__pow = function(a, b)
  if math.type(b) == "integer" then return cx.ipow(a, b) end
  return cx.exp(cx.log(a) * b)
end
CX.__tostring = function(a) return ("(%.17g%+.17gj)"):format(a[1], a[2]) end

function cx.add(a, b) return type(a) == "number" and type(b) == "number" and a + b or CX.__add(a, b) end
function cx.sub(a, b) return type(a) == "number" and type(b) == "number" and a - b or CX.__sub(a, b) end
function cx.mul(a, b) return type(a) == "number" and type(b) == "number" and a * b or CX.__mul(a, b) end
function cx.div(a, b) return type(a) == "number" and type(b) == "number" and a / b or CX.__div(a, b) end

--- |z| without overflow (hypot)
function cx.abs(z)
  if type(z) == "number" then return math.abs(z) end
  local a, b = math.abs(z[1]), math.abs(z[2])
  if a < b then a, b = b, a end
  if a == 0 or a == math.huge then return a end
  local r = b / a
  return a * math.sqrt(1 + r * r)
end
function cx.abs2(z)
  if type(z) == "number" then return z * z end
  return z[1] * z[1] + z[2] * z[2]
end
function cx.arg(z)
  if type(z) == "number" then return z < 0 and math.pi or 0.0 end
  return math.atan(z[2], z[1])
end
function cx.conj(z)
  if type(z) == "number" then return z end
  return new(z[1], -z[2])
end
function cx.exp(z)
  if type(z) == "number" then return math.exp(z) end
  local e = math.exp(z[1])
  if z[2] == 0 then return new(e, 0) end
  return new(e * math.cos(z[2]), e * math.sin(z[2]))
end
--- e^(i t) for a real t
function cx.expi(t) return new(math.cos(t), math.sin(t)) end
function cx.log(z)
  local r, i = parts(z)
  return new(math.log(cx.abs(z)), math.atan(i, r))
end
local function copysign(m, sgn)
  if sgn > 0 or (sgn == 0 and 1 / sgn > 0) then return math.abs(m) end
  return -math.abs(m)
end
cx.copysign = copysign

--- the principal square root, C99's csqrt (the sign of a zero imaginary
-- part picks the side of the cut); a negative number's is complex
function cx.sqrt(z)
  local a, b = parts(z)
  if type(z) == "number" and a >= 0 then return math.sqrt(a) end
  if a == 0 and b == 0 then return new(0.0, b) end
  local m = cx.abs(new(a, b))
  if a >= 0 then
    local t = math.sqrt((a + m) * 0.5)
    return new(t, b / (2 * t))
  end
  local t = math.sqrt((-a + m) * 0.5)
  return new(math.abs(b) / (2 * t), copysign(t, b))
end
--- z^n for an integer n (repeated squaring)
function cx.ipow(z, n)
  if n < 0 then return cx.div(1, cx.ipow(z, -n)) end
  local r, b = 1, z
  while n > 0 do
    if n & 1 == 1 then r = cx.mul(r, b) end
    b = cx.mul(b, b)
    n = n >> 1
  end
  return r
end
function cx.sinh(z)
  if type(z) == "number" then return (math.exp(z) - math.exp(-z)) / 2 end
  return new(cx.sinh(z[1]) * math.cos(z[2]), cx.cosh(z[1]) * math.sin(z[2]))
end
function cx.cosh(z)
  if type(z) == "number" then return (math.exp(z) + math.exp(-z)) / 2 end
  return new(cx.cosh(z[1]) * math.cos(z[2]), cx.sinh(z[1]) * math.sin(z[2]))
end
function cx.is_real(z) return type(z) == "number" or z[2] == 0 end

--- Is any element of list complex (a pair with a nonzero imaginary part)?
function cx.any_complex(list)
  for _, v in ipairs(list) do
    if type(v) ~= "number" and v[2] ~= 0 then return true end
  end
  return false
end
--- Does any element hold a complex value (even with imaginary part 0)?
function cx.any_cx(list)
  for _, v in ipairs(list) do
    if type(v) ~= "number" then return true end
  end
  return false
end

--- list with complex elements whose imaginary part is 0 made numbers
function cx.real_if_close(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = cx.simplify(v) end
  return out
end

--- The real parts of a list
function cx.reals(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = cx.re(v) end
  return out
end

return cx
