// mask.cuh: stream compaction for boolean masks and nonzero (src/mask.c),
// after common.cuh, reduction.cuh and scan.cuh. Three passes over tiles of
// 4096 elements (256 threads x 16 consecutive elements):
//   1. ga_mask_count: the number of selected elements of each tile;
//   2. ga_mask_offsets: one block turns the counts into exclusive offsets
//      and the total (the host reads the total: the one synchronization);
//   3. ga_mask_compact: each tile places its selected elements at its
//      offset plus their rank in the tile, through a sink (copy the values,
//      write 1-based coordinates, or scatter values into x).
// The "flags" are a bool mask, or any array read as "is not zero".

#define GA_MASK_ITEMS 16
#define GA_MASK_TILE (GA_SCAN_THREADS * GA_MASK_ITEMS)

// The 16 flags of this thread as bits; VEC: 16-byte loads (the host
// checked alignment; p is contiguous)
template <typename T, bool VEC>
__device__ __forceinline__ unsigned ga_mask_bits(const T *p, long long n, long long j0) {
  unsigned bits = 0;
  if (VEC && j0 + GA_MASK_ITEMS <= n) {
    constexpr int V = 16 / sizeof(T) < GA_MASK_ITEMS ? 16 / sizeof(T) : GA_MASK_ITEMS;
#pragma unroll
    for (int k = 0; k < GA_MASK_ITEMS; k += V) {
      ga_vec<T, V> x = *reinterpret_cast<const ga_vec<T, V> *>(p + j0 + k);
#pragma unroll
      for (int q = 0; q < V; q++) bits |= (unsigned)ga_cast<bool>(x.v[q]) << (k + q);
    }
  } else {
#pragma unroll
    for (int k = 0; k < GA_MASK_ITEMS; k++)
      if (j0 + k < n) bits |= (unsigned)ga_cast<bool>(p[j0 + k]) << k;
  }
  return bits;
}

template <typename T, bool VEC>
__device__ __forceinline__ void ga_mask_count(const T *p, long long n, int *counts) {
  __shared__ int warp_sum[GA_SCAN_THREADS / 32];
  const long long ntiles = (n + GA_MASK_TILE - 1) / GA_MASK_TILE;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const long long j0 = t * GA_MASK_TILE + (long long)threadIdx.x * GA_MASK_ITEMS;
    int c = __popc(ga_mask_bits<T, VEC>(p, n, j0));
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) c += __shfl_down_sync(0xffffffffu, c, d);
    if (lane == 0) warp_sum[warp] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
      int s = 0;
#pragma unroll
      for (int w = 0; w < GA_SCAN_THREADS / 32; w++) s += warp_sum[w];
      counts[t] = s;
    }
    __syncthreads();
  }
}

// One block of 1024 threads: offsets[t] = counts[0] + ... + counts[t-1],
// offsets[ntiles] = the total.
__device__ __forceinline__ void ga_mask_offsets(const int *counts, long long ntiles, long long *offsets) {
  __shared__ long long warp_tot[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long per = (ntiles + blockDim.x - 1) / blockDim.x;
  const long long lo = (long long)threadIdx.x * per;
  const long long hi = lo + per < ntiles ? lo + per : ntiles;
  long long s = 0;
  for (long long t = lo; t < hi; t++) s += counts[t];
  long long inc = s;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    long long y = __shfl_up_sync(0xffffffffu, inc, d);
    if (lane >= d) inc += y;
  }
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    const int nw = blockDim.x >> 5;
    long long w = lane < nw ? warp_tot[lane] : 0;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      long long y = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += y;
    }
    if (lane < nw) warp_tot[lane] = w;
  }
  __syncthreads();
  long long run = (warp > 0 ? warp_tot[warp - 1] : 0) + inc - s;
  for (long long t = lo; t < hi; t++) {
    offsets[t] = run;
    run += counts[t];
  }
  if (threadIdx.x == blockDim.x - 1) offsets[ntiles] = warp_tot[(blockDim.x >> 5) - 1];
}

template <typename T, bool VEC, class Sink>
__device__ __forceinline__ void ga_mask_compact(const T *p, long long n, const long long *offsets, const Sink &sink) {
  const long long ntiles = (n + GA_MASK_TILE - 1) / GA_MASK_TILE;
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const long long j0 = t * GA_MASK_TILE + (long long)threadIdx.x * GA_MASK_ITEMS;
    const unsigned bits = ga_mask_bits<T, VEC>(p, n, j0);
    int total;
    const int ex = ga_block_exscan<ga_scan_add<int> >(__popc(bits), &total);
    sink.put(j0, bits, offsets[t] + ex, n);
    __syncthreads();      // the scan's scratch is reused by the next tile
  }
}

// Sinks: put(j0, bits, pos, n) handles the thread's 16 elements from j0,
// writing the selected ones at pos, pos + 1, ...

// x[mask] -> dst: the values, from a contiguous x (VEC: 16-byte loads)
template <typename V, bool VEC>
struct ga_sink_copy {
  const V *src;
  V *dst;
  __device__ __forceinline__ void put(long long j0, unsigned bits, long long pos, long long n) const {
    if (!bits) return;
    if (VEC && j0 + GA_MASK_ITEMS <= n) {
      constexpr int W = 16 / sizeof(V) < GA_MASK_ITEMS ? 16 / sizeof(V) : GA_MASK_ITEMS;
#pragma unroll
      for (int k = 0; k < GA_MASK_ITEMS; k += W) {
        if (!((bits >> k) & ((1u << W) - 1u))) continue;
        ga_vec<V, W> x = *reinterpret_cast<const ga_vec<V, W> *>(src + j0 + k);
#pragma unroll
        for (int q = 0; q < W; q++)
          if ((bits >> (k + q)) & 1u) dst[pos++] = x.v[q];
      }
    } else {
#pragma unroll
      for (int k = 0; k < GA_MASK_ITEMS; k++)
        if ((bits >> k) & 1u) dst[pos++] = src[j0 + k];
    }
  }
};

// nonzero / argwhere: 1-based coordinates of flat index j over shape,
// coordinate d of element pos at out[pos * ps + d * ds]
template <int ND>
struct ga_sink_coords {
  long long *out;
  long long ps, ds;
  long long shape[ND];
  __device__ __forceinline__ void put(long long j0, unsigned bits, long long pos, long long) const {
    for (int k = 0; k < GA_MASK_ITEMS; k++) {
      if (!((bits >> k) & 1u)) continue;
      long long j = j0 + k;
#pragma unroll
      for (int d = ND - 1; d >= 0; d--) {
        const long long q = j / shape[d];
        out[pos * ps + d * ds] = j - q * shape[d] + 1;
        j = q;
      }
      pos++;
    }
  }
};

// x[mask] = values: the selected elements of x (any layout, located by
// their C-order index through the indexer) take vals[pos]
template <typename V, class IX>
struct ga_sink_scatter {
  char *x;
  const V *vals;
  IX ix;
  __device__ __forceinline__ void put(long long j0, unsigned bits, long long pos, long long) const {
    for (int k = 0; k < GA_MASK_ITEMS; k++) {
      if (!((bits >> k) & 1u)) continue;
      long long off[1];
      ix.offsets((unsigned long long)(j0 + k), off);
      *reinterpret_cast<V *>(x + off[0]) = vals[pos++];
    }
  }
};

// x[mask] = v for one value: v, or *vp when vp is not null (a device value)
template <typename T, class IX, typename I, typename O>
__device__ __forceinline__ void ga_mask_fill(char *x, const char *m, const IX &ix, I n, T v, const T *vp) {
  const T val = vp ? *vp : v;
  const I stride = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    O off[2];
    ix.offsets(i, off);
    if (*reinterpret_cast<const bool *>(m + off[1])) *reinterpret_cast<T *>(x + off[0]) = val;
  }
}
