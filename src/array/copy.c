/*
** copy.c: the copy engine. Every copy, cast, fill and arange of the library
** goes through here, choosing the cheapest of:
**   - cudaMemcpyAsync / cudaMemsetAsync when no element needs converting;
**   - a flat kernel with vector loads and stores when both sides are
**     contiguous (after merging axes);
**   - a tiled kernel when the fast axes of source and destination differ
**     (transposes), so that reads and writes are both coalesced;
**   - a strided kernel over the merged iteration space otherwise, with
**     32-bit indexing when offsets fit.
** Kernels come from kernels/copy/copy.cuh, one instantiation per dtype pair and
** layout class, memoised in kcache.
*/
#include <string.h>

#include "array/array.h"

#define THREADS 256

/* ===================================================================== */
/* kernels                                                               */
/* ===================================================================== */


static const char *ct(int t) { return ga_dtypes[t].ctype; }

enum { K_FLAT, K_STRIDED, K_TILED, K_FILL_FLAT, K_FILL_STRIDED, K_ARANGE };

/* The one-line extern "C" instantiation of a copy.cuh template: the launch
** paths and the CI compile spec (_copy_wrapper) share it. */
static void wrapper(char *w, size_t cap, const char *name, int kind, int tout, int tin, int v, int nd,
                    int idx64) {
  const ga_ixnames n = ga_ix_names(idx64);
  const char *I = n.I, *O = n.O, *IX = n.IX;
  switch (kind) {
    case K_FLAT:
      snprintf(w, cap, "extern \"C\" __global__ void %s(%s *d, const %s *s, %s n) "
               "{ ga_copy_flat<%s, %s, %d, %s>(d, s, n); }\n",
               name, ct(tout), ct(tin), I, ct(tout), ct(tin), v, I);
      break;
    case K_STRIDED:
      snprintf(w, cap, "extern \"C\" __global__ void %s(void *d, const void *s, %s<%d, 2> ix, %s n) "
               "{ ga_copy_strided<%s, %s, %s<%d, 2>, %s, %s>(d, s, ix, n); }\n",
               name, IX, nd, I, ct(tout), ct(tin), IX, nd, I, O);
      break;
    case K_TILED:
      snprintf(w, cap, "extern \"C\" __global__ void %s(%s *d, const %s *s, long long n0, long long n1, "
               "long long nb, long long d0, long long d1, long long db, long long s0, long long s1, "
               "long long sb) { ga_copy_tiled<%s, %s>(d, s, n0, n1, nb, d0, d1, db, s0, s1, sb); }\n",
               name, ct(tout), ct(tin), ct(tout), ct(tin));
      break;
    case K_FILL_FLAT:
      snprintf(w, cap, "extern \"C\" __global__ void %s(%s *d, %s v, %s n) "
               "{ ga_fill_flat<%s, %d, %s>(d, v, n); }\n", name, ct(tout), ct(tout), I, ct(tout), v, I);
      break;
    case K_FILL_STRIDED:
      snprintf(w, cap, "extern \"C\" __global__ void %s(void *d, %s v, %s<%d, 1> ix, %s n) "
               "{ ga_fill_strided<%s, %s<%d, 1>, %s, %s>(d, v, ix, n); }\n",
               name, ct(tout), IX, nd, I, ct(tout), IX, nd, I, O);
      break;
    default:
      snprintf(w, cap, "extern \"C\" __global__ void %s(%s *d, long long n, double a, double b, "
               "long long c, long long e, int p, double l, int ai) "
               "{ ga_arange<%s>(d, n, a, b, c, e, p, l, ai); }\n", name, ct(tout), ct(tout));
      break;
  }
}

static void copy_line(char *w, size_t cap, const int *p) { wrapper(w, cap, "k", p[0], p[1], p[2], p[3], p[4], p[5]); }

static const char *const copy_parts[] = {"common", "copy", NULL};
static const ga_tkline copy_family = {{'c', 'p'}, copy_parts, copy_line};

static cudaKernel_t get_kernel(lua_State *L, ga_state *ctx, int kind, int tout, int tin, int v, int nd,
                               int idx64) {
  const int p[] = {kind, tout, tin, v, nd, idx64};
  return ga_tkernel_line(L, ctx, &copy_family, "copy", 6, p);
}

static unsigned grid_for(lua_State *L, ga_state *ctx, int64_t work) {
  return ga_grid_for(L, ctx->device, (uint64_t)work, THREADS, 64);
}

/* ===================================================================== */
/* copy                                                                  */
/* ===================================================================== */

static int pick_vec(const void *a, int asize, const void *b, int bsize, int64_t n) {
  int wide = asize > bsize ? asize : bsize;
  int v = 16 / wide;
  if (v < 1) v = 1;
  while (v > 1 && ((uintptr_t)a % ((uintptr_t)v * asize) || (uintptr_t)b % ((uintptr_t)v * bsize))) v /= 2;
  if (n < v) v = 1;
  return v;
}

/* The flat kernels of copy and fill (kind K_FLAT, K_FILL_FLAT) over n
** elements, v per thread; a0 and a1 point at the leading arguments (the
** destination, then the source or the value), the count follows. */
static void launch_flat(lua_State *L, ga_state *ctx, const char *what, int kind, int tout, int tin, int v,
                        int64_t n, void *a0, void *a1) {
  int idx64 = n >= ((int64_t)1 << 31) - 16;
  cudaKernel_t k = get_kernel(L, ctx, kind, tout, tin, v, 1, idx64);
  int64_t threads_needed = (n + v - 1) / v;
  unsigned grid = (unsigned)((threads_needed + THREADS - 1) / THREADS);
  uint64_t n64 = (uint64_t)n;
  uint32_t n32 = (uint32_t)n;
  void *args[] = {a0, a1, idx64 ? (void *)&n64 : (void *)&n32};
  ga_launch(L, what, k, dim3_make(grid, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
}

/* The strided kernels (K_STRIDED over 2 operands, K_FILL_STRIDED over 1):
** the leading arguments, the indexer, the count */
static void launch_strided(lua_State *L, ga_state *ctx, const char *what, int kind, int tout, int tin, int nd,
                           int64_t *shape, int nop, int64_t **strides, void *a0, void *a1) {
  int64_t n = ga_shape_size(nd, shape);
  int idx64 = !ga_fits32(nd, shape, nop, strides);
  ga_ixbuf ix;
  if (idx64) ga_pack_indexer64(&ix, nd, shape, nop, strides);
  else ga_pack_indexer32(&ix, nd, shape, nop, strides);
  cudaKernel_t k = get_kernel(L, ctx, kind, tout, tin, 0, nd, idx64);
  uint64_t n64 = (uint64_t)n;
  uint32_t n32 = (uint32_t)n;
  void *args[] = {a0, a1, ix.bytes, idx64 ? (void *)&n64 : (void *)&n32};
  ga_launch(L, what, k, dim3_make(grid_for(L, ctx, n), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
}

static void copy_flat(lua_State *L, ga_state *ctx, int tout, void *dst, int tin, const void *src,
                      int64_t n) {
  int v = pick_vec(dst, ga_dtypes[tout].itemsize, src, ga_dtypes[tin].itemsize, n);
  launch_flat(L, ctx, "copy", K_FLAT, tout, tin, v, n, &dst, (void *)&src);
}

static void copy_strided(lua_State *L, ga_state *ctx, int tout, void *dst, int tin, const void *src,
                         int nd, int64_t *shape, int64_t *dstr, int64_t *sstr) {
  int64_t *strides[2] = {dstr, sstr};
  launch_strided(L, ctx, "copy", K_STRIDED, tout, tin, nd, shape, 2, strides, &dst, (void *)&src);
}

/* The tiled transpose applies to a merged space of 2 or 3 axes whose last
** two axes are the fast axes of dst and src, one each. Returns 0 if not. */
static int copy_tiled(lua_State *L, ga_state *ctx, int tout, void *dst, int tin, const void *src,
                      int nd, const int64_t *shape, const int64_t *dstr, const int64_t *sstr) {
  if (nd != 2 && nd != 3) return 0;
  int a = nd - 2, b = nd - 1;
  int64_t osz = ga_dtypes[tout].itemsize, isz = ga_dtypes[tin].itemsize;
  int64_t d0, d1, s0, s1, n0, n1;
  if (dstr[b] == osz && sstr[a] == isz) {
    n0 = shape[a]; n1 = shape[b]; d0 = dstr[a]; d1 = dstr[b]; s0 = sstr[a]; s1 = sstr[b];
  } else if (dstr[a] == osz && sstr[b] == isz) {      /* relabel: swap the two axes */
    n0 = shape[b]; n1 = shape[a]; d0 = dstr[b]; d1 = dstr[a]; s0 = sstr[b]; s1 = sstr[a];
  } else {
    return 0;
  }
  if (n0 < 16 || n1 < 16) return 0;        /* thin: tiles would be mostly empty */
  int64_t nb = nd == 3 ? shape[0] : 1;
  int64_t db = nd == 3 ? dstr[0] : 0, sb = nd == 3 ? sstr[0] : 0;
  /* strides in elements (all are multiples of the itemsize here) */
  if (d0 % osz || db % osz || s1 % isz || sb % isz) return 0;
  d0 /= osz; d1 /= osz; db /= osz; s0 /= isz; s1 /= isz; sb /= isz;
  cudaKernel_t k = get_kernel(L, ctx, K_TILED, tout, tin, 0, 2, 1);
  int64_t t0 = (n0 + 31) / 32, t1 = (n1 + 31) / 32;
  dim3 grid = dim3_make((unsigned)(t1 < 0x7fffffff ? t1 : 0x7fffffff),
                        (unsigned)(t0 < 65535 ? t0 : 65535), (unsigned)(nb < 65535 ? nb : 65535));
  void *args[] = {&dst, &src, &n0, &n1, &nb, &d0, &d1, &db, &s0, &s1, &sb};
  ga_launch(L, "copy", k, grid, dim3_make(32, 8, 1), args, 0, ctx->stream);
  return 1;
}

static int same_layout(const ga_array *x, const ga_array *y) {
  if (x->data != y->data || x->ndim != y->ndim || ga_dtypes[x->dtype].itemsize != ga_dtypes[y->dtype].itemsize)
    return 0;
  for (int d = 0; d < x->ndim; d++)
    if (x->shape[d] != y->shape[d] || (x->shape[d] > 1 && x->strides[d] != y->strides[d])) return 0;
  return 1;
}

void ga_copy_into(lua_State *L, ga_state *ctx, ga_array *dst, const ga_array *src, const char *fname) {
  int64_t shape[GA_MAXDIM], dstr[GA_MAXDIM], sstr[GA_MAXDIM];
  if (dst->device != src->device)
    ga_error(L, "%s: arrays are on devices %d and %d (copy with ga.array first)", fname, src->device,
             dst->device);
  if (!ga_broadcast_strides(src->ndim, src->shape, src->strides, dst->ndim, dst->shape, sstr))
    ga_error(L, "%s: could not broadcast shape %s into %s", fname, ga_shape_str(L, src->ndim, src->shape),
             ga_shape_str(L, dst->ndim, dst->shape));
  if (dst->size == 0) return;
  ga_device_enter(L, ctx);
  if (ga_arrays_overlap(dst, src) && !same_layout(dst, src)) {
    /* read everything before writing anything */
    int top = lua_gettop(L);
    ga_array *tmp = ga_new_array(L, ctx, src->dtype, src->ndim, src->shape);
    ga_copy_into(L, ctx, tmp, src, fname);
    ga_copy_into(L, ctx, dst, tmp, fname);
    lua_settop(L, top);
    return;
  }
  if (same_layout(dst, src) && dst->dtype == src->dtype) return;
  int nd = dst->ndim;
  memcpy(shape, dst->shape, sizeof(int64_t) * nd);
  memcpy(dstr, dst->strides, sizeof(int64_t) * nd);
  int64_t *strides[2] = {dstr, sstr};
  nd = ga_merge_axes(nd, shape, 2, strides);
  int64_t osz = ga_dtypes[dst->dtype].itemsize, isz = ga_dtypes[src->dtype].itemsize;
  if (nd == 0) {             /* one element */
    nd = 1;
    shape[0] = 1;
    dstr[0] = osz;
    sstr[0] = isz;
  }
  if (nd == 1 && dstr[0] == osz && sstr[0] == isz) {
    if (dst->dtype == src->dtype) {
      ga_cuda_check(L, cudaMemcpyAsync(dst->data, src->data, (size_t)(shape[0] * osz),
                                       cudaMemcpyDeviceToDevice, ctx->stream), "cudaMemcpyAsync");
    } else {
      copy_flat(L, ctx, dst->dtype, dst->data, src->dtype, src->data, shape[0]);
    }
    return;
  }
  if (copy_tiled(L, ctx, dst->dtype, dst->data, src->dtype, src->data, nd, shape, dstr, sstr)) return;
  copy_strided(L, ctx, dst->dtype, dst->data, src->dtype, src->data, nd, shape, dstr, sstr);
}

/* ===================================================================== */
/* fill                                                                  */
/* ===================================================================== */

void ga_fill(lua_State *L, ga_state *ctx, ga_array *dst, const ga_value *v) {
  if (dst->size == 0) return;
  ga_device_enter(L, ctx);
  int t = dst->dtype;
  int64_t isz = ga_dtypes[t].itemsize;
  int64_t shape[GA_MAXDIM], st[GA_MAXDIM];
  int nd = dst->ndim;
  memcpy(shape, dst->shape, sizeof(int64_t) * nd);
  memcpy(st, dst->strides, sizeof(int64_t) * nd);
  int64_t *strides[1] = {st};
  nd = ga_merge_axes(nd, shape, 1, strides);
  if (nd == 0) { nd = 1; shape[0] = 1; st[0] = isz; }
  void *ptr = dst->data;
  if (nd == 1 && st[0] == isz) {
    int same = 1;             /* one repeated byte: a memset does it */
    for (int i = 1; i < isz; i++) same &= v->bytes[i] == v->bytes[0];
    if (same) {
      ga_cuda_check(L, cudaMemsetAsync(ptr, v->bytes[0], (size_t)(shape[0] * isz), ctx->stream),
                    "cudaMemsetAsync");
      return;
    }
    int64_t n = shape[0];
    int vec = pick_vec(ptr, (int)isz, ptr, (int)isz, n);
    ga_value val = *v;
    launch_flat(L, ctx, "fill", K_FILL_FLAT, t, t, vec, n, &ptr, &val);
    return;
  }
  ga_value val = *v;
  launch_strided(L, ctx, "fill", K_FILL_STRIDED, t, t, nd, shape, 1, strides, &ptr, &val);
}

/* ===================================================================== */
/* arange                                                                */
/* ===================================================================== */

void ga_arange_fill(lua_State *L, ga_state *ctx, ga_array *dst, double start, double step,
                    int64_t istart, int64_t istep, int use_int, int exact_last, double last) {
  if (dst->size == 0) return;
  ga_device_enter(L, ctx);
  int t = dst->dtype;
  int as_int = use_int;
  cudaKernel_t k = get_kernel(L, ctx, K_ARANGE, t, t, 0, 1, 1);
  void *ptr = dst->data;
  long long n = dst->size;
  int pin = exact_last;
  void *args[] = {&ptr, &n, &start, &step, &istart, &istep, &pin, &last, &as_int};
  ga_launch(L, "arange", k, dim3_make(grid_for(L, ctx, n), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
}

/* ===================================================================== */
/* contiguous copies                                                     */
/* ===================================================================== */

ga_array *ga_contiguous(lua_State *L, ga_state *ctx, int idx, int dtype, int force) {
  ga_array *a = ga_checkarray(L, idx);
  if (dtype < 0) dtype = a->dtype;
  if (!force && dtype == a->dtype && (a->flags & GA_F_C)) {
    lua_pushvalue(L, idx);
    return a;
  }
  ga_check_device(L, ctx, a, "copy");   /* another device's: ga_copy_across */
  ga_array *c = ga_new_array(L, ctx, dtype, a->ndim, a->shape);
  ga_copy_into(L, ctx, c, a, "copy");
  return c;
}

/* Test hook for CI: _copy_wrapper(kind, name, tout, tin, v, nd, idx64) is the
** instantiation the launch path would generate, so specs can NVRTC-compile
** every template for every dtype pair without a device. */
static int l_copy_wrapper(lua_State *L) {
  static const char *const kinds[] = {"flat", "strided", "tiled", "fill", "fill_strided", "arange", NULL};
  int kind = luaL_checkoption(L, 1, NULL, kinds);
  const char *name = ga_checkstring(L, 2, "_copy_wrapper", "the kernel name");
  int tout = ga_checkdtype(L, 3, -1, "_copy_wrapper");
  int tin = ga_checkdtype(L, 4, tout, "_copy_wrapper");
  int v = (int)luaL_optinteger(L, 5, 1), nd = (int)luaL_optinteger(L, 6, 2);
  int idx64 = lua_toboolean(L, 7);
  if (tout < 0 || v < 1 || v > 16 || nd < 1 || nd > GA_MAXDIM) ga_error(L, "_copy_wrapper: bad arguments");
  char w[640];
  wrapper(w, sizeof w, name, kind, tout, tin, v, nd, idx64);
  lua_pushstring(L, w);
  return 1;
}

static const luaL_Reg copy_funcs_test[] = {
  {"copy_wrapper", l_copy_wrapper},
  {NULL, NULL}
};

void ga_open_copy(lua_State *L) {
  ga_setprivate(L, GA_TEST, copy_funcs_test);
}
