/*
** sparse_solve.c: sparse direct solvers for scipy.sparse.linalg
** (lua/gpuarray/scipy/sparse/linalg/dsolve.lua):
**   _sp_lsv(n, indptr, indices, data, b, chol, tol)  -> x, singularity
**       cuSOLVER's sparse Cholesky (csrlsvchol: reads the lower triangle)
**       or QR (csrlsvqr) on the device; singularity is -1 when the matrix
**       is invertible (positive definite for Cholesky), else the 0-based
**       row where it failed.
**   _sp_reorder(n, indptr, indices, method)          -> p
**       a fill-reducing symmetric permutation on the host: "metis"
**       (nested dissection), "symamd" (minimum degree), "symrcm" (reverse
**       Cuthill-McKee); p[i] is the old row of new row i, 0-based int32.
**   _sp_sv(n, indptr, indices, data, b, lower, unit, trans) -> x
**       a triangular solve (cuSPARSE SpSV) with the lower or upper triangle.
**   _sp_ilu0(n, indptr, indices, data)               -> data', zero pivot
**       incomplete LU without fill (cuSPARSE csrilu02) of a CSR matrix with
**       sorted indices; data' holds L (unit, below) and U; the pivot is
**       the 0-based row of a zero pivot or -1.
**   _sp_lu(n, indptr, indices, data, threshold)      -> lu, zero pivot
**       a sparse LU with partial pivoting on the host (cuSOLVER's csrlu),
**       kept as an object: _sp_lu_solve(lu, b, trans?) -> x (on the host,
**       b and x copied), _sp_lu_extract(lu) -> P, Q, Lp, Li, Ld, Up, Ui, Ud
**       with P A Q^T = L U (0-based permutations).
** Matrices are CSR with 0-based int32 indices, values float32, float64,
** complex64 or complex128; vectors are contiguous arrays of the values'
** dtype. The sparse cuSOLVER routines are deprecated in favour of cuDSS
** (not shipped with the toolkit here): their warnings are silenced.
*/
#define DISABLE_CUSOLVER_DEPRECATED
#define DISABLE_CUSPARSE_DEPRECATED
#include <stdlib.h>
#include <string.h>
#include <cusolverSp.h>
#include <cusolverSp_LOWLEVEL_PREVIEW.h>
#include <cusparse.h>

#include "sparse/sparse.h"

static int sp_create(void **h) { return (int)cusolverSpCreate((cusolverSpHandle_t *)h); }
static int sp_destroy(void *h) { return (int)cusolverSpDestroy((cusolverSpHandle_t)h); }
static int sp_set_stream(void *h, cudaStream_t s) { return (int)cusolverSpSetStream((cusolverSpHandle_t)h, s); }

static const ga_libdesc ga_cusolversp = {"cuSOLVER (sparse)", ga_cusolver_status, sp_create, sp_destroy, sp_set_stream};

#define SVCHECK(call, what) ga_lib_check(L, &ga_cusolversp, (call), (what))
#define SPCHECK(call, what) ga_lib_check(L, &ga_cusparse, (call), (what))

static cusolverSpHandle_t sp_handle(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  return (cusolverSpHandle_t)ga_lib_handle(L, ctx, &ga_cusolversp, ctx->stream);
}

static cudaDataType dt_of(int t) {
  return t == GA_FLOAT32 ? CUDA_R_32F : t == GA_FLOAT64 ? CUDA_R_64F : t == GA_COMPLEX64 ? CUDA_C_32F : CUDA_C_64F;
}

/* One CSR matrix from the arguments at idx (indptr, indices, data) */
typedef struct {
  ga_array *ptr, *ind, *val;
  int n, nnz, t;
} csr;

static void get_csr(lua_State *L, int nidx, int idx, csr *c, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  lua_Integer n = luaL_checkinteger(L, nidx);
  c->ptr = ga_checkarray(L, idx);
  c->ind = ga_checkarray(L, idx + 1);
  c->val = ga_checkarray(L, idx + 2);
  c->t = c->val->dtype;
  if (c->t != GA_FLOAT32 && c->t != GA_FLOAT64 && c->t != GA_COMPLEX64 && c->t != GA_COMPLEX128)
    ga_error(L, "%s: sparse values must be float32, float64, complex64 or complex128, got %s", fname,
             ga_dtypes[c->t].name);
  if (c->ptr->dtype != GA_INT32 || c->ind->dtype != GA_INT32 || !(c->ptr->flags & GA_F_C) ||
      !(c->ind->flags & GA_F_C) || !(c->val->flags & GA_F_C) || n < 0 || n > 0x7fffffff ||
      c->ptr->size != n + 1 || c->ind->size != c->val->size || c->val->size > 0x7fffffff)
    ga_error(L, "%s: internal: a square CSR matrix with contiguous int32 indices is needed", fname);
  ga_check_device(L, ctx, c->ptr, fname);
  ga_check_device(L, ctx, c->ind, fname);
  ga_check_device(L, ctx, c->val, fname);
  c->n = (int)n;
  c->nnz = (int)c->val->size;
}

static ga_array *get_vector(lua_State *L, int idx, const csr *c, const char *fname) {
  ga_array *b = ga_checkarray(L, idx);
  if (b->dtype != c->t || !(b->flags & GA_F_C) || b->size != c->n)
    ga_error(L, "%s: internal: a contiguous %s vector of %d values is needed", fname, ga_dtypes[c->t].name, c->n);
  ga_check_device(L, ga_ctx(L), b, fname);
  return b;
}

/* A general, 0-based legacy matrix descriptor in a userdata that frees it */
static int descr_gc(lua_State *L) {
  cusparseMatDescr_t *d = (cusparseMatDescr_t *)lua_touserdata(L, 1);
  if (*d) cusparseDestroyMatDescr(*d);
  *d = NULL;
  return 0;
}

static cusparseMatDescr_t push_descr(lua_State *L, const char *fname) {
  cusparseMatDescr_t *d = (cusparseMatDescr_t *)lua_newuserdatauv(L, sizeof *d, 0);
  *d = NULL;
  if (luaL_newmetatable(L, "gpuarray.sparse_matdescr")) {
    lua_pushcfunction(L, descr_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  SPCHECK(cusparseCreateMatDescr(d), fname);
  SPCHECK(cusparseSetMatType(*d, CUSPARSE_MATRIX_TYPE_GENERAL), fname);
  SPCHECK(cusparseSetMatIndexBase(*d, CUSPARSE_INDEX_BASE_ZERO), fname);
  return *d;
}

/* ---------------------------------------------------------------------- */
/* Cholesky or QR solve (device)                                          */
/* ---------------------------------------------------------------------- */

static int l_sp_lsv(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.spsolve";
  csr c;
  get_csr(L, 1, 2, &c, fname);
  ga_array *b = get_vector(L, 5, &c, fname);
  int chol = lua_toboolean(L, 6);
  double tol = luaL_optnumber(L, 7, 0.0);
  lua_settop(L, 7);
  ga_state *ctx = ga_ctx(L);
  int64_t n64 = c.n;
  ga_array *x = ga_new_array(L, ctx, c.t, 1, &n64);                         /* 8 */
  int singularity = -1;
  if (c.n > 0 && c.nnz == 0) {
    singularity = 0;          /* the zero matrix: row 0 already fails (cuSOLVER would refuse nnz = 0) */
  } else if (c.n > 0) {
    cusolverSpHandle_t h = sp_handle(L);
    cusparseMatDescr_t d = push_descr(L, fname);                             /* 9 */
    int st;
    const void *v = c.val->data;
    const int *p = (const int *)c.ptr->data, *i = (const int *)c.ind->data;
    /* reorder 0: the permutation is made by the caller (dsolve.lua) */
    if (chol) {
      switch (c.t) {
        case GA_FLOAT32:
          st = cusolverSpScsrlsvchol(h, c.n, c.nnz, d, (const float *)v, p, i, (const float *)b->data, (float)tol, 0,
                                     (float *)x->data, &singularity);
          break;
        case GA_FLOAT64:
          st = cusolverSpDcsrlsvchol(h, c.n, c.nnz, d, (const double *)v, p, i, (const double *)b->data, tol, 0,
                                     (double *)x->data, &singularity);
          break;
        case GA_COMPLEX64:
          st = cusolverSpCcsrlsvchol(h, c.n, c.nnz, d, (const cuComplex *)v, p, i, (const cuComplex *)b->data,
                                     (float)tol, 0, (cuComplex *)x->data, &singularity);
          break;
        default:
          st = cusolverSpZcsrlsvchol(h, c.n, c.nnz, d, (const cuDoubleComplex *)v, p, i,
                                     (const cuDoubleComplex *)b->data, tol, 0, (cuDoubleComplex *)x->data,
                                     &singularity);
      }
      SVCHECK(st, "scipy.sparse.linalg.spsolve: cusolverSp<t>csrlsvchol");
    } else {
      switch (c.t) {
        case GA_FLOAT32:
          st = cusolverSpScsrlsvqr(h, c.n, c.nnz, d, (const float *)v, p, i, (const float *)b->data, (float)tol, 0,
                                   (float *)x->data, &singularity);
          break;
        case GA_FLOAT64:
          st = cusolverSpDcsrlsvqr(h, c.n, c.nnz, d, (const double *)v, p, i, (const double *)b->data, tol, 0,
                                   (double *)x->data, &singularity);
          break;
        case GA_COMPLEX64:
          st = cusolverSpCcsrlsvqr(h, c.n, c.nnz, d, (const cuComplex *)v, p, i, (const cuComplex *)b->data,
                                   (float)tol, 0, (cuComplex *)x->data, &singularity);
          break;
        default:
          st = cusolverSpZcsrlsvqr(h, c.n, c.nnz, d, (const cuDoubleComplex *)v, p, i,
                                   (const cuDoubleComplex *)b->data, tol, 0, (cuDoubleComplex *)x->data,
                                   &singularity);
      }
      SVCHECK(st, "scipy.sparse.linalg.spsolve: cusolverSp<t>csrlsvqr");
    }
  }
  lua_pushvalue(L, 8);
  lua_pushinteger(L, singularity);
  return 2;
}

/* ---------------------------------------------------------------------- */
/* fill-reducing orderings (host)                                         */
/* ---------------------------------------------------------------------- */

/* host copies of a CSR pattern, in userdata (freed by the collector),
** checked: the host routines (orderings, LU) index with these values, so a
** row pointer past nnz or a column past n would read or write out of
** bounds inside cuSOLVER; it raises here instead */
static void host_pattern(lua_State *L, const csr *c, int **p, int **i, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  *p = (int *)lua_newuserdatauv(L, (size_t)(c->n + 1) * sizeof(int), 0);
  *i = (int *)lua_newuserdatauv(L, (size_t)(c->nnz > 0 ? c->nnz : 1) * sizeof(int), 0);
  ga_to_host(L, ctx, *p, c->ptr->data, (size_t)(c->n + 1) * sizeof(int));
  if (c->nnz > 0) ga_to_host(L, ctx, *i, c->ind->data, (size_t)c->nnz * sizeof(int));
  const int *hp = *p, *hi = *i;
  if (hp[0] != 0 || hp[c->n] != c->nnz)
    ga_error(L, "%s: internal: CSR row pointers run from %d to %d, not 0 to %d", fname, hp[0], hp[c->n], c->nnz);
  for (int r = 0; r < c->n; r++)
    if (hp[r + 1] < hp[r]) ga_error(L, "%s: internal: CSR row pointers decrease at row %d", fname, r + 1);
  for (int k = 0; k < c->nnz; k++)
    if (hi[k] < 0 || hi[k] >= c->n)
      ga_error(L, "%s: internal: CSR column index %d is out of range [0, %d)", fname, hi[k], c->n);
}

static int l_sp_reorder(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.spsolve";
  ga_state *ctx = ga_ctx(L);
  lua_Integer n = luaL_checkinteger(L, 1);
  csr c;
  c.ptr = ga_checkarray(L, 2);
  c.ind = ga_checkarray(L, 3);
  const char *method = luaL_checkstring(L, 4);
  if (c.ptr->dtype != GA_INT32 || c.ind->dtype != GA_INT32 || !(c.ptr->flags & GA_F_C) || !(c.ind->flags & GA_F_C) ||
      n < 0 || n > 0x7fffffff || c.ptr->size != n + 1 || c.ind->size > 0x7fffffff)
    ga_error(L, "%s: internal: a CSR pattern with int32 indices is needed", fname);
  int which = strcmp(method, "metis") == 0 ? 0 : strcmp(method, "symamd") == 0 ? 1 : strcmp(method, "symrcm") == 0 ? 2 : -1;
  if (which < 0) ga_error(L, "%s: internal: unknown ordering %s", fname, method);
  ga_check_device(L, ctx, c.ptr, fname);
  ga_check_device(L, ctx, c.ind, fname);
  c.n = (int)n;
  c.nnz = (int)c.ind->size;
  lua_settop(L, 4);
  int64_t n64 = c.n;
  ga_array *out = ga_new_array(L, ctx, GA_INT32, 1, &n64);                  /* 5 */
  if (c.n == 0) return 1;
  int *hp, *hi;
  host_pattern(L, &c, &hp, &hi, fname);
  int *perm = (int *)lua_newuserdatauv(L, (size_t)c.n * sizeof(int), 0);
  for (int k = 0; k < c.n; k++) perm[k] = -1;
  cusolverSpHandle_t h = sp_handle(L);
  cusparseMatDescr_t d = push_descr(L, fname);
  int st;
  if (which == 0) st = cusolverSpXcsrmetisndHost(h, c.n, c.nnz, d, hp, hi, NULL, perm);
  else if (which == 1) st = cusolverSpXcsrsymamdHost(h, c.n, c.nnz, d, hp, hi, perm);
  else st = cusolverSpXcsrsymrcmHost(h, c.n, c.nnz, d, hp, hi, perm);
  SVCHECK(st, "scipy.sparse.linalg.spsolve: cusolverSpXcsr<ordering>Host");
  /* a permutation or nothing: its entries index b and x on the device */
  char *seen = (char *)lua_newuserdatauv(L, (size_t)c.n, 0);
  memset(seen, 0, (size_t)c.n);
  for (int k = 0; k < c.n; k++) {
    if (perm[k] < 0 || perm[k] >= c.n || seen[perm[k]])
      ga_error(L, "%s: internal: the %s ordering is not a permutation of %d rows", fname, method, c.n);
    seen[perm[k]] = 1;
  }
  ga_to_device(L, ctx, out->data, perm, (size_t)c.n * sizeof(int));
  lua_pushvalue(L, 5);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* triangular solve (SpSV)                                                */
/* ---------------------------------------------------------------------- */

typedef struct {
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  cusparseSpSVDescr_t sv;
} sv_descs;

static void sv_free(sv_descs *d) {
  if (d->sv) cusparseSpSV_destroyDescr(d->sv);
  if (d->X) cusparseDestroyDnVec(d->X);
  if (d->Y) cusparseDestroyDnVec(d->Y);
  if (d->A) cusparseDestroySpMat(d->A);
  memset(d, 0, sizeof *d);
}

static int sv_gc(lua_State *L) {
  sv_descs *d = (sv_descs *)lua_touserdata(L, 1);
  if (d) sv_free(d);
  return 0;
}

static const double one_d[2] = {1, 0};
static const float one_f[2] = {1, 0};

static int l_sp_sv(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.spsolve_triangular";
  csr c;
  get_csr(L, 1, 2, &c, fname);
  ga_array *b = get_vector(L, 5, &c, fname);
  int lower = lua_toboolean(L, 6), unit = lua_toboolean(L, 7);
  lua_Integer trans = luaL_optinteger(L, 8, 0);
  if (trans < 0 || trans > 2) ga_error(L, "%s: internal: trans must be 0, 1 or 2, got %I", fname, trans);
  lua_settop(L, 8);
  ga_state *ctx = ga_ctx(L);
  int64_t n64 = c.n;
  ga_array *x = ga_new_array(L, ctx, c.t, 1, &n64);                         /* 9 */
  if (c.n == 0) return 1;
  cusparseHandle_t h = (cusparseHandle_t)ga_lib_handle(L, ctx, &ga_cusparse, ctx->stream);
  sv_descs *d = (sv_descs *)lua_newuserdatauv(L, sizeof *d, 0);             /* 10 */
  memset(d, 0, sizeof *d);
  if (luaL_newmetatable(L, "gpuarray.sparse_svdescs")) {
    lua_pushcfunction(L, sv_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  cudaDataType dt = dt_of(c.t);
  SPCHECK(cusparseCreateCsr(&d->A, c.n, c.n, c.nnz, c.ptr->data, c.ind->data, c.val->data, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt), "spsolve_triangular: cusparseCreateCsr");
  cusparseFillMode_t fill = lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t diag = unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  SPCHECK(cusparseSpMatSetAttribute(d->A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill),
          "spsolve_triangular: cusparseSpMatSetAttribute");
  SPCHECK(cusparseSpMatSetAttribute(d->A, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag),
          "spsolve_triangular: cusparseSpMatSetAttribute");
  SPCHECK(cusparseCreateDnVec(&d->X, c.n, b->data, dt), "spsolve_triangular: cusparseCreateDnVec");
  SPCHECK(cusparseCreateDnVec(&d->Y, c.n, x->data, dt), "spsolve_triangular: cusparseCreateDnVec");
  SPCHECK(cusparseSpSV_createDescr(&d->sv), "spsolve_triangular: cusparseSpSV_createDescr");
  cusparseOperation_t op = trans == 1 ? CUSPARSE_OPERATION_TRANSPOSE
                           : trans == 2 ? CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  const void *alpha = (c.t == GA_FLOAT32 || c.t == GA_COMPLEX64) ? (const void *)one_f : (const void *)one_d;
  size_t size = 0;
  SPCHECK(cusparseSpSV_bufferSize(h, op, alpha, d->A, d->X, d->Y, dt, CUSPARSE_SPSV_ALG_DEFAULT, d->sv, &size),
          "spsolve_triangular: cusparseSpSV_bufferSize");
  void *buf = ga_lib_workspace(L, ctx, size);
  SPCHECK(cusparseSpSV_analysis(h, op, alpha, d->A, d->X, d->Y, dt, CUSPARSE_SPSV_ALG_DEFAULT, d->sv, buf),
          "spsolve_triangular: cusparseSpSV_analysis");
  SPCHECK(cusparseSpSV_solve(h, op, alpha, d->A, d->X, d->Y, dt, CUSPARSE_SPSV_ALG_DEFAULT, d->sv),
          "spsolve_triangular: cusparseSpSV_solve");
  /* the descriptors go now (the solve is queued; its buffer, at 11, stays
  ** referenced until this returns and then goes back to the stream-ordered
  ** pool). Freed through d itself: sv_gc reads its argument slot, which in
  ** this frame is n, and dereferencing that NULL userdata was the crash */
  sv_free(d);
  lua_pushvalue(L, 9);
  return 1;
}

/* ---------------------------------------------------------------------- */
/* incomplete LU without fill (csrilu02)                                  */
/* ---------------------------------------------------------------------- */

static int ilu_gc(lua_State *L) {
  csrilu02Info_t *i = (csrilu02Info_t *)lua_touserdata(L, 1);
  if (*i) cusparseDestroyCsrilu02Info(*i);
  *i = NULL;
  return 0;
}

static int l_sp_ilu0(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.spilu";
  csr c;
  get_csr(L, 1, 2, &c, fname);
  lua_settop(L, 4);
  ga_state *ctx = ga_ctx(L);
  int64_t nnz64 = c.nnz;
  ga_array *out = ga_new_array(L, ctx, c.t, 1, &nnz64);                      /* 5 */
  if (c.nnz > 0) ga_copy_into(L, ctx, out, c.val, fname);
  if (c.n == 0 || c.nnz == 0) {
    lua_pushvalue(L, 5);
    lua_pushinteger(L, c.n > 0 ? 0 : -1);
    return 2;
  }
  cusparseHandle_t h = (cusparseHandle_t)ga_lib_handle(L, ctx, &ga_cusparse, ctx->stream);
  cusparseMatDescr_t d = push_descr(L, fname);                               /* 6 */
  csrilu02Info_t *info = (csrilu02Info_t *)lua_newuserdatauv(L, sizeof *info, 0);   /* 7 */
  *info = NULL;
  if (luaL_newmetatable(L, "gpuarray.sparse_ilu02")) {
    lua_pushcfunction(L, ilu_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  SPCHECK(cusparseCreateCsrilu02Info(info), "spilu: cusparseCreateCsrilu02Info");
  const int *p = (const int *)c.ptr->data, *i = (const int *)c.ind->data;
  void *v = out->data;
  int size = 0, st;
  switch (c.t) {
    case GA_FLOAT32: st = cusparseScsrilu02_bufferSize(h, c.n, c.nnz, d, (float *)v, p, i, *info, &size); break;
    case GA_FLOAT64: st = cusparseDcsrilu02_bufferSize(h, c.n, c.nnz, d, (double *)v, p, i, *info, &size); break;
    case GA_COMPLEX64: st = cusparseCcsrilu02_bufferSize(h, c.n, c.nnz, d, (cuComplex *)v, p, i, *info, &size); break;
    default: st = cusparseZcsrilu02_bufferSize(h, c.n, c.nnz, d, (cuDoubleComplex *)v, p, i, *info, &size);
  }
  SPCHECK(st, "spilu: cusparse<t>csrilu02_bufferSize");
  void *buf = ga_lib_workspace(L, ctx, (size_t)(size > 0 ? size : 1));
  cusparseSolvePolicy_t pol = CUSPARSE_SOLVE_POLICY_USE_LEVEL;
  switch (c.t) {
    case GA_FLOAT32: st = cusparseScsrilu02_analysis(h, c.n, c.nnz, d, (const float *)v, p, i, *info, pol, buf); break;
    case GA_FLOAT64: st = cusparseDcsrilu02_analysis(h, c.n, c.nnz, d, (const double *)v, p, i, *info, pol, buf); break;
    case GA_COMPLEX64:
      st = cusparseCcsrilu02_analysis(h, c.n, c.nnz, d, (const cuComplex *)v, p, i, *info, pol, buf);
      break;
    default: st = cusparseZcsrilu02_analysis(h, c.n, c.nnz, d, (const cuDoubleComplex *)v, p, i, *info, pol, buf);
  }
  SPCHECK(st, "spilu: cusparse<t>csrilu02_analysis");
  int pos = -1;
  /* a structural zero (a missing diagonal) shows here; pos is a host
  ** pointer (the handle's pointer mode is never changed from host) */
  st = cusparseXcsrilu02_zeroPivot(h, *info, &pos);
  if (st == CUSPARSE_STATUS_ZERO_PIVOT) {
    lua_pushvalue(L, 5);
    lua_pushinteger(L, pos);
    return 2;
  }
  SPCHECK(st, "spilu: cusparseXcsrilu02_zeroPivot");
  switch (c.t) {
    case GA_FLOAT32: st = cusparseScsrilu02(h, c.n, c.nnz, d, (float *)v, p, i, *info, pol, buf); break;
    case GA_FLOAT64: st = cusparseDcsrilu02(h, c.n, c.nnz, d, (double *)v, p, i, *info, pol, buf); break;
    case GA_COMPLEX64: st = cusparseCcsrilu02(h, c.n, c.nnz, d, (cuComplex *)v, p, i, *info, pol, buf); break;
    default: st = cusparseZcsrilu02(h, c.n, c.nnz, d, (cuDoubleComplex *)v, p, i, *info, pol, buf);
  }
  SPCHECK(st, "spilu: cusparse<t>csrilu02");
  pos = -1;
  st = cusparseXcsrilu02_zeroPivot(h, *info, &pos);                         /* synchronises */
  if (st != CUSPARSE_STATUS_ZERO_PIVOT) {
    SPCHECK(st, "spilu: cusparseXcsrilu02_zeroPivot");
    pos = -1;
  }
  lua_pushvalue(L, 5);
  lua_pushinteger(L, pos);
  return 2;
}

/* ---------------------------------------------------------------------- */
/* sparse LU on the host (csrlu)                                          */
/* ---------------------------------------------------------------------- */

#define LU_MT "gpuarray.sparse_lu"

typedef struct {
  csrluInfoHost_t info;
  cusparseMatDescr_t descr;
  void *buf;
  int n, t;
} lu_obj;

static int lu_gc(lua_State *L) {
  lu_obj *o = (lu_obj *)luaL_checkudata(L, 1, LU_MT);
  if (o->info) cusolverSpDestroyCsrluInfoHost(o->info);
  if (o->descr) cusparseDestroyMatDescr(o->descr);
  free(o->buf);
  memset(o, 0, sizeof *o);
  return 0;
}

static lu_obj *check_lu(lua_State *L, int idx, const char *fname) {
  lu_obj *o = (lu_obj *)luaL_testudata(L, idx, LU_MT);
  if (!o || !o->info) ga_error(L, "%s: expected a sparse LU factorisation", fname);
  return o;
}

static int l_sp_lu(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.splu";
  csr c;
  get_csr(L, 1, 2, &c, fname);
  double thr = luaL_optnumber(L, 5, 1.0);
  lua_settop(L, 5);
  ga_state *ctx = ga_ctx(L);
  lu_obj *o = (lu_obj *)lua_newuserdatauv(L, sizeof *o, 0);                 /* 6 */
  memset(o, 0, sizeof *o);
  luaL_setmetatable(L, LU_MT);
  o->n = c.n;
  o->t = c.t;
  cusolverSpHandle_t h = sp_handle(L);
  SVCHECK(cusolverSpCreateCsrluInfoHost(&o->info), "splu: cusolverSpCreateCsrluInfoHost");
  SPCHECK(cusparseCreateMatDescr(&o->descr), "splu: cusparseCreateMatDescr");
  SPCHECK(cusparseSetMatType(o->descr, CUSPARSE_MATRIX_TYPE_GENERAL), "splu: cusparseSetMatType");
  SPCHECK(cusparseSetMatIndexBase(o->descr, CUSPARSE_INDEX_BASE_ZERO), "splu: cusparseSetMatIndexBase");
  int *hp, *hi;
  host_pattern(L, &c, &hp, &hi, fname);                                      /* 7, 8 */
  size_t isz = (size_t)ga_dtypes[c.t].itemsize;
  void *hv = lua_newuserdatauv(L, (size_t)(c.nnz > 0 ? c.nnz : 1) * isz, 0);  /* 9 */
  if (c.nnz > 0) ga_to_host(L, ctx, hv, c.val->data, (size_t)c.nnz * isz);
  SVCHECK(cusolverSpXcsrluAnalysisHost(h, c.n, c.nnz, o->descr, hp, hi, o->info), "splu: cusolverSpXcsrluAnalysisHost");
  size_t internal = 0, work = 0;
  int st;
  switch (c.t) {
    case GA_FLOAT32:
      st = cusolverSpScsrluBufferInfoHost(h, c.n, c.nnz, o->descr, (const float *)hv, hp, hi, o->info, &internal, &work);
      break;
    case GA_FLOAT64:
      st = cusolverSpDcsrluBufferInfoHost(h, c.n, c.nnz, o->descr, (const double *)hv, hp, hi, o->info, &internal,
                                          &work);
      break;
    case GA_COMPLEX64:
      st = cusolverSpCcsrluBufferInfoHost(h, c.n, c.nnz, o->descr, (const cuComplex *)hv, hp, hi, o->info, &internal,
                                          &work);
      break;
    default:
      st = cusolverSpZcsrluBufferInfoHost(h, c.n, c.nnz, o->descr, (const cuDoubleComplex *)hv, hp, hi, o->info,
                                          &internal, &work);
  }
  SVCHECK(st, "splu: cusolverSp<t>csrluBufferInfoHost");
  o->buf = malloc(work > 0 ? work : 1);
  if (!o->buf) ga_error(L, "%s: out of host memory for the factorisation's workspace", fname);
  int pos = -1;
  switch (c.t) {
    case GA_FLOAT32:
      st = cusolverSpScsrluFactorHost(h, c.n, c.nnz, o->descr, (const float *)hv, hp, hi, o->info, (float)thr, o->buf);
      if (!st) st = cusolverSpScsrluZeroPivotHost(h, o->info, 0.0f, &pos);
      break;
    case GA_FLOAT64:
      st = cusolverSpDcsrluFactorHost(h, c.n, c.nnz, o->descr, (const double *)hv, hp, hi, o->info, thr, o->buf);
      if (!st) st = cusolverSpDcsrluZeroPivotHost(h, o->info, 0.0, &pos);
      break;
    case GA_COMPLEX64:
      st = cusolverSpCcsrluFactorHost(h, c.n, c.nnz, o->descr, (const cuComplex *)hv, hp, hi, o->info, (float)thr,
                                      o->buf);
      if (!st) st = cusolverSpCcsrluZeroPivotHost(h, o->info, 0.0f, &pos);
      break;
    default:
      st = cusolverSpZcsrluFactorHost(h, c.n, c.nnz, o->descr, (const cuDoubleComplex *)hv, hp, hi, o->info, thr,
                                      o->buf);
      if (!st) st = cusolverSpZcsrluZeroPivotHost(h, o->info, 0.0, &pos);
  }
  /* ZeroPivot sets pos >= 0 for a zero pivot; the status is an error only */
  SVCHECK(st, "splu: cusolverSp<t>csrluFactorHost");
  lua_pushvalue(L, 6);
  lua_pushinteger(L, pos);
  return 2;
}

static int l_sp_lu_solve(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.SuperLU.solve";
  lu_obj *o = check_lu(L, 1, fname);
  ga_array *b = ga_checkarray(L, 2);
  if (b->dtype != o->t || !(b->flags & GA_F_C) || b->size != o->n)
    ga_error(L, "%s: internal: a contiguous %s vector of %d values is needed", fname, ga_dtypes[o->t].name, o->n);
  ga_state *ctx = ga_ctx(L);
  ga_check_device(L, ctx, b, fname);
  lua_settop(L, 2);
  int64_t n64 = o->n;
  ga_array *x = ga_new_array(L, ctx, o->t, 1, &n64);                          /* 3 */
  if (o->n == 0) return 1;
  size_t bytes = (size_t)o->n * (size_t)ga_dtypes[o->t].itemsize;
  void *hb = lua_newuserdatauv(L, bytes, 0);
  void *hx = lua_newuserdatauv(L, bytes, 0);
  ga_to_host(L, ctx, hb, b->data, bytes);
  cusolverSpHandle_t h = sp_handle(L);
  int st;
  switch (o->t) {
    case GA_FLOAT32: st = cusolverSpScsrluSolveHost(h, o->n, (const float *)hb, (float *)hx, o->info, o->buf); break;
    case GA_FLOAT64: st = cusolverSpDcsrluSolveHost(h, o->n, (const double *)hb, (double *)hx, o->info, o->buf); break;
    case GA_COMPLEX64:
      st = cusolverSpCcsrluSolveHost(h, o->n, (const cuComplex *)hb, (cuComplex *)hx, o->info, o->buf);
      break;
    default:
      st = cusolverSpZcsrluSolveHost(h, o->n, (const cuDoubleComplex *)hb, (cuDoubleComplex *)hx, o->info, o->buf);
  }
  SVCHECK(st, "SuperLU.solve: cusolverSp<t>csrluSolveHost");
  ga_to_device(L, ctx, x->data, hx, bytes);
  lua_pushvalue(L, 3);
  return 1;
}

/* a device array of n int32 or values from host memory, pushed */
static void push_device(lua_State *L, int dtype, const void *src, int64_t n) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a = ga_new_array(L, ctx, dtype, 1, &n);
  if (n > 0) ga_to_device(L, ctx, a->data, src, (size_t)n * (size_t)ga_dtypes[dtype].itemsize);
}

static int l_sp_lu_extract(lua_State *L) {
  const char *fname = "scipy.sparse.linalg.splu";
  lu_obj *o = check_lu(L, 1, fname);
  lua_settop(L, 1);
  cusolverSpHandle_t h = sp_handle(L);
  int nl = -1, nu = -1, n = o->n;
  SVCHECK(cusolverSpXcsrluNnzHost(h, &nl, &nu, o->info), "splu: cusolverSpXcsrluNnzHost");
  /* the arrays below are sized by these counts and filled by cuSOLVER */
  if (nl < 0 || nu < 0 || (double)nl > (double)n * n || (double)nu > (double)n * n)
    ga_error(L, "%s: internal: cuSOLVER reported %d and %d entries for the %d x %d factors", fname, nl, nu, n, n);
  size_t isz = (size_t)ga_dtypes[o->t].itemsize;
  int *P = (int *)lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(int), 0);       /* 2 */
  int *Q = (int *)lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(int), 0);       /* 3 */
  int *Lp = (int *)lua_newuserdatauv(L, (size_t)(n + 1) * sizeof(int), 0);              /* 4 */
  int *Li = (int *)lua_newuserdatauv(L, (size_t)(nl > 0 ? nl : 1) * sizeof(int), 0);    /* 5 */
  void *Lv = lua_newuserdatauv(L, (size_t)(nl > 0 ? nl : 1) * isz, 0);                  /* 6 */
  int *Up = (int *)lua_newuserdatauv(L, (size_t)(n + 1) * sizeof(int), 0);              /* 7 */
  int *Ui = (int *)lua_newuserdatauv(L, (size_t)(nu > 0 ? nu : 1) * sizeof(int), 0);    /* 8 */
  void *Uv = lua_newuserdatauv(L, (size_t)(nu > 0 ? nu : 1) * isz, 0);                  /* 9 */
  cusparseMatDescr_t dl = push_descr(L, fname);                                         /* 10 */
  cusparseMatDescr_t du = push_descr(L, fname);                                         /* 11 */
  int st;
  switch (o->t) {
    case GA_FLOAT32:
      st = cusolverSpScsrluExtractHost(h, P, Q, dl, (float *)Lv, Lp, Li, du, (float *)Uv, Up, Ui, o->info, o->buf);
      break;
    case GA_FLOAT64:
      st = cusolverSpDcsrluExtractHost(h, P, Q, dl, (double *)Lv, Lp, Li, du, (double *)Uv, Up, Ui, o->info, o->buf);
      break;
    case GA_COMPLEX64:
      st = cusolverSpCcsrluExtractHost(h, P, Q, dl, (cuComplex *)Lv, Lp, Li, du, (cuComplex *)Uv, Up, Ui, o->info,
                                       o->buf);
      break;
    default:
      st = cusolverSpZcsrluExtractHost(h, P, Q, dl, (cuDoubleComplex *)Lv, Lp, Li, du, (cuDoubleComplex *)Uv, Up, Ui,
                                       o->info, o->buf);
  }
  SVCHECK(st, "splu: cusolverSp<t>csrluExtractHost");
  push_device(L, GA_INT32, P, n);
  push_device(L, GA_INT32, Q, n);
  push_device(L, GA_INT32, Lp, n + 1);
  push_device(L, GA_INT32, Li, nl);
  push_device(L, o->t, Lv, nl);
  push_device(L, GA_INT32, Up, n + 1);
  push_device(L, GA_INT32, Ui, nu);
  push_device(L, o->t, Uv, nu);
  return 8;
}

static const luaL_Reg sparse_solve_funcs[] = {
  {"lsv", l_sp_lsv},
  {"reorder", l_sp_reorder},
  {"sv", l_sp_sv},
  {"ilu0", l_sp_ilu0},
  {"lu", l_sp_lu},
  {"lu_solve", l_sp_lu_solve},
  {"lu_extract", l_sp_lu_extract},
  {NULL, NULL}
};

void ga_open_sparse_solve(lua_State *L) {
  if (luaL_newmetatable(L, LU_MT)) {
    lua_pushcfunction(L, lu_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  ga_setprivate(L, "sparse", sparse_solve_funcs);
}
