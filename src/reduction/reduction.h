/*
** reduction.h: the reduction engine (reduction.c: plans and launches;
** reduction_codegen.c: the CUDA source) and its Lua face (reduction_lua.c:
** the built-in reductions and ReductionKernel). Scans and masks reuse its
** indexer padding and kernels/reduction/reduction.cuh.
*/
/* feature: reduction — uses: none */
#ifndef GA_REDUCTION_H
#define GA_REDUCTION_H

#include "array/array.h"

/* ===================================================================== */
/* the engine (reduction.c, reduction_codegen.c)                         */
/* ===================================================================== */

#define GA_RED_MAXARGS 32

/* One parameter of a reduction after its type is bound */
typedef struct {
  const char *name;     /* the identifier the expressions use */
  int dtype;
  int array;            /* 1: an array (one element per index), 0: a scalar */
  int out;              /* 1: an output (post-map writes it) */
} ga_red_arg;

/* What the generated code is. Strings are borrowed from the caller (a
** definition object or the Lua stack) for the duration of one call. */
typedef struct {
  const char *name;          /* error prefix ("sum", the user's kernel name) */
  const char *kname;         /* kernel symbol (an identifier) */
  const char *map;           /* in terms of the inputs, _i, _j */
  const char *reduce;        /* in terms of a and b */
  const char *later;         /* optional (built-ins): reduce where b comes after a in one thread's
                             ** sequence, so ties need no index comparison; NULL: reduce */
  const char *post;          /* a statement in terms of a, the outputs, the scalars */
  const char *identity;      /* NULL: none (the first element starts it) */
  const char *reduce_type;   /* a C type, valid after typedefs and preamble */
  const ga_typemap *typemap; /* placeholder typedefs (user kernels), or NULL */
  int with_math;             /* include kernels/common/math.cuh (user kernels: complex operators) */
  const char *preamble;
  int nopts;
  const char *const *opts;   /* NVRTC options */
  int acc_size;              /* sizeof(reduce type) when known, else 0 (slots of 64 bytes) */
  int uses_index;            /* map/post read _i or _j: keep the logical axis order */
  uint64_t hash;             /* of the definition, not the types (ga_red_hash) */
  int narg;
  ga_red_arg arg[GA_RED_MAXARGS];   /* inputs first, then outputs */
} ga_red_code;

/* One call: the code, the operands and the axes to reduce */
typedef struct {
  ga_red_code *code;
  ga_array *arr[GA_RED_MAXARGS];   /* per arg: the array, NULL for scalars */
  ga_value val[GA_RED_MAXARGS];    /* per scalar arg: its value (arg dtype storage) */
  int ndim;                        /* the broadcast shape of the inputs */
  int64_t shape[GA_MAXDIM];
  uint32_t axes;                   /* bit d set: axis d (0-based) is reduced */
  int keepdims;                    /* outputs have ndim axes (reduced ones of length 1) */
  int accsel;                      /* which reduce type of a built-in (part of the cache key) */
} ga_red_call;

/* Reduce. Outputs must already exist with the output shape (checked by the
** caller). Launches nothing when the output is empty. */
void ga_reduce(lua_State *L, ga_state *ctx, ga_red_call *c);

/* A 64-bit hash of the definition (FNV-1a over the strings, the argument
** names and roles), for cache keys; call after the args are filled in */
uint64_t ga_red_hash(const ga_red_code *code);

/* Generate the CUDA source of a reduction program (reduction_codegen.c) */
typedef struct {
  int kind;        /* GA_RED_KIND_* of the main kernel */
  int vec;         /* V of the main kernel */
  int ndk, ndr;    /* indexer dims of the kept and reduced spaces (4 or 8) */
  int idx64;
  int fin;         /* 1: the program finishing split reductions (kind, vec, ndr unused) */
  int onek;        /* 1: a split row reduction to one value whose last block finishes it
                   ** (ga_red_last: a ticket counter is the kernel's last parameter) */
} ga_red_variant;
enum { GA_RED_KIND_ROW = 0, GA_RED_KIND_COL = 1 };
void ga_red_generate(const ga_red_code *code, const ga_red_variant *v, ga_buf *b);

/* Axes: parse an axis argument (nil, an integer or a list of integers,
** 1-based, negative from the end) into a bit mask over ndim axes; nil means
** every axis. Raises "gpuarray: <fname>: ..." for bad or repeated axes. */
uint32_t ga_red_axes(lua_State *L, int idx, int ndim, const char *fname);
/* The output shape of a reduction */
int ga_red_out_shape(int ndim, const int64_t *shape, uint32_t axes, int keepdims, int64_t *out);

/* reduction.c: pad an indexer space of nd dims (0..8) to 4 or 8 dims with
** outer axes of length 1 (kernels locate elements with ga_red_offsets,
** which skips the padding); returns the new count */
int ga_red_pad(int nd, int64_t *shape, int nop, int64_t *const *st);

void ga_open_reduction(lua_State *L);   /* the built-ins' maker, ReductionKernel */

#endif
