--- Typed scalars: ga.<dtype>(v) from any value, printing, comparison and
-- their use as weak or strong operands of the dtype rules.
return {
  name = "scalar",
  gen = function(F)
    local v = F.chance(0.8) and F.number() or F.any(1)
    if F.chance(0.1) then v = { F.number(), F.number() } end
    return { dt = F.pick(F.ga.dtype_names()), v = v, other = F.any(0), op = math.random(4) }
  end,
  run = function(t, F)
    local s = F.ga[t.dt](t.v)
    if t.op == 1 then return tostring(s) end
    if t.op == 2 then return F.ga.result_type(s, t.other) end
    if t.op == 3 then return F.ga.float64(s), F.ga.int8(s) end
    return s == t.other
  end,
}
