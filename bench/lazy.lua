--- Lazy evaluation cases (issue 29, API.md 16; ../shared/bench/KEYS.md
-- "apps"): plain eager code that the recorder should run as few fused
-- kernels. Every case forces its result (x:eval(), or the harness's
-- per-iteration forcing, bench/run.lua): a result that is never read is
-- never computed, so a loop that dropped its results would time nothing.
--   overhead_add_lazy_us              (a1 + b1):eval() on 1-element arrays,
--                                     lazy on whatever GPUARRAY_LAZY says
--   softmax_eager_f32_8192x4096_ms    exp(S - max(S, -1, keepdims)) / sum(e, -1, keepdims)
--   logsumexp_eager_f32_8192x4096_ms  log(sum(exp(S - m), -1)) + m[:, 1], m = max(S, -1, keepdims)
--   kmeans_step_f32_2^20x16_k64_ms    one Lloyd step (distances, argmin, add.at, bincount, divide)
return function(ga, B)
  local a1, b1 = ga.ones(1, "float32"), ga.ones(1, "float32")
  B.case("overhead_add_lazy_us", function()
    local prev = ga.set_lazy(true)
    local ok, v = pcall(B.host_us, function() return (a1 + b1):eval() end)
    ga.set_lazy(prev)
    assert(ok, v)
    return v
  end)

  -- S: the first 8192 x 4096 of N uniform [0, 1) values, as cupy_ref.py's x
  local x = ga.random.random(B.N, "float32")
  local R, C = 8192, 4096
  local S = x[{ { 1, R * C } }]:reshape(R, C)
  local KEEP = { axis = -1, keepdims = true }

  local function softmax()
    local e = ga.exp(S - ga.max(S, KEEP))
    return (e / ga.sum(e, KEEP)):eval()
  end
  B.case("softmax_eager_f32_8192x4096_ms", function() return B.gpu_ms(softmax) end)

  local function logsumexp()
    local m = ga.max(S, KEEP)
    return (ga.log(ga.sum(ga.exp(S - m), { axis = -1 })) + m[{ {}, 1 }]):eval()
  end
  B.case("logsumexp_eager_f32_8192x4096_ms", function() return B.gpu_ms(logsumexp) end)

  local n, d, k = 1 << 20, 16, 64
  local P = x[{ { 1, n * d } }]:reshape(n, d)
  local C0 = P[{ { 1, k } }]:copy()          -- the first 64 points as centroids
  local function kmeans_step()
    local dist = ga.sum(P * P, { axis = 2, keepdims = true }) - 2 * ga.matmul(P, C0.T) + ga.sum(C0 * C0, { axis = 2 })
    local lab = ga.argmin(dist, { axis = 2 })  -- 1-based centroid positions
    local sums = ga.zeros({ k, d }, "float32")
    ga.add.at(sums, lab, P)
    local counts = ga.bincount(lab - 1, { minlength = k })
    return (sums / ga.maximum(counts, 1):astype("float32")[{ {}, ga.newaxis }]):eval()
  end
  B.case("kmeans_step_f32_2^20x16_k64_ms", function() return B.gpu_ms(kmeans_step, 10) end)
end
