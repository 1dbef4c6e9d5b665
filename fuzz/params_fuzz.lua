--- The ElementwiseKernel / ReductionKernel parameter parser: mutated
-- parameter lists through core._test.parse_params and the kernel constructors
-- (which parse and check without compiling), and ReductionKernel's
-- generated source (k:_source) for the dtypes it binds.
return {
  name = "params",
  setup = function(F) return { corpus = F.corpus("params") } end,
  gen = function(F)
    local c = F.state.corpus
    local function s() return F.mutate(F.pick(c), c) end
    local r = math.random(4)
    if r == 1 then return { op = "parse", s = s() } end
    if r == 2 then return { op = "ek", a = F.args(5, function() return F.chance(0.8) and s() or F.any(1) end) } end
    return { op = "rk", a = F.args(8, function() return F.chance(0.8) and s() or F.any(1) end),
             dts = F.args(3, function() return F.dtype() end), v = F.any(1) }
  end,
  run = function(t, F)
    if t.op == "parse" then return F.core._test.parse_params(t.s) end
    if t.op == "ek" then return F.ga.ElementwiseKernel(table.unpack(t.a, 1, t.a.n)) end
    local k = F.ga.ReductionKernel(table.unpack(t.a, 1, t.a.n))
    return F.core._test.reduction_kernel_source(k, t.dts, t.v)
  end,
}
