/*
** libs.h: the CUDA libraries (cuBLAS, cuSOLVER, cuFFT, cuRAND, cuSPARSE;
** NCCL later, loaded on first use). Every library reaches its handle the
** same way: one handle per library, device and Lua state (a lua_State runs
** on one thread at a time, so a handle is never used by two threads at
** once), created on first use, bound to the current stream before each
** call, destroyed with the state. Status codes become gpuarray errors
** naming the call (base/errors.c has the names); workspaces come from the
** memory pool as ordinary arrays, so the collector frees them on any error.
*/
#ifndef GA_LIBS_H
#define GA_LIBS_H

#include <cusolverDn.h>

#include "engine/engine.h"

/* What the handle home needs to know of one library. Status 0 is success
** in every library. */
typedef struct {
  const char *name;                         /* "cuBLAS": error messages */
  ga_domain domain;                         /* its status names */
  int (*create)(void **handle);
  int (*destroy)(void *handle);
  int (*set_stream)(void *handle, cudaStream_t s);   /* NULL: the library has no stream */
} ga_libdesc;

/* The library's handle for ctx's current device in this Lua state, bound
** to stream (the current stream: ctx->stream). The device is entered. */
void *ga_lib_handle(lua_State *L, ga_state *ctx, const ga_libdesc *lib, cudaStream_t stream);

/* Raise "gpuarray: <call>: <status name>" unless status is 0 */
#define ga_lib_check(L, lib, status, call) ga_status_check((L), (lib)->domain, (int)(status), (call))

/* A workspace of nbytes from the pool, pushed as a uint8 array (released
** by the collector, or at once with ga_array_release). NULL for 0 bytes
** (nothing pushed then either: the stack is left as it was). */
void *ga_lib_workspace(lua_State *L, ga_state *ctx, size_t nbytes);

/* blas.c */
extern const ga_libdesc ga_cublas;
void ga_open_blas(lua_State *L);
void ga_open_triangular(lua_State *L);     /* triangular.c: trsm */

/* matmul.c: core._matmul (cuBLAS GEMM, integer GEMM kernel), _diag_view */
void ga_open_matmul(lua_State *L);

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
void ga_open_solver_geev(lua_State *L);    /* solver_geev.c: the general eigenproblem */

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
/* fft.c, fft_plans.c: cuFFT with a per-device plan cache */
void ga_open_fft(lua_State *L);

/* What a plan is: a cufftType, 1 to 3 dims (C order) and a batch count,
** in cuFFT's basic layout (contiguous, one transform after another). */
typedef struct {
  int type, rank;
  long long dims[3];
  long long batch;
} ga_fftkey;
typedef struct ga_fftplan ga_fftplan;
/* The plan for key on ctx's device (entered), from the cache or made now,
** pinned until ga_fftplan_release; *work: the bytes its work area needs */
ga_fftplan *ga_fftplan_acquire(lua_State *L, ga_state *ctx, const ga_fftkey *key, size_t *work);
void ga_fftplan_release(ga_fftplan *p);
/* Bind stream and work area and launch; 0 or a cuFFT status (never raises) */
int ga_fftplan_exec(ga_fftplan *p, cudaStream_t s, void *work, void *in, void *out, int direction);
void ga_fftplan_info(int device, int *size, int *max, uint64_t *hits, uint64_t *misses);
void ga_fftplan_set_size(int device, int max);

/* nccl_load.c: NCCL, loaded on first use (the module never links it).
** Its ABI, declared here so nccl.h is not needed to build. */
typedef struct { char internal[128]; } ga_nccl_id;
typedef struct ncclComm *ga_nccl_comm;
enum { GA_NCCL_INT8, GA_NCCL_UINT8, GA_NCCL_INT32, GA_NCCL_UINT32, GA_NCCL_INT64, GA_NCCL_UINT64,
       GA_NCCL_FLOAT16, GA_NCCL_FLOAT32, GA_NCCL_FLOAT64 };
enum { GA_NCCL_SUM, GA_NCCL_PROD, GA_NCCL_MAX, GA_NCCL_MIN, GA_NCCL_AVG };
typedef struct {
  int (*get_version)(int *version);
  int (*get_unique_id)(ga_nccl_id *id);
  int (*comm_init_rank)(ga_nccl_comm *comm, int nranks, ga_nccl_id id, int rank);
  int (*comm_init_all)(ga_nccl_comm *comms, int ndev, const int *devlist);
  int (*comm_destroy)(ga_nccl_comm comm);
  int (*comm_abort)(ga_nccl_comm comm);
  int (*comm_count)(ga_nccl_comm comm, int *count);
  int (*comm_cu_device)(ga_nccl_comm comm, int *device);
  int (*comm_user_rank)(ga_nccl_comm comm, int *rank);
  int (*comm_get_async_error)(ga_nccl_comm comm, int *error);
  const char *(*get_error_string)(int status);
  const char *(*get_last_error)(ga_nccl_comm comm);
  int (*all_reduce)(const void *send, void *recv, size_t count, int type, int op, ga_nccl_comm comm,
                    cudaStream_t s);
  int (*reduce)(const void *send, void *recv, size_t count, int type, int op, int root, ga_nccl_comm comm,
                cudaStream_t s);
  int (*broadcast)(const void *send, void *recv, size_t count, int type, int root, ga_nccl_comm comm,
                   cudaStream_t s);
  int (*all_gather)(const void *send, void *recv, size_t sendcount, int type, ga_nccl_comm comm,
                    cudaStream_t s);
  int (*reduce_scatter)(const void *send, void *recv, size_t recvcount, int type, int op,
                        ga_nccl_comm comm, cudaStream_t s);
  int (*send)(const void *buf, size_t count, int type, int peer, ga_nccl_comm comm, cudaStream_t s);
  int (*recv)(void *buf, size_t count, int type, int peer, ga_nccl_comm comm, cudaStream_t s);
  int (*group_start)(void);
  int (*group_end)(void);
} ga_nccl_api;
/* The loaded library, or NULL with *reason saying why (never raises) */
const ga_nccl_api *ga_nccl_try(const char **reason);
/* The loaded library, or raise "<fname>: NCCL is not available: <why>" */
const ga_nccl_api *ga_nccl(lua_State *L, const char *fname);
/* Raise "<fname>: <call> failed: <status> (<NCCL's last error>)" unless
** status is ncclSuccess; comm may be NULL */
void ga_nccl_check(lua_State *L, int status, ga_nccl_comm comm, const char *fname, const char *call);
/* nccl.c: ga.nccl's communicators and collectives (core._nccl) */
void ga_open_nccl(lua_State *L);

/* sparse.c: cuSPARSE (SpMV, SpMM, SpGEMM) for ga.sparse */
extern const ga_libdesc ga_cusparse;
void ga_open_sparse(lua_State *L);
/* sparse_solve.c: sparse direct solvers (cuSOLVER sparse Cholesky, QR, LU; SpSV; ILU(0)) */
void ga_open_sparse_solve(lua_State *L);

#endif
