/*
** solver.h: cuSOLVER, the device side of ga.linalg's factorisations
** (solver.c: LU, Cholesky, QR, eigh; solver_svd.c: SVD; solver_batched.c:
** batches of small matrices, some through cuBLAS's batched routines).
*/
/* feature: solver — uses: blas */
#ifndef GA_SOLVER_H
#define GA_SOLVER_H

#include <cusolverDn.h>

#include "blas/blas.h"

/* solver.c: the cuSOLVER handle (with the parameter objects its calls
** take, made once per handle) and the factorisations */
typedef struct {
  cusolverDnHandle_t h;
  cusolverDnParams_t params;    /* the 64-bit API's (default algorithms) */
  gesvdjInfo_t jacobi;          /* gesvdj's (default tolerance and sweeps) */
  syevjInfo_t syevj;            /* syevjBatched's (default tolerance and sweeps, sorted) */
} ga_solver;
extern const ga_libdesc ga_cusolver;
void ga_open_solver(lua_State *L);
void ga_open_solver_svd(lua_State *L);

/* A batch of column-major matrices at a stack index (solver.c says how) */
typedef struct {
  ga_array *a;
  int64_t rows, cols, batch;
  int64_t step;                 /* bytes from one matrix to the next */
  cudaDataType type;
  int real;                     /* the real dtype of its values */
} ga_svmat;
void ga_sv_mat(lua_State *L, int idx, ga_svmat *m, const char *fname);
ga_array *ga_sv_batch_array(lua_State *L, const ga_svmat *m, int dtype, int64_t last);  /* pushed */
void *ga_sv_host(lua_State *L, size_t n);          /* pushed userdata: host workspace */
int *ga_sv_info(lua_State *L, int64_t batch);     /* pushed int32 device array */
int ga_sv_push_info(lua_State *L, const int *dinfo, int64_t batch);  /* info, index */
ga_solver *ga_sv_handle(lua_State *L);

/* solver_batched.c: the batched routines that replace the loop when a batch
** has more than one matrix (at most INT_MAX) and its matrices have at most
** max rows and columns: the Jacobi ones (syevjBatched, gesvdjBatched) up to
** their documented limit, cuBLAS's LU and potrfBatched up to a size where
** they are meant to beat one call per matrix (not measured yet). */
#define GA_SV_JACOBI_MAX 32
#define GA_SV_SMALL_MAX 64
int ga_sv_batched(const ga_svmat *m, int64_t max);
/* LU of every matrix of m (square) with int32 pivots (batch, n) */
void ga_sv_getrf_batched(lua_State *L, const ga_svmat *m, int *ipiv, int *info);
/* b (batch, nrhs, n) solved in place from a's LU and its int32 pivots */
void ga_sv_getrs_batched(lua_State *L, const ga_svmat *a, const int *ipiv, const ga_svmat *b, int trans);
void ga_sv_potrf_batched(lua_State *L, ga_solver *s, const ga_svmat *m, cublasFillMode_t uplo, int *info);
/* eigenvalues ascending into W (batch, n); eigenvectors over m with jobz */
void ga_sv_syevj_batched(lua_State *L, ga_solver *s, const ga_svmat *m, cusolverEigMode_t jobz,
                         cublasFillMode_t uplo, void *W, int *info);
/* S descending (batch, n); U (batch, ucols, m); V (batch, n, n); m >= n */
void ga_sv_gesvdj_batched(lua_State *L, ga_solver *s, const ga_svmat *a, cusolverEigMode_t jobz, void *S,
                          char *U, int64_t ucols, void *V, int *info);

#endif
