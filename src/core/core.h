/*
** core.h: rules with no Lua state and no CUDA calls: dtypes, promotion and
** casting, shapes and strides, the indexer layout, kernel parameter lists
** and __global__ signatures. Everything here is specced without a GPU.
*/
#ifndef GA_CORE_H
#define GA_CORE_H

#include "base/base.h"

/* ===================================================================== */
/* dtype.c: the dtype table and promotion (pure C)                       */
/* ===================================================================== */

typedef enum {
  GA_BOOL, GA_INT8, GA_INT16, GA_INT32, GA_INT64,
  GA_UINT8, GA_UINT16, GA_UINT32, GA_UINT64,
  GA_FLOAT16, GA_FLOAT32, GA_FLOAT64, GA_COMPLEX64, GA_COMPLEX128,
  GA_NDTYPES
} ga_dtype;

typedef struct {
  const char *name;   /* "float32" */
  int itemsize;       /* bytes */
  char kind;          /* NumPy's kind: b i u f c */
  const char *ctype;  /* the CUDA type name kernels use (kernels/common/common.cuh) */
  char code;          /* NumPy's type character: ? b h i l B H I L e f d F D */
  int nmant, nexp;    /* floats and complex: the (component) float's stored
                      ** mantissa and exponent bits; 0 for the others */
} ga_dtype_info;

extern const ga_dtype_info ga_dtypes[GA_NDTYPES];

#define GA_IS_INT(t)     ((t) >= GA_INT8 && (t) <= GA_UINT64)
#define GA_IS_SIGNED(t)  ((t) >= GA_INT8 && (t) <= GA_INT64)
#define GA_IS_UNSIGNED(t) ((t) >= GA_UINT8 && (t) <= GA_UINT64)
#define GA_IS_FLOAT(t)   ((t) >= GA_FLOAT16 && (t) <= GA_FLOAT64)
#define GA_IS_COMPLEX(t) ((t) == GA_COMPLEX64 || (t) == GA_COMPLEX128)

int ga_dtype_lookup(const char *name);          /* -1 when unknown */
ga_dtype ga_promote(ga_dtype a, ga_dtype b);    /* NumPy's promotion table */

/* Weak Lua scalars (NEP 50): what a Lua value of this kind does to a strong
** dtype. 'kind' is 'b' (boolean), 'i' (integer), 'f' (float), 'c' (complex). */
ga_dtype ga_promote_weak(ga_dtype strong, char kind);
ga_dtype ga_default_for_kind(char kind);        /* bool, int64, float64, complex128 */

/* promote.c: NumPy's result_type of many operands, independent of their
** order. t[] holds dtypes and, for weak Lua numbers, the abstract Python
** int/float/complex DTypes below (a Lua boolean is GA_BOOL); it is
** reordered. Returns a dtype or an abstract DType (ga_sequence_default
** makes it concrete), -1 when there is none. */
#define GA_PY_INT     (GA_NDTYPES)
#define GA_PY_FLOAT   (GA_NDTYPES + 1)
#define GA_PY_COMPLEX (GA_NDTYPES + 2)
int ga_promote_sequence(int n, int *t);
int ga_sequence_default(int t);

/* Host-side scalar conversions. A ga_value holds one element of any dtype in
** its storage representation (bytes as laid out in device memory). */
typedef union {
  uint8_t b; int8_t i8; int16_t i16; int32_t i32; int64_t i64;
  uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
  uint16_t f16; float f32; double f64;
  float c64[2]; double c128[2];
  unsigned char bytes[16];
} ga_value;

uint16_t ga_double_to_half(double d);           /* round to nearest even */
double ga_half_to_double(uint16_t h);

/* Converting a Lua-side number into a dtype's storage. Returns NULL on
** success or a static reason ("does not fit", "is not an integer") */
const char *ga_value_from_int(ga_dtype t, lua_Integer v, ga_value *out);
const char *ga_value_from_float(ga_dtype t, double v, ga_value *out);
void ga_value_from_complex(ga_dtype t, double re, double im, ga_value *out);
/* C casting between two storage values (what astype does on the device) */
void ga_value_cast(ga_dtype to, ga_value *out, ga_dtype from, const ga_value *in);
/* Reading storage back: the value as double (real part for complex) */
double ga_value_to_double(ga_dtype t, const ga_value *v);

/* ===================================================================== */
/* shape.c: broadcasting, strides, contiguity, axis merging (pure C)     */
/* ===================================================================== */

/* Product of shape[0..ndim); -1 when a dimension is negative or the product
** of the non-zero dimensions overflows int64 (NumPy's "array is too big":
** such a shape is refused even when another dimension is 0, so that strides
** computed from it never overflow) */
int64_t ga_shape_size(int ndim, const int64_t *shape);
/* Bytes of a C-contiguous array of that shape, -1 under the same rule
** (the product of the non-zero dimensions times itemsize) */
int64_t ga_shape_nbytes(int ndim, const int64_t *shape, int64_t itemsize);
/* Checked arithmetic for shapes, sizes and byte counts: 0 on overflow */
static inline int ga_mul64(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }
static inline int ga_add64(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
/* A float as an int64 when it is integral and representable: 0 for NaN,
** infinities, fractions and values out of range (never a UB conversion) */
int ga_double_to_int64(double d, int64_t *out);
/* C-order strides in bytes */
void ga_c_strides(int ndim, const int64_t *shape, int64_t itemsize, int64_t *strides);
int ga_is_c_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);
int ga_is_f_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);

/* Broadcast n shapes; returns -1 on success, else the index of the first
** operand that cannot be broadcast against those before it. */
int ga_broadcast(int n, const int *ndims, const int64_t *const *shapes,
                 int *out_ndim, int64_t *out_shape);
/* Strides of an operand (ndim, shape, strides) viewed at the broadcast shape
** (out_ndim, out_shape): 0 along broadcast axes. Returns 0 when impossible. */
int ga_broadcast_strides(int ndim, const int64_t *shape, const int64_t *strides,
                         int out_ndim, const int64_t *out_shape, int64_t *out_strides);

/* Simplify an iteration space shared by nop operands (all with the same
** shape): drop size-1 axes, then merge neighbouring axes that are contiguous
** for every operand (stride[d] == stride[d+1] * shape[d+1]). shape and the
** strides arrays are rewritten in place; returns the new ndim (0 for a
** single element). A zero-size space is returned unchanged. */
int ga_merge_axes(int ndim, int64_t *shape, int nop, int64_t **strides);

/* Furthest byte offsets reachable from element 0 (for 32-bit index checks
** and bounds): lo <= 0 <= hi. */
void ga_extent(int ndim, const int64_t *shape, const int64_t *strides,
               int64_t *lo, int64_t *hi);

/* Try to reshape without copying (NumPy's attempt_nocopy_reshape); returns 1
** and fills new_strides when the data can be viewed with the new shape. */
int ga_reshape_strides(int ndim, const int64_t *shape, const int64_t *strides,
                       int new_ndim, const int64_t *new_shape, int64_t itemsize,
                       int64_t *new_strides);

/* indexer.c: shapes and strides packed as kernels/common/common.cuh's
** ga_indexer32<ND, NOP> / ga_indexer64<ND, NOP> kernel arguments */
#define GA_IX_MAXOP 16
typedef struct {
  _Alignas(16) unsigned char bytes[8 * GA_MAXDIM * (GA_IX_MAXOP + 1)];
  size_t len;
} ga_ixbuf;
/* 32-bit indexing is possible: fewer than 2^31 elements, byte offsets in int32 */
int ga_fits32(int nd, const int64_t *shape, int nop, int64_t *const *strides);
void ga_pack_indexer32(ga_ixbuf *b, int nd, const int64_t *shape, int nop, int64_t *const *strides);
void ga_pack_indexer64(ga_ixbuf *b, int nd, const int64_t *shape, int nop, int64_t *const *strides);
/* The C names a kernel instantiated for 32- or 64-bit indexing uses: the
** count type I, the offset type O and the indexer template IX */
typedef struct {
  const char *I, *O, *IX;
} ga_ixnames;
ga_ixnames ga_ix_names(int idx64);


/* dtype.c: NumPy's casting rules */
int ga_can_cast_safe(int from, int to);
int ga_can_cast_same_kind(int from, int to);
/* np.can_cast(from, to, casting) for casting "no", "equiv", "safe",
** "same_kind" or "unsafe"; -1 for another casting name */
int ga_can_cast(int from, int to, const char *casting);
/* The real dtype of a complex one's parts (the dtype itself otherwise) */
int ga_component_dtype(int t);

/* ===================================================================== */
/* scalarmath.c: NumPy's scalar arithmetic on the host (typed scalars)    */
/* ===================================================================== */

typedef enum {
  GA_SOP_ADD, GA_SOP_SUBTRACT, GA_SOP_MULTIPLY, GA_SOP_DIVIDE, GA_SOP_FLOOR_DIVIDE,
  GA_SOP_REMAINDER, GA_SOP_POWER, GA_SOP_BITWISE_AND, GA_SOP_BITWISE_OR, GA_SOP_BITWISE_XOR,
  GA_SOP_LEFT_SHIFT, GA_SOP_RIGHT_SHIFT, GA_SOP_NEGATIVE, GA_SOP_INVERT,
  GA_SOP_N
} ga_sop;

const char *ga_sop_name(ga_sop op);   /* the ufunc it stands for: "add" */
int ga_sop_nin(ga_sop op);            /* 1 or 2 */
/* The loop for operands promoted to dtype P, as the ufunc's: the dtype the
** operands convert to (in) and the result's (out). -1 with the reason in
** err (GA_ERRMSG_MAX bytes) when there is none. */
int ga_sop_resolve(ga_sop op, int P, int *in, int *out, char *err);
/* r = a op b (b unused, may be NULL, for the unary ones), a and b of dtype
** in, r of dtype out. NULL, or the reason it has no value (an integer to a
** negative power). */
const char *ga_sop_apply(ga_sop op, int in, int out, const ga_value *a, const ga_value *b, ga_value *r);
/* a compared with b: integers and bools exactly (as NumPy 2 compares Python
** integers), other values converted to P, their promoted dtype. -1, 0, 1,
** or 2 for NaN (unordered) and for unequal complex values. */
int ga_value_compare(int P, int ta, const ga_value *a, int tb, const ga_value *b);
/* The value printed as NumPy's repr: the shortest digits that read back
** ("0.1" for float32's 0.1, "1.0", "1+2j", "18446744073709551615") */
void ga_value_repr(int t, const ga_value *v, char *buf, size_t n);

/* ctoken.c: is the first use of name in the C statements op an
** unconditional assignment ("z = ...;" at the top level before any control
** flow)? Then an output is never loaded. */
int ga_assigned_first(const char *op, const char *name);

/* srccheck.c: what NVRTC may be given. A name expression must be a name
** with balanced brackets (1, or 0 with the reason in why); a source that
** does not lex as C++ (invalid UTF-8, control bytes, an unterminated comment
** or literal, unbalanced brackets) is suspicious (1, with the reason). */
#define GA_NAME_EXPR_MAX 1024
int ga_name_expr_check(const char *s, char *why, size_t cap);
int ga_source_suspicious(const char *src, size_t len, char *why, size_t cap);

/* ===================================================================== */
/* params.c: CuPy-style kernel parameter lists                           */
/* ===================================================================== */

#define GA_MAXPARAMS 32
#define GA_ERRMSG_MAX 256   /* the messages core/ writes instead of raising */
#define GA_NAME_MAX 64

typedef struct {
  char name[GA_NAME_MAX];   /* the identifier used in the CUDA code */
  char type[GA_NAME_MAX];   /* as written: "float32", "T", ... */
  int dtype;                /* fixed dtype, or -1 for a placeholder type */
  int raw;                  /* "raw": indexed by the user, not per element */
} ga_param;

typedef struct {
  int n;
  ga_param p[GA_MAXPARAMS];
} ga_paramlist;

/* Parse "type name, raw type name, ..." (empty string: no parameters).
** Returns -1 with "<fname>: ..." in err naming the bad parameter: unknown
** syntax, duplicate names, reserved names (i and names starting with '_'),
** unknown types. Placeholder types are one letter (as in CuPy). */
int ga_parse_params(const char *s, ga_paramlist *out, const char *fname, char *err);

/* Index of the parameter called name, or -1 */
int ga_params_find(const ga_paramlist *l, const char *name);
/* -1 (and a message) when an output parameter reuses an input's name */
int ga_params_check_disjoint(const ga_paramlist *in, const ga_paramlist *out, const char *fname,
                             char *err);

/* Placeholder bindings: type name -> dtype */
typedef struct {
  int n;
  char name[GA_MAXPARAMS][GA_NAME_MAX];
  int dtype[GA_MAXPARAMS];
} ga_typemap;

void ga_typemap_init(ga_typemap *m);
int ga_typemap_get(const ga_typemap *m, const char *name);        /* -1 if unbound */
/* Bind name to dtype; returns 0 when name is bound to another dtype */
int ga_typemap_bind(ga_typemap *m, const char *name, int dtype);

/* The dtype of a parameter under the bindings (-1 if unbound) */
int ga_param_dtype(const ga_param *p, const ga_typemap *m);

/* "typedef float T;\n..." for every binding, for generated sources */
void ga_typemap_typedefs(const ga_typemap *m, ga_buf *b);

/* ===================================================================== */
/* sigparse.c: __global__ declarations in CUDA source                    */
/* ===================================================================== */

#include <stddef.h>

#define GA_SIG_MAXPARAMS 128
#define GA_SIG_MAXTPARAMS 16
#define GA_SIG_TYPE 64      /* room for a type as written (truncated beyond) */
#define GA_SIG_NAME 64

typedef enum {
  GA_SIG_POINTER,   /* T *x, T x[]: takes an ndarray (its device pointer) */
  GA_SIG_SCALAR,    /* a type we know: Lua numbers convert to dtype */
  GA_SIG_UNKNOWN    /* a struct, an unbound template type, ...: typed scalars only */
} ga_sigkind;

typedef struct {
  int kind;                  /* ga_sigkind */
  int dtype;                 /* GA_SIG_SCALAR: the ga_dtype; else -1 */
  int tparam;                /* the template parameter that is the whole type, or -1 */
  char type[GA_SIG_TYPE];    /* the type, qualifiers dropped: "unsigned int", "float*" */
  char name[GA_SIG_NAME];    /* "" when the parameter is unnamed */
} ga_sigparam;

typedef struct {
  char name[GA_SIG_NAME * 2];  /* truncated beyond 127 characters: */
  const char *name_at;       /* the whole name, in the scanned source */
  size_t name_len;
  int extern_c;              /* declared extern "C" (its symbol is its name) */
  int ntparams;              /* template parameters (0: not a template) */
  char tparams[GA_SIG_MAXTPARAMS][GA_SIG_NAME];
  int tparam_is_type[GA_SIG_MAXTPARAMS];
  int nparams;               /* -1: more than GA_SIG_MAXPARAMS or unreadable */
  ga_sigparam params[GA_SIG_MAXPARAMS];
} ga_sigkernel;

/* Scanning a source for every __global__ declaration, in order. Comments,
** string literals and preprocessor lines are skipped; simple aliases
** (`typedef float real;`, `using idx = long long;`) declared before a kernel
** are understood. */
#define GA_SIG_MAXALIAS 32
#define GA_SIG_MAXNEST 64
typedef struct {
  const char *src, *end, *p;
  const char *decl;          /* where the current declaration began */
  int depth;                 /* brace depth */
  unsigned char block[GA_SIG_MAXNEST];   /* per depth: 1 inside extern "C" { } */
  int nalias;
  char alias[GA_SIG_MAXALIAS][GA_SIG_NAME];
  int alias_dtype[GA_SIG_MAXALIAS];      /* -1: a pointer type */
} ga_sigscan;

void ga_sig_begin(ga_sigscan *s, const char *src, size_t len);
/* The next kernel into *k; 0 at the end of the source */
int ga_sig_next(ga_sigscan *s, ga_sigkernel *k);

/* The kernel a launch name refers to: "add", or a name expression such as
** "scale<float, 4>" / "&ns::scale<double>" whose type arguments bind the
** kernel's template parameters (parameters of type T become scalars of that
** type). Returns 1 when found. */
int ga_sig_find(const char *src, size_t len, const char *name, ga_sigkernel *k);

/* The dtype of a C type written as text ("unsigned long", "std::int32_t",
** "complex<float>"): a ga_dtype, -1 for a pointer type, -2 when unknown */
int ga_sig_ctype(const char *text);

const char *ga_sig_kindname(int kind);   /* "pointer", "scalar", "unknown" */

#endif
