/*
** operators.c: ndarray arithmetic metamethods, the comparison methods and
** the in-place methods, each a C closure over its ufunc (upvalue 2), so
** that a + b goes straight to ga_ufunc_apply: no lookup by name, no table.
** The link from operator to ufunc is this file's tables: when the ufunc
** maker (ufunc.c) makes the ufunc "add" from its definition, it calls
** ga_operators_bind, which installs __add and add_ over it. Nothing reads
** the public ga table.
**
** Lua turns the results of == and < into booleans, so element-wise
** comparisons are methods (x:lt(y)); < and <= compare the values of 0-d
** arrays (a reduction's result) and raise on any other array. == stays
** identity: there is no __eq.
*/
#include <string.h>

#include "elementwise/elementwise.h"

static ga_ufunc *upufunc(lua_State *L) { return (ga_ufunc *)lua_touserdata(L, lua_upvalueindex(2)); }

/* a OP b, either side an ndarray (Lua calls the metamethod of whichever is) */
static int l_binary(lua_State *L) {
  static const int in[2] = {1, 2};
  return ga_ufunc_apply(L, upufunc(L), in, 0, -1);
}

/* -a, ~a: Lua passes the operand twice */
static int l_unary(lua_State *L) {
  static const int in[1] = {1};
  return ga_ufunc_apply(L, upufunc(L), in, 0, -1);
}

/* The method's own arguments, checked under its name (upvalue 3): "add_"
** (luaL_check* would say "bad argument #2 to '?'") */
static void method_args(lua_State *L) {
  const char *name = lua_tostring(L, lua_upvalueindex(3));
  if (!ga_toarray(L, 1))
    ga_error(L, "%s: expected an ndarray (x:%s(y)), got %s", name, name, luaL_typename(L, 1));
  ga_checkarray(L, 1);   /* a freed one raises */
  ga_checkany(L, 2, name, "the second operand");
  /* the declaration's rule (API.md §0): nothing past y, no options */
  if (lua_gettop(L) == 3 && lua_type(L, 3) == LUA_TTABLE && !ga_toarray(L, 3)) {
    lua_pushnil(L);
    if (lua_next(L, 3) == 0) return;   /* an empty options table */
    if (lua_type(L, -2) == LUA_TSTRING) ga_error(L, "%s: unknown option '%s'", name, lua_tostring(L, -2));
  }
  if (lua_gettop(L) > 2) ga_error(L, "%s: too many arguments (at most 1, got %d)", name, lua_gettop(L) - 1);
}

/* x:eq(y) and friends */
static int l_method(lua_State *L) {
  static const int in[2] = {1, 2};
  method_args(L);
  return ga_ufunc_apply(L, upufunc(L), in, 0, -1);
}

/* x:add_(y): x = x + y in place (same_kind casting into x), returns x */
static int l_inplace(lua_State *L) {
  static const int in[2] = {1, 2};
  method_args(L);
  lua_settop(L, 2);
  return ga_ufunc_apply(L, upufunc(L), in, 1, -1);
}

/* ===================================================================== */
/* < and <= on 0-d arrays                                                */
/* ===================================================================== */

typedef struct {
  int isint, neg;
  uint64_t u;       /* integers: the bits (two's complement when neg) */
  double d;
} cmpval;

static void from_storage(int t, const ga_value *e, cmpval *v) {
  v->isint = GA_IS_INT(t) || t == GA_BOOL;
  v->neg = 0;
  if (!v->isint) {
    v->d = ga_value_to_double(t, e);
    return;
  }
  ga_value w;
  ga_value_cast(GA_IS_UNSIGNED(t) || t == GA_BOOL ? GA_UINT64 : GA_INT64, &w, t, e);
  v->u = w.u64;
  v->neg = GA_IS_SIGNED(t) && w.i64 < 0;
}

/* A comparable value at idx: a 0-d array (read, synchronizing), a Lua
** number or a typed scalar. 0 when it is none of these. */
static int read_value(lua_State *L, int idx, cmpval *v, const char *op) {
  ga_array *a = ga_toarray(L, idx);
  ga_scalar *s;
  if (a) {
    if (a->flags & GA_F_FREED) ga_error(L, "%s: the array was freed", op);
    if (a->ndim != 0) return 0;
    if (GA_IS_COMPLEX(a->dtype)) ga_error(L, "%s: complex values are not ordered", op);
    ga_check_device(L, ga_ctx(L), a, op);
    ga_value e;
    memset(&e, 0, sizeof e);
    ga_to_host(L, ga_ctx(L), &e, a->data, (size_t)ga_dtypes[a->dtype].itemsize);
    from_storage(a->dtype, &e, v);
    return 1;
  }
  if ((s = ga_toscalar(L, idx)) != NULL) {
    if (GA_IS_COMPLEX(s->dtype)) ga_error(L, "%s: complex values are not ordered", op);
    from_storage(s->dtype, &s->v, v);
    return 1;
  }
  if (lua_type(L, idx) == LUA_TNUMBER) {
    v->isint = lua_isinteger(L, idx);
    if (v->isint) {
      lua_Integer i = lua_tointeger(L, idx);
      v->u = (uint64_t)i;
      v->neg = i < 0;
    } else {
      v->d = lua_tonumber(L, idx);
    }
    return 1;
  }
  return 0;
}

static double as_double(const cmpval *v) {
  if (!v->isint) return v->d;
  return v->neg ? (double)(int64_t)v->u : (double)v->u;
}

static int compare(lua_State *L, int le) {
  const char *op = le ? "<=" : "<";
  cmpval a, b;
  ga_array *x = ga_toarray(L, 1), *y = ga_toarray(L, 2);
  /* shapes first: no synchronization before the error */
  if ((x && x->ndim != 0) || (y && y->ndim != 0))
    return ga_error(L, "%s on arrays: use x:%s(y) (or %s) for element-wise comparison", op,
                    le ? "le" : "lt", le ? "lt, gt, ge" : "le, gt, ge");
  if (!read_value(L, 1, &a, op) || !read_value(L, 2, &b, op))
    return ga_error(L, "%s: cannot compare %s with %s", op, luaL_typename(L, 1), luaL_typename(L, 2));
  int r;
  if (a.isint && b.isint) {
    if (a.neg != b.neg) r = a.neg;                       /* the negative one is smaller */
    else if (a.neg) r = le ? (int64_t)a.u <= (int64_t)b.u : (int64_t)a.u < (int64_t)b.u;
    else r = le ? a.u <= b.u : a.u < b.u;
  } else {
    double p = as_double(&a), q = as_double(&b);
    r = le ? p <= q : p < q;
  }
  lua_pushboolean(L, r);
  return 1;
}

static int l_lt(lua_State *L) { return compare(L, 0); }
static int l_le(lua_State *L) { return compare(L, 1); }

/* ===================================================================== */
/* installation                                                          */
/* ===================================================================== */

typedef struct {
  const char *key, *ufunc;
  lua_CFunction fn;
} binding;

static const binding metamethods[] = {
  {"__add", "add", l_binary},
  {"__sub", "subtract", l_binary},
  {"__mul", "multiply", l_binary},
  {"__div", "divide", l_binary},
  {"__idiv", "floor_divide", l_binary},
  {"__mod", "remainder", l_binary},
  {"__pow", "power", l_binary},
  {"__unm", "negative", l_unary},
  {"__band", "bitwise_and", l_binary},
  {"__bor", "bitwise_or", l_binary},
  {"__bxor", "bitwise_xor", l_binary},
  {"__shl", "left_shift", l_binary},
  {"__shr", "right_shift", l_binary},
  {"__bnot", "invert", l_unary},
  {NULL, NULL, NULL}
};

static const binding methods[] = {
  {"eq", "equal", l_method},
  {"ne", "not_equal", l_method},
  {"lt", "less", l_method},
  {"le", "less_equal", l_method},
  {"gt", "greater", l_method},
  {"ge", "greater_equal", l_method},
  {"add_", "add", l_inplace},
  {"sub_", "subtract", l_inplace},
  {"mul_", "multiply", l_inplace},
  {"div_", "divide", l_inplace},
  {"pow_", "power", l_inplace},
  {NULL, NULL, NULL}
};

/* The bindings of ufunc name into the table on top, over the ufunc at idx.
** The closures: the state, the ufunc, the key (a method's name in errors) */
static void install(lua_State *L, const binding *b, const char *name, int idx) {
  for (; b->key; b++) {
    if (strcmp(b->ufunc, name) != 0) continue;
    ga_state_push(L);
    lua_pushvalue(L, idx);
    lua_pushstring(L, b->key);
    lua_pushcclosure(L, b->fn, 3);
    lua_setfield(L, -2, b->key);
  }
}

void ga_operators_bind(lua_State *L, const char *name, int idx) {
  idx = lua_absindex(L, idx);
  luaL_newmetatable(L, GA_ARRAY_MT);   /* the ndarray's (made here if its opener runs later) */
  install(L, metamethods, name, idx);
  lua_pop(L, 1);
  ga_push_methods(L);
  install(L, methods, name, idx);
  lua_pop(L, 1);
}

/* < and <= need no ufunc */
void ga_open_operators(lua_State *L) {
  luaL_newmetatable(L, GA_ARRAY_MT);
  ga_state_push(L);
  lua_pushcclosure(L, l_lt, 1);
  lua_setfield(L, -2, "__lt");
  ga_state_push(L);
  lua_pushcclosure(L, l_le, 1);
  lua_setfield(L, -2, "__le");
  lua_pop(L, 1);
}
