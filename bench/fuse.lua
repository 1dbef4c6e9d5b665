--- Fusion and the jit: ga.fuse against eager chains (twins in
-- ../shared/bench/cupy_ref.py's fusion_and_graphs), and the jit's own keys
-- (ours only): a Lua saxpy kernel's bandwidth and its first compile.
--   fuse_sqdiff_f32_GBps     (a - b) * (a - b) fused, 12 bytes per element
--   chain_eager_f32_GBps     tanh(sin(x) + 0.1 * x) eagerly (four kernels), 8 bytes per element
--   chain_fused_f32_GBps     the same fused (one kernel)
--   overhead_fused_call_us   host time of the fused sqdiff on 1-element views
--   jit_saxpy_f32_GBps       a jit.rawkernel saxpy, 12 bytes per element
--   jit_compile_first_ms     a never-seen jit kernel in a fresh lua5.4 with an empty cache
--                            directory: translate, NVRTC, first launch (as compile_first_ms)
return function(ga, B)
  local N = B.N
  local x = ga.random and ga.random.random(N, "float32") or ga.arange(N, "float32")
  local y = ga.random and ga.random.random(N, "float32") or ga.arange(N, "float32")

  local sqdiff = ga.fuse(function(a, b) return (a - b) * (a - b) end, { name = "bench_fuse_sqdiff" })
  local chain = ga.fuse(function(a) return ga.tanh(ga.sin(a) + 0.1 * a) end, { name = "bench_fuse_chain" })
  B.case("fuse_sqdiff_f32_GBps", function()
    return B.gbps(12 * N, function() sqdiff(x, y) end)
  end)
  B.case("chain_eager_f32_GBps", function()
    return B.gbps(8 * N, function() ga.tanh(ga.sin(x) + 0.1 * x) end)
  end)
  B.case("chain_fused_f32_GBps", function()
    return B.gbps(8 * N, function() chain(x) end)
  end)
  local x1, y1 = x[{ { 1, 1 } }], y[{ { 1, 1 } }]
  B.case("overhead_fused_call_us", function()
    return B.host_us(function() return sqdiff(x1, y1) end)
  end)

  local jit = ga.jit
  local saxpy = jit.rawkernel(function(a, xs, ys, out, n)
    local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
    if i < n then
      out[i] = a * xs[i] + ys[i]
    end
  end, { name = "bench_jit_saxpy" })
  local out = ga.empty_like(x)
  local args = { 2.0, x, y, out, N }
  B.case("jit_saxpy_f32_GBps", function()
    return B.gbps(12 * N, function() saxpy((N + 255) // 256, 256, args) end)
  end)

  -- the first compile, in a fresh process with an empty cache directory
  local root = io.popen("pwd"):read("l")
  local dir = io.popen("mktemp -d"):read("l")
  local path = dir .. "/jit_first.lua"
  local f = assert(io.open(path, "w"))
  f:write([[
local ga = require "gpuarray"
local core = ga._core
local jit = ga.jit
local t = core._now()
local k = jit.rawkernel(function(x, y, n)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  if i < n then y[i] = x[i] * 3.25 + y[i] end
end, { name = "bench_jit_fresh" })
local a = ga.ones(4, "float32")
k(1, 32, { a, a, 4 })
core._stream_sync()
print((core._now() - t) * 1e3)
]])
  f:close()
  B.case("jit_compile_first_ms", function()
    local p = io.popen(("GPUARRAY_CACHE_DIR='%s' LUA_PATH='%s/lua/?.lua;%s/lua/?/init.lua;;' "
      .. "LUA_CPATH='%s/build/?.so;;' lua5.4 %s"):format(dir, root, root, root, path))
    local v = tonumber(p:read("a"))
    p:close()
    return assert(v, "the jit compile script failed")
  end)
  os.execute("rm -rf '" .. dir .. "'")
end
