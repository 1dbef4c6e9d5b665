--- FFT (cuFFT, cached plans) and random numbers (Philox, one pass): the
-- cases of ../shared/bench/cupy_ref.py with the same keys, measured the
-- same way (a fresh result array per call, from the pool).
return function(ga, B)
  local N = B.N
  local x = ga.random.random(N, "float32")
  local y = ga.random.random(N, "float32")
  local n24 = 1 << 24
  local c = (x[{ { 1, n24 } }] + y[{ { 1, n24 } }] * ga.array({ 0, 1 }, "complex64")):astype("complex64")
  B.case("fft_c64_2^24_ms", function()
    return B.gpu_ms(function() return ga.fft.fft(c) end)
  end)
  local xr = x[{ { 1, n24 } }]
  B.case("rfft_f32_2^24_ms", function()
    return B.gpu_ms(function() return ga.fft.rfft(xr) end)
  end)
  local c2 = c:reshape(4096, 4096)
  B.case("fft2_c64_4096^2_ms", function()
    return B.gpu_ms(function() return ga.fft.fft2(c2) end)
  end)
  B.case("rand_f32_GBps", function()
    return B.gbps(4 * N, function() return ga.random.random(N, "float32") end)
  end)
  B.case("randn_f32_GBps", function()
    return B.gbps(4 * N, function() return ga.random.standard_normal(N, "float32") end)
  end)
  local rng = ga.random.default_rng(1234)
  B.case("rng_random_f32_GBps", function()
    return B.gbps(4 * N, function() return rng:random(N, "float32") end)
  end)
  B.case("rng_normal_f32_GBps", function()
    return B.gbps(4 * N, function() return rng:standard_normal(N, "float32") end)
  end)
  B.case("randint_i32_GBps", function()
    return B.gbps(4 * N, function() return ga.random.randint(0, 1000, N, "int32") end)
  end)
end
