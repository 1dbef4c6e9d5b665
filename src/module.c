/*
** module.c: luaopen_gpuarray_core, the per-state context, error helpers.
** Opening the module twice in one state (busted reloads modules per spec
** file) reuses the context and metatables: everything here is idempotent.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "device.h"
#include "pinned.h"
#include "rawkernel.h"
#include "stream.h"
#include "gather.h"
#include "reduction.h"
#include "elementwise.h"
#include "ufunc.h"

static const char ctx_key = 'c';      /* registry key of the ga_state userdata */
static const char methods_key = 'm';  /* registry key of the ndarray method table */

/* ===================================================================== */
/* errors                                                                */
/* ===================================================================== */

int ga_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushstring(L, "gpuarray: ");
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

void ga_cuda_check(lua_State *L, cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  (void)cudaGetLastError();   /* clear a non-sticky error so the next call starts clean */
  ga_error(L, "%s: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

/* ===================================================================== */
/* context                                                               */
/* ===================================================================== */

ga_state *ga_state_get(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
  ga_state *ctx = (ga_state *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (!ctx) luaL_error(L, "gpuarray: module not opened in this Lua state");
  return ctx;
}

/* Push the context, creating it on first open */
static ga_state *push_context(lua_State *L) {
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
  ctx->default_dtype = GA_FLOAT64;
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ctx_key);
  return ctx;
}

void ga_state_push(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
}

void ga_setfuncs(lua_State *L, const luaL_Reg *funcs) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &ctx_key);
  luaL_setfuncs(L, funcs, 1);
}

void ga_new_type(lua_State *L, const char *mt, const luaL_Reg *meta, const luaL_Reg *methods,
                 lua_CFunction index) {
  luaL_newmetatable(L, mt);
  ga_setfuncs(L, meta);
  ga_state_push(L);
  lua_newtable(L);
  ga_setfuncs(L, methods);
  lua_pushcclosure(L, index, 2);
  lua_setfield(L, -2, "__index");
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
/* module functions that belong to no other file                         */
/* ===================================================================== */

static int l_set_default_dtype(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ctx->default_dtype = ga_checkdtype(L, 1, -1, "set_default_dtype");
  if (ctx->default_dtype < 0) ga_error(L, "set_default_dtype: a dtype is required");
  return 0;
}

static int l_get_default_dtype(lua_State *L) {
  lua_pushstring(L, ga_dtypes[ga_ctx(L)->default_dtype].name);
  return 1;
}

static const luaL_Reg module_funcs[] = {
  {"set_default_dtype", l_set_default_dtype},
  {"get_default_dtype", l_get_default_dtype},
  {NULL, NULL}
};

__attribute__((visibility("default")))
int luaopen_gpuarray_core(lua_State *L) {
  push_context(L);
  lua_pop(L, 1);
  lua_newtable(L);                 /* the module table */
  ga_setfuncs(L, module_funcs);
  lua_pushliteral(L, GA_VERSION);
  lua_setfield(L, -2, "version");
  ga_push_methods(L);
  lua_setfield(L, -2, "methods");  /* init.lua adds the Lua-side methods */
  ga_open_dtype(L);
  ga_open_shape(L);
  ga_open_scalar(L);
  ga_open_cuda(L);
  ga_open_pool(L);
  ga_open_compile(L);
  ga_open_ndarray(L);
  ga_open_copy(L);
  ga_open_create(L);
  ga_open_transfer(L);
  ga_open_index(L);
  ga_open_stream(L);
  ga_open_device(L);
  ga_open_rawkernel(L);
  ga_open_pinned(L);     /* after transfer: wraps x:set */
  ga_open_gather(L);
  ga_open_reduction(L);
  ga_open_scan(L);
  ga_open_mask(L);
  ga_open_elementwise(L);
  ga_open_ufunc(L);
  ga_open_operators(L);
  return 1;
}
