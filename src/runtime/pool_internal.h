/*
** pool_internal.h: the memory pool's upper layer, shared by pool.c (chunks,
** arenas, allocation and release, the pools) and pool_admin.c (statistics,
** limits, emptying, the host test hooks). The lower layer, pool_order.h,
** orders reuse across streams and knows nothing of this one. Nothing else
** includes either.
*/
#ifndef GA_POOL_INT_H
#define GA_POOL_INT_H

#include "pool_order.h"

#define UNIT        GA_POOL_UNIT
#define EXACT_LOG2  8
#define EXACT       (1 << EXACT_LOG2) /* bins 0..255: one per size, 512 B .. 128 KiB */
#define SUB_LOG2    3
#define SUB         (1 << SUB_LOG2)   /* then 8 bins per power of two */
#define NBINS       (EXACT + 48 * SUB)
#define NWORDS      ((NBINS + 63) / 64)
#define IDLE        ((cudaStream_t)(intptr_t)-1)   /* the arena no stream needs to wait for */

typedef struct arena arena;
typedef struct chunk chunk;

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

struct ga_pool {
  ga_order ord;            /* first member: the lower layer's part (backend, device, events) */
  pthread_mutex_t mu;
  size_t used, total, nfree, limit;
  double limit_frac;       /* a percentage limit not yet turned into bytes */
  arena *arenas;
  chunk *segs;
  chunk *pending, *pending_tail;   /* released chunks waiting for their fences, oldest first */
  size_t npending;
  unsigned gen;
  int owned, orphan, dying;
  cudaStream_t free_stream;   /* async pools: where cross-stream frees are queued */
  ga_pool *lnext;          /* the pool list (device and async pools) */
};

/* pool.c's pieces that pool_admin.c uses (p->mu held) */
void ga_pool_pending_poll(ga_pool *p, int wait);
void ga_pool_resolve_limit(ga_pool *p);
void ga_pool_bin_remove(ga_pool *p, chunk *c);
/* s is going (destroyed, or given back by its last user): its free chunks
** wait for its last work, then go idle; untagged, so nothing names s
** afterwards (device pools: device current) */
void ga_pool_retire_in(ga_pool *p, cudaStream_t s);

#endif
