/*
** pool_admin.c: what is asked of a pool from outside its allocation path:
** statistics, limits, emptying the cached blocks, and the hooks that let the
** specs drive the host test pool's fake streams.
*/
#include <stdlib.h>
#include <string.h>
#include "pool_internal.h"

/* ===================================================================== */
/* statistics, limits, emptying                                          */
/* ===================================================================== */

static cudaMemPool_t async_mempool(int device) {
  cudaMemPool_t mp = NULL;
  if (cudaDeviceGetMemPool(&mp, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return mp;
}

void ga_pool_get_stats(ga_pool *p, ga_pool_stats *st) {
  size_t reserved = 0;
  if (p->ord.be->kind == BE_ASYNC) {
    cudaMemPool_t mp = async_mempool(p->ord.device);
    uint64_t v = 0;
    if (mp && cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReservedMemCurrent, &v) == cudaSuccess)
      reserved = (size_t)v;
    else
      (void)cudaGetLastError();
  }
  pthread_mutex_lock(&p->mu);
  if (p->pending && p->ord.be->kind != BE_ASYNC) ga_pool_pending_poll(p, 0);   /* async: needs the device */
  ga_pool_resolve_limit(p);
  st->used_bytes = p->used;
  st->total_bytes = p->ord.be->kind == BE_ASYNC ? (reserved > p->used ? reserved : p->used) : p->total;
  st->free_bytes = st->total_bytes - p->used;
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

static void async_free_all(ga_pool *p) {
  int prev = ga_pool_push_device(p->ord.device);
  if (prev < 0) return;
  pthread_mutex_lock(&p->mu);
  if (p->pending) ga_pool_pending_poll(p, 0);   /* chunks released during a capture */
  pthread_mutex_unlock(&p->mu);
  cudaMemPool_t mp = async_mempool(p->ord.device);
  if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
  if (mp && cudaMemPoolTrimTo(mp, 0) != cudaSuccess) (void)cudaGetLastError();
  ga_pool_pop_device(p->ord.device, prev);
}

/* Give back every segment whose chunks are all free. Their chunks may sit in
** different streams' lists: cudaFree waits for the whole device, so that is
** safe here (and only here). Pending chunks are waited for first. */
void ga_pool_free_all(ga_pool *p) {
  if (ga_order_any_capturing(&p->ord)) return;   /* cudaFree and the waits below would break the capture */
  if (p->ord.be->kind == BE_ASYNC) {
    async_free_all(p);
    return;
  }
  chunk *dead = NULL;
  int dev = p->ord.be->kind != BE_HOST;
  int prev = -1;
  if (dev && p->pending) prev = ga_pool_push_device(p->ord.device);
  pthread_mutex_lock(&p->mu);
  if (p->pending) ga_pool_pending_poll(p, 1);
  for (chunk *h = p->segs, *hn; h; h = hn) {
    hn = h->snext;
    chunk *c = h;
    while (c && c->arena) c = c->next;
    if (c) continue;   /* something in use */
    for (c = h; c; ) {
      chunk *cn = c->next;
      ga_pool_bin_remove(p, c);
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
  if (dead) {   /* no CUDA call at all when nothing is cached */
    if (dev && prev < 0) prev = ga_pool_push_device(p->ord.device);
    for (chunk *h = dead, *hn; h; h = hn) {
      hn = h->snext;
      p->ord.be->release(&p->ord, h->b.ptr);
      free(h);
    }
  }
  if (dev) ga_pool_pop_device(p->ord.device, prev);
}

/* ===================================================================== */
/* host test hooks                                                       */
/* ===================================================================== */

static int test_sid(int sid) { return sid >= 0 && sid < GA_POOL_TEST_STREAMS; }

void ga_pool_test_work(ga_pool *p, int sid) {
  if (!p->ord.test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  p->ord.test->submitted[sid]++;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_finish(ga_pool *p, int sid, long upto) {
  if (!p->ord.test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  unsigned long sub = p->ord.test->submitted[sid];
  p->ord.test->completed[sid] = upto >= 0 && (unsigned long)upto < sub ? (unsigned long)upto : sub;
  pthread_mutex_unlock(&p->mu);
}

static cudaStream_t fake(int sid) { return (cudaStream_t)(intptr_t)sid; }

void ga_pool_test_live(ga_pool *p, int sid, int live) {
  if (!p->ord.test || !test_sid(sid) || sid == 0) return;
  pthread_mutex_lock(&p->mu);
  ga_streamlist *l = &p->ord.test->live;
  if (!live) (void)ga_streamlist_remove(l, -1, fake(sid));
  else if (!ga_streamlist_users(l, -1, fake(sid))) (void)ga_streamlist_adopt(l, -1, fake(sid));
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_bump(ga_pool *p) {
  if (!p->ord.test) return;
  pthread_mutex_lock(&p->mu);
  p->ord.test->epoch++;
  pthread_mutex_unlock(&p->mu);
}

/* As ga_pool_stream_destroyed and ga_pool_stream_give_back do for the
** device registry: unlisted first, then the epoch moves, then retired */
static void test_retire_locked(ga_pool *p, int sid) {
  p->ord.test->epoch++;
  ga_pool_retire_in(p, fake(sid));
}

void ga_pool_test_retire(ga_pool *p, int sid) {
  if (!p->ord.test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  (void)ga_streamlist_remove(&p->ord.test->live, -1, fake(sid));
  test_retire_locked(p, sid);
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_adopt(ga_pool *p, int sid) {
  if (!p->ord.test || !test_sid(sid) || sid == 0) return;
  pthread_mutex_lock(&p->mu);
  (void)ga_streamlist_adopt(&p->ord.test->live, -1, fake(sid));
  pthread_mutex_unlock(&p->mu);
}

int ga_pool_test_give_back(ga_pool *p, int sid) {
  if (!p->ord.test || !test_sid(sid) || sid == 0) return -1;
  pthread_mutex_lock(&p->mu);
  int r = ga_streamlist_give_back(&p->ord.test->live, -1, fake(sid));
  if (r == 1) test_retire_locked(p, sid);
  pthread_mutex_unlock(&p->mu);
  return r;
}

void ga_pool_test_capture(ga_pool *p, int sid) {
  if (!p->ord.test) return;
  pthread_mutex_lock(&p->mu);
  p->ord.test->capturing = test_sid(sid) ? sid + 1 : 0;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_counts(ga_pool *p, size_t *pending, long *waits) {
  pthread_mutex_lock(&p->mu);
  *pending = p->npending;
  *waits = p->ord.test ? p->ord.test->waits : 0;
  pthread_mutex_unlock(&p->mu);
}
