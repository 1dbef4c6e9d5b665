/*
** mask.c: boolean masks and nonzero, on the stream compaction of
** kernels/select/mask.cuh.
**   x[mask]        methods._mask_get: a 1-D copy of the selected elements
**   x[mask] = v    methods._mask_set: v a scalar (or one-element array):
**                  a masked fill, no sync; v an array of the selected
**                  count: a scatter (the count is checked: one sync)
**   ga.nonzero(x)  one 1-based int64 array per axis (multiple returns)
**   ga.argwhere(x) an N x ndim array of 1-based coordinates
** Selections need the count before the output can be allocated: counting
** tiles, one block of offsets, then one small device-to-host read of the
** total, then the compaction.
*/
#include <string.h>

#include "select/select.h"

#define TILE 4096

/* bool flags are read as bytes (any nonzero byte selects) */
static const char *ct(int t) { return t == GA_BOOL ? "unsigned char" : ga_dtypes[t].ctype; }
static const char *vt(int t) { return ga_dtypes[t].ctype; }
static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int aligned16(const void *p) { return (uintptr_t)p % 16 == 0; }

enum { K_COUNT, K_OFFSETS, K_COPY, K_COORDS, K_SCATTER, K_FILL };

static void mask_wrapper(int kind, int tf, int tv, int vec, int vec2, int nd, int idx64, char *w, size_t cap) {
  const char *V = vec ? "true" : "false", *V2 = vec2 ? "true" : "false";
  switch (kind) {
    case K_COUNT:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const %s *p, long long n, "
               "int *counts) { ga_mask_count<%s, %s>(p, n, counts); }\n", ct(tf), ct(tf), V);
      break;
    case K_OFFSETS:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(1024) k(const int *counts, "
               "long long ntiles, long long *offsets) { ga_mask_offsets(counts, ntiles, offsets); }\n");
      break;
    case K_COPY:      /* vec: the mask, vec2: the values */
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const unsigned char *m, "
               "long long n, const long long *offsets, const %s *src, %s *dst) {\n"
               "  ga_mask_select<%s, %s, %s>(m, src, dst, n, offsets);\n}\n",
               vt(tv), vt(tv), vt(tv), V, V2);
      break;
    case K_COORDS:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const %s *p, long long n, "
               "const long long *offsets, const ga_sink_coords<%d> s) {\n"
               "  ga_mask_compact<%s, %s, ga_sink_coords<%d> >(p, n, offsets, s);\n}\n",
               ct(tf), nd, ct(tf), V, nd);
      break;
    case K_SCATTER:
      snprintf(w, cap, "extern \"C\" __global__ void __launch_bounds__(256) k(const unsigned char *p, long long n, "
               "const long long *offsets, char *x, const %s *vals, const ga_indexer64<%d, 1> ix) {\n"
               "  const ga_sink_scatter<%s, ga_indexer64<%d, 1> > s = {x, vals, ix};\n"
               "  ga_mask_compact<unsigned char, %s, ga_sink_scatter<%s, ga_indexer64<%d, 1> > >(p, n, offsets, "
               "s);\n}\n",
               vt(tv), nd, vt(tv), nd, V, vt(tv), nd);
      break;
    default: {
      const ga_ixnames n = ga_ix_names(idx64);
      const char *IX = n.IX, *I = n.I, *O = n.O;
      snprintf(w, cap, "extern \"C\" __global__ void k(char *x, const char *m, const %s<%d, 2> ix, %s n, "
               "const %s v, const %s *vp) {\n"
               "  ga_mask_fill<%s, %s<%d, 2>, %s, %s>(x, m, ix, n, v, vp);\n}\n",
               IX, nd, I, vt(tv), vt(tv), vt(tv), IX, nd, I, O);
    }
  }
}

static void mask_line(char *w, size_t cap, const int *p) {
  mask_wrapper(p[0], p[1], p[2], p[3], p[4], p[5], p[6], w, cap);
}

static const char *const mask_parts[] = {"common", "reduction", "mask", NULL};
static const ga_tkline mask_family = {{'m', 'k'}, mask_parts, mask_line};

static cudaKernel_t mask_kernel(lua_State *L, ga_state *ctx, int kind, int tf, int tv, int vec, int vec2, int nd,
                                int idx64, const char *fname) {
  const int p[] = {kind, tf, tv, vec, vec2, nd, idx64};
  return ga_tkernel_line(L, ctx, &mask_family, fname, 7, p);
}

static unsigned tile_grid(lua_State *L, ga_state *ctx, int64_t ntiles) {
  return ga_grid_for(L, ctx->device, (uint64_t)ntiles, 1, 16);   /* a block a tile */
}

/* Passes 1 and 2 over flags p (dtype tf, n > 0, contiguous): pushes the
** scratch array (counts, then offsets), sets *offsets and returns the total */
static int64_t count_selected(lua_State *L, ga_state *ctx, const void *p, int tf, int64_t n, long long **offsets,
                              const char *fname) {
  int64_t ntiles = cdiv(n, TILE);
  int64_t cbytes = cdiv(4 * ntiles, 16) * 16;
  int64_t bytes = cbytes + 8 * (ntiles + 1);
  ga_array *scratch = ga_new_array(L, ctx, GA_UINT8, 1, &bytes);
  int *counts = (int *)scratch->data;
  long long *offs = (long long *)(scratch->data + cbytes);
  int vec = aligned16(p);
  cudaKernel_t k1 = mask_kernel(L, ctx, K_COUNT, tf, 0, vec, 0, 0, 0, fname);
  cudaKernel_t k2 = mask_kernel(L, ctx, K_OFFSETS, 0, 0, 0, 0, 0, 0, fname);
  long long nn = n, nt = ntiles;
  void *a1[] = {&p, &nn, &counts};
  ga_launch(L, fname, k1, dim3_make(tile_grid(L, ctx, ntiles), 1, 1), dim3_make(256, 1, 1), a1, 0, ctx->stream);
  void *a2[] = {&counts, &nt, &offs};
  ga_launch(L, fname, k2, dim3_make(1, 1, 1), dim3_make(1024, 1, 1), a2, 0, ctx->stream);
  long long total = 0;
  ga_to_host(L, ctx, &total, offs + ntiles, sizeof total);
  *offsets = offs;
  return total;
}

/* The mask at idx for array x (both on the current device) */
static ga_array *check_mask(lua_State *L, ga_state *ctx, ga_array *x, int idx, const char *fname) {
  ga_check_device(L, ctx, x, fname);
  ga_array *m = ga_readarray(L, idx);
  ga_check_device(L, ctx, m, fname);
  if (m->dtype != GA_BOOL) ga_error(L, "%s: a mask must be a bool array, got %s", fname, ga_dtypes[m->dtype].name);
  int same = m->ndim == x->ndim;
  for (int d = 0; same && d < x->ndim; d++) same = m->shape[d] == x->shape[d];
  if (!same)
    ga_error(L, "%s: boolean mask of shape %s does not match the array's shape %s", fname,
             ga_shape_str(L, m->ndim, m->shape), ga_shape_str(L, x->ndim, x->shape));
  return m;
}

/* ===================================================================== */
/* x[mask]                                                               */
/* ===================================================================== */

static int l_mask_get(lua_State *L) {
  const char *fname = "index";
  ga_state *ctx = ga_ctx(L);
  ga_array *x = ga_readarray(L, 1);
  check_mask(L, ctx, x, 2, fname);
  lua_settop(L, 2);
  int64_t n = x->size;
  if (n == 0) {
    int64_t zero = 0;
    ga_new_array(L, ctx, x->dtype, 1, &zero);
    return 1;
  }
  ga_device_enter(L, ctx);
  ga_array *xc = ga_contiguous(L, ctx, 1, -1, 0);      /* 3 */
  ga_array *mc = ga_contiguous(L, ctx, 2, -1, 0);      /* 4 */
  long long *offs;
  int64_t total = count_selected(L, ctx, mc->data, GA_BOOL, n, &offs, fname);   /* scratch at 5 */
  ga_array *out = ga_new_array(L, ctx, x->dtype, 1, &total);
  if (total > 0) {
    /* 4 values a lane: vector loads when x is aligned to 4 values */
    int vec2 = (uintptr_t)xc->data % (uintptr_t)(4 * ga_dtypes[x->dtype].itemsize) == 0;
    cudaKernel_t k = mask_kernel(L, ctx, K_COPY, GA_BOOL, x->dtype, aligned16(mc->data), vec2, 0, 0, fname);
    const void *p = mc->data, *src = xc->data;
    void *dst = out->data;
    long long nn = n;
    void *args[] = {&p, &nn, &offs, &src, &dst};
    ga_launch(L, fname, k, dim3_make(tile_grid(L, ctx, cdiv(n, TILE)), 1, 1), dim3_make(256, 1, 1), args, 0,
              ctx->stream);
  }
  ga_array_release(ga_toarray(L, 5));
  return 1;
}

/* ===================================================================== */
/* nonzero, argwhere                                                     */
/* ===================================================================== */

/* Coordinates of the nonzero elements of the array at 1 into a new int64
** array of shape (ndim, count) (ps=1, ds=count) or (count, ndim); leaves it
** on top and returns it */
static ga_array *coords(lua_State *L, int by_axis, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  ga_array *x = ga_readarray(L, 1);
  ga_check_device(L, ctx, x, fname);
  lua_settop(L, 1);
  int nd = x->ndim;
  int64_t n = x->size;
  int64_t total = 0;
  long long *offs = NULL;
  int have_scratch = 0;
  ga_array *xc = NULL;
  if (n > 0) {
    ga_device_enter(L, ctx);
    xc = ga_contiguous(L, ctx, 1, -1, 0);              /* 2 */
    total = count_selected(L, ctx, xc->data, x->dtype, n, &offs, fname);   /* 3 */
    have_scratch = 1;
  }
  int64_t shape[2];
  if (by_axis) { shape[0] = nd; shape[1] = total; }
  else { shape[0] = total; shape[1] = nd; }
  ga_array *out = ga_new_array(L, ctx, GA_INT64, 2, shape);
  if (total > 0 && nd > 0) {
    cudaKernel_t k = mask_kernel(L, ctx, K_COORDS, x->dtype, 0, aligned16(xc->data), 0, nd, 0, fname);
    int64_t sink[3 + GA_MAXDIM];
    memcpy(&sink[0], &out->data, sizeof(void *));
    sink[1] = by_axis ? 1 : nd;
    sink[2] = by_axis ? total : 1;
    for (int d = 0; d < nd; d++) sink[3 + d] = x->shape[d];
    const void *p = xc->data;
    long long nn = n;
    void *args[] = {&p, &nn, &offs, sink};
    ga_launch(L, fname, k, dim3_make(tile_grid(L, ctx, cdiv(n, TILE)), 1, 1), dim3_make(256, 1, 1), args, 0,
              ctx->stream);
  }
  if (have_scratch) ga_array_release(ga_toarray(L, 3));
  return out;
}

static int l_nonzero(lua_State *L) {
  ga_array *x = ga_readarray(L, 1);
  if (x->ndim == 0)
    return ga_error(L, "nonzero: not defined for 0-d arrays (use ga.atleast_1d(x))");
  int nd = x->ndim;
  ga_array *out = coords(L, 1, "nonzero");
  int out_idx = lua_gettop(L);
  int64_t total = out->shape[1];
  int64_t stride = 8;
  for (int d = 0; d < nd; d++)
    ga_new_view(L, out_idx, 1, &total, &stride, out->data ? out->data + d * total * 8 : NULL);
  return nd;
}

static int l_argwhere(lua_State *L) {
  coords(L, 0, "argwhere");
  return 1;
}

/* ===================================================================== */
/* x[mask] = v                                                           */
/* ===================================================================== */

/* Every selected element takes one value: v (host) or *vp (device) */
static void masked_fill(lua_State *L, ga_state *ctx, ga_array *x, const ga_array *m, const ga_value *v,
                        const void *vp, const char *fname) {
  int64_t shape[GA_MAXDIM], sx[GA_MAXDIM], sm[GA_MAXDIM];
  int nd = x->ndim;
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)nd);
  memcpy(sx, x->strides, sizeof(int64_t) * (size_t)nd);
  memcpy(sm, m->strides, sizeof(int64_t) * (size_t)nd);
  int64_t *st[2] = {sx, sm};
  nd = ga_merge_axes(nd, shape, 2, st);
  if (nd > 8) ga_error(L, "%s: too many dimensions after merging (internal)", fname);
  nd = ga_red_pad(nd, shape, 2, st);
  int64_t n = ga_shape_size(nd, shape);
  int idx64 = !ga_fits32(nd, shape, 2, st);
  ga_ixbuf ix;
  if (idx64) ga_pack_indexer64(&ix, nd, shape, 2, st);
  else ga_pack_indexer32(&ix, nd, shape, 2, st);
  cudaKernel_t k = mask_kernel(L, ctx, K_FILL, 0, x->dtype, 0, 0, nd, idx64, fname);
  void *px = x->data;
  const void *pm = m->data;
  uint64_t n64 = (uint64_t)n;
  uint32_t n32 = (uint32_t)n;
  ga_value val;
  if (v) val = *v;
  else memset(&val, 0, sizeof val);
  int64_t blocks = cdiv(n, 256), cap = (int64_t)ga_device_info(L, ctx->device)->sm_count * 32;
  void *args[] = {&px, &pm, ix.bytes, idx64 ? (void *)&n64 : (void *)&n32, &val, &vp};
  ga_launch(L, fname, k, dim3_make((unsigned)(blocks < cap ? blocks : cap), 1, 1), dim3_make(256, 1, 1), args, 0,
            ctx->stream);
}

/* Is the Lua value at idx one value for an array of dtype t? */
static int is_scalar_value(lua_State *L, int idx, int t) {
  int ty = lua_type(L, idx);
  if (ty == LUA_TNUMBER || ty == LUA_TBOOLEAN || ga_toscalar(L, idx)) return 1;
  if (ty == LUA_TTABLE && GA_IS_COMPLEX(t) && lua_rawlen(L, idx) == 2) {
    lua_rawgeti(L, idx, 1);
    lua_rawgeti(L, idx, 2);
    int pair = lua_type(L, -1) == LUA_TNUMBER && lua_type(L, -2) == LUA_TNUMBER;
    lua_pop(L, 2);
    return pair;
  }
  return 0;
}

static int l_mask_set(lua_State *L) {
  const char *fname = "index";
  ga_state *ctx = ga_ctx(L);
  ga_array *x = ga_checkarray(L, 1);
  ga_array *m = check_mask(L, ctx, x, 2, fname);
  lua_settop(L, 3);
  ga_array *va = ga_toarray(L, 3);
  if (va) {
    ga_readarray(L, 3);
    ga_check_device(L, ctx, va, fname);
  }
  if (x->size == 0) {
    if (va && va->size > 1)
      ga_error(L, "%s: cannot assign %I values to the 0 elements the mask selects", fname, (lua_Integer)va->size);
    return 0;
  }
  ga_device_enter(L, ctx);
  if (!va && is_scalar_value(L, 3, x->dtype)) {
    ga_value v;
    ga_checkvalue(L, 3, x->dtype, &v, fname);
    masked_fill(L, ctx, x, m, &v, NULL, fname);
    return 0;
  }
  if (va && va->size == 1) {          /* broadcast one device value: no sync */
    ga_array *one = ga_new_array(L, ctx, x->dtype, va->ndim, va->shape);   /* 4 */
    ga_copy_into(L, ctx, one, va, fname);
    masked_fill(L, ctx, x, m, NULL, one->data, fname);
    return 0;
  }
  if (!va && lua_type(L, 3) != LUA_TTABLE)
    ga_error(L, "%s: cannot assign a %s to masked elements", fname, luaL_typename(L, 3));
  /* one value per selected element: count them first */
  ga_array *mc = ga_contiguous(L, ctx, 2, -1, 0);       /* 4 */
  long long *offs;
  int64_t total = count_selected(L, ctx, mc->data, GA_BOOL, x->size, &offs, fname);   /* 5 */
  ga_array *vals = ga_new_array(L, ctx, x->dtype, 1, &total);                        /* 6 */
  if (va) {
    if (va->size != total)
      ga_error(L, "%s: cannot assign %I values to the %I elements the mask selects", fname,
               (lua_Integer)va->size, (lua_Integer)total);
    ga_array flat = *va;                /* va in C order, as a 1-D array */
    if (va->ndim != 1) {
      if (!(va->flags & GA_F_C)) flat = *ga_contiguous(L, ctx, 3, -1, 0);
      flat.ndim = 1;
      flat.shape[0] = total;
      flat.strides[0] = ga_dtypes[flat.dtype].itemsize;
    }
    ga_copy_into(L, ctx, vals, &flat, fname);
  } else {
    ga_assign(L, ctx, 6, 3, fname);     /* a nested table: shape checked there */
  }
  if (total > 0) {
    int64_t shape[GA_MAXDIM], sx[GA_MAXDIM];
    int nd = x->ndim;
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)nd);
    memcpy(sx, x->strides, sizeof(int64_t) * (size_t)nd);
    int64_t *st[1] = {sx};
    nd = ga_merge_axes(nd, shape, 1, st);
    if (nd > 8) ga_error(L, "%s: too many dimensions after merging (internal)", fname);
    nd = ga_red_pad(nd, shape, 1, st);
    ga_ixbuf ix;
    ga_pack_indexer64(&ix, nd, shape, 1, st);
    cudaKernel_t k = mask_kernel(L, ctx, K_SCATTER, GA_BOOL, x->dtype, aligned16(mc->data), 0, nd, 1, fname);
    const void *p = mc->data, *pv = vals->data;
    void *px = x->data;
    long long nn = x->size;
    void *args[] = {&p, &nn, &offs, &px, &pv, ix.bytes};
    ga_launch(L, fname, k, dim3_make(tile_grid(L, ctx, cdiv(x->size, TILE)), 1, 1), dim3_make(256, 1, 1), args,
              0, ctx->stream);
  }
  ga_array_release(ga_toarray(L, 5));
  ga_array_release(vals);
  return 0;
}

/* ===================================================================== */
/* test hook and registration                                            */
/* ===================================================================== */

/* core._test.mask_source(kind, flag_dtype, value_dtype, nd[, idx64[, vec, vec2]]) -> source, for CI
** (vec, vec2: vector access to the flags and the values, default true) */
static int l_mask_source(lua_State *L) {
  static const char *const kinds[] = {"count", "offsets", "copy", "coords", "scatter", "fill", NULL};
  int kind = luaL_checkoption(L, 1, NULL, kinds);
  int tf = ga_checkdtype(L, 2, GA_BOOL, "_mask_source");
  int tv = ga_checkdtype(L, 3, GA_FLOAT32, "_mask_source");
  int nd = (int)luaL_optinteger(L, 4, 1);
  if (kind == K_SCATTER || kind == K_FILL) nd = nd <= 4 ? 4 : 8;      /* as ga_red_pad pads */
  char w[1024];
  int vec = lua_isnoneornil(L, 6) ? 1 : lua_toboolean(L, 6);
  int vec2 = lua_isnoneornil(L, 7) ? 1 : lua_toboolean(L, 7);
  mask_wrapper(kind, tf, tv, vec, vec2, nd, lua_toboolean(L, 5), w, sizeof w);
  for (int i = 0; mask_parts[i]; i++) lua_pushstring(L, ga_kernel_source(mask_parts[i]));
  lua_pushstring(L, w);
  lua_concat(L, 4);
  return 1;
}

static const luaL_Reg funcs[] = {
  {"nonzero", l_nonzero},
  {"argwhere", l_argwhere},
  {NULL, NULL}
};

static const luaL_Reg funcs_test[] = {
  {"mask_source", l_mask_source},
  {NULL, NULL}
};

/* x[mask] and x[mask] = v reach these through the index hooks
** (lua/gpuarray/select.lua), not the method table */
static const luaL_Reg funcs_select[] = {
  {"mask_get", l_mask_get},
  {"mask_set", l_mask_set},
  {NULL, NULL}
};

static const luaL_Reg methods[] = {
  {"nonzero", l_nonzero},
  {NULL, NULL}
};

void ga_open_mask(lua_State *L) {
  ga_setfuncs(L, funcs);
  ga_setprivate(L, "select", funcs_select);
  ga_setprivate(L, GA_TEST, funcs_test);
  ga_push_methods(L);
  ga_setfuncs(L, methods);
  lua_pop(L, 1);
}
