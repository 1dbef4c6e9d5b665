/*
** graph.c: CUDA graphs. s:begin_capture() / s:end_capture() -> ga.Graph,
** g:launch([stream]), g:destroy(), and the guards that stop a capture from
** being broken by a synchronizing call.
**
** Memory. Kernels captured into a graph read and write device addresses
** fixed at capture time, and every replay uses them again, on whatever
** stream it is launched on. So memory allocated while a capture is active
** (the temporaries of `x * 2 + 1`, reduction partials, outputs) belongs to
** the graph: ga_alloc hands such blocks to ga_capture_keep, which takes a
** reference that the Graph object holds until it is destroyed or
** collected. An array made inside the capture may die at once in Lua; its
** block stays out of the pool while the graph can still be replayed. The
** blocks come only from chunks free for every stream, or new segments
** (ga_pool_try_alloc_graph), since replays may run anywhere; releasing
** them at the end is the pool's usual stream-aware release (a graph
** launched on another stream than the current one moved the pool's stream
** epoch, so those blocks are fenced). This was preferred to cudaMallocAsync
** inside the capture: the graph's own alloc/free nodes would free an
** output at the end of each replay, and a result made inside the capture
** and used after it would point at memory the graph had released.
**
** Synchronization. While a capture is active nothing may wait for the
** capturing stream (CUDA invalidates the capture and the call fails). Every
** call that would wait (reads to Lua, stream/event/device synchronize)
** calls a guard first: inside this state's capture, or on a stream some
** host code is capturing (cudaStreamIsCapturing, asked only where a wait
** would happen), the guard ends the capture, destroys the partial graph,
** and raises "gpuarray: <fname>: cannot synchronize while stream capture is
** active": the stream is usable again at once. The pool, which records
** events for cross-stream reuse, records none while a capture runs on the
** device (pool.c, pool_order.c).
**
** Captures use cudaStreamCaptureModeRelaxed: the pool may still cudaMalloc
** a new segment and compile/load a kernel met for the first time inside
** the capture, and other threads are not restricted.
*/
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

struct ga_capture {
  cudaStream_t s;
  int device;
  int blocking;           /* s synchronizes with the legacy stream */
  int stream_ref;         /* registry ref: the Stream object lives while capturing */
  ga_block **blocks;      /* allocated during the capture: the graph's */
  size_t n, cap, nbytes;
};

typedef struct {
  ga_object obj;          /* alive: exec exists */
  cudaGraphExec_t exec;
  int device;
  size_t nnodes;
  ga_block **blocks;
  size_t nblocks, nbytes;
} ga_graph;

static const ga_objtype graph_type = {GA_GRAPH_MT, "a Graph", "graph"};

static const char *const SYNC_MSG = "cannot synchronize while stream capture is active";

/* Make device current for a moment; the previous device or -1 */
static int enter_device(int device) {
  int cur = -1;
  if (cudaGetDevice(&cur) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  if (cur != device) (void)cudaSetDevice(device);
  return cur;
}

static void leave_device(int device, int prev) {
  if (prev >= 0 && prev != device) (void)cudaSetDevice(prev);
}

/* ===================================================================== */
/* the capture record                                                    */
/* ===================================================================== */

ga_block *ga_capture_keep(lua_State *L, ga_state *ctx, ga_block *b) {
  ga_capture *c = ctx->capture;
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    ga_block **nb = (ga_block **)realloc(c->blocks, cap * sizeof *nb);
    if (!nb) {
      ga_block_release(b);
      ga_error(L, "out of host memory (recording a graph's allocation)");
    }
    c->blocks = nb;
    c->cap = cap;
  }
  ga_block_retain(b);
  c->blocks[c->n++] = b;
  c->nbytes += b->size;
  return b;
}

static void release_blocks(ga_block **blocks, size_t n) {
  for (size_t i = 0; i < n; i++) ga_block_release(blocks[i]);
  free(blocks);
}

/* The capture is over for CUDA and the pool; the record leaves ctx and is
** returned with its blocks (the caller frees it). *g: the captured graph
** (NULL when the capture was invalidated). */
static ga_capture *capture_stop(ga_state *ctx, cudaGraph_t *g, cudaError_t *err) {
  ga_capture *c = ctx->capture;
  ctx->capture = NULL;
  int prev = enter_device(c->device);
  *g = NULL;
  *err = cudaStreamEndCapture(c->s, g);
  if (*err != cudaSuccess) {
    (void)cudaGetLastError();
    if (*g) (void)cudaGraphDestroy(*g);
    *g = NULL;
  }
  leave_device(c->device, prev);
  ga_pool_capture_end(c->device, c->s);
  return c;
}

static void capture_free(lua_State *L, ga_capture *c, int keep_blocks) {
  luaL_unref(L, LUA_REGISTRYINDEX, c->stream_ref);
  if (!keep_blocks) release_blocks(c->blocks, c->n);
  free(c);
}

/* End this state's capture and throw its graph away */
static void capture_abort(lua_State *L, ga_state *ctx) {
  if (!ctx->capture) return;
  cudaGraph_t g;
  cudaError_t err;
  ga_capture *c = capture_stop(ctx, &g, &err);
  if (g) (void)cudaGraphDestroy(g);
  capture_free(L, c, 0);
}

/* ===================================================================== */
/* guards                                                                */
/* ===================================================================== */

void ga_capture_guard(lua_State *L, ga_state *ctx, cudaStream_t s, const char *fname) {
  if (ctx->capture) {
    capture_abort(L, ctx);
    ga_error(L, "%s: %s", fname, SYNC_MSG);
  }
  enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaError_t err = cudaStreamIsCapturing(s, &st);
  if (err == cudaErrorStreamCaptureImplicit) {   /* the legacy stream, a blocking capture elsewhere */
    (void)cudaGetLastError();
    ga_error(L, "%s: %s (on a blocking stream; the null stream waits for it)", fname, SYNC_MSG);
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return;   /* the wait itself will report what is wrong */
  }
  if (st == cudaStreamCaptureStatusNone) return;
  /* host code captures the stream it made current here: end that capture
  ** too, so the stream works again, as for our own */
  cudaGraph_t g = NULL;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) (void)cudaGetLastError();
  if (g) (void)cudaGraphDestroy(g);
  ga_error(L, "%s: %s", fname, SYNC_MSG);
}

void ga_capture_guard_device(lua_State *L, ga_state *ctx, const char *fname) {
  if (ctx->capture) {
    capture_abort(L, ctx);
    ga_error(L, "%s: %s", fname, SYNC_MSG);
  }
  if (ga_pool_capturing(ctx->device))
    ga_error(L, "%s: %s (in another Lua state or thread)", fname, SYNC_MSG);
}

void ga_capture_refuse(lua_State *L, ga_state *ctx, const char *fname, const char *what) {
  if (ctx->capture) ga_error(L, "%s: %s while stream capture is active", fname, what);
}

void ga_capture_stream_gone(lua_State *L, ga_state *ctx, cudaStream_t s) {
  if (ctx->capture && ctx->capture->s == s) capture_abort(L, ctx);
}

/* ===================================================================== */
/* Stream methods                                                        */
/* ===================================================================== */

/* s:begin_capture() -> s: work queued on s from now on is recorded, not run */
int ga_l_begin_capture(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "begin_capture");
  if (!s)
    ga_error(L, "begin_capture: the null stream cannot be captured "
             "(use a created stream: ga.Stream({non_blocking = true}))");
  if (ctx->capture)
    ga_error(L, "begin_capture: this Lua state is already capturing a stream (end_capture first)");
  ga_device_enter(L, ctx);
  unsigned flags = 0;
  if (cudaStreamGetFlags(s, &flags) != cudaSuccess) (void)cudaGetLastError();
  ga_capture *c = (ga_capture *)calloc(1, sizeof *c);
  if (!c) ga_error(L, "begin_capture: out of host memory");
  c->s = s;
  c->device = ctx->device;
  c->blocking = !(flags & cudaStreamNonBlocking);
  lua_pushvalue(L, 1);
  c->stream_ref = luaL_ref(L, LUA_REGISTRYINDEX);   /* may raise: nothing begun yet */
  if (!ga_pool_capture_begin(c->device, s, c->blocking)) {
    capture_free(L, c, 0);
    ga_error(L, "begin_capture: too many captures at once");
  }
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  if (err != cudaSuccess) {
    ga_pool_capture_end(c->device, s);
    capture_free(L, c, 0);
    ga_cuda_check(L, err, "begin_capture: cudaStreamBeginCapture");
  }
  ctx->capture = c;
  lua_settop(L, 1);
  return 1;
}

/* s:end_capture() -> graph, instantiated and ready to launch */
int ga_l_end_capture(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "end_capture");
  if (!ctx->capture || ctx->capture->s != s)
    ga_error(L, "end_capture: the stream is not capturing (begin_capture first; a "
             "synchronizing call inside the capture ends it)");
  ga_graph *gr = (ga_graph *)ga_object_new(L, &graph_type, sizeof *gr, 1);   /* harmless first */
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  ga_device_enter(L, ctx);
  cudaGraph_t g;
  cudaError_t err;
  ga_capture *c = capture_stop(ctx, &g, &err);
  if (err != cudaSuccess) {
    capture_free(L, c, 0);
    ga_error(L, "end_capture: the capture failed: %s (%s): an operation inside it could not be "
             "captured", cudaGetErrorName(err), cudaGetErrorString(err));
  }
  size_t nnodes = 0;
  if (cudaGraphGetNodes(g, NULL, &nnodes) != cudaSuccess) (void)cudaGetLastError();
  cudaGraphExec_t exec = NULL;
  err = cudaGraphInstantiate(&exec, g, 0);
  (void)cudaGraphDestroy(g);   /* the executable graph does not need it */
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    capture_free(L, c, 0);
    ga_cuda_check(L, err, "end_capture: cudaGraphInstantiate");
  }
  gr->exec = exec;
  gr->device = c->device;
  gr->nnodes = nnodes;
  gr->blocks = c->blocks;
  gr->nblocks = c->n;
  gr->nbytes = c->nbytes;
  gr->obj.alive = 1;
  capture_free(L, c, 1);
  return 1;
}

/* s:is_capturing() -> true while work queued on s is being captured */
int ga_l_is_capturing(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "is_capturing");
  if (!s || !ga_device_count()) {
    lua_pushboolean(L, 0);
    return 1;
  }
  ga_device_enter(L, ctx);
  enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &st) != cudaSuccess) (void)cudaGetLastError();
  lua_pushboolean(L, st != cudaStreamCaptureStatusNone);
  return 1;
}

/* core.runtime.abort_capture(s): graph.capture's error path; true when it ended one */
static int l_abort_capture(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  cudaStream_t s = ga_checkstream(L, ctx, 1, "graph.capture");
  int mine = ctx->capture && ctx->capture->s == s;
  if (mine) capture_abort(L, ctx);
  lua_pushboolean(L, mine);
  return 1;
}

/* core.runtime.sync_guard(fname): tostring's early check (no CUDA call) */
static int l_sync_guard(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  if (ctx->capture) {
    const char *fname = ga_checkstring(L, 1, "_sync_guard", "the function name");
    capture_abort(L, ctx);
    ga_error(L, "%s: %s", fname, SYNC_MSG);
  }
  return 0;
}

/* core.runtime.check_stream(v, fname) -> v, or raise */
static int l_check_stream(lua_State *L) {
  ga_checkstream(L, ga_ctx(L), 1, ga_checkstring(L, 2, "_check_stream", "the function name"));
  lua_settop(L, 1);
  return 1;
}

/* ===================================================================== */
/* ga.Graph                                                              */
/* ===================================================================== */

/* Idempotent, never raises. A replay still running completes: CUDA frees
** the executable graph when it is done, and the blocks go back through the
** pool's stream-aware release. */
static void graph_release(ga_graph *gr) {
  if (!gr->obj.alive) return;
  gr->obj.alive = 0;
  int prev = enter_device(gr->device);
  if (cudaGraphExecDestroy(gr->exec) != cudaSuccess) (void)cudaGetLastError();
  leave_device(gr->device, prev);
  gr->exec = NULL;
  release_blocks(gr->blocks, gr->nblocks);
  gr->blocks = NULL;
  gr->nblocks = gr->nbytes = 0;
}

static int l_graph_gc(lua_State *L) {
  ga_graph *gr = (ga_graph *)ga_object_test(L, 1, &graph_type);
  if (gr) graph_release(gr);
  return 0;
}

static int l_graph_destroy(lua_State *L) {
  ga_graph *gr = (ga_graph *)ga_object_test(L, 1, &graph_type);
  if (!gr) ga_object_check(L, 1, &graph_type, "Graph.destroy");   /* raises */
  graph_release(gr);
  return 0;
}

/* g:launch([stream]) -> g: one replay, queued on stream (default: current) */
static int l_graph_launch(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_graph *gr = (ga_graph *)ga_object_check(L, 1, &graph_type, "Graph.launch");
  cudaStream_t s = ctx->stream;
  if (!lua_isnoneornil(L, 2)) {
    s = ga_checkstream(L, ctx, 2, "Graph.launch");
    /* the graph's memory (and the arrays it uses) is touched on s */
    if (s != ctx->stream) ga_pool_streams_changed();
  }
  if (gr->device != ctx->device)
    ga_error(L, "Graph.launch: the graph is on device %d, the current device is %d", gr->device,
             ctx->device);
  ga_device_enter(L, ctx);
  ga_cuda_check(L, cudaGraphLaunch(gr->exec, s), "Graph.launch: cudaGraphLaunch");
  lua_settop(L, 1);
  return 1;
}

static int l_graph_tostring(lua_State *L) {
  ga_graph *gr = (ga_graph *)ga_object_test(L, 1, &graph_type);
  if (!gr) return ga_error(L, "__tostring: expected a Graph");
  if (!gr->obj.alive) lua_pushliteral(L, "gpuarray.Graph(destroyed)");
  else lua_pushfstring(L, "gpuarray.Graph(%I nodes, device %d)", (lua_Integer)gr->nnodes, gr->device);
  return 1;
}

static int l_graph_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  ga_graph *gr = (ga_graph *)ga_object_test(L, 1, &graph_type);
  const char *k = ga_fieldkey(L, 2);
  if (!gr || !k) return 0;
  if (strcmp(k, "alive") == 0) lua_pushboolean(L, gr->obj.alive);
  else if (strcmp(k, "device") == 0) lua_pushinteger(L, gr->device);
  else if (strcmp(k, "nodes") == 0) lua_pushinteger(L, (lua_Integer)gr->nnodes);
  else if (strcmp(k, "nbytes") == 0) lua_pushinteger(L, (lua_Integer)gr->nbytes);
  else if (strcmp(k, "stream") == 0) lua_getiuservalue(L, 1, 1);
  else return ga_error(L, "Graph has no field or method '%s'", k);
  return 1;
}

static const luaL_Reg graph_methods[] = {
  {"launch", l_graph_launch},
  {"destroy", l_graph_destroy},
  {NULL, NULL}
};

static const luaL_Reg graph_meta[] = {
  {"__gc", l_graph_gc},
  {"__close", l_graph_destroy},
  {"__tostring", l_graph_tostring},
  {NULL, NULL}
};

static const luaL_Reg graph_funcs_runtime[] = {
  {"abort_capture", l_abort_capture},
  {"check_stream", l_check_stream},
  {"sync_guard", l_sync_guard},
  {NULL, NULL}
};

void ga_open_graph(lua_State *L) {
  ga_new_type(L, GA_GRAPH_MT, graph_meta, graph_methods, l_graph_index);
  ga_setprivate(L, "runtime", graph_funcs_runtime);
}
