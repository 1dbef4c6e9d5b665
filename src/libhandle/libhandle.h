/*
** libhandle.h: the home every CUDA library room reaches its handle
** through (handles.c). One handle per library, device and Lua state (a
** lua_State runs on one thread at a time, so a handle is never used by two
** threads at once), created on first use, bound to the current stream
** before each call, destroyed with the state. Each library's room keeps its
** own status names (a ga_statusname table: blas/blas.c, solver/solver.c,
** ...); workspaces come from the memory pool as ordinary arrays, so the
** collector frees them on any error.
*/
#ifndef GA_LIBHANDLE_H
#define GA_LIBHANDLE_H

#include "array/array.h"

/* What the handle home needs to know of one library. Status 0 is success
** in every library. */
typedef struct {
  const char *name;                         /* "cuBLAS": error messages */
  const ga_statusname *status;              /* its status names (its room's table) */
  int (*create)(void **handle);
  int (*destroy)(void *handle);
  int (*set_stream)(void *handle, cudaStream_t s);   /* NULL: the library has no stream */
} ga_libdesc;

/* The library's handle for ctx's current device in this Lua state, bound
** to stream (the current stream: ctx->stream). The device is entered. */
void *ga_lib_handle(lua_State *L, ga_state *ctx, const ga_libdesc *lib, cudaStream_t stream);

/* Raise "gpuarray: <call>: <status name>" unless status is 0 */
#define ga_lib_check(L, lib, st, call) ga_status_check((L), (lib)->status, (int)(st), (call))

/* A workspace of nbytes from the pool, pushed as a uint8 array (released
** by the collector, or at once with ga_array_release). NULL for 0 bytes
** (nothing pushed then either: the stack is left as it was). */
void *ga_lib_workspace(lua_State *L, ga_state *ctx, size_t nbytes);

#endif
