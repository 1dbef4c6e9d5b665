// reduction.cuh: the reduction engine's kernels (src/reduction/reduction.c) and the
// helpers the built-in reductions are written with (lua/gpuarray/reductions.lua).
//
// A reduction is an op (identity, combine), an input side that maps elements
// to the reduce type, and an output side that post-maps and stores. The
// generated wrapper (src/reduction/reduction_codegen.c) defines them as small structs:
//   Op:  acc_t, identity(), lift(v), value(a), combine(a, b)
//   In:  row_t row(o); vals_t<V>; load<V, DIRECT>(vals, row, r);
//        fold<V, COL>(acc[V], vals, row, r)
//   Out: store(o, split, acc)
// and the two kernel shapes below do the rest. Every combination happens in
// an order fixed by the launch shape alone: no atomics, same input, same bits.
//
// Compile time matters (every dtype and layout is a program): loops that
// are not the hot one carry "#pragma unroll 1" (NVVM would otherwise unroll
// them at run time, doubling the code for nothing), and one program serves
// spaces of 1 to 4 axes (ga_red_offsets stops at the padding).

#define GA_RED_U 4         // vectors in flight per thread in the main loops

// ---------------------------------------------------------------------------
// Shuffles of any trivially copyable type, 32 bits at a time.
template <typename T, class F>
__device__ __forceinline__ T ga_shfl_words(const T &v, const F &shfl) {
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned u[W];
  u[W - 1] = 0;
  memcpy(u, &v, sizeof(T));
#pragma unroll
  for (int k = 0; k < W; k++) u[k] = shfl(u[k]);
  T r;
  memcpy(&r, u, sizeof(T));
  return r;
}

template <typename T>
__device__ __forceinline__ T ga_shfl_down(const T &v, unsigned delta, int width) {
  return ga_shfl_words(v, [=](unsigned x) { return __shfl_down_sync(0xffffffffu, x, delta, width); });
}

template <typename T>
__device__ __forceinline__ T ga_shfl_up(const T &v, unsigned delta) {
  return ga_shfl_words(v, [=](unsigned x) { return __shfl_up_sync(0xffffffffu, x, delta); });
}

template <typename T>
__device__ __forceinline__ T ga_shfl_idx(const T &v, int lane) {
  return ga_shfl_words(v, [=](unsigned x) { return __shfl_sync(0xffffffffu, x, lane); });
}

// Inclusive scan across the lanes of a warp, combine(earlier, later), in a
// fixed order (the same bits wherever it runs)
template <typename T, class F>
__device__ __forceinline__ T ga_warp_inscan(T x, const F &combine) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const T y = ga_shfl_up(x, d);
    if (lane >= d) x = combine(y, x);
  }
  return x;
}
template <typename T>
__device__ __forceinline__ T ga_warp_inscan_sum(T x) {
  return ga_warp_inscan(x, [](const T &a, const T &b) { return a + b; });
}

// Shared scratch of a type that may have constructors (raw bytes).
#define GA_SMEM(T, name, n) \
  __shared__ __align__(16) unsigned char name##_raw[(n) * sizeof(T)]; \
  T *name = reinterpret_cast<T *>(name##_raw)

// ---------------------------------------------------------------------------
// Byte offsets of the NOP operands at linear index i, for a space padded
// with outer axes of length 1 (src/reduction/reduction.c pads to 4 or 8 axes): once
// the index left is 0 every remaining coordinate is 0, so the padding costs
// one test, and one program serves 1 to ND real axes.
template <int ND, int NOP>
__device__ __forceinline__ void ga_red_offsets(const ga_indexer32<ND, NOP> &ix, unsigned i, int *off) {
#pragma unroll
  for (int k = 0; k < NOP; k++) off[k] = 0;
#pragma unroll
  for (int d = ND - 1; d >= 1; d--) {
    if (i == 0) return;
    const unsigned q = (__umulhi(i, ix.mul[d]) + i) >> ix.shift[d];
    const unsigned r = i - q * ix.size[d];
#pragma unroll
    for (int k = 0; k < NOP; k++) off[k] += (int)r * ix.strides[k][d];
    i = q;
  }
#pragma unroll
  for (int k = 0; k < NOP; k++) off[k] += (int)i * ix.strides[k][0];
}

template <int ND, int NOP>
__device__ __forceinline__ void ga_red_offsets(const ga_indexer64<ND, NOP> &ix, unsigned long long i,
                                               long long *off) {
#pragma unroll
  for (int k = 0; k < NOP; k++) off[k] = 0;
#pragma unroll
  for (int d = ND - 1; d >= 1; d--) {
    if (i == 0) return;
    const unsigned long long q = i / ix.size[d];
    const unsigned long long r = i - q * ix.size[d];
#pragma unroll
    for (int k = 0; k < NOP; k++) off[k] += (long long)r * ix.strides[k][d];
    i = q;
  }
#pragma unroll
  for (int k = 0; k < NOP; k++) off[k] += (long long)i * ix.strides[k][0];
}

// ---------------------------------------------------------------------------
// Reduce across threadIdx.x (blockDim.x a power of two), separately for each
// threadIdx.y; the result is valid in threadIdx.x == 0. Every thread of the
// block must call it (it may synchronize).
template <class Op>
__device__ __forceinline__ typename Op::acc_t ga_block_reduce_x(typename Op::acc_t v,
                                                               typename Op::acc_t *smem) {
  const int bx = blockDim.x;
  const int w = bx < 32 ? bx : 32;
#pragma unroll 1
  for (int d = w >> 1; d > 0; d >>= 1) v = Op::combine(v, ga_shfl_down(v, d, w));
  if (bx > 32) {
    const int nw = bx >> 5, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) smem[threadIdx.y * nw + warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < nw ? smem[threadIdx.y * nw + lane] : Op::identity();
#pragma unroll 1
      for (int d = 16; d > 0; d >>= 1) v = Op::combine(v, ga_shfl_down(v, d, 32));
    }
  }
  return v;
}

// ---------------------------------------------------------------------------
// Row kernel: blockDim.x threads cooperate on one output row (the reduced
// axis is the fast one), blockDim.y rows per block; blockIdx.y picks a chunk
// of the reduced range [s * chunk, (s + 1) * chunk) when one row is split
// across blocks (the partials are combined by a second launch); U vectors
// per thread are in flight in the main loop. V > 1: the
// row is unit-stride and each thread loads V elements at once, folding lane
// k of the vector into accumulator k: V short dependency chains instead of
// one long one (an argmax combine is ~10 dependent instructions), merged
// once at the end.
template <class Op, class In, class Out, int V, int U, typename I>
__device__ __forceinline__ void ga_red_row(const In &in, const Out &out, I nout, I nred, I chunk) {
  typedef typename Op::acc_t A;
  typedef typename In::template vals_t<V> Vals;
  GA_SMEM(A, smem, 32);
  const I s = blockIdx.y;
  const I r0 = s * chunk;
  const I r1 = nred - r0 < chunk ? nred : r0 + chunk;
  const I step = (I)blockDim.x * V;
#pragma unroll 1
  for (I ob = (I)blockIdx.x * blockDim.y; ob < nout; ob += (I)gridDim.x * blockDim.y) {
    const I o = ob + threadIdx.y;
    A acc[V];
#pragma unroll
    for (int k = 0; k < V; k++) acc[k] = Op::identity();
    if (o < nout && r0 < r1) {
      const typename In::row_t w = in.row(o);
      I r = r0 + (I)threadIdx.x * V;
#pragma unroll 1
      for (; r + (U - 1) * step + V <= r1; r += U * step) {
        Vals v[U];
#pragma unroll
        for (int u = 0; u < U; u++) in.template load<V, (V > 1)>(v[u], w, r + u * step);
#pragma unroll
        for (int u = 0; u < U; u++) in.template fold<V, false>(acc, v[u], w, r + u * step);
      }
#pragma unroll 1
      for (; U > 1 && r + V <= r1; r += step) {
        Vals v;
        in.template load<V, (V > 1)>(v, w, r);
        in.template fold<V, false>(acc, v, w, r);
      }
      if (V > 1 && threadIdx.x == 0) {   // the tail shorter than one vector (unit stride)
#pragma unroll 1
        for (I t = r0 + (r1 - r0) / V * V; t < r1; t++) {
          typename In::template vals_t<1> v;
          in.template load<1, true>(v, w, t);
          in.template fold<1, false>(acc, v, w, t);
        }
      }
    }
#pragma unroll
    for (int k = 1; k < V; k++) acc[0] = Op::combine(acc[0], acc[k]);
    const A a = ga_block_reduce_x<Op>(acc[0], smem);
    if (threadIdx.x == 0 && o < nout) out.store(o, s, a);
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------
// The finish of a row reduction to one value split across blocks, in the
// same launch (nout == 1, blockDim.y == 1; reduction.c picks it): each
// block has stored its partial (ga_red_row, thread 0, then a barrier) and
// takes a ticket; the block with the last one combines the nsplit partials
// in split order, as the finishing kernel would, writes the result and sets
// the counter back to 0 for the next reduction on its stream. A second
// launch would cost more than the whole combine (a few microseconds on an
// H100 against a 50 us sum). The partials are read with plain loads: no
// block of this launch has read them, so no L1 holds an old copy.
template <class Op, class Out>
__device__ __forceinline__ void ga_red_last(const Out &out, unsigned *ticket) {
  typedef typename Op::acc_t A;
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();   // this block's partial is visible before its ticket
    last = atomicAdd(ticket, 1u) == (unsigned)out.nsplit - 1u;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();     // and every other block's partial before the reads
  GA_SMEM(A, smem, 32);
  A acc = Op::identity();
#pragma unroll 1
  for (unsigned s = threadIdx.x; s < (unsigned)out.nsplit; s += blockDim.x)
    acc = Op::combine(acc, *reinterpret_cast<const A *>(out.part + (size_t)s * out.slot));
  acc = ga_block_reduce_x<Op>(acc, smem);
  if (threadIdx.x == 0) {
    Out whole = out;
    whole.nsplit = 1;  // store() writes the output, through the post-map
    whole.store(0, 0, acc);
    atomicExch(ticket, 0u);
  }
}

// ---------------------------------------------------------------------------
// Column kernel: threadIdx.x runs along the outputs (the kept axis is the
// fast one: coalesced, V consecutive outputs per thread through one vector
// load), threadIdx.y along the reduced index; blockIdx.y splits the reduced
// range as above. blockDim.x * blockDim.y <= 256, blockDim.y a power of two.
template <class Op, class In, class Out, int V, typename I>
__device__ __forceinline__ void ga_red_col(const In &in, const Out &out, I nout, I nred, I chunk) {
  typedef typename Op::acc_t A;
  typedef typename In::template vals_t<V> Vals;
  constexpr int U = GA_RED_U;
  GA_SMEM(A, smem, 256);
  const I s = blockIdx.y;
  const I r0 = s * chunk;
  const I r1 = nred - r0 < chunk ? nred : r0 + chunk;
  const I by = blockDim.y;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (I ob = (I)blockIdx.x * blockDim.x * V; ob < nout; ob += (I)gridDim.x * blockDim.x * V) {
    const I o = ob + (I)threadIdx.x * V;
    A acc[V];
#pragma unroll
    for (int k = 0; k < V; k++) acc[k] = Op::identity();
    if (o < nout) {
      const typename In::row_t w = in.row(o);
      I r = r0 + threadIdx.y;
#pragma unroll 1
      for (; r + (U - 1) * by < r1; r += U * by) {
        Vals v[U];
#pragma unroll
        for (int u = 0; u < U; u++) in.template load<V, false>(v[u], w, r + u * by);
#pragma unroll
        for (int u = 0; u < U; u++) in.template fold<V, true>(acc, v[u], w, r + u * by);
      }
#pragma unroll 1
      for (; r < r1; r += by) {
        Vals v;
        in.template load<V, false>(v, w, r);
        in.template fold<V, true>(acc, v, w, r);
      }
    }
    // combine the blockDim.y partial results of each column, one lane of the
    // vector at a time (the scratch holds one value per thread)
#pragma unroll
    for (int k = 0; k < V; k++) {
      smem[tid] = acc[k];
      __syncthreads();
#pragma unroll 1
      for (int h = blockDim.y >> 1; h > 0; h >>= 1) {
        if ((int)threadIdx.y < h) smem[tid] = Op::combine(smem[tid], smem[tid + h * blockDim.x]);
        __syncthreads();
      }
      if (threadIdx.y == 0) acc[k] = smem[threadIdx.x];
      __syncthreads();
    }
    if (threadIdx.y == 0 && o < nout) {
#pragma unroll
      for (int k = 0; k < V; k++) out.store(o + k, s, acc[k]);
    }
  }
}

// ---------------------------------------------------------------------------
// Partial results of split reductions: slot[s * nout + o], slot bytes apart,
// read back by the finishing kernel (a row kernel over the splits).
template <class Op, typename I>
struct ga_red_part_in {
  const char *p;
  I n;
  unsigned slot;
  struct row_t { I o; };
  template <int V> struct vals_t { typename Op::acc_t a; };
  __device__ __forceinline__ row_t row(I o) const { row_t w; w.o = o; return w; }
  template <int V, bool DIRECT>
  __device__ __forceinline__ void load(vals_t<V> &v, const row_t &w, I r) const {
    v.a = *reinterpret_cast<const typename Op::acc_t *>(p + ((size_t)r * n + w.o) * slot);
  }
  template <int V, bool COL>
  __device__ __forceinline__ void fold(typename Op::acc_t *acc, const vals_t<V> &v, const row_t &, I) const {
    acc[0] = Op::combine(acc[0], v.a);
  }
};

// An accumulator for reductions without an identity: empty until the first
// element arrives.
template <typename T>
struct ga_maybe {
  T v;
  bool ok;
};
template <typename T>
__device__ __forceinline__ ga_maybe<T> ga_maybe_some(const T &v) {
  ga_maybe<T> m;
  m.v = v;
  m.ok = true;
  return m;
}
template <typename T>
__device__ __forceinline__ ga_maybe<T> ga_maybe_none() {
  ga_maybe<T> m;
  memset(&m, 0, sizeof m);
  return m;
}

// A size as CuPy's kernels see it (_in_ind.size(), _out_ind.size()).
struct ga_red_size {
  long long n;
  __device__ __forceinline__ long long size() const { return n; }
};

// ===========================================================================
// Helpers of the built-in reductions (any dtype, complex included)
// ===========================================================================

template <typename T> struct ga_r_real { typedef T type; };
template <typename T> struct ga_r_real<complex<T> > { typedef T type; };

template <typename T> __device__ __forceinline__ bool ga_r_isnan(const T &) { return false; }
__device__ __forceinline__ bool ga_r_isnan(const float &v) { return v != v; }
__device__ __forceinline__ bool ga_r_isnan(const double &v) { return v != v; }
__device__ __forceinline__ bool ga_r_isnan(const float16 &v) { float f = v; return f != f; }
__device__ __forceinline__ bool ga_r_isnan(const bfloat16 &v) { float f = v; return f != f; }
template <typename T>
__device__ __forceinline__ bool ga_r_isnan(const complex<T> &v) { return v.re != v.re || v.im != v.im; }

template <typename T> __device__ __forceinline__ T ga_r_add(const T &a, const T &b) { return a + b; }
template <typename T>
__device__ __forceinline__ complex<T> ga_r_add(const complex<T> &a, const complex<T> &b) {
  return complex<T>(a.re + b.re, a.im + b.im);
}
template <typename T> __device__ __forceinline__ T ga_r_sub(const T &a, const T &b) { return a - b; }
template <typename T>
__device__ __forceinline__ complex<T> ga_r_sub(const complex<T> &a, const complex<T> &b) {
  return complex<T>(a.re - b.re, a.im - b.im);
}
template <typename T> __device__ __forceinline__ T ga_r_mul(const T &a, const T &b) { return a * b; }
__device__ __forceinline__ bool ga_r_mul(const bool &a, const bool &b) { return a && b; }
template <typename T>
__device__ __forceinline__ complex<T> ga_r_mul(const complex<T> &a, const complex<T> &b) {
  return complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// a / n and a * f for a real factor
template <typename T>
__device__ __forceinline__ T ga_r_scale(const T &a, typename ga_r_real<T>::type f) { return a * f; }
template <typename T>
__device__ __forceinline__ complex<T> ga_r_scale(const complex<T> &a, T f) { return complex<T>(a.re * f, a.im * f); }
template <typename T>
__device__ __forceinline__ T ga_r_div_n(const T &a, long long n) { return a / (T)n; }
template <typename T>
__device__ __forceinline__ complex<T> ga_r_div_n(const complex<T> &a, long long n) {
  return complex<T>(a.re / (T)n, a.im / (T)n);
}
template <typename T> __device__ __forceinline__ T ga_r_abs2(const T &a) { return a * a; }
template <typename T> __device__ __forceinline__ T ga_r_abs2(const complex<T> &a) { return a.re * a.re + a.im * a.im; }

// Ordering: NumPy's (complex: lexicographic, real part first)
template <typename T> __device__ __forceinline__ bool ga_r_lt(const T &a, const T &b) { return a < b; }
__device__ __forceinline__ bool ga_r_lt(const float16 &a, const float16 &b) { return (float)a < (float)b; }
__device__ __forceinline__ bool ga_r_lt(const bfloat16 &a, const bfloat16 &b) { return (float)a < (float)b; }
template <typename T>
__device__ __forceinline__ bool ga_r_lt(const complex<T> &a, const complex<T> &b) {
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}

// The smallest and largest values of a type (-inf/+inf for floats)
template <typename T> struct ga_r_limits;
#define GA_R_LIMITS(T, LO, HI) \
  template <> struct ga_r_limits<T> { \
    static __device__ __forceinline__ T lowest() { return LO; } \
    static __device__ __forceinline__ T highest() { return HI; } \
  };
GA_R_LIMITS(bool, false, true)
GA_R_LIMITS(signed char, (signed char)-128, (signed char)127)
GA_R_LIMITS(short, (short)-32768, (short)32767)
GA_R_LIMITS(int, (int)(-2147483647 - 1), 2147483647)
GA_R_LIMITS(long long, (long long)(-9223372036854775807LL - 1), 9223372036854775807LL)
GA_R_LIMITS(unsigned char, (unsigned char)0, (unsigned char)255)
GA_R_LIMITS(unsigned short, (unsigned short)0, (unsigned short)65535)
GA_R_LIMITS(unsigned int, 0u, 4294967295u)
GA_R_LIMITS(unsigned long long, 0ull, 18446744073709551615ull)
GA_R_LIMITS(float, __int_as_float(0xff800000), __int_as_float(0x7f800000))
GA_R_LIMITS(double, __longlong_as_double(0xfff0000000000000ll), __longlong_as_double(0x7ff0000000000000ll))
GA_R_LIMITS(float16, float16::from_bits(0xfc00), float16::from_bits(0x7c00))
GA_R_LIMITS(bfloat16, bfloat16::from_bits(0xff80), bfloat16::from_bits(0x7f80))
#undef GA_R_LIMITS
template <typename T> struct ga_r_limits<complex<T> > {
  static __device__ __forceinline__ complex<T> lowest() {
    return complex<T>(ga_r_limits<T>::lowest(), ga_r_limits<T>::lowest());
  }
  static __device__ __forceinline__ complex<T> highest() {
    return complex<T>(ga_r_limits<T>::highest(), ga_r_limits<T>::highest());
  }
};

template <typename T> __device__ __forceinline__ T ga_r_nan() { return ga_r_limits<T>::lowest(); }
template <> __device__ __forceinline__ float ga_r_nan<float>() { return __int_as_float(0x7fc00000); }
template <> __device__ __forceinline__ double ga_r_nan<double>() { return __longlong_as_double(0x7ff8000000000000ll); }
template <> __device__ __forceinline__ float16 ga_r_nan<float16>() { return float16::from_bits(0x7e00); }
template <> __device__ __forceinline__ bfloat16 ga_r_nan<bfloat16>() { return bfloat16::from_bits(0x7fc0); }
template <> __device__ __forceinline__ complex<float> ga_r_nan<complex<float> >() {
  return complex<float>(ga_r_nan<float>(), 0.0f);
}
template <> __device__ __forceinline__ complex<double> ga_r_nan<complex<double> >() {
  return complex<double>(ga_r_nan<double>(), 0.0);
}
// nanmax / nanmin start from NaN for floats (an all-NaN row stays NaN) and
// from the extreme value for integers
template <typename T> __device__ __forceinline__ T ga_r_nanmax_identity() { return ga_r_nan<T>(); }
template <typename T> __device__ __forceinline__ T ga_r_nanmin_identity() {
  return ga_r_isnan(ga_r_nan<T>()) ? ga_r_nan<T>() : ga_r_limits<T>::highest();
}

// max / min propagate NaN (NumPy's maximum.reduce); the nan* variants skip it
template <typename T> __device__ __forceinline__ T ga_r_max(const T &a, const T &b) {
  if (ga_r_isnan(a)) return a;
  if (ga_r_isnan(b)) return b;
  return ga_r_lt(a, b) ? b : a;
}
template <typename T> __device__ __forceinline__ T ga_r_min(const T &a, const T &b) {
  if (ga_r_isnan(a)) return a;
  if (ga_r_isnan(b)) return b;
  return ga_r_lt(b, a) ? b : a;
}
template <typename T> __device__ __forceinline__ T ga_r_nanmax(const T &a, const T &b) {
  if (ga_r_isnan(a)) return b;
  if (ga_r_isnan(b)) return a;
  return ga_r_lt(a, b) ? b : a;
}
template <typename T> __device__ __forceinline__ T ga_r_nanmin(const T &a, const T &b) {
  if (ga_r_isnan(a)) return b;
  if (ga_r_isnan(b)) return a;
  return ga_r_lt(b, a) ? b : a;
}

// argmax / argmin: value and 0-based flat index; i < 0 is "empty". Ties and
// NaNs resolve to the smallest index whatever the combination order, so the
// result is NumPy's (the first maximum; the first NaN if any).
template <typename T>
struct ga_arg {
  T v;
  long long i;
};
template <typename T>
__device__ __forceinline__ ga_arg<T> ga_arg_make(const T &v, long long i) {
  ga_arg<T> a;
  a.v = v;
  a.i = i;
  return a;
}
template <typename T>
__device__ __forceinline__ ga_arg<T> ga_arg_none() {
  ga_arg<T> a;
  memset(&a, 0, sizeof a);
  a.i = -1;
  return a;
}
// Branch-free: the thread loops inline one combine per element loaded.
template <bool MAX, typename T>
__device__ __forceinline__ ga_arg<T> ga_arg_combine(const ga_arg<T> &a, const ga_arg<T> &b) {
  const bool an = ga_r_isnan(a.v), bn = ga_r_isnan(b.v);
  const bool better = MAX ? ga_r_lt(a.v, b.v) : ga_r_lt(b.v, a.v);
  const bool worse = MAX ? ga_r_lt(b.v, a.v) : ga_r_lt(a.v, b.v);
  const bool earlier = b.i < a.i;
  // NaN wins over numbers, the earlier of two NaNs or of two equal values
  // (bitwise: predicates, no branches)
  const bool take = (an & bn & earlier) | (!an & (bn | better | (!worse & earlier)));
  const bool take_b = (a.i < 0) | ((b.i >= 0) & take);     // an empty side never wins
  return take_b ? b : a;
}

// The same when b is known to come after a (a thread's own sequence, where
// most elements are combined): no index comparison.
template <bool MAX, typename T>
__device__ __forceinline__ ga_arg<T> ga_arg_later(const ga_arg<T> &a, const ga_arg<T> &b) {
  const bool better = MAX ? ga_r_lt(a.v, b.v) : ga_r_lt(b.v, a.v);
  const bool take = (a.i < 0) | (!ga_r_isnan(a.v) & (ga_r_isnan(b.v) | better));
  return take ? b : a;
}

// ptp: the smallest and the largest value together
template <typename T>
struct ga_minmax {
  T lo, hi;
};
template <typename T>
__device__ __forceinline__ ga_minmax<T> ga_minmax_make(const T &lo, const T &hi) {
  ga_minmax<T> m;
  m.lo = lo;
  m.hi = hi;
  return m;
}
template <typename T>
__device__ __forceinline__ ga_minmax<T> ga_minmax_combine(const ga_minmax<T> &a, const ga_minmax<T> &b) {
  return ga_minmax_make(ga_r_min(a.lo, b.lo), ga_r_max(a.hi, b.hi));
}

// var / std: count, mean and sum of squared deviations, merged with Chan's
// formula (one pass, accurate, order-independent up to rounding).
template <typename T, typename R>
struct ga_welford {
  long long n;
  T mean;
  R m2;
};
template <typename T, typename R>
__device__ __forceinline__ ga_welford<T, R> ga_welford_one(const T &x) {
  ga_welford<T, R> w;
  w.n = 1;
  w.mean = x;
  w.m2 = ga_r_abs2(ga_r_sub(x, x));   // 0, but NaN for an infinite or NaN x, as NumPy's x - mean
  return w;
}
template <typename T, typename R>
__device__ __forceinline__ ga_welford<T, R> ga_welford_none() {
  ga_welford<T, R> w;
  w.n = 0;
  w.mean = T(0);
  w.m2 = (R)0;
  return w;
}
template <typename T, typename R>
__device__ __forceinline__ ga_welford<T, R> ga_welford_combine(const ga_welford<T, R> &a,
                                                               const ga_welford<T, R> &b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  ga_welford<T, R> w;
  w.n = a.n + b.n;
  const R fb = (R)b.n / (R)w.n;
  const T delta = ga_r_sub(b.mean, a.mean);
  w.mean = ga_r_add(a.mean, ga_r_scale(delta, fb));
  w.m2 = a.m2 + b.m2 + ga_r_abs2(delta) * ((R)a.n * fb);
  return w;
}
template <typename T, typename R>
__device__ __forceinline__ R ga_welford_var(const ga_welford<T, R> &w, double ddof) {
  double d = (double)w.n - ddof;
  if (d < 0) d = 0;
  return w.m2 / (R)d;
}
// The welford type of a reduce type, for the built-ins' expressions
template <typename W> struct ga_welford_traits;
template <typename T, typename R> struct ga_welford_traits<ga_welford<T, R> > {
  typedef T value;
  typedef R real;
};
template <typename W, typename X>
__device__ __forceinline__ W ga_welford_from(const X &x) {
  typedef typename ga_welford_traits<W>::value T;
  return ga_welford_one<T, typename ga_welford_traits<W>::real>(ga_cast<T>(x));
}
template <typename W>
__device__ __forceinline__ W ga_welford_empty() {
  return ga_welford_none<typename ga_welford_traits<W>::value, typename ga_welford_traits<W>::real>();
}
__device__ __forceinline__ float ga_r_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double ga_r_sqrt(double v) { return sqrt(v); }
