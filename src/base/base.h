/*
** base.h: the bottom layer. Errors with status domains (CUDA, NVRTC and the
** CUDA libraries), the per-Lua-state context, the GC-owned object header
** every handle type shares, Lua argument helpers, the string buffer and
** hashing. Everything above includes this; it includes nothing of ours.
*/
#ifndef GA_BASE_H
#define GA_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

#include <lua.h>
#include <lauxlib.h>

#include <cuda.h>               /* driver types only: the module never links libcuda */
#include <cuda_runtime_api.h>

#define GA_MAXDIM 32

/* ===================================================================== */
/* Per-Lua-state context (state.c)                                       */
/* ===================================================================== */

typedef struct ga_pool ga_pool;
typedef struct ga_capture ga_capture;   /* runtime/graph.c */

typedef struct ga_state {
  lua_State *main;        /* the main thread, for lua_gc */
  int device;             /* current device ordinal */
  cudaStream_t stream;    /* current stream (NULL: the legacy default stream) */
  int stream_ref;         /* registry ref of the current Stream object, or LUA_NOREF */
  ga_pool *pool;          /* current allocator for this state (NULL: the device default) */
  size_t gc_debt;         /* device bytes allocated since the collector last stepped */
  size_t gc_pace;         /* ... at which it steps next: the bytes in use after the last step */
  int gc_waits;           /* allocations since a step fell due without a launch (poolobj.c) */
  int default_dtype;      /* ga.set_default_dtype */
  const void *array_mt;   /* the ndarray metatable (identity), set by ga_open_ndarray */
  ga_capture *capture;    /* the stream capture this state began (graph.c), or NULL */
  int api_depth;          /* 1 while a declared public function runs (api/binder.c) */
  int tracing;            /* a tracer is set (ga_trace_offer) */
  int lazy;               /* elementwise work is recorded, not launched (ga.set_lazy) */
  int lz_pending;         /* pending arrays (and writes) not computed yet */
  struct ga_lazy *lz;     /* the recorder's per-state lists (elementwise/lazy.h), or NULL */
} ga_state;

/* The context of L; every C function of the module has it as upvalue 1,
** ga_state_get finds it through the registry (for host C code). */
#define ga_ctx(L) ((ga_state *)lua_touserdata((L), lua_upvalueindex(1)))
ga_state *ga_state_get(lua_State *L);
void ga_state_push(lua_State *L);       /* the context userdata, for closures */
/* Push the context, creating it on the first open of the module in L */
ga_state *ga_state_open(lua_State *L);

/* Lua functions that C calls back, in fixed slots of the state (set from
** Lua once, with core.ndarray.set_hooks{repr = f, ...}), never looked up by name
** on a hot path */
typedef enum { GA_HOOK_REPR, GA_HOOK_INDEX_GET, GA_HOOK_INDEX_SET, GA_HOOK_TRACE, GA_HOOK_FIELD, GA_NHOOKS } ga_hook;
/* Push hook h; returns 0 (and pushes nothing) when it was never set */
int ga_push_hook(lua_State *L, ga_hook h);
void ga_open_state(lua_State *L);      /* core.ndarray.set_hooks, .set_tracer */

/* The one dispatch point of tracing (ga.fuse now, lazy evaluation later).
** core.ndarray.set_tracer(t) (lua/gpuarray/internal.lua's set_tracer, never
** called directly) sets the state's tracer, a function
**   t(what, f, ...) -> true, results...  |  false
** that is offered a call before it runs: what = "ufunc" (f the ufunc, from
** its __call), "reduce" (f the reduction's name, from ga.sum(x) and the
** other built-ins when x is no ndarray), "where" and "clip" (from the Lua
** functions). A tracer that finds none of its values among the arguments
** answers false and the call runs as usual. ga_trace_offer calls it with
** what, the value at f and the values first..last; it returns the count of
** results left on top of the stack, or -1 (nothing left) when the call is
** the caller's to run. Call it only while ctx->tracing. */
int ga_trace_offer(lua_State *L, const char *what, int f, int first, int last);

/* Lazy evaluation (API.md 16; the recorder is elementwise/lazy*.c): work
** recorded and not computed yet is settled before a synchronize, a stream
** or device change, an event record, and graph capture or launch. why
** names the caller in errors. Costs a compare when nothing is pending. */
extern void (*ga_lazy_flush_fn)(lua_State *L, ga_state *ctx, const char *why);
/* Memory pressure (runtime/poolobj.c, when an allocation failed even after
** a full collection): pending writes are landed, which releases what their
** expressions held; returns 1 when that freed something worth a retry */
extern int (*ga_lazy_pressure_fn)(lua_State *L, ga_state *ctx);
static inline void ga_lazy_flush(lua_State *L, ga_state *ctx, const char *why) {
  if (ctx->lz_pending && ga_lazy_flush_fn) ga_lazy_flush_fn(L, ctx, why);
}

/* t.k = v for the table t on top (result tables of the module) */
void ga_setint(lua_State *L, const char *k, lua_Integer v);
void ga_setbool(lua_State *L, const char *k, int v);
void ga_setstr(lua_State *L, const char *k, const char *v);

/* Register funcs into the table on top with the context as their upvalue */
void ga_setfuncs(lua_State *L, const luaL_Reg *funcs);
/* The private surface: funcs go into core.<room> (the module table on top;
** the room's table made on first use), never onto the public ga table.
** One table per feature room or layer that the Lua side calls
** (core.elementwise.ufunc, core.runtime.now, ...), and GA_TEST ("_test")
** for the hooks only specs, fuzzers, bench and tools call. Every such table
** has the metatable GA_PRIVATE_MT, which is how init.lua tells them from
** the public names. */
#define GA_TEST "_test"
#define GA_PRIVATE_MT "gpuarray.private"
void ga_setprivate(lua_State *L, const char *room, const luaL_Reg *funcs);
/* The one way to make a type: metatable mt (made, or found when the module
** is opened again) with the metamethods meta and a table of methods (all
** with the context as upvalue 1); methods NULL: the method table on top of
** the stack instead (popped), one that others fill too (the ndarray's,
** ga_push_methods). __index is index(self, key), a closure over the
** context and the method table (the fast path of x:sum() is its raw
** lookup), or, with index NULL, the method table itself. */
void ga_new_type(lua_State *L, const char *mt, const luaL_Reg *meta, const luaL_Reg *methods,
                 lua_CFunction index);
/* The state's own object of a room (the library handles, the lazy
** recorder's lists, the reductions' ticket counters): a userdata of size
** bytes kept in the registry under key, zeroed when first made, whose
** finalizer gc frees what it holds when the state closes. Found again on
** later calls; never NULL (raises on a memory error only). */
void *ga_state_object(lua_State *L, const void *key, size_t size, lua_CFunction gc);

/* ===================================================================== */
/* errors (errors.c)                                                     */
/* ===================================================================== */

/* luaL_error with the "gpuarray: " prefix */
int ga_error(lua_State *L, const char *fmt, ...);
/* The name Lua called the running C function by ("empty" for ga.empty or
** C.empty; "add" for __add), or NULL: a local's or an upvalue's name is the
** caller's own, not a public one. For errors raised deep in a call (no
** device, out of memory) without passing names down the hot path. */
const char *ga_called_name(lua_State *L);
/* Raise "gpuarray: <what>: <cudaErrorName> (<string>)" unless err is success */
void ga_cuda_check(lua_State *L, cudaError_t err, const char *what);

/* A CUDA library's status codes by name: each library's room keeps its own
** table (ending with {0, NULL}: status 0 is success in every library) and
** registers it when the module opens, so that errors, and the specs
** (core._test.status_name), find it by the library's name. Base knows none
** of them. */
typedef struct { int code; const char *name; } ga_statusname;
void ga_status_register(const char *lib, const ga_statusname *names);
/* "CUBLAS_STATUS_INVALID_VALUE", or NULL for a code the table lacks */
const char *ga_status_name(const ga_statusname *names, int status);
/* Raise "gpuarray: <what>: <status name>" (or "status N") unless status is 0 */
void ga_status_check(lua_State *L, const ga_statusname *names, int status, const char *what);
void ga_open_errors(lua_State *L);

/* args.c: argument checks raising "gpuarray: <fname>: <what> must be an
** integer, got string" (luaL_check* would name no function and no module) */
lua_Integer ga_checkinteger(lua_State *L, int idx, const char *fname, const char *what);
lua_Integer ga_optinteger(lua_State *L, int idx, lua_Integer def, const char *fname, const char *what);
lua_Number ga_checknumber(lua_State *L, int idx, const char *fname, const char *what);
/* A string made into a C string: one holding a NUL byte raises "<fname>:
** <what> contains a NUL byte" (C would read it cut short). Use it wherever a
** Lua string reaches C without its length; ga_checklstring takes any bytes. */
const char *ga_checkstring(lua_State *L, int idx, const char *fname, const char *what);
const char *ga_checklstring(lua_State *L, int idx, size_t *len, const char *fname, const char *what);
/* The string at idx as a field name for __index, or NULL when it is no
** string or holds a NUL ("shape\0x" names no field, not "shape") */
const char *ga_fieldkey(lua_State *L, int idx);
/* Raise "<fname>: <what> is missing" when there is no argument at idx */
void ga_checkany(lua_State *L, int idx, const char *fname, const char *what);

/* object.c: the header every handle type starts with (its struct's first
** member), and its checker */
typedef struct {
  const char *mt;       /* metatable name (luaL_newmetatable) */
  const char *what;     /* "a Stream": what a checker expected */
  const char *name;     /* "stream": "the stream was destroyed" */
} ga_objtype;

typedef struct {
  const ga_objtype *type;
  int alive;            /* holds its resource; 0 before it is acquired and after release */
} ga_object;

/* Push a zeroed userdata of size bytes (not alive yet) with t's metatable */
void *ga_object_new(lua_State *L, const ga_objtype *t, size_t size, int nuv);
/* The object of type t at idx (alive or not), or NULL */
void *ga_object_test(lua_State *L, int idx, const ga_objtype *t);
/* The live object of type t at idx, or raise naming fname */
void *ga_object_check(lua_State *L, int idx, const ga_objtype *t, const char *fname);

/* ===================================================================== */
/* fault.c: fault injection and GC stress (the reliability specs)         */
/* ===================================================================== */

typedef enum { GA_FAULT_ALLOC, GA_FAULT_COMPILE, GA_FAULT_LAUNCH, GA_FAULT_LIB, GA_NFAULTS } ga_fault_kind;
/* 1 when this call of the kind must fail (GPUARRAY_FAIL=kind:N, or armed);
** calls are counted while armed, up to the one that fails */
int ga_fault(ga_fault_kind kind);
/* Make the n-th next call of kind fail (0: none); returns the calls counted
** since the kind was last armed */
long long ga_fault_arm(ga_fault_kind kind, long long n);
int ga_fault_kind_lookup(const char *name);     /* -1 when unknown */
/* GPUARRAY_GC_STRESS: a full collection before every device allocation */
int ga_gc_stress(void);
void ga_open_fault(lua_State *L);   /* core._test.fault, core._test.gc_stress */

/* Fixed-size growable string buffer for code generation (buf.c) */
typedef struct {
  char *s; size_t len, cap;
} ga_buf;
void ga_buf_init(ga_buf *b);
void ga_buf_add(ga_buf *b, const char *s);
void ga_buf_addf(ga_buf *b, const char *fmt, ...);
void ga_buf_free(ga_buf *b);

/* hash.c: a 64-bit hash (not for adversaries: for telling generated
** sources apart) and the 128-bit keys of compiled programs */
uint64_t ga_hash64(const void *data, size_t n, uint64_t seed);
typedef struct { uint64_t h[2]; } ga_key;
void ga_key_init(ga_key *k);
/* Chain one more piece (its length goes in with it) */
void ga_key_add(ga_key *k, const void *data, size_t n);
void ga_key_hex(const ga_key *k, char out[33]);

#endif
