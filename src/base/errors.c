/*
** errors.c: every error the module raises starts "gpuarray: " and names the
** function; a failed call of CUDA or a CUDA library adds the status's name.
*/
#include <stdarg.h>
#include <stdio.h>

#include "base/base.h"

int ga_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushstring(L, "gpuarray: ");
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

void ga_cuda_check(lua_State *L, cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  (void)cudaGetLastError();   /* clear a non-sticky error so the next call starts clean */
  ga_error(L, "%s: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

/* ===================================================================== */
/* status domains                                                        */
/* ===================================================================== */

/* The CUDA libraries' status codes by name. Only cuBLAS and cuSPARSE name
** their own codes (and NCCL is loaded on first use), so the names live here
** once, from the toolkit headers' enums; an unknown code prints as a number. */
typedef struct { int code; const char *name; } status_name;

static const status_name cublas_names[] = {
  {1, "CUBLAS_STATUS_NOT_INITIALIZED"}, {3, "CUBLAS_STATUS_ALLOC_FAILED"},
  {7, "CUBLAS_STATUS_INVALID_VALUE"}, {8, "CUBLAS_STATUS_ARCH_MISMATCH"},
  {11, "CUBLAS_STATUS_MAPPING_ERROR"}, {13, "CUBLAS_STATUS_EXECUTION_FAILED"},
  {14, "CUBLAS_STATUS_INTERNAL_ERROR"}, {15, "CUBLAS_STATUS_NOT_SUPPORTED"},
  {16, "CUBLAS_STATUS_LICENSE_ERROR"}, {0, NULL}};
static const status_name cusolver_names[] = {
  {1, "CUSOLVER_STATUS_NOT_INITIALIZED"}, {2, "CUSOLVER_STATUS_ALLOC_FAILED"},
  {3, "CUSOLVER_STATUS_INVALID_VALUE"}, {4, "CUSOLVER_STATUS_ARCH_MISMATCH"},
  {5, "CUSOLVER_STATUS_MAPPING_ERROR"}, {6, "CUSOLVER_STATUS_EXECUTION_FAILED"},
  {7, "CUSOLVER_STATUS_INTERNAL_ERROR"}, {8, "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
  {9, "CUSOLVER_STATUS_NOT_SUPPORTED"}, {10, "CUSOLVER_STATUS_ZERO_PIVOT"},
  {11, "CUSOLVER_STATUS_INVALID_LICENSE"}, {31, "CUSOLVER_STATUS_INVALID_WORKSPACE"}, {0, NULL}};
static const status_name cufft_names[] = {
  {1, "CUFFT_INVALID_PLAN"}, {2, "CUFFT_ALLOC_FAILED"}, {3, "CUFFT_INVALID_TYPE"},
  {4, "CUFFT_INVALID_VALUE"}, {5, "CUFFT_INTERNAL_ERROR"}, {6, "CUFFT_EXEC_FAILED"},
  {7, "CUFFT_SETUP_FAILED"}, {8, "CUFFT_INVALID_SIZE"}, {9, "CUFFT_UNALIGNED_DATA"},
  {11, "CUFFT_INVALID_DEVICE"}, {13, "CUFFT_NO_WORKSPACE"}, {14, "CUFFT_NOT_IMPLEMENTED"},
  {16, "CUFFT_NOT_SUPPORTED"}, {0, NULL}};
static const status_name curand_names[] = {
  {100, "CURAND_STATUS_VERSION_MISMATCH"}, {101, "CURAND_STATUS_NOT_INITIALIZED"},
  {102, "CURAND_STATUS_ALLOCATION_FAILED"}, {103, "CURAND_STATUS_TYPE_ERROR"},
  {104, "CURAND_STATUS_OUT_OF_RANGE"}, {105, "CURAND_STATUS_LENGTH_NOT_MULTIPLE"},
  {106, "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED"}, {201, "CURAND_STATUS_LAUNCH_FAILURE"},
  {202, "CURAND_STATUS_PREEXISTING_FAILURE"}, {203, "CURAND_STATUS_INITIALIZATION_FAILED"},
  {204, "CURAND_STATUS_ARCH_MISMATCH"}, {999, "CURAND_STATUS_INTERNAL_ERROR"}, {0, NULL}};
static const status_name cusparse_names[] = {
  {1, "CUSPARSE_STATUS_NOT_INITIALIZED"}, {2, "CUSPARSE_STATUS_ALLOC_FAILED"},
  {3, "CUSPARSE_STATUS_INVALID_VALUE"}, {4, "CUSPARSE_STATUS_ARCH_MISMATCH"},
  {5, "CUSPARSE_STATUS_MAPPING_ERROR"}, {6, "CUSPARSE_STATUS_EXECUTION_FAILED"},
  {7, "CUSPARSE_STATUS_INTERNAL_ERROR"}, {8, "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
  {9, "CUSPARSE_STATUS_ZERO_PIVOT"}, {10, "CUSPARSE_STATUS_NOT_SUPPORTED"},
  {11, "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES"}, {0, NULL}};
static const status_name nccl_names[] = {
  {1, "ncclUnhandledCudaError"}, {2, "ncclSystemError"}, {3, "ncclInternalError"},
  {4, "ncclInvalidArgument"}, {5, "ncclInvalidUsage"}, {6, "ncclRemoteError"},
  {7, "ncclInProgress"}, {0, NULL}};

const char *ga_status_name(ga_domain dom, int status) {
  static const status_name *const tables[] = {NULL, NULL, cublas_names, cusolver_names, cufft_names,
                                              curand_names, cusparse_names, nccl_names};
  if (dom == GA_DOM_CUDA) return cudaGetErrorName((cudaError_t)status);
  if (dom < 0 || dom >= GA_NDOMAINS || !tables[dom]) return NULL;
  for (const status_name *n = tables[dom]; n->name; n++)
    if (n->code == status) return n->name;
  return NULL;
}

void ga_status_check(lua_State *L, ga_domain dom, int status, const char *what) {
  if (status == 0) return;
  if (dom == GA_DOM_CUDA) ga_cuda_check(L, (cudaError_t)status, what);
  const char *name = ga_status_name(dom, status);
  if (name) ga_error(L, "%s: %s", what, name);
  ga_error(L, "%s: status %d", what, status);
}
