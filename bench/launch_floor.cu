// launch_floor.cu: what one kernel launch costs on this machine, outside any
// library: the per-call floor under the overhead_* bench keys. Measured as
// cupy_ref.py's host_us measures an op (100 warm-up calls, then 20000 calls
// back to back and one synchronize), for an empty kernel and for one shaped
// like a tiny elementwise add (three pointers and a size, 1 block of 32).
// Build and run: nvcc -O2 -o /tmp/launch_floor bench/launch_floor.cu -lcuda && /tmp/launch_floor
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void empty_kernel() {}
__global__ void add_kernel(const float *a, const float *b, float *c, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

template <class F>
static double host_us(F f, int n = 20000) {
  for (int i = 0; i < 100; i++) f();
  cudaDeviceSynchronize();
  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < n; i++) f();
  cudaDeviceSynchronize();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count() / n;
}

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 4096);
  cudaMalloc(&b, 4096);
  cudaMalloc(&c, 4096);
  long long n = 1;
  cudaFunction_t fe, fa;
  cudaGetFuncBySymbol(&fe, (const void *)empty_kernel);
  cudaGetFuncBySymbol(&fa, (const void *)add_kernel);
  void *args[] = {&a, &b, &c, &n};
  printf("{\"empty_runtime_us\": %.3f,\n", host_us([] { empty_kernel<<<1, 32>>>(); }));
  printf(" \"add_runtime_us\": %.3f,\n", host_us([&] { add_kernel<<<1, 32>>>(a, b, c, n); }));
  printf(" \"empty_driver_us\": %.3f,\n",
         host_us([&] { cuLaunchKernel((CUfunction)fe, 1, 1, 1, 32, 1, 1, 0, 0, nullptr, nullptr); }));
  printf(" \"add_driver_us\": %.3f,\n",
         host_us([&] { cuLaunchKernel((CUfunction)fa, 1, 1, 1, 32, 1, 1, 0, 0, args, nullptr); }));
  // the same on a created non-blocking stream and on the per-thread default
  // stream (the legacy NULL stream above synchronises with other streams)
  cudaStream_t ns;
  cudaStreamCreateWithFlags(&ns, cudaStreamNonBlocking);
  printf(" \"add_driver_created_stream_us\": %.3f,\n",
         host_us([&] { cuLaunchKernel((CUfunction)fa, 1, 1, 1, 32, 1, 1, 0, (CUstream)ns, args, nullptr); }));
  printf(" \"add_driver_per_thread_stream_us\": %.3f,\n",
         host_us([&] { cuLaunchKernel((CUfunction)fa, 1, 1, 1, 32, 1, 1, 0, CU_STREAM_PER_THREAD, args, nullptr); }));
  // the GPU side alone: a graph of 1000 tiny launches replayed (no host launch cost per kernel)
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t g;
  cudaGraphExec_t ge;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < 1000; i++) add_kernel<<<1, 32, 0, s>>>(a, b, c, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, 0);
  double us = host_us([&] { cudaGraphLaunch(ge, s); }, 50) / 1000;
  printf(" \"add_in_graph_us\": %.3f}\n", us);
  return 0;
}
