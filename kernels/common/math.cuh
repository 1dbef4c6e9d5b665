// math.cuh: what ufunc expressions (and user kernels) call. Complex
// arithmetic and functions, and the ga_* helpers whose NumPy semantics
// differ from C's (floor division and remainder with the divisor's sign,
// integer division by zero giving 0, NaN-propagating maximum, shifts past
// the width, integer powers). Overloads cover bool, the integers, float,
// double and complex<float/double>; float16 and bfloat16 reach them as
// float (ufuncs compute both in float32). complex64 functions compute in double and
// round once, so they are as accurate as their float32 counterparts.

// ---------------------------------------------------------------------------
// type traits (no <type_traits> under NVRTC without system headers)
template <typename T> struct ga_traits {
  static constexpr bool is_int = false, is_signed = false, is_float = false, is_complex = false;
};
#define GA_INT_TRAITS(T, S) template <> struct ga_traits<T> { \
  static constexpr bool is_int = true, is_signed = S, is_float = false, is_complex = false; };
GA_INT_TRAITS(bool, false)
GA_INT_TRAITS(signed char, true)
GA_INT_TRAITS(short, true)
GA_INT_TRAITS(int, true)
GA_INT_TRAITS(long long, true)
GA_INT_TRAITS(unsigned char, false)
GA_INT_TRAITS(unsigned short, false)
GA_INT_TRAITS(unsigned int, false)
GA_INT_TRAITS(unsigned long long, false)
#undef GA_INT_TRAITS
template <> struct ga_traits<float> {
  static constexpr bool is_int = false, is_signed = true, is_float = true, is_complex = false; };
template <> struct ga_traits<double> {
  static constexpr bool is_int = false, is_signed = true, is_float = true, is_complex = false; };
template <> struct ga_traits<float16> {   // user kernels may pass float16 values
  static constexpr bool is_int = false, is_signed = true, is_float = true, is_complex = false; };
template <> struct ga_traits<bfloat16> {
  static constexpr bool is_int = false, is_signed = true, is_float = true, is_complex = false; };
template <typename T> struct ga_traits<complex<T> > {
  static constexpr bool is_int = false, is_signed = true, is_float = false, is_complex = true; };

// The unsigned type integer arithmetic wraps in (at least int's width)
template <typename T, bool W = (sizeof(T) > 4)> struct ga_wide_uint { typedef unsigned int type; };
template <typename T> struct ga_wide_uint<T, true> { typedef unsigned long long type; };

template <typename T> struct ga_ident { typedef T type; };

__device__ __forceinline__ float ga_inf_f() { return __int_as_float(0x7f800000); }
__device__ __forceinline__ double ga_inf_d() { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ __forceinline__ double ga_nan_d() { return __longlong_as_double(0x7ff8000000000000LL); }

// ---------------------------------------------------------------------------
// real math: one name, float and double overloads
#define GA_MATH1(name, ff, df) \
  __device__ __forceinline__ float name(float x) { return ff(x); } \
  __device__ __forceinline__ double name(double x) { return df(x); }
#define GA_MATH2(name, ff, df) \
  __device__ __forceinline__ float name(float x, float y) { return ff(x, y); } \
  __device__ __forceinline__ double name(double x, double y) { return df(x, y); }
GA_MATH1(ga_sqrt, sqrtf, sqrt)
GA_MATH1(ga_cbrt, cbrtf, cbrt)
GA_MATH1(ga_exp, expf, exp)
GA_MATH1(ga_exp2, exp2f, exp2)
GA_MATH1(ga_expm1, expm1f, expm1)
GA_MATH1(ga_log, logf, log)
GA_MATH1(ga_log2, log2f, log2)
GA_MATH1(ga_log10, log10f, log10)
GA_MATH1(ga_log1p, log1pf, log1p)
GA_MATH1(ga_sin, sinf, sin)
GA_MATH1(ga_cos, cosf, cos)
GA_MATH1(ga_tan, tanf, tan)
GA_MATH1(ga_arcsin, asinf, asin)
GA_MATH1(ga_arccos, acosf, acos)
GA_MATH1(ga_arctan, atanf, atan)
GA_MATH1(ga_sinh, sinhf, sinh)
GA_MATH1(ga_cosh, coshf, cosh)
GA_MATH1(ga_tanh, tanhf, tanh)
GA_MATH1(ga_arcsinh, asinhf, asinh)
GA_MATH1(ga_arccosh, acoshf, acosh)
GA_MATH1(ga_arctanh, atanhf, atanh)
GA_MATH1(ga_floor, floorf, floor)
GA_MATH1(ga_ceil, ceilf, ceil)
GA_MATH1(ga_trunc, truncf, trunc)
GA_MATH1(ga_rint, rintf, rint)      // round half to even
GA_MATH1(ga_fabs, fabsf, fabs)
GA_MATH2(ga_arctan2, atan2f, atan2)
GA_MATH2(ga_hypot, hypotf, hypot)
GA_MATH2(ga_copysign, copysignf, copysign)
GA_MATH2(ga_fmod_f, fmodf, fmod)
GA_MATH2(ga_pow_f, powf, pow)
#undef GA_MATH1
#undef GA_MATH2

__device__ __forceinline__ float ga_deg2rad(float x) { return x * 0.017453292519943295f; }
__device__ __forceinline__ double ga_deg2rad(double x) { return x * 0.017453292519943295; }
__device__ __forceinline__ float ga_rad2deg(float x) { return x * 57.29577951308232f; }
__device__ __forceinline__ double ga_rad2deg(double x) { return x * 57.29577951308232; }

// Classification. Integers and bools are finite numbers.
template <typename T> __device__ __forceinline__ bool ga_isnan(T x) {
  if constexpr (ga_traits<T>::is_float) return x != x;
  else return false;
}
template <typename T> __device__ __forceinline__ bool ga_isinf(T x) {
  if constexpr (ga_traits<T>::is_float) return ga_fabs(x) == (T)ga_inf_d();
  else return false;
}
template <typename T> __device__ __forceinline__ bool ga_isfinite(T x) {
  if constexpr (ga_traits<T>::is_float) return x - x == x - x;   // NaN for inf and NaN
  else return true;
}
__device__ __forceinline__ bool ga_signbit(float x) { return __float_as_int(x) < 0; }
__device__ __forceinline__ bool ga_signbit(double x) { return __double_as_longlong(x) < 0; }

// ---------------------------------------------------------------------------
// complex arithmetic
template <typename T>
__device__ __forceinline__ complex<T> operator+(const complex<T> &a) { return a; }
template <typename T>
__device__ __forceinline__ complex<T> operator-(const complex<T> &a) { return complex<T>(-a.re, -a.im); }
template <typename T>
__device__ __forceinline__ complex<T> operator+(const complex<T> &a, const complex<T> &b) {
  return complex<T>(a.re + b.re, a.im + b.im);
}
template <typename T>
__device__ __forceinline__ complex<T> operator-(const complex<T> &a, const complex<T> &b) {
  return complex<T>(a.re - b.re, a.im - b.im);
}
template <typename T>
__device__ __forceinline__ complex<T> operator*(const complex<T> &a, const complex<T> &b) {
  return complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// Smith's algorithm, as NumPy divides
template <typename T>
__device__ __forceinline__ complex<T> operator/(const complex<T> &a, const complex<T> &b) {
  T abr = ga_fabs(b.re), abi = ga_fabs(b.im);
  if (abr >= abi) {
    if (abr == (T)0 && abi == (T)0) return complex<T>(a.re / abr, a.im / abi);
    T rat = b.im / b.re, scl = (T)1 / (b.re + b.im * rat);
    return complex<T>((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
  }
  T rat = b.re / b.im, scl = (T)1 / (b.im + b.re * rat);
  return complex<T>((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}
// mixed with a real value of the component type (or anything converting to it)
#define GA_CMIX(op) \
  template <typename T> __device__ __forceinline__ complex<T> operator op( \
      const complex<T> &a, typename ga_ident<T>::type b) { return a op complex<T>(b); } \
  template <typename T> __device__ __forceinline__ complex<T> operator op( \
      typename ga_ident<T>::type a, const complex<T> &b) { return complex<T>(a) op b; } \
  template <typename T> __device__ __forceinline__ complex<T> &operator op##=( \
      complex<T> &a, const complex<T> &b) { a = a op b; return a; } \
  template <typename T> __device__ __forceinline__ complex<T> &operator op##=( \
      complex<T> &a, typename ga_ident<T>::type b) { a = a op complex<T>(b); return a; }
GA_CMIX(+)
GA_CMIX(-)
GA_CMIX(*)
GA_CMIX(/)
#undef GA_CMIX
template <typename T>
__device__ __forceinline__ bool operator==(const complex<T> &a, const complex<T> &b) {
  return a.re == b.re && a.im == b.im;
}
template <typename T>
__device__ __forceinline__ bool operator!=(const complex<T> &a, const complex<T> &b) {
  return !(a == b);
}
template <typename T>
__device__ __forceinline__ bool operator==(const complex<T> &a, typename ga_ident<T>::type b) {
  return a.re == b && a.im == (T)0;
}
template <typename T>
__device__ __forceinline__ bool operator!=(const complex<T> &a, typename ga_ident<T>::type b) {
  return !(a == b);
}

// ---------------------------------------------------------------------------
// complex functions, in double (complex64 rounds once at the end)
typedef complex<double> ga_cd;

__device__ __forceinline__ double ga_cabs_d(ga_cd z) { return hypot(z.re, z.im); }
__device__ __forceinline__ ga_cd ga_cexp_d(ga_cd z) {
  if (z.im == 0.0) return ga_cd(exp(z.re), z.im);
  double e = exp(z.re), s, c;
  sincos(z.im, &s, &c);
  return ga_cd(e * c, e * s);
}
__device__ __forceinline__ ga_cd ga_clog_d(ga_cd z) {
  return ga_cd(log(hypot(z.re, z.im)), atan2(z.im, z.re));
}
__device__ __noinline__ ga_cd ga_csqrt_d(ga_cd z) {
  double x = z.re, y = z.im;
  if (x == 0.0 && y == 0.0) return ga_cd(0.0, y);
  if (ga_isinf(y)) return ga_cd(ga_inf_d(), y);
  if (x != x) return ga_cd(x, (y - y) / (y - y));
  if (ga_isinf(x)) {
    if (x > 0) return ga_cd(x, y != y ? y : copysign(0.0, y));
    return ga_cd(y != y ? fabs(y - y) : 0.0, copysign(-x, y));
  }
  double t = sqrt(0.5 * (fabs(x) + hypot(x, y)));
  if (x >= 0) return ga_cd(t, y / (2.0 * t));
  return ga_cd(fabs(y) / (2.0 * t), copysign(t, y));
}
__device__ __forceinline__ ga_cd ga_csin_d(ga_cd z) {
  double s, c;
  sincos(z.re, &s, &c);
  return ga_cd(s * cosh(z.im), c * sinh(z.im));
}
__device__ __forceinline__ ga_cd ga_ccos_d(ga_cd z) {
  double s, c;
  sincos(z.re, &s, &c);
  return ga_cd(c * cosh(z.im), -s * sinh(z.im));
}
__device__ __forceinline__ ga_cd ga_csinh_d(ga_cd z) {
  double s, c;
  sincos(z.im, &s, &c);
  return ga_cd(sinh(z.re) * c, cosh(z.re) * s);
}
__device__ __forceinline__ ga_cd ga_ccosh_d(ga_cd z) {
  double s, c;
  sincos(z.im, &s, &c);
  return ga_cd(cosh(z.re) * c, sinh(z.re) * s);
}
// Kahan's ctanh (as in FreeBSD's msun): no overflow for large |re|
__device__ __noinline__ ga_cd ga_ctanh_d(ga_cd z) {
  double x = z.re, y = z.im;
  if (!ga_isfinite(x)) {
    if (x != x) return ga_cd(x, y == 0.0 ? y : x * y);
    return ga_cd(copysign(1.0, x), copysign(0.0, ga_isinf(y) ? y : sin(y) * cos(y)));
  }
  if (!ga_isfinite(y)) return ga_cd(y - y, y - y);
  if (fabs(x) >= 22.0) {
    double e = exp(-fabs(x));
    return ga_cd(copysign(1.0, x), 4.0 * sin(y) * cos(y) * e * e);
  }
  double t = tan(y), beta = 1.0 + t * t, s = sinh(x), rho = sqrt(1.0 + s * s);
  double den = 1.0 + beta * s * s;
  return ga_cd(beta * rho * s / den, t / den);
}
__device__ __forceinline__ ga_cd ga_ctan_d(ga_cd z) {   // tan z = -i tanh(i z)
  ga_cd r = ga_ctanh_d(ga_cd(-z.im, z.re));
  return ga_cd(r.im, -r.re);
}
// Kahan's formulas for the inverse functions (principal branches)
__device__ __noinline__ ga_cd ga_casin_d(ga_cd z) {
  ga_cd s1 = ga_csqrt_d(ga_cd(1.0 - z.re, -z.im)), s2 = ga_csqrt_d(ga_cd(1.0 + z.re, z.im));
  return ga_cd(atan2(z.re, s1.re * s2.re - s1.im * s2.im), asinh(s1.re * s2.im - s1.im * s2.re));
}
__device__ __noinline__ ga_cd ga_cacos_d(ga_cd z) {
  ga_cd s1 = ga_csqrt_d(ga_cd(1.0 - z.re, -z.im)), s2 = ga_csqrt_d(ga_cd(1.0 + z.re, z.im));
  return ga_cd(2.0 * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re));
}
__device__ __forceinline__ ga_cd ga_casinh_d(ga_cd z) {   // asinh z = -i asin(i z)
  ga_cd r = ga_casin_d(ga_cd(-z.im, z.re));
  return ga_cd(r.im, -r.re);
}
__device__ __noinline__ ga_cd ga_cacosh_d(ga_cd z) {
  ga_cd s1 = ga_csqrt_d(ga_cd(z.re - 1.0, z.im)), s2 = ga_csqrt_d(ga_cd(z.re + 1.0, z.im));
  return ga_cd(asinh(s1.re * s2.re + s1.im * s2.im), 2.0 * atan2(s1.im, s2.re));
}
__device__ __noinline__ ga_cd ga_catanh_d(ga_cd z) {
  ga_cd a = ga_clog_d(ga_cd(1.0 + z.re, z.im)), b = ga_clog_d(ga_cd(1.0 - z.re, -z.im));
  return ga_cd(0.5 * (a.re - b.re), 0.5 * (a.im - b.im));
}
__device__ __forceinline__ ga_cd ga_catan_d(ga_cd z) {    // atan z = -i atanh(i z)
  ga_cd r = ga_catanh_d(ga_cd(-z.im, z.re));
  return ga_cd(r.im, -r.re);
}
// NumPy's nc_pow: small integer exponents by repeated multiplication
__device__ __noinline__ ga_cd ga_cpow_d(ga_cd a, ga_cd b) {
  if (b.re == 0.0 && b.im == 0.0) return ga_cd(1.0, 0.0);
  if (a.re == 0.0 && a.im == 0.0) {
    if (b.re > 0 && b.im == 0.0) return ga_cd(0.0, 0.0);
    return ga_cd(ga_nan_d(), ga_nan_d());
  }
  if (b.im == 0.0 && b.re > -100.0 && b.re < 100.0 && b.re == (double)(int)b.re) {
    int n = (int)b.re, m = n < 0 ? -n : n;
    ga_cd r(1.0, 0.0), p = a;
    while (m) {
      if (m & 1) r = r * p;
      m >>= 1;
      if (m) p = p * p;
    }
    return n < 0 ? ga_cd(1.0, 0.0) / r : r;
  }
  ga_cd l = ga_clog_d(a);
  return ga_cexp_d(l * b);
}

#define GA_CFUN1(name, impl) \
  template <typename T> __device__ __forceinline__ complex<T> name(const complex<T> &z) { \
    return complex<T>(impl(ga_cd(z))); }
GA_CFUN1(ga_exp, ga_cexp_d)
GA_CFUN1(ga_log, ga_clog_d)
GA_CFUN1(ga_sqrt, ga_csqrt_d)
GA_CFUN1(ga_sin, ga_csin_d)
GA_CFUN1(ga_cos, ga_ccos_d)
GA_CFUN1(ga_tan, ga_ctan_d)
GA_CFUN1(ga_sinh, ga_csinh_d)
GA_CFUN1(ga_cosh, ga_ccosh_d)
GA_CFUN1(ga_tanh, ga_ctanh_d)
GA_CFUN1(ga_arcsin, ga_casin_d)
GA_CFUN1(ga_arccos, ga_cacos_d)
GA_CFUN1(ga_arctan, ga_catan_d)
GA_CFUN1(ga_arcsinh, ga_casinh_d)
GA_CFUN1(ga_arccosh, ga_cacosh_d)
GA_CFUN1(ga_arctanh, ga_catanh_d)
#undef GA_CFUN1
template <typename T> __device__ __forceinline__ complex<T> ga_exp2(const complex<T> &z) {
  ga_cd w(z);
  return complex<T>(ga_cexp_d(ga_cd(w.re * 0.6931471805599453, w.im * 0.6931471805599453)));
}
template <typename T> __device__ __forceinline__ complex<T> ga_log2(const complex<T> &z) {
  ga_cd l = ga_clog_d(ga_cd(z));
  return complex<T>(ga_cd(l.re * 1.4426950408889634, l.im * 1.4426950408889634));
}
template <typename T> __device__ __forceinline__ complex<T> ga_log10(const complex<T> &z) {
  ga_cd l = ga_clog_d(ga_cd(z));
  return complex<T>(ga_cd(l.re * 0.4342944819032518, l.im * 0.4342944819032518));
}
// NumPy's nc_expm1 and nc_log1p
template <typename T> __device__ __forceinline__ complex<T> ga_expm1(const complex<T> &z) {
  double x = (double)z.re, y = (double)z.im, a = sin(0.5 * y);
  return complex<T>(ga_cd(expm1(x) * cos(y) - 2.0 * a * a, exp(x) * sin(y)));
}
template <typename T> __device__ __forceinline__ complex<T> ga_log1p(const complex<T> &z) {
  double x = (double)z.re + 1.0, y = (double)z.im;
  return complex<T>(ga_cd(log(hypot(x, y)), atan2(y, x)));
}
template <typename T> __device__ __forceinline__ T ga_abs(const complex<T> &z) {
  return (T)ga_cabs_d(ga_cd(z));
}
template <typename T> __device__ __forceinline__ complex<T> ga_power(const complex<T> &a, const complex<T> &b) {
  return complex<T>(ga_cpow_d(ga_cd(a), ga_cd(b)));
}
// NumPy 2: sign(z) = z / |z| (0 for 0)
template <typename T> __device__ __forceinline__ complex<T> ga_sign(const complex<T> &z) {
  if (z.re == (T)0 && z.im == (T)0) return complex<T>((T)0, (T)0);
  ga_cd w(z);
  double m = ga_cabs_d(w);
  if (ga_isinf(m)) {   // scale finite components away, keep the direction of the infinite ones
    w = ga_cd(ga_isinf(w.re) ? copysign(1.0, w.re) : 0.0, ga_isinf(w.im) ? copysign(1.0, w.im) : 0.0);
    m = ga_cabs_d(w);
  }
  return complex<T>(ga_cd(w.re / m, w.im / m));
}
template <typename T> __device__ __forceinline__ bool ga_isnan(const complex<T> &z) {
  return z.re != z.re || z.im != z.im;
}
template <typename T> __device__ __forceinline__ bool ga_isinf(const complex<T> &z) {
  return ga_isinf(z.re) || ga_isinf(z.im);
}
template <typename T> __device__ __forceinline__ bool ga_isfinite(const complex<T> &z) {
  return ga_isfinite(z.re) && ga_isfinite(z.im);
}

// ---------------------------------------------------------------------------
// real and complex parts, conjugate, angle (any type)
template <typename T> __device__ __forceinline__ T ga_real(T x) { return x; }
template <typename T> __device__ __forceinline__ T ga_real(const complex<T> &z) { return z.re; }
template <typename T> __device__ __forceinline__ T ga_imag(T) { return (T)0; }
template <typename T> __device__ __forceinline__ T ga_imag(const complex<T> &z) { return z.im; }
template <typename T> __device__ __forceinline__ T ga_conj(T x) { return x; }
template <typename T> __device__ __forceinline__ complex<T> ga_conj(const complex<T> &z) {
  return complex<T>(z.re, -z.im);
}
template <typename T> __device__ __forceinline__ T ga_angle(T x) { return ga_arctan2((T)0, x); }
template <typename T> __device__ __forceinline__ T ga_angle(const complex<T> &z) {
  return ga_arctan2(z.im, z.re);
}

// Truth value: nonzero (for complex: either part)
template <typename T> __device__ __forceinline__ bool ga_nonzero(T x) { return x != (T)0; }
template <typename T> __device__ __forceinline__ bool ga_nonzero(const complex<T> &z) {
  return z.re != (T)0 || z.im != (T)0;
}

// Comparisons; complex numbers order lexicographically, as NumPy's do
template <typename T> __device__ __forceinline__ bool ga_lt(T a, T b) { return a < b; }
template <typename T> __device__ __forceinline__ bool ga_le(T a, T b) { return a <= b; }
template <typename T> __device__ __forceinline__ bool ga_lt(const complex<T> &a, const complex<T> &b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <typename T> __device__ __forceinline__ bool ga_le(const complex<T> &a, const complex<T> &b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}

// ---------------------------------------------------------------------------
// NumPy's integer and float semantics
template <typename T> __device__ __forceinline__ T ga_negative(T a) {
  if constexpr (ga_traits<T>::is_int) return (T)((typename ga_wide_uint<T>::type)0 - (typename ga_wide_uint<T>::type)a);
  else return -a;
}
template <typename T> __device__ __forceinline__ T ga_abs(T a) {
  if constexpr (ga_traits<T>::is_float) return ga_fabs(a);
  else if constexpr (ga_traits<T>::is_signed) return a < 0 ? ga_negative(a) : a;
  else return a;
}
template <typename T> __device__ __forceinline__ T ga_sign(T a) {
  if constexpr (ga_traits<T>::is_float) return a > (T)0 ? (T)1 : (a < (T)0 ? (T)-1 : (a == (T)0 ? (T)0 : a));
  else if constexpr (ga_traits<T>::is_signed) return (T)((a > 0) - (a < 0));
  else return (T)(a > 0);
}
template <typename T> __device__ __forceinline__ T ga_reciprocal(T a) {
  if constexpr (ga_traits<T>::is_int) return a == 0 ? (T)0 : (T)(1 / a);
  else return (T)1 / a;
}

// NumPy's npy_divmod for floats: the floored quotient and the remainder
// with the divisor's sign, exact to the last bit of fmod
template <typename T> __device__ __forceinline__ T ga_fdivmod(T a, T b, T *modulus) {
  T mod = ga_fmod_f(a, b);
  if (b == (T)0) {
    *modulus = mod;
    return a / b;
  }
  T div = (a - mod) / b;
  if (mod != (T)0) {
    if ((b < (T)0) != (mod < (T)0)) {
      mod += b;
      div -= (T)1;
    }
  } else {
    mod = ga_copysign((T)0, b);
  }
  T fl;
  if (div != (T)0) {
    fl = ga_floor(div);
    if (div - fl > (T)0.5) fl += (T)1;
  } else {
    fl = ga_copysign((T)0, a / b);
  }
  *modulus = mod;
  return fl;
}

template <typename T> __device__ __forceinline__ T ga_floor_divide(T a, T b) {
  if constexpr (ga_traits<T>::is_float) {
    T m;
    return ga_fdivmod(a, b, &m);
  } else if constexpr (ga_traits<T>::is_signed) {
    if (b == 0) return 0;
    if (b == (T)-1) return ga_negative(a);           // MIN // -1 wraps to MIN, as NumPy
    T q = (T)(a / b);
    if (((a > 0) != (b > 0)) && (T)(q * b) != a) q = (T)(q - 1);
    return q;
  } else {
    return b == 0 ? (T)0 : (T)(a / b);
  }
}
template <typename T> __device__ __forceinline__ T ga_remainder(T a, T b) {
  if constexpr (ga_traits<T>::is_float) {
    T m;
    if (b == (T)0) return ga_fmod_f(a, b);
    ga_fdivmod(a, b, &m);
    return m;
  } else if constexpr (ga_traits<T>::is_signed) {
    if (b == 0 || b == (T)-1) return 0;
    T r = (T)(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);
    return r;
  } else {
    return b == 0 ? (T)0 : (T)(a % b);
  }
}
// C's fmod: the dividend's sign
template <typename T> __device__ __forceinline__ T ga_fmod(T a, T b) {
  if constexpr (ga_traits<T>::is_float) return ga_fmod_f(a, b);
  else if constexpr (ga_traits<T>::is_signed) return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b);
  else return b == 0 ? (T)0 : (T)(a % b);
}

// Integer powers wrap like repeated multiplication; a negative exponent
// gives the integer part of 1/a^|b| (NumPy raises on the host instead)
template <typename T> __device__ __forceinline__ T ga_power(T a, T b) {
  if constexpr (ga_traits<T>::is_float) {
    return ga_pow_f(a, b);
  } else {
    typedef typename ga_wide_uint<T>::type U;
    if constexpr (ga_traits<T>::is_signed) {
      if (b < 0) return a == 1 ? (T)1 : (a == (T)-1 ? ((b & 1) ? (T)-1 : (T)1) : (T)0);
    }
    U r = 1, p = (U)a;
    unsigned long long e = (unsigned long long)b;
    while (e) {
      if (e & 1) r *= p;
      e >>= 1;
      if (e) p *= p;
    }
    return (T)r;
  }
}

// maximum/minimum propagate NaN; fmax/fmin ignore it
template <typename T> __device__ __forceinline__ T ga_maximum(T a, T b) {
  return (a >= b || ga_isnan(a)) ? a : b;
}
template <typename T> __device__ __forceinline__ T ga_minimum(T a, T b) {
  return (a <= b || ga_isnan(a)) ? a : b;
}
template <typename T> __device__ __forceinline__ T ga_fmax(T a, T b) {
  return (a >= b || ga_isnan(b)) ? a : b;
}
template <typename T> __device__ __forceinline__ T ga_fmin(T a, T b) {
  return (a <= b || ga_isnan(b)) ? a : b;
}
// complex: NumPy's lexicographic order (ga_le), NaN rules as above
template <typename T> __device__ __forceinline__ complex<T> ga_maximum(const complex<T> &a, const complex<T> &b) {
  return (ga_le(b, a) || ga_isnan(a)) ? a : b;
}
template <typename T> __device__ __forceinline__ complex<T> ga_minimum(const complex<T> &a, const complex<T> &b) {
  return (ga_le(a, b) || ga_isnan(a)) ? a : b;
}
template <typename T> __device__ __forceinline__ complex<T> ga_fmax(const complex<T> &a, const complex<T> &b) {
  return (ga_le(b, a) || ga_isnan(b)) ? a : b;
}
template <typename T> __device__ __forceinline__ complex<T> ga_fmin(const complex<T> &a, const complex<T> &b) {
  return (ga_le(a, b) || ga_isnan(b)) ? a : b;
}

// Shifts by the width or more (or by a negative count) give 0, or -1 for a
// negative value shifted right, as NumPy's npy_lshift/npy_rshift
template <typename T> __device__ __forceinline__ T ga_left_shift(T a, T b) {
  typedef typename ga_wide_uint<T>::type U;
  if ((unsigned long long)(long long)b < 8 * sizeof(T)) return (T)((U)a << (int)b);
  return 0;
}
template <typename T> __device__ __forceinline__ T ga_right_shift(T a, T b) {
  if ((unsigned long long)(long long)b < 8 * sizeof(T)) return (T)(a >> (int)b);
  if constexpr (ga_traits<T>::is_signed) return a < 0 ? (T)-1 : (T)0;
  else return 0;
}

// ---------------------------------------------------------------------------
// the rest of NumPy's math ufuncs (lua/gpuarray/elementwise/ufuncs.lua)

// log(exp(a) + exp(b)) and log2(2^a + 2^b) without overflow, as NumPy's
// npy_logaddexp: equal arguments (infinities of one sign too) take the
// shortcut, a NaN difference propagates
template <typename T> __device__ __forceinline__ T ga_logaddexp(T a, T b) {
  if (a == b) return a + (T)0.6931471805599453;
  T d = a - b;
  if (d > (T)0) return a + ga_log1p(ga_exp(-d));
  if (d <= (T)0) return b + ga_log1p(ga_exp(d));
  return d;
}
template <typename T> __device__ __forceinline__ T ga_logaddexp2(T a, T b) {
  if (a == b) return a + (T)1;
  T d = a - b;
  if (d > (T)0) return a + (T)1.4426950408889634 * ga_log1p(ga_exp2(-d));
  if (d <= (T)0) return b + (T)1.4426950408889634 * ga_log1p(ga_exp2(d));
  return d;
}

// gcd and lcm of integers (non-negative results; on magnitudes taken as
// unsigned, so the most negative value has one)
// |a| as the unsigned type ga_wide_uint (narrow types: the magnitude fits
// the type's width, so the most negative value has one)
template <typename T> __device__ __forceinline__ typename ga_wide_uint<T>::type ga_umag(T a) {
  typedef typename ga_wide_uint<T>::type U;
  U x = (U)ga_abs(a);
  if constexpr (sizeof(T) < sizeof(U)) x &= (U)(((U)1 << (8 * sizeof(T))) - 1);
  return x;
}
template <typename T> __device__ __forceinline__ typename ga_wide_uint<T>::type ga_ugcd(T a, T b) {
  typedef typename ga_wide_uint<T>::type U;
  U x = ga_umag(a), y = ga_umag(b);
  while (x != 0) {
    U c = x;
    x = y % x;
    y = c;
  }
  return y;
}
template <typename T> __device__ __forceinline__ T ga_gcd(T a, T b) { return (T)ga_ugcd(a, b); }
// NumPy's: |a| / g * |b| in the wide unsigned type, then truncated to T
// (an int8 lcm of 100 and -7 is 700 mod 256 = -68, as NumPy's)
template <typename T> __device__ __forceinline__ T ga_lcm(T a, T b) {
  typename ga_wide_uint<T>::type g = ga_ugcd(a, b);
  return g == 0 ? (T)0 : (T)(ga_umag(a) / g * ga_umag(b));
}

// NumPy's heaviside: 0 below zero, x2 at zero, 1 above, NaN for NaN
template <typename T> __device__ __forceinline__ T ga_heaviside(T x, T h0) {
  if (x != x) return x;
  if (x == (T)0) return h0;
  return x < (T)0 ? (T)0 : (T)1;
}

// sin(pi x) / (pi x), 1 at 0 (NumPy's sinc)
template <typename T> __device__ __forceinline__ T ga_sinc(T x) {
  if (x == (T)0) return (T)1;
  T y = (T)3.141592653589793 * x;
  return ga_sin(y) / y;
}
// float16 (computed in float): NumPy rounds each step to float16, pi
// included (a Python float is cast to the array's dtype): y = f16(f16(pi)
// x), then f16(f16(sin y) / y); near the integers the roundings of y move
// the result by far more than one float16 step of a once-rounded sinc
__device__ __forceinline__ float ga_sinc_h(float x) {
  if (x == 0.0f) return 1.0f;
  float y = (float)float16((float)float16(3.141592653589793f) * x);
  return (float)float16((float)float16(sinf(y)) / y);
}
template <typename T> __device__ __forceinline__ complex<T> ga_sinc(const complex<T> &x) {
  if (x.re == (T)0 && x.im == (T)0) return complex<T>((T)1, (T)0);
  complex<T> y = x * (T)3.141592653589793;
  return ga_sin(y) / y;
}

// modified Bessel function of the first kind, order 0 (in double)
template <typename T> __device__ __forceinline__ T ga_i0(T x) { return (T)cyl_bessel_i0((double)x); }

__device__ __forceinline__ float ga_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double ga_rsqrt(double x) { return rsqrt(x); }
template <typename T> __device__ __forceinline__ complex<T> ga_rsqrt(const complex<T> &z) {
  return (T)1 / ga_sqrt(z);
}

// x * 2^n with n clamped to int (past +-10000 every finite float is 0 or
// inf already), as NumPy's ldexp with an int64 exponent
__device__ __forceinline__ float ga_ldexp(float x, long long n) {
  return ldexpf(x, (int)(n > 10000 ? 10000 : n < -10000 ? -10000 : n));
}
__device__ __forceinline__ double ga_ldexp(double x, long long n) {
  return ldexp(x, (int)(n > 10000 ? 10000 : n < -10000 ? -10000 : n));
}

// mantissa in [0.5, 1) and exponent; infinities and NaN keep their value
// with exponent 0, as C's frexp
__device__ __forceinline__ float ga_frexp(float x, int *e) {
  if (!ga_isfinite(x) || x == 0.0f) { *e = 0; return x; }
  return frexpf(x, e);
}
__device__ __forceinline__ double ga_frexp(double x, int *e) {
  if (!ga_isfinite(x) || x == 0.0) { *e = 0; return x; }
  return frexp(x, e);
}
// fractional part (returned) and integral part, both with x's sign
__device__ __forceinline__ float ga_modf(float x, float *ip) { return modff(x, ip); }
__device__ __forceinline__ double ga_modf(double x, double *ip) { return modf(x, ip); }

// The next representable value after a toward b; float16 and bfloat16 step
// their own bits (their values are exact in float, so the conversions are
// exact): both keep the sign in bit 15 and order magnitudes as integers
__device__ __forceinline__ float ga_nextafter(float a, float b) { return nextafterf(a, b); }
__device__ __forceinline__ double ga_nextafter(double a, double b) { return nextafter(a, b); }
template <typename H>
__device__ __forceinline__ float ga_nextafter16(float a, float b) {
  if (a != a || b != b) return a + b;
  if (a == b) return b;
  unsigned short h = H(a).bits;
  if (a == 0.0f) h = (unsigned short)((b < 0.0f ? 0x8000u : 0u) | 1u);
  else if ((a < b) == (a > 0.0f)) h = (unsigned short)(h + 1);   // away from zero
  else h = (unsigned short)(h - 1);
  return (float)H::from_bits(h);
}
__device__ __forceinline__ float ga_nextafter_h(float a, float b) { return ga_nextafter16<float16>(a, b); }
__device__ __forceinline__ float ga_nextafter_bf(float a, float b) { return ga_nextafter16<bfloat16>(a, b); }
