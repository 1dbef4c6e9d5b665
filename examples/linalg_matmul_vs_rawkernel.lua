--- The seed's exercise 2: a hand-written tiled matrix multiply as a
-- RawKernel against ga.matmul (cuBLAS), on the same 2048 x 2048 float32
-- matrices; prints both times and checks the results agree.
--   lua5.4 examples/linalg_matmul_vs_rawkernel.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local TILE = 16
local tiled = ga.RawKernel([[
#define TILE 16
extern "C" __global__ void tiled_matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = (row < n && t + threadIdx.x < n) ? A[row * n + t + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < n) ? B[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}
]], "tiled_matmul")

local n = 2048
local idx = ga.arange(n * n, "float64")
local A = ga.cos(ga.multiply(idx, 0.37)):astype("float32"):reshape(n, n)
local B = ga.sin(ga.multiply(idx, 0.11)):astype("float32"):reshape(n, n)
local C = ga.empty({ n, n }, "float32")
local grid = { (n + TILE - 1) // TILE, (n + TILE - 1) // TILE }

local function time_ms(f, reps)
  f()
  local start, stop = ga.Event(), ga.Event()
  start:record()
  for _ = 1, reps do f() end
  stop:record()
  stop:synchronize()
  return ga.get_elapsed_time(start, stop) / reps
end

local raw_ms = time_ms(function() tiled(grid, { TILE, TILE }, { A, B, C, ga.int32(n) }) end, 10)
local D
local blas_ms = time_ms(function() D = ga.matmul(A, B) end, 10)
local flop = 2 * n ^ 3
print(("tiled RawKernel: %8.3f ms  %7.2f TFLOP/s"):format(raw_ms, flop / raw_ms / 1e9))
print(("ga.matmul:       %8.3f ms  %7.2f TFLOP/s"):format(blas_ms, flop / blas_ms / 1e9))
local diff = ga.max(ga.abs(ga.subtract(C, D))):item()
local scale = ga.max(ga.abs(D)):item()
print(("max difference %.3g (relative %.3g)"):format(diff, diff / scale))
example.check(diff / scale < 1e-4, "the two products disagree by %.3g (relative)", diff / scale)

-- both against the CPU at a few places: A[i][k] = cos(0.37 * idx), B[k][j] =
-- sin(0.11 * idx) with idx the 0-based row-major index, rounded to float32
local f32 = example.f32
for _, ij in ipairs({ { 1, 1 }, { 1, n }, { n, 1 }, { 777, 1234 }, { n, n } }) do
  local i, j = ij[1], ij[2]
  local want = 0
  for k = 1, n do
    want = want + f32(math.cos(0.37 * ((i - 1) * n + k - 1))) * f32(math.sin(0.11 * ((k - 1) * n + j - 1)))
  end
  example.close(C:item(i, j), want, 1e-4, ("tiled C[%d][%d]"):format(i, j), scale)
  example.close(D:item(i, j), want, 1e-4, ("matmul C[%d][%d]"):format(i, j), scale)
end
print("linalg_matmul_vs_rawkernel: ok")
