-- How fast an H100 reads: a bfloat16 sum's main pass as RawKernels (2^26
-- elements, 16-byte loads, float accumulation, one partial per block) over
-- grids, unrolls and layouts (grid-stride: a thread's vectors a grid apart;
-- chunked: each block reads its own contiguous part, as the reduction
-- engine's split rows), timed queued; against the engine's own sum; last,
-- plain loads against the read-only path
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local N = 1 << 26
local x = ga.random.random(N, "float32"):astype("bfloat16")
local part = ga.empty(4096, "float32")
local sms = ga.device_properties().multiprocessors
local function src(U, chunked, minb, plain)
  local name = ("rd_%d_%s_%d%s"):format(U, chunked and "c" or "g", minb, plain and "_p" or "")
  return name, ([[
__device__ __forceinline__ float bf_lo(unsigned w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float bf_hi(unsigned w) { return __uint_as_float(w & 0xffff0000u); }
extern "C" __global__ void __launch_bounds__(512, %d) %s(const uint4 *%s x, long long n16, float *part) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  long long i, stride, end;
  if (%d) {   // chunked
    long long per = (n16 + gridDim.x - 1) / gridDim.x;
    i = blockIdx.x * per + threadIdx.x; end = min(n16, (blockIdx.x + 1) * per); stride = blockDim.x;
  } else {
    i = (long long)blockIdx.x * blockDim.x + threadIdx.x; end = n16; stride = (long long)gridDim.x * blockDim.x;
  }
  for (; i + (%d - 1) * stride < end; i += %d * stride) {
    uint4 v[%d];
#pragma unroll
    for (int u = 0; u < %d; u++) v[u] = x[i + u * stride];
#pragma unroll
    for (int u = 0; u < %d; u++) {
      acc[0] += bf_lo(v[u].x); acc[1] += bf_hi(v[u].x); acc[2] += bf_lo(v[u].y); acc[3] += bf_hi(v[u].y);
      acc[4] += bf_lo(v[u].z); acc[5] += bf_hi(v[u].z); acc[6] += bf_lo(v[u].w); acc[7] += bf_hi(v[u].w);
    }
  }
  for (; i < end; i += stride) {
    uint4 w = x[i];
    acc[0] += bf_lo(w.x) + bf_hi(w.x) + bf_lo(w.y) + bf_hi(w.y) + bf_lo(w.z) + bf_hi(w.z) + bf_lo(w.w) + bf_hi(w.w);
  }
  float s = acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7];
  for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
  __shared__ float w[16];
  if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) { float t = 0; for (int k = 0; k < 16; k++) t += w[k]; part[blockIdx.x] = t; }
}
]]):format(minb, name, plain and "" or "__restrict__", chunked and 1 or 0, U, U, U, U, U)
end
local n16 = N // 8
print(("engine sum (bfloat16)    %7.2f us queued"):format(T.queued_us(function() return x:sum() end, 20)))
for _, chunked in ipairs { false, true } do
  for _, U in ipairs { 4, 8 } do
    for _, minb in ipairs { 2, 3, 4 } do
      local name, s = src(U, chunked, minb)
      local k = ga.RawKernel(s, name)
      for _, per in ipairs { 1, 2, 3, 4, 8 } do
        local grid = sms * per
        local us = T.queued_us(function() k(grid, 512, { x, n16, part }) end, 20)
        print(("%-8s U=%d minb=%d grid=%4d  %7.2f us  %6.0f GB/s"):format(chunked and "chunked" or "stride",
          U, minb, grid, us, 2 * N / us / 1e3))
      end
    end
  end
end
-- plain loads (ld.global, as the reduction engine's loader compiles to)
-- against the read-only path (ld.global.nc, what const __restrict__ gives
-- above), in the engine's own layout (chunked, 4 vectors, 2 blocks per SM)
-- and the fastest above, one after the other in this call
for _, c in ipairs { { 4, true, 2, 2 }, { 8, false, 2, 2 } } do
  for _, plain in ipairs { false, true } do
    local name, s = src(c[1], c[2], c[3], plain)
    local k = ga.RawKernel(s, name)
    local grid = sms * c[4]
    local us = T.queued_us(function() k(grid, 512, { x, n16, part }) end, 20)
    print(("%-8s U=%d minb=%d grid=%4d %-9s %7.2f us  %6.0f GB/s"):format(c[2] and "chunked" or "stride", c[1],
      c[3], grid, plain and "ld.global" or "ld.nc", us, 2 * N / us / 1e3))
  end
end
