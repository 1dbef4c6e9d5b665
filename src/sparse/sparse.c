/*
** sparse.c: cuSPARSE through the handle home, for ga.sparse
** (lua/gpuarray/sparse.lua holds the matrices and checks their contents):
**   _sp_mv(m, n, indptr, indices, data, x[, trans])      -> y     (SpMV)
**   _sp_mm(m, n, indptr, indices, data, B[, trans])      -> C     (SpMM)
**   _sp_gemm(m, k, n, Ap, Ai, Ad, Bp, Bi, Bd)            -> Cp, Ci, Cd (SpGEMM)
** Matrices are CSR with 0-based int32 indices (Lua converts its 1-based
** ones once, at construction); trans applies the transpose, which is how
** a CSC matrix (the CSR arrays of its transpose) multiplies. Dense
** operands are C-contiguous arrays of the matrix's dtype (float32,
** float64, complex64, complex128). Descriptors live for one call and are
** destroyed before any error is raised.
*/
#include <string.h>
#define DISABLE_CUSPARSE_DEPRECATED   /* the generic API only; the legacy types warn */
#include <cusparse.h>

#include "sparse/sparse.h"

static int sp_create(void **h) { return (int)cusparseCreate((cusparseHandle_t *)h); }
static int sp_destroy(void *h) { return (int)cusparseDestroy((cusparseHandle_t)h); }
static int sp_set_stream(void *h, cudaStream_t s) { return (int)cusparseSetStream((cusparseHandle_t)h, s); }

/* From cusparse.h's cusparseStatus_t */
static const ga_statusname cusparse_status[] = {
  {1, "CUSPARSE_STATUS_NOT_INITIALIZED"}, {2, "CUSPARSE_STATUS_ALLOC_FAILED"},
  {3, "CUSPARSE_STATUS_INVALID_VALUE"}, {4, "CUSPARSE_STATUS_ARCH_MISMATCH"},
  {5, "CUSPARSE_STATUS_MAPPING_ERROR"}, {6, "CUSPARSE_STATUS_EXECUTION_FAILED"},
  {7, "CUSPARSE_STATUS_INTERNAL_ERROR"}, {8, "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
  {9, "CUSPARSE_STATUS_ZERO_PIVOT"}, {10, "CUSPARSE_STATUS_NOT_SUPPORTED"},
  {11, "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES"}, {0, NULL}};

const ga_libdesc ga_cusparse = {"cuSPARSE", cusparse_status, sp_create, sp_destroy, sp_set_stream};

static cudaDataType dt_of(int t) {
  return t == GA_FLOAT32 ? CUDA_R_32F : t == GA_FLOAT64 ? CUDA_R_64F : t == GA_COMPLEX64 ? CUDA_C_32F : CUDA_C_64F;
}

static void check_values(lua_State *L, int t, const char *fname) {
  if (t != GA_FLOAT32 && t != GA_FLOAT64 && t != GA_COMPLEX64 && t != GA_COMPLEX128)
    ga_error(L, "%s: sparse values must be float32, float64, complex64 or complex128, got %s", fname,
             ga_dtypes[t].name);
}

/* The descriptors of one call, in a userdata whose __gc destroys them, so
** an error raised anywhere in the call (a workspace the pool cannot give)
** leaks none */
typedef struct {
  cusparseSpMatDescr_t A, B, C;
  cusparseDnVecDescr_t X, Y;
  cusparseDnMatDescr_t XM, YM;
  cusparseSpGEMMDescr_t g;
} descs;

static void descs_free(descs *d) {
  if (d->A) cusparseDestroySpMat(d->A);
  if (d->B) cusparseDestroySpMat(d->B);
  if (d->C) cusparseDestroySpMat(d->C);
  if (d->X) cusparseDestroyDnVec(d->X);
  if (d->Y) cusparseDestroyDnVec(d->Y);
  if (d->XM) cusparseDestroyDnMat(d->XM);
  if (d->YM) cusparseDestroyDnMat(d->YM);
  if (d->g) cusparseSpGEMM_destroyDescr(d->g);
  memset(d, 0, sizeof *d);
}

static int descs_gc(lua_State *L) {
  descs_free((descs *)lua_touserdata(L, 1));
  return 0;
}

static descs *push_descs(lua_State *L) {
  descs *d = (descs *)lua_newuserdatauv(L, sizeof(descs), 0);
  memset(d, 0, sizeof *d);
  if (luaL_newmetatable(L, "gpuarray.sparse_descs")) {
    lua_pushcfunction(L, descs_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return d;
}

/* One CSR matrix from the Lua arguments at idx (indptr, indices, data) */
typedef struct {
  ga_array *ptr, *ind, *val;
  int64_t rows, cols;
} csr_args;

static void check_csr(lua_State *L, ga_state *ctx, int idx, int64_t rows, int64_t cols, csr_args *c,
                      const char *fname) {
  c->ptr = ga_readarray(L, idx);
  c->ind = ga_readarray(L, idx + 1);
  c->val = ga_readarray(L, idx + 2);
  c->rows = rows;
  c->cols = cols;
  if (c->ptr->dtype != GA_INT32 || c->ind->dtype != GA_INT32 || !(c->ptr->flags & GA_F_C) ||
      !(c->ind->flags & GA_F_C) || !(c->val->flags & GA_F_C))
    ga_error(L, "%s: internal: CSR arrays must be contiguous with int32 indices", fname);
  if (c->ptr->size != rows + 1 || c->ind->size != c->val->size)
    ga_error(L, "%s: internal: CSR arrays of mismatched lengths", fname);
  check_values(L, c->val->dtype, fname);
  ga_check_device(L, ctx, c->ptr, fname);
  ga_check_device(L, ctx, c->ind, fname);
  ga_check_device(L, ctx, c->val, fname);
}

static void make_csr(lua_State *L, cusparseSpMatDescr_t *d, const csr_args *c, const char *fname) {
  char msg[64];
  snprintf(msg, sizeof msg, "%s: cusparseCreateCsr", fname);
  ga_lib_check(L, &ga_cusparse,
               cusparseCreateCsr(d, c->rows, c->cols, c->ind->size, c->ptr->data, c->ind->data, c->val->data,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 dt_of(c->val->dtype)),
               msg);
}

/* alpha = 1, beta = 0 in the value type (host pointer mode) */
static const double one[2] = {1, 0}, zero[2] = {0, 0};
static const float onef[2] = {1, 0}, zerof[2] = {0, 0};
static const void *alpha_of(int t) { return t == GA_FLOAT32 || t == GA_COMPLEX64 ? (const void *)onef : (const void *)one; }
static const void *beta_of(int t) { return t == GA_FLOAT32 || t == GA_COMPLEX64 ? (const void *)zerof : (const void *)zero; }

#define CHECK(call, name) ga_lib_check(L, &ga_cusparse, (call), name)

/* SpMV and SpMM share the frame: A (args 1-5), the dense operand (6), trans (7) */
static int sp_dense(lua_State *L, int matrix) {
  const char *fname = matrix ? "sparse.matmul" : "sparse.dot";
  ga_state *ctx = ga_ctx(L);
  int64_t m = luaL_checkinteger(L, 1), n = luaL_checkinteger(L, 2);
  csr_args a;
  check_csr(L, ctx, 3, m, n, &a, fname);
  ga_array *x = ga_readarray(L, 6);
  int trans = lua_toboolean(L, 7);
  int t = a.val->dtype;
  int64_t in_rows = trans ? m : n, out_rows = trans ? n : m;
  if (x->dtype != t || !(x->flags & GA_F_C) || x->ndim != (matrix ? 2 : 1) || x->shape[0] != in_rows)
    ga_error(L, "%s: internal: the dense operand must be C-contiguous %s with %I rows", fname,
             ga_dtypes[t].name, (lua_Integer)in_rows);
  ga_check_device(L, ctx, x, fname);
  int64_t k = matrix ? x->shape[1] : 1;
  int64_t shape[2] = {out_rows, k};
  lua_settop(L, 7);
  ga_array *y = ga_new_array(L, ctx, t, matrix ? 2 : 1, shape);
  if (y->size == 0) return 1;
  if (a.ind->size == 0 || in_rows == 0) {
    ga_value z;
    memset(&z, 0, sizeof z);
    ga_fill(L, ctx, y, &z);
    return 1;
  }
  cusparseHandle_t h = (cusparseHandle_t)ga_lib_handle(L, ctx, &ga_cusparse, ctx->stream);
  cudaDataType dt = dt_of(t);
  cusparseOperation_t op = trans ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  descs *d = push_descs(L);
  make_csr(L, &d->A, &a, fname);
  size_t size = 0;
  if (!matrix) {
    CHECK(cusparseCreateDnVec(&d->X, in_rows, x->data, dt), "sparse.dot: cusparseCreateDnVec");
    CHECK(cusparseCreateDnVec(&d->Y, out_rows, y->data, dt), "sparse.dot: cusparseCreateDnVec");
    CHECK(cusparseSpMV_bufferSize(h, op, alpha_of(t), d->A, d->X, beta_of(t), d->Y, dt, CUSPARSE_SPMV_ALG_DEFAULT,
                                  &size), "sparse.dot: cusparseSpMV_bufferSize");
    void *buf = ga_lib_workspace(L, ctx, size);
    CHECK(cusparseSpMV(h, op, alpha_of(t), d->A, d->X, beta_of(t), d->Y, dt, CUSPARSE_SPMV_ALG_DEFAULT, buf),
          "sparse.dot: cusparseSpMV");
  } else {
    CHECK(cusparseCreateDnMat(&d->XM, in_rows, k, k, x->data, dt, CUSPARSE_ORDER_ROW),
          "sparse.matmul: cusparseCreateDnMat");
    CHECK(cusparseCreateDnMat(&d->YM, out_rows, k, k, y->data, dt, CUSPARSE_ORDER_ROW),
          "sparse.matmul: cusparseCreateDnMat");
    cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    CHECK(cusparseSpMM_bufferSize(h, op, N, alpha_of(t), d->A, d->XM, beta_of(t), d->YM, dt,
                                  CUSPARSE_SPMM_ALG_DEFAULT, &size), "sparse.matmul: cusparseSpMM_bufferSize");
    void *buf = ga_lib_workspace(L, ctx, size);
    CHECK(cusparseSpMM(h, op, N, alpha_of(t), d->A, d->XM, beta_of(t), d->YM, dt, CUSPARSE_SPMM_ALG_DEFAULT, buf),
          "sparse.matmul: cusparseSpMM");
  }
  descs_free(d);
  lua_settop(L, 8);     /* y */
  return 1;
}

static int l_sp_mv(lua_State *L) { return sp_dense(L, 0); }
static int l_sp_mm(lua_State *L) { return sp_dense(L, 1); }

/* SpGEMM: C = A B, A m x k and B k x n in CSR; C's arrays are pushed */
static int l_sp_gemm(lua_State *L) {
  const char *fname = "sparse.matmul";
  ga_state *ctx = ga_ctx(L);
  int64_t m = luaL_checkinteger(L, 1), k = luaL_checkinteger(L, 2), n = luaL_checkinteger(L, 3);
  csr_args a, b;
  check_csr(L, ctx, 4, m, k, &a, fname);
  check_csr(L, ctx, 7, k, n, &b, fname);
  int t = a.val->dtype;
  if (b.val->dtype != t) ga_error(L, "%s: internal: operands of one dtype", fname);
  cudaDataType dt = dt_of(t);
  lua_settop(L, 9);
  int64_t m1 = m + 1;
  ga_array *cp = ga_new_array(L, ctx, GA_INT32, 1, &m1);    /* 10 */
  cusparseHandle_t h = (cusparseHandle_t)ga_lib_handle(L, ctx, &ga_cusparse, ctx->stream);
  cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const void *al = alpha_of(t), *be = beta_of(t);
  descs *d = push_descs(L);                                  /* 11 */
  make_csr(L, &d->A, &a, fname);
  make_csr(L, &d->B, &b, fname);
  CHECK(cusparseCreateCsr(&d->C, m, n, 0, cp->data, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, dt), "sparse.matmul: cusparseCreateCsr");
  CHECK(cusparseSpGEMM_createDescr(&d->g), "sparse.matmul: cusparseSpGEMM_createDescr");
  size_t s1 = 0, s2 = 0;
  CHECK(cusparseSpGEMM_workEstimation(h, N, N, al, d->A, d->B, be, d->C, dt, CUSPARSE_SPGEMM_DEFAULT, d->g, &s1,
                                      NULL), "sparse.matmul: cusparseSpGEMM_workEstimation");
  void *b1 = ga_lib_workspace(L, ctx, s1);
  CHECK(cusparseSpGEMM_workEstimation(h, N, N, al, d->A, d->B, be, d->C, dt, CUSPARSE_SPGEMM_DEFAULT, d->g, &s1,
                                      b1), "sparse.matmul: cusparseSpGEMM_workEstimation");
  CHECK(cusparseSpGEMM_compute(h, N, N, al, d->A, d->B, be, d->C, dt, CUSPARSE_SPGEMM_DEFAULT, d->g, &s2, NULL),
        "sparse.matmul: cusparseSpGEMM_compute");
  void *b2 = ga_lib_workspace(L, ctx, s2);
  CHECK(cusparseSpGEMM_compute(h, N, N, al, d->A, d->B, be, d->C, dt, CUSPARSE_SPGEMM_DEFAULT, d->g, &s2, b2),
        "sparse.matmul: cusparseSpGEMM_compute");
  int64_t rows = 0, cols = 0, nnz = 0;
  CHECK(cusparseSpMatGetSize(d->C, &rows, &cols, &nnz), "sparse.matmul: cusparseSpMatGetSize");
  lua_pushvalue(L, 10);
  ga_array *ci = ga_new_array(L, ctx, GA_INT32, 1, &nnz);
  ga_array *cd = ga_new_array(L, ctx, t, 1, &nnz);
  CHECK(cusparseCsrSetPointers(d->C, cp->data, ci->data, cd->data), "sparse.matmul: cusparseCsrSetPointers");
  CHECK(cusparseSpGEMM_copy(h, N, N, al, d->A, d->B, be, d->C, dt, CUSPARSE_SPGEMM_DEFAULT, d->g),
        "sparse.matmul: cusparseSpGEMM_copy");
  descs_free(d);
  return 3;
}

static const luaL_Reg sparse_funcs_sparse[] = {
  {"mv", l_sp_mv},
  {"mm", l_sp_mm},
  {"gemm", l_sp_gemm},
  {NULL, NULL}
};

void ga_open_sparse(lua_State *L) {
  ga_status_register(ga_cusparse.name, ga_cusparse.status);
  ga_setprivate(L, "sparse", sparse_funcs_sparse);
}
