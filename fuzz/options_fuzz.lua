-- luacheck: ignore 212 (unused arguments: every call has the same signature)
--- Options tables: every function that takes one, with any table (or not a
-- table at all) for it, over zero-size arrays.
local function opts(F)
  if F.chance(0.15) then return F.any(0) end
  local keys = { "out", "dtype", "axis", "keepdims", "rtol", "atol", "equal_nan", "decimals", "copy",
                 "endpoint", "shape", "order", "where", "ddof", "kind", "stream", "shared_mem" }
  local t = {}
  for _ = 1, math.random(0, 4) do
    local k = F.pick(keys)
    local r = math.random(4)
    t[k] = r == 1 and F.array() or r == 2 and F.dtype() or r == 3 and F.int() or F.any(1)
  end
  return t
end

local CALLS = {
  function(F, x, y, o) return F.ga.isclose(x, y, o) end,
  function(F, x, y, o) return F.ga.allclose(x, y, o) end,
  function(F, x, y, o) return F.ga.array_equal(x, y, o) end,
  function(F, x, y, o) return F.ga.clip(x, F.number(), F.number(), o) end,
  function(F, x, y, o) return F.ga.where(x, x, y, o) end,
  function(F, x, _, o) return F.ga.around(x, o) end,
  function(F, x, _, o) return F.ga.around(x, F.int(), o) end,
  function(F, x, y, o) return F.ga.take(x, y, o) end,
  function(F, x, y, o) return F.ga.take(x, y, F.int(), o) end,
  function(F, x, y, o) return F.ga.concatenate({ x, y }, o) end,
  function(F, x, y, o) return F.ga.stack({ x, y }, o) end,
  function(F, x, _, o) return F.ga.sum(x, o) end,
  function(F, x, _, o) return x:sum(F.int(), o) end,
  function(F, x, _, o) return x:max(o) end,
  function(F, x, _, o) return x:var(o) end,
  function(F, x, _, o) return x:argmax(o) end,
  function(F, x, _, o) return F.ga.cumsum(x, o) end,
  function(F, x, y, o) return F.ga.add(x, y, o) end,
  function(F, x, _, o) return F.ga.sqrt(x, o) end,
  function(F, x, _, o) return x:astype("float32", o) end,
  function(F, _, _, o) return F.ga.linspace(0, 1, 0, o) end,
  function(F, _, _, o) return F.ga.array({}, o) end,
  function(F, _, _, o) return F.ga.empty(0, o) end,
  function(F, x, _, o) return F.ga.count_nonzero(x, o) end,
  function(F, x, _, o) return x:mean(o) end,
}

return {
  name = "options",
  gen = function(F)
    return { call = math.random(#CALLS), x = F.array(), y = F.chance(0.8) and F.array() or F.any(1), o = opts(F) }
  end,
  run = function(t, F) return CALLS[t.call](F, t.x, t.y, t.o) end,
}
