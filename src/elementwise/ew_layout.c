/*
** ew_layout.c: the elementwise engine's choice of layout class for a call
** (flat vectorised, strided through an indexer, vectorised inner axis),
** the launch geometry, and the per-object memo of compiled variants.
*/
#include <string.h>

#include "elementwise/elementwise.h"

#define THREADS 256

/* ===================================================================== */
/* layout classes                                                        */
/* ===================================================================== */

/* w is a power of two (vector width x itemsize): a mask, not a division
** (64-bit divisions were the slowest instructions of a tiny a + b) */
static int multiple_of(int64_t x, int64_t w) { return (x & (w - 1)) == 0; }

static int pick_flat_vec(const ga_ewiter *it) {
  int wide = 1;
  for (int k = 0; k < it->narr; k++)
    if (it->itemsize[k] > wide) wide = it->itemsize[k];
  int v = 16 >> __builtin_ctz((unsigned)wide);   /* itemsizes are powers of two */
  if (v < 1) v = 1;
  for (;;) {
    int ok = 1;
    for (int k = 0; k < it->narr && ok; k++)
      ok = multiple_of((int64_t)(uintptr_t)it->ptr[k], (int64_t)v * it->itemsize[k]);
    if (ok || v == 1) return v;
    v /= 2;
  }
}

/* VIN: every operand's last stride is its itemsize (a vector operand) or 0
** (an input broadcast along the last axis) */
static int try_vin(ga_ewiter *it, int nd, int64_t *shape, int64_t **st, ga_ewvariant *v, ga_ixbuf *ix,
                   int64_t *count) {
  int last = nd - 1, wide = 1;
  uint32_t bm = 0;
  for (int k = 0; k < it->narr; k++) {
    int64_t s = st[k][last];
    if (s == it->itemsize[k]) {
      if (it->itemsize[k] > wide) wide = it->itemsize[k];
    } else if (s == 0 && !it->out[k]) {
      bm |= 1u << k;
    } else {
      return 0;
    }
  }
  int vec = 16 / wide;
  for (; vec >= 2; vec /= 2) {
    int ok = multiple_of(shape[last], vec);
    for (int k = 0; k < it->narr && ok; k++) {
      if (bm & (1u << k)) continue;
      int64_t w = (int64_t)vec * it->itemsize[k];
      ok = multiple_of((int64_t)(uintptr_t)it->ptr[k], w);
      for (int d = 0; d < last && ok; d++) ok = multiple_of(st[k][d], w);
    }
    if (ok) break;
  }
  if (vec < 2) return 0;
  int idx64 = !ga_fits32(nd, shape, it->narr, st);
  int64_t vshape[GA_MAXDIM];
  memcpy(vshape, shape, sizeof(int64_t) * nd);
  vshape[last] /= vec;
  for (int k = 0; k < it->narr; k++) st[k][last] = (bm & (1u << k)) ? 0 : (int64_t)vec * it->itemsize[k];
  if (idx64) ga_pack_indexer64(ix, nd, vshape, it->narr, st);
  else ga_pack_indexer32(ix, nd, vshape, it->narr, st);
  v->cls = GA_EW_VIN;
  v->vec = vec;
  v->unroll = 1;
  v->nd = nd;
  v->idx64 = idx64;
  v->bmask = bm;
  *count = it->n / vec;
  return 1;
}

void ga_ew_layout(ga_ewiter *it, int reduce_dims, int allow_vin, ga_ewvariant *v, ga_ixbuf *ix,
                  int64_t *count) {
  memset(v, 0, sizeof *v);
  int64_t n = it->n;
  int flat = it->contiguous || it->narr == 0;
  int nd = it->ndim;
  int64_t shape[GA_MAXDIM];
  int64_t *st[GA_IX_MAXOP];
  if (!flat) {
    memcpy(shape, it->shape, sizeof(int64_t) * nd);
    for (int k = 0; k < it->narr; k++) st[k] = it->strides[k];
    if (reduce_dims) nd = ga_merge_axes(nd, shape, it->narr, st);
    if (nd == 0) {
      flat = 1;                   /* one element */
    } else if (nd == 1 && reduce_dims) {
      flat = 1;
      for (int k = 0; k < it->narr && flat; k++) flat = st[k][0] == it->itemsize[k];
    }
  }
  if (flat) {
    /* without arrays (raw parameters and a size) consecutive threads take
    ** consecutive i, for the user's own indexing to coalesce */
    v->cls = GA_EW_FLAT;
    v->vec = it->narr && n > GA_EW_TINY ? pick_flat_vec(it) : 1;
    v->unroll = it->narr && n > GA_EW_TINY ? GA_EW_FLAT_UNROLL : 1;
    /* the last thread's first element index stays below 2^32 */
    v->idx64 = n >= ((int64_t)1 << 31) - ((int64_t)1 << 16);
    *count = n;
    return;
  }
  if (allow_vin && reduce_dims && try_vin(it, nd, shape, st, v, ix, count)) return;
  if (nd == 0) {                  /* reduce_dims off and a 0-d iteration */
    nd = 1;
    shape[0] = 1;
    for (int k = 0; k < it->narr; k++) st[k][0] = 0;
  }
  v->cls = GA_EW_STRIDED;
  v->unroll = GA_EW_STRIDED_UNROLL;
  v->nd = nd;
  v->idx64 = !ga_fits32(nd, shape, it->narr, st);
  if (v->idx64) ga_pack_indexer64(ix, nd, shape, it->narr, st);
  else ga_pack_indexer32(ix, nd, shape, it->narr, st);
  *count = n;
}

/* Threads per block for a call needing 'threads' of them: THREADS, or for
** tiny calls the fewest whole warps (one block of 32 for a + b on one
** element: less for the GPU to set up per launch) */
static unsigned block_for(uint64_t threads) {
  if (threads >= THREADS) return THREADS;
  return threads <= 32 ? 32u : (unsigned)((threads + 31) & ~(uint64_t)31);
}

void ga_ew_launch(lua_State *L, cudaStream_t stream, const char *what, const ga_ewentry *e,
                  const ga_ewvariant *v, void **args, int nargs, ga_ixbuf *ix, int64_t count,
                  int block) {
  uint32_t c32 = (uint32_t)count;
  uint64_t c64 = (uint64_t)count;
  if (v->cls != GA_EW_FLAT) args[nargs++] = ix->bytes;
  args[nargs++] = v->idx64 ? (void *)&c64 : (void *)&c32;
  /* elements per thread: vec * unroll, a power of two (no division) */
  unsigned per = (unsigned)((v->cls == GA_EW_FLAT ? v->vec : 1) * (v->unroll > 0 ? v->unroll : 1));
  unsigned sh = (unsigned)__builtin_ctz(per);
  uint64_t threads = (c64 + per - 1) >> sh;
  unsigned b = block > 0 ? (unsigned)block : block_for(threads);
  uint64_t grid = (b & (b - 1)) == 0 ? (threads + b - 1) >> __builtin_ctz(b) : (threads + b - 1) / b;
  if (grid < 1) grid = 1;
  if (grid > 0x7fffffff) grid = 0x7fffffff;   /* the strided loops stride over the rest */
  dim3 g = dim3_make((unsigned)grid, 1, 1), bl = dim3_make(b, 1, 1);
  /* the entry's CUfunction: no device query, no table lookup per call */
  if (e->fn && ga_driver_launch(e->fn, g, bl, args, 0, stream)) {
    ga_gc_settle(L);
    return;
  }
  ga_launch(L, what, e->k, g, bl, args, 0, stream);
}

/* ===================================================================== */
/* the memo                                                              */
/* ===================================================================== */

void ga_ewcache_init(ga_ewcache *c, int nwords) {
  c->n = c->cap = 0;
  c->nwords = nwords;
  c->e = NULL;
}

static int key_equal(const uint64_t *a, const uint64_t *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

const ga_ewentry *ga_ewcache_get(ga_ewcache *c, const uint64_t *key) {
  for (int i = 0; i < c->n; i++) {
    if (!key_equal(c->e[i].key, key, c->nwords)) continue;
    if (i == 0) return &c->e[0];
    /* move hits forward: the hot variant is found first */
    ga_ewentry t = c->e[i - 1];
    c->e[i - 1] = c->e[i];
    c->e[i] = t;
    return &c->e[i - 1];
  }
  return NULL;
}

const ga_ewentry *ga_ewcache_put(ga_ewcache *c, const uint64_t *key, cudaKernel_t k, ga_ewentry *spare) {
  ga_ewentry *e = spare;
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 4;
    ga_ewentry *ne = (ga_ewentry *)realloc(c->e, sizeof *ne * (size_t)cap);
    if (ne) {
      c->e = ne;
      c->cap = cap;
    }
  }
  if (c->n < c->cap) e = &c->e[c->n++];   /* else not memoised: only slower */
  memset(e, 0, sizeof *e);
  memcpy(e->key, key, sizeof(uint64_t) * (size_t)c->nwords);
  e->k = k;
  e->fn = ga_driver_function(k);
  return e;
}

void ga_ewcache_free(ga_ewcache *c) {
  free(c->e);
  c->e = NULL;
  c->n = c->cap = 0;
}

uint64_t ga_ew_variant_word(const ga_ewvariant *v, int device) {
  return (uint64_t)v->cls | (uint64_t)v->vec << 2 | (uint64_t)v->unroll << 7 | (uint64_t)v->nd << 10 |
         (uint64_t)v->idx64 << 16 | (uint64_t)(device & 0xff) << 17 | (uint64_t)(v->bmask & 0xffff) << 25;
}

/* ===================================================================== */
/* test hook                                                             */
/* ===================================================================== */

static int64_t int_field(lua_State *L, int t, const char *key, int64_t def) {
  lua_getfield(L, t, key);
  int64_t v = lua_isnil(L, -1) ? def : (int64_t)luaL_checkinteger(L, -1);
  lua_pop(L, 1);
  return v;
}

/* core._test.ew_layout{shape=, ops={{strides=, itemsize=, ptr=, out=}, ...},
** contiguous=, reduce_dims=, vin=} -> {class=, vec=, unroll=, nd=, idx64=,
** bmask=, count=}: the layout class a call would take, for specs */
int ga_l_ew_layout(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  ga_ewiter it;
  memset(&it, 0, sizeof it);
  lua_getfield(L, 1, "shape");
  it.ndim = ga_checkshape(L, -1, it.shape, "_ew_layout");
  lua_pop(L, 1);
  it.n = ga_shape_size(it.ndim, it.shape);
  lua_getfield(L, 1, "ops");
  luaL_checktype(L, -1, LUA_TTABLE);
  it.narr = (int)lua_rawlen(L, -1);
  if (it.narr > GA_IX_MAXOP) ga_error(L, "_ew_layout: too many operands");
  for (int k = 0; k < it.narr; k++) {
    lua_rawgeti(L, -1, k + 1);
    int t = lua_gettop(L);
    lua_getfield(L, t, "strides");
    if (ga_checkintlist(L, -1, it.strides[k], "_ew_layout") != it.ndim)
      ga_error(L, "_ew_layout: operand %d: strides and shape differ in length", k + 1);
    lua_pop(L, 1);
    it.itemsize[k] = (int)int_field(L, t, "itemsize", 4);
    it.ptr[k] = (char *)(intptr_t)int_field(L, t, "ptr", 4096);
    lua_getfield(L, t, "out");
    it.out[k] = lua_toboolean(L, -1);
    lua_settop(L, t - 1);
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "contiguous");
  it.contiguous = lua_toboolean(L, -1);
  lua_getfield(L, 1, "reduce_dims");
  int reduce = lua_isnil(L, -1) || lua_toboolean(L, -1);
  lua_getfield(L, 1, "vin");
  int vin = lua_isnil(L, -1) || lua_toboolean(L, -1);
  lua_pop(L, 3);
  ga_ewvariant v;
  ga_ixbuf ix;
  int64_t count;
  ga_ew_layout(&it, reduce, vin, &v, &ix, &count);
  static const char *const cls[] = {"flat", "strided", "vin"};
  lua_createtable(L, 0, 7);
  ga_setstr(L, "class", cls[v.cls]);
  ga_setint(L, "vec", v.vec);
  ga_setint(L, "unroll", v.unroll);
  ga_setint(L, "nd", v.nd);
  ga_setbool(L, "idx64", v.idx64);
  ga_setint(L, "bmask", v.bmask);
  ga_setint(L, "count", count);
  return 1;
}
