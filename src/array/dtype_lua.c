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

/* A weak Lua scalar as NumPy's DType for it: Python int/float/complex are
** abstract, a Python bool is np.bool */
static int weak_code(char kind) {
  switch (kind) {
    case 'b': return GA_BOOL;
    case 'i': return GA_PY_INT;
    case 'f': return GA_PY_FLOAT;
    default: return GA_PY_COMPLEX;
  }
}

/* NumPy's result_type over the n Lua values from first: every operand's
** DType goes into one order-independent reduction (core/promote.c), as
** np.result_type does, not a pairwise fold */
int ga_result_type(lua_State *L, int first, int n, const char *fname) {
  ga_state *ctx = ga_state_get(L);
  int small[32], *codes = small;
  if (n > (int)(sizeof small / sizeof small[0]))
    codes = (int *)lua_newuserdatauv(L, (size_t)n * sizeof *codes, 0);   /* collected with the call */
  int weak_int = 0;
  for (int i = first; i < first + n; i++) {
    ga_operand o;
    int kind = ga_operand_read(L, ctx, i, 1, &o);
    if (kind == GA_OP_NONE) ga_error(L, "%s: argument %d is not an array, dtype or scalar", fname, i - first + 1);
    if (kind == GA_OP_WEAK) weak_int |= o.weak == 'i';
    codes[i - first] = kind == GA_OP_WEAK ? weak_code(o.weak) : o.dtype;
  }
  if (n == 0) ga_error(L, "%s: at least one array, dtype or scalar is required", fname);
  int r = ga_promote_sequence(n, codes);
  if (r < 0) ga_error(L, "%s: the operands have no common dtype", fname);
  r = ga_sequence_default(r);
  /* NEP 50: a Lua integer that does not fit an integer result raises */
  if (weak_int && GA_IS_INT(r)) {
    for (int i = first; i < first + n; i++)
      if (lua_isinteger(L, i) && !weak_int_fits((ga_dtype)r, lua_tointeger(L, i)))
        ga_error(L, "%s: Lua integer %I does not fit %s", fname, lua_tointeger(L, i), ga_dtypes[r].name);
  }
  if (codes != small) lua_pop(L, 1);
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
