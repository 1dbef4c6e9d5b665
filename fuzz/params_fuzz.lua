--- The ElementwiseKernel / ReductionKernel parameter parser: mutated
-- parameter lists through core._test.parse_params and the kernel constructors
-- (which parse and check without compiling), and ReductionKernel's
-- generated source (k:_source) for the dtypes it binds. A kernel made from
-- a string holding a NUL byte (the mutations insert them) is a finding.
-- Does a string the constructor takes as C text hold a NUL? Only what it
-- reads: ElementwiseKernel's strings 1 to 4 and the options table (at 4,
-- else at 5); ReductionKernel's strings 1 to 7 and the table at 8; of an
-- options table, the fields that become code, names or NVRTC options
local function string_nul(F, v) return type(v) == "string" and F.has_nul(v) end
local function opts_nul(F, o, keys)
  if type(o) ~= "table" then return false end
  for _, k in ipairs(keys) do
    if string_nul(F, o[k]) or (k == "options" and type(o[k]) == "table" and F.has_nul(o[k])) then return true end
  end
  return false
end
local function ek_nul(F, a)
  for i = 1, math.min(a.n, 4) do
    if string_nul(F, a[i]) then return true end
  end
  local o = type(a[4]) == "table" and a[4] or a[5]
  return opts_nul(F, o, { "preamble", "loop_prep", "after_loop", "options" })
end
local function rk_nul(F, a)
  for i = 1, math.min(a.n, 7) do
    if string_nul(F, a[i]) then return true end
  end
  return opts_nul(F, a[8], { "preamble", "reduce_type", "options" })
end

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
    -- a NUL byte in a string that becomes C code, a name or an option
    -- would cut it short (issue 24): a kernel made from one is a finding
    local nul = t.op == "ek" and ek_nul(F, t.a) or t.op ~= "ek" and rk_nul(F, t.a)
    if t.op == "ek" then
      local k = F.ga.ElementwiseKernel(table.unpack(t.a, 1, t.a.n))
      if nul then error("fuzz: ElementwiseKernel took a NUL byte", 0) end
      return k
    end
    local k = F.ga.ReductionKernel(table.unpack(t.a, 1, t.a.n))
    if nul then error("fuzz: ReductionKernel took a NUL byte", 0) end
    return F.core._test.reduction_kernel_source(k, t.dts, t.v)
  end,
}
