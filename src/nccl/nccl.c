/*
** nccl.c: NCCL communicators and collectives on ndarrays (core.nccl; the
** public ga.nccl is lua/gpuarray/nccl.lua). A communicator is an object
** of the shared header, owned by the collector: __gc, __close and
** destroy() free it, abort() abandons what it has in flight. Collectives
** queue on the current stream of the communicator's device (or the stream
** given), like every other operation; they need that device current,
** which the Lua side arranges.
**
** Ranks and devices are numbered from 0, as NCCL, CUDA and process
** launchers number them.
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl/nccl.h"

#define COMM_MT "gpuarray.nccl.Communicator"

typedef struct {
  ga_object obj;          /* obj.alive: the NCCL communicator exists */
  ga_nccl_comm comm;
  int device, rank, nranks;
  int pending;            /* a non-blocking init not yet done (poll()) */
} comm;

static const ga_objtype comm_type = {COMM_MT, "a Communicator", "communicator"};

/* ---------------------------------------------------------------------- */
/* arguments                                                              */
/* ---------------------------------------------------------------------- */

static comm *check_comm(lua_State *L, const char *fname) {
  comm *c = (comm *)ga_object_check(L, 1, &comm_type, fname);
  if (c->pending) ga_error(L, "%s: the communicator's non-blocking init is not done (poll() until true)", fname);
  return c;
}

static const char *const op_names[] = {"sum", "prod", "max", "min", "avg", NULL};

static int check_op(lua_State *L, int idx, const char *fname) {
  if (lua_isnoneornil(L, idx)) return GA_NCCL_SUM;
  const char *s = ga_fieldkey(L, idx);   /* "sum\0x" is no op */
  for (int i = 0; s && op_names[i]; i++)
    if (strcmp(s, op_names[i]) == 0) return i;
  return ga_error(L, "%s: op must be one of sum, prod, max, min, avg (got %s)", fname,
                  s ? s : luaL_typename(L, idx));
}

/* What NCCL sees of an element of dtype: its type and how many of them
** make one element. op < 0: moving data (any dtype, as bytes if need be);
** otherwise the reduction must mean the same on NCCL's type. */
static int wire_type(lua_State *L, int dtype, int op, int *mult, const char *fname) {
  static const int direct[GA_NDTYPES] = {
    [GA_BOOL] = GA_NCCL_UINT8, [GA_INT8] = GA_NCCL_INT8, [GA_INT16] = -1, [GA_INT32] = GA_NCCL_INT32,
    [GA_INT64] = GA_NCCL_INT64, [GA_UINT8] = GA_NCCL_UINT8, [GA_UINT16] = -1,
    [GA_UINT32] = GA_NCCL_UINT32, [GA_UINT64] = GA_NCCL_UINT64, [GA_FLOAT16] = GA_NCCL_FLOAT16,
    [GA_FLOAT32] = GA_NCCL_FLOAT32, [GA_FLOAT64] = GA_NCCL_FLOAT64,
    [GA_COMPLEX64] = GA_NCCL_FLOAT32, [GA_COMPLEX128] = GA_NCCL_FLOAT64, [GA_BFLOAT16] = GA_NCCL_BFLOAT16};
  const char *name = ga_dtypes[dtype].name;
  *mult = GA_IS_COMPLEX(dtype) ? 2 : 1;
  if (op < 0) {
    if (direct[dtype] >= 0) return direct[dtype];
    *mult = ga_dtypes[dtype].itemsize;      /* int16, uint16: as bytes */
    return GA_NCCL_UINT8;
  }
  if (direct[dtype] < 0) ga_error(L, "%s: NCCL cannot reduce %s (no 16-bit integer type)", fname, name);
  if (dtype == GA_BOOL && op != GA_NCCL_MAX && op != GA_NCCL_MIN)
    ga_error(L, "%s: op %s is not defined for bool (max is logical or, min logical and)", fname,
             op_names[op]);
  if (GA_IS_COMPLEX(dtype) && op != GA_NCCL_SUM && op != GA_NCCL_AVG)
    ga_error(L, "%s: op %s is not defined for %s (sum and avg are)", fname, op_names[op], name);
  return direct[dtype];
}

/* An ndarray at idx that NCCL can read or write: contiguous, on the
** communicator's device */
static ga_array *check_buffer(lua_State *L, int idx, const comm *c, const char *fname, const char *what) {
  ga_array *a = ga_toarray(L, idx);
  if (!a) ga_error(L, "%s: %s must be an ndarray, got %s", fname, what, luaL_typename(L, idx));
  if (a->flags & GA_F_FREED) ga_error(L, "%s: %s was freed", fname, what);
  if (a->device != c->device)
    ga_error(L, "%s: %s is on device %d, the communicator's device is %d", fname, what, a->device,
             c->device);
  if (!(a->flags & GA_F_C) && a->size > 1)
    ga_error(L, "%s: %s must be C-contiguous (x:copy() makes a contiguous copy)", fname, what);
  ga_array_ready(L, a, GA_LZ_WRITE);   /* (lazy evaluation: read or written by NCCL) */
  return a;
}

static void check_same_dtype(lua_State *L, const ga_array *a, const ga_array *b, const char *fname) {
  if (a->dtype != b->dtype)
    ga_error(L, "%s: send is %s and recv is %s (they must match)", fname, ga_dtypes[a->dtype].name,
             ga_dtypes[b->dtype].name);
}

/* The recv array at idx: a buffer of send's dtype with `want` elements
** (`how` says why: "as many as send"); pushed again for the result */
static ga_array *check_recv(lua_State *L, int idx, const comm *c, const ga_array *s, int64_t want,
                            const char *how, const char *fname) {
  ga_array *r = check_buffer(L, idx, c, fname, "recv");
  check_same_dtype(L, s, r, fname);
  if (r->size != want)
    ga_error(L, "%s: recv has %I elements, it needs %I (%s)", fname, (lua_Integer)r->size, (lua_Integer)want, how);
  lua_pushvalue(L, idx);
  return r;
}

/* What a collective starts from: the communicator at 1, NCCL itself, and
** the send buffer at 2 (for the calls that have one there) */
typedef struct {
  ga_state *ctx;
  comm *c;
  const ga_nccl_api *nc;
  ga_array *s;
} collective;

static void begin(lua_State *L, collective *k, int with_send, const char *fname) {
  k->ctx = ga_ctx(L);
  k->c = check_comm(L, fname);
  k->nc = ga_nccl(L, fname);
  k->s = with_send ? check_buffer(L, 2, k->c, fname, "send") : NULL;
}

/* Last before NCCL is called: the fault switch (GPUARRAY_FAIL=lib) */
static void before_queue(lua_State *L, const char *fname) {
  if (ga_fault(GA_FAULT_LIB)) ga_error(L, "%s: injected failure (GPUARRAY_FAIL=lib)", fname);
}

static int check_rank(lua_State *L, int idx, const comm *c, const char *fname, const char *what) {
  lua_Integer r = ga_checkinteger(L, idx, fname, what);
  if (r < 0 || r >= c->nranks)
    ga_error(L, "%s: %s %d is not a rank of this communicator (0 to %d)", fname, what, (int)r, c->nranks - 1);
  return (int)r;
}

/* The stream at idx: nothing/nil (the current stream), a Stream, or an
** options table with `stream` */
static cudaStream_t opt_stream(lua_State *L, ga_state *ctx, const comm *c, int idx, const char *fname) {
  if (c->device != ctx->device)
    ga_error(L, "%s: the communicator is on device %d, the current device is %d", fname, c->device,
             ctx->device);
  if (ga_tostream(L, idx)) {
    cudaStream_t s = ga_checkstream(L, ctx, idx, fname);
    if (s != ctx->stream) ga_pool_streams_changed();
    return s;
  }
  if (!lua_isnoneornil(L, idx) && !lua_istable(L, idx))
    ga_error(L, "%s: expected a Stream or an options table, got %s", fname, luaL_typename(L, idx));
  return ga_opt_stream(L, ctx, idx, fname);
}

/* A communicator made non-blocking answers ncclInProgress while NCCL
** finishes the call in the background: wait for its real status */
static int settle(const ga_nccl_api *nc, ga_nccl_comm cm, int status) {
  while (status == GA_NCCL_IN_PROGRESS) {
    int err = 0;
    int st = nc->comm_get_async_error(cm, &err);
    status = st != 0 ? st : err;
  }
  return status;
}

/* The communicators used inside the open group (group_start ..
** group_end) of this thread: ncclGroupEnd answers ncclInProgress for
** non-blocking ones, and each must then be waited for */
#define GROUP_MAX 64
static _Thread_local int group_depth, group_n;
static _Thread_local ga_nccl_comm group_comms[GROUP_MAX];

static void group_note(ga_nccl_comm cm) {
  for (int i = 0; i < group_n; i++)
    if (group_comms[i] == cm) return;
  if (group_n < GROUP_MAX) group_comms[group_n++] = cm;
}

/* Queue or fail: NCCL's status as a gpuarray error (inside a group, the
** work starts at group_end, which waits for it) */
static void done(lua_State *L, const comm *c, int status, const char *fname, const char *call) {
  if (group_depth > 0) {
    group_note(c->comm);
    if (status == GA_NCCL_IN_PROGRESS) status = 0;
  } else if (status == GA_NCCL_IN_PROGRESS) {
    status = settle(ga_nccl_try(NULL), c->comm, status);
  }
  ga_nccl_check(L, status, c->comm, fname, call);
}

/* ---------------------------------------------------------------------- */
/* collectives                                                            */
/* ---------------------------------------------------------------------- */

/* c:all_reduce(send[, recv][, op][, stream]) -> recv (a new array when
** recv is nil; recv may be send itself) */
static int l_all_reduce(lua_State *L) {
  static const char *fname = "all_reduce";
  collective k;
  begin(L, &k, 1, fname);
  int op = check_op(L, 4, fname), mult;
  int type = wire_type(L, k.s->dtype, op, &mult, fname);
  cudaStream_t st = opt_stream(L, k.ctx, k.c, 5, fname);
  ga_array *r;
  if (lua_isnoneornil(L, 3)) {
    r = ga_new_array(L, k.ctx, k.s->dtype, k.s->ndim, k.s->shape);
  } else {
    r = check_recv(L, 3, k.c, k.s, k.s->size, "as many as send", fname);
  }
  before_queue(L, fname);
  done(L, k.c, k.nc->all_reduce(k.s->data, r->data, (size_t)k.s->size * mult, type, op, k.c->comm, st), fname,
       "ncclAllReduce");
  return 1;
}

/* c:reduce(send, recv, op, root[, stream]) -> recv on the root (a new
** array there when recv is nil), nil elsewhere */
static int l_reduce(lua_State *L) {
  static const char *fname = "reduce";
  collective k;
  begin(L, &k, 1, fname);
  int op = check_op(L, 4, fname), mult;
  int root = check_rank(L, 5, k.c, fname, "root");
  int type = wire_type(L, k.s->dtype, op, &mult, fname);
  cudaStream_t st = opt_stream(L, k.ctx, k.c, 6, fname);
  ga_array *r = NULL;
  if (!lua_isnoneornil(L, 3)) {
    r = check_recv(L, 3, k.c, k.s, k.s->size, "as many as send", fname);
  } else if (k.c->rank == root) {
    r = ga_new_array(L, k.ctx, k.s->dtype, k.s->ndim, k.s->shape);
  } else {
    lua_pushnil(L);
  }
  before_queue(L, fname);
  done(L, k.c, k.nc->reduce(k.s->data, r ? r->data : NULL, (size_t)k.s->size * mult, type, op, root, k.c->comm, st),
       fname, "ncclReduce");
  return 1;
}

/* c:broadcast(buf, root[, stream]): in place; c:broadcast(send, recv,
** root[, stream]): send is read on the root only (nil elsewhere) */
static int l_broadcast(lua_State *L) {
  static const char *fname = "broadcast";
  collective k;
  begin(L, &k, 0, fname);
  /* broadcast(buf, root, ...) or broadcast(send, recv, root, ...) */
  int in_place = lua_type(L, 3) == LUA_TNUMBER;
  int recv_idx = in_place ? 2 : 3, root_idx = recv_idx + 1;
  int root = check_rank(L, root_idx, k.c, fname, "root");
  ga_array *r = check_buffer(L, recv_idx, k.c, fname, "recv");
  k.s = r;   /* the root reads send, the others recv itself */
  if (k.c->rank == root && !in_place) {
    k.s = check_buffer(L, 2, k.c, fname, "send");
    check_recv(L, recv_idx, k.c, k.s, k.s->size, "as many as send", fname);
    lua_pop(L, 1);
  }
  int mult, type = wire_type(L, r->dtype, -1, &mult, fname);
  cudaStream_t st = opt_stream(L, k.ctx, k.c, root_idx + 1, fname);
  before_queue(L, fname);
  done(L, k.c, k.nc->broadcast(k.s->data, r->data, (size_t)r->size * mult, type, root, k.c->comm, st), fname,
       "ncclBroadcast");
  lua_pushvalue(L, recv_idx);
  return 1;
}

/* c:all_gather(send[, recv][, stream]) -> recv: every rank's send, rank
** after rank (a new array of shape {nranks, ...send's shape} when nil) */
static int l_all_gather(lua_State *L) {
  static const char *fname = "all_gather";
  collective k;
  begin(L, &k, 1, fname);
  int mult, type = wire_type(L, k.s->dtype, -1, &mult, fname);
  cudaStream_t st = opt_stream(L, k.ctx, k.c, 4, fname);
  ga_array *r;
  if (lua_isnoneornil(L, 3)) {
    if (k.s->ndim >= GA_MAXDIM) ga_error(L, "%s: send has too many dimensions for the result", fname);
    int64_t shape[GA_MAXDIM];
    shape[0] = k.c->nranks;
    memcpy(shape + 1, k.s->shape, (size_t)k.s->ndim * sizeof(int64_t));
    r = ga_new_array(L, k.ctx, k.s->dtype, k.s->ndim + 1, shape);
  } else {
    r = check_recv(L, 3, k.c, k.s, k.s->size * k.c->nranks, "nranks times send's", fname);
  }
  before_queue(L, fname);
  done(L, k.c, k.nc->all_gather(k.s->data, r->data, (size_t)k.s->size * mult, type, k.c->comm, st), fname,
       "ncclAllGather");
  return 1;
}

/* c:reduce_scatter(send[, recv][, op][, stream]) -> recv: block `rank` of
** the reduction of every rank's send (a new array when nil: send's shape
** without its first axis when that is nranks, else 1-d) */
static int l_reduce_scatter(lua_State *L) {
  static const char *fname = "reduce_scatter";
  collective k;
  begin(L, &k, 1, fname);
  int op = check_op(L, 4, fname), mult;
  int type = wire_type(L, k.s->dtype, op, &mult, fname);
  if (k.s->size % k.c->nranks)
    ga_error(L, "%s: send has %I elements, not a multiple of nranks (%d)", fname, (lua_Integer)k.s->size,
             k.c->nranks);
  int64_t count = k.s->size / k.c->nranks;
  cudaStream_t st = opt_stream(L, k.ctx, k.c, 5, fname);
  ga_array *r;
  if (lua_isnoneornil(L, 3)) {
    if (k.s->ndim >= 1 && k.s->shape[0] == k.c->nranks) r = ga_new_array(L, k.ctx, k.s->dtype, k.s->ndim - 1, k.s->shape + 1);
    else r = ga_new_array(L, k.ctx, k.s->dtype, 1, &count);
  } else {
    r = check_recv(L, 3, k.c, k.s, count, "send's divided by nranks", fname);
  }
  before_queue(L, fname);
  done(L, k.c, k.nc->reduce_scatter(k.s->data, r->data, (size_t)count * mult, type, op, k.c->comm, st), fname,
       "ncclReduceScatter");
  return 1;
}

/* c:send(x, peer[, stream]) and c:recv(x, peer[, stream]) -> x: point to
** point; a pair must be in one group (ga.nccl.group) when both ranks
** send first */
static int point_to_point(lua_State *L, int sending) {
  const char *fname = sending ? "send" : "recv";
  collective k;
  begin(L, &k, 0, fname);
  ga_array *x = check_buffer(L, 2, k.c, fname, "x");
  int peer = check_rank(L, 3, k.c, fname, "peer");
  int mult, type = wire_type(L, x->dtype, -1, &mult, fname);
  cudaStream_t st = opt_stream(L, k.ctx, k.c, 4, fname);
  before_queue(L, fname);
  size_t n = (size_t)x->size * mult;
  if (sending) done(L, k.c, k.nc->send(x->data, n, type, peer, k.c->comm, st), fname, "ncclSend");
  else done(L, k.c, k.nc->recv(x->data, n, type, peer, k.c->comm, st), fname, "ncclRecv");
  lua_pushvalue(L, 2);
  return 1;
}
static int l_send(lua_State *L) { return point_to_point(L, 1); }
static int l_recv(lua_State *L) { return point_to_point(L, 0); }

/* ---------------------------------------------------------------------- */
/* communicators                                                          */
/* ---------------------------------------------------------------------- */

/* Release the communicator: destroy (orderly) or abort (in-flight work is
** abandoned). The device of a communicator must be current for NCCL. */
static int release(comm *c, int aborting) {
  if (!c->obj.alive) return 0;
  const ga_nccl_api *nc = ga_nccl_try(NULL);
  c->obj.alive = 0;
  if (!nc) return 0;
  int cur = -1;
  (void)cudaGetDevice(&cur);
  if (cur != c->device) (void)cudaSetDevice(c->device);
  int status = aborting ? nc->comm_abort(c->comm) : nc->comm_destroy(c->comm);
  if (cur >= 0 && cur != c->device) (void)cudaSetDevice(cur);
  c->comm = NULL;
  return status;
}

static int l_comm_gc(lua_State *L) {
  comm *c = (comm *)ga_object_test(L, 1, &comm_type);
  if (c) (void)release(c, 0);   /* a finalizer never raises */
  return 0;
}

static int l_destroy(lua_State *L) {
  comm *c = (comm *)ga_object_test(L, 1, &comm_type);
  if (!c) ga_error(L, "destroy: expected %s, got %s", comm_type.what, luaL_typename(L, 1));
  ga_nccl_check(L, release(c, 0), NULL, "destroy", "ncclCommDestroy");
  return 0;
}

static int l_abort(lua_State *L) {
  comm *c = (comm *)ga_object_test(L, 1, &comm_type);
  if (!c) ga_error(L, "abort: expected %s, got %s", comm_type.what, luaL_typename(L, 1));
  ga_nccl_check(L, release(c, 1), NULL, "abort", "ncclCommAbort");
  return 0;
}

/* c:async_error() -> nil, or the name of the error NCCL met in work it ran
** in the background (a peer that died, a network failure) */
static int l_async_error(lua_State *L) {
  comm *c = check_comm(L, "async_error");
  const ga_nccl_api *nc = ga_nccl(L, "async_error");
  int err = 0;
  ga_nccl_check(L, nc->comm_get_async_error(c->comm, &err), c->comm, "async_error", "ncclCommGetAsyncError");
  if (err == 0) return 0;
  const char *name = ga_status_name(ga_nccl_status, err);
  lua_pushstring(L, name ? name : "unknown NCCL status");
  return 1;
}

/* Fill in rank, size and device from NCCL itself */
static void describe(lua_State *L, const ga_nccl_api *nc, comm *c) {
  ga_nccl_check(L, nc->comm_user_rank(c->comm, &c->rank), c->comm, "Communicator", "ncclCommUserRank");
  ga_nccl_check(L, nc->comm_count(c->comm, &c->nranks), c->comm, "Communicator", "ncclCommCount");
  ga_nccl_check(L, nc->comm_cu_device(c->comm, &c->device), c->comm, "Communicator", "ncclCommCuDevice");
}

/* The id passed between processes: 256 hex digits, so it fits in an
** environment variable or a line of a file */
static int l_get_unique_id(lua_State *L) {
  const ga_nccl_api *nc = ga_nccl(L, "get_unique_id");
  ga_nccl_id id;
  ga_nccl_check(L, nc->get_unique_id(&id), NULL, "get_unique_id", "ncclGetUniqueId");
  char hex[2 * sizeof id.internal + 1];
  for (size_t i = 0; i < sizeof id.internal; i++)
    snprintf(hex + 2 * i, 3, "%02x", (unsigned char)id.internal[i]);
  lua_pushlstring(L, hex, 2 * sizeof id.internal);
  return 1;
}

static void parse_id(lua_State *L, int idx, ga_nccl_id *id, const char *fname) {
  size_t n;
  const char *s = lua_tolstring(L, idx, &n);
  if (!s || lua_type(L, idx) != LUA_TSTRING || n != 2 * sizeof id->internal)
    ga_error(L, "%s: id must be the string ga.nccl.get_unique_id() returned (%d hex digits)", fname,
             (int)(2 * sizeof id->internal));
  for (size_t i = 0; i < sizeof id->internal; i++) {
    unsigned v;
    char two[3] = {s[2 * i], s[2 * i + 1], 0};
    char *end;
    v = (unsigned)strtoul(two, &end, 16);
    if (end != two + 2) ga_error(L, "%s: id has a character that is not a hex digit", fname);
    id->internal[i] = (char)v;
  }
}

/* (nranks, id, rank) at 1-3, as both communicator makers take them:
** checked before the library is loaded or any device is touched */
static void comm_args(lua_State *L, const char *fname, int *nranks, ga_nccl_id *id, int *rank) {
  lua_Integer n = ga_checkinteger(L, 1, fname, "nranks");
  parse_id(L, 2, id, fname);
  lua_Integer r = ga_checkinteger(L, 3, fname, "rank");
  if (n < 1 || n > 1 << 20) ga_error(L, "%s: nranks must be at least 1 and at most 2^20 (got %I)", fname, n);
  if (r < 0 || r >= n) ga_error(L, "%s: rank %I is not in 0 to nranks-1 (%I)", fname, r, n - 1);
  *nranks = (int)n;
  *rank = (int)r;
}

/* Communicator(nranks, id, rank): this process's rank on the current
** device; blocks until every rank has joined */
static int l_comm_new(lua_State *L) {
  static const char *fname = "Communicator";
  ga_state *ctx = ga_ctx(L);
  int nranks, rank;
  ga_nccl_id id;
  comm_args(L, fname, &nranks, &id, &rank);
  const ga_nccl_api *nc = ga_nccl(L, fname);
  ga_device_enter(L, ctx);
  comm *c = (comm *)ga_object_new(L, &comm_type, sizeof *c, 0);
  if (ga_fault(GA_FAULT_LIB)) ga_error(L, "%s: injected failure (GPUARRAY_FAIL=lib)", fname);
  ga_nccl_check(L, nc->comm_init_rank(&c->comm, nranks, id, rank), NULL, fname, "ncclCommInitRank");
  c->obj.alive = 1;
  describe(L, nc, c);
  return 1;
}

/* Communicator_nonblocking(nranks, id, rank) -> a communicator whose init
** goes on in NCCL's background (ncclCommInitRankConfig, blocking = 0):
** poll() it until true, or abort() it when it takes too long (a rank that
** never came) */
static int l_comm_new_nonblocking(lua_State *L) {
  static const char *fname = "distributed.init";
  ga_state *ctx = ga_ctx(L);
  int nranks, rank;
  ga_nccl_id id;
  comm_args(L, fname, &nranks, &id, &rank);
  const ga_nccl_api *nc = ga_nccl(L, fname);
  if (!nc->comm_init_rank_config)
    ga_error(L, "%s: the NCCL library has no ncclCommInitRankConfig (NCCL 2.14 or later is needed)", fname);
  ga_device_enter(L, ctx);
  comm *c = (comm *)ga_object_new(L, &comm_type, sizeof *c, 0);
  if (ga_fault(GA_FAULT_LIB)) ga_error(L, "%s: injected failure (GPUARRAY_FAIL=lib)", fname);
  ga_nccl_config config = {sizeof config, 0xcafebeef, 21400, 0, INT_MIN, INT_MIN, INT_MIN, NULL};
  int status = nc->comm_init_rank_config(&c->comm, nranks, id, rank, &config);
  if (status != 0 && status != GA_NCCL_IN_PROGRESS) {
    if (c->comm) (void)nc->comm_abort(c->comm);
    c->comm = NULL;
    ga_nccl_check(L, status, NULL, fname, "ncclCommInitRankConfig");
  }
  c->obj.alive = 1;
  c->pending = 1;
  c->device = ctx->device;
  c->rank = rank;
  c->nranks = nranks;
  return 1;
}

static void describe(lua_State *L, const ga_nccl_api *nc, comm *c);

/* c:poll() -> true when the communicator is ready, false while its
** non-blocking init goes on; raises what NCCL met */
static int l_poll(lua_State *L) {
  comm *c = (comm *)ga_object_check(L, 1, &comm_type, "poll");
  if (!c->pending) {
    lua_pushboolean(L, c->obj.alive);
    return 1;
  }
  const ga_nccl_api *nc = ga_nccl(L, "poll");
  int err = 0;
  ga_nccl_check(L, nc->comm_get_async_error(c->comm, &err), c->comm, "poll", "ncclCommGetAsyncError");
  if (err == GA_NCCL_IN_PROGRESS) {
    lua_pushboolean(L, 0);
    return 1;
  }
  ga_nccl_check(L, err, c->comm, "poll", "ncclCommInitRankConfig");
  c->pending = 0;
  describe(L, nc, c);
  lua_pushboolean(L, 1);
  return 1;
}

/* c:split(color, key[, blocking]) -> the communicator of the ranks that
** gave the same color, ranked by key (ncclCommSplit; every rank of c calls
** it); color -1 (NCCL_SPLIT_NOCOLOR): this rank joins none and gets nil.
** blocking = true: the child is a blocking communicator whatever c is (the
** world started non-blocking for its timeout continues blocking: each call
** of a non-blocking communicator goes through NCCL's own thread, 18% of a
** 1 GiB all-reduce's bandwidth on two H100s) */
static int l_split(lua_State *L) {
  static const char *fname = "new_group";
  comm *c = check_comm(L, fname);
  lua_Integer color = ga_checkinteger(L, 2, fname, "color");
  lua_Integer key = ga_checkinteger(L, 3, fname, "key");
  if (color < -1 || color > INT_MAX || key < INT_MIN || key > INT_MAX)
    ga_error(L, "%s: color and key must be 32-bit (color -1: no group)", fname);
  const ga_nccl_api *nc = ga_nccl(L, fname);
  if (!nc->comm_split) ga_error(L, "%s: the NCCL library has no ncclCommSplit (NCCL 2.18 or later is needed)", fname);
  ga_state *ctx = ga_ctx(L);
  if (ctx->device != c->device)
    ga_error(L, "%s: the communicator is on device %d, the current device is %d", fname, c->device, ctx->device);
  comm *n = (comm *)ga_object_new(L, &comm_type, sizeof *n, 0);
  ga_nccl_comm made = NULL;
  /* ncclCommSplit on a non-blocking parent answers ncclSuccess while the
  ** split still runs in NCCL's background thread, and sets made only when
  ** it completes (NCCL 2.28's init.cc): wait on the parent, whose state is
  ** ncclInProgress until then (a blocking parent answers at once) */
  ga_nccl_config blocking = {sizeof blocking, 0xcafebeef, 21400, 1, INT_MIN, INT_MIN, INT_MIN, NULL};
  int status = nc->comm_split(c->comm, (int)color, (int)key, &made, lua_toboolean(L, 4) ? &blocking : NULL);
  if (status == 0 || status == GA_NCCL_IN_PROGRESS) status = settle(nc, c->comm, GA_NCCL_IN_PROGRESS);
  if (status == 0 && made) status = settle(nc, made, GA_NCCL_IN_PROGRESS);
  ga_nccl_check(L, status, c->comm, fname, "ncclCommSplit");
  if (!made) {
    lua_pushnil(L);
    return 1;
  }
  n->comm = made;
  n->obj.alive = 1;
  describe(L, nc, n);
  return 1;
}

/* init_all(devices) -> {comm, ...}: one process driving several GPUs;
** devices is a count n (devices 0 to n-1) or a list of device ids */
static int l_init_all(lua_State *L) {
  static const char *fname = "Communicator.init_all";
  ga_state *ctx = ga_ctx(L);
  int n;
  if (lua_isinteger(L, 1)) {
    lua_Integer v = lua_tointeger(L, 1);
    if (v < 1 || v > ga_device_count())
      ga_error(L, "%s: %d devices asked for, %d exist", fname, (int)v, ga_device_count());
    n = (int)v;
  } else if (lua_istable(L, 1)) {
    n = (int)luaL_len(L, 1);
    if (n < 1) ga_error(L, "%s: the device list is empty", fname);
  } else {
    return ga_error(L, "%s: expected a device count or a list of device ids, got %s", fname,
                    luaL_typename(L, 1));
  }
  lua_settop(L, 1);
  int *devs = (int *)lua_newuserdatauv(L, (size_t)n * sizeof(int), 0);   /* 2 */
  for (int i = 0; i < n; i++) {
    if (lua_istable(L, 1)) {
      lua_geti(L, 1, i + 1);
      devs[i] = ga_checkdevice(L, -1, fname);
      lua_pop(L, 1);
      for (int j = 0; j < i; j++)
        if (devs[j] == devs[i]) ga_error(L, "%s: device %d is listed twice", fname, devs[i]);
    } else {
      devs[i] = i;
    }
  }
  const ga_nccl_api *nc = ga_nccl(L, fname);
  ga_device_enter(L, ctx);
  lua_createtable(L, n, 0);                                          /* 3: the result */
  comm **made = (comm **)lua_newuserdatauv(L, (size_t)n * sizeof(comm *), 0);
  ga_nccl_comm *raw = (ga_nccl_comm *)lua_newuserdatauv(L, (size_t)n * sizeof(ga_nccl_comm), 0);
  for (int i = 0; i < n; i++) {   /* the objects first: nothing leaks if NCCL fails */
    made[i] = (comm *)ga_object_new(L, &comm_type, sizeof(comm), 0);
    lua_rawseti(L, 3, i + 1);
  }
  if (ga_fault(GA_FAULT_LIB)) ga_error(L, "%s: injected failure (GPUARRAY_FAIL=lib)", fname);
  int status = nc->comm_init_all(raw, n, devs);
  (void)cudaSetDevice(ctx->device);   /* NCCL leaves another device current */
  ga_nccl_check(L, status, NULL, fname, "ncclCommInitAll");
  for (int i = 0; i < n; i++) {
    made[i]->comm = raw[i];
    made[i]->obj.alive = 1;
  }
  for (int i = 0; i < n; i++) describe(L, nc, made[i]);
  lua_settop(L, 3);
  return 1;
}

static int l_group_start(lua_State *L) {
  const ga_nccl_api *nc = ga_nccl(L, "group_start");
  ga_nccl_check(L, nc->group_start(), NULL, "group_start", "ncclGroupStart");
  if (group_depth++ == 0) group_n = 0;
  return 0;
}

static int l_group_end(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  const ga_nccl_api *nc = ga_nccl(L, "group_end");
  int status = nc->group_end();
  if (group_depth > 0 && --group_depth == 0) {
    /* non-blocking communicators: the group goes on in the background */
    for (int i = 0; i < group_n && status == GA_NCCL_IN_PROGRESS; i++) {
      int st = settle(nc, group_comms[i], GA_NCCL_IN_PROGRESS);
      if (st != 0) status = st;
    }
    if (status == GA_NCCL_IN_PROGRESS) status = 0;
    group_n = 0;
  }
  if (ctx->device >= 0) (void)cudaSetDevice(ctx->device);   /* the group may have moved it */
  ga_nccl_check(L, status, NULL, "group_end", "ncclGroupEnd");
  return 0;
}

/* available() -> true, version | false, why */
static int l_available(lua_State *L) {
  const char *reason;
  const ga_nccl_api *nc = ga_nccl_try(&reason);
  int v = 0;
  if (nc && nc->get_version(&v) != 0) nc = NULL, reason = "ncclGetVersion failed";
  lua_pushboolean(L, nc != NULL);
  if (nc) lua_pushinteger(L, v);
  else lua_pushstring(L, reason);
  return 2;
}

static int l_get_version(lua_State *L) {
  const ga_nccl_api *nc = ga_nccl(L, "get_version");
  int v = 0;
  ga_nccl_check(L, nc->get_version(&v), NULL, "get_version", "ncclGetVersion");
  lua_pushinteger(L, v);
  return 1;
}

static int l_comm_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  comm *c = (comm *)ga_object_test(L, 1, &comm_type);
  const char *k = ga_fieldkey(L, 2);
  if (c && k && strcmp(k, "rank") == 0) lua_pushinteger(L, c->rank);
  else if (c && k && strcmp(k, "nranks") == 0) lua_pushinteger(L, c->nranks);
  else if (c && k && strcmp(k, "device") == 0) lua_pushinteger(L, c->device);
  else if (c && k && strcmp(k, "alive") == 0) lua_pushboolean(L, c->obj.alive);
  else return ga_error(L, "Communicator has no field or method '%s'", k ? k : luaL_typename(L, 2));
  return 1;
}

static int l_comm_tostring(lua_State *L) {
  comm *c = (comm *)ga_object_test(L, 1, &comm_type);
  if (c && c->obj.alive) lua_pushfstring(L, "<nccl.Communicator rank %d of %d on device %d>", c->rank, c->nranks, c->device);
  else lua_pushliteral(L, "<nccl.Communicator (destroyed)>");
  return 1;
}

static const luaL_Reg comm_meta[] = {
  {"__gc", l_comm_gc},
  {"__close", l_comm_gc},
  {"__tostring", l_comm_tostring},
  {NULL, NULL}
};

static const luaL_Reg comm_methods[] = {
  {"all_reduce", l_all_reduce},
  {"reduce", l_reduce},
  {"broadcast", l_broadcast},
  {"all_gather", l_all_gather},
  {"reduce_scatter", l_reduce_scatter},
  {"send", l_send},
  {"recv", l_recv},
  {"destroy", l_destroy},
  {"abort", l_abort},
  {"async_error", l_async_error},
  {"poll", l_poll},
  {"split", l_split},
  {NULL, NULL}
};

static const luaL_Reg nccl_funcs[] = {
  {"available", l_available},
  {"get_version", l_get_version},
  {"get_unique_id", l_get_unique_id},
  {"Communicator", l_comm_new},
  {"init_all", l_init_all},
  {"Communicator_nonblocking", l_comm_new_nonblocking},
  {"group_start", l_group_start},
  {"group_end", l_group_end},
  {NULL, NULL}
};

void ga_open_nccl(lua_State *L) {
  ga_status_register("NCCL", ga_nccl_status);
  ga_new_type(L, COMM_MT, comm_meta, comm_methods, l_comm_index);
  ga_setprivate(L, "nccl", nccl_funcs);
  /* the method table (the __index closure's upvalue 2): nccl.lua wraps the
  ** collectives so that they run with their communicator's device current */
  lua_getfield(L, -1, "nccl");
  luaL_getmetatable(L, COMM_MT);
  lua_getfield(L, -1, "__index");
  lua_getupvalue(L, -1, 2);
  lua_setfield(L, -4, "methods");
  lua_pop(L, 3);
}
