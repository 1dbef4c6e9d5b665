// cubsort.cuh: the sort engine's CUB path (src/sort/sort_cub.c), after
// common.cuh and radix.cuh; compiled with the toolkit's CCCL headers.
//
// CUB's onesweep radix sort (Adinets & Merrill 2022), its agents driven by
// our own kernels and launch sequence: one histogram kernel counts the
// 8-bit digits of every pass in one read of the keys, one block per pass
// scans them, then one kernel per digit ranks a tile per block, finds its
// digits' global offsets by decoupled look-back and scatters.
// Keys keep NumPy's order through ga_cub_key: a key type whose radix
// traits are ga_rkey's (NaNs last, -0.0 equal to 0.0 when Z), so no pass
// of our own converts them.
#include <cub/agent/agent_radix_sort_histogram.cuh>
#include <cub/agent/agent_radix_sort_onesweep.cuh>
#include <cub/block/block_scan.cuh>

template <int S> struct ga_cub_bits;
template <> struct ga_cub_bits<1> { typedef unsigned char T; };
template <> struct ga_cub_bits<2> { typedef unsigned short T; };
template <> struct ga_cub_bits<4> { typedef unsigned T; };
template <> struct ga_cub_bits<8> { typedef unsigned long long T; };

// A value of dtype T seen by CUB as a radix key (never constructed: only
// its storage is read and written)
template <typename T, int Z>
struct ga_cub_key {
  T v;
};

// The stored bits CUB pads a partial tile with (its MAX_KEY): they must
// turn into the all-ones key, after every real key. All-ones bits do for
// every dtype (the top unsigned value, a NaN) but signed integers, where
// they are -1, and bool (1 is true).
template <typename T, typename U> struct ga_cub_pad { static constexpr U value = (U)~(U)0; };
template <typename U> struct ga_cub_pad<bool, U> { static constexpr U value = 1; };
template <typename U> struct ga_cub_pad<int8, U> { static constexpr U value = (U)((U)~(U)0 >> 1); };
template <typename U> struct ga_cub_pad<int16, U> { static constexpr U value = (U)((U)~(U)0 >> 1); };
template <typename U> struct ga_cub_pad<int32, U> { static constexpr U value = (U)((U)~(U)0 >> 1); };
template <typename U> struct ga_cub_pad<int64, U> { static constexpr U value = (U)((U)~(U)0 >> 1); };

// The radix order of ga_rkey, except that its top key (NaN's, true's, the
// largest integer's) becomes all-ones: CUB counts the padding of a partial
// tile in the last digit of every pass and ranks it after the tile's real
// keys, so every real key must stay at or below it. Converting in and out
// is idempotent (intermediate passes store the values themselves).
CUB_NAMESPACE_BEGIN
template <typename T, int Z>
struct NumericTraits<ga_cub_key<T, Z> >
    : BaseTraits<UNSIGNED_INTEGER, true, typename ga_cub_bits<sizeof(T)>::T, typename ga_cub_bits<sizeof(T)>::T> {
  typedef typename ga_cub_bits<sizeof(T)>::T UnsignedBits;
  static constexpr UnsignedBits MAX_KEY = ga_cub_pad<T, UnsignedBits>::value;
  static constexpr UnsignedBits ONES = (UnsignedBits)~(UnsignedBits)0;
  static __host__ __device__ __forceinline__ UnsignedBits top() {
    return (UnsignedBits)ga_rkey<T>::to(ga_rkey<T>::from(ONES), Z);
  }
  static __host__ __device__ __forceinline__ UnsignedBits TwiddleIn(UnsignedBits b) {
    T v;
    memcpy(&v, &b, sizeof b);
    UnsignedBits k = (UnsignedBits)ga_rkey<T>::to(v, Z);
    return k == top() ? ONES : k;
  }
  static __host__ __device__ __forceinline__ UnsignedBits TwiddleOut(UnsignedBits k) {
    T v = ga_rkey<T>::from(k == ONES ? top() : k);
    UnsignedBits b;
    memcpy(&b, &v, sizeof b);
    return b;
  }
};
CUB_NAMESPACE_END

#define GA_CUB_HIST_THREADS 128

// bins[p * 256 + d] += the keys among n whose digit p is d (bits [0, end_bit))
template <typename T, int Z>
__device__ __forceinline__ void ga_cub_hist(unsigned *bins, const T *x, unsigned n, int end_bit) {
  typedef ga_cub_key<T, Z> K;
  typedef cub::AgentRadixSortHistogramPolicy<GA_CUB_HIST_THREADS, 16, 1, K, 8> P;
  typedef cub::detail::radix_sort::AgentRadixSortHistogram<P, false, K, unsigned> A;
  __shared__ typename A::TempStorage s;
  A(s, bins, (const K *)x, n, 0, end_bit).Process();
}

// One block of 256 per pass: its 256 counts become exclusive sums
__device__ __forceinline__ void ga_cub_scan(unsigned *bins) {
  typedef cub::BlockScan<unsigned, 256> S;
  __shared__ typename S::TempStorage s;
  unsigned *b = bins + blockIdx.x * 256;
  unsigned v = b[threadIdx.x];
  S(s).ExclusiveSum(v, v);
  b[threadIdx.x] = v;
}

// One digit pass over a portion of n keys (V: cub::NullType for keys only)
template <typename T, int Z, typename V, int THREADS, int ITEMS>
__device__ __forceinline__ void ga_cub_pass(int *lookback, int *ctr, unsigned *bins_out, const unsigned *bins_in,
                                            void *kout, const void *kin, void *vout, const void *vin, int n, int bit,
                                            int nbits) {
  typedef ga_cub_key<T, Z> K;
  typedef cub::AgentRadixSortOnesweepPolicy<THREADS, ITEMS, unsigned, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                            cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT, 8>
      P;
  typedef cub::detail::radix_sort::AgentRadixSortOnesweep<P, false, K, V, unsigned, int> A;
  __shared__ typename A::TempStorage s;
  A(s, lookback, ctr, bins_out, bins_in, (K *)kout, (const K *)kin, (V *)vout, (const V *)vin, n, bit, nbits)
      .Process();
}

// The first pass's values: each element's position
__device__ __forceinline__ void ga_cub_iota(unsigned *v, unsigned long long n) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    v[i] = (unsigned)i;
}

// argsort's result: the sorted positions, 1-based int64
__device__ __forceinline__ void ga_cub_index(const unsigned *v, unsigned long long n, long long *out) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = (long long)v[i] + 1;
}
