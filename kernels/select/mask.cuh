// mask.cuh: stream compaction for boolean masks and nonzero (src/select/mask.c),
// after common.cuh and reduction.cuh (ga_red_offsets). Three passes over
// tiles of 4096 elements:
//   1. ga_mask_count: the number of selected elements of each tile;
//   2. ga_mask_offsets: one block turns the counts into exclusive offsets
//      and the total (the host reads the total: the one synchronization);
//   3. a compaction: each tile places its selected elements at its offset
//      plus their rank in the tile. x[mask] has its own kernel,
//      ga_mask_select (coalesced loads and stores, the bytes of a copy);
//      nonzero and x[mask] = values go through ga_mask_compact and a sink.
// The "flags" are a bool mask (read as bytes: any nonzero byte is true), or
// any array read as "is not zero".

#define GA_MASK_THREADS 256
#define GA_MASK_ITEMS 16
#define GA_MASK_TILE (GA_MASK_THREADS * GA_MASK_ITEMS)

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
  __shared__ int warp_sum[GA_MASK_THREADS / 32];
  const long long ntiles = (n + GA_MASK_TILE - 1) / GA_MASK_TILE;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll 1
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
      for (int w = 0; w < GA_MASK_THREADS / 32; w++) s += warp_sum[w];
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
  // 8 loads in flight at a time: one block is latency-bound
  long long s = 0;
#pragma unroll 1
  for (long long t0 = lo; t0 < hi; t0 += 8) {
    int c[8];
#pragma unroll
    for (int u = 0; u < 8; u++) c[u] = t0 + u < hi ? counts[t0 + u] : 0;
#pragma unroll
    for (int u = 0; u < 8; u++) s += c[u];
  }
  const long long inc = ga_warp_inscan_sum(s);
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    const int nw = blockDim.x >> 5;
    const long long w = ga_warp_inscan_sum(lane < nw ? warp_tot[lane] : 0LL);
    if (lane < nw) warp_tot[lane] = w;
  }
  __syncthreads();
  long long run = (warp > 0 ? warp_tot[warp - 1] : 0) + inc - s;
#pragma unroll 1
  for (long long t0 = lo; t0 < hi; t0 += 8) {
    int c[8];
#pragma unroll
    for (int u = 0; u < 8; u++) c[u] = t0 + u < hi ? counts[t0 + u] : 0;
#pragma unroll
    for (int u = 0; u < 8; u++) {
      if (t0 + u < hi) offsets[t0 + u] = run;
      run += c[u];
    }
  }
  if (threadIdx.x == blockDim.x - 1) offsets[ntiles] = warp_tot[(blockDim.x >> 5) - 1];
}

// ---------------------------------------------------------------------------
// x[mask]: the selected values of a contiguous x, in order. Warp w of a
// tile owns its elements w*512 .. w*512+511 in 4 chunks of 128, lane l the
// 4 elements l*4 .. l*4+3 of a chunk: the mask is read 4 bytes a lane and
// x 4 values a lane (16-byte loads for 4-byte values; VECM/VECX: the host
// checked alignment), both coalesced. A lane's rank among the warp's
// selected elements comes from 4 ballots; the selected values of a chunk
// gather in shared memory and leave as one contiguous, coalesced run.
template <typename V, bool VECM, bool VECX>
__device__ __forceinline__ void ga_mask_select(const unsigned char *mask, const V *src, V *dst, long long n,
                                               const long long *offsets) {
  __shared__ int s_wcount[GA_MASK_THREADS / 32];
  GA_SMEM(V, s_stage, GA_MASK_THREADS * 4);
  const long long ntiles = (n + GA_MASK_TILE - 1) / GA_MASK_TILE;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned lt = (1u << lane) - 1u;
  V *stage = s_stage + warp * 128;
#pragma unroll 1
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const long long j0 = t * GA_MASK_TILE + warp * 512 + lane * 4;
    const bool full = (t + 1) * GA_MASK_TILE <= n;
    unsigned bits[4];
    ga_vec<V, 4> x[4];
    int ex[4], tot[4], wsum = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
      const long long j = j0 + k * 128;
      if (VECM && full) {
        const unsigned m = *reinterpret_cast<const unsigned *>(mask + j);
        bits[k] = (m & 0xffu ? 1u : 0u) | (m & 0xff00u ? 2u : 0u) | (m & 0xff0000u ? 4u : 0u) |
                  (m & 0xff000000u ? 8u : 0u);
      } else {
        bits[k] = 0;
#pragma unroll
        for (int q = 0; q < 4; q++)
          if (full || j + q < n) bits[k] |= (mask[j + q] ? 1u : 0u) << q;
      }
      if (VECX && full) {
        x[k] = *reinterpret_cast<const ga_vec<V, 4> *>(src + j);
      } else {
#pragma unroll
        for (int q = 0; q < 4; q++)
          if ((bits[k] >> q) & 1u) x[k].v[q] = src[j + q];
      }
      int e = 0, c = 0;
#pragma unroll
      for (int q = 0; q < 4; q++) {
        const unsigned b = __ballot_sync(0xffffffffu, (bits[k] >> q) & 1u);
        e += __popc(b & lt);
        c += __popc(b);
      }
      ex[k] = e;
      tot[k] = c;
      wsum += c;
    }
    if (lane == 0) s_wcount[warp] = wsum;
    __syncthreads();
    long long pos = offsets[t];
#pragma unroll
    for (int w = 0; w < GA_MASK_THREADS / 32; w++)
      if (w < warp) pos += s_wcount[w];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      int r = ex[k];
#pragma unroll
      for (int q = 0; q < 4; q++)
        if ((bits[k] >> q) & 1u) stage[r++] = x[k].v[q];
      __syncwarp();
#pragma unroll
      for (int i = lane; i < 128; i += 32)
        if (i < tot[k]) dst[pos + i] = stage[i];
      __syncwarp();
      pos += tot[k];
    }
    __syncthreads();      // s_wcount is reused by the next tile
  }
}

// ---------------------------------------------------------------------------
// The general compaction: the thread's 16 consecutive elements, ranked by a
// block scan, handed to a sink.

// Exclusive prefix (within the block) of each thread's count and the block
// total; all threads must call it.
__device__ __forceinline__ int ga_mask_block_exscan(int x, int *total) {
  __shared__ int warp_tot[GA_MASK_THREADS / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int inc = ga_warp_inscan_sum(x);
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  int before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < GA_MASK_THREADS / 32; w++) {
    const int c = warp_tot[w];
    if (w < warp) before += c;
    all += c;
  }
  *total = all;
  return before + inc - x;
}

template <typename T, bool VEC, class Sink>
__device__ __forceinline__ void ga_mask_compact(const T *p, long long n, const long long *offsets, const Sink &sink) {
  const long long ntiles = (n + GA_MASK_TILE - 1) / GA_MASK_TILE;
#pragma unroll 1
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const long long j0 = t * GA_MASK_TILE + (long long)threadIdx.x * GA_MASK_ITEMS;
    const unsigned bits = ga_mask_bits<T, VEC>(p, n, j0);
    int total;
    const int ex = ga_mask_block_exscan(__popc(bits), &total);
    sink.put(j0, bits, offsets[t] + ex, n);
    __syncthreads();      // the scan's scratch is reused by the next tile
  }
}

// Sinks: put(j0, bits, pos, n) handles the thread's 16 elements from j0,
// writing the selected ones at pos, pos + 1, ...

// nonzero / argwhere: 1-based coordinates of flat index j over shape,
// coordinate d of element pos at out[pos * ps + d * ds]
template <int ND>
struct ga_sink_coords {
  long long *out;
  long long ps, ds;
  long long shape[ND];
  __device__ __forceinline__ void put(long long j0, unsigned bits, long long pos, long long) const {
#pragma unroll 1
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
#pragma unroll 1
    for (int k = 0; k < GA_MASK_ITEMS; k++) {
      if (!((bits >> k) & 1u)) continue;
      long long off[1];
      ga_red_offsets(ix, (unsigned long long)(j0 + k), off);
      *reinterpret_cast<V *>(x + off[0]) = vals[pos++];
    }
  }
};

// x[mask] = v for one value: v, or *vp when vp is not null (a device value)
template <typename T, class IX, typename I, typename O>
__device__ __forceinline__ void ga_mask_fill(char *x, const char *m, const IX &ix, I n, T v, const T *vp) {
  const T val = vp ? *vp : v;
  const I stride = (I)gridDim.x * blockDim.x;
#pragma unroll 1
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    O off[2];
    ga_red_offsets(ix, i, off);
    if (*reinterpret_cast<const unsigned char *>(m + off[1])) *reinterpret_cast<T *>(x + off[0]) = val;
  }
}
