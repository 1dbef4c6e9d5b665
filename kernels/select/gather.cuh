// gather.cuh: integer-array indexing (x[idx], take, put, x[idx] = v).
// src/select/gather.c appends one extern "C" wrapper per instantiation.
//
// Indices are 1-based as everywhere in the API and wrap instead of raising
// (checking would need a sync). An index k on an axis of length n selects the
// 0-based position
//     (k - 1) mod n   for k >= 0     (1..n as usual; 0 is the last, n + 1 the first)
//     (k + n) mod n   for k <  0     (-1 is the last, -n the first, -n - 1 the last)
// with mod the floor modulo. In-range indices cost one compare and one add;
// only out-of-range ones take the modulo.

template <int B, bool U> struct ga_int_of;
template <> struct ga_int_of<4, false> { typedef int type; };
template <> struct ga_int_of<4, true> { typedef unsigned type; };
template <> struct ga_int_of<8, false> { typedef long long type; };
template <> struct ga_int_of<8, true> { typedef unsigned long long type; };

template <typename X> struct ga_is_unsigned { static const bool value = false; };
template <> struct ga_is_unsigned<unsigned char> { static const bool value = true; };
template <> struct ga_is_unsigned<unsigned short> { static const bool value = true; };
template <> struct ga_is_unsigned<unsigned int> { static const bool value = true; };
template <> struct ga_is_unsigned<unsigned long long> { static const bool value = true; };

// O is the signed offset type (int or long long); n > 0 and fits O.
template <typename O, typename IDX>
__device__ __forceinline__ O ga_wrap(IDX k, O n) {
  // wide enough for both k and n, so k - 1 and k + n cannot overflow
  constexpr int B = sizeof(IDX) > sizeof(O) ? (int)sizeof(IDX) : (int)sizeof(O);
  typedef typename ga_int_of<B, false>::type S;
  typedef typename ga_int_of<B, true>::type U;
  if constexpr (ga_is_unsigned<IDX>::value) {
    U u = (U)k;
    U q = u - 1;                        // k == 0 wraps to the maximum: caught below
    if (q < (U)n) return (O)q;
    return u == 0 ? n - 1 : (O)(q % (U)n);
  } else {
    S s = (S)k;
    S q = s >= 0 ? s - 1 : s + (S)n;
    if ((U)q < (U)n) return (O)q;       // one unsigned compare covers both ends
    S r = q % (S)n;
    return (O)(r < 0 ? r + (S)n : r);
  }
}

// ---------------------------------------------------------------------------
// Cache hints for the vector gather. The indices and the output stream
// through once: loaded and stored with .cs (evict-first in L1 and L2), so
// they do not push out the lines of x that a later random read could hit.
// x is read-only in the kernel (take never writes into the array it reads)
// and read through the non-coherent path (ld.global.nc).
template <int B> struct ga_word;
template <> struct ga_word<1> { typedef unsigned char type; };
template <> struct ga_word<2> { typedef unsigned short type; };
template <> struct ga_word<4> { typedef unsigned type; };
template <> struct ga_word<8> { typedef uint2 type; };
template <> struct ga_word<16> { typedef uint4 type; };

// V: a ga_vec (aligned to its size, a power of two), moved 16 bytes at a time
template <typename V>
__device__ __forceinline__ V ga_ldcs_vec(const V *p) {
  constexpr int B = sizeof(V) < 16 ? (int)sizeof(V) : 16;
  typedef typename ga_word<B>::type W;
  V r;
  W *w = reinterpret_cast<W *>(&r);
  const W *q = reinterpret_cast<const W *>(p);
#pragma unroll
  for (int i = 0; i < (int)(sizeof(V) / B); i++) w[i] = __ldcs(q + i);
  return r;
}
template <typename V>
__device__ __forceinline__ void ga_stcs_vec(V *p, const V &v) {
  constexpr int B = sizeof(V) < 16 ? (int)sizeof(V) : 16;
  typedef typename ga_word<B>::type W;
  const W *w = reinterpret_cast<const W *>(&v);
  W *q = reinterpret_cast<W *>(p);
#pragma unroll
  for (int i = 0; i < (int)(sizeof(V) / B); i++) __stcs(q + i, w[i]);
}
// One element of x (any dtype: 1 to 16 bytes, aligned to its size)
template <typename T>
__device__ __forceinline__ T ga_ldg_elem(const T *p) {
  typedef typename ga_word<sizeof(T)>::type W;
  T r;
  *reinterpret_cast<W *>(&r) = __ldg(reinterpret_cast<const W *>(p));
  return r;
}

// ---------------------------------------------------------------------------
// take along an axis whose iteration space merged to one dimension, with a
// contiguous output and contiguous indices (x[idx] on a vector, the
// benchmark's case). Each thread reads V indices with vector loads, issues
// V independent loads of x (more loads in flight per thread hides the
// latency of random reads) and writes its V values with vector stores.
// sx is x's stride along the axis in bytes.
template <typename T, typename IDX, int V, typename I, typename O>
__device__ __forceinline__ void ga_gather_flat(T *__restrict__ out, const char *__restrict__ x,
                                               const IDX *__restrict__ idx, I m, O n, O sx) {
  I base = ((I)blockIdx.x * blockDim.x + threadIdx.x) * V;
  if (base + V <= m) {
    ga_vec<IDX, V> k = ga_ldcs_vec(reinterpret_cast<const ga_vec<IDX, V> *>(idx + base));
    O p[V];
#pragma unroll
    for (int j = 0; j < V; j++) p[j] = ga_wrap<O>(k.v[j], n);
    ga_vec<T, V> r;
#pragma unroll
    for (int j = 0; j < V; j++) r.v[j] = ga_ldg_elem(ga_at<T>(x, (long long)(p[j] * sx)));
    ga_stcs_vec(reinterpret_cast<ga_vec<T, V> *>(out + base), r);
  } else {
    for (I j = base; j < m; j++) out[j] = ga_ldg_elem(ga_at<T>(x, (long long)(ga_wrap<O>(idx[j], n) * sx)));
  }
}

// Rows: x[idx] on a matrix whose rows are contiguous (embedding lookups):
// the space merged to (M, R) with out contiguous. Each thread copies one
// vector of V elements of a row; rvec = R / V vectors per row.
template <typename T, typename IDX, int V, typename I, typename O>
__device__ __forceinline__ void ga_gather_rows(T *__restrict__ out, const char *__restrict__ x,
                                               const IDX *__restrict__ idx, I nvec, I rvec, O n, O sa) {
  I stride = (I)gridDim.x * blockDim.x;
  for (I j = (I)blockIdx.x * blockDim.x + threadIdx.x; j < nvec; j += stride) {
    I row = j / rvec;
    O p = ga_wrap<O>(idx[row], n);
    const ga_vec<T, V> *src = reinterpret_cast<const ga_vec<T, V> *>(x + (long long)(p * sa));
    reinterpret_cast<ga_vec<T, V> *>(out)[j] = src[j - row * rvec];
  }
}

// Any layout: the iteration space is out's shape (x's axes before the axis,
// the index array's axes, x's axes after). The indexer gives three byte
// offsets: out, x without the indexed axis, and the index array.
template <typename T, typename IDX, typename IX, typename I, typename O>
__device__ __forceinline__ void ga_gather_strided(char *out, const char *x, const char *idx,
                                                  const IX &ix, I total, O n, O sx) {
  I stride = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    O off[3];
    ix.offsets(i, off);
    O p = ga_wrap<O>(*ga_at<IDX>(idx, off[2]), n);
    *ga_at<T>(out, off[0]) = *ga_at<T>(x, off[1] + p * sx);
  }
}

// x[idx] = v: the iteration space is the indexed shape; offsets are x
// without the indexed axis, v (broadcast: zero strides) and the index array.
// Repeated indices race: one of the values wins, which one is unspecified.
template <typename T, typename V, typename IDX, typename IX, typename I, typename O>
__device__ __forceinline__ void ga_scatter_strided(char *x, const char *v, const char *idx,
                                                   const IX &ix, I total, O n, O sx) {
  I stride = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    O off[3];
    ix.offsets(i, off);
    O p = ga_wrap<O>(*ga_at<IDX>(idx, off[2]), n);
    *ga_at<T>(x + off[0], p * sx) = ga_cast<T>(*ga_at<V>(v, off[1]));
  }
}

// put: x's flat (C-order) element wrap(idx[i]) takes vals[i mod nv] (NumPy
// repeats short value lists). The indexer maps a flat position to x's
// offset; idx and vals are contiguous.
template <typename T, typename V, typename IDX, typename IX, typename I, typename O>
__device__ __forceinline__ void ga_put(char *x, const IX &ix, const IDX *idx, const V *vals, I m,
                                       I nv, O size) {
  I stride = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
    O p = ga_wrap<O>(idx[i], size);
    O off[1];
    ix.offsets((I)p, off);
    *ga_at<T>(x, off[0]) = ga_cast<T>(vals[nv == 1 ? 0 : i % nv]);
  }
}
