/*
** array.h: the ndarray and what reads and writes it: views, Lua arguments
** that name shapes, dtypes and axes, typed scalars, creation, transfers,
** indexing, the copy engine and pinned host arrays.
*/
#ifndef GA_ARRAY_H
#define GA_ARRAY_H

#include "compile/compile.h"

#define GA_ARRAY_MT  "gpuarray.ndarray"
#define GA_SCALAR_MT "gpuarray.scalar"
#define GA_DTYPE_MT  "gpuarray.dtype"

/* ===================================================================== */
/* ndarray.c: the array userdata                                         */
/* ===================================================================== */

enum { GA_F_C = 1, GA_F_F = 2, GA_F_FREED = 4 };

typedef struct ga_array {
  char *data;               /* device address of element 0 */
  ga_block *block;          /* the allocation it uses; NULL for size 0 or freed */
  int64_t size;
  int ndim;
  int dtype;
  int device;
  int flags;                /* GA_F_* */
  int64_t shape[GA_MAXDIM];
  int64_t strides[GA_MAXDIM];  /* bytes, may be negative or 0 */
} ga_array;

/* A usable array at idx, or raise (not an array / freed) */
ga_array *ga_checkarray(lua_State *L, int idx);
/* Raise "<fname>: array is on device X, the current device is Y" unless a
** is on the current device */
void ga_check_device(lua_State *L, ga_state *ctx, const ga_array *a, const char *fname);
/* Give a's memory back to the pool now (stream-ordered reuse) and leave it
** freed: __gc/free(), and temporaries that are done */
void ga_array_release(ga_array *a);
/* An array at idx or NULL (freed arrays included) */
ga_array *ga_toarray(lua_State *L, int idx);

/* Push a new C-contiguous array and allocate its memory from the pool. */
ga_array *ga_new_array(lua_State *L, ga_state *ctx, int dtype, int ndim, const int64_t *shape);
/* Push a view of base (at base_idx) with the given layout; data is an
** address inside base's block. Shares the block and keeps base alive. */
ga_array *ga_new_view(lua_State *L, int base_idx, int ndim, const int64_t *shape,
                      const int64_t *strides, char *data);
/* Do the bytes two arrays can reach intersect? (same allocation only) */
int ga_arrays_overlap(const ga_array *x, const ga_array *y);
/* Recompute size and contiguity flags after shape/strides changed */
void ga_array_update_flags(ga_array *a);

/* index.c: __index / __newindex with a non-string key (x at 1, key at 2,
** value at 3 for writes) */
int ga_index_read(lua_State *L);
int ga_index_write(lua_State *L);

/* Reading shapes, axes and dtypes from Lua arguments */
int ga_checkshape(lua_State *L, int idx, int64_t *shape, const char *fname); /* returns ndim */
/* An integer or a list of up to GA_MAXDIM integers (any sign); returns the count */
int ga_checkintlist(lua_State *L, int idx, int64_t *out, const char *fname);
void ga_pushshape(lua_State *L, int ndim, const int64_t *shape);
/* A dtype argument: name string, ga.float32-style constructor, or a table
** with a name field. def is returned when the argument is nil/absent. */
int ga_checkdtype(lua_State *L, int idx, int def, const char *fname);
/* Normalise a 1-based (negative from the end) axis; raises naming fname */
int ga_checkaxis(lua_State *L, lua_Integer axis, int ndim, const char *fname);
/* "{2,3}" for messages */
const char *ga_shape_str(lua_State *L, int ndim, const int64_t *shape);

/* ===================================================================== */
/* scalar.c: typed scalars (ga.int32(7)) and Lua values as dtypes        */
/* ===================================================================== */

typedef struct {
  int dtype;
  ga_value v;
} ga_scalar;

ga_scalar *ga_toscalar(lua_State *L, int idx);   /* NULL if not a typed scalar */
ga_scalar *ga_push_scalar(lua_State *L, int dtype, const ga_value *v);
/* Convert the Lua value at idx (number, boolean, {re, im}, typed scalar) to
** dtype t; raises "gpuarray: <fname>: <value> does not fit <dtype>" */
void ga_checkvalue(lua_State *L, int idx, int t, ga_value *out, const char *fname);
/* The kind of a Lua scalar for weak promotion ('b','i','f','c') or 0 */
char ga_scalar_kind(lua_State *L, int idx);
/* Push one element of dtype t as a Lua value (number/boolean/{re, im}) */
void ga_pushvalue(lua_State *L, int t, const void *elem);
/* scalar_ops.c: the typed scalars' arithmetic and comparison metamethods */
extern const luaL_Reg ga_scalar_ops[];
/* dtype_lua.c: push the one dtype object of t (ga.float32 for GA_FLOAT32) */
void ga_push_dtype(lua_State *L, int t);

/* ===================================================================== */
/* copy.c: the copy engine (strided copy, cast, fill, arange)             */
/* ===================================================================== */

/* dst[...] = src broadcast to dst's shape, cast to dst's dtype, on the
** current stream. Raises when shapes cannot be broadcast. Handles overlap
** between dst and src by copying through a temporary. */
void ga_copy_into(lua_State *L, ga_state *ctx, ga_array *dst, const ga_array *src, const char *fname);
/* Every element of dst (any layout) set to v (in dst's dtype storage) */
void ga_fill(lua_State *L, ga_state *ctx, ga_array *dst, const ga_value *v);
/* dst (contiguous, 1-D) = start + i * step computed in double, or in int64
** when use_int is 1, then cast to dst's dtype (use_int 2: the double
** floored first); exact_last pins the last value */
void ga_arange_fill(lua_State *L, ga_state *ctx, ga_array *dst, double start, double step,
                    int64_t istart, int64_t istep, int use_int, int exact_last, double last);
/* peer.c: push a copy (of dtype, or its own when < 0) of the array at idx,
** which is on another device, on the current device */
void ga_copy_across(lua_State *L, ga_state *ctx, int idx, int dtype);

/* Push a C-contiguous copy of a (or a itself when already contiguous and
** same dtype and !force) */
ga_array *ga_contiguous(lua_State *L, ga_state *ctx, int idx, int dtype, int force);

/* ===================================================================== */
/* transfer.c: host <-> device                                           */
/* ===================================================================== */

/* Synchronous copies on the current stream */
void ga_to_host(lua_State *L, ga_state *ctx, void *dst, const void *src, size_t n);
void ga_to_device(lua_State *L, ga_state *ctx, void *dst, const void *src, size_t n);
/* The array at dst_idx (any layout) takes the value at src_idx: an ndarray
** (broadcast, cast), a Lua scalar or typed scalar (fill), a nested table or
** a byte string of exactly nbytes (C order) */
void ga_assign(lua_State *L, ga_state *ctx, int dst_idx, int src_idx, const char *fname);
/* Push the C-order elements at buf (dtype t, shape) as nested Lua tables
** (totable); raises "<fname>: ..." when an empty array would need more than
** 2^24 tables for its rows before the 0-length axis */
void ga_push_nested(lua_State *L, const char *buf, int t, int nd, const int64_t *shape, const char *fname);


/* ===================================================================== */
/* pinned.c: page-locked host arrays                                     */
/* ===================================================================== */

#define GA_PINNED_MT "gpuarray.PinnedArray"

/* The host address of the pinned array at idx (mapped: kernels may use it),
** NULL when the value is no pinned array; raises for a freed one. */
void *ga_pinned_data(lua_State *L, int idx);
/* Around work queued on s that reads or writes the pinned array at idx:
** before, s waits for earlier transfers of it on other streams; after, Lua
** reads and writes of it wait for that work, and its memory is reused only
** once the work is done. */
void ga_pinned_before(lua_State *L, int idx, cudaStream_t s);
void ga_pinned_after(lua_State *L, int idx, cudaStream_t s);

/* ===================================================================== */
/* operand.c: what a Lua value stands for as an operand                  */
/* ===================================================================== */

enum { GA_OP_NONE, GA_OP_ARRAY, GA_OP_TYPED, GA_OP_WEAK, GA_OP_DTYPE };

typedef struct {
  int kind;          /* GA_OP_* */
  int dtype;         /* arrays, typed scalars and dtype specifiers; -1 for weak scalars */
  char weak;         /* weak scalars (NEP 50): 'b' boolean, 'i' integer, 'f' float, 'c' {re, im} */
  int idx;           /* its stack index */
  ga_array *a;       /* GA_OP_ARRAY (freed arrays too: the caller decides) */
  ga_scalar *s;      /* GA_OP_TYPED */
} ga_operand;

/* Read the value at idx; dtype specifiers count only when dtypes_ok.
** Returns o->kind (GA_OP_NONE: none of these). */
int ga_operand_read(lua_State *L, ga_state *ctx, int idx, int dtypes_ok, ga_operand *o);
/* A scalar operand (typed or weak) as dtype t's storage, as NumPy converts
** it for a loop of that type: a typed scalar is cast, a Lua float past
** float16/float32's range becomes inf, a Lua integer that does not fit an
** integer type raises "<fname>: Lua integer 300 does not fit int8" */
void ga_operand_value(lua_State *L, const ga_operand *o, int t, ga_value *out, const char *fname);
/* A table of exactly two numbers: one complex value */
int ga_is_complex_pair(lua_State *L, int idx);

/* The ndarray at idx or NULL (freed ones too), by one compare with the
** metatable identity kept in the state: the hot paths' test */
static inline ga_array *ga_toarray_in(lua_State *L, ga_state *ctx, int idx) {
  ga_array *a = (ga_array *)lua_touserdata(L, idx);
  if (!a || !lua_getmetatable(L, idx)) return NULL;
  const void *m = lua_topointer(L, -1);
  lua_settop(L, -2);
  return m == ctx->array_mt ? a : NULL;
}

/* Is the value at idx a pinned array? x:set(h) with one (ga_pinned_set):
** an asynchronous host-to-device copy (stream option at 3) */
int ga_is_pinned(lua_State *L, int idx);
int ga_pinned_set(lua_State *L);

void ga_open_pinned(lua_State *L);

/* The metamethods both array types answer (ndarray.c, pinned.c), listed
** once so that code handed either sees one protocol: release serves __gc
** and __close, index is __index over the context and the method table on
** top (popped). Their bodies are each type's own. */
typedef struct {
  lua_CFunction release, index, newindex, len, tostring;
} ga_arraylike;
void ga_new_arraylike(lua_State *L, const char *mt, const ga_arraylike *t);

/* The result dtype of the Lua values at [first, first+n): arrays, dtype
** specifiers and typed scalars are strong, Lua numbers and booleans weak;
** a Lua integer that does not fit an integer result raises. */
int ga_result_type(lua_State *L, int first, int n, const char *fname);

void ga_open_dtype(lua_State *L);     /* into the module table on top */
/* dtype_table.c: NumPy's type character of each dtype ("?bhilBHILefdFD", by
** id), the dtype of one (-1: none), and core.ndarray.dtypes */
extern const char ga_dtype_chars[GA_NDTYPES + 1];
int ga_dtype_of_char(char c);
void ga_open_dtype_table(lua_State *L);
void ga_open_shape(lua_State *L);
void ga_open_scalar(lua_State *L);
void ga_open_ndarray(lua_State *L);   /* metatable, methods */
void ga_open_transfer(lua_State *L);
void ga_open_create(lua_State *L);
void ga_open_index(lua_State *L);
void ga_open_copy(lua_State *L);

/* params_lua.c: kernel parameter lists (core/params.c) read for the
** user-kernel engines (ElementwiseKernel, ReductionKernel): parsed, or a
** gpuarray error raised */
void ga_parse_params_or_raise(lua_State *L, const char *s, ga_paramlist *out, const char *fname);
/* The arguments of a user kernel's k:compile(dtype...) (from stack slot 2):
** one dtype per input, or per input and output. Fills dt[] (-1 for outputs
** not given) and returns how many were given; raises on a wrong count or a
** value that is not a dtype. */
int ga_compile_dtypes(lua_State *L, const char *kname, int nin, int nout, int *dt);
/* Both lists of a user kernel, checked to share no name */
void ga_kernel_params(lua_State *L, const char *in_s, const char *out_s, ga_paramlist *in, ga_paramlist *out,
                      const char *fname);
void ga_open_params(lua_State *L);

/* The ndarray method table (upvalue of __index): files add their methods */
void ga_push_methods(lua_State *L);

#endif
