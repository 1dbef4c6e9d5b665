// sf_ellip.cuh: complete and incomplete elliptic integrals (parameter m,
// as SciPy): K by the arithmetic-geometric mean, F and E by Carlson's
// symmetric forms R_F and R_D (duplication), the Jacobian elliptic
// functions by the descending Landen (AGM) sequence.
#ifndef SF_ELLIP_CUH
#define SF_ELLIP_CUH

SF_DEV double sf_agm(double a, double b) {
  for (int i = 0; i < 60; i++) {
    double an = 0.5 * (a + b), bn = sqrt(a * b);
    if (fabs(an - bn) <= 1e-16 * an) return an;
    a = an;
    b = bn;
  }
  return a;
}

SF_BIG double sf_ellipk(double m) {
  if (isnan(m)) return m;
  if (m == 1.0) return sf_inf();
  if (m > 1.0) return sf_nan();
  if (m == -sf_inf()) return 0.0;
  return SF_PI_2 / sf_agm(1.0, sqrt(1.0 - m));
}

// K(1 - p), accurate for small p
SF_BIG double sf_ellipkm1(double p) {
  if (isnan(p)) return p;
  if (p == 0.0) return sf_inf();
  if (p < 0.0) return sf_nan();
  if (p == sf_inf()) return 0.0;
  return SF_PI_2 / sf_agm(1.0, sqrt(p));
}

// Carlson's R_F(x, y, z) and R_D(x, y, z) (x, y, z >= 0, at most one zero)
SF_DEV double sf_carlson_rf(double x, double y, double z) {
  for (int i = 0; i < 100; i++) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    double l = sx * (sy + sz) + sy * sz;
    x = 0.25 * (x + l);
    y = 0.25 * (y + l);
    z = 0.25 * (z + l);
    double mu = (x + y + z) / 3.0;
    double dx = 1.0 - x / mu, dy = 1.0 - y / mu, dz = 1.0 - z / mu;
    double e = fmax(fabs(dx), fmax(fabs(dy), fabs(dz)));
    if (e < 1e-3) {
      double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
      return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / sqrt(mu);
    }
  }
  return sf_nan();
}

SF_DEV double sf_carlson_rd(double x, double y, double z) {
  double sum = 0.0, fac = 1.0;
  for (int i = 0; i < 100; i++) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    double l = sx * (sy + sz) + sy * sz;
    sum += fac / (sz * (z + l));
    fac *= 0.25;
    x = 0.25 * (x + l);
    y = 0.25 * (y + l);
    z = 0.25 * (z + l);
    double mu = (x + y + 3.0 * z) / 5.0;
    double dx = 1.0 - x / mu, dy = 1.0 - y / mu, dz = 1.0 - z / mu;
    double e = fmax(fabs(dx), fmax(fabs(dy), fabs(dz)));
    if (e < 1e-3) {
      double ea = dx * dy, eb = dz * dz, ec = ea - eb, ed = ea - 6.0 * eb, ef = ed + ec + ec;
      double s1 = ed * (-3.0 / 14.0 + 9.0 / 88.0 * ed - 9.0 / 52.0 * dz * ef);
      double s2 = dz * (ef / 6.0 + dz * (-9.0 / 22.0 * ec + dz * 3.0 / 26.0 * ea));
      return 3.0 * sum + fac * (1.0 + s1 + s2) / (mu * sqrt(mu));
    }
  }
  return sf_nan();
}

// F(phi | m) and E(phi | m): the part of phi in [-pi/2, pi/2] by Carlson's
// forms, each whole half-period pi adding 2 K(m) (2 E(m))
SF_DEV double sf_ellip_inc(double phi, double m, bool second) {
  if (isnan(phi) || isnan(m)) return phi + m;
  if (m > 1.0 && !second) {
    // defined while m sin^2 phi <= 1
  }
  if (isinf(phi)) return phi;
  double k = rint(phi / SF_PI);
  double p = phi - k * SF_PI;
  double s = sin(p), c = cos(p);
  double y = 1.0 - m * s * s;
  if (y < 0.0) return sf_nan();
  double r;
  if (!second) {
    if (m == 1.0) {
      if (k != 0.0) return phi > 0 ? sf_inf() : -sf_inf();
      return asinh(tan(p));
    }
    r = s * sf_carlson_rf(c * c, y, 1.0);
  } else {
    r = s * sf_carlson_rf(c * c, y, 1.0) - m / 3.0 * s * s * s * sf_carlson_rd(c * c, y, 1.0);
  }
  if (k != 0.0) {
    if (m > 1.0) return sf_nan();
    double whole = second ? (sf_carlson_rf(0.0, 1.0 - m, 1.0) - m / 3.0 * sf_carlson_rd(0.0, 1.0 - m, 1.0))
                          : sf_ellipk(m);
    r += 2.0 * k * whole;
  }
  return r;
}
SF_BIG double sf_ellipkinc(double phi, double m) { return sf_ellip_inc(phi, m, false); }
SF_BIG double sf_ellipeinc(double phi, double m) {
  if (m == 1.0 && !isnan(phi)) {
    // E(phi | 1) = sin(phi) on [-pi/2, pi/2], 2 per half-period
    double k = rint(phi / SF_PI);
    return sin(phi - k * SF_PI) + 2.0 * k;
  }
  return sf_ellip_inc(phi, m, true);
}

// sn, cn, dn and the amplitude ph of u for 0 <= m <= 1
SF_BIG void sf_ellipj(double u, double m, double *sn, double *cn, double *dn, double *ph) {
  if (isnan(u) || isnan(m) || m < 0.0 || m > 1.0) {
    *sn = *cn = *dn = *ph = sf_nan();
    return;
  }
  if (m < 1e-9) {
    double t = sin(u), b = cos(u), ai = 0.25 * m * (u - t * b);
    *sn = t - ai * b;
    *cn = b + ai * t;
    *ph = u - ai;
    *dn = 1.0 - 0.5 * m * t * t;
    return;
  }
  if (m >= 0.9999999999) {
    double ai = 0.25 * (1.0 - m), b = cosh(u), t = tanh(u), phi = 1.0 / b, twon = b * sinh(u);
    *sn = t + ai * (twon - u) / (b * b);
    *ph = 2.0 * atan(exp(u)) - SF_PI_2 + ai * (twon - u) / b;
    ai *= t * phi;
    *cn = phi - ai * (twon - u);
    *dn = phi + ai * (twon + u);
    return;
  }
  double a[16], c[16];
  a[0] = 1.0;
  double b = sqrt(1.0 - m);
  c[0] = sqrt(m);
  double twon = 1.0;
  int i = 0;
  while (fabs(c[i] / a[i]) > SF_MACHEP && i < 15) {
    double ai = a[i];
    i++;
    c[i] = 0.5 * (ai - b);
    double t = sqrt(ai * b);
    a[i] = 0.5 * (ai + b);
    b = t;
    twon *= 2.0;
  }
  double phi = twon * a[i] * u;
  double prev = phi;
  do {
    double t = c[i] * sin(phi) / a[i];
    prev = phi;
    phi = 0.5 * (asin(t) + phi);
  } while (--i);
  double s = sin(phi), co = cos(phi);
  *sn = s;
  *cn = co;
  // dn = sqrt(1 - m sn^2) = sqrt((1 - m) + m cn^2): a sum of positive
  // terms, without the cancellation near m sn^2 = 1
  (void)prev;
  *dn = sqrt((1.0 - m) + m * co * co);
  *ph = phi;
}

#endif
