/*
** gather.c: integer-array indexing on the device.
**   _take(x, idx, axis|nil, out|nil)   out = x gathered along axis (1-based;
**                                      nil: x flattened), NumPy's take
**   _scatter(x, idx, v)                x[idx] = v along the first axis
**   _put(x, idx, vals)                 x.flat[idx] = vals (cyclic), NumPy's put
** Indices are 1-based and wrap rather than raise (no sync): the rule is
** written once, in kernels/select/gather.cuh (ga_wrap). Layouts are handled by
** building one iteration space over the output (or the indexed shape) with
** per-operand strides, merged like the copy engine's. Two shapes of that
** space get kernels of their own: one dimension with contiguous indices and
** output (a vector gather: V indices per thread, vector loads and stores),
** and (M, R) with contiguous rows (x[idx] on a matrix: one vector of a row
** per thread). Everything else goes through the indexer.
** The public functions (argument forms, options) are lua/gpuarray/select.lua.
*/
#include <string.h>

#include "select/select.h"

#define THREADS 256
#define LIM32 (((int64_t)1 << 31) - 64)

/* Test hook (_gather_force64): run the 64-bit kernels on small arrays too,
** so the GPU specs cover them without allocating 2^31 elements. Atomic:
** states on other threads read it. */
static atomic_int force64;

/* ===================================================================== */
/* kernels                                                               */
/* ===================================================================== */

enum { K_GATHER_FLAT, K_GATHER, K_SCATTER, K_PUT, K_GATHER_ROWS };


static const char *ct(int t) { return ga_dtypes[t].ctype; }

/* The extern "C" instantiation of a gather.cuh template, shared by the
** launch paths and the CI compile spec (_gather_wrapper). t: the array's
** dtype, v: the values' dtype (scatter, put), ix: the index dtype. */
static void wrapper(char *w, size_t cap, const char *name, int kind, int t, int v, int ix, int vec, int nd,
                    int idx64) {
  const ga_ixnames n = ga_ix_names(idx64);
  const char *I = n.I, *O = n.O, *IX = n.IX;
  switch (kind) {
    case K_GATHER_FLAT:
      snprintf(w, cap, "extern \"C\" __global__ void %s(%s *out, const char *x, const %s *idx, %s m, %s n, "
               "%s sx) { ga_gather_flat<%s, %s, %d, %s, %s>(out, x, idx, m, n, sx); }\n",
               name, ct(t), ct(ix), I, O, O, ct(t), ct(ix), vec, I, O);
      break;
    case K_GATHER:
      snprintf(w, cap, "extern \"C\" __global__ void %s(char *out, const char *x, const char *idx, "
               "%s<%d, 3> ix, %s total, %s n, %s sx) "
               "{ ga_gather_strided<%s, %s, %s<%d, 3>, %s, %s>(out, x, idx, ix, total, n, sx); }\n",
               name, IX, nd, I, O, O, ct(t), ct(ix), IX, nd, I, O);
      break;
    case K_SCATTER:
      snprintf(w, cap, "extern \"C\" __global__ void %s(char *x, const char *v, const char *idx, "
               "%s<%d, 3> ix, %s total, %s n, %s sx) "
               "{ ga_scatter_strided<%s, %s, %s, %s<%d, 3>, %s, %s>(x, v, idx, ix, total, n, sx); }\n",
               name, IX, nd, I, O, O, ct(t), ct(v), ct(ix), IX, nd, I, O);
      break;
    case K_GATHER_ROWS:
      snprintf(w, cap, "extern \"C\" __global__ void %s(%s *out, const char *x, const %s *idx, %s nvec, "
               "%s rvec, %s n, %s sa) { ga_gather_rows<%s, %s, %d, %s, %s>(out, x, idx, nvec, rvec, n, sa); }\n",
               name, ct(t), ct(ix), I, I, O, O, ct(t), ct(ix), vec, I, O);
      break;
    default:
      snprintf(w, cap, "extern \"C\" __global__ void %s(char *x, %s<%d, 1> ix, const %s *idx, "
               "const %s *vals, %s m, %s nv, %s size) "
               "{ ga_put<%s, %s, %s, %s<%d, 1>, %s, %s>(x, ix, idx, vals, m, nv, size); }\n",
               name, IX, nd, ct(ix), ct(v), I, I, O, ct(t), ct(v), ct(ix), IX, nd, I, O);
      break;
  }
}

static void gather_line(char *w, size_t cap, const int *p) {
  wrapper(w, cap, "k", p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
}

static const char *const gather_parts[] = {"common", "gather", NULL};
static const ga_tkline gather_family = {{'g', 'a'}, gather_parts, gather_line};

static cudaKernel_t get_kernel(lua_State *L, ga_state *ctx, int kind, int t, int v, int ix, int vec, int nd,
                               int idx64) {
  const int p[] = {kind, t, v, ix, vec, nd, idx64};
  return ga_tkernel_line(L, ctx, &gather_family, "gather", 7, p);
}

static unsigned grid_for(lua_State *L, ga_state *ctx, int64_t work) {
  return ga_grid_for(L, ctx->device, (uint64_t)work, THREADS, 64);
}

/* ===================================================================== */
/* helpers                                                               */
/* ===================================================================== */

static int isz(int t) { return ga_dtypes[t].itemsize; }

static void check_index_dtype(lua_State *L, const ga_array *idx, const char *fname) {
  if (!GA_IS_INT(idx->dtype))
    ga_error(L, "%s: index arrays must have an integer dtype, got %s", fname, ga_dtypes[idx->dtype].name);
}

/* Conservative aliasing test: do a and b use the same allocation? */
static int shares(const ga_array *a, const ga_array *b) {
  return a->block != NULL && a->block == b->block;
}

/* Every byte offset of a fits in 32 bits (with room for the kernels' sums) */
static int extent_fits32(const ga_array *a) {
  int64_t lo, hi;
  ga_extent(a->ndim, a->shape, a->strides, &lo, &hi);
  return lo > -LIM32 && hi < LIM32;
}

/* The iteration space of a gather or scatter along axis of x: x's axes
** before it, the index array's axes, x's axes after it. xs gets x's
** strides with zeros on the index axes, is the index array's strides with
** zeros elsewhere. Returns the number of axes. */
static int index_space(lua_State *L, const ga_array *x, int axis, const ga_array *idx, int64_t *shape,
                       int64_t *xs, int64_t *is, const char *fname) {
  int nd = x->ndim - 1 + idx->ndim;
  if (nd > GA_MAXDIM) ga_error(L, "%s: the result would have more than %d dimensions", fname, GA_MAXDIM);
  int k = 0;
  for (int d = 0; d < axis; d++, k++) {
    shape[k] = x->shape[d];
    xs[k] = x->strides[d];
    is[k] = 0;
  }
  for (int d = 0; d < idx->ndim; d++, k++) {
    shape[k] = idx->shape[d];
    xs[k] = 0;
    is[k] = idx->strides[d];
  }
  for (int d = axis + 1; d < x->ndim; d++, k++) {
    shape[k] = x->shape[d];
    xs[k] = x->strides[d];
    is[k] = 0;
  }
  return nd;
}

/* The flat kernel's elements per thread: up to 32 bytes of output and at
** most 8 indices (8 random reads in flight per thread), halved until both
** pointers are aligned for it. */
static int pick_vec(const void *out, int osz, const void *idx, int isize, int64_t n) {
  int v = 32 / osz;
  if (v > 8) v = 8;
  if (v < 1) v = 1;
  while (v > 1 && ((uintptr_t)out % ((uintptr_t)v * osz) || (uintptr_t)idx % ((uintptr_t)v * isize))) v /= 2;
  if (n < v) v = 1;
  return v;
}

/* ===================================================================== */
/* launches                                                              */
/* ===================================================================== */

/* The rows kernel applies to a space merged to (M, R) where out is
** contiguous, x's rows are contiguous and the indices run along M, with
** vectors of at least 2 elements that divide R and keep every row aligned.
** Returns 0 when it does not apply. */
static int gather_rows(lua_State *L, ga_state *ctx, void *po, const ga_array *x, int64_t n, int64_t sa,
                       const ga_array *idx, const int64_t *shape, const int64_t *so, const int64_t *sx,
                       const int64_t *si, int idx64, const char *fname) {
  int t = x->dtype, tsz = isz(t), ixsz = isz(idx->dtype);
  int64_t m = shape[0], r = shape[1];
  if (!(so[1] == tsz && so[0] == r * tsz && sx[0] == 0 && sx[1] == tsz && si[0] == ixsz && si[1] == 0))
    return 0;
  int vec = 16 / tsz;
  for (; vec >= 2; vec /= 2) {
    int64_t w = (int64_t)vec * tsz;
    if (r % vec == 0 && sa % w == 0 && (uintptr_t)x->data % (uintptr_t)w == 0 && (uintptr_t)po % (uintptr_t)w == 0)
      break;
  }
  if (vec < 2) return 0;
  int64_t nvec = m * (r / vec), rvec = r / vec;
  cudaKernel_t k = get_kernel(L, ctx, K_GATHER_ROWS, t, 0, idx->dtype, vec, 2, idx64);
  uint64_t nv64 = (uint64_t)nvec, rv64 = (uint64_t)rvec;
  uint32_t nv32 = (uint32_t)nvec, rv32 = (uint32_t)rvec;
  int64_t n64 = n, sa64 = sa;
  int32_t n32 = (int32_t)n, sa32 = (int32_t)sa;
  const void *px = x->data, *pi = idx->data;
  void *args[] = {&po, &px, &pi, idx64 ? (void *)&nv64 : (void *)&nv32, idx64 ? (void *)&rv64 : (void *)&rv32,
                  idx64 ? (void *)&n64 : (void *)&n32, idx64 ? (void *)&sa64 : (void *)&sa32};
  ga_launch(L, fname, k, dim3_make(grid_for(L, ctx, nvec), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
  return 1;
}

/* out (shape: index_space) = x gathered along axis. x describes the
** layout to read (it may be a flattened view of the caller's array). */
static void gather_run(lua_State *L, ga_state *ctx, ga_array *out, const ga_array *x, int axis,
                       const ga_array *idx, const char *fname) {
  int64_t shape[GA_MAXDIM], so[GA_MAXDIM], sx[GA_MAXDIM], si[GA_MAXDIM];
  int nd = index_space(L, x, axis, idx, shape, sx, si, fname);
  if (out->size == 0) return;
  int64_t n = x->shape[axis], sa = x->strides[axis];
  if (n == 0)
    ga_error(L, "%s: cannot take %I elements from an empty axis", fname, (lua_Integer)idx->size);
  memcpy(so, out->strides, sizeof(int64_t) * nd);
  ga_device_enter(L, ctx);
  int t = x->dtype, tsz = isz(t), ix = idx->dtype, ixsz = isz(ix);
  int64_t *strides[3] = {so, sx, si};
  nd = ga_merge_axes(nd, shape, 3, strides);
  if (nd == 0) {
    nd = 1;
    shape[0] = 1;
    so[0] = tsz;
    sx[0] = 0;
    si[0] = ixsz;
  }
  int64_t total = ga_shape_size(nd, shape);
  int idx64 = force64 || !(total < LIM32 && n < LIM32 && ga_fits32(nd, shape, 3, strides) && extent_fits32(x));
  uint64_t m64 = (uint64_t)total;
  uint32_t m32 = (uint32_t)total;
  int64_t n64 = n, sa64 = sa;
  int32_t n32 = (int32_t)n, sa32 = (int32_t)sa;
  void *pm = idx64 ? (void *)&m64 : (void *)&m32;
  void *pn = idx64 ? (void *)&n64 : (void *)&n32;
  void *ps = idx64 ? (void *)&sa64 : (void *)&sa32;
  void *po = out->data;
  const void *px = x->data, *pi = idx->data;
  if (nd == 1 && so[0] == tsz && si[0] == ixsz && sx[0] == 0) {
    int vec = pick_vec(po, tsz, pi, ixsz, total);
    cudaKernel_t k = get_kernel(L, ctx, K_GATHER_FLAT, t, 0, ix, vec, 1, idx64);
    int64_t threads = (total + vec - 1) / vec;
    unsigned grid = (unsigned)((threads + THREADS - 1) / THREADS);
    void *args[] = {&po, &px, &pi, pm, pn, ps};
    ga_launch(L, fname, k, dim3_make(grid, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
    return;
  }
  if (nd == 2 && gather_rows(L, ctx, po, x, n, sa, idx, shape, so, sx, si, idx64, fname)) return;
  ga_ixbuf ixb;
  if (idx64) ga_pack_indexer64(&ixb, nd, shape, 3, strides);
  else ga_pack_indexer32(&ixb, nd, shape, 3, strides);
  cudaKernel_t k = get_kernel(L, ctx, K_GATHER, t, 0, ix, 1, nd, idx64);
  void *args[] = {&po, &px, &pi, ixb.bytes, pm, pn, ps};
  ga_launch(L, fname, k, dim3_make(grid_for(L, ctx, total), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
}

/* x[..., wrap(idx), ...] = v (broadcast to the indexed shape, cast) */
static void scatter_run(lua_State *L, ga_state *ctx, ga_array *x, int axis, const ga_array *idx,
                        const ga_array *v, const char *fname) {
  int64_t shape[GA_MAXDIM], sx[GA_MAXDIM], sv[GA_MAXDIM], si[GA_MAXDIM];
  int nd = index_space(L, x, axis, idx, shape, sx, si, fname);
  if (!ga_broadcast_strides(v->ndim, v->shape, v->strides, nd, shape, sv))
    ga_error(L, "%s: cannot assign a value of shape %s to the indexed shape %s", fname,
             ga_shape_str(L, v->ndim, v->shape), ga_shape_str(L, nd, shape));
  int64_t total = ga_shape_size(nd, shape);
  if (total == 0) return;
  int64_t n = x->shape[axis], sa = x->strides[axis];
  if (n == 0)
    ga_error(L, "%s: cannot assign %I elements along an empty axis", fname, (lua_Integer)idx->size);
  ga_device_enter(L, ctx);
  int t = x->dtype, ix = idx->dtype;
  int64_t *strides[3] = {sx, sv, si};
  nd = ga_merge_axes(nd, shape, 3, strides);
  if (nd == 0) {
    nd = 1;
    shape[0] = 1;
    sx[0] = sv[0] = si[0] = 0;
  }
  int idx64 = force64 || !(total < LIM32 && n < LIM32 && ga_fits32(nd, shape, 3, strides) && extent_fits32(x));
  uint64_t m64 = (uint64_t)total;
  uint32_t m32 = (uint32_t)total;
  int64_t n64 = n, sa64 = sa;
  int32_t n32 = (int32_t)n, sa32 = (int32_t)sa;
  ga_ixbuf ixb;
  if (idx64) ga_pack_indexer64(&ixb, nd, shape, 3, strides);
  else ga_pack_indexer32(&ixb, nd, shape, 3, strides);
  cudaKernel_t k = get_kernel(L, ctx, K_SCATTER, t, v->dtype, ix, 1, nd, idx64);
  void *px = x->data;
  const void *pv = v->data, *pi = idx->data;
  void *args[] = {&px, &pv, &pi, ixb.bytes, idx64 ? (void *)&m64 : (void *)&m32,
                  idx64 ? (void *)&n64 : (void *)&n32, idx64 ? (void *)&sa64 : (void *)&sa32};
  ga_launch(L, fname, k, dim3_make(grid_for(L, ctx, total), 1, 1), dim3_make(THREADS, 1, 1), args, 0,
            ctx->stream);
}

/* x.flat[wrap(idx[i])] = vals[i mod nv]; idx and vals are C-contiguous */
static void put_run(lua_State *L, ga_state *ctx, ga_array *x, const ga_array *idx, const ga_array *vals) {
  int64_t m = idx->size, nv = vals->size, size = x->size;
  if (m == 0 || nv == 0) return;
  if (size == 0) ga_error(L, "put: cannot put %I values into an empty array", (lua_Integer)m);
  ga_device_enter(L, ctx);
  int64_t shape[GA_MAXDIM], st[GA_MAXDIM];
  int nd = x->ndim;
  memcpy(shape, x->shape, sizeof(int64_t) * nd);
  memcpy(st, x->strides, sizeof(int64_t) * nd);
  int64_t *strides[1] = {st};
  nd = ga_merge_axes(nd, shape, 1, strides);
  if (nd == 0) {
    nd = 1;
    shape[0] = 1;
    st[0] = 0;
  }
  int idx64 = force64 || !(size < LIM32 && m < LIM32 && nv < LIM32 && ga_fits32(nd, shape, 1, strides));
  ga_ixbuf ixb;
  if (idx64) ga_pack_indexer64(&ixb, nd, shape, 1, strides);
  else ga_pack_indexer32(&ixb, nd, shape, 1, strides);
  cudaKernel_t k = get_kernel(L, ctx, K_PUT, x->dtype, vals->dtype, idx->dtype, 1, nd, idx64);
  uint64_t m64 = (uint64_t)m, nv64 = (uint64_t)nv;
  uint32_t m32 = (uint32_t)m, nv32 = (uint32_t)nv;
  int64_t s64 = size;
  int32_t s32 = (int32_t)size;
  void *px = x->data;
  const void *pi = idx->data, *pv = vals->data;
  void *args[] = {&px, ixb.bytes, &pi, &pv, idx64 ? (void *)&m64 : (void *)&m32,
                  idx64 ? (void *)&nv64 : (void *)&nv32, idx64 ? (void *)&s64 : (void *)&s32};
  ga_launch(L, "put", k, dim3_make(grid_for(L, ctx, m), 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
}

/* ===================================================================== */
/* Lua API                                                               */
/* ===================================================================== */

/* _take(x, idx, axis|nil, out|nil[, fname]) -> out (a new array when nil) */
static int l_take(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  lua_settop(L, 5);
  const char *fname = luaL_optstring(L, 5, "take");
  ga_array *x = ga_checkarray(L, 1);
  ga_array *idx = ga_checkarray(L, 2);
  ga_array *out = lua_isnil(L, 4) ? NULL : ga_checkarray(L, 4);
  check_index_dtype(L, idx, fname);
  ga_check_device(L, ctx, x, fname);
  ga_check_device(L, ctx, idx, fname);
  ga_array xv = *x;            /* the layout read: x, or x flattened */
  int axis = 0;
  if (lua_isnil(L, 3)) {       /* NumPy: no axis means the flattened array */
    int64_t size = x->size, st;
    int64_t sz = isz(x->dtype);
    if (x->ndim == 0 || size <= 1) {
      st = sz;
    } else if (!ga_reshape_strides(x->ndim, x->shape, x->strides, 1, &size, sz, &st)) {
      xv = *ga_contiguous(L, ctx, 1, -1, 1);   /* stays on the stack (slot 6) */
      st = sz;
    }
    xv.ndim = 1;
    xv.shape[0] = size;
    xv.strides[0] = st;
  } else {
    lua_Integer a = ga_checkinteger(L, 3, fname, "axis");
    if (x->ndim == 0) ga_error(L, "%s: axis %I given for a 0-d array", fname, a);
    axis = ga_checkaxis(L, a, x->ndim, fname);
  }
  int64_t shape[GA_MAXDIM], xs[GA_MAXDIM], is[GA_MAXDIM];
  int nd = index_space(L, &xv, axis, idx, shape, xs, is, fname);
  if (out) {
    ga_check_device(L, ctx, out, fname);
    int same = out->ndim == nd;
    for (int d = 0; same && d < nd; d++) same = out->shape[d] == shape[d];
    if (!same)
      ga_error(L, "%s: out has shape %s, the result has shape %s", fname, ga_shape_str(L, out->ndim, out->shape),
               ga_shape_str(L, nd, shape));
    if (out->dtype == x->dtype && !shares(out, x) && !shares(out, idx)) {
      gather_run(L, ctx, out, &xv, axis, idx, fname);
      lua_pushvalue(L, 4);
      return 1;
    }
  }
  /* a fresh result, or a temporary when out needs a cast or overlaps */
  ga_array *dst = ga_new_array(L, ctx, x->dtype, nd, shape);
  gather_run(L, ctx, dst, &xv, axis, idx, fname);
  if (out) {
    ga_copy_into(L, ctx, out, dst, fname);
    lua_pushvalue(L, 4);
  }
  return 1;
}

/* _scatter(x, idx, v, fname): x[idx] = v along the first axis; v is an
** ndarray (broadcast to the indexed shape, cast to x's dtype) */
static int l_scatter(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  lua_settop(L, 4);
  const char *fname = luaL_optstring(L, 4, "index");
  ga_array *x = ga_checkarray(L, 1);
  ga_array *idx = ga_checkarray(L, 2);
  ga_array *v = ga_checkarray(L, 3);
  check_index_dtype(L, idx, fname);
  if (x->ndim == 0) ga_error(L, "%s: a 0-d array cannot be indexed with an integer array", fname);
  ga_check_device(L, ctx, x, fname);
  ga_check_device(L, ctx, idx, fname);
  ga_check_device(L, ctx, v, fname);
  /* read everything before writing anything */
  if (shares(v, x) && v->size > 0) {
    v = ga_contiguous(L, ctx, 3, -1, 1);
    lua_replace(L, 3);
  }
  if (shares(idx, x) && idx->size > 0) {
    idx = ga_contiguous(L, ctx, 2, -1, 1);
    lua_replace(L, 2);
  }
  scatter_run(L, ctx, x, 0, idx, v, fname);
  lua_settop(L, 1);
  return 1;
}

/* _put(x, idx, vals) -> x */
static int l_put(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  lua_settop(L, 3);
  ga_array *x = ga_checkarray(L, 1);
  ga_array *idx = ga_checkarray(L, 2);
  ga_array *vals = ga_checkarray(L, 3);
  check_index_dtype(L, idx, "put");
  ga_check_device(L, ctx, x, "put");
  ga_check_device(L, ctx, idx, "put");
  ga_check_device(L, ctx, vals, "put");
  if (idx->size > 0 && vals->size > 0 && x->size > 0) {
    idx = ga_contiguous(L, ctx, 2, -1, shares(idx, x));
    lua_replace(L, 2);
    vals = ga_contiguous(L, ctx, 3, -1, shares(vals, x));
    lua_replace(L, 3);
  }
  put_run(L, ctx, x, idx, vals);
  lua_settop(L, 1);
  return 1;
}

/* Test hook for CI: _gather_wrapper(kind, name, t, ix[, v][, vec][, nd][, idx64])
** is the instantiation the launch paths generate, so specs can compile
** every template with NVRTC without a device. */
static int l_gather_wrapper(lua_State *L) {
  static const char *const kinds[] = {"flat", "gather", "scatter", "put", "rows", NULL};
  int kind = luaL_checkoption(L, 1, NULL, kinds);
  const char *name = ga_checkstring(L, 2, "_gather_wrapper", "the kernel name");
  int t = ga_checkdtype(L, 3, -1, "_gather_wrapper");
  int ix = ga_checkdtype(L, 4, -1, "_gather_wrapper");
  int v = ga_checkdtype(L, 5, t, "_gather_wrapper");
  int vec = (int)luaL_optinteger(L, 6, 1), nd = (int)luaL_optinteger(L, 7, 1);
  int idx64 = lua_toboolean(L, 8);
  if (t < 0 || ix < 0 || vec < 1 || vec > 16 || nd < 1 || nd > GA_MAXDIM)
    ga_error(L, "_gather_wrapper: bad arguments");
  char w[1024];
  wrapper(w, sizeof w, name, kind, t, v, ix, vec, nd, idx64);
  lua_pushstring(L, w);
  return 1;
}

/* _gather_force64(on) -> previous setting */
static int l_gather_force64(lua_State *L) {
  int old = force64;
  force64 = lua_toboolean(L, 1);
  lua_pushboolean(L, old);
  return 1;
}

static const luaL_Reg gather_funcs_select[] = {
  {"take", l_take},
  {"scatter", l_scatter},
  {"put", l_put},
  {NULL, NULL}
};

static const luaL_Reg gather_funcs_test[] = {
  {"gather_wrapper", l_gather_wrapper},
  {"gather_force64", l_gather_force64},
  {NULL, NULL}
};

void ga_open_gather(lua_State *L) {
  ga_setprivate(L, "select", gather_funcs_select);
  ga_setprivate(L, GA_TEST, gather_funcs_test);
}
