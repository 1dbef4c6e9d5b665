/*
** threads.c: N threads, each with its own lua_State and its own CUDA stream
** (made current with ga_set_stream), run the same script concurrently:
** allocate, compute (ufuncs, an ElementwiseKernel, a RawKernel, all states
** compiling the same sources at once), reduce, free. Every result is
** checked in C; at the end, with every state closed, the device pool's
** used bytes must be what they were before the threads started.
**
**   threads [nthreads=8] [iterations=1000]
*/
#include <pthread.h>

#include "host_util.h"

static const char *script =
  "local ga = require 'gpuarray'\n"
  "local tid = ...\n"
  "ga.set_default_dtype('float32')   -- per state: only this thread's arrays\n"
  "local axpb = ga.ElementwiseKernel('T x, T a, T b', 'T y', 'y = a * x + b', 'axpb')\n"
  "local bump = ga.RawKernel([[\n"
  "extern \"C\" __global__ void bump(long long *v, long long n, long long k) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < n) v[i] += k;\n"
  "}]], 'bump')\n"
  "return function(i)\n"
  "  local n = 1000 + (i * 37 + tid * 101) % 5000\n"
  "  assert(ga.zeros(1).dtype == 'float32', 'default dtype leaked between states')\n"
  "  local x = ga.arange(n, 'float64')                   -- 0 .. n-1\n"
  "  local y = axpb(x, ga.float64(tid + 1), ga.float64(i))\n"
  "  local s = ga.sqrt(y * y):sum():item()               -- (tid+1) n(n-1)/2 + i n\n"
  "  local v = ga.arange(n, 'int64') % 7\n"
  "  bump({(n + 127) // 128}, {128}, {v, n, tid})\n"
  "  local c = v:sum():item()                            -- sum of (k % 7) + tid n\n"
  "  x:free()\n"
  "  v:free()                                            -- y is left to the collector\n"
  "  return s, c, n\n"
  "end\n";

typedef struct {
  int tid, iters;
  int progress;             /* print every 100 iterations (THREADS_PROGRESS=1, thread 0) */
  int failures;
  char first_error[256];
} job;

static void fail(job *j, const char *fmt, double a, double b) {
  if (j->failures++ == 0) snprintf(j->first_error, sizeof j->first_error, fmt, a, b);
}

static void *worker(void *arg) {
  job *j = (job *)arg;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
    fail(j, "cudaStreamCreate failed %g %g", 0, 0);
    return NULL;
  }
  lua_State *L = host_state();
  ga_set_stream(L, s);
  lua_pushinteger(L, j->tid);
  if (luaL_loadbuffer(L, script, strlen(script), "=threads") != LUA_OK) {
    fail(j, "load failed %g %g", 0, 0);
  } else {
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
      snprintf(j->first_error, sizeof j->first_error, "%s", lua_tostring(L, -1));
      j->failures++;
    }
  }
  for (int i = 0; i < j->iters && !j->failures; i++) {
    lua_pushvalue(L, -1);
    lua_pushinteger(L, i);
    if (lua_pcall(L, 1, 3, 0) != LUA_OK) {
      snprintf(j->first_error, sizeof j->first_error, "iteration %d: %s", i, lua_tostring(L, -1));
      j->failures++;
      break;
    }
    long long n = lua_tointeger(L, -1), c = lua_tointeger(L, -2);
    double sum = lua_tonumber(L, -3);
    lua_pop(L, 3);
    double want = (double)(j->tid + 1) * (double)n * (double)(n - 1) / 2 + (double)i * (double)n;
    long long cwant = 0;
    for (long long k = 0; k < n; k++) cwant += k % 7 + j->tid;
    if (sum != want && !(sum - want < 1e-9 * want && want - sum < 1e-9 * want))
      fail(j, "sum %.17g, expected %.17g", sum, want);
    if (c != cwant) fail(j, "count %g, expected %g", (double)c, (double)cwant);
    if (j->progress && (i + 1) % 100 == 0) {
      printf("thread %d: %d iterations\n", j->tid, i + 1);
      fflush(stdout);
    }
  }
  lua_close(L);                        /* every array of the state is released here */
  cudaStreamSynchronize(s);
  ga_forget_stream(s);
  cudaStreamDestroy(s);
  return NULL;
}

int main(int argc, char **argv) {
  skip_without_device("threads");
  int nthreads = argc > 1 ? atoi(argv[1]) : 8, iters = argc > 2 ? atoi(argv[2]) : 1000;
  if (nthreads < 1 || nthreads > 256 || iters < 1) {
    fprintf(stderr, "usage: threads [nthreads 1..256] [iterations]\n");
    return 2;
  }
  lua_State *M = host_state();
  host_call(M, "=warm", "local x = ga.ones(10); assert(x:sum():item() == 10)", 0, 0);
  long long before = host_pool_used(M);

  pthread_t th[256];
  job jobs[256];
  for (int t = 0; t < nthreads; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].tid = t;
    jobs[t].iters = iters;
    jobs[t].progress = t == 0 && getenv("THREADS_PROGRESS") != NULL;
    if (pthread_create(&th[t], NULL, worker, &jobs[t]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }
  for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < nthreads; t++)
    EXPECT(jobs[t].failures == 0, "thread %d: %d failures, first: %s", t, jobs[t].failures,
           jobs[t].first_error);

  long long after = host_pool_used(M);
  EXPECT(before >= 0 && after == before, "pool used bytes %lld before, %lld after", before, after);
  printf("threads: %d threads x %d iterations, pool used bytes %lld before and %lld after\n", nthreads, iters,
         before, after);
  lua_close(M);
  return host_finish("threads");
}
