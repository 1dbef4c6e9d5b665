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
  if (p->be->kind == BE_ASYNC) {
    cudaMemPool_t mp = async_mempool(p->device);
    uint64_t v = 0;
    if (mp && cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReservedMemCurrent, &v) == cudaSuccess)
      reserved = (size_t)v;
    else
      (void)cudaGetLastError();
  }
  pthread_mutex_lock(&p->mu);
  if (p->pending && p->be->kind != BE_ASYNC) ga_pool_pending_poll(p, 0);   /* async: needs the device */
  ga_pool_resolve_limit(p);
  st->used_bytes = p->used;
  st->total_bytes = p->be->kind == BE_ASYNC ? (reserved > p->used ? reserved : p->used) : p->total;
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
  int prev = ga_pool_push_device(p->device);
  if (prev < 0) return;
  pthread_mutex_lock(&p->mu);
  if (p->pending) ga_pool_pending_poll(p, 0);   /* chunks released during a capture */
  pthread_mutex_unlock(&p->mu);
  cudaMemPool_t mp = async_mempool(p->device);
  if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();
  if (mp && cudaMemPoolTrimTo(mp, 0) != cudaSuccess) (void)cudaGetLastError();
  ga_pool_pop_device(p->device, prev);
}

/* Give back every segment whose chunks are all free. Their chunks may sit in
** different streams' lists: cudaFree waits for the whole device, so that is
** safe here (and only here). Pending chunks are waited for first. */
void ga_pool_free_all(ga_pool *p) {
  if (ga_pool_any_capturing(p)) return;   /* cudaFree and the waits below would break the capture */
  if (p->be->kind == BE_ASYNC) {
    async_free_all(p);
    return;
  }
  chunk *dead = NULL;
  int dev = p->be->kind != BE_HOST;
  int prev = -1;
  if (dev && p->pending) prev = ga_pool_push_device(p->device);
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
    if (dev && prev < 0) prev = ga_pool_push_device(p->device);
    for (chunk *h = dead, *hn; h; h = hn) {
      hn = h->snext;
      p->be->release(p, h->b.ptr);
      free(h);
    }
  }
  if (dev) ga_pool_pop_device(p->device, prev);
}

/* ===================================================================== */
/* host test hooks                                                       */
/* ===================================================================== */

static int test_sid(int sid) { return sid >= 0 && sid < GA_POOL_TEST_STREAMS; }

void ga_pool_test_work(ga_pool *p, int sid) {
  if (!p->test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  p->test->submitted[sid]++;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_finish(ga_pool *p, int sid, long upto) {
  if (!p->test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  unsigned long sub = p->test->submitted[sid];
  p->test->completed[sid] = upto >= 0 && (unsigned long)upto < sub ? (unsigned long)upto : sub;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_live(ga_pool *p, int sid, int live) {
  if (!p->test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  p->test->live[sid] = (unsigned char)(live != 0);
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_bump(ga_pool *p) {
  if (!p->test) return;
  pthread_mutex_lock(&p->mu);
  p->test->epoch++;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_retire(ga_pool *p, int sid) {
  if (!p->test || !test_sid(sid)) return;
  pthread_mutex_lock(&p->mu);
  p->test->epoch++;
  p->test->live[sid] = 0;
  ga_pool_retire_in(p, (cudaStream_t)(intptr_t)sid);
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_capture(ga_pool *p, int sid) {
  if (!p->test) return;
  pthread_mutex_lock(&p->mu);
  p->test->capturing = test_sid(sid) ? sid + 1 : 0;
  pthread_mutex_unlock(&p->mu);
}

void ga_pool_test_counts(ga_pool *p, size_t *pending, long *waits) {
  pthread_mutex_lock(&p->mu);
  *pending = p->npending;
  *waits = p->test ? p->test->waits : 0;
  pthread_mutex_unlock(&p->mu);
}
