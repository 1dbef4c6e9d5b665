/*
** peer.c: copies between devices (ga.array(x), x:copy() and x:astype()
** of an array that lives on another device than the current one). The
** bytes go peer to peer (cudaMemcpyPeerAsync: over NVLink or PCIe when the
** devices can reach each other, which is switched on the first time a pair
** meets; through the host otherwise, which the driver arranges).
**
** Ordering, without waiting on the host: the destination array comes from
** the current device's pool for its current stream, so the source device's
** current stream first waits for that stream (the memory may still be in
** use there), then makes a contiguous copy of the source if it needs one,
** copies, and the destination stream waits for that. Every block is used
** on the stream it was allocated for, so the pools' stream-ordered reuse
** stays right.
*/
#include <stdatomic.h>

#include "array/array.h"

#define MAX_PAIRS 64
static atomic_uchar peer_tried[MAX_PAIRS][MAX_PAIRS];

/* Let the current device (from) reach `to` directly, once per process and
** pair; a pair that cannot is left to the driver's staging */
static void enable_peer(int from, int to) {
  if (from >= MAX_PAIRS || to >= MAX_PAIRS || atomic_exchange(&peer_tried[from][to], 1)) return;
  int can = 0;
  if (cudaDeviceCanAccessPeer(&can, from, to) == cudaSuccess && can) {
    if (cudaDeviceEnablePeerAccess(to, 0) != cudaSuccess) (void)cudaGetLastError();  /* already on */
  }
}

/* In protected mode, on the source device: 1 = the source array; pushes a
** C-contiguous version of it */
static int contiguous_on_source(lua_State *L) {
  ga_contiguous(L, ga_ctx(L), 1, -1, 0);
  return 1;
}

/* Back on the destination device, then raise if status says so */
static void come_back(lua_State *L, ga_state *ctx, int device, cudaError_t status, const char *what) {
  ga_stream_switch_device(L, ctx, device);
  ga_device_enter(L, ctx);
  ga_cuda_check(L, status, what);
}

void ga_copy_across(lua_State *L, ga_state *ctx, int idx, int dtype) {
  idx = lua_absindex(L, idx);
  ga_array *a = ga_readarray(L, idx);
  if (dtype < 0) dtype = a->dtype;
  int here = ctx->device, there = a->device;
  ga_device_enter(L, ctx);
  ga_capture_refuse(L, ctx, "array", "cannot copy between devices while stream capture is active");
  ga_array *c = ga_new_array(L, ctx, a->dtype, a->ndim, a->shape);
  size_t n = (size_t)(a->size * ga_dtypes[a->dtype].itemsize);
  if (n) {
    enable_peer(here, there);
    cudaEvent_t free_here = NULL, done_there = NULL;
    ga_cuda_check(L, cudaEventCreateWithFlags(&free_here, cudaEventDisableTiming), "cudaEventCreate");
    cudaError_t err = cudaEventRecord(free_here, ctx->stream);
    cudaStream_t dst_stream = ctx->stream;
    if (err != cudaSuccess) {
      cudaEventDestroy(free_here);
      ga_cuda_check(L, err, "cudaEventRecord");
    }
    /* on the source device, with its current stream */
    ga_stream_switch_device(L, ctx, there);
    ga_state_push(L);   /* contiguous_on_source reads the context as upvalue 1 */
    lua_pushcclosure(L, contiguous_on_source, 1);
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
      cudaEventDestroy(free_here);
      ga_stream_switch_device(L, ctx, here);
      lua_error(L);
    }
    ga_array *src = ga_toarray(L, -1);
    err = cudaSetDevice(there);
    if (err == cudaSuccess) err = cudaStreamWaitEvent(ctx->stream, free_here, 0);
    if (err == cudaSuccess) {
      enable_peer(there, here);
      err = cudaMemcpyPeerAsync(c->data, here, src->data, there, n, ctx->stream);
    }
    if (err == cudaSuccess) err = cudaEventCreateWithFlags(&done_there, cudaEventDisableTiming);
    if (err == cudaSuccess) err = cudaEventRecord(done_there, ctx->stream);
    lua_pop(L, 1);
    cudaEventDestroy(free_here);   /* released once it has completed */
    if (err != cudaSuccess) {
      if (done_there) cudaEventDestroy(done_there);
      come_back(L, ctx, here, err, "array: a copy between devices");
    }
    come_back(L, ctx, here, cudaSuccess, "");
    err = cudaStreamWaitEvent(dst_stream, done_there, 0);
    cudaEventDestroy(done_there);
    ga_cuda_check(L, err, "array: cudaStreamWaitEvent");
  }
  if (dtype != a->dtype) {
    ga_array *d = ga_new_array(L, ctx, dtype, a->ndim, a->shape);
    ga_copy_into(L, ctx, d, c, "array");
    lua_remove(L, -2);
  }
}
