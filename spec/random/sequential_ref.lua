--- XORWOW and MRG32k3a in Lua, seeded as lua/gpuarray/random/sequential.lua
-- seeds its device states: the reference the specs compare the device's
-- raw words with.
local R = {}
local MASK = 0xffffffff
local G = 0x9E3779B97F4A7C15

--- SplitMix64's finalizer, and its output number q after key
local function fin(z)
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end
function R.splitmix(key, q) return fin(key + q * G) end

--- The key random/bits.lua derives from seed (salt 2: XORWOW, 3: MRG32k3a)
function R.key(seed, salt) return fin(seed + G * (1 + salt)) end

local M1, M2 = 4294967087, 4294944443

--- The six state words of state t under key
function R.state(algo, key, t)
  local a, b, c = R.splitmix(key, 3 * t + 1), R.splitmix(key, 3 * t + 2), R.splitmix(key, 3 * t + 3)
  local w = { a & MASK, (a >> 32) & MASK, b & MASK, (b >> 32) & MASK, c & MASK, (c >> 32) & MASK }
  if algo == "XORWOW" then
    if w[1] | w[2] | w[3] | w[4] | w[5] == 0 then w[1] = 1 end
  else
    for j = 1, 3 do w[j] = w[j] % M1 end
    for j = 4, 6 do w[j] = w[j] % M2 end
    if w[1] | w[2] | w[3] == 0 then w[1] = 1 end
    if w[4] | w[5] | w[6] == 0 then w[4] = 1 end
  end
  return w
end

--- The next 32-bit word of state w (a list of 6 words, updated)
function R.next(algo, w)
  if algo == "XORWOW" then
    -- Marsaglia's xorwow: v = w[1..5], d = w[6]
    local x = w[1] ~ (w[1] >> 2)
    w[1], w[2], w[3], w[4] = w[2], w[3], w[4], w[5]
    w[5] = (w[5] ~ ((w[5] << 4) & MASK)) ~ (x ~ ((x << 1) & MASK))
    w[6] = (w[6] + 362437) & MASK
    return (w[5] + w[6]) & MASK
  end
  -- MRG32k3a: products below 2^53, Lua's % is already non-negative
  local p1 = (1403580 * w[2] - 810728 * w[1]) % M1
  w[1], w[2], w[3] = w[2], w[3], p1
  local p2 = (527612 * w[6] - 1370589 * w[4]) % M2
  w[4], w[5], w[6] = w[5], w[6], p2
  local z = p1 - p2
  if z <= 0 then z = z + M1 end
  R.last_z = z
  return math.floor(z * (4294967296.0 / 4294967088.0))
end

--- The first n raw words of a generator of size states from seed: element
-- k is the next word of state k % size
function R.raw(algo, seed, size, n)
  local key = R.key(seed, algo == "XORWOW" and 2 or 3)
  local states, out = {}, {}
  for k = 0, n - 1 do
    local t = k % size
    states[t] = states[t] or R.state(algo, key, t)
    out[k + 1] = R.next(algo, states[t])
  end
  return out
end

return R
