--- scipy.special cases (KEYS.md, scipy group; twins in cupy_ref.py's
-- scipy_cases): erf and gammaln into a given output (8N bytes moved),
-- softmax and logsumexp over the last axis of 8192x4096 float32 (ms).
return function(ga, B)
  if not (ga.scipy and ga.scipy.special) then return end
  local sp = ga.scipy.special
  local N = B.N
  local x = ga.random.random(N, "float32")   -- uniform [0, 1): gammaln's x in (0, 1)
  local z = ga.empty_like(x)
  B.case("erf_f32_GBps", function()
    return B.gbps(8 * N, function() return sp.erf(x, { out = z }) end)
  end)
  B.case("gammaln_f32_GBps", function()
    return B.gbps(8 * N, function() return sp.gammaln(x, { out = z }) end)
  end)
  local S = x[{ { 1, 8192 * 4096 } }]:reshape(8192, 4096)
  B.case("softmax_f32_8192x4096_ms", function()
    return B.gpu_ms(function() return sp.softmax(S, -1) end)
  end)
  B.case("logsumexp_f32_8192x4096_ms", function()
    return B.gpu_ms(function() return sp.logsumexp(S, -1) end)
  end)
end
