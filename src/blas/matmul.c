/*
** matmul.c: the one GEMM entry point under ga.matmul and every product
** built on it (dot, inner, tensordot, einsum, linalg). Lua has already done
** NumPy's semantics (1-D promotion, batch broadcasting, dtype promotion and
** the output); here a (batch..., m, k) times b (batch..., k, n) goes into a
** C-contiguous c (batch..., m, n) of the same dtype:
**   - floating and complex dtypes through cuBLAS (GemmEx, or
**     GemmStridedBatchedEx when there is a batch), float16 and bfloat16
**     accumulating in float32 on tensor cores, float32 optionally in TF32
**     (ga.set_matmul_precision);
**   - integers and bool through kernels/blas/gemm_int.cuh.
** Row-major and column-major (transposed, F-order) matrices are handed to
** cuBLAS as they are, with op flags and leading dimensions; batch axes that
** collapse to one stride (broadcast ones: stride 0) need no copy either.
** Anything else is copied once, to C order.
*/
#include <stdio.h>
#include <string.h>
#include <cublas_v2.h>

#include "blas/blas.h"

/* ---------------------------------------------------------------------- */
/* layouts                                                                */
/* ---------------------------------------------------------------------- */

/* The rows x cols matrix with element strides s0 (rows) and s1 (cols) as
** cuBLAS wants it for C^T = B^T A^T: *op N when the memory read
** column-major is X^T (row-major X), T when it is X (column-major X). 0 if
** neither (then the operand is copied). */
static int mat_layout(int64_t rows, int64_t cols, int64_t s0, int64_t s1, cublasOperation_t *op,
                      int64_t *ld) {
  if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= cols)) {
    *op = CUBLAS_OP_N;
    *ld = rows == 1 ? (cols > 1 ? cols : 1) : s0;
    return 1;
  }
  if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= rows)) {
    *op = CUBLAS_OP_T;
    *ld = cols == 1 ? (rows > 1 ? rows : 1) : s1;
    return 1;
  }
  return 0;
}

/* One stride (bytes) for the batch axes [0, nb) of x, or 0 if they do not
** collapse into one (then x is copied). */
static int batch_stride(const ga_array *x, int nb, int64_t *stride) {
  int64_t st = 0, expect = -1;
  for (int i = nb - 1; i >= 0; i--) {
    if (x->shape[i] == 1) continue;
    if (expect < 0) st = x->strides[i];
    else if (x->strides[i] != expect) return 0;
    expect = x->strides[i] * x->shape[i];
  }
  *stride = st;
  return 1;
}

typedef struct {
  const ga_array *a;
  cublasOperation_t op;
  int64_t ld, bstride;       /* elements */
} operand;

/* x (at idx) as an operand; replaced on the stack by a C-order copy when its
** layout is not one cuBLAS takes. Strides must be multiples of the itemsize. */
static void prepare(lua_State *L, ga_state *ctx, int idx, int nb, operand *o) {
  ga_array *x = ga_readarray(L, idx);
  int64_t isz = ga_dtypes[x->dtype].itemsize;
  int nd = x->ndim;
  int64_t bst = 0;
  int ok = batch_stride(x, nb, &bst) && bst % isz == 0 && bst >= 0 && x->strides[nd - 2] % isz == 0 &&
           x->strides[nd - 1] % isz == 0 &&
           mat_layout(x->shape[nd - 2], x->shape[nd - 1], x->strides[nd - 2] / isz,
                      x->strides[nd - 1] / isz, &o->op, &o->ld);
  if (!ok) {
    x = ga_contiguous(L, ctx, idx, x->dtype, 1);
    lua_replace(L, idx);
    batch_stride(x, nb, &bst);
    mat_layout(x->shape[nd - 2], x->shape[nd - 1], x->strides[nd - 2] / isz, x->strides[nd - 1] / isz,
               &o->op, &o->ld);
  }
  o->a = x;
  o->bstride = bst / isz;
}

/* ---------------------------------------------------------------------- */
/* cuBLAS                                                                 */
/* ---------------------------------------------------------------------- */

static void gemm_blas(lua_State *L, ga_state *ctx, const operand *A, const operand *B, ga_array *c,
                      int64_t m, int64_t n, int64_t k, int64_t batch, int tf32) {
  cudaDataType dt;
  cublasComputeType_t ct;
  float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
  double one_d[2] = {1, 0}, zero_d[2] = {0, 0};
  const void *one = one_f, *zero = zero_f;
  switch (c->dtype) {
    case GA_FLOAT16: dt = CUDA_R_16F; ct = CUBLAS_COMPUTE_32F; break;
    case GA_BFLOAT16: dt = CUDA_R_16BF; ct = CUBLAS_COMPUTE_32F; break;
    case GA_FLOAT32: dt = CUDA_R_32F; ct = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F; break;
    case GA_COMPLEX64: dt = CUDA_C_32F; ct = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F; break;
    case GA_FLOAT64: dt = CUDA_R_64F; ct = CUBLAS_COMPUTE_64F; one = one_d; zero = zero_d; break;
    default: dt = CUDA_C_64F; ct = CUBLAS_COMPUTE_64F; one = one_d; zero = zero_d; break;
  }
  if (m > 0x7fffffff || n > 0x7fffffff || k > 0x7fffffff || batch > 0x7fffffff || A->ld > 0x7fffffff ||
      B->ld > 0x7fffffff)
    ga_error(L, "matmul: dimensions past 2^31 - 1 (cuBLAS's limit)");
  cublasHandle_t h = (cublasHandle_t)ga_lib_handle(L, ctx, &ga_cublas, ctx->stream);
  /* alpha and beta live on the host for GEMM; dot-like calls set DEVICE.
  ** The algorithm hint is CuPy's on sm_80 and later (tensor-op default). */
  ga_lib_check(L, &ga_cublas, cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "matmul: cublasSetPointerMode");
  int st;
  if (batch == 1)
    st = (int)cublasGemmEx(h, B->op, A->op, (int)n, (int)m, (int)k, one, B->a->data, dt, (int)B->ld,
                           A->a->data, dt, (int)A->ld, zero, c->data, dt, (int)n, ct, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  else
    st = (int)cublasGemmStridedBatchedEx(h, B->op, A->op, (int)n, (int)m, (int)k, one, B->a->data, dt,
                                         (int)B->ld, B->bstride, A->a->data, dt, (int)A->ld, A->bstride, zero,
                                         c->data, dt, (int)n, m * n, (int)batch, ct, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  ga_lib_check(L, &ga_cublas, st, batch == 1 ? "matmul: cublasGemmEx" : "matmul: cublasGemmStridedBatchedEx");
  ga_gc_settle(L);
}

/* ---------------------------------------------------------------------- */
/* integers: kernels/blas/gemm_int.cuh                                  */
/* ---------------------------------------------------------------------- */

typedef struct {
  char tag[8];
  int dtype, arch;
} int_key;

/* Push the source of the integer GEMM kernel "k" for dtype (the launch
** path and the CI compile spec, _matmul_int_source, share it) */
static void int_source(lua_State *L, int dtype) {
  const char *T = ga_dtypes[dtype].ctype;
  const char *acc = ga_dtypes[dtype].itemsize == 8 ? "unsigned long long" : "unsigned int";
  char w[512];
  snprintf(w, sizeof w,
           "extern \"C\" __global__ void __launch_bounds__(256) k(const %s *A, const %s *B, %s *C, "
           "long long m, long long n, long long k, long long sab, long long sar, long long sac, "
           "long long sbb, long long sbr, long long sbc, long long z0) "
           "{ ga_gemm_int<%s, %s>(A, B, C, m, n, k, sab, sar, sac, sbb, sbr, sbc, z0); }\n",
           T, T, T, T, acc);
  ga_buf b;
  ga_buf_init(&b);
  ga_buf_add(&b, ga_kernel_source("common"));
  ga_buf_add(&b, ga_kernel_source("gemm_int"));
  ga_buf_add(&b, w);
  lua_pushlstring(L, b.s, b.len);     /* no leak if compiling raises */
  ga_buf_free(&b);
}

static cudaKernel_t int_kernel(lua_State *L, ga_state *ctx, int dtype) {
  int_key key;
  memset(&key, 0, sizeof key);
  memcpy(key.tag, "gemmint", 7);
  key.dtype = dtype;
  key.arch = ga_device_arch(ctx->device);
  cudaKernel_t k = ga_kcache_get(&key, sizeof key);
  if (k) return k;
  int_source(L, dtype);
  size_t len;
  const char *src = lua_tolstring(L, -1, &len);
  ga_program *p = ga_program_get(L, ctx, "matmul", src, len, 0, NULL, 0, NULL);
  k = ga_program_kernel(L, p, "k");
  lua_pop(L, 1);
  ga_kcache_put(&key, sizeof key, k);
  return k;
}

/* core._test.matmul_int_source(dtype) -> the kernel source (CI compiles it) */
static int l_matmul_int_source(lua_State *L) {
  int t = ga_checkdtype(L, 1, GA_INT32, "_matmul_int_source");
  if (!GA_IS_INT(t) && t != GA_BOOL) ga_error(L, "_matmul_int_source: integer or bool dtypes only");
  int_source(L, t);
  return 1;
}

static void gemm_int(lua_State *L, ga_state *ctx, const ga_array *a, const ga_array *b, ga_array *c,
                     int nb, int64_t m, int64_t n, int64_t k, int64_t batch) {
  int64_t isz = ga_dtypes[c->dtype].itemsize;
  int64_t sab = 0, sbb = 0;
  int nd = a->ndim;
  if (!batch_stride(a, nb, &sab) || !batch_stride(b, nb, &sbb))
    ga_error(L, "matmul: internal: batch axes not collapsed");
  long long sar = a->strides[nd - 2] / isz, sac = a->strides[nd - 1] / isz;
  long long sbr = b->strides[nd - 2] / isz, sbc = b->strides[nd - 1] / isz;
  long long lsab = sab / isz, lsbb = sbb / isz, lm = m, ln = n, lk = k;
  cudaKernel_t kern = int_kernel(L, ctx, c->dtype);
  unsigned gx = (unsigned)((n + 63) / 64), gy = (unsigned)((m + 63) / 64);
  if (gy > 65535) ga_error(L, "matmul: integer matmul with more than %d rows", 65535 * 64);
  const void *ap = a->data, *bp = b->data;
  void *cp = c->data;
  for (int64_t z0 = 0; z0 < batch; z0 += 65535) {
    long long lz0 = z0;
    unsigned gz = (unsigned)(batch - z0 < 65535 ? batch - z0 : 65535);
    void *args[] = {&ap, &bp, &cp, &lm, &ln, &lk, &lsab, &sar, &sac, &lsbb, &sbr, &sbc, &lz0};
    ga_launch(L, "matmul", kern, dim3_make(gx, gy, gz), dim3_make(256, 1, 1), args, 0, ctx->stream);
  }
}

/* ---------------------------------------------------------------------- */
/* Lua                                                                    */
/* ---------------------------------------------------------------------- */

/* core.blas.matmul(a, b, c[, tf32]): c = a @ b as described at the top */
static int l_matmul(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a = ga_readarray(L, 1), *b = ga_readarray(L, 2), *c = ga_checkarray(L, 3);
  int tf32 = lua_toboolean(L, 4);
  int nd = c->ndim;
  if (nd < 2 || a->ndim != nd || b->ndim != nd)
    ga_error(L, "_matmul: a, b and c must have one number of axes, at least 2");
  if (a->dtype != c->dtype || b->dtype != c->dtype)
    ga_error(L, "_matmul: one dtype for a, b and c, got %s, %s and %s", ga_dtypes[a->dtype].name,
             ga_dtypes[b->dtype].name, ga_dtypes[c->dtype].name);
  if (!(c->flags & GA_F_C)) ga_error(L, "_matmul: c must be C-contiguous");
  int nb = nd - 2;
  for (int i = 0; i < nb; i++)
    if (a->shape[i] != c->shape[i] || b->shape[i] != c->shape[i])
      ga_error(L, "_matmul: batch axes differ (broadcast them first)");
  int64_t m = a->shape[nd - 2], k = a->shape[nd - 1], n = b->shape[nd - 1];
  if (b->shape[nd - 2] != k || c->shape[nd - 2] != m || c->shape[nd - 1] != n)
    ga_error(L, "_matmul: shapes %s @ %s -> %s do not match", ga_shape_str(L, a->ndim, a->shape),
             ga_shape_str(L, b->ndim, b->shape), ga_shape_str(L, c->ndim, c->shape));
  ga_check_device(L, ctx, a, "matmul");
  ga_check_device(L, ctx, b, "matmul");
  ga_check_device(L, ctx, c, "matmul");
  if (c->size == 0) return 0;
  if (k == 0) {
    ga_value zero;
    memset(&zero, 0, sizeof zero);
    ga_fill(L, ctx, c, &zero);
    return 0;
  }
  int64_t batch = 1;
  for (int i = 0; i < nb; i++) batch *= c->shape[i];
  lua_settop(L, 3);
  operand A, B;
  prepare(L, ctx, 1, nb, &A);
  prepare(L, ctx, 2, nb, &B);
  int t = c->dtype;
  if (GA_IS_FLOAT(t) || GA_IS_COMPLEX(t)) gemm_blas(L, ctx, &A, &B, c, m, n, k, batch, tf32);
  else gemm_int(L, ctx, A.a, B.a, c, nb, m, n, k, batch);
  return 0;
}

/* core.blas.diag_view(x, offset, axis1, axis2): NumPy's diagonal as a view, the
** two axes (1-based) removed and the diagonal appended as the last axis */
static int l_diag_view(lua_State *L) {
  ga_array *x = ga_readarray(L, 1);
  int64_t off = ga_checkinteger(L, 2, "diagonal", "offset");
  if (x->ndim < 2) ga_error(L, "diagonal: the array needs at least 2 axes, it has %d", x->ndim);
  int a1 = ga_checkaxis(L, ga_checkinteger(L, 3, "diagonal", "axis1"), x->ndim, "diagonal");
  int a2 = ga_checkaxis(L, ga_checkinteger(L, 4, "diagonal", "axis2"), x->ndim, "diagonal");
  if (a1 == a2) ga_error(L, "diagonal: axis1 and axis2 are the same axis");
  int64_t n1 = x->shape[a1], n2 = x->shape[a2], r0 = 0, c0 = 0, len = 0;
  /* an offset past either edge gives an empty diagonal (and -off never
  ** meets math.mininteger) */
  if (off >= 0 && off < n2) {
    c0 = off;
    len = n2 - off < n1 ? n2 - off : n1;
  } else if (off < 0 && off > -n1) {
    r0 = -off;
    len = n1 + off < n2 ? n1 + off : n2;
  }
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM];
  int nd = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (i == a1 || i == a2) continue;
    shape[nd] = x->shape[i];
    strides[nd++] = x->strides[i];
  }
  shape[nd] = len;
  /* a zero-size array's strides may be as large as int64 holds, and
  ** neither their sum nor the offset is ever used: 0 for both (an array
  ** with elements spans its strides, so there they fit) */
  int used = len > 0 && x->size > 0;
  strides[nd++] = used ? x->strides[a1] + x->strides[a2] : 0;
  char *data = x->data;
  if (used) data += r0 * x->strides[a1] + c0 * x->strides[a2];
  ga_new_view(L, 1, nd, shape, strides, data);
  return 1;
}

static const luaL_Reg matmul_funcs_blas[] = {
  {"matmul", l_matmul},
  {"diag_view", l_diag_view},
  {NULL, NULL}
};

static const luaL_Reg matmul_funcs_test[] = {
  {"matmul_int_source", l_matmul_int_source},
  {NULL, NULL}
};

void ga_open_matmul(lua_State *L) {
  ga_setprivate(L, "blas", matmul_funcs_blas);
  ga_setprivate(L, GA_TEST, matmul_funcs_test);
}
