/*
** stream_handback.c: a host that gives its stream back and destroys it
** (issue 24, defect 8). The host wraps its own buffer on its own stream
** (ga_set_stream), runs ufuncs and a RawKernel that leave pool blocks freed
** on that stream, closes the state (its release callback runs once, its
** buffer is intact), destroys the stream without ga_forget_stream, then
** opens a new lua_State whose allocations reuse those blocks. Then the same
** with ga_set_stream(L, NULL) on a live state, and with a ga.Stream made in
** Lua and collected while blocks freed on it are cached. Every value is
** checked; before the fix the first ga.arange of the new state crashed in
** cudaEventRecord on the destroyed stream.
**
**   stream_handback [n]        (n elements, default 1 << 20)
*/
#include <math.h>

#include "host_util.h"

/* Leaves blocks freed on the current stream in the pool: temporaries of
** several sizes, collected before the function returns */
static const char *work =
  "local buf, scale = ...\n"
  "local add_one = ga.RawKernel([[\n"
  "extern \"C\" __global__ void add_one(float *x, long long n) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < n) x[i] += 1.0f;\n"
  "}]], 'add_one')\n"
  "local n = buf.size\n"
  "for k = 1, 3 do\n"
  "  local t = ga.multiply(ga.abs(buf), scale)          -- temporaries, freed below\n"
  "  local u = ga.sqrt(t[{{1, n // k}}] + 1)\n"
  "  local s = ga.arange(1000 * k, 'float64'):sum()\n"
  "  assert(s:item() == (1000 * k) * (1000 * k - 1) / 2, 'arange sum ' .. k .. ': ' .. s:item())\n"
  "  assert(u.size == n // k)\n"
  "end\n"
  "ga.multiply(buf, scale, {out = buf})                 -- the host's memory, in place\n"
  "add_one({(n + 255) // 256}, {256}, {buf, n})\n"
  "collectgarbage(); collectgarbage()                   -- the temporaries go back to the pool\n"
  "return ga.get_current_stream().ptr\n";

/* A new state after the host's stream is gone: allocations of the sizes
** the old state freed, and values checked */
static const char *after =
  "for k = 1, 3 do\n"
  "  local n = (1 << 20) // k\n"
  "  local x = ga.arange(n, 'float32')\n"
  "  local y = ga.sqrt(x * 4)\n"
  "  local got = y:item(n)\n"
  "  local want = math.sqrt(4.0 * (n - 1))\n"
  "  assert(math.abs(got - want) <= 1e-3 * want, ('k=%d: sqrt(4 x) at %d is %.9g, expected %.9g'):format(k, n, got, want))\n"
  "  local s = ga.arange(1000, 'int64'):sum():item()\n"
  "  assert(s == 499500, 'arange(1000):sum() is ' .. tostring(s))\n"
  "end\n"
  "return true\n";

/* A ga.Stream made in Lua, current while temporaries are made and freed on
** it, then collected (destroyed) while they sit in the pool */
static const char *lua_stream =
  "local st = ga.Stream({non_blocking = true})\n"
  "local prev = st:use()\n"
  "for k = 1, 3 do\n"
  "  local t = ga.arange((1 << 20) // k, 'float32') * 2\n"
  "  assert(t:sum():item() > 0)\n"
  "end\n"
  "collectgarbage(); collectgarbage()\n"
  "prev:use()\n"
  "st = nil\n"
  "collectgarbage(); collectgarbage()                   -- the Stream goes: destroyed\n"
  "return true\n";

static int released;
static void on_release(void *ctx, void *ptr) {
  (void)ptr;
  (*(int *)ctx)++;
}

static void fill(float *h, long long n) {
  for (long long i = 0; i < n; i++) h[i] = (float)((i % 7) - 3);
}

/* the host's copy after one pass of `work`: |x| * scale ... then x * scale + 1 */
static long long check(const float *back, const float *h, long long n, float scale, const char *what) {
  long long bad = 0;
  for (long long i = 0; i < n; i++) {
    float want = h[i] * scale + 1.0f;
    if (fabsf(back[i] - want) > 1e-6f) {
      if (bad++ < 5) fprintf(stderr, "%s: element %lld: %.9g, expected %.9g\n", what, i, back[i], want);
    }
  }
  return bad;
}

/* One state on the host's stream s: wrap d, run `work`, close the state
** (or hand the stream back with ga_set_stream(L, NULL) first) */
static void one_state(cudaStream_t s, float *d, long long n, float scale, int set_null) {
  lua_State *L = host_state();
  ga_set_stream(L, s);
  int64_t shape[1] = {n};
  released = 0;
  ga_wrap(L, d, GA_DT_FLOAT32, 1, shape, NULL, on_release, &released);
  lua_pushnumber(L, scale);
  if (host_call(L, "=work", work, 2, 1)) {
    EXPECT((cudaStream_t)(uintptr_t)lua_tointeger(L, -1) == s, "the script ran on another stream");
    lua_pop(L, 1);
  }
  if (set_null) {
    ga_set_stream(L, NULL);
    /* the state lives on, on the legacy stream */
    host_call(L, "=after_set_null", after, 0, 0);
  }
  lua_close(L);
  EXPECT(released == 1, "the host's buffer was released %d times, expected once", released);
}

int main(int argc, char **argv) {
  skip_without_device("stream_handback");
  long long n = argc > 1 ? atoll(argv[1]) : 1 << 20;
  printf("stream_handback: n = %lld\n", n);
  float *h = (float *)malloc(sizeof(float) * (size_t)n), *back = (float *)malloc(sizeof(float) * (size_t)n);
  fill(h, n);
  float *d;
  CUDA_OK(cudaMalloc((void **)&d, sizeof(float) * (size_t)n));

  /* 1. lua_close, then the host destroys its stream, then a new state */
  cudaStream_t s;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_OK(cudaMemcpyAsync(d, h, sizeof(float) * (size_t)n, cudaMemcpyHostToDevice, s));
  one_state(s, d, n, 2.0f, 0);
  CUDA_OK(cudaMemcpyAsync(back, d, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaStreamSynchronize(s));
  EXPECT(check(back, h, n, 2.0f, "after lua_close") == 0, "the host's buffer is not intact after lua_close");
  CUDA_OK(cudaStreamDestroy(s));                       /* no ga_forget_stream: the state gave it back */
  lua_State *L = host_state();
  host_call(L, "=after_destroy", after, 0, 0);
  lua_close(L);

  /* 2. ga_set_stream(L, NULL) on a state that goes on, the stream destroyed after the state closed */
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUDA_OK(cudaMemcpyAsync(d, h, sizeof(float) * (size_t)n, cudaMemcpyHostToDevice, s));
  one_state(s, d, n, 3.0f, 1);
  CUDA_OK(cudaMemcpyAsync(back, d, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost, s));
  CUDA_OK(cudaStreamSynchronize(s));
  EXPECT(check(back, h, n, 3.0f, "after ga_set_stream(L, NULL)") == 0, "the host's buffer is not intact");
  CUDA_OK(cudaStreamDestroy(s));
  L = host_state();
  host_call(L, "=after_destroy_2", after, 0, 0);

  /* 3. a ga.Stream made in Lua, collected while blocks freed on it are cached */
  host_call(L, "=lua_stream", lua_stream, 0, 0);
  host_call(L, "=after_lua_stream", after, 0, 0);
  lua_close(L);
  L = host_state();
  host_call(L, "=after_lua_stream_new_state", after, 0, 0);
  lua_close(L);

  CUDA_OK(cudaFree(d));
  free(h);
  free(back);
  return host_finish("stream_handback");
}
