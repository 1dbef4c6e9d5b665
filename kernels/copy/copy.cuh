// copy.cuh: the copy engine's kernels (copy with cast, fill, arange).
// src/array/copy.c instantiates one of them per dtype pair and layout class, as a
// one-line extern "C" wrapper appended after this file.

// Contiguous to contiguous, V elements a thread through one vector load and
// one vector store (the host picks V from the pointers' alignment).
template <typename Out, typename In, int V, typename I>
__device__ __forceinline__ void ga_copy_flat(Out *__restrict__ dst, const In *__restrict__ src, I n) {
  I base = ((I)blockIdx.x * blockDim.x + threadIdx.x) * V;
  if (base + V <= n) {
    ga_vec<In, V> a = *reinterpret_cast<const ga_vec<In, V> *>(src + base);
    ga_vec<Out, V> b;
#pragma unroll
    for (int k = 0; k < V; k++) b.v[k] = ga_cast<Out>(a.v[k]);
    *reinterpret_cast<ga_vec<Out, V> *>(dst + base) = b;
  } else {
    for (I k = base; k < n; k++) dst[k] = ga_cast<Out>(src[k]);
  }
}

// Any layout: a grid-stride loop over the merged iteration space.
template <typename Out, typename In, typename IX, typename I, typename O>
__device__ __forceinline__ void ga_copy_strided(void *dst, const void *src, const IX &ix, I n) {
  I stride = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    O off[2];
    ix.offsets(i, off);
    *ga_at<Out>(dst, off[0]) = ga_cast<Out>(*ga_at<In>(src, off[1]));
  }
}

// Transposing copies: dst is fast along axis 1, src along axis 0 (the host
// relabels axes to make it so). A 32x32 tile passes through shared memory so
// that both the reads and the writes are coalesced. Axis 2 (if any) is a
// batch axis walked by blockIdx.z. Strides are in elements.
#define GA_TILE 32
#define GA_TILE_ROWS 8
template <typename Out, typename In>
__device__ __forceinline__ void ga_copy_tiled(Out *dst, const In *src,
                                              long long n0, long long n1, long long nb,
                                              long long d0, long long d1, long long db,
                                              long long s0, long long s1, long long sb) {
  __shared__ Out tile[GA_TILE][GA_TILE + 1];
  long long t0n = (n0 + GA_TILE - 1) / GA_TILE;
  long long t1n = (n1 + GA_TILE - 1) / GA_TILE;
  int tx = threadIdx.x, ty = threadIdx.y;
  for (long long b = blockIdx.z; b < nb; b += gridDim.z) {
    for (long long t0 = blockIdx.y; t0 < t0n; t0 += gridDim.y) {
      for (long long t1 = blockIdx.x; t1 < t1n; t1 += gridDim.x) {
        long long a0 = t0 * GA_TILE + tx;
#pragma unroll
        for (int k = 0; k < GA_TILE; k += GA_TILE_ROWS) {
          long long a1 = t1 * GA_TILE + ty + k;
          if (a0 < n0 && a1 < n1) tile[ty + k][tx] = ga_cast<Out>(src[b * sb + a0 * s0 + a1 * s1]);
        }
        __syncthreads();
        long long w1 = t1 * GA_TILE + tx;
#pragma unroll
        for (int k = 0; k < GA_TILE; k += GA_TILE_ROWS) {
          long long w0 = t0 * GA_TILE + ty + k;
          if (w0 < n0 && w1 < n1) dst[b * db + w0 * d0 + w1 * d1] = tile[tx][ty + k];
        }
        __syncthreads();
      }
    }
  }
}

// Fill: the value arrives as the dtype's storage.
template <typename T, int V, typename I>
__device__ __forceinline__ void ga_fill_flat(T *__restrict__ dst, T value, I n) {
  I base = ((I)blockIdx.x * blockDim.x + threadIdx.x) * V;
  if (base + V <= n) {
    ga_vec<T, V> b;
#pragma unroll
    for (int k = 0; k < V; k++) b.v[k] = value;
    *reinterpret_cast<ga_vec<T, V> *>(dst + base) = b;
  } else {
    for (I k = base; k < n; k++) dst[k] = value;
  }
}

template <typename T, typename IX, typename I, typename O>
__device__ __forceinline__ void ga_fill_strided(void *dst, T value, const IX &ix, I n) {
  I stride = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    O off[1];
    ix.offsets(i, off);
    *ga_at<T>(dst, off[0]) = value;
  }
}

// arange / linspace: floats as start + i * step in double (NumPy computes
// the same way), integers exactly in int64 (as_int 1); the last element may
// be pinned. as_int 2: floats floored before the cast (linspace into an
// integer dtype rounds toward minus infinity, as NumPy's).
template <typename T>
__device__ __forceinline__ void ga_arange(T *dst, long long n, double start, double step,
                                          long long istart, long long istep, int pin_last,
                                          double last, int as_int) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (as_int == 1) {
      dst[i] = ga_cast<T>(istart + i * istep);
    } else {
      double v = (pin_last && i == n - 1) ? last : start + (double)i * step;
      dst[i] = ga_cast<T>(as_int == 2 ? floor(v) : v);
    }
  }
}
