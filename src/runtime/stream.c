/*
** stream.c: ga.Stream, ga.Event, the current stream of a lua_State.
**
** The current stream is ctx->stream (NULL: the legacy default stream) and
** ctx->stream_ref, a registry reference that keeps its Stream object alive
** while it is current. It is remembered per device (a registry table), so
** Device:use() switching back finds the stream it left. Every change of
** the current stream is reported to the pool (ga_pool_streams_changed):
** memory allocated before it may be used on more than one stream.
**
** Life cycle (liolib.c's pattern): the userdata is made in a harmless state
** with its metatable before CUDA creates anything; destroy(), __close and
** __gc are one idempotent function; finalizers never raise. Stream.null
** and streams we did not create are never destroyed: a host's stream is
** given back instead (ga_stream_give_back), when its object is collected or
** the host sets another stream.
*/
#include <string.h>

#include "runtime/runtime.h"

#define SCOPE_MT "gpuarray.StreamScope"

static const char null_key = 'n';    /* registry: Stream.null of this state */
static const char bydev_key = 'd';   /* registry: device+1 -> its current Stream */

const ga_objtype ga_stream_type = {GA_STREAM_MT, "a Stream", "stream"};
const ga_objtype ga_event_type = {GA_EVENT_MT, "an Event", "event"};

ga_stream *ga_tostream(lua_State *L, int idx) { return (ga_stream *)ga_object_test(L, idx, &ga_stream_type); }
ga_event *ga_toevent(lua_State *L, int idx) { return (ga_event *)ga_object_test(L, idx, &ga_event_type); }

static ga_stream *checkstreamobj(lua_State *L, int idx, const char *fname) {
  return (ga_stream *)ga_object_check(L, idx, &ga_stream_type, fname);
}

static ga_event *checkevent(lua_State *L, int idx, const char *fname) {
  return (ga_event *)ga_object_check(L, idx, &ga_event_type, fname);
}

cudaStream_t ga_checkstream(lua_State *L, ga_state *ctx, int idx, const char *fname) {
  ga_stream *st = checkstreamobj(L, idx, fname);
  if (st->s && st->device != ctx->device)
    ga_error(L, "%s: the stream is on device %d, the current device is %d", fname, st->device,
             ctx->device);
  return st->s;
}

cudaStream_t ga_opt_stream(lua_State *L, ga_state *ctx, int opts_idx, const char *fname) {
  if (lua_type(L, opts_idx) != LUA_TTABLE) return ctx->stream;
  if (lua_getfield(L, opts_idx, "stream") == LUA_TNIL) {
    lua_pop(L, 1);
    return ctx->stream;
  }
  cudaStream_t s = ga_checkstream(L, ctx, -1, fname);
  lua_pop(L, 1);
  if (s != ctx->stream) ga_pool_streams_changed();
  return s;
}

static void push_null(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &null_key);
}

void ga_push_current_stream(lua_State *L, ga_state *ctx) {
  if (ctx->stream_ref != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->stream_ref);
  else push_null(L);
}

/* The Stream object at idx (0 or a non-stream: the null stream) becomes
** current; the caller has checked it is alive and on this device */
static void set_current(lua_State *L, ga_state *ctx, int idx) {
  ga_stream *st = idx ? ga_tostream(L, idx) : NULL;
  cudaStream_t s = st && st->obj.alive ? st->s : NULL;
  int ref = LUA_NOREF;
  if (s) {
    lua_pushvalue(L, idx);
    ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  if (ctx->stream_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, ctx->stream_ref);
  if (s != ctx->stream) ga_pool_streams_changed();
  ctx->stream = s;
  ctx->stream_ref = ref;
}

/* For the C API (interop/capi.c, ga_set_stream): s:use() without the result */
void ga_stream_use(lua_State *L, ga_state *ctx, int idx, const char *fname) {
  idx = lua_absindex(L, idx);
  ga_checkstream(L, ctx, idx, fname);
  set_current(L, ctx, idx);
}

static void push_bydev(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &bydev_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &bydev_key);
  }
}

void ga_stream_switch_device(lua_State *L, ga_state *ctx, int device) {
  if (device == ctx->device) return;
  push_bydev(L);
  int t = lua_gettop(L);
  if (ctx->stream_ref != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->stream_ref);
  else lua_pushnil(L);
  lua_rawseti(L, t, ctx->device + 1);
  ctx->device = device;
  lua_rawgeti(L, t, device + 1);
  ga_stream *st = ga_tostream(L, -1);
  set_current(L, ctx, st && st->obj.alive ? lua_gettop(L) : 0);
  lua_pushnil(L);
  lua_rawseti(L, t, device + 1);
  lua_settop(L, t - 1);
}

/* ===================================================================== */
/* streams                                                               */
/* ===================================================================== */

/* Idempotent; with L (not from __gc) a current stream first stops being
** current. From __gc it cannot be current: the registry references it. */
static void stream_destroy(lua_State *L, ga_stream *st) {
  if (!st->owned || !st->obj.alive) return;
  if (L) {
    ga_state *ctx = ga_state_get(L);
    ga_capture_stream_gone(L, ctx, st->s);   /* graph.c: a capture of it is abandoned */
    if (ctx->stream == st->s) set_current(L, ctx, 0);
  }
  st->obj.alive = 0;
  ga_pool_stream_destroyed(st->device, st->s);   /* fences its queued work */
  if (cudaStreamDestroy(st->s) != cudaSuccess) (void)cudaGetLastError();
  st->s = NULL;
}

void ga_stream_give_back(ga_stream *st, int dead) {
  if (dead) st->obj.alive = 0;
  if (!st->adopted) return;
  st->adopted = 0;
  ga_pool_stream_give_back(st->device, st->s);
}

static int l_stream_gc(lua_State *L) {
  ga_stream *st = ga_tostream(L, 1);
  if (st) {
    stream_destroy(NULL, st);
    ga_stream_give_back(st, 1);   /* a host's stream: this object no longer uses it */
  }
  return 0;
}

static int l_stream_destroy(lua_State *L) {
  ga_stream *st = ga_tostream(L, 1);
  if (!st) ga_object_check(L, 1, &ga_stream_type, "destroy");   /* raises */
  stream_destroy(L, st);
  return 0;
}

/* ga.Stream([{non_blocking=, priority=}]) (called through the Stream table) */
static int l_stream_new(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int non_blocking = 0, priority = 0;
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "non_blocking");
    non_blocking = lua_toboolean(L, -1);
    if (lua_getfield(L, 2, "priority") != LUA_TNIL) {
      int ok;
      priority = (int)lua_tointegerx(L, -1, &ok);
      if (!ok) ga_error(L, "Stream: priority must be an integer");
    }
    lua_pop(L, 2);
  } else if (!lua_isnoneornil(L, 2)) {
    ga_error(L, "Stream: expected an options table, got %s", luaL_typename(L, 2));
  }
  ga_stream *st = (ga_stream *)ga_object_new(L, &ga_stream_type, sizeof *st, 0);
  ga_device_enter(L, ctx);
  cudaStream_t s;
  ga_cuda_check(L, cudaStreamCreateWithPriority(&s, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault,
                                                priority), "Stream: cudaStreamCreateWithPriority");
  int lo = 0, hi = 0;   /* what CUDA clamped the priority to */
  if (cudaDeviceGetStreamPriorityRange(&lo, &hi) == cudaSuccess) {
    if (priority > lo) priority = lo;
    if (priority < hi) priority = hi;
  } else {
    (void)cudaGetLastError();
  }
  st->s = s;
  st->device = ctx->device;
  st->non_blocking = non_blocking;
  st->priority = priority;
  st->owned = st->obj.alive = 1;
  ga_pool_stream_created(st->device, s);
  return 1;
}

/* s:use() -> the previous current stream */
static int l_stream_use(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_checkstream(L, ctx, 1, "Stream.use");
  ga_push_current_stream(L, ctx);
  set_current(L, ctx, 1);
  return 1;
}

/* s:scope(): current until the returned object is closed
** (`local _ <close> = s:scope()`), errors included */
static int l_stream_scope(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_checkstream(L, ctx, 1, "Stream.scope");
  int *done = (int *)lua_newuserdatauv(L, sizeof(int), 1);
  *done = 0;
  luaL_setmetatable(L, SCOPE_MT);
  ga_push_current_stream(L, ctx);
  lua_setiuservalue(L, -2, 1);
  set_current(L, ctx, 1);
  return 1;
}

/* Back to the stream before the scope, unless it was destroyed meanwhile
** or belongs to another device than the current one (then the null stream) */
static int l_scope_close(lua_State *L) {
  int *done = (int *)luaL_checkudata(L, 1, SCOPE_MT);
  if (*done) return 0;
  *done = 1;
  ga_state *ctx = ga_ctx(L);
  lua_getiuservalue(L, 1, 1);
  ga_stream *st = ga_tostream(L, -1);
  int ok = st && st->obj.alive && (!st->s || st->device == ctx->device);
  set_current(L, ctx, ok ? lua_gettop(L) : 0);
  return 0;
}

static int l_stream_synchronize(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "Stream.synchronize");
  ga_device_enter(L, ctx);
  ga_capture_guard(L, ctx, s, "Stream.synchronize");
  ga_cuda_check(L, cudaStreamSynchronize(s), "Stream.synchronize: cudaStreamSynchronize");
  return 0;
}

static int push_query(lua_State *L, cudaError_t e, const char *what) {
  if (e == cudaErrorNotReady) {
    (void)cudaGetLastError();
    lua_pushboolean(L, 0);
    return 1;
  }
  ga_cuda_check(L, e, what);
  lua_pushboolean(L, 1);
  return 1;
}

/* s:query() -> true when all work queued on s has completed */
static int l_stream_query(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "Stream.query");
  ga_device_enter(L, ctx);
  ga_capture_guard(L, ctx, s, "Stream.query");
  return push_query(L, cudaStreamQuery(s), "Stream.query: cudaStreamQuery");
}

static ga_event *push_event(lua_State *L, ga_state *ctx, int timing, int blocking);
static int event_record(lua_State *L, ga_state *ctx, ga_event *ev, cudaStream_t s, const char *fname);

/* s:record([event]) -> event (a new timing event when none is given) */
static int l_stream_record(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "Stream.record");
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    push_event(L, ctx, 1, 0);
  }
  ga_event *ev = checkevent(L, 2, "Stream.record");
  event_record(L, ctx, ev, s, "Stream.record");
  lua_settop(L, 2);
  return 1;
}

/* s:wait_event(e): work queued on s after this waits for e */
static int l_stream_wait_event(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "Stream.wait_event");
  ga_event *ev = checkevent(L, 2, "Stream.wait_event");
  ga_device_enter(L, ctx);
  ga_cuda_check(L, cudaStreamWaitEvent(s, ev->e, 0), "Stream.wait_event: cudaStreamWaitEvent");
  lua_settop(L, 1);
  return 1;
}

static int l_stream_tostring(lua_State *L) {
  ga_stream *st = ga_tostream(L, 1);
  if (!st) return ga_error(L, "__tostring: expected a Stream");
  if (!st->obj.alive) lua_pushliteral(L, "gpuarray.Stream(destroyed)");
  else if (!st->s) lua_pushliteral(L, "gpuarray.Stream(null)");
  else lua_pushfstring(L, "gpuarray.Stream(%p, device %d)", (void *)st->s, st->device);
  return 1;
}

/* __index: methods, then fields */
static int l_stream_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  ga_stream *st = ga_tostream(L, 1);
  const char *k = ga_fieldkey(L, 2);
  if (!st || !k) return 0;
  if (strcmp(k, "ptr") == 0) lua_pushinteger(L, (lua_Integer)(uintptr_t)st->s);
  else if (strcmp(k, "device") == 0) lua_pushinteger(L, st->device);
  else if (strcmp(k, "non_blocking") == 0) lua_pushboolean(L, st->non_blocking);
  else if (strcmp(k, "priority") == 0) lua_pushinteger(L, st->priority);
  else if (strcmp(k, "alive") == 0) lua_pushboolean(L, st->obj.alive);
  else if (strcmp(k, "done") == 0) {
    lua_settop(L, 1);
    return l_stream_query(L);
  } else return ga_error(L, "Stream has no field or method '%s'", k);
  return 1;
}

/* ===================================================================== */
/* events                                                                */
/* ===================================================================== */

static void event_destroy(ga_event *ev) {
  if (!ev->obj.alive) return;
  ev->obj.alive = 0;
  if (cudaEventDestroy(ev->e) != cudaSuccess) (void)cudaGetLastError();
  ev->e = NULL;
}

static int l_event_gc(lua_State *L) {
  ga_event *ev = ga_toevent(L, 1);
  if (ev) event_destroy(ev);
  return 0;
}

/* The boolean field key of the options table at idx (0: no table); 0 is no
** valid stack index, so it must never reach lua_istable / lua_getfield,
** which would read whatever stale slot lies above the stack top */
static int opt_bool(lua_State *L, int idx, const char *key, int def) {
  if (idx <= 0 || !lua_istable(L, idx)) return def;
  int t = lua_getfield(L, idx, key);
  int v = t == LUA_TNIL ? def : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

static ga_event *push_event(lua_State *L, ga_state *ctx, int timing, int blocking) {
  ga_event *ev = (ga_event *)ga_object_new(L, &ga_event_type, sizeof *ev, 0);
  ga_device_enter(L, ctx);
  unsigned flags = (timing ? 0 : cudaEventDisableTiming) | (blocking ? cudaEventBlockingSync : 0);
  ga_cuda_check(L, cudaEventCreateWithFlags(&ev->e, flags), "Event: cudaEventCreateWithFlags");
  ev->obj.alive = 1;
  ev->device = ctx->device;
  ev->timing = timing;
  ev->blocking = blocking;
  return ev;
}

/* ga.Event([{timing = true, blocking = false}]) */
static int l_event_new(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int opts = lua_istable(L, 1) ? 1 : 0;
  if (!opts && !lua_isnoneornil(L, 1))
    ga_error(L, "Event: expected an options table, got %s", luaL_typename(L, 1));
  int timing = opt_bool(L, opts, "timing", 1);
  int blocking = opt_bool(L, opts, "blocking", 0);
  if (opt_bool(L, opts, "disable_timing", 0)) timing = 0;   /* CuPy's spelling */
  push_event(L, ctx, timing, blocking);
  return 1;
}

static int event_record(lua_State *L, ga_state *ctx, ga_event *ev, cudaStream_t s, const char *fname) {
  if (ev->device != ctx->device)
    ga_error(L, "%s: the event is on device %d, the current device is %d", fname, ev->device, ctx->device);
  ga_device_enter(L, ctx);
  ga_cuda_check(L, cudaEventRecord(ev->e, s), lua_pushfstring(L, "%s: cudaEventRecord", fname));
  ev->recorded = 1;
  return 0;
}

/* e:record([stream]) -> e, on the current stream by default */
static int l_event_record(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_event *ev = checkevent(L, 1, "Event.record");
  cudaStream_t s = lua_isnoneornil(L, 2) ? ctx->stream : ga_checkstream(L, ctx, 2, "Event.record");
  event_record(L, ctx, ev, s, "Event.record");
  lua_settop(L, 1);
  return 1;
}

static int l_event_synchronize(lua_State *L) {
  ga_event *ev = checkevent(L, 1, "Event.synchronize");
  ga_device_enter(L, ga_ctx(L));
  ga_capture_guard(L, ga_ctx(L), ga_ctx(L)->stream, "Event.synchronize");   /* recorded in it? */
  ga_cuda_check(L, cudaEventSynchronize(ev->e), "Event.synchronize: cudaEventSynchronize");
  return 0;
}

/* e:query() -> true when the work before the event's record completed
** (true for an event never recorded, as CUDA says) */
static int l_event_query(lua_State *L) {
  ga_event *ev = checkevent(L, 1, "Event.query");
  ga_device_enter(L, ga_ctx(L));
  ga_capture_guard(L, ga_ctx(L), ga_ctx(L)->stream, "Event.query");
  return push_query(L, cudaEventQuery(ev->e), "Event.query: cudaEventQuery");
}

static int l_event_destroy(lua_State *L) {
  ga_event *ev = ga_toevent(L, 1);
  if (!ev) ga_object_check(L, 1, &ga_event_type, "destroy");    /* raises */
  event_destroy(ev);
  return 0;
}

/* ga.get_elapsed_time(e1, e2) -> milliseconds between two recorded timing
** events; waits for both to complete first */
static int l_get_elapsed_time(lua_State *L) {
  const char *f = "get_elapsed_time";
  ga_event *a = checkevent(L, 1, f), *b = checkevent(L, 2, f);
  if (!a->timing || !b->timing)
    ga_error(L, "%s: an event was created with timing = false", f);
  if (!a->recorded || !b->recorded) ga_error(L, "%s: an event was never recorded", f);
  ga_device_enter(L, ga_ctx(L));
  ga_capture_guard(L, ga_ctx(L), ga_ctx(L)->stream, "get_elapsed_time");
  ga_cuda_check(L, cudaEventSynchronize(a->e), "get_elapsed_time: cudaEventSynchronize");
  ga_cuda_check(L, cudaEventSynchronize(b->e), "get_elapsed_time: cudaEventSynchronize");
  float ms = 0;
  ga_cuda_check(L, cudaEventElapsedTime(&ms, a->e, b->e), "get_elapsed_time: cudaEventElapsedTime");
  lua_pushnumber(L, ms);
  return 1;
}

static int l_event_tostring(lua_State *L) {
  ga_event *ev = ga_toevent(L, 1);
  if (!ev) return ga_error(L, "__tostring: expected an Event");
  if (!ev->e) lua_pushliteral(L, "gpuarray.Event(destroyed)");
  else lua_pushfstring(L, "gpuarray.Event(%p, device %d)", (void *)ev->e, ev->device);
  return 1;
}

static int l_event_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  ga_event *ev = ga_toevent(L, 1);
  const char *k = ga_fieldkey(L, 2);
  if (!ev || !k) return 0;
  if (strcmp(k, "ptr") == 0) lua_pushinteger(L, (lua_Integer)(uintptr_t)ev->e);
  else if (strcmp(k, "device") == 0) lua_pushinteger(L, ev->device);
  else if (strcmp(k, "timing") == 0) lua_pushboolean(L, ev->timing);
  else if (strcmp(k, "blocking") == 0) lua_pushboolean(L, ev->blocking);
  else if (strcmp(k, "done") == 0) {
    lua_settop(L, 1);
    return l_event_query(L);
  } else return ga_error(L, "Event has no field or method '%s'", k);
  return 1;
}

/* ===================================================================== */
/* module functions and registration                                     */
/* ===================================================================== */

static int l_get_current_stream(lua_State *L) {
  ga_push_current_stream(L, ga_ctx(L));
  return 1;
}

static const luaL_Reg stream_methods[] = {
  {"use", l_stream_use},
  {"scope", l_stream_scope},
  {"synchronize", l_stream_synchronize},
  {"query", l_stream_query},
  {"record", l_stream_record},
  {"wait_event", l_stream_wait_event},
  {"destroy", l_stream_destroy},
  {"begin_capture", ga_l_begin_capture},   /* graph.c */
  {"end_capture", ga_l_end_capture},
  {"is_capturing", ga_l_is_capturing},
  {NULL, NULL}
};

static const luaL_Reg stream_meta[] = {
  {"__gc", l_stream_gc},
  {"__close", l_stream_destroy},
  {"__tostring", l_stream_tostring},
  {NULL, NULL}
};

static const luaL_Reg event_methods[] = {
  {"record", l_event_record},
  {"synchronize", l_event_synchronize},
  {"query", l_event_query},
  {"destroy", l_event_destroy},
  {NULL, NULL}
};

static const luaL_Reg event_meta[] = {
  {"__gc", l_event_gc},
  {"__close", l_event_destroy},
  {"__tostring", l_event_tostring},
  {NULL, NULL}
};

/* the object s:scope() returns for `local _ <close> = s:scope()`: close
** serves __close and a close() method (leaving the scope by hand) */
static const luaL_Reg scope_meta[] = {
  {"__close", l_scope_close},
  {NULL, NULL}
};

static const luaL_Reg scope_methods[] = {
  {"close", l_scope_close},
  {NULL, NULL}
};

static const luaL_Reg stream_funcs[] = {
  {"Event", l_event_new},
  {"get_current_stream", l_get_current_stream},
  {"get_elapsed_time", l_get_elapsed_time},
  {NULL, NULL}
};

void ga_open_stream(lua_State *L) {
  ga_new_type(L, GA_STREAM_MT, stream_meta, stream_methods, l_stream_index);
  ga_new_type(L, GA_EVENT_MT, event_meta, event_methods, l_event_index);
  ga_new_type(L, SCOPE_MT, scope_meta, scope_methods, NULL);
  /* Stream.null: one per state, kept across reopenings */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &null_key) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    ga_stream *st = (ga_stream *)ga_object_new(L, &ga_stream_type, sizeof *st, 0);
    st->device = -1;
    st->obj.alive = 1;
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &null_key);
  }
  /* ga.Stream: a table (Stream.null) that constructs when called */
  lua_createtable(L, 0, 1);
  lua_insert(L, -2);
  lua_setfield(L, -2, "null");
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "__call");
  ga_state_push(L);
  lua_pushcclosure(L, l_stream_new, 1);
  lua_rawset(L, -3);
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "Stream");
  ga_setfuncs(L, stream_funcs);
}
