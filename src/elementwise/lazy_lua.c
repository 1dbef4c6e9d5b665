/*
** lazy_lua.c: what Lua sees of lazy evaluation (lazy.h): the switch
** (ga.set_lazy, ga.get_lazy: per lua_State, on unless GPUARRAY_LAZY=0),
** forcing (x:eval(), ga.eval(...)), the generated source of a pending
** array, the recorders of astype (ga_lazy_hook.astype, from ndarray.c) and of
** where and clip (their Lua functions call core.elementwise.lazy_where and
** lazy_clip), and test hooks that show the recorder's structure.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "elementwise/lazy.h"

/* GPUARRAY_LAZY=0 (or "off", "false") turns it off for new states */
/* Off unless GPUARRAY_LAZY says on (1, on, true): API.md §16 wants it on
** by default, which waits for the recorder's GPU verification (issue 29);
** until then ga.set_lazy(true) or the variable opt in */
static int lazy_default(void) {
  const char *e = getenv("GPUARRAY_LAZY");
  if (!e || !*e) return 0;
  return !(strcmp(e, "0") == 0 || strcmp(e, "off") == 0 || strcmp(e, "false") == 0);
}

static void free_host(void *ctx, void *ptr);

/* An array the recorder can take (lazy.h): on the current device, in
** memory gpuarray owns (a pool's, or a dry run's host block), or pending.
** Memory wrapped from outside (ga_wrap, a DLPack import) can be read or
** written behind the recorder's back: calls on it run eagerly. */
int ga_lz_takes(const ga_state *ctx, const ga_array *a) {
  if ((a->flags & GA_F_FREED) || a->device != ctx->device) return 0;
  const ga_block *b = a->block;
  return !b || b->pool || b->release == free_host;
}

static int recording(const ga_state *ctx) { return ctx->lazy && !ctx->capture; }

/* ===================================================================== */
/* the switch and forcing                                                */
/* ===================================================================== */

/* core.elementwise.lazy_set(on) -> the previous setting; pending work is
** computed first either way (API.md 16: set_lazy itself evaluates) */
static int l_lazy_set(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int on = lua_toboolean(L, 1);
  int prev = ctx->lazy;
  ga_lazy_flush(L, ctx, "set_lazy");
  ctx->lazy = on;
  lua_pushboolean(L, prev);
  return 1;
}

static int l_lazy_get(lua_State *L) {
  lua_pushboolean(L, ga_ctx(L)->lazy);
  return 1;
}

/* x:eval() -> x, its value computed (and writes recorded into its memory
** landed) */
static int l_eval_method(lua_State *L) {
  ga_readarray(L, 1);
  lua_settop(L, 1);
  return 1;
}

/* ga.eval(...) -> its arguments, the arrays among them computed */
static int l_eval(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int n = lua_gettop(L);
  for (int i = 1; i <= n; i++) {
    ga_array *a = ga_toarray_in(L, ctx, i);
    if (a && !(a->flags & GA_F_FREED)) ga_array_ready(L, a, GA_LZ_READ);
  }
  return n;
}

/* core.elementwise.lazy_source(x) -> the CUDA source its settling would
** compile now, or nil when x is not pending */
static int l_lazy_source(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a = ga_toarray_in(L, ctx, 1);
  if (!a) return ga_error(L, "get_lazy_source: expected an ndarray, got %s", luaL_typename(L, 1));
  if (!(a->flags & GA_F_LAZY) || !a->lz) {
    lua_pushnil(L);
    return 1;
  }
  ga_lz_source(L, ctx, a);
  return 1;
}

/* ===================================================================== */
/* astype, where, clip                                                   */
/* ===================================================================== */

/* ga_lazy_hook.astype: x:astype(dtype) of the array at idx as a pending cast */
static int lz_astype(lua_State *L, int idx, int dtype) {
  ga_state *ctx = ga_state_get(L);
  ga_array *a = ga_toarray_in(L, ctx, idx);
  if (!recording(ctx) || !a || !ga_lz_takes(ctx, a)) return 0;
  ga_lznode *n = ga_lz_node_new(L, LZ_CAST, dtype);
  n->op.nargs = 1;
  n->op.arg[0] = ga_lz_operand(L, ctx, a);
  if (!ga_lz_node_seal(n)) {           /* (one operand: within bounds once settled) */
    ga_lz_node_unref(n);
    ga_lz_settle_array(L, ctx, a);
    return lz_astype(L, idx, dtype);
  }
  ga_lz_push_result(L, ctx, n, a->ndim, a->shape);
  return 1;
}

/* Operand k of a where/clip node from the value at idx: an array, a typed
** scalar (the Lua side converted Lua numbers to the result dtype, as the
** eager kernels take them), or nil (clip's missing bound) */
static void take_operand(lua_State *L, ga_state *ctx, ga_lznode *n, int k, int idx) {
  ga_array *a = ga_toarray_in(L, ctx, idx);
  if (a) {
    n->op.arg[k] = ga_lz_operand(L, ctx, a);
    return;
  }
  ga_scalar *s = ga_toscalar(L, idx);
  if (s) {
    n->op.sdtype[k] = s->dtype;
    n->op.sval[k] = s->v;
  }
}

/* Can the values at first..first+n-1 be recorded (arrays usable, at
** least one array)? The broadcast shape goes to shape. */
static int operands_ok(lua_State *L, ga_state *ctx, int first, int n, int *nd, int64_t *shape) {
  int nb = 0, ndims[4];
  const int64_t *shapes[4];
  for (int i = 0; i < n; i++) {
    ga_array *a = ga_toarray_in(L, ctx, first + i);
    if (a) {
      if (!ga_lz_takes(ctx, a)) return 0;
      ndims[nb] = a->ndim;
      shapes[nb++] = a->shape;
    } else if (!lua_isnil(L, first + i) && !ga_toscalar(L, first + i)) {
      return 0;
    }
  }
  if (nb == 0) return 0;
  return ga_broadcast(nb, ndims, shapes, nd, shape) < 0;
}

/* core.elementwise.lazy_op(kind, dtype, a, b, c) -> a pending array, or
** nothing when the call is not recorded (the caller runs it eagerly).
** kind "where": c ? a : b ... as (cond, x, y); "clip": (x, lo, hi). The
** caller checked shapes and converted Lua scalars. */
static int l_lazy_op(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  const char *kind = luaL_checkstring(L, 1);
  int dtype = ga_checkdtype(L, 2, -1, "lazy_op");
  lua_settop(L, 5);
  int nd;
  int64_t shape[GA_MAXDIM];
  if (!recording(ctx) || dtype < 0 || !operands_ok(L, ctx, 3, 3, &nd, shape)) return 0;
  int k = strcmp(kind, "where") == 0 ? LZ_WHERE : LZ_CLIP;
  ga_lznode *n;
  for (int tries = 0;; tries++) {
    n = ga_lz_node_new(L, k, dtype);
    n->op.nargs = 3;
    for (int i = 0; i < 3; i++) take_operand(L, ctx, n, i, 3 + i);
    if (ga_lz_node_seal(n) || tries) break;
    ga_lz_node_unref(n);
    ctx->lz->bounds++;
    for (int i = 0; i < 3; i++) {
      ga_array *a = ga_toarray_in(L, ctx, 3 + i);
      if (a) ga_lz_settle_array(L, ctx, a);
    }
  }
  ga_lz_push_result(L, ctx, n, nd, shape);
  return 1;
}

/* ===================================================================== */
/* test hooks: the recorder's structure                                  */
/* ===================================================================== */

/* core._test.lazy_info(x) -> nil (not pending) or {store =, nodes =,
** leaves =, scalars =, kind =, dtype =, registered =} */
static int l_lazy_info(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a = ga_toarray_in(L, ctx, 1);
  if (!a || !(a->flags & GA_F_LAZY) || !a->lz) {
    lua_pushnil(L);
    return 1;
  }
  static const char *const kinds[] = {"leaf", "ufunc", "cast", "where", "clip"};
  const ga_lzrec *r = a->lz;
  lua_createtable(L, 0, 8);
  ga_setbool(L, "store", r->store);
  ga_setint(L, "nodes", r->node->nnodes);
  ga_setint(L, "leaves", r->node->nleaves);
  ga_setint(L, "scalars", r->node->nscalars);
  ga_setstr(L, "kind", kinds[r->node->kind]);
  ga_setstr(L, "dtype", ga_dtypes[r->node->dtype].name);
  ga_setint(L, "registered", r->nblk);
  ga_setbool(L, "has_memory", r->out.block != NULL);
  ga_setint(L, "serial", (lua_Integer)r->serial);
  return 1;
}

/* core._test.lazy_stats() -> {pending =, records =, settles =, kernels =,
** fast =, flushes =, bounds =, programs =} (counters of this state) */
static int l_lazy_stats(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_lazy *z = ga_lz_state(L, ctx);
  lua_createtable(L, 0, 8);
  ga_setint(L, "pending", ctx->lz_pending);
  ga_setint(L, "records", z->records);
  ga_setint(L, "attempts", z->attempts);
  ga_setint(L, "settles", z->settles);
  ga_setint(L, "kernels", z->kernels);
  ga_setint(L, "fast", z->fast);
  ga_setint(L, "flushes", z->flushes);
  ga_setint(L, "bounds", z->bounds);
  ga_setint(L, "programs", z->nprog);
  ga_setint(L, "pressure", z->pressure);
  return 1;
}

/* core._test.lazy_block(x) -> readers, stores of x's memory block */
static int l_lazy_block(lua_State *L) {
  ga_array *a = ga_toarray_in(L, ga_ctx(L), 1);
  if (!a || !a->block) {
    lua_pushinteger(L, 0);
    lua_pushinteger(L, 0);
  } else {
    lua_pushinteger(L, a->block->lz_readers);
    lua_pushinteger(L, a->block->lz_stores);
  }
  return 2;
}

/* ---- dry runs: recording and settling without a device ---- */

static void free_host(void *ctx, void *ptr) {
  (void)ctx;
  free(ptr);
}

ga_block *ga_lz_host_block(lua_State *L, size_t nbytes) {
  ga_block *b = (ga_block *)calloc(1, sizeof *b);
  void *p = calloc(1, nbytes ? nbytes : 1);
  if (!b || !p) {
    free(b);
    free(p);
    ga_error(L, "out of host memory (lazy evaluation test hook)");
  }
  b->ptr = p;
  b->size = nbytes;
  atomic_init(&b->refs, 1);
  b->device = ga_state_get(L)->device;
  b->release = free_host;
  return b;
}

/* core._test.lazy_fake(shape, dtype) -> an ndarray over host memory (no
** device): operations on it are recorded, and settled in a dry run */
static int l_lazy_fake(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int64_t shape[GA_MAXDIM];
  int nd = ga_checkshape(L, 1, shape, "lazy_fake");
  int t = ga_checkdtype(L, 2, GA_FLOAT32, "lazy_fake");
  int64_t zero = 0;
  ga_array *a = ga_new_array(L, ctx, t, 1, &zero);
  a->ndim = nd;
  memcpy(a->shape, shape, sizeof(int64_t) * (size_t)nd);
  ga_c_strides(nd, shape, ga_dtypes[t].itemsize, a->strides);
  ga_array_update_flags(a);
  if (a->size > 0) {
    a->block = ga_lz_host_block(L, (size_t)(a->size * ga_dtypes[t].itemsize));
    a->data = (char *)a->block->ptr;
  }
  return 1;
}

/* core._test.lazy_dry(on): settle without launching (lazy.h); the log of
** settled serials starts empty */
static int l_lazy_dry(lua_State *L) {
  ga_lazy *z = ga_lz_state(L, ga_ctx(L));
  z->dry = lua_toboolean(L, 1);
  z->nlog = 0;
  return 0;
}

/* core._test.lazy_log() -> the serials settled since the last call, in order */
static int l_lazy_log(lua_State *L) {
  ga_lazy *z = ga_lz_state(L, ga_ctx(L));
  lua_createtable(L, z->nlog, 0);
  for (int i = 0; i < z->nlog; i++) {
    lua_pushinteger(L, (lua_Integer)z->log[i]);
    lua_rawseti(L, -2, i + 1);
  }
  z->nlog = 0;
  return 1;
}

/* core._test.lazy_flush([what]) : every pending array of the state settled
** ("all", the default), or only the pending writes ("stores": what a
** program's effects are once the values it returned are computed; the
** bench's forcing, bench/run.lua) */
static int l_lazy_flush(lua_State *L) {
  const char *what = luaL_optstring(L, 1, "all");
  if (strcmp(what, "stores") == 0)
    ga_lz_flush_stores(L, ga_ctx(L));
  else if (strcmp(what, "all") == 0)
    ga_lazy_flush(L, ga_ctx(L), "lazy_flush");
  else
    ga_error(L, "lazy_flush: what must be \"all\" or \"stores\", got \"%s\"", what);
  return 0;
}

static const luaL_Reg lazy_funcs[] = {
  {"lazy_set", l_lazy_set},
  {"lazy_get", l_lazy_get},
  {"lazy_eval", l_eval},
  {"lazy_source", l_lazy_source},
  {"lazy_op", l_lazy_op},
  {NULL, NULL}
};

static const luaL_Reg lazy_test[] = {
  {"lazy_info", l_lazy_info},
  {"lazy_stats", l_lazy_stats},
  {"lazy_block", l_lazy_block},
  {"lazy_flush", l_lazy_flush},
  {"lazy_fake", l_lazy_fake},
  {"lazy_dry", l_lazy_dry},
  {"lazy_log", l_lazy_log},
  {NULL, NULL}
};

static const luaL_Reg lazy_methods[] = {
  {"eval", l_eval_method},
  {NULL, NULL}
};

/* The hooks are process-wide constants: installed once (several threads
** may open states at once; pthread_once orders the writes before any
** state's use) */
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void install_hooks(void) {
  ga_lazy_hook.astype = lz_astype;
  ga_open_lazy_graph();
  ga_open_lazy_eval();
}

void ga_open_lazy(lua_State *L) {
  ga_state *ctx = ga_state_get(L);
  if (!ctx->lz) ctx->lazy = lazy_default();   /* the first open in this state */
  ga_lz_state(L, ctx);                        /* before any array: lua_close finalizes it last */
  pthread_once(&hooks_once, install_hooks);
  ga_open_lazy_eval_funcs(L);
  ga_setprivate(L, "elementwise", lazy_funcs);
  ga_setprivate(L, GA_TEST, lazy_test);
  ga_push_methods(L);
  ga_setfuncs(L, lazy_methods);
  lua_pop(L, 1);
}
