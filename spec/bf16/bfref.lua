--- CPU references for bfloat16, written apart from the module's own code
-- (src/core/dtype.c rounds through float rounded to odd; these round the
-- way the definitions say, on the bits or on the value):
--   f32(v)          v rounded to float32 (C's cast: to nearest even)
--   from_f32(v)     bfloat16 bits of the float32 value v, to nearest even
--                   on its bits (the high half, plus one when the low half
--                   is past the midpoint, or at it with the high half odd)
--   round(v)        v (any double) rounded once to bfloat16, from the value:
--                   its binade's quantum, the nearest multiple, ties to even
--   round_int(n)    the Lua integer n rounded once to bfloat16 (exactly,
--                   past 2^53 too)
--   value(b)        the number bfloat16 bits b stand for
local pack, unpack = string.pack, string.unpack

local R = {}

function R.f32(v) return (unpack("<f", pack("<f", v))) end

function R.f32_bits(v) return (unpack("<I4", pack("<f", v))) end

function R.value(b) return (unpack("<f", pack("<I4", (b & 0xffff) << 16))) end

function R.from_f32(v)
  local u = R.f32_bits(v)
  if (u >> 23) & 0xff == 0xff and u & 0x7fffff ~= 0 then return ((u >> 16) | 0x40) & 0xffff end   -- NaN
  local hi, lo = u >> 16, u & 0xffff
  if lo > 0x8000 or (lo == 0x8000 and hi & 1 == 1) then hi = hi + 1 end
  return hi & 0xffff
end

--- bfloat16's largest finite value and where rounding reaches infinity
R.MAX = (2 - 2 ^ -7) * 2 ^ 127
R.TINY = 2 ^ -126             -- the smallest normal
R.SUB = 2 ^ -133              -- the smallest subnormal

function R.round(v)
  if v ~= v or v == 0 or v == math.huge or v == -math.huge then return v end
  local a = math.abs(v)
  local e = math.floor(math.log(a, 2))
  while 2.0 ^ e > a do e = e - 1 end
  while 2.0 ^ (e + 1) <= a do e = e + 1 end
  local q = 2.0 ^ (math.max(e, -126) - 7)   -- 8 significant bits; subnormals share 2^-133
  local scaled = a / q                       -- exact: a power of two
  local fl = math.floor(scaled)
  local r = scaled - fl                      -- exact: scaled < 2^8
  if r > 0.5 or (r == 0.5 and fl % 2 == 1) then fl = fl + 1 end
  local out = fl * q
  if out > R.MAX then out = math.huge end
  return v < 0 and -out or out
end

function R.round_int(n)
  if n > -(1 << 53) and n < (1 << 53) then return R.round(n + 0.0) end
  local neg = n < 0
  local mag = neg and (0 - n) or n            -- math.mininteger stays 2^63 as unsigned bits
  local nb = 64
  while nb > 1 and (mag >> (nb - 1)) & 1 == 0 do nb = nb - 1 end
  local shift = nb - 8
  local kept, rem, half = mag >> shift, mag & ((1 << shift) - 1), 1 << (shift - 1)
  if math.ult(half, rem) or (rem == half and kept & 1 == 1) then kept = kept + 1 end
  local out = kept * 2.0 ^ shift
  return neg and -out or out
end

--- bits of the bfloat16 value v (exact: v must be one)
function R.bits(v)
  local u = R.f32_bits(v)
  assert(u & 0xffff == 0 or v ~= v, "not a bfloat16 value: " .. tostring(v))
  return u >> 16
end

--- A random finite float32 value (random bits, exponents over the whole
-- range: normal, subnormal, near overflow)
function R.random_f32()
  while true do
    local u = math.random(0, 0xffffffff)
    if (u >> 23) & 0xff ~= 0xff then return R.f32(unpack("<f", pack("<I4", u))) end
  end
end

--- A random bfloat16 value of moderate size (random sign, 8 bits of
-- mantissa, exponent in [lo, hi])
function R.random_bf16(lo, hi)
  local m = math.random(128, 255)
  local v = m * 2.0 ^ (math.random(lo or -6, hi or 6) - 7)
  return math.random(2) == 1 and -v or v
end

return R
