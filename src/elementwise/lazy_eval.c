/*
** lazy_eval.c: settling pending work (lazy.h). A rec's expression becomes
** one kernel: its operations in order, its distinct leaves as the kernel's
** arrays (broadcast to the result's shape by the call driver), its scalar
** operands as parameters. The source comes from fuse's code generator
** (lua/gpuarray/lazy/codegen.lua over fuse/codegen.lua: the same
** statements as the eager loops, the same rounding rule), asked once per
** structure: the kernels are cached by the expression's structure and
** dtypes (a program here), then per layout class by the engine's memo.
** An expression of one ufunc over arrays and scalars runs the ufunc's own
** eager kernel, and a cast of an array the copy engine, as eagerly.
**
** The hazards (lazy.h): before a store writes a block, the other recs
** reading it settle; before C code uses an array's memory, the stores
** into it land (and before it writes, the readers settle). Recs found by
** scanning the list (not held on the Lua stack) are pinned while they are
** settled, under a protected call, so that a collected array cannot free
** its rec under the evaluator and an error leaves no pin behind.
*/
#include <stdlib.h>
#include <string.h>

#include "elementwise/lazy.h"

#define LZ_MAXDEPTH 32      /* stores settling readers that are stores ... */
#define LZ_BUCKETS 256

/* ===================================================================== */
/* an expression's structure                                             */
/* ===================================================================== */

typedef struct {
  int nnodes, nleaves, nscalars;
  ga_lznode *nodes[LZ_MAXNODES];               /* operations, operands first */
  ga_lznode *leaves[LZ_MAXLEAVES];
  struct { const ga_lznode *n; int k; } scalars[LZ_MAXSCALARS];
  int nkey;
  uint32_t key[4 + LZ_MAXNODES * (4 + LZ_MAXARGS) + LZ_MAXLEAVES + LZ_MAXSCALARS];
} lzgraph;

/* A node's position: op nodes 1.., parameters (leaves, then scalars) as
** negative numbers -1.. (the parameter's number) */
static int leaf_index(const lzgraph *g, const ga_lznode *n) {
  for (int i = 0; i < g->nleaves; i++)
    if (g->leaves[i] == n) return i;
  return -1;
}

static int node_index(const lzgraph *g, const ga_lznode *n) {
  for (int i = 0; i < g->nnodes; i++)
    if (g->nodes[i] == n) return i;
  return -1;
}

static void visit(lzgraph *g, ga_lznode *n, unsigned stamp) {
  if (n->mark == stamp) return;
  n->mark = stamp;
  if (n->kind == LZ_LEAF) {
    g->leaves[g->nleaves++] = n;     /* (the root's leaf count bounds these) */
    return;
  }
  for (int k = 0; k < n->op.nargs; k++)
    if (n->op.arg[k]) visit(g, n->op.arg[k], stamp);
  for (int k = 0; k < n->op.nargs; k++)
    if (!n->op.arg[k] && n->op.sdtype[k] >= 0) {
      g->scalars[g->nscalars].n = n;
      g->scalars[g->nscalars++].k = k;
    }
  g->nodes[g->nnodes++] = n;
}

static int scalar_index(const lzgraph *g, const ga_lznode *n, int k) {
  for (int i = 0; i < g->nscalars; i++)
    if (g->scalars[i].n == n && g->scalars[i].k == k) return i;
  return -1;
}

/* An operand's reference in the key and the description */
static int32_t ref_of(const lzgraph *g, const ga_lznode *n, int k) {
  const ga_lznode *a = n->op.arg[k];
  if (!a) return n->op.sdtype[k] < 0 ? 0 : -(int32_t)(g->nleaves + scalar_index(g, n, k) + 1);
  if (a->kind == LZ_LEAF) return -(int32_t)(leaf_index(g, a) + 1);
  return (int32_t)(node_index(g, a) + 1);
}

static void collect(ga_lazy *z, ga_lznode *root, lzgraph *g) {
  g->nnodes = g->nleaves = g->nscalars = 0;
  if (++z->stamp == 0) z->stamp = 1;
  visit(g, root, z->stamp);
  uint32_t *w = g->key;
  int m = 0;
  w[m++] = (uint32_t)g->nleaves | (uint32_t)g->nscalars << 8 | (uint32_t)g->nnodes << 16;
  for (int i = 0; i < g->nleaves; i++) w[m++] = (uint32_t)g->leaves[i]->dtype;
  for (int i = 0; i < g->nscalars; i++)
    w[m++] = (uint32_t)g->scalars[i].n->op.sdtype[g->scalars[i].k];
  for (int i = 0; i < g->nnodes; i++) {
    const ga_lznode *n = g->nodes[i];
    w[m++] = (uint32_t)n->kind | (uint32_t)n->dtype << 8 | (uint32_t)n->op.pick << 16 | (uint32_t)n->op.nargs << 24;
    uintptr_t u = (uintptr_t)n->op.u;
    w[m++] = (uint32_t)u;
    w[m++] = (uint32_t)((uint64_t)u >> 32);
    w[m++] = (uint32_t)n->op.loop;
    for (int k = 0; k < n->op.nargs; k++) w[m++] = (uint32_t)ref_of(g, n, k);
  }
  g->nkey = m;
}

/* ===================================================================== */
/* programs: one per structure                                           */
/* ===================================================================== */

struct lzprog {
  lzprog *next;
  uint64_t hash;
  int nkey;
  uint32_t *key;
  char *operation, *preamble;
  int nleaves, nscalars, out_dtype;
  int pdtype[GA_MAXPARAMS];
  ga_ewcache memo;          /* the compiled variants (layout classes) */
};

void ga_lz_progs_free(ga_lazy *z) {
  for (int b = 0; b < z->cap; b++) {
    lzprog *p = z->progs[b];
    while (p) {
      lzprog *next = p->next;
      free(p->key);
      free(p->operation);
      free(p->preamble);
      ga_ewcache_free(&p->memo);
      free(p);
      p = next;
    }
  }
  free(z->progs);
  z->progs = NULL;
  z->cap = z->nprog = 0;
}

static const char *const param_names[GA_MAXPARAMS] = {
  "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12", "a13", "a14", "a15", "a16",
  "a17", "a18", "a19", "a20", "a21", "a22", "a23", "a24", "a25", "a26", "a27", "a28", "a29", "a30", "a31",
  "a32"
};

static const char codegen_key = 'g';   /* registry: the Lua code generator */

/* Push the description of g for the code generator (lazy/codegen.lua):
** {params = {dtype names; leaves first}, nleaves =, nodes = {{kind =,
** dtype =, args = {refs}, ufunc =, op =, sig =, nout =, pick =}, ...}} */
static void push_description(lua_State *L, const lzgraph *g) {
  static const char *const kinds[] = {"leaf", "ufunc", "cast", "where", "clip"};
  lua_createtable(L, 0, 3);
  lua_createtable(L, g->nleaves + g->nscalars, 0);
  for (int i = 0; i < g->nleaves; i++) {
    lua_pushstring(L, ga_dtypes[g->leaves[i]->dtype].name);
    lua_rawseti(L, -2, i + 1);
  }
  for (int i = 0; i < g->nscalars; i++) {
    lua_pushstring(L, ga_dtypes[g->scalars[i].n->op.sdtype[g->scalars[i].k]].name);
    lua_rawseti(L, -2, g->nleaves + i + 1);
  }
  lua_setfield(L, -2, "params");
  ga_setint(L, "nleaves", g->nleaves);
  lua_createtable(L, g->nnodes, 0);
  for (int i = 0; i < g->nnodes; i++) {
    const ga_lznode *n = g->nodes[i];
    lua_createtable(L, 0, 8);
    ga_setstr(L, "kind", kinds[n->kind]);
    ga_setstr(L, "dtype", ga_dtypes[n->dtype].name);
    lua_createtable(L, n->op.nargs, 0);
    for (int k = 0; k < n->op.nargs; k++) {
      lua_pushinteger(L, ref_of(g, n, k));
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "args");
    if (n->kind == LZ_UFUNC) {
      ga_ufunc_loopinfo li;
      ga_ufunc_loopinfo_get(n->op.u, n->op.loop, &li);
      ga_ufunc_push(L, n->op.u);
      lua_setfield(L, -2, "ufunc");
      ga_setstr(L, "name", li.name);
      ga_setstr(L, "op", li.op);
      ga_setstr(L, "sig", li.sig);
      ga_setint(L, "nout", li.nout);
      ga_setint(L, "pick", n->op.pick);
    }
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "nodes");
}

/* The program of g (generated on a miss: the code generator runs in Lua) */
static lzprog *program(lua_State *L, ga_lazy *z, const lzgraph *g) {
  uint64_t h = ga_hash64(g->key, sizeof(uint32_t) * (size_t)g->nkey, 0x6c617a79);
  if (!z->progs) {
    z->progs = (lzprog **)calloc(LZ_BUCKETS, sizeof(lzprog *));
    if (!z->progs) ga_error(L, "out of host memory (lazy evaluation)");
    z->cap = LZ_BUCKETS;
  }
  lzprog **slot = &z->progs[h % (uint64_t)z->cap];
  for (lzprog *p = *slot; p; p = p->next)
    if (p->hash == h && p->nkey == g->nkey && memcmp(p->key, g->key, sizeof(uint32_t) * (size_t)g->nkey) == 0)
      return p;
  int top = lua_gettop(L);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &codegen_key) != LUA_TFUNCTION)
    ga_error(L, "lazy evaluation: the code generator is not installed (require \"gpuarray\")");
  push_description(L, g);
  lua_call(L, 1, 2);
  if (!lua_isstring(L, -2) || !lua_isstring(L, -1))
    ga_error(L, "lazy evaluation: the code generator returned no source");
  lzprog *p = (lzprog *)calloc(1, sizeof *p);
  if (!p) ga_error(L, "out of host memory (lazy evaluation)");
  p->key = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)g->nkey);
  p->operation = (char *)malloc(lua_rawlen(L, -2) + 1);
  p->preamble = (char *)malloc(lua_rawlen(L, -1) + 1);
  if (!p->key || !p->operation || !p->preamble) {
    free(p->key);
    free(p->operation);
    free(p->preamble);
    free(p);
    ga_error(L, "out of host memory (lazy evaluation)");
  }
  memcpy(p->operation, lua_tostring(L, -2), lua_rawlen(L, -2) + 1);
  memcpy(p->preamble, lua_tostring(L, -1), lua_rawlen(L, -1) + 1);
  memcpy(p->key, g->key, sizeof(uint32_t) * (size_t)g->nkey);
  lua_settop(L, top);
  p->hash = h;
  p->nkey = g->nkey;
  p->nleaves = g->nleaves;
  p->nscalars = g->nscalars;
  for (int i = 0; i < g->nleaves; i++) p->pdtype[i] = g->leaves[i]->dtype;
  for (int i = 0; i < g->nscalars; i++) p->pdtype[g->nleaves + i] = g->scalars[i].n->op.sdtype[g->scalars[i].k];
  p->out_dtype = g->nodes[g->nnodes - 1]->dtype;
  ga_ewcache_init(&p->memo, 1);
  p->next = *slot;
  *slot = p;
  z->nprog++;
  return p;
}

/* The elementwise spec of a program: a1.. its leaves (arrays) and scalars,
** o0 the result, as fuse's ElementwiseKernel would declare them */
static void prog_spec_fill(const lzprog *p, int out_dtype, ga_ewspec *s) {
  memset(s, 0, sizeof *s);
  s->kname = "ga_lazy";
  int np = p->nleaves + p->nscalars;
  s->nparams = np + 1;
  for (int k = 0; k < np; k++) {
    ga_ewparam *q = &s->p[k];
    q->name = param_names[k];
    q->kind = k < p->nleaves ? GA_EW_ARRAY : GA_EW_SCALAR;
    q->storage = q->compute = p->pdtype[k];
  }
  ga_ewparam *o = &s->p[np];
  o->name = "o0";
  o->kind = GA_EW_ARRAY;
  o->out = 1;
  o->storage = o->compute = out_dtype;
  o->write_first = 1;
  s->operation = p->operation;
  s->preamble = p->preamble;
}

static void prog_spec(const ga_ewcall *c, ga_ewspec *s) {
  prog_spec_fill((const lzprog *)c->ud, c->dtype[c->np - 1], s);
}

/* ===================================================================== */
/* running an expression                                                 */
/* ===================================================================== */

static void run_program(lua_State *L, ga_state *ctx, const lzgraph *g, ga_array *out) {
  lzprog *p = program(L, ctx->lz, g);
  ga_ewcall c;
  c.what = "lazy evaluation";
  int np = g->nleaves + g->nscalars;
  c.np = np + 1;
  for (int k = 0; k < np; k++) {
    c.out[k] = 0;
    c.idx[k] = 0;
    c.dtype[k] = p->pdtype[k];
    if (k < g->nleaves) {
      c.kind[k] = GA_EW_ARRAY;
      c.a[k] = &g->leaves[k]->leaf;
    } else {
      const ga_lznode *n = g->scalars[k - g->nleaves].n;
      c.kind[k] = GA_EW_SCALAR;
      c.a[k] = NULL;
      c.val[k] = n->op.sval[g->scalars[k - g->nleaves].k];
    }
  }
  c.kind[np] = GA_EW_ARRAY;
  c.out[np] = 1;
  c.dtype[np] = out->dtype;
  c.idx[np] = 0;
  c.a[np] = out;
  for (int w = 0; w < GA_EWKEY_WORDS; w++) c.key[w] = 0;
  ga_ew_call_defaults(&c, ctx, &p->memo, prog_spec, p, 0);
  ga_ew_run(L, ctx, &c);
  ctx->lz->kernels++;
}

/* The kernel(s) computing root into out */
static void run(lua_State *L, ga_state *ctx, ga_lznode *root, ga_array *out) {
  ga_lazy *z = ctx->lz;
  if (z->dry) {                      /* (test hook) the source is made, nothing runs */
    lzgraph g;
    collect(z, root, &g);
    program(L, z, &g);
    return;
  }
  if (root->kind == LZ_UFUNC) {
    /* one ufunc over arrays and scalars: its own eager kernel */
    int simple = 1;
    for (int k = 0; k < root->op.nargs && simple; k++)
      simple = !root->op.arg[k] || root->op.arg[k]->kind == LZ_LEAF;
    ga_ufunc_loopinfo li;
    if (simple) ga_ufunc_loopinfo_get(root->op.u, root->op.loop, &li);
    if (simple && li.nout == 1 && root->dtype == out->dtype) {
      ga_array *a[LZ_MAXARGS];
      for (int k = 0; k < root->op.nargs; k++) a[k] = root->op.arg[k] ? &root->op.arg[k]->leaf : NULL;
      ga_ufunc_run_loop(L, ctx, root->op.u, root->op.loop, a, root->op.sval, out);
      z->fast++;
      return;
    }
  } else if (root->kind == LZ_CAST && root->op.arg[0]->kind == LZ_LEAF && root->dtype == out->dtype) {
    ga_copy_into(L, ctx, out, &root->op.arg[0]->leaf, "astype");   /* eager astype's copy */
    z->fast++;
    return;
  }
  lzgraph g;
  collect(z, root, &g);
  run_program(L, ctx, &g, out);
}

/* ===================================================================== */
/* settling                                                              */
/* ===================================================================== */

/* A settled rec: its array has its value; it leaves the list */
static void commit(ga_state *ctx, ga_lzrec *r) {
  ga_array *a = r->self;
  ga_lazy *z = ctx->lz;
  z->settles++;
  if (z->dry && z->nlog < (int)(sizeof z->log / sizeof z->log[0])) z->log[z->nlog++] = r->serial;
  if (a) {
    a->lz = NULL;
    a->flags &= ~GA_F_LAZY;
    if (!r->store) {                 /* the memory passes to the array */
      a->block = r->out.block;
      a->data = r->out.data;
      r->out.block = NULL;
    }
  }
  ga_lz_rec_free(ctx, r);
}

static int registered_on(const ga_lzrec *r, const ga_block *b) {
  for (int j = 0; j < r->nblk; j++)
    if (r->blk[j] == b) return 1;
  return 0;
}

void ga_lz_settle(lua_State *L, ga_state *ctx, ga_lzrec *r, int depth) {
  if (depth > LZ_MAXDEPTH) ga_error(L, "lazy evaluation: pending writes depend on each other too deeply");
  ctx->lz->attempts++;
  if (r->store) {
    /* what other pending work reads of this memory, it reads before the write */
    ga_block *b = r->out.block;
    if (b->lz_readers > registered_on(r, b)) ga_lz_flush_block(L, ctx, b, 1, r, depth + 1);
    if (!r->prev) return;            /* dropped meanwhile */
  } else if (!r->out.block && r->out.size > 0) {
    int64_t nbytes = r->out.size * ga_dtypes[r->out.dtype].itemsize;
    ctx->lz->allocating++;
    ga_block *b = ctx->lz->dry ? ga_lz_host_block(L, (size_t)nbytes) : ga_alloc(L, ctx, (size_t)nbytes);
    ctx->lz->allocating--;
    if (!r->prev) {                  /* its array was collected meanwhile */
      ga_block_release(b);
      return;
    }
    r->out.block = b;                /* the rec owns it until commit */
    r->out.data = (char *)b->ptr;
  }
  if (r->out.size > 0) {
    ga_lznode *root = r->node;
    ga_lz_node_ref(root);            /* (a collected array drops its own reference) */
    run(L, ctx, root, &r->out);      /* (an error here leaks this one node: see docs/lazy.md) */
    ga_lz_node_unref(root);
    if (!r->prev) return;
  }
  commit(ctx, r);
}

void ga_lz_settle_array(lua_State *L, ga_state *ctx, ga_array *a) {
  if ((a->flags & GA_F_LAZY) && a->lz) ga_lz_settle(L, ctx, a->lz, 0);
}

/* ===================================================================== */
/* flushes: recs found in the list                                       */
/* ===================================================================== */

typedef struct {
  int n, depth;
  ga_lzrec **r;
  uint64_t *serial;
} pinned;

static int settle_pinned(lua_State *L) {
  pinned *p = (pinned *)lua_touserdata(L, 1);
  ga_state *ctx = ga_state_get(L);
  for (int i = 0; i < p->n; i++) {
    ga_lzrec *r = p->r[i];
    if (r->prev && r->serial == p->serial[i]) ga_lz_settle(L, ctx, r, p->depth);
  }
  return 0;
}

/* Settle the recs the predicate picks, oldest first */
static void flush(lua_State *L, ga_state *ctx, int (*pick)(const ga_lzrec *, const void *), const void *arg,
                  int depth) {
  ga_lazy *z = ctx->lz;
  if (!z) return;
  int n = 0;
  for (ga_lzrec *r = z->head.next; r != &z->head; r = r->next) n += pick(r, arg);
  if (n == 0) return;
  z->flushes++;
  pinned p;
  p.n = 0;
  p.depth = depth;
  p.r = (ga_lzrec **)malloc(sizeof(ga_lzrec *) * (size_t)n);
  p.serial = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)n);
  if (!p.r || !p.serial) {
    free(p.r);
    free(p.serial);
    ga_error(L, "out of host memory (lazy evaluation)");
  }
  for (ga_lzrec *r = z->head.next; r != &z->head && p.n < n; r = r->next) {
    if (!pick(r, arg)) continue;
    r->pins++;
    p.serial[p.n] = r->serial;
    p.r[p.n++] = r;
  }
  lua_pushcfunction(L, settle_pinned);
  lua_pushlightuserdata(L, &p);
  int status = lua_pcall(L, 1, 0, 0);
  for (int i = 0; i < p.n; i++) {
    ga_lzrec *r = p.r[i];
    if (--r->pins == 0 && !r->prev) free(r);   /* dropped while pinned */
  }
  free(p.r);
  free(p.serial);
  if (status != LUA_OK) lua_error(L);
}

typedef struct {
  const ga_block *b;
  const ga_lzrec *skip;
} block_arg;

static int pick_reader(const ga_lzrec *r, const void *arg) {
  const block_arg *a = (const block_arg *)arg;
  return r != a->skip && registered_on(r, a->b);
}

static int pick_store(const ga_lzrec *r, const void *arg) {
  const block_arg *a = (const block_arg *)arg;
  return r != a->skip && r->store && r->out.block == a->b;
}

static int pick_any(const ga_lzrec *r, const void *arg) {
  (void)arg;
  (void)r;
  return 1;
}

void ga_lz_flush_block(lua_State *L, ga_state *ctx, ga_block *b, int readers, const ga_lzrec *skip, int depth) {
  block_arg a = {b, skip};
  flush(L, ctx, readers ? pick_reader : pick_store, &a, depth);
}

void ga_lz_flush_all(lua_State *L, ga_state *ctx, const char *why) {
  (void)why;
  if (ctx->lz) ctx->lz->allocating = 0;   /* (a sync point is never inside a settle) */
  flush(L, ctx, pick_any, NULL, 0);
}

static int pick_any_store(const ga_lzrec *r, const void *arg) {
  (void)arg;
  return r->store;
}

void ga_lz_flush_stores(lua_State *L, ga_state *ctx) {
  if (!ctx->lz) return;
  ctx->lz->allocating = 0;   /* (called at the top level, as ga_lz_flush_all) */
  flush(L, ctx, pick_any_store, NULL, 0);
}

/* ga_lazy_pressure_fn: pending stores land (they allocate nothing) and
** release their expressions; not while a settle allocates (it may be one
** of theirs), nor recursively */
static int lz_pressure(lua_State *L, ga_state *ctx) {
  ga_lazy *z = ctx->lz;
  if (!z || z->allocating) return 0;
  int n = 0;
  for (ga_lzrec *r = z->head.next; r != &z->head; r = r->next) n += r->store;
  if (n == 0) return 0;
  z->allocating++;
  z->pressure++;
  flush(L, ctx, pick_any_store, NULL, 0);
  z->allocating--;
  return 1;
}

/* ga_lazy_hook.ready: before C code reads (or writes) a's memory */
static void lz_ready(lua_State *L, ga_array *a, int access) {
  ga_state *ctx = ga_state_get(L);
  if (a->flags & GA_F_LAZY) {
    if (a->lz) ga_lz_settle(L, ctx, a->lz, 0);
    else a->flags &= ~GA_F_LAZY;
  }
  ga_block *b = a->block;
  if (!b) return;
  if (b->lz_stores) ga_lz_flush_block(L, ctx, b, 0, NULL, 0);
  if (access == GA_LZ_WRITE && b->lz_readers) ga_lz_flush_block(L, ctx, b, 1, NULL, 0);
}

/* ===================================================================== */
/* the source of a pending array (ga.get_lazy_source)                    */
/* ===================================================================== */

void ga_lz_source(lua_State *L, ga_state *ctx, ga_array *a) {
  ga_lzrec *r = a->lz;
  lzgraph g;
  collect(ctx->lz, r->node, &g);
  lzprog *p = program(L, ctx->lz, &g);
  /* the variant the array's settling would take now */
  ga_ewiter it;
  memset(&it, 0, sizeof it);
  const ga_array *out = &r->out;
  it.ndim = out->ndim;
  memcpy(it.shape, out->shape, sizeof(int64_t) * (size_t)out->ndim);
  it.n = out->size;
  it.contiguous = 1;
  for (int k = 0; k <= g.nleaves; k++) {
    const ga_array *x = k < g.nleaves ? &g.leaves[k]->leaf : out;
    int m = it.narr++;
    it.ptr[m] = x->data ? x->data : (char *)(uintptr_t)4096;   /* (unallocated: aligned) */
    it.itemsize[m] = ga_dtypes[x->dtype].itemsize;
    it.out[m] = k == g.nleaves;
    it.contiguous &= (x->flags & GA_F_C) && x->ndim == out->ndim && ga_ew_same_shape(out->ndim, x->shape, out->shape);
    ga_broadcast_strides(x->ndim, x->shape, x->strides, out->ndim, out->shape, it.strides[m]);
  }
  ga_ewvariant v;
  ga_ixbuf ix;
  int64_t count;
  ga_ew_layout(&it, 1, 1, &v, &ix, &count);
  ga_ewspec s;
  prog_spec_fill(p, out->dtype, &s);
  ga_buf b;
  ga_buf_init(&b);
  ga_ew_generate(&s, &v, &b);
  lua_pushlstring(L, b.s, b.len);
  ga_buf_free(&b);
}

static void lz_flush_hook(lua_State *L, ga_state *ctx, const char *why) {
  ga_lz_flush_all(L, ctx, why);
}

static int l_set_codegen(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &codegen_key);
  return 0;
}

static const luaL_Reg eval_funcs[] = {
  {"lazy_set_codegen", l_set_codegen},
  {NULL, NULL}
};

void ga_open_lazy_eval(void) {
  ga_lazy_hook.ready = lz_ready;
  ga_lazy_flush_fn = lz_flush_hook;
  ga_lazy_pressure_fn = lz_pressure;
}

void ga_open_lazy_eval_funcs(lua_State *L) { ga_setprivate(L, "elementwise", eval_funcs); }
