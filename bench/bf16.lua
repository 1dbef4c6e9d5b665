--- bfloat16 cases (API.md §17; keys and sizes as ../shared/bench/KEYS.md's
-- "bf16" group, whose references are CuPy's bfloat16 and PyTorch on the
-- same GPU): an 8192^3 matmul on tensor cores (cuBLAS, float32
-- accumulation), add of two 2^26-element arrays into a third, and their
-- sum (float32 accumulation, bfloat16 result).
return function(ga, B)
  local N = B.N

  -- uniform [0, 1) bfloat16 (ga.random draws it in float32, rounds down)
  local function uniform(shape)
    return ga.random.random(shape, "bfloat16")
  end

  local n = 8192
  local A, Bm = uniform({ n, n }), uniform({ n, n })
  B.case("matmul_bf16_8192_TFLOPs", function()
    return 2 * n ^ 3 / B.gpu_ms(function() return ga.matmul(A, Bm) end, 10) / 1e9
  end)
  A, Bm = nil, nil

  local x, y = uniform(N), uniform(N)
  local z = ga.empty_like(x)
  local out_z = { out = z }
  B.case("add_bf16_GBps", function()
    return B.gbps(6 * N, function() return ga.add(x, y, out_z) end)
  end)
  B.case("sum_bf16_GBps", function()
    return B.gbps(2 * N, function() return x:sum() end)
  end)
end
