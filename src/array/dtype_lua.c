/*
** dtype_lua.c: dtypes as Lua sees them. One interned object per dtype
** (ga.float32 is the object ga.dtype("float32") returns: it is callable,
** making a typed scalar, and carries name, itemsize, kind, char and str);
** ga.result_type over Lua values (arrays, dtypes and typed scalars strong,
** Lua numbers weak), ga.promote_types, ga.can_cast, ga.finfo, ga.iinfo and
** the list of dtype names. The rules themselves are core/dtype.c's, so a
** new dtype is a row there.
*/
#include <math.h>
#include <string.h>

#include "api/api.h"
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
/* the dtype objects                                                     */
/* ===================================================================== */

static const char dtype_objects_key = 'd';

void ga_push_dtype(lua_State *L, int t) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &dtype_objects_key);
  lua_rawgeti(L, -1, t + 1);
  lua_remove(L, -2);
}

/* A complex64 part (the number at idx) past float32's range does not fit,
** as a float32 does not */
static void check_part(lua_State *L, int t, int idx, const char *fname) {
  ga_value tmp;
  if (t == GA_COMPLEX64 && ga_value_from_float(GA_FLOAT32, lua_tonumber(L, idx), &tmp))
    ga_error(L, "%s: %s does not fit %s", fname, luaL_tolstring(L, idx, NULL), ga_dtypes[t].name);
}

/* ga.float32(v), ga.complex64(re, im): a typed scalar; the value must fit */
static int dtype_call(lua_State *L) {
  int t = *(int *)luaL_checkudata(L, 1, GA_DTYPE_MT);
  const char *name = ga_dtypes[t].name;
  ga_value v;
  int top = lua_gettop(L);
  /* an options table or surplus arguments: the declaration the Lua side
  ** gave this object (core.ndarray.dtype_decl) binds them (API.md §0) */
  if (top >= 2 && (top > 3 || ga_api_is_options(L, top)) && lua_getiuservalue(L, 1, 1) == LUA_TUSERDATA) {
    const ga_decl *d = ga_api_checkdecl(L, -1, name);
    int n = ga_api_bind(L, d, name, 2, top);
    for (int i = 0; i < n; i++) lua_copy(L, top + 2 + i, 2 + i);
    lua_settop(L, 1 + n);
    while (lua_gettop(L) > 2 && lua_isnil(L, -1)) lua_pop(L, 1);
  }
  ga_checkany(L, 2, name, "the value");
  if (lua_gettop(L) > 3) ga_error(L, "%s: too many arguments (at most two values, re and im), got %d", name,
                                  lua_gettop(L) - 1);
  if (!lua_isnoneornil(L, 3)) {
    if (!GA_IS_COMPLEX(t)) ga_error(L, "%s: takes one value (two parts are for complex dtypes)", name);
    if (lua_type(L, 2) != LUA_TNUMBER || lua_type(L, 3) != LUA_TNUMBER)
      ga_error(L, "%s: the real and imaginary parts must be numbers, got %s and %s", name, luaL_typename(L, 2),
               luaL_typename(L, 3));
    check_part(L, t, 2, name);
    check_part(L, t, 3, name);
    ga_value_from_complex(t, lua_tonumber(L, 2), lua_tonumber(L, 3), &v);
  } else {
    if (ga_is_complex_pair(L, 2)) {
      lua_rawgeti(L, 2, 1);
      lua_rawgeti(L, 2, 2);
      check_part(L, t, lua_gettop(L) - 1, name);
      check_part(L, t, lua_gettop(L), name);
      lua_pop(L, 2);
    }
    ga_checkvalue(L, 2, t, &v, name);
  }
  ga_push_scalar(L, t, &v);
  return 1;
}

static int dtype_index(lua_State *L) {
  int t = *(int *)luaL_checkudata(L, 1, GA_DTYPE_MT);
  const ga_dtype_info *d = &ga_dtypes[t];
  size_t kl = 0;
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &kl) : "";
  if (strlen(k) != kl) k = "";   /* "name\0junk" is no field */
  if (strcmp(k, "name") == 0) lua_pushstring(L, d->name);
  else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, d->itemsize);
  else if (strcmp(k, "kind") == 0) lua_pushlstring(L, &d->kind, 1);
  else if (strcmp(k, "char") == 0) lua_pushlstring(L, &d->code, 1);
  else if (strcmp(k, "str") == 0)   /* NumPy's: "<f4", "|b1" (one byte has no order) */
    lua_pushfstring(L, "%c%c%d", d->itemsize == 1 ? '|' : '<', d->kind, d->itemsize);
  else lua_pushnil(L);
  return 1;
}

static int dtype_tostring(lua_State *L) {
  int t = *(int *)luaL_checkudata(L, 1, GA_DTYPE_MT);
  lua_pushstring(L, ga_dtypes[t].name);
  return 1;
}

static const luaL_Reg dtype_meta[] = {
  {"__call", dtype_call},
  {"__index", dtype_index},
  {"__tostring", dtype_tostring},
  {NULL, NULL}
};

/* ===================================================================== */
/* Lua API                                                               */
/* ===================================================================== */

/* The dtype of a dtype, typed scalar or ndarray at idx (NumPy's dtype
** discovery); a Lua number has none of its own (NumPy 2 refuses Python
** scalars where the answer would depend on the value) */
static int dtype_of(lua_State *L, int idx, const char *fname) {
  ga_array *a;
  ga_scalar *s;
  if ((a = ga_toarray(L, idx)) != NULL) return a->dtype;
  if ((s = ga_toscalar(L, idx)) != NULL) return s->dtype;
  int lt = lua_type(L, idx);
  if (lt == LUA_TNUMBER || lt == LUA_TBOOLEAN)
    ga_error(L, "%s: a Lua %s has no dtype of its own: pass a dtype or a typed scalar (ga.int32(7))", fname,
             luaL_typename(L, idx));
  int t = ga_checkdtype(L, idx, -1, fname);
  if (t < 0) ga_error(L, "%s: a dtype is required", fname);
  return t;
}

static void no_more_args(lua_State *L, int n, const char *fname) {
  if (lua_gettop(L) > n) ga_error(L, "%s: at most %d arguments, got %d", fname, n, lua_gettop(L));
}

static int l_dtype(lua_State *L) {
  no_more_args(L, 1, "dtype");
  ga_scalar *s = ga_toscalar(L, 1);
  int t = s ? s->dtype : ga_checkdtype(L, 1, -1, "dtype");
  if (t < 0) ga_error(L, "dtype: a dtype name is required");
  ga_push_dtype(L, t);
  return 1;
}

static int l_result_type(lua_State *L) {
  lua_pushstring(L, ga_dtypes[ga_result_type(L, 1, lua_gettop(L), "result_type")].name);
  return 1;
}

static int l_promote_types(lua_State *L) {
  no_more_args(L, 2, "promote_types");
  int a = dtype_of(L, 1, "promote_types"), b = dtype_of(L, 2, "promote_types");
  lua_pushstring(L, ga_dtypes[ga_promote((ga_dtype)a, (ga_dtype)b)].name);
  return 1;
}

/* can_cast(from, to[, casting | {casting =}]) */
static int l_can_cast(lua_State *L) {
  static const char *const fname = "can_cast";
  no_more_args(L, 3, fname);
  int from = dtype_of(L, 1, fname);
  int to = ga_checkdtype(L, 2, -1, fname);
  if (to < 0) ga_error(L, "%s: the dtype to cast to is missing", fname);
  const char *casting = "safe";
  if (lua_type(L, 3) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, 3)) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "casting") != 0)
        ga_error(L, "%s: unknown option '%s' (the option is 'casting')", fname, luaL_tolstring(L, -1, NULL));
    }
    lua_getfield(L, 3, "casting");
    lua_replace(L, 3);
  }
  if (!lua_isnoneornil(L, 3)) casting = ga_checkstring(L, 3, fname, "casting");
  int r = ga_can_cast(from, to, casting);
  if (r < 0)
    ga_error(L, "%s: casting must be 'no', 'equiv', 'safe', 'same_kind' or 'unsafe', got '%s'", fname, casting);
  lua_pushboolean(L, r);
  return 1;
}

/* np.finfo: the float format's limits as Lua floats (every float16 and
** float32 value is exact in a double); complex dtypes describe their parts */
static int l_finfo(lua_State *L) {
  no_more_args(L, 1, "finfo");
  int t = dtype_of(L, 1, "finfo");
  if (ga_dtypes[t].nmant == 0)
    ga_error(L, "finfo: %s is not a float or complex dtype (iinfo describes integers)", ga_dtypes[t].name);
  int f = ga_component_dtype(t), nmant = ga_dtypes[f].nmant, nexp = ga_dtypes[f].nexp;
  int maxexp = 1 << (nexp - 1), minexp = 2 - maxexp;
  double eps = ldexp(1.0, -nmant);
  int precision = (int)floor(-log10(eps));
  ga_value res;
  ga_value_from_float(f, pow(10.0, -precision), &res);   /* 10^-precision in the dtype, as NumPy's */
  lua_createtable(L, 0, 16);
  ga_setint(L, "bits", 8 * ga_dtypes[f].itemsize);
  ga_setstr(L, "dtype", ga_dtypes[f].name);
  ga_setint(L, "nmant", nmant);
  ga_setint(L, "nexp", nexp);
  ga_setint(L, "maxexp", maxexp);
  ga_setint(L, "minexp", minexp);
  ga_setint(L, "precision", precision);
  const struct { const char *k; double v; } nums[] = {
    {"eps", eps},
    {"epsneg", ldexp(1.0, -nmant - 1)},
    {"max", ldexp(2.0 - eps, maxexp - 1)},
    {"min", -ldexp(2.0 - eps, maxexp - 1)},
    {"tiny", ldexp(1.0, minexp)},
    {"smallest_normal", ldexp(1.0, minexp)},
    {"smallest_subnormal", ldexp(1.0, minexp - nmant)},
    {"resolution", ga_value_to_double(f, &res)},
  };
  for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
    lua_pushnumber(L, nums[i].v);
    lua_setfield(L, -2, nums[i].k);
  }
  return 1;
}

/* np.iinfo: min and max as Lua integers, except uint64's max, which no
** Lua integer holds: it is the typed scalar ga.uint64(18446744073709551615),
** exact, and compares and computes as NumPy's would */
static int l_iinfo(lua_State *L) {
  no_more_args(L, 1, "iinfo");
  int t = dtype_of(L, 1, "iinfo");
  if (!GA_IS_INT(t)) ga_error(L, "iinfo: %s is not an integer dtype", ga_dtypes[t].name);
  int bits = 8 * ga_dtypes[t].itemsize;
  lua_createtable(L, 0, 5);
  ga_setint(L, "bits", bits);
  ga_setstr(L, "dtype", ga_dtypes[t].name);
  lua_pushlstring(L, &ga_dtypes[t].kind, 1);
  lua_setfield(L, -2, "kind");
  if (GA_IS_SIGNED(t)) {
    ga_setint(L, "min", bits == 64 ? LUA_MININTEGER : -((lua_Integer)1 << (bits - 1)));
    ga_setint(L, "max", bits == 64 ? LUA_MAXINTEGER : ((lua_Integer)1 << (bits - 1)) - 1);
  } else {
    ga_setint(L, "min", 0);
    if (bits < 64) {
      ga_setint(L, "max", ((lua_Integer)1 << bits) - 1);
    } else {
      ga_value v;
      v.u64 = UINT64_MAX;
      ga_push_scalar(L, t, &v);
      lua_setfield(L, -2, "max");
    }
  }
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

static const luaL_Reg dtype_funcs[] = {
  {"dtype", l_dtype},
  {"result_type", l_result_type},
  {"promote_types", l_promote_types},
  {"can_cast", l_can_cast},
  {"finfo", l_finfo},
  {"iinfo", l_iinfo},
  {"dtype_names", l_dtypes},
  {"set_default_dtype", l_set_default_dtype},
  {"get_default_dtype", l_get_default_dtype},
  {NULL, NULL}
};

/* core.ndarray.dtype_decl(dtype object, decl): the declaration its calls bind */
static int l_dtype_decl(lua_State *L) {
  luaL_checkudata(L, 1, GA_DTYPE_MT);
  ga_api_checkdecl(L, 2, "dtype_decl");
  lua_settop(L, 2);
  lua_setiuservalue(L, 1, 1);
  return 0;
}

static const luaL_Reg dtype_private[] = {
  {"dtype_decl", l_dtype_decl},
  {NULL, NULL}
};

void ga_open_dtype(lua_State *L) {
  ga_state *ctx = ga_state_get(L);
  if (ctx->default_dtype < 0) ctx->default_dtype = GA_FLOAT64;
  ga_setfuncs(L, dtype_funcs);
  ga_setprivate(L, "ndarray", dtype_private);
  luaL_newmetatable(L, GA_DTYPE_MT);
  ga_setfuncs(L, dtype_meta);
  lua_pop(L, 1);
  /* one object per dtype per state: ga.float32 == ga.dtype("float32") */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &dtype_objects_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, GA_NDTYPES, 0);
    for (int t = 0; t < GA_NDTYPES; t++) {
      int *p = (int *)lua_newuserdatauv(L, sizeof(int), 1);   /* user value: its declaration */
      *p = t;
      luaL_setmetatable(L, GA_DTYPE_MT);
      lua_rawseti(L, -2, t + 1);
    }
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &dtype_objects_key);
  }
  for (int t = 0; t < GA_NDTYPES; t++) {
    lua_rawgeti(L, -1, t + 1);
    lua_setfield(L, -3, ga_dtypes[t].name);
  }
  lua_pop(L, 1);
}
