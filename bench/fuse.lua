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
  -- values in [0, 1) as cupy.random.random gives (sin of a large argument
  -- takes CUDA's slow range reduction: the chain would time that instead)
  local function unit(seed)
    if ga.random then return ga.random.random(N, "float32") end
    return (ga.arange(N, "float64") * seed % 1.0):astype("float32")
  end
  local x, y = unit(0.6180339887498949), unit(0.7548776662466927)

  local sqdiff = ga.fuse(function(a, b) return (a - b) * (a - b) end, { name = "bench_fuse_sqdiff" })
  local chain = ga.fuse(function(a) return ga.tanh(ga.sin(a) + 0.1 * a) end, { name = "bench_fuse_chain" })
  B.case("fuse_sqdiff_f32_GBps", function()
    return B.gbps(12 * N, function() return sqdiff(x, y) end)
  end)
  B.case("chain_eager_f32_GBps", function()
    return B.gbps(8 * N, function() return ga.tanh(ga.sin(x) + 0.1 * x):eval() end)   -- (lazy: forced)
  end)
  B.case("chain_fused_f32_GBps", function()
    return B.gbps(8 * N, function() return chain(x) end)
  end)
  local x_1, y_1 = x[{ { 1, 1 } }], y[{ { 1, 1 } }]
  B.case("overhead_fused_call_us", function()
    return B.host_us(function() return sqdiff(x_1, y_1) end)
  end)

  -- saxpy in Lua: four elements a grid apart per thread, loaded before any
  -- store (the compiler cannot move a load above a store that may alias
  -- it), as one writes it in CUDA to keep enough bytes in flight; the
  -- one-element kernel of examples/jit_saxpy.lua reached ~80% of copy
  local jit = ga.jit
  local saxpy = jit.rawkernel(function(a, xs, ys, out, n)
    local s = jit.gridDim.x * jit.blockDim.x
    local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
    if i + 3 * s < n then
      local x0, x1, x2, x3 = xs[i], xs[i + s], xs[i + 2 * s], xs[i + 3 * s]
      local y0, y1, y2, y3 = ys[i], ys[i + s], ys[i + 2 * s], ys[i + 3 * s]
      out[i] = a * x0 + y0
      out[i + s] = a * x1 + y1
      out[i + 2 * s] = a * x2 + y2
      out[i + 3 * s] = a * x3 + y3
    else
      for k = i, n - 1, s do
        out[k] = a * xs[k] + ys[k]
      end
    end
  end, { name = "bench_jit_saxpy" })
  local out = ga.empty_like(x)
  local args = { 2.0, x, y, out, N }
  B.case("jit_saxpy_f32_GBps", function()
    return B.gbps(12 * N, function() return saxpy((N + 1023) // 1024, 256, args) end)
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
local t = core.runtime.now()
local k = jit.rawkernel(function(x, y, n)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  if i < n then y[i] = x[i] * 3.25 + y[i] end
end, { name = "bench_jit_fresh" })
local a = ga.ones(4, "float32")
k(1, 32, { a, a, 4 })
core._test.stream_sync()
print((core.runtime.now() - t) * 1e3)
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
