--- Typed scalars: ga.<dtype>(v) (and (re, im)) from any value, printing,
-- comparison, their arithmetic with any operand, their use as weak or
-- strong operands of the dtype rules, and the dtype queries on any value.
local ARITH = {
  function(a, b) return a + b end, function(a, b) return a - b end, function(a, b) return a * b end,
  function(a, b) return a / b end, function(a, b) return a // b end, function(a, b) return a % b end,
  function(a, b) return a ^ b end, function(a, b) return a & b end, function(a, b) return a | b end,
  function(a, b) return a ~ b end, function(a, b) return a << b end, function(a, b) return a >> b end,
  function(a) return -a end, function(a) return ~a end,
  function(a, b) return a < b end, function(a, b) return a <= b end, function(a, b) return a == b end,
}

return {
  name = "scalar",
  gen = function(F)
    local v = F.chance(0.8) and F.number() or F.any(1)
    if F.chance(0.1) then v = { F.number(), F.number() } end
    local other = F.chance(0.5) and F.scalar() or F.chance(0.6) and F.number() or F.any(0)
    return { dt = F.pick(F.ga.dtype_names()), v = v, im = F.chance(0.1) and F.any(0) or nil, other = other,
             op = math.random(8), arith = math.random(#ARITH), swap = F.chance(0.3),
             casting = F.chance(0.8) and F.pick({ "no", "equiv", "safe", "same_kind", "unsafe" }) or F.any(0) }
  end,
  run = function(t, F)
    local ga = F.ga
    if t.op == 8 then   -- the dtype queries on any value
      local q = t.arith % 5
      if q == 0 then return ga.finfo(t.other) end
      if q == 1 then return ga.iinfo(t.other) end
      if q == 2 then return ga.can_cast(t.other, t.dt, t.casting) end
      if q == 3 then return ga.promote_types(t.other, t.dt) end
      return ga.dtype(t.other), ga.is_ndarray(t.other)
    end
    local s = t.im ~= nil and ga[t.dt](t.v, t.im) or ga[t.dt](t.v)
    if t.op == 1 then return tostring(s) end
    if t.op == 2 then return ga.result_type(s, t.other) end
    if t.op == 3 then return ga.float64(s), ga.int8(s) end
    if t.op == 4 then return s == t.other end
    local a, b = s, t.other
    if t.swap and t.arith ~= 13 and t.arith ~= 14 then a, b = b, a end   -- (unary: the scalar's own)
    local r = ARITH[t.arith](a, b)
    if t.op == 5 then return tostring(r) end
    return r
  end,
}
