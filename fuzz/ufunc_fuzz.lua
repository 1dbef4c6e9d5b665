--- ufuncs, operators, reductions, the ufunc methods and the math room's
-- functions on zero-size arrays (the host code: dispatch, broadcasting,
-- casting, output allocation) with any operands.
local F_is_array = require("gpuarray.internal").is_array

local UNARY = { "abs", "negative", "sqrt", "exp", "sin", "isnan", "logical_not", "invert", "sign", "conj",
                "real", "imag", "rint", "square" }
local BINARY = { "add", "subtract", "multiply", "divide", "power", "maximum", "fmod", "bitwise_and",
                 "left_shift", "equal", "less", "logical_and", "arctan2", "floor_divide", "hypot" }
local REDUCE = { "sum", "prod", "max", "min", "amax", "mean", "var", "std", "argmax", "argmin", "all",
                 "any", "nansum", "ptp", "count_nonzero", "cumsum", "cumprod", "nanprod", "nancumsum",
                 "nancumprod" }
-- the math room (issue 26): more ufuncs, the ufunc methods, the functions
local MORE_UNARY = { "fabs", "fix", "sinc", "i0", "rsqrt", "positive", "nan_to_num", "real_if_close", "frexp",
                     "modf", "ediff1d", "gradient", "unwrap", "cumulative_sum", "trapezoid" }
local MORE_BINARY = { "logaddexp", "logaddexp2", "heaviside", "nextafter", "gcd", "lcm", "float_power", "ldexp",
                      "divmod", "convolve", "cross" }
local METHOD_UFUNCS = { "add", "multiply", "maximum", "minimum", "subtract", "logical_and", "gcd", "logaddexp",
                        "bitwise_xor", "divide", "equal", "sin" }
local METHODS = { "reduce", "accumulate", "reduceat", "outer", "at" }
local OPS = {
  function(a, b) return a + b end, function(a, b) return a - b end, function(a, b) return a * b end,
  function(a, b) return a / b end, function(a, b) return a // b end, function(a, b) return a % b end,
  function(a, b) return a ^ b end, function(a, b) return a & b end, function(a, b) return a << b end,
  function(a, b) return -(F_is_array(a) and a or b) end, function(a, b) return ~(F_is_array(a) and a or b) end,
  function(a, b) return a == b end,
  function(a, b) return a < b end,
}

local function operand(F)
  local r = math.random(10)
  if r <= 6 then return F.array() end
  if r <= 8 then return F.number() end
  if r == 9 then return F.scalar() end
  return F.any(1)
end

return {
  name = "ufunc",
  gen = function(F)
    local r = math.random(6)
    if r == 5 then
      -- a method of a ufunc, with zero-size arrays, 0-d ones and anything
      local u, m = F.pick(METHOD_UFUNCS), F.pick(METHODS)
      return { u = u, m = m, args = F.args(math.random(1, 5), function()
        local q = math.random(6)
        if q <= 3 then return F.array() end
        if q == 4 then return F.int() end
        if q == 5 then return { F.int(), F.int() } end
        return F.any(1)
      end) }
    end
    if r == 6 then
      local f = F.chance(0.5) and F.pick(MORE_UNARY) or F.pick(MORE_BINARY)
      return { f = f, args = F.args(math.random(1, 4), function() return operand(F) end) }
    end
    if r == 1 then return { f = F.pick(UNARY), args = F.args(math.random(1, 3), function() return operand(F) end) } end
    if r == 2 then return { f = F.pick(BINARY), args = F.args(math.random(2, 4), function() return operand(F) end) } end
    if r == 3 then
      return { f = F.pick(REDUCE), args = { n = 3, F.array(), F.chance(0.7) and F.int() or F.any(1), F.any(1) } }
    end
    -- operators: an ndarray on one side (Lua's own arithmetic otherwise)
    local a, b = F.array(), operand(F)
    if F.chance(0.5) then a, b = b, a end
    return { op = math.random(#OPS), a = a, b = b }
  end,
  run = function(t, F)
    if t.op then return OPS[t.op](t.a, t.b) end
    if t.m then return F.ga[t.u][t.m](table.unpack(t.args, 1, t.args.n)) end
    return F.ga[t.f](table.unpack(t.args, 1, t.args.n))
  end,
}
