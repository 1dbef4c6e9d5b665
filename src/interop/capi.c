/*
** capi.c: the C API of include/gpuarray.h. luaopen_gpuarray (the Lua part
** embedded, so a host needs no files on disk), host memory wrapped as
** ndarrays, read-only descriptions of ndarrays for host C code, and
** streams the host owns.
**
** Nothing here keeps Lua state in a C global: the host streams the pools
** were told about, with their users, are the pools' (runtime/pool_order.c),
** because a stream outlives the states that used it.
*/
#include <stdlib.h>
#include <string.h>

#include "interop/interop.h"

/* The public dtype ids are the module's own */
_Static_assert(GA_DT_BOOL == (int)GA_BOOL && GA_DT_INT8 == (int)GA_INT8 && GA_DT_INT16 == (int)GA_INT16 &&
               GA_DT_INT32 == (int)GA_INT32 && GA_DT_INT64 == (int)GA_INT64 && GA_DT_UINT8 == (int)GA_UINT8 &&
               GA_DT_UINT16 == (int)GA_UINT16 && GA_DT_UINT32 == (int)GA_UINT32 &&
               GA_DT_UINT64 == (int)GA_UINT64 && GA_DT_FLOAT16 == (int)GA_FLOAT16 &&
               GA_DT_FLOAT32 == (int)GA_FLOAT32 && GA_DT_FLOAT64 == (int)GA_FLOAT64 &&
               GA_DT_COMPLEX64 == (int)GA_COMPLEX64 && GA_DT_COMPLEX128 == (int)GA_COMPLEX128 &&
               GA_DT_BFLOAT16 == (int)GA_BFLOAT16,
               "gpuarray.h dtype ids differ from core.h's");

const char *ga_version(void) { return GPUARRAY_VERSION; }   /* include/gpuarray.h: the one version */

/* ===================================================================== */
/* luaopen_gpuarray                                                      */
/* ===================================================================== */

/* package.preload loader of one embedded file (upvalue: its ga_lua_source) */
static int embedded_loader(lua_State *L) {
  const ga_lua_source *src = (const ga_lua_source *)lua_touserdata(L, lua_upvalueindex(1));
  const char *chunk = lua_pushfstring(L, "@%s", src->path);
  if (luaL_loadbufferx(L, src->text, src->len, chunk, "t") != LUA_OK) return lua_error(L);
  lua_pushstring(L, src->name);
  lua_pushliteral(L, ":embedded:");
  lua_call(L, 2, 1);
  return 1;
}

/* preload[name] = the function on top, unless the host set one (pops it) */
static void preload_default(lua_State *L, int preload, const char *name) {
  if (lua_getfield(L, preload, name) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_setfield(L, preload, name);
  } else {
    lua_pop(L, 2);
  }
}

int luaopen_gpuarray(lua_State *L) {
  if (lua_getglobal(L, "require") != LUA_TFUNCTION)
    return ga_error(L, "luaopen_gpuarray: needs the package library (luaL_openlibs opens it)");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  int preload = lua_gettop(L);
  lua_pushcfunction(L, luaopen_gpuarray_core);
  preload_default(L, preload, "gpuarray.core");
  for (const ga_lua_source *s = ga_lua_sources; s->name; s++) {
    lua_pushlightuserdata(L, (void *)s);
    lua_pushcclosure(L, embedded_loader, 1);
    preload_default(L, preload, s->name);
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "gpuarray");
  lua_call(L, 1, 1);                   /* require "gpuarray" */
  return 1;
}

/* ===================================================================== */
/* wrapped memory                                                        */
/* ===================================================================== */

ga_array *ga_wrap_memory(lua_State *L, ga_state *ctx, void *ptr, int dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, int device, ga_release_fn release, void *rctx,
                         const char *fname) {
  if (dtype < 0 || dtype >= GA_NDTYPES) ga_error(L, "%s: unknown dtype id %d", fname, dtype);
  if (ndim < 0 || ndim > GA_MAXDIM) ga_error(L, "%s: %d dimensions (0 to %d)", fname, ndim, GA_MAXDIM);
  if (ndim > 0 && !shape) ga_error(L, "%s: no shape for %d dimensions", fname, ndim);
  for (int d = 0; d < ndim; d++)
    if (shape[d] < 0) ga_error(L, "%s: negative length %I of axis %d", fname, (lua_Integer)shape[d], d + 1);
  int64_t isz = ga_dtypes[dtype].itemsize;
  int64_t size = ga_shape_size(ndim, shape);
  if (size < 0 || size > INT64_MAX / isz) ga_error(L, "%s: %s elements are too many", fname,
                                                   ga_shape_str(L, ndim, shape));
  if (size > 0 && !ptr) ga_error(L, "%s: NULL pointer for %I elements", fname, (lua_Integer)size);
  int64_t st[GA_MAXDIM];
  if (strides) memcpy(st, strides, sizeof(int64_t) * (size_t)ndim);
  else ga_c_strides(ndim, shape, isz, st);
  int64_t lo = 0, hi = 0;
  if (size > 0) ga_extent(ndim, shape, st, &lo, &hi);

  int64_t zero = 0;
  ga_array *a = ga_new_array(L, ctx, dtype, 1, &zero);   /* empty: nothing to release yet */
  ga_block *b = (ga_block *)calloc(1, sizeof *b);
  if (!b) ga_error(L, "%s: out of host memory", fname);
  /* from here on nothing raises: the array owns the memory */
  b->ptr = ptr;
  b->size = size > 0 ? (size_t)(hi - lo + isz) : 0;
  atomic_init(&b->refs, 1);
  b->device = device;
  b->stream = ctx->stream;
  b->pool = NULL;
  b->release = release;
  b->release_ctx = rctx;
  a->block = b;
  a->data = (char *)ptr;
  a->ndim = ndim;
  a->device = device;
  memcpy(a->shape, shape, sizeof(int64_t) * (size_t)ndim);
  memcpy(a->strides, st, sizeof(int64_t) * (size_t)ndim);
  ga_array_update_flags(a);
  return a;
}

void ga_wrap(lua_State *L, void *ptr, int dtype, int ndim, const int64_t *shape, const int64_t *strides,
             ga_release_fn release, void *rctx) {
  ga_state *ctx = ga_state_get(L);
  int device = ctx->device;
  if (ptr) {
    ga_device_enter(L, ctx);
    struct cudaPointerAttributes at;
    cudaError_t err = cudaPointerGetAttributes(&at, ptr);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      ga_error(L, "ga_wrap: %p is not device memory (%s)", ptr, cudaGetErrorName(err));
    }
    if (at.type != cudaMemoryTypeDevice && at.type != cudaMemoryTypeManaged)
      ga_error(L, "ga_wrap: %p is not device memory (it is %s)", ptr,
               at.type == cudaMemoryTypeHost ? "pinned host memory" : "host memory");
    device = at.device;
  }
  ga_wrap_memory(L, ctx, ptr, dtype, ndim, shape, strides, device, release, rctx, "ga_wrap");
}

/* ===================================================================== */
/* descriptions                                                          */
/* ===================================================================== */

int ga_test(lua_State *L, int idx, ga_desc *out) {
  ga_array *a = (ga_array *)luaL_testudata(L, idx, GA_ARRAY_MT);
  if (!a || (a->flags & GA_F_FREED)) return 0;
  /* the host may read or write the memory: pending work on it is settled
  ** (lazy evaluation: a pending array gets its value) */
  ga_array_ready(L, a, GA_LZ_WRITE);
  out->data = a->size > 0 ? a->data : NULL;
  out->dtype = a->dtype;
  out->itemsize = ga_dtypes[a->dtype].itemsize;
  out->ndim = a->ndim;
  out->device = a->device;
  out->size = a->size;
  out->shape = a->shape;
  out->strides = a->strides;
  out->c_contiguous = (a->flags & GA_F_C) != 0;
  out->f_contiguous = (a->flags & GA_F_F) != 0;
  out->stream = ga_state_get(L)->stream;
  return 1;
}

ga_desc ga_check(lua_State *L, int idx) {
  ga_desc d;
  memset(&d, 0, sizeof d);
  if (!ga_test(L, idx, &d)) {
    ga_array *a = (ga_array *)luaL_testudata(L, idx, GA_ARRAY_MT);
    if (a) ga_error(L, "the array at argument %d was freed", idx);
    ga_error(L, "expected an ndarray at argument %d, got %s", idx, luaL_typename(L, idx));
  }
  return d;
}

/* core._test.capi_desc(x) -> ga_check's description as a table (for the specs) */
static int l_capi_desc(lua_State *L) {
  ga_desc d = ga_check(L, 1);
  lua_createtable(L, 0, 10);
  ga_setint(L, "data", (lua_Integer)(uintptr_t)d.data);
  ga_setstr(L, "dtype", ga_dtypes[d.dtype].name);
  ga_setint(L, "itemsize", d.itemsize);
  ga_setint(L, "device", d.device);
  ga_setint(L, "size", d.size);
  ga_pushshape(L, d.ndim, d.shape);
  lua_setfield(L, -2, "shape");
  ga_pushshape(L, d.ndim, d.strides);
  lua_setfield(L, -2, "strides");
  ga_setbool(L, "c_contiguous", d.c_contiguous);
  ga_setbool(L, "f_contiguous", d.f_contiguous);
  ga_setint(L, "stream", (lua_Integer)(uintptr_t)d.stream);
  return 1;
}

/* ===================================================================== */
/* host-owned streams                                                    */
/* ===================================================================== */

void ga_forget_stream(cudaStream_t s) {
  ga_pool_stream_forget(s);
}

void ga_push_stream(lua_State *L, cudaStream_t s) {
  ga_state *ctx = ga_state_get(L);
  if (s == cudaStreamLegacy) s = NULL;
  if (s == cudaStreamPerThread)
    ga_error(L, "ga_push_stream: cudaStreamPerThread names a different stream on each thread; "
                "pass a stream the host created");
  int device = ctx->device, non_blocking = 0, priority = 0;
  if (s) {
    ga_device_enter(L, ctx);
    unsigned flags = 0;
    ga_cuda_check(L, cudaStreamGetDevice(s, &device), "ga_push_stream: cudaStreamGetDevice");
    ga_cuda_check(L, cudaStreamGetFlags(s, &flags), "ga_push_stream: cudaStreamGetFlags");
    ga_cuda_check(L, cudaStreamGetPriority(s, &priority), "ga_push_stream: cudaStreamGetPriority");
    non_blocking = (flags & cudaStreamNonBlocking) != 0;
  }
  ga_stream *st = (ga_stream *)ga_object_new(L, &ga_stream_type, sizeof *st, 0);
  st->s = s;
  st->device = s ? device : -1;
  st->non_blocking = non_blocking;
  st->priority = priority;
  st->owned = 0;                       /* never destroyed here */
  st->obj.alive = 1;
  if (s) {                             /* one more user of the host's stream, until given back */
    ga_pool_stream_adopt(device, s);
    st->adopted = 1;
  }
}

/* The state's previous stream, when it was a host's, is given back: its
** object is dead from here on, and the pools settle and untag the stream
** once its last user gave it back, so the host may destroy it */
void ga_set_stream(lua_State *L, cudaStream_t s) {
  ga_state *ctx = ga_state_get(L);
  ga_push_current_stream(L, ctx);
  ga_push_stream(L, s);
  ga_stream_use(L, ctx, -1, "ga_set_stream");
  ga_stream *prev = ga_tostream(L, -2);
  if (prev && prev->adopted) ga_stream_give_back(prev, 1);
  lua_pop(L, 2);
}

static const luaL_Reg capi_funcs_test[] = {
  {"capi_desc", l_capi_desc},
  {NULL, NULL}
};

void ga_open_capi(lua_State *L) {
  ga_setprivate(L, GA_TEST, capi_funcs_test);
}
