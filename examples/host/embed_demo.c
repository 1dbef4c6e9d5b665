/*
** embed_demo.c: a host program (think: a simulator) that owns a device
** buffer and a CUDA stream, and lets a Lua script transform the buffer in
** place with ufuncs and a RawKernel, on the host's stream, with no copies.
** The host then checks every element in C, and that its release callback
** runs exactly once, when the last Lua view of the buffer is gone.
**
**   embed_demo [n]        (n elements, default 1 << 20)
*/
#include <math.h>
#include <time.h>

#include "host_util.h"

/* The script: returns the function the host calls each "frame" */
static const char *script =
  "local ga = require 'gpuarray'\n"
  "local add_mod3 = ga.RawKernel([[\n"
  "extern \"C\" __global__ void add_mod3(float *x, long long n) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < n) x[i] += (float)(i % 3);\n"
  "}]], 'add_mod3')\n"
  "return function(buf, scale)\n"
  "  local n = buf.size\n"
  "  -- ufuncs, the result written into the host's memory\n"
  "  ga.multiply(ga.sqrt(ga.abs(buf)), scale, {out = buf})\n"
  "  -- a raw kernel on the current stream: the host's\n"
  "  add_mod3({(n + 255) // 256}, {256}, {buf, n})\n"
  "  -- the sum (a 0-d array, not synchronised), the stream used, a view\n"
  "  return buf:sum(), ga.get_current_stream().ptr, buf[{{1, 10}}]\n"
  "end\n";

static int released;
static void *released_ptr;

static void on_release(void *ctx, void *ptr) {
  (*(int *)ctx)++;
  released_ptr = ptr;
}

int main(int argc, char **argv) {
  skip_without_device("embed_demo");
  long long n = argc > 1 ? atoll(argv[1]) : 1 << 20;
  unsigned seed = (unsigned)time(NULL);
  printf("embed_demo: n = %lld, seed = %u\n", n, seed);

  /* the host's data, stream and device buffer */
  float *h = (float *)malloc(sizeof(float) * (size_t)n), *back = (float *)malloc(sizeof(float) * (size_t)n);
  srand(seed);
  for (long long i = 0; i < n; i++) h[i] = 8.0f * ((float)rand() / (float)RAND_MAX) - 4.0f;
  cudaStream_t s;
  float *d;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_OK(cudaMalloc((void **)&d, sizeof(float) * (size_t)n));
  CUDA_OK(cudaMemcpyAsync(d, h, sizeof(float) * (size_t)n, cudaMemcpyHostToDevice, s));

  lua_State *L = host_state();
  ga_set_stream(L, s);

  /* the frame function, then buf: the host's memory as an ndarray */
  if (!host_call(L, "=script", script, 0, 1)) return host_finish("embed_demo");
  int64_t shape[1] = {n};
  ga_wrap(L, d, GA_DT_FLOAT32, 1, shape, NULL, on_release, &released);
  lua_pushvalue(L, -1);
  int buf_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushnumber(L, 1.5);
  if (lua_pcall(L, 2, 3, 0) != LUA_OK) {
    fprintf(stderr, "frame: %s\n", lua_tostring(L, -1));
    return 1;
  }
  /* results: sum (0-d float32), stream pointer, a view */
  ga_desc sum = ga_check(L, -3);
  EXPECT((sum.dtype == GA_DT_FLOAT32 || sum.dtype == GA_DT_FLOAT64) && sum.ndim == 0, "sum: dtype %d ndim %d",
         sum.dtype, sum.ndim);
  EXPECT(sum.stream == s, "ga_check: the state's stream is not the host's");
  EXPECT((cudaStream_t)(uintptr_t)lua_tointeger(L, -2) == s, "the script ran on another stream");
  int view_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 1);
  union { float f; double d; } got;
  CUDA_OK(cudaMemcpyAsync(&got, sum.data, (size_t)sum.itemsize, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaMemcpyAsync(back, d, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaStreamSynchronize(s));
  double total = sum.dtype == GA_DT_FLOAT32 ? got.f : got.d;
  lua_pop(L, 1);

  /* every element, against the same arithmetic in C */
  double ref_total = 0;
  long long bad = 0;
  for (long long i = 0; i < n; i++) {
    float want = sqrtf(fabsf(h[i])) * 1.5f + (float)(i % 3);
    ref_total += want;
    if (fabsf(back[i] - want) > 1e-6f * fabsf(want) + 1e-6f) {
      if (bad++ < 5) fprintf(stderr, "element %lld: %.9g, expected %.9g\n", i, back[i], want);
    }
  }
  EXPECT(bad == 0, "%lld elements differ", bad);
  EXPECT(fabs(total - ref_total) <= 1e-4 * fabs(ref_total), "sum %.9g, expected %.9g", total, ref_total);

  /* a ga.Stream over the host's stream: destroy() leaves it alone */
  ga_push_stream(L, s);
  lua_setglobal(L, "hs");
  host_call(L, "=stream", "assert(hs.ptr ~= 0); hs:destroy(); assert(hs.alive)", 0, 0);
  EXPECT(cudaStreamQuery(s) == cudaSuccess, "the host's stream was destroyed");

  /* released once, when the last view goes */
  luaL_unref(L, LUA_REGISTRYINDEX, buf_ref);
  full_gc(L);
  EXPECT(released == 0, "released while a view is alive (%d)", released);
  luaL_unref(L, LUA_REGISTRYINDEX, view_ref);
  full_gc(L);
  EXPECT(released == 1 && released_ptr == d, "released %d times after the last view", released);
  ga_set_stream(L, NULL);
  lua_close(L);
  EXPECT(released == 1, "released %d times after lua_close", released);

  /* the host tears down: its stream is forgotten by the pools first */
  CUDA_OK(cudaStreamSynchronize(s));
  ga_forget_stream(s);
  CUDA_OK(cudaStreamDestroy(s));
  CUDA_OK(cudaFree(d));
  free(h);
  free(back);
  printf("embed_demo: sum %.6g over %lld elements, checked in C\n", total, n);
  return host_finish("embed_demo");
}
