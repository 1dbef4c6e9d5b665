// sf_gamma.cuh: the gamma family: gamma, rgamma, gammaln (lgamma), the
// sign of gamma, digamma, beta and its log, poch, binom, and the Stirling
// correction the incomplete gamma and beta functions share.
#ifndef SF_GAMMA_CUH
#define SF_GAMMA_CUH

// lgamma(x) - [(x - 1/2) log x - x + log sqrt(2 pi)] for x >= 10: the
// Stirling series, sum B_2k / (2k (2k - 1) x^(2k - 1))
SF_DEV double sf_stirling_corr(double x) {
  const double c[] = {8.333333333333333333e-2, -2.777777777777777778e-3, 7.936507936507936508e-4,
                      -5.952380952380952381e-4, 8.417508417508417508e-4, -1.917526917526917527e-3,
                      6.410256410256410256e-3, -2.955065359477124183e-2};
  double r = 1.0 / x;
  return r * sf_poly(c, 8, r * r);
}

SF_BIG double sf_gamma(double x) {
  if (x <= 0.0 && sf_isint(x)) return sf_inf();   // SciPy's, at zero and the poles
  if (x == -sf_inf()) return x;                    // and at -inf
  return tgamma(x);
}

// 1 / gamma(x): 0 at the poles, no overflow where gamma overflows
SF_BIG double sf_rgamma(double x) {
  if (isnan(x)) return x;
  if (x == sf_inf()) return 0.0;
  if (x <= 0.0 && sf_isint(x)) return 0.0;
  if (x > 170.0) return exp(-lgamma(x));
  if (x < -170.0) {
    // reflection: 1 / gamma(x) = sin(pi x) gamma(1 - x) / pi, with 1 - x = w + 1, w = -x
    double w = -x, s = sf_sinpi(x);
    double l = log(fabs(s)) + log(w) + lgamma(w) - SF_LNPI;
    return copysign(exp(l), s);
  }
  return 1.0 / tgamma(x);
}

SF_DEV double sf_gammaln(double x) {
  if (x <= 0.0 && sf_isint(x)) return sf_inf();
  if (x == -sf_inf()) return sf_inf();
  return lgamma(x);
}
SF_DEV float sf_gammaln(float x) {
  if (x <= 0.0f && x == floorf(x)) return (float)sf_inf();
  return lgammaf(x);
}

// the sign of gamma(x); 0 at zero and the poles... as SciPy: see the spec
SF_DEV double sf_gammasgn(double x) {
  if (isnan(x)) return x;
  if (x > 0.0) return 1.0;
  if (x == 0.0) return 0.0;        // SciPy 1.10's: 0 at zero and the poles, 1 at -inf
  if (x == -sf_inf()) return 1.0;
  if (sf_isint(x)) return 0.0;
  double k = floor(x);          // gamma alternates sign between poles
  return fmod(k, 2.0) == 0.0 ? 1.0 : -1.0;
}

// real loggamma: log(gamma(x)) for x > 0 (gammaln), nan below
SF_BIG double sf_loggamma(double x) {
  if (isnan(x)) return x;
  if (x < 0.0) return sf_nan();
  if (x == 0.0) return sf_inf();
  return lgamma(x);
}

// digamma: reflection below 0, a Taylor series about the positive root
// (where the result is small), recurrence up to 10 and the asymptotic series
SF_BIG double sf_digamma(double x) {
  if (isnan(x)) return x;
  if (x == sf_inf()) return x;
  if (x == 0.0) return copysign(sf_inf(), -x);
  if (x < 0.0) {
    if (sf_isint(x) || x == -sf_inf()) return sf_nan();
    // psi(x) = psi(1 - x) - pi / tan(pi x)
    double r = x - floor(x);    // tan(pi x) has period 1
    double t = sf_sinpi(r) / sf_cospi(r);
    return sf_digamma(1.0 - x) - SF_PI / t;
  }
  const double x0 = 1.4616321449683622, x0lo = 9.549995429965697e-17;   // the root, in two parts
  double d = (x - x0) - x0lo;
  if (fabs(d) < 0.25) {
    // psi(x0 + d) = sum_k>=1 psi^(k)(x0) d^k / k! (tools/special/gen_coeffs.py)
    const double c[] = {
9.67672245447621204306e-01, -4.42763168983592081407e-01, 2.58499760955651025629e-01,
        -1.63942705442406522209e-01, 1.07824050691262371404e-01, -7.21995612564547140089e-02,
        4.88042881641431100515e-02, -3.31611264748473619224e-02, 2.25976482322181038143e-02,
        -1.54247659049489595218e-02, 1.05387916166121749922e-02, -7.20453438635686865821e-03,
        4.92678139572985326899e-03, -3.36980165543932820571e-03, 2.30512632673492796551e-03,
        -1.57693677143019720180e-03, 1.07882520191629666974e-03, -7.38070938996005150058e-04,
        5.04953265834601986578e-04, -3.45468025106307691577e-04, 2.36356015640270530421e-04,
        -1.61706220919748030465e-04, 1.10633727687474103210e-04, -7.56917958219506607212e-05
    };
    return d * sf_poly(c, (int)(sizeof c / sizeof c[0]), d);
  }
  double acc = 0.0;
  while (x < 10.0) {
    acc -= 1.0 / x;
    x += 1.0;
  }
  // log x - 1/(2x) - sum B_2k / (2k x^2k)
  const double b[] = {8.333333333333333333e-2, -8.333333333333333333e-3, 3.968253968253968254e-3,
                      -4.166666666666666667e-3, 7.575757575757575758e-3, -2.109279609279609280e-2,
                      8.333333333333333333e-2, -4.432598039215686275e-1};
  double r2 = 1.0 / (x * x);
  return acc + log(x) - 0.5 / x - r2 * sf_poly(b, 8, r2);
}

// log|B(a, b)| and its sign
SF_BIG double sf_lbeta_sgn(double a, double b, double *sgn) {
  *sgn = 1.0;
  if (isnan(a) || isnan(b)) return a + b;
  if ((a <= 0.0 && sf_isint(a)) || (b <= 0.0 && sf_isint(b))) {
    // a pole unless the other cancels it (a + b also a non-positive integer)
    return sf_inf();
  }
  if (a < b) { double t = a; a = b; b = t; }   // a >= b
  if (b > 0.0 && a >= 10.0 && b >= 10.0) {
    // Stirling for all three: (b - 1/2) log b - b log(a + b) - (a - 1/2) log1p(b / a) + log sqrt(2 pi)
    double corr = sf_stirling_corr(a) + sf_stirling_corr(b) - sf_stirling_corr(a + b);
    return -0.5 * log(b) + SF_LNSQRT2PI + corr + b * log(b / (a + b)) - (a - 0.5) * log1p(b / a);
  }
  if (b > 0.0 && a >= 10.0) {
    // lgamma(b) + [lgamma(a) - lgamma(a + b)], the bracket by Stirling
    double corr = sf_stirling_corr(a) - sf_stirling_corr(a + b);
    double lg = lgamma(b);
    return lg + corr - b * log(a + b) - (a - 0.5) * log1p(b / a) + b;
  }
  double s = a + b;
  double sa = sf_gammasgn(a), sb = sf_gammasgn(b), ss = sf_gammasgn(s);
  *sgn = sa * sb * ss;
  if (s <= 0.0 && sf_isint(s)) { *sgn = 0.0; return -sf_inf(); }
  return lgamma(a) + lgamma(b) - lgamma(s);
}

SF_DEV double sf_betaln(double a, double b) {
  double s;
  double r = sf_lbeta_sgn(a, b, &s);
  return r;
}

SF_BIG double sf_beta(double a, double b) {
  if (isnan(a) || isnan(b)) return a + b;
  double big = a > b ? a : b, small = a > b ? b : a;
  if ((a <= 0.0 && sf_isint(a)) || (b <= 0.0 && sf_isint(b))) return sf_inf();
  if (small > 0.0 && big + small < 171.0) {
    // the gamma ratio directly, larger argument first to keep it in range
    return tgamma(small) * (tgamma(big) / tgamma(big + small));
  }
  double s;
  double l = sf_lbeta_sgn(a, b, &s);
  return s * exp(l);
}

// (z)_m = gamma(z + m) / gamma(z)
SF_BIG double sf_poch(double z, double m) {
  if (isnan(z) || isnan(m)) return z + m;
  if (m == 0.0) return 1.0;
  double r = 1.0;
  if (sf_isint(m) && fabs(m) <= 64.0) {        // the product
    if (m > 0) {
      for (int k = 0; k < (int)m; k++) r *= z + k;
      return r;
    }
    for (int k = 1; k <= (int)(-m); k++) r /= z - k;
    return r;
  }
  if (z > 0.0 && z + m > 0.0) {
    if (z >= 10.0 && z + m >= 10.0) {
      // Stirling for both: (z - 1/2) log1p(m / z) + m log(z + m) - m + corrections
      double d = (z - 0.5) * log1p(m / z) + m * log(z + m) - m + sf_stirling_corr(z + m) - sf_stirling_corr(z);
      return exp(d);
    }
    if (z < 150.0 && z + m < 150.0) return tgamma(z + m) / tgamma(z);
    return exp(lgamma(z + m) - lgamma(z));
  }
  if (z <= 0.0 && sf_isint(z)) {
    // gamma(z) has a pole: 0 unless z + m is a pole too (m integer: handled)
    return 0.0;
  }
  if (z + m <= 0.0 && sf_isint(z + m)) return sf_inf() * sf_gammasgn(z) * (sf_isint(z + m) ? 1.0 : 1.0);
  return sf_gamma(z + m) * sf_rgamma(z);
}

// binomial coefficient of real n and k
SF_BIG double sf_binom(double n, double k) {
  if (isnan(n) || isnan(k)) return n + k;
  if (n < 0.0 && sf_isint(n)) return sf_nan();
  if (sf_isint(k)) {
    double kx = k, nx = floor(n);
    if (nx == n && kx > nx / 2.0 && nx > 0.0) kx = nx - kx;   // binom(n, k) = binom(n, n - k)
    if (kx >= 0.0 && kx < 20.0) {
      double num = 1.0, den = 1.0;
      for (int i = 1; i <= (int)kx; i++) {
        num *= i + n - kx;
        den *= i;
        if (fabs(num) > 1e50) { num /= den; den = 1.0; }
      }
      return num / den;
    }
  }
  if (k > 0.0 && n >= 1e10 * k) return exp(-sf_betaln(1.0 + n - k, 1.0 + k) - log(n + 1.0));
  return 1.0 / (n + 1.0) / sf_beta(1.0 + n - k, 1.0 + k);
}

#endif
