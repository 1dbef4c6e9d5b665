/*
** gpuarray.h: the C API of gpuarray for host applications that embed Lua
** (a game engine, a simulator, a data server) and hand their own device
** buffers and streams to Lua scripts. docs/embedding.md is the guide.
**
** It needs only lua.h and cuda_runtime_api.h, and compiles as C and C++.
** Link the module itself (`pkg-config --cflags --libs gpuarray`): one copy
** of it per process, shared by every lua_State and thread.
**
** Threads: any number of lua_States, each driven by one thread at a time
** (as Lua requires), may use the module at once. Pools, kernel caches and
** compiled programs are process-wide and locked; library handles, the
** current device, stream and default dtype belong to each lua_State.
** Every function below takes the lua_State it acts on and is safe to call
** from the thread that is running that state.
*/
#ifndef GPUARRAY_H
#define GPUARRAY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#include <lua.h>
#ifdef __cplusplus
}
#endif
#include <cuda_runtime_api.h>

#define GPUARRAY_VERSION_MAJOR 0
#define GPUARRAY_VERSION_MINOR 2
#define GPUARRAY_VERSION_PATCH 0
#define GPUARRAY_VERSION "0.2.0"
/* major * 10000 + minor * 100 + patch, for #if */
#define GPUARRAY_VERSION_NUM \
  (GPUARRAY_VERSION_MAJOR * 10000 + GPUARRAY_VERSION_MINOR * 100 + GPUARRAY_VERSION_PATCH)

#if defined(__GNUC__) || defined(__clang__)
#define GA_API __attribute__((visibility("default")))
#else
#define GA_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* dtypes (x.dtype in Lua is the name: "float32", ...) */
typedef enum {
  GA_DT_BOOL, GA_DT_INT8, GA_DT_INT16, GA_DT_INT32, GA_DT_INT64,
  GA_DT_UINT8, GA_DT_UINT16, GA_DT_UINT32, GA_DT_UINT64,
  GA_DT_FLOAT16, GA_DT_FLOAT32, GA_DT_FLOAT64, GA_DT_COMPLEX64, GA_DT_COMPLEX128,
  GA_DT_BFLOAT16   /* 2 bytes, float32's upper half; last, so older ids stay */
} ga_dtype_id;

/* The version of the module that is linked (the GPUARRAY_VERSION it was
** built with): compare it with this header's when the two may differ */
GA_API const char *ga_version(void);

/* Opens the module in L and pushes its table, like require "gpuarray":
** registers "gpuarray", "gpuarray.core" and every Lua part of it in
** package.preload (entries the host set itself are kept), so a host needs
** no Lua files on disk. Needs the package library (luaL_openlibs). Use it
** with luaL_requiref(L, "gpuarray", luaopen_gpuarray, 1) or call it. */
GA_API int luaopen_gpuarray(lua_State *L);
/* The C part alone (what init.lua requires as "gpuarray.core") */
GA_API int luaopen_gpuarray_core(lua_State *L);

/* Called once, when the last array or view over wrapped memory is gone
** (collected, freed with x:free(), or its state closed). It runs inside
** the collector: it must not call Lua or raise. Work the module queued on
** the memory may still be running on the state's streams: synchronize
** them (or the device) before the memory is reused. cudaFree does. */
typedef void (*ga_release_fn)(void *ctx, void *ptr);

/* Pushes an ndarray over device memory the host owns (no copy): ndim axes
** of shape[i] elements, strides[i] in bytes (NULL: C order, contiguous),
** on the device that owns ptr. release(ctx, ptr) is called when the last
** view dies (release may be NULL). On a bad argument (ptr not device
** memory, unknown dtype, negative shape, more than 32 axes) it raises a
** "gpuarray: ga_wrap: ..." error and the host keeps the memory: release
** is not called. */
GA_API void ga_wrap(lua_State *L, void *ptr, int dtype, int ndim, const int64_t *shape,
                    const int64_t *strides, ga_release_fn release, void *ctx);

/* A read-only description of an ndarray. shape and strides point into the
** array; they are valid as long as the array is (keep it on the stack). */
typedef struct {
  void *data;              /* device address of the first element (NULL: size 0) */
  int dtype;               /* a ga_dtype_id */
  int itemsize;            /* bytes */
  int ndim;
  int device;              /* CUDA ordinal */
  int64_t size;            /* elements */
  const int64_t *shape;    /* ndim lengths */
  const int64_t *strides;  /* ndim steps, in bytes (may be negative or 0) */
  int c_contiguous, f_contiguous;
  cudaStream_t stream;     /* the current stream of L: where its pending work was queued */
} ga_desc;

/* The ndarray at idx described in *out (returns 1), or 0 when the value is
** no usable ndarray (not one, or freed). Pending work on it (lazy
** evaluation) is queued first, so the memory holds its value in stream
** order; that work can raise a gpuarray error (a CUDA failure). */
GA_API int ga_test(lua_State *L, int idx, ga_desc *out);
/* Like ga_test, but raises "gpuarray: expected an ndarray at argument
** idx" instead of returning 0 */
GA_API ga_desc ga_check(lua_State *L, int idx);

/* Makes a stream the host owns (of L's current device) the current stream
** of L: later work of L's scripts is queued on it. The module never
** destroys it. A state gives it back when the host sets another stream
** (ga_set_stream(L, NULL): the legacy default stream) or closes the state;
** once every state gave it back (and Lua dropped every Stream object
** ga_push_stream made over it), the memory pools have settled it (an event
** recorded after its last work) and no longer name it, and the host may
** destroy it. */
GA_API void ga_set_stream(lua_State *L, cudaStream_t stream);
/* Pushes a ga.Stream object over a host-owned stream (never destroyed by
** the module: destroy(), __gc and __close leave it alone; the object uses
** the stream until it is collected) */
GA_API void ga_push_stream(lua_State *L, cudaStream_t stream);
/* Settles a stream the host gave the module at once, whatever still uses
** it (the pools stop fencing work on it; memory freed on it is reused only
** after its last work). Not needed after the states gave it back; for a
** host that destroys a stream while Lua may still hold a Stream object
** over it. */
GA_API void ga_forget_stream(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------
** DLPack (v1.1, dmlc/dlpack include/dlpack/dlpack.h), the layouts that
** x:to_dlpack() and ga.from_dlpack(p) exchange as light userdata. Skipped
** when the host included dlpack.h first (same include guard).
** ---------------------------------------------------------------------- */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#define DLPACK_DLL

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;        /* in elements, not bytes; NULL: compact row-major */
  uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void * manager_ctx;
  void (*deleter)(struct DLManagedTensor * self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
};

#ifdef __cplusplus
}  /* DLPACK_EXTERN_C */
#endif
#endif  /* DLPACK_DLPACK_H_ */

#endif  /* GPUARRAY_H */
