/*
** pinned.c: page-locked host arrays and their pool (CuPy's PinnedMemoryPool
** and pinned NumPy arrays, for Lua).
**
** ga.pinned_empty(shape, dtype) is a C-contiguous host array that Lua reads
** and writes by indexing (h[i], h[{i, j}]), totable, set and fill. Copies
** between it and the device are truly asynchronous: x:get(h) and x:set(h)
** queue cudaMemcpyAsync on the current stream and return. Each block keeps
** an event recorded after the last transfer that used it: Lua access to the
** array waits for it (so reading h after x:get(h) gives the values without
** an explicit synchronize), a transfer on another stream is ordered after
** it, and a freed block is reused only once it has completed.
**
** Blocks come from cudaHostAlloc (portable, mapped: RawKernel may pass the
** array to a kernel) rounded to 512 bytes, and go back to a free list; the
** best fit not more than twice the request is reused. A test pool of
** malloc'ed blocks lets the specs exercise the Lua side without a GPU.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "array/array.h"

#define POOL_MT "gpuarray.PinnedMemoryPool"
#define UNIT 512

typedef struct ppool ppool;
typedef struct pblock pblock;

struct pblock {
  void *ptr;
  size_t size;
  atomic_int refs;
  cudaEvent_t ev;          /* made on first transfer */
  int ev_pending;          /* recorded and maybe not yet complete */
  ppool *pool;
  pblock *next;            /* free or pending list */
};

struct ppool {
  pthread_mutex_t mu;
  int test;                /* malloc'ed host memory, no CUDA */
  pblock *idle, *pending;
  size_t used, total, nidle;
};

static ppool default_pool = {PTHREAD_MUTEX_INITIALIZER, 0, NULL, NULL, 0, 0, 0};
static ppool test_pool = {PTHREAD_MUTEX_INITIALIZER, 1, NULL, NULL, 0, 0, 0};

typedef struct {
  char *data;
  pblock *blk;             /* NULL for size 0 or freed */
  int64_t size;
  int ndim, dtype, freed;
  int64_t shape[GA_MAXDIM];
} pinned;

/* ===================================================================== */
/* the pool                                                              */
/* ===================================================================== */

/* Its last transfer completed (the block's owner or the pool mutex holds it) */
static int blk_idle(pblock *b) {
  if (!b->ev_pending) return 1;
  cudaError_t e = cudaEventQuery(b->ev);
  if (e == cudaErrorNotReady) return 0;
  if (e != cudaSuccess) (void)cudaGetLastError();
  b->ev_pending = 0;
  return 1;
}

static void *raw_alloc(ppool *pp, size_t size) {
  if (pp->test) return aligned_alloc(UNIT, size);
  void *p = NULL;
  if (cudaHostAlloc(&p, size, cudaHostAllocPortable | cudaHostAllocMapped) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return p;
}

static void raw_free(pblock *b) {
  if (b->pool->test) {
    free(b->ptr);
  } else {
    if (b->ev) (void)cudaEventDestroy(b->ev);
    if (cudaFreeHost(b->ptr) != cudaSuccess) (void)cudaGetLastError();
  }
  free(b);
}

static void poll_pending(ppool *pp) {
  for (pblock **bp = &pp->pending; *bp;) {
    pblock *b = *bp;
    if (blk_idle(b)) {
      *bp = b->next;
      b->next = pp->idle;
      pp->idle = b;
      pp->nidle++;
    } else {
      bp = &b->next;
    }
  }
}

static pblock *pp_take(ppool *pp, size_t size) {
  pthread_mutex_lock(&pp->mu);
  if (pp->pending) poll_pending(pp);
  pblock **best = NULL;
  for (pblock **bp = &pp->idle; *bp; bp = &(*bp)->next) {
    size_t s = (*bp)->size;
    if (s >= size && s / 2 <= size && (!best || s < (*best)->size)) best = bp;
  }
  pblock *b = NULL;
  if (best) {
    b = *best;
    *best = b->next;
    b->next = NULL;
    pp->nidle--;
    pp->used += b->size;
  }
  pthread_mutex_unlock(&pp->mu);
  return b;
}

static void pp_free_all(ppool *pp) {
  pthread_mutex_lock(&pp->mu);
  if (pp->pending) poll_pending(pp);
  pblock *list = pp->idle;
  pp->idle = NULL;
  pp->nidle = 0;
  for (pblock *b = list; b; b = b->next) pp->total -= b->size;
  pthread_mutex_unlock(&pp->mu);
  for (pblock *b = list, *bn; b; b = bn) {
    bn = b->next;
    raw_free(b);
  }
}

static pblock *pp_alloc(ppool *pp, size_t n) {
  size_t size = n > SIZE_MAX - UNIT ? 0 : (n + UNIT - 1) & ~(size_t)(UNIT - 1);
  if (!size) return NULL;
  pblock *b = pp_take(pp, size);
  if (b) {
    atomic_store(&b->refs, 1);
    return b;
  }
  void *p = raw_alloc(pp, size);
  if (!p) {   /* give cached blocks back and try once more */
    pp_free_all(pp);
    p = raw_alloc(pp, size);
  }
  if (!p) return NULL;
  b = (pblock *)calloc(1, sizeof *b);
  if (!b) {
    if (pp->test) free(p);
    else if (cudaFreeHost(p) != cudaSuccess) (void)cudaGetLastError();
    return NULL;
  }
  b->ptr = p;
  b->size = size;
  b->pool = pp;
  atomic_store(&b->refs, 1);
  pthread_mutex_lock(&pp->mu);
  pp->used += size;
  pp->total += size;
  pthread_mutex_unlock(&pp->mu);
  return b;
}

/* From __gc: never raises */
static void blk_release(pblock *b) {
  if (!b || atomic_fetch_sub(&b->refs, 1) != 1) return;
  ppool *pp = b->pool;
  pthread_mutex_lock(&pp->mu);
  pp->used -= b->size;
  if (blk_idle(b)) {
    b->next = pp->idle;
    pp->idle = b;
    pp->nidle++;
  } else {
    b->next = pp->pending;
    pp->pending = b;
  }
  pthread_mutex_unlock(&pp->mu);
}

/* ===================================================================== */
/* arrays                                                                */
/* ===================================================================== */

static pinned *topinned(lua_State *L, int idx) {
  return (pinned *)luaL_testudata(L, idx, GA_PINNED_MT);
}

static pinned *checkpinned(lua_State *L, int idx, const char *fname) {
  pinned *h = topinned(L, idx);
  if (!h) ga_error(L, "%s: expected a pinned array, got %s", fname, luaL_typename(L, idx));
  if (h->freed) ga_error(L, "%s: the pinned array was freed", fname);
  return h;
}

/* Lua is about to read or write it: wait for its transfers */
static void host_wait(lua_State *L, pinned *h) {
  pblock *b = h->blk;
  if (!b || !b->ev_pending) return;
  cudaError_t e = cudaEventSynchronize(b->ev);
  b->ev_pending = 0;
  ga_cuda_check(L, e, "pinned array: cudaEventSynchronize");
}

void *ga_pinned_data(lua_State *L, int idx) {
  pinned *h = topinned(L, idx);
  if (!h) return NULL;
  if (h->freed) ga_error(L, "the pinned array was freed");
  return h->data;
}

void ga_pinned_before(lua_State *L, int idx, cudaStream_t s) {
  pinned *h = topinned(L, idx);
  pblock *b = h ? h->blk : NULL;
  /* no shortcut for "recorded on s": a destroyed stream's handle may have
  ** been given to s since; a wait on s's own event orders nothing extra */
  if (!b || !b->ev_pending || blk_idle(b)) return;
  ga_cuda_check(L, cudaStreamWaitEvent(s, b->ev, 0), "pinned array: cudaStreamWaitEvent");
}

void ga_pinned_after(lua_State *L, int idx, cudaStream_t s) {
  pinned *h = topinned(L, idx);
  pblock *b = h ? h->blk : NULL;
  if (!b || b->pool->test) return;
  if (!b->ev && cudaEventCreateWithFlags(&b->ev, cudaEventDisableTiming) != cudaSuccess) {
    b->ev = NULL;
    (void)cudaGetLastError();
    /* no event: make the work finished before anyone looks */
    ga_cuda_check(L, cudaStreamSynchronize(s), "pinned array: cudaStreamSynchronize");
    return;
  }
  ga_cuda_check(L, cudaEventRecord(b->ev, s), "pinned array: cudaEventRecord");
  b->ev_pending = 1;
}

/* A new array in the harmless freed state first, then its block */
static pinned *push_pinned(lua_State *L, ppool *pp, int dtype, int ndim, const int64_t *shape,
                           const char *fname) {
  int64_t size = ga_shape_size(ndim, shape);
  int64_t isz = ga_dtypes[dtype].itemsize;
  if (ga_shape_nbytes(ndim, shape, isz) < 0)
    ga_error(L, "%s: array of shape %s is too large", fname, ga_shape_str(L, ndim, shape));
  pinned *h = (pinned *)lua_newuserdatauv(L, sizeof *h, 1);
  memset(h, 0, sizeof *h);
  h->freed = 1;
  luaL_setmetatable(L, GA_PINNED_MT);
  if (size > 0) {
    h->blk = pp_alloc(pp, (size_t)(size * isz));
    if (!h->blk)
      ga_error(L, "%s: out of pinned host memory (requested %I bytes)", fname, (lua_Integer)(size * isz));
    h->data = (char *)h->blk->ptr;
  }
  h->size = size;
  h->ndim = ndim;
  h->dtype = dtype;
  if (ndim) memcpy(h->shape, shape, sizeof(int64_t) * (size_t)ndim);   /* shape may be NULL */
  h->freed = 0;
  return h;
}

static int l_release(lua_State *L) {
  pinned *h = topinned(L, 1);
  if (!h) return 0;
  pblock *b = h->blk;
  h->blk = NULL;
  h->data = NULL;
  h->freed = 1;
  blk_release(b);
  return 0;
}

static size_t nbytes(const pinned *h) {
  return (size_t)h->size * (size_t)ga_dtypes[h->dtype].itemsize;
}

/* 1-based, negative from the end */
static int64_t norm_index(lua_State *L, lua_Integer k, int64_t n, int axis, const char *fname) {
  int64_t z = k < 0 ? n + k : k - 1;
  if (k == 0 || z < 0 || z >= n)
    ga_error(L, "%s: index %I is out of range for axis %d with size %I", fname, k, axis,
             (lua_Integer)n);
  return z;
}

/* The element address for the index list (a Lua table of ndim integers) */
static char *element_at(lua_State *L, pinned *h, int key, const char *fname) {
  int n = (int)lua_rawlen(L, key);
  if (n != h->ndim) ga_error(L, "%s: %d indices for an array of %d dimensions", fname, n, h->ndim);
  int64_t off = 0;
  for (int d = 0; d < n; d++) {
    lua_rawgeti(L, key, d + 1);
    int ok;
    lua_Integer k = lua_tointegerx(L, -1, &ok);
    lua_pop(L, 1);
    if (!ok) ga_error(L, "%s: index %d is not an integer", fname, d + 1);
    off = off * h->shape[d] + norm_index(L, k, h->shape[d], d + 1, fname);
  }
  return h->data + off * ga_dtypes[h->dtype].itemsize;
}

/* h[k] for an array of 2+ dimensions: the k-th sub-array, sharing memory */
static pinned *push_row(lua_State *L, int idx, pinned *h, int64_t z) {
  idx = lua_absindex(L, idx);
  pinned *v = (pinned *)lua_newuserdatauv(L, sizeof *v, 1);
  memset(v, 0, sizeof *v);
  v->freed = 1;
  luaL_setmetatable(L, GA_PINNED_MT);
  v->ndim = h->ndim - 1;
  v->dtype = h->dtype;
  memcpy(v->shape, h->shape + 1, sizeof(int64_t) * (size_t)v->ndim);
  v->size = ga_shape_size(v->ndim, v->shape);
  v->data = h->data + z * v->size * ga_dtypes[h->dtype].itemsize;
  v->blk = h->blk;
  if (v->blk) atomic_fetch_add(&v->blk->refs, 1);
  v->freed = 0;
  if (lua_getiuservalue(L, idx, 1) == LUA_TNIL) {   /* .base: the array that owns the memory */
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
  }
  lua_setiuservalue(L, -2, 1);
  return v;
}

/* ---- filling from Lua values */

static void fill_value(lua_State *L, pinned *h, int src, const char *fname) {
  ga_value v;
  ga_checkvalue(L, src, h->dtype, &v, fname);
  size_t isz = (size_t)ga_dtypes[h->dtype].itemsize;
  for (int64_t i = 0; i < h->size; i++) memcpy(h->data + (size_t)i * isz, &v, isz);
}

static void fill_nested(lua_State *L, pinned *h, int idx, int d, int64_t *pos, const char *fname) {
  if (d == h->ndim) {
    ga_value v;
    ga_checkvalue(L, idx, h->dtype, &v, fname);
    size_t isz = (size_t)ga_dtypes[h->dtype].itemsize;
    memcpy(h->data + (size_t)*pos * isz, &v, isz);
    (*pos)++;
    return;
  }
  if (!lua_istable(L, idx))
    ga_error(L, "%s: expected a table at depth %d for shape %s, got %s", fname, d + 1,
             ga_shape_str(L, h->ndim, h->shape), luaL_typename(L, idx));
  int64_t n = (int64_t)lua_rawlen(L, idx);
  if (n != h->shape[d])
    ga_error(L, "%s: a table of length %I at depth %d does not match shape %s", fname, (lua_Integer)n,
             d + 1, ga_shape_str(L, h->ndim, h->shape));
  luaL_checkstack(L, 4, "nested table");
  for (int64_t i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    fill_nested(L, h, lua_gettop(L), d + 1, pos, fname);
    lua_pop(L, 1);
  }
}

/* h:set(src): a nested table of h's shape, a number/boolean/typed scalar
** (fill), a byte string of exactly nbytes, another pinned array of the same
** size (cast when the dtype differs) or an ndarray (copied asynchronously) */
static void assign(lua_State *L, int dst, int src, const char *fname) {
  pinned *h = checkpinned(L, dst, fname);
  if (ga_toarray(L, src)) {   /* x:get(h) with the arguments the other way */
    ga_push_methods(L);
    lua_getfield(L, -1, "get");
    lua_pushvalue(L, src);
    lua_pushvalue(L, dst);
    lua_call(L, 2, 0);
    lua_pop(L, 1);
    return;
  }
  host_wait(L, h);
  pinned *o = topinned(L, src);
  if (o) {
    if (o->freed) ga_error(L, "%s: the pinned array was freed", fname);
    if (o->size != h->size)
      ga_error(L, "%s: %I elements given for an array of %I", fname, (lua_Integer)o->size,
               (lua_Integer)h->size);
    host_wait(L, o);
    if (o->dtype == h->dtype) {
      if (nbytes(h)) memmove(h->data, o->data, nbytes(h));   /* no data pointers when empty */
    } else {
      size_t si = (size_t)ga_dtypes[o->dtype].itemsize, di = (size_t)ga_dtypes[h->dtype].itemsize;
      for (int64_t i = 0; i < h->size; i++) {
        ga_value in, out;
        memcpy(&in, o->data + (size_t)i * si, si);
        ga_value_cast(h->dtype, &out, o->dtype, &in);
        memcpy(h->data + (size_t)i * di, &out, di);
      }
    }
    return;
  }
  switch (lua_type(L, src)) {
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, src, &len);
      if (len != nbytes(h))
        ga_error(L, "%s: %I bytes given for an array of %I bytes", fname, (lua_Integer)len,
                 (lua_Integer)nbytes(h));
      if (len) memcpy(h->data, s, len);     /* no data pointer when empty */
      return;
    }
    case LUA_TTABLE:
      if (!(GA_IS_COMPLEX(h->dtype) && h->ndim == 0)) {
        int64_t pos = 0;
        fill_nested(L, h, src, 0, &pos, fname);
        return;
      }
      break;
    default:
      break;
  }
  fill_value(L, h, src, fname);
}

static int l_set(lua_State *L) {
  ga_checkany(L, 2, "set", "the value");
  assign(L, 1, 2, "set");
  lua_settop(L, 1);
  return 1;
}

static int l_fill(lua_State *L) {
  pinned *h = checkpinned(L, 1, "fill");
  host_wait(L, h);
  fill_value(L, h, 2, "fill");
  lua_settop(L, 1);
  return 1;
}

/* ---- reading into Lua */

static int l_totable(lua_State *L) {
  pinned *h = checkpinned(L, 1, "totable");
  host_wait(L, h);
  ga_push_nested(L, h->data, h->dtype, h->ndim, h->shape, "totable");
  return 1;
}

static int l_tobytes(lua_State *L) {
  pinned *h = checkpinned(L, 1, "tobytes");
  host_wait(L, h);
  lua_pushlstring(L, h->data ? h->data : "", nbytes(h));
  return 1;
}

static int l_len(lua_State *L) {
  pinned *h = checkpinned(L, 1, "__len");
  if (h->ndim == 0) ga_error(L, "# of a 0-d array");
  lua_pushinteger(L, h->shape[0]);
  return 1;
}

static int l_tostring(lua_State *L) {
  pinned *h = topinned(L, 1);
  if (!h) return ga_error(L, "__tostring: expected a pinned array");
  lua_pushfstring(L, "gpuarray.PinnedArray(%s, %s%s)", ga_shape_str(L, h->ndim, h->shape),
                  ga_dtypes[h->dtype].name, h->freed ? ", freed" : "");
  return 1;
}

static int push_field(lua_State *L, pinned *h, const char *k) {
  int64_t isz = ga_dtypes[h->dtype].itemsize;
  if (strcmp(k, "shape") == 0) ga_pushshape(L, h->ndim, h->shape);
  else if (strcmp(k, "ndim") == 0) lua_pushinteger(L, h->ndim);
  else if (strcmp(k, "size") == 0) lua_pushinteger(L, h->size);
  else if (strcmp(k, "dtype") == 0) lua_pushstring(L, ga_dtypes[h->dtype].name);
  else if (strcmp(k, "itemsize") == 0) lua_pushinteger(L, isz);
  else if (strcmp(k, "nbytes") == 0) lua_pushinteger(L, (lua_Integer)nbytes(h));
  else if (strcmp(k, "data_ptr") == 0) lua_pushinteger(L, (lua_Integer)(uintptr_t)h->data);
  else if (strcmp(k, "base") == 0) lua_getiuservalue(L, 1, 1);
  else if (strcmp(k, "strides") == 0) {
    int64_t st[GA_MAXDIM];
    ga_c_strides(h->ndim, h->shape, isz, st);
    ga_pushshape(L, h->ndim, st);
  } else return 0;
  return 1;
}

/* Key 2 as a 0-based position on the first axis (an integer key) */
static int64_t row_key(lua_State *L, const pinned *h) {
  int ok;
  lua_Integer k = lua_tointegerx(L, 2, &ok);
  if (!ok) ga_error(L, "index: expected an integer or a table of integers, got %s", luaL_typename(L, 2));
  if (h->ndim == 0) ga_error(L, "index: a 0-d array has no elements to index");
  return norm_index(L, k, h->shape[0], 1, "index");
}

/* __index: methods, fields, then h[k] / h[{i, j}] (upvalue 2: methods) */
static int l_index(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
    pinned *h = topinned(L, 1);
    const char *key = ga_fieldkey(L, 2);
    if (h && key && push_field(L, h, key)) return 1;
    return ga_error(L, "pinned array has no field or method '%s'", lua_tostring(L, 2));
  }
  pinned *h = checkpinned(L, 1, "index");
  if (lua_istable(L, 2)) {
    char *p = element_at(L, h, 2, "index");
    host_wait(L, h);
    ga_pushvalue(L, h->dtype, p);
    return 1;
  }
  int64_t z = row_key(L, h);
  if (h->ndim > 1) {
    push_row(L, 1, h, z);
    return 1;
  }
  host_wait(L, h);
  ga_pushvalue(L, h->dtype, h->data + z * ga_dtypes[h->dtype].itemsize);
  return 1;
}

static int l_newindex(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return ga_error(L, "pinned array fields are read-only ('%s')", lua_tostring(L, 2));
  pinned *h = checkpinned(L, 1, "index");
  ga_value v;
  if (lua_istable(L, 2)) {
    char *p = element_at(L, h, 2, "index");
    ga_checkvalue(L, 3, h->dtype, &v, "index");
    host_wait(L, h);
    memcpy(p, &v, (size_t)ga_dtypes[h->dtype].itemsize);
    return 0;
  }
  int64_t z = row_key(L, h);
  if (h->ndim > 1) {
    push_row(L, 1, h, z);
    assign(L, lua_gettop(L), 3, "index");
    return 0;
  }
  ga_checkvalue(L, 3, h->dtype, &v, "index");
  host_wait(L, h);
  memcpy(h->data + z * ga_dtypes[h->dtype].itemsize, &v, (size_t)ga_dtypes[h->dtype].itemsize);
  return 0;
}

/* ===================================================================== */
/* transfers                                                             */
/* ===================================================================== */

/* Work on s comes after the work queued so far on from */
static void order_after(lua_State *L, cudaStream_t from, cudaStream_t s) {
  if (from == s) return;
  cudaEvent_t e;
  ga_cuda_check(L, cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  cudaError_t err = cudaEventRecord(e, from);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(s, e, 0);
  cudaEventDestroy(e);   /* released once the wait is done with it */
  ga_cuda_check(L, err, "cudaStreamWaitEvent");
}

/* x:get([out][, {stream=}]) -> out: device -> pinned, queued on the stream
** (the current one by default) after the work queued so far on the current
** stream. out must hold as many elements of the same dtype; a new pinned
** array of x's shape when omitted. */
static int l_get(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *a = ga_checkarray(L, 1);
  int opts = lua_istable(L, 3) ? 3 : lua_istable(L, 2) ? 2 : 0;
  int out = lua_type(L, 2) == LUA_TUSERDATA ? 2 : 0;
  if (!out && !lua_isnoneornil(L, 2) && opts != 2)
    ga_error(L, "get: expected a pinned array, got %s", luaL_typename(L, 2));
  ga_check_device(L, ctx, a, "get");
  /* its event, recorded into a capture, could never be waited for */
  ga_capture_refuse(L, ctx, "get", "pinned transfers cannot be captured");
  cudaStream_t s = opts ? ga_opt_stream(L, ctx, opts, "get") : ctx->stream;
  ga_device_enter(L, ctx);
  lua_settop(L, 3);
  if (out) {
    pinned *h = checkpinned(L, 2, "get");
    if (h->dtype != a->dtype || h->size != a->size)
      ga_error(L, "get: out is %s %s, the array %s %s", ga_shape_str(L, h->ndim, h->shape),
               ga_dtypes[h->dtype].name, ga_shape_str(L, a->ndim, a->shape), ga_dtypes[a->dtype].name);
  } else {
    push_pinned(L, &default_pool, a->dtype, a->ndim, a->shape, "get");
    lua_replace(L, 2);
  }
  pinned *h = topinned(L, 2);
  if (h->size == 0) {
    lua_settop(L, 2);
    return 1;
  }
  ga_array *c = ga_contiguous(L, ctx, 1, -1, 0);   /* on the current stream */
  order_after(L, ctx->stream, s);
  ga_pinned_before(L, 2, s);
  ga_cuda_check(L, cudaMemcpyAsync(h->data, c->data, nbytes(h), cudaMemcpyDeviceToHost, s),
                "get: cudaMemcpyAsync");
  ga_pinned_after(L, 2, s);
  lua_settop(L, 2);
  return 1;
}

int ga_is_pinned(lua_State *L, int idx) { return topinned(L, idx) != NULL; }

/* x:set(h[, {stream=}]) with a pinned array h (transfer.c's x:set comes
** here for one): pinned -> device, queued and not waited for */
int ga_pinned_set(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_array *x = ga_checkarray(L, 1);
  pinned *h = checkpinned(L, 2, "set");
  ga_check_device(L, ctx, x, "set");
  ga_capture_refuse(L, ctx, "set", "pinned transfers cannot be captured");
  cudaStream_t s = ga_opt_stream(L, ctx, 3, "set");
  ga_device_enter(L, ctx);
  lua_settop(L, 3);
  if ((x->flags & GA_F_C) && x->dtype == h->dtype && x->size == h->size) {
    if (h->size) {
      order_after(L, ctx->stream, s);   /* earlier work on x finishes before it is overwritten */
      ga_pinned_before(L, 2, s);
      ga_cuda_check(L, cudaMemcpyAsync(x->data, h->data, nbytes(h), cudaMemcpyHostToDevice, s),
                    "set: cudaMemcpyAsync");
      ga_pinned_after(L, 2, s);
    }
  } else {
    /* through a device copy of h on the current stream: cast, broadcast, or
    ** the same elements in x's shape */
    int same = h->size == x->size;
    ga_array *t = ga_new_array(L, ctx, h->dtype, same ? x->ndim : h->ndim, same ? x->shape : h->shape);
    if (h->size) {
      ga_pinned_before(L, 2, ctx->stream);
      ga_cuda_check(L, cudaMemcpyAsync(t->data, h->data, nbytes(h), cudaMemcpyHostToDevice, ctx->stream),
                    "set: cudaMemcpyAsync");
      ga_pinned_after(L, 2, ctx->stream);
    }
    ga_copy_into(L, ctx, x, t, "set");
    order_after(L, ctx->stream, s);
  }
  lua_settop(L, 1);
  return 1;
}

/* ===================================================================== */
/* module functions                                                      */
/* ===================================================================== */

static int new_pinned(lua_State *L, ppool *pp, const char *fname) {
  ga_state *ctx = ga_ctx(L);
  int64_t shape[GA_MAXDIM];
  int nd = ga_checkshape(L, 1, shape, fname);
  int dtype = ga_checkdtype(L, 2, ctx->default_dtype, fname);
  if (!pp->test) ga_device_enter(L, ctx);
  push_pinned(L, pp, dtype, nd, shape, fname);
  return 1;
}

/* ga.pinned_empty(shape[, dtype]) */
static int l_pinned_empty(lua_State *L) { return new_pinned(L, &default_pool, "pinned_empty"); }
/* test only: the same array type over malloc'ed memory, no GPU needed */
static int l_pinned_test_empty(lua_State *L) { return new_pinned(L, &test_pool, "_pinned_test_empty"); }

/* The Lua object of a pinned pool (the pools themselves are process-wide) */
typedef struct {
  ga_object obj;
  ppool *pp;
} ppool_obj;

static const ga_objtype ppool_type = {POOL_MT, "a pinned memory pool", "pinned memory pool"};

static ppool *checkpool(lua_State *L, const char *fname) {
  return ((ppool_obj *)ga_object_check(L, 1, &ppool_type, fname))->pp;
}

static int pool_stat(lua_State *L, int which, const char *fname) {
  ppool *pp = checkpool(L, fname);
  pthread_mutex_lock(&pp->mu);
  if (pp->pending) poll_pending(pp);
  size_t v = which == 0 ? pp->used : which == 1 ? pp->total : which == 2 ? pp->total - pp->used : pp->nidle;
  pthread_mutex_unlock(&pp->mu);
  lua_pushinteger(L, (lua_Integer)v);
  return 1;
}

static int l_pool_used(lua_State *L) { return pool_stat(L, 0, "used_bytes"); }
static int l_pool_total(lua_State *L) { return pool_stat(L, 1, "total_bytes"); }
static int l_pool_free(lua_State *L) { return pool_stat(L, 2, "free_bytes"); }
static int l_pool_nfree(lua_State *L) { return pool_stat(L, 3, "n_free_blocks"); }

static int l_pool_free_all(lua_State *L) {
  pp_free_all(checkpool(L, "free_all_blocks"));
  return 0;
}

static int l_pool_tostring(lua_State *L) {
  ppool *pp = checkpool(L, "__tostring");
  lua_pushstring(L, pp->test ? "gpuarray.PinnedMemoryPool(host test)" : "gpuarray.PinnedMemoryPool");
  return 1;
}

/* One Lua object per pool and Lua state, kept in the registry under the
** pool's address: get_default_pinned_memory_pool() == itself, as CuPy's */
static int push_pool(lua_State *L, ppool *pp) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, pp) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  ppool_obj *u = (ppool_obj *)ga_object_new(L, &ppool_type, sizeof *u, 0);
  u->pp = pp;
  u->obj.alive = 1;
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, pp);
  return 1;
}

static int l_get_default_pinned_memory_pool(lua_State *L) { return push_pool(L, &default_pool); }
static int l_pinned_test_pool(lua_State *L) { return push_pool(L, &test_pool); }

static const luaL_Reg pinned_methods[] = {
  {"set", l_set},
  {"fill", l_fill},
  {"totable", l_totable},
  {"tolist", l_totable},
  {"tobytes", l_tobytes},
  {"free", l_release},
  {NULL, NULL}
};

static const ga_arraylike pinned_type = {l_release, l_index, l_newindex, l_len, l_tostring};

static const luaL_Reg pool_methods[] = {
  {"used_bytes", l_pool_used},
  {"total_bytes", l_pool_total},
  {"free_bytes", l_pool_free},
  {"n_free_blocks", l_pool_nfree},
  {"free_all_blocks", l_pool_free_all},
  {NULL, NULL}
};

static const luaL_Reg array_methods[] = {
  {"get", l_get},
  {NULL, NULL}
};

static const luaL_Reg pinned_funcs[] = {
  {"pinned_empty", l_pinned_empty},
  {"get_default_pinned_memory_pool", l_get_default_pinned_memory_pool},
  {NULL, NULL}
};

static const luaL_Reg pinned_funcs_test[] = {
  {"pinned_empty", l_pinned_test_empty},
  {"pinned_pool", l_pinned_test_pool},
  {NULL, NULL}
};

void ga_open_pinned(lua_State *L) {
  lua_newtable(L);
  ga_setfuncs(L, pinned_methods);
  ga_new_arraylike(L, GA_PINNED_MT, &pinned_type);

  if (luaL_newmetatable(L, POOL_MT)) {
    lua_pushcfunction(L, l_pool_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_newtable(L);
    ga_setfuncs(L, pool_methods);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);

  ga_push_methods(L);
  ga_setfuncs(L, array_methods);     /* x:get */
  lua_pop(L, 1);
  ga_setfuncs(L, pinned_funcs);
  ga_setprivate(L, GA_TEST, pinned_funcs_test);
}
