// write_ceiling.cu: how fast this GPU writes memory, outside any library:
// the ceiling under the write-only bench keys (rand_f32_GBps,
// rng_random_f32_GBps, ...), which count 4 bytes an element written.
// Device time from events around the kernel alone: a spinning kernel keeps
// the GPU busy while the host records the start event and launches, so the
// window holds no host time (make bench's window also holds the call's own
// host time before its launch: the *_window keys measure that way).
// Median of 20, 2^26 float32 (256 MiB) as the bench. Cases:
//   memset         cudaMemsetAsync
//   store_loop     16-byte stores of a constant, grid-stride, 16 blocks of
//                  256 threads an SM (the launch shape of ga.random)
//   store_once     one 16-byte store a thread, a thread per 4 elements
//   uniform_<b>    ga.random's float32 uniform kernel (kernels/random/
//                  philox.cuh, as src/random/random.c instantiates it) at b
//                  blocks an SM (16 is what random.c launches)
//   uniform_16_window  the same, timed as make bench times it
// Build and run: nvcc -O3 -arch=native -o /tmp/wc bench/write_ceiling.cu && /tmp/wc
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#include "../kernels/random/philox.cuh"

__global__ void store_loop(float4 *out, unsigned long long n4) {
  const float4 v = make_float4(1.f, 2.f, 3.f, 4.f);
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n4;
       i += (unsigned long long)gridDim.x * blockDim.x)
    out[i] = v;
}

__global__ void store_once(float4 *out, unsigned long long n4) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n4) out[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

__global__ void uniform(float *out, ga_rng_args p) {
  ga_uniform_f f = {0.f, 1.f};
  ga_rng_vector<float, 4>(out, p, f);
}

// about 40 us of clock cycles on one thread: the GPU is busy until the
// start event and the launch under test are queued behind it
__global__ void spin(long long cycles) {
  long long t = clock64();
  while (clock64() - t < cycles) {
  }
}

template <class F>
static double median_ms(F f, bool busy = true) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  cudaDeviceSynchronize();
  std::vector<float> t;
  for (int i = 0; i < 20; i++) {
    if (busy) spin<<<1, 1>>>(80000);
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t[t.size() / 2];
}

int main() {
  const unsigned long long n = 1ull << 26, bytes = 4 * n, n4 = n / 4;
  float *d;
  if (cudaMalloc(&d, bytes) != cudaSuccess) return 1;
  int dev, sms;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  auto gbps = [&](double ms) { return bytes / ms / 1e6; };
  printf("{\"memset_GBps\": %.0f,\n", gbps(median_ms([&] { cudaMemsetAsync(d, 0, bytes); })));
  printf(" \"store_loop_GBps\": %.0f,\n",
         gbps(median_ms([&] { store_loop<<<16 * sms, 256>>>((float4 *)d, n4); })));
  printf(" \"store_once_GBps\": %.0f,\n",
         gbps(median_ms([&] { store_once<<<(unsigned)((n4 + 255) / 256), 256>>>((float4 *)d, n4); })));
  ga_rng_args p = {};
  p.n = n;
  p.k0 = 0x12345678u;
  p.k1 = 0x9abcdef0u;
  for (int per_sm : {8, 16, 32, 64}) {
    double ms = median_ms([&] {
      uniform<<<per_sm * sms, 256>>>(d, p);
      p.base += n4;
    });
    printf(" \"uniform_%d_GBps\": %.0f,\n", per_sm, gbps(ms));
  }
  double window = median_ms([&] {
    uniform<<<16 * sms, 256>>>(d, p);
    p.base += n4;
  }, false);
  printf(" \"uniform_16_window_GBps\": %.0f,\n", gbps(window));
  printf(" \"error\": \"%s\"}\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(d);
  return 0;
}
