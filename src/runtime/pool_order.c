/*
** poolev.c: what the pool (pool.c) needs from CUDA: the segment allocators
** (cudaMalloc, cudaMallocAsync, and malloc with fake streams and events for
** the host test pool), the registry of live streams per device, and the
** events and fences that keep a released chunk out of reuse until every
** stream that may use it has passed it.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pool_internal.h"

/* ===================================================================== */
/* the device's streams: a registry of live ga.Streams                   */
/* ===================================================================== */

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { int device; cudaStream_t s; } *reg;
static int nreg, capreg;

void ga_pool_stream_created(int device, cudaStream_t s) {
  pthread_mutex_lock(&reg_mu);
  if (nreg == capreg) {
    int cap = capreg ? 2 * capreg : 16;
    void *r = realloc(reg, (size_t)cap * sizeof *reg);
    if (r) {
      reg = r;
      capreg = cap;
    }
  }
  /* without memory the stream goes unlisted: its releases then fence the
  ** legacy stream only, and pool_fence's caller falls back to a sync */
  if (nreg < capreg) {
    reg[nreg].device = device;
    reg[nreg].s = s;
    nreg++;
  }
  pthread_mutex_unlock(&reg_mu);
}

/* The live streams of device (registry lock held); the legacy default stream
** first. Returns the count, which may exceed max (then call again). */
static int live_streams(int device, cudaStream_t *out, int max) {
  int n = 0;
  if (n < max) out[n] = NULL;
  n++;
  for (int i = 0; i < nreg; i++) {
    if (reg[i].device != device) continue;
    if (n < max) out[n] = reg[i].s;
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

void ga_pool_capture_end(int device, cudaStream_t s) {
  int over = 0;
  pthread_mutex_lock(&reg_mu);
  for (int i = 0; i < ncaps; i++)
    if (caps[i].s == s && caps[i].device == device) {
      caps[i] = caps[--ncaps];
      over = atomic_fetch_sub(&capcount[device], 1) == 1;
      break;
    }
  pthread_mutex_unlock(&reg_mu);
  if (over) ga_pool_capture_over(device);   /* fence what was parked meanwhile */
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

void ga_pool_registry_remove(int device, cudaStream_t s) {
  pthread_mutex_lock(&reg_mu);
  for (int i = 0; i < nreg; i++)
    if (reg[i].s == s && reg[i].device == device) {
      reg[i] = reg[--nreg];
      break;
    }
  pthread_mutex_unlock(&reg_mu);
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

static void *dev_alloc(ga_pool *p, size_t size, cudaStream_t s) {
  void *ptr = NULL;
  if (cudaMalloc(&ptr, size) != cudaSuccess) {
    (void)cudaGetLastError();   /* leave no error behind for the next launch check */
    return NULL;
  }
  return ptr;
}

static void dev_release(ga_pool *p, void *ptr) {
  if (cudaFree(ptr) != cudaSuccess) (void)cudaGetLastError();
}

static int dev_record(ga_pool *p, void **h, cudaStream_t s) {
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

static int dev_query(ga_pool *p, void *h) {
  cudaError_t e = cudaEventQuery((cudaEvent_t)h);
  if (e == cudaErrorNotReady) return 0;
  if (e != cudaSuccess) (void)cudaGetLastError();   /* a broken context: nothing runs any more */
  return 1;
}

static int dev_wait(ga_pool *p, cudaStream_t s, void *h) {
  if (cudaStreamWaitEvent(s, (cudaEvent_t)h, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return 1;
}

static void dev_sync(ga_pool *p, void *h) {
  if (cudaEventSynchronize((cudaEvent_t)h) != cudaSuccess) (void)cudaGetLastError();
}

static void dev_ev_free(ga_pool *p, void *h) {
  if (h) (void)cudaEventDestroy((cudaEvent_t)h);
}

static void *async_alloc(ga_pool *p, size_t size, cudaStream_t s) {
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

static void *host_alloc(ga_pool *p, size_t size, cudaStream_t s) {
  return aligned_alloc(UNIT, size);   /* size is a multiple of UNIT */
}

static void host_release(ga_pool *p, void *ptr) { free(ptr); }

static int host_record(ga_pool *p, void **h, cudaStream_t s) {
  if (!*h && !(*h = malloc(sizeof(ticket)))) return 0;
  ticket *t = (ticket *)*h;
  t->sid = ga_pool_sid(s);
  t->t = p->test->submitted[t->sid];
  return 1;
}

static int host_query(ga_pool *p, void *h) {
  ticket *t = (ticket *)h;
  return p->test->completed[t->sid] >= t->t;
}

static int host_wait(ga_pool *p, cudaStream_t s, void *h) {
  p->test->waits++;
  return 1;
}

static void host_sync(ga_pool *p, void *h) {
  ticket *t = (ticket *)h;
  if (p->test->completed[t->sid] < t->t) p->test->completed[t->sid] = t->t;
}

static void host_ev_free(ga_pool *p, void *h) { free(h); }

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

gev *ga_pool_gev_new(ga_pool *p) {
  gev *g = p->gfree;
  if (g) p->gfree = g->next;
  else if (!(g = (gev *)calloc(1, sizeof *g))) return NULL;
  g->refs = 1;
  g->done = 0;
  g->next = NULL;
  return g;
}

void ga_pool_gev_put(ga_pool *p, gev *g) {
  if (--g->refs > 0) return;
  g->next = p->gfree;
  p->gfree = g;
}

static int gev_done(ga_pool *p, gev *g) {
  if (!g->done && p->be->query(p, g->h)) g->done = 1;
  return g->done;
}

/* Drop the retired streams' fences that completed */
static void retired_poll(ga_pool *p) {
  for (gev **pp = &p->retired; *pp;) {
    gev *g = *pp;
    if (gev_done(p, g)) {
      *pp = g->next;
      g->next = NULL;
      ga_pool_gev_put(p, g);
    } else {
      pp = &g->next;
    }
  }
}

void ga_pool_fence_free(ga_pool *p, fence *f) {
  for (int i = 0; i < f->n; i++) ga_pool_gev_put(p, f->ev[i]);
  free(f);
}

int ga_pool_fence_done(ga_pool *p, fence *f) {
  for (int i = 0; i < f->n; i++)
    if (!gev_done(p, f->ev[i])) return 0;
  return 1;
}

void ga_pool_fence_sync(ga_pool *p, fence *f) {
  for (int i = 0; i < f->n; i++)
    if (!gev_done(p, f->ev[i])) {
      p->be->sync(p, f->ev[i]->h);
      f->ev[i]->done = 1;
    }
}

/* The streams a released chunk may have been used on: the live ones of the
** pool's device, or the test pool's live fake streams */
static int pool_streams(ga_pool *p, cudaStream_t *out, int max) {
  if (p->be->kind != BE_HOST) return live_streams(p->device, out, max);
  int n = 0;
  for (int i = 0; i < GA_POOL_TEST_STREAMS; i++)
    if (i == 0 || p->test->live[i]) {
      if (n < max) out[n] = (cudaStream_t)(intptr_t)i;
      n++;
    }
  return n;
}

/* An event on every stream that may have work, plus the fences of destroyed
** streams still running. NULL when host memory or CUDA fails: the caller
** then synchronises instead; NULL with *deferred set while a stream of the
** device is being captured (no event may go there, and no sync either): the
** caller parks the chunk until the capture ends. For device pools, the
** device is current. */
fence *ga_pool_fence_now(ga_pool *p, int *deferred) {
  *deferred = 0;
  int host = p->be->kind == BE_HOST;
  if (host && p->test->capturing) {
    *deferred = 1;
    return NULL;
  }
  if (!host) {
    pthread_mutex_lock(&reg_mu);   /* no stream is destroyed or captured while we record on it */
    if (atomic_load(&capcount[p->device]) > 0) {
      pthread_mutex_unlock(&reg_mu);
      *deferred = 1;
      return NULL;
    }
  }
  retired_poll(p);
  int nret = 0;
  for (gev *g = p->retired; g; g = g->next) nret++;
  cudaStream_t small[16], *streams = small;
  int n = pool_streams(p, small, 16);
  if (n > 16) {
    streams = (cudaStream_t *)malloc((size_t)n * sizeof *streams);
    if (streams) pool_streams(p, streams, n);
  }
  fence *f = streams ? (fence *)malloc(sizeof *f + (size_t)(n + nret) * sizeof(gev *)) : NULL;
  int ok = f != NULL;
  if (f) f->n = 0;
  for (int i = 0; ok && i < n; i++) {
    gev *g = ga_pool_gev_new(p);
    if (!g) { ok = 0; break; }
    f->ev[f->n++] = g;
    ok = p->be->record(p, &g->h, streams[i]);
  }
  if (!host) pthread_mutex_unlock(&reg_mu);
  if (streams != small) free(streams);
  if (!ok) {
    if (f) ga_pool_fence_free(p, f);
    return NULL;
  }
  for (gev *g = p->retired; g; g = g->next) {
    g->refs++;
    f->ev[f->n++] = g;
  }
  return f;
}
