/*
** state.c: the per-Lua-state context (a userdata in the registry, upvalue 1
** of every C function of the module) and the helpers that register
** functions and types with it. Opening the module twice in one state
** (busted reloads modules per spec file) reuses the context.
*/
#include <string.h>

#include "base/base.h"

static const char ctx_key = 'c';      /* registry key of the ga_state userdata */
static const char methods_key = 'm';  /* registry key of the ndarray method table */

ga_state *ga_state_get(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
  ga_state *ctx = (ga_state *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (!ctx) luaL_error(L, "gpuarray: module not opened in this Lua state");
  return ctx;
}

/* Push the context, creating it on first open */
ga_state *ga_state_open(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key) == LUA_TUSERDATA)
    return (ga_state *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  ga_state *ctx = (ga_state *)lua_newuserdatauv(L, sizeof(ga_state), 0);
  memset(ctx, 0, sizeof *ctx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  ctx->main = lua_tothread(L, -1);
  lua_pop(L, 1);
  ctx->device = 0;
  ctx->stream = NULL;
  ctx->stream_ref = LUA_NOREF;
  ctx->pool = NULL;
  ctx->default_dtype = -1;           /* ga_open_dtype sets the real default */
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ctx_key);
  return ctx;
}

void ga_state_push(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
}

void ga_setint(lua_State *L, const char *k, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}

void ga_setbool(lua_State *L, const char *k, int v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, k);
}

void ga_setstr(lua_State *L, const char *k, const char *v) {
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

void ga_setfuncs(lua_State *L, const luaL_Reg *funcs) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
  luaL_setfuncs(L, funcs, 1);
}

void ga_new_type_over(lua_State *L, const char *mt, const luaL_Reg *meta, lua_CFunction index) {
  luaL_newmetatable(L, mt);
  ga_setfuncs(L, meta);
  ga_state_push(L);
  lua_pushvalue(L, -3);
  lua_pushcclosure(L, index, 2);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 2);
}

void ga_new_type(lua_State *L, const char *mt, const luaL_Reg *meta, const luaL_Reg *methods,
                 lua_CFunction index) {
  lua_newtable(L);
  ga_setfuncs(L, methods);
  ga_new_type_over(L, mt, meta, index);
}

void ga_new_scope_type(lua_State *L, const char *mt, lua_CFunction close) {
  if (luaL_newmetatable(L, mt)) {
    ga_state_push(L);
    lua_pushcclosure(L, close, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__close");
    lua_newtable(L);
    lua_insert(L, -2);
    lua_setfield(L, -2, "close");   /* scope:close() by hand */
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
}

void ga_push_methods(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &methods_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &methods_key);
  }
}

/* ===================================================================== */
/* hooks                                                                 */
/* ===================================================================== */

static const char hooks_key = 'k';    /* registry: slot -> function */
static const char *const hook_names[GA_NHOOKS] = {"repr", "index_array_get", "index_array_set", "field"};

int ga_push_hook(lua_State *L, ga_hook h) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &hooks_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    return 0;
  }
  if (lua_rawgeti(L, -1, (lua_Integer)h + 1) != LUA_TFUNCTION) {
    lua_pop(L, 2);
    return 0;
  }
  lua_remove(L, -2);
  return 1;
}

/* core._set_hooks{name = function, ...}: the names are read here, once */
static int l_set_hooks(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &hooks_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, GA_NHOOKS, 0);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &hooks_key);
  }
  for (int h = 0; h < GA_NHOOKS; h++) {
    int t = lua_getfield(L, 1, hook_names[h]);
    if (t == LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    if (t != LUA_TFUNCTION) ga_error(L, "_set_hooks: %s must be a function", hook_names[h]);
    lua_rawseti(L, -2, h + 1);
  }
  return 0;
}

static const luaL_Reg state_funcs[] = {
  {"_set_hooks", l_set_hooks},
  {NULL, NULL}
};

void ga_open_state(lua_State *L) {
  ga_setfuncs(L, state_funcs);
}
