// sf_orth.cuh: the associated Legendre function P_v^m(x) (lpmv, with the
// Condon-Shortley phase, as SciPy) and the spherical harmonics
// sph_harm_y(n, m, theta, phi) (theta polar, phi azimuthal) by the
// normalised recurrence (no factorials to overflow).
#ifndef SF_ORTH_CUH
#define SF_ORTH_CUH

// P_v^m(x) by its hypergeometric series: (-1)^m (1-x^2)^(m/2)
// gamma(v+m+1) / (2^m m! gamma(v-m+1)) 2F1(m - v, m + v + 1; m + 1; (1 - x)/2)
SF_DEV double sf_lpmv_hyp(int m, double v, double x) {
  double z = 0.5 * (1.0 - x), s2 = (1.0 - x) * (1.0 + x);
  double a = m - v, b = m + v + 1.0, c = m + 1.0;
  double sum = 1.0, term = 1.0;
  for (int k = 0; k < 100000; k++) {
    term *= (a + k) * (b + k) / ((c + k) * (k + 1.0)) * z;
    sum += term;
    if (fabs(term) < 1e-17 * fabs(sum)) break;
  }
  double pre = pow(s2, 0.5 * m) * sf_poch(v - m + 1.0, 2.0 * m);
  for (int i = 1; i <= m; i++) pre /= 2.0 * i;
  if (m & 1) pre = -pre;
  return pre * sum;
}

// P_v^m(x) for integer m >= 0 and |x| <= 1
SF_DEV double sf_lpmv_pos(int m, double v, double x) {
  if (v < 0.0) v = -v - 1.0;          // P_v = P_(-v-1)
  double s2 = (1.0 - x) * (1.0 + x);
  if (v == floor(v)) {
    int n = (int)v;
    if (m > n) return 0.0;
    // P_m^m = (-1)^m (2m-1)!! (1 - x^2)^(m/2), then upward in the degree
    double pmm = 1.0, sq = sqrt(s2), f = 1.0;
    for (int i = 1; i <= m; i++) {
      pmm *= -f * sq;
      f += 2.0;
    }
    if (n == m) return pmm;
    double p1 = x * (2 * m + 1) * pmm;
    if (n == m + 1) return p1;
    double p0 = pmm;
    for (int l = m + 2; l <= n; l++) {
      double p2 = ((2.0 * l - 1.0) * x * p1 - (l + m - 1.0) * p0) / (l - m);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  if (x == -1.0) return sf_inf();
  // real degree: the hypergeometric series at two degrees near m, where its
  // terms stay small, then the (neutrally stable) recurrence in the degree
  double nu0 = v > m + 1.0 ? v - floor(v - m) : v;
  double p0 = sf_lpmv_hyp(m, nu0, x);
  if (nu0 == v) return p0;
  double p1 = sf_lpmv_hyp(m, nu0 + 1.0, x);
  for (double l = nu0 + 1.0; l < v - 0.5; l += 1.0) {
    double p2 = ((2.0 * l + 1.0) * x * p1 - (l + m) * p0) / (l - m + 1.0);
    p0 = p1;
    p1 = p2;
  }
  return p1;
}

SF_BIG double sf_lpmv(double md, double v, double x) {
  if (isnan(md) || isnan(v) || isnan(x)) return md + v + x;
  if (md != floor(md) || fabs(x) > 1.0) return sf_nan();
  int m = (int)fabs(md);
  double r = sf_lpmv_pos(m, v, x);
  if (md >= 0.0) return r;
  // P_v^-m = (-1)^m gamma(v - m + 1) / gamma(v + m + 1) P_v^m
  double ratio = 1.0 / sf_poch(v - m + 1.0, 2.0 * m);
  return ((m & 1) ? -1.0 : 1.0) * ratio * r;
}

// Y_n^m(theta, phi) = sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m(cos theta) e^(i m phi)
SF_BIG void sf_sph_harm_y(double nd, double md, double theta, double phi, double *re, double *im) {
  if (isnan(nd) || isnan(md) || isnan(theta) || isnan(phi) || nd != floor(nd) || md != floor(md) || nd < 0.0) {
    *re = *im = sf_nan();
    return;
  }
  int n = (int)nd, m = (int)fabs(md);
  if (m > n) { *re = sf_nan(); *im = 0.0; return; }   // SciPy's (sph_harm): nan past |m| = n
  double x = cos(theta), s = sin(theta);
  // normalised: p_mm = (-1)^m sqrt((2m+1)!! / (4 pi (2m)!!)) sin^m
  double p = 1.0 / sqrt(4.0 * SF_PI);
  for (int k = 1; k <= m; k++) p *= -sqrt((2.0 * k + 1.0) / (2.0 * k)) * s;
  double pl = p;
  if (n > m) {
    double p0 = p, p1 = sqrt(2.0 * m + 3.0) * x * p;
    for (int l = m + 2; l <= n; l++) {
      double a = sqrt((4.0 * l * l - 1.0) / ((double)l * l - (double)m * m));
      double b = sqrt(((l - 1.0) * (l - 1.0) - (double)m * m) / (4.0 * (l - 1.0) * (l - 1.0) - 1.0));
      double p2 = a * (x * p1 - b * p0);
      p0 = p1;
      p1 = p2;
    }
    pl = p1;
  }
  double c = cos(m * phi), sn = sin(m * phi);
  if (md < 0.0) {
    // Y_n^-m = (-1)^m conj(Y_n^m)
    double sg = (m & 1) ? -1.0 : 1.0;
    *re = sg * pl * c;
    *im = -sg * pl * sn;
    return;
  }
  *re = pl * c;
  *im = pl * sn;
}

#endif
