--- The manipulation room's keys (the CuPy side is in cupy_ref.py, keys in
-- ../shared/bench/KEYS.md): pad with reflect, one gather kernel over the
-- result (lua/gpuarray/manipulation/pad_gather.lua), whose bar is 85% of
-- copy_f32_GBps in the same run.
return function(ga, B)
  local s, p = 4096, 32
  local A = ga.random and ga.random.random({ s, s }, "float32") or ga.arange(s * s, "float32"):reshape(s, s)
  B.case("pad_reflect_f32_4096^2_GBps", function()
    return B.gbps(4 * (s * s + (s + 2 * p) ^ 2), function() return ga.pad(A, p, "reflect") end)
  end)
end
