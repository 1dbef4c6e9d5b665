/*
** pool_order.c: the memory pool's lower layer (pool_order.h says what it
** holds): the segment allocators, the streams that may have work and their
** users, the captures, and the events and fences that keep a released chunk
** out of reuse until every stream that may use it has passed it. It calls
** nothing of pool.c.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pool_order.h"

/* ===================================================================== */
/* lists of streams and their users                                      */
/* ===================================================================== */

static int find(const ga_streamlist *l, int device, cudaStream_t s) {
  for (int i = 0; i < l->n; i++)
    if (l->e[i].s == s && l->e[i].device == device) return i;
  return -1;
}

int ga_streamlist_adopt(ga_streamlist *l, int device, cudaStream_t s) {
  int i = find(l, device, s);
  if (i >= 0) {
    l->e[i].users++;
    return 0;
  }
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    void *e = realloc(l->e, (size_t)cap * sizeof *l->e);
    if (!e) return -1;
    l->e = (ga_streamuse *)e;
    l->cap = cap;
  }
  l->e[l->n].device = device;
  l->e[l->n].s = s;
  l->e[l->n].users = 1;
  l->n++;
  return 1;
}

int ga_streamlist_give_back(ga_streamlist *l, int device, cudaStream_t s) {
  int i = find(l, device, s);
  if (i < 0) return -1;
  if (--l->e[i].users > 0) return 0;
  l->e[i] = l->e[--l->n];
  return 1;
}

int ga_streamlist_users(const ga_streamlist *l, int device, cudaStream_t s) {
  int i = find(l, device, s);
  return i < 0 ? 0 : l->e[i].users;
}

int ga_streamlist_remove(ga_streamlist *l, int device, cudaStream_t s) {
  int i = find(l, device, s);
  if (i < 0) return 0;
  l->e[i] = l->e[--l->n];
  return 1;
}

void ga_streamlist_free(ga_streamlist *l) {
  free(l->e);
  l->e = NULL;
  l->n = l->cap = 0;
}

/* ===================================================================== */
/* the device registry and the captures (one lock: reg_mu)               */
/* ===================================================================== */

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static ga_streamlist reg;

int ga_order_registry_adopt(int device, cudaStream_t s) {
  pthread_mutex_lock(&reg_mu);
  int r = ga_streamlist_adopt(&reg, device, s);
  pthread_mutex_unlock(&reg_mu);
  return r;
}

int ga_order_registry_give_back(int device, cudaStream_t s) {
  pthread_mutex_lock(&reg_mu);
  int r = ga_streamlist_give_back(&reg, device, s);
  pthread_mutex_unlock(&reg_mu);
  return r;
}

int ga_order_registry_remove(int device, cudaStream_t s) {
  pthread_mutex_lock(&reg_mu);
  int r = ga_streamlist_remove(&reg, device, s);
  pthread_mutex_unlock(&reg_mu);
  return r;
}

int ga_order_registry_device(cudaStream_t s) {
  int device = -1;
  pthread_mutex_lock(&reg_mu);
  for (int i = 0; i < reg.n && device < 0; i++)
    if (reg.e[i].s == s) device = reg.e[i].device;
  pthread_mutex_unlock(&reg_mu);
  return device;
}

/* The streams of device that may have work (registry lock held); the
** legacy default stream first. Returns the count, which may exceed max
** (then call again). */
static int live_streams(int device, cudaStream_t *out, int max) {
  int n = 0;
  if (n < max) out[n] = NULL;
  n++;
  for (int i = 0; i < reg.n; i++) {
    if (reg.e[i].device != device) continue;
    if (n < max) out[n] = reg.e[i].s;
    n++;
  }
  return n;
}

/* ---- streams being captured into graphs (graph.c). While a device has a
** capture, the pool records no event on it (fence_now defers instead): an
** event recorded into a capturing stream becomes a graph node that can be
** neither queried nor waited for, and a blocking stream's capture also
** forbids any use of the legacy stream. The count is read without the lock
** on hot paths; fence_now reads it under the lock, so no event is recorded
** on a stream after its capture began. */

#define MAX_CAPS 64
static struct { int device; cudaStream_t s; int blocking; } caps[MAX_CAPS];
static int ncaps;
static atomic_int capcount[MAX_DEVICES];

int ga_pool_capture_begin(int device, cudaStream_t s, int blocking) {
  if (device < 0 || device >= MAX_DEVICES) return 0;
  pthread_mutex_lock(&reg_mu);
  int ok = ncaps < MAX_CAPS;
  if (ok) {
    caps[ncaps].device = device;
    caps[ncaps].s = s;
    caps[ncaps].blocking = blocking;
    ncaps++;
    atomic_fetch_add(&capcount[device], 1);
  }
  pthread_mutex_unlock(&reg_mu);
  return ok;
}

int ga_order_capture_end(int device, cudaStream_t s) {
  int over = 0;
  pthread_mutex_lock(&reg_mu);
  for (int i = 0; i < ncaps; i++)
    if (caps[i].s == s && caps[i].device == device) {
      caps[i] = caps[--ncaps];
      over = atomic_fetch_sub(&capcount[device], 1) == 1;
      break;
    }
  pthread_mutex_unlock(&reg_mu);
  return over;
}

int ga_pool_capturing(int device) {
  return device >= 0 && device < MAX_DEVICES && atomic_load(&capcount[device]) > 0;
}

/* s is being captured, or is the legacy stream while a blocking stream of
** the device is (then the legacy stream may not be used at all) */
static int stream_capturing_locked(int device, cudaStream_t s) {
  for (int i = 0; i < ncaps; i++)
    if (caps[i].device == device && (caps[i].s == s || (!s && caps[i].blocking))) return 1;
  return 0;
}

int ga_pool_stream_capturing(int device, cudaStream_t s) {
  if (!ga_pool_capturing(device)) return 0;
  pthread_mutex_lock(&reg_mu);
  int r = stream_capturing_locked(device, s);
  pthread_mutex_unlock(&reg_mu);
  return r;
}

int ga_order_any_capturing(const ga_order *o) {
  return o->test ? o->test->capturing != 0 : ga_pool_capturing(o->device);
}

int ga_order_stream_capturing(const ga_order *o, cudaStream_t s) {
  if (o->test) return o->test->capturing && ga_pool_sid(s) + 1 == o->test->capturing;
  return ga_pool_stream_capturing(o->device, s);
}

/* ===================================================================== */
/* backends                                                              */
/* ===================================================================== */

/* Make device current for a moment (pools may be used from a thread whose
** current device differs); returns the previous device or -1 on failure */
int ga_pool_push_device(int device) {
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

void ga_pool_pop_device(int device, int prev) {
  if (prev >= 0 && prev != device) (void)cudaSetDevice(prev);
}

int ga_pool_total_mem(int device, size_t *total) {
  size_t f, t;
  int prev = ga_pool_push_device(device);
  if (prev < 0) return 0;
  cudaError_t err = cudaMemGetInfo(&f, &t);
  ga_pool_pop_device(device, prev);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  *total = t;
  return 1;
}

static void *dev_alloc(ga_order *o, size_t size, cudaStream_t s) {
  void *ptr = NULL;
  if (cudaMalloc(&ptr, size) != cudaSuccess) {
    (void)cudaGetLastError();   /* leave no error behind for the next launch check */
    return NULL;
  }
  return ptr;
}

static void dev_release(ga_order *o, void *ptr) {
  if (cudaFree(ptr) != cudaSuccess) (void)cudaGetLastError();
}

static int dev_record(ga_order *o, void **h, cudaStream_t s) {
  if (!*h && cudaEventCreateWithFlags((cudaEvent_t *)h, cudaEventDisableTiming) != cudaSuccess) {
    *h = NULL;
    (void)cudaGetLastError();
    return 0;
  }
  if (cudaEventRecord((cudaEvent_t)*h, s) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return 1;
}

static int dev_query(ga_order *o, void *h) {
  cudaError_t e = cudaEventQuery((cudaEvent_t)h);
  if (e == cudaErrorNotReady) return 0;
  if (e != cudaSuccess) (void)cudaGetLastError();   /* a broken context: nothing runs any more */
  return 1;
}

static int dev_wait(ga_order *o, cudaStream_t s, void *h) {
  if (cudaStreamWaitEvent(s, (cudaEvent_t)h, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return 1;
}

static void dev_sync(ga_order *o, void *h) {
  if (cudaEventSynchronize((cudaEvent_t)h) != cudaSuccess) (void)cudaGetLastError();
}

static void dev_ev_free(ga_order *o, void *h) {
  if (h) (void)cudaEventDestroy((cudaEvent_t)h);
}

static void *async_alloc(ga_order *o, size_t size, cudaStream_t s) {
  void *ptr = NULL;
  if (cudaMallocAsync(&ptr, size, s) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return ptr;
}

/* ---- the host test backend: streams are small integers; an event is a
** ticket (stream, work count when recorded), done once that stream's
** completed count reaches it */

typedef struct { int sid; unsigned long t; } ticket;

int ga_pool_sid(cudaStream_t s) {
  intptr_t v = (intptr_t)s;
  return v >= 0 && v < GA_POOL_TEST_STREAMS ? (int)v : 0;
}

static void *host_alloc(ga_order *o, size_t size, cudaStream_t s) {
  return aligned_alloc(GA_POOL_UNIT, size);   /* size is a multiple of it */
}

static void host_release(ga_order *o, void *ptr) { free(ptr); }

static int host_record(ga_order *o, void **h, cudaStream_t s) {
  if (!*h && !(*h = malloc(sizeof(ticket)))) return 0;
  ticket *t = (ticket *)*h;
  t->sid = ga_pool_sid(s);
  t->t = o->test->submitted[t->sid];
  return 1;
}

static int host_query(ga_order *o, void *h) {
  ticket *t = (ticket *)h;
  return o->test->completed[t->sid] >= t->t;
}

static int host_wait(ga_order *o, cudaStream_t s, void *h) {
  o->test->waits++;
  return 1;
}

static void host_sync(ga_order *o, void *h) {
  ticket *t = (ticket *)h;
  if (o->test->completed[t->sid] < t->t) o->test->completed[t->sid] = t->t;
}

static void host_ev_free(ga_order *o, void *h) { free(h); }

const backend ga_pool_device_backend = {
  dev_alloc, dev_release, dev_record, dev_query, dev_wait, dev_sync, dev_ev_free, BE_DEVICE, "device"
};
const backend ga_pool_async_backend = {
  async_alloc, NULL, dev_record, dev_query, dev_wait, dev_sync, dev_ev_free, BE_ASYNC, "device (async)"
};
const backend ga_pool_host_backend = {
  host_alloc, host_release, host_record, host_query, host_wait, host_sync, host_ev_free, BE_HOST, "host test"
};

/* ===================================================================== */
/* events and fences (pool mutex held)                                   */
/* ===================================================================== */

gev *ga_order_gev_new(ga_order *o) {
  gev *g = o->gfree;
  if (g) o->gfree = g->next;
  else if (!(g = (gev *)calloc(1, sizeof *g))) return NULL;
  g->refs = 1;
  g->done = 0;
  g->next = NULL;
  return g;
}

void ga_order_gev_put(ga_order *o, gev *g) {
  if (--g->refs > 0) return;
  g->next = o->gfree;
  o->gfree = g;
}

static int gev_done(ga_order *o, gev *g) {
  if (!g->done && o->be->query(o, g->h)) g->done = 1;
  return g->done;
}

/* Drop the retired streams' events that completed */
static void retired_poll(ga_order *o) {
  for (gev **pp = &o->retired; *pp;) {
    gev *g = *pp;
    if (gev_done(o, g)) {
      *pp = g->next;
      g->next = NULL;
      ga_order_gev_put(o, g);
    } else {
      pp = &g->next;
    }
  }
}

void ga_order_fence_free(ga_order *o, fence *f) {
  for (int i = 0; i < f->n; i++) ga_order_gev_put(o, f->ev[i]);
  free(f);
}

int ga_order_fence_done(ga_order *o, fence *f) {
  for (int i = 0; i < f->n; i++)
    if (!gev_done(o, f->ev[i])) return 0;
  return 1;
}

void ga_order_fence_sync(ga_order *o, fence *f) {
  for (int i = 0; i < f->n; i++)
    if (!gev_done(o, f->ev[i])) {
      o->be->sync(o, f->ev[i]->h);
      f->ev[i]->done = 1;
    }
}

/* The streams a released chunk may have been used on: the listed ones of
** the pool's device, or the test pool's live fake streams (0 always) */
static int pool_streams(ga_order *o, cudaStream_t *out, int max) {
  if (o->be->kind != BE_HOST) return live_streams(o->device, out, max);
  int n = 0;
  if (n < max) out[n] = (cudaStream_t)(intptr_t)0;
  n++;
  for (int i = 0; i < o->test->live.n; i++) {
    if (o->test->live.e[i].s == 0) continue;
    if (n < max) out[n] = o->test->live.e[i].s;
    n++;
  }
  return n;
}

fence *ga_order_fence_now(ga_order *o, int *deferred) {
  *deferred = 0;
  int host = o->be->kind == BE_HOST;
  if (host && o->test->capturing) {
    *deferred = 1;
    return NULL;
  }
  if (!host) {
    pthread_mutex_lock(&reg_mu);   /* no stream is destroyed or captured while we record on it */
    if (atomic_load(&capcount[o->device]) > 0) {
      pthread_mutex_unlock(&reg_mu);
      *deferred = 1;
      return NULL;
    }
  }
  retired_poll(o);
  int nret = 0;
  for (gev *g = o->retired; g; g = g->next) nret++;
  cudaStream_t small[16], *streams = small;
  int n = pool_streams(o, small, 16);
  if (n > 16) {
    streams = (cudaStream_t *)malloc((size_t)n * sizeof *streams);
    if (streams) pool_streams(o, streams, n);
  }
  fence *f = streams ? (fence *)malloc(sizeof *f + (size_t)(n + nret) * sizeof(gev *)) : NULL;
  int ok = f != NULL;
  if (f) f->n = 0;
  for (int i = 0; ok && i < n; i++) {
    gev *g = ga_order_gev_new(o);
    if (!g) { ok = 0; break; }
    f->ev[f->n++] = g;
    ok = o->be->record(o, &g->h, streams[i]);
  }
  if (!host) pthread_mutex_unlock(&reg_mu);
  if (streams != small) free(streams);
  if (!ok) {
    if (f) ga_order_fence_free(o, f);
    return NULL;
  }
  for (gev *g = o->retired; g; g = g->next) {
    g->refs++;
    f->ev[f->n++] = g;
  }
  return f;
}

void ga_order_sync_all(ga_order *o) {
  if (o->be->kind == BE_HOST)
    memcpy(o->test->completed, o->test->submitted, sizeof o->test->completed);
  else if (cudaDeviceSynchronize() != cudaSuccess)
    (void)cudaGetLastError();
}

/* A wait captures the event's state when it is enqueued, so the event goes
** back to the free list right away */
int ga_order_after(ga_order *o, cudaStream_t from, cudaStream_t to) {
  gev *g = ga_order_gev_new(o);
  if (!g) return 0;
  int ok = o->be->record(o, &g->h, from) && o->be->wait(o, to, g->h);
  ga_order_gev_put(o, g);
  return ok;
}

gev *ga_order_retire(ga_order *o, cudaStream_t s) {
  gev *g = ga_order_gev_new(o);
  if (g && !o->be->record(o, &g->h, s)) {
    ga_order_gev_put(o, g);
    g = NULL;
  }
  if (!g) {   /* cannot fence it: wait for it */
    if (o->be->kind == BE_HOST) {
      int sid = ga_pool_sid(s);
      o->test->completed[sid] = o->test->submitted[sid];
    } else if (cudaStreamSynchronize(s) != cudaSuccess) {
      (void)cudaGetLastError();
    }
    return NULL;
  }
  g->next = o->retired;
  o->retired = g;
  return g;
}

void ga_order_free_events(ga_order *o) {
  for (gev *g = o->retired, *gn; g; g = gn) {
    gn = g->next;
    o->be->ev_free(o, g->h);
    free(g);
  }
  for (gev *g = o->gfree, *gn; g; g = gn) {
    gn = g->next;
    o->be->ev_free(o, g->h);
    free(g);
  }
  o->retired = o->gfree = NULL;
}
