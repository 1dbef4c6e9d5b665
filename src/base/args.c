/*
** args.c: Lua argument checks that raise the module's errors. luaL_check*
** would say "bad argument #1 to '?'" (the function is often unnamed where
** Lua cannot see how it was called) without the "gpuarray: " prefix; these
** name the function and the argument as the API does.
*/
#include <string.h>

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

/* A C string ends at its first NUL: a Lua string holding one would reach C
** cut short ("y = x;\0 y = 2*x;" compiled as "y = x;", a path or a name
** naming something else), so it is refused wherever C takes a C string */
const char *ga_checkstring(lua_State *L, int idx, const char *fname, const char *what) {
  if (lua_type(L, idx) != LUA_TSTRING) bad(L, idx, fname, what, "a string");
  size_t len;
  const char *s = lua_tolstring(L, idx, &len);
  if (strlen(s) != len) ga_error(L, "%s: %s contains a NUL byte", fname, what);
  return s;
}

const char *ga_fieldkey(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TSTRING) return NULL;
  size_t len;
  const char *s = lua_tolstring(L, idx, &len);
  return strlen(s) == len ? s : NULL;
}

const char *ga_checklstring(lua_State *L, int idx, size_t *len, const char *fname, const char *what) {
  if (lua_type(L, idx) != LUA_TSTRING) bad(L, idx, fname, what, "a string");
  return lua_tolstring(L, idx, len);
}

void ga_checkany(lua_State *L, int idx, const char *fname, const char *what) {
  if (lua_isnone(L, idx)) ga_error(L, "%s: %s is missing", fname, what);
}
