--- The CUDA side of the order statistics (median, percentile, quantile and
-- their nan forms). Two ways to the same numbers:
--
-- * rows: the data sorted along the reduced axes (the sort engine), then
--   one ElementwiseKernel that computes each output from its row: NumPy's
--   virtual index of the method, the two neighbours, the interpolation.
-- * selection (one long row, a few quantiles, float32/float64: the
--   median_f32_2^24_ms and percentile_f32_2^24_ms keys): a sample of 2^16
--   elements is sorted; around each quantile's place in it two sample
--   values bracket the wanted order statistics with a margin of four
--   standard deviations of the sample quantile's rank; ONE pass over the
--   data (qsel_count below) counts the elements under each bracket and
--   gathers those inside any bracket (a few percent of the data); the
--   gathered candidates are sorted, and the wanted ranks are read off them.
--   A radix select was the other candidate: it needs a pass per 8 bits
--   (four over float32, each followed by a device-to-host read), and its
--   histograms put most elements of concentrated data (the benchmark's
--   uniform [0, 1) floats share a handful of exponent bytes) into the same
--   shared-memory counter, which serialises the atomics. The bracketing
--   pass has no atomics per element and reads the data once. When a
--   bracket misses its ranks (an unlucky sample, heavy ties), or the
--   candidates exceed an eighth of the data, the rows path runs instead:
--   the same numbers, a full sort's time.
--
-- Both finish in ga_quantile_pick / ga_quantile_value, so NumPy's 13
-- methods are written once.
local K = {}

--- Method names -> the ids of ga_quantile_pick ("median" is internal)
K.METHOD = {
  linear = 0, lower = 1, higher = 2, nearest = 3, midpoint = 4, inverted_cdf = 5,
  averaged_inverted_cdf = 6, closest_observation = 7, interpolated_inverted_cdf = 8, hazen = 9,
  weibull = 10, median_unbiased = 11, normal_unbiased = 12, median = 13,
}
--- The methods that pick an element (the result keeps the input's dtype)
K.DISCRETE = { lower = true, higher = true, nearest = true, inverted_cdf = true, closest_observation = true }

K.PREAMBLE = [[
// NumPy 2's quantile methods (numpy/lib/_function_base_impl.py), for a
// sorted row of n valid values: the two neighbours prev/next (0-based) of
// the virtual index and the weight gamma; kind 0 takes prev, 1 lerps,
// 2 averages (median)
struct ga_qpick { long long prev, next; double gamma; int kind; };
__device__ ga_qpick ga_quantile_pick(int m, long long n, double q) {
  ga_qpick p;
  p.kind = 1;
  p.gamma = 0;
  const double nd = (double)n, n1 = (double)(n - 1);
  double v;
  switch (m) {
  case 13: p.prev = (n - 1) / 2; p.next = n / 2; p.kind = 2; return p;
  case 1: p.prev = p.next = (long long)floor(n1 * q); p.kind = 0; return p;
  case 2: p.prev = p.next = (long long)ceil(n1 * q); p.kind = 0; return p;
  case 3: p.prev = p.next = (long long)rint(n1 * q); p.kind = 0; return p;   // np.around: half to even
  case 5: case 7: {
    // inverted_cdf, closest_observation: the boundary of the discrete steps
    const double idx = nd * q - 1.0 - (m == 7 ? 0.5 : 0.0);
    const double f = floor(idx);
    const long long fi = (long long)f;
    const bool stay = idx - f == 0 && (m == 5 || ((fi % 2) + 2) % 2 == 1);   // Python's % for m == 7
    long long r = stay ? fi : fi + 1;
    if (r < 0) r = 0;
    p.prev = p.next = r;
    p.kind = 0;
    return p;
  }
  case 0: v = n1 * q; break;
  case 4: v = 0.5 * (floor(n1 * q) + ceil(n1 * q)); break;
  case 6: v = nd * q - 1.0; break;
  default: {
    // Hyndman and Fan's continuous methods: alpha, beta
    const double al = m == 8 ? 0.0 : m == 9 ? 0.5 : m == 10 ? 0.0 : m == 11 ? 1.0 / 3.0 : 3.0 / 8.0;
    const double be = m == 8 ? 1.0 : m == 9 ? 0.5 : m == 10 ? 0.0 : m == 11 ? 1.0 / 3.0 : 3.0 / 8.0;
    v = nd * q + (al + q * (1.0 - al - be)) - 1.0;
  }
  }
  // _get_indexes: clipped neighbours; gamma is taken against the clipped
  // previous index, -1 standing for the last element, as NumPy does
  const double fl = floor(v);
  long long prev = (long long)fl, next = prev + 1;
  double pg = fl;
  if (v >= n1) { prev = next = n - 1; pg = -1.0; }
  if (v < 0) { prev = next = 0; pg = 0.0; }
  double g = v - pg;
  if (m == 4) g = v == floor(v) ? 0.0 : 0.5;
  if (m == 6) g = g == 0 ? 0.5 : 1.0;
  p.prev = prev;
  p.next = next;
  p.gamma = g;
  return p;
}

// products rounded on their own (no FMA contraction: NumPy rounds each op);
// the template serves the integer results, which never interpolate
template <typename X> __device__ __forceinline__ X ga_q_mul(X a, X b) { return a * b; }
__device__ __forceinline__ float ga_q_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double ga_q_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float16 ga_q_mul(float16 a, float16 b) { return float16(__fmul_rn((float)a, (float)b)); }
__device__ __forceinline__ bfloat16 ga_q_mul(bfloat16 a, bfloat16 b) { return bfloat16(__fmul_rn((float)a, (float)b)); }
template <typename O> struct ga_q_wide { typedef float t; };
template <> struct ga_q_wide<double> { typedef double t; };
template <typename O>
__device__ __forceinline__ O ga_q_nan() { return (O)__longlong_as_double(0x7ff8000000000000LL); }

// The result from the two neighbours, in the result dtype O: _lerp's
// two-sided form, in O's precision step by step (float16 rounds each op)
template <typename O, typename T>
__device__ __forceinline__ O ga_quantile_value(const ga_qpick &p, T a, T b) {
  if (p.kind == 0) return (O)a;
  typedef typename ga_q_wide<O>::t W;
  if (p.kind == 2) return (O)(((W)a + (W)b) / (W)2);
  const O oa = (O)a, ob = (O)b;
  const O d = ob - oa;
  const O g = (O)p.gamma;
  O r = oa + ga_q_mul(d, g);
  if ((W)g >= (W)0.5) {
    const O omg = (O)1 - g;
    r = ob - ga_q_mul(d, omg);
  }
  return r;
}
]]

--- rows: out[i] from the sorted row i % nrows (of length L, nv[row] valid
-- values first), for the quantile q[i] (q is broadcast over the rows);
-- nanpol false: a NaN at a row's end makes its result NaN
K.ROWS = {
  "raw T s, int64 L, raw int64 nv, float64 q, int64 nrows, int32 method, bool nanpol", "O r", [[
  const long long row = i % nrows;
  const long long base = row * L;
  const long long n = nv[row];
  if (n == 0 || (!nanpol && s[base + L - 1] != s[base + L - 1])) {
    r = ga_q_nan<O>();
  } else {
    const ga_qpick p = ga_quantile_pick(method, n, q);
    r = ga_quantile_value<O, T>(p, s[base + p.prev], s[base + p.next]);
  }
]], "ga_quantile_rows" }

--- selection: the sorted sample's brackets for each quantile (d sample
-- places either side); the sample's NaNs sort last and are not counted
K.BRACKET = {
  "raw T ss, int64 S, float64 q, int64 d", "T lo, T hi", [[
  long long a = 0, b = S;
  while (a < b) {
    const long long m = (a + b) / 2;
    if (ss[m] != ss[m]) b = m; else a = m + 1;
  }
  const T inf = (T)__longlong_as_double(0x7ff0000000000000LL);
  if (a == 0) {
    lo = -inf;
    hi = inf;
  } else {
    const long long c = (long long)(q * (double)(a - 1));
    lo = c - d < 0 ? -inf : ss[c - d];
    hi = c + 1 + d >= a ? inf : ss[c + 1 + d];
  }
]], "ga_quantile_bracket" }

--- selection: each quantile's result from the sorted candidates c (nc of
-- them); counts[i] holds the elements under lo[i], so the element of rank
-- k is c[start + k - counts[i]], start = the first candidate >= lo[i]
K.PICK = {
  "raw T c, int64 nc, raw T lo, raw uint64 counts, float64 q, int64 n, int32 method", "O r", [[
  const T l = lo[i];
  long long a = 0, b = nc;
  while (a < b) {
    const long long m = (a + b) / 2;
    if (c[m] < l) a = m + 1; else b = m;
  }
  const long long off = a - (long long)counts[i];
  const ga_qpick p = ga_quantile_pick(method, n, q);
  r = ga_quantile_value<O, T>(p, c[off + p.prev], c[off + p.next]);
]], "ga_quantile_pick" }

--- selection: the sample (fixed pseudo-random places: the same numbers on
-- every run)
K.SAMPLE = {
  "raw T x, int64 n", "T s", [[
  unsigned long long h = (unsigned long long)i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  s = x[(long long)(h % (unsigned long long)n)];
]], "ga_quantile_sample" }

K.MAXQ = 8          -- quantiles one counting pass serves
K.ITEMS = 8         -- elements a thread loads per tile
K.THREADS = 256

--- The counting pass (a RawKernel per value type; @T@ is the C type).
-- counts: [0, nq) elements below lo[r]; [nq, 2nq) elements in [lo[r],
-- hi[r]]; [2nq] NaNs; [2nq + 1] candidates (in any bracket), which go to
-- cand (the first cap of them; the count says when more were found).
-- A block takes tiles of THREADS * ITEMS elements, coalesced; each tile's
-- candidates get their places from a block scan and one atomic add.
K.COUNT = [[
#define GA_QMAX 8
#define GA_QITEMS 8
extern "C" __global__ void ga_qsel_count_@N@(const @T@ *__restrict__ x, unsigned long long n,
    const @T@ *__restrict__ lo, const @T@ *__restrict__ hi, int nq, unsigned long long *counts,
    @T@ *cand, unsigned long long cap) {
  __shared__ unsigned int warp_off[32];
  __shared__ unsigned long long block_base;
  @T@ l[GA_QMAX], h[GA_QMAX];
  unsigned long long below[GA_QMAX], inside[GA_QMAX], nans = 0;
#pragma unroll
  for (int r = 0; r < GA_QMAX; r++) {
    l[r] = r < nq ? lo[r] : lo[0];
    h[r] = r < nq ? hi[r] : hi[0];
    below[r] = 0;
    inside[r] = 0;
  }
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  const unsigned long long tile = (unsigned long long)blockDim.x * GA_QITEMS;
  for (unsigned long long base = (unsigned long long)blockIdx.x * tile; base < n;
       base += (unsigned long long)gridDim.x * tile) {
    @T@ v[GA_QITEMS];
    bool take[GA_QITEMS];
    unsigned mine = 0;
#pragma unroll
    for (int j = 0; j < GA_QITEMS; j++) {
      const unsigned long long idx = base + (unsigned long long)j * blockDim.x + threadIdx.x;
      take[j] = false;
      if (idx < n) {
        const @T@ e = x[idx];
        v[j] = e;
        if (e != e) {
          nans++;
        } else {
          bool any = false;
#pragma unroll
          for (int r = 0; r < GA_QMAX; r++) {
            if (r < nq) {
              if (e < l[r]) below[r]++;
              else if (e <= h[r]) { inside[r]++; any = true; }
            }
          }
          take[j] = any;
          mine += any;
        }
      }
    }
    // the block's exclusive scan of the candidate counts
    unsigned incl = mine;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned t = __shfl_up_sync(0xffffffffu, incl, o);
      if (lane >= (unsigned)o) incl += t;
    }
    if (lane == 31) warp_off[warp] = incl;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned long long s = 0;
      for (unsigned w = 0; w < nwarps; w++) {
        const unsigned t = warp_off[w];
        warp_off[w] = (unsigned)s;
        s += t;
      }
      block_base = s ? atomicAdd(&counts[2 * nq + 1], s) : 0;
    }
    __syncthreads();
    unsigned long long pos = block_base + warp_off[warp] + incl - mine;
#pragma unroll
    for (int j = 0; j < GA_QITEMS; j++) {
      if (take[j]) {
        if (pos < cap) cand[pos] = v[j];
        pos++;
      }
    }
    __syncthreads();
  }
  // the counters: a warp sum each, one atomic add per warp
#pragma unroll
  for (int r = 0; r < GA_QMAX; r++) {
    unsigned long long b = below[r], in = inside[r];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      b += __shfl_down_sync(0xffffffffu, b, o);
      in += __shfl_down_sync(0xffffffffu, in, o);
    }
    if (lane == 0 && r < nq) {
      if (b) atomicAdd(&counts[r], b);
      if (in) atomicAdd(&counts[nq + r], in);
    }
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) nans += __shfl_down_sync(0xffffffffu, nans, o);
  if (lane == 0 && nans) atomicAdd(&counts[2 * nq], nans);
}
]]

--- The counting kernel's source for a value type
function K.count_source(dtype)
  local ct = dtype == "float32" and "float" or "double"
  return (K.COUNT:gsub("@T@", ct):gsub("@N@", dtype)), "ga_qsel_count_" .. dtype
end

return K
