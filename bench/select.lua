--- The select room's keys (the CuPy side is in cupy_ref.py, keys in
-- ../shared/bench/KEYS.md): take_along_axis, one gather kernel over the
-- index space (lua/gpuarray/select/along.lua). 16 bytes an output: an
-- int64 index and a float32 value read, a float32 written.
return function(ga, B)
  local M = B.M
  local k = M // 4
  local X = (ga.random and ga.random.random(M * M, "float32") or ga.arange(M * M, "float32")):reshape(M, M)
  -- 1-based positions in 1..M (NumPy's random int64 in [0, M), plus one)
  local idx
  if ga.random and ga.random.randint then
    idx = ga.random.randint(1, M + 1, { M, k }):astype("int64")
  else
    idx = ga.add(ga.remainder(ga.arange(M * k, "int64"), M), 1):reshape(M, k)
  end
  B.case("take_along_axis_f32_GBps", function()
    return B.gbps(16 * M * k, function() return ga.take_along_axis(X, idx, 2) end)
  end)
end
