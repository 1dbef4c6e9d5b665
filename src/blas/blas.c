/*
** blas.c: cuBLAS through the handle home. The library's description, and
** the first call made through it: a dot product of two contiguous float32
** or float64 vectors into a 0-d array, the result written on the device
** (pointer mode device: no synchronisation). GEMM lives in matmul.c.
*/
#include <cublas_v2.h>

#include "blas/blas.h"

static int blas_create(void **h) { return (int)cublasCreate((cublasHandle_t *)h); }
static int blas_destroy(void *h) { return (int)cublasDestroy((cublasHandle_t)h); }
/* The pointer mode is set by each call (a cheap field store): GEMM takes
** alpha and beta from the host, dot-like calls write results on the device. */
static int blas_set_stream(void *h, cudaStream_t s) { return (int)cublasSetStream((cublasHandle_t)h, s); }

/* From cublas_api.h's cublasStatus_t */
static const ga_statusname cublas_status[] = {
  {1, "CUBLAS_STATUS_NOT_INITIALIZED"}, {3, "CUBLAS_STATUS_ALLOC_FAILED"},
  {7, "CUBLAS_STATUS_INVALID_VALUE"}, {8, "CUBLAS_STATUS_ARCH_MISMATCH"},
  {11, "CUBLAS_STATUS_MAPPING_ERROR"}, {13, "CUBLAS_STATUS_EXECUTION_FAILED"},
  {14, "CUBLAS_STATUS_INTERNAL_ERROR"}, {15, "CUBLAS_STATUS_NOT_SUPPORTED"},
  {16, "CUBLAS_STATUS_LICENSE_ERROR"}, {0, NULL}};

const ga_libdesc ga_cublas = {"cuBLAS", cublas_status, blas_create, blas_destroy, blas_set_stream};

/* core._test.blas_dot(x, y) -> 0-d array: x . y for contiguous 1-D float32 or
** float64 vectors of one dtype */
static int l_blas_dot(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *x = ga_readarray(L, 1), *y = ga_readarray(L, 2);
  if (x->dtype != y->dtype || (x->dtype != GA_FLOAT32 && x->dtype != GA_FLOAT64))
    ga_error(L, "_blas_dot: float32 or float64 vectors of one dtype, got %s and %s", ga_dtypes[x->dtype].name,
             ga_dtypes[y->dtype].name);
  if (x->ndim != 1 || y->ndim != 1 || x->size != y->size)
    ga_error(L, "_blas_dot: vectors of one length, got shapes %s and %s", ga_shape_str(L, x->ndim, x->shape),
             ga_shape_str(L, y->ndim, y->shape));
  if (x->size > 0x7fffffff) ga_error(L, "_blas_dot: vectors longer than 2^31 - 1");
  ga_check_device(L, ctx, x, "_blas_dot");
  ga_check_device(L, ctx, y, "_blas_dot");
  int64_t isz = ga_dtypes[x->dtype].itemsize;
  ga_array *r = ga_new_array(L, ctx, x->dtype, 0, NULL);
  cublasHandle_t h = (cublasHandle_t)ga_lib_handle(L, ctx, &ga_cublas, ctx->stream);
  int n = (int)x->size, incx = (int)(x->strides[0] / isz), incy = (int)(y->strides[0] / isz);
  if (n == 0) {
    ga_value zero = {0};
    ga_fill(L, ctx, r, &zero);
    return 1;
  }
  ga_lib_check(L, &ga_cublas, cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), "_blas_dot: cublasSetPointerMode");
  int st = x->dtype == GA_FLOAT32
               ? (int)cublasSdot(h, n, (const float *)x->data, incx, (const float *)y->data, incy, (float *)r->data)
               : (int)cublasDdot(h, n, (const double *)x->data, incx, (const double *)y->data, incy,
                                 (double *)r->data);
  ga_lib_check(L, &ga_cublas, st, x->dtype == GA_FLOAT32 ? "_blas_dot: cublasSdot" : "_blas_dot: cublasDdot");
  return 1;
}

static const luaL_Reg blas_funcs_test[] = {
  {"blas_dot", l_blas_dot},
  {NULL, NULL}
};

void ga_open_blas(lua_State *L) {
  ga_status_register(ga_cublas.name, ga_cublas.status);
  ga_setprivate(L, GA_TEST, blas_funcs_test);
}
