/*
** operand.c: the one reading of an operand. Wherever a Lua value can stand
** for an array or a scalar (ufuncs and operators, ElementwiseKernel
** arguments, result_type, where/clip) it is one of: an ndarray, a typed
** scalar (ga.int32(7)), a weak Lua scalar (number, boolean, {re, im} pair)
** or, where dtypes are allowed, a dtype specifier.
*/
#include "array/array.h"

int ga_is_complex_pair(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || lua_rawlen(L, idx) != 2) return 0;
  int a = lua_rawgeti(L, idx, 1), b = lua_rawgeti(L, idx, 2);
  lua_pop(L, 2);
  return a == LUA_TNUMBER && b == LUA_TNUMBER;
}

int ga_operand_read(lua_State *L, ga_state *ctx, int idx, int dtypes_ok, ga_operand *o) {
  o->idx = idx;
  o->a = NULL;
  o->s = NULL;
  o->dtype = -1;
  o->weak = 0;
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      o->weak = lua_isinteger(L, idx) ? 'i' : 'f';
      return o->kind = GA_OP_WEAK;
    case LUA_TBOOLEAN:
      o->weak = 'b';
      return o->kind = GA_OP_WEAK;
    case LUA_TUSERDATA:
      if ((o->a = ga_toarray_in(L, ctx, idx)) != NULL) {
        o->dtype = o->a->dtype;
        return o->kind = GA_OP_ARRAY;
      }
      if ((o->s = ga_toscalar(L, idx)) != NULL) {
        o->dtype = o->s->dtype;
        return o->kind = GA_OP_TYPED;
      }
      break;
    case LUA_TTABLE:
      if (ga_is_complex_pair(L, idx)) {
        o->weak = 'c';
        return o->kind = GA_OP_WEAK;
      }
      break;
  }
  if (dtypes_ok && lua_type(L, idx) != LUA_TNIL) {
    o->dtype = ga_checkdtype(L, idx, -1, "result_type");
    if (o->dtype >= 0) return o->kind = GA_OP_DTYPE;
  }
  return o->kind = GA_OP_NONE;
}

void ga_operand_value(lua_State *L, const ga_operand *o, int t, ga_value *out, const char *fname) {
  ga_value src;
  if (o->kind == GA_OP_TYPED) {
    ga_value_cast(t, out, o->s->dtype, &o->s->v);
  } else if (o->weak == 'c') {
    lua_rawgeti(L, o->idx, 1);
    lua_rawgeti(L, o->idx, 2);
    ga_value_from_complex(t, lua_tonumber(L, -2), lua_tonumber(L, -1), out);
    lua_pop(L, 2);
  } else if (o->weak == 'f') {
    ga_value_from_float(GA_FLOAT64, lua_tonumber(L, o->idx), &src);
    ga_value_cast(t, out, GA_FLOAT64, &src);
  } else {
    lua_Integer v = o->weak == 'b' ? lua_toboolean(L, o->idx) : lua_tointeger(L, o->idx);
    if (GA_IS_INT(t) || t == GA_BOOL) {
      if (ga_value_from_int(t, v, out)) ga_error(L, "%s: Lua integer %I does not fit %s", fname, v, ga_dtypes[t].name);
    } else {
      ga_value_from_int(GA_INT64, v, &src);
      ga_value_cast(t, out, GA_INT64, &src);
    }
  }
}
