// sf_incbet.cuh: the regularized incomplete beta function I_x(a, b)
// (betainc) and its inverse in x (betaincinv), and the distributions built
// on them: binomial, negative binomial, F and beta. I by its continued
// fraction on the side of (a + 1) / (a + b + 2) where it converges fast
// (the other side by I_x(a, b) = 1 - I_(1-x)(b, a)); the factor
// x^a (1-x)^b / B(a, b) in Stirling's form for large a and b.
#ifndef SF_INCBET_CUH
#define SF_INCBET_CUH

// x^a (1 - x)^b / B(a, b)
SF_DEV double sf_incbet_fac(double a, double b, double x) {
  // Stirling's form near the mean only: far from it (x / x0 or (1 - x) / y0
  // small) its log1pmx arguments near -1 would lose their digits
  double s0 = a + b;
  if (a < 10.0 || b < 10.0 || x * s0 < 0.25 * a || (1.0 - x) * s0 < 0.25 * b) {
    double s;
    double l = a * log(x) + b * log1p(-x) - sf_lbeta_sgn(a, b, &s);
    return l < -SF_MAXLOG ? 0.0 : exp(l);
  }
  // with s = a + b, x0 = a / s: sqrt(a b / (2 pi s)) exp(a log1pmx((x - x0) / x0)
  // + b log1pmx((x0 - x) / y0) - corrections)
  // d = x - x0 as (x b - (1 - x) a) / s: x0 rounded would cost d its low digits
  double s = a + b, x0 = a / s, y0 = b / s, d = fma(x, b, -((1.0 - x) * a)) / s;
  double l = a * sf_log1pmx(d / x0) + b * sf_log1pmx(-d / y0) -
             (sf_stirling_corr(a) + sf_stirling_corr(b) - sf_stirling_corr(s));
  return l < -SF_MAXLOG ? 0.0 : sqrt(a * b / (SF_2PI * s)) * exp(l);
}

// the continued fraction of I_x(a, b) (modified Lentz), for x < (a+1)/(a+b+2)
SF_DEV double sf_incbet_cf(double a, double b, double x) {
  const double tiny = 1e-300;
  double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0, d = 1.0 - qab * x / qap;
  if (fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 100000; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1.0) < 1e-16) break;
  }
  return h;
}

// I_x(a, b) (upper false) or 1 - I_x(a, b) (upper true), each accurate in
// its own small tail
SF_DEV double sf_incbet_tail(double a, double b, double x, bool upper) {
  if (x > (a + 1.0) / (a + b + 2.0)) {
    double t = a; a = b; b = t;
    x = 1.0 - x;
    upper = !upper;
  }
  double v = sf_incbet_fac(a, b, x) * sf_incbet_cf(a, b, x) / a;
  return upper ? 1.0 - v : v;
}

SF_BIG double sf_betainc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
  if (a <= 0.0 || b <= 0.0 || x < 0.0 || x > 1.0) return sf_nan();
  if (x == 0.0) return 0.0;
  if (x == 1.0) return 1.0;
  if (isinf(a) || isinf(b)) return sf_nan();
  return sf_incbet_tail(a, b, x, false);
}

// 1 - I_x(a, b) without the cancellation
SF_BIG double sf_betaincc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
  if (a <= 0.0 || b <= 0.0 || x < 0.0 || x > 1.0) return sf_nan();
  if (x == 0.0) return 1.0;
  if (x == 1.0) return 0.0;
  return sf_incbet_tail(a, b, x, true);
}

// x with I_x(a, b) = y: Newton on the smaller tail, bracketed, bisection
// where a step leaves the bracket
SF_BIG double sf_betaincinv(double a, double b, double y) {
  if (isnan(a) || isnan(b) || isnan(y)) return a + b + y;
  if (a <= 0.0 || b <= 0.0 || y < 0.0 || y > 1.0) return sf_nan();
  if (y == 0.0) return 0.0;
  if (y == 1.0) return 1.0;
  bool flip = y > 0.5;            // solve I_z(b, a) = 1 - y for z = 1 - x
  if (flip) { double t = a; a = b; b = t; y = 1.0 - y; }
  // start: the small-x form I ~ x^a / (a B(a, b)), or the normal
  // approximation when both are large
  double s;
  double lb = sf_lbeta_sgn(a, b, &s);
  double x = exp((log(y * a) + lb) / a);
  if (a > 1.0 && b > 1.0) {
    double z = -SF_SQRT2 * erfcinv(2.0 * y);
    double m = a / (a + b), v = a * b / ((a + b) * (a + b) * (a + b + 1.0));
    double xn = m + z * sqrt(v);
    if (xn > 0.0 && xn < 1.0 && !(x < 0.5 * m)) x = xn;
  }
  if (!(x > 0.0 && x < 1.0)) x = 0.5;
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < 300; it++) {
    double f = sf_incbet_tail(a, b, x, false) - y;
    if (f > 0.0) hi = x; else lo = x;
    if (f == 0.0) break;
    double dfdx = exp((a - 1.0) * log(x) + (b - 1.0) * log1p(-x) - lb);
    double nx = x - f / dfdx;
    if (!(nx > lo && nx < hi)) nx = (lo > 0.0 && hi / lo > 8.0) ? sqrt(lo * hi) : 0.5 * (lo + hi);
    if (fabs(nx - x) <= 2e-16 * x) { x = nx; break; }
    x = nx;
  }
  return flip ? 1.0 - x : x;
}

// binomial: P(X <= k) for n trials of probability p
SF_BIG double sf_bdtr(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p)) return k + n + p;
  if (p < 0.0 || p > 1.0) return sf_nan();
  k = floor(k);
  if (k < 0.0 || n < k) return sf_nan();
  if (k == n) return 1.0;
  double dn = n - k;
  if (k == 0.0) return pow(1.0 - p, dn);
  return sf_betaincc(k + 1.0, dn, p);
}
SF_BIG double sf_bdtrc(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p)) return k + n + p;
  if (p < 0.0 || p > 1.0) return sf_nan();
  k = floor(k);
  if (n < k) return sf_nan();
  if (k < 0.0) return 1.0;
  if (k == n) return 0.0;
  double dn = n - k;
  if (k == 0.0) return p < 0.01 ? -expm1(dn * log1p(-p)) : 1.0 - pow(1.0 - p, dn);
  return sf_betainc(k + 1.0, dn, p);
}
SF_BIG double sf_bdtri(double k, double n, double y) {
  if (isnan(k) || isnan(n) || isnan(y)) return k + n + y;
  if (y < 0.0 || y > 1.0) return sf_nan();
  k = floor(k);
  if (k < 0.0 || n <= k) return sf_nan();
  double dn = n - k;
  if (k == 0.0) return y > 0.8 ? -expm1(log1p(y - 1.0) / dn) : 1.0 - pow(y, 1.0 / dn);
  // bdtr = I_(1-p)(n - k, k + 1) = y
  return 1.0 - sf_betaincinv(dn, k + 1.0, y);
}

// negative binomial: P(k or fewer failures before the n-th success)
SF_BIG double sf_nbdtr(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p)) return k + n + p;
  if (p < 0.0 || p > 1.0 || k < 0.0) return sf_nan();
  return sf_betainc(n, floor(k) + 1.0, p);
}
SF_BIG double sf_nbdtrc(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p)) return k + n + p;
  if (p < 0.0 || p > 1.0 || k < 0.0) return sf_nan();
  return sf_betaincc(n, floor(k) + 1.0, p);
}
SF_BIG double sf_nbdtri(double k, double n, double y) {
  if (isnan(k) || isnan(n) || isnan(y)) return k + n + y;
  if (y < 0.0 || y > 1.0 || k < 0.0) return sf_nan();
  return sf_betaincinv(n, floor(k) + 1.0, y);
}

// F distribution with dfn and dfd degrees of freedom
SF_BIG double sf_fdtr(double dfn, double dfd, double x) {
  if (isnan(dfn) || isnan(dfd) || isnan(x)) return dfn + dfd + x;
  if (dfn <= 0.0 || dfd <= 0.0 || x < 0.0) return sf_nan();
  if (isinf(x)) return 1.0;
  double w = dfn * x;
  return sf_betainc(0.5 * dfn, 0.5 * dfd, w / (dfd + w));
}
SF_BIG double sf_fdtrc(double dfn, double dfd, double x) {
  if (isnan(dfn) || isnan(dfd) || isnan(x)) return dfn + dfd + x;
  if (dfn <= 0.0 || dfd <= 0.0 || x < 0.0) return sf_nan();
  if (isinf(x)) return 0.0;
  double w = dfn * x;
  return sf_betainc(0.5 * dfd, 0.5 * dfn, dfd / (dfd + w));
}
SF_BIG double sf_fdtri(double dfn, double dfd, double p) {
  if (isnan(dfn) || isnan(dfd) || isnan(p)) return dfn + dfd + p;
  if (dfn <= 0.0 || dfd <= 0.0 || p < 0.0 || p > 1.0) return sf_nan();
  if (p > 0.5) {
    // through the complement: 1 - w = I^-1_(1-p)(dfd/2, dfn/2)
    double v = sf_betaincinv(0.5 * dfd, 0.5 * dfn, 1.0 - p);
    return dfd * (1.0 - v) / (dfn * v);
  }
  double w = sf_betaincinv(0.5 * dfn, 0.5 * dfd, p);
  return dfd * w / (dfn * (1.0 - w));
}

SF_DEV double sf_btdtr(double a, double b, double x) { return sf_betainc(a, b, x); }
SF_DEV double sf_btdtri(double a, double b, double p) { return sf_betaincinv(a, b, p); }

#endif
