--- Pinned host arrays (issue 24: totable over {2^30, 0} ran out of memory,
-- set from an empty one was memmove(NULL, NULL, 0)): every method, the
-- indexing and the metamethods of arrays from core._test.pinned_empty
-- (the same type over malloc'ed memory: no GPU), with any arguments.
-- Shapes are zero-size (any lengths) or small (at most 64 elements).
local METHODS = { "set", "fill", "totable", "tolist", "tobytes", "free" }

local function shape(F)
  if F.chance(0.5) then return F.shape(true) end
  local s = {}
  for d = 1, math.random(0, 3) do s[d] = math.random(0, 4) end
  return s
end

local function value(F, x)
  local r = math.random(8)
  if r == 1 and x then
    local ok, t = pcall(x.totable, x)
    if ok then return t end
  end
  if r == 2 and x then
    local ok, b = pcall(x.tobytes, x)
    if ok then return F.chance(0.8) and b or b .. "x" end
  end
  if r == 3 then
    local ok, y = pcall(F.core._test.pinned_empty, shape(F), F.pick(F.ga.dtype_names()))
    if ok then return y end
  end
  if r == 4 and x then return x end
  return F.any(2)
end

return {
  name = "pinned",
  gen = function(F)
    return { shape = shape(F), dtype = F.chance(0.9) and F.pick(F.ga.dtype_names()) or F.any(0),
             op = math.random(10), m = F.pick(METHODS), n = math.random(0, 2), key = F.any(1),
             seed = math.random(1 << 30) }
  end,
  run = function(t, F)
    local x = F.core._test.pinned_empty(t.shape, t.dtype)
    math.randomseed(t.seed)   -- the values below come from the input
    if t.op <= 5 then
      local args = F.args(t.n, function() return value(F, x) end)
      return x[t.m](x, table.unpack(args, 1, args.n))
    end
    if t.op == 6 then return x[t.key] end
    if t.op == 7 then x[t.key] = value(F, x) return end
    if t.op == 8 then return #x, tostring(x) end
    if t.op == 9 then
      x:free()
      return x[F.pick(METHODS)](x, value(F, nil))
    end
    -- an ndarray's get into it (zero-size ndarrays need no device)
    return F.array():get(x, value(F, x))
  end,
}
