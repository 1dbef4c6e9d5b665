--- Gather case (integer-array indexing): the twin of cupy_ref.py's
-- gather_f32_GBps, cp.take(x, idx, out=z[:N // 4]) with N // 4 random int64
-- indices, bytes counted as 4 (value read) + 8 (index) + 4 (write) each.
-- Our indices are 1-based; drawn uniformly from 1..N, the access pattern is
-- the same as CuPy's 0..N-1.
return function(ga, B)
  local N = B.N
  local M = N // 4
  local x = ga.random and ga.random.random(N, "float32") or ga.arange(N, "float32")
  local idx
  if ga.random and ga.random.randint then
    idx = ga.random.randint(1, N + 1, M, "int64")
  else
    local t = {}
    for i = 1, M do t[i] = math.random(1, N) end
    idx = ga.array(t, "int64")
  end
  local z = ga.empty(N, "float32")
  local out = z[{ { 1, M } }]
  local opts = { out = out }
  -- GPUARRAY_L2_FETCH_GRANULARITY (src/runtime/cuda.c) is the experiment switch for
  -- this case: say which granularity the run had
  local gran = ga._core._test.l2_fetch_granularity and ga._core._test.l2_fetch_granularity()
  io.stderr:write(("gather_f32_GBps: L2 fetch granularity %s bytes (GPUARRAY_L2_FETCH_GRANULARITY=%s)\n")
    :format(tostring(gran), os.getenv("GPUARRAY_L2_FETCH_GRANULARITY") or "unset"))
  B.case("gather_f32_GBps", function()
    return B.gbps((4 + 8 + 4) * M, function() return ga.take(x, idx, opts) end)
  end)
end
