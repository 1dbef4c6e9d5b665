// radix.cuh: the sort engine's kernels (src/sort/sort.c), after common.cuh.
//
// A stable LSD radix sort with 8-bit digits, one kernel per digit ("onesweep"):
//  - every dtype maps to an unsigned key whose unsigned order is NumPy's
//    order (ga_rkey): integers flip the sign bit, floats flip the sign bit
//    of positives and every bit of negatives, NaNs become one canonical NaN
//    above +inf (so they sort last), and -0.0 may become +0.0 (where the
//    keys are not written back, so equal values keep their input order);
//  - ga_rs_hist counts the digits of every pass in one read of the input;
//    ga_rs_scan turns the counts into each digit's first output position;
//  - ga_rs_pass moves one tile of 256 * IPT elements per block: warps rank
//    their elements by digit (__match_any_sync, in input order: stable), the
//    block learns how many elements of each digit the tiles before it hold
//    by a decoupled look-back (tiles are taken in launch order from an
//    atomic ticket, so every tile it waits on belongs to a running block),
//    reorders the tile in shared memory and writes digit runs out coalesced.
// Rows of a batch (sorting along an axis) are sorted by key first and then,
// stably, by row number (the "segment" passes take their digits from the
// element's original position divided by the row length).

#define GA_RS_THREADS 256
#define GA_RS_WARPS 8
// A look-back word: the pass's epoch (1, 2, ...; one zeroed buffer serves
// every pass of a sort), what it holds, and the count
#define GA_RS_PRE 0x0800000000000000ull   // the inclusive prefix of the tiles up to this one
#define GA_RS_AGG 0x0400000000000000ull   // the tile's own count
#define GA_RS_VAL 0x03ffffffffffffffull

// ---------------------------------------------------------------------------
// keys
template <typename U, typename B>
__device__ __forceinline__ U ga_rs_float_key(B bits, B sign, B nan_bits, bool isnan, int zero_eq) {
  if (isnan) bits = nan_bits;
  if (zero_eq && bits == sign) bits = 0;
  return (U)((bits & sign) ? (B)~bits : (B)(bits | sign));
}
template <typename B>
__device__ __forceinline__ B ga_rs_float_bits(B u, B sign) {
  return (u & sign) ? (B)(u & ~sign) : (B)~u;
}

template <typename T> struct ga_rkey;
template <> struct ga_rkey<bool> {
  typedef unsigned K;
  static __device__ __forceinline__ K to(bool v, int) { return v ? 1u : 0u; }
  static __device__ __forceinline__ bool from(K k) { return k != 0; }
};
#define GA_RS_INT(T, UT, K_, SIGN)                                                   \
  template <> struct ga_rkey<T> {                                                    \
    typedef K_ K;                                                                    \
    static __device__ __forceinline__ K to(T v, int) { return (K)(UT)((UT)v ^ (UT)(SIGN)); } \
    static __device__ __forceinline__ T from(K k) { return (T)(UT)((UT)k ^ (UT)(SIGN)); } \
  };
GA_RS_INT(int8, unsigned char, unsigned, 0x80)
GA_RS_INT(int16, unsigned short, unsigned, 0x8000)
GA_RS_INT(int32, unsigned, unsigned, 0x80000000u)
GA_RS_INT(int64, unsigned long long, unsigned long long, 0x8000000000000000ull)
GA_RS_INT(uint8, unsigned char, unsigned, 0)
GA_RS_INT(uint16, unsigned short, unsigned, 0)
GA_RS_INT(uint32, unsigned, unsigned, 0)
GA_RS_INT(uint64, unsigned long long, unsigned long long, 0)

template <> struct ga_rkey<float16> {
  typedef unsigned K;
  static __device__ __forceinline__ K to(float16 v, int z) {
    unsigned short b = v.bits;
    bool nan = (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    return ga_rs_float_key<unsigned, unsigned short>(b, 0x8000, 0x7e00, nan, z);
  }
  static __device__ __forceinline__ float16 from(K k) {
    return float16::from_bits(ga_rs_float_bits<unsigned short>((unsigned short)k, 0x8000));
  }
};
template <> struct ga_rkey<bfloat16> {
  typedef unsigned K;
  static __device__ __forceinline__ K to(bfloat16 v, int z) {
    unsigned short b = v.bits;
    bool nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f);
    return ga_rs_float_key<unsigned, unsigned short>(b, 0x8000, 0x7fc0, nan, z);
  }
  static __device__ __forceinline__ bfloat16 from(K k) {
    return bfloat16::from_bits(ga_rs_float_bits<unsigned short>((unsigned short)k, 0x8000));
  }
};
template <> struct ga_rkey<float> {
  typedef unsigned K;
  static __device__ __forceinline__ K to(float v, int z) {
    return ga_rs_float_key<unsigned, unsigned>(__float_as_uint(v), 0x80000000u, 0x7fc00000u, v != v, z);
  }
  static __device__ __forceinline__ float from(K k) { return __uint_as_float(ga_rs_float_bits<unsigned>(k, 0x80000000u)); }
};
template <> struct ga_rkey<double> {
  typedef unsigned long long K;
  static __device__ __forceinline__ K to(double v, int z) {
    return ga_rs_float_key<K, K>((K)__double_as_longlong(v), 0x8000000000000000ull, 0x7ff8000000000000ull, v != v, z);
  }
  static __device__ __forceinline__ double from(K k) {
    return __longlong_as_double((long long)ga_rs_float_bits<K>(k, 0x8000000000000000ull));
  }
};
// complex64: the real part's key above the imaginary part's (lexicographic)
template <> struct ga_rkey<complex64> {
  typedef unsigned long long K;
  static __device__ __forceinline__ K to(complex64 v, int z) {
    return ((K)ga_rkey<float>::to(v.re, z) << 32) | ga_rkey<float>::to(v.im, z);
  }
  static __device__ __forceinline__ complex64 from(K k) {
    return complex64(ga_rkey<float>::from((unsigned)(k >> 32)), ga_rkey<float>::from((unsigned)k));
  }
};
// complex128 is compared (searchsorted) but never radix-sorted here: the
// sort engine sorts it as two stable float64 sorts
struct ga_rs_k128 {
  unsigned long long hi, lo;
};
__device__ __forceinline__ bool operator<(const ga_rs_k128 &a, const ga_rs_k128 &b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}
__device__ __forceinline__ bool operator!=(const ga_rs_k128 &a, const ga_rs_k128 &b) {
  return a.hi != b.hi || a.lo != b.lo;
}
template <> struct ga_rkey<complex128> {
  typedef ga_rs_k128 K;
  static __device__ __forceinline__ K to(complex128 v, int z) {
    K k = {ga_rkey<double>::to(v.re, z), ga_rkey<double>::to(v.im, z)};
    return k;
  }
};

// ---------------------------------------------------------------------------
// counting

// Add 1 to h[d] for every lane of the warp, one atomic per distinct digit
__device__ __forceinline__ void ga_rs_count(unsigned *h, unsigned d, bool valid) {
  unsigned peers = __match_any_sync(0xffffffffu, valid ? d : 0x100u);
  unsigned lane = threadIdx.x & 31;
  if (valid && (peers & ((1u << lane) - 1)) == 0) atomicAdd(&h[d], (unsigned)__popc(peers));
}

// hist[p * 256 + d]: elements whose key has digit d in pass p (nkp passes)
template <typename T>
__device__ void ga_rs_hist(const T *x, unsigned long long n, unsigned *hist, int nkp, int zero_eq) {
  typedef typename ga_rkey<T>::K K;
  __shared__ unsigned sh[8 * 256];
  for (int i = threadIdx.x; i < 8 * 256; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long start = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long end = (n + 31) & ~31ull;   // whole warps take part in the matches
  for (unsigned long long i = start; i < end; i += stride) {
    bool valid = i < n;
    K k = valid ? ga_rkey<T>::to(x[i], zero_eq) : (K)0;
    for (int p = 0; p < nkp; p++) ga_rs_count(sh + p * 256, (unsigned)(k >> (8 * p)) & 255u, valid);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < nkp * 256; i += blockDim.x)
    if (sh[i]) atomicAdd(&hist[i], sh[i]);
}

// Exclusive scan of v over the block's 256 threads (one value each)
__device__ __forceinline__ unsigned long long ga_rs_block_scan(unsigned long long v, unsigned long long *tmp) {
  unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned long long s = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    unsigned long long t = __shfl_up_sync(0xffffffffu, s, o);
    if (lane >= (unsigned)o) s += t;
  }
  if (lane == 31) tmp[w] = s;
  __syncthreads();
  unsigned long long before = 0;
  for (unsigned j = 0; j < w; j++) before += tmp[j];
  __syncthreads();
  return before + s - v;
}

// Elements of rows [0, nseg) of rowlen elements whose row number has
// digit d at shift
__device__ __forceinline__ unsigned long long ga_rs_seg_count(unsigned long long nseg, int shift, unsigned d) {
  unsigned long long span = 1ull << shift, cycle = span << 8;
  unsigned long long c = (nseg / cycle) * span, r = nseg % cycle;
  unsigned long long lo = (unsigned long long)d * span;
  if (r > lo) c += r - lo < span ? r - lo : span;
  return c;
}

// One block of 256 threads: offsets[p * 256 + d] = first output position of
// digit d in pass p; trivial[p] = every element has one digit (a copy pass).
// Passes [0, nkp) are key digits, [nkp, nkp + nsp) row-number digits.
__device__ void ga_rs_scan(const unsigned *hist, int nkp, int nsp, unsigned long long n, unsigned long long rowlen,
                           unsigned long long *offsets, int *trivial) {
  __shared__ unsigned long long tmp[GA_RS_WARPS];
  __shared__ int triv;
  unsigned d = threadIdx.x;
  unsigned long long nseg = rowlen ? n / rowlen : 0;
  for (int p = 0; p < nkp + nsp; p++) {
    unsigned long long c = p < nkp ? hist[p * 256 + d] : rowlen * ga_rs_seg_count(nseg, 8 * (p - nkp), d);
    if (d == 0) triv = 0;
    __syncthreads();
    if (c == n) triv = 1;
    offsets[p * 256 + d] = ga_rs_block_scan(c, tmp);
    if (d == 0) trivial[p] = triv;
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------
// one pass

enum { GA_RS_MID = 0, GA_RS_KEYS = 1, GA_RS_INDEX = 2, GA_RS_PERM = 3 };

struct ga_rs_args {
  const void *x;                      // FIRST: the input (T)
  const unsigned *perm;               // FIRST with HASPERM: the initial order (flat positions)
  const void *kin;                    // later passes: keys and values read
  const unsigned *vin;
  void *kout;                         // not LAST: keys and values written
  unsigned *vout;
  void *out;                          // LAST: T keys, int64 1-based indices or uint32 positions
  unsigned long long n, rowlen;
  const unsigned long long *offsets;  // this pass's 256 digit starts
  unsigned long long *state;          // look-back words, 256 per tile
  unsigned *ticket;                   // this pass's tile counter
  const int *trivial;                 // this pass's copy flag
  int shift, from_seg, zero_eq;
  unsigned long long epoch;           // this pass's, shifted to bits 60..63
};

template <typename T, int IPT>
struct ga_rs_smem {
  typedef typename ga_rkey<T>::K K;
  union {
    K k[GA_RS_THREADS * IPT];
    unsigned v[GA_RS_THREADS * IPT];
  } buf;
  unsigned char dig[GA_RS_THREADS * IPT];
  unsigned whist[GA_RS_WARPS][256];
  unsigned lstart[256];
  unsigned long long gbase[256];
  unsigned long long tmp[GA_RS_WARPS];
  unsigned tile;
};

// Write the element of key k and value v (original flat position) to slot o
template <typename T, int LAST>
__device__ __forceinline__ void ga_rs_put_key(const ga_rs_args &a, unsigned long long o, typename ga_rkey<T>::K k) {
  if (LAST == GA_RS_KEYS) ((T *)a.out)[o] = ga_rkey<T>::from(k);
  else if (LAST == GA_RS_MID) ((typename ga_rkey<T>::K *)a.kout)[o] = k;
}
template <int LAST>
__device__ __forceinline__ void ga_rs_put_val(const ga_rs_args &a, unsigned long long o, unsigned v) {
  if (LAST == GA_RS_INDEX) ((long long *)a.out)[o] = (long long)(v % (unsigned)a.rowlen) + 1;
  else if (LAST == GA_RS_PERM) ((unsigned *)a.out)[o] = v;
  else if (LAST == GA_RS_MID) a.vout[o] = v;
}

template <typename T, bool FIRST, int LAST, bool HASV, bool HASPERM, int IPT>
__device__ void ga_rs_pass(const ga_rs_args &a) {
  typedef typename ga_rkey<T>::K K;
  constexpr unsigned TILE = GA_RS_THREADS * IPT;
  __shared__ ga_rs_smem<T, IPT> s;
  const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  if (t == 0) s.tile = atomicAdd(a.ticket, 1u);
  for (unsigned i = t; i < GA_RS_WARPS * 256; i += GA_RS_THREADS) (&s.whist[0][0])[i] = 0;
  __syncthreads();
  const unsigned long long tile = s.tile, base = tile * TILE;
  const unsigned count = a.n - base < TILE ? (unsigned)(a.n - base) : TILE;

  K key[IPT];
  unsigned val[IPT];
  unsigned short rank[IPT];
  unsigned char dg[IPT];
#pragma unroll
  for (int j = 0; j < IPT; j++) {
    unsigned off = w * 32 * IPT + j * 32 + lane;
    bool valid = off < count;
    unsigned long long pos = base + off;
    if (valid) {
      if (FIRST) {
        unsigned v = HASPERM ? a.perm[pos] : (unsigned)pos;
        key[j] = ga_rkey<T>::to(((const T *)a.x)[HASPERM ? (unsigned long long)v : pos], a.zero_eq);
        val[j] = v;
      } else {
        key[j] = ((const K *)a.kin)[pos];
        if (HASV) val[j] = a.vin[pos];
      }
    }
  }
  if (*a.trivial) {
    // every element has one digit here: nothing moves
#pragma unroll
    for (int j = 0; j < IPT; j++) {
      unsigned off = w * 32 * IPT + j * 32 + lane;
      if (off < count) {
        ga_rs_put_key<T, LAST>(a, base + off, key[j]);
        if (HASV) ga_rs_put_val<LAST>(a, base + off, val[j]);
      }
    }
    return;
  }

  // rank within the warp, in input order
  const unsigned lt = (1u << lane) - 1;
#pragma unroll
  for (int j = 0; j < IPT; j++) {
    unsigned off = w * 32 * IPT + j * 32 + lane;
    bool valid = off < count;
    unsigned d = 0x100u;
    if (valid) d = a.from_seg ? ((val[j] / (unsigned)a.rowlen) >> a.shift) & 255u : (unsigned)(key[j] >> a.shift) & 255u;
    unsigned peers = __match_any_sync(0xffffffffu, d);
    unsigned below = __popc(peers & lt);
    unsigned old = valid ? s.whist[w][d] : 0;
    __syncwarp();
    if (valid && below == 0) s.whist[w][d] = old + __popc(peers);
    __syncwarp();
    rank[j] = (unsigned short)(old + below);
    dg[j] = (unsigned char)d;
  }
  __syncthreads();

  // digit t: counts of the warps before each warp, and of the tile
  unsigned tot = 0;
#pragma unroll
  for (int q = 0; q < GA_RS_WARPS; q++) {
    unsigned c = s.whist[q][t];
    s.whist[q][t] = tot;
    tot += c;
  }
  unsigned lstart = (unsigned)ga_rs_block_scan(tot, s.tmp);
  s.lstart[t] = lstart;

  // decoupled look-back: the tiles before this one
  volatile unsigned long long *st = a.state;
  unsigned long long excl = 0;
  if (tile == 0) {
    st[t] = a.epoch | GA_RS_PRE | tot;
  } else {
    st[tile * 256 + t] = a.epoch | GA_RS_AGG | tot;
    long long p = (long long)tile - 1;
    while (p >= 0) {
      unsigned long long wd = st[(unsigned long long)p * 256 + t];
      if ((wd & ~(GA_RS_PRE | GA_RS_AGG | GA_RS_VAL)) != a.epoch) continue;   // not published yet
      excl += wd & GA_RS_VAL;
      if (wd & GA_RS_PRE) break;
      p--;
    }
    st[tile * 256 + t] = a.epoch | GA_RS_PRE | (excl + tot);
  }
  s.gbase[t] = a.offsets[t] + excl - lstart;
  __syncthreads();

  // reorder the tile in shared memory, then write digit runs
  unsigned loc[IPT];
#pragma unroll
  for (int j = 0; j < IPT; j++) {
    unsigned off = w * 32 * IPT + j * 32 + lane;
    loc[j] = 0;
    if (off < count) {
      unsigned d = dg[j];
      loc[j] = s.lstart[d] + s.whist[w][d] + rank[j];
      if (LAST != GA_RS_INDEX && LAST != GA_RS_PERM) s.buf.k[loc[j]] = key[j];
      s.dig[loc[j]] = (unsigned char)d;
    }
  }
  __syncthreads();
  if (LAST != GA_RS_INDEX && LAST != GA_RS_PERM)
    for (unsigned i = t; i < count; i += GA_RS_THREADS) ga_rs_put_key<T, LAST>(a, s.gbase[s.dig[i]] + i, s.buf.k[i]);
  if (HASV && LAST != GA_RS_KEYS) {
    __syncthreads();
#pragma unroll
    for (int j = 0; j < IPT; j++)
      if (w * 32 * IPT + j * 32 + lane < count) s.buf.v[loc[j]] = val[j];
    __syncthreads();
    for (unsigned i = t; i < count; i += GA_RS_THREADS) ga_rs_put_val<LAST>(a, s.gbase[s.dig[i]] + i, s.buf.v[i]);
  }
}

// ---------------------------------------------------------------------------
// searching: out[i] = 1 + the number of a's elements before v[i] in NumPy's
// order (RIGHT: at or before), a sorted; NaNs last, -0.0 equal to 0.0
template <typename T, bool RIGHT>
__device__ void ga_rs_search(const T *a, unsigned long long n, const T *v, unsigned long long nv, long long *out) {
  typedef typename ga_rkey<T>::K K;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += stride) {
    K kv = ga_rkey<T>::to(v[i], 1);
    unsigned long long lo = 0, hi = n;
    while (lo < hi) {
      unsigned long long mid = (lo + hi) >> 1;
      K km = ga_rkey<T>::to(a[mid], 1);
      bool before = RIGHT ? !(kv < km) : km < kv;
      if (before) lo = mid + 1;
      else hi = mid;
    }
    out[i] = (long long)lo + 1;
  }
}

// unique's flags: m[i] = s[i] starts a run of equal values in sorted s
// (NaNs equal each other, -0.0 equals 0.0: NumPy's equal_nan)
template <typename T>
__device__ void ga_rs_flags(const T *s, unsigned long long n, bool *m) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    m[i] = i == 0 || ga_rkey<T>::to(s[i], 1) != ga_rkey<T>::to(s[i - 1], 1);
}
