// sf_erf.cuh: the error function family and the normal distribution:
// erf erfc erfcx erfinv erfcinv (CUDA's, float versions for float32
// loops), ndtr, log_ndtr, ndtri.
#ifndef SF_ERF_CUH
#define SF_ERF_CUH

SF_DEV double sf_erf(double x) { return erf(x); }
SF_DEV float sf_erf(float x) { return erff(x); }
// 0 past exp(-x^2)'s range, as SciPy (no subnormal results)
SF_DEV double sf_erfc(double x) { return x * x > SF_MAXLOG && x > 0 ? 0.0 : erfc(x); }
SF_DEV float sf_erfc(float x) { return erfcf(x); }
SF_BIG double sf_erfcx(double x) {
  if (x < -26.7) return sf_inf();   // exp(x^2) past the range (CUDA's returns inf there too)
  return erfcx(x);
}
SF_BIG float sf_erfcx(float x) { return erfcxf(x); }
SF_BIG double sf_erfinv(double y) {
  if (y < -1.0 || y > 1.0) return sf_nan();
  return erfinv(y);
}
SF_BIG float sf_erfinv(float y) {
  if (y < -1.0f || y > 1.0f) return (float)sf_nan();
  return erfinvf(y);
}
SF_BIG double sf_erfcinv(double y) {
  if (y < 0.0 || y > 2.0) return sf_nan();
  return erfcinv(y);
}
SF_BIG float sf_erfcinv(float y) {
  if (y < 0.0f || y > 2.0f) return (float)sf_nan();
  return erfcinvf(y);
}

// the standard normal distribution function: 0.5 erfc(-x / sqrt 2)
// exp(-x^2 / 2) with x^2 in two parts (x^2 rounded once would cost up to
// x^2 ulps of the result)
SF_DEV double sf_exp_mhalfx2(double x) {
  double h = x * x, l = fma(x, x, -h);
  return exp(-0.5 * h) * (1.0 - 0.5 * l);
}

// the standard normal distribution function; below -1 as
// erfcx(-x / sqrt 2) exp(-x^2 / 2) / 2, so that exp's argument is exact
SF_BIG double sf_ndtr(double x) {
  if (isnan(x)) return x;
  if (x >= -1.0) return 0.5 * erfc(-x * SF_SQRT1_2);
  if (x < -38.5) return 0.0;   // SciPy's: no subnormal results
  return 0.5 * erfcx(-x * SF_SQRT1_2) * sf_exp_mhalfx2(x);
}

// log(ndtr(x)): for x < -1 through erfcx (no underflow: log(erfcx(t) / 2)
// - t^2 with t = -x / sqrt 2); for x > 3, log1p(-ndtr(-x))
SF_BIG double sf_log_ndtr(double x) {
  if (isnan(x)) return x;
  if (x > 0.0) return log1p(-sf_ndtr(-x));
  if (x > -1.0) return log(0.5 * erfc(-x * SF_SQRT1_2));
  if (x == -sf_inf()) return -sf_inf();
  double t = -x * SF_SQRT1_2;
  return log(0.5 * erfcx(t)) - t * t;
}

// the inverse of ndtr: -sqrt(2) erfcinv(2p)
SF_BIG double sf_ndtri(double p) {
  if (isnan(p)) return p;
  if (p < 0.0 || p > 1.0) return sf_nan();
  if (p == 0.0) return -sf_inf();
  if (p == 1.0) return sf_inf();
  if (p > 0.5) return SF_SQRT2 * erfcinv(2.0 * (1.0 - p)) ;
  return -SF_SQRT2 * erfcinv(2.0 * p);
}

#endif
