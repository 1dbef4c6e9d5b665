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

/* matmul.c: core._matmul (cuBLAS GEMM, integer GEMM kernel), _diag_view */
void ga_open_matmul(lua_State *L);

/* solver.c: the cuSOLVER handle (with the parameter objects its calls
** take, made once per handle) and the factorisations */
typedef struct {
  cusolverDnHandle_t h;
  cusolverDnParams_t params;    /* the 64-bit API's (default algorithms) */
  gesvdjInfo_t jacobi;          /* gesvdj's (default tolerance and sweeps) */
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

/* sparse.c: cuSPARSE (SpMV, SpMM, SpGEMM) for ga.sparse */
extern const ga_libdesc ga_cusparse;
void ga_open_sparse(lua_State *L);

#endif
