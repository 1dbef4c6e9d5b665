--- The math room's cases (issue 26, KEYS.md "breadth"): ufunc methods
-- (add.reduce on the reduction engine, add.accumulate on the scan engine,
-- add.reduceat as a segmented reduction, multiply.outer on broadcast
-- views, add.at with atomics), interp and logaddexp. Their twins are in
-- cupy_ref.py's numpy_breadth; indices are 1-based here.
return function(ga, B)
  local N, M = B.N, B.M
  local Q = 1 << 24

  local function uniform(n)
    if ga.random and ga.random.random then return ga.random.random(n, "float32") end
    return ga.arange(n, "float32") / n
  end
  local x, y = uniform(N), uniform(N)
  local z = ga.empty(N, "float32")

  B.case("logaddexp_f32_GBps", function()
    return B.gbps(12 * N, function() return ga.logaddexp(x, y, z) end)
  end)
  B.case("add_reduce_f32_GBps", function()
    return B.gbps(4 * N, function() return ga.add.reduce(x) end)
  end)
  B.case("add_accumulate_f32_GBps", function()
    return B.gbps(8 * N, function() return ga.add.accumulate(x, 1, nil, z) end)
  end)
  B.case("add_reduceat_f32_GBps", function()
    local seg = 256
    local starts = ga.arange(1, N + 1, seg, "int64")    -- NumPy's arange(0, N, 256), 1-based
    return B.gbps(4 * N + 12 * (N // seg), function() return ga.add.reduceat(x, starts) end)
  end)
  B.case("multiply_outer_f32_8192^2_GBps", function()
    local ou, ov = x[{ { 1, M } }], y[{ { 1, M } }]
    return B.gbps(4 * M * M + 8 * M, function() return ga.multiply.outer(ou, ov) end)
  end)
  B.case("add_at_f32_2^24_into_2^16_ms", function()
    local nbins = 1 << 16
    local acc = ga.zeros(nbins, "float32")
    local idx = ga.random.randint(1, nbins + 1, Q, "int64")
    local w = y[{ { 1, Q } }]
    return B.gpu_ms(function() return ga.add.at(acc, idx, w) end)
  end)
  B.case("interp_f32_2^24_ms", function()
    local xp = ga.linspace(0, 1, 4096, { dtype = "float32" })
    local fp = ga.sin(10 * xp)
    local q = y[{ { 1, Q } }]
    return B.gpu_ms(function() return ga.interp(q, xp, fp) end)
  end)
end
