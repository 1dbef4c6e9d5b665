/*
** dtype_lua.c: dtypes as Lua sees them: ga.dtype(name), ga.result_type over
** Lua values (arrays, dtypes and typed scalars strong, Lua numbers weak) and
** the list of dtype names. The rules themselves are core/dtype.c's.
*/
#include <string.h>

#include "array/array.h"

/* ===================================================================== */
/* result_type over Lua values                                           */
/* ===================================================================== */

/* Does the weak integer value v fit dtype t? (a float dtype takes any) */
static int weak_int_fits(ga_dtype t, lua_Integer v) {
  ga_value tmp;
  return !GA_IS_INT(t) || ga_value_from_int(t, v, &tmp) == NULL;
}

int ga_result_type(lua_State *L, int first, int n, const char *fname) {
  int strong = -1;
  char weak = 0;            /* the highest weak kind seen: b < i < f < c */
  static const char order[] = "bifc";
  ga_state *ctx = ga_state_get(L);
  for (int i = first; i < first + n; i++) {
    ga_operand o;
    int kind = ga_operand_read(L, ctx, i, 1, &o);
    if (kind == GA_OP_WEAK) {
      if (!weak || strchr(order, o.weak) > strchr(order, weak)) weak = o.weak;
      continue;
    }
    if (kind == GA_OP_NONE) ga_error(L, "%s: argument %d is not an array, dtype or scalar", fname, i - first + 1);
    strong = strong < 0 ? o.dtype : (int)ga_promote((ga_dtype)strong, (ga_dtype)o.dtype);
  }
  if (strong < 0) {
    if (!weak) ga_error(L, "%s: at least one array, dtype or scalar is required", fname);
    return ga_default_for_kind(weak);
  }
  int r = weak ? (int)ga_promote_weak((ga_dtype)strong, weak) : strong;
  /* NEP 50: a Lua integer that does not fit an integer result raises */
  if (GA_IS_INT(r) || r == GA_BOOL) {
    for (int i = first; i < first + n; i++)
      if (lua_isinteger(L, i) && GA_IS_INT(r) && !weak_int_fits((ga_dtype)r, lua_tointeger(L, i)))
        ga_error(L, "%s: Lua integer %I does not fit %s", fname, lua_tointeger(L, i), ga_dtypes[r].name);
  }
  return r;
}

/* ===================================================================== */
/* Lua API                                                               */
/* ===================================================================== */

static int l_dtype(lua_State *L) {
  int t = ga_checkdtype(L, 1, -1, "dtype");
  if (t < 0) ga_error(L, "dtype: a dtype name is required");
  lua_createtable(L, 0, 3);
  lua_pushstring(L, ga_dtypes[t].name);
  lua_setfield(L, -2, "name");
  lua_pushinteger(L, ga_dtypes[t].itemsize);
  lua_setfield(L, -2, "itemsize");
  lua_pushlstring(L, &ga_dtypes[t].kind, 1);
  lua_setfield(L, -2, "kind");
  return 1;
}

static int l_result_type(lua_State *L) {
  lua_pushstring(L, ga_dtypes[ga_result_type(L, 1, lua_gettop(L), "result_type")].name);
  return 1;
}

static int l_dtypes(lua_State *L) {
  lua_createtable(L, GA_NDTYPES, 0);
  for (int t = 0; t < GA_NDTYPES; t++) {
    lua_pushstring(L, ga_dtypes[t].name);
    lua_rawseti(L, -2, t + 1);
  }
  return 1;
}

static const luaL_Reg dtype_funcs[] = {
  {"dtype", l_dtype},
  {"result_type", l_result_type},
  {"dtype_names", l_dtypes},
  {NULL, NULL}
};

/* per Lua state: the default dtype of the creation routines */
static int l_set_default_dtype(lua_State *L) {
  int t = ga_checkdtype(L, 1, -1, "set_default_dtype");
  if (t < 0) ga_error(L, "set_default_dtype: a dtype is required");
  ga_ctx(L)->default_dtype = t;
  return 0;
}

static int l_get_default_dtype(lua_State *L) {
  lua_pushstring(L, ga_dtypes[ga_ctx(L)->default_dtype].name);
  return 1;
}

static const luaL_Reg default_dtype_funcs[] = {
  {"set_default_dtype", l_set_default_dtype},
  {"get_default_dtype", l_get_default_dtype},
  {NULL, NULL}
};

void ga_open_dtype(lua_State *L) {
  ga_state *ctx = ga_state_get(L);
  if (ctx->default_dtype < 0) ctx->default_dtype = GA_FLOAT64;
  ga_setfuncs(L, default_dtype_funcs);
  ga_setfuncs(L, dtype_funcs);
}
