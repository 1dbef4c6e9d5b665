/*
** pool.c: the memory pool every array allocates from (CuPy's
** SingleDeviceMemoryPool, in C), made safe across streams.
**
** A pool owns segments (one cudaMalloc each) cut into chunks. Sizes are
** rounded up to 512 bytes. A chunk handed out is a ga_block; a free chunk sits
** in the free list of the stream it was last used on (an arena), in a size
** class bin. Allocation is best-fit, splits the chunk it takes (the rest stays
** free in the same segment) and merges a freed chunk with free neighbours of
** the same segment and stream. Segments go back to CUDA only in free_all (and
** the out-of-memory path), and only when every chunk in them is free.
**
** Streams. A chunk freed on stream S is reused on S at once (stream order
** protects it). Stream T may take it only after S's work passed it: the pool
** records an event on S and makes T wait for it, without a host sync. That
** is enough when a chunk was only ever used on the stream it was allocated
** on. A chunk may also have been used elsewhere (the state switched streams,
** or a launch named another stream); the pool cannot see each use, so it
** watches the cause instead: a process-wide epoch counts stream switches and
** explicit other-stream uses (ga_pool_streams_changed). A chunk released
** in the same epoch it was handed out in takes the fast path above. Any
** other release records an event on every live stream of the device (those
** ga.Stream created, those a host handed in, plus the legacy default
** stream) and parks the chunk as pending until they all completed;
** allocation polls the pending list (cudaEventQuery, no waiting) and
** completed chunks become idle: free for every stream with no ordering at
** all. A stream that goes is settled and untagged the same way: one the
** module destroys, and a host's stream given back by the last state that
** used it (ga_set_stream(L, NULL), lua_close, its ga.Stream collected), an
** event recorded on it before it goes: its free list is parked, it is no
** longer fenced, and the epoch moves so that its handle, which CUDA may
** give to a new stream, never names an old free list. After that the host
** may destroy it. Waiting instead of parking would serialise the streams
** the user wanted to overlap.
**
** Two layers: this file (chunks, arenas, allocation, release, the pools)
** over pool_order.c, which it calls and which never calls it: the backends
** (cudaMalloc/cudaFree for device pools; cudaMallocAsync/cudaFreeAsync for
** ga.MemoryAsyncPool, the driver's pool, stream-ordered: only the
** cross-stream release needs us; malloc/free with fake streams and events
** for the host test pool, core._test.host_pool, that lets the specs
** exercise all of the logic above on machines without a GPU), the streams
** and their users, the captures, the events and fences.
**
** Pools are process-wide and shared by every lua_State (one mutex each);
** nothing here calls Lua. Lock order: the pool list, a pool, the stream
** registry.
*/
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool_internal.h"

static _Atomic unsigned long epoch = 1;

void ga_pool_streams_changed(void) {
  atomic_fetch_add_explicit(&epoch, 1, memory_order_acq_rel);
}

static unsigned long epoch_of(const ga_pool *p) {
  return p->ord.test ? p->ord.test->epoch : atomic_load_explicit(&epoch, memory_order_acquire);
}

int ga_pool_device(const ga_pool *p) { return p->ord.device; }

/* ---- stream capture (graph.c). While a stream of the pool's device is
** being captured into a graph, a release that needs a fence cannot have
** one (no event may be recorded into the capture, no sync may wait), so
** the chunk is parked with the DEFER marker and fenced by the first poll
** after the capture ended; cross-stream reuse skips capturing streams'
** free lists (ordering after them would record an event there). */
#define DEFER ((fence *)(intptr_t)1)

int ga_pool_is_async(const ga_pool *p) { return p->ord.be->kind == BE_ASYNC; }

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

void ga_pool_bin_remove(ga_pool *p, chunk *c) {
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

/* c into arena a, merged with free neighbours of that same arena */
static void free_insert(ga_pool *p, arena *a, chunk *c) {
  chunk *n = c->next;
  if (n && n->arena == a) {
    ga_pool_bin_remove(p, n);
    c->b.size += n->b.size;
    c->next = n->next;
    if (c->next) c->next->prev = c;
    free(n);
  }
  chunk *pv = c->prev;
  if (pv && pv->arena == a) {   /* pv absorbs c: a segment's head survives */
    ga_pool_bin_remove(p, pv);
    pv->b.size += c->b.size;
    pv->next = c->next;
    if (pv->next) pv->next->prev = pv;
    free(c);
    c = pv;
  }
  bin_insert(p, a, c);
}

/* ---- pending chunks */

static void pending_push(ga_pool *p, chunk *c, fence *f) {
  c->fence = f;
  c->arena = NULL;
  c->fnext = NULL;
  c->fprev = p->pending_tail;
  if (c->fprev) c->fprev->fnext = c;
  else p->pending = c;
  p->pending_tail = c;
  p->npending++;
}

static void pending_remove(ga_pool *p, chunk *c) {
  if (c->fprev) c->fprev->fnext = c->fnext;
  else p->pending = c->fnext;
  if (c->fnext) c->fnext->fprev = c->fprev;
  else p->pending_tail = c->fprev;
  c->fprev = c->fnext = NULL;
  if (c->fence) ga_order_fence_free(&p->ord, c->fence);
  c->fence = NULL;
  p->npending--;
}

static int async_release(ga_pool *p, chunk *c, int fast);

/* The fence of a chunk that may have been used on other streams: DEFER
** during a capture, NULL when it is idle at once (no memory for a fence:
** the device was waited for) */
static fence *fence_or_defer(ga_pool *p) {
  int deferred;
  fence *f = ga_order_fence_now(&p->ord, &deferred);
  if (f || deferred) return f ? f : DEFER;
  ga_order_sync_all(&p->ord);
  return NULL;
}

/* A chunk nobody may still use, free for every stream */
static void make_idle(ga_pool *p, chunk *c) {
  arena *a = arena_get(p, IDLE);
  if (a) free_insert(p, a, c);
  else pending_push(p, c, NULL);   /* no host memory: try again later */
}

/* Pending chunks whose fences completed become idle. Fences complete
** roughly in release order, so polling stops at the first one still
** running: allocation pays for a query or two, not for the whole list. With
** wait, every fence is waited for (free_all, out of memory, destroying the
** pool). */
void ga_pool_pending_poll(ga_pool *p, int wait) {
  for (chunk *c = p->pending, *cn; c; c = cn) {
    cn = c->fnext;
    if (c->fence == DEFER) {   /* released during a capture: fence it once that ended */
      if (ga_order_any_capturing(&p->ord)) break;
      if (p->ord.be->kind == BE_ASYNC) {
        c->fence = NULL;
        pending_remove(p, c);
        if (!async_release(p, c, 0)) {
          pending_push(p, c, DEFER);
          break;
        }
        continue;
      }
      if ((c->fence = fence_or_defer(p)) == DEFER) break;
    }
    if (c->fence) {   /* none: parked for want of memory after a sync */
      if (wait) ga_order_fence_sync(&p->ord, c->fence);
      else if (!ga_order_fence_done(&p->ord, c->fence)) break;
    }
    pending_remove(p, c);
    make_idle(p, c);
  }
}

/* A cached chunk of at least size bytes for stream s, taken out of the free
** lists, or NULL. s's own chunks first (reusable at once: stream order), then
** idle ones, then the best fit among other streams' chunks, after ordering s
** behind them. */
static chunk *take_cached(ga_pool *p, size_t size, cudaStream_t s, int graph) {
  if (p->pending) ga_pool_pending_poll(p, 0);
  /* a graph's memory may be used on any stream it is launched on: only idle
  ** chunks (or a new segment) are safe for every one of them */
  arena *own = graph ? NULL : arena_find(p, s), *from = NULL;
  chunk *c = own && own->nfree ? arena_best(own, size) : NULL;
  if (c) {
    ga_pool_bin_remove(p, c);
    split(p, c, size, own);
    return c;
  }
  if (p->nfree == 0) return NULL;
  arena *idle = arena_find(p, IDLE);
  if (idle && idle->nfree && (c = arena_best(idle, size)) != NULL) {
    ga_pool_bin_remove(p, c);
    split(p, c, size, idle);
    return c;
  }
  if (graph) return NULL;
  int capt = ga_order_any_capturing(&p->ord);
  p->gen++;
  for (;;) {
    c = NULL;
    for (arena *a = p->arenas; a; a = a->next) {
      if (a == own || a == idle || !a->nfree || a->skip == p->gen) continue;
      if (capt && ga_order_stream_capturing(&p->ord, a->stream)) continue;
      chunk *x = arena_best(a, size);
      if (x && (!c || x->b.size < c->b.size)) {
        c = x;
        from = a;
      }
    }
    if (!c) return NULL;
    if (ga_order_after(&p->ord, from->stream, s)) break;
    from->skip = p->gen;
  }
  ga_pool_bin_remove(p, c);
  split(p, c, size, from);   /* the rest is still only safe on 'from' */
  return c;
}

/* A percentage limit from the environment becomes bytes once the device can
** be asked (creating the pool must not need a GPU) */
void ga_pool_resolve_limit(ga_pool *p) {
  size_t t;
  if (p->limit_frac > 0 && p->ord.be->kind != BE_HOST && ga_pool_total_mem(p->ord.device, &t)) {
    p->limit = (size_t)(p->limit_frac * (double)t);
    p->limit_frac = 0;
  }
}

/* ===================================================================== */
/* pools                                                                 */
/* ===================================================================== */

static pthread_mutex_t list_mu = PTHREAD_MUTEX_INITIALIZER;
static ga_pool *pool_list;

static ga_pool *pool_new(const backend *be, int device) {
  ga_pool *p = (ga_pool *)calloc(1, sizeof *p);
  if (!p) return NULL;
  if (be->kind == BE_HOST && !(p->ord.test = (hosttest *)calloc(1, sizeof *p->ord.test))) {
    free(p);
    return NULL;
  }
  if (pthread_mutex_init(&p->mu, NULL) != 0) {
    free(p->ord.test);
    free(p);
    return NULL;
  }
  p->ord.be = be;
  p->ord.device = device;
  if (be->kind != BE_HOST) {   /* device pools hear about destroyed streams */
    pthread_mutex_lock(&list_mu);
    p->lnext = pool_list;
    pool_list = p;
    pthread_mutex_unlock(&list_mu);
  }
  return p;
}

/* Everything goes: segments (in use or not: only host test pools and empty
** owned pools get here), arenas, events. */
static void pool_destroy(ga_pool *p) {
  if (p->ord.be->kind != BE_HOST) {
    pthread_mutex_lock(&list_mu);
    for (ga_pool **pp = &pool_list; *pp; pp = &(*pp)->lnext)
      if (*pp == p) {
        *pp = p->lnext;
        break;
      }
    pthread_mutex_unlock(&list_mu);
  }
  int prev = p->ord.be->kind != BE_HOST ? ga_pool_push_device(p->ord.device) : -1;
  ga_pool_pending_poll(p, 1);   /* leftovers (no memory to make them idle) go with their segments */
  for (chunk *h = p->segs, *hn; h; h = hn) {
    hn = h->snext;
    for (chunk *c = h->next, *cn; c; c = cn) {
      cn = c->next;
      free(c);
    }
    p->ord.be->release(&p->ord, h->b.ptr);
    free(h);
  }
  for (arena *a = p->arenas, *an; a; a = an) {
    an = a->next;
    free(a);
  }
  ga_order_free_events(&p->ord);
  if (p->free_stream) {
    (void)cudaStreamSynchronize(p->free_stream);
    (void)cudaStreamDestroy(p->free_stream);
  }
  if (p->ord.be->kind != BE_HOST) ga_pool_pop_device(p->ord.device, prev);
  (void)cudaGetLastError();
  pthread_mutex_destroy(&p->mu);
  if (p->ord.test) ga_streamlist_free(&p->ord.test->live);
  free(p->ord.test);
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
  if (!p && (p = pool_new(&ga_pool_device_backend, device)) != NULL) {
    env_limit(p);
    atomic_store_explicit(&defaults[device], p, memory_order_release);
  }
  pthread_mutex_unlock(&defaults_mu);
  return p;
}

static ga_pool *owned_pool(const backend *be, int device) {
  if (device < 0 || device >= MAX_DEVICES) return NULL;
  ga_pool *p = pool_new(be, device);
  if (p) p->owned = 1;
  return p;
}

ga_pool *ga_pool_new_device(int device) { return owned_pool(&ga_pool_device_backend, device); }
ga_pool *ga_pool_new_async(int device) { return owned_pool(&ga_pool_async_backend, device); }

ga_pool *ga_pool_new_host(void) {
  ga_pool *p = pool_new(&ga_pool_host_backend, -1);
  if (p) p->owned = 1;
  return p;
}

/* A capture on device ended: chunks parked during it get their fences now
** (async ones their cudaFreeAsync), so that pools nobody allocates from
** any more, orphans included, do not keep them */
static void capture_over(int device) {
  int prev = ga_pool_push_device(device);
  for (;;) {
    ga_pool *dead = NULL;
    pthread_mutex_lock(&list_mu);
    for (ga_pool *p = pool_list; p && !dead; p = p->lnext) {
      if (p->ord.device != device) continue;
      pthread_mutex_lock(&p->mu);
      if (p->pending) ga_pool_pending_poll(p, 0);
      if (p->orphan && p->used == 0 && !p->dying) {
        p->dying = 1;
        dead = p;
      }
      pthread_mutex_unlock(&p->mu);
    }
    pthread_mutex_unlock(&list_mu);
    if (!dead) break;
    pool_destroy(dead);
  }
  ga_pool_pop_device(device, prev);
}

void ga_pool_release_owner(ga_pool *p) {
  if (!p || !p->owned) return;
  pthread_mutex_lock(&p->mu);
  int now = p->ord.be->kind == BE_HOST || (p->used == 0 && !p->dying);
  p->orphan = 1;
  if (now) p->dying = 1;
  pthread_mutex_unlock(&p->mu);
  if (now) pool_destroy(p);
}

/* ---- allocation */

static chunk *new_block(ga_pool *p, void *ptr, size_t size) {
  chunk *c = (chunk *)calloc(1, sizeof *c);
  if (!c) return NULL;
  c->b.ptr = ptr;
  c->b.size = size;
  c->b.device = p->ord.device;
  c->b.pool = p;
  c->b.priv = c;
  c->segsize = size;
  return c;
}

/* For device pools the caller has made p's device current (ga_alloc does).
** grow 0: a cached chunk or NULL, never a new segment */
static ga_block *try_alloc(ga_pool *p, size_t nbytes, cudaStream_t s, int graph, int grow) {
  size_t size = round_size(nbytes);
  if (!size) return NULL;
  pthread_mutex_lock(&p->mu);
  if (p->ord.be->kind == BE_ASYNC && p->pending) ga_pool_pending_poll(p, 0);
  chunk *c = p->ord.be->kind == BE_ASYNC ? NULL : take_cached(p, size, s, graph);
  if (c) {
    p->used += c->b.size;
    pthread_mutex_unlock(&p->mu);
    goto handout;
  }
  if (!grow) {
    pthread_mutex_unlock(&p->mu);
    return NULL;
  }
  ga_pool_resolve_limit(p);
  size_t held = p->ord.be->kind == BE_ASYNC ? p->used : p->total;
  if (p->limit && (held > p->limit || size > p->limit - held)) {
    pthread_mutex_unlock(&p->mu);
    return NULL;
  }
  if (p->ord.be->kind == BE_ASYNC) p->used += size;
  else p->total += size;   /* reserve, so concurrent allocations respect the limit */
  pthread_mutex_unlock(&p->mu);

  /* cudaMalloc can take milliseconds: not under the mutex */
  void *ptr = p->ord.be->alloc(&p->ord, size, s);
  c = ptr ? new_block(p, ptr, size) : NULL;
  if (!c && ptr) {
    if (p->ord.be->kind == BE_ASYNC) (void)cudaFreeAsync(ptr, s);
    else p->ord.be->release(&p->ord, ptr);
  }
  pthread_mutex_lock(&p->mu);
  if (!c) {
    if (p->ord.be->kind == BE_ASYNC) p->used -= size;
    else p->total -= size;
    pthread_mutex_unlock(&p->mu);
    return NULL;
  }
  if (p->ord.be->kind != BE_ASYNC) {
    c->snext = p->segs;
    if (p->segs) p->segs->sprev = c;
    p->segs = c;
    p->used += size;
  }
  pthread_mutex_unlock(&p->mu);

handout:
  atomic_store_explicit(&c->b.refs, 1, memory_order_relaxed);
  c->b.lz_readers = c->b.lz_stores = 0;
  c->b.stream = s;
  c->b.release = NULL;
  c->b.release_ctx = NULL;
  c->epoch = epoch_of(p);
  return &c->b;
}

ga_block *ga_pool_try_alloc(ga_pool *p, size_t nbytes, cudaStream_t s) {
  return try_alloc(p, nbytes, s, 0, 1);
}

ga_block *ga_pool_try_cached(ga_pool *p, size_t nbytes, cudaStream_t s) {
  return p->ord.be->kind == BE_ASYNC ? NULL : try_alloc(p, nbytes, s, 0, 0);
}

ga_block *ga_pool_try_alloc_graph(ga_pool *p, size_t nbytes, cudaStream_t s) {
  return p->ord.be->kind == BE_ASYNC ? NULL : try_alloc(p, nbytes, s, 1, 1);
}

/* ---- release */

/* A chunk that may have been used on other streams: fence it (pool mutex
** held, device current) */
static void release_fenced(ga_pool *p, chunk *c) {
  fence *f = fence_or_defer(p);
  if (f) pending_push(p, c, f);
  else make_idle(p, c);   /* no memory for a fence: the device was waited for */
}

/* Async pools: cudaFreeAsync on the stream it was allocated on, or, when it
** may have been used elsewhere, on the pool's own stream after waiting for
** every live stream */
static int async_release(ga_pool *p, chunk *c, int fast) {
  cudaStream_t s = c->b.stream;
  if (!fast) {
    fence *f = NULL;
    int deferred = 0;
    if (!p->free_stream &&
        cudaStreamCreateWithFlags(&p->free_stream, cudaStreamNonBlocking) != cudaSuccess) {
      p->free_stream = NULL;
      (void)cudaGetLastError();
    }
    if (p->free_stream && (f = ga_order_fence_now(&p->ord, &deferred)) != NULL) {
      for (int i = 0; i < f->n; i++) p->ord.be->wait(&p->ord, p->free_stream, f->ev[i]->h);
      ga_order_fence_free(&p->ord, f);
      s = p->free_stream;
    } else if (deferred) {
      return 0;   /* a capture began meanwhile: the caller parks it */
    } else {
      if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
      s = NULL;
    }
  }
  if (cudaFreeAsync(c->b.ptr, s) != cudaSuccess) (void)cudaGetLastError();
  p->used -= c->b.size;
  free(c);
  return 1;
}

/* The epoch is read under the mutex: a stream being destroyed moves it
** before it empties its free list here, so no chunk lands in a dead
** stream's list afterwards. */
static void chunk_release(ga_pool *p, chunk *c) {
  pthread_mutex_lock(&p->mu);
  int fast = c->epoch == epoch_of(p);
  /* events and cudaFreeAsync go to this device's streams */
  int dev = p->ord.be->kind == BE_ASYNC || (!fast && p->ord.be->kind != BE_HOST);
  int prev = dev ? ga_pool_push_device(p->ord.device) : -1;
  if (p->ord.be->kind == BE_ASYNC) {
    /* during a capture even the fast path's cudaFreeAsync could land in it */
    if (ga_order_any_capturing(&p->ord) || !async_release(p, c, fast)) pending_push(p, c, DEFER);
  } else {
    arena *a = fast ? arena_get(p, c->b.stream) : NULL;
    if (fast && !a) {   /* no host memory for a free list: keep it counted as in use */
      pthread_mutex_unlock(&p->mu);
      return;
    }
    p->used -= c->b.size;
    if (fast) free_insert(p, a, c);
    else release_fenced(p, c);
  }
  int destroy = p->orphan && p->used == 0 && !p->dying;
  if (destroy) p->dying = 1;
  pthread_mutex_unlock(&p->mu);
  if (dev) ga_pool_pop_device(p->ord.device, prev);
  if (destroy) pool_destroy(p);
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

/* ===================================================================== */
/* streams that go: destroyed, or given back by their last user          */
/* ===================================================================== */

/* Settled first (an event recorded on s after its last work, or s waited
** for), then untagged: s's free chunks are parked until that event passed,
** then become idle, so no chunk names s any more and nothing will record
** on it, order after it or take its free list. Chunks of s still in use are
** released on the slow path later (the caller moves the epoch) and their
** fences include s's event while it runs (the retired list). */
void ga_pool_retire_in(ga_pool *p, cudaStream_t s) {
  gev *g = ga_order_retire(&p->ord, s);
  arena *a = arena_find(p, s);
  while (a && a->nfree) {
    int b = next_bin(a, 0);
    chunk *c = a->bins[b];
    ga_pool_bin_remove(p, c);
    fence *f = g ? (fence *)malloc(sizeof *f + sizeof(gev *)) : NULL;
    if (f) {
      f->n = 1;
      f->ev[0] = g;
      g->refs++;
      pending_push(p, c, f);
    } else {
      if (g) p->ord.be->sync(&p->ord, g->h);
      make_idle(p, c);
    }
  }
  /* the empty arena stays: a new stream given the same handle finds it
  ** empty, and releases of the old stream's chunks are fenced (epoch) */
}

/* Every device pool of device retires s (s no longer listed; the epoch
** moved first, so in-use chunks of s are fenced when released) */
static void retire_everywhere(int device, cudaStream_t s) {
  ga_pool_streams_changed();
  int prev = ga_pool_push_device(device);
  pthread_mutex_lock(&list_mu);
  for (ga_pool *p = pool_list; p; p = p->lnext) {
    if (p->ord.device != device || p->ord.be->kind != BE_DEVICE) continue;
    pthread_mutex_lock(&p->mu);
    ga_pool_retire_in(p, s);
    pthread_mutex_unlock(&p->mu);
  }
  pthread_mutex_unlock(&list_mu);
  ga_pool_pop_device(device, prev);
}

void ga_pool_stream_created(int device, cudaStream_t s) {
  /* without memory the stream goes unlisted: its releases then fence the
  ** legacy stream only, and fence_now's caller falls back to a sync */
  (void)ga_order_registry_adopt(device, s);
}

void ga_pool_stream_destroyed(int device, cudaStream_t s) {
  ga_order_registry_remove(device, s);   /* first: no new fence records on s */
  retire_everywhere(device, s);
}

void ga_pool_stream_adopt(int device, cudaStream_t s) {
  (void)ga_order_registry_adopt(device, s);
}

void ga_pool_stream_give_back(int device, cudaStream_t s) {
  if (ga_order_registry_give_back(device, s) == 1) retire_everywhere(device, s);
}

void ga_pool_stream_forget(cudaStream_t s) {
  int device = ga_order_registry_device(s);
  if (device >= 0) ga_pool_stream_destroyed(device, s);
}

/* ===================================================================== */
/* captures                                                              */
/* ===================================================================== */

void ga_pool_capture_end(int device, cudaStream_t s) {
  if (ga_order_capture_end(device, s)) capture_over(device);   /* fence what was parked meanwhile */
}
