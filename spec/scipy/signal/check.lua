--- Comparisons the scipy.signal specs share: numbers, complex pairs and
-- nested lists against SciPy's values with a relative tolerance, and
-- root sets (poles, zeros) whose order SciPy and we choose differently.
local C = {}

local function parts(v)
  if type(v) == "number" then return v, 0 end
  return v[1], v[2]
end
C.parts = parts

local function num_close(w, g, tol)
  local wr, wi = parts(w)
  local gr, gi = parts(g)
  if wr ~= wr then return gr ~= gr end
  local scale = math.max(1, math.abs(wr), math.abs(wi))
  return math.abs(wr - gr) <= tol * scale and math.abs(wi - gi) <= tol * scale
end

local function is_scalar(v)
  return type(v) == "number" or (type(v) == "table" and #v == 2 and type(v[1]) == "number"
    and (getmetatable(v) ~= nil or v.cx))
end

--- Nested lists of numbers / complex values, element by element. A
-- complex expected value is a {re, im} pair; got may hold host complex
-- values (with their metatable) or pairs; lists of two numbers are
-- compared as lists, which compares pairs the same way.
function C.close(want, got, tol, what)
  tol = tol or 1e-12
  what = what or "value"
  if type(want) == "number" or type(got) == "number" then
    assert(type(got) == "number" or type(got) == "table", ("%s: got %s"):format(what, type(got)))
    assert(num_close(want, got, tol), ("%s: %s, want %s"):format(what, C.str(got), C.str(want)))
    return
  end
  assert(type(got) == "table", ("%s: got %s, want a list"):format(what, type(got)))
  if is_scalar(got) and getmetatable(got) ~= nil then
    assert(num_close(want, got, tol), ("%s: %s, want %s"):format(what, C.str(got), C.str(want)))
    return
  end
  assert(#want == #got, ("%s: %d entries, want %d"):format(what, #got, #want))
  for i = 1, #want do C.close(want[i], got[i], tol, what .. "[" .. i .. "]") end
end

function C.str(v)
  if type(v) == "number" then return ("%.17g"):format(v) end
  if type(v) == "table" then
    local o = {}
    for i = 1, math.min(#v, 8) do o[i] = C.str(v[i]) end
    return "{" .. table.concat(o, ", ") .. (#v > 8 and ", ..." or "") .. "}"
  end
  return tostring(v)
end

--- Two root sets equal up to order: each expected root matched with the
-- nearest unused one
function C.roots(want, got, tol, what)
  tol = tol or 1e-9
  if type(want) == "number" then want = { want } end
  assert(#want == #got, ("%s: %d roots, want %d"):format(what, #got, #want))
  local used = {}
  for i, w in ipairs(want) do
    local wr, wi = parts(w)
    local best, bd = nil, math.huge
    for j, g in ipairs(got) do
      if not used[j] then
        local gr, gi = parts(g)
        local d = math.sqrt((gr - wr) ^ 2 + (gi - wi) ^ 2)
        if d < bd then best, bd = j, d end
      end
    end
    assert(bd <= tol * math.max(1, math.sqrt(wr * wr + wi * wi)),
      ("%s: root %d %s has no match (nearest off by %g) in %s"):format(what, i, C.str(w), bd, C.str(got)))
    used[best] = true
  end
end

--- A list of SciPy's values with its {re, im} pairs made host complex
-- values (what the host functions take)
function C.cx(list)
  local cx = require("gpuarray.scipy.signal.host.cx")
  if type(list) == "number" then return { list } end
  local out = {}
  for i, v in ipairs(list) do out[i] = type(v) == "table" and cx.new(v[1], v[2]) or v end
  return out
end

return C
