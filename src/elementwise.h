/*
** elementwise.h: the elementwise engine shared by ElementwiseKernel
** (elementwise.c) and the built-in ufuncs (ufunc.c): code generation for
** one kernel variant, the choice of layout class for a call, the per-object
** memo of compiled variants, and launching (ewgen.c).
**
** A kernel is described by a spec (its parameters, their types, the code
** strings) and compiled per variant: the layout class (flat vectorised,
** strided through an indexer, or vectorised along a last axis that is
** contiguous or broadcast for every operand) with its vector width, number
** of dimensions and index width. Shapes, strides and sizes are arguments,
** so one variant serves every size.
*/
#ifndef GA_ELEMENTWISE_H
#define GA_ELEMENTWISE_H

#include "ga.h"
#include "params.h"

/* Elements (vectors for FLAT) each thread takes per step of its loop */
#define GA_EW_FLAT_UNROLL 2
#define GA_EW_STRIDED_UNROLL 4

/* Parameter kinds */
enum { GA_EW_ARRAY, GA_EW_SCALAR, GA_EW_RAW };
/* Layout classes */
enum { GA_EW_FLAT, GA_EW_STRIDED, GA_EW_VIN };

typedef struct {
  const char *name;   /* the identifier the operation uses */
  int kind;           /* GA_EW_* */
  int out;            /* an output (written) */
  int storage;        /* dtype in memory (arrays) or of the argument value (scalars) */
  int compute;        /* dtype the operation sees; storage for ElementwiseKernel */
  int raw_nd;         /* raw: ndim of the array, and whether it is C-contiguous */
  int raw_contig;
  int write_first;    /* output assigned before anything reads it: never loaded */
} ga_ewparam;

typedef struct {
  const char *kname;          /* the __global__ function's name */
  int nparams;
  ga_ewparam p[GA_MAXPARAMS];
  const char *typedefs;       /* placeholder typedefs before the preamble, or NULL */
  const char *preamble, *loop_prep, *operation, *after_loop;   /* NULL: none */
  int raw_views;              /* emit _raw_x for non-raw arrays */
  int ufunc_typedefs;         /* emit in0_type, out0_type, ... in the kernel */
  int no_headers;             /* leave out common/math/elementwise.cuh (batched programs) */
} ga_ewspec;

typedef struct {
  int cls;            /* GA_EW_FLAT / STRIDED / VIN */
  int vec;            /* elements per vector (FLAT, VIN) */
  int unroll;         /* vectors (FLAT) or elements (STRIDED) per thread and step */
  int nd;             /* indexer dimensions (STRIDED, VIN) */
  int idx64;          /* 64-bit indexing */
  uint32_t bmask;     /* VIN: array operands (by position among arrays) broadcast along the last axis */
} ga_ewvariant;

/* Append the kernel's full source (common, math and elementwise headers
** included) to b */
void ga_ew_generate(const ga_ewspec *s, const ga_ewvariant *v, ga_buf *b);

/* Compile the variant (or fetch it from the program caches) and return the
** kernel; 'what' names the caller in errors (NVRTC's log and the offending
** lines of the operation are quoted). */
cudaKernel_t ga_ew_compile(lua_State *L, ga_state *ctx, const char *what, const ga_ewspec *s,
                           const ga_ewvariant *v, int nopts, const char *const *opts);

/* ===================================================================== */
/* the iteration of one call                                             */
/* ===================================================================== */

/* The non-raw array operands, in kernel parameter order, at the broadcast
** shape (zero strides along broadcast axes). */
typedef struct {
  int narr;
  int ndim;
  int64_t shape[GA_MAXDIM];
  int64_t n;                          /* elements */
  char *ptr[GA_IX_MAXOP];
  int itemsize[GA_IX_MAXOP];
  int out[GA_IX_MAXOP];
  int64_t strides[GA_IX_MAXOP][GA_MAXDIM];
  int contiguous;                     /* every operand C-contiguous at this shape (flat, no strides needed) */
} ga_ewiter;

/* Pick the layout class of a call and pack what its kernel takes: the
** indexer (STRIDED, VIN) and the launch count (*count: elements for FLAT
** and STRIDED, vectors for VIN). allow_vin is 0 when _raw_x views need the
** element-wise indexer. it->strides are rewritten (axis merging). */
void ga_ew_layout(ga_ewiter *it, int reduce_dims, int allow_vin, ga_ewvariant *v, ga_ixbuf *ix,
                  int64_t *count);

/* core._ew_layout{...}: ga_ew_layout for specs (see ewgen.c) */
int ga_l_ew_layout(lua_State *L);

/* ===================================================================== */
/* the per-object memo of compiled variants                              */
/* ===================================================================== */

#define GA_EWKEY_WORDS 12
typedef struct {
  uint64_t key[GA_EWKEY_WORDS];
  cudaKernel_t k;
  CUfunction fn;      /* k in the key's device's context (NULL: launch through ga_launch) */
} ga_ewentry;

typedef struct {
  int n, cap, nwords;
  ga_ewentry *e;      /* malloc'd; the owner's __gc calls ga_ewcache_free */
} ga_ewcache;

void ga_ewcache_init(ga_ewcache *c, int nwords);
/* The entry for key, or NULL. The pointer is valid until the next put. */
const ga_ewentry *ga_ewcache_get(ga_ewcache *c, const uint64_t *key);
/* Memoise k under key; the key's device must be current (its CUfunction is
** taken now). Returns the entry (a stack copy when memory ran out). */
const ga_ewentry *ga_ewcache_put(ga_ewcache *c, const uint64_t *key, cudaKernel_t k, ga_ewentry *spare);
void ga_ewcache_free(ga_ewcache *c);

/* Launch: args holds the parameters' values in order; the engine appends
** the indexer (when the class has one) and the count. block 0: the
** default (256 threads, fewer when the whole call needs fewer). The
** entry's device must be current. */
void ga_ew_launch(lua_State *L, cudaStream_t stream, const char *what, const ga_ewentry *e,
                  const ga_ewvariant *v, void **args, int nargs, ga_ixbuf *ix, int64_t count,
                  int block);

/* The first word of a key: the variant and the device */
uint64_t ga_ew_variant_word(const ga_ewvariant *v, int device);

/* ===================================================================== */
/* shared helpers                                                        */
/* ===================================================================== */

/* Is the operation's first use of name an unconditional assignment
** ("z = ...;" as a top-level statement before any control flow)? Then the
** output is never loaded. */
int ga_ew_write_first(const char *op, const char *name);

/* NumPy's casting rules between dtypes */
int ga_can_cast_safe(int from, int to);
int ga_can_cast_same_kind(int from, int to);

/* Raise "gpuarray: <fname>: array is on device X, the current device is Y" */

/* ga_toarray for the hot paths: mt is the ndarray metatable of this Lua
** state (lua_topointer of it, taken when the calling object was made; the
** registry keeps it alive), so the test is one pointer compare instead of
** a registry lookup. Freed arrays are returned too. */
static inline ga_array *ga_ew_toarray(lua_State *L, int idx, const void *mt) {
  ga_array *a = (ga_array *)lua_touserdata(L, idx);
  if (!a || !lua_getmetatable(L, idx)) return NULL;
  const void *m = lua_topointer(L, -1);
  lua_settop(L, -2);
  return m == mt ? a : NULL;
}

/* The ndarray metatable's identity for ga_ew_toarray */
const void *ga_ew_array_mt(lua_State *L);

/* Same shape (nd entries) */
static inline int ga_ew_same_shape(int nd, const int64_t *a, const int64_t *b) {
  for (int d = 0; d < nd; d++)
    if (a[d] != b[d]) return 0;
  return 1;
}

void ga_open_elementwise(lua_State *L);   /* ElementwiseKernel, _parse_params */

#endif
