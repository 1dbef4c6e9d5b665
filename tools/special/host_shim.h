/* host_shim.h: what kernels/special/ headers need on a host compiler (for the
** accuracy checks without a GPU): libm, and stand-ins for the few CUDA math
** functions libm lacks. The stand-ins are accurate in long double; they
** check our algorithms, not CUDA's own functions. */
#ifndef SF_HOST_SHIM_H
#define SF_HOST_SHIM_H
#define _GNU_SOURCE 1
#include <math.h>
#include <float.h>

static inline double erfcx(double x) {
  if (x < 25.0) return (double)(expl((long double)x * x) * erfcl((long double)x));
  /* asymptotic: 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6) ...) */
  long double y = 1.0L / ((long double)x * x), s = 1.0L, t = 1.0L;
  for (int k = 1; k < 12; k++) { t *= -(2 * k - 1) * y / 2; s += t; }
  return (double)(s / ((long double)x * 1.7724538509055160272981674833411L));
}
static inline float erfcxf(float x) { return (float)erfcx(x); }

static inline double sf_host_erfinv(long double y) {
  if (y <= -1) return y == -1 ? -INFINITY : NAN;
  if (y >= 1) return y == 1 ? INFINITY : NAN;
  if (y == 0 || y != y) return (double)y;
  if (fabsl(y) < 1e-12L) return (double)(y * 0.88622692545275801365L);
  if (y < 0) return -sf_host_erfinv(-y);
  /* bisection on [0, 7] in long double (erf(7) rounds to 1 in double) */
  long double lo = 0, hi = 7;
  for (int i = 0; i < 90; i++) {
    long double mid = (lo + hi) / 2;
    if (erfl(mid) < y) lo = mid; else hi = mid;
  }
  return (double)((lo + hi) / 2);
}
static inline double erfcinv(double y);
static inline double erfinv(double y) {
  if (fabs(y) > 0.5 && fabs(y) < 1) return y > 0 ? erfcinv(1.0 - y) : -erfcinv(1.0 + y);
  return sf_host_erfinv(y);
}
static inline double erfcinv(double y) {
  if (y == 1) return 0.0;
  if (y > 0.0625 && y < 1.9375) return sf_host_erfinv(1.0L - y);
  /* erfc(x) = y for small y: Newton on log erfc */
  if (y <= 0) return y == 0 ? INFINITY : NAN;
  if (y >= 2) return y == 2 ? -INFINITY : NAN;
  if (y > 1) return -erfcinv(2 - y);
  long double x = sqrtl(-logl(y));
  for (int i = 0; i < 200; i++) {
    long double f = logl(erfcl(x)) - logl((long double)y);
    long double d = -1.1283791670955125739L * expl(-x * x) / erfcl(x);
    long double dx = f / d;
    x -= dx;
    if (fabsl(dx) <= 1e-19L * fabsl(x)) break;
  }
  return (double)x;
}
static inline float erfinvf(float y) { return (float)erfinv(y); }
static inline float erfcinvf(float y) { return (float)erfcinv(y); }
static inline double normcdf(double x) { return (double)(0.5L * erfcl(-(long double)x / 1.4142135623730950488L)); }
static inline double normcdfinv(double p) { return -1.4142135623730950488 * erfcinv(2 * p); }
#endif
