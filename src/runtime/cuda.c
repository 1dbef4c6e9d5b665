/*
** cuda.c: CUDA initialised lazily, on first device use, so that the module
** loads on machines with no driver or GPU. Device properties that hot paths
** need are read once and cached.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/runtime.h"

#define MAX_DEVICES 64

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int n_devices = 0;
static cudaError_t init_error = cudaSuccess;

static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;
static ga_devinfo infos[MAX_DEVICES];
static atomic_int info_ready[MAX_DEVICES];
static atomic_int limits_set[MAX_DEVICES];

static void init_cuda(void) {
  int n = 0;
  init_error = cudaGetDeviceCount(&n);
  if (init_error != cudaSuccess) {
    (void)cudaGetLastError();
    n = 0;
  }
  n_devices = n > MAX_DEVICES ? MAX_DEVICES : n;
}

int ga_device_count(void) {
  pthread_once(&init_once, init_cuda);
  return n_devices;
}

/* cuCtxSetLimit / cuCtxGetLimit through the runtime's entry points
** (ga_driver_entry: test builds run on a stub runtime that has only the
** functions the module already calls); NULL when unavailable */
typedef CUresult (*set_limit_fn)(CUlimit, size_t);
typedef CUresult (*get_limit_fn)(size_t *, CUlimit);

/* GPUARRAY_L2_FETCH_GRANULARITY=<0..128>: an experiment switch for the
** context's L2 fetch granularity limit (bytes the L2 fetches from DRAM on
** a miss; 32 suits random gathers, which use 4 bytes of each fetch). It is
** a context-wide hint, so it is set once per device, at first use, when
** the variable is set; unset leaves the driver's default. */
static void set_limits(lua_State *L, int device) {
  const char *e = getenv("GPUARRAY_L2_FETCH_GRANULARITY");
  long v = -1;
  if (e && *e) {
    char *end;
    v = strtol(e, &end, 10);
    if (*end || v < 0 || v > 128)
      ga_error(L, "GPUARRAY_L2_FETCH_GRANULARITY must be a number of bytes from 0 to 128, got '%s'", e);
  }
  pthread_mutex_lock(&info_lock);
  if (!atomic_load_explicit(&limits_set[device], memory_order_relaxed)) {
    /* a hint: the driver may clamp it or not support it, neither is an
    ** error. cudaSetDevice makes the primary context current for the
    ** driver call (cudaGetDevice alone does not create it). */
    set_limit_fn set = v >= 0 ? (set_limit_fn)ga_driver_entry("cuCtxSetLimit") : NULL;
    if (set && cudaSetDevice(device) == cudaSuccess)
      (void)set(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, (size_t)v);
    (void)cudaGetLastError();
    atomic_store_explicit(&limits_set[device], 1, memory_order_release);
  }
  pthread_mutex_unlock(&info_lock);
}

/* "gpuarray: zeros: no CUDA device: no NVIDIA driver was found
** (cudaErrorInsufficientDriver)". The function is the one Lua called (its
** name as the call site wrote it; "__add" for an operator), found only on
** this error path so that the hot path passes no names. */
static int no_device(lua_State *L) {
  lua_Debug ar;
  const char *fn = NULL;
  /* a local's or an upvalue's name is the caller's own (a wrapper's "c"):
  ** then the declared function around the call names itself (src/api) */
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name &&
      strcmp(ar.namewhat, "local") != 0 && strcmp(ar.namewhat, "upvalue") != 0)
    fn = ar.name;
  if (fn && fn[0] == '_' && fn[1] == '_') fn += 2;   /* metamethods: "add" */
  const char *why = "no device was found";
  int driver = 0;
  if (init_error == cudaErrorInsufficientDriver) {
    (void)cudaDriverGetVersion(&driver);
    (void)cudaGetLastError();
    if (driver == 0) {
      why = "no NVIDIA driver was found";
    } else {
      int rt = 0;
      (void)cudaRuntimeGetVersion(&rt);
      why = lua_pushfstring(L, "the NVIDIA driver supports CUDA %d.%d, older than this module's runtime %d.%d: "
                            "update the driver", driver / 1000, driver % 1000 / 10, rt / 1000, rt % 1000 / 10);
    }
  } else if (init_error == cudaErrorNoDevice) {
    why = "the NVIDIA driver found no GPU";
  } else if (init_error != cudaSuccess) {
    why = cudaGetErrorString(init_error);
  }
  const char *code = init_error != cudaSuccess ? lua_pushfstring(L, " (%s)", cudaGetErrorName(init_error)) : "";
  if (fn) return ga_error(L, "%s: no CUDA device: %s%s", fn, why, code);
  return ga_error(L, "no CUDA device: %s%s", why, code);
}

void ga_device_enter(lua_State *L, ga_state *ctx) {
  if (ga_device_count() == 0) no_device(L);
  if (ctx->device >= n_devices) ga_error(L, "device %d does not exist (%d devices)", ctx->device, n_devices);
  /* cudaGetDevice is a thread-local read; asking each time stays right when
  ** the host program switches devices behind our back */
  int cur = -1;
  /* and once per thread: cudaGetDevice answers 0 before any context is
  ** current, where the driver calls (cuKernelGetFunction) would fail with
  ** CUDA_ERROR_INVALID_CONTEXT; cudaSetDevice makes the primary one current */
  static _Thread_local int entered;
  if (cudaGetDevice(&cur) != cudaSuccess || cur != ctx->device || !entered) {
    ga_cuda_check(L, cudaSetDevice(ctx->device), "cudaSetDevice");
    entered = 1;
  }
  if (!atomic_load_explicit(&limits_set[ctx->device], memory_order_acquire)) set_limits(L, ctx->device);
}

/* The attributes hot paths need, one cudaDeviceGetAttribute each:
** cudaGetDeviceProperties queries everything, some of it slowly (it is
** milliseconds of the first use of a device). Returns 0 when any query
** fails or answers 0. */
static int fill_from_attributes(int device, ga_devinfo *d) {
  static const enum cudaDeviceAttr attrs[] = {
    cudaDevAttrMultiProcessorCount, cudaDevAttrMaxThreadsPerBlock,
    cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY, cudaDevAttrMaxGridDimZ,
    cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ,
    cudaDevAttrMaxSharedMemoryPerBlock, cudaDevAttrMaxSharedMemoryPerBlockOptin,
    cudaDevAttrWarpSize, cudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMinor,
  };
  int v[sizeof attrs / sizeof attrs[0]];
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
    v[i] = 0;
    if (cudaDeviceGetAttribute(&v[i], attrs[i], device) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    if (v[i] <= 0 && attrs[i] != cudaDevAttrComputeCapabilityMinor) return 0;
  }
  d->sm_count = v[0];
  d->max_threads_per_block = v[1];
  for (int i = 0; i < 3; i++) {
    d->max_grid[i] = v[2 + i];
    d->max_block[i] = v[5 + i];
  }
  d->shared_per_block = (size_t)v[8];
  d->shared_per_block_optin = (size_t)v[9];
  d->warp_size = v[10];
  d->arch = v[11] * 10 + v[12];
  return 1;
}

static void fill_info(int device, ga_devinfo *d) {
  struct cudaDeviceProp p;
  memset(d, 0, sizeof *d);
  if (fill_from_attributes(device, d)) return;
  memset(d, 0, sizeof *d);
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  d->sm_count = p.multiProcessorCount;
  d->max_threads_per_block = p.maxThreadsPerBlock;
  for (int i = 0; i < 3; i++) {
    d->max_grid[i] = p.maxGridSize[i];
    d->max_block[i] = p.maxThreadsDim[i];
  }
  d->shared_per_block = p.sharedMemPerBlock;
  d->shared_per_block_optin = p.sharedMemPerBlockOptin;
  d->warp_size = p.warpSize;
  d->arch = p.major * 10 + p.minor;
}

/* The cached properties of a valid device, read once */
static const ga_devinfo *info_of(int device) {
  if (!atomic_load(&info_ready[device])) {
    pthread_mutex_lock(&info_lock);
    if (!atomic_load(&info_ready[device])) {
      fill_info(device, &infos[device]);
      atomic_store(&info_ready[device], 1);
    }
    pthread_mutex_unlock(&info_lock);
  }
  return &infos[device];
}

const ga_devinfo *ga_device_info(lua_State *L, int device) {
  if (device < 0 || device >= ga_device_count())
    ga_error(L, "device %d does not exist (%d devices)", device, ga_device_count());
  return info_of(device);
}

int ga_device_arch(int device) {
  if (device < 0 || device >= ga_device_count()) return 0;
  return info_of(device)->arch;
}

/* ===================================================================== */
/* Lua API                                                               */
/* ===================================================================== */

static int l_is_available(lua_State *L) {
  lua_pushboolean(L, ga_device_count() > 0);
  return 1;
}

static int l_device_count(lua_State *L) {
  lua_pushinteger(L, ga_device_count());
  return 1;
}

static int l_device_properties(lua_State *L) {
  int dev = (int)ga_optinteger(L, 1, ga_ctx(L)->device, "device_properties", "the device");
  if (dev < 0 || dev >= ga_device_count())
    ga_error(L, "device_properties: device %d does not exist (%d devices)", dev, ga_device_count());
  struct cudaDeviceProp p;
  ga_cuda_check(L, cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
  lua_createtable(L, 0, 12);
  ga_setstr(L, "name", p.name);
  ga_setint(L, "total_memory", (lua_Integer)p.totalGlobalMem);
  ga_setint(L, "multiprocessors", p.multiProcessorCount);
  ga_setint(L, "major", p.major);
  ga_setint(L, "minor", p.minor);
  lua_pushfstring(L, "%d.%d", p.major, p.minor); lua_setfield(L, -2, "compute_capability");
  ga_setint(L, "max_threads_per_block", p.maxThreadsPerBlock);
  ga_setint(L, "shared_memory_per_block", (lua_Integer)p.sharedMemPerBlock);
  ga_setint(L, "shared_memory_per_block_optin", (lua_Integer)p.sharedMemPerBlockOptin);
  ga_setint(L, "l2_cache_size", p.l2CacheSize);
  ga_setint(L, "warp_size", p.warpSize);
  ga_setint(L, "id", dev);
  return 1;
}

static int l_synchronize(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_device_enter(L, ctx);
  ga_capture_guard_device(L, ctx, "synchronize");
  ga_cuda_check(L, cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return 0;
}

static int l_runtime_version(lua_State *L) {
  int v = 0;
  cudaRuntimeGetVersion(&v);
  lua_pushinteger(L, v);
  return 1;
}

/* Wall-clock seconds (monotonic), for host-side timing in Lua */
static int l_now(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
  return 1;
}

/* _gpu_time_ms(fn, n): median device time of one call of fn, timed with
** events on the current stream (the bench's measure; ga.Event is the API) */
static int l_gpu_time_ms(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  int n = (int)luaL_optinteger(L, 2, 20);
  if (n < 1 || n > 100000) ga_error(L, "_gpu_time_ms: bad repeat count");
  ga_device_enter(L, ctx);
  ga_capture_guard(L, ctx, ctx->stream, "_gpu_time_ms");
  cudaEvent_t ev[2];
  ga_cuda_check(L, cudaEventCreate(&ev[0]), "cudaEventCreate");
  if (cudaEventCreate(&ev[1]) != cudaSuccess) {
    cudaEventDestroy(ev[0]);
    ga_error(L, "cudaEventCreate failed");
  }
  float *times = (float *)lua_newuserdatauv(L, sizeof(float) * (size_t)n, 0);
  int err = 0;
  lua_pushvalue(L, 1);          /* warm-up call */
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) err = 1;
  for (int i = 0; i < n && !err; i++) {
    cudaEventRecord(ev[0], ctx->stream);
    lua_pushvalue(L, 1);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) { err = 1; break; }
    cudaEventRecord(ev[1], ctx->stream);
    cudaEventSynchronize(ev[1]);
    cudaEventElapsedTime(&times[i], ev[0], ev[1]);
  }
  cudaEventDestroy(ev[0]);
  cudaEventDestroy(ev[1]);
  if (err) return lua_error(L);
  for (int i = 1; i < n; i++) {      /* insertion sort: n is small */
    float t = times[i];
    int j = i - 1;
    while (j >= 0 && times[j] > t) { times[j + 1] = times[j]; j--; }
    times[j + 1] = t;
  }
  lua_pushnumber(L, times[n / 2]);
  return 1;
}

/* _l2_fetch_granularity() -> bytes | nil: the limit in effect on the
** current device (for the bench, with GPUARRAY_L2_FETCH_GRANULARITY) */
static int l_l2_fetch_granularity(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_device_enter(L, ctx);
  get_limit_fn get = (get_limit_fn)ga_driver_entry("cuCtxGetLimit");
  size_t v = 0;
  if (get && cudaSetDevice(ctx->device) == cudaSuccess && get(&v, CU_LIMIT_MAX_L2_FETCH_GRANULARITY) == CUDA_SUCCESS)
    lua_pushinteger(L, (lua_Integer)v);
  else
    lua_pushnil(L);
  (void)cudaGetLastError();
  return 1;
}

static int l_stream_sync(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  ga_device_enter(L, ctx);
  ga_capture_guard(L, ctx, ctx->stream, "_stream_sync");
  ga_cuda_check(L, cudaStreamSynchronize(ctx->stream), "cudaStreamSynchronize");
  return 0;
}

static const luaL_Reg cuda_funcs[] = {
  {"is_available", l_is_available},
  {"device_count", l_device_count},
  {"device_properties", l_device_properties},
  {"synchronize", l_synchronize},
  {"runtime_version", l_runtime_version},
  {NULL, NULL}
};

static const luaL_Reg cuda_funcs_runtime[] = {
  {"now", l_now},
  {NULL, NULL}
};

static const luaL_Reg cuda_funcs_test[] = {
  {"gpu_time_ms", l_gpu_time_ms},
  {"stream_sync", l_stream_sync},
  {"l2_fetch_granularity", l_l2_fetch_granularity},
  {NULL, NULL}
};

void ga_open_cuda(lua_State *L) {
  ga_setfuncs(L, cuda_funcs);
  ga_setprivate(L, "runtime", cuda_funcs_runtime);
  ga_setprivate(L, GA_TEST, cuda_funcs_test);
}
