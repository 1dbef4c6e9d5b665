// sf_elem.cuh: scipy.special's elementary functions: the logistic family
// (expit logit log_expit), xlogy xlog1py, the information measures (entr
// rel_entr kl_div huber pseudo_huber), Box-Cox, degrees (radian cosdg
// sindg tandg cotdg), cosm1 exprel round exp10 exp2 cbrt log1p expm1 sinc.
#ifndef SF_ELEM_CUH
#define SF_ELEM_CUH

SF_DEV double sf_expit(double x) { return 1.0 / (1.0 + exp(-x)); }
SF_DEV float sf_expit(float x) { return 1.0f / (1.0f + expf(-x)); }
SF_DEV double sf_logit(double p) {
  if (p < 0.0 || p > 1.0) return sf_nan();
  // log(p / (1 - p)); near 1/2 as log1p of the small ratio's excess
  if (p > 0.25 && p < 0.75) return log1p((2.0 * p - 1.0) / (1.0 - p));
  return log(p / (1.0 - p));
}
// float32: SciPy 1.10's float loop, log(p / (1 - p)) with the quotient in
// float (its rounding near p = 1/2 costs SciPy's float32 values up to
// hundreds of ulps of the true logit; this matches them within 2)
SF_DEV float sf_logit(float p) { return (float)log((double)(p / (1.0f - p))); }
SF_DEV double sf_log_expit(double x) {
  if (x >= 0.0) return -log1p(exp(-x));
  return x - log1p(exp(x));
}

SF_DEV double sf_xlogy(double x, double y) {
  if (x == 0.0 && !isnan(y)) return 0.0;
  return x * log(y);
}
SF_DEV double sf_xlog1py(double x, double y) {
  if (x == 0.0 && !isnan(y)) return 0.0;
  return x * log1p(y);
}

SF_DEV double sf_entr(double x) {
  if (isnan(x)) return x;
  if (x > 0.0) return -x * log(x);
  if (x == 0.0) return 0.0;
  return -sf_inf();
}
SF_DEV double sf_rel_entr(double x, double y) {
  if (isnan(x) || isnan(y)) return sf_nan();
  if (x > 0.0 && y > 0.0) return x * log(x / y);
  if (x == 0.0 && y >= 0.0) return 0.0;
  return sf_inf();
}
SF_DEV double sf_kl_div(double x, double y) {
  if (isnan(x) || isnan(y)) return sf_nan();
  if (x > 0.0 && y > 0.0) return x * log(x / y) - x + y;
  if (x == 0.0 && y >= 0.0) return y;
  return sf_inf();
}
SF_DEV double sf_huber(double delta, double r) {
  if (delta < 0.0) return sf_inf();
  if (fabs(r) <= delta) return 0.5 * r * r;
  return delta * (fabs(r) - 0.5 * delta);
}
SF_BIG double sf_pseudo_huber(double delta, double r) {
  if (delta < 0.0) return sf_inf();
  if (delta == 0.0 || r == 0.0) return 0.0;
  // delta^2 (sqrt(1 + (r/delta)^2) - 1) without cancellation
  double t = r / delta;
  return delta * delta * expm1(0.5 * log1p(t * t));
}

SF_BIG double sf_boxcox(double x, double lmbda) {
  if (fabs(lmbda) < 1e-19) return log(x);
  return expm1(lmbda * log(x)) / lmbda;
}
SF_BIG double sf_boxcox1p(double x, double lmbda) {
  double lx = log1p(x);
  if (fabs(lmbda) < 1e-19 || fabs(lx * lmbda) < 1e-154) return lx;
  return expm1(lmbda * lx) / lmbda;
}
SF_BIG double sf_inv_boxcox(double y, double lmbda) {
  if (lmbda == 0.0) return exp(y);
  return exp(log1p(lmbda * y) / lmbda);
}
SF_BIG double sf_inv_boxcox1p(double y, double lmbda) {
  if (lmbda == 0.0) return expm1(y);
  if (fabs(lmbda * y) < 1e-154) return y;
  return expm1(log1p(lmbda * y) / lmbda);
}

// degrees: reduced exactly (fmod by 360 and the octant in degrees) before
// the radians are formed, so that multiples of 30, 45 and 90 come out right
SF_DEV double sf_radian(double d, double m, double s) {
  return (d + m / 60.0 + s / 3600.0) * (SF_PI / 180.0);
}
// SciPy's: 0 past 1e14 degrees (and at infinity), where no digit of the
// reduced angle is left
SF_BIG double sf_sindg(double x) {
  if (isnan(x)) return x;
  if (fabs(x) > 1e14) return 0.0;
  double sign = 1.0;
  if (x < 0) { x = -x; sign = -1.0; }
  x = fmod(x, 360.0);
  if (x >= 180.0) { x -= 180.0; sign = -sign; }
  if (x > 90.0) x = 180.0 - x;
  if (x == 30.0) return sign * 0.5;
  if (x > 45.0) return sign * cos((90.0 - x) * (SF_PI / 180.0));
  return sign * sin(x * (SF_PI / 180.0));
}
SF_BIG double sf_cosdg(double x) {
  if (isnan(x)) return x;
  if (fabs(x) > 1e14) return 0.0;
  x = fmod(fabs(x), 360.0);
  double sign = 1.0;
  if (x >= 180.0) x = 360.0 - x;
  if (x > 90.0) { x = 180.0 - x; sign = -1.0; }
  if (x == 90.0) return 0.0;
  if (x == 60.0) return sign * 0.5;
  if (x > 45.0) return sign * sin((90.0 - x) * (SF_PI / 180.0));
  return sign * cos(x * (SF_PI / 180.0));
}
SF_BIG double sf_tandg_impl(double x, bool cot) {
  if (isnan(x)) return x;
  if (fabs(x) > 1e14) return 0.0;
  double sign = 1.0;
  if (x < 0) { x = -x; sign = -1.0; }
  x = fmod(x, 180.0);
  if (x > 90.0) { x = 180.0 - x; sign = -sign; }
  // x in [0, 90]; tan x = 1 / tan(90 - x), and 90 - x is exact for x >= 45
  if (x == (cot ? 90.0 : 0.0)) return 0.0;
  if (x == (cot ? 0.0 : 90.0)) return sf_inf();   // SciPy's: +inf at every pole
  if (x == 45.0) return sign;
  bool small = x < 45.0;
  double t = small ? tan(x * (SF_PI / 180.0)) : tan((90.0 - x) * (SF_PI / 180.0));
  return sign * ((small != cot) ? t : 1.0 / t);
}
SF_DEV double sf_tandg(double x) { return sf_tandg_impl(x, false); }
SF_DEV double sf_cotdg(double x) { return sf_tandg_impl(x, true); }

SF_DEV double sf_cosm1(double x) {
  if (fabs(x) < 0.7853981633974483) {
    double s = sin(0.5 * x);
    return -2.0 * s * s;
  }
  return cos(x) - 1.0;
}
SF_DEV double sf_exprel(double x) {
  if (isnan(x)) return x;
  if (fabs(x) < 1e-16) return 1.0;
  if (x > 717.0) return sf_inf();
  return expm1(x) / x;
}
SF_DEV double sf_round(double x) { return rint(x); }
SF_DEV double sf_exp10(double x) { return exp10(x); }
SF_DEV double sf_exp2(double x) { return exp2(x); }
SF_DEV double sf_cbrt(double x) { return cbrt(x); }
SF_DEV double sf_log1p(double x) { return log1p(x); }
SF_DEV double sf_expm1(double x) { return expm1(x); }
SF_DEV double sf_sinc(double x) {
  if (x == 0.0) return 1.0;
  if (!isfinite(x)) return sf_nan();
  return sf_sinpi(x) / (SF_PI * x);
}
// float32: as NumPy's sinc computes a float32 array (SciPy's sinc is
// NumPy's): y = pi x rounded to float32, then sin(y) / y, so sinc(1) is
// sin(3.1415927f) / 3.1415927f = -2.78e-8, not 0. The quotient in double
// and rounded once: within 2 ulps of NumPy's float32 sin and division.
SF_DEV float sf_sinc(float x) {
  if (x == 0.0f) return 1.0f;
  float y = (float)SF_PI * x;
  return (float)(sin((double)y) / (double)y);
}

#endif
