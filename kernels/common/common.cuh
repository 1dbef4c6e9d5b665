// common.cuh: what every generated kernel sees first. No system headers, so
// NVRTC compiles in milliseconds: float16, bfloat16 and complex are our own,
// and the dtype names are typedefs (`float32 x` in a kernel means `float x`).

typedef signed char int8;
typedef short int16;
typedef int int32;
typedef long long int64;
typedef unsigned char uint8;
typedef unsigned short uint16;
typedef unsigned int uint32;
typedef unsigned long long uint64;
typedef float float32;
typedef double float64;

// ---------------------------------------------------------------------------
// float16: storage is the IEEE half bits; arithmetic happens in float (the
// implicit conversion), results convert back on assignment.
struct float16 {
  unsigned short bits;
  float16() = default;
  __device__ __forceinline__ float16(float f) {
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(f));
  }
  __device__ __forceinline__ float16(double d) {
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(d));
  }
  // integers in float16's range are exact in float, so one rounding happens
  __device__ __forceinline__ float16(bool v) : float16(v ? 1.0f : 0.0f) {}
  __device__ __forceinline__ float16(signed char v) : float16((float)v) {}
  __device__ __forceinline__ float16(short v) : float16((float)v) {}
  __device__ __forceinline__ float16(int v) : float16((float)v) {}
  __device__ __forceinline__ float16(long long v) : float16((float)v) {}
  __device__ __forceinline__ float16(unsigned char v) : float16((float)v) {}
  __device__ __forceinline__ float16(unsigned short v) : float16((float)v) {}
  __device__ __forceinline__ float16(unsigned int v) : float16((float)v) {}
  __device__ __forceinline__ float16(unsigned long long v) : float16((float)v) {}
  __device__ __forceinline__ operator float() const {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
    return f;
  }
  static __device__ __forceinline__ float16 from_bits(unsigned short b) {
    float16 h;
    h.bits = b;
    return h;
  }
};

// ---------------------------------------------------------------------------
// bfloat16: storage is float32's upper 16 bits (__nv_bfloat16's layout, so
// a RawKernel's __nv_bfloat16 * reads the same memory); arithmetic happens
// in float, as float16's. Every conversion into it rounds once, to nearest
// even: from float directly; from double and from integers wider than
// float's 24 bits through float rounded to odd (truncated, with the last
// bit set when anything was cut off), which keeps the exact value's side
// of every bfloat16 midpoint. Host conversions: src/core/dtype.c.
__device__ __forceinline__ unsigned short ga_bf16_bits(float f) {
#if __CUDA_ARCH__ >= 800
  unsigned short b;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f));
  return b;
#else
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);   // NaN stays NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
#endif
}
// f, truncated toward zero, with its last bit set when exact != f
__device__ __forceinline__ float ga_round_odd(float f, bool inexact) {
  return inexact ? __uint_as_float(__float_as_uint(f) | 1u) : f;
}
struct bfloat16 {
  unsigned short bits;
  bfloat16() = default;
  __device__ __forceinline__ bfloat16(float f) : bits(ga_bf16_bits(f)) {}
  __device__ __forceinline__ bfloat16(double d) {
    float f = __double2float_rz(d);   // d past float's range: the largest float, rounding to inf
    bits = ga_bf16_bits(d != d ? f : ga_round_odd(f, (double)f != d));
  }
  // integers of up to 16 bits are exact in float, so one rounding happens
  __device__ __forceinline__ bfloat16(bool v) : bfloat16(v ? 1.0f : 0.0f) {}
  __device__ __forceinline__ bfloat16(signed char v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(short v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(unsigned char v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(unsigned short v) : bfloat16((float)v) {}
  __device__ __forceinline__ bfloat16(int v) {
    float f = __int2float_rz(v);
    bits = ga_bf16_bits(ga_round_odd(f, (int)f != v));
  }
  __device__ __forceinline__ bfloat16(unsigned int v) {
    float f = __uint2float_rz(v);
    bits = ga_bf16_bits(ga_round_odd(f, (unsigned int)f != v));
  }
  __device__ __forceinline__ bfloat16(long long v) {
    float f = __ll2float_rz(v);
    bits = ga_bf16_bits(ga_round_odd(f, (long long)f != v));
  }
  __device__ __forceinline__ bfloat16(unsigned long long v) {
    float f = __ull2float_rz(v);
    bits = ga_bf16_bits(ga_round_odd(f, (unsigned long long)f != v));
  }
  __device__ __forceinline__ operator float() const { return __uint_as_float((unsigned)bits << 16); }
  static __device__ __forceinline__ bfloat16 from_bits(unsigned short b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
};

// ---------------------------------------------------------------------------
// complex<T>: layout {re, im}, aligned like NumPy's complex64/128.
template <typename T>
struct alignas(2 * sizeof(T)) complex {
  T re, im;
  complex() = default;
  __device__ __forceinline__ complex(T r) : re(r), im(0) {}
  __device__ __forceinline__ complex(T r, T i) : re(r), im(i) {}
  template <typename U>
  __device__ __forceinline__ explicit complex(const complex<U> &o) : re((T)o.re), im((T)o.im) {}
  __device__ __forceinline__ T real() const { return re; }
  __device__ __forceinline__ T imag() const { return im; }
};
typedef complex<float> complex64;
typedef complex<double> complex128;

// ---------------------------------------------------------------------------
// ga_cast<To>(v): C casting as astype does it. Complex to real keeps the real
// part (NumPy does, with a warning); to bool means "is not zero".
template <typename To, typename From>
struct ga_caster {
  static __device__ __forceinline__ To f(From v) { return (To)v; }
};
template <typename From>
struct ga_caster<bool, From> {
  static __device__ __forceinline__ bool f(From v) { return (bool)v; }
};
template <>
struct ga_caster<bool, float16> {
  static __device__ __forceinline__ bool f(float16 v) { return (float)v != 0.0f; }
};
template <>
struct ga_caster<bool, bfloat16> {
  static __device__ __forceinline__ bool f(bfloat16 v) { return (float)v != 0.0f; }
};
// between the two 16-bit floats: exact into float, then one rounding
template <>
struct ga_caster<bfloat16, float16> {
  static __device__ __forceinline__ bfloat16 f(float16 v) { return bfloat16((float)v); }
};
template <>
struct ga_caster<float16, bfloat16> {
  static __device__ __forceinline__ float16 f(bfloat16 v) { return float16((float)v); }
};
template <typename To, typename T>
struct ga_caster<To, complex<T> > {
  static __device__ __forceinline__ To f(complex<T> v) { return ga_caster<To, T>::f(v.re); }
};
template <typename T>
struct ga_caster<bool, complex<T> > {
  static __device__ __forceinline__ bool f(complex<T> v) { return v.re != (T)0 || v.im != (T)0; }
};
template <typename T, typename From>
struct ga_caster<complex<T>, From> {
  static __device__ __forceinline__ complex<T> f(From v) { return complex<T>(ga_caster<T, From>::f(v)); }
};
template <typename T, typename U>
struct ga_caster<complex<T>, complex<U> > {
  static __device__ __forceinline__ complex<T> f(complex<U> v) { return complex<T>((T)v.re, (T)v.im); }
};
template <typename T>
struct ga_caster<float16, complex<T> > {
  static __device__ __forceinline__ float16 f(complex<T> v) { return float16(v.re); }
};
template <typename T>
struct ga_caster<complex<T>, float16> {
  static __device__ __forceinline__ complex<T> f(float16 v) { return complex<T>((T)(float)v); }
};
template <typename T>
struct ga_caster<bfloat16, complex<T> > {
  static __device__ __forceinline__ bfloat16 f(complex<T> v) { return bfloat16(v.re); }
};
template <typename T>
struct ga_caster<complex<T>, bfloat16> {
  static __device__ __forceinline__ complex<T> f(bfloat16 v) { return complex<T>((T)(float)v); }
};
template <typename To, typename From>
__device__ __forceinline__ To ga_cast(From v) { return ga_caster<To, From>::f(v); }

// ---------------------------------------------------------------------------
// Vectors for 16-byte (or narrower) loads and stores of V elements.
template <typename T, int V>
struct alignas(sizeof(T) * V) ga_vec {
  T v[V];
};

// ---------------------------------------------------------------------------
// Indexers: turn a linear index over the (merged) iteration space into byte
// offsets of NOP operands. Shapes and strides are kernel arguments packed by
// the host (src/core/indexer.c): 32-bit ones divide by multiplying (PyTorch's
// IntDivider: exact for dividends below 2^31), 64-bit ones divide plainly.
template <int ND, int NOP>
struct ga_indexer32 {
  unsigned size[ND];
  unsigned mul[ND];
  unsigned shift[ND];
  int strides[NOP][ND];

  __device__ __forceinline__ void offsets(unsigned i, int *off) const {
#pragma unroll
    for (int k = 0; k < NOP; k++) off[k] = 0;
#pragma unroll
    for (int d = ND - 1; d >= 1; d--) {
      unsigned q = (__umulhi(i, mul[d]) + i) >> shift[d];
      unsigned r = i - q * size[d];
#pragma unroll
      for (int k = 0; k < NOP; k++) off[k] += (int)r * strides[k][d];
      i = q;
    }
#pragma unroll
    for (int k = 0; k < NOP; k++) off[k] += (int)i * strides[k][0];
  }
};

template <int ND, int NOP>
struct ga_indexer64 {
  unsigned long long size[ND];
  long long strides[NOP][ND];

  __device__ __forceinline__ void offsets(unsigned long long i, long long *off) const {
#pragma unroll
    for (int k = 0; k < NOP; k++) off[k] = 0;
#pragma unroll
    for (int d = ND - 1; d >= 1; d--) {
      unsigned long long q = i / size[d];
      unsigned long long r = i - q * size[d];
#pragma unroll
      for (int k = 0; k < NOP; k++) off[k] += (long long)r * strides[k][d];
      i = q;
    }
#pragma unroll
    for (int k = 0; k < NOP; k++) off[k] += (long long)i * strides[k][0];
  }
};

template <typename T>
__device__ __forceinline__ T *ga_at(void *base, long long off) {
  return (T *)((char *)base + off);
}
template <typename T>
__device__ __forceinline__ const T *ga_at(const void *base, long long off) {
  return (const T *)((const char *)base + off);
}
