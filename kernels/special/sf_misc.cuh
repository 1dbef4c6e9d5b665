// sf_misc.cuh: Lambert's W on every branch (complex; Halley's iteration
// from the branch-point series, the origin or the asymptotic logs) and
// Wright's generalized Bessel function (its positive series, summed in
// log space so that no term overflows).
#ifndef SF_MISC_CUH
#define SF_MISC_CUH

struct sf_c { double re, im; };
SF_DEV sf_c sf_cm(double r, double i) { sf_c z; z.re = r; z.im = i; return z; }
SF_DEV sf_c sf_cadd(sf_c a, sf_c b) { return sf_cm(a.re + b.re, a.im + b.im); }
SF_DEV sf_c sf_csub(sf_c a, sf_c b) { return sf_cm(a.re - b.re, a.im - b.im); }
SF_DEV sf_c sf_cmul(sf_c a, sf_c b) { return sf_cm(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
SF_DEV sf_c sf_cdiv(sf_c a, sf_c b) {
  // Smith's method
  if (fabs(b.re) >= fabs(b.im)) {
    double r = b.im / b.re, d = b.re + b.im * r;
    return sf_cm((a.re + a.im * r) / d, (a.im - a.re * r) / d);
  }
  double r = b.re / b.im, d = b.re * r + b.im;
  return sf_cm((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
SF_DEV double sf_cabs(sf_c a) { return hypot(a.re, a.im); }
SF_DEV sf_c sf_cexp(sf_c a) { double e = exp(a.re); return sf_cm(e * cos(a.im), e * sin(a.im)); }
SF_DEV sf_c sf_clog(sf_c a) { return sf_cm(log(sf_cabs(a)), atan2(a.im, a.re)); }
SF_DEV sf_c sf_csqrt(sf_c a) {
  double r = sf_cabs(a);
  if (r == 0.0) return sf_cm(0.0, 0.0);
  double t = sqrt(0.5 * (r + fabs(a.re)));
  if (a.re >= 0.0) return sf_cm(t, 0.5 * a.im / t);
  return sf_cm(0.5 * fabs(a.im) / t, copysign(t, a.im));
}

SF_BIG void sf_lambertw(double zr, double zi, double kd, double tol, double *wr, double *wi) {
  if (isnan(zr) || isnan(zi) || isnan(kd)) { *wr = *wi = sf_nan(); return; }
  long long k = (long long)kd;
  if (zr == 0.0 && zi == 0.0) {
    if (k == 0) { *wr = zr; *wi = zi; } else { *wr = -sf_inf(); *wi = 0.0; }
    return;
  }
  if (isinf(zr) && zi == 0.0) {
    *wr = sf_inf();
    *wi = SF_2PI * k + (zr < 0 ? SF_PI : 0.0);
    return;
  }
  sf_c z = sf_cm(zr, zi), w;
  const double e = 2.718281828459045235360287;
  sf_c p = sf_csqrt(sf_cm(2.0 * (e * zr + 1.0), 2.0 * e * zi));   // near the branch point -1/e
  double near = sf_cabs(sf_cm(zr + 1.0 / e, zi));
  if (k == 0 && near < 0.3) {
    w = sf_cadd(sf_cm(-1.0, 0.0), sf_cadd(p, sf_cadd(sf_cmul(p, sf_cmul(p, sf_cm(-1.0 / 3.0, 0.0))),
                                                     sf_cmul(sf_cmul(p, sf_cmul(p, p)), sf_cm(11.0 / 72.0, 0.0)))));
  } else if (k == 0 && sf_cabs(z) < 3.0) {
    w = sf_clog(sf_cadd(sf_cm(1.0, 0.0), z));     // w ~ log(1 + z): z near 0, moderate z
  } else if (k == -1 && near < 0.3 && zi <= 0.0) {
    // the lower branch near -1/e (from below the cut): -1 - p - p^2/3
    w = sf_csub(sf_csub(sf_cm(-1.0, 0.0), p), sf_cmul(p, sf_cmul(p, sf_cm(1.0 / 3.0, 0.0))));
  } else if (k == 1 && near < 0.3 && zi > 0.0) {
    w = sf_csub(sf_csub(sf_cm(-1.0, 0.0), p), sf_cmul(p, sf_cmul(p, sf_cm(1.0 / 3.0, 0.0))));
  } else {
    // log z + 2 pi i k - log(log z + 2 pi i k)
    sf_c l = sf_cadd(sf_clog(z), sf_cm(0.0, SF_2PI * k));
    w = sf_csub(l, sf_clog(l));
  }
  for (int it = 0; it < 100; it++) {
    sf_c ew = sf_cexp(w);
    sf_c wew = sf_cmul(w, ew);
    sf_c f = sf_csub(wew, z);
    sf_c wp1 = sf_cadd(w, sf_cm(1.0, 0.0));
    // Halley: delta = f / (e^w (w + 1) - (w + 2) f / (2 w + 2))
    sf_c den = sf_csub(sf_cmul(ew, wp1), sf_cdiv(sf_cmul(sf_cadd(w, sf_cm(2.0, 0.0)), f), sf_cmul(sf_cm(2.0, 0.0), wp1)));
    sf_c d = sf_cdiv(f, den);
    w = sf_csub(w, d);
    if (!(sf_cabs(d) > tol * sf_cabs(w))) break;
  }
  *wr = w.re;
  *wi = w.im;
}

// Phi(a, b; x) = sum_k x^k / (k! gamma(a k + b)), a >= 0, b >= 0, x >= 0
SF_BIG double sf_wright_bessel(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
  if (a < 0.0 || b < 0.0 || x < 0.0) return sf_nan();
  if (isinf(a) || isinf(b)) return sf_nan();
  if (isinf(x)) return sf_inf();
  if (x == 0.0) return sf_rgamma(b);
  double lx = log(x);
  // terms in log space relative to the largest seen: sum = exp(mx) * s
  double mx = -sf_inf(), s = 0.0;
  double prev = -sf_inf();
  for (int k = 0; k < 200000; k++) {
    double arg = a * k + b;
    double t;
    if (arg <= 0.0 && arg == floor(arg)) {
      t = -sf_inf();                       // 1 / gamma at a pole
    } else {
      t = k * lx - lgamma(k + 1.0) - lgamma(arg);
      if (arg < 0.0 && sf_gammasgn(arg) < 0.0) {
        // a negative 1/gamma (b < 0 excluded above, so only never): kept for safety
      }
    }
    if (t > mx) {
      s = s * exp(mx - t) + 1.0;
      mx = t;
    } else if (t > -sf_inf()) {
      s += exp(t - mx);
    }
    if (k > 0 && t < prev && t - mx < -40.0) break;   // past the peak, negligible
    if (t > -sf_inf()) prev = t;
  }
  if (mx + log(s) > SF_MAXLOG) return sf_inf();
  return exp(mx) * s;
}

#endif
