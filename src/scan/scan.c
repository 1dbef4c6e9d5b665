/*
** scan.c: cumsum and cumprod along one axis (or over the flattened array),
** with NumPy's result dtypes and out=. Two kernels (kernels/scan/scan.cuh):
** tiles with a deterministic single-pass look-back when the axis is the
** contiguous one (one launch after a memset of the tile flags), one
** sequential thread per row otherwise. Also the shared helper that compiles
** the small wrappers of scan.cuh and mask.cuh.
*/
#include <string.h>

#include "api/api.h"
#include "scan/scan.h"

#define THREADS 256
#define MAXND 8

static const char *ct(int t) { return ga_dtypes[t].ctype; }
static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ===================================================================== */
/* dtypes                                                                */
/* ===================================================================== */

/* NumPy's cumsum/cumprod: small ints in int64 / uint64, float16 in float32 */
static void scan_types(int t, int over, int *acc, int *out) {
  if (over >= 0) {
    *out = over;
    *acc = over == GA_FLOAT16 ? GA_FLOAT32 : over;
    return;
  }
  if (t == GA_BOOL || GA_IS_SIGNED(t)) *acc = *out = GA_INT64;
  else if (GA_IS_UNSIGNED(t)) *acc = *out = GA_UINT64;
  else if (t == GA_FLOAT16) { *acc = GA_FLOAT32; *out = GA_FLOAT16; }
  else *acc = *out = t;
}

/* ===================================================================== */
/* sources                                                               */
/* ===================================================================== */

typedef struct {
  int op;                  /* 0 sum, 1 prod */
  int tin, tout, acc;
  int tiles;               /* 1 tiles, 0 rows */
  int vec, k;              /* tiles: V elements per lane and chunk, K chunks */
  int minb;                /* tiles: blocks per SM the registers are budgeted for */
  int vin, vout;           /* tiles: vector access on that side */
  int nd;
} scan_variant;

static const char *const scan_parts[] = {"common", "reduction", "scan", NULL};

/* Complex products: no contraction into FMAs, so that the look-back's fold
** and a tile's own publication round identically (determinism) */
static const char *const nofma[] = {"--fmad=false"};
static int scan_nopts(const scan_variant *v) { return v->op == 1 && GA_IS_COMPLEX(v->acc); }

/* V: 16 bytes on the wider side; K chunks keep a lane at 128 bytes of
** accumulators (64 for 16-byte ones, which also keep K prefixes), at most
** 8: a tile of 256 * K * V elements */
static void tile_shape(scan_variant *v) {
  int a = ga_dtypes[v->tin].itemsize, b = ga_dtypes[v->tout].itemsize, c = ga_dtypes[v->acc].itemsize;
  int w = a > b ? a : b;
  v->vec = w >= 16 ? 1 : 16 / w;
  v->k = (c >= 16 ? 64 : 128) / (v->vec * c);
  if (v->k > 8) v->k = 8;
  if (v->k < 1) v->k = 1;
  v->minb = ga_dtypes[v->acc].itemsize <= 4 ? 4 : 3;
}

/* Wider tiles for 4-byte accumulators when there are enough of them to
** fill the GPU several times over: each tile pays a ticket and a look-back
** (round trips to L2) whatever its size, so 4x the elements a tile at one
** block per SM (128 accumulators a lane) moves more bytes an SM per
** microsecond than four blocks of small tiles (measured on the H200:
** ~2.9 against ~2.6 TB/s for 2^26 floats) */
static atomic_int forced_scale;   /* specs: 2 or 4 widens every tile that can be (core._test.scan_wide);
                                  ** atomic: states on other threads read it */

static void widen(scan_variant *v, int64_t n, int64_t nrows, int64_t sms) {
  if (ga_dtypes[v->acc].itemsize != 4 || v->vec < 2) return;
  for (int scale = 4; scale > 1; scale /= 2) {
    int64_t tile = (int64_t)THREADS * v->k * scale * v->vec;
    int64_t tpr = (n + tile - 1) / tile;      /* rows shorter than 4 such tiles would waste most of one */
    if (forced_scale ? forced_scale == scale : tpr >= 4 && tpr * nrows >= 8 * sms) {
      v->k *= scale;
      v->minb /= scale;
      return;
    }
  }
}

/* Tiles: 4 blocks of 256 per SM for 4-byte accumulators (64 registers, no
** spills), 3 otherwise: while one block waits in its look-back, the
** others' loads keep the memory busy */
static void scan_wrapper(const scan_variant *v, char *w, size_t cap) {
  char op[64];
  snprintf(op, sizeof op, "%s<%s>", v->op ? "ga_scan_mul" : "ga_scan_add", ct(v->acc));
  if (v->tiles)
    snprintf(w, cap,
             "extern \"C\" __global__ void __launch_bounds__(256, %d) k(const char *in, char *out, "
             "ga_indexer64<%d, 2> ix, long long n, long long sout, long long tpr, int *ticket, int *flags, "
             "int *gflags, %s *agg, %s *gagg, %s *gincl) {\n"
             "  ga_scan_tiles<%s, %s, %s, %d, %d, %s, %s, ga_indexer64<%d, 2> >(in, out, ix, n, sout, tpr, "
             "ticket, flags, gflags, agg, gagg, gincl);\n}\n",
             v->minb, v->nd, ct(v->acc), ct(v->acc), ct(v->acc), op, ct(v->tin),
             ct(v->tout),
             v->vec, v->k, v->vin ? "true" : "false", v->vout ? "true" : "false", v->nd);
  else
    snprintf(w, cap,
             "extern \"C\" __global__ void k(const char *in, char *out, ga_indexer64<%d, 2> ix, "
             "long long nrows, long long n, long long sin, long long sout) {\n"
             "  ga_scan_rows<%s, %s, %s, ga_indexer64<%d, 2> >(in, out, ix, nrows, n, sin, sout);\n}\n",
             v->nd, op, ct(v->tin), ct(v->tout), v->nd);
}

/* The wrapper, written only when the memo misses */
typedef struct {
  ga_tkreq req;
  const scan_variant *v;
} scan_src;

static void write_scan(const ga_tkreq *req, ga_buf *b) {
  char w[1024];
  scan_wrapper(((const scan_src *)req)->v, w, sizeof w);
  ga_buf_add(b, w);
}

/* ===================================================================== */
/* the call                                                              */
/* ===================================================================== */

typedef struct {
  char tag[2];
  uint8_t op, tin, tout, acc, tiles, vec, k, vin, vout, nd, minb;
} scan_key;   /* ga_tkernel adds the device */

static int aligned(const void *p, int64_t b) { return (uintptr_t)p % (uintptr_t)b == 0; }

/* Can one operand be accessed V elements at a time along the axis: unit
** stride, the base and every row start aligned to V elements? */
static int axis_vec(const char *base, int64_t axis_stride, int isz, int vec, int nd, const int64_t *shape,
                    const int64_t *row_strides) {
  int64_t vb = (int64_t)vec * isz;
  if (vec < 2 || axis_stride != isz || !aligned(base, vb)) return 0;
  for (int d = 0; d < nd; d++)
    if (shape[d] > 1 && row_strides[d] % vb) return 0;
  return 1;
}

static void run_scan(lua_State *L, ga_state *ctx, int op, const ga_array *x, ga_array *out, int axis, int acc,
                     const char *fname) {
  /* rows: every axis but the scanned one, for x (operand 0) and out (1) */
  int64_t shape[GA_MAXDIM], sx[GA_MAXDIM], so[GA_MAXDIM];
  int nd = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (d == axis) continue;
    shape[nd] = x->shape[d];
    sx[nd] = x->strides[d];
    so[nd] = out->strides[d];
    nd++;
  }
  int64_t nrows = ga_shape_size(nd, shape);
  int64_t n = x->shape[axis], sin = x->strides[axis], sout = out->strides[axis];
  int64_t *st[2] = {sx, so};
  nd = ga_merge_axes(nd, shape, 2, st);
  if (nd > MAXND) ga_error(L, "%s: too many dimensions after merging (internal)", fname);
  nd = ga_red_pad(nd, shape, 2, st);
  ga_ixbuf ix;
  ga_pack_indexer64(&ix, nd, shape, 2, st);

  scan_variant v;
  memset(&v, 0, sizeof v);
  v.op = op;
  v.tin = x->dtype;
  v.tout = out->dtype;
  v.acc = acc;
  v.nd = nd;
  int isz_in = ga_dtypes[x->dtype].itemsize, isz_out = ga_dtypes[out->dtype].itemsize;
  v.tiles = sin == isz_in && (n > 64 || nrows == 1);
  if (v.tiles) {
    tile_shape(&v);
    v.vin = axis_vec(x->data, sin, isz_in, v.vec, nd, shape, sx);
    v.vout = axis_vec(out->data, sout, isz_out, v.vec, nd, shape, so);
    if (!v.vin && !v.vout) {      /* scalar both ways: lane-contiguous elements, all coalesced */
      v.vec = 1;
      v.k = 8;
    }
    widen(&v, n, nrows, ga_device_info(L, ctx->device)->sm_count);
  }
  scan_key key = {{'s', 'c'}, (uint8_t)op, (uint8_t)v.tin, (uint8_t)v.tout, (uint8_t)acc, (uint8_t)v.tiles,
                  (uint8_t)v.vec, (uint8_t)v.k, (uint8_t)v.vin, (uint8_t)v.vout, (uint8_t)nd, (uint8_t)v.minb};
  scan_src src = {{fname, scan_parts, write_scan, NULL, NULL, scan_nopts(&v), nofma}, &v};
  cudaKernel_t k = ga_tkernel(L, ctx, &key, sizeof key, &src.req);
  const char *pin = x->data;
  char *pout = out->data;
  if (!v.tiles) {
    int64_t sm = ga_device_info(L, ctx->device)->sm_count;
    int64_t grid = cdiv(nrows, THREADS);
    if (grid > sm * 32) grid = sm * 32;
    long long a = nrows, b = n, c = sin, d = sout;
    void *args[] = {&pin, &pout, ix.bytes, &a, &b, &c, &d};
    ga_launch(L, fname, k, dim3_make((unsigned)grid, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
    return;
  }
  int64_t tile = (int64_t)THREADS * v.k * v.vec;
  int64_t tpr = cdiv(n, tile), ntiles = tpr * nrows;
  if (ntiles >= ((int64_t)1 << 31)) ga_error(L, "%s: array too large", fname);
  /* scratch: the ticket, a flag per tile and per group of 32 tiles, then
  ** the tiles' aggregates and the groups' sums and inclusive prefixes.
  ** 4-byte accumulators keep flag and value in one 8-byte word instead
  ** (kernels/scan/scan.cuh: ga_scan_packed): the words are zeroed too. */
  int64_t accsz = ga_dtypes[acc].itemsize, packed = accsz == 4;
  int64_t vsz = packed ? 8 : accsz;
  int64_t ngroups = cdiv(tpr, 32) * nrows;
  int64_t tflags_bytes = cdiv(4 * ntiles, 16) * 16, flags_bytes = 16 + tflags_bytes + cdiv(4 * ngroups, 16) * 16;
  int64_t tvals_bytes = cdiv(ntiles * vsz, 16) * 16, gvals_bytes = cdiv(ngroups * vsz, 16) * 16;
  int64_t bytes = flags_bytes + tvals_bytes + 2 * gvals_bytes;
  int top = lua_gettop(L);
  ga_array *scratch = ga_new_array(L, ctx, GA_UINT8, 1, &bytes);
  char *s = scratch->data;
  ga_cuda_check(L, cudaMemsetAsync(s, 0, (size_t)(packed ? bytes : flags_bytes), ctx->stream), "cudaMemsetAsync");
  int *ticket = (int *)s, *flags = (int *)(s + 16), *gflags = (int *)(s + 16 + tflags_bytes);
  char *agg = s + flags_bytes, *gagg = agg + tvals_bytes, *gincl = gagg + gvals_bytes;
  long long a = n, c = sout, d = tpr;
  void *args[] = {&pin, &pout, ix.bytes, &a, &c, &d, &ticket, &flags, &gflags, &agg, &gagg, &gincl};
  ga_launch(L, fname, k, dim3_make((unsigned)ntiles, 1, 1), dim3_make(THREADS, 1, 1), args, 0, ctx->stream);
  ga_array_release(scratch);     /* back to the pool now: stream-ordered reuse */
  lua_settop(L, top);
}

/* A copy of x (pushed) laid out with the scanned axis last and contiguous,
** returned as a view in x's axis order: few long rows then take the tile
** kernel instead of one thread per row */
static ga_array axis_last_copy(lua_State *L, ga_state *ctx, const ga_array *x, int axis, const char *fname) {
  int nd = x->ndim, perm[GA_MAXDIM], k = 0;
  for (int d = 0; d < nd; d++)
    if (d != axis) perm[k++] = d;
  perm[k] = axis;
  ga_array view = *x;
  for (int i = 0; i < nd; i++) {
    view.shape[i] = x->shape[perm[i]];
    view.strides[i] = x->strides[perm[i]];
  }
  ga_array_update_flags(&view);
  ga_array *t = ga_new_array(L, ctx, x->dtype, nd, view.shape);
  ga_copy_into(L, ctx, t, &view, fname);
  ga_array r = *t;
  for (int i = 0; i < nd; i++) {
    r.shape[perm[i]] = t->shape[i];
    r.strides[perm[i]] = t->strides[i];
  }
  ga_array_update_flags(&r);
  return r;
}

/* One scan function (cumsum, cumprod): the closure's upvalue 2 (1 is the
** context) */
typedef struct {
  int op;                    /* 0 sum, 1 prod */
  char name[32];
  const ga_decl *decl;       /* anchored by upvalue 2 */
  int p_axis, p_dtype, p_out;
} scan_fn;

/* f(x[, axis][, dtype][, out][, opts]): f(x) and f(x, axis) read their
** arguments directly; anything else is bound by the declaration */
static int scan_call(lua_State *L) {
  const scan_fn *sf = (const scan_fn *)lua_touserdata(L, lua_upvalueindex(2));
  int op = sf->op;
  const char *fname = sf->name;
  ga_state *ctx = ga_ctx(L);
  int top = lua_gettop(L), t2 = lua_type(L, 2);
  int x_idx = 1, axis_idx = 0, over = -1, out_idx = 0;
  ga_array *x;
  if (top <= 2 && (t2 == LUA_TNONE || t2 == LUA_TNIL || t2 == LUA_TNUMBER) && (x = ga_toarray(L, 1))) {
    if (t2 == LUA_TNUMBER) axis_idx = 2;
  } else {
    int base = top + 1;
    ga_api_bind(L, sf->decl, fname, 1, top);
    x_idx = base;
    x = ga_toarray(L, base);
    if (!x) return ga_error(L, "%s: expected an ndarray, got %s", fname, luaL_typename(L, base));
    if (!lua_isnil(L, base + sf->p_axis)) axis_idx = base + sf->p_axis;
    if (!lua_isnil(L, base + sf->p_dtype)) over = ga_checkdtype(L, base + sf->p_dtype, -1, fname);
    if (!lua_isnil(L, base + sf->p_out)) {
      ga_checkarray(L, base + sf->p_out);
      out_idx = base + sf->p_out;
    }
  }
  ga_checkarray(L, x_idx);
  int acc, out_dt;
  scan_types(x->dtype, over, &acc, &out_dt);
  int axis;
  int64_t oshape[GA_MAXDIM];
  int ond;
  if (axis_idx) {
    lua_Integer a = 0;
    int isnum;
    a = lua_tointegerx(L, axis_idx, &isnum);
    if (!isnum) ga_error(L, "%s: axis must be an integer", fname);
    axis = ga_checkaxis(L, a, x->ndim, fname);
    ond = x->ndim;
    memcpy(oshape, x->shape, sizeof(int64_t) * (size_t)ond);
  } else {
    /* over the flattened array, in C order */
    ond = 1;
    oshape[0] = x->size;
    axis = 0;
    if (!(x->flags & GA_F_C)) {
      x = ga_contiguous(L, ctx, x_idx, -1, 0);
      x_idx = lua_gettop(L);
    }
  }
  ga_array *out;
  if (out_idx) {
    out = ga_toarray(L, out_idx);
    int same = out->ndim == ond;
    for (int d = 0; same && d < ond; d++) same = out->shape[d] == oshape[d];
    if (!same)
      ga_error(L, "%s: out has shape %s, the result has shape %s", fname, ga_shape_str(L, out->ndim, out->shape),
               ga_shape_str(L, ond, oshape));
    ga_check_device(L, ctx, out, fname);
  } else {
    out = ga_new_array(L, ctx, out_dt, ond, oshape);
    out_idx = lua_gettop(L);
  }
  ga_check_device(L, ctx, x, fname);
  if (x->size == 0) {
    lua_pushvalue(L, out_idx);
    return 1;
  }
  ga_device_enter(L, ctx);
  /* x as the kernel sees it: the flattened view when there is no axis */
  ga_array xv = *x;
  if (!axis_idx) {
    xv.ndim = 1;
    xv.shape[0] = x->size;
    xv.strides[0] = ga_dtypes[x->dtype].itemsize;
  }
  /* writing over the input: safe in place only with the very same layout */
  ga_array *target = out;
  int in_place_ok = out->data == xv.data && ga_dtypes[out->dtype].itemsize == ga_dtypes[xv.dtype].itemsize;
  for (int d = 0; in_place_ok && d < ond; d++) in_place_ok = out->strides[d] == xv.strides[d];
  if (out->block && out->block == xv.block && !in_place_ok) target = ga_new_array(L, ctx, out->dtype, ond, oshape);
  /* too many axes after merging: work on C-contiguous copies */
  int64_t shape[GA_MAXDIM], s1[GA_MAXDIM], s2[GA_MAXDIM];
  int nd = 0;
  for (int d = 0; d < ond; d++) {
    if (d == axis) continue;
    shape[nd] = xv.shape[d];
    s1[nd] = xv.strides[d];
    s2[nd] = target->strides[d];
    nd++;
  }
  int64_t *st[2] = {s1, s2};
  if (ga_merge_axes(nd, shape, 2, st) > MAXND) {
    xv = *ga_contiguous(L, ctx, x_idx, -1, 0);
    if (!(target->flags & GA_F_C)) target = ga_new_array(L, ctx, out->dtype, ond, oshape);
  }
  int64_t n = xv.shape[axis], nrows = xv.size / n;
  if (xv.strides[axis] != ga_dtypes[xv.dtype].itemsize && n > 64 && nrows < 4096)
    xv = axis_last_copy(L, ctx, &xv, axis, fname);
  run_scan(L, ctx, op, &xv, target, axis, acc, fname);
  if (target != out) ga_copy_into(L, ctx, out, target, fname);
  lua_pushvalue(L, out_idx);
  return 1;
}

/* core._scan_fn{name=, op=0|1, decl=} -> the public function (ga.cumsum,
** ga.cumprod, also the ndarray methods) */
static int l_scan_fn(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  ga_state_push(L);
  scan_fn *sf = (scan_fn *)lua_newuserdatauv(L, sizeof *sf, 0);
  memset(sf, 0, sizeof *sf);
  lua_getfield(L, 1, "name");
  const char *name = lua_tostring(L, -1);
  if (!name || strlen(name) >= sizeof sf->name) ga_error(L, "_scan_fn: a name is required");
  strcpy(sf->name, name);
  lua_getfield(L, 1, "op");
  sf->op = (int)lua_tointeger(L, -1);
  if (sf->op != 0 && sf->op != 1) ga_error(L, "_scan_fn: op must be 0 (sum) or 1 (prod)");
  lua_getfield(L, 1, "decl");
  sf->decl = ga_api_checkdecl(L, -1, "_scan_fn");
  lua_pop(L, 3);
  sf->p_axis = ga_decl_find(sf->decl, "axis");
  sf->p_dtype = ga_decl_find(sf->decl, "dtype");
  sf->p_out = ga_decl_find(sf->decl, "out");
  if (sf->p_axis < 0 || sf->p_dtype < 0 || sf->p_out < 0)
    ga_error(L, "_scan_fn %s: the declaration needs axis, dtype and out", name);
  lua_pushvalue(L, 1);      /* anchors the declaration */
  lua_pushcclosure(L, scan_call, 3);
  return 1;
}

/* Test hook: core._test.scan_wide(scale): 2 or 4 widens tiles whatever the
** size, 0 restores the size rule */
static int l_scan_wide(lua_State *L) {
  lua_Integer s = luaL_checkinteger(L, 1);
  luaL_argcheck(L, s == 0 || s == 2 || s == 4, 1, "0, 2 or 4");
  forced_scale = (int)s;
  return 0;
}

/* Test hook: core._test.scan_source(op, in_dtype, out_dtype, kind, nd[, vec_in, vec_out[, wide]]) -> source,
** options (nil, or the list) */
static int l_scan_source(lua_State *L) {
  const char *op = ga_checkstring(L, 1, "_scan_source", "the op");
  scan_variant v;
  memset(&v, 0, sizeof v);
  v.op = strcmp(op, "cumprod") == 0;
  v.tin = ga_checkdtype(L, 2, -1, "_scan_source");
  if (v.tin < 0) return ga_error(L, "_scan_source: an input dtype is required");
  int acc, out;
  scan_types(v.tin, -1, &acc, &out);
  v.tout = ga_checkdtype(L, 3, out, "_scan_source");
  v.acc = acc;
  v.tiles = strcmp(luaL_optstring(L, 4, "tiles"), "tiles") == 0;
  v.nd = luaL_optinteger(L, 5, 1) <= 4 ? 4 : 8;     /* as ga_red_pad pads */
  if (v.tiles) {
    tile_shape(&v);
    v.vin = lua_isnoneornil(L, 6) ? 1 : lua_toboolean(L, 6);
    v.vout = lua_isnoneornil(L, 7) ? 1 : lua_toboolean(L, 7);
    if (!v.vin && !v.vout) {
      v.vec = 1;
      v.k = 8;
    }
    if (lua_toboolean(L, 8)) widen(&v, (int64_t)1 << 40, 1, 1);     /* the widest variant */
  }
  char w[1024];
  scan_wrapper(&v, w, sizeof w);
  for (int i = 0; scan_parts[i]; i++) lua_pushstring(L, ga_kernel_source(scan_parts[i]));
  lua_pushstring(L, w);
  lua_concat(L, 4);
  if (scan_nopts(&v)) {
    lua_createtable(L, 1, 0);
    lua_pushstring(L, nofma[0]);
    lua_rawseti(L, -2, 1);
  } else {
    lua_pushnil(L);
  }
  return 2;
}

static const luaL_Reg funcs[] = {
  {"fn", l_scan_fn},
  {NULL, NULL}
};

static const luaL_Reg funcs_test[] = {
  {"scan_source", l_scan_source},
  {"scan_wide", l_scan_wide},
  {NULL, NULL}
};

/* cumsum and cumprod are made by core.scan.fn from their declarations
** (lua/gpuarray/reduction/builtins.lua), which sets them on ga and methods */
void ga_open_scan(lua_State *L) {
  ga_setprivate(L, "scan", funcs);
  ga_setprivate(L, GA_TEST, funcs_test);
}
