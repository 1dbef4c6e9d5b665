/*
** state.c: the per-Lua-state context (a userdata in the registry, upvalue 1
** of every C function of the module) and the helpers that register
** functions and types with it. Opening the module twice in one state
** (busted reloads modules per spec file) reuses the context.
*/
#include <string.h>

#include "base/base.h"

void (*ga_lazy_flush_fn)(lua_State *L, ga_state *ctx, const char *why);
int (*ga_lazy_pressure_fn)(lua_State *L, ga_state *ctx);

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

void *ga_state_object(lua_State *L, const void *key, size_t size, lua_CFunction gc) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TUSERDATA) {
    void *p = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return p;
  }
  lua_pop(L, 1);
  void *p = lua_newuserdatauv(L, size, 0);
  memset(p, 0, size);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
  return p;
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

static int is_private(lua_State *L, int idx) {
  if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return 0;
  luaL_getmetatable(L, GA_PRIVATE_MT);
  int r = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return r;
}

void ga_setprivate(lua_State *L, const char *room, const luaL_Reg *funcs) {
  if (lua_getfield(L, -1, room) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_newtable(L);
    luaL_newmetatable(L, GA_PRIVATE_MT);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, room);
  } else if (!is_private(L, -1)) {
    luaL_error(L, "gpuarray: core.%s is a public name, not a private table", room);
  }
  ga_setfuncs(L, funcs);
  lua_pop(L, 1);
}

void ga_new_type(lua_State *L, const char *mt, const luaL_Reg *meta, const luaL_Reg *methods,
                 lua_CFunction index) {
  if (methods) {
    lua_newtable(L);
    ga_setfuncs(L, methods);
  }
  luaL_newmetatable(L, mt);
  if (meta) ga_setfuncs(L, meta);
  /* the method table, for the Lua side that declares the methods (API.md
  ** §0: lua/gpuarray/api wraps each in its declaration) */
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "__methods");
  if (index) {
    ga_state_push(L);
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, index, 2);
  } else {
    lua_pushvalue(L, -2);
  }
  lua_setfield(L, -2, "__index");
  lua_pop(L, 2);
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
/* the hooks set_hooks sets by name (the tracer has its own setter) */
static const char *const hook_names[GA_NHOOKS] = {"repr", "index_array_get", "index_array_set", NULL,
                                                   "field"};

static void push_hooks(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &hooks_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, GA_NHOOKS, 0);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &hooks_key);
  }
}

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

/* core.ndarray.set_hooks{name = function, ...}: the names are read here, once */
static int l_set_hooks(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  push_hooks(L);
  for (int h = 0; h < GA_NHOOKS; h++) {
    if (!hook_names[h]) continue;
    int t = lua_getfield(L, 1, hook_names[h]);
    if (t == LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    if (t != LUA_TFUNCTION) ga_error(L, "set_hooks: %s must be a function", hook_names[h]);
    lua_rawseti(L, -2, h + 1);
  }
  return 0;
}

/* core.ndarray.set_tracer(t or nil): see ga_trace_offer */
static int l_set_tracer(lua_State *L) {
  if (!lua_isnil(L, 1)) luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  push_hooks(L);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, GA_HOOK_TRACE + 1);
  ga_ctx(L)->tracing = !lua_isnil(L, 1);
  return 0;
}

int ga_trace_offer(lua_State *L, const char *what, int f, int first, int last) {
  int base = lua_gettop(L);
  if (!ga_push_hook(L, GA_HOOK_TRACE)) return -1;
  lua_pushstring(L, what);
  lua_pushvalue(L, f);
  for (int i = first; i <= last; i++) lua_pushvalue(L, i);
  lua_call(L, last - first + 3, LUA_MULTRET);
  int n = lua_gettop(L) - base;
  if (n == 0 || !lua_toboolean(L, base + 1)) {
    lua_settop(L, base);
    return -1;
  }
  lua_remove(L, base + 1);
  return n - 1;
}

static const luaL_Reg state_funcs_ndarray[] = {
  {"set_hooks", l_set_hooks},
  {"set_tracer", l_set_tracer},
  {NULL, NULL}
};

void ga_open_state(lua_State *L) {
  ga_setprivate(L, "ndarray", state_funcs_ndarray);
}
