/*
** random.c: ga.random's device side. One entry point fills a fresh
** C-contiguous array with numbers of one distribution, generated and
** transformed in one pass by the Philox kernels of kernels/random/philox.cuh:
**   _random_fill(out, kind, key, offset, a, b) -> counters used
** key is the generator's 64-bit key, offset the 64-bit count of Philox
** counters it used before; the caller adds the result to its offset, so
** successive calls never share a counter (and so never a number). The
** numbers depend on (key, offset, n, kind, dtype, a, b) only: never on the
** launch shape or the device. lua/gpuarray/random/ holds the public API.
*/
#include <string.h>

#include "random/random.h"

#define THREADS 256

enum { R_UNIFORM, R_NORMAL, R_LOGNORMAL, R_EXPONENTIAL, R_INTEGERS, R_GAMMA, R_BETA, R_POISSON,
       R_BINOMIAL, R_PERM, R_NKINDS };
static const char *const kind_names[] = {"uniform", "normal", "lognormal", "exponential", "integers", "gamma",
                                         "beta", "poisson", "binomial", "permutation", NULL};

/* The kernel parameter block: the same layout as ga_rng_args in philox.cuh */
typedef struct {
  uint64_t n, base;
  uint32_t k0, k1;
  double a, b;
  int64_t lo;
  uint64_t range, thresh;
} rng_args;


static int is_float(int t) { return t == GA_FLOAT32 || t == GA_FLOAT64; }
/* the vector kinds also fill bfloat16: drawn in float, rounded once */
static int is_vector_float(int t) { return is_float(t) || t == GA_BFLOAT16; }
static int is_int(int t) { return GA_IS_INT(t); }

/* The kernel body's instantiation for (kind, dtype, wide). bfloat16 takes
** float's transforms (T is the type they compute in) */
static void body(char *w, size_t cap, int kind, int t, int wide) {
  int bf = t == GA_BFLOAT16, f = t == GA_FLOAT32 || bf;
  const char *T = f ? "float" : ga_dtypes[t].ctype;
  const char *vec = f ? "float, 4" : "double, 2";
  switch (kind) {
    case R_UNIFORM:
      snprintf(w, cap, bf ? "ga_uniform_bf f = {(float)p.a, (float)p.b};"
                          : f ? "ga_uniform_f f = {(float)p.a, (float)p.b};" : "ga_uniform_d f = {p.a, p.b};");
      break;
    case R_NORMAL: case R_LOGNORMAL:
      snprintf(w, cap, "ga_normal_%c<%d> f = {(%s)p.a, (%s)p.b};", f ? 'f' : 'd', kind == R_LOGNORMAL, T, T);
      break;
    case R_EXPONENTIAL:
      snprintf(w, cap, "ga_expo_%c f = {(%s)p.b};", f ? 'f' : 'd', T);
      break;
    case R_INTEGERS:
      if (wide)
        snprintf(w, cap, "ga_int64_f<%s> f = {p.lo, p.range + 1, p.thresh, p.base, p.k0, p.k1}; "
                 "ga_rng_vector<%s, 2>(out, p, f);", T, T);
      else
        snprintf(w, cap, "ga_int32_f<%s> f = {p.lo, (unsigned)(p.range + 1), (unsigned)p.thresh, p.base, "
                 "p.k0, p.k1}; ga_rng_vector<%s, 4>(out, p, f);", T, T);
      return;
    case R_PERM:
      snprintf(w, cap, "ga_rng_perm<%s>(out, p);", T);
      return;
    default: {
      static const char *const loops[] = {"GA_RK_GAMMA", "GA_RK_BETA", "GA_RK_POISSON", "GA_RK_BINOMIAL"};
      snprintf(w, cap, "ga_rng_loop<%s, %s>(out, p);", T, loops[kind - R_GAMMA]);
      return;
    }
  }
  size_t len = strlen(w);
  snprintf(w + len, cap - len, " ga_rng_vector<%s>(out, p, f);", vec);
}

static void wrapper(char *w, size_t cap, int kind, int t, int wide) {
  char b[320];
  body(b, sizeof b, kind, t, wide);
  snprintf(w, cap, "extern \"C\" __global__ void k(%s *out, ga_rng_args p) { %s }\n", ga_dtypes[t].ctype, b);
}

static void rand_line(char *w, size_t cap, const int *p) { wrapper(w, cap, p[0], p[1], p[2]); }

static const char *const rand_parts[] = {"common", "philox", NULL};   /* common: bfloat16 */
static const ga_tkline rand_family = {{'r', 'n'}, rand_parts, rand_line};

/* Elements per counter group (vector kinds) or 1 (a group per element) */
static int per_group(int kind, int t, int wide) {
  if (kind <= R_EXPONENTIAL) return t == GA_FLOAT64 ? 2 : 4;
  if (kind == R_INTEGERS) return wide ? 2 : 4;
  return 1;
}

static void check_dtype(lua_State *L, int kind, int t) {
  int ok = kind == R_INTEGERS || kind == R_POISSON || kind == R_BINOMIAL ? is_int(t)
           : kind == R_PERM ? (t == GA_INT32 || t == GA_INT64)
           : kind <= R_EXPONENTIAL ? is_vector_float(t) : is_float(t);
  const char *want = kind == R_PERM ? "int32 or int64"
                     : kind == R_INTEGERS || kind == R_POISSON || kind == R_BINOMIAL ? "an integer dtype"
                     : kind <= R_EXPONENTIAL ? "float32, float64 or bfloat16" : "float32 or float64";
  if (!ok) ga_error(L, "random: %s cannot produce %s (it takes %s)", kind_names[kind], ga_dtypes[t].name, want);
}

static int l_random_fill(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *out = ga_checkarray(L, 1);
  int kind = luaL_checkoption(L, 2, NULL, kind_names);
  uint64_t key = (uint64_t)luaL_checkinteger(L, 3);
  rng_args p;
  memset(&p, 0, sizeof p);
  p.base = (uint64_t)luaL_checkinteger(L, 4);
  p.k0 = (uint32_t)key;
  p.k1 = (uint32_t)(key >> 32);
  check_dtype(L, kind, out->dtype);
  if (!(out->flags & GA_F_C)) ga_error(L, "random: the output must be C-contiguous");
  int wide = 0;
  if (kind == R_INTEGERS || kind == R_PERM) {
    p.lo = (int64_t)luaL_checkinteger(L, 5);
    p.range = (uint64_t)luaL_checkinteger(L, 6);
    if (kind == R_PERM) {
      /* a = n (the domain), b = what is added to each value */
      p.range = (uint64_t)luaL_checkinteger(L, 5);
      p.lo = (int64_t)luaL_checkinteger(L, 6);
      if (p.range > ((uint64_t)1 << 62)) ga_error(L, "permutation: at most 2^62 elements");
      if ((uint64_t)out->size > p.range) ga_error(L, "permutation: more values than the domain holds");
    } else if (p.range > 0xffffffffu) {
      uint64_t m = p.range + 1;
      wide = 1;
      p.thresh = m ? (0 - m) % m : 0;
    } else {
      uint32_t m = (uint32_t)(p.range + 1);
      p.thresh = m ? (uint32_t)(0u - m) % m : 0;
    }
  } else if (kind == R_BINOMIAL) {
    p.lo = (int64_t)luaL_checkinteger(L, 5);
    p.a = luaL_checknumber(L, 6);
  } else {
    p.a = luaL_optnumber(L, 5, 0);
    p.b = luaL_optnumber(L, 6, 1);
  }
  p.n = (uint64_t)out->size;
  int per = per_group(kind, out->dtype, wide);
  uint64_t groups = kind == R_PERM ? 1 : (p.n + (uint64_t)per - 1) / (uint64_t)per;
  if (p.n == 0) {
    lua_pushinteger(L, 0);
    return 1;
  }
  ga_check_device(L, ctx, out, "random");
  const int kp[] = {kind, out->dtype, wide};
  cudaKernel_t fn = ga_tkernel_line(L, ctx, &rand_family, "random", 3, kp);
  uint64_t work = kind == R_PERM ? p.n : per > 1 ? groups : p.n;
  void *data = out->data;
  void *args[] = {&data, &p};
  /* 16 blocks an SM: 2.6% faster than 64 on an H200 (uniform 2^26 floats:
  ** 70.0 vs 71.9 us), far faster than one group a thread (92 us) */
  unsigned grid = ga_grid_for(L, ctx->device, work, THREADS, 16);
  ga_launch(L, "random", fn, dim3_make(grid, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
  lua_pushinteger(L, (lua_Integer)groups);
  return 1;
}

/* _random_source(kind, dtype, wide) -> the CUDA source of one instantiation
** (specs compile it with _compile on machines without a GPU) */
static int l_random_source(lua_State *L) {
  int kind = luaL_checkoption(L, 1, NULL, kind_names);
  int t = ga_checkdtype(L, 2, GA_FLOAT32, "_random_source");
  check_dtype(L, kind, t);
  char w[512];
  wrapper(w, sizeof w, kind, t, lua_toboolean(L, 3));
  lua_pushstring(L, ga_kernel_source("common"));
  lua_pushstring(L, ga_kernel_source("philox"));
  lua_pushstring(L, w);
  lua_concat(L, 3);
  return 1;
}

/* core.random.philox() -> philox.cuh: the device code of the streams, for
** kernels written in Lua that draw per element (random/stream.lua) */
static int l_random_philox(lua_State *L) {
  lua_pushstring(L, ga_kernel_source("philox"));
  return 1;
}

static const luaL_Reg funcs_random[] = {
  {"fill", l_random_fill},
  {"philox", l_random_philox},
  {NULL, NULL}
};

static const luaL_Reg funcs_test[] = {
  {"random_source", l_random_source},
  {NULL, NULL}
};

void ga_open_random(lua_State *L) {
  ga_setprivate(L, "random", funcs_random);
  ga_setprivate(L, GA_TEST, funcs_test);
}
