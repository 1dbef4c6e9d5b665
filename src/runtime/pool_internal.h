/*
** pool_internal.h: the memory pool's insides, shared by pool.c (chunks, arenas,
** allocation and release) and poolev.c (backends, the stream registry,
** events and fences). Nothing outside these two files includes it.
*/
#ifndef GA_POOL_INT_H
#define GA_POOL_INT_H

#include <pthread.h>

#include "runtime/runtime.h"

#define UNIT        512               /* allocation granularity (cudaMalloc aligns to 256) */
#define EXACT_LOG2  8
#define EXACT       (1 << EXACT_LOG2) /* bins 0..255: one per size, 512 B .. 128 KiB */
#define SUB_LOG2    3
#define SUB         (1 << SUB_LOG2)   /* then 8 bins per power of two */
#define NBINS       (EXACT + 48 * SUB)
#define NWORDS      ((NBINS + 63) / 64)
#define MAX_DEVICES 64
#define IDLE        ((cudaStream_t)(intptr_t)-1)   /* the arena no stream needs to wait for */

typedef struct arena arena;
typedef struct chunk chunk;
typedef struct gev gev;

/* An event the pool recorded (refcounted: fences and the retired list share) */
struct gev {
  void *h;                 /* cudaEvent_t, or a host test ticket */
  int refs, done;
  gev *next;               /* the retired list or the free list */
};

typedef struct {
  int n;
  gev *ev[];
} fence;

struct chunk {
  ga_block b;              /* first member: what arrays hold */
  chunk *prev, *next;      /* neighbours in address order, same segment */
  chunk *fprev, *fnext;    /* bin links while free, pending links while pending */
  chunk *sprev, *snext;    /* the pool's segment list (segment heads only) */
  arena *arena;            /* the free list holding it; NULL while in use or pending */
  fence *fence;            /* while pending */
  unsigned long epoch;     /* the stream epoch when it was handed out */
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

enum { BE_DEVICE, BE_ASYNC, BE_HOST };

typedef struct backend {
  void *(*alloc)(ga_pool *p, size_t size, cudaStream_t s);   /* NULL on failure */
  void (*release)(ga_pool *p, void *ptr);
  int (*record)(ga_pool *p, void **h, cudaStream_t s);        /* 1: recorded */
  int (*query)(ga_pool *p, void *h);                          /* 1: done (or broken) */
  int (*wait)(ga_pool *p, cudaStream_t s, void *h);           /* 1: s waits for h */
  void (*sync)(ga_pool *p, void *h);
  void (*ev_free)(ga_pool *p, void *h);
  int kind;
  const char *what;
} backend;

typedef struct {
  unsigned long submitted[GA_POOL_TEST_STREAMS], completed[GA_POOL_TEST_STREAMS];
  unsigned char live[GA_POOL_TEST_STREAMS];
  long waits;
  unsigned long epoch;     /* its own: real stream switches must not disturb the specs */
  int capturing;           /* fake stream id + 1 being captured into a graph, 0: none */
} hosttest;

struct ga_pool {
  pthread_mutex_t mu;
  const backend *be;
  int device;
  size_t used, total, nfree, limit;
  double limit_frac;       /* a percentage limit not yet turned into bytes */
  arena *arenas;
  chunk *segs;
  chunk *pending, *pending_tail;   /* released chunks waiting for their fences, oldest first */
  size_t npending;
  gev *retired;            /* fences of destroyed streams, until they complete */
  gev *gfree;              /* recycled events */
  unsigned gen;
  int owned, orphan, dying;
  cudaStream_t free_stream;   /* async pools: where cross-stream frees are queued */
  hosttest *test;
  ga_pool *lnext;          /* the pool list (device and async pools) */
};

/* ---- poolev.c: backends */
extern const backend ga_pool_device_backend, ga_pool_async_backend, ga_pool_host_backend;
/* Make device current for a moment; returns the previous device or -1 */
int ga_pool_push_device(int device);
void ga_pool_pop_device(int device, int prev);
int ga_pool_total_mem(int device, size_t *total);
int ga_pool_sid(cudaStream_t s);   /* host test streams: the small integer */

/* ---- pool.c: a capture on device ended (poolev.c calls it) */
void ga_pool_capture_over(int device);

/* ---- poolev.c: the live streams of each device (ga_pool_stream_created) */
void ga_pool_registry_remove(int device, cudaStream_t s);

/* ---- poolev.c: events and fences (pool mutex held) */
gev *ga_pool_gev_new(ga_pool *p);
void ga_pool_gev_put(ga_pool *p, gev *g);
void ga_pool_fence_free(ga_pool *p, fence *f);
int ga_pool_fence_done(ga_pool *p, fence *f);
void ga_pool_fence_sync(ga_pool *p, fence *f);
/* An event on every stream that may have work (device current) plus the
** fences of destroyed streams still running; NULL when that fails, or with
** *deferred set while a stream of the device is being captured */
fence *ga_pool_fence_now(ga_pool *p, int *deferred);

/* pool.c's pieces that pool_admin.c uses (p->mu held) */
void ga_pool_pending_poll(ga_pool *p, int wait);
void ga_pool_resolve_limit(ga_pool *p);
void ga_pool_bin_remove(ga_pool *p, chunk *c);
void ga_pool_retire_in(ga_pool *p, cudaStream_t s);
/* A capture is active on one of the pool's device's streams (fake ones for the host pool) */
int ga_pool_any_capturing(const ga_pool *p);

#endif
