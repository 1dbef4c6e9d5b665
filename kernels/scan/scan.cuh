// scan.cuh: cumulative sums and products along one axis (src/scan/scan.c), after
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

// Inclusive scan across the lanes of a warp (reduction.cuh's, with Op)
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_warp_inscan(const typename Op::acc_t &x) {
  typedef typename Op::acc_t A;
  return ga_warp_inscan(x, [](const A &a, const A &b) { return Op::combine(a, b); });
}

// Status arrays of the look-back, one entry per tile or group: an entry's
// own value (agg, flag 1), then maybe the fold of its row up to it (incl,
// flag 2; agg stays valid). Two layouts with one interface, used by warp 0:
//  - ga_scan_fenced: any value size; values, a fence, then an int flag.
//  - ga_scan_packed: 4-byte values; flag and value in one 64-bit word,
//    written and read whole, so no fences (each one costs the publishing
//    or reading warp a round trip to L2 on the look-back's critical path).
template <typename A>
struct ga_scan_fenced {
  static constexpr bool packed = false;
  int *flags;
  A *agg, *incl;
  __device__ __forceinline__ void put_agg(long long e, const A &v) const {
    ga_st_volatile(agg + e, v);
    __threadfence();
    *(volatile int *)(flags + e) = 1;
  }
  __device__ __forceinline__ void put_incl(long long e, const A &v) const {
    ga_st_volatile(incl + e, v);
    __threadfence();
    *(volatile int *)(flags + e) = 2;
  }
  __device__ __forceinline__ void put_both(long long e, const A &v) const {
    ga_st_volatile(agg + e, v);
    ga_st_volatile(incl + e, v);
    __threadfence();
    *(volatile int *)(flags + e) = 2;
  }
  // every lane calls; lanes with `want` wait for entry e's own value
  __device__ __forceinline__ A wait_agg(bool want, long long e, const A &dflt) const {
    if (want)
      while (*(volatile int *)(flags + e) == 0) {
      }
    __threadfence();     // the values after the flags that announced them
    return want ? ga_ld_volatile(agg + e) : dflt;
  }
};

template <typename A>
struct ga_scan_packed {
  // only instantiated with 4-byte A (ga_scan_tiles)
  static constexpr bool packed = true;
  unsigned long long *aggw, *inclw;
  static __device__ __forceinline__ unsigned long long pack(unsigned flag, const A &v) {
    unsigned u;
    memcpy(&u, &v, 4);
    return ((unsigned long long)flag << 32) | u;
  }
  static __device__ __forceinline__ A value(unsigned long long w) {
    const unsigned u = (unsigned)w;
    A v;
    memcpy(&v, &u, 4);
    return v;
  }
  static __device__ __forceinline__ unsigned long long ld(const unsigned long long *p) {
    return *(const volatile unsigned long long *)p;
  }
  static __device__ __forceinline__ void st(unsigned long long *p, unsigned long long w) {
    *(volatile unsigned long long *)p = w;
  }
  __device__ __forceinline__ void put_agg(long long e, const A &v) const { st(aggw + e, pack(1, v)); }
  __device__ __forceinline__ void put_incl(long long e, const A &v) const { st(inclw + e, pack(2, v)); }
  __device__ __forceinline__ void put_both(long long e, const A &v) const {
    st(aggw + e, pack(1, v));
    st(inclw + e, pack(2, v));
  }
  __device__ __forceinline__ A wait_agg(bool want, long long e, const A &dflt) const {
    if (!want) return dflt;
    unsigned long long w;
    do {
      w = ld(aggw + e);
    } while ((w >> 32) == 0);
    return value(w);
  }
};

// The left fold of the own values of entries first..t-1 (t > first), in
// warp 0. Entry `first` always ends up with an inclusive value. Finds the
// latest entry p with one and folds the own values of p+1..t-1 into it one
// at a time, left to right: the same bits whichever p it found.
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_scan_fold_tail(typename Op::acc_t v, long long b0, long long t,
                                                                const ga_scan_fenced<typename Op::acc_t> &st) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
#pragma unroll 1
  for (long long b = b0; b < t; b += 32) {
    const long long q = b + lane;
    const A a = q < t ? ga_ld_volatile(st.agg + q) : Op::identity();
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

template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_scan_fold(long long first, long long t,
                                                           const ga_scan_fenced<typename Op::acc_t> &st) {
  const int lane = threadIdx.x & 31;
  const volatile int *vf = st.flags;
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
  return ga_scan_fold_tail<Op>(ga_ld_volatile(st.incl + p), p + 1, t, st);
}

// Packed words: the same fold. wi, wa: this lane's words of the first
// window (entries t-32..t-1), loaded by the caller together with its other
// loads so that their round trips overlap.
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_scan_fold(long long first, long long t,
                                                           const ga_scan_packed<typename Op::acc_t> &st,
                                                           unsigned long long wi, unsigned long long wa) {
  typedef typename Op::acc_t A;
  typedef ga_scan_packed<A> S;
  const int lane = threadIdx.x & 31;
  // windows of 32 entries, newest first; a lane whose entry has no
  // inclusive value yet waits for its own value (published first). The
  // window's words are kept: the own values after p fold from registers.
  long long end = t;
#pragma unroll 1
  for (;;) {
    const long long q = end - 32 + lane;
    if (q == first) {
      while ((wi >> 32) == 0) wi = S::ld(st.inclw + q);
    } else if (q > first) {
      while ((wi >> 32) == 0 && (wa >> 32) == 0) {
        wi = S::ld(st.inclw + q);
        wa = S::ld(st.aggw + q);
      }
    }
    const unsigned ball = __ballot_sync(0xffffffffu, (wi >> 32) == 2);
    if (ball) {
      const int pl = 31 - __clz((int)ball);
      A v = S::value(ga_shfl_idx(wi, pl));
      const A a = S::value(wa);
#pragma unroll
      for (int j = 0; j < 32; j++) {
        const A y = ga_shfl_idx(a, j);
        if (j > pl) v = Op::combine(v, y);
      }
      // the newer windows, all seen complete before
#pragma unroll 1
      for (long long b = end; b < t; b += 32) {
        const A n = S::value(S::ld(st.aggw + b + lane));
#pragma unroll
        for (int j = 0; j < 32; j++) v = Op::combine(v, ga_shfl_idx(n, j));
      }
      return v;
    }
    end -= 32;
    const long long q2 = end - 32 + lane;
    wi = wa = 0;
    if (q2 >= first) {
      wi = S::ld(st.inclw + q2);
      wa = S::ld(st.aggw + q2);
    }
  }
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
// Publication: the tile's aggregate at once; a group's last tile publishes
// GS as soon as its group's aggregates are in, then GP once it knows
// GP(G-1). Tiles only wait for tiles that took their ticket earlier, which
// are running or done.
//
// The two layouts differ in how the tile gathers its group's aggregates
// (w: lane j < m holds tile g0 + j's, lane m the tile's own total) and folds
// the groups (gfold); the rest is this.
template <class Op, class S, class GFold>
__device__ __forceinline__ typename Op::acc_t ga_scan_finish(const typename Op::acc_t &w, int m, long long G,
                                                             long long g, const S &groups, const GFold &gfold) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
  const A ws = ga_warp_inscan<Op>(w);
  const A before = ga_shfl_idx(ws, m > 0 ? m - 1 : 0);
  const A gs = ga_shfl_idx(ws, 31);
  if (m == 31 && lane == 0) {
    if (G == 0) groups.put_both(g, gs);
    else groups.put_agg(g, gs);
  }
  if (G == 0) return before;
  const A gp = gfold();
  if (m == 31 && lane == 0) groups.put_incl(g, Op::combine(gp, gs));
  return m == 0 ? gp : Op::combine(gp, before);
}

// With packed words every first load is issued before any is waited for
// (one round trip to L2 where the fenced layout takes three or four).
template <class Op, class S>
__device__ __forceinline__ typename Op::acc_t ga_scan_lookback(long long first, long long t,
                                                               const typename Op::acc_t &total, const S &tiles,
                                                               long long gfirst, const S &groups) {
  typedef typename Op::acc_t A;
  const int lane = threadIdx.x & 31;
  if (lane == 0) tiles.put_agg(t, total);
  const long long tr = t - first, G = tr >> 5, g = gfirst + G;
  const int m = (int)(tr & 31);
  const long long g0 = t - m;
  if constexpr (S::packed) {
    const long long q = g - 32 + lane;
    unsigned long long wt = 0, wi = 0, wa = 0;
    if (lane < m) wt = S::ld(tiles.aggw + g0 + lane);
    if (G > 0 && q >= gfirst) {
      wi = S::ld(groups.inclw + q);
      wa = S::ld(groups.aggw + q);
    }
    if (lane < m)
      while ((wt >> 32) == 0) wt = S::ld(tiles.aggw + g0 + lane);
    const A w = lane < m ? S::value(wt) : lane == m ? total : Op::identity();
    return ga_scan_finish<Op>(w, m, G, g, groups, [&] { return ga_scan_fold<Op>(gfirst, g, groups, wi, wa); });
  } else {
    A w = tiles.wait_agg(lane < m, g0 + lane, Op::identity());
    if (lane == m) w = total;
    return ga_scan_finish<Op>(w, m, G, g, groups, [&] { return ga_scan_fold<Op>(gfirst, g, groups); });
  }
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
    A p;
    if constexpr (sizeof(A) == 4) {
      // packed words: tiles' at agg (one a tile), groups' at gagg and gincl
      const ga_scan_packed<A> ts = {reinterpret_cast<unsigned long long *>(agg), nullptr};
      const ga_scan_packed<A> gs = {reinterpret_cast<unsigned long long *>(gagg),
                                    reinterpret_cast<unsigned long long *>(gincl)};
      p = ga_scan_lookback<Op>(t - tr, t, total, ts, row * gpr, gs);
    } else {
      const ga_scan_fenced<A> ts = {flags, agg, nullptr};
      const ga_scan_fenced<A> gs = {gflags, gagg, gincl};
      p = ga_scan_lookback<Op>(t - tr, t, total, ts, row * gpr, gs);
    }
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
