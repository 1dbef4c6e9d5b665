--- Copy engine cases: contiguous copy, cast, transposing copy.
return function(ga, B)
  local N, M = B.N, B.M
  local x = ga.random and ga.random.random(N, "float32") or ga.arange(N, "float32")
  local z = ga.empty_like(x)
  B.case("copy_f32_GBps", function()
    return B.gbps(8 * N, function() return z:set(x) end)
  end)
  local z16 = ga.empty(N, "float16")
  B.case("astype_f32_f16_GBps", function()
    return B.gbps(6 * N, function() return z16:set(x) end)
  end)
  local X = x:reshape(M, M)
  local Z = z:reshape(M, M)
  B.case("transpose_copy_f32_GBps", function()
    return B.gbps(8 * N, function() return Z:set(X.T) end)
  end)
end
