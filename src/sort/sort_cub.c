/*
** sort_cub.c: the sort engine's CUB path (kernels/sort/cubsort.cuh), for
** one row with no starting order (sort.c's l_sort keeps batches of rows and
** lexsort's later keys on its own kernels). CUB's onesweep agents, compiled
** by NVRTC against the toolkit's CCCL headers, with CUB's own sm_90 tile
** sizes: a histogram of every digit in one read of the keys, a scan, then
** one kernel per 8-bit digit (rank a tile, look back for the offsets of
** the tiles before it, scatter). argsort and "perm" carry each element's
** position (uint32) as the value; argsort makes it 1-based int64 at the end.
** Where the headers are absent, ga_sort_cub does nothing and says so.
*/
#include <stdio.h>
#include <string.h>

#include "sort/sort.h"

#ifndef GA_CUDA_INCDIR
#define GA_CUDA_INCDIR "/usr/local/cuda/include"
#endif

enum { C_HIST, C_SCAN, C_PASS, C_IOTA, C_INDEX };
enum { HIST_THREADS = 128, RADIX = 256 };
/* CUB's onesweep portions: look-back words hold 30-bit counts */
#define PORTION_MAX ((1 << 28) - 1)

static char inc_opt[2][600];
static const char *const cub_opts[] = {inc_opt[0], inc_opt[1]};
static int cub_state = -1;           /* -1 unknown, 0 no headers, 1 ready */

/* The toolkit's CCCL headers, found once (the path the module was built with) */
static int cub_ready(void) {
  if (cub_state < 0) {
    char probe[640];
    snprintf(probe, sizeof probe, "%s/cccl/cub/version.cuh", GA_CUDA_INCDIR);
    FILE *f = fopen(probe, "r");
    cub_state = f != NULL;
    if (f) fclose(f);
    snprintf(inc_opt[0], sizeof inc_opt[0], "-I%s/cccl", GA_CUDA_INCDIR);
    snprintf(inc_opt[1], sizeof inc_opt[1], "-I%s", GA_CUDA_INCDIR);
  }
  return cub_state;
}

typedef struct {
  ga_tkreq req;
  int kind, t, z, hasv;
} cub_src;

/* CUB's sm_90 onesweep tuning (tuning_radix_sort.cuh) for keys of ksize
** bytes, with uint32 values or none, 32-bit offsets */
static void tuning(int t, int hasv, int *threads, int *items) {
  int ks = ga_dtypes[t].itemsize;
  if (ks <= 2) {
    *threads = 512;
    *items = hasv ? 17 : 19;
  } else if (ks == 4) {
    *threads = 384;
    *items = hasv ? 23 : t == GA_FLOAT32 ? 19 : 20;
  } else {
    *threads = 384;
    *items = 15;                     /* 30 nominal 4-byte items, scaled to 8-byte keys */
  }
}

static const char *const cub_parts[] = {"common", "radix", "cubsort", NULL};

static void wrapper(char *w, size_t cap, const cub_src *s, const char *name) {
  const char *T = ga_dtypes[s->t].ctype;
  int threads, items;
  switch (s->kind) {
    case C_HIST:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(%d) %s(unsigned *b, const %s *x, unsigned n, "
               "int e) { ga_cub_hist<%s, %d>(b, x, n, e); }\n", HIST_THREADS, name, T, T, s->z);
      break;
    case C_SCAN:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) %s(unsigned *b) { ga_cub_scan(b); }\n", name);
      break;
    case C_PASS:
      tuning(s->t, s->hasv, &threads, &items);
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(%d) %s(int *lb, int *c, unsigned *bo, "
               "const unsigned *bi, void *ko, const void *ki, void *vo, const void *vi, int n, int bit, int nb) "
               "{ ga_cub_pass<%s, %d, %s, %d, %d>(lb, c, bo, bi, ko, ki, vo, vi, n, bit, nb); }\n",
               threads, name, T, s->z, s->hasv ? "unsigned" : "cub::NullType", threads, items);
      break;
    case C_IOTA:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) %s(unsigned *v, unsigned long long n) "
               "{ ga_cub_iota(v, n); }\n", name);
      break;
    default:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) %s(const unsigned *v, "
               "unsigned long long n, long long *o) { ga_cub_index(v, n, o); }\n", name);
  }
}

/* Every kernel of one (dtype, z, hasv) in one program (entry point k<kind>):
** one NVRTC compile, the CCCL headers parsed once, serves a whole sort */
static const char *const entry[] = {"k0", "k1", "k2", "k3", "k4"};

static void write_cub(const ga_tkreq *req, ga_buf *b) {
  cub_src s = *(const cub_src *)req;
  for (s.kind = C_HIST; s.kind <= C_INDEX; s.kind++) {
    char w[512];
    wrapper(w, sizeof w, &s, entry[s.kind]);
    ga_buf_add(b, w);
  }
}

static cudaKernel_t get_kernel(lua_State *L, ga_state *ctx, int kind, int t, int z, int hasv) {
  cub_src s;
  memset(&s, 0, sizeof s);
  s.req = (ga_tkreq){"sort", cub_parts, write_cub, entry[kind], NULL, 2, cub_opts};
  s.kind = kind;
  s.t = t;
  s.z = z;
  s.hasv = hasv;
  const uint8_t key[6] = {'s', 'c', (uint8_t)kind, (uint8_t)t, (uint8_t)z, (uint8_t)hasv};
  return ga_tkernel(L, ctx, key, sizeof key, &s.req);
}

/* _sort_cub_source({{kind, dtype, z, hasv}, ...}) -> the CUDA source of
** these kernels (k1, k2, ...: one compile, for specs where there is no GPU)
** and their NVRTC options; nil where the toolkit's CCCL headers are absent */
static int l_sort_cub_source(lua_State *L) {
  static const char *const kinds[] = {"hist", "scan", "pass", "iota", "index", NULL};
  luaL_checktype(L, 1, LUA_TTABLE);
  if (!cub_ready()) return 0;
  lua_Integer nk = luaL_len(L, 1);
  if (nk < 1 || nk > 200) ga_error(L, "_sort_cub_source: 1 to 200 kernels, got %I", (lua_Integer)nk);
  luaL_checkstack(L, (int)nk + 8, "_sort_cub_source");
  lua_settop(L, 1);
  for (int i = 0; cub_parts[i]; i++) lua_pushstring(L, ga_kernel_source(cub_parts[i]));
  for (lua_Integer i = 1; i <= nk; i++) {
    cub_src s;
    memset(&s, 0, sizeof s);
    lua_geti(L, 1, i);
    luaL_checktype(L, -1, LUA_TTABLE);
    int v = lua_gettop(L);
    for (int f = 1; f <= 4; f++) lua_geti(L, v, f);
    s.kind = luaL_checkoption(L, v + 1, NULL, kinds);
    s.t = ga_checkdtype(L, v + 2, GA_FLOAT32, "_sort_cub_source");
    s.z = lua_toboolean(L, v + 3);
    s.hasv = lua_toboolean(L, v + 4);
    lua_settop(L, v - 1);
    char w[512], name[32];
    snprintf(name, sizeof name, "k%lld", (long long)i);
    wrapper(w, sizeof w, &s, name);
    lua_pushstring(L, w);
  }
  lua_concat(L, 3 + (int)nk);
  lua_createtable(L, 2, 0);
  for (int i = 0; i < 2; i++) {
    lua_pushstring(L, cub_opts[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 2;
}

static size_t up(size_t v) { return (v + 255) & ~(size_t)255; }

static unsigned blocks_for(lua_State *L, ga_state *ctx, uint64_t n) {
  uint64_t b = (n + 255) / 256, cap = (uint64_t)ga_device_info(L, ctx->device)->sm_count * 32;
  return (unsigned)(b < cap ? b : cap);
}

typedef struct {
  int t, z, hasv, np, threads, items;
  uint64_t n, portion, nport, maxblocks;
  unsigned *bins;
  int *ctrs, *lookback;
  char *kb[2];
  unsigned *vb[2];
} cub_job;

/* Carve the workspace (one uint8 array, pushed); counters, bins and every
** pass's look-back words are zeroed in one memset; returns it */
static ga_array *workspace(lua_State *L, ga_state *ctx, cub_job *j, int mode) {
  size_t ks = (size_t)ga_dtypes[j->t].itemsize;
  size_t bins = up((size_t)j->nport * (size_t)j->np * RADIX * 4), ctrs = up((size_t)j->nport * (size_t)j->np * 4);
  size_t lb = (size_t)j->np * (size_t)j->maxblocks * RADIX * 4;
  int nkb = mode == 0 ? (j->np - 1 < 2 ? j->np - 1 : 2) : (j->np < 2 ? j->np : 2);
  size_t kb = up((size_t)j->n * ks), vb = j->hasv ? up((size_t)j->n * 4) : 0;
  size_t zeroed = bins + ctrs + up(lb);
  int64_t total = (int64_t)(zeroed + (size_t)nkb * kb + 2 * vb);
  ga_array *w = ga_new_array(L, ctx, GA_UINT8, 1, &total);
  char *p = w->data;
  j->bins = (unsigned *)p; p += bins;
  j->ctrs = (int *)p; p += ctrs;
  j->lookback = (int *)p; p += up(lb);
  for (int b = 0; b < 2; b++) {
    j->kb[b] = b < nkb ? p : NULL;
    p += b < nkb ? kb : 0;
  }
  j->vb[0] = vb ? (unsigned *)p : NULL;
  j->vb[1] = vb ? (unsigned *)(p + vb) : NULL;
  ga_cuda_check(L, cudaMemsetAsync(w->data, 0, zeroed, ctx->stream), "sort: cudaMemsetAsync");
  return w;
}

static void launch(lua_State *L, ga_state *ctx, cudaKernel_t k, unsigned grid, unsigned block, void **args) {
  ga_launch(L, "sort", k, dim3_make(grid, 1, 1), dim3_make(block, 1, 1), args, 0, ctx->stream);
}

static void histogram(lua_State *L, ga_state *ctx, cub_job *j, const void *x) {
  cudaKernel_t k = get_kernel(L, ctx, C_HIST, j->t, j->z, j->hasv);
  /* as many blocks as fit at once (CUB's choice); 8 per SM if unknown */
  int per_sm = 8;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)k, HIST_THREADS, 0) != cudaSuccess ||
      per_sm < 1)
    per_sm = 8;
  unsigned n = (unsigned)j->n;
  int end_bit = 8 * j->np;
  void *args[] = {&j->bins, (void *)&x, &n, &end_bit};
  launch(L, ctx, k, (unsigned)(per_sm * ga_device_info(L, ctx->device)->sm_count), HIST_THREADS, args);
  k = get_kernel(L, ctx, C_SCAN, j->t, j->z, j->hasv);
  void *sargs[] = {&j->bins};
  launch(L, ctx, k, (unsigned)j->np, 256, sargs);
}

/* Pass p over every portion: keys and values from in to out */
static void pass(lua_State *L, ga_state *ctx, cub_job *j, cudaKernel_t k, int p, const char *kin, char *kout,
                 const unsigned *vin, unsigned *vout) {
  size_t ks = (size_t)ga_dtypes[j->t].itemsize;
  int *lb = j->lookback + (size_t)p * j->maxblocks * RADIX;
  for (uint64_t q = 0; q < j->nport; q++) {
    uint64_t first = q * j->portion, left = j->n - first;
    int count = (int)(left < j->portion ? left : j->portion);
    unsigned nblocks = (unsigned)(((uint64_t)count + (uint64_t)(j->threads * j->items) - 1) /
                                  (uint64_t)(j->threads * j->items));
    if (q > 0)
      ga_cuda_check(L, cudaMemsetAsync(lb, 0, (size_t)nblocks * RADIX * 4, ctx->stream), "sort: cudaMemsetAsync");
    int *ctr = j->ctrs + q * (uint64_t)j->np + (uint64_t)p;
    unsigned *bin = j->bins + (q * (uint64_t)j->np + (uint64_t)p) * RADIX;
    unsigned *bout = q + 1 < j->nport ? bin + (uint64_t)j->np * RADIX : NULL;
    const char *ki = kin + first * ks;
    const unsigned *vi = vin ? vin + first : NULL;
    int bit = 8 * p, nbits = 8;
    void *args[] = {&lb, &ctr, &bout, &bin, &kout, &ki, &vout, &vi, &count, &bit, &nbits};
    launch(L, ctx, k, nblocks, (unsigned)j->threads, args);
  }
}

int ga_sort_cub(lua_State *L, ga_state *ctx, int t, int mode, int zero_eq, uint64_t n, const void *x, void *out) {
  if (!cub_ready()) return 0;
  cub_job j;
  memset(&j, 0, sizeof j);
  j.t = t;
  j.z = zero_eq;
  j.hasv = mode != 0;
  j.np = ga_dtypes[t].itemsize;
  j.n = n;
  tuning(t, j.hasv, &j.threads, &j.items);
  uint64_t tile = (uint64_t)j.threads * (uint64_t)j.items;
  j.portion = PORTION_MAX / tile * tile;
  j.nport = (n + j.portion - 1) / j.portion;
  j.maxblocks = ((n < j.portion ? n : j.portion) + tile - 1) / tile;
  ga_array *w = workspace(L, ctx, &j, mode);
  histogram(L, ctx, &j, x);
  if (j.hasv) {
    cudaKernel_t k = get_kernel(L, ctx, C_IOTA, t, j.z, j.hasv);
    void *args[] = {&j.vb[1], &j.n};
    launch(L, ctx, k, blocks_for(L, ctx, n), 256, args);
  }
  cudaKernel_t k = get_kernel(L, ctx, C_PASS, t, j.z, j.hasv);
  for (int p = 0; p < j.np; p++) {
    int last = p == j.np - 1;
    const char *kin = p == 0 ? (const char *)x : j.kb[(p - 1) % 2];
    char *kout = last && mode == 0 ? (char *)out : j.kb[p % 2];
    const unsigned *vin = !j.hasv ? NULL : p == 0 ? j.vb[1] : j.vb[(p - 1) % 2];
    unsigned *vout = !j.hasv ? NULL : last && mode == 2 ? (unsigned *)out : j.vb[p % 2];
    pass(L, ctx, &j, k, p, kin, kout, vin, vout);
  }
  if (mode == 1) {
    k = get_kernel(L, ctx, C_INDEX, t, j.z, j.hasv);
    void *args[] = {&j.vb[(j.np - 1) % 2], &j.n, &out};
    launch(L, ctx, k, blocks_for(L, ctx, n), 256, args);
  }
  ga_array_release(w);
  lua_pop(L, 1);
  return 1;
}

static const luaL_Reg funcs_test[] = {
  {"sort_cub_source", l_sort_cub_source},
  {NULL, NULL}
};

void ga_open_sort_cub(lua_State *L) {
  ga_setprivate(L, GA_TEST, funcs_test);
}
