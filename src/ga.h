/*
** ga.h: the internal interfaces every C file of gpuarray shares.
** One section a concern, in layer order (DESIGN.md): pure helpers first, then
** the runtime, the engines, and the ndarray itself. Exported symbols use the
** ga_ prefix; everything else in a .c file is static.
*/
#ifndef GA_H
#define GA_H

#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

#include <lua.h>
#include <lauxlib.h>

#include <cuda.h>               /* driver types only: the module never links libcuda */
#include <cuda_runtime_api.h>

#define GA_VERSION "0.1.0"
#define GA_MAXDIM 32

#define GA_ARRAY_MT  "gpuarray.ndarray"
#define GA_SCALAR_MT "gpuarray.scalar"
#define GA_DTYPE_MT  "gpuarray.dtype"

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
  const char *ctype;  /* the CUDA type name kernels use (kernels/common.cuh) */
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
/* The result dtype of the Lua values at [first, first+n): arrays, dtype
** specifiers and typed scalars are strong, Lua numbers and booleans weak;
** a Lua integer that does not fit an integer result raises. */
int ga_result_type(lua_State *L, int first, int n, const char *fname);

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

/* Product of shape[0..ndim); -1 when it overflows int64 */
int64_t ga_shape_size(int ndim, const int64_t *shape);
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

/* indexer.c: shapes and strides packed as kernels/common.cuh's
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

/* ===================================================================== */
/* Per-Lua-state context (module.c)                                      */
/* ===================================================================== */

typedef struct ga_pool ga_pool;

typedef struct ga_state {
  lua_State *main;        /* the main thread, for lua_gc */
  int device;             /* current device ordinal */
  cudaStream_t stream;    /* current stream (NULL: the legacy default stream) */
  int stream_ref;         /* registry ref of the current Stream object, or LUA_NOREF */
  ga_pool *pool;          /* current allocator for this state (NULL: the device default) */
  size_t gc_debt;         /* device bytes allocated since the collector last stepped */
  int default_dtype;      /* ga.set_default_dtype */
} ga_state;

/* The context of L; every C function of the module has it as upvalue 1,
** ga_state_get finds it through the registry (for host C code). */
#define ga_ctx(L) ((ga_state *)lua_touserdata((L), lua_upvalueindex(1)))
ga_state *ga_state_get(lua_State *L);
void ga_state_push(lua_State *L);       /* the context userdata, for closures */

/* Register funcs into the table on top with the context as their upvalue */
void ga_setfuncs(lua_State *L, const luaL_Reg *funcs);
/* Metatable mt with the metamethods meta (context upvalue) and an __index
** closure index(self, key) over the context and a table of methods */
void ga_new_type(lua_State *L, const char *mt, const luaL_Reg *meta, const luaL_Reg *methods,
                 lua_CFunction index);

/* ===================================================================== */
/* errors (module.c)                                                     */
/* ===================================================================== */

/* luaL_error with the "gpuarray: " prefix */
int ga_error(lua_State *L, const char *fmt, ...);
/* Raise "gpuarray: <what>: <cudaErrorName> (<string>)" unless err is success */
void ga_cuda_check(lua_State *L, cudaError_t err, const char *what);

/* ===================================================================== */
/* cuda.c: lazy initialisation and devices                               */
/* ===================================================================== */

int ga_device_count(void);                 /* 0 when no driver/device (never raises) */
/* Make sure CUDA is initialised and ctx->device is current on this thread;
** raises a clear error when there is no device. Cheap after the first call. */
void ga_device_enter(lua_State *L, ga_state *ctx);
int ga_device_arch(int device);            /* major*10+minor, e.g. 90 */
/* Cached properties used on hot paths */
typedef struct {
  int sm_count;
  int max_threads_per_block;
  int max_grid[3];
  int max_block[3];
  size_t shared_per_block;
  size_t shared_per_block_optin;
  int warp_size;
  int arch;
} ga_devinfo;
const ga_devinfo *ga_device_info(lua_State *L, int device);

/* ===================================================================== */
/* pool.c: the device memory pool                                        */
/* ===================================================================== */

/* A refcounted device allocation. Arrays and views hold references; the
** memory goes back to its pool when the last one is released. */
typedef struct ga_block ga_block;
struct ga_block {
  void *ptr;
  size_t size;            /* bytes usable (rounded) */
  atomic_int refs;
  int device;
  cudaStream_t stream;    /* the stream it was allocated on */
  ga_pool *pool;          /* owner, NULL for wrapped host-owned memory */
  /* wrapped memory (ga_wrap): called when the last reference goes */
  void (*release)(void *ctx, void *ptr);
  void *release_ctx;
  void *priv;             /* the pool's bookkeeping */
};

/* The default pool of a device (process-wide, created on first use) */
ga_pool *ga_pool_default(int device);
/* Allocate nbytes on stream s. On failure: empties cached blocks, asks the
** Lua collector for a full cycle, retries, then raises
** "gpuarray: out of device memory (requested N bytes, pool holds M)".
** Steps the collector in proportion to the bytes handed out. */
ga_block *ga_alloc(lua_State *L, ga_state *ctx, size_t nbytes);
void ga_block_retain(ga_block *b);
void ga_block_release(ga_block *b);        /* never raises */

typedef struct {
  size_t used_bytes, total_bytes, free_bytes, n_free_blocks, limit;
} ga_pool_stats;
void ga_pool_get_stats(ga_pool *p, ga_pool_stats *st);
void ga_pool_free_all(ga_pool *p);
void ga_pool_set_limit(ga_pool *p, size_t limit);   /* 0: no limit */
/* Plain allocation without the Lua side (NULL on failure) */
ga_block *ga_pool_try_alloc(ga_pool *p, size_t nbytes, cudaStream_t s);

/* ===================================================================== */
/* compile.c: NVRTC, the in-memory and on-disk kernel caches             */
/* ===================================================================== */

typedef struct ga_program ga_program;

/* Compile (or fetch from the caches) src for the current device's arch and
** load it. 'what' names the caller for error messages. name_exprs are
** NVRTC name expressions (templated kernels), NULL when nnames is 0.
** Raises "gpuarray: <what>: compile error ..." with NVRTC's log and the
** offending source lines. The result lives until the process ends. */
ga_program *ga_program_get(lua_State *L, ga_state *ctx, const char *what,
                           const char *src, size_t srclen,
                           int nopts, const char *const *opts,
                           int nnames, const char *const *name_exprs);
/* A kernel of a program by name (or by one of its name expressions) */
cudaKernel_t ga_program_kernel(lua_State *L, ga_program *p, const char *name);

/* Compile only, for an explicit arch (no device needed: used by specs on
** machines without a GPU). Returns 0 and sets *binsize, or raises. */
int ga_compile_for_arch(lua_State *L, const char *what, const char *src, size_t srclen,
                        int nopts, const char *const *opts, int arch, size_t *binsize);

/* kcache.c: the engines' memo, key bytes -> kernel. Keys say what was
** generated (engine tag, dtypes, variant) and must include the device arch. */
#define GA_KKEY_MAX 96
cudaKernel_t ga_kcache_get(const void *key, size_t len);    /* NULL on a miss */
void ga_kcache_put(const void *key, size_t len, cudaKernel_t k);

/* Built-in kernel sources embedded at build time (kernels/ *.cuh, see
** tools/embed.lua): NULL when no such file */
const char *ga_kernel_source(const char *name);

/* Fixed-size growable string buffer for code generation */
typedef struct {
  char *s; size_t len, cap;
} ga_buf;
void ga_buf_init(ga_buf *b);
void ga_buf_add(ga_buf *b, const char *s);
void ga_buf_addf(ga_buf *b, const char *fmt, ...);
void ga_buf_free(ga_buf *b);

static inline dim3 dim3_make(unsigned x, unsigned y, unsigned z) {
  dim3 d;
  d.x = x; d.y = y; d.z = z;
  return d;
}

/* launch.c: a driver function through the runtime's entry points (the
** module links no libcuda); NULL when unavailable */
void *ga_driver_entry(const char *name);
/* the driver's cuLaunchKernel through those entry points (NULL / 0 when
** unavailable) */
CUfunction ga_driver_function(cudaKernel_t k);
int ga_driver_launch(CUfunction fn, dim3 grid, dim3 block, void **args, size_t shmem, cudaStream_t s);

/* A launch with its error checked ("gpuarray: <what>: launch failed: ...") */
void ga_launch(lua_State *L, const char *what, cudaKernel_t k, dim3 grid, dim3 block,
               void **args, size_t shmem, cudaStream_t stream);

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
** when use_int, then cast to dst's dtype; exact_last pins the last value */
void ga_arange_fill(lua_State *L, ga_state *ctx, ga_array *dst, double start, double step,
                    int64_t istart, int64_t istep, int use_int, int exact_last, double last);
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

/* ===================================================================== */
/* Module registration: each file exports its functions                   */
/* ===================================================================== */

void ga_open_dtype(lua_State *L);     /* into the module table on top */
void ga_open_shape(lua_State *L);
void ga_open_scalar(lua_State *L);
void ga_open_ndarray(lua_State *L);   /* metatable, methods */
void ga_open_transfer(lua_State *L);
void ga_open_create(lua_State *L);
void ga_open_index(lua_State *L);
void ga_open_pool(lua_State *L);
void ga_open_copy(lua_State *L);
void ga_open_compile(lua_State *L);
void ga_open_cuda(lua_State *L);

/* The ndarray method table (upvalue of __index): files add their methods */
void ga_push_methods(lua_State *L);

#endif
