/*
** solver.c: cuSOLVER (dense) through the handle home, and the factorisations
** under ga.linalg: LU (getrf, getrs), Cholesky (potrf), QR (geqrf, orgqr)
** and the symmetric eigensolver (syevd). The SVDs are in solver_svd.c.
**
** Every routine here works on a batch of column-major matrices stored in a
** C-contiguous array: the last axis is the column-major row index, so an
** array of shape (batch..., c, r) holds r x c matrices (the memory of a
** row-major X is column-major X^T: lua/gpuarray/linalg.lua exploits that to
** avoid most transposes). Inputs are overwritten in place; leading axes are
** a batch, run one matrix after another on the current stream with one
** workspace, or, for more than one small matrix, by the libraries' batched
** routines in one call (solver_batched.c). Routines that can fail report LAPACK's info of the first
** failing matrix (reading it synchronises, as CuPy does), and Lua raises.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <cusolverDn.h>

#include "solver/solver.h"

/* ---------------------------------------------------------------------- */
/* the handle                                                             */
/* ---------------------------------------------------------------------- */

static int solver_create(void **out) {
  ga_solver *s = (ga_solver *)calloc(1, sizeof *s);
  if (!s) return (int)CUSOLVER_STATUS_ALLOC_FAILED;
  int st = (int)cusolverDnCreate(&s->h);
  if (!st) st = (int)cusolverDnCreateParams(&s->params);
  if (!st) st = (int)cusolverDnCreateGesvdjInfo(&s->jacobi);
  if (!st) st = (int)cusolverDnCreateSyevjInfo(&s->syevj);
  /* the batched Jacobi routines may leave their results unsorted: ask for
  ** the order of the single-matrix path (their default, said explicitly) */
  if (!st) st = (int)cusolverDnXgesvdjSetSortEig(s->jacobi, 1);
  if (!st) st = (int)cusolverDnXsyevjSetSortEig(s->syevj, 1);
  if (st) {
    if (s->syevj) cusolverDnDestroySyevjInfo(s->syevj);
    if (s->jacobi) cusolverDnDestroyGesvdjInfo(s->jacobi);
    if (s->params) cusolverDnDestroyParams(s->params);
    if (s->h) cusolverDnDestroy(s->h);
    free(s);
    return st;
  }
  *out = s;
  return 0;
}

static int solver_destroy(void *p) {
  ga_solver *s = (ga_solver *)p;
  cusolverDnDestroySyevjInfo(s->syevj);
  cusolverDnDestroyGesvdjInfo(s->jacobi);
  cusolverDnDestroyParams(s->params);
  int st = (int)cusolverDnDestroy(s->h);
  free(s);
  return st;
}

static int solver_set_stream(void *p, cudaStream_t stream) {
  return (int)cusolverDnSetStream(((ga_solver *)p)->h, stream);
}

/* From cusolver_common.h's cusolverStatus_t */
const ga_statusname ga_cusolver_status[] = {
  {1, "CUSOLVER_STATUS_NOT_INITIALIZED"}, {2, "CUSOLVER_STATUS_ALLOC_FAILED"},
  {3, "CUSOLVER_STATUS_INVALID_VALUE"}, {4, "CUSOLVER_STATUS_ARCH_MISMATCH"},
  {5, "CUSOLVER_STATUS_MAPPING_ERROR"}, {6, "CUSOLVER_STATUS_EXECUTION_FAILED"},
  {7, "CUSOLVER_STATUS_INTERNAL_ERROR"}, {8, "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
  {9, "CUSOLVER_STATUS_NOT_SUPPORTED"}, {10, "CUSOLVER_STATUS_ZERO_PIVOT"},
  {11, "CUSOLVER_STATUS_INVALID_LICENSE"}, {31, "CUSOLVER_STATUS_INVALID_WORKSPACE"}, {0, NULL}};

const ga_libdesc ga_cusolver = {"cuSOLVER", ga_cusolver_status, solver_create, solver_destroy, solver_set_stream};

/* ---------------------------------------------------------------------- */
/* shared by the routines (here and in solver_svd.c)                      */
/* ---------------------------------------------------------------------- */

void ga_sv_mat(lua_State *L, int idx, ga_svmat *m, const char *fname) {
  ga_array *a = ga_checkarray(L, idx);
  if (a->ndim < 2) ga_error(L, "%s: a batch of matrices needs at least 2 axes", fname);
  if (!(a->flags & GA_F_C)) ga_error(L, "%s: the matrices must be C-contiguous", fname);
  switch (a->dtype) {
    case GA_FLOAT32: m->type = CUDA_R_32F; m->real = GA_FLOAT32; break;
    case GA_FLOAT64: m->type = CUDA_R_64F; m->real = GA_FLOAT64; break;
    case GA_COMPLEX64: m->type = CUDA_C_32F; m->real = GA_FLOAT32; break;
    case GA_COMPLEX128: m->type = CUDA_C_64F; m->real = GA_FLOAT64; break;
    default: ga_error(L, "%s: float32, float64, complex64 or complex128, got %s", fname, ga_dtypes[a->dtype].name);
  }
  ga_check_device(L, ga_ctx(L), a, fname);
  m->a = a;
  m->rows = a->shape[a->ndim - 1];
  m->cols = a->shape[a->ndim - 2];
  m->batch = 1;
  for (int i = 0; i < a->ndim - 2; i++) m->batch *= a->shape[i];
  m->step = m->rows * m->cols * (int64_t)ga_dtypes[a->dtype].itemsize;
}

/* A new array of the batch axes of m followed by `last` (when last >= 0) */
ga_array *ga_sv_batch_array(lua_State *L, const ga_svmat *m, int dtype, int64_t last) {
  int64_t shape[GA_MAXDIM];
  int nd = m->a->ndim - 2;
  memcpy(shape, m->a->shape, (size_t)nd * sizeof shape[0]);
  if (last >= 0) shape[nd++] = last;
  return ga_new_array(L, ga_ctx(L), dtype, nd, shape);
}

void *ga_sv_host(lua_State *L, size_t n) {
  return lua_newuserdatauv(L, n ? n : 1, 0);
}

int *ga_sv_info(lua_State *L, int64_t batch) {
  int64_t n = batch;
  ga_array *info = ga_new_array(L, ga_ctx(L), GA_INT32, 1, &n);
  return (int *)info->data;
}

/* Push the info of the first failing matrix and its 1-based batch index
** (0, 0 when none failed); synchronises the current stream. */
int ga_sv_push_info(lua_State *L, const int *dinfo, int64_t batch) {
  int *h = (int *)ga_sv_host(L, (size_t)batch * sizeof(int));
  ga_to_host(L, ga_ctx(L), h, dinfo, (size_t)batch * sizeof(int));
  lua_pop(L, 1);
  for (int64_t i = 0; i < batch; i++)
    if (h[i]) {
      lua_pushinteger(L, h[i]);
      lua_pushinteger(L, i + 1);
      return 2;
    }
  lua_pushinteger(L, 0);
  lua_pushinteger(L, 0);
  return 2;
}

ga_solver *ga_sv_handle(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  return (ga_solver *)ga_lib_handle(L, ctx, &ga_cusolver, ctx->stream);
}

/* ---------------------------------------------------------------------- */
/* LU                                                                     */
/* ---------------------------------------------------------------------- */

/* core.solver.getrf(A) -> ipiv (batch..., n), info, index. ipiv is int64 from
** cuSOLVER's loop, or int32 from cuBLAS's batched LU (small matrices):
** _getrs takes either, and both hold LAPACK's 1-based pivots. Which one
** factors a matrix depends on its size only, never on the batch around it:
** the two round differently, and a matrix must be singular (an exactly zero
** pivot) or not whether it comes alone or in a batch (issue 24). */
static int l_getrf(lua_State *L) {
  ga_svmat m;
  lua_settop(L, 1);
  ga_sv_mat(L, 1, &m, "linalg: getrf");
  if (m.rows != m.cols) ga_error(L, "linalg: getrf: square matrices only");
  int64_t n = m.rows;
  if (n > 0 && n <= GA_SV_SMALL_MAX && m.batch >= 1 && m.batch <= INT_MAX) {
    ga_array *ipiv = ga_sv_batch_array(L, &m, GA_INT32, n);          /* 2 */
    int *info = ga_sv_info(L, m.batch);                               /* 3 */
    ga_sv_getrf_batched(L, &m, (int *)ipiv->data, info);
    lua_pushvalue(L, 2);
    ga_sv_push_info(L, info, m.batch);
    return 3;
  }
  ga_solver *s = ga_sv_handle(L);
  ga_array *ipiv = ga_sv_batch_array(L, &m, GA_INT64, m.rows);        /* 2 */
  int *info = ga_sv_info(L, m.batch);                                 /* 3 */
  size_t dws = 0, hws = 0;
  ga_lib_check(L, &ga_cusolver, cusolverDnXgetrf_bufferSize(s->h, s->params, n, n, m.type, m.a->data, n, m.type, &dws, &hws),
               "linalg: cusolverDnXgetrf_bufferSize");
  void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
  void *hw = ga_sv_host(L, hws);
  for (int64_t b = 0; b < m.batch && n > 0; b++)
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXgetrf(s->h, s->params, n, n, m.type, m.a->data + b * m.step, n,
                                  (int64_t *)ipiv->data + b * n, m.type, dw, dws, hw, hws, info + b),
                 "linalg: cusolverDnXgetrf");
  lua_pushvalue(L, 2);
  if (n == 0) {
    lua_pushinteger(L, 0);
    lua_pushinteger(L, 0);
    return 3;
  }
  ga_sv_push_info(L, info, m.batch);
  return 3;
}

/* core.solver.getrs(LU, ipiv, B, trans): B (batch..., nrhs, n) solved in place */
static int l_getrs(lua_State *L) {
  ga_svmat a, b;
  ga_sv_mat(L, 1, &a, "linalg: getrs");
  ga_array *ipiv = ga_checkarray(L, 2);
  ga_sv_mat(L, 3, &b, "linalg: getrs");
  int trans = lua_toboolean(L, 4);
  if (a.a->dtype != b.a->dtype || a.batch != b.batch || b.rows != a.rows || a.rows != a.cols ||
      (ipiv->dtype != GA_INT64 && ipiv->dtype != GA_INT32) || ipiv->size != a.batch * a.rows ||
      !(ipiv->flags & GA_F_C))
    ga_error(L, "linalg: getrs: mismatched operands");
  ga_check_device(L, ga_ctx(L), ipiv, "linalg: getrs");
  int64_t n = a.rows;
  if (n == 0 || b.cols == 0) return 0;
  if (ipiv->dtype == GA_INT32) {   /* _getrf's batched LU */
    if (a.batch > INT_MAX || n > INT_MAX) ga_error(L, "linalg: getrs: mismatched operands");
    ga_sv_getrs_batched(L, &a, (const int *)ipiv->data, &b, trans);
    return 0;
  }
  ga_solver *s = ga_sv_handle(L);
  int *info = ga_sv_info(L, a.batch);
  for (int64_t i = 0; i < a.batch; i++)
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXgetrs(s->h, s->params, trans ? CUBLAS_OP_T : CUBLAS_OP_N, n, b.cols, a.type,
                                  a.a->data + i * a.step, n, (const int64_t *)ipiv->data + i * n, b.type,
                                  b.a->data + i * b.step, n, info + i),
                 "linalg: cusolverDnXgetrs");
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Cholesky                                                               */
/* ---------------------------------------------------------------------- */

/* core.solver.potrf(A, upper) -> info, index (A overwritten by the factor) */
static int l_potrf(lua_State *L) {
  ga_svmat m;
  ga_sv_mat(L, 1, &m, "linalg: potrf");
  cublasFillMode_t uplo = lua_toboolean(L, 2) ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  ga_solver *s = ga_sv_handle(L);
  int64_t n = m.rows;
  int *info = ga_sv_info(L, m.batch);
  if (n == 0) {
    lua_pushinteger(L, 0);
    lua_pushinteger(L, 0);
    return 2;
  }
  if (ga_sv_batched(&m, GA_SV_SMALL_MAX)) {
    ga_sv_potrf_batched(L, s, &m, uplo, info);
    return ga_sv_push_info(L, info, m.batch);
  }
  size_t dws = 0, hws = 0;
  ga_lib_check(L, &ga_cusolver, cusolverDnXpotrf_bufferSize(s->h, s->params, uplo, n, m.type, m.a->data, n, m.type, &dws, &hws),
               "linalg: cusolverDnXpotrf_bufferSize");
  void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
  void *hw = ga_sv_host(L, hws);
  for (int64_t b = 0; b < m.batch; b++)
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXpotrf(s->h, s->params, uplo, n, m.type, m.a->data + b * m.step, n, m.type, dw, dws, hw,
                                  hws, info + b),
                 "linalg: cusolverDnXpotrf");
  return ga_sv_push_info(L, info, m.batch);
}

/* ---------------------------------------------------------------------- */
/* QR                                                                     */
/* ---------------------------------------------------------------------- */

/* core.solver.geqrf(A) -> tau (batch..., min(m, n)); A holds R and reflectors */
static int l_geqrf(lua_State *L) {
  ga_svmat m;
  lua_settop(L, 1);
  ga_sv_mat(L, 1, &m, "linalg: geqrf");
  ga_solver *s = ga_sv_handle(L);
  int64_t k = m.rows < m.cols ? m.rows : m.cols;
  ga_array *tau = ga_sv_batch_array(L, &m, m.a->dtype, k);      /* 2 */
  int *info = ga_sv_info(L, m.batch);
  if (k == 0) {
    lua_pushvalue(L, 2);
    return 1;
  }
  size_t dws = 0, hws = 0;
  ga_lib_check(L, &ga_cusolver, cusolverDnXgeqrf_bufferSize(s->h, s->params, m.rows, m.cols, m.type, m.a->data, m.rows,
                                                            m.type, tau->data, m.type, &dws, &hws),
               "linalg: cusolverDnXgeqrf_bufferSize");
  void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
  void *hw = ga_sv_host(L, hws);
  int64_t tstep = k * (int64_t)ga_dtypes[m.a->dtype].itemsize;
  for (int64_t b = 0; b < m.batch; b++)
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXgeqrf(s->h, s->params, m.rows, m.cols, m.type, m.a->data + b * m.step, m.rows, m.type,
                                  tau->data + b * tstep, m.type, dw, dws, hw, hws, info + b),
                 "linalg: cusolverDnXgeqrf");
  lua_pushvalue(L, 2);
  return 1;
}

/* The typed orgqr/ungqr (the 64-bit API has none) */
static int orgqr_size(ga_solver *s, int t, int m, int n, int k, const void *A, const void *tau, int *lw) {
  switch (t) {
    case GA_FLOAT32: return (int)cusolverDnSorgqr_bufferSize(s->h, m, n, k, (const float *)A, m, (const float *)tau, lw);
    case GA_FLOAT64: return (int)cusolverDnDorgqr_bufferSize(s->h, m, n, k, (const double *)A, m, (const double *)tau, lw);
    case GA_COMPLEX64:
      return (int)cusolverDnCungqr_bufferSize(s->h, m, n, k, (const cuComplex *)A, m, (const cuComplex *)tau, lw);
    default:
      return (int)cusolverDnZungqr_bufferSize(s->h, m, n, k, (const cuDoubleComplex *)A, m,
                                              (const cuDoubleComplex *)tau, lw);
  }
}

static int orgqr(ga_solver *s, int t, int m, int n, int k, void *A, const void *tau, void *w, int lw, int *info) {
  switch (t) {
    case GA_FLOAT32: return (int)cusolverDnSorgqr(s->h, m, n, k, (float *)A, m, (const float *)tau, (float *)w, lw, info);
    case GA_FLOAT64:
      return (int)cusolverDnDorgqr(s->h, m, n, k, (double *)A, m, (const double *)tau, (double *)w, lw, info);
    case GA_COMPLEX64:
      return (int)cusolverDnCungqr(s->h, m, n, k, (cuComplex *)A, m, (const cuComplex *)tau, (cuComplex *)w, lw, info);
    default:
      return (int)cusolverDnZungqr(s->h, m, n, k, (cuDoubleComplex *)A, m, (const cuDoubleComplex *)tau,
                                   (cuDoubleComplex *)w, lw, info);
  }
}

/* core.solver.orgqr(A, tau): A (batch..., ncols, m) holds the reflectors in its
** first columns; overwritten by the first ncols columns of Q */
static int l_orgqr(lua_State *L) {
  ga_svmat m;
  ga_sv_mat(L, 1, &m, "linalg: orgqr");
  ga_array *tau = ga_checkarray(L, 2);
  int64_t k = tau->shape[tau->ndim - 1];
  if (m.rows > 0x7fffffff || m.cols > m.rows || k > m.cols || tau->dtype != m.a->dtype)
    ga_error(L, "linalg: orgqr: mismatched operands");
  if (m.cols == 0 || m.rows == 0) return 0;
  ga_solver *s = ga_sv_handle(L);
  int *info = ga_sv_info(L, m.batch);
  int lw = 0, t = m.a->dtype;
  ga_lib_check(L, &ga_cusolver, orgqr_size(s, t, (int)m.rows, (int)m.cols, (int)k, m.a->data, tau->data, &lw),
               "linalg: cusolverDn<t>orgqr_bufferSize");
  int64_t isz = ga_dtypes[t].itemsize;
  void *w = ga_lib_workspace(L, ga_ctx(L), (size_t)lw * (size_t)isz);
  for (int64_t b = 0; b < m.batch; b++)
    ga_lib_check(L, &ga_cusolver,
                 orgqr(s, t, (int)m.rows, (int)m.cols, (int)k, m.a->data + b * m.step, tau->data + b * k * isz, w, lw,
                       info + b),
                 "linalg: cusolverDn<t>orgqr");
  return 0;
}

/* ---------------------------------------------------------------------- */
/* symmetric / Hermitian eigenproblem                                     */
/* ---------------------------------------------------------------------- */

/* core.solver.syevd(A, upper, vectors) -> w (real, batch..., n), info, index;
** with vectors, A is overwritten by the eigenvectors (columns) */
static int l_syevd(lua_State *L) {
  ga_svmat m;
  ga_sv_mat(L, 1, &m, "linalg: syevd");
  if (m.rows != m.cols) ga_error(L, "linalg: syevd: square matrices only");
  cublasFillMode_t uplo = lua_toboolean(L, 2) ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  cusolverEigMode_t jobz = lua_toboolean(L, 3) ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  lua_settop(L, 3);
  ga_solver *s = ga_sv_handle(L);
  int64_t n = m.rows;
  cudaDataType wt = m.real == GA_FLOAT32 ? CUDA_R_32F : CUDA_R_64F;
  ga_array *w = ga_sv_batch_array(L, &m, m.real, n);        /* 4 */
  int *info = ga_sv_info(L, m.batch);
  if (n == 0) {
    lua_pushvalue(L, 4);
    lua_pushinteger(L, 0);
    lua_pushinteger(L, 0);
    return 3;
  }
  if (ga_sv_batched(&m, GA_SV_JACOBI_MAX)) {
    ga_sv_syevj_batched(L, s, &m, jobz, uplo, w->data, info);
    lua_pushvalue(L, 4);
    ga_sv_push_info(L, info, m.batch);
    return 3;
  }
  size_t dws = 0, hws = 0;
  ga_lib_check(L, &ga_cusolver,
               cusolverDnXsyevd_bufferSize(s->h, s->params, jobz, uplo, n, m.type, m.a->data, n, wt, w->data, m.type,
                                           &dws, &hws),
               "linalg: cusolverDnXsyevd_bufferSize");
  void *dw = ga_lib_workspace(L, ga_ctx(L), dws);
  void *hw = ga_sv_host(L, hws);
  int64_t wstep = n * (int64_t)ga_dtypes[m.real].itemsize;
  for (int64_t b = 0; b < m.batch; b++)
    ga_lib_check(L, &ga_cusolver,
                 cusolverDnXsyevd(s->h, s->params, jobz, uplo, n, m.type, m.a->data + b * m.step, n, wt,
                                  w->data + b * wstep, m.type, dw, dws, hw, hws, info + b),
                 "linalg: cusolverDnXsyevd");
  lua_pushvalue(L, 4);
  ga_sv_push_info(L, info, m.batch);
  return 3;
}

static const luaL_Reg solver_funcs_solver[] = {
  {"getrf", l_getrf},
  {"getrs", l_getrs},
  {"potrf", l_potrf},
  {"geqrf", l_geqrf},
  {"orgqr", l_orgqr},
  {"syevd", l_syevd},
  {NULL, NULL}
};

void ga_open_solver(lua_State *L) {
  ga_status_register(ga_cusolver.name, ga_cusolver.status);
  ga_setprivate(L, "solver", solver_funcs_solver);
}
