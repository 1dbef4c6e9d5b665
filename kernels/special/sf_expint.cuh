// sf_expint.cuh: exponential integrals E_n(x) (expn), E_1 (exp1), Ei
// (expi), and the sine, cosine, hyperbolic sine and cosine integrals
// (sici, shichi): power series for small arguments, continued fractions
// (E_1 of an imaginary argument for sici) and Ei's asymptotic series for
// large ones.
#ifndef SF_EXPINT_CUH
#define SF_EXPINT_CUH

// E_n(x), x > 0, n >= 0: the continued fraction past x = 1, the series below
SF_DEV double sf_expn_pos(int n, double x) {
  if (n == 0) return exp(-x) / x;
  if (x > 1.0) {
    const double tiny = 1e-300;
    double b = x + n, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 10000; i++) {
      double an = -(double)i * (n - 1 + i);
      b += 2.0;
      d = 1.0 / (an * d + b);
      c = b + an / c;
      double del = c * d;
      h *= del;
      if (fabs(del - 1.0) < 1e-16) break;
    }
    return h * exp(-x);
  }
  double ans = n - 1 != 0 ? 1.0 / (n - 1) : -log(x) - SF_EULER;
  double fact = 1.0;
  for (int i = 1; i < 1000; i++) {
    fact *= -x / i;
    double del;
    if (i != n - 1) {
      del = -fact / (i - n + 1);
    } else {
      double psi = -SF_EULER;
      for (int ii = 1; ii <= n - 1; ii++) psi += 1.0 / ii;
      del = fact * (-log(x) + psi);
    }
    ans += del;
    if (fabs(del) < fabs(ans) * 1e-17) break;
  }
  return ans;
}

SF_BIG double sf_expn(double nd, double x) {
  if (isnan(nd) || isnan(x)) return nd + x;
  if (nd < 0.0 || x < 0.0) return sf_nan();
  int n = (int)nd;
  if (x == 0.0) return n <= 1 ? sf_inf() : 1.0 / (n - 1.0);
  if (isinf(x)) return 0.0;
  if (x > SF_MAXLOG) return 0.0;   // SciPy's: no subnormal results
  return sf_expn_pos(n, x);
}

// Ei(x) for x > 0: its series (positive terms) up to 100, the asymptotic series past
SF_DEV double sf_ei_pos(double x) {
  if (x <= 100.0) {
    double sum = 0.0, term = 1.0;
    for (int k = 1; k < 500; k++) {
      term *= x / k;
      double t = term / k;
      sum += t;
      if (t < 1e-17 * sum) break;
    }
    return SF_EULER + log(x) + sum;
  }
  if (x > 709.78) return sf_inf();
  double sum = 1.0, term = 1.0;
  for (int k = 1; k < 60; k++) {
    double nt = term * k / x;
    if (nt > term) break;
    term = nt;
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return exp(x) / x * sum;
}

SF_BIG double sf_exp1(double x) {
  if (isnan(x)) return x;
  if (x == 0.0) return sf_inf();
  if (x < 0.0) return sf_nan();               // SciPy's real exp1: nan below 0
  if (x > SF_MAXLOG) return 0.0;
  return sf_expn_pos(1, x);
}

// E_1 for x > 0 (Ei's negative side)
SF_DEV double sf_e1_pos(double x) { return x > SF_MAXLOG ? 0.0 : sf_expn_pos(1, x); }

SF_BIG double sf_expi(double x) {
  if (isnan(x)) return x;
  if (x == 0.0) return -sf_inf();
  if (x == sf_inf()) return sf_nan();         // SciPy 1.10's
  if (x < 0.0) return -sf_e1_pos(-x);
  return sf_ei_pos(x);
}

// Si(x), Ci(x): series to 4, then E_1(i x) = -Ci(x) + i (Si(x) - pi/2) by
// its continued fraction in complex arithmetic
SF_BIG void sf_sici(double x, double *si, double *ci) {
  if (isnan(x)) { *si = *ci = x; return; }
  double sign = 1.0;
  if (x < 0.0) { x = -x; sign = -1.0; }
  if (x == 0.0) { *si = 0.0 * sign; *ci = -sf_inf(); return; }
  if (isinf(x)) { *si = sign * SF_PI_2; *ci = sign > 0 ? 0.0 : sf_nan(); return; }   // SciPy's
  if (x <= 4.0) {
    double x2 = x * x, s = x, c = 0.0, t = x;
    for (int k = 1; k < 100; k++) {
      t *= -x2 / ((2.0 * k) * (2.0 * k + 1.0));
      double ds = t / (2 * k + 1);
      s += ds;
      double tc = t * (2 * k + 1) / x;    // (-1)^k x^2k / (2k)!
      double dc = tc / (2 * k);
      c += dc;
      if (fabs(ds) < 1e-17 * fabs(s) && fabs(dc) < 1e-17 * fabs(c)) break;
    }
    *si = sign * s;
    *ci = SF_EULER + log(x) + c;
    return;
  }
  // Lentz on E_1(z), z = i x: b = z + 1, a_k = -k^2, b += 2
  const double tiny = 1e-300;
  double br = 1.0, bi = x;
  double cr = 1.0 / tiny, cim = 0.0;
  double den = br * br + bi * bi;
  double dr = br / den, di = -bi / den;
  double hr = dr, hi = di;
  for (int k = 1; k < 10000; k++) {
    double an = -(double)k * k;
    br += 2.0;
    // d = 1 / (an d + b)
    double tr = an * dr + br, ti = an * di + bi;
    den = tr * tr + ti * ti;
    dr = tr / den;
    di = -ti / den;
    // c = b + an / c
    den = cr * cr + cim * cim;
    double qr = an * cr / den, qi = -an * cim / den;
    cr = br + qr;
    cim = bi + qi;
    // del = c d; h *= del
    double er = cr * dr - cim * di, ei = cr * di + cim * dr;
    double nr = hr * er - hi * ei, ni = hr * ei + hi * er;
    hr = nr;
    hi = ni;
    if (fabs(er - 1.0) + fabs(ei) < 1e-16) break;
  }
  // E_1 = h e^{-i x}
  double c = cos(x), s = sin(x);
  double er = hr * c + hi * s, ei = hi * c - hr * s;
  *ci = -er;
  *si = sign * (ei + SF_PI_2);
}

// Shi(x), Chi(x): series to 40 (positive terms), then (Ei(x) +- E_1(x)) / 2
SF_BIG void sf_shichi(double x, double *shi, double *chi) {
  if (isnan(x)) { *shi = *chi = x; return; }
  double sign = 1.0;
  if (x < 0.0) { x = -x; sign = -1.0; }
  if (x == 0.0) { *shi = 0.0 * sign; *chi = -sf_inf(); return; }
  if (x <= 40.0) {
    double x2 = x * x, s = x, c = 0.0, t = x;
    for (int k = 1; k < 500; k++) {
      t *= x2 / ((2.0 * k) * (2.0 * k + 1.0));   // x^(2k+1) / (2k+1)!
      double ds = t / (2 * k + 1);
      s += ds;
      double tc = t * (2 * k + 1) / x;           // x^2k / (2k)!
      double dc = tc / (2 * k);
      c += dc;
      if (ds < 1e-17 * s && dc < 1e-17 * fabs(c)) break;
    }
    *shi = sign * s;
    *chi = SF_EULER + log(x) + c;
    return;
  }
  if (isinf(x)) { *shi = sign * x; *chi = x; return; }
  double ei = sf_ei_pos(x), e1 = sf_e1_pos(x);
  *shi = sign * 0.5 * (ei + e1);
  *chi = 0.5 * (ei - e1);
}

#endif
