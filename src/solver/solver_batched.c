/*
** solver_batched.c: the libraries' batched routines, which solver.c and
** solver_svd.c call in place of their loop of single-matrix calls when a
** batch has more than one matrix and the matrices are small (solver.h has
** the limits; docs/linalg.md the table):
**   LU           cuBLAS <t>getrfBatched / <t>getrsBatched (n <= GA_SV_SMALL_MAX,
**                a single matrix too: an LU must not depend on the batch)
**   Cholesky     cuSOLVER <t>potrfBatched                 (n <= GA_SV_SMALL_MAX)
**   eigh         cuSOLVER <t>syevjBatched / heevjBatched  (n <= GA_SV_JACOBI_MAX)
**   SVD (gesvdj) cuSOLVER <t>gesvdjBatched                (m, n <= GA_SV_JACOBI_MAX)
** One launch for the whole batch instead of one (or several) per matrix.
** The pointer-array routines get their array of matrix addresses from the
** arange kernel (int64 base + i * step, computed on the device: no host
** staging, so graph capture still works); every temporary is a pool array
** on the Lua stack, released by the collector on any error.
*/
#include <limits.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include "solver/solver.h"

int ga_sv_batched(const ga_svmat *m, int64_t max) {
  return m->batch > 1 && m->batch <= INT_MAX && m->rows <= max && m->cols <= max;
}

/* A device array (pushed) of the batch's matrix addresses: base + i * step */
static void *sv_ptrs(lua_State *L, char *base, int64_t step, int64_t batch) {
  ga_state *ctx = ga_ctx(L);
  ga_array *p = ga_new_array(L, ctx, GA_INT64, 1, &batch);
  ga_arange_fill(L, ctx, p, 0, 0, (int64_t)(intptr_t)base, step, 1, 0, 0);
  return p->data;
}

static cublasHandle_t sv_blas(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  return (cublasHandle_t)ga_lib_handle(L, ctx, &ga_cublas, ctx->stream);
}

/* ---------------------------------------------------------------------- */
/* LU: cuBLAS                                                             */
/* ---------------------------------------------------------------------- */

void ga_sv_getrf_batched(lua_State *L, const ga_svmat *m, int *ipiv, int *info) {
  cublasHandle_t h = sv_blas(L);
  int n = (int)m->rows, nb = (int)m->batch, st;
  void *A = sv_ptrs(L, m->a->data, m->step, m->batch);
  switch (m->a->dtype) {
    case GA_FLOAT32: st = (int)cublasSgetrfBatched(h, n, (float *const *)A, n, ipiv, info, nb); break;
    case GA_FLOAT64: st = (int)cublasDgetrfBatched(h, n, (double *const *)A, n, ipiv, info, nb); break;
    case GA_COMPLEX64: st = (int)cublasCgetrfBatched(h, n, (cuComplex *const *)A, n, ipiv, info, nb); break;
    default: st = (int)cublasZgetrfBatched(h, n, (cuDoubleComplex *const *)A, n, ipiv, info, nb); break;
  }
  ga_lib_check(L, &ga_cublas, st, "linalg: cublas<t>getrfBatched");
  lua_pop(L, 1);   /* the pointer array: its block is reused in stream order, after this call */
}

void ga_sv_getrs_batched(lua_State *L, const ga_svmat *a, const int *ipiv, const ga_svmat *b, int trans) {
  if (b->cols > INT_MAX) ga_error(L, "linalg: getrs: more than 2^31 - 1 right-hand sides");
  cublasHandle_t h = sv_blas(L);
  cublasOperation_t op = trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  int n = (int)a->rows, k = (int)b->cols, nb = (int)a->batch, st, bad = 0;
  void *A = sv_ptrs(L, a->a->data, a->step, a->batch);
  void *B = sv_ptrs(L, b->a->data, b->step, b->batch);
  switch (a->a->dtype) {
    case GA_FLOAT32:
      st = (int)cublasSgetrsBatched(h, op, n, k, (const float *const *)A, n, ipiv, (float *const *)B, n, &bad, nb);
      break;
    case GA_FLOAT64:
      st = (int)cublasDgetrsBatched(h, op, n, k, (const double *const *)A, n, ipiv, (double *const *)B, n, &bad, nb);
      break;
    case GA_COMPLEX64:
      st = (int)cublasCgetrsBatched(h, op, n, k, (const cuComplex *const *)A, n, ipiv, (cuComplex *const *)B, n, &bad,
                                    nb);
      break;
    default:
      st = (int)cublasZgetrsBatched(h, op, n, k, (const cuDoubleComplex *const *)A, n, ipiv,
                                    (cuDoubleComplex *const *)B, n, &bad, nb);
      break;
  }
  ga_lib_check(L, &ga_cublas, st, "linalg: cublas<t>getrsBatched");
  /* getrsBatched's info is one host int: only invalid parameters (-j) */
  if (bad) ga_error(L, "linalg: cublas<t>getrsBatched: parameter %d is invalid", -bad);
  lua_pop(L, 2);
}

/* ---------------------------------------------------------------------- */
/* Cholesky: cuSOLVER potrfBatched                                        */
/* ---------------------------------------------------------------------- */

void ga_sv_potrf_batched(lua_State *L, ga_solver *s, const ga_svmat *m, cublasFillMode_t uplo, int *info) {
  int n = (int)m->rows, nb = (int)m->batch, st;
  void *A = sv_ptrs(L, m->a->data, m->step, m->batch);
  switch (m->a->dtype) {
    case GA_FLOAT32: st = (int)cusolverDnSpotrfBatched(s->h, uplo, n, (float **)A, n, info, nb); break;
    case GA_FLOAT64: st = (int)cusolverDnDpotrfBatched(s->h, uplo, n, (double **)A, n, info, nb); break;
    case GA_COMPLEX64: st = (int)cusolverDnCpotrfBatched(s->h, uplo, n, (cuComplex **)A, n, info, nb); break;
    default: st = (int)cusolverDnZpotrfBatched(s->h, uplo, n, (cuDoubleComplex **)A, n, info, nb); break;
  }
  ga_lib_check(L, &ga_cusolver, st, "linalg: cusolverDn<t>potrfBatched");
  lua_pop(L, 1);
}

/* ---------------------------------------------------------------------- */
/* symmetric / Hermitian eigenproblem: syevjBatched                      */
/* ---------------------------------------------------------------------- */

/* typed entry points only: one switch for the size query, one for the
** call, through these macros (R: the real type of the eigenvalues) */
#define SYEVJ_SIZE(P, T) \
  cusolverDn##P##Batched_bufferSize(s->h, jobz, uplo, n, (const T *)A, n, (const R *)W, &lw, s->syevj, nb)
#define SYEVJ_RUN(P, T) \
  cusolverDn##P##Batched(s->h, jobz, uplo, n, (T *)A, n, (R *)W, (T *)w, lw, info, s->syevj, nb)

void ga_sv_syevj_batched(lua_State *L, ga_solver *s, const ga_svmat *m, cusolverEigMode_t jobz,
                         cublasFillMode_t uplo, void *W, int *info) {
  int n = (int)m->rows, nb = (int)m->batch, lw = 0, st, t = m->a->dtype;
  void *A = m->a->data;
  if (t == GA_FLOAT32 || t == GA_COMPLEX64) {
    typedef float R;
    st = t == GA_FLOAT32 ? (int)SYEVJ_SIZE(Ssyevj, float) : (int)SYEVJ_SIZE(Cheevj, cuComplex);
  } else {
    typedef double R;
    st = t == GA_FLOAT64 ? (int)SYEVJ_SIZE(Dsyevj, double) : (int)SYEVJ_SIZE(Zheevj, cuDoubleComplex);
  }
  ga_lib_check(L, &ga_cusolver, st, "linalg: cusolverDn<t>syevjBatched_bufferSize");
  void *w = ga_lib_workspace(L, ga_ctx(L), (size_t)lw * (size_t)ga_dtypes[t].itemsize);
  if (t == GA_FLOAT32 || t == GA_COMPLEX64) {
    typedef float R;
    st = t == GA_FLOAT32 ? (int)SYEVJ_RUN(Ssyevj, float) : (int)SYEVJ_RUN(Cheevj, cuComplex);
  } else {
    typedef double R;
    st = t == GA_FLOAT64 ? (int)SYEVJ_RUN(Dsyevj, double) : (int)SYEVJ_RUN(Zheevj, cuDoubleComplex);
  }
  ga_lib_check(L, &ga_cusolver, st, "linalg: cusolverDn<t>syevjBatched");
  if (w) lua_pop(L, 1);
}

/* ---------------------------------------------------------------------- */
/* SVD: gesvdjBatched                                                     */
/* ---------------------------------------------------------------------- */

#define GESVDJB_SIZE(P, T)                                                                                     \
  cusolverDn##P##gesvdjBatched_bufferSize(s->h, jobz, m, n, (const T *)A, m, (const R *)S, (const T *)Uf, m, \
                                          (const T *)V, n, &lw, s->jacobi, nb)
#define GESVDJB_RUN(P, T)                                                                                   \
  cusolverDn##P##gesvdjBatched(s->h, jobz, m, n, (T *)A, m, (R *)S, (T *)Uf, m, (T *)V, n, (T *)w, lw, info, \
                               s->jacobi, nb)

/* a (column-major m x n, m >= n) overwritten; S (batch, n); U (batch, ucols,
** m) with ucols m or n; V (batch, n, n). gesvdjBatched computes the full
** m x m U only (no economy mode): with ucols < m it goes to a pool array
** and its first ucols columns are copied into U. */
void ga_sv_gesvdj_batched(lua_State *L, ga_solver *s, const ga_svmat *a, cusolverEigMode_t jobz, void *S,
                          char *U, int64_t ucols, void *V, int *info) {
  ga_state *ctx = ga_ctx(L);
  int m = (int)a->rows, n = (int)a->cols, nb = (int)a->batch, lw = 0, st, t = a->a->dtype;
  size_t isz = (size_t)ga_dtypes[t].itemsize;
  void *A = a->a->data;
  int pushed = 0;
  char *Uf = U;
  if (jobz == CUSOLVER_EIG_MODE_VECTOR && ucols < m) {
    Uf = (char *)ga_lib_workspace(L, ctx, (size_t)m * (size_t)m * (size_t)nb * isz);
    pushed++;
  }
  if (t == GA_FLOAT32 || t == GA_COMPLEX64) {
    typedef float R;
    st = t == GA_FLOAT32 ? (int)GESVDJB_SIZE(S, float) : (int)GESVDJB_SIZE(C, cuComplex);
  } else {
    typedef double R;
    st = t == GA_FLOAT64 ? (int)GESVDJB_SIZE(D, double) : (int)GESVDJB_SIZE(Z, cuDoubleComplex);
  }
  ga_lib_check(L, &ga_cusolver, st, "linalg.svd: cusolverDn<t>gesvdjBatched_bufferSize");
  void *w = ga_lib_workspace(L, ctx, (size_t)lw * isz);
  if (w) pushed++;
  if (t == GA_FLOAT32 || t == GA_COMPLEX64) {
    typedef float R;
    st = t == GA_FLOAT32 ? (int)GESVDJB_RUN(S, float) : (int)GESVDJB_RUN(C, cuComplex);
  } else {
    typedef double R;
    st = t == GA_FLOAT64 ? (int)GESVDJB_RUN(D, double) : (int)GESVDJB_RUN(Z, cuDoubleComplex);
  }
  ga_lib_check(L, &ga_cusolver, st, "linalg.svd: cusolverDn<t>gesvdjBatched");
  if (Uf != U) {
    /* the first ucols columns of each m x m U: a leading block of ucols * m
    ** elements, one row of a 2-D copy per matrix */
    size_t width = (size_t)ucols * (size_t)m * isz, pitch = (size_t)m * (size_t)m * isz;
    ga_cuda_check(L, cudaMemcpy2DAsync(U, width, Uf, pitch, width, (size_t)nb, cudaMemcpyDeviceToDevice, ctx->stream),
                  "linalg.svd: cudaMemcpy2DAsync");
  }
  lua_pop(L, pushed);
}
