--- Reduction, scan and mask cases (their twins are in the CuPy twin script, cupy_ref.py, kept outside the repository):
-- host overhead of a tiny sum, full reductions, a ReductionKernel, reducing
-- the last and the first axis of an 8192 x 8192 array, cumsum, x[x > 0.5].
return function(ga, B)
  local N, M = B.N, B.M

  -- uniform [0, 1) data: ga.random when there is one, else a hash kernel
  local function uniform(n)
    if ga.random and ga.random.random then return ga.random.random(n, "float32") end
    local y = ga.empty(n, "float32")
    if ga.ElementwiseKernel then
      local k = ga.ElementwiseKernel("uint32 s", "float32 y", [[
        unsigned h = (unsigned)i * 2654435761u ^ s;
        h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
        y = (h >> 8) * (1.0f / 16777216.0f)]], "bench_uniform")
      k(ga.uint32(12345), y)
      return y
    end
    return ga.arange(n, "float32")
  end

  local a1 = ga.ones(1, "float32")
  B.case("overhead_sum_us", function()
    return B.host_us(function() return a1:sum() end, 5000)
  end)

  local x = uniform(N)
  B.case("sum_f32_GBps", function()
    return B.gbps(4 * N, function() return x:sum() end)
  end)
  local l2 = ga.ReductionKernel("float32 x", "float32 y", "x * x", "a + b", "y = sqrt(a)", "0", "bench_l2")
  B.case("l2_kernel_f32_GBps", function()
    return B.gbps(4 * N, function() return l2(x) end)
  end)
  B.case("max_f32_GBps", function()
    return B.gbps(4 * N, function() return x:max() end)
  end)
  B.case("argmax_f32_GBps", function()
    return B.gbps(4 * N, function() return x:argmax() end)
  end)
  local z = ga.empty_like(x)
  B.case("cumsum_f32_GBps", function()
    return B.gbps(8 * N, function() return ga.cumsum(x, { out = z }) end)
  end)
  local X = x:reshape(M, M)
  B.case("sum_lastaxis_f32_GBps", function()
    return B.gbps(4 * N, function() return X:sum(2) end)
  end)
  B.case("sum_firstaxis_f32_GBps", function()
    return B.gbps(4 * N, function() return X:sum(1) end)
  end)
  B.case("mask_select_f32_GBps", function()
    local mask
    if ga.greater then
      mask = ga.greater(x, 0.5)
    else
      local gt = ga.ElementwiseKernel("float32 x", "bool m", "m = x > 0.5f", "bench_gt")
      mask = gt(x)
    end
    return B.gbps(5 * N, function() return x[mask] end)
  end)
end
