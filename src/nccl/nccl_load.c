/*
** nccl_load.c: NCCL, loaded when first used. The module never links
** libnccl: it is large, often installed apart from the toolkit (a Python
** wheel, a cluster module), and a machine with one GPU never needs it. So
** `require "gpuarray"` works without it and ga.nccl.available() says why
** it is absent. The symbols are looked up once per process (the library is
** process-wide, unlike handles, which are per Lua state).
**
** The types below are NCCL's ABI (nccl.h 2.x): an id of 128 bytes passed by
** value, enums passed as int, an opaque communicator pointer. Declaring
** them here keeps the build free of nccl.h as well.
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl/nccl.h"

/* From nccl.h's ncclResult_t (the module builds without nccl.h) */
const ga_statusname ga_nccl_status[] = {
  {1, "ncclUnhandledCudaError"}, {2, "ncclSystemError"}, {3, "ncclInternalError"},
  {4, "ncclInvalidArgument"}, {5, "ncclInvalidUsage"}, {6, "ncclRemoteError"},
  {7, "ncclInProgress"}, {0, NULL}};

static ga_nccl_api api;
static int loaded;               /* 1: every symbol found */
static char why[512];            /* what went wrong when not loaded */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Where to look, in order: the user's choice, the loader's search path,
** then the toolkit's folders (the CUDA 13 toolkit puts it in lib/) */
static const char *const candidates[] = {
  "libnccl.so.2", "libnccl.so",
  "/usr/local/cuda/lib64/libnccl.so.2", "/usr/local/cuda/lib/libnccl.so.2",
  "/usr/lib/x86_64-linux-gnu/libnccl.so.2", NULL
};

static void *open_library(void) {
  const char *env = getenv("GPUARRAY_NCCL");
  if (env && *env) {
    void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    if (!h) snprintf(why, sizeof why, "GPUARRAY_NCCL=%s could not be loaded: %s", env, dlerror());
    return h;
  }
  const char *home = getenv("CUDA_HOME");
  if (home && *home) {
    char path[512];
    snprintf(path, sizeof path, "%s/lib/libnccl.so.2", home);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  for (int i = 0; candidates[i]; i++) {
    void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  snprintf(why, sizeof why, "libnccl.so.2 was not found (set GPUARRAY_NCCL to its path)");
  return NULL;
}

#define SYM(field, name) {(void **)&api.field, name}
static void load(void) {
  void *h = open_library();
  if (!h) return;
  const struct { void **slot; const char *name; } syms[] = {
    SYM(get_version, "ncclGetVersion"), SYM(get_unique_id, "ncclGetUniqueId"),
    SYM(comm_init_rank, "ncclCommInitRank"), SYM(comm_init_all, "ncclCommInitAll"),
    SYM(comm_destroy, "ncclCommDestroy"), SYM(comm_abort, "ncclCommAbort"),
    SYM(comm_count, "ncclCommCount"), SYM(comm_cu_device, "ncclCommCuDevice"),
    SYM(comm_user_rank, "ncclCommUserRank"), SYM(comm_get_async_error, "ncclCommGetAsyncError"),
    SYM(get_error_string, "ncclGetErrorString"), SYM(get_last_error, "ncclGetLastError"),
    SYM(all_reduce, "ncclAllReduce"), SYM(reduce, "ncclReduce"), SYM(broadcast, "ncclBroadcast"),
    SYM(all_gather, "ncclAllGather"), SYM(reduce_scatter, "ncclReduceScatter"),
    SYM(send, "ncclSend"), SYM(recv, "ncclRecv"),
    SYM(group_start, "ncclGroupStart"), SYM(group_end, "ncclGroupEnd"),
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
    *syms[i].slot = dlsym(h, syms[i].name);
    if (!*syms[i].slot) {
      snprintf(why, sizeof why, "the NCCL library has no %s (too old: NCCL 2.13 or later is needed)",
               syms[i].name);
      dlclose(h);
      return;
    }
  }
  /* the optional ones: their absence is said when they are used */
  *(void **)&api.comm_init_rank_config = dlsym(h, "ncclCommInitRankConfig");
  *(void **)&api.comm_split = dlsym(h, "ncclCommSplit");
  loaded = 1;   /* the handle stays open for the life of the process */
}

const ga_nccl_api *ga_nccl_try(const char **reason) {
  pthread_once(&once, load);
  if (reason) *reason = loaded ? NULL : why;
  return loaded ? &api : NULL;
}

const ga_nccl_api *ga_nccl(lua_State *L, const char *fname) {
  const char *reason;
  const ga_nccl_api *a = ga_nccl_try(&reason);
  if (!a) ga_error(L, "%s: NCCL is not available: %s", fname, reason);
  return a;
}

void ga_nccl_check(lua_State *L, int status, ga_nccl_comm comm, const char *fname, const char *call) {
  if (status == 0) return;
  const char *name = ga_status_name(ga_nccl_status, status);
  const char *last = loaded ? api.get_last_error(comm) : NULL;
  if (last && *last)
    ga_error(L, "%s: %s failed: %s (%s)", fname, call, name ? name : "unknown NCCL status", last);
  ga_error(L, "%s: %s failed: %s", fname, call, name ? name : "unknown NCCL status");
}
