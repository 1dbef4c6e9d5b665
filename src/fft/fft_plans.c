/*
** fft_plans.c: the cuFFT plan cache. A plan is not a per-state handle like
** the other libraries' (libhandle.h): it costs milliseconds to make and holds
** device tables, so plans are shared by every Lua state of the process, one
** bounded LRU list per device (CuPy's default bound, 16). Several states on
** several threads may use one plan: a mutex guards the lists, and binding a
** plan to a stream and a work area is done together with its launch under
** that mutex (the three are one critical section: cuFFT keeps the stream
** and work area in the plan). Plans are made with auto-allocation off; each
** execution gets its work area from the memory pool (ga_lib_workspace), so
** a cached plan holds no work memory between calls.
** An entry in use is pinned (refs > 0) and never destroyed; an entry evicted
** while pinned is destroyed by its last user.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cufft.h>

#include "fft/fft.h"

/* From cufft.h's cufftResult */
const ga_statusname ga_cufft_status[] = {
  {1, "CUFFT_INVALID_PLAN"}, {2, "CUFFT_ALLOC_FAILED"}, {3, "CUFFT_INVALID_TYPE"},
  {4, "CUFFT_INVALID_VALUE"}, {5, "CUFFT_INTERNAL_ERROR"}, {6, "CUFFT_EXEC_FAILED"},
  {7, "CUFFT_SETUP_FAILED"}, {8, "CUFFT_INVALID_SIZE"}, {9, "CUFFT_UNALIGNED_DATA"},
  {11, "CUFFT_INVALID_DEVICE"}, {13, "CUFFT_NO_WORKSPACE"}, {14, "CUFFT_NOT_IMPLEMENTED"},
  {16, "CUFFT_NOT_SUPPORTED"}, {0, NULL}};

#define MAX_DEVICES 64
#define DEFAULT_SIZE 16

struct ga_fftplan {
  ga_fftkey key;
  cufftHandle h;
  size_t work;
  uint64_t stamp;      /* last use, for LRU */
  int refs;
  int cached;          /* still in its device's list */
  ga_fftplan *next;
};

typedef struct {
  ga_fftplan *head;
  int n, max;
  uint64_t hits, misses;
} plan_list;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static plan_list lists[MAX_DEVICES];
static int sizes_set[MAX_DEVICES];
static uint64_t clock_;

static plan_list *list_of(int device) {
  plan_list *l = &lists[device];
  if (!sizes_set[device]) {
    l->max = DEFAULT_SIZE;
    sizes_set[device] = 1;
  }
  return l;
}

static void destroy(ga_fftplan *p) {
  (void)cufftDestroy(p->h);
  free(p);
}

/* Unlink and destroy (or leave to the last user) the least recently used
** entries of l until it holds at most keep. Under mu. */
static void trim(plan_list *l, int keep) {
  while (l->n > keep) {
    ga_fftplan **lru = NULL;
    for (ga_fftplan **pp = &l->head; *pp; pp = &(*pp)->next)
      if (!lru || (*pp)->stamp < (*lru)->stamp) lru = pp;
    ga_fftplan *p = *lru;
    *lru = p->next;
    l->n--;
    p->cached = 0;
    if (p->refs == 0) destroy(p);
  }
}

static int same_key(const ga_fftkey *a, const ga_fftkey *b) {
  return a->type == b->type && a->rank == b->rank && a->batch == b->batch && a->dims[0] == b->dims[0] &&
         a->dims[1] == b->dims[1] && a->dims[2] == b->dims[2];
}

/* Make a plan (device entered); 0 or a cuFFT status */
static int make(const ga_fftkey *k, ga_fftplan **out) {
  ga_fftplan *p = (ga_fftplan *)calloc(1, sizeof *p);
  if (!p) return CUFFT_ALLOC_FAILED;
  p->key = *k;
  int st = (int)cufftCreate(&p->h);
  if (st) {
    free(p);
    return st;
  }
  long long n[3] = {k->dims[0], k->dims[1], k->dims[2]};
  st = (int)cufftSetAutoAllocation(p->h, 0);
  if (!st)
    st = (int)cufftMakePlanMany64(p->h, k->rank, n, NULL, 1, 0, NULL, 1, 0, (cufftType)k->type, k->batch,
                                  &p->work);
  if (st) {
    destroy(p);
    return st;
  }
  *out = p;
  return 0;
}

ga_fftplan *ga_fftplan_acquire(lua_State *L, ga_state *ctx, const ga_fftkey *key, size_t *work) {
  ga_device_enter(L, ctx);
  int d = ctx->device;
  if (d < 0 || d >= MAX_DEVICES) ga_error(L, "fft: device %d is past the %d this module handles", d, MAX_DEVICES);
  pthread_mutex_lock(&mu);
  plan_list *l = list_of(d);
  ga_fftplan *p = l->head;
  while (p && !same_key(&p->key, key)) p = p->next;
  if (p) {
    l->hits++;
  } else {
    l->misses++;
    int st = make(key, &p);
    if (st) {
      pthread_mutex_unlock(&mu);
      ga_status_check(L, ga_cufft_status, st, "fft: making a plan (cufftMakePlanMany64)");
    }
    if (l->max > 0) {
      trim(l, l->max - 1);
      p->next = l->head;
      l->head = p;
      p->cached = 1;
      l->n++;
    }
  }
  p->stamp = ++clock_;
  p->refs++;
  *work = p->work;
  pthread_mutex_unlock(&mu);
  return p;
}

void ga_fftplan_release(ga_fftplan *p) {
  pthread_mutex_lock(&mu);
  if (--p->refs == 0 && !p->cached) destroy(p);
  pthread_mutex_unlock(&mu);
}

int ga_fftplan_exec(ga_fftplan *p, cudaStream_t s, void *work, void *in, void *out, int direction) {
  pthread_mutex_lock(&mu);
  int st = (int)cufftSetStream(p->h, s);
  if (!st) st = (int)cufftSetWorkArea(p->h, work);
  if (!st) {
    switch (p->key.type) {
      case CUFFT_C2C: st = (int)cufftExecC2C(p->h, in, out, direction); break;
      case CUFFT_Z2Z: st = (int)cufftExecZ2Z(p->h, in, out, direction); break;
      case CUFFT_R2C: st = (int)cufftExecR2C(p->h, in, out); break;
      case CUFFT_D2Z: st = (int)cufftExecD2Z(p->h, in, out); break;
      case CUFFT_C2R: st = (int)cufftExecC2R(p->h, in, out); break;
      default: st = (int)cufftExecZ2D(p->h, in, out); break;
    }
  }
  pthread_mutex_unlock(&mu);
  return st;
}

void ga_fftplan_info(int device, int *size, int *max, uint64_t *hits, uint64_t *misses) {
  pthread_mutex_lock(&mu);
  plan_list *l = list_of(device);
  *size = l->n;
  *max = l->max;
  *hits = l->hits;
  *misses = l->misses;
  pthread_mutex_unlock(&mu);
}

void ga_fftplan_set_size(int device, int max) {
  pthread_mutex_lock(&mu);
  plan_list *l = list_of(device);
  l->max = max;
  trim(l, max);
  pthread_mutex_unlock(&mu);
}
