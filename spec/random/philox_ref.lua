--- Philox4x32-10 in Lua (Random123's definition), the reference the
-- random specs compare the device's numbers with, and SplitMix64 as
-- lua/gpuarray/random/bits.lua derives keys.
local R = {}

local M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
local MASK = 0xffffffff

--- The four output words of counter {c0, c1, c2, c3} under key {k0, k1}
function R.philox(c0, c1, c2, c3, k0, k1)
  for _ = 1, 10 do
    local p0, p1 = M0 * c0, M1 * c2          -- < 2^64: exact modulo 2^64
    local hi0, lo0 = (p0 >> 32) & MASK, p0 & MASK
    local hi1, lo1 = (p1 >> 32) & MASK, p1 & MASK
    c0, c1, c2, c3 = hi1 ~ c1 ~ k0, lo1, hi0 ~ c3 ~ k1, lo0
    k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
  end
  return c0, c1, c2, c3
end

--- The words of group g (64-bit counter offset + g, draw 0) for a 64-bit key
function R.group(key, ctr)
  return R.philox(ctr & MASK, (ctr >> 32) & MASK, 0, 0, key & MASK, (key >> 32) & MASK)
end

function R.mix(seed, salt)
  local z = seed + 0x9E3779B97F4A7C15 * (1 + (salt or 0))
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end

--- n float32 uniforms as the device makes them (4 per group)
function R.uniform_f32(key, offset, n)
  local out = {}
  for g = 0, (n + 3) // 4 - 1 do
    local w = { R.group(key, offset + g) }
    for j = 1, 4 do
      if 4 * g + j <= n then out[4 * g + j] = (w[j] >> 8) * 2.0 ^ -24 end
    end
  end
  return out
end

--- n float64 uniforms (2 per group, 53 bits from two words)
function R.uniform_f64(key, offset, n)
  local out = {}
  for g = 0, (n + 1) // 2 - 1 do
    local w = { R.group(key, offset + g) }
    for j = 1, 2 do
      local a, b = w[2 * j - 1], w[2 * j]
      if 2 * g + j <= n then out[2 * g + j] = ((a >> 5) * 67108864.0 + (b >> 6)) * 2.0 ^ -53 end
    end
  end
  return out
end

--- n integers in [lo, lo + m) for m < 2^32 (Lemire; no rejection drawn
-- when the words are accepted: the caller picks m with tiny rejection odds)
function R.integers32(key, offset, n, lo, m)
  local out = {}
  for g = 0, (n + 3) // 4 - 1 do
    local w = { R.group(key, offset + g) }
    for j = 1, 4 do
      if 4 * g + j <= n then out[4 * g + j] = lo + ((w[j] * m) >> 32) end
    end
  end
  return out
end

return R
