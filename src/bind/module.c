/*
** module.c: luaopen_gpuarray_core. It only registers: each layer exports
** its ga_open_* functions, and every one of them adds its functions, types
** and methods to the module table on top without relying on another having
** run first, so the list below is in no particular order. Opening the module
** twice in one state (busted reloads modules per spec file) reuses the
** context and the metatables.
*/
#include "bind/bind.h"

typedef void (*ga_opener)(lua_State *L);

static const ga_opener openers[] = {
  /* base */
  ga_open_state, ga_open_errors,
  /* declarations and the binder */
  ga_open_api,
  /* array */
  ga_open_dtype, ga_open_dtype_table, ga_open_shape, ga_open_scalar, ga_open_ndarray, ga_open_create, ga_open_transfer,
  ga_open_index, ga_open_copy, ga_open_pinned,
  /* runtime and compile */
  ga_open_cuda, ga_open_device, ga_open_stream, ga_open_pool, ga_open_graph, ga_open_compile,
  /* engines */
  ga_open_elementwise, ga_open_ufunc, ga_open_lazy, ga_open_operators, ga_open_reduction, ga_open_scan, ga_open_mask,
  ga_open_gather, ga_open_rawkernel, ga_open_params, ga_open_random, ga_open_sort,
  /* libraries */
  ga_open_blas, ga_open_matmul, ga_open_solver, ga_open_solver_svd, ga_open_fft, ga_open_sparse, ga_open_nccl, ga_open_distributed,
  ga_open_solver_geev, ga_open_triangular, ga_open_sparse_solve,
  /* tools */
  ga_open_profiler,
  /* interop */
  ga_open_capi, ga_open_dlpack, ga_open_dlpack_hooks,
  /* reliability hooks (fault injection) */
  ga_open_fault,
};

__attribute__((visibility("default")))
int luaopen_gpuarray_core(lua_State *L) {
  ga_state_open(L);
  lua_pop(L, 1);
  lua_newtable(L);                 /* the module table */
  lua_pushliteral(L, GPUARRAY_VERSION);   /* include/gpuarray.h: the one version */
  lua_setfield(L, -2, "version");
  ga_push_methods(L);
  lua_setfield(L, -2, "methods");  /* init.lua adds the Lua-side methods */
  for (size_t i = 0; i < sizeof openers / sizeof openers[0]; i++) openers[i](L);
  return 1;
}
