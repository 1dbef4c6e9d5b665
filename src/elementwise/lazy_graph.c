/*
** lazy_graph.c: the recorder's data (lazy.h): expression nodes, the recs of
** pending arrays and their registration on memory blocks, and the
** recording of one operation. Nothing here launches; settling is
** lazy_eval.c's.
*/
#include <stdlib.h>
#include <string.h>

#include "elementwise/lazy.h"

/* ===================================================================== */
/* the per-state recorder                                                */
/* ===================================================================== */

static const char lazy_key = 'z';

/* At lua_close the arrays' finalizers have run (they were made after this
** userdata, and Lua finalizes in reverse order): what is left is stores
** whose arrays went (they hold memory blocks) and the compiled programs. */
static int l_lazy_gc(lua_State *L) {
  ga_lazy *z = (ga_lazy *)lua_touserdata(L, 1);
  while (z->head.next && z->head.next != &z->head) {
    ga_lzrec *r = z->head.next;
    if (r->self) {                   /* (not expected: arrays go first) */
      r->self->lz = NULL;
      r->self->flags &= ~GA_F_LAZY;
    }
    r->pins = 0;
    ga_lz_rec_free(r->ctx, r);
  }
  ga_lz_progs_free(z);
  return 0;
}

ga_lazy *ga_lz_state(lua_State *L, ga_state *ctx) {
  if (ctx->lz) return ctx->lz;
  ga_lazy *z = (ga_lazy *)ga_state_object(L, &lazy_key, sizeof(ga_lazy), l_lazy_gc);
  if (!z->head.next) z->head.next = z->head.prev = &z->head;   /* just made */
  ctx->lz = z;
  return z;
}

/* ===================================================================== */
/* nodes                                                                 */
/* ===================================================================== */

void ga_lz_node_unref(ga_lznode *n) {
  if (!n || --n->refs > 0) return;
  if (n->kind == LZ_LEAF) {
    ga_block_release(n->leaf.block);
  } else {
    for (int k = 0; k < n->op.nargs; k++) ga_lz_node_unref(n->op.arg[k]);
  }
  free(n);
}

ga_lznode *ga_lz_node_new(lua_State *L, int kind, int dtype) {
  ga_lznode *n = (ga_lznode *)malloc(sizeof *n);
  if (!n) ga_error(L, "out of host memory (lazy evaluation)");
  n->refs = 1;
  n->kind = kind;
  n->dtype = dtype;
  n->mark = 0;
  n->nnodes = n->nscalars = n->nleaves = 0;
  if (kind != LZ_LEAF) {
    n->op.u = NULL;
    n->op.loop = n->op.pick = n->op.nargs = 0;
    for (int k = 0; k < LZ_MAXARGS; k++) {
      n->op.arg[k] = NULL;
      n->op.sdtype[k] = -1;
    }
  }
  return n;
}

/* The leaf of a, made once per array: later uses share it (and the kernel
** one parameter per distinct leaf) */
static ga_lznode *leaf_of(lua_State *L, ga_array *a) {
  if (a->lzleaf) return a->lzleaf;
  ga_lznode *n = ga_lz_node_new(L, LZ_LEAF, a->dtype);
  n->leaf = *a;
  n->leaf.lz = NULL;
  n->leaf.lzleaf = NULL;
  if (n->leaf.block) ga_block_retain(n->leaf.block);
  n->nleaves = 1;
  n->leaves[0] = n;
  a->lzleaf = n;            /* the array's reference; released with the array */
  return n;
}

ga_lznode *ga_lz_operand(lua_State *L, ga_state *ctx, ga_array *a) {
  if ((a->flags & GA_F_LAZY) && a->lz && a->lz->stream != ctx->stream)
    ga_lz_settle_array(L, ctx, a);     /* recorded on another stream: settled there */
  if (a->flags & GA_F_LAZY) {
    ga_lz_node_ref(a->lz->node);
    return a->lz->node;
  }
  /* the operand reads the memory as it will be after the writes recorded
  ** into it through other arrays (views): those land first */
  if (a->block && a->block->lz_stores) ga_lazy_hook.ready(L, a, GA_LZ_READ);
  ga_lznode *n = leaf_of(L, a);
  ga_lz_node_ref(n);
  return n;
}

static void add_leaves(ga_lznode *n, const ga_lznode *from, int *over) {
  for (int i = 0; i < from->nleaves; i++) {
    ga_lznode *l = from->leaves[i];
    int seen = 0;
    for (int j = 0; j < n->nleaves && !seen; j++) seen = n->leaves[j] == l;
    if (seen) continue;
    if (n->nleaves == LZ_MAXLEAVES) {
      *over = 1;
      return;
    }
    n->leaves[n->nleaves++] = l;
  }
}

int ga_lz_node_seal(ga_lznode *n) {
  int over = 0;
  n->nnodes = 1;
  n->nscalars = 0;
  n->nleaves = 0;
  for (int k = 0; k < n->op.nargs; k++) {
    const ga_lznode *a = n->op.arg[k];
    if (!a) {
      n->nscalars += n->op.sdtype[k] >= 0;
      continue;
    }
    n->nnodes += a->nnodes;
    n->nscalars += a->nscalars;
    add_leaves(n, a, &over);
  }
  /* leaves and scalars share the kernel's parameters: a chain of one array
  ** and 20 scalar operands (y = y * a + i, ten times) is one expression */
  return !over && n->nnodes <= LZ_MAXNODES && n->nscalars + n->nleaves <= LZ_MAXPARAMS;
}

/* ===================================================================== */
/* recs                                                                  */
/* ===================================================================== */

static ga_lzrec *rec_new(lua_State *L, ga_state *ctx, ga_lznode *n) {
  ga_lazy *z = ga_lz_state(L, ctx);
  ga_lzrec *r = (ga_lzrec *)malloc(sizeof *r);
  if (!r) {
    ga_lz_node_unref(n);
    ga_error(L, "out of host memory (lazy evaluation)");
  }
  r->node = n;
  r->ctx = ctx;
  r->self = NULL;
  r->store = 0;
  r->stream = ctx->stream;
  r->pins = 0;
  r->serial = ++z->serial;
  r->nblk = 0;
  r->next = &z->head;
  r->prev = z->head.prev;
  z->head.prev->next = r;
  z->head.prev = r;
  ctx->lz_pending++;
  z->records++;
  return r;
}

/* Register r as a reader of its leaves' blocks (each block once) */
void ga_lz_rec_register(ga_lzrec *r) {
  const ga_lznode *n = r->node;
  r->nblk = 0;
  for (int i = 0; i < n->nleaves; i++) {
    ga_block *b = n->leaves[i]->leaf.block;
    if (!b) continue;
    int seen = 0;
    for (int j = 0; j < r->nblk && !seen; j++) seen = r->blk[j] == b;
    if (seen) continue;
    r->blk[r->nblk++] = b;
    b->lz_readers++;
  }
}

void ga_lz_unregister(ga_lzrec *r) {
  for (int j = 0; j < r->nblk; j++) r->blk[j]->lz_readers--;
  r->nblk = 0;
}

/* Out of the list; its node and the memory it holds released (a pinned
** rec is freed by the flush that pinned it) */
void ga_lz_rec_free(ga_state *ctx, ga_lzrec *r) {
  if (r->prev) {
    ga_lz_unregister(r);
    r->prev->next = r->next;
    r->next->prev = r->prev;
    r->prev = r->next = NULL;
    ctx->lz_pending--;
    if (r->store) r->out.block->lz_stores--;
    ga_block_release(r->out.block);   /* a store's, or what a failed settle had taken */
    r->out.block = NULL;
    r->out.block = NULL;
    ga_lz_node_unref(r->node);
    r->node = NULL;
  }
  r->self = NULL;
  if (r->pins == 0) free(r);
}

/* The recorder's finalizer of an array (ga_lazy_hook.release: __gc and free()):
** a pending result is dropped, nothing to compute; a pending store still
** lands (other views of its memory may read it) unless nothing else holds
** the memory. Never raises. */
static void lz_release(ga_array *a) {
  if (a->lzleaf) {
    ga_lz_node_unref(a->lzleaf);
    a->lzleaf = NULL;
  }
  ga_lzrec *r = a->lz;
  if (!r) return;
  a->lz = NULL;
  a->flags &= ~GA_F_LAZY;
  r->self = NULL;
  /* a store still lands while some other array can see its memory (the
  ** block's holders: out array, the rec, and others) */
  if (r->store && atomic_load(&r->out.block->refs) > 2) return;
  ga_lz_rec_free(r->ctx, r);
}

/* ===================================================================== */
/* recording                                                             */
/* ===================================================================== */

ga_array *ga_lz_push_result(lua_State *L, ga_state *ctx, ga_lznode *n, int ndim, const int64_t *shape) {
  int64_t zero = 0;
  /* an empty array (no memory taken: size 0), then given the shape */
  ga_array *a = ga_new_array(L, ctx, n->dtype, 1, &zero);
  ga_lzrec *r = rec_new(L, ctx, n);
  a->ndim = ndim;
  if (ndim) memcpy(a->shape, shape, sizeof(int64_t) * (size_t)ndim);
  int64_t isz = ga_dtypes[n->dtype].itemsize;
  ga_c_strides(ndim, shape, isz, a->strides);
  ga_array_update_flags(a);
  a->flags |= GA_F_LAZY;
  a->lz = r;
  r->self = a;
  r->out = *a;
  r->out.lz = NULL;
  r->out.lzleaf = NULL;
  r->out.flags &= ~GA_F_LAZY;
  ga_lz_rec_register(r);
  return a;
}

void ga_lz_store(lua_State *L, ga_state *ctx, ga_array *out, ga_lznode *n) {
  ga_lzrec *r = out->lz;
  if (out->flags & GA_F_LAZY) {
    /* its pending value is replaced (the new one may use the old: n holds
    ** it then); a store's memory keeps what it held before both */
    ga_lz_unregister(r);
    ga_lz_node_unref(r->node);
    r->node = n;
    ga_lz_rec_register(r);
    return;
  }
  /* writes recorded into this memory through other arrays land first, so
  ** the order of writes is the program's */
  if (out->block && out->block->lz_stores) ga_lazy_hook.ready(L, out, GA_LZ_READ);
  if (!out->block) {                 /* empty: nothing will be written */
    ga_lz_node_unref(n);
    return;
  }
  r = rec_new(L, ctx, n);
  r->store = 1;
  r->out = *out;
  r->out.lz = NULL;
  r->out.lzleaf = NULL;
  ga_block_retain(out->block);
  out->block->lz_stores++;
  r->self = out;
  out->lz = r;
  out->flags |= GA_F_LAZY;
  ga_lz_rec_register(r);
}

void ga_open_lazy_graph(void) { ga_lazy_hook.release = lz_release; }
