/*
** scalar.c: Lua values crossing into dtypes and back. Typed scalars
** (ga.int32(7): a userdata holding one element's storage; their operators
** are scalar_ops.c's, their constructors the dtype objects of dtype_lua.c),
** dtype arguments, and the conversions every file uses to read a Lua
** number as a dtype or push an element back.
*/
#include <math.h>
#include <string.h>

#include "array/array.h"

/* ===================================================================== */
/* dtype arguments                                                       */
/* ===================================================================== */

static int unknown_dtype(lua_State *L, const char *name, const char *fname) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int t = 0; t < GA_NDTYPES; t++) {
    if (t) luaL_addstring(&b, ", ");
    luaL_addstring(&b, ga_dtypes[t].name);
  }
  luaL_pushresult(&b);
  return ga_error(L, "%s: unknown dtype '%s' (valid: %s)", fname, name, lua_tostring(L, -1));
}

int ga_checkdtype(lua_State *L, int idx, int def, const char *fname) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNONE:
    case LUA_TNIL:
      return def;
    case LUA_TSTRING: {
      const char *name = ga_checkstring(L, idx, fname, "the dtype name");
      int t = ga_dtype_lookup(name);
      return t >= 0 ? t : unknown_dtype(L, name, fname);
    }
    case LUA_TUSERDATA: {
      int *t = (int *)luaL_testudata(L, idx, GA_DTYPE_MT);
      if (t) return *t;
      break;
    }
    case LUA_TTABLE: {
      if (lua_getfield(L, idx, "name") == LUA_TSTRING) {
        const char *name = ga_checkstring(L, -1, fname, "the dtype name");
        int t = ga_dtype_lookup(name);
        lua_pop(L, 1);
        return t >= 0 ? t : unknown_dtype(L, name, fname);
      }
      lua_pop(L, 1);
      break;
    }
  }
  return ga_error(L, "%s: expected a dtype, got %s", fname, luaL_typename(L, idx));
}

/* ===================================================================== */
/* Lua values <-> storage                                                */
/* ===================================================================== */

ga_scalar *ga_toscalar(lua_State *L, int idx) {
  return (ga_scalar *)luaL_testudata(L, idx, GA_SCALAR_MT);
}

char ga_scalar_kind(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: return 'b';
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? 'i' : 'f';
    default: return 0;
  }
}

static void fit_error(lua_State *L, int idx, int t, const char *why, const char *fname) {
  ga_error(L, "%s: %s %s %s", fname, luaL_tolstring(L, idx, NULL), why, ga_dtypes[t].name);
}

/* {re, im} at idx as two numbers; 0 when it is no such pair */
static int complex_pair(lua_State *L, int idx, double *re, double *im) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx) || lua_rawlen(L, idx) != 2) return 0;
  int ok1, ok2;
  lua_rawgeti(L, idx, 1);
  lua_rawgeti(L, idx, 2);
  *re = lua_tonumberx(L, -2, &ok1);
  *im = lua_tonumberx(L, -1, &ok2);
  lua_pop(L, 2);
  return ok1 && ok2;
}

void ga_checkvalue(lua_State *L, int idx, int t, ga_value *out, const char *fname) {
  const char *why = NULL;
  ga_scalar *s;
  double re, im;
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) why = ga_value_from_int(t, lua_tointeger(L, idx), out);
      else why = ga_value_from_float(t, lua_tonumber(L, idx), out);
      if (why) fit_error(L, idx, t, why, fname);
      return;
    case LUA_TBOOLEAN:
      why = ga_value_from_int(t, lua_toboolean(L, idx), out);
      if (why) fit_error(L, idx, t, why, fname);
      return;
    case LUA_TUSERDATA:
      if ((s = ga_toscalar(L, idx)) != NULL) {
        ga_value_cast(t, out, s->dtype, &s->v);
        return;
      }
      break;
    case LUA_TTABLE:
      if (complex_pair(L, idx, &re, &im)) {
        if (!GA_IS_COMPLEX(t) && im != 0)
          ga_error(L, "%s: complex value {%f, %f} for a %s array", fname, re, im, ga_dtypes[t].name);
        ga_value_from_complex(t, re, im, out);
        return;
      }
      break;
  }
  ga_error(L, "%s: expected a number, boolean or typed scalar, got %s", fname, luaL_typename(L, idx));
}

void ga_pushvalue(lua_State *L, int t, const void *elem) {
  ga_value v;
  memcpy(&v, elem, ga_dtypes[t].itemsize);
  switch (t) {
    case GA_BOOL: lua_pushboolean(L, v.b != 0); break;
    case GA_INT8: lua_pushinteger(L, v.i8); break;
    case GA_INT16: lua_pushinteger(L, v.i16); break;
    case GA_INT32: lua_pushinteger(L, v.i32); break;
    case GA_INT64: lua_pushinteger(L, v.i64); break;
    case GA_UINT8: lua_pushinteger(L, v.u8); break;
    case GA_UINT16: lua_pushinteger(L, v.u16); break;
    case GA_UINT32: lua_pushinteger(L, v.u32); break;
    case GA_UINT64:
      /* past Lua's integers, the nearest float (documented in the README) */
      if (v.u64 <= (uint64_t)INT64_MAX) lua_pushinteger(L, (lua_Integer)v.u64);
      else lua_pushnumber(L, (lua_Number)v.u64);
      break;
    case GA_FLOAT16: lua_pushnumber(L, ga_half_to_double(v.f16)); break;
    case GA_FLOAT32: lua_pushnumber(L, v.f32); break;
    case GA_FLOAT64: lua_pushnumber(L, v.f64); break;
    case GA_COMPLEX64:
    case GA_COMPLEX128:
      lua_createtable(L, 2, 0);
      lua_pushnumber(L, t == GA_COMPLEX64 ? v.c64[0] : v.c128[0]);
      lua_rawseti(L, -2, 1);
      lua_pushnumber(L, t == GA_COMPLEX64 ? v.c64[1] : v.c128[1]);
      lua_rawseti(L, -2, 2);
      break;
  }
}

/* ===================================================================== */
/* typed scalars                                                         */
/* ===================================================================== */

ga_scalar *ga_push_scalar(lua_State *L, int dtype, const ga_value *v) {
  ga_scalar *s = (ga_scalar *)lua_newuserdatauv(L, sizeof(ga_scalar), 0);
  s->dtype = dtype;
  s->v = *v;
  luaL_setmetatable(L, GA_SCALAR_MT);
  return s;
}

/* s:item(): the value as a Lua value (as .value) */
static int scalar_item(lua_State *L) {
  ga_scalar *s = (ga_scalar *)luaL_checkudata(L, 1, GA_SCALAR_MT);
  ga_pushvalue(L, s->dtype, &s->v);
  return 1;
}

static int scalar_index(lua_State *L) {
  ga_scalar *s = (ga_scalar *)luaL_checkudata(L, 1, GA_SCALAR_MT);
  const char *k = ga_fieldkey(L, 2);
  if (!k) k = "";
  if (strcmp(k, "dtype") == 0) lua_pushstring(L, ga_dtypes[s->dtype].name);
  else if (strcmp(k, "value") == 0) ga_pushvalue(L, s->dtype, &s->v);
  else if (strcmp(k, "item") == 0) lua_pushcfunction(L, scalar_item);
  else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, ga_dtypes[s->dtype].itemsize);
  else lua_pushnil(L);
  return 1;
}

/* "float32(0.1)", "complex64(1+2j)", "uint64(18446744073709551615)" */
static int scalar_tostring(lua_State *L) {
  ga_scalar *s = (ga_scalar *)luaL_checkudata(L, 1, GA_SCALAR_MT);
  char buf[96];
  ga_value_repr(s->dtype, &s->v, buf, sizeof buf);
  lua_pushfstring(L, "%s(%s)", ga_dtypes[s->dtype].name, buf);
  return 1;
}

static const luaL_Reg scalar_meta[] = {
  {"__index", scalar_index},
  {"__tostring", scalar_tostring},
  {NULL, NULL}
};

void ga_open_scalar(lua_State *L) {
  luaL_newmetatable(L, GA_SCALAR_MT);
  ga_setfuncs(L, scalar_meta);
  ga_setfuncs(L, ga_scalar_ops);   /* arithmetic and comparisons: scalar_ops.c */
  lua_pop(L, 1);
}
