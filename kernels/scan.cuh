// scan.cuh: cumulative sums and products along one axis (src/scan.c), after
// common.cuh and reduction.cuh (shuffles, ga_r_add / ga_r_mul).
//
// Two kernel shapes:
//  - ga_scan_tiles: the axis is contiguous. One pass: a row is cut into
//    tiles of 256 * K * V elements, blocks take tiles in launch order (an
//    atomic ticket), scan their tile and learn the combination of every
//    tile before them by a decoupled look-back (ga_scan_lookback). Unlike
//    CUB's, whose tree over the look-back window depends on how far back a
//    tile found a published prefix, every combination here is fixed by the
//    tile's position, so a run gives the same bits however blocks were
//    scheduled. 8 bytes moved per float element, like a copy.
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
#define GA_SCAN_WARPS (GA_SCAN_THREADS / 32)

// Inclusive scan across the lanes of a warp
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_warp_inscan(typename Op::acc_t x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const typename Op::acc_t y = ga_shfl_up(x, d);
    if (lane >= d) x = Op::combine(y, x);
  }
  return x;
}

// The left fold of the values of entries first..t-1 (t > first) of a
// status array, in warp 0: flags[e] is 0 (nothing yet), 1 (agg[e] holds
// entry e's own value) or 2 (incl[e] holds the fold of first..e; agg[e]
// stays valid). Entry `first` always ends up with 2. Finds the latest
// entry p with 2 and folds agg[p+1..t-1] into incl[p] one at a time, left
// to right: the result has the same bits whichever p it found.
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_scan_fold(long long first, long long t, const int *flags,
                                                           const typename Op::acc_t *agg,
                                                           const typename Op::acc_t *incl) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
  const volatile int *vf = flags;
  // windows of 32 entries, newest first
  long long end = t, p;
#pragma unroll 1
  for (;;) {
    const long long q = end - 32 + lane;
    int f = 0;
    if (q >= first) {
      do {
        f = vf[q];
      } while (f == 0);
    }
    const unsigned ball = __ballot_sync(0xffffffffu, f == 2);
    if (ball) {
      p = end - 32 + (31 - __clz((int)ball));
      break;
    }
    end -= 32;
  }
  __threadfence();     // the values after the flags that announced them
  A v = ga_ld_volatile(incl + p);
#pragma unroll 1
  for (long long b = p + 1; b < t; b += 32) {
    const long long q = b + lane;
    const A a = q < t ? ga_ld_volatile(agg + q) : Op::identity();
    const int cnt = t - b < 32 ? (int)(t - b) : 32;
    // unrolled: the shuffles do not wait for v, only the combines chain
#pragma unroll
    for (int j = 0; j < 32; j++) {
      const A y = ga_shfl_idx(a, j);
      if (j < cnt) v = Op::combine(v, y);
    }
  }
  return v;
}

// Warp 0 of the block of tile t; tile `first` starts its row. Returns the
// combination of the row's tiles before t (meaningless for t == first).
//
// What is computed is fixed by t alone, so every run gives the same bits:
// tiles form groups of 32; WS(u) is the inclusive warp scan (a fixed tree)
// of the aggregates of u's group up to u; a group's sum GS is WS of its last
// tile; GP(G) = GP(G-1) + GS(G), the left fold of the group sums. Tile t of
// group G at position m returns GP(G-1) + WS(t-1) (GP(G-1) when m is 0,
// WS(t-1) in group 0). The fold is over groups, so a look-back that finds a
// prefix far behind costs one combine per 32 tiles.
//
// Publication: the tile's aggregate (flags 1) at once; a group's last tile
// publishes GS (gflags 1) as soon as its group's aggregates are in, then
// GP (gflags 2) once it knows GP(G-1). Tiles only wait for tiles that took
// their ticket earlier, which are running or done.
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_scan_lookback(long long first, long long t,
                                                               const typename Op::acc_t &total, int *flags,
                                                               typename Op::acc_t *agg, long long gfirst,
                                                               int *gflags, typename Op::acc_t *gagg,
                                                               typename Op::acc_t *gincl) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
  volatile int *vf = flags, *vgf = gflags;
  if (lane == 0) {
    ga_st_volatile(agg + t, total);
    __threadfence();
    vf[t] = 1;
  }
  const long long tr = t - first, G = tr >> 5, g = gfirst + G;
  const int m = (int)(tr & 31);
  const long long g0 = t - m;
  if (lane < m)
    while (vf[g0 + lane] == 0) {
    }
  __threadfence();
  A w = Op::identity();
  if (lane < m) w = ga_ld_volatile(agg + g0 + lane);
  else if (lane == m) w = total;
  const A ws = ga_warp_inscan<Op>(w);
  const A before = ga_shfl_idx(ws, m > 0 ? m - 1 : 0);
  const A gs = ga_shfl_idx(ws, 31);
  if (m == 31 && lane == 0) {
    ga_st_volatile(gagg + g, gs);
    if (G == 0) ga_st_volatile(gincl + g, gs);
    __threadfence();
    vgf[g] = G == 0 ? 2 : 1;
  }
  if (G == 0) return before;
  const A gp = ga_scan_fold<Op>(gfirst, g, gflags, gagg, gincl);
  if (m == 31 && lane == 0) {
    ga_st_volatile(gincl + g, Op::combine(gp, gs));
    __threadfence();
    vgf[g] = 2;
  }
  return m == 0 ? gp : Op::combine(gp, before);
}

// One tile per block. Warp w owns 32 * K * V consecutive elements of the
// tile, in K chunks of 32 * V: lane l holds elements l*V .. l*V+V-1 of each
// chunk (16-byte accesses, a warp covers 512 contiguous bytes at once).
// VIN/VOUT: vector access on that side (the host checked alignment), else
// V scalar accesses. The input axis has unit stride, the output's is sout
// bytes. In/out rows are located by the row indexer (operands 0 and 1).
template <class Op, typename TIn, typename TOut, int V, int K, bool VIN, bool VOUT, class IX>
__device__ __forceinline__ void ga_scan_tiles(const char *in, char *out, const IX &ix, long long n, long long sout,
                                              long long tiles_per_row, int *ticket, int *flags, int *gflags,
                                              typename Op::acc_t *agg, typename Op::acc_t *gagg,
                                              typename Op::acc_t *gincl) {
  typedef typename Op::acc_t A;
  constexpr int SEG = 32 * K * V;
  constexpr int TILE = GA_SCAN_WARPS * SEG;
  __shared__ long long s_tile;
  GA_SMEM(A, s_warp, GA_SCAN_WARPS);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) s_tile = atomicAdd(ticket, 1);
  __syncthreads();
  const long long t = s_tile;
  const long long row = t / tiles_per_row, tr = t - row * tiles_per_row;
  long long off[2];
  ga_red_offsets(ix, (unsigned long long)row, off);
  const TIn *src = reinterpret_cast<const TIn *>(in + off[0]);
  char *dst = out + off[1];
  const long long j0 = tr * TILE + warp * SEG + lane * V;
  const bool full = tr * TILE + TILE <= n;
  A v[K][V];
#pragma unroll
  for (int k = 0; k < K; k++) {
    const long long j = j0 + k * (32 * V);
    if (VIN && full) {
      const ga_vec<TIn, V> x = *reinterpret_cast<const ga_vec<TIn, V> *>(src + j);
#pragma unroll
      for (int q = 0; q < V; q++) v[k][q] = ga_cast<A>(x.v[q]);
    } else {
#pragma unroll
      for (int q = 0; q < V; q++) v[k][q] = full || j + q < n ? ga_cast<A>(src[j + q]) : Op::identity();
    }
  }
  // scan each chunk: within the lane, then across the warp; pre[k] is the
  // combination of the warp's elements before the lane's V
  A pre[K], carry;
#pragma unroll
  for (int k = 0; k < K; k++) {
#pragma unroll
    for (int q = 1; q < V; q++) v[k][q] = Op::combine(v[k][q - 1], v[k][q]);
    const A inc = ga_warp_inscan<Op>(v[k][V - 1]);
    const A ex = ga_shfl_up(inc, 1);
    const A tot = ga_shfl_idx(inc, 31);
    if (k == 0) {
      pre[0] = lane == 0 ? Op::identity() : ex;
      carry = tot;
    } else {
      pre[k] = lane == 0 ? carry : Op::combine(carry, ex);
      carry = Op::combine(carry, tot);
    }
  }
  if (lane == 0) s_warp[warp] = carry;
  __syncthreads();
  if (warp == 0) {
    // the warps' exclusive prefixes, the tile total, then the tiles before
    const A wt = lane < GA_SCAN_WARPS ? s_warp[lane] : Op::identity();
    const A winc = ga_warp_inscan<Op>(wt);
    const A wex = ga_shfl_up(winc, 1);
    const A total = ga_shfl_idx(winc, GA_SCAN_WARPS - 1);
    A base = lane == 0 ? Op::identity() : wex;
    const long long gpr = (tiles_per_row + 31) >> 5;
    const A p = ga_scan_lookback<Op>(t - tr, t, total, flags, agg, row * gpr, gflags, gagg, gincl);
    if (tr > 0) base = lane == 0 ? p : Op::combine(p, wex);
    if (lane < GA_SCAN_WARPS) s_warp[lane] = base;
  }
  __syncthreads();
  const A wb = s_warp[warp];
#pragma unroll
  for (int k = 0; k < K; k++) {
    const long long j = j0 + k * (32 * V);
    const A b = Op::combine(wb, pre[k]);
    if (VOUT && full) {
      ga_vec<TOut, V> y;
#pragma unroll
      for (int q = 0; q < V; q++) y.v[q] = ga_cast<TOut>(Op::combine(b, v[k][q]));
      *reinterpret_cast<ga_vec<TOut, V> *>(dst + j * (long long)sizeof(TOut)) = y;
    } else {
#pragma unroll
      for (int q = 0; q < V; q++)
        if (full || j + q < n) *reinterpret_cast<TOut *>(dst + (j + q) * sout) = ga_cast<TOut>(Op::combine(b, v[k][q]));
    }
  }
}

// One thread per row, sequential along the axis.
template <class Op, typename TIn, typename TOut, class IX>
__device__ __forceinline__ void ga_scan_rows(const char *in, char *out, const IX &ix, long long nrows, long long n,
                                             long long sin, long long sout) {
  typedef typename Op::acc_t A;
  const long long stride = (long long)gridDim.x * blockDim.x;
#pragma unroll 1
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += stride) {
    long long off[2];
    ga_red_offsets(ix, (unsigned long long)r, off);
    const char *src = in + off[0];
    char *dst = out + off[1];
    A acc = ga_cast<A>(*reinterpret_cast<const TIn *>(src));
    *reinterpret_cast<TOut *>(dst) = ga_cast<TOut>(acc);
#pragma unroll 1
    for (long long j = 1; j < n; j++) {
      acc = Op::combine(acc, ga_cast<A>(*reinterpret_cast<const TIn *>(src + j * sin)));
      *reinterpret_cast<TOut *>(dst + j * sout) = ga_cast<TOut>(acc);
    }
  }
}
