--- NumPy 2's pad, written in plain Lua over the specs' C-order models
-- (spec/ndref.lua): the result is made, the input copied into its middle,
-- then each axis in turn pads every line along it (over the region NumPy's
-- _view_roi gives: earlier axes whole, later axes only their original
-- part), with the 1-D rules of numpy/lib/_arraypad_impl.py, reflections
-- chunk by chunk included. Values are Lua numbers (complex not modelled).
local R = require "ndref"
local to_half = require("helper").to_half

local P = {}

-- integers in the model wrap like the dtype's
local RANGE = {
  int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
  uint8 = { 0, 255 }, uint16 = { 0, 65535 }, uint32 = { 0, 4294967295 },
}
function P.cast(v, dtype)
  if dtype == "bool" then
    if type(v) == "boolean" then return v end
    return v ~= 0
  end
  if type(v) == "boolean" then v = v and 1 or 0 end
  if dtype:find("int") then
    if math.type(v) == "float" then
      if v ~= v then return v end
      v = math.tointeger(v >= 0 and math.floor(v) or math.ceil(v)) or v
    end
    local r = RANGE[dtype]
    if r and math.type(v) == "integer" then v = (v - r[1]) % (r[2] - r[1] + 1) + r[1] end
    return v
  end
  -- NumPy computes float16 arithmetic (odd reflection's 2 * edge - x) in
  -- float16: each result rounds to the nearest half, and a long pad
  -- reflects rounded values again
  if dtype == "float16" then return to_half(v + 0.0) end
  return v + 0.0
end

local function round_half_even(x)
  local f = math.floor(x)
  local d = x - f
  if d > 0.5 then return f + 1 end
  if d < 0.5 then return f end
  return (f % 2 == 0) and f or f + 1
end

-- 1-D rules on a line (a Lua list of b + n + a values, the middle filled)
local function reflect_line(L, b, a, n, odd, include_edge, dtype)
  local len = #L
  local function sub(x, y)   -- 2 * edge - x in the dtype
    local v = type(x) == "boolean" and (x and 1 or 0) or x
    local e = type(y) == "boolean" and (y and 1 or 0) or y
    return P.cast(2 * e - v, dtype)
  end
  while b > 0 or a > 0 do
    local old = len - a - b
    local eo = include_edge and 1 or 0
    if not include_edge then old = old - 1 end
    if b > 0 then
      local chunk = math.min(old, b)
      local stop = b - eo            -- 0-based, exclusive, step -1
      local start = stop + chunk
      local src = {}
      for k = start, stop + 1, -1 do src[#src + 1] = L[k + 1] end
      local edge = L[b + 1]
      for k = 1, chunk do
        local v = src[k]
        if odd then v = sub(v, edge) end
        L[b - chunk + k] = v
      end
      b = b - chunk
    end
    if a > 0 then
      local chunk = math.min(old, a)
      local start = len - a + eo - 2   -- 0-based index of the first read
      local src = {}
      for k = 0, chunk - 1 do src[#src + 1] = L[start - k + 1] end
      local edge = L[len - a]
      for k = 1, chunk do
        local v = src[k]
        if odd then v = sub(v, edge) end
        L[len - a + k] = v
      end
      a = a - chunk
    end
  end
  return n
end

local function wrap_line(L, b, a, n0)
  local len = #L
  while b > 0 or a > 0 do
    local period = (len - a - b) // n0 * n0
    local nb, na = 0, 0
    if b > 0 then
      local e = b + period
      local s = e - math.min(period, b)
      local src = {}
      for k = s + 1, e do src[#src + 1] = L[k] end
      local first = b > period and b - period or 0
      for k = 1, #src do L[first + k] = src[k] end
      if b > period then nb = b - period end
    end
    if a > 0 then
      local s = len - a - period
      local src = {}
      for k = s + 1, s + math.min(period, a) do src[#src + 1] = L[k] end
      local first = len - a
      for k = 1, #src do L[first + k] = src[k] end
      if a > period then na = a - period end
    end
    b, a = nb, na
  end
end

local function as_num(v) return type(v) == "boolean" and (v and 1 or 0) or v end

local function stat(vals, mode)
  local n = #vals
  if mode == "maximum" or mode == "minimum" then
    local r = vals[1]
    for i = 2, n do
      local v = vals[i]
      if v ~= v or r ~= r then r = (r ~= r) and r or v
      elseif mode == "maximum" and as_num(v) > as_num(r) then r = v
      elseif mode == "minimum" and as_num(v) < as_num(r) then r = v end
    end
    return r
  end
  local nums = {}
  for i = 1, n do nums[i] = as_num(vals[i]) end
  if mode == "mean" then
    local s = 0.0
    for i = 1, n do s = s + nums[i] end
    return s / n
  end
  table.sort(nums, function(x, y) if x ~= x then return false end if y ~= y then return true end return x < y end)
  for i = 1, n do if nums[i] ~= nums[i] then return 0 / 0 end end
  if n % 2 == 1 then return nums[(n + 1) // 2] + 0.0 end
  return (nums[n // 2] + nums[n // 2 + 1]) / 2
end

local function pad_line(L, b, a, n, mode, o, dtype)
  local len = #L
  if mode == "constant" then
    for k = 1, b do L[k] = o.values[1] end
    for k = len - a + 1, len do L[k] = o.values[2] end
  elseif mode == "edge" or ((mode == "reflect" or mode == "symmetric") and n == 1) then
    for k = 1, b do L[k] = L[b + 1] end
    for k = len - a + 1, len do L[k] = L[len - a] end
  elseif mode == "reflect" or mode == "symmetric" then
    reflect_line(L, b, a, n, o.odd, mode == "symmetric", dtype)
  elseif mode == "wrap" then
    wrap_line(L, b, a, n)
  elseif mode == "linear_ramp" then
    local function ramp(edge, endv, width, left)
      local delta = as_num(edge) - endv
      local step = delta / width
      for k = 0, width - 1 do
        local y = step == 0 and (k / width) * delta or k * step
        y = y + endv
        if dtype:find("int") then y = math.floor(y) end
        local pos = left and k + 1 or len - k
        L[pos] = P.cast(y, dtype)
      end
    end
    if b > 0 then ramp(L[b + 1], o.ends[1], b, true) end
    if a > 0 then ramp(L[len - a], o.ends[2], a, false) end
  else
    local lo, hi = b + 1, len - a
    local maxlen = hi - lo + 1
    local lb = (o.lengths[1] == nil or o.lengths[1] > maxlen) and maxlen or o.lengths[1]
    local la = (o.lengths[2] == nil or o.lengths[2] > maxlen) and maxlen or o.lengths[2]
    local function s(from, count)
      local vals = {}
      for k = from, from + count - 1 do vals[#vals + 1] = L[k] end
      local v = stat(vals, mode)
      if dtype:find("int") and math.type(v) == "float" then v = round_half_even(v) end
      return P.cast(v, dtype)
    end
    local left = s(lo, lb)
    local right = (lb == maxlen and la == maxlen) and left or s(hi - la + 1, la)
    for k = 1, b do L[k] = left end
    for k = len - a + 1, len do L[k] = right end
  end
end

--- pad(A, widths, mode, o) on model A: widths[d] = {before, after};
-- o.values[d] / o.ends[d] / o.lengths[d]: pairs; o.odd; dtype for casts
function P.pad(A, widths, mode, o, dtype)
  local nd = #A.shape
  local shape = {}
  for d = 1, nd do shape[d] = A.shape[d] + widths[d][1] + widths[d][2] end
  local out = R.build(shape, function(mi)
    local src = {}
    for d = 1, nd do
      src[d] = mi[d] - widths[d][1]
      if src[d] < 1 or src[d] > A.shape[d] then return false end
    end
    return R.get(A, src)
  end)
  if mode == "empty" then return out end
  local strides = {}
  local acc = 1
  for d = nd, 1, -1 do strides[d] = acc acc = acc * shape[d] end
  for ax = 1, nd do
    local b, a = widths[ax][1], widths[ax][2]
    if b > 0 or a > 0 then
      -- every line along ax inside the region of interest
      local ranges = {}
      for d = 1, nd do
        if d == ax then ranges[d] = { 1, 1 }
        elseif d < ax then ranges[d] = { 1, shape[d] }
        else ranges[d] = { widths[d][1] + 1, widths[d][1] + A.shape[d] } end
      end
      local mi = {}
      local function walk(d)
        if d > nd then
          local base = 0
          for k = 1, nd do base = base + (mi[k] - 1) * strides[k] end
          local L = {}
          for k = 1, shape[ax] do L[k] = out.data[base + (k - 1) * strides[ax] + 1] end
          local sub = {
            values = o.values and o.values[ax], ends = o.ends and o.ends[ax],
            lengths = o.lengths and o.lengths[ax] or {}, odd = o.odd,
          }
          pad_line(L, b, a, A.shape[ax], mode, sub, dtype)
          for k = 1, shape[ax] do out.data[base + (k - 1) * strides[ax] + 1] = L[k] end
          return
        end
        for v = ranges[d][1], ranges[d][2] do
          mi[d] = v
          walk(d + 1)
        end
      end
      walk(1)
    end
  end
  return out
end

return P
