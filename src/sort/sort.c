/*
** sort.c: the sort engine (kernels/sort/radix.cuh). Two entry points:
**   _sort(x, rowlen, mode[, perm]) sorts the rows of rowlen elements of x
**     (C order, copied to C order first when it is not): mode "sort" gives
**     the sorted values (x's dtype and shape), "argsort" the 1-based index
**     of each value in its row (int64, stable), "perm" the sorted order as
**     0-based flat positions (uint32: what the next key of a lexsort
**     starts from, given back as perm).
**   _searchsorted(a, v, right) binary searches v's values in sorted a.
** Every dtype but complex128 (which lua/gpuarray/sort.lua sorts as two
** stable float64 sorts) is one LSD radix sort: a histogram kernel, a scan
** kernel and one onesweep kernel per 8-bit digit, the digits of the key
** first and then those of the row number (one sort serves a whole batch).
** Up to 2^32 - 1 elements per call (positions travel as uint32). A single
** row with no starting order goes to sort_cub.c (CUB's kernels) instead.
*/
#include <stdio.h>
#include <string.h>

#include "sort/sort.h"

#define THREADS 256
#define IPT 16                       /* elements per thread and tile */
#define TILE (THREADS * IPT)

enum { K_HIST, K_SCAN, K_PASS, K_SEARCH, K_FLAGS };
enum { LAST_MID, LAST_KEYS, LAST_INDEX, LAST_PERM };
static const char *const modes[] = {"sort", "argsort", "perm", NULL};

/* ===================================================================== */
/* sources                                                               */
/* ===================================================================== */

typedef struct {
  ga_tkreq req;
  int kind, t;
  int first, last, hasv, hasperm;    /* K_PASS */
  int right;                         /* K_SEARCH */
} sort_src;

static const char *const sort_parts[] = {"common", "radix", NULL};

static void wrapper(char *w, size_t cap, const sort_src *s) {
  const char *T = ga_dtypes[s->t].ctype;
  switch (s->kind) {
    case K_HIST:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const %s *x, unsigned long long n, "
               "unsigned *hist, int nkp, int z) { ga_rs_hist<%s>(x, n, hist, nkp, z); }\n", T, T);
      break;
    case K_SCAN:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const unsigned *hist, int nkp, "
               "int nsp, unsigned long long n, unsigned long long rowlen, unsigned long long *off, int *triv) "
               "{ ga_rs_scan(hist, nkp, nsp, n, rowlen, off, triv); }\n");
      break;
    case K_PASS:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(ga_rs_args a) "
               "{ ga_rs_pass<%s, %s, %d, %s, %s, %d>(a); }\n", T, s->first ? "true" : "false", s->last,
               s->hasv ? "true" : "false", s->hasperm ? "true" : "false", IPT);
      break;
    case K_FLAGS:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const %s *s, unsigned long long n, "
               "bool *m) { ga_rs_flags<%s>(s, n, m); }\n", T, T);
      break;
    default:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const %s *a, unsigned long long n, "
               "const %s *v, unsigned long long nv, long long *out) { ga_rs_search<%s, %s>(a, n, v, nv, out); }\n",
               T, T, T, s->right ? "true" : "false");
  }
}

static void write_sort(const ga_tkreq *req, ga_buf *b) {
  char w[512];
  wrapper(w, sizeof w, (const sort_src *)req);
  ga_buf_add(b, w);
}

static cudaKernel_t get_kernel(lua_State *L, ga_state *ctx, sort_src *s) {
  s->req = (ga_tkreq){"sort", sort_parts, write_sort, NULL, NULL, 0, NULL};
  const uint8_t key[9] = {'s', 'o', (uint8_t)s->kind, (uint8_t)s->t, (uint8_t)s->first, (uint8_t)s->last,
                          (uint8_t)s->hasv, (uint8_t)s->hasperm, (uint8_t)s->right};
  return ga_tkernel(L, ctx, key, sizeof key, &s->req);
}

/* _sort_source(kind, dtype[, first, last, hasv, hasperm | right]) -> the
** CUDA source of one kernel (specs compile it where there is no GPU) */
static int l_sort_source(lua_State *L) {
  static const char *const kinds[] = {"hist", "scan", "pass", "search", "flags", NULL};
  sort_src s;
  memset(&s, 0, sizeof s);
  s.kind = luaL_checkoption(L, 1, NULL, kinds);
  s.t = ga_checkdtype(L, 2, GA_FLOAT32, "_sort_source");
  if (s.kind == K_PASS) {
    s.first = lua_toboolean(L, 3);
    s.last = (int)luaL_optinteger(L, 4, 0);
    s.hasv = lua_toboolean(L, 5);
    s.hasperm = lua_toboolean(L, 6);
  } else {
    s.right = lua_toboolean(L, 3);
  }
  char w[512];
  wrapper(w, sizeof w, &s);
  lua_pushstring(L, ga_kernel_source("common"));
  lua_pushstring(L, ga_kernel_source("radix"));
  lua_pushstring(L, w);
  lua_concat(L, 3);
  return 1;
}

/* ===================================================================== */
/* sorting                                                               */
/* ===================================================================== */

/* The kernel parameter block: ga_rs_args in radix.cuh */
typedef struct {
  const void *x;
  const unsigned *perm;
  const void *kin;
  const unsigned *vin;
  void *kout;
  unsigned *vout;
  void *out;
  uint64_t n, rowlen;
  const uint64_t *offsets;
  uint64_t *state;
  unsigned *ticket;
  const int *trivial;
  int shift, from_seg, zero_eq;
  uint64_t epoch;
} rs_args;

static size_t up(size_t v) { return (v + 255) & ~(size_t)255; }

/* Bytes of the radix key of dtype t */
static int key_size(int t) { return ga_dtypes[t].itemsize <= 4 ? 4 : 8; }

static unsigned grid_for(lua_State *L, ga_state *ctx, uint64_t work, int per_sm) {
  return ga_grid_for(L, ctx->device, work, THREADS, per_sm);
}

typedef struct {
  int t, mode, zero_eq, hasv;
  int nkp, nsp;
  uint64_t n, rowlen, tiles;
  const void *x;
  const unsigned *perm;
  void *out;
  /* workspace parts */
  uint64_t *state, *offsets;
  unsigned *hist, *tickets;
  int *trivial;
  char *kbuf[2];
  unsigned *vbuf[2];
} sort_job;

/* Carve the workspace (one uint8 array, pushed); returns it */
static ga_array *workspace(lua_State *L, ga_state *ctx, sort_job *j) {
  int np = j->nkp + j->nsp;
  size_t state = up((size_t)j->tiles * 256 * 8), hist = up((size_t)j->nkp * 256 * 4), tick = up((size_t)np * 4);
  size_t offs = up((size_t)np * 256 * 8), triv = up((size_t)np * 4);
  int nbuf = np >= 3 ? 2 : np - 1;
  size_t kb = up((size_t)j->n * (size_t)key_size(j->t)), vb = j->hasv ? up((size_t)j->n * 4) : 0;
  size_t zeroed = state + hist + tick;
  int64_t total = (int64_t)(zeroed + offs + triv + (size_t)nbuf * (kb + vb));
  ga_array *w = ga_new_array(L, ctx, GA_UINT8, 1, &total);
  char *p = w->data;
  j->state = (uint64_t *)p; p += state;
  j->hist = (unsigned *)p; p += hist;
  j->tickets = (unsigned *)p; p += tick;
  j->offsets = (uint64_t *)p; p += offs;
  j->trivial = (int *)p; p += triv;
  for (int b = 0; b < 2; b++) {
    j->kbuf[b] = b < nbuf ? p : NULL;
    p += b < nbuf ? kb : 0;
    j->vbuf[b] = b < nbuf && vb ? (unsigned *)p : NULL;
    p += b < nbuf ? vb : 0;
  }
  ga_cuda_check(L, cudaMemsetAsync(w->data, 0, zeroed, ctx->stream), "sort: cudaMemsetAsync");
  return w;
}

static void run_sort(lua_State *L, ga_state *ctx, sort_job *j) {
  int np = j->nkp + j->nsp;
  ga_array *w = workspace(L, ctx, j);
  sort_src s;
  memset(&s, 0, sizeof s);
  s.t = j->t;
  s.kind = K_HIST;
  cudaKernel_t k = get_kernel(L, ctx, &s);
  int nkp = j->nkp, z = j->zero_eq, nsp = j->nsp;
  uint64_t n = j->n, rowlen = j->rowlen;
  {
    void *args[] = {(void *)&j->x, &n, &j->hist, &nkp, &z};
    ga_launch(L, "sort", k, dim3_make(grid_for(L, ctx, n, 8), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
              ctx->stream);
  }
  s.kind = K_SCAN;
  s.t = GA_UINT8;     /* the scan is the same kernel for every dtype */
  k = get_kernel(L, ctx, &s);
  {
    void *args[] = {&j->hist, &nkp, &nsp, &n, &rowlen, &j->offsets, &j->trivial};
    ga_launch(L, "sort", k, dim3_make(1, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
  }
  s.kind = K_PASS;
  s.t = j->t;
  int last_mode = j->mode == 0 ? LAST_KEYS : j->mode == 1 ? LAST_INDEX : LAST_PERM;
  for (int p = 0; p < np; p++) {
    s.first = p == 0;
    s.last = p == np - 1 ? last_mode : LAST_MID;
    s.hasv = j->hasv;
    s.hasperm = p == 0 && j->perm != NULL;
    k = get_kernel(L, ctx, &s);
    rs_args a;
    memset(&a, 0, sizeof a);
    a.x = j->x;
    a.perm = j->perm;
    if (p > 0) {
      a.kin = j->kbuf[(p - 1) % 2];
      a.vin = j->vbuf[(p - 1) % 2];
    }
    if (p < np - 1) {
      a.kout = j->kbuf[p % 2];
      a.vout = j->vbuf[p % 2];
    }
    a.out = j->out;
    a.n = n;
    a.rowlen = rowlen;
    a.offsets = j->offsets + (size_t)p * 256;
    a.state = j->state;
    a.ticket = j->tickets + p;
    a.trivial = j->trivial + p;
    a.from_seg = p >= j->nkp;
    a.shift = 8 * (a.from_seg ? p - j->nkp : p);
    a.zero_eq = z;
    a.epoch = (uint64_t)(p + 1) << 60;
    void *args[] = {&a};
    ga_launch(L, "sort", k, dim3_make((unsigned)j->tiles, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
  }
  ga_array_release(w);
  lua_pop(L, 1);
}

/* Bytes needed to write v - 1 (v >= 1): the row-number digits */
static int digits_of(uint64_t nseg) {
  int d = 0;
  for (uint64_t v = nseg - 1; v; v >>= 8) d++;
  return d;
}

static int l_sort(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *x0 = ga_checkarray(L, 1);
  int64_t rowlen = luaL_checkinteger(L, 2);
  int mode = luaL_checkoption(L, 3, NULL, modes);
  ga_array *perm = lua_isnoneornil(L, 4) ? NULL : ga_checkarray(L, 4);
  if (x0->dtype == GA_COMPLEX128) ga_error(L, "sort: internal: complex128 is sorted as two float64 keys");
  if (x0->size >= ((int64_t)1 << 32) - 1) ga_error(L, "sort: at most 2^32 - 2 elements, got %I", (lua_Integer)x0->size);
  if (x0->size > 0 && (rowlen <= 0 || x0->size % rowlen))
    ga_error(L, "sort: internal: row length %I does not divide %I elements", (lua_Integer)rowlen,
             (lua_Integer)x0->size);
  if (perm && (perm->dtype != GA_UINT32 || !(perm->flags & GA_F_C) || perm->size != x0->size))
    ga_error(L, "sort: internal: perm must be a contiguous uint32 array of %I elements", (lua_Integer)x0->size);
  ga_check_device(L, ctx, x0, "sort");
  ga_array *x = ga_contiguous(L, ctx, 1, x0->dtype, 0);
  int64_t n = x->size;
  ga_array *out;
  if (mode == 0) out = ga_new_array(L, ctx, x->dtype, x->ndim, x->shape);
  else if (mode == 1) out = ga_new_array(L, ctx, GA_INT64, x->ndim, x->shape);
  else out = ga_new_array(L, ctx, GA_UINT32, 1, &n);
  if (n == 0) return 1;
  sort_job j;
  memset(&j, 0, sizeof j);
  j.t = x->dtype;
  j.mode = mode;
  /* -0.0 keeps its key below 0.0 only where values are written back and
  ** no later component decides (complex64: the imaginary part would) */
  j.zero_eq = mode != 0 || x->dtype == GA_COMPLEX64;
  j.n = (uint64_t)n;
  j.rowlen = (uint64_t)rowlen;
  j.nkp = ga_dtypes[x->dtype].itemsize;
  j.nsp = digits_of((uint64_t)(n / rowlen));
  j.hasv = mode != 0 || j.nsp > 0 || perm;
  /* one row, no starting order: CUB's onesweep (sort_cub.c) where it builds */
  if (j.nsp == 0 && !perm && ga_sort_cub(L, ctx, j.t, mode, j.zero_eq, j.n, x->data, out->data)) return 1;
  j.tiles = ((uint64_t)n + TILE - 1) / TILE;
  j.x = x->data;
  j.perm = perm ? (const unsigned *)perm->data : NULL;
  j.out = out->data;
  run_sort(L, ctx, &j);
  return 1;
}

/* ===================================================================== */
/* searching                                                             */
/* ===================================================================== */

static int l_searchsorted(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a0 = ga_readarray(L, 1), *v0 = ga_readarray(L, 2);
  int right = lua_toboolean(L, 3);
  if (a0->dtype != v0->dtype) ga_error(L, "searchsorted: internal: dtypes differ");
  if (a0->ndim != 1) ga_error(L, "searchsorted: a must be 1-D, got shape %s", ga_shape_str(L, a0->ndim, a0->shape));
  ga_check_device(L, ctx, a0, "searchsorted");
  ga_check_device(L, ctx, v0, "searchsorted");
  ga_array *a = ga_contiguous(L, ctx, 1, a0->dtype, 0);
  ga_array *v = ga_contiguous(L, ctx, 2, v0->dtype, 0);
  ga_array *out = ga_new_array(L, ctx, GA_INT64, v->ndim, v->shape);
  if (v->size == 0) return 1;
  sort_src s;
  memset(&s, 0, sizeof s);
  s.kind = K_SEARCH;
  s.t = a->dtype;
  s.right = right;
  cudaKernel_t k = get_kernel(L, ctx, &s);
  uint64_t n = (uint64_t)a->size, nv = (uint64_t)v->size;
  void *args[] = {&a->data, &n, &v->data, &nv, &out->data};
  ga_launch(L, "searchsorted", k, dim3_make(grid_for(L, ctx, nv, 32), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
  return 1;
}

/* _unique_flags(s) -> bool array: where each run of equal values of the
** sorted 1-D s starts (NaNs equal, -0.0 == 0.0) */
static int l_unique_flags(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *s0 = ga_readarray(L, 1);
  ga_check_device(L, ctx, s0, "unique");
  ga_array *s = ga_contiguous(L, ctx, 1, s0->dtype, 0);
  ga_array *m = ga_new_array(L, ctx, GA_BOOL, 1, &s->size);
  if (s->size == 0) return 1;
  sort_src src;
  memset(&src, 0, sizeof src);
  src.kind = K_FLAGS;
  src.t = s->dtype;
  cudaKernel_t k = get_kernel(L, ctx, &src);
  uint64_t n = (uint64_t)s->size;
  void *args[] = {&s->data, &n, &m->data};
  ga_launch(L, "unique", k, dim3_make(grid_for(L, ctx, n, 32), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
  return 1;
}

static const luaL_Reg funcs_sort[] = {
  {"unique_flags", l_unique_flags},
  {"sort", l_sort},
  {"searchsorted", l_searchsorted},
  {NULL, NULL}
};

static const luaL_Reg funcs_test[] = {
  {"sort_source", l_sort_source},
  {NULL, NULL}
};

void ga_open_sort(lua_State *L) {
  ga_setprivate(L, "sort", funcs_sort);
  ga_setprivate(L, GA_TEST, funcs_test);
  ga_open_sort_cub(L);
}
