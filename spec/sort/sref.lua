--- CPU references for the sort specs: NumPy's order on Lua values
-- (numbers, booleans, {re, im} pairs), stable argsort, lines along an axis.
local R = {}

local NAN = 0 / 0
R.NAN = NAN

local function isnan(v) return v ~= v end

function R.eq(a, b)
  if type(a) == "table" then return R.eq(a[1], b[1]) and R.eq(a[2], b[2]) end
  if type(a) == "number" and isnan(a) and isnan(b) then return true end
  return a == b
end

--- a before b in NumPy's order: NaN last, complex by real then imaginary
function R.lt(a, b)
  if type(a) == "table" then
    if not R.eq(a[1], b[1]) then return R.lt(a[1], b[1]) end
    return R.lt(a[2], b[2])
  end
  if type(a) == "boolean" then return (not a) and b end
  if isnan(a) then return false end
  if isnan(b) then return true end
  return a < b
end

--- 1-based indices that stably sort the list t
function R.argsort(t)
  local idx = {}
  for i = 1, #t do idx[i] = i end
  table.sort(idx, function(i, j)
    if R.lt(t[i], t[j]) then return true end
    if R.lt(t[j], t[i]) then return false end
    return i < j
  end)
  return idx
end

function R.sort(t)
  local out = {}
  for i, k in ipairs(R.argsort(t)) do out[i] = t[k] end
  return out
end

--- Random values of a dtype with many duplicates and, for floats, NaN,
-- +-inf and +-0.0
function R.gen(dt)
  if dt == "bool" then return function() return math.random(2) == 1 end end
  if dt == "int64" then
    return function()
      return math.random(4) == 1 and math.random(math.mininteger // 2, math.maxinteger // 2) or math.random(-20, 20)
    end
  end
  if dt:match("^int") then return function() return math.random(-20, 20) end end
  if dt:match("^uint") then return function() return math.random(0, 40) end end
  local function f()
    local r = math.random(12)
    if r == 1 then return NAN elseif r == 2 then return math.huge elseif r == 3 then return -math.huge
    elseif r == 4 then return -0.0 elseif r == 5 then return 0.0 end
    return math.random(-40, 40) / 4
  end
  if dt:match("^complex") then return function() return { f(), f() } end end
  return f
end

R.DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128" }

--- x's values as a flat C-order list; complex values stay {re, im} pairs
function R.flat(x)
  local out = {}
  local cplx = x.dtype:match("^complex") ~= nil
  local function walk(t)
    if type(t) ~= "table" or (cplx and type(t[1]) == "number") then
      out[#out + 1] = t
      return
    end
    for _, v in ipairs(t) do walk(v) end
  end
  walk(x:totable())
  return out
end

--- For a flat C-order list of shape, apply fn(line) -> new line to every
-- line along axis d (1-based); returns the new flat list
function R.along(flat, shape, d, fn)
  local nd = #shape
  local strides, s = {}, 1
  for i = nd, 1, -1 do strides[i] = s; s = s * shape[i] end
  local out = {}
  local total = s
  for start = 0, total - 1 do
    -- lines start where the axis coordinate is 0
    if (start // strides[d]) % shape[d] == 0 then
      local line = {}
      for k = 0, shape[d] - 1 do line[k + 1] = flat[start + k * strides[d] + 1] end
      local res = fn(line)
      for k = 0, shape[d] - 1 do out[start + k * strides[d] + 1] = res[k + 1] end
    end
  end
  return out
end

return R
