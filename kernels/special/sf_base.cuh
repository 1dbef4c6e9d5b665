// sf_base.cuh: what every scipy.special device function shares (prefix
// sf_): the qualifiers, constants, polynomial and Chebyshev evaluation.
// The sf_*.cuh files compile under NVRTC (the ufuncs' preambles) and, for
// the accuracy checks that run without a GPU (tools/special/), under a host
// C++ compiler: the few CUDA-only math functions they call get host
// stand-ins in tools/special/host_shim.h. Each file has an include guard,
// so preambles concatenated by ga.fuse repeat nothing.
#ifndef SF_BASE_CUH
#define SF_BASE_CUH

// SF_DEV: small functions, inlined; SF_BIG: the heavy ones (series,
// continued fractions, CUDA's large built-ins), called: each kernel variant
// has several copies of its operation (unrolled loops), and NVRTC's time
// and the code's size grow with every inlined copy
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define SF_DEV __device__ inline
#define SF_BIG __device__ __noinline__
#else
#define SF_DEV static inline
#define SF_BIG static
#endif

#define SF_PI 3.141592653589793238462643383279502884
#define SF_2PI 6.283185307179586476925286766559005768
#define SF_PI_2 1.570796326794896619231321691639751442
#define SF_SQRT2 1.414213562373095048801688724209698079
#define SF_SQRT1_2 0.7071067811865475244008443621048490393
#define SF_SQRTPI 1.772453850905516027298167483341145183
#define SF_SQRT2PI 2.506628274631000502415765284811045253
#define SF_LNSQRT2PI 0.9189385332046727417803297364056176398
#define SF_LN2 0.6931471805599453094172321214581765681
#define SF_LNPI 1.144729885849400174143427351353058712
#define SF_EULER 0.5772156649015328606065120900824024310
#define SF_MACHEP 1.11022302462515654042e-16
#define SF_MAXLOG 709.782712893383996843
#define SF_MINLOG (-745.1332191019411)

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
SF_DEV double sf_nan() { return __longlong_as_double(0x7ff8000000000000LL); }
SF_DEV double sf_inf() { return __longlong_as_double(0x7ff0000000000000LL); }
#else
SF_DEV double sf_nan() { return NAN; }
SF_DEV double sf_inf() { return INFINITY; }
#endif

// c[0] + c[1] x + ... + c[n-1] x^(n-1)
SF_DEV double sf_poly(const double *c, int n, double x) {
  double r = c[n - 1];
  for (int i = n - 2; i >= 0; i--) r = fma(r, x, c[i]);
  return r;
}

// Chebyshev series sum c[k] T_k(t) for t in [-1, 1] (Clenshaw), c[0]
// counted once (not halved)
SF_DEV double sf_cheb(const double *c, int n, double t) {
  double b0 = 0.0, b1 = 0.0, b2 = 0.0, t2 = 2.0 * t;
  for (int k = n - 1; k >= 1; k--) {
    b2 = b1;
    b1 = b0;
    b0 = fma(t2, b1, c[k] - b2);
  }
  return fma(t, b0, c[0] - b1);
}

SF_DEV bool sf_isint(double x) { return x == floor(x) && isfinite(x); }

// sin(pi x) and cos(pi x), exact at integers and half-integers
SF_DEV double sf_sinpi(double x) {
  if (!isfinite(x)) return sf_nan();
  double s = 1.0;
  if (x < 0) { x = -x; s = -1.0; }
  double r = fmod(x, 2.0);        // exact
  if (r > 1.0) { r -= 1.0; s = -s; }
  if (r > 0.5) r = 1.0 - r;       // exact: r in (0.5, 1]
  if (r == 0.0) return s * 0.0;
  return s * sin(SF_PI * r);
}

SF_DEV double sf_cospi(double x) {
  if (!isfinite(x)) return sf_nan();
  double r = fmod(fabs(x), 2.0);
  double s = 1.0;
  if (r > 1.0) r = 2.0 - r;       // cos(pi r) = cos(pi (2 - r))
  if (r > 0.5) { r = 1.0 - r; s = -1.0; }
  if (r == 0.5) return 0.0;
  return s * cos(SF_PI * r);
}

// log(1 + x) - x, accurate for small x
SF_DEV double sf_log1pmx(double x) {
  if (fabs(x) < 0.5) {
    // -x^2/2 + x^3/3 - ...: as 2 atanh(u) - x with u = x / (2 + x)
    double u = x / (2.0 + x), u2 = u * u;
    double s = 0.0, p = u2 * u;
    for (int k = 3; k < 200; k += 2) {
      double t = p / k;
      s += t;
      if (fabs(t) < 1e-17 * fabs(s)) break;
      p *= u2;
    }
    // 2 atanh(u) = 2u + 2s; 2u - x = -x^2 / (2 + x) = -u x
    return 2.0 * s - u * x;
  }
  return log1p(x) - x;
}

#endif
