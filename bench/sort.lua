--- Sorting, searching, sets and sparse products: the cases of
-- ../shared/bench/cupy_ref.py (more_libraries) with the same keys, measured
-- the same way (a fresh result per call, from the pool).
return function(ga, B)
  local N = B.N
  local x = ga.random.random(N, "float32")
  local y = ga.random.random(N, "float32")
  local n24 = 1 << 24
  local v = x[{ { 1, n24 } }]
  B.case("sort_f32_2^24_ms", function()
    return B.gpu_ms(function() return ga.sort(v) end, 5)
  end)
  B.case("argsort_f32_2^24_ms", function()
    return B.gpu_ms(function() return ga.argsort(v) end, 5)
  end)
  local k = (v * 1000):astype("int32")
  B.case("unique_i32_2^24_ms", function()
    return B.gpu_ms(function() return ga.unique(k) end, 5)
  end)
  local sv = ga.sort(v)
  local q = y[{ { 1, 1 << 22 } }]
  B.case("searchsorted_f32_2^22in2^24_ms", function()
    return B.gpu_ms(function() return ga.searchsorted(sv, q) end, 5)
  end)
  B.case("spmv_csr_f32_GBps", function()
    local m = 1 << 20
    local Sp = ga.sparse.random(m, m, 16 / m, { format = "csr", dtype = "float32", seed = 1 })
    local xv = x[{ { 1, m } }]
    local nnz = Sp.nnz
    return B.gbps(nnz * 8 + (m + 1) * 4 + m * 8, function() return Sp:dot(xv) end)
  end)
end
