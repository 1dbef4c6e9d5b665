/*
** args.c: Lua argument checks that raise the module's errors. luaL_check*
** would say "bad argument #1 to '?'" (the function is often unnamed where
** Lua cannot see how it was called) without the "gpuarray: " prefix; these
** name the function and the argument as the API does.
*/
#include "base/base.h"

static int bad(lua_State *L, int idx, const char *fname, const char *what, const char *expected) {
  if (lua_type(L, idx) == LUA_TNUMBER)
    return ga_error(L, "%s: %s must be %s, got %s", fname, what, expected, lua_tostring(L, idx));
  /* a userdata by its type's name (gpuarray.ndarray), as luaL_typeerror does */
  const char *got = luaL_getmetafield(L, idx, "__name") == LUA_TSTRING ? lua_tostring(L, -1)
                    : luaL_typename(L, idx);
  return ga_error(L, "%s: %s must be %s, got %s", fname, what, expected, got);
}

lua_Integer ga_checkinteger(lua_State *L, int idx, const char *fname, const char *what) {
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok || lua_type(L, idx) != LUA_TNUMBER) bad(L, idx, fname, what, "an integer");
  return v;
}

lua_Integer ga_optinteger(lua_State *L, int idx, lua_Integer def, const char *fname, const char *what) {
  return lua_isnoneornil(L, idx) ? def : ga_checkinteger(L, idx, fname, what);
}

lua_Number ga_checknumber(lua_State *L, int idx, const char *fname, const char *what) {
  if (lua_type(L, idx) != LUA_TNUMBER) bad(L, idx, fname, what, "a number");
  return lua_tonumber(L, idx);
}

const char *ga_checkstring(lua_State *L, int idx, const char *fname, const char *what) {
  if (lua_type(L, idx) != LUA_TSTRING) bad(L, idx, fname, what, "a string");
  return lua_tostring(L, idx);
}

const char *ga_checklstring(lua_State *L, int idx, size_t *len, const char *fname, const char *what) {
  if (lua_type(L, idx) != LUA_TSTRING) bad(L, idx, fname, what, "a string");
  return lua_tolstring(L, idx, len);
}

void ga_checkany(lua_State *L, int idx, const char *fname, const char *what) {
  if (lua_isnone(L, idx)) ga_error(L, "%s: %s is missing", fname, what);
}
