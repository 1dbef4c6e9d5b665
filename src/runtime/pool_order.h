/*
** pool_order.h: the memory pool's lower layer (pool_order.c): how a freed
** chunk is kept out of reuse until every stream that may use it has passed
** it. The backends (cudaMalloc and CUDA events, cudaMallocAsync, or malloc
** with fake streams and tickets for the host test pool), the live streams
** of each device and their users, the streams being captured into graphs,
** and the events and fences. It knows no chunk, no arena and no pool list,
** and calls nothing of pool.c; pool.c (the upper layer: chunks, arenas,
** allocation, release) and pool_admin.c call it. Nothing else includes it.
*/
#ifndef GA_POOL_ORDER_H
#define GA_POOL_ORDER_H

#include <pthread.h>

#include "runtime/runtime.h"

#define MAX_DEVICES 64
#define GA_POOL_UNIT 512   /* allocation granularity (cudaMalloc aligns to 256) */

/* ===================================================================== */
/* lists of streams and their users                                      */
/* ===================================================================== */

/* A stream is listed while it has users: a ga.Stream the module created
** has one (its object), a stream a host hands in (ga_push_stream,
** ga_set_stream) one per Stream object made over it. The last user giving
** it back unlists it. The device registry (pool_order.c) is one such list;
** each host test pool has its own for its fake streams, so the specs drive
** the same code without a GPU. */
typedef struct { int device; cudaStream_t s; int users; } ga_streamuse;
typedef struct { ga_streamuse *e; int n, cap; } ga_streamlist;
/* One more user of s; 1 when s was not listed before, -1 without memory
** (then s stays unlisted: releases fence only the streams that are) */
int ga_streamlist_adopt(ga_streamlist *l, int device, cudaStream_t s);
/* One user fewer; 1 when that was the last (s is unlisted now), 0 when
** others remain, -1 when s was not listed */
int ga_streamlist_give_back(ga_streamlist *l, int device, cudaStream_t s);
/* The users of s (0: not listed) */
int ga_streamlist_users(const ga_streamlist *l, int device, cudaStream_t s);
/* Unlist s whatever its users (destroyed); 1 when it was listed */
int ga_streamlist_remove(ga_streamlist *l, int device, cudaStream_t s);
void ga_streamlist_free(ga_streamlist *l);

/* ===================================================================== */
/* backends                                                              */
/* ===================================================================== */

typedef struct ga_order ga_order;
typedef struct gev gev;

enum { BE_DEVICE, BE_ASYNC, BE_HOST };

typedef struct backend {
  void *(*alloc)(ga_order *o, size_t size, cudaStream_t s);   /* NULL on failure */
  void (*release)(ga_order *o, void *ptr);
  int (*record)(ga_order *o, void **h, cudaStream_t s);        /* 1: recorded */
  int (*query)(ga_order *o, void *h);                          /* 1: done (or broken) */
  int (*wait)(ga_order *o, cudaStream_t s, void *h);           /* 1: s waits for h */
  void (*sync)(ga_order *o, void *h);
  void (*ev_free)(ga_order *o, void *h);
  int kind;
  const char *what;
} backend;
extern const backend ga_pool_device_backend, ga_pool_async_backend, ga_pool_host_backend;

/* The host test backend's fake streams 0..GA_POOL_TEST_STREAMS-1 (0 is the
** legacy stream, always live): work is counted, not run */
typedef struct {
  unsigned long submitted[GA_POOL_TEST_STREAMS], completed[GA_POOL_TEST_STREAMS];
  ga_streamlist live;      /* the fake streams that are live, with their users */
  long waits;
  unsigned long epoch;     /* its own: real stream switches must not disturb the specs */
  int capturing;           /* fake stream id + 1 being captured into a graph, 0: none */
} hosttest;
int ga_pool_sid(cudaStream_t s);   /* a host test stream's small integer */

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

/* What one pool orders its reuse with (the first member of its struct;
** every function below runs with that pool's mutex held) */
struct ga_order {
  const backend *be;
  int device;              /* -1 for the host test pool */
  hosttest *test;          /* the host test pool's fake streams, else NULL */
  gev *retired;            /* the events of streams gone (destroyed or given back), until they complete */
  gev *gfree;              /* recycled events */
};

/* Make device current for a moment; returns the previous device or -1 */
int ga_pool_push_device(int device);
void ga_pool_pop_device(int device, int prev);
int ga_pool_total_mem(int device, size_t *total);

/* ===================================================================== */
/* events and fences (the pool's mutex held; device pools: device current) */
/* ===================================================================== */

gev *ga_order_gev_new(ga_order *o);
void ga_order_gev_put(ga_order *o, gev *g);
void ga_order_fence_free(ga_order *o, fence *f);
int ga_order_fence_done(ga_order *o, fence *f);
void ga_order_fence_sync(ga_order *o, fence *f);
/* An event on every listed stream that may have work, plus the events of
** streams gone that are still running; NULL when that fails, or with
** *deferred set while a stream of the device is being captured */
fence *ga_order_fence_now(ga_order *o, int *deferred);
/* Every stream's work done (the fallback when no fence could be made) */
void ga_order_sync_all(ga_order *o);
/* Make stream 'to' wait for the work queued so far on 'from', without a
** host sync; 0 when that failed ('from' broken: leave its chunks alone) */
int ga_order_after(ga_order *o, cudaStream_t from, cudaStream_t to);
/* s is going (destroyed, or given back by its last user): an event after
** its last work, kept on the retired list (later fences include it until
** it completes; the caller takes a reference per fence it builds from it),
** or NULL when none could be recorded: then s was synchronized instead */
gev *ga_order_retire(ga_order *o, cudaStream_t s);
void ga_order_free_events(ga_order *o);

/* ===================================================================== */
/* captures                                                              */
/* ===================================================================== */

/* A capture is active on one of the device's streams (the host test pool:
** on one of its fake streams); s is being captured (or is the legacy
** stream while a blocking stream's capture forbids it) */
int ga_order_any_capturing(const ga_order *o);
int ga_order_stream_capturing(const ga_order *o, cudaStream_t s);
/* The device's capture of s ended; 1 when it was the device's last one
** (pool.c then fences what was parked meanwhile) */
int ga_order_capture_end(int device, cudaStream_t s);

/* ===================================================================== */
/* the device registry: the live streams of every device                 */
/* ===================================================================== */

int ga_order_registry_adopt(int device, cudaStream_t s);
int ga_order_registry_give_back(int device, cudaStream_t s);
int ga_order_registry_remove(int device, cudaStream_t s);
/* The device of the listed stream s, or -1 */
int ga_order_registry_device(cudaStream_t s);

#endif
