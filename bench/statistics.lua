--- Statistics cases of the breadth group (/work/shared/bench/KEYS.md; the
-- CuPy twins are in cupy_ref.py): median and percentile of 2^24 float32
-- (the selection path of statistics/qkernels.lua), cov and corrcoef of
-- 1024 variables x 65536 observations in float32 (one GEMM), histogram2d
-- of 2^24 points into 256 x 256 bins, nanmean of 2^26 float32 with ~1% NaN.
return function(ga, B)
  local N = B.N
  local rs = ga.random.RandomState(2024)
  local x = rs:random(N, "float32")
  local y = rs:random(N, "float32")
  local Q = 1 << 24
  local v = x[{ { 1, Q } }]
  local hy = y[{ { 1, Q } }]

  B.case("median_f32_2^24_ms", function()
    return B.gpu_ms(function() return ga.median(v) end, 10)
  end)
  B.case("percentile_f32_2^24_ms", function()
    return B.gpu_ms(function() return ga.percentile(v, { 5, 50, 95 }) end, 10)
  end)
  local V = x[{ { 1, 1024 * 65536 } }]:reshape(1024, 65536)
  B.case("cov_f32_1024x65536_ms", function()
    return B.gpu_ms(function() return ga.cov(V, { dtype = "float32" }) end, 10)
  end)
  B.case("corrcoef_f32_1024x65536_ms", function()
    return B.gpu_ms(function() return ga.corrcoef(V, { dtype = "float32" }) end, 10)
  end)
  B.case("histogram2d_f32_2^24_ms", function()
    return B.gpu_ms(function() return ga.histogram2d(v, hy, 256, { { 0, 1 }, { 0, 1 } }) end, 10)
  end)
  B.case("nanmean_f32_GBps", function()
    local xn = ga.where(x:lt(0.01), 0 / 0, x):astype("float32")
    return B.gbps(4 * N, function() return ga.nanmean(xn) end)
  end)
end
