--- Index keys: x[key] and x[key] = v on zero-size arrays, and the view
-- computation alone (core._test.index_view) over any shape and strides.
local function selector(F)
  local r = math.random(10)
  if r <= 3 then return F.int() end
  if r <= 7 then
    local t = {}
    for i = 1, 3 do if F.chance(0.6) then t[i] = F.chance(0.9) and F.int() or F.any(0) end end
    return t
  end
  if r == 8 then return F.pick({ F.ga.newaxis, F.ga.ellipsis }) end
  return F.any(1)
end

local function key(F)
  if F.chance(0.2) then return selector(F) end
  local t = {}
  for i = 1, F.chance(0.05) and math.random(0, 70) or math.random(0, 5) do t[i] = selector(F) end
  return t
end

return {
  name = "index",
  gen = function(F)
    local r = math.random(3)
    if r == 1 then return { op = "get", x = F.array(), key = key(F) } end
    if r == 2 then return { op = "set", x = F.array(), key = key(F), v = F.any(1) } end
    local shape, strides = F.shape(false), {}
    for d = 1, #shape do strides[d] = F.chance(0.8) and 8 * math.random(-4, 4) or F.int() end
    return { op = "view", shape = shape, strides = strides, key = key(F) }
  end,
  run = function(t, F)
    if t.op == "get" then return t.x[t.key] end
    if t.op == "set" then t.x[t.key] = t.v return end
    return F.core._test.index_view(t.shape, t.strides, 8, t.key)
  end,
}
