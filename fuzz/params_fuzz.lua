--- The ElementwiseKernel / ReductionKernel parameter parser: mutated
-- parameter lists through core._parse_params and the kernel constructors
-- (which parse and check without compiling), and ReductionKernel's
-- generated source (k:_source) for the dtypes it binds. A kernel made from
-- a string holding a NUL byte (the mutations insert them) is a finding.
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
    if t.op == "parse" then return F.core._parse_params(t.s) end
    -- a NUL byte in a string that becomes C code, a name or an option
    -- would cut it short (issue 24): a kernel made from one is a finding
    local nul = false
    for i = 1, t.a.n do nul = nul or F.has_nul(t.a[i]) or (type(t.a[i]) == "table" and F.has_nul(t.a[i].options)) end
    if t.op == "ek" then
      local k = F.ga.ElementwiseKernel(table.unpack(t.a, 1, t.a.n))
      if nul then error("fuzz: ElementwiseKernel took a NUL byte", 0) end
      return k
    end
    local k = F.ga.ReductionKernel(table.unpack(t.a, 1, t.a.n))
    if nul then error("fuzz: ReductionKernel took a NUL byte", 0) end
    return k:_source(t.dts, t.v)
  end,
}
