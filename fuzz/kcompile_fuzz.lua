--- k:compile(dtype...) of ElementwiseKernel and ReductionKernel (compiled
-- ahead of any launch; NVRTC needs no GPU): any count and kind of
-- arguments. Valid combinations compile once, then come from the cache.
local function kernels(ga)
  return {
    ga.ElementwiseKernel("T x, T y", "T z", "z = x + y", "fz_add"),
    ga.ElementwiseKernel("float32 x, raw T w, int32 n", "float64 z", "z = x * w[i % n]", "fz_raw"),
    ga.ElementwiseKernel("T x", "U z", "z = (U)x", "fz_cast"),
    ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "fz_sum"),
  }
end

return {
  name = "kcompile",
  setup = function(F) return { k = kernels(F.ga) } end,
  gen = function(F)
    local args = {}
    for i = 1, math.random(0, 4) do args[i] = F.chance(0.8) and F.dtype() or F.any(1) end
    return { k = math.random(#F.state.k), args = args, n = #args }
  end,
  run = function(t, F)
    local k = F.state.k[t.k]
    return k:compile(table.unpack(t.args, 1, t.n))
  end,
}
