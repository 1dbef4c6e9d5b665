--- Kernels shared by the stream, pinned, pool and raw kernel specs: one block
-- whose first thread spins on the GPU's global timer (nanoseconds) before
-- the block writes, so a spec can keep a stream busy for a known time and
-- see whether other work waited for it.
local M = {}

M.SRC = [[
__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ void spin_block(long long ns) {
  if (threadIdx.x == 0) {
    unsigned long long t0 = now_ns();
    while ((long long)(now_ns() - t0) < ns) { }
  }
  __syncthreads();
}

// out[i] = v, after ns nanoseconds
extern "C" __global__ void spin_fill(float *out, int n, float v, long long ns) {
  spin_block(ns);
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = v;
}

// dst[i] = src[i], read after ns nanoseconds
extern "C" __global__ void spin_copy(const float *src, float *dst, int n, long long ns) {
  spin_block(ns);
  for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

// y[i] = a * x[i]
extern "C" __global__ void scale(const float *x, float *y, int n, float a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i];
}
]]

local cache
--- The kernels, compiled once per process: spin_fill, spin_copy, scale.
function M.kernels(ga)
  if not cache then
    local m = ga.RawModule(M.SRC)
    cache = {}
    for _, name in ipairs { "spin_fill", "spin_copy", "scale" } do cache[name] = m:get_function(name) end
  end
  return cache
end

M.MS = 1000000   -- nanoseconds per millisecond, for the ns arguments

--- Random float32-representable values.
function M.random_f32(n)
  local t = {}
  for i = 1, n do t[i] = (string.unpack("<f", string.pack("<f", math.random() * 200 - 100))) end
  return t
end

return M
