/*
** pc-host.c: the smallest host program, for the install checks of .ci/run
** (tools/install-check). It is built against an installed gpuarray with
**   cc pc-host.c $(pkg-config --cflags --libs gpuarray) $(pkg-config --cflags --libs lua5.4)
** and run from anywhere: it opens the module in a new lua_State the way a
** host does (luaopen_gpuarray: no Lua files on disk, no LUA_PATH) and checks
** that the header it was compiled with, the library it linked and the Lua
** table agree on the version. Needs no GPU.
*/
#include <stdio.h>
#include <string.h>

#include <gpuarray.h>
#include <lauxlib.h>
#include <lualib.h>

static int open_gpuarray(lua_State *L) {
  luaL_requiref(L, "gpuarray", luaopen_gpuarray, 1);
  return 0;
}

int main(void) {
  lua_State *L = luaL_newstate();
  if (!L) return 1;
  luaL_openlibs(L);
  lua_pushcfunction(L, open_gpuarray);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    fprintf(stderr, "pc-host: luaopen_gpuarray: %s\n", lua_tostring(L, -1));
    return 1;
  }
  /* the Lua part comes from the module itself, as package.preload entries */
  if (luaL_dostring(L, "local ga = require 'gpuarray'; return ga.version, ga.is_available()") != LUA_OK) {
    fprintf(stderr, "pc-host: %s\n", lua_tostring(L, -1));
    return 1;
  }
  const char *lua_version = lua_tostring(L, -2);
  int gpu = lua_toboolean(L, -1);
  printf("pc-host: header %s, library %s, ga.version %s, %s\n", GPUARRAY_VERSION, ga_version(),
         lua_version ? lua_version : "(none)", gpu ? "a CUDA device" : "no CUDA device");
  int ok = lua_version && strcmp(GPUARRAY_VERSION, ga_version()) == 0 &&
           strcmp(GPUARRAY_VERSION, lua_version) == 0;
  lua_close(L);
  return ok ? 0 : 1;
}
