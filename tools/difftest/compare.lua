--- The difftest's results: one entry per emitted value, {name, dtype,
-- shape = "2,3", values = {"1.5", "nan", "1:-2" (complex), ...}} or
-- {error = message}; parsed from NumPy's output or built from gpuarray's
-- arrays, then compared.
local compare = {}

-- float tolerances per dtype: |a - b| <= atol + rtol * max(|a|, |b|)
local TOL = {
  float16 = { 2e-3, 1e-2 }, float32 = { 1e-5, 1e-5 }, float64 = { 1e-9, 1e-12 },
  complex64 = { 1e-5, 1e-5 }, complex128 = { 1e-9, 1e-12 },
}

local function num_str(v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  if math.type(v) == "integer" then return tostring(v) end
  return ("%.17g"):format(v)
end

local function to_num(s)
  if s == "nan" then return 0 / 0 end
  if s == "inf" then return math.huge end
  if s == "-inf" then return -math.huge end
  return tonumber(s)
end

--- Parse "@<id>" blocks of tab-separated entries
function compare.parse_blocks(text)
  local blocks, cur = {}, nil
  for line in text:gmatch("[^\n]+") do
    local id = line:match("^@(%d+)$")
    if id then
      cur = {}
      blocks[tonumber(id)] = cur
    elseif cur then
      local err = line:match("^!error\t(.*)$")
      if err then
        cur[#cur + 1] = { error = err }
      else
        local name, dtype, shape, vals = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t?(.*)$")
        local values = {}
        for v in (vals or ""):gmatch("%S+") do values[#values + 1] = v end
        cur[#cur + 1] = { name = name, dtype = dtype, shape = shape, values = values }
      end
    end
  end
  return blocks
end

local function flatten(t, out)
  if type(t) == "table" and not (#t == 2 and type(t[1]) == "number" and type(t[2]) == "number" and t.complex) then
    for _, v in ipairs(t) do flatten(v, out) end
  else
    out[#out + 1] = t
  end
  return out
end

-- complex totables hold {re, im} pairs as the innermost level
local function mark_pairs(t, depth)
  if depth == 0 then
    t.complex = true
    return
  end
  for _, v in ipairs(t) do mark_pairs(v, depth - 1) end
end

--- An entry from a gpuarray value (an ndarray, or anything else as a failure)
function compare.lua_entry(name, v)
  local mt = getmetatable(v)
  if type(v) ~= "userdata" or not mt or mt.__name ~= "gpuarray.ndarray" then
    return { name = name, dtype = "lua " .. type(v), shape = "", values = { tostring(v) } }
  end
  local shape = v.shape
  local t = v:totable()
  local complex = v.dtype == "complex64" or v.dtype == "complex128"
  if complex then
    if #shape == 0 then t.complex = true else mark_pairs(t, #shape) end
  elseif #shape == 0 then
    t = { t }
  end
  if complex and #shape == 0 then t = { t } end
  local values = {}
  for i, x in ipairs(flatten(t, {})) do
    if type(x) == "boolean" then
      values[i] = x and "1" or "0"
    elseif type(x) == "table" then
      values[i] = num_str(x[1]) .. ":" .. num_str(x[2])
    else
      values[i] = num_str(x)
    end
  end
  return { name = name, dtype = v.dtype, shape = table.concat(shape, ","), values = values }
end

local function close(a, b, tol)
  if a == b then return true end
  if a ~= a and b ~= b then return true end
  if not tol or a ~= a or b ~= b or math.abs(a) == math.huge or math.abs(b) == math.huge then return false end
  return math.abs(a - b) <= tol[2] + tol[1] * math.max(math.abs(a), math.abs(b))
end

local function same_value(x, y, tol)
  local xr, xi = x:match("^(.-):(.*)$")
  local yr, yi = y:match("^(.-):(.*)$")
  if xr or yr then
    if not (xr and yr) then return false end
    return close(to_num(xr), to_num(yr), tol) and close(to_num(xi), to_num(yi), tol)
  end
  local a, b = to_num(x), to_num(y)
  if a == nil or b == nil then return x == y end
  return close(a, b, tol)
end

--- Do two result lists agree? Errors on both sides agree (what NumPy
-- refuses gpuarray must refuse too); returns true or false and the reason.
function compare.results(lua, py)
  if py[1] and py[1].error then
    if lua[1] and lua[1].error then return true end
    return false, "NumPy raised (" .. py[1].error .. "), gpuarray did not"
  end
  if lua[1] and lua[1].error then return false, "gpuarray raised: " .. lua[1].error end
  if #lua ~= #py then return false, ("%d results against NumPy's %d"):format(#lua, #py) end
  -- a value is as precise as the least precise one before it: the
  -- program's values derive from the earlier ones (a complex64 power taken
  -- to float64 keeps float32's rounding)
  local loose
  for i, l in ipairs(lua) do
    local p = py[i]
    if l.dtype ~= p.dtype then return false, ("%s: dtype %s, NumPy %s"):format(l.name, l.dtype, p.dtype) end
    if l.shape ~= p.shape then
      return false, ("%s: shape {%s}, NumPy {%s}"):format(l.name, l.shape, p.shape)
    end
    local tol = TOL[l.dtype]
    if tol and (not loose or tol[1] > loose[1]) then loose = tol end
    tol = tol and loose
    for k = 1, math.max(#l.values, #p.values) do
      local x, y = l.values[k], p.values[k]
      if not x or not y or not same_value(x, y, tol) then
        return false, ("%s (%s): element %d is %s, NumPy %s"):format(l.name, l.dtype, k, tostring(x), tostring(y))
      end
    end
  end
  return true
end

function compare.dump(list)
  local lines = {}
  for _, e in ipairs(list) do
    if e.error then
      lines[#lines + 1] = "  error: " .. e.error
    else
      lines[#lines + 1] = ("  %s %s {%s}: %s"):format(e.name, e.dtype, e.shape, table.concat(e.values, " "))
    end
  end
  return table.concat(lines, "\n")
end

return compare
