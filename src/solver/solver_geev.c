/*
** solver_geev.c: the general (non-symmetric) eigenproblem through
** cuSOLVER's 64-bit geev (CUDA 12.6 and later), for linalg.eig and
** linalg.eigvals:
**   core._geev(A, vectors) -> W, VR, info, index
** A is a batch of column-major n x n matrices (solver.c's layout) and is
** overwritten. W (batch..., n) is complex (complex64 for float32 and
** complex64 input, complex128 for the doubles). With vectors, VR (batch...,
** n, n) holds the right eigenvectors column-major in A's dtype: for a real A
** in LAPACK's packed form (a complex pair w_j, w_j+1 = conj(w_j) has v_j =
** VR[:, j] + i VR[:, j+1]; lua/gpuarray/solver/eig.lua unpacks it). Left
** eigenvectors are not computed (cuSOLVER offers none). One matrix after
** another on the current stream, one workspace; info as solver.c's.
*/
#include <string.h>
#include <cusolverDn.h>

#include "solver/solver.h"

static int l_geev(lua_State *L) {
  ga_svmat m;
  lua_settop(L, 2);
  ga_sv_mat(L, 1, &m, "linalg.eig");
  if (m.rows != m.cols) ga_error(L, "linalg.eig: square matrices only");
  int vectors = lua_toboolean(L, 2);
  int64_t n = m.rows;
  int wt = m.real == GA_FLOAT32 ? GA_COMPLEX64 : GA_COMPLEX128;
  cudaDataType wtype = m.real == GA_FLOAT32 ? CUDA_C_32F : CUDA_C_64F;
  ga_array *w = ga_sv_batch_array(L, &m, wt, n);                               /* 3 */
  int64_t shape[GA_MAXDIM];
  memcpy(shape, m.a->shape, (size_t)m.a->ndim * sizeof shape[0]);
  if (vectors) ga_new_array(L, ga_ctx(L), m.a->dtype, m.a->ndim, shape);     /* 4 */
  else lua_pushnil(L);
  ga_array *vr = vectors ? ga_checkarray(L, 4) : NULL;
  int *info = ga_sv_info(L, m.batch);                                           /* 5 */
  if (n == 0) {
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 4);
    lua_pushinteger(L, 0);
    lua_pushinteger(L, 0);
    return 4;
  }
  ga_solver *s = ga_sv_handle(L);
  cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  size_t dws = 0, hws = 0;
  int64_t ldv = vectors ? n : 1;
  ga_lib_check(L, &ga_cusolver,
               cusolverDnXgeev_bufferSize(s->h, s->params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, m.type, m.a->data,
                                          n, wtype, w->data, m.type, NULL, 1, m.type, vr ? vr->data : NULL, ldv,
                                          m.type, &dws, &hws),
               "linalg.eig: cusolverDnXgeev_bufferSize");
  void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
  void *hw = ga_sv_host(L, hws);
  int64_t wstep = n * (int64_t)ga_dtypes[wt].itemsize;
  for (int64_t b = 0; b < m.batch; b++)
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXgeev(s->h, s->params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, m.type,
                                 m.a->data + b * m.step, n, wtype, w->data + b * wstep, m.type, NULL, 1, m.type,
                                 vr ? vr->data + b * m.step : NULL, ldv, m.type, dw, dws, hw, hws, info + b),
                 "linalg.eig: cusolverDnXgeev");
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  ga_sv_push_info(L, info, m.batch);
  return 4;
}

static const luaL_Reg geev_funcs[] = {
  {"geev", l_geev},
  {NULL, NULL}
};

void ga_open_solver_geev(lua_State *L) {
  ga_setprivate(L, "solver", geev_funcs);
}
