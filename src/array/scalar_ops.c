/*
** scalar_ops.c: the operators of typed scalars, as NumPy's scalars have
** them. ga.int32(7) + 1 is an int32 scalar: the operands promote as the
** ufunc's would (typed scalars strong, Lua numbers weak: NEP 50, through
** ga_result_type), the loop is the ufunc's (core/scalarmath.c) and the value
** is computed on the host, with no device. An ndarray operand makes it the
** array operation: the ndarray's own metamethod takes the call; so does a
** value of another type with its own metamethod (fuse's tracer). == compares
** two typed scalars by value, < and <= compare with Lua numbers too (Lua
** never calls __eq between a userdata and a number: ga.int32(7) == 7 is
** false; compare s:item() or ga.int32(7)).
*/
#include "array/array.h"

/* Call the metamethod on top with the operands (1..top-1); its one result */
static int call_with_operands(lua_State *L) {
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

/* Read the operands at 1..n. Returns 1, its result pushed, when another
** type handles the operation: an ndarray makes it the array operation (the
** ndarray metatable's own metamethod for event: the ufunc's closure), and
** a table or userdata with its own metamethod (a fuse tracer, a user's
** object) takes it, as Lua would have asked it had typed scalars none.
** Anything else raises. */
static int elsewhere(lua_State *L, int n, ga_operand *o, const char *event, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  int none = 0;
  for (int k = 0; k < n; k++) {
    int kind = ga_operand_read(L, ctx, k + 1, 0, &o[k]);
    if (kind == GA_OP_ARRAY) {
      luaL_getmetatable(L, GA_ARRAY_MT);
      if (lua_getfield(L, -1, event) != LUA_TFUNCTION)
        ga_error(L, "%s: ndarray operators are not installed (require \"gpuarray\")", fname);
      lua_remove(L, -2);
      return call_with_operands(L);
    }
    if (kind == GA_OP_NONE && !none) none = k + 1;
  }
  if (!none) return 0;
  /* (not a string's: the string library's arithmetic only converts numerals) */
  if (lua_type(L, none) != LUA_TSTRING && luaL_getmetafield(L, none, event) != LUA_TNIL)
    return call_with_operands(L);
  return ga_error(L, "%s: argument %d must be an ndarray or a number, got %s", fname, none, luaL_typename(L, none));
}

static int arith(lua_State *L, ga_sop op, const char *event) {
  const char *fname = ga_sop_name(op);
  int n = ga_sop_nin(op);
  ga_operand o[2];
  if (elsewhere(L, n, o, event, fname)) return 1;
  int P = ga_result_type(L, 1, n, fname);
  int in, out;
  char err[GA_ERRMSG_MAX];
  if (ga_sop_resolve(op, P, &in, &out, err) < 0) ga_error(L, "%s: %s", fname, err);
  ga_value v[2], r;
  for (int k = 0; k < n; k++) ga_operand_value(L, &o[k], in, &v[k], fname);
  const char *why = ga_sop_apply(op, in, out, &v[0], n == 2 ? &v[1] : NULL, &r);
  if (why) ga_error(L, "%s: %s", fname, why);
  ga_push_scalar(L, out, &r);
  return 1;
}

#define GA_ARITH(fn, op, event) \
  static int fn(lua_State *L) { return arith(L, op, event); }
GA_ARITH(l_add, GA_SOP_ADD, "__add")
GA_ARITH(l_sub, GA_SOP_SUBTRACT, "__sub")
GA_ARITH(l_mul, GA_SOP_MULTIPLY, "__mul")
GA_ARITH(l_div, GA_SOP_DIVIDE, "__div")
GA_ARITH(l_idiv, GA_SOP_FLOOR_DIVIDE, "__idiv")
GA_ARITH(l_mod, GA_SOP_REMAINDER, "__mod")
GA_ARITH(l_pow, GA_SOP_POWER, "__pow")
GA_ARITH(l_band, GA_SOP_BITWISE_AND, "__band")
GA_ARITH(l_bor, GA_SOP_BITWISE_OR, "__bor")
GA_ARITH(l_bxor, GA_SOP_BITWISE_XOR, "__bxor")
GA_ARITH(l_shl, GA_SOP_LEFT_SHIFT, "__shl")
GA_ARITH(l_shr, GA_SOP_RIGHT_SHIFT, "__shr")
GA_ARITH(l_unm, GA_SOP_NEGATIVE, "__unm")
GA_ARITH(l_bnot, GA_SOP_INVERT, "__bnot")
#undef GA_ARITH

/* ===================================================================== */
/* comparisons                                                           */
/* ===================================================================== */

/* An operand as a dtype and a value: a weak Lua number keeps its exact
** value (an integer as int64, a float as float64) */
static int operand_as_value(lua_State *L, const ga_operand *o, ga_value *v) {
  if (o->kind == GA_OP_TYPED) {
    *v = o->s->v;
    return o->dtype;
  }
  int t = o->weak == 'f' ? GA_FLOAT64 : o->weak == 'b' ? GA_BOOL : GA_INT64;
  ga_operand_value(L, o, t, v, "compare");
  return t;
}

/* a < b (le: a <= b) with a typed scalar on either side */
static int order(lua_State *L, int le) {
  const char *op = le ? "<=" : "<";
  ga_operand o[2];
  ga_value v[2];
  int t[2];
  if (elsewhere(L, 2, o, le ? "__le" : "__lt", op)) return 1;
  for (int k = 0; k < 2; k++) {
    if ((o[k].kind == GA_OP_TYPED && GA_IS_COMPLEX(o[k].dtype)) || o[k].weak == 'c')
      ga_error(L, "%s: complex values are not ordered", op);
    t[k] = operand_as_value(L, &o[k], &v[k]);
  }
  int P;
  if (o[0].kind == GA_OP_TYPED && o[1].kind == GA_OP_TYPED) P = ga_promote((ga_dtype)t[0], (ga_dtype)t[1]);
  else if (o[0].kind == GA_OP_TYPED) P = ga_promote_weak((ga_dtype)t[0], o[1].weak);
  else P = ga_promote_weak((ga_dtype)t[1], o[0].weak);
  int c = ga_value_compare(P, t[0], &v[0], t[1], &v[1]);
  lua_pushboolean(L, c == -1 || (le && c == 0));
  return 1;
}

static int l_lt(lua_State *L) { return order(L, 0); }
static int l_le(lua_State *L) { return order(L, 1); }

/* Two typed scalars are equal when their values are, as NumPy compares
** them (int32(7) == float32(7)); another userdata is equal when its own
** __eq says so (an ndarray, a dtype object: never) */
static int l_eq(lua_State *L) {
  ga_scalar *a = ga_toscalar(L, 1), *b = ga_toscalar(L, 2);
  if (!a || !b) {
    if (luaL_getmetafield(L, a ? 2 : 1, "__eq") != LUA_TNIL) return call_with_operands(L);
    lua_pushboolean(L, 0);
    return 1;
  }
  int P = (int)ga_promote((ga_dtype)a->dtype, (ga_dtype)b->dtype);
  lua_pushboolean(L, ga_value_compare(P, a->dtype, &a->v, b->dtype, &b->v) == 0);
  return 1;
}

const luaL_Reg ga_scalar_ops[] = {
  {"__add", l_add}, {"__sub", l_sub}, {"__mul", l_mul}, {"__div", l_div}, {"__idiv", l_idiv},
  {"__mod", l_mod}, {"__pow", l_pow}, {"__band", l_band}, {"__bor", l_bor}, {"__bxor", l_bxor},
  {"__shl", l_shl}, {"__shr", l_shr}, {"__unm", l_unm}, {"__bnot", l_bnot},
  {"__eq", l_eq}, {"__lt", l_lt}, {"__le", l_le},
  {NULL, NULL}
};
