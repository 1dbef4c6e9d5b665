/*
** elementwise.h: the elementwise engine and its front ends. One code
** generator (ew_codegen.c), one layout chooser (ew_layout.c) and one call
** driver (ew_driver.c) serve ElementwiseKernel (elementwise.c), the ufuncs
** (ufunc.c), the operators over them (operators.c), ga.fuse and ga.jit.
*/
/* feature: elementwise — uses: none */
#ifndef GA_ELEMENTWISE_H
#define GA_ELEMENTWISE_H

#include "array/array.h"

/* ===================================================================== */
/* the elementwise engine (ew_codegen.c, ew_layout.c, ew_driver.c)       */
/* ===================================================================== */

/* Elements (vectors for FLAT) each thread takes per step of its loop */
#define GA_EW_FLAT_UNROLL 2
/* Contiguous calls of at most this many elements take one element per
** thread, not vectors: a kernel this small is all latency, and spreading it
** over more threads shortened each of the 100 dependent kernels of a graph
** replay (H200, make bench, A/B in one call: graph_100ops 118 -> 111 us) */
#define GA_EW_TINY 4096
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

/* core._test.ew_layout{...}: ga_ew_layout for specs (ew_layout.c) */
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

/* ===================================================================== */
/* the call driver (ew_driver.c)                                         */
/* ===================================================================== */

/* One elementwise call, described without a Lua call frame. The caller
** binds and types the parameters; ga_ew_run does the rest. */
typedef struct ga_ewcall ga_ewcall;
struct ga_ewcall {
  const char *what;                 /* the function, for errors */
  int np;                           /* parameters, in kernel order */
  int kind[GA_MAXPARAMS];           /* GA_EW_ARRAY / SCALAR / RAW */
  int out[GA_MAXPARAMS];            /* written by the kernel */
  int dtype[GA_MAXPARAMS];          /* storage dtype (what a missing output is allocated as) */
  int idx[GA_MAXPARAMS];            /* stack index of each argument (0: an output to allocate) */
  ga_array *a[GA_MAXPARAMS];        /* arrays; outputs allocated by ga_ew_run are filled in */
  ga_value val[GA_MAXPARAMS];       /* scalar arguments in their parameter's compute type */
  int outidx[GA_MAXPARAMS];         /* set by ga_ew_run: each output's stack index */
  const char *(*param_name)(const ga_ewcall *c, int j);   /* for messages; NULL: "the output" */
  int64_t size;                     /* the iteration size when every array is raw */
  int reduce_dims, allow_vin, block;
  int copy_overlaps;                /* NumPy's rule: inputs overlapping an output are read from a copy */
  cudaStream_t stream;
  ga_ewcache *cache;                /* the caller's memo of compiled variants */
  uint64_t key[GA_EWKEY_WORDS];     /* key[0] (variant, device) is ga_ew_run's; the rest the caller's */
  void (*make_spec)(const ga_ewcall *c, ga_ewspec *s);    /* on a memo miss */
  const void *ud;                   /* the caller's object, for make_spec */
  lua_State *L;                     /* for make_spec: values it pushes are popped after the compile */
  int loop;                         /* the caller's variant of ud (a ufunc's loop) */
  int nopts;
  const char *const *opts;
};

/* Run the call: outputs that were not given are pushed (c->outidx). An
** input with idx 0 (lazy evaluation's leaves) has no stack slot. */
int ga_ew_run(lua_State *L, ga_state *ctx, ga_ewcall *c);
/* The call's broadcast shape (its ndim returned), raising the errors the
** call would; *same: every array has that shape */
int ga_ew_shape(lua_State *L, const ga_ewcall *c, int64_t *shape, int *same);
/* What every engine's call sets alike: the driver's defaults (dimensions
** merged, vector loads, NumPy's overlap rule, no raw-only size, the
** default block), the state's stream, the caller's memo, spec maker,
** object and variant, no NVRTC options */
void ga_ew_call_defaults(ga_ewcall *c, const ga_state *ctx, ga_ewcache *cache,
                         void (*make_spec)(const ga_ewcall *c, ga_ewspec *s), const void *ud, int loop);
/* A raw parameter's words: pointer, size, shape, strides */
void ga_ew_pack_raw(int64_t *w, const ga_array *a);

/* The first word of a key: the variant and the device */
uint64_t ga_ew_variant_word(const ga_ewvariant *v, int device);

/* ===================================================================== */
/* shared helpers                                                        */
/* ===================================================================== */

/* Same shape (nd entries) */
static inline int ga_ew_same_shape(int nd, const int64_t *a, const int64_t *b) {
  for (int d = 0; d < nd; d++)
    if (a[d] != b[d]) return 0;
  return 1;
}

void ga_open_elementwise(lua_State *L);   /* ElementwiseKernel, _parse_params */

/* ===================================================================== */
/* ufuncs and operators (ufunc.c, operators.c)                           */
/* ===================================================================== */

#define GA_UFUNC_MT "gpuarray.ufunc"

typedef struct ga_ufunc ga_ufunc;

/* The ufunc at idx, or NULL */
ga_ufunc *ga_toufunc(lua_State *L, int idx);

/* Apply u to the inputs at the stack indices in_idx (u's arity of them:
** ndarrays, Lua numbers and booleans, {re, im} pairs, typed scalars) and
** push the result. out_idx: an ndarray to write into (0: allocate one);
** dtype: the loop's dtype forced (-1: resolved from the inputs). Creates
** no Lua tables; the result userdata is the only allocation. */
int ga_ufunc_apply(lua_State *L, ga_ufunc *u, const int *in_idx, int out_idx, int dtype);

/* operators.c: the ufunc at idx was made under name: the operators and
** methods bound to that name (__add and add_ to "add", ...) now call it */
void ga_operators_bind(lua_State *L, const char *name, int idx);

void ga_open_ufunc(lua_State *L);       /* core.elementwise.ufunc, .resolve */
/* lazy evaluation (lazy.h): core.elementwise.lazy_*, x:eval(), the hooks */
void ga_open_lazy(lua_State *L);
void ga_open_operators(lua_State *L);   /* < and <= on 0-d arrays */

#endif
