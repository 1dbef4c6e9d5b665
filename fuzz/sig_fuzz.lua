--- The RawKernel signature parser: mutated CUDA sources through
-- core._test.sigparse / core._test.sigfind / core._test.ctype and the RawKernel
-- constructor (which reads the signature; compiling waits for a launch).
return {
  name = "sig",
  setup = function(F) return { corpus = F.corpus("sig"), names = { "k", "add", "scale<float, 4>", "&ns::f<double>",
    "f<", "<>", "", ("k"):rep(300), "g<int*, complex<float>>" } } end,
  gen = function(F)
    local c = F.state.corpus
    local src = F.mutate(F.pick(c), c)
    local name = F.chance(0.7) and F.pick(F.state.names) or F.mutate(F.pick(F.state.names), F.state.names)
    return { op = math.random(4), src = src, name = name, o = F.any(1) }
  end,
  run = function(t, F)
    if t.op == 1 then return F.core._test.sigparse(t.src) end
    if t.op == 2 then return F.core._test.sigfind(t.src, t.name) end
    if t.op == 3 then return F.core._test.ctype(t.name) end
    return F.ga.RawKernel(t.src, t.name, t.o)
  end,
}
