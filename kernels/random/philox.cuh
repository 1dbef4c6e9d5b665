// philox.cuh: counter-based random numbers (Philox4x32-10, Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11) and the transforms
// of ga.random, generated and transformed in one pass.
//
// A generator is a 64-bit key (from the seed) and a 64-bit offset (counters
// used so far). Counter words: c0,c1 = offset + group (64 bits), c2 = draw
// number (0 for the first words of a group, then rejection redraws), c3 = 0.
// Element i of a "vector" kind always takes group i / PER and its words from
// lane i % PER, so the numbers never depend on the launch shape; a call uses
// ceil(n / PER) groups and the next call starts after them. Loop kinds
// (gamma, beta, poisson, binomial) give element i its own group and draw as
// many words as they need from c2 = 0, 1, 2, ...
// Permutations use c3's top bit, so their counters meet no other kind's.

struct ga_w4 { unsigned x, y, z, w; };

__device__ __forceinline__ ga_w4 ga_philox(unsigned long long ctr, unsigned c2, unsigned c3, unsigned k0,
                                           unsigned k1) {
  unsigned c0 = (unsigned)ctr, c1 = (unsigned)(ctr >> 32);
#pragma unroll
  for (int r = 0; r < 10; r++) {
    unsigned long long p0 = (unsigned long long)0xD2511F53u * c0;
    unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c2;
    unsigned n0 = (unsigned)(p1 >> 32) ^ c1 ^ k0;
    unsigned n2 = (unsigned)(p0 >> 32) ^ c3 ^ k1;
    c1 = (unsigned)p1;
    c3 = (unsigned)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  ga_w4 o = {c0, c1, c2, c3};
  return o;
}

// [0, 1) from 24 or 53 bits; (0, 1) for logarithms
__device__ __forceinline__ float ga_u01f(unsigned x) { return (float)(x >> 8) * 0x1p-24f; }
__device__ __forceinline__ float ga_u01f_open(unsigned x) { return ((float)(x >> 8) + 0.5f) * 0x1p-24f; }
__device__ __forceinline__ double ga_u01d(unsigned a, unsigned b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * 0x1p-53;
}
__device__ __forceinline__ double ga_u01d_open(unsigned a, unsigned b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6) + 0.5) * 0x1p-53;
}

// One call's parameters (the same kernel signature serves every kind)
struct ga_rng_args {
  unsigned long long n, base;
  unsigned k0, k1;
  double a, b;
  long long lo;
  unsigned long long range, thresh;
};

// PER values of type T from one group's words, stored as one vector of S
// (the output's dtype: T itself, or bfloat16 from float) (the output is a
// fresh pool array: aligned). Only the last group can be partial (n not a
// multiple of PER): one test per group, no per-element test (a separate
// tail path would double the registers: a second Philox).
template <typename T, int PER>
struct alignas(sizeof(T) * PER) ga_rvec { T v[PER]; };

template <typename T, int PER, class F, typename S>
__device__ __forceinline__ void ga_rng_vector(S *out, const ga_rng_args &p, F f) {
  const unsigned long long full = p.n / PER, groups = (p.n + PER - 1) / PER;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
#pragma unroll 1
  for (unsigned long long g = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    ga_w4 w = ga_philox(p.base + g, 0, 0, p.k0, p.k1);
    ga_rvec<T, PER> r;
    f(w, r.v, g);
    ga_rvec<S, PER> s;
#pragma unroll
    for (int j = 0; j < PER; j++) s.v[j] = (S)r.v[j];
    if (g < full) {
      *(ga_rvec<S, PER> *)(out + g * PER) = s;
    } else {
#pragma unroll
      for (int j = 0; j < PER; j++)
        if (g * PER + j < p.n) out[g * PER + j] = s.v[j];
    }
  }
}

// ---- uniform: a + u * b ---------------------------------------------------
struct ga_uniform_f {
  float a, b;
  __device__ void operator()(const ga_w4 &w, float *v, unsigned long long) const {
    v[0] = a + ga_u01f(w.x) * b; v[1] = a + ga_u01f(w.y) * b;
    v[2] = a + ga_u01f(w.z) * b; v[3] = a + ga_u01f(w.w) * b;
  }
};
// bfloat16: drawn as float, then rounded down to a bfloat16 value (still a
// float, so the store converts it exactly). Rounding to nearest would turn
// every draw within half a bfloat16 step of 1 into 1 (one in 512 of
// [0, 1)); rounded down, [a, a + b) holds for bfloat16 bounds, and each
// value v comes with the probability of [v, the next bfloat16).
__device__ __forceinline__ float ga_down_to_bf16(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return v;        // NaN
  unsigned cut = u & 0xffffu;
  u &= 0xffff0000u;
  if (cut && (u & 0x80000000u)) u += 0x10000u;          // negative: down is away from zero
  return __uint_as_float(u);
}
struct ga_uniform_bf {
  float a, b;
  __device__ void operator()(const ga_w4 &w, float *v, unsigned long long) const {
    v[0] = ga_down_to_bf16(a + ga_u01f(w.x) * b); v[1] = ga_down_to_bf16(a + ga_u01f(w.y) * b);
    v[2] = ga_down_to_bf16(a + ga_u01f(w.z) * b); v[3] = ga_down_to_bf16(a + ga_u01f(w.w) * b);
  }
};
struct ga_uniform_d {
  double a, b;
  __device__ void operator()(const ga_w4 &w, double *v, unsigned long long) const {
    v[0] = a + ga_u01d(w.x, w.y) * b; v[1] = a + ga_u01d(w.z, w.w) * b;
  }
};

// ---- normal (Box-Muller on pairs), lognormal, exponential -------------------
// The float path uses the hardware's approximate log2, sqrt, sin and cos
// (one special-function instruction each; absolute errors near 2^-21):
// invisible in the distribution, and it keeps generation at the speed of
// writing memory. The radius takes 24 bits (its tail reaches 5.9 sigma);
// the angle 23 bits, read off the word as a float in [1, 2) (no integer
// conversion: those share the special-function unit's issue rate).
__device__ __forceinline__ float ga_lg2_approx(float x) {
  float r;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float ga_sqrt_approx(float x) {
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
template <int LOG>
struct ga_normal_f {
  float a, b;
  __device__ __forceinline__ void pair(unsigned x, unsigned y, float *v) const {
    float r = ga_sqrt_approx(ga_lg2_approx(ga_u01f_open(x)) * -1.38629436f);  // -2 ln u = -2 ln 2 log2 u
    float t = __uint_as_float(0x3f800000u | (y >> 9)) - 1.5f;                   // [-0.5, 0.5)
    float s, c;
    __sincosf(t * 6.28318531f, &s, &c);
    v[0] = a + b * r * c;
    v[1] = a + b * r * s;
    if (LOG) { v[0] = __expf(v[0]); v[1] = __expf(v[1]); }
  }
  __device__ void operator()(const ga_w4 &w, float *v, unsigned long long) const {
    pair(w.x, w.y, v);
    pair(w.z, w.w, v + 2);
  }
};
template <int LOG>
struct ga_normal_d {
  double a, b;
  __device__ void operator()(const ga_w4 &w, double *v, unsigned long long) const {
    double r = sqrt(-2.0 * log(ga_u01d_open(w.x, w.y)));
    double s, c;
    sincospi(2.0 * ga_u01d(w.z, w.w), &s, &c);
    v[0] = a + b * r * c;
    v[1] = a + b * r * s;
    if (LOG) { v[0] = exp(v[0]); v[1] = exp(v[1]); }
  }
};
struct ga_expo_f {
  float b;
  __device__ void operator()(const ga_w4 &w, float *v, unsigned long long) const {
    v[0] = -b * logf(ga_u01f_open(w.x)); v[1] = -b * logf(ga_u01f_open(w.y));
    v[2] = -b * logf(ga_u01f_open(w.z)); v[3] = -b * logf(ga_u01f_open(w.w));
  }
};
struct ga_expo_d {
  double b;
  __device__ void operator()(const ga_w4 &w, double *v, unsigned long long) const {
    v[0] = -b * log(ga_u01d_open(w.x, w.y)); v[1] = -b * log(ga_u01d_open(w.z, w.w));
  }
};

// ---- integers in [lo, lo + range]: Lemire's multiply-shift with rejection ---
// range is hi - lo (inclusive width minus one). Narrow ranges (range < 2^32)
// take one word per value; thresh = 2^32 mod (range + 1), computed on the
// host; a rejected word is redrawn from c2 = 1, 2, ... at the same group,
// c3 = lane, so a redraw never reuses a word.
template <typename T>
struct ga_int32_f {
  long long lo;
  unsigned m, thresh;     // m = range + 1 (0 means 2^32)
  unsigned long long base;
  unsigned k0, k1;
  __device__ __forceinline__ T one(unsigned x, unsigned long long g, int lane) const {
    if (m == 0) return (T)((unsigned long long)lo + x);
    unsigned long long prod = (unsigned long long)x * m;
    unsigned draw = 1;
    while ((unsigned)prod < thresh) {
      ga_w4 w = ga_philox(base + g, draw++, (unsigned)lane, k0, k1);
      prod = (unsigned long long)w.x * m;
    }
    return (T)((unsigned long long)lo + (prod >> 32));
  }
  __device__ void operator()(const ga_w4 &w, T *v, unsigned long long g) const {
    v[0] = one(w.x, g, 0); v[1] = one(w.y, g, 1); v[2] = one(w.z, g, 2); v[3] = one(w.w, g, 3);
  }
};
// Wide ranges: two words (64 bits) per value, 128-bit product
template <typename T>
struct ga_int64_f {
  long long lo;
  unsigned long long m, thresh;   // m = range + 1 (0 means 2^64); thresh = 2^64 mod m
  unsigned long long base;
  unsigned k0, k1;
  __device__ __forceinline__ T one(unsigned a, unsigned b, unsigned long long g, int lane) const {
    unsigned long long x = ((unsigned long long)a << 32) | b;
    if (m == 0) return (T)((unsigned long long)lo + x);
    unsigned draw = 1;
    while (x * m < thresh) {
      ga_w4 w = ga_philox(base + g, draw++, (unsigned)lane, k0, k1);
      x = ((unsigned long long)w.x << 32) | w.y;
    }
    return (T)((unsigned long long)lo + __umul64hi(x, m));
  }
  __device__ void operator()(const ga_w4 &w, T *v, unsigned long long g) const {
    v[0] = one(w.x, w.y, g, 0);
    v[1] = one(w.z, w.w, g, 1);
  }
};

// ---- per-element streams for the loop kinds ----------------------------------
// A stream is a word source W (next() -> 32 random bits) and the samplers
// below over it. Philox's words: counter ctr, draws 0, 1, 2, ... (the
// sequential generators of random/sequential.lua bring their own W).
struct ga_philox_words {
  unsigned long long ctr;
  unsigned k0, k1, draw;
  ga_w4 buf;
  int used;
  __device__ ga_philox_words(unsigned long long c, unsigned a, unsigned b)
      : ctr(c), k0(a), k1(b), draw(0), used(4) {}
  __device__ unsigned next() {
    if (used == 4) { buf = ga_philox(ctr, draw++, 0, k0, k1); used = 0; }
    unsigned w = used == 0 ? buf.x : used == 1 ? buf.y : used == 2 ? buf.z : buf.w;
    used++;
    return w;
  }
};

template <class W>
struct ga_rstream_of : W {
  using W::W;
  __device__ unsigned next() { return W::next(); }
  __device__ double uniform() { unsigned a = next(); return ga_u01d(a, next()); }
  __device__ double open() { unsigned a = next(); return ga_u01d_open(a, next()); }
  __device__ double normal() {
    double r = sqrt(-2.0 * log(open()));
    return r * cospi(2.0 * uniform());
  }
  // Marsaglia and Tsang (2000); shape < 1 through gamma(shape + 1) * u^(1/shape)
  __device__ double gamma(double k) {
    if (k <= 0) return 0;
    double boost = 1;
    if (k < 1) { boost = pow(open(), 1.0 / k); k += 1; }
    double d = k - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
      double x = normal(), v = 1 + c * x;
      if (v <= 0) continue;
      v = v * v * v;
      double u = open();
      if (u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v))) return d * v * boost;
    }
  }
  __device__ double beta(double a, double b) {
    double x = gamma(a), y = gamma(b);
    if (x + y == 0) return uniform() < a / (a + b) ? 1.0 : 0.0;
    return x / (x + y);
  }
  // Exact: order statistics split large n (Knuth, TAOCP 3.4.1), then trials
  __device__ long long binomial(long long n, double p) {
    long long k = 0;
    while (n > 32) {
      long long a = 1 + n / 2, b = n + 1 - a;
      double x = beta((double)a, (double)b);
      if (x >= p) { n = a - 1; p = p / x; }
      else { k += a; n = b - 1; p = (p - x) / (1 - x); }
    }
    for (long long j = 0; j < n; j++) k += uniform() < p;
    return k;
  }
  // Exact: gamma-distributed arrival times split large means, then Knuth's
  // product of uniforms
  __device__ long long poisson(double lam) {
    long long k = 0;
    while (lam > 16) {
      long long m = (long long)(lam * 0.875);
      double x = gamma((double)m);
      if (x < lam) { k += m; lam -= x; }
      else return k + binomial(m - 1, lam / x);
    }
    double l = exp(-lam), prod = open();
    while (prod > l) { k++; prod *= open(); }
    return k;
  }
};
typedef ga_rstream_of<ga_philox_words> ga_rstream;

enum { GA_RK_GAMMA, GA_RK_BETA, GA_RK_POISSON, GA_RK_BINOMIAL };

template <typename T, int KIND>
__device__ __forceinline__ void ga_rng_loop(T *out, const ga_rng_args &p) {
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    ga_rstream s(p.base + i, p.k0, p.k1);
    if (KIND == GA_RK_GAMMA) out[i] = (T)(s.gamma(p.a) * p.b);
    else if (KIND == GA_RK_BETA) out[i] = (T)s.beta(p.a, p.b);
    else if (KIND == GA_RK_POISSON) out[i] = (T)s.poisson(p.a);
    else out[i] = (T)s.binomial(p.lo, p.a);
  }
}

// ---- permutations: a keyed Feistel bijection of [0, 2^bits), cycle-walked
// into [0, n) (thrust's shuffle does the same). out[i] = perm(i) + lo for
// i < count (count <= n: the first of a random ordering, for choice without
// replacement). Four rounds of Philox as the round function.
__device__ __forceinline__ unsigned long long ga_feistel(unsigned long long v, int half, unsigned long long nonce,
                                                         unsigned k0, unsigned k1) {
  unsigned long long mask = (1ull << half) - 1;
  unsigned long long l = v >> half, r = v & mask;
  for (unsigned round = 0; round < 4; round++) {
    ga_w4 w = ga_philox(r | ((unsigned long long)round << 32), (unsigned)nonce,
                        (unsigned)(nonce >> 32) | 0x80000000u, k0, k1);
    unsigned long long f = (((unsigned long long)w.x << 32) | w.y) & mask;
    unsigned long long t = l ^ f;
    l = r;
    r = t;
  }
  return (l << half) | r;
}

template <typename T>
__device__ __forceinline__ void ga_rng_perm(T *out, const ga_rng_args &p) {
  unsigned long long n = p.range;
  int bits = 2;
  while (bits < 64 && (1ull << bits) < n) bits += 2;
  int half = bits / 2;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long v = i;
    do v = ga_feistel(v, half, p.base, p.k0, p.k1); while (v >= n);
    out[i] = (T)((long long)v + p.lo);
  }
}
