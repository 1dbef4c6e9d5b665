/*
** transfer.c: values between Lua and the device. Nested tables in and out
** (shape inferred, ragged tables refused, dtype inferred from the Lua
** values), raw bytes in and out, single elements, and ga_assign, which is
** what x:set(v) and x[key] = v both come down to. Host staging buffers are
** Lua userdata, so a conversion error halfway leaks nothing.
*/
#include <string.h>

#include "array/array.h"

/* fname names the call in the error a capture raises (runtime/graph.c) */
static void to_host(lua_State *L, ga_state *ctx, void *dst, const void *src, size_t n, const char *fname) {
  if (n == 0) return;
  ga_device_enter(L, ctx);
  ga_capture_guard(L, ctx, ctx->stream, fname);
  /* into pageable memory the copy returns when done, after the stream's
  ** earlier work: the synchronizing read the API promises */
  ga_cuda_check(L, cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, ctx->stream), "cudaMemcpyAsync");
  ga_cuda_check(L, cudaStreamSynchronize(ctx->stream), "cudaStreamSynchronize");
}

void ga_to_host(lua_State *L, ga_state *ctx, void *dst, const void *src, size_t n) {
  to_host(L, ctx, dst, src, n, "copy to host");
}

void ga_to_device(lua_State *L, ga_state *ctx, void *dst, const void *src, size_t n) {
  if (n == 0) return;
  ga_device_enter(L, ctx);
  ga_capture_refuse(L, ctx, "copy from host", "cannot copy from host memory (copy before the capture)");
  /* from pageable memory the call returns once the bytes are staged, so the
  ** source may be freed right after */
  ga_cuda_check(L, cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, ctx->stream), "cudaMemcpyAsync");
}

/* ===================================================================== */
/* nested tables in                                                      */
/* ===================================================================== */

/* With a complex dtype, a table of exactly two numbers is one value */
static int is_pair(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx) || lua_rawlen(L, idx) != 2) return 0;
  lua_rawgeti(L, idx, 1);
  lua_rawgeti(L, idx, 2);
  int ok = lua_type(L, -1) == LUA_TNUMBER && lua_type(L, -2) == LUA_TNUMBER;
  lua_pop(L, 2);
  return ok;
}

static int is_leaf(lua_State *L, int idx, int pairs) {
  return !lua_istable(L, idx) || (pairs && is_pair(L, idx));
}

/* Shape from the first element at each level */
static int infer_shape(lua_State *L, int idx, int pairs, int64_t *shape, const char *fname) {
  int nd = 0;
  lua_pushvalue(L, idx);
  while (!is_leaf(L, -1, pairs)) {
    if (nd == GA_MAXDIM) ga_error(L, "%s: table nested deeper than %d levels", fname, GA_MAXDIM);
    int64_t n = (int64_t)lua_rawlen(L, -1);
    shape[nd++] = n;
    if (n == 0) break;
    lua_rawgeti(L, -1, 1);
    lua_remove(L, -2);
  }
  lua_pop(L, 1);
  return nd;
}

typedef struct {
  int nd;
  const int64_t *shape;
  int pairs;
  int any_float, any_int, any_bool;
  const char *fname;
  int path[GA_MAXDIM];
} walk_state;

static void ragged(lua_State *L, walk_state *w, int depth, const char *why) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; i < depth; i++) {
    lua_pushfstring(L, "[%d]", w->path[i]);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  ga_error(L, "%s: ragged nested table: element %s %s", w->fname, depth ? lua_tostring(L, -1) : "(top)", why);
}

/* Check the structure; gather what the leaves are (for dtype inference) */
static void scan(lua_State *L, walk_state *w, int depth) {
  int idx = lua_gettop(L);
  if (depth == w->nd) {
    if (!is_leaf(L, idx, w->pairs)) ragged(L, w, depth, "is a table where a value was expected");
    int t = lua_type(L, idx);
    if (t == LUA_TNUMBER) {
      if (lua_isinteger(L, idx)) w->any_int = 1;
      else w->any_float = 1;
    } else if (t == LUA_TBOOLEAN) {
      w->any_bool = 1;
    } else if (!(w->pairs && is_pair(L, idx)) && !ga_toscalar(L, idx)) {
      ga_error(L, "%s: table element is a %s, not a number or boolean", w->fname, luaL_typename(L, idx));
    } else {
      w->any_float = 1;
    }
    return;
  }
  if (is_leaf(L, idx, w->pairs)) ragged(L, w, depth, "is a value where a table was expected");
  int64_t n = (int64_t)lua_rawlen(L, idx);
  if (n != w->shape[depth]) {
    lua_pushfstring(L, "has length %I, expected %I", (lua_Integer)n, (lua_Integer)w->shape[depth]);
    ragged(L, w, depth, lua_tostring(L, -1));
  }
  luaL_checkstack(L, 4, "nested table");
  for (int64_t i = 1; i <= n; i++) {
    w->path[depth] = (int)i;
    lua_rawgeti(L, idx, i);
    scan(L, w, depth + 1);
    lua_pop(L, 1);
  }
}

static void fill_host(lua_State *L, walk_state *w, int depth, int dtype, char *buf, int64_t *pos) {
  int idx = lua_gettop(L);
  int64_t isz = ga_dtypes[dtype].itemsize;
  if (depth == w->nd) {
    ga_value v;
    ga_checkvalue(L, idx, dtype, &v, w->fname);
    memcpy(buf + *pos * isz, &v, (size_t)isz);
    (*pos)++;
    return;
  }
  int64_t n = w->shape[depth];
  for (int64_t i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    fill_host(L, w, depth + 1, dtype, buf, pos);
    lua_pop(L, 1);
  }
}

/* Push a new device array made from the nested table at idx. dtype < 0
** means infer it from the values. */
static ga_array *array_from_table(lua_State *L, ga_state *ctx, int idx, int dtype, const char *fname) {
  idx = lua_absindex(L, idx);
  int64_t shape[GA_MAXDIM];
  int pairs = dtype >= 0 && GA_IS_COMPLEX(dtype);
  walk_state w;
  memset(&w, 0, sizeof w);
  w.nd = infer_shape(L, idx, pairs, shape, fname);
  /* rows shared by reference can describe more elements than int64 counts:
  ** refuse before walking them */
  if (ga_shape_size(w.nd, shape) < 0)
    ga_error(L, "%s: a table of shape %s is too large", fname, ga_shape_str(L, w.nd, shape));
  w.shape = shape;
  w.pairs = pairs;
  w.fname = fname;
  lua_pushvalue(L, idx);
  scan(L, &w, 0);
  lua_pop(L, 1);
  if (dtype < 0) {
    int64_t size = ga_shape_size(w.nd, shape);
    if (size == 0) dtype = ctx->default_dtype;
    else if (w.any_float) dtype = GA_FLOAT64;
    else if (w.any_int) dtype = GA_INT64;
    else dtype = GA_BOOL;
  }
  int64_t size = ga_shape_size(w.nd, shape);
  if (ga_shape_nbytes(w.nd, shape, ga_dtypes[dtype].itemsize) < 0)
    ga_error(L, "%s: a table of shape %s is too large", fname, ga_shape_str(L, w.nd, shape));
  char *buf = (char *)lua_newuserdatauv(L, (size_t)(size * ga_dtypes[dtype].itemsize) + 1, 0);
  int64_t pos = 0;
  lua_pushvalue(L, idx);
  fill_host(L, &w, 0, dtype, buf, &pos);
  lua_pop(L, 1);
  ga_array *a = ga_new_array(L, ctx, dtype, w.nd, shape);
  ga_to_device(L, ctx, a->data, buf, (size_t)(size * ga_dtypes[dtype].itemsize));
  lua_remove(L, -2);   /* the staging buffer */
  return a;
}

/* ===================================================================== */
/* assignment                                                            */
/* ===================================================================== */

/* dst[...] = src as NumPy's setitem: a source with more dimensions than
** the destination loses its leading size-1 axes first (x[{4}] = ga.array({7})
** writes one element), then broadcasts */
static void copy_setitem(lua_State *L, ga_state *ctx, ga_array *dst, const ga_array *src, const char *fname) {
  int drop = 0;
  while (src->ndim - drop > dst->ndim && src->shape[drop] == 1) drop++;
  if (drop == 0) {
    ga_copy_into(L, ctx, dst, src, fname);
    return;
  }
  ga_array s = *src;   /* the same memory, viewed without those axes */
  s.ndim = src->ndim - drop;
  memmove(s.shape, src->shape + drop, sizeof(int64_t) * (size_t)s.ndim);
  memmove(s.strides, src->strides + drop, sizeof(int64_t) * (size_t)s.ndim);
  ga_copy_into(L, ctx, dst, &s, fname);
}

void ga_assign(lua_State *L, ga_state *ctx, int dst_idx, int src_idx, const char *fname) {
  dst_idx = lua_absindex(L, dst_idx);
  src_idx = lua_absindex(L, src_idx);
  ga_array *dst = ga_checkarray(L, dst_idx);
  ga_array *src = ga_toarray(L, src_idx);
  if (src) {
    if (src->flags & GA_F_FREED) ga_error(L, "%s: the array was freed", fname);
    copy_setitem(L, ctx, dst, src, fname);
    return;
  }
  int top = lua_gettop(L);
  switch (lua_type(L, src_idx)) {
    case LUA_TSTRING: {
      size_t len;
      const char *bytes = lua_tolstring(L, src_idx, &len);
      size_t nbytes = (size_t)(dst->size * ga_dtypes[dst->dtype].itemsize);
      if (len != nbytes)
        ga_error(L, "%s: %d bytes given for an array of %d bytes", fname, (int)len, (int)nbytes);
      if (dst->flags & GA_F_C) {
        ga_to_device(L, ctx, dst->data, bytes, len);
      } else {
        ga_array *tmp = ga_new_array(L, ctx, dst->dtype, dst->ndim, dst->shape);
        ga_to_device(L, ctx, tmp->data, bytes, len);
        ga_copy_into(L, ctx, dst, tmp, fname);
      }
      break;
    }
    case LUA_TTABLE:
      if (!(GA_IS_COMPLEX(dst->dtype) && is_pair(L, src_idx))) {
        ga_array *tmp = array_from_table(L, ctx, src_idx, dst->dtype, fname);
        copy_setitem(L, ctx, dst, tmp, fname);
        break;
      }
      /* one complex value */
      __attribute__((fallthrough));
    default: {
      ga_value v;
      ga_checkvalue(L, src_idx, dst->dtype, &v, fname);
      ga_fill(L, ctx, dst, &v);
      break;
    }
  }
  lua_settop(L, top);
}

/* ===================================================================== */
/* ga.array / ga.asarray                                                 */
/* ===================================================================== */

/* Argument 2: a dtype, or an options table {dtype=, shape=, copy=} */
static int dtype_and_opts(lua_State *L, int idx, int *has_opts, const char *fname) {
  *has_opts = 0;
  if (lua_istable(L, idx)) {
    if (lua_getfield(L, idx, "name") != LUA_TNIL) {
      lua_pop(L, 1);
      return ga_checkdtype(L, idx, -1, fname);
    }
    lua_pop(L, 1);
    *has_opts = 1;
    lua_getfield(L, idx, "dtype");
    int t = ga_checkdtype(L, -1, -1, fname);
    lua_pop(L, 1);
    return t;
  }
  return ga_checkdtype(L, idx, -1, fname);
}

/* A copy of an array, possibly from another device (peer.c) */
static void copy_array(lua_State *L, ga_state *ctx, int idx, int dtype) {
  ga_array *a = ga_checkarray(L, idx);
  if (a->device != ctx->device) {
    ga_copy_across(L, ctx, idx, dtype);
    return;
  }
  ga_array *c = ga_new_array(L, ctx, dtype < 0 ? a->dtype : dtype, a->ndim, a->shape);
  ga_copy_into(L, ctx, c, a, "array");
}

static int make_array(lua_State *L, int as_is, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  int has_opts;
  int dtype = dtype_and_opts(L, 2, &has_opts, fname);
  ga_checkany(L, 1, fname, "the source");
  ga_array *a = ga_toarray(L, 1);
  if (a) {
    if (a->flags & GA_F_FREED) ga_error(L, "%s: the array was freed", fname);
    if (as_is && (dtype < 0 || dtype == a->dtype) && a->device == ctx->device) {
      lua_settop(L, 1);
      return 1;
    }
    copy_array(L, ctx, 1, dtype);
    return 1;
  }
  switch (lua_type(L, 1)) {
    case LUA_TTABLE:
      if (dtype >= 0 && GA_IS_COMPLEX(dtype) && is_pair(L, 1)) break;   /* one complex value: 0-d */
      array_from_table(L, ctx, 1, dtype, fname);
      return 1;
    case LUA_TSTRING: {
      int64_t shape[GA_MAXDIM];
      int nd = -1;
      if (has_opts) {
        lua_getfield(L, 2, "shape");
        if (!lua_isnil(L, -1)) nd = ga_checkshape(L, -1, shape, fname);
        lua_pop(L, 1);
      }
      if (dtype < 0) dtype = ctx->default_dtype;
      size_t len;
      lua_tolstring(L, 1, &len);
      if (nd < 0) {
        if (len % (size_t)ga_dtypes[dtype].itemsize)
          ga_error(L, "%s: %d bytes are not a whole number of %s elements", fname, (int)len, ga_dtypes[dtype].name);
        nd = 1;
        shape[0] = (int64_t)(len / (size_t)ga_dtypes[dtype].itemsize);
      }
      ga_new_array(L, ctx, dtype, nd, shape);
      ga_assign(L, ctx, -1, 1, fname);
      return 1;
    }
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
    case LUA_TUSERDATA:
      break;
    default:
      ga_error(L, "%s: cannot make an array from a %s", fname, luaL_typename(L, 1));
  }
  /* a scalar: a 0-d array */
  if (dtype < 0) {
    ga_scalar *s = ga_toscalar(L, 1);
    if (s) dtype = s->dtype;
    else if (lua_type(L, 1) == LUA_TBOOLEAN) dtype = GA_BOOL;
    else if (lua_isinteger(L, 1)) dtype = GA_INT64;
    else if (lua_type(L, 1) == LUA_TNUMBER) dtype = GA_FLOAT64;
    else ga_error(L, "%s: cannot make an array from a %s", fname, luaL_typename(L, 1));
  }
  ga_value v;
  ga_checkvalue(L, 1, dtype, &v, fname);
  ga_array *z = ga_new_array(L, ctx, dtype, 0, NULL);
  ga_to_device(L, ctx, z->data, &v, (size_t)ga_dtypes[dtype].itemsize);
  return 1;
}

static int l_array(lua_State *L) { return make_array(L, 0, "array"); }
static int l_asarray(lua_State *L) { return make_array(L, 1, "asarray"); }

/* ===================================================================== */
/* out to Lua                                                            */
/* ===================================================================== */

/* The array's elements in C order in a host buffer (a userdata pushed on
** the stack, so that nothing leaks if a later step raises) */
static const char *host_copy(lua_State *L, ga_state *ctx, int idx, const char *fname) {
  ga_array *a = ga_checkarray(L, idx);
  size_t n = (size_t)(a->size * ga_dtypes[a->dtype].itemsize);
  ga_contiguous(L, ctx, idx, -1, 0);
  ga_array *c = ga_toarray(L, -1);
  char *buf = (char *)lua_newuserdatauv(L, n + 1, 0);
  to_host(L, ctx, buf, c->data, n, fname);
  lua_remove(L, -2);
  return buf;
}

static void build_table(lua_State *L, const char *buf, int t, int nd, const int64_t *shape, int d,
                        int64_t *pos) {
  if (d == nd) {
    ga_pushvalue(L, t, buf + *pos * ga_dtypes[t].itemsize);
    (*pos)++;
    return;
  }
  luaL_checkstack(L, 4, "totable");
  lua_createtable(L, shape[d] < INT32_MAX ? (int)shape[d] : 0, 0);
  for (int64_t i = 0; i < shape[d]; i++) {
    build_table(L, buf, t, nd, shape, d + 1, pos);
    lua_rawseti(L, -2, i + 1);
  }
}

/* An empty array still makes a table per row up to its first 0-length
** axis ({1, 2^62, 0} would make 2^62): bound them */
#define MAX_EMPTY_TABLES ((int64_t)1 << 24)

void ga_push_nested(lua_State *L, const char *buf, int t, int nd, const int64_t *shape, const char *fname) {
  int64_t rows = 1, tables = 1, size = 1;
  for (int d = 0; d < nd; d++) size = shape[d] ? size : 0;
  for (int d = 0; d < nd - 1 && shape[d] > 0; d++) {
    if (!ga_mul64(rows, shape[d], &rows) || !ga_add64(tables, rows, &tables) || tables > MAX_EMPTY_TABLES) {
      if (size > 0) break;      /* tables are bounded by the elements */
      ga_error(L, "%s: an empty array of shape %s would need more than %I nested tables", fname,
               ga_shape_str(L, nd, shape), (lua_Integer)MAX_EMPTY_TABLES);
    }
  }
  int64_t pos = 0;
  build_table(L, buf, t, nd, shape, 0, &pos);
}

static int l_totable(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  const char *buf = host_copy(L, ga_ctx(L), 1, "totable");
  ga_push_nested(L, buf, a->dtype, a->ndim, a->shape, "totable");
  return 1;
}

static int l_tobytes(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  ga_state *ctx = ga_ctx(L);
  size_t n = (size_t)(a->size * ga_dtypes[a->dtype].itemsize);
  ga_contiguous(L, ctx, 1, -1, 0);
  ga_array *c = ga_toarray(L, -1);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, n);
  to_host(L, ctx, p, c->data, n, "tobytes");
  luaL_pushresultsize(&b, n);
  return 1;
}

static int l_item(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int nargs = lua_gettop(L) - 1;
  int64_t off = 0;
  if (nargs == 0) {
    if (a->size != 1)
      ga_error(L, "item: an array of size %I has no single item (give indices)", (lua_Integer)a->size);
  } else if (nargs == 1 && a->ndim != 1) {
    /* one index into the flattened array, C order */
    lua_Integer k = ga_checkinteger(L, 2, "item", "the index");
    int64_t z = k < 0 ? a->size + k : k - 1;
    if (k == 0 || z < 0 || z >= a->size)
      ga_error(L, "item: index %I is out of range for size %I", k, (lua_Integer)a->size);
    for (int d = a->ndim - 1; d >= 0; d--) {
      off += (z % a->shape[d]) * a->strides[d];
      z /= a->shape[d];
    }
  } else {
    if (nargs != a->ndim) ga_error(L, "item: %d indices for an array of %d dimensions", nargs, a->ndim);
    for (int d = 0; d < a->ndim; d++) {
      lua_Integer k = ga_checkinteger(L, d + 2, "item", "an index");
      int64_t z = k < 0 ? a->shape[d] + k : k - 1;
      if (k == 0 || z < 0 || z >= a->shape[d])
        ga_error(L, "item: index %I is out of range for axis %d with size %I", k, d + 1,
                 (lua_Integer)a->shape[d]);
      off += z * a->strides[d];
    }
  }
  ga_value v;
  to_host(L, ga_ctx(L), &v, a->data + off, (size_t)ga_dtypes[a->dtype].itemsize, "item");
  if (a->dtype == GA_COMPLEX64) {   /* the contract: two numbers, re and im */
    lua_pushnumber(L, v.c64[0]);
    lua_pushnumber(L, v.c64[1]);
    return 2;
  }
  if (a->dtype == GA_COMPLEX128) {
    lua_pushnumber(L, v.c128[0]);
    lua_pushnumber(L, v.c128[1]);
    return 2;
  }
  ga_pushvalue(L, a->dtype, &v);
  return 1;
}

static int l_set(lua_State *L) {
  ga_checkarray(L, 1);
  ga_checkany(L, 2, "set", "the value");
  if (ga_is_pinned(L, 2)) return ga_pinned_set(L);
  ga_assign(L, ga_ctx(L), 1, 2, "set");
  lua_settop(L, 1);
  return 1;
}

static const luaL_Reg transfer_methods[] = {
  {"totable", l_totable},
  {"tobytes", l_tobytes},
  {"item", l_item},
  {"set", l_set},
  {NULL, NULL}
};

static const luaL_Reg transfer_funcs[] = {
  {"array", l_array},
  {"asarray", l_asarray},
  {NULL, NULL}
};

void ga_open_transfer(lua_State *L) {
  ga_setfuncs(L, transfer_funcs);
  ga_push_methods(L);
  ga_setfuncs(L, transfer_methods);
  lua_pop(L, 1);
}
