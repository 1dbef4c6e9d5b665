// sf_zeta.cuh: the Hurwitz zeta function (Euler-Maclaurin summation),
// Riemann's zeta and zeta - 1 (the reflection formula below 1), and
// polygamma through zeta.
#ifndef SF_ZETA_CUH
#define SF_ZETA_CUH

// sum_k>=0 (q + k)^-s by Euler-Maclaurin: N terms, the integral of the
// rest and the corrections B_2j / (2j)! s (s+1)...(s+2j-2) a^(-s-2j+1),
// a = q + N; valid for any s != 1 (Riemann's zeta in (0, 1) too)
SF_DEV double sf_hurwitz_em(double s, double q) {
  const int N = 12;
  double sum = 0.0;
  for (int k = 0; k < N; k++) {
    double t = pow(q + k, -s);
    sum += t;
    if (s > 1.0 && q + k > 0 && t < 1e-17 * sum) return sum;   // large s: the first terms are all
  }
  double a = q + N;
  double as = pow(a, -s);
  sum += a * as / (s - 1.0) + 0.5 * as;
  const double b[] = {8.3333333333333333333e-2, -1.3888888888888888889e-3, 3.3068783068783068783e-5,
                      -8.2671957671957671958e-7, 2.0876756987868098980e-8, -5.2841901386874931848e-10,
                      1.3382536530684678833e-11, -3.3896802963225828668e-13, 8.5860620562778445641e-15,
                      -2.1748686985580618731e-16, 5.5090028283602295152e-18, -1.3954464685812523341e-19};
  double fac = s * as / a;   // s a^(-s-1)
  for (int j = 0; j < 12; j++) {
    double t = b[j] * fac;
    sum += t;
    if (fabs(t) < 1e-17 * fabs(sum)) break;
    fac *= (s + 2 * j + 1) * (s + 2 * j + 2) / (a * a);
  }
  return sum;
}

// SciPy's zeta(x, q): s > 1; inf at s = 1 and at the poles q = 0, -1, ...
SF_BIG double sf_hurwitz(double s, double q) {
  if (isnan(s) || isnan(q)) return s + q;
  if (s == 1.0) return sf_inf();
  if (s < 1.0) return sf_nan();
  if (q <= 0.0) {
    if (q == floor(q)) return sf_inf();
    if (s != floor(s)) return sf_nan();
  }
  if (s == sf_inf()) return q == 1.0 ? 1.0 : (q > 1.0 ? 0.0 : sf_inf());
  return sf_hurwitz_em(s, q);
}

// Riemann's zeta below 1: Euler-Maclaurin in (0, 1), the reflection
// formula zeta(x) = 2 (2 pi)^(x-1) sin(pi x / 2) gamma(1 - x) zeta(1 - x) below 0
SF_DEV double sf_zeta_lt1(double x) {
  if (x == 0.0) return -0.5;
  if (x > 0.0) return sf_hurwitz_em(x, 1.0);
  if (x == -sf_inf()) return sf_nan();
  double sn = sf_sinpi(0.5 * x);
  if (sn == 0.0) return 0.0;             // the trivial zeros
  double z1 = sf_hurwitz_em(1.0 - x, 1.0);
  double l = SF_LN2 + (x - 1.0) * log(SF_2PI) + lgamma(1.0 - x) + log(fabs(sn));
  if (l > SF_MAXLOG) return sn > 0 ? sf_inf() : -sf_inf();
  return copysign(exp(l), sn) * z1;
}

// zeta(x) - 1: for x > 1 as zeta(x, 2) (no cancellation however large x)
SF_BIG double sf_zetac(double x) {
  if (isnan(x)) return x;
  if (x == 1.0) return sf_inf();
  if (x == sf_inf()) return 0.0;
  if (x > 1.0) return sf_hurwitz_em(x, 2.0);
  return sf_zeta_lt1(x) - 1.0;
}

SF_BIG double sf_zeta1(double x) {
  if (isnan(x)) return x;
  if (x == 1.0) return sf_inf();
  if (x > 1.0) return x == sf_inf() ? 1.0 : sf_hurwitz_em(x, 1.0);
  return sf_zeta_lt1(x);
}

SF_BIG double sf_polygamma(double n, double x) {
  if (isnan(n) || isnan(x)) return n + x;
  if (n < 0.0 || n != floor(n)) return sf_nan();
  if (n == 0.0) return sf_digamma(x);
  // (-1)^(n+1) n! zeta(n + 1, x)
  double z = sf_hurwitz(n + 1.0, x);
  double s = fmod(n, 2.0) == 0.0 ? -1.0 : 1.0;
  if (n < 170.0) return s * tgamma(n + 1.0) * z;
  return s * exp(lgamma(n + 1.0) + log(z));
}

#endif
