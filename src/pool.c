/*
** pool.c: the memory pool every array allocates from (CuPy's
** SingleDeviceMemoryPool, in C).
**
** A pool owns segments (one cudaMalloc each) cut into chunks. Sizes are
** rounded up to 512 bytes. A chunk handed out is a ga_block; a free chunk sits
** in the free list of the stream it was last used on (an arena), in a size
** class bin. Allocation is best-fit, splits the chunk it takes (the rest stays
** free in the same segment) and merges a freed chunk with free neighbours of
** the same segment and stream. Segments go back to CUDA only in free_all (and
** the out-of-memory path), and only when every chunk in them is free.
**
** The raw segment allocator is a small backend: cudaMalloc/cudaFree for device
** pools, malloc/free for the host test pool (core._host_pool) that lets the
** specs exercise all of the logic above on machines without a GPU.
**
** Pools are process-wide and shared by every lua_State (one mutex each);
** nothing here calls Lua while a pool mutex is held.
*/
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"

#define POOL_MT "gpuarray.MemoryPool"

#define UNIT        512               /* allocation granularity (cudaMalloc aligns to 256) */
#define EXACT_LOG2  8
#define EXACT       (1 << EXACT_LOG2) /* bins 0..255: one per size, 512 B .. 128 KiB */
#define SUB_LOG2    3
#define SUB         (1 << SUB_LOG2)   /* then 8 bins per power of two */
#define NBINS       (EXACT + 48 * SUB)
#define NWORDS      ((NBINS + 63) / 64)
#define GC_BATCH    ((size_t)16 << 20) /* step the Lua collector every 16 MiB */
#define MAX_DEVICES 64

typedef struct arena arena;
typedef struct chunk chunk;

struct chunk {
  ga_block b;              /* first member: what arrays hold */
  chunk *prev, *next;      /* neighbours in address order, same segment */
  chunk *fprev, *fnext;    /* bin links while free */
  chunk *sprev, *snext;    /* the pool's segment list (segment heads only) */
  arena *arena;            /* the free list holding it; NULL while in use */
  size_t segsize;          /* heads only: the size of the whole segment */
  int bin;
};

/* The free chunks last used on one stream. A bitmap of non-empty bins makes
** "the next bin that has anything" a couple of word scans. */
struct arena {
  arena *next;
  cudaStream_t stream;
  size_t nfree;
  unsigned skip;           /* == pool->gen: ordering after this stream failed */
  uint64_t bits[NWORDS];
  chunk *bins[NBINS];
};

typedef struct {
  void *(*alloc)(int device, size_t size);    /* NULL on failure */
  void (*release)(int device, void *ptr);
  int cuda;                                   /* streams and events are real */
  const char *what;
} backend;

struct ga_pool {
  pthread_mutex_t mu;
  const backend *be;
  int device;
  size_t used, total, nfree, limit;
  double limit_frac;       /* a percentage limit not yet turned into bytes */
  arena *arenas;
  chunk *segs;
  cudaEvent_t ev;          /* orders one stream after another (see order_after) */
  unsigned gen;
};

/* ===================================================================== */
/* backends                                                              */
/* ===================================================================== */

static void *dev_alloc(int device, size_t size) {
  void *ptr = NULL;
  if (cudaMalloc(&ptr, size) != cudaSuccess) {
    (void)cudaGetLastError();   /* leave no error behind for the next launch check */
    return NULL;
  }
  return ptr;
}

static void dev_release(int device, void *ptr) {
  if (cudaFree(ptr) != cudaSuccess) (void)cudaGetLastError();
}

static void *host_alloc(int device, size_t size) {
  return aligned_alloc(UNIT, size);   /* size is a multiple of UNIT */
}

static void host_release(int device, void *ptr) {
  free(ptr);
}

static const backend device_backend = {dev_alloc, dev_release, 1, "device"};
static const backend host_backend = {host_alloc, host_release, 0, "host test"};

/* Make device current for a moment (pools may be used from a thread whose
** current device differs); returns the previous device or -1 on failure */
static int push_device(int device) {
  int cur = -1;
  if (cudaGetDevice(&cur) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  if (cur != device && cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return cur;
}

static void pop_device(int device, int prev) {
  if (prev >= 0 && prev != device) (void)cudaSetDevice(prev);
}

static int device_total_mem(int device, size_t *total) {
  size_t f, t;
  int prev = push_device(device);
  if (prev < 0) return 0;
  cudaError_t err = cudaMemGetInfo(&f, &t);
  pop_device(device, prev);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  *total = t;
  return 1;
}

/* ===================================================================== */
/* bins and arenas (pool mutex held)                                     */
/* ===================================================================== */

/* 0 when n is too large to round */
static size_t round_size(size_t n) {
  if (n > SIZE_MAX - (UNIT - 1)) return 0;
  return n ? (n + UNIT - 1) & ~(size_t)(UNIT - 1) : UNIT;
}

/* Size classes, monotonic in size: exact below 128 KiB, where most arrays
** live, then SUB classes per power of two so large bins stay short. */
static int bin_of(size_t size) {
  size_t n = size / UNIT;
  if (n <= EXACT) return (int)n - 1;
  int k = 63 - __builtin_clzll((unsigned long long)n);
  return EXACT + (k - EXACT_LOG2) * SUB + (int)((n >> (k - SUB_LOG2)) & (SUB - 1));
}

/* The first non-empty bin at or after b, -1 when none */
static int next_bin(const arena *a, int b) {
  if (b >= NBINS) return -1;
  int w = b >> 6;
  uint64_t bits = a->bits[w] & (~(uint64_t)0 << (b & 63));
  while (!bits) {
    if (++w == NWORDS) return -1;
    bits = a->bits[w];
  }
  return w * 64 + __builtin_ctzll(bits);
}

static void bin_insert(ga_pool *p, arena *a, chunk *c) {
  int b = c->bin = bin_of(c->b.size);
  c->arena = a;
  c->b.stream = a->stream;
  c->fprev = NULL;
  c->fnext = a->bins[b];
  if (c->fnext) c->fnext->fprev = c;
  a->bins[b] = c;
  a->bits[b >> 6] |= (uint64_t)1 << (b & 63);
  a->nfree++;
  p->nfree++;
}

static void bin_remove(ga_pool *p, chunk *c) {
  arena *a = c->arena;
  int b = c->bin;
  if (c->fprev) c->fprev->fnext = c->fnext;
  else a->bins[b] = c->fnext;
  if (c->fnext) c->fnext->fprev = c->fprev;
  if (!a->bins[b]) a->bits[b >> 6] &= ~((uint64_t)1 << (b & 63));
  c->arena = NULL;
  c->fprev = c->fnext = NULL;
  a->nfree--;
  p->nfree--;
}

/* The smallest free chunk of a that holds size bytes. Only the first bin
** tried can hold chunks too small (a bin spans a range of sizes); an exact bin
** answers with its head. */
static chunk *arena_best(const arena *a, size_t size) {
  for (int b = next_bin(a, bin_of(size)); b >= 0; b = next_bin(a, b + 1)) {
    chunk *best = NULL;
    for (chunk *c = a->bins[b]; c; c = c->fnext) {
      if (c->b.size < size || (best && c->b.size >= best->b.size)) continue;
      best = c;
      if (c->b.size == size) break;
    }
    if (best) return best;
  }
  return NULL;
}

static arena *arena_find(ga_pool *p, cudaStream_t s) {
  for (arena *a = p->arenas; a; a = a->next)
    if (a->stream == s) return a;
  return NULL;
}

/* The arena of s, made on demand. An empty arena of another stream is
** recycled first, so programs that create and drop streams do not grow the
** list without bound. */
static arena *arena_get(ga_pool *p, cudaStream_t s) {
  arena *a = arena_find(p, s);
  if (a) return a;
  for (a = p->arenas; a; a = a->next)
    if (a->nfree == 0) {
      a->stream = s;
      return a;
    }
  a = (arena *)calloc(1, sizeof *a);
  if (!a) return NULL;
  a->stream = s;
  a->next = p->arenas;
  p->arenas = a;
  return a;
}

/* c (just taken out of its bin) keeps its first size bytes; the rest becomes
** a free chunk in arena rest. Its other neighbour cannot be free in rest
** (it would have been merged with c), so no merge is needed here. */
static void split(ga_pool *p, chunk *c, size_t size, arena *rest) {
  if (c->b.size == size) return;
  chunk *r = (chunk *)calloc(1, sizeof *r);
  if (!r) return;   /* hand out the whole chunk: wasteful, never wrong */
  r->b.ptr = (char *)c->b.ptr + size;
  r->b.size = c->b.size - size;
  r->b.device = c->b.device;
  r->b.pool = p;
  r->b.priv = r;
  r->prev = c;
  r->next = c->next;
  if (r->next) r->next->prev = r;
  c->next = r;
  c->b.size = size;
  bin_insert(p, rest, r);
}

/* Make stream 'to' wait for the work queued so far on 'from', without a host
** sync. One event per pool is enough: a wait captures the event's state when
** it is enqueued, so the event can be re-recorded right away (the mutex keeps
** record and wait together). */
static int order_after(ga_pool *p, cudaStream_t from, cudaStream_t to) {
  if (!p->ev && cudaEventCreateWithFlags(&p->ev, cudaEventDisableTiming) != cudaSuccess) {
    p->ev = NULL;
    (void)cudaGetLastError();
    return 0;
  }
  if (cudaEventRecord(p->ev, from) != cudaSuccess ||
      cudaStreamWaitEvent(to, p->ev, 0) != cudaSuccess) {
    (void)cudaGetLastError();   /* e.g. 'from' was destroyed: leave its chunks alone */
    return 0;
  }
  return 1;
}

/* A cached chunk of at least size bytes for stream s, taken out of the free
** lists, or NULL. s's own chunks first (reusable at once: stream order), then
** the best fit among other streams' chunks, after ordering s behind them. */
static chunk *take_cached(ga_pool *p, size_t size, cudaStream_t s) {
  arena *own = arena_find(p, s), *from = NULL;
  chunk *c = own && own->nfree ? arena_best(own, size) : NULL;
  if (c) {
    bin_remove(p, c);
    split(p, c, size, own);
    return c;
  }
  if (p->nfree == 0) return NULL;
  p->gen++;
  for (;;) {
    c = NULL;
    for (arena *a = p->arenas; a; a = a->next) {
      if (a == own || !a->nfree || a->skip == p->gen) continue;
      chunk *x = arena_best(a, size);
      if (x && (!c || x->b.size < c->b.size)) {
        c = x;
        from = a;
      }
    }
    if (!c) return NULL;
    if (!p->be->cuda || order_after(p, from->stream, s)) break;
    from->skip = p->gen;
  }
  bin_remove(p, c);
  split(p, c, size, from);   /* the rest is still only safe on 'from' */
  return c;
}

/* A percentage limit from the environment becomes bytes once the device can
** be asked (creating the pool must not need a GPU) */
static void resolve_limit(ga_pool *p) {
  size_t t;
  if (p->limit_frac > 0 && p->be->cuda && device_total_mem(p->device, &t)) {
    p->limit = (size_t)(p->limit_frac * (double)t);
    p->limit_frac = 0;
  }
}

/* ===================================================================== */
/* pools                                                                 */
/* ===================================================================== */

static ga_pool *pool_new(const backend *be, int device) {
  ga_pool *p = (ga_pool *)calloc(1, sizeof *p);
  if (!p) return NULL;
  if (pthread_mutex_init(&p->mu, NULL) != 0) {
    free(p);
    return NULL;
  }
  p->be = be;
  p->device = device;
  return p;
}

/* Host test pools only (default pools live as long as the process) */
static void pool_destroy(ga_pool *p) {
  for (chunk *h = p->segs, *hn; h; h = hn) {
    hn = h->snext;
    for (chunk *c = h->next, *cn; c; c = cn) {
      cn = c->next;
      free(c);
    }
    p->be->release(p->device, h->b.ptr);
    free(h);
  }
  for (arena *a = p->arenas, *an; a; a = an) {
    an = a->next;
    free(a);
  }
  if (p->ev) (void)cudaEventDestroy(p->ev);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* GPUARRAY_GPU_MEMORY_LIMIT: "1073741824" (bytes) or "50%" (of the device) */
static void env_limit(ga_pool *p) {
  const char *s = getenv("GPUARRAY_GPU_MEMORY_LIMIT");
  if (!s || !*s) return;
  size_t len = strlen(s);
  char *end;
  errno = 0;
  if (s[len - 1] == '%') {
    double v = strtod(s, &end);
    if (end == s + len - 1 && errno == 0 && v >= 0 && v <= 100) {
      p->limit_frac = v / 100;
      return;
    }
  } else if (strchr(s, '-') == NULL) {
    unsigned long long v = strtoull(s, &end, 10);
    if (end != s && *end == '\0' && errno == 0 && v <= SIZE_MAX) {
      p->limit = (size_t)v;
      return;
    }
  }
  fprintf(stderr, "gpuarray: ignoring GPUARRAY_GPU_MEMORY_LIMIT=%s "
          "(want a byte count or a percentage such as 50%%)\n", s);
}

static pthread_mutex_t defaults_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(ga_pool *) defaults[MAX_DEVICES];

ga_pool *ga_pool_default(int device) {
  if (device < 0 || device >= MAX_DEVICES) return NULL;
  ga_pool *p = atomic_load_explicit(&defaults[device], memory_order_acquire);
  if (p) return p;
  pthread_mutex_lock(&defaults_mu);
  p = atomic_load_explicit(&defaults[device], memory_order_relaxed);
  if (!p && (p = pool_new(&device_backend, device)) != NULL) {
    env_limit(p);
    atomic_store_explicit(&defaults[device], p, memory_order_release);
  }
  pthread_mutex_unlock(&defaults_mu);
  return p;
}

/* For device pools the caller has made p's device current (ga_alloc does) */
ga_block *ga_pool_try_alloc(ga_pool *p, size_t nbytes, cudaStream_t s) {
  size_t size = round_size(nbytes);
  if (!size) return NULL;
  pthread_mutex_lock(&p->mu);
  chunk *c = take_cached(p, size, s);
  if (c) {
    p->used += c->b.size;
    pthread_mutex_unlock(&p->mu);
    goto handout;
  }
  resolve_limit(p);
  if (p->limit && (p->total > p->limit || size > p->limit - p->total)) {
    pthread_mutex_unlock(&p->mu);
    return NULL;
  }
  p->total += size;   /* reserve, so concurrent allocations respect the limit */
  pthread_mutex_unlock(&p->mu);

  /* cudaMalloc can take milliseconds: not under the mutex */
  void *ptr = p->be->alloc(p->device, size);
  c = ptr ? (chunk *)calloc(1, sizeof *c) : NULL;
  if (!c && ptr) p->be->release(p->device, ptr);
  pthread_mutex_lock(&p->mu);
  if (!c) {
    p->total -= size;
    pthread_mutex_unlock(&p->mu);
    return NULL;
  }
  c->b.ptr = ptr;
  c->b.size = size;
  c->b.device = p->device;
  c->b.pool = p;
  c->b.priv = c;
  c->segsize = size;
  c->snext = p->segs;
  if (p->segs) p->segs->sprev = c;
  p->segs = c;
  p->used += size;
  pthread_mutex_unlock(&p->mu);

handout:
  atomic_store_explicit(&c->b.refs, 1, memory_order_relaxed);
  c->b.stream = s;
  c->b.release = NULL;
  c->b.release_ctx = NULL;
  return &c->b;
}

/* Back into the free list of the stream it was used on, merged with free
** neighbours of that same list */
static void chunk_release(ga_pool *p, chunk *c) {
  pthread_mutex_lock(&p->mu);
  arena *a = arena_get(p, c->b.stream);
  if (!a) {   /* no host memory for a free list: keep it counted as in use */
    pthread_mutex_unlock(&p->mu);
    return;
  }
  p->used -= c->b.size;
  chunk *n = c->next;
  if (n && n->arena == a) {
    bin_remove(p, n);
    c->b.size += n->b.size;
    c->next = n->next;
    if (c->next) c->next->prev = c;
    free(n);
  }
  chunk *pv = c->prev;
  if (pv && pv->arena == a) {   /* pv absorbs c: a segment's head survives */
    bin_remove(p, pv);
    pv->b.size += c->b.size;
    pv->next = c->next;
    if (pv->next) pv->next->prev = pv;
    free(c);
    c = pv;
  }
  bin_insert(p, a, c);
  pthread_mutex_unlock(&p->mu);
}

void ga_block_retain(ga_block *b) {
  atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
}

/* Called from __gc: never raises, never calls Lua. A block without a pool
** wraps memory someone else owns; its struct was malloc'ed by its maker. */
void ga_block_release(ga_block *b) {
  if (!b || atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1) return;
  if (!b->pool) {
    if (b->release) b->release(b->release_ctx, b->ptr);
    free(b);
    return;
  }
  chunk_release(b->pool, (chunk *)b->priv);
}

void ga_pool_get_stats(ga_pool *p, ga_pool_stats *st) {
  pthread_mutex_lock(&p->mu);
  resolve_limit(p);
  st->used_bytes = p->used;
  st->total_bytes = p->total;
  st->free_bytes = p->total - p->used;
  st->n_free_blocks = p->nfree;
  st->limit = p->limit;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_set_limit(ga_pool *p, size_t limit) {
  pthread_mutex_lock(&p->mu);
  p->limit = limit;
  p->limit_frac = 0;
  pthread_mutex_unlock(&p->mu);
}

/* Give back every segment whose chunks are all free. Their chunks may sit in
** different streams' lists: cudaFree waits for the whole device, so that is
** safe here (and only here). */
void ga_pool_free_all(ga_pool *p) {
  chunk *dead = NULL;
  pthread_mutex_lock(&p->mu);
  for (chunk *h = p->segs, *hn; h; h = hn) {
    hn = h->snext;
    chunk *c = h;
    while (c && c->arena) c = c->next;
    if (c) continue;   /* something in use */
    for (c = h; c; ) {
      chunk *cn = c->next;
      bin_remove(p, c);
      if (c != h) free(c);
      c = cn;
    }
    if (h->sprev) h->sprev->snext = h->snext;
    else p->segs = h->snext;
    if (h->snext) h->snext->sprev = h->sprev;
    p->total -= h->segsize;
    h->snext = dead;
    dead = h;
  }
  pthread_mutex_unlock(&p->mu);
  if (!dead) return;   /* no CUDA call at all when nothing is cached */
  int prev = p->be->cuda ? push_device(p->device) : -1;
  for (chunk *h = dead, *hn; h; h = hn) {
    hn = h->snext;
    p->be->release(p->device, h->b.ptr);
    free(h);
  }
  if (p->be->cuda) pop_device(p->device, prev);
}

/* ===================================================================== */
/* the Lua side of allocation                                            */
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
** collection (finalizers release blocks), empty the cache again, retry */
static ga_block *alloc_recover(lua_State *L, ga_state *ctx, ga_pool *p, size_t nbytes,
                               cudaStream_t s) {
  ga_block *b = ga_pool_try_alloc(p, nbytes, s);
  if (b) return b;
  if (round_size(nbytes)) {
    ga_pool_free_all(p);
    lua_gc(L, LUA_GCCOLLECT);
    ga_pool_free_all(p);
    b = ga_pool_try_alloc(p, nbytes, s);
    if (b) return b;
  }
  ga_pool_stats st;
  ga_pool_get_stats(p, &st);
  ga_error(L, "out of %s memory (requested %I bytes, pool holds %I)", p->be->what,
           (lua_Integer)nbytes, (lua_Integer)st.total_bytes);
  return NULL;
}

ga_block *ga_alloc(lua_State *L, ga_state *ctx, size_t nbytes) {
  ga_device_enter(L, ctx);
  ga_pool *p = ctx->pool ? ctx->pool : ga_pool_default(ctx->device);
  if (!p) ga_error(L, "no memory pool for device %d", ctx->device);
  /* The collector cannot see device memory: make it work as if these bytes
  ** were Lua's, in batches so small arrays cost one addition */
  size_t size = round_size(nbytes);
  ctx->gc_debt += size;
  if (ctx->gc_debt >= GC_BATCH) {
    size_t debt = ctx->gc_debt;
    ctx->gc_debt = 0;
    gc_step(L, debt);
  }
  return alloc_recover(L, ctx, p, nbytes, ctx->stream);
}

/* ===================================================================== */
/* pool objects                                                          */
/* ===================================================================== */

typedef struct {
  ga_pool *p;
  int host;     /* a host test pool, owned by this object */
} lpool;

static const char objs_key = 'p';   /* registry: device -> its default pool object */

static lpool *checkpool(lua_State *L, const char *fname) {
  lpool *u = (lpool *)luaL_testudata(L, 1, POOL_MT);
  if (!u || !u->p)
    ga_error(L, "%s: expected a memory pool, got %s", fname, luaL_typename(L, 1));
  return u;
}

static lpool *checkhost(lua_State *L, const char *fname) {
  lpool *u = checkpool(L, fname);
  if (!u->host) ga_error(L, "%s: only the host test pool (_host_pool) has it", fname);
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
  ga_pool_get_stats(checkpool(L, fname)->p, &st);
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
  ga_pool_free_all(checkpool(L, "free_all_blocks")->p);
  return 0;
}

/* set_limit({size = bytes} | {fraction = f}) or set_limit(bytes); 0 or
** neither: no limit */
static int l_set_limit(lua_State *L) {
  lpool *u = checkpool(L, "set_limit");
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
      if (u->host) ga_error(L, "set_limit: fraction needs a device pool");
      ga_device_enter(L, ga_ctx(L));
      size_t total;
      if (!device_total_mem(u->p->device, &total))
        ga_error(L, "set_limit: cannot read the memory size of device %d", u->p->device);
      limit = (size_t)(f * (double)total);
    }
  } else if (!lua_isnoneornil(L, 2)) {
    ga_error(L, "set_limit: expected {size = n} or {fraction = f}, got %s",
             luaL_typename(L, 2));
  }
  ga_pool_set_limit(u->p, limit);
  return 0;
}

static int l_pool_tostring(lua_State *L) {
  lpool *u = checkpool(L, "__tostring");
  if (u->host) lua_pushfstring(L, "gpuarray.MemoryPool(host test %p)", (void *)u->p);
  else lua_pushfstring(L, "gpuarray.MemoryPool(device %d)", u->p->device);
  return 1;
}

static int l_pool_gc(lua_State *L) {
  lpool *u = (lpool *)luaL_testudata(L, 1, POOL_MT);
  if (u && u->host && u->p) {   /* default pools are process-wide: never freed */
    pool_destroy(u->p);
    u->p = NULL;
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

static int l_host_alloc(lua_State *L) {
  lpool *u = checkhost(L, "_alloc");
  size_t n = (size_t)checkint(L, 2, "_alloc", "nbytes");
  lua_Integer sid = lua_isnoneornil(L, 3) ? 0 : checkint(L, 3, "_alloc", "stream id");
  lua_getiuservalue(L, 1, 1);
  ga_block *b = alloc_recover(L, ga_ctx(L), u->p, n, (cudaStream_t)(intptr_t)sid);
  lua_pushboolean(L, 1);
  lua_rawseti(L, -2, (lua_Integer)(intptr_t)b);
  lua_pushinteger(L, (lua_Integer)(intptr_t)b);
  return 1;
}

static int l_host_free(lua_State *L) {
  ga_block *b = checkhandle(L, "_free");
  lua_getiuservalue(L, 1, 1);
  lua_pushnil(L);
  lua_rawseti(L, -2, (lua_Integer)(intptr_t)b);
  ga_block_release(b);
  return 0;
}

static int l_host_ptr(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)(intptr_t)checkhandle(L, "_ptr")->ptr);
  return 1;
}

static int l_host_size(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)checkhandle(L, "_size")->size);
  return 1;
}

/* ---- module functions */

static lpool *push_pool(lua_State *L, ga_pool *p, int host) {
  lpool *u = (lpool *)lua_newuserdatauv(L, sizeof *u, 1);
  u->p = p;
  u->host = host;
  luaL_setmetatable(L, POOL_MT);
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
  push_pool(L, p, 0);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, dev);
  return 1;
}

/* Test only: a pool of host memory, same logic, no CUDA call */
static int l_host_pool(lua_State *L) {
  lpool *u = push_pool(L, NULL, 1);   /* harmless until the pool exists */
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  u->p = pool_new(&host_backend, -1);
  if (!u->p) return ga_error(L, "_host_pool: out of host memory");
  return 1;
}

static const luaL_Reg pool_methods[] = {
  {"used_bytes", l_used_bytes},
  {"total_bytes", l_total_bytes},
  {"free_bytes", l_free_bytes},
  {"n_free_blocks", l_n_free_blocks},
  {"free_all_blocks", l_free_all_blocks},
  {"set_limit", l_set_limit},
  {"get_limit", l_get_limit},
  {"_alloc", l_host_alloc},
  {"_free", l_host_free},
  {"_ptr", l_host_ptr},
  {"_size", l_host_size},
  {NULL, NULL}
};

static const luaL_Reg pool_meta[] = {
  {"__gc", l_pool_gc},
  {"__tostring", l_pool_tostring},
  {NULL, NULL}
};

static const luaL_Reg pool_funcs[] = {
  {"get_default_memory_pool", l_get_default_memory_pool},
  {"_host_pool", l_host_pool},
  {NULL, NULL}
};

void ga_open_pool(lua_State *L) {
  if (luaL_newmetatable(L, POOL_MT)) {   /* idempotent: busted reopens the module */
    ga_setfuncs(L, pool_meta);
    lua_newtable(L);
    ga_setfuncs(L, pool_methods);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
  ga_setfuncs(L, pool_funcs);
}
