/*
** scalar.c: Lua values crossing into dtypes and back. Typed scalars
** (ga.int32(7): a userdata holding one element's storage), the dtype
** constructor objects themselves (ga.float32 is callable and is accepted
** wherever a dtype is), and the conversions every file uses to read a Lua
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

static int scalar_index(lua_State *L) {
  ga_scalar *s = (ga_scalar *)luaL_checkudata(L, 1, GA_SCALAR_MT);
  const char *k = ga_fieldkey(L, 2);
  if (!k) k = "";
  if (strcmp(k, "dtype") == 0) lua_pushstring(L, ga_dtypes[s->dtype].name);
  else if (strcmp(k, "value") == 0) ga_pushvalue(L, s->dtype, &s->v);
  else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, ga_dtypes[s->dtype].itemsize);
  else lua_pushnil(L);
  return 1;
}

static int scalar_tostring(lua_State *L) {
  ga_scalar *s = (ga_scalar *)luaL_checkudata(L, 1, GA_SCALAR_MT);
  ga_pushvalue(L, s->dtype, &s->v);
  if (GA_IS_COMPLEX(s->dtype)) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    lua_Number re = lua_tonumber(L, -2), im = lua_tonumber(L, -1);
    lua_pushfstring(L, "%s(%f%s%fj)", ga_dtypes[s->dtype].name, re, im < 0 ? "" : "+", im);
  } else {
    const char *v = luaL_tolstring(L, -1, NULL);
    lua_pushfstring(L, "%s(%s)", ga_dtypes[s->dtype].name, v);
  }
  return 1;
}

static int scalar_eq(lua_State *L) {
  ga_scalar *a = ga_toscalar(L, 1), *b = ga_toscalar(L, 2);
  lua_pushboolean(L, a && b && a->dtype == b->dtype &&
                         memcmp(&a->v, &b->v, (size_t)ga_dtypes[a->dtype].itemsize) == 0);
  return 1;
}

/* ===================================================================== */
/* dtype objects: ga.float32 etc.                                        */
/* ===================================================================== */

/* ga.float32(v): a typed scalar; the value must fit */
static int dtype_call(lua_State *L) {
  int t = *(int *)luaL_checkudata(L, 1, GA_DTYPE_MT);
  ga_value v;
  ga_checkany(L, 2, ga_dtypes[t].name, "the value");
  ga_checkvalue(L, 2, t, &v, ga_dtypes[t].name);
  ga_push_scalar(L, t, &v);
  return 1;
}

static int dtype_index(lua_State *L) {
  int t = *(int *)luaL_checkudata(L, 1, GA_DTYPE_MT);
  const char *k = ga_fieldkey(L, 2);
  if (!k) k = "";
  if (strcmp(k, "name") == 0) lua_pushstring(L, ga_dtypes[t].name);
  else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, ga_dtypes[t].itemsize);
  else if (strcmp(k, "kind") == 0) lua_pushlstring(L, &ga_dtypes[t].kind, 1);
  else lua_pushnil(L);
  return 1;
}

static int dtype_tostring(lua_State *L) {
  int t = *(int *)luaL_checkudata(L, 1, GA_DTYPE_MT);
  lua_pushstring(L, ga_dtypes[t].name);
  return 1;
}

static const luaL_Reg scalar_meta[] = {
  {"__index", scalar_index},
  {"__tostring", scalar_tostring},
  {"__eq", scalar_eq},
  {NULL, NULL}
};

static const luaL_Reg dtype_meta[] = {
  {"__call", dtype_call},
  {"__index", dtype_index},
  {"__tostring", dtype_tostring},
  {NULL, NULL}
};

static const char dtype_objects_key = 'd';

void ga_open_scalar(lua_State *L) {
  luaL_newmetatable(L, GA_SCALAR_MT);
  luaL_setfuncs(L, scalar_meta, 0);
  lua_pop(L, 1);
  luaL_newmetatable(L, GA_DTYPE_MT);
  luaL_setfuncs(L, dtype_meta, 0);
  lua_pop(L, 1);
  /* one object per dtype per state, so that ga.float32 == ga.float32 */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &dtype_objects_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, GA_NDTYPES, 0);
    for (int t = 0; t < GA_NDTYPES; t++) {
      int *p = (int *)lua_newuserdatauv(L, sizeof(int), 0);
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
