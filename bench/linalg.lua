--- Linear algebra cases (the twins of ../shared/bench/cupy_ref.py's
-- "libraries" matmul lines and more_libraries' linalg lines), plus our own:
-- matmul_tf32_8192_TFLOPs, and the SVD per cuSOLVER method with its
-- relative reconstruction error on the same matrix (svd_*@<method>), which
-- is how linalg/svd.lua's default methods were chosen.
return function(ga, B)
  local N = B.N

  -- uniform [0, 1) data from ufuncs alone (fract(sin(i * a) * b), a
  -- classic hash), when ga.random is not there
  local function uniform(shape, dt)
    if ga.random and ga.random.random then return ga.random.random(shape, dt) end
    local n = 1
    for _, s in ipairs(type(shape) == "table" and shape or { shape }) do n = n * s end
    local seed = math.random() * 1000
    local x = ga.sin(ga.multiply(ga.add(ga.arange(n, "float64"), seed), 12.9898))
    x = ga.remainder(ga.multiply(x, 43758.5453), 1.0)
    return x:astype(dt):reshape(shape)
  end

  local function tflops(n, f, reps)
    return 2 * n ^ 3 / B.gpu_ms(f, reps) / 1e9
  end

  for _, n in ipairs({ 4096, 8192 }) do
    local A, Bm = uniform({ n, n }, "float32"), uniform({ n, n }, "float32")
    B.case(("matmul_f32_%d_TFLOPs"):format(n), function()
      return tflops(n, function() return ga.matmul(A, Bm) end, 10)
    end)
    local A64, B64 = A:astype("float64"), Bm:astype("float64")
    B.case(("matmul_f64_%d_TFLOPs"):format(n), function()
      return tflops(n, function() return ga.matmul(A64, B64) end, 5)
    end)
    A64, B64 = nil, nil
    local A16, B16 = A:astype("float16"), Bm:astype("float16")
    B.case(("matmul_f16_%d_TFLOPs"):format(n), function()
      return tflops(n, function() return ga.matmul(A16, B16) end, 10)
    end)
    if n == 8192 then
      B.case("matmul_tf32_8192_TFLOPs", function()
        ga.set_matmul_precision("tf32")
        local ok, v = pcall(tflops, n, function() return ga.matmul(A, Bm) end, 10)
        ga.set_matmul_precision("highest")
        if not ok then error(v, 0) end
        return v
      end)
    end
  end
  local Ab = uniform({ 256, 256, 256 }, "float32")
  B.case("matmul_batched_f32_256x256^3_TFLOPs", function()
    return 2 * 256 ^ 4 / B.gpu_ms(function() return ga.matmul(Ab, Ab) end, 10) / 1e9
  end)
  Ab = nil

  local n24 = 1 << 24
  local x, y = uniform(N, "float32"), uniform(N, "float32")
  local v, w = x[{ { 1, n24 } }], y[{ { 1, n24 } }]
  B.case("dot_f32_GBps", function() return B.gbps(8 * n24, function() return ga.dot(v, w) end) end)
  B.case("norm_f32_GBps", function() return B.gbps(4 * n24, function() return ga.linalg.norm(v) end) end)
  x:free()
  y:free()

  local A = uniform({ 1000, 1000 }, "float32")
  B.case("svd_f32_1000_ms", function() return B.gpu_ms(function() return ga.linalg.svd(A) end, 5) end)
  B.case("svd_values_f32_1000_ms", function()
    return B.gpu_ms(function() return ga.linalg.svd(A, { compute_uv = false }) end, 5)
  end)
  local A64 = A:astype("float64")
  B.case("svd_f64_1000_ms", function() return B.gpu_ms(function() return ga.linalg.svd(A64) end, 3) end)
  -- every method, timed and with its error ||U S Vh - A|| / ||A||
  for _, m in ipairs({ "gesvd", "gesvdj", "gesvdp" }) do
    for _, M in ipairs({ { A, "f32" }, { A64, "f64" } }) do
      local a = M[1]
      B.case(("svd_%s_1000_ms@%s"):format(M[2], m), function()
        return B.gpu_ms(function() return ga.linalg.svd(a, { method = m }) end, 3)
      end)
      B.case(("svd_%s_1000_relerr@%s"):format(M[2], m), function()
        local U, S, Vh = ga.linalg.svd(a, { method = m })
        local err = ga.linalg.norm(ga.subtract(ga.matmul(ga.multiply(U, S), Vh), a)):item()
        return err / ga.linalg.norm(a):item()
      end)
    end
    B.case(("svd_values_f32_1000_ms@%s"):format(m), function()
      return B.gpu_ms(function() return ga.linalg.svd(A, { compute_uv = false, method = m }) end, 3)
    end)
  end
  B.case("svd_values_f32_1000_ms@gram", function()
    return B.gpu_ms(function() return ga.linalg.svd(A, { compute_uv = false, method = "gram" }) end, 5)
  end)
  B.case("svd_values_f32_1000_maxerr@gram", function()
    local g = ga.linalg.svd(A, { compute_uv = false, method = "gram" })
    local s = ga.linalg.svd(A64, { compute_uv = false, method = "gesvd" })
    return ga.max(ga.abs(ga.subtract(g:astype("float64"), s))):item() / ga.max(s):item()
  end)
  A:free()
  A64:free()

  local n = 4096
  local S = ga.add(uniform({ n, n }, "float32"), ga.multiply(ga.eye(n, "float32"), n))
  local b = uniform({ n, 16 }, "float32")
  B.case("solve_f32_4096_ms", function() return B.gpu_ms(function() return ga.linalg.solve(S, b) end, 5) end)
  B.case("inv_f32_4096_ms", function() return B.gpu_ms(function() return ga.linalg.inv(S) end, 5) end)
  local P = ga.matmul(S, S.T)
  B.case("cholesky_f32_4096_ms", function() return B.gpu_ms(function() return ga.linalg.cholesky(P) end, 5) end)
  B.case("qr_f32_4096_ms", function() return B.gpu_ms(function() return ga.linalg.qr(S) end, 3) end)
  local H = ga.ascontiguousarray(P[{ { 1, 2048 }, { 1, 2048 } }])
  B.case("eigh_f32_2048_ms", function() return B.gpu_ms(function() return ga.linalg.eigh(H) end, 3) end)
end
