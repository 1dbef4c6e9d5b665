/*
** pool.h: what pool.c offers beyond ga.h: pool objects (ga.MemoryPool,
** ga.MemoryAsyncPool, the host test pool), the hooks that keep the pool safe
** across streams, and test hooks. poolobj.c is the Lua side.
*/
#ifndef GA_POOL_H
#define GA_POOL_H

#include "ga.h"

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

/* ---- pools that Lua objects own --------------------------------------- */
ga_pool *ga_pool_new_device(int device);    /* ga.MemoryPool(), one per device */
ga_pool *ga_pool_new_async(int device);     /* ga.MemoryAsyncPool() */
ga_pool *ga_pool_new_host(void);            /* core._host_pool() */
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
void ga_pool_test_bump(ga_pool *p);              /* a stream switch, for this pool only */
/* chunks waiting for events; cross-stream waits issued so far */
void ga_pool_test_counts(ga_pool *p, size_t *pending, long *waits);

#endif
