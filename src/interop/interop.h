/*
** interop.h: the module seen from outside Lua. The C API of
** include/gpuarray.h (capi.c: luaopen_gpuarray, wrapped host memory,
** descriptions of arrays, host-owned streams) and DLPack exchange
** (dlpack.c). The DLPack layouts are defined once, in the public header,
** because a C host that exchanges tensors needs them too.
*/
#ifndef GA_INTEROP_H
#define GA_INTEROP_H

#include <gpuarray.h>

#include "array/array.h"

/* The Lua part of the module, embedded at build time (tools/embed-lua.lua
** writes build/lua_embed.c from lua/gpuarray/): "gpuarray", "gpuarray.fft",
** ... with their source text; ends with a NULL name */
typedef struct {
  const char *name;
  const char *path;     /* "lua/gpuarray/fft.lua": chunk names in tracebacks */
  const char *text;
  size_t len;
} ga_lua_source;
extern const ga_lua_source ga_lua_sources[];

/* Push an ndarray over memory someone else owns: a block with no pool
** whose release(rctx, ptr) runs when its last view is gone. strides are in
** bytes. Validates everything before taking ownership: when it raises,
** release is never called. */
ga_array *ga_wrap_memory(lua_State *L, ga_state *ctx, void *ptr, int dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, int device, ga_release_fn release, void *rctx,
                         const char *fname);

void ga_open_capi(lua_State *L);
void ga_open_dlpack(lua_State *L);
void ga_open_dlpack_hooks(lua_State *L);   /* core._test.dlpack_*: hand-made tensors for the specs */

#endif
