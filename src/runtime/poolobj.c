/*
** poolobj.c: the Lua side of the memory pools. ga_alloc (which pool, the
** collector's view of device bytes, recovery from out-of-memory), pool
** objects (the default pool, ga.MemoryPool, ga.MemoryAsyncPool and the host
** test pool), ga.set_allocator, and the test hooks of the host pool.
*/
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"

#define GC_BATCH    ((size_t)16 << 20) /* step the Lua collector every 16 MiB */
#define GC_DEFER    ((size_t)1 << 30)  /* ... after the next launch, up to 1 GiB */
#define MAX_DEVICES 64

enum { K_DEFAULT, K_HOST, K_OWNED, K_ASYNC };

typedef struct {
  ga_object obj;         /* alive while it has a pool to work on */
  int kind;
  ga_pool *p;                   /* K_DEFAULT, K_HOST */
  ga_pool *dev[MAX_DEVICES];    /* K_OWNED, K_ASYNC: one per device, made on demand */
} lpool;

static const char objs_key = 'p';    /* registry: device -> its default pool object */
static const ga_objtype pool_type = {GA_POOL_MT, "a memory pool", "memory pool"};
/* core._test.host_pool(): a pool of the same kind whose own methods (alloc,
** work, finish, ...) drive its fake streams; its metatable is its own, so
** that the public pools carry no test method */
#define HOSTPOOL_MT "gpuarray.HostTestPool"
static const ga_objtype host_type = {HOSTPOOL_MT, "a memory pool", "memory pool"};

/* A pool object at idx, public or the host test pool, or NULL */
static void *topoolobj(lua_State *L, int idx) {
  void *u = ga_object_test(L, idx, &pool_type);
  return u ? u : ga_object_test(L, idx, &host_type);
}

static const char alloc_key = 'A';   /* registry: the state's allocator (set_allocator) */

/* The pool of object u for device dev (NULL without host memory) */
static ga_pool *pool_for(lpool *u, int dev) {
  if (u->kind == K_DEFAULT || u->kind == K_HOST) return u->p;
  if (dev < 0 || dev >= MAX_DEVICES) return NULL;
  if (!u->dev[dev]) u->dev[dev] = u->kind == K_ASYNC ? ga_pool_new_async(dev) : ga_pool_new_device(dev);
  return u->dev[dev];
}

ga_pool *ga_topool(lua_State *L, int idx) {
  lpool *u = (lpool *)topoolobj(L, idx);
  return u ? pool_for(u, ga_state_get(L)->device) : NULL;
}

/* ===================================================================== */
/* allocation                                                            */
/* ===================================================================== */

/* Lua 5.5 changed lua_gc: LUA_GCSTEP takes a size_t in bytes there */
static void gc_step(lua_State *L, size_t bytes) {
  if (!lua_gc(L, LUA_GCISRUNNING)) return;   /* stopped by the host: respect it */
#if LUA_VERSION_NUM >= 505
  lua_gc(L, LUA_GCSTEP, bytes);
#else
  size_t kb = bytes / 1024;
  lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
#endif
}

/* The pool's allocation with CuPy's recovery: empty the cache, run a full
** collection (finalizers release blocks), empty the cache again, retry.
** graph: memory for the graph being captured (ga_pool_try_alloc_graph). */
static ga_block *alloc_recover(lua_State *L, ga_state *ctx, ga_pool *p, size_t nbytes,
                               cudaStream_t s, int graph) {
  ga_block *(*try)(ga_pool *, size_t, cudaStream_t) = graph ? ga_pool_try_alloc_graph : ga_pool_try_alloc;
  ga_block *b = try(p, nbytes, s);
  if (b) return b;
  if (nbytes <= SIZE_MAX - 512) {
    ga_pool_free_all(p);
    lua_gc(ctx->main, LUA_GCCOLLECT);
    ga_pool_free_all(p);
    b = try(p, nbytes, s);
    if (b) return b;
    /* pending lazy work holds memory its expressions read: land what can
    ** land without allocating, collect again, retry */
    if (!graph && ctx->lz_pending && ga_lazy_pressure_fn && ga_lazy_pressure_fn(L, ctx)) {
      lua_gc(ctx->main, LUA_GCCOLLECT);
      ga_pool_free_all(p);
      b = try(p, nbytes, s);
      if (b) return b;
    }
  }
  ga_pool_stats st;
  ga_pool_get_stats(p, &st);
  int host = ga_pool_device(p) < 0;
  const char *fn = ga_called_name(L);   /* "empty: out of device memory ..." */
  ga_error(L, "%s%sout of %s memory (requested %I bytes, pool holds %I)", fn ? fn : "", fn ? ": " : "",
           host ? "host test" : "device", (lua_Integer)nbytes, (lua_Integer)st.total_bytes);
  return NULL;
}

/* The state's allocator for its current device; cached in ctx->pool until
** the device or the allocator changes */
static ga_pool *current_pool(lua_State *L, ga_state *ctx) {
  ga_pool *p = ctx->pool;
  if (p && ga_pool_device(p) == ctx->device) return p;
  p = NULL;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &alloc_key) == LUA_TUSERDATA)
    p = pool_for((lpool *)lua_touserdata(L, -1), ctx->device);
  lua_pop(L, 1);
  if (!p) p = ga_pool_default(ctx->device);
  if (!p) ga_error(L, "no memory pool for device %d", ctx->device);
  ctx->pool = p;
  return p;
}

/* The collector cannot see device memory, so ga_alloc counts device bytes
** as debt and the collector steps by that many bytes (a full cycle, for
** large arrays) when the debt reaches the bytes in use after the last
** step: device garbage may grow to the live device bytes, as Lua's default
** pause (200%) lets its own heap grow (at least GC_BATCH, at most
** GC_DEFER). The step runs after the work that needed the bytes is queued
** (ga_gc_settle, called by ga_launch and the library calls that queue
** work), not in ga_alloc before it: a cycle of a large Lua heap takes a
** fraction of a millisecond of host time, which then overlaps the GPU's
** work instead of delaying its start. Measured on an H200 (make bench,
** A/B in one call): fft of 2^24 values 0.32-0.38 -> 0.27 ms with the step
** after the launch; the unfused tanh(sin(x) + 0.1 x) chain 812-835 ->
** 914-916 GB/s with the pace from the bytes in use instead of a step
** every 16 MiB. A step that fell due and saw a second allocation without
** a launch (allocations alone) runs in ga_alloc. */
_Thread_local ga_state *ga_gc_due;

static void gc_pay(ga_state *ctx) {
  size_t debt = ctx->gc_debt;
  ctx->gc_debt = 0;
  if (ga_gc_due == ctx) ga_gc_due = NULL;
  gc_step(ctx->main, debt);
  if (ctx->pool) {
    ga_pool_stats st;
    ga_pool_get_stats(ctx->pool, &st);
    ctx->gc_pace = st.used_bytes;
  }
}

void ga_gc_settle_now(lua_State *L) {
  ga_state *ctx = ga_gc_due;
  if (ctx && ga_state_get(L) == ctx && ctx->gc_debt >= GC_BATCH) gc_pay(ctx);
  /* GC stress collects at these points too: they are new places where
  ** finalizers run in the middle of a C function */
  if (ga_gc_stress() && lua_gc(L, LUA_GCISRUNNING)) lua_gc(L, LUA_GCCOLLECT);
}

/* A step that fell due waits for the next launch (above), but when this
** allocation would grow the pool it is paid first: the arrays dropped since
** the last step may hold a block that fits, and a new segment (cudaMalloc:
** 70-90 us for 64 MiB on an H100, beside a 57 us pad of a 4096^2 float32
** array: tools/probe/pad_pool.lua) stays in the pool for good. The same
** steps as before, some earlier: no more collector work. A full collection
** at every allocation that missed the cache, tried first, made a loop that
** drops a 64 MiB result each call (tools/probe/pad_tune.lua, queued) spend
** about 100 us of host time a call in the collector. */
static ga_block *pay_before_growth(ga_state *ctx, ga_pool *p, size_t nbytes) {
  ga_block *b = ga_pool_try_cached(p, nbytes, ctx->stream);
  if (!b) gc_pay(ctx);   /* then alloc_recover looks in the cache again */
  return b;
}

ga_block *ga_alloc(lua_State *L, ga_state *ctx, size_t nbytes) {
  ga_device_enter(L, ctx);
  if (ga_fault(GA_FAULT_ALLOC))
    ga_error(L, "out of device memory (requested %I bytes; injected: GPUARRAY_FAIL=alloc)", (lua_Integer)nbytes);
  /* GC stress: every object the caller has not anchored is collected here
  ** (lua_gc does nothing inside a finalizer; a stopped collector stays so) */
  if (ga_gc_stress() && lua_gc(ctx->main, LUA_GCISRUNNING)) lua_gc(ctx->main, LUA_GCCOLLECT);
  ga_pool *p = current_pool(L, ctx);
  /* device bytes as the collector's debt (above ga_gc_settle says how it
  ** is paid): small arrays cost one addition */
  ctx->gc_debt = nbytes > SIZE_MAX - ctx->gc_debt ? SIZE_MAX : ctx->gc_debt + nbytes;
  size_t due = ctx->gc_pace > GC_BATCH ? ctx->gc_pace : GC_BATCH;
  if (ctx->gc_debt >= GC_DEFER) {
    gc_pay(ctx);
  } else if (ctx->gc_debt >= due) {
    if (ga_gc_due != ctx) {
      ga_gc_due = ctx;
      ctx->gc_waits = 0;
    } else if (++ctx->gc_waits > 1) {
      gc_pay(ctx);
    }
  }
  if (!ctx->capture && ga_gc_due == ctx && !ga_pool_is_async(p)) {
    ga_block *b = pay_before_growth(ctx, p, nbytes);
    if (b) return b;
  }
  if (ctx->capture) {
    /* inside a capture: memory the graph owns (graph.c), from a device pool
    ** even under MemoryAsyncPool, whose frees would land in the capture */
    if (ga_pool_is_async(p) && !(p = ga_pool_default(ctx->device)))
      ga_error(L, "no memory pool for device %d", ctx->device);
    return ga_capture_keep(L, ctx, alloc_recover(L, ctx, p, nbytes, ctx->stream, 1));
  }
  return alloc_recover(L, ctx, p, nbytes, ctx->stream, 0);
}

/* ===================================================================== */
/* pool objects                                                          */
/* ===================================================================== */

static lpool *checkpool(lua_State *L, const char *fname) {
  lpool *u = (lpool *)topoolobj(L, 1);
  if (u && u->obj.alive) return u;
  return (lpool *)ga_object_check(L, 1, u ? u->obj.type : &pool_type, fname);   /* raises */
}

/* The pool a method works on: the object's pool for the current device */
static ga_pool *method_pool(lua_State *L, const char *fname) {
  ga_pool *p = pool_for(checkpool(L, fname), ga_ctx(L)->device);
  if (!p) ga_error(L, "%s: out of host memory", fname);
  return p;
}

static lpool *checkhost(lua_State *L, const char *fname) {
  lpool *u = checkpool(L, fname);
  if (u->kind != K_HOST) ga_error(L, "%s: only the host test pool (core._test.host_pool) has it", fname);
  return u;
}

static lua_Integer checkint(lua_State *L, int idx, const char *fname, const char *what) {
  int ok;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok || v < 0)
    ga_error(L, "%s: %s must be a non-negative integer, got %s", fname, what,
             luaL_tolstring(L, idx, NULL));
  return v;
}

static ga_pool_stats getstats(lua_State *L, const char *fname) {
  ga_pool_stats st;
  ga_pool_get_stats(method_pool(L, fname), &st);
  return st;
}

static int l_used_bytes(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)getstats(L, "used_bytes").used_bytes);
  return 1;
}

static int l_total_bytes(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)getstats(L, "total_bytes").total_bytes);
  return 1;
}

static int l_free_bytes(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)getstats(L, "free_bytes").free_bytes);
  return 1;
}

static int l_n_free_blocks(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)getstats(L, "n_free_blocks").n_free_blocks);
  return 1;
}

static int l_get_limit(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)getstats(L, "get_limit").limit);
  return 1;
}

static int l_free_all_blocks(lua_State *L) {
  ga_pool_free_all(method_pool(L, "free_all_blocks"));
  return 0;
}

/* set_limit({size = bytes} | {fraction = f}) or set_limit(bytes); 0 or
** neither: no limit */
static int l_set_limit(lua_State *L) {
  lpool *u = checkpool(L, "set_limit");
  ga_pool *p = method_pool(L, "set_limit");
  size_t limit = 0;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    limit = (size_t)checkint(L, 2, "set_limit", "size");
  } else if (lua_type(L, 2) == LUA_TTABLE) {
    int hassize = lua_getfield(L, 2, "size") != LUA_TNIL;
    int hasfrac = lua_getfield(L, 2, "fraction") != LUA_TNIL;
    if (hassize && hasfrac) ga_error(L, "set_limit: give size or fraction, not both");
    if (hassize) limit = (size_t)checkint(L, -2, "set_limit", "size");
    if (hasfrac) {
      int ok;
      lua_Number f = lua_tonumberx(L, -1, &ok);
      if (!ok || !(f >= 0 && f <= 1))
        ga_error(L, "set_limit: fraction must be a number in [0, 1]");
      if (u->kind == K_HOST) ga_error(L, "set_limit: fraction needs a device pool");
      ga_device_enter(L, ga_ctx(L));
      size_t f_mem, total;
      int dev = ga_pool_device(p), cur = -1;
      cudaGetDevice(&cur);
      cudaError_t err = cudaSetDevice(dev);
      if (err == cudaSuccess) err = cudaMemGetInfo(&f_mem, &total);
      if (cur >= 0) cudaSetDevice(cur);
      if (err != cudaSuccess) {
        (void)cudaGetLastError();
        ga_error(L, "set_limit: cannot read the memory size of device %d", dev);
      }
      limit = (size_t)(f * (double)total);
    }
  } else if (!lua_isnoneornil(L, 2)) {
    ga_error(L, "set_limit: expected {size = n} or {fraction = f}, got %s",
             luaL_typename(L, 2));
  }
  ga_pool_set_limit(p, limit);
  return 0;
}

static int l_pool_tostring(lua_State *L) {
  lpool *u = checkpool(L, "__tostring");
  switch (u->kind) {
    case K_HOST: lua_pushfstring(L, "gpuarray.MemoryPool(host test %p)", (void *)u->p); break;
    case K_DEFAULT: lua_pushfstring(L, "gpuarray.MemoryPool(device %d)", ga_pool_device(u->p)); break;
    case K_OWNED: lua_pushfstring(L, "gpuarray.MemoryPool(%p)", (void *)u); break;
    default: lua_pushfstring(L, "gpuarray.MemoryAsyncPool(%p)", (void *)u); break;
  }
  return 1;
}

/* Owned pools live on while their blocks do (pool.c destroys them when the
** last one returns); default pools are process-wide */
static int l_pool_gc(lua_State *L) {
  lpool *u = (lpool *)topoolobj(L, 1);
  if (!u) return 0;
  if (u->kind == K_HOST && u->p) {
    ga_pool_release_owner(u->p);
    u->p = NULL;
    u->obj.alive = 0;
  } else if (u->kind == K_OWNED || u->kind == K_ASYNC) {
    for (int d = 0; d < MAX_DEVICES; d++)
      if (u->dev[d]) {
        ga_pool_release_owner(u->dev[d]);
        u->dev[d] = NULL;
      }
  }
  return 0;
}

/* ---- the host test pool's handles: integers, checked against the live set
** kept in the object's user value so a bad handle is an error, not a crash */

static ga_block *checkhandle(lua_State *L, const char *fname) {
  checkhost(L, fname);
  int ok;
  lua_Integer h = lua_tointegerx(L, 2, &ok);
  lua_getiuservalue(L, 1, 1);
  if (!ok || lua_rawgeti(L, -1, h) != LUA_TBOOLEAN)
    ga_error(L, "%s: not a live handle: %s", fname, luaL_tolstring(L, 2, NULL));
  lua_pop(L, 2);
  return (ga_block *)(intptr_t)h;
}

static int checksid(lua_State *L, int idx, const char *fname) {
  lua_Integer sid = lua_isnoneornil(L, idx) ? 0 : checkint(L, idx, fname, "stream id");
  if (sid >= GA_POOL_TEST_STREAMS)
    ga_error(L, "%s: stream id must be below %d", fname, GA_POOL_TEST_STREAMS);
  return (int)sid;
}

static int l_host_alloc(lua_State *L) {
  lpool *u = checkhost(L, "alloc");
  size_t n = (size_t)checkint(L, 2, "alloc", "nbytes");
  int sid = checksid(L, 3, "alloc");
  int graph = lua_toboolean(L, 4);   /* as for a graph being captured */
  lua_getiuservalue(L, 1, 1);
  ga_block *b = alloc_recover(L, ga_ctx(L), u->p, n, (cudaStream_t)(intptr_t)sid, graph);
  lua_pushboolean(L, 1);
  lua_rawseti(L, -2, (lua_Integer)(intptr_t)b);
  lua_pushinteger(L, (lua_Integer)(intptr_t)b);
  return 1;
}

static int l_host_free(lua_State *L) {
  ga_block *b = checkhandle(L, "free");
  lua_getiuservalue(L, 1, 1);
  lua_pushnil(L);
  lua_rawseti(L, -2, (lua_Integer)(intptr_t)b);
  ga_block_release(b);
  return 0;
}

static int l_host_ptr(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)(intptr_t)checkhandle(L, "ptr")->ptr);
  return 1;
}

static int l_host_size(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)checkhandle(L, "size")->size);
  return 1;
}

/* p:work(sid): queue work on fake stream sid; p:finish(sid[, n]): all of it
** (or its first n units) done;
** _live(sid, bool): sid exists (events go on it); _retire(sid): destroyed;
** _bump(): the stream epoch moves (a switch); _pending(), _waits(): counts */
static int l_host_work(lua_State *L) {
  ga_pool_test_work(checkhost(L, "work")->p, checksid(L, 2, "work"));
  return 0;
}

static int l_host_finish(lua_State *L) {
  long upto = lua_isnoneornil(L, 3) ? -1 : (long)checkint(L, 3, "finish", "count");
  ga_pool_test_finish(checkhost(L, "finish")->p, checksid(L, 2, "finish"), upto);
  return 0;
}

static int l_host_live(lua_State *L) {
  ga_pool_test_live(checkhost(L, "live")->p, checksid(L, 2, "live"), lua_toboolean(L, 3));
  return 0;
}

static int l_host_retire(lua_State *L) {
  ga_pool_test_retire(checkhost(L, "retire")->p, checksid(L, 2, "retire"));
  return 0;
}

/* p:adopt(sid): sid is a host's stream, with one more user;
** p:give_back(sid) -> 1 when that was its last user (sid settled and
** untagged), 0 when users remain, -1 when it was not listed */
static int l_host_adopt(lua_State *L) {
  ga_pool_test_adopt(checkhost(L, "adopt")->p, checksid(L, 2, "adopt"));
  return 0;
}

static int l_host_give_back(lua_State *L) {
  lua_pushinteger(L, ga_pool_test_give_back(checkhost(L, "give_back")->p, checksid(L, 2, "give_back")));
  return 1;
}

static int l_host_bump(lua_State *L) {
  ga_pool_test_bump(checkhost(L, "bump")->p);
  return 0;
}

/* _capture(sid): fake stream sid is being captured; _capture(): none */
static int l_host_capture(lua_State *L) {
  int sid = lua_isnoneornil(L, 2) ? -1 : checksid(L, 2, "capture");
  ga_pool_test_capture(checkhost(L, "capture")->p, sid);
  return 0;
}

static int l_host_pending(lua_State *L) {
  size_t pending;
  long waits;
  ga_pool_test_counts(checkhost(L, "pending")->p, &pending, &waits);
  lua_pushinteger(L, (lua_Integer)pending);
  return 1;
}

static int l_host_waits(lua_State *L) {
  size_t pending;
  long waits;
  ga_pool_test_counts(checkhost(L, "waits")->p, &pending, &waits);
  lua_pushinteger(L, (lua_Integer)waits);
  return 1;
}

/* ===================================================================== */
/* module functions                                                      */
/* ===================================================================== */

/* A new object in its harmless state (no pool yet) */
static lpool *push_pool(lua_State *L, int kind) {
  lpool *u = (lpool *)ga_object_new(L, kind == K_HOST ? &host_type : &pool_type, sizeof *u, 1);
  u->kind = kind;
  u->obj.alive = kind > K_HOST;         /* the others are alive once they hold their pool */
  return u;
}

/* One object per device and state, so the same pool compares equal */
static int l_get_default_memory_pool(lua_State *L) {
  int dev = ga_ctx(L)->device;
  ga_pool *p = ga_pool_default(dev);
  if (!p) return ga_error(L, "get_default_memory_pool: no pool for device %d", dev);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &objs_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &objs_key);
  }
  if (lua_rawgeti(L, -1, dev) == LUA_TUSERDATA) return 1;
  lua_pop(L, 1);
  lpool *u = push_pool(L, K_DEFAULT);
  u->p = p;
  u->obj.alive = 1;
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, dev);
  return 1;
}

/* ga.MemoryPool(): a pool of its own (per device, made on first use); its
** memory goes back to CUDA when the object and its last block are gone */
static int l_memory_pool(lua_State *L) {
  push_pool(L, K_OWNED);
  return 1;
}

/* ga.MemoryAsyncPool(): cudaMallocAsync / cudaFreeAsync on the current
** stream, from the device's current CUDA memory pool */
static int l_memory_async_pool(lua_State *L) {
  push_pool(L, K_ASYNC);
  return 1;
}

/* Test only: a pool of host memory, same logic, no CUDA call */
static int l_host_pool(lua_State *L) {
  lpool *u = push_pool(L, K_HOST);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  u->p = ga_pool_new_host();
  u->obj.alive = u->p != NULL;
  if (!u->p) return ga_error(L, "host_pool: out of host memory");
  return 1;
}

/* set_allocator(pool): this state's arrays come from pool (per device);
** nil restores the default pool */
static int l_set_allocator(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  if (!lua_isnoneornil(L, 1)) {
    lpool *u = (lpool *)topoolobj(L, 1);
    if (!u) ga_error(L, "set_allocator: expected a memory pool or nil, got %s", luaL_typename(L, 1));
    if (u->kind == K_HOST) ga_error(L, "set_allocator: the host test pool cannot hold arrays");
  }
  lua_settop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &alloc_key);
  ctx->pool = NULL;   /* resolved again at the next allocation */
  return 0;
}

/* get_allocator() -> the pool set_allocator chose, or the default pool */
static int l_get_allocator(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &alloc_key) == LUA_TUSERDATA) return 1;
  lua_pop(L, 1);
  return l_get_default_memory_pool(L);
}

static const luaL_Reg pool_methods[] = {
  {"used_bytes", l_used_bytes},
  {"total_bytes", l_total_bytes},
  {"free_bytes", l_free_bytes},
  {"n_free_blocks", l_n_free_blocks},
  {"free_all_blocks", l_free_all_blocks},
  {"set_limit", l_set_limit},
  {"get_limit", l_get_limit},
  {NULL, NULL}
};

/* the host test pool's own, besides the above */
static const luaL_Reg host_test_methods[] = {
  {"alloc", l_host_alloc},
  {"free", l_host_free},
  {"ptr", l_host_ptr},
  {"size", l_host_size},
  {"work", l_host_work},
  {"finish", l_host_finish},
  {"live", l_host_live},
  {"retire", l_host_retire},
  {"adopt", l_host_adopt},
  {"give_back", l_host_give_back},
  {"bump", l_host_bump},
  {"capture", l_host_capture},
  {"pending", l_host_pending},
  {"waits", l_host_waits},
  {NULL, NULL}
};

static const luaL_Reg pool_meta[] = {
  {"__gc", l_pool_gc},
  {"__tostring", l_pool_tostring},
  {NULL, NULL}
};

static const luaL_Reg pool_funcs[] = {
  {"get_default_memory_pool", l_get_default_memory_pool},
  {"MemoryPool", l_memory_pool},
  {"MemoryAsyncPool", l_memory_async_pool},
  {"set_allocator", l_set_allocator},
  {"get_allocator", l_get_allocator},
  {NULL, NULL}
};

static const luaL_Reg pool_funcs_test[] = {
  {"host_pool", l_host_pool},
  {NULL, NULL}
};

void ga_open_pool(lua_State *L) {
  if (luaL_newmetatable(L, GA_POOL_MT)) {   /* idempotent: busted reopens the module */
    ga_setfuncs(L, pool_meta);
    lua_newtable(L);
    ga_setfuncs(L, pool_methods);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, HOSTPOOL_MT)) {
    ga_setfuncs(L, pool_meta);
    lua_newtable(L);
    ga_setfuncs(L, pool_methods);
    ga_setfuncs(L, host_test_methods);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
  ga_setfuncs(L, pool_funcs);
  ga_setprivate(L, GA_TEST, pool_funcs_test);
}
