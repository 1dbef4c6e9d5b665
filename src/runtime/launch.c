/*
** launch.c: every kernel launch of the library. cuLaunchKernel on the
** kernel's CUfunction skips the runtime's per-call lookup of a cudaKernel_t
** (measured on an H200: about 1.5 us of the 5.5 us a tiny op cost through
** cudaLaunchKernel). Both driver entry points come through the runtime, so
** the module never links libcuda; without them, cudaLaunchKernel does the
** work. CUfunctions are per context: a small thread-local table maps
** (kernel, device) to the function, filled on first use.
*/
#include <pthread.h>
#include <stdlib.h>

#include "runtime/runtime.h"

typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, CUstream, void **, void **);
typedef CUresult (*getfn_fn)(CUfunction *, CUkernel);

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
static launch_fn drv_launch;
static getfn_fn drv_getfn;

void *ga_driver_entry(const char *name) {
  void *p = NULL;
  enum cudaDriverEntryPointQueryResult st = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &st) != cudaSuccess ||
      st != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return p;
}

static void drv_init(void) {
  launch_fn l = (launch_fn)ga_driver_entry("cuLaunchKernel");
  getfn_fn g = (getfn_fn)ga_driver_entry("cuKernelGetFunction");
  if (l && g) {
    drv_launch = l;
    drv_getfn = g;
  }
}

CUfunction ga_driver_function(cudaKernel_t k) {
  pthread_once(&drv_once, drv_init);
  CUfunction fn = NULL;
  if (drv_getfn && drv_getfn(&fn, (CUkernel)k) != CUDA_SUCCESS) fn = NULL;
  return fn;
}

/* Fault injection (GPUARRAY_FAIL=launch:N) counts each launch once: a
** failed driver launch is retried (through the driver again, then
** ga_runtime_launch, which names the error); the retries of one launch
** neither count again nor let an injected failure through */
static _Thread_local int retry_counted, retry_injected;

int ga_driver_launch(CUfunction fn, dim3 grid, dim3 block, void **args, size_t shmem, cudaStream_t s) {
  if (retry_injected) return 0;
  if (!retry_counted && ga_fault(GA_FAULT_LAUNCH)) {
    retry_counted = retry_injected = 1;
    return 0;
  }
  int ok = drv_launch && drv_launch(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)shmem,
                                    (CUstream)s, args, NULL) == CUDA_SUCCESS;
  retry_counted = !ok;
  return ok;
}

cudaError_t ga_runtime_launch(const void *k, dim3 grid, dim3 block, void **args, size_t shmem,
                              cudaStream_t s) {
  int injected = retry_counted ? retry_injected : ga_fault(GA_FAULT_LAUNCH);
  retry_counted = retry_injected = 0;
  if (injected) return cudaErrorLaunchFailure;
  return cudaLaunchKernel(k, grid, block, args, shmem, s);
}

/* (kernel, device) -> CUfunction, per thread: no lock on the hot path */
#define FCACHE 256
typedef struct {
  cudaKernel_t k;
  int dev;
  CUfunction fn;
} fentry;
static _Thread_local fentry fcache[FCACHE];

static CUfunction cached_function(cudaKernel_t k) {
  int dev = -1;
  if (cudaGetDevice(&dev) != cudaSuccess) return NULL;
  fentry *e = &fcache[((uintptr_t)k >> 4) & (FCACHE - 1)];
  if (e->k == k && e->dev == dev) return e->fn;
  CUfunction fn = ga_driver_function(k);
  if (fn) {
    e->k = k;
    e->dev = dev;
    e->fn = fn;
  }
  return fn;
}

/* Kept out of line so ga_launch stays a lookup, a call and a compare */
__attribute__((noinline, cold, noreturn))
static void launch_failed(lua_State *L, const char *what, cudaError_t err) {
  (void)cudaGetLastError();   /* clear a non-sticky error for the next call */
  ga_error(L, "%s: launch failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
  abort();   /* not reached: ga_error raises */
}

unsigned ga_grid_for(lua_State *L, int device, uint64_t work, int threads, int per_sm) {
  uint64_t blocks = (work + (uint64_t)threads - 1) / (uint64_t)threads;
  uint64_t cap = (uint64_t)ga_device_info(L, device)->sm_count * (uint64_t)per_sm;
  if (blocks > cap) blocks = cap;
  return (unsigned)(blocks ? blocks : 1);
}

void ga_launch(lua_State *L, const char *what, cudaKernel_t k, dim3 grid, dim3 block,
               void **args, size_t shmem, cudaStream_t stream) {
  CUfunction fn = cached_function(k);
  if (!fn || !ga_driver_launch(fn, grid, block, args, shmem, stream)) {
    /* no driver path, or it failed: the runtime names the error */
    cudaError_t err = ga_runtime_launch((const void *)k, grid, block, args, shmem, stream);
    if (err != cudaSuccess) launch_failed(L, what, err);
  }
  ga_gc_settle(L);
}
