/*
** index.c: x[key] and x[key] = v. A key is parsed into per-axis selectors
** (1-based integers, inclusive ranges with steps, whole axes, newaxis,
** ellipsis), which are applied to the shape and strides as pure arithmetic:
** basic indexing makes views and never touches the device. Array keys
** (masks, gathers) are passed on to the handlers that engines register in
** the state as hooks (GA_HOOK_INDEX_GET / GA_HOOK_INDEX_SET).
*/
#include <string.h>

#include "array/array.h"

#define GA_SENTINEL_MT "gpuarray.sentinel"

enum { SEL_INT, SEL_RANGE, SEL_ALL, SEL_NEW, SEL_ELLIPSIS };
enum { SENT_NEWAXIS = 1, SENT_ELLIPSIS = 2 };

typedef struct {
  int kind;
  int64_t start, stop, step;
  int has_start, has_stop;
} selector;

typedef struct {
  int ndim;
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  int64_t offset;           /* bytes from the source's element 0 */
  int scalar;               /* every axis took an integer and none was added */
} view_spec;

static int sentinel_code(lua_State *L, int idx) {
  int *p = (int *)luaL_testudata(L, idx, GA_SENTINEL_MT);
  return p ? *p : 0;
}

static int64_t checkint(lua_State *L, int idx, const char *what, const char *fname) {
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok) ga_error(L, "%s: %s must be an integer, got %s", fname, what, luaL_typename(L, idx));
  return v;
}

/* One selector from the value at idx (inside a key table); errors name
** fname ("index" for x[key]) */
static void parse_one(lua_State *L, int idx, selector *s, const char *fname) {
  memset(s, 0, sizeof *s);
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      s->kind = SEL_INT;
      s->start = checkint(L, idx, "an index", fname);
      return;
    case LUA_TTABLE: {
      if (lua_rawgeti(L, idx, 4) != LUA_TNIL)
        ga_error(L, "%s: a range is {start, stop, step}; this one has more than 3 entries", fname);
      lua_pop(L, 1);
      lua_rawgeti(L, idx, 1);
      lua_rawgeti(L, idx, 2);
      lua_rawgeti(L, idx, 3);
      if (lua_isnil(L, -3) && lua_isnil(L, -2) && lua_isnil(L, -1)) {
        s->kind = SEL_ALL;
      } else {
        s->kind = SEL_RANGE;
        if ((s->has_start = !lua_isnil(L, -3))) s->start = checkint(L, -3, "a range start", fname);
        if ((s->has_stop = !lua_isnil(L, -2))) s->stop = checkint(L, -2, "a range stop", fname);
        s->step = lua_isnil(L, -1) ? 1 : checkint(L, -1, "a range step", fname);
        if (s->step == 0) ga_error(L, "%s: a range step cannot be 0", fname);
      }
      lua_pop(L, 3);
      return;
    }
    case LUA_TUSERDATA: {
      int code = sentinel_code(L, idx);
      if (code == SENT_NEWAXIS) { s->kind = SEL_NEW; return; }
      if (code == SENT_ELLIPSIS) { s->kind = SEL_ELLIPSIS; return; }
      break;
    }
  }
  ga_error(L, "%s: unsupported selector of type %s", fname, luaL_typename(L, idx));
}

/* The selectors of a key: an integer, a sentinel, or a table of them */
static int parse_key(lua_State *L, int idx, selector *sels) {
  if (lua_type(L, idx) == LUA_TTABLE) {
    int n = (int)lua_rawlen(L, idx);
    if (n > 2 * GA_MAXDIM) ga_error(L, "index: too many selectors (%d)", n);
    for (int i = 0; i < n; i++) {
      lua_rawgeti(L, idx, i + 1);
      parse_one(L, -1, &sels[i], "index");
      lua_pop(L, 1);
    }
    return n;
  }
  parse_one(L, idx, &sels[0], "index");
  return 1;
}

/* Range on an axis of length n: inclusive, 1-based, negatives from the end,
** clamped like NumPy's slices. Returns the count, sets the 0-based start. */
static int64_t range_count(const selector *s, int64_t n, int64_t *first) {
  int64_t step = s->step;
  int64_t b = s->has_start ? (s->start < 0 ? n + s->start : s->start - 1) : (step > 0 ? 0 : n - 1);
  int64_t e = s->has_stop ? (s->stop < 0 ? n + s->stop : s->stop - 1) : (step > 0 ? n - 1 : 0);
  int64_t count;
  if (step > 0) {
    if (b < 0) b = 0;
    if (e > n - 1) e = n - 1;
    count = e >= b ? (e - b) / step + 1 : 0;
  } else {
    if (b > n - 1) b = n - 1;
    if (e < 0) e = 0;
    /* -step overflows for mininteger: divide as unsigned */
    count = b >= e ? (int64_t)((uint64_t)(b - e) / (0 - (uint64_t)step)) + 1 : 0;
  }
  *first = count > 0 ? b : 0;
  return count;
}

/* offset += k * stride, checked (the _index_view hook takes any strides) */
static void add_offset(lua_State *L, view_spec *v, int64_t k, int64_t stride) {
  int64_t o;
  if (!ga_mul64(k, stride, &o) || !ga_add64(v->offset, o, &v->offset))
    ga_error(L, "index: the byte offset overflows");
}

static void apply(lua_State *L, int ndim, const int64_t *shape, const int64_t *strides,
                  const selector *sels, int nsel, view_spec *v) {
  int consuming = 0, ellipses = 0, ints = 0, news = 0;
  for (int i = 0; i < nsel; i++) {
    if (sels[i].kind == SEL_ELLIPSIS) ellipses++;
    else if (sels[i].kind == SEL_NEW) news++;
    else consuming++;
    if (sels[i].kind == SEL_INT) ints++;
  }
  if (ellipses > 1) ga_error(L, "index: only one ellipsis is allowed");
  if (consuming > ndim)
    ga_error(L, "index: too many indices (%d) for an array of %d dimensions", consuming, ndim);
  if (ndim - consuming + news + (consuming - ints) > GA_MAXDIM)
    ga_error(L, "index: more than %d dimensions", GA_MAXDIM);
  int d = 0;
  v->ndim = 0;
  v->offset = 0;
  for (int i = 0; i < nsel; i++) {
    const selector *s = &sels[i];
    switch (s->kind) {
      case SEL_INT: {
        int64_t k = s->start, n = shape[d];
        int64_t z = k < 0 ? n + k : k - 1;
        if (k == 0 || z < 0 || z >= n)
          ga_error(L, "index %I is out of range for axis %d with size %I", (lua_Integer)k, d + 1,
                   (lua_Integer)n);
        add_offset(L, v, z, strides[d]);
        d++;
        break;
      }
      case SEL_RANGE: {
        int64_t first, count = range_count(s, shape[d], &first);
        add_offset(L, v, first, strides[d]);
        v->shape[v->ndim] = count;
        /* step * stride overflows only for a huge step, which selects at
        ** most one element, whose stride is free: keep the axis's own */
        if (!ga_mul64(s->step, strides[d], &v->strides[v->ndim])) {
          if (count > 1) ga_error(L, "index: the stride of axis %d overflows", d + 1);
          v->strides[v->ndim] = strides[d];
        }
        v->ndim++;
        d++;
        break;
      }
      case SEL_ALL:
        v->shape[v->ndim] = shape[d];
        v->strides[v->ndim++] = strides[d];
        d++;
        break;
      case SEL_NEW:
        v->shape[v->ndim] = 1;
        v->strides[v->ndim++] = 0;
        break;
      case SEL_ELLIPSIS:
        for (int k = 0; k < ndim - consuming; k++, d++) {
          v->shape[v->ndim] = shape[d];
          v->strides[v->ndim++] = strides[d];
        }
        break;
    }
  }
  for (; d < ndim; d++) {
    v->shape[v->ndim] = shape[d];
    v->strides[v->ndim++] = strides[d];
  }
  v->scalar = ints == ndim && news == 0;
}

/* Push the view of x (at 1) that key (at 2) selects; returns the spec */
static ga_array *push_view(lua_State *L, ga_array *x, view_spec *v) {
  selector sels[2 * GA_MAXDIM];
  int n = parse_key(L, 2, sels);
  apply(L, x->ndim, x->shape, x->strides, sels, n, v);
  return ga_new_view(L, 1, v->ndim, v->shape, v->strides, x->data + v->offset);
}

/* Array keys go to the engines' handler (gather, scatter, masks), which
** live above this layer: lua/gpuarray/select.lua sets it as a hook */
static int call_array_handler(lua_State *L, ga_hook h, int nargs) {
  if (!ga_push_hook(L, h)) return ga_error(L, "index: indexing with an array needs lua/gpuarray/select.lua");
  lua_insert(L, 1);
  lua_call(L, nargs, LUA_MULTRET);
  return lua_gettop(L);
}

int ga_index_read(lua_State *L) {
  ga_array *x = ga_readarray(L, 1);        /* a view or an element of it */
  if (ga_toarray(L, 2)) {
    lua_settop(L, 2);
    return call_array_handler(L, GA_HOOK_INDEX_GET, 2);
  }
  view_spec v;
  ga_array *view = push_view(L, x, &v);
  if (!v.scalar) return 1;
  ga_value elem;
  ga_to_host(L, ga_ctx(L), &elem, view->data, (size_t)ga_dtypes[x->dtype].itemsize);
  ga_pushvalue(L, x->dtype, &elem);
  return 1;
}

int ga_index_write(lua_State *L) {
  ga_checkarray(L, 1);
  if (ga_toarray(L, 2)) {
    lua_settop(L, 3);
    call_array_handler(L, GA_HOOK_INDEX_SET, 3);
    return 0;
  }
  ga_array *x = ga_checkarray(L, 1);
  view_spec v;
  push_view(L, x, &v);
  ga_assign(L, ga_ctx(L), lua_gettop(L), 3, "index");
  return 0;
}

/* ===================================================================== */
/* Lua API                                                               */
/* ===================================================================== */

/* Test hook (no device): _index_view(shape, strides, itemsize, key) ->
** shape, strides, offset in bytes, scalar */
static int l_index_view(lua_State *L) {
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  int nd = ga_checkshape(L, 1, shape, "_index_view");
  if (ga_checkintlist(L, 2, strides, "_index_view") != nd)
    ga_error(L, "_index_view: strides and shape differ in length");
  selector sels[2 * GA_MAXDIM];
  int n = parse_key(L, 4, sels);
  view_spec v;
  apply(L, nd, shape, strides, sels, n, &v);
  ga_pushshape(L, v.ndim, v.shape);
  ga_pushshape(L, v.ndim, v.strides);
  lua_pushinteger(L, v.offset);
  lua_pushboolean(L, v.scalar);
  return 4;
}

static int sentinel_tostring(lua_State *L) {
  int code = sentinel_code(L, 1);
  lua_pushstring(L, code == SENT_NEWAXIS ? "gpuarray.newaxis" : "gpuarray.ellipsis");
  return 1;
}

/* core.ndarray.index_range(r, n, fname) -> first (0-based), count, step:
** the range {start, stop, step} (or {}) of a key on an axis of n elements,
** as x[key] reads it; errors name fname. For Lua code that turns keys
** into positions (scatter_add and friends), so that one parser and one
** clamping rule serve every key. */
static int l_index_range(lua_State *L) {
  const char *fname = ga_checkstring(L, 3, "index_range", "fname");
  if (!lua_istable(L, 1)) ga_error(L, "%s: a range must be a table, got %s", fname, luaL_typename(L, 1));
  lua_Integer n = ga_checkinteger(L, 2, fname, "the axis length");
  selector s;
  parse_one(L, 1, &s, fname);
  int64_t first = 0, count = n, step = 1;
  if (s.kind == SEL_RANGE) {
    count = range_count(&s, n, &first);
    step = s.step;
  }
  lua_pushinteger(L, first);
  lua_pushinteger(L, count);
  lua_pushinteger(L, step);
  return 3;
}

static const luaL_Reg index_funcs_private[] = {
  {"index_range", l_index_range},
  {NULL, NULL}
};

static const luaL_Reg index_funcs_test[] = {
  {"index_view", l_index_view},
  {NULL, NULL}
};

static const char sentinels_key = 's';

void ga_open_index(lua_State *L) {
  ga_setprivate(L, GA_TEST, index_funcs_test);
  ga_setprivate(L, "ndarray", index_funcs_private);
  if (luaL_newmetatable(L, GA_SENTINEL_MT)) {
    lua_pushcfunction(L, sentinel_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &sentinels_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    for (int code = SENT_NEWAXIS; code <= SENT_ELLIPSIS; code++) {
      int *p = (int *)lua_newuserdatauv(L, sizeof(int), 0);
      *p = code;
      luaL_setmetatable(L, GA_SENTINEL_MT);
      lua_rawseti(L, -2, code);
    }
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &sentinels_key);
  }
  lua_rawgeti(L, -1, SENT_NEWAXIS);
  lua_setfield(L, -3, "newaxis");
  lua_rawgeti(L, -1, SENT_ELLIPSIS);
  lua_setfield(L, -3, "ellipsis");
  lua_pop(L, 1);
}
