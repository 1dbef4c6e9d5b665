/*
** solver_svd.c: singular value decompositions through cuSOLVER, three ways,
** because their speeds differ by large factors and the fastest depends on
** the size and the dtype (docs/linalg.md has the measurements):
**   "gesvd"  QR iteration on a bidiagonal matrix (LAPACK's and CuPy's);
**   "gesvdj" one-sided Jacobi;
**   "gesvdp" through a polar decomposition (QDWH) and an eigensolver.
** The matrix is column-major m x n with m >= n (solver.c's layout; Lua
** hands over A or A^T so that this holds) and is overwritten. A batch of
** small matrices goes to gesvdjBatched (solver_batched.c) for "gesvdj".
*/
#include <string.h>
#include <cusolverDn.h>

#include "solver/solver.h"

/* gesvdj has typed entry points only: one switch for the size query and
** one for the call, through these two macros */
#define GESVDJ_SIZE(P, T)                                                                                  \
  cusolverDn##P##gesvdj_bufferSize(s->h, jobz, econ, (int)m, (int)n, (const T *)A, (int)m, (const R *)S, \
                                   (const T *)U, (int)m, (const T *)V, (int)n, &lw, s->jacobi)
#define GESVDJ_RUN(P, T)                                                                                     \
  cusolverDn##P##gesvdj(s->h, jobz, econ, (int)m, (int)n, (T *)A, (int)m, (R *)S, (T *)U, (int)m, (T *)V, \
                        (int)n, (T *)w, lw, info, s->jacobi)

static int gesvdj_size(ga_solver *s, int t, cusolverEigMode_t jobz, int econ, int64_t m, int64_t n, void *A,
                       void *S, void *U, void *V, int *lwp) {
  int lw = 0, st;
  if (t == GA_FLOAT32 || t == GA_COMPLEX64) {
    typedef float R;
    st = t == GA_FLOAT32 ? (int)GESVDJ_SIZE(S, float) : (int)GESVDJ_SIZE(C, cuComplex);
  } else {
    typedef double R;
    st = t == GA_FLOAT64 ? (int)GESVDJ_SIZE(D, double) : (int)GESVDJ_SIZE(Z, cuDoubleComplex);
  }
  *lwp = lw;
  return st;
}

static int gesvdj_run(ga_solver *s, int t, cusolverEigMode_t jobz, int econ, int64_t m, int64_t n, void *A,
                      void *S, void *U, void *V, void *w, int lw, int *info) {
  if (t == GA_FLOAT32 || t == GA_COMPLEX64) {
    typedef float R;
    return t == GA_FLOAT32 ? (int)GESVDJ_RUN(S, float) : (int)GESVDJ_RUN(C, cuComplex);
  }
  typedef double R;
  return t == GA_FLOAT64 ? (int)GESVDJ_RUN(D, double) : (int)GESVDJ_RUN(Z, cuDoubleComplex);
}

/* core.solver.gesvd(A, method, full, vectors) -> S, U, V, v_is_vt, info, index,
** perturbation.
** S (batch..., n) real; with vectors U (batch..., m or n, m) holds U
** column-major and V (batch..., n, n) holds V (gesvdj, gesvdp) or V^H
** (gesvd, then v_is_vt is true) column-major; without, U and V are nil.
** perturbation is gesvdp's estimate of the error in the values (the
** largest over the batch; NaN when it is not finite), 0 for the others. */
static int l_gesvd(lua_State *L) {
  ga_svmat a;
  lua_settop(L, 4);
  ga_sv_mat(L, 1, &a, "linalg.svd");
  const char *method = ga_checkstring(L, 2, "linalg.svd", "the driver");
  int full = lua_toboolean(L, 3), vectors = lua_toboolean(L, 4);
  int64_t m = a.rows, n = a.cols;
  if (m < n) ga_error(L, "linalg.svd: internal: column-major m >= n expected");
  if (m > 0x7fffffff) ga_error(L, "linalg.svd: matrices past 2^31 - 1 rows");
  int t = a.a->dtype;
  int64_t isz = ga_dtypes[t].itemsize, rsz = ga_dtypes[a.real].itemsize;
  int64_t ucols = full ? m : n;
  /* gesvdp without vectors failed (wrong values, then EXECUTION_FAILED) on
  ** the H200 with CUDA 13.0: it computes them always, and drops them */
  int is_p = strcmp(method, "gesvdp") == 0, keep = vectors;
  if (is_p) vectors = 1;
  ga_solver *s = ga_sv_handle(L);
  ga_array *S = ga_sv_batch_array(L, &a, a.real, n);                       /* 5 */
  ga_array *U = NULL, *V = NULL;
  if (vectors) {
    int64_t shape[GA_MAXDIM];
    int nd = a.a->ndim;
    memcpy(shape, a.a->shape, (size_t)nd * sizeof shape[0]);
    shape[nd - 2] = ucols;
    U = ga_new_array(L, ga_ctx(L), t, nd, shape);                           /* 6 */
    shape[nd - 2] = n;
    shape[nd - 1] = n;
    V = ga_new_array(L, ga_ctx(L), t, nd, shape);                           /* 7 */
  } else {
    lua_pushnil(L);
    lua_pushnil(L);
  }
  int is_vt = strcmp(method, "gesvd") == 0;
  int *info = ga_sv_info(L, a.batch);                                       /* 8 */
  double perturbation = 0;
  if (n == 0 || a.batch == 0) goto done;
  /* not referenced without vectors, but the libraries want valid pointers */
  char *dummy = (char *)ga_lib_workspace(L, ga_ctx(L), (size_t)isz);
  char *Ud = U ? U->data : dummy, *Vd = V ? V->data : dummy;
  int64_t ustep = U ? ucols * m * isz : 0, vstep = V ? n * n * isz : 0;
  cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  if (is_vt) {
    signed char ju = vectors ? (full ? 'A' : 'S') : 'N', jv = vectors ? 'A' : 'N';
    size_t dws = 0, hws = 0;
    cudaDataType st = a.real == GA_FLOAT32 ? CUDA_R_32F : CUDA_R_64F;
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXgesvd_bufferSize(s->h, s->params, ju, jv, m, n, a.type, a.a->data, m, st, S->data, a.type,
                                             Ud, m, a.type, Vd, n, a.type, &dws, &hws),
                 "linalg.svd: cusolverDnXgesvd_bufferSize");
    void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
    void *hw = ga_sv_host(L, hws);
    for (int64_t b = 0; b < a.batch; b++)
      ga_lib_check(L, &ga_cusolver,
                   cusolverDnXgesvd(s->h, s->params, ju, jv, m, n, a.type, a.a->data + b * a.step, m, st,
                                    S->data + b * n * rsz, a.type, Ud + b * ustep, m, a.type, Vd + b * vstep, n, a.type,
                                    dw, dws, hw, hws, info + b),
                   "linalg.svd: cusolverDnXgesvd");
  } else if (is_p) {
    int econ = !full;
    cudaDataType st = a.real == GA_FLOAT32 ? CUDA_R_32F : CUDA_R_64F;
    size_t dws = 0, hws = 0;
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXgesvdp_bufferSize(s->h, s->params, jobz, econ, m, n, a.type, a.a->data, m, st, S->data,
                                              a.type, Ud, m, a.type, Vd, n, a.type, &dws, &hws),
                 "linalg.svd: cusolverDnXgesvdp_bufferSize");
    void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
    void *hw = ga_sv_host(L, hws);
    for (int64_t b = 0; b < a.batch; b++) {
      double err = 0;
      ga_lib_check(L, &ga_cusolver,
                   cusolverDnXgesvdp(s->h, s->params, jobz, econ, m, n, a.type, a.a->data + b * a.step, m, st,
                                     S->data + b * n * rsz, a.type, Ud + b * ustep, m, a.type, Vd + b * vstep, n,
                                     a.type, dw, dws, hw, hws, info + b, &err),
                   "linalg.svd: cusolverDnXgesvdp");
      if (!(err <= perturbation)) perturbation = err;   /* NaN sticks */
    }
  } else if (strcmp(method, "gesvdj") == 0 && ga_sv_batched(&a, GA_SV_JACOBI_MAX)) {
    ga_sv_gesvdj_batched(L, s, &a, jobz, S->data, Ud, vectors ? ucols : m, Vd, info);
  } else if (strcmp(method, "gesvdj") == 0) {
    int econ = !full, lw = 0;
    ga_lib_check(L, &ga_cusolver, gesvdj_size(s, t, jobz, econ, m, n, a.a->data, S->data, Ud, Vd, &lw),
                 "linalg.svd: cusolverDn<t>gesvdj_bufferSize");
    void *w = ga_lib_workspace(L, ga_ctx(L), (size_t)lw * (size_t)isz);
    for (int64_t b = 0; b < a.batch; b++)
      ga_lib_check(L, &ga_cusolver,
                   gesvdj_run(s, t, jobz, econ, m, n, a.a->data + b * a.step, S->data + b * n * rsz, Ud + b * ustep,
                              Vd + b * vstep, w, lw, info + b),
                   "linalg.svd: cusolverDn<t>gesvdj");
  } else {
    ga_error(L, "linalg.svd: unknown method '%s' (gesvd, gesvdj or gesvdp)", method);
  }
done:
  lua_pushvalue(L, 5);
  if (keep) {
    lua_pushvalue(L, 6);
    lua_pushvalue(L, 7);
  } else {
    lua_pushnil(L);
    lua_pushnil(L);
  }
  lua_pushboolean(L, is_vt);
  if (n == 0 || a.batch == 0) {
    lua_pushinteger(L, 0);
    lua_pushinteger(L, 0);
  } else {
    ga_sv_push_info(L, info, a.batch);
  }
  lua_pushnumber(L, perturbation);
  return 7;
}

static const luaL_Reg svd_funcs_solver[] = {
  {"gesvd", l_gesvd},
  {NULL, NULL}
};

void ga_open_solver_svd(lua_State *L) {
  ga_setprivate(L, "solver", svd_funcs_solver);
}
