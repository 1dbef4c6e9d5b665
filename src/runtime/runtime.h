/*
** runtime.h: CUDA at run time. Lazy initialisation and devices, driver
** entry points and launches, streams and events, the memory pools.
*/
#ifndef GA_RUNTIME_H
#define GA_RUNTIME_H

#include "core/core.h"

/* ===================================================================== */
/* cuda.c: lazy initialisation and devices                               */
/* ===================================================================== */

int ga_device_count(void);                 /* 0 when no driver/device (never raises) */
/* Make sure CUDA is initialised and ctx->device is current on this thread;
** raises a clear error when there is no device. Cheap after the first call. */
void ga_device_enter(lua_State *L, ga_state *ctx);
int ga_device_arch(int device);            /* major*10+minor, e.g. 90 */
/* Cached properties used on hot paths */
typedef struct {
  int sm_count;
  int max_threads_per_block;
  int max_grid[3];
  int max_block[3];
  size_t shared_per_block;
  size_t shared_per_block_optin;
  int warp_size;
  int arch;
} ga_devinfo;
const ga_devinfo *ga_device_info(lua_State *L, int device);

/* ===================================================================== */
/* pool.c: the device memory pool                                        */
/* ===================================================================== */

/* A refcounted device allocation. Arrays and views hold references; the
** memory goes back to its pool when the last one is released. */
typedef struct ga_block ga_block;
struct ga_block {
  void *ptr;
  size_t size;            /* bytes usable (rounded) */
  atomic_int refs;
  int device;
  cudaStream_t stream;    /* the stream it was allocated on */
  ga_pool *pool;          /* owner, NULL for wrapped host-owned memory */
  /* wrapped memory (ga_wrap): called when the last reference goes */
  void (*release)(void *ctx, void *ptr);
  void *release_ctx;
  void *priv;             /* the pool's bookkeeping */
  /* lazy evaluation (elementwise/lazy.h): pending arrays of this block's
  ** state that read it, and that will write it. A write into the block
  ** evaluates the readers first; any use of it, the writers. */
  int lz_readers, lz_stores;
};

/* The default pool of a device (process-wide, created on first use) */
ga_pool *ga_pool_default(int device);
/* Allocate nbytes on stream s. On failure: empties cached blocks, asks the
** Lua collector for a full cycle, retries, then raises
** "gpuarray: out of device memory (requested N bytes, pool holds M)".
** Steps the collector in proportion to the bytes handed out. */
ga_block *ga_alloc(lua_State *L, ga_state *ctx, size_t nbytes);
/* After queuing work (ga_launch, the library calls): the collector's step
** for the device bytes ga_alloc counted, if one is due (poolobj.c says why
** it waits until here); under GPUARRAY_GC_STRESS, a full collection */
extern _Thread_local ga_state *ga_gc_due;
void ga_gc_settle_now(lua_State *L);
static inline void ga_gc_settle(lua_State *L) {
  if (ga_gc_due || ga_gc_stress()) ga_gc_settle_now(L);
}
void ga_block_retain(ga_block *b);
void ga_block_release(ga_block *b);        /* never raises */

typedef struct {
  size_t used_bytes, total_bytes, free_bytes, n_free_blocks, limit;
} ga_pool_stats;
void ga_pool_get_stats(ga_pool *p, ga_pool_stats *st);
void ga_pool_free_all(ga_pool *p);
void ga_pool_set_limit(ga_pool *p, size_t limit);   /* 0: no limit */
/* Plain allocation without the Lua side (NULL on failure) */
ga_block *ga_pool_try_alloc(ga_pool *p, size_t nbytes, cudaStream_t s);
/* A cached chunk only, never a new segment (NULL: the pool would grow;
** always NULL for an async pool, which caches nothing of its own) */
ga_block *ga_pool_try_cached(ga_pool *p, size_t nbytes, cudaStream_t s);
/* The same for memory a CUDA graph will own: only chunks free for every
** stream (or a new segment), since its replays may run on any stream.
** NULL for an async pool (graph.c allocates from a device pool). */
ga_block *ga_pool_try_alloc_graph(ga_pool *p, size_t nbytes, cudaStream_t s);


static inline dim3 dim3_make(unsigned x, unsigned y, unsigned z) {
  dim3 d;
  d.x = x; d.y = y; d.z = z;
  return d;
}

/* launch.c: a driver function through the runtime's entry points (the
** module links no libcuda); NULL when unavailable */
void *ga_driver_entry(const char *name);
/* the driver's cuLaunchKernel through those entry points (NULL / 0 when
** unavailable) */
CUfunction ga_driver_function(cudaKernel_t k);
int ga_driver_launch(CUfunction fn, dim3 grid, dim3 block, void **args, size_t shmem, cudaStream_t s);
/* cudaLaunchKernel, through fault injection: the fallback of every launch
** whose driver path is missing or failed */
cudaError_t ga_runtime_launch(const void *k, dim3 grid, dim3 block, void **args, size_t shmem,
                              cudaStream_t s);

/* The grid of a grid-stride kernel: enough blocks of threads for work
** threads, at most per_sm blocks per SM of device, at least one */
unsigned ga_grid_for(lua_State *L, int device, uint64_t work, int threads, int per_sm);

/* A launch with its error checked ("gpuarray: <what>: launch failed: ...") */
void ga_launch(lua_State *L, const char *what, cudaKernel_t k, dim3 grid, dim3 block,
               void **args, size_t shmem, cudaStream_t stream);


/* ===================================================================== */
/* stream.c: ga.Stream, ga.Event, the current stream                     */
/* ===================================================================== */

#define GA_STREAM_MT "gpuarray.Stream"
#define GA_EVENT_MT "gpuarray.Event"

typedef struct {
  ga_object obj;        /* obj.alive: usable (Stream.null always is) */
  cudaStream_t s;       /* NULL: the legacy default stream (Stream.null) */
  int device;           /* -1 for Stream.null: it exists on every device */
  int non_blocking;
  int priority;
  int owned;            /* created here: destroyed by destroy/__gc/__close */
  int adopted;          /* a host's stream, this object one of its users (ga_push_stream) */
} ga_stream;

typedef struct {
  ga_object obj;        /* obj.alive: the CUDA event exists */
  cudaEvent_t e;
  int device;
  int timing, blocking;
  int recorded;
} ga_event;

extern const ga_objtype ga_stream_type, ga_event_type;

ga_stream *ga_tostream(lua_State *L, int idx);   /* NULL when not a Stream */
ga_event *ga_toevent(lua_State *L, int idx);     /* NULL when not an Event */

/* The CUDA stream of the Stream object at idx; raises for anything else, a
** destroyed stream or one of another device than ctx->device */
cudaStream_t ga_checkstream(lua_State *L, ga_state *ctx, int idx, const char *fname);

/* The `stream` field of the options table at opts_idx (none, nil or no such
** field: ctx->stream). A stream other than the current one is reported to
** the pool (ga_pool_streams_changed), so memory used there is released
** safely: call it before queuing the work. */
cudaStream_t ga_opt_stream(lua_State *L, ga_state *ctx, int opts_idx, const char *fname);

/* The Stream object at idx (checked as ga_checkstream does) becomes the
** current stream of ctx: s:use() for the C API's ga_set_stream */
void ga_stream_use(lua_State *L, ga_state *ctx, int idx, const char *fname);

/* A Stream object over a host's stream (st->adopted) lets it go: one user
** fewer, and the last one settles and untags it in the pools
** (ga_pool_stream_give_back). dead: the object is unusable from now on (the
** host may destroy the stream). Idempotent; __gc calls it too. */
void ga_stream_give_back(ga_stream *st, int dead);

/* Push the current Stream object (Stream.null when none was chosen) */
void ga_push_current_stream(lua_State *L, ga_state *ctx);

/* Make device current for this state (device.c's Device:use): the current
** stream is remembered per device, so switching back restores it. */
void ga_stream_switch_device(lua_State *L, ga_state *ctx, int device);

void ga_open_stream(lua_State *L);

/* ===================================================================== */
/* graph.c: stream capture and ga.Graph                                  */
/* ===================================================================== */

#define GA_GRAPH_MT "gpuarray.Graph"

/* ga_alloc inside a capture (ctx->capture): the graph being captured keeps
** a reference to b until it is destroyed. Returns b; without host memory
** releases b and raises. */
ga_block *ga_capture_keep(lua_State *L, ga_state *ctx, ga_block *b);
/* Call before anything that waits for stream s (NULL: the legacy stream),
** with the device current: inside a capture it ends the capture (the
** stream works again) and raises "<fname>: cannot synchronize while stream
** capture is active". Costs a cudaStreamIsCapturing outside captures. */
void ga_capture_guard(lua_State *L, ga_state *ctx, cudaStream_t s, const char *fname);
/* The same before a wait for the whole device */
void ga_capture_guard_device(lua_State *L, ga_state *ctx, const char *fname);
/* Inside a capture, raise "<fname>: <what> while stream capture is active"
** (calls that cannot be captured: a copy from pageable host memory, which a
** replay would read after it was freed; pinned transfers) */
void ga_capture_refuse(lua_State *L, ga_state *ctx, const char *fname, const char *what);
/* stream.c: s is being destroyed; a capture of it is abandoned */
void ga_capture_stream_gone(lua_State *L, ga_state *ctx, cudaStream_t s);
/* Stream methods begin_capture, end_capture, is_capturing */
int ga_l_begin_capture(lua_State *L);
int ga_l_end_capture(lua_State *L);
int ga_l_is_capturing(lua_State *L);
void ga_open_graph(lua_State *L);

/* ===================================================================== */
/* device.c: ga.Device                                                   */
/* ===================================================================== */

#define GA_DEVICE_MT "gpuarray.Device"

/* The device id of a Device object or an integer at idx; raises for an id
** that does not exist */
int ga_checkdevice(lua_State *L, int idx, const char *fname);

void ga_open_device(lua_State *L);

/* ===================================================================== */
/* pool objects and the pool's stream hooks (pool.c, poolobj.c)          */
/* ===================================================================== */

#define GA_POOL_MT "gpuarray.MemoryPool"

/* The pool behind the Lua pool object at idx for the current device (made
** on demand for ga.MemoryPool / ga.MemoryAsyncPool objects); NULL when the
** value is no pool object. */
ga_pool *ga_topool(lua_State *L, int idx);

int ga_pool_device(const ga_pool *p);
int ga_pool_is_async(const ga_pool *p);

/* ---- streams (stream.c calls these) -----------------------------------
** A chunk released with no stream change anywhere since it was handed out
** goes straight back to its stream's free list (the common case costs one
** compare). Otherwise it may have been used on other streams: the pool
** records an event on every live stream of the device and keeps the chunk
** out of the free lists until they complete. */

/* A lua_State's current stream changed, or an operation was queued on a
** stream other than the current one (an explicit `stream=` option). */
void ga_pool_streams_changed(void);
/* A stream was created / is about to be destroyed (before
** cudaStreamDestroy: its queued work is fenced with an event so that its
** chunks are reused only after that work passed them). */
void ga_pool_stream_created(int device, cudaStream_t s);
void ga_pool_stream_destroyed(int device, cudaStream_t s);
/* A host's stream (ga_push_stream, ga_set_stream) gets one more user, or
** gives one back: when the last user gives it back, it is settled and
** untagged as a destroyed one is (an event recorded on it now: it is still
** alive), so that the host may destroy it afterwards. forget: the same at
** once, whatever the users (ga_forget_stream) */
void ga_pool_stream_adopt(int device, cudaStream_t s);
void ga_pool_stream_give_back(int device, cudaStream_t s);
void ga_pool_stream_forget(cudaStream_t s);

/* ---- stream capture (graph.c calls these; pool_order.c keeps the list) --
** While a stream of a device is being captured, the pools of that device
** record no event and wait for nothing: releases that need a fence are
** parked until the capture ends, and no chunk is reused across a capturing
** stream. begin returns 0 when the list is full. */
int ga_pool_capture_begin(int device, cudaStream_t s, int blocking);
void ga_pool_capture_end(int device, cudaStream_t s);
int ga_pool_capturing(int device);                        /* cheap: an atomic */
int ga_pool_stream_capturing(int device, cudaStream_t s); /* NULL: legacy, blocked by a blocking capture */

/* ---- pools that Lua objects own --------------------------------------- */
ga_pool *ga_pool_new_device(int device);    /* ga.MemoryPool(), one per device */
ga_pool *ga_pool_new_async(int device);     /* ga.MemoryAsyncPool() */
ga_pool *ga_pool_new_host(void);            /* core._test.host_pool() */
/* The owning object is gone: the pool is destroyed as soon as no block of it
** is in use (blocks keep their pool alive). A host test pool goes at once. */
void ga_pool_release_owner(ga_pool *p);

/* ---- host test pool hooks (fake streams 0..63, fake events) ------------ */
#define GA_POOL_TEST_STREAMS 64
void ga_pool_test_work(ga_pool *p, int sid);     /* queue one unit of work on sid */
/* sid's first upto units of work done (upto < 0: all of it) */
void ga_pool_test_finish(ga_pool *p, int sid, long upto);
void ga_pool_test_live(ga_pool *p, int sid, int live);
void ga_pool_test_retire(ga_pool *p, int sid);   /* stream sid destroyed */
/* sid is a host's stream: one more user (ga_push_stream), one fewer
** (returns 1 when that was the last: sid was settled and untagged, 0 when
** users remain, -1 when it was not listed) */
void ga_pool_test_adopt(ga_pool *p, int sid);
int ga_pool_test_give_back(ga_pool *p, int sid);
void ga_pool_test_bump(ga_pool *p);              /* a stream switch, for this pool only */
void ga_pool_test_capture(ga_pool *p, int sid);  /* sid is being captured (< 0: none) */
/* chunks waiting for events; cross-stream waits issued so far */
void ga_pool_test_counts(ga_pool *p, size_t *pending, long *waits);

void ga_open_pool(lua_State *L);
void ga_open_cuda(lua_State *L);

#endif
