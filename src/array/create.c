/*
** create.c: creation routines. empty/zeros/ones/full and their _like
** forms, arange, linspace, eye/identity. Values are written by the copy
** engine (fill, arange); eye fills a diagonal view of a zeroed array.
*/
#include <math.h>
#include <string.h>

#include "array/array.h"

/* A trailing dtype or {dtype=} table at idx; def when absent */
static int dtype_arg(lua_State *L, int idx, int def, const char *fname) {
  if (lua_istable(L, idx)) {
    if (lua_getfield(L, idx, "name") == LUA_TSTRING) {
      lua_pop(L, 1);
      return ga_checkdtype(L, idx, def, fname);
    }
    lua_pop(L, 1);
    lua_getfield(L, idx, "dtype");
    int t = ga_checkdtype(L, -1, def, fname);
    lua_pop(L, 1);
    return t;
  }
  return ga_checkdtype(L, idx, def, fname);
}

static int is_dtype_arg(lua_State *L, int idx) {
  int t = lua_type(L, idx);
  return t == LUA_TSTRING || t == LUA_TTABLE || luaL_testudata(L, idx, GA_DTYPE_MT) != NULL;
}

/* The dtype a fill value implies when none is given (NumPy's full) */
static int value_dtype(lua_State *L, int idx, int def) {
  ga_scalar *s = ga_toscalar(L, idx);
  if (s) return s->dtype;
  switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: return GA_BOOL;
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? GA_INT64 : GA_FLOAT64;
    case LUA_TTABLE: return GA_COMPLEX128;
    default: return def;
  }
}

static ga_array *new_from_shape_arg(lua_State *L, ga_state *ctx, int dtype, const char *fname) {
  int64_t shape[GA_MAXDIM];
  int nd = ga_checkshape(L, 1, shape, fname);
  return ga_new_array(L, ctx, dtype, nd, shape);
}

static void fill_with(lua_State *L, ga_state *ctx, ga_array *a, int vidx, const char *fname) {
  ga_value v;
  ga_checkvalue(L, vidx, a->dtype, &v, fname);
  ga_fill(L, ctx, a, &v);
}

/* zeros(3, 4) is NumPy's zeros((3, 4)) written the C way: say so */
static void shape_is_one_arg(lua_State *L, const char *fname) {
  if (lua_type(L, 1) == LUA_TNUMBER && lua_type(L, 2) == LUA_TNUMBER)
    ga_error(L, "%s: the shape is one argument: write ga.%s({%s, %s}) for a shape of several dimensions",
             fname, fname, lua_tostring(L, 1), lua_tostring(L, 2));
}

static int l_empty(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  shape_is_one_arg(L, "empty");
  new_from_shape_arg(L, ctx, dtype_arg(L, 2, ctx->default_dtype, "empty"), "empty");
  return 1;
}

static int filled(lua_State *L, int value, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  shape_is_one_arg(L, fname);
  ga_array *a = new_from_shape_arg(L, ctx, dtype_arg(L, 2, ctx->default_dtype, fname), fname);
  ga_value v;
  ga_value_from_int(a->dtype, value, &v);
  ga_fill(L, ctx, a, &v);
  return 1;
}

static int l_zeros(lua_State *L) { return filled(L, 0, "zeros"); }
static int l_ones(lua_State *L) { return filled(L, 1, "ones"); }

static int l_full(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_checkany(L, 2, "full", "the fill value");
  int t = dtype_arg(L, 3, -1, "full");
  if (t < 0) t = value_dtype(L, 2, ctx->default_dtype);
  ga_array *a = new_from_shape_arg(L, ctx, t, "full");
  fill_with(L, ctx, a, 2, "full");
  return 1;
}

/* _like forms: shape (and by default dtype) of the array at 1 */
static ga_array *new_like(lua_State *L, ga_state *ctx, int dtype_idx, const char *fname) {
  ga_array *p = ga_toarray(L, 1);           /* its shape and dtype only */
  if (!p || (p->flags & GA_F_FREED)) p = ga_checkarray(L, 1);   /* raises */
  int t = dtype_arg(L, dtype_idx, p->dtype, fname);
  ga_array *a = ga_new_array(L, ctx, t, p->ndim, p->shape);
  return a;
}

static int l_empty_like(lua_State *L) {
  new_like(L, ga_ctx(L), 2, "empty_like");
  return 1;
}

static int filled_like(lua_State *L, int value, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a = new_like(L, ctx, 2, fname);
  ga_value v;
  ga_value_from_int(a->dtype, value, &v);
  ga_fill(L, ctx, a, &v);
  return 1;
}

static int l_zeros_like(lua_State *L) { return filled_like(L, 0, "zeros_like"); }
static int l_ones_like(lua_State *L) { return filled_like(L, 1, "ones_like"); }

static int l_full_like(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_checkany(L, 2, "full_like", "the fill value");
  ga_array *a = new_like(L, ctx, 3, "full_like");
  fill_with(L, ctx, a, 2, "full_like");
  return 1;
}

/* ===================================================================== */
/* ranges                                                                */
/* ===================================================================== */

/* arange([start,] stop[, step][, dtype]): half-open, as NumPy */
static int l_arange(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int n = lua_gettop(L);
  int dtype = -1;
  if (n >= 2 && is_dtype_arg(L, n)) {
    dtype = dtype_arg(L, n, -1, "arange");
    n--;
  }
  if (n < 1 || n > 3) ga_error(L, "arange: expected ([start,] stop[, step][, dtype])");
  int all_int = 1;
  static const char *const names[3][3] = {{"stop"}, {"start", "stop"}, {"start", "stop", "step"}};
  for (int i = 1; i <= n; i++) {
    ga_checknumber(L, i, "arange", names[n - 1][i - 1]);
    all_int &= lua_isinteger(L, i);
  }
  int si = n == 1 ? 0 : 1, ei = n == 1 ? 1 : 2, pi = n == 3 ? 3 : 0;
  int64_t len;
  double start = si ? lua_tonumber(L, si) : 0, stop = lua_tonumber(L, ei), step = pi ? lua_tonumber(L, pi) : 1;
  lua_Integer istart = 0, istep = 1;
  if (step == 0) ga_error(L, "arange: step cannot be 0");
  if (all_int) {
    istart = si ? lua_tointeger(L, si) : 0;
    lua_Integer istop = lua_tointeger(L, ei);
    istep = pi ? lua_tointeger(L, pi) : 1;
    /* ceil((stop - start) / step) in 128 bits: stop - start overflows
    ** int64 for arange(mininteger, maxinteger) */
    __int128 span = (__int128)istop - istart, l128;
    if ((span > 0) != (istep > 0) || span == 0) l128 = 0;
    else l128 = (span + istep + (istep > 0 ? -1 : 1)) / istep;
    if (l128 > INT64_MAX) ga_error(L, "arange: the range is too large");
    len = (int64_t)l128;
  } else {
    double c = ceil((stop - start) / step);
    if (!isfinite(c)) ga_error(L, "arange: the range is not finite");
    if (c <= 0) len = 0;
    else if (!ga_double_to_int64(c, &len)) ga_error(L, "arange: the range is too large");
  }
  if (dtype < 0) dtype = all_int ? GA_INT64 : GA_FLOAT64;
  ga_array *a = ga_new_array(L, ctx, dtype, 1, &len);
  ga_arange_fill(L, ctx, a, start, step, istart, istep, all_int, 0, 0);
  return 1;
}

/* linspace(a, b, n[, {dtype=, endpoint=}]) */
static int l_linspace(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  double a = ga_checknumber(L, 1, "linspace", "start"), b = ga_checknumber(L, 2, "linspace", "stop");
  lua_Integer num = ga_optinteger(L, 3, 50, "linspace", "num");
  if (num < 0) ga_error(L, "linspace: number of samples %I is negative", num);
  int endpoint = 1;
  if (lua_istable(L, 4)) {
    lua_getfield(L, 4, "endpoint");
    if (!lua_isnil(L, -1)) endpoint = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  int dtype = dtype_arg(L, 4, ctx->default_dtype, "linspace");
  int64_t len = num;
  ga_array *arr = ga_new_array(L, ctx, dtype, 1, &len);
  int64_t div = endpoint ? num - 1 : num;
  double step = div > 0 ? (b - a) / (double)div : 0;
  /* integer results round toward minus infinity, as NumPy's (>= 1.20) */
  ga_arange_fill(L, ctx, arr, a, step, 0, 0, GA_IS_INT(dtype) ? 2 : 0, endpoint && num > 1, b);
  return 1;
}

/* eye(n[, m[, k]][, dtype]) */
static int l_eye(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int top = lua_gettop(L);
  int dtype = ctx->default_dtype;
  if (top >= 2 && is_dtype_arg(L, top)) {
    dtype = dtype_arg(L, top, ctx->default_dtype, "eye");
    top--;
  }
  lua_Integer n = ga_checkinteger(L, 1, "eye", "N");
  lua_Integer m = top >= 2 && !lua_isnil(L, 2) ? ga_checkinteger(L, 2, "eye", "M") : n;
  lua_Integer k = top >= 3 ? ga_checkinteger(L, 3, "eye", "k") : 0;
  if (n < 0 || m < 0) ga_error(L, "eye: negative dimensions");
  int64_t shape[2] = {n, m};
  ga_array *a = ga_new_array(L, ctx, dtype, 2, shape);
  ga_value zero, one;
  ga_value_from_int(dtype, 0, &zero);
  ga_value_from_int(dtype, 1, &one);
  ga_fill(L, ctx, a, &zero);
  int64_t len = k >= 0 ? (n < m - k ? n : m - k) : (n + k < m ? n + k : m);
  if (len > 0) {
    int64_t isz = ga_dtypes[dtype].itemsize;
    int64_t stride = (m + 1) * isz;
    char *start = a->data + (k >= 0 ? k * isz : -k * m * isz);
    ga_array *diag = ga_new_view(L, -1, 1, &len, &stride, start);
    ga_fill(L, ctx, diag, &one);
    lua_pop(L, 1);
  }
  return 1;
}

static int l_identity(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  lua_Integer n = ga_checkinteger(L, 1, "identity", "n");
  int dtype = dtype_arg(L, 2, ctx->default_dtype, "identity");
  lua_settop(L, 0);
  lua_pushinteger(L, n);
  lua_pushinteger(L, n);
  lua_pushinteger(L, 0);
  lua_pushstring(L, ga_dtypes[dtype].name);
  return l_eye(L);
}

static const luaL_Reg create_funcs[] = {
  {"empty", l_empty},
  {"zeros", l_zeros},
  {"ones", l_ones},
  {"full", l_full},
  {"empty_like", l_empty_like},
  {"zeros_like", l_zeros_like},
  {"ones_like", l_ones_like},
  {"full_like", l_full_like},
  {"arange", l_arange},
  {"linspace", l_linspace},
  {"eye", l_eye},
  {"identity", l_identity},
  {NULL, NULL}
};

void ga_open_create(lua_State *L) {
  ga_setfuncs(L, create_funcs);
}
