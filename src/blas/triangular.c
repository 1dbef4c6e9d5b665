/*
** triangular.c: triangular solves through cuBLAS's trsm, for
** scipy.linalg.solve_triangular, cho_solve and lu-based solves:
**   core._trsm(A, B, lower, trans, unit)     B overwritten by X
** A (batch..., n, n) and B (batch..., n, k) are C-contiguous row-major
** arrays of one dtype (float32, float64, complex64, complex128) and one
** batch (Lua broadcasts). The solve is op(A) X = B with op = trans (0: A,
** 1: A^T, 2: A^H), A lower or upper triangular, unit: its diagonal taken
** as ones.
**
** Row-major memory is the column-major transpose, so B's memory is the
** k x n column-major B^T and A's is A^T: X^T = B^T op(A)^-T, which is
** trsm's right-side solve on A^T with the same op and the other triangle.
** One matrix after another on the current stream (trsm has no info: a
** zero on the diagonal gives inf/NaN, as LAPACK's trtrs would raise for;
** Lua checks the diagonal first).
*/
#include <limits.h>
#include <cublas_v2.h>

#include "blas/blas.h"

static int trsm_one(cublasHandle_t h, int t, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag,
                    int m, int n, const void *A, void *B) {
  static const float onef[2] = {1, 0};
  static const double oned[2] = {1, 0};
  cublasSideMode_t side = CUBLAS_SIDE_RIGHT;
  switch (t) {
    case GA_FLOAT32:
      return (int)cublasStrsm(h, side, uplo, op, diag, m, n, onef, (const float *)A, n, (float *)B, m);
    case GA_FLOAT64:
      return (int)cublasDtrsm(h, side, uplo, op, diag, m, n, oned, (const double *)A, n, (double *)B, m);
    case GA_COMPLEX64:
      return (int)cublasCtrsm(h, side, uplo, op, diag, m, n, (const cuComplex *)onef, (const cuComplex *)A, n,
                              (cuComplex *)B, m);
    default:
      return (int)cublasZtrsm(h, side, uplo, op, diag, m, n, (const cuDoubleComplex *)oned,
                              (const cuDoubleComplex *)A, n, (cuDoubleComplex *)B, m);
  }
}

static int l_trsm(lua_State *L) {
  const char *fname = "scipy.linalg.solve_triangular";
  ga_state *ctx = ga_ctx(L);
  ga_array *a = ga_checkarray(L, 1), *b = ga_checkarray(L, 2);
  int lower = lua_toboolean(L, 3);
  int trans = (int)luaL_optinteger(L, 4, 0);
  int unit = lua_toboolean(L, 5);
  int t = a->dtype;
  if (t != GA_FLOAT32 && t != GA_FLOAT64 && t != GA_COMPLEX64 && t != GA_COMPLEX128)
    ga_error(L, "%s: float32, float64, complex64 or complex128, got %s", fname, ga_dtypes[t].name);
  if (b->dtype != t || a->ndim < 2 || b->ndim != a->ndim || !(a->flags & GA_F_C) || !(b->flags & GA_F_C))
    ga_error(L, "%s: internal: mismatched operands", fname);
  int nd = a->ndim;
  int64_t n = a->shape[nd - 1], k = b->shape[nd - 1], batch = 1;
  if (a->shape[nd - 2] != n || b->shape[nd - 2] != n) ga_error(L, "%s: internal: mismatched operands", fname);
  for (int i = 0; i < nd - 2; i++) {
    if (a->shape[i] != b->shape[i]) ga_error(L, "%s: internal: mismatched batches", fname);
    batch *= a->shape[i];
  }
  if (n > INT_MAX || k > INT_MAX) ga_error(L, "%s: matrices past 2^31 - 1 rows or columns", fname);
  ga_check_device(L, ctx, a, fname);
  ga_check_device(L, ctx, b, fname);
  if (n == 0 || k == 0 || batch == 0) return 0;
  cublasHandle_t h = (cublasHandle_t)ga_lib_handle(L, ctx, &ga_cublas, ctx->stream);
  ga_lib_check(L, &ga_cublas, cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "trsm: cublasSetPointerMode");
  cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  cublasOperation_t op = trans == 1 ? CUBLAS_OP_T : trans == 2 ? CUBLAS_OP_C : CUBLAS_OP_N;
  cublasDiagType_t diag = unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  int64_t isz = ga_dtypes[t].itemsize;
  int64_t astep = n * n * isz, bstep = n * k * isz;
  for (int64_t i = 0; i < batch; i++)
    ga_lib_check(L, &ga_cublas,
                 trsm_one(h, t, uplo, op, diag, (int)k, (int)n, a->data + i * astep, b->data + i * bstep),
                 "trsm: cublas<t>trsm");
  return 0;
}

static const luaL_Reg triangular_funcs[] = {
  {"trsm", l_trsm},
  {NULL, NULL}
};

void ga_open_triangular(lua_State *L) {
  ga_setprivate(L, "blas", triangular_funcs);
}
