/*
** pinned.h: page-locked host arrays (pinned.c): ga.pinned_empty, the pinned
** memory pool, and asynchronous x:get(h) / x:set(h).
*/
#ifndef GA_PINNED_H
#define GA_PINNED_H

#include "ga.h"

#define GA_PINNED_MT "gpuarray.PinnedArray"

/* The host address of the pinned array at idx (mapped: kernels may use it),
** NULL when the value is no pinned array; raises for a freed one. */
void *ga_pinned_data(lua_State *L, int idx);
/* Around work queued on s that reads or writes the pinned array at idx:
** before, s waits for earlier transfers of it on other streams; after, Lua
** reads and writes of it wait for that work, and its memory is reused only
** once the work is done. */
void ga_pinned_before(lua_State *L, int idx, cudaStream_t s);
void ga_pinned_after(lua_State *L, int idx, cudaStream_t s);

void ga_open_pinned(lua_State *L);   /* after ga_open_transfer: wraps x:set */

#endif
