/*
** soak.c: a soak of states and threads (issue 24). N threads, each opening
** and closing lua_States for a number of seconds; each state runs a script
** once and closes. The script gets (thread, iteration, extra arguments...)
** and returns a table of counters, which the threads add up; an error in
** it fails the soak (the thread stops there). Where there is a device, the
** default pool's used bytes must be the same before the threads start and
** after every state is closed.
**
** The built-in script (no script given) is the host soak CI runs against
** the module as built, with ASan and with TSan (make host-soak,
** host-soak-asan, host-soak-tsan): every path it takes runs without a GPU.
** Each state compiles (NVRTC: an ElementwiseKernel, a RawModule with name
** expressions, which NVRTC runs in a forked child, and now and then the
** source that crashes NVRTC; in process under the sanitizers, whose
** allocators are not fork-safe: src/compile/isolate.c), fuses (ga.fuse's
** trace), translates with ga.jit, saves and loads .npy files (zero-size
** arrays) and collects. `make soak` runs
** tools/soak/worker.lua through it on a GPU.
**
**   soak [seconds=20] [threads=8] [script.lua [args...]]
** Ends with "host_soak: ok" (or FAILED).
*/
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, mkdtemp, setenv under -std=c11 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "host_util.h"

/* Loaded with the script itself as its chunk name, so that ga.jit can read
** the source of the kernels defined in it */
static const char *builtin =
  "local tid, iter, dir = ...\n"
  "local n = { compiles = 0, raw_modules = 0, fuse_traces = 0, jit_translations = 0, npy_round_trips = 0 }\n"
  "-- the same kernel in every state (the caches, raced), and one of this iteration's\n"
  "local k = ga.ElementwiseKernel('T x, T a', 'T y', 'y = a * x + ' .. (iter % 3), 'soak_axpb')\n"
  "k:compile('float32', 'float32')\n"
  "n.compiles = n.compiles + 1\n"
  "if iter % 8 == tid % 8 then\n"
  "  local own = ga.ElementwiseKernel('T x', 'T y', ('y = x * %d + %d'):format(tid, iter), 'soak_own')\n"
  "  own:compile('float64')\n"
  "  n.compiles = n.compiles + 1\n"
  "end\n"
  "-- name expressions: NVRTC in a child process, forked from this threaded host\n"
  "-- (in process with GPUARRAY_NVRTC_ISOLATE=never)\n"
  "if iter % 4 == tid % 4 then\n"
  "  local m = ga.RawModule(('template <typename T> __global__ void tw(T *x) { x[0] *= %d; }'):format(iter % 5 + 2),\n"
  "                         { name_expressions = { 'tw<float>', 'tw<double>' } })\n"
  "  assert(m:get_function('tw<double>').name == 'tw<double>')\n"
  "  n.raw_modules = n.raw_modules + 1\n"
  "end\n"
  "-- the source that crashes NVRTC 13: an error, the process lives on (not\n"
  "-- where NVRTC runs in process: under TSan, see src/compile/isolate.c)\n"
  "if iter % 16 == tid and os.getenv('GPUARRAY_NVRTC_ISOLATE') ~= 'never' then\n"
  "  local ok, err = pcall(ga.RawModule, 'template <typename T, int N> __global__ void scale(T__align__(',\n"
  "                        { name_expressions = { 'scale<float, 4>' } })\n"
  "  assert(not ok and tostring(err):find('^gpuarray: RawModule: '), tostring(err))\n"
  "  n.raw_modules = n.raw_modules + 1\n"
  "end\n"
  "-- fuse: trace and generate\n"
  "local f = ga.fuse(function(a, b) return ga.sin(a) * b + 1 end, { name = 'soak_fz' })\n"
  "local plan = f:_trace({ dtype = 'float32', ndim = 1 }, { dtype = 'float32', ndim = 2 })\n"
  "assert(plan.kind == 'elementwise' and plan.operation:find('sin'), plan.operation)\n"
  "n.fuse_traces = n.fuse_traces + 1\n"
  "-- jit: two kernels on one line, translated apart\n"
  "local double, triple = function(x) x[0] = x[0] * 2 end, function(x) x[0] = x[0] * 3 end\n"
  "local src = ga.jit.rawkernel(triple):source('float32[]')\n"
  "assert(src:find('x[0] * 3.0f', 1, true) and not src:find('x[0] * 2.0f', 1, true), src)\n"
  "assert(ga.jit.rawkernel(double):source('float32[]'):find('x[0] * 2.0f', 1, true))\n"
  "n.jit_translations = n.jit_translations + 2\n"
  "-- .npy round trips of zero-size arrays\n"
  "local path = ('%s/soak_%d_%d.npy'):format(dir, tid, iter)\n"
  "ga.save(path, ga.empty({ 0, 3 + tid }, 'int16'))\n"
  "local y = ga.load(path)\n"
  "os.remove(path)\n"
  "assert(y.dtype == 'int16' and y.shape[1] == 0 and y.shape[2] == 3 + tid)\n"
  "n.npy_round_trips = n.npy_round_trips + 1\n"
  "collectgarbage()\n"
  "return n\n";

#define MAXCOUNTERS 32

typedef struct {
  char name[48];
  long long v;
} counter;

typedef struct {
  int tid;
  double deadline;
  const char *script_path;   /* NULL: the built-in script */
  int nargs;
  char **args;               /* after the thread and the iteration */
  long states;
  int ncounters;
  counter counters[MAXCOUNTERS];
  int failures;
  char first_error[1024];
} job;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void add_counter(job *j, const char *name, long long v) {
  for (int i = 0; i < j->ncounters; i++)
    if (strcmp(j->counters[i].name, name) == 0) {
      j->counters[i].v += v;
      return;
    }
  if (j->ncounters == MAXCOUNTERS) return;
  snprintf(j->counters[j->ncounters].name, sizeof j->counters[0].name, "%s", name);
  j->counters[j->ncounters++].v = v;
}

/* Run the script once in L; 0 and the error in j on failure */
static int run_once(job *j, lua_State *L, int iter) {
  int st = j->script_path ? luaL_loadfile(L, j->script_path)
                          : luaL_loadbuffer(L, builtin, strlen(builtin), builtin);
  if (st != LUA_OK) {
    snprintf(j->first_error, sizeof j->first_error, "load: %s", lua_tostring(L, -1));
    return 0;
  }
  lua_pushinteger(L, j->tid);
  lua_pushinteger(L, iter);
  for (int a = 0; a < j->nargs; a++) lua_pushstring(L, j->args[a]);
  if (lua_pcall(L, 2 + j->nargs, 1, 0) != LUA_OK) {
    snprintf(j->first_error, sizeof j->first_error, "thread %d, state %d: %s", j->tid, iter,
             luaL_tolstring(L, -1, NULL));
    return 0;
  }
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_isinteger(L, -1))
        add_counter(j, lua_tostring(L, -2), lua_tointeger(L, -1));
      lua_pop(L, 1);
    }
  }
  return 1;
}

static void *worker(void *arg) {
  job *j = (job *)arg;
  for (int iter = 0; now() < j->deadline && !j->failures; iter++) {
    lua_State *L = host_state();
    j->states++;
    if (!run_once(j, L, iter)) j->failures++;
    lua_close(L);
  }
  return NULL;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 20;
  int nthreads = argc > 2 ? atoi(argv[2]) : 8;
  if (nthreads < 1 || nthreads > 64 || !(seconds > 0)) {
    fprintf(stderr, "usage: soak [seconds=20] [threads=8 (1 to 64)] [script.lua [args...]]\n");
    return 2;
  }
  char dir[] = "/tmp/gpuarray-soak-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  /* compiled kernels go to a cache of the soak's own, unless told */
  char cache[sizeof dir + 8];
  snprintf(cache, sizeof cache, "%s/cache", dir);
  if (!getenv("GPUARRAY_CACHE_DIR")) setenv("GPUARRAY_CACHE_DIR", cache, 1);
  char *builtin_args[1] = {dir};
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess) ndev = 0;
  lua_State *M = host_state();
  long long before = ndev ? host_pool_used(M) : 0;

  pthread_t th[64];
  static job jobs[64];
  double start = now();
  for (int t = 0; t < nthreads; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].tid = t;
    jobs[t].deadline = start + seconds;
    jobs[t].script_path = argc > 3 ? argv[3] : NULL;
    jobs[t].nargs = argc > 3 ? argc - 4 : 1;
    jobs[t].args = argc > 3 ? argv + 4 : builtin_args;
    if (pthread_create(&th[t], NULL, worker, &jobs[t]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }
  long states = 0;
  job total;
  memset(&total, 0, sizeof total);
  for (int t = 0; t < nthreads; t++) {
    pthread_join(th[t], NULL);
    states += jobs[t].states;
    for (int i = 0; i < jobs[t].ncounters; i++) add_counter(&total, jobs[t].counters[i].name, jobs[t].counters[i].v);
    if (jobs[t].failures) {
      fprintf(stderr, "FAILED %s\n", jobs[t].first_error);
      host_failures += jobs[t].failures;
    }
  }
  double took = now() - start;
  printf("host_soak: %d threads, %ld states in %.0f s;", nthreads, states, took);
  for (int i = 0; i < total.ncounters; i++) printf(" %s %lld,", total.counters[i].name, total.counters[i].v);
  if (ndev) {
    long long after = host_pool_used(M);
    printf(" pool used bytes %lld before and %lld after", before, after);
    EXPECT(before >= 0 && after == before, "pool used bytes %lld before, %lld after", before, after);
  } else {
    printf(" no CUDA device");
  }
  printf("\n");
  lua_close(M);
  char cmd[sizeof dir + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  EXPECT(states >= nthreads, "fewer states than threads: %ld", states);
  return host_finish("host_soak");
}
