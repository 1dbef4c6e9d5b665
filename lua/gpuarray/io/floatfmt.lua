--- Decimal text of binary floats, as NumPy's Dragon4 gives it (printing,
-- format_float_positional/scientific, savetxt's "%r"): the shortest digits
-- that read back to the same float16/bfloat16/float32/float64 ("unique"), or the
-- exactly rounded digits of the binary value (C's printf, which rounds
-- exactly on glibc). Host-side Lua, no device.
local M = {}

local pack, unpack = string.pack, string.unpack

-- v rounded to float16 (round half to even, subnormals, overflow to inf)
local function to_f16(v)
  if v ~= v or v == 0 or v == math.huge or v == -math.huge then return v end
  local a = math.abs(v)
  if a >= 65520 then return v > 0 and math.huge or -math.huge end
  -- a = m * 2^e with 0.5 <= m < 1
  local e = math.floor(math.log(a, 2)) + 1
  if a / 2 ^ e >= 1 then e = e + 1 elseif a / 2 ^ e < 0.5 then e = e - 1 end
  local q = math.max(e - 11, -24)     -- the quantum: 11 significant bits, subnormals at 2^-24
  local scaled = a / 2 ^ q
  local fl = math.floor(scaled)
  local r = scaled - fl
  if r > 0.5 or (r == 0.5 and fl % 2 == 1) then fl = fl + 1 end
  local out = fl * 2 ^ q
  return v < 0 and -out or out
end
M.to_f16 = to_f16

local function to_f32(v)
  return (unpack("<f", pack("<f", v)))
end

-- v rounded to bfloat16 once, as src/core/dtype.c does it: to float rounded
-- to odd (toward zero, the last bit set when anything was cut), then to
-- nearest even on float's upper 16 bits
local function to_bf16(v)
  if v ~= v or v == math.huge or v == -math.huge then return v end
  local u = unpack("<I4", pack("<f", v))
  local f = unpack("<f", pack("<I4", u))
  if f ~= v then
    if math.abs(f) > math.abs(v) then u = u - 1 end   -- sign and magnitude: one step toward zero
    u = u | 1
  end
  u = (u + 0x7fff + ((u >> 16) & 1)) >> 16
  return (unpack("<f", pack("<I4", (u & 0xffff) << 16)))
end
M.to_bf16 = to_bf16

local ROUND = { float16 = to_f16, bfloat16 = to_bf16, float32 = to_f32, complex64 = to_f32 }

--- v as the given precision ("float16", "bfloat16", "float32", else float64)
function M.round_to(v, dtype)
  local r = ROUND[dtype]
  return r and r(v) or v
end

local function same(s, v, dtype)
  return M.round_to(tonumber(s), dtype) == v
end

--- The shortest significant digits of finite v > 0 that read back to v in
-- dtype: digits (a string, no trailing zeros) and the decimal exponent e
-- (v ~ 0.d1d2d3... * 10^e)
function M.shortest(v, dtype)
  for p = 0, 16 do
    local s = ("%." .. p .. "e"):format(v)
    if same(s, v, dtype) then
      local mant, ex = s:match("^([%d%.]+)e([-+]%d+)$")
      local digits = mant:gsub("%.", ""):gsub("0+$", "")
      if digits == "" then digits = "0" end
      return digits, tonumber(ex) + 1
    end
  end
  local s = ("%.16e"):format(v)
  local mant, ex = s:match("^([%d%.]+)e([-+]%d+)$")
  return (mant:gsub("%.", ""):gsub("0+$", "")), tonumber(ex) + 1
end

-- digits d (string) with exponent e -> integer part, fraction part
local function split_positional(d, e)
  if e <= 0 then return "0", ("0"):rep(-e) .. d end
  if e >= #d then return d .. ("0"):rep(e - #d), "" end
  return d:sub(1, e), d:sub(e + 1)
end

-- exact digits of v with p fraction digits (printf rounds exactly)
local function fixed(v, p)
  local s = ("%." .. p .. "f"):format(v)
  local i, f = s:match("^(%d+)%.?(%d*)$")
  return i, f
end

local function sci_exact(v, p)
  local s = ("%." .. p .. "e"):format(v)
  local mant, ex = s:match("^([%d%.]+)e([-+]%d+)$")
  local i, f = mant:match("^(%d)%.?(%d*)$")
  return i, f, tonumber(ex)
end

-- the trailing zeros of a fraction removed as trim says: k keeps zeros
-- and the point; . trims zeros, keeps the point; 0 trims zeros but keeps
-- one; - trims zeros and the point
local function trimmed(ip, fp, trim)
  if trim == "k" then return ip .. "." .. fp end
  local t = fp:gsub("0+$", "")
  if trim == "." then return ip .. "." .. t end
  if trim == "0" then return ip .. "." .. (t == "" and "0" or t) end
  return t == "" and ip or (ip .. "." .. t)
end

-- the exact digits come from C's printf through string.format, which takes
-- at most 99 digits ("invalid conversion specification" past it); paddings
-- past 2^24 spaces would be no string ("resulting string too large")
local MAX_DIGITS, MAX_PAD = 99, 1 << 24
local function check_digits(fname, o)
  if o.precision and o.precision < 0 then error(("gpuarray: %s: precision must be non-negative"):format(fname), 0) end
  for _, k in ipairs({ "precision", "min_digits" }) do
    if o[k] and o[k] > MAX_DIGITS then
      error(("gpuarray: %s: %s = %d is more than the %d digits given here"):format(fname, k, o[k], MAX_DIGITS), 0)
    end
  end
  for _, k in ipairs({ "pad_left", "pad_right", "exp_digits" }) do
    if o[k] and o[k] > MAX_PAD then
      error(("gpuarray: %s: %s = %d is more than %d characters"):format(fname, k, o[k], MAX_PAD), 0)
    end
  end
  if o.min_digits and o.precision and o.precision > 0 and o.min_digits > o.precision then
    error(("gpuarray: %s: min_digits must be less than or equal to precision"):format(fname), 0)
  end
end

-- Dragon4 cut at a digit limit drops the zeros that rounding up carried
-- into (5.97 at one digit is "6.", not "6.0") but keeps zeros that are
-- digits of the value (0.30000000000000004 at eight is "0.30000000"):
-- fp, rounded, against the truncated digits long of the same places
local function drop_carry_zeros(fp, long)
  local k = #fp
  while k > 0 and fp:sub(k, k) == "0" and long:sub(k, k) == "9" do k = k - 1 end
  return fp:sub(1, k)
end

--- NumPy's format_float_positional for a finite or special v.
-- o: precision, unique, fractional, trim, sign, pad_left, pad_right,
-- min_digits, dtype
function M.positional(v, o)
  local dtype = o.dtype or "float64"
  local fractional = o.fractional ~= false
  check_digits("format_float_positional", o)
  if not fractional and o.precision == 0 then
    error("gpuarray: format_float_positional: precision must be greater than 0 if fractional=False", 0)
  end
  if o.unique == false and o.precision == nil then
    error("gpuarray: format_float_positional: precision must be given when unique is false", 0)
  end
  if v ~= v then return M.pad((o.sign and "+" or "") .. "nan", o) end
  if v == math.huge or v == -math.huge then
    return M.pad((v < 0 and "-" or (o.sign and "+" or "")) .. "inf", o)
  end
  local neg = v < 0 or (v == 0 and 1 / v < 0)
  local a = math.abs(v)
  local precision, min_digits = o.precision, o.min_digits or 0
  -- n digits of the exact value: n fraction digits, or n significant ones
  local function gen(n)
    if fractional or a == 0 then return fixed(a, fractional and n or math.max(n - 1, 0)) end
    local s = ("%." .. math.max(n - 1, 0) .. "e"):format(a)
    local mant, ex = s:match("^([%d%.]+)e([-+]%d+)$")
    return split_positional(mant:gsub("%.", ""), tonumber(ex) + 1)
  end
  local function count(ip, fp)
    if fractional then return #fp end
    local all = (ip .. fp):gsub("^0+", "")
    return #all
  end
  local ip, fp
  if o.unique ~= false then
    if a == 0 then
      ip, fp = "0", ""
    else
      local d, e = M.shortest(a, dtype)
      ip, fp = split_positional(d, e)
      if not fractional then fp = fp:gsub("0+$", "") end
      if precision and (fractional and #fp or #d) > precision then
        -- the cutoff comes first: its digits stay (trim may drop zeros)
        local _, long = gen(math.min(precision + 30, MAX_DIGITS))
        ip, fp = gen(precision)
        fp = drop_carry_zeros(fp, long:sub(1, precision))
      elseif fractional and o.min_digits and e > #d then
        -- with min_digits given, the integer digits are the exact ones
        ip, fp = gen(min_digits)
      end
    end
    if min_digits > count(ip, fp) then
      -- more digits of the exact value, up to precision; zeros past it
      if precision and min_digits > precision then
        ip, fp = gen(precision)
        fp = fp .. ("0"):rep(min_digits - count(ip, fp))
      else
        ip, fp = gen(min_digits)
      end
    end
  else
    ip, fp = gen(precision)
  end
  local body = (neg and "-" or (o.sign and "+" or "")) .. trimmed(ip, fp, o.trim or "k")
  return M.pad(body, o)
end

-- pad_left/pad_right: spaces before the point / after it
function M.pad(s, o)
  if o.pad_left then
    local point = s:find("%.") or s:find("e") or (#s + 1)
    local left = point - 1
    if left < o.pad_left then s = (" "):rep(o.pad_left - left) .. s end
  end
  if o.pad_right then
    local point = s:find("%.")
    -- without a point (trim "-") its place counts as one more
    local right = point and (#s - point) or -1
    if right < o.pad_right then s = s .. (" "):rep(o.pad_right - right) end
  end
  return s
end

--- NumPy's format_float_scientific. o: precision, unique, trim, sign,
-- pad_left, exp_digits, min_digits, dtype
function M.scientific(v, o)
  local dtype = o.dtype or "float64"
  check_digits("format_float_scientific", o)
  if o.unique == false and o.precision == nil then
    error("gpuarray: format_float_scientific: precision must be given when unique is false", 0)
  end
  if v ~= v then return M.pad((o.sign and "+" or "") .. "nan", { pad_left = o.pad_left }) end
  if v == math.huge or v == -math.huge then
    return M.pad((v < 0 and "-" or (o.sign and "+" or "")) .. "inf", { pad_left = o.pad_left })
  end
  local neg = v < 0 or (v == 0 and 1 / v < 0)
  local a = math.abs(v)
  local precision, min_digits = o.precision, o.min_digits or 0
  local ip, fp, ex
  if o.unique ~= false then
    if a == 0 then
      ip, fp, ex = "0", "", 0
    else
      local d, e = M.shortest(a, dtype)
      ip, fp, ex = d:sub(1, 1), d:sub(2), e - 1
      if precision and #fp > precision then
        local _, long = sci_exact(a, math.min(precision + 30, MAX_DIGITS))
        ip, fp, ex = sci_exact(a, precision)
        fp = drop_carry_zeros(fp, long:sub(1, precision))
      end
    end
    if #fp < min_digits then
      if precision and min_digits > precision then
        ip, fp, ex = sci_exact(a, precision)
        fp = fp .. ("0"):rep(min_digits - #fp)
      else
        ip, fp, ex = sci_exact(a, min_digits)
      end
    end
  else
    ip, fp, ex = sci_exact(a, precision)
  end
  -- Dragon4 keeps the point under trim "-" when min_digits is given
  local trim = o.trim or "k"
  if trim == "-" and o.min_digits and precision ~= 0 and a ~= 0 then trim = "." end
  local body = trimmed(ip, fp, trim)
  local ed = o.exp_digits or 2
  local es = tostring(math.abs(ex))
  if #es < ed then es = ("0"):rep(ed - #es) .. es end
  body = (neg and "-" or (o.sign and "+" or "")) .. body .. "e" .. (ex < 0 and "-" or "+") .. es
  return M.pad(body, { pad_left = o.pad_left })
end

--- Python's repr of a float (shortest digits; scientific below 1e-4 and
-- from 1e16), of the given precision's shortest digits
function M.repr(v, dtype)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  if v == 0 then return (1 / v < 0) and "-0.0" or "0.0" end
  local d, e = M.shortest(math.abs(v), dtype)
  local sign = v < 0 and "-" or ""
  local ex = e - 1
  if ex < -4 or ex >= 16 then
    local m = d:sub(1, 1) .. (#d > 1 and ("." .. d:sub(2)) or "")
    return ("%s%se%s%02d"):format(sign, m, ex < 0 and "-" or "+", math.abs(ex))
  end
  local ip, fp = split_positional(d, e)
  return sign .. ip .. "." .. (fp == "" and "0" or fp)
end

return M
