/*
** lazy.h: lazy evaluation, the elementwise engine's front half (API.md 16,
** docs/lazy.md). With lazy on, a ufunc or operator call (and where, clip,
** astype) whose operands are arrays, pending arrays and scalars does not
** launch: it returns a PENDING ndarray, whose shape, dtype and strides are
** those of the eager result, holding an expression node and no memory.
** Evaluation generates one kernel for the expression (fuse's code
** generator, fuse/codegen.lua, with its rounding rule: the bits are the
** eager ones), cached by the expression's structure and dtypes, and
** launched through the engine's call driver (ew_driver.c).
**
** The pieces:
**   node  an operation (a ufunc loop, a cast, where, clip) over operand
**         nodes and scalars, or a LEAF: an array that has memory, its layout
**         copied and its memory block retained. Nodes are refcounted C
**         structs: an intermediate nobody holds is never allocated, and its
**         node lives as long as some pending value uses it.
**   rec   what a pending array waits for: its node, and where its value
**         goes. A RESULT gets fresh memory when settled; a STORE (out=,
**         x:add_(y)) writes the memory its array already has. The state
**         keeps every rec in a list (ga_lazy).
** Hazards are tracked per memory block (ga_block.lz_readers, lz_stores):
** a rec registers on the blocks its leaves read; a store counts on the
** block it writes. Before C code writes a block (ga_array_ready, WRITE),
** the recs reading it are settled; before any use, the stores into it.
** A store settles the other readers of its block first (they read what
** the block holds before it), so the order of effects is the program's.
*/
#ifndef GA_LAZY_H
#define GA_LAZY_H

#include "elementwise/elementwise.h"

/* Bounds of one expression (the kernel's parameters: GA_MAXPARAMS; its
** arrays: GA_IX_MAXOP). A call that would pass one settles its pending
** operands first; docs/lazy.md says so. */
#define LZ_MAXARGS 4        /* a node's operands: ufuncs take up to 4 inputs */
#define LZ_MAXNODES 48      /* operations in one expression */
#define LZ_MAXLEAVES 12     /* arrays it reads */
#define LZ_MAXPARAMS 30     /* leaves + scalars: with the output, the kernel's <= 31 parameters */
#define LZ_MAXSCALARS (LZ_MAXPARAMS - 1)   /* an expression reads at least one array */

enum { LZ_LEAF, LZ_UFUNC, LZ_CAST, LZ_WHERE, LZ_CLIP };

typedef struct ga_lznode ga_lznode;
struct ga_lznode {
  int refs;
  int kind;                 /* LZ_* */
  int dtype;                /* the value's dtype (as the eager result stores it) */
  unsigned mark;            /* traversal stamp (lazy_eval.c) */
  int nnodes;               /* operations in the expression (shared ones counted per use: a bound) */
  int nscalars;             /* scalar parameters it needs (likewise) */
  int nleaves;              /* the distinct leaves below */
  ga_lznode *leaves[LZ_MAXLEAVES];
  union {
    ga_array leaf;          /* LZ_LEAF: the layout; block retained */
    struct {
      ga_ufunc *u;          /* LZ_UFUNC: the ufunc and its loop, the output taken */
      int loop, pick;
      int nargs;
      ga_lznode *arg[LZ_MAXARGS];      /* NULL: a scalar operand (or clip's missing bound) */
      int sdtype[LZ_MAXARGS];          /* a scalar's dtype as the kernel takes it (-1: none) */
      ga_value sval[LZ_MAXARGS];
    } op;
  };
};

typedef struct ga_lzrec ga_lzrec;
struct ga_lzrec {
  ga_lznode *node;          /* the value (a reference) */
  ga_state *ctx;            /* its state's (lives until lua_close frees everything) */
  ga_array *self;           /* the pending array; NULL once collected (a store still lands) */
  int store;                /* 1: writes out's memory (its block retained) */
  ga_array out;             /* where the value goes: the array's layout */
  cudaStream_t stream;      /* recorded on */
  int pins;                 /* a flush holds it (lazy_eval.c); freed when unpinned */
  uint64_t serial;
  ga_lzrec *prev, *next;    /* the state's list */
  int nblk;                 /* the blocks it is registered on as a reader */
  ga_block *blk[LZ_MAXLEAVES];
};

typedef struct lzprog lzprog;

/* The per-state recorder (a userdata in the registry; ctx->lz), made when
** the module opens: before any array, so that lua_close finalizes it last */
typedef struct ga_lazy {
  ga_lzrec head;            /* list sentinel */
  uint64_t serial;
  unsigned stamp;
  int nprog, cap;
  lzprog **progs;           /* open hash of compiled expressions */
  /* counters for specs and docs (core._test.lazy_stats) */
  long long records, attempts, settles, kernels, fast, compiles, flushes, bounds, pressure;
  int allocating;           /* a settle is allocating its output (no pressure flush then) */
  /* test hook (core._test.lazy_dry): settling generates the kernel's
  ** source but launches nothing, results get host memory, and each settle
  ** is logged (serials), so that CPU specs follow the order of effects */
  int dry;
  int nlog;
  uint64_t log[64];
} ga_lazy;

/* Whether the recorder takes array a (operand or output) in a call; a call
** with any array it does not take runs eagerly (lazy_lua.c) */
int ga_lz_takes(const ga_state *ctx, const ga_array *a);

/* ===================================================================== */
/* lazy_graph.c: nodes, recs, registration, recording                    */
/* ===================================================================== */

ga_lazy *ga_lz_state(lua_State *L, ga_state *ctx);
void ga_lz_node_unref(ga_lznode *n);
static inline void ga_lz_node_ref(ga_lznode *n) { n->refs++; }
/* The node of an operand array: its pending value, or its leaf (made once
** per array and kept in a->lzleaf) after settling pending writes into its
** memory. NULL: a pending array recorded on another stream was settled
** instead (then a leaf). */
ga_lznode *ga_lz_operand(lua_State *L, ga_state *ctx, ga_array *a);
/* A new operation node (refs 1) over args (refs taken) */
ga_lznode *ga_lz_node_new(lua_State *L, int kind, int dtype);
/* Finish a node's bounds after its args are set; 0 when the expression
** passes a bound (the caller settles its pending operands and retries) */
int ga_lz_node_seal(ga_lznode *n);
/* Push a pending array of node (taking the caller's reference) with the
** given result shape, a fresh C layout */
ga_array *ga_lz_push_result(lua_State *L, ga_state *ctx, ga_lznode *n, int ndim, const int64_t *shape);
/* out= and the in-place forms: out's value becomes node (reference taken) */
void ga_lz_store(lua_State *L, ga_state *ctx, ga_array *out, ga_lznode *n);
/* Settle the pending array a (materialise it: lazy_eval.c) */
void ga_lz_settle_array(lua_State *L, ga_state *ctx, ga_array *a);
/* The rec's list and block bookkeeping */
void ga_lz_unregister(ga_lzrec *r);
void ga_lz_rec_free(ga_state *ctx, ga_lzrec *r);
void ga_lz_rec_register(ga_lzrec *r);
void ga_lz_progs_free(ga_lazy *z);    /* lazy_eval.c */
/* (test hook) a block of host memory in place of device memory */
ga_block *ga_lz_host_block(lua_State *L, size_t nbytes);
void ga_open_lazy_graph(void);        /* the release hook (once per process) */

/* ===================================================================== */
/* lazy_eval.c: settling and the hazards                                 */
/* ===================================================================== */

/* Settle rec r (depth: nesting of stores settling their readers) */
void ga_lz_settle(lua_State *L, ga_state *ctx, ga_lzrec *r, int depth);
/* Settle the recs that read block b (except skip), or that write it */
void ga_lz_flush_block(lua_State *L, ga_state *ctx, ga_block *b, int readers, const ga_lzrec *skip, int depth);
/* Every rec of the state (ga_lazy_flush) */
void ga_lz_flush_all(lua_State *L, ga_state *ctx, const char *why);
/* Only the pending writes (out=, in-place forms, x[k] = v) land, each after
** the pending work that reads the memory it writes; pending values stay */
void ga_lz_flush_stores(lua_State *L, ga_state *ctx);
/* The CUDA source the settling of a would compile now (ga.get_lazy_source) */
void ga_lz_source(lua_State *L, ga_state *ctx, ga_array *a);
void ga_open_lazy_eval(void);         /* the ready, flush and pressure hooks (once per process) */
void ga_open_lazy_eval_funcs(lua_State *L);   /* core.elementwise.lazy_set_codegen */

/* ===================================================================== */
/* ufunc.c: what the recorder needs of a ufunc                           */
/* ===================================================================== */

typedef struct {
  const char *name, *op;    /* the loop's CUDA statement */
  char sig[16];             /* "ff->f" */
  int nin, nout;
  int in[4], out[4];        /* the loop's dtypes */
} ga_ufunc_loopinfo;
void ga_ufunc_loopinfo_get(const ga_ufunc *u, int loop, ga_ufunc_loopinfo *li);
/* Run loop l of u eagerly over one node's operands: arrays a[k] (NULL:
** scalar k, whose value sval[k] is in the loop's compute type) into out
** (its layout and memory set). The eager call's own memo and kernel. */
void ga_ufunc_run_loop(lua_State *L, ga_state *ctx, ga_ufunc *u, int l, ga_array *const *a,
                       const ga_value *sval, ga_array *out);
/* Push u's userdata (every ufunc lives as long as its state: nodes hold them) */
void ga_ufunc_push(lua_State *L, const ga_ufunc *u);

#endif
