/*
** ndarray.c: the array userdata. Life cycle (liolib.c's pattern: the
** userdata exists in a harmless empty state with its metatable before any
** device memory is taken), fields, __index/__newindex dispatch, and the
** view-making methods (reshape, transpose, squeeze, ...), which only compute
** new shapes and strides over the same memory block.
*/
#include <string.h>

#include "array/array.h"


/* ===================================================================== */
/* arguments                                                             */
/* ===================================================================== */

ga_array *ga_toarray(lua_State *L, int idx) {
  return ga_toarray_in(L, ga_state_get(L), idx);
}

ga_array *ga_checkarray(lua_State *L, int idx) {
  ga_array *a = ga_toarray(L, idx);
  if (!a) {
    ga_error(L, "expected an ndarray at argument %d, got %s", idx, luaL_typename(L, idx));
  }
  if (a->flags & GA_F_FREED) ga_error(L, "the array was freed");
  return a;
}

int ga_checkintlist(lua_State *L, int idx, int64_t *out, const char *fname) {
  idx = lua_absindex(L, idx);
  if (lua_isinteger(L, idx)) {
    out[0] = lua_tointeger(L, idx);
    return 1;
  }
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Number f = lua_tonumber(L, idx);
    if (ga_double_to_int64(f, &out[0])) return 1;
    ga_error(L, "%s: expected an integer, got %f", fname, f);
  }
  if (!lua_istable(L, idx)) ga_error(L, "%s: expected an integer or a list of integers, got %s", fname,
                                     luaL_typename(L, idx));
  int n = (int)lua_rawlen(L, idx);
  if (n > GA_MAXDIM) ga_error(L, "%s: more than %d dimensions", fname, GA_MAXDIM);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (!isnum) ga_error(L, "%s: element %d of the list is not an integer", fname, i + 1);
    out[i] = v;
    lua_pop(L, 1);
  }
  return n;
}

int ga_checkshape(lua_State *L, int idx, int64_t *shape, const char *fname) {
  int n = ga_checkintlist(L, idx, shape, fname);
  for (int i = 0; i < n; i++)
    if (shape[i] < 0) ga_error(L, "%s: negative dimension %I in shape", fname, (lua_Integer)shape[i]);
  return n;
}

void ga_pushshape(lua_State *L, int ndim, const int64_t *shape) {
  lua_createtable(L, ndim, 0);
  for (int i = 0; i < ndim; i++) {
    lua_pushinteger(L, shape[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

const char *ga_shape_str(lua_State *L, int ndim, const int64_t *shape) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '{');
  for (int i = 0; i < ndim; i++) {
    if (i) luaL_addchar(&b, ',');
    lua_pushinteger(L, shape[i]);
    luaL_addvalue(&b);
  }
  luaL_addchar(&b, '}');
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

int ga_checkaxis(lua_State *L, lua_Integer axis, int ndim, const char *fname) {
  if (axis >= 1 && axis <= ndim) return (int)axis - 1;
  if (axis <= -1 && axis >= -ndim) return ndim + (int)axis;
  return ga_error(L, "%s: axis %I is out of range for an array of %d dimensions", fname, axis, ndim);
}

/* ===================================================================== */
/* life cycle                                                            */
/* ===================================================================== */

void ga_array_update_flags(ga_array *a) {
  int64_t isz = ga_dtypes[a->dtype].itemsize;
  a->size = ga_shape_size(a->ndim, a->shape);
  a->flags &= ~(GA_F_C | GA_F_F);
  if (ga_is_c_contiguous(a->ndim, a->shape, a->strides, isz)) a->flags |= GA_F_C;
  if (ga_is_f_contiguous(a->ndim, a->shape, a->strides, isz)) a->flags |= GA_F_F;
}

/* Do the bytes two arrays can reach intersect? (same allocation only) */
int ga_arrays_overlap(const ga_array *x, const ga_array *y) {
  if (!x->block || x->block != y->block) return 0;
  int64_t xl, xh, yl, yh;
  ga_extent(x->ndim, x->shape, x->strides, &xl, &xh);
  ga_extent(y->ndim, y->shape, y->strides, &yl, &yh);
  const char *x0 = x->data + xl, *x1 = x->data + xh + ga_dtypes[x->dtype].itemsize;
  const char *y0 = y->data + yl, *y1 = y->data + yh + ga_dtypes[y->dtype].itemsize;
  return x0 < y1 && y0 < x1;
}

/* A userdata in its empty state (no memory, nothing to release) */
static ga_array *push_empty(lua_State *L) {
  ga_array *a = (ga_array *)lua_newuserdatauv(L, sizeof(ga_array), 1);
  a->data = NULL;
  a->block = NULL;
  a->size = 0;
  a->ndim = 0;
  a->dtype = GA_FLOAT64;
  a->device = 0;
  a->flags = GA_F_FREED;
  luaL_setmetatable(L, GA_ARRAY_MT);
  return a;
}

ga_array *ga_new_array(lua_State *L, ga_state *ctx, int dtype, int ndim, const int64_t *shape) {
  if (ndim > GA_MAXDIM) ga_error(L, "more than %d dimensions", GA_MAXDIM);
  int64_t size = ga_shape_size(ndim, shape);
  int64_t isz = ga_dtypes[dtype].itemsize;
  if (ga_shape_nbytes(ndim, shape, isz) < 0) ga_error(L, "array of shape %s is too large", ga_shape_str(L, ndim, shape));
  ga_array *a = push_empty(L);
  if (size > 0) {
    ga_block *b = ga_alloc(L, ctx, (size_t)(size * isz));
    a->block = b;
    a->data = (char *)b->ptr;
  }
  a->ndim = ndim;
  a->dtype = dtype;
  a->device = ctx->device;
  if (ndim) memcpy(a->shape, shape, sizeof(int64_t) * ndim);   /* shape may be NULL */
  ga_c_strides(ndim, shape, isz, a->strides);
  a->size = size;
  a->flags = GA_F_C | (ndim <= 1 || size <= 1 ? GA_F_F : 0);
  if (!(a->flags & GA_F_F) && ga_is_f_contiguous(ndim, shape, a->strides, isz)) a->flags |= GA_F_F;
  return a;
}

ga_array *ga_new_view(lua_State *L, int base_idx, int ndim, const int64_t *shape,
                      const int64_t *strides, char *data) {
  base_idx = lua_absindex(L, base_idx);
  ga_array *base = (ga_array *)lua_touserdata(L, base_idx);
  /* broadcast_to and reshape may ask for counts no array can have */
  if (ga_shape_nbytes(ndim, shape, ga_dtypes[base->dtype].itemsize) < 0)
    ga_error(L, "array of shape %s is too large", ga_shape_str(L, ndim, shape));
  ga_array *v = push_empty(L);
  v->ndim = ndim;
  v->dtype = base->dtype;
  v->device = base->device;
  memcpy(v->shape, shape, sizeof(int64_t) * ndim);
  memcpy(v->strides, strides, sizeof(int64_t) * ndim);
  v->flags = 0;
  ga_array_update_flags(v);
  v->data = data;
  v->block = base->block;
  if (v->block) ga_block_retain(v->block);
  /* .base is the array that owns the memory: a view of a view points past
  ** its parent, as NumPy does */
  if (lua_getiuservalue(L, base_idx, 1) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushvalue(L, base_idx);
  }
  lua_setiuservalue(L, -2, 1);
  return v;
}

void ga_array_release(ga_array *a) {
  if (a->block) {
    ga_block *b = a->block;
    a->block = NULL;
    ga_block_release(b);
  }
  a->data = NULL;
  a->flags |= GA_F_FREED;
}

void ga_check_device(lua_State *L, ga_state *ctx, const ga_array *a, const char *fname) {
  if (a->device != ctx->device)
    ga_error(L, "%s: array is on device %d, the current device is %d", fname, a->device, ctx->device);
}

/* __gc, __close and free(): release once, leave the empty state */
static int l_release(lua_State *L) {
  ga_array *a = ga_toarray(L, 1);
  if (a) ga_array_release(a);
  return 0;
}

/* ===================================================================== */
/* fields                                                                */
/* ===================================================================== */

static int push_flags(lua_State *L, ga_array *a) {
  lua_createtable(L, 0, 3);
  lua_pushboolean(L, (a->flags & GA_F_C) != 0);
  lua_setfield(L, -2, "c_contiguous");
  lua_pushboolean(L, (a->flags & GA_F_F) != 0);
  lua_setfield(L, -2, "f_contiguous");
  lua_getiuservalue(L, 1, 1);
  lua_pushboolean(L, lua_isnil(L, -1));
  lua_remove(L, -2);
  lua_setfield(L, -2, "owndata");
  return 1;
}

static int transpose_view(lua_State *L, int idx, ga_array *a, const int *perm) {
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  for (int d = 0; d < a->ndim; d++) {
    shape[d] = a->shape[perm[d]];
    strides[d] = a->strides[perm[d]];
  }
  ga_new_view(L, idx, a->ndim, shape, strides, a->data);
  return 1;
}

static int reversed_view(lua_State *L, int idx, ga_array *a) {
  int perm[GA_MAXDIM];
  for (int d = 0; d < a->ndim; d++) perm[d] = a->ndim - 1 - d;
  return transpose_view(L, idx, a, perm);
}

/* Fields by name; returns 0 when the key is no field */
static int push_field(lua_State *L, ga_array *a, const char *k) {
  switch (k[0]) {
    case 's':
      if (strcmp(k, "shape") == 0) { ga_pushshape(L, a->ndim, a->shape); return 1; }
      if (strcmp(k, "size") == 0) { lua_pushinteger(L, a->size); return 1; }
      if (strcmp(k, "strides") == 0) { ga_pushshape(L, a->ndim, a->strides); return 1; }
      break;
    case 'n':
      if (strcmp(k, "ndim") == 0) { lua_pushinteger(L, a->ndim); return 1; }
      if (strcmp(k, "nbytes") == 0) { lua_pushinteger(L, a->size * ga_dtypes[a->dtype].itemsize); return 1; }
      break;
    case 'd':
      if (strcmp(k, "dtype") == 0) { lua_pushstring(L, ga_dtypes[a->dtype].name); return 1; }
      if (strcmp(k, "device") == 0) { lua_pushinteger(L, a->device); return 1; }
      if (strcmp(k, "data_ptr") == 0) { lua_pushinteger(L, (lua_Integer)(uintptr_t)a->data); return 1; }
      break;
    case 'i':
      if (strcmp(k, "itemsize") == 0) { lua_pushinteger(L, ga_dtypes[a->dtype].itemsize); return 1; }
      break;
    case 'T':
      if (k[1] == 0) {
        if (a->flags & GA_F_FREED) ga_error(L, "the array was freed");
        return reversed_view(L, 1, a);
      }
      break;
    case 'b':
      if (strcmp(k, "base") == 0) { lua_getiuservalue(L, 1, 1); return 1; }
      break;
    case 'f':
      if (strcmp(k, "flags") == 0) return push_flags(L, a);
      break;
  }
  return 0;
}

/* __index(x, key): methods first (the fast path of x:sum()), then fields,
** then indexing (index.c). Upvalues: context, method table. */
static int l_index(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
    lua_pop(L, 1);
    ga_array *a = (ga_array *)lua_touserdata(L, 1);
    const char *key = ga_fieldkey(L, 2);
    if (key && push_field(L, a, key)) return 1;
    /* fields made in Lua (real, imag, flat: lua/gpuarray/array/fields.lua) */
    if (ga_push_hook(L, GA_HOOK_FIELD)) {
      lua_pushvalue(L, 1);
      lua_pushvalue(L, 2);
      lua_call(L, 2, 1);
      if (!lua_isnil(L, -1)) return 1;
      lua_pop(L, 1);
    }
    return ga_error(L, "ndarray has no field or method '%s'", lua_tostring(L, 2));
  }
  return ga_index_read(L);
}

static int l_newindex(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    /* x.real = y and x.imag = y: the field hook writes through the view;
    ** it returns true when it took the key */
    if (ga_push_hook(L, GA_HOOK_FIELD)) {
      lua_pushvalue(L, 1);
      lua_pushvalue(L, 2);
      lua_pushvalue(L, 3);
      lua_call(L, 3, 1);
      if (lua_toboolean(L, -1)) return 0;
      lua_pop(L, 1);
    }
    return ga_error(L, "ndarray fields are read-only ('%s')", lua_tostring(L, 2));
  }
  return ga_index_write(L);
}

static int l_len(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  if (a->ndim == 0) return ga_error(L, "# of a 0-d array");
  lua_pushinteger(L, a->shape[0]);
  return 1;
}

static int l_tostring(lua_State *L) {
  ga_array *a = ga_toarray(L, 1);
  if (a && !(a->flags & GA_F_FREED) && ga_push_hook(L, GA_HOOK_REPR)) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
  }
  lua_pushfstring(L, "gpuarray.ndarray(%s, %s%s)", ga_shape_str(L, a ? a->ndim : 0, a ? a->shape : NULL),
                  a ? ga_dtypes[a->dtype].name : "?", a && (a->flags & GA_F_FREED) ? ", freed" : "");
  return 1;
}

/* ===================================================================== */
/* views                                                                 */
/* ===================================================================== */

/* Shape arguments given as one list or as several integers */
static int shape_args(lua_State *L, int first, int64_t *shape, const char *fname) {
  int top = lua_gettop(L);
  if (top == first && !lua_isinteger(L, first)) return ga_checkintlist(L, first, shape, fname);
  int n = top - first + 1;
  if (n > GA_MAXDIM) ga_error(L, "%s: more than %d dimensions", fname, GA_MAXDIM);
  for (int i = 0; i < n; i++) {
    int isnum;
    shape[i] = lua_tointegerx(L, first + i, &isnum);
    if (!isnum) ga_error(L, "%s: argument %d is not an integer", fname, i + 1);
  }
  return n;
}

/* Resolve one -1 and check the element count */
static void resolve_shape(lua_State *L, ga_array *a, int nd, int64_t *shape, const char *fname) {
  int unknown = -1;
  int64_t known = 1;
  for (int d = 0; d < nd; d++) {
    if (shape[d] == -1) {
      if (unknown >= 0) ga_error(L, "%s: can only infer one dimension", fname);
      unknown = d;
    } else if (shape[d] < 0) {
      ga_error(L, "%s: negative dimension %I", fname, (lua_Integer)shape[d]);
    } else if (!ga_mul64(known, shape[d], &known)) {
      /* (a 0 elsewhere still leaves a shape no array can have: the view
      ** refuses that one) */
      ga_error(L, "%s: shape %s is too large", fname, ga_shape_str(L, nd, shape));
    }
  }
  if (unknown >= 0) {
    if (known == 0 || a->size % known)
      ga_error(L, "%s: cannot reshape array of size %I into shape %s", fname, (lua_Integer)a->size,
               ga_shape_str(L, nd, shape));
    shape[unknown] = a->size / known;
    known *= shape[unknown];
  }
  if (known != a->size)
    ga_error(L, "%s: cannot reshape array of size %I into shape %s", fname, (lua_Integer)a->size,
             ga_shape_str(L, nd, shape));
}

static int reshape_to(lua_State *L, int idx, ga_array *a, int nd, int64_t *shape) {
  int64_t strides[GA_MAXDIM];
  if (ga_shape_nbytes(nd, shape, ga_dtypes[a->dtype].itemsize) < 0)
    ga_error(L, "reshape: shape %s is too large", ga_shape_str(L, nd, shape));
  if (ga_reshape_strides(a->ndim, a->shape, a->strides, nd, shape, ga_dtypes[a->dtype].itemsize, strides)) {
    ga_new_view(L, idx, nd, shape, strides, a->data);
    return 1;
  }
  ga_state *ctx = ga_ctx(L);
  ga_array *c = ga_contiguous(L, ctx, idx, -1, 1);
  memcpy(c->shape, shape, sizeof(int64_t) * nd);
  c->ndim = nd;
  ga_c_strides(nd, shape, ga_dtypes[c->dtype].itemsize, c->strides);
  ga_array_update_flags(c);
  return 1;
}

static int l_reshape(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int64_t shape[GA_MAXDIM];
  int nd = shape_args(L, 2, shape, "reshape");
  resolve_shape(L, a, nd, shape, "reshape");
  return reshape_to(L, 1, a, nd, shape);
}

static int l_ravel(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int64_t n = a->size;
  return reshape_to(L, 1, a, 1, &n);
}

static int l_flatten(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  ga_array *c = ga_contiguous(L, ga_ctx(L), 1, -1, 1);
  c->shape[0] = a->size;
  c->strides[0] = ga_dtypes[a->dtype].itemsize;
  c->ndim = 1;
  ga_array_update_flags(c);
  return 1;
}

static int l_transpose(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  if (lua_gettop(L) < 2 || lua_isnil(L, 2)) return reversed_view(L, 1, a);
  int64_t axes[GA_MAXDIM];
  int n = shape_args(L, 2, axes, "transpose");
  if (n != a->ndim) ga_error(L, "transpose: %d axes given for an array of %d dimensions", n, a->ndim);
  int perm[GA_MAXDIM], seen[GA_MAXDIM] = {0};
  for (int d = 0; d < n; d++) {
    perm[d] = ga_checkaxis(L, axes[d], a->ndim, "transpose");
    if (seen[perm[d]]++) ga_error(L, "transpose: axis %I repeated", (lua_Integer)axes[d]);
  }
  return transpose_view(L, 1, a, perm);
}

static int l_swapaxes(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int x = ga_checkaxis(L, ga_checkinteger(L, 2, "swapaxes", "axis1"), a->ndim, "swapaxes");
  int y = ga_checkaxis(L, ga_checkinteger(L, 3, "swapaxes", "axis2"), a->ndim, "swapaxes");
  int perm[GA_MAXDIM];
  for (int d = 0; d < a->ndim; d++) perm[d] = d;
  perm[x] = y;
  perm[y] = x;
  return transpose_view(L, 1, a, perm);
}

static int l_squeeze(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int drop[GA_MAXDIM] = {0};
  if (lua_isnoneornil(L, 2)) {
    for (int d = 0; d < a->ndim; d++) drop[d] = a->shape[d] == 1;
  } else {
    int64_t axes[GA_MAXDIM];
    int n = ga_checkintlist(L, 2, axes, "squeeze");
    for (int i = 0; i < n; i++) {
      int d = ga_checkaxis(L, axes[i], a->ndim, "squeeze");
      if (a->shape[d] != 1)
        ga_error(L, "squeeze: cannot select axis %I: its length is %I, not 1", (lua_Integer)axes[i],
                 (lua_Integer)a->shape[d]);
      drop[d] = 1;
    }
  }
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  int nd = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (drop[d]) continue;
    shape[nd] = a->shape[d];
    strides[nd++] = a->strides[d];
  }
  ga_new_view(L, 1, nd, shape, strides, a->data);
  return 1;
}

static int l_expand_dims(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  lua_Integer axis = ga_checkinteger(L, 2, "expand_dims", "axis");
  if (a->ndim + 1 > GA_MAXDIM) ga_error(L, "expand_dims: more than %d dimensions", GA_MAXDIM);
  int p = ga_checkaxis(L, axis, a->ndim + 1, "expand_dims");
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  for (int d = 0, s = 0; d <= a->ndim; d++) {
    if (d == p) {
      shape[d] = 1;
      strides[d] = 0;
    } else {
      shape[d] = a->shape[s];
      strides[d] = a->strides[s];
      s++;
    }
  }
  ga_new_view(L, 1, a->ndim + 1, shape, strides, a->data);
  return 1;
}

static int l_broadcast_to(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  int nd = ga_checkshape(L, 2, shape, "broadcast_to");
  if (!ga_broadcast_strides(a->ndim, a->shape, a->strides, nd, shape, strides))
    ga_error(L, "broadcast_to: cannot broadcast shape %s to %s", ga_shape_str(L, a->ndim, a->shape),
             ga_shape_str(L, nd, shape));
  ga_new_view(L, 1, nd, shape, strides, a->data);
  return 1;
}

/* core.ndarray.as_strided(x, shape, strides, offset[, dtype]): a view of x's memory
** with any shape, byte strides, byte offset from x's first element and
** dtype (x's when nil), for x.real/x.imag, x:view(dtype) and
** lib.stride_tricks.as_strided. Every byte the view can reach must lie in
** x's memory block, and the offset and strides must keep its elements
** aligned: a bad view raises instead of reading outside the allocation. */
static int l_as_strided(lua_State *L) {
  const char *f = "as_strided";
  ga_array *a = ga_checkarray(L, 1);
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  int nd = ga_checkshape(L, 2, shape, f);
  if (ga_checkintlist(L, 3, strides, f) != nd) ga_error(L, "%s: %d strides for %d dimensions", f,
                                                       (int)lua_rawlen(L, 3), nd);
  lua_Integer offset = ga_checkinteger(L, 4, f, "offset");
  int t = lua_isnoneornil(L, 5) ? a->dtype : ga_checkdtype(L, 5, -1, f);
  int64_t isz = ga_dtypes[t].itemsize;
  int64_t align = GA_IS_COMPLEX(t) ? isz / 2 : isz;
  if (ga_shape_nbytes(nd, shape, isz) < 0) ga_error(L, "%s: shape %s is too large", f, ga_shape_str(L, nd, shape));
  int64_t size = ga_shape_size(nd, shape);
  if (size > 0) {
    if (offset % align) ga_error(L, "%s: offset %I is not a multiple of %I bytes", f, offset, (lua_Integer)align);
    for (int d = 0; d < nd; d++)
      if (shape[d] > 1 && strides[d] % align)
        ga_error(L, "%s: stride %I is not a multiple of %I bytes", f, (lua_Integer)strides[d], (lua_Integer)align);
    int64_t lo, hi;
    ga_extent(nd, shape, strides, &lo, &hi);
    const char *base = a->block ? (const char *)a->block->ptr : NULL;
    size_t cap = a->block ? a->block->size : 0;
    if (!base) ga_error(L, "%s: the array has no memory to view", f);
    int64_t first = (int64_t)(a->data - base) + offset + lo, last = (int64_t)(a->data - base) + offset + hi + isz;
    if (first < 0 || last > (int64_t)cap)
      ga_error(L, "%s: the view reaches bytes %I .. %I of a memory block of %I bytes", f, (lua_Integer)first,
               (lua_Integer)last, (lua_Integer)cap);
  }
  ga_array *v = ga_new_view(L, 1, nd, shape, strides, size > 0 ? a->data + offset : a->data);
  v->dtype = t;
  ga_array_update_flags(v);
  return 1;
}

/* ===================================================================== */
/* copies                                                                */
/* ===================================================================== */

static int l_copy(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  const char *order = lua_isnoneornil(L, 2) ? "C" : ga_checkstring(L, 2, "copy", "order");
  ga_state *ctx = ga_ctx(L);
  if (a->device != ctx->device) {   /* under another device's scope: a copy there */
    ga_copy_across(L, ctx, 1, -1);
    return 1;
  }
  if (order[0] == 'F' || (order[0] == 'A' && (a->flags & GA_F_F) && !(a->flags & GA_F_C))) {
    ga_array *c = ga_new_array(L, ctx, a->dtype, a->ndim, a->shape);
    int64_t s = ga_dtypes[a->dtype].itemsize;
    for (int d = 0; d < a->ndim; d++) {
      c->strides[d] = s;
      s *= a->shape[d];
    }
    ga_array_update_flags(c);
    ga_copy_into(L, ctx, c, a, "copy");
    return 1;
  }
  if (order[0] != 'C' && order[0] != 'A' && order[0] != 'K')
    ga_error(L, "copy: order must be 'C', 'F', 'A' or 'K', not '%s'", order);
  ga_contiguous(L, ctx, 1, -1, 1);
  return 1;
}

static int l_astype(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  int t = ga_checkdtype(L, 2, -1, "astype");
  if (t < 0) ga_error(L, "astype: a dtype is required");
  int copy = 1;
  if (lua_istable(L, 3)) {
    lua_getfield(L, 3, "copy");
    if (!lua_isnil(L, -1)) copy = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (!copy && t == a->dtype) {
    lua_settop(L, 1);
    return 1;
  }
  ga_state *ctx = ga_ctx(L);
  if (a->device != ctx->device) {
    ga_copy_across(L, ctx, 1, t);
    return 1;
  }
  ga_array *c = ga_new_array(L, ctx, t, a->ndim, a->shape);
  ga_copy_into(L, ctx, c, a, "astype");
  return 1;
}

static int l_fill(lua_State *L) {
  ga_array *a = ga_checkarray(L, 1);
  ga_value v;
  ga_checkvalue(L, 2, a->dtype, &v, "fill");
  ga_fill(L, ga_ctx(L), a, &v);
  lua_settop(L, 1);
  return 1;
}

static int l_ascontiguousarray(lua_State *L) {
  ga_checkarray(L, 1);
  ga_contiguous(L, ga_ctx(L), 1, -1, 0);
  return 1;
}

/* ga.is_ndarray(v): an ndarray, freed or not (a pinned host array is not) */
static int l_is_ndarray(lua_State *L) {
  ga_checkany(L, 1, "is_ndarray", "the value");
  lua_pushboolean(L, ga_toarray_in(L, ga_ctx(L), 1) != NULL);
  return 1;
}

/* ===================================================================== */
/* registration                                                          */
/* ===================================================================== */

static const luaL_Reg methods[] = {
  {"reshape", l_reshape},
  {"ravel", l_ravel},
  {"flatten", l_flatten},
  {"transpose", l_transpose},
  {"swapaxes", l_swapaxes},
  {"squeeze", l_squeeze},
  {"expand_dims", l_expand_dims},
  {"copy", l_copy},
  {"astype", l_astype},
  {"fill", l_fill},
  {"free", l_release},
  {NULL, NULL}
};

static const luaL_Reg private_funcs[] = {
  {"as_strided", l_as_strided},
  {NULL, NULL}
};

static const luaL_Reg module_funcs[] = {
  {"is_ndarray", l_is_ndarray},
  {"broadcast_to", l_broadcast_to},
  {"ascontiguousarray", l_ascontiguousarray},
  {"reshape", l_reshape},
  {"ravel", l_ravel},
  {"transpose", l_transpose},
  {"swapaxes", l_swapaxes},
  {"squeeze", l_squeeze},
  {"expand_dims", l_expand_dims},
  {"copy", l_copy},
  {NULL, NULL}
};

void ga_new_arraylike(lua_State *L, const char *mt, const ga_arraylike *t) {
  const luaL_Reg meta[] = {
    {"__gc", t->release}, {"__close", t->release}, {"__newindex", t->newindex}, {"__len", t->len},
    {"__tostring", t->tostring}, {NULL, NULL}
  };
  ga_new_type(L, mt, meta, NULL, t->index);
}

static const ga_arraylike ndarray_type = {l_release, l_index, l_newindex, l_len, l_tostring};

void ga_open_ndarray(lua_State *L) {
  ga_setfuncs(L, module_funcs);
  ga_setprivate(L, "ndarray", private_funcs);
  ga_push_methods(L);
  ga_setfuncs(L, methods);
  ga_new_arraylike(L, GA_ARRAY_MT, &ndarray_type);   /* reused when the module is reopened */
  luaL_getmetatable(L, GA_ARRAY_MT);
  ga_state_get(L)->array_mt = lua_topointer(L, -1);   /* the one identity of the state */
  lua_pop(L, 1);
}
