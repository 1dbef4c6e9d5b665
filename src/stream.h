/*
** stream.h: ga.Stream and ga.Event (stream.c), and what other files need
** from them: reading a `stream` option, the current stream per device.
*/
#ifndef GA_STREAM_H
#define GA_STREAM_H

#include "ga.h"

#define GA_STREAM_MT "gpuarray.Stream"
#define GA_EVENT_MT "gpuarray.Event"

typedef struct {
  cudaStream_t s;       /* NULL: the legacy default stream (Stream.null) */
  int device;           /* -1 for Stream.null: it exists on every device */
  int non_blocking;
  int priority;
  int owned;            /* created here: destroyed by destroy/__gc/__close */
  int alive;
} ga_stream;

typedef struct {
  cudaEvent_t e;
  int device;
  int timing, blocking;
  int recorded;
} ga_event;

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

/* Push the current Stream object (Stream.null when none was chosen) */
void ga_push_current_stream(lua_State *L, ga_state *ctx);

/* Make device current for this state (device.c's Device:use): the current
** stream is remembered per device, so switching back restores it. */
void ga_stream_switch_device(lua_State *L, ga_state *ctx, int device);

void ga_open_stream(lua_State *L);

#endif
