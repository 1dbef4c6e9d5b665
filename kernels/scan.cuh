// scan.cuh: cumulative sums and products along one axis (src/scan.c), after
// common.cuh and reduction.cuh (shuffles, ga_r_add / ga_r_mul).
//
// Two kernel shapes:
//  - ga_scan_tiles: the axis is contiguous. A row is cut into tiles of
//    256 * ITEMS elements; blocks take tiles in launch order (an atomic
//    ticket), scan their tile and get the sum of the tiles before them in a
//    single pass, through a Fenwick tree built on the fly: tile e publishes
//    F(e), the combination of the aggregates of the tiles
//    (e + 1 - lowbit(e + 1), e], computed as F(e - 2^(K-1)) + ... +
//    F(e - 1) + a(e) from values its predecessors published; the prefix of
//    tile t is F over the binary decomposition of t, left to right. Every
//    value is defined by the tile aggregates alone, combined in a fixed
//    order, so the result has the same bits however blocks were scheduled
//    (a plain decoupled look-back does not), and each tile waits for at
//    most 2 log2(tiles) values, fetched by the lanes of one warp at once.
//  - ga_scan_rows: the axis is not the fast one: one thread per row walks
//    it sequentially (neighbouring threads read neighbouring rows, so the
//    reads coalesce), in NumPy's order.

template <typename A>
struct ga_scan_add {
  typedef A acc_t;
  static __device__ __forceinline__ A identity() { return A(0); }
  static __device__ __forceinline__ A combine(const A &a, const A &b) { return ga_r_add(a, b); }
};
template <typename A>
struct ga_scan_mul {
  typedef A acc_t;
  static __device__ __forceinline__ A identity() { return A(1); }
  static __device__ __forceinline__ A combine(const A &a, const A &b) { return ga_r_mul(a, b); }
};

// Volatile word-wise access for the look-back (values are multiples of 4 bytes)
template <typename T>
__device__ __forceinline__ T ga_ld_volatile(const T *p) {
  constexpr int W = sizeof(T) / 4;
  unsigned u[W];
  const volatile unsigned *q = reinterpret_cast<const volatile unsigned *>(p);
#pragma unroll
  for (int k = 0; k < W; k++) u[k] = q[k];
  T r;
  memcpy(&r, u, sizeof(T));
  return r;
}
template <typename T>
__device__ __forceinline__ void ga_st_volatile(T *p, const T &v) {
  constexpr int W = sizeof(T) / 4;
  unsigned u[W];
  memcpy(u, &v, sizeof(T));
  volatile unsigned *q = reinterpret_cast<volatile unsigned *>(p);
#pragma unroll
  for (int k = 0; k < W; k++) q[k] = u[k];
}

#define GA_SCAN_THREADS 256

// Exclusive prefix (within the block) of each thread's value and the block
// total; all threads must call it.
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_block_exscan(typename Op::acc_t x, typename Op::acc_t *total) {
  typedef typename Op::acc_t A;
  GA_SMEM(A, warp_tot, GA_SCAN_THREADS / 32);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  A inc = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    A y = ga_shfl_up(inc, d);
    if (lane >= d) inc = Op::combine(y, inc);
  }
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    A w = lane < GA_SCAN_THREADS / 32 ? warp_tot[lane] : Op::identity();
#pragma unroll
    for (int d = 1; d < GA_SCAN_THREADS / 32; d <<= 1) {
      A y = ga_shfl_up(w, d);
      if (lane >= d) w = Op::combine(y, w);
    }
    if (lane < GA_SCAN_THREADS / 32) warp_tot[lane] = w;   // inclusive over warps
  }
  __syncthreads();
  A lane_ex = ga_shfl_up(inc, 1);
  A ex;
  if (warp == 0) ex = lane == 0 ? Op::identity() : lane_ex;
  else ex = lane == 0 ? warp_tot[warp - 1] : Op::combine(warp_tot[warp - 1], lane_ex);
  *total = warp_tot[GA_SCAN_THREADS / 32 - 1];
  return ex;
}

// Wait until tile idx has published F, then read it
template <typename A>
__device__ __forceinline__ A ga_scan_wait(const int *flags, const A *fen, long long idx) {
  const volatile int *fp = flags + idx;
  while (*fp == 0) {
  }
  __threadfence();                    // the value after the flag that announced it
  return ga_ld_volatile(fen + idx);
}

// Warp 0 of the block of tile tr of a row (row tiles start at index base):
// publishes F(tr) from the tile's aggregate and returns the combination of
// every tile before it (valid when tr > 0), in every lane.
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_scan_fenwick(long long base, long long tr,
                                                              const typename Op::acc_t &agg, int *flags,
                                                              typename Op::acc_t *fen) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
  // F(tr): the K blocks to its left, K = trailing ones of tr
  const int K = __ffsll(tr + 1) - 1;
  A child = Op::identity();
  if (lane < K) child = ga_scan_wait(flags, fen, base + tr - (1ll << lane));
  A f = agg;
  for (int j = 0; j < K; j++) f = Op::combine(ga_shfl_idx(child, j), f);
  if (lane == 0) {
    ga_st_volatile(fen + base + tr, f);
    __threadfence();
    *(volatile int *)(flags + base + tr) = 1;
  }
  // the prefix: F over the binary decomposition of tr, highest bit first
  const int np = __popcll(tr);
  A part = Op::identity();
  if (lane < np) {
    unsigned long long m = (unsigned long long)tr;
    for (int q = 0; q < np - 1 - lane; q++) m &= m - 1;   // keep the top lane + 1 bits
    part = ga_scan_wait(flags, fen, base + (long long)m - 1);
  }
  A p = ga_shfl_idx(part, 0);
  for (int i = 1; i < np; i++) p = Op::combine(p, ga_shfl_idx(part, i));
  return p;
}

// One tile per block; in/out rows located by the row indexer (operands 0
// and 1), the axis strides sin/sout in bytes. VIN/VOUT > 1: vector access
// (the host checked unit stride and alignment).
template <class Op, typename TIn, typename TOut, int ITEMS, int VIN, int VOUT, class IX>
__device__ __forceinline__ void ga_scan_tiles(const char *in, char *out, const IX &ix, long long n,
                                              long long sin, long long sout, long long tiles_per_row,
                                              int *ticket, int *flags, typename Op::acc_t *fen) {
  typedef typename Op::acc_t A;
  __shared__ long long s_tile;
  GA_SMEM(A, s_prefix, 1);
  if (threadIdx.x == 0) s_tile = atomicAdd(ticket, 1);
  __syncthreads();
  const long long t = s_tile;
  const long long row = t / tiles_per_row, tr = t - row * tiles_per_row;
  long long off[2];
  ix.offsets((unsigned long long)row, off);
  const char *src = in + off[0];
  char *dst = out + off[1];
  const long long j0 = tr * (GA_SCAN_THREADS * ITEMS) + (long long)threadIdx.x * ITEMS;
  A v[ITEMS];
  if (VIN > 1 && j0 + ITEMS <= n) {
#pragma unroll
    for (int k = 0; k < ITEMS; k += VIN) {
      ga_vec<TIn, VIN> x = *reinterpret_cast<const ga_vec<TIn, VIN> *>(src + (j0 + k) * (long long)sizeof(TIn));
#pragma unroll
      for (int q = 0; q < VIN; q++) v[k + q] = ga_cast<A>(x.v[q]);
    }
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
      v[k] = j0 + k < n ? ga_cast<A>(*reinterpret_cast<const TIn *>(src + (j0 + k) * sin)) : Op::identity();
  }
#pragma unroll
  for (int k = 1; k < ITEMS; k++) v[k] = Op::combine(v[k - 1], v[k]);
  A total;
  const A ex = ga_block_exscan<Op>(v[ITEMS - 1], &total);
  if (threadIdx.x < 32) {
    const A p = ga_scan_fenwick<Op>(t - tr, tr, total, flags, fen);
    if (threadIdx.x == 0) s_prefix[0] = p;
  }
  __syncthreads();
  const A base = tr == 0 ? ex : Op::combine(s_prefix[0], ex);
  if (VOUT > 1 && j0 + ITEMS <= n) {
#pragma unroll
    for (int k = 0; k < ITEMS; k += VOUT) {
      ga_vec<TOut, VOUT> y;
#pragma unroll
      for (int q = 0; q < VOUT; q++) y.v[q] = ga_cast<TOut>(Op::combine(base, v[k + q]));
      *reinterpret_cast<ga_vec<TOut, VOUT> *>(dst + (j0 + k) * (long long)sizeof(TOut)) = y;
    }
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
      if (j0 + k < n) *reinterpret_cast<TOut *>(dst + (j0 + k) * sout) = ga_cast<TOut>(Op::combine(base, v[k]));
  }
}

// One thread per row, sequential along the axis.
template <class Op, typename TIn, typename TOut, class IX>
__device__ __forceinline__ void ga_scan_rows(const char *in, char *out, const IX &ix, long long nrows, long long n,
                                             long long sin, long long sout) {
  typedef typename Op::acc_t A;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += stride) {
    long long off[2];
    ix.offsets((unsigned long long)r, off);
    const char *src = in + off[0];
    char *dst = out + off[1];
    A acc = ga_cast<A>(*reinterpret_cast<const TIn *>(src));
    *reinterpret_cast<TOut *>(dst) = ga_cast<TOut>(acc);
    for (long long j = 1; j < n; j++) {
      acc = Op::combine(acc, ga_cast<A>(*reinterpret_cast<const TIn *>(src + j * sin)));
      *reinterpret_cast<TOut *>(dst + j * sout) = ga_cast<TOut>(acc);
    }
  }
}
