// sf_besselv.cuh: Bessel functions of real order v and real argument x:
// jv yv iv kv and the exponentially scaled jve yve ive kve (for real x,
// jve = jv and yve = yv; ive = iv e^-|x|, kve = kv e^x).
//
// For order nu >= 0 (negative orders by reflection, with sin and cos of
// nu pi exact at the integers and half-integers):
// - large x: the asymptotic expansions in 1/x (Hankel's for J and Y, and
//   those of I e^-x and K e^x), used only where the series' terms fall
//   below the rounding error before they grow;
// - otherwise Temme's method, as in Temme (1975, 1976) and Numerical
//   Recipes' bessjy/bessik: the continued fraction CF1 for J'/J (I'/I) at
//   nu and the downward recurrence to a small order mu give J (I) up to a
//   factor; at mu, Temme's series (x <= 2) or Steed's complex continued
//   fraction CF2 (x > 2; for K, Temme's) give Y_mu and Y_mu+1 (K_mu,
//   K_mu+1), the Wronskian fixes J_mu (I_mu), and Y (K) goes up to nu by
//   its stable forward recurrence. J and I keep their relative accuracy
//   far into the tails (no exp(nu log x) rounded).
// Orders that put J (I) below the smallest double and Y (K) past the
// largest are answered from the bound (x/2)^nu / Gamma(nu + 1) without
// iterating. The continued fraction CF1 takes about x iterations where x
// exceeds nu and the asymptotic series does not apply yet (x < ~nu^2);
// past SF_BV_MAXIT iterations the result is nan. The recurrences use fma
// explicitly, as NVRTC contracts them on the device, so that the host
// checks (tools/special) see the device's roundings.
#ifndef SF_BESSELV_CUH
#define SF_BESSELV_CUH

#define SF_BV_EPS 1.0e-16
#define SF_BV_TINY 1.0e-300
#define SF_BV_MAXIT 2000000
#define SF_BV_BIG 3.273390607896142e+150      // 2^500: the recurrences' rescaling
#define SF_BV_SMALL 3.054936363499605e-151   // 2^-500
#define SF_SQRT2_PI 0.7978845608028653558798921198687637369

// Temme's gamma functions of |mu| <= 1/2: g1 = (1/Gamma(1-mu) - 1/Gamma(1+mu))
// / (2 mu), g2 = (1/Gamma(1-mu) + 1/Gamma(1+mu)) / 2, gp = 1/Gamma(1+mu),
// gm = 1/Gamma(1-mu), from the Taylor series of 1/Gamma(1+z) split into
// its even and odd parts (tools/special/gen_coeffs.py rgamma1), so that g1
// keeps its accuracy at mu -> 0 (its limit is -euler)
SF_DEV void sf_temme_gammas(double mu, double *g1, double *g2, double *gp, double *gm) {
  const double ev[] = {
    1.00000000000000000000e+00, -6.55878071520253902449e-01, 1.66538611382291479313e-01,
    -9.62197152787697303211e-03, -1.16516759185906516871e-03, 1.28050282388116195512e-04,
    -1.25049348214267063072e-06, -2.05633841697760707339e-07, 5.00200764446922294544e-09,
    1.04342671169110053979e-10, -3.69680561864220597869e-12};
  const double od[] = {
    5.77215664901532865549e-01, -4.20026350340952370210e-02, -4.21977345555443333902e-02,
    7.21894324666309990246e-03, -2.15241674114950975192e-04, -2.01348547807882386862e-05,
    1.13302723198169592860e-06, 6.11609510448141608721e-09, -1.18127457048702004406e-09,
    7.78226343990507081432e-12, 5.10037028745447575372e-13};
  double m2 = mu * mu;
  double e = sf_poly(ev, (int)(sizeof ev / sizeof ev[0]), m2);
  double o = sf_poly(od, (int)(sizeof od / sizeof od[0]), m2);
  *g1 = -o;
  *g2 = e;
  *gp = e + mu * o;
  *gm = e - mu * o;
}

// The large-x series in 1/x with terms A_k = a_k(nu) / x^k, a_k(nu) =
// prod_{j=1..k} (4 nu^2 - (2j-1)^2) / (k! 8^k), summed by k mod 4 into s[4].
// Hankel's P = s0 - s2, Q = s1 - s3; I e^-x sqrt(2 pi x) = s0 + s2 - s1 - s3;
// K e^x sqrt(2x/pi) = s0 + s1 + s2 + s3. false where the terms stop
// decreasing before they fall below the rounding error (x too small
// for nu): then the caller uses Temme's method.
SF_DEV bool sf_bessel_asym(double nu, double x, double s[4]) {
  double mu4 = 4.0 * nu * nu, t = 1.0, last = 1.0;
  s[0] = 1.0;
  s[1] = s[2] = s[3] = 0.0;
  for (int k = 1; k < 100; k++) {
    double odd = 2.0 * k - 1.0;
    t *= (mu4 - odd * odd) / (8.0 * k * x);
    double at = fabs(t);
    if (at > last) return false;
    s[k & 3] += t;
    if (at < 1e-17 * fabs(s[0]) || t == 0.0) return true;
    last = at;
  }
  return false;
}

// ln of the bound (x/2)^nu / Gamma(nu + 1) >= |J_nu(x)| (nu >= 0)
SF_DEV double sf_bessel_lnbound(double nu, double x) { return nu * log(0.5 * x) - lgamma(nu + 1.0); }

// 2^-e z for the rescaled recurrences (e may exceed ldexp's int range
// only when the result is 0 anyway)
SF_DEV double sf_bv_unscale(double z, double e) { return e > 4000.0 ? 0.0 * z : ldexp(z, -(int)e); }

// J_nu, Y_nu from Hankel's expansion (s: sf_bessel_asym's sums)
SF_DEV void sf_hankel_jy(double nu, double x, const double s[4], double *jv, double *yv) {
  double sx, cx;
  sincos(x, &sx, &cx);
  double ph = 0.5 * nu + 0.25;     // th = x - ph pi
  double cp = sf_cospi(ph), sp = sf_sinpi(ph);
  double cth = cx * cp + sx * sp, sth = sx * cp - cx * sp;
  double p = s[0] - s[2], q = s[1] - s[3], k = SF_SQRT2_PI / sqrt(x);
  *jv = k * (p * cth - q * sth);
  *yv = k * (p * sth + q * cth);
}

// J_nu(x), Y_nu(x) for nu >= 0, 0 < x < inf
SF_BIG void sf_besjy_v(double nu, double x, double *jv, double *yv) {
  const double w = 2.0 / (SF_PI * x);   // the Wronskian J Y' - J' Y
  double s[4];
  if (x >= 16.0) {
    if (sf_bessel_asym(nu, x, s)) {
      sf_hankel_jy(nu, x, s, jv, yv);
      return;
    }
    // orders below x: Hankel's expansion at mu = frac(nu) and mu + 1, then
    // the forward recurrence, stable for both J and Y while the order
    // stays below x (CF1 would take x iterations and lose as many roundings)
    double mu = nu - floor(nu);
    if (nu <= x && sf_bessel_asym(mu, x, s)) {
      double j0, y0, j1, y1;
      sf_hankel_jy(mu, x, s, &j0, &y0);
      if (sf_bessel_asym(mu + 1.0, x, s)) {
        sf_hankel_jy(mu + 1.0, x, s, &j1, &y1);
        int n = (int)(nu - mu);
        for (int i = 1; i < n; i++) {
          double f = 2.0 * (mu + i) / x;
          double jt = fma(f, j1, -j0), yt = fma(f, y1, -y0);
          j0 = j1;
          j1 = jt;
          y0 = y1;
          y1 = yt;
        }
        *jv = n == 0 ? j0 : j1;
        *yv = n == 0 ? y0 : y1;
        return;
      }
    }
  }
  double lb = sf_bessel_lnbound(nu, x);
  if (nu > x && lb < -750.0 - log(SF_PI * nu)) {   // J below every double, Y beyond
    *jv = 0.0;
    *yv = -sf_inf();
    return;
  }
  double xi = 1.0 / x, xi2 = 2.0 * xi;
  // the order mu where Y starts: |mu| <= 1/2 for Temme's series (x <= 2);
  // about x - 1 for CF2 (it converges fast for orders below x)
  bool temme = x <= 2.0;
  double nld = temme ? floor(nu + 0.5) : fmax(0.0, floor(nu - x + 1.5));
  if (nld > SF_BV_MAXIT) { *jv = *yv = sf_nan(); return; }
  int nl = (int)nld;
  double mu = nu - nl;
  // Temme's mu < 0: the Wronskian is applied at mu + 1 (at a negative order
  // and small x, J'Y and JY' cancel), the recurrences stop there
  bool up = mu < 0.0;
  int nlw = nl - (up ? 1 : 0);
  // CF1: f = J'_nu / J_nu by Lentz's method; sgn: the sign of J_nu (one
  // change per negative denominator)
  // (each b_i formed afresh: summing 2/x a thousand times would cost the
  // result a thousand roundings)
  double h = fmax(nu * xi, SF_BV_TINY), b, d = 0.0, c = h;
  int sgn = 1, it;
  int maxit = (int)fmin((double)SF_BV_MAXIT, 10000.0 + 4.0 * x);
  for (it = 1; it <= maxit; it++) {
    b = (nu + it) * xi2;
    d = b - d;
    if (fabs(d) < SF_BV_TINY) d = SF_BV_TINY;
    c = b - 1.0 / c;
    if (fabs(c) < SF_BV_TINY) c = SF_BV_TINY;
    d = 1.0 / d;
    double del = c * d;
    h *= del;
    if (d < 0.0) sgn = -sgn;
    if (fabs(del - 1.0) < SF_BV_EPS) break;
  }
  if (it > maxit) { *jv = *yv = sf_nan(); return; }
  // (J, J') from nu down to mu, J_nu = sgn; scaled by 2^-500 whenever it
  // grows past 2^500 (esc: the exponent taken out)
  double jl = sgn, jpl = h * jl, esc = 0.0;
  for (int l = nlw; l >= 1; l--) {   // the orders nu - m formed afresh, as b above
    double jt = fma((nu - (nlw - l)) * xi, jl, jpl);
    jpl = fma((nu - (nlw - l + 1)) * xi, jt, -jl);
    jl = jt;
    if (fabs(jl) > SF_BV_BIG) {
      jl *= SF_BV_SMALL;
      jpl *= SF_BV_SMALL;
      esc += 500.0;
    }
  }
  if (jl == 0.0) jl = SF_BV_EPS;
  double f = jpl / jl;        // J'_muw / J_muw, muw = nu - nlw
  double jmu, ymu, ymu1;      // J_muw, Y_muw, Y_muw+1
  if (temme) {
    // Temme's series for Y_mu, Y_mu+1, |mu| <= 1/2
    double x2 = 0.5 * x, pimu = SF_PI * mu;
    double fct = fabs(pimu) < 1e-15 ? 1.0 : pimu / sin(pimu);
    double dl = -log(x2), e = mu * dl;
    double fct2 = fabs(e) < 1e-15 ? 1.0 : sinh(e) / e;
    double g1, g2, gp, gm;
    sf_temme_gammas(mu, &g1, &g2, &gp, &gm);
    double ff = 2.0 / SF_PI * fct * (g1 * cosh(e) + g2 * fct2 * dl);
    double ee = exp(e);
    double p = ee / (gp * SF_PI), q = 1.0 / (ee * SF_PI * gm);
    double half = 0.5 * pimu, fct3 = fabs(half) < 1e-15 ? 1.0 : sin(half) / half;
    double r = SF_PI * half * fct3 * fct3;    // (2/mu) sin^2(mu pi / 2)
    double ck = 1.0, dd = -x2 * x2, sum = ff + r * q, sum1 = p;
    for (int i = 1; i <= 100; i++) {
      ff = (i * ff + p + q) / (i * i - mu * mu);
      ck *= dd / i;
      p /= i - mu;
      q /= i + mu;
      double del = ck * (ff + r * q);
      sum += del;
      double del1 = ck * p - i * del;
      sum1 += del1;
      if (fabs(del) <= 1e-17 * fabs(sum) && fabs(del1) <= 1e-17 * fabs(sum1)) break;
    }
    // x Y_mu+1 kept rather than Y_mu+1: at x = 1e-300 Y_mu+1 and Y'_mu
    // overflow while J_mu = (2/pi) / ((mu - x f) Y_mu - x Y_mu+1) does not
    ymu = -sum;
    double xy1 = -2.0 * sum1;
    if (up) {
      double y1 = xy1 / x;
      xy1 = 2.0 * (mu + 1.0) * y1 - x * ymu;
      ymu = y1;
      mu += 1.0;
    }
    ymu1 = xy1 / x;
    jmu = 2.0 / SF_PI / ((mu - x * f) * ymu - xy1);
  } else {
    // Steed's CF2: p + i q = (J'_mu + i Y'_mu) / (J_mu + i Y_mu) =
    // -1/(2x) + i + (i/x) a1 / hh, hh = b1 + a2/(b2 + a3/(b3 + ...)),
    // a_k = (2k-1)^2/4 - mu^2, b_k = 2(x + i k): hh by Lentz's method in
    // complex arithmetic
    double hr = 2.0 * x, hi = 2.0, cr = hr, ci = hi, dr = 0.0, di = 0.0;
    for (it = 2; it <= 100000; it++) {
      double ak = (it - 0.5) * (it - 0.5) - mu * mu, br = 2.0 * x, bi = 2.0 * it;
      dr = br + ak * dr;    // D = 1 / (b + a D)
      di = bi + ak * di;
      double den = dr * dr + di * di;
      if (den < SF_BV_TINY) { dr = 1e-150; di = 0.0; den = dr * dr; }
      dr /= den;
      di = -di / den;
      den = cr * cr + ci * ci;  // C = b + a / C (|C| >= 2x > 0)
      cr = br + ak * cr / den;
      ci = bi - ak * ci / den;
      double delr = cr * dr - ci * di, deli = cr * di + ci * dr;
      double tr = hr * delr - hi * deli;
      hi = hr * deli + hi * delr;
      hr = tr;
      if (fabs(delr - 1.0) + fabs(deli) < SF_BV_EPS) break;
    }
    double a1 = 0.25 - mu * mu, den = hr * hr + hi * hi;
    double gr = a1 * hr / den, gi = -a1 * hi / den;   // g = a1 / hh
    double p = -0.5 * xi - gi * xi, q = 1.0 + gr * xi;
    double gam = (p - f) / q;       // Y_mu / J_mu
    jmu = sqrt(w / ((p - f) * gam + q));
    if (jl < 0.0) jmu = -jmu;
    ymu = gam * jmu;
    double ymup = jmu * (gam * p + q);
    ymu1 = mu * xi * ymu - ymup;
  }
  *jv = sf_bv_unscale(jmu * (sgn / jl), esc);
  // Y upward: stable; the step past nu (Y_nu+1) may overflow where Y_nu
  // does not, and an overflow before nu is the answer's
  for (int i = 1; i <= nlw; i++) {
    double yt = fma((mu + i) * xi2, ymu1, -ymu);
    ymu = ymu1;
    ymu1 = yt;
    if (isinf(yt)) {
      if (i < nlw) ymu = yt;
      break;
    }
  }
  *yv = ymu;
}

// I_nu(x), K_nu(x) for nu >= 0, 0 < x < inf; scaled: I e^-x and K e^x
SF_BIG void sf_besik_v(double nu, double x, bool scaled, double *iv, double *kv) {
  double s[4];
  if (x >= 16.0 && sf_bessel_asym(nu, x, s)) {
    double k = 1.0 / sqrt(SF_2PI * x);
    double is = k * (s[0] + s[2] - s[1] - s[3]), ks = SF_PI * k * (s[0] + s[1] + s[2] + s[3]);
    if (scaled) {
      *iv = is;
      *kv = ks;
    } else {   // e^x in two halves, so that I past 709 does not overflow early
      double eh = exp(0.5 * x);
      *iv = is * eh * eh;
      *kv = ks / eh / eh;
    }
    return;
  }
  // I below every double (its bound (x/2)^nu e^(x^2 / (4 nu + 4)) / Gamma(nu + 1)), K beyond
  double lb = sf_bessel_lnbound(nu, x) + x * x / (4.0 * nu + 4.0) - (scaled ? x : 0.0);
  if (nu > x && lb < -750.0 - log(2.0 * (nu + x))) {
    *iv = 0.0;
    *kv = sf_inf();
    return;
  }
  double xi = 1.0 / x, xi2 = 2.0 * xi;
  double nld = floor(nu + 0.5);
  if (nld > SF_BV_MAXIT) { *iv = *kv = sf_nan(); return; }
  int nl = (int)nld;
  double mu = nu - nl;      // |mu| <= 1/2 for Temme's series and CF2
  // mu < 0: the Wronskian is applied at mu + 1 (at a negative order and
  // small x, f K and K' cancel), the recurrences stop there
  bool up = mu < 0.0;
  int nlw = nl - (up ? 1 : 0);
  // CF1: f = I'_nu / I_nu
  double h = fmax(nu * xi, SF_BV_TINY), b, d = 0.0, c = h;
  int it, maxit = (int)fmin((double)SF_BV_MAXIT, 10000.0 + 4.0 * x);
  for (it = 1; it <= maxit; it++) {
    b = (nu + it) * xi2;
    d = 1.0 / (b + d);
    c = b + 1.0 / c;
    double del = c * d;
    h *= del;
    if (fabs(del - 1.0) < SF_BV_EPS) break;
  }
  if (it > maxit) { *iv = *kv = sf_nan(); return; }
  // (I, I') from nu down to mu, I_nu = 1, rescaled as J's above
  double il = 1.0, ipl = h, esc = 0.0;
  for (int l = nlw; l >= 1; l--) {
    double t = fma((nu - (nlw - l)) * xi, il, ipl);
    ipl = fma((nu - (nlw - l + 1)) * xi, t, il);
    il = t;
    if (il > SF_BV_BIG) {
      il *= SF_BV_SMALL;
      ipl *= SF_BV_SMALL;
      esc += 500.0;
    }
  }
  double f = ipl / il;       // I'_muw / I_muw, muw = nu - nlw
  // K_mu, x K_mu+1 (scaled by e^x when asked, or held so: past x = 2, so
  // that K of x > 708 does not underflow and I overflow before the end)
  double kmu, xk1;
  bool held = false;
  if (x <= 2.0) {
    // Temme's series
    double x2 = 0.5 * x, pimu = SF_PI * mu;
    double fct = fabs(pimu) < 1e-15 ? 1.0 : pimu / sin(pimu);
    double dl = -log(x2), e = mu * dl;
    double fct2 = fabs(e) < 1e-15 ? 1.0 : sinh(e) / e;
    double g1, g2, gp, gm;
    sf_temme_gammas(mu, &g1, &g2, &gp, &gm);
    double ff = fct * (g1 * cosh(e) + g2 * fct2 * dl);
    double ee = exp(e);
    double p = 0.5 * ee / gp, q = 0.5 / (ee * gm);
    double ck = 1.0, dd = x2 * x2, sum = ff, sum1 = p;
    for (int i = 1; i <= 100; i++) {
      ff = (i * ff + p + q) / (i * i - mu * mu);
      ck *= dd / i;
      p /= i - mu;
      q /= i + mu;
      double del = ck * ff;
      sum += del;
      double del1 = ck * (p - i * ff);
      sum1 += del1;
      if (fabs(del) <= 1e-17 * fabs(sum) && fabs(del1) <= 1e-17 * fabs(sum1)) break;
    }
    kmu = sum;
    xk1 = 2.0 * sum1;     // x K_mu+1, as x Y_mu+1 above
    if (scaled) {
      double ex = exp(x);
      kmu *= ex;
      xk1 *= ex;
    }
  } else {
    // Temme's continued fraction for K (Steed's algorithm)
    double bb = 2.0 * (1.0 + x), dd = 1.0 / bb, hh = dd, delh = dd, q1 = 0.0, q2 = 1.0;
    double a1 = 0.25 - mu * mu, qq = a1, cc = a1, aa = -a1, ss = 1.0 + qq * delh;
    for (it = 2; it <= 100000; it++) {
      aa -= 2.0 * (it - 1);
      cc = -aa * cc / it;
      double qn = (q1 - bb * q2) / aa;
      q1 = q2;
      q2 = qn;
      qq += cc * qn;
      bb += 2.0;
      dd = 1.0 / (bb + aa * dd);
      delh = (bb * dd - 1.0) * delh;
      hh += delh;
      double dels = qq * delh;
      ss += dels;
      if (fabs(dels / ss) < SF_BV_EPS) break;
    }
    hh = a1 * hh;
    kmu = sqrt(SF_PI / (2.0 * x)) / ss;   // K e^x: e^-x is applied at the end
    held = true;
    xk1 = kmu * (mu + x + 0.5 - hh);
  }
  if (up) {
    double k1 = xk1 / x;
    xk1 = 2.0 * (mu + 1.0) * k1 + x * kmu;
    kmu = k1;
    mu += 1.0;
  }
  // the Wronskian I K' - I' K = -1/x: I_mu = 1 / ((x f - mu) K_mu + x K_mu+1)
  double imu = 1.0 / ((x * f - mu) * kmu + xk1);
  double k1 = xk1 / x;
  // e^x in two halves (e^x alone overflows past 709 where I need not)
  double eh = held && !scaled ? exp(0.5 * x) : 1.0;
  *iv = sf_bv_unscale(imu / il * eh * eh, esc);
  for (int i = 1; i <= nlw; i++) {      // K upward: stable (overflow as Y's)
    double t = fma((mu + i) * xi2, k1, kmu);
    kmu = k1;
    k1 = t;
    if (isinf(t)) {
      if (i < nlw) kmu = t;
      break;
    }
  }
  if (held && !scaled) kmu = kmu / eh / eh;
  *kv = kmu;
}

// J_|v| and Y_|v| at x >= 0 (x = 0: the limits)
SF_DEV void sf_besjy_abs(double nu, double x, double *j, double *y) {
  if (x == 0.0) {
    *j = nu == 0.0 ? 1.0 : 0.0;
    *y = -sf_inf();
  } else {
    sf_besjy_v(nu, x, j, y);
  }
}

// J_v(x): x < 0 only for integer v (J_v(-x) = (-1)^v J_v(x)); negative v by
// J_-nu = cos(nu pi) J_nu - sin(nu pi) Y_nu
SF_BIG double sf_jv(double v, double x) {
  if (isnan(v) || isnan(x)) return v + x;
  if (x < 0.0) {
    if (!sf_isint(v)) return sf_nan();
    double r = sf_jv(v, -x);
    return fmod(v, 2.0) != 0.0 ? -r : r;
  }
  if (isinf(v) || isinf(x)) return 0.0;
  double nu = fabs(v), j, y;
  sf_besjy_abs(nu, x, &j, &y);
  if (v >= 0.0) return j;
  double c = sf_cospi(nu), s = sf_sinpi(nu);
  if (s == 0.0) return c * j;
  if (c == 0.0) return -s * y;
  return c * j - s * y;
}

// Y_v(x), x >= 0; negative v by Y_-nu = sin(nu pi) J_nu + cos(nu pi) Y_nu
SF_BIG double sf_yv(double v, double x) {
  if (isnan(v) || isnan(x)) return v + x;
  if (x < 0.0 || isinf(v)) return sf_nan();
  if (isinf(x)) return 0.0;
  double nu = fabs(v), j, y;
  sf_besjy_abs(nu, x, &j, &y);
  if (v >= 0.0) return y;
  double c = sf_cospi(nu), s = sf_sinpi(nu);
  if (s == 0.0) return c * y;
  if (c == 0.0) return s * j;
  return s * j + c * y;
}

SF_BIG double sf_jve(double v, double x) { return sf_jv(v, x); }
SF_BIG double sf_yve(double v, double x) { return sf_yv(v, x); }

// I_v(x) (scaled: times e^-|x|): x < 0 only for integer v (I_v(-x) =
// (-1)^v I_v(x)); negative v by I_-nu = I_nu + (2/pi) sin(nu pi) K_nu
SF_BIG double sf_iv_any(double v, double x, bool scaled) {
  if (isnan(v) || isnan(x)) return v + x;
  if (x < 0.0) {
    if (!sf_isint(v)) return sf_nan();
    double r = sf_iv_any(v, -x, scaled);
    return fmod(v, 2.0) != 0.0 ? -r : r;
  }
  if (isinf(v)) return 0.0;
  if (isinf(x)) return scaled ? 0.0 : sf_inf();
  double nu = fabs(v), i, k;
  if (x == 0.0) {
    i = nu == 0.0 ? 1.0 : 0.0;
    k = sf_inf();
  } else {
    sf_besik_v(nu, x, scaled, &i, &k);
  }
  double s = sf_sinpi(nu);
  if (v >= 0.0 || s == 0.0) return i;
  // scaled: K e^x e^-2x = K e^-x
  return i + 2.0 / SF_PI * s * (scaled ? k * exp(-2.0 * x) : k);
}
SF_BIG double sf_iv(double v, double x) { return sf_iv_any(v, x, false); }
SF_BIG double sf_ive(double v, double x) { return sf_iv_any(v, x, true); }

// K_v(x) = K_-v(x), x >= 0 (scaled: times e^x)
SF_BIG double sf_kv_any(double v, double x, bool scaled) {
  if (isnan(v) || isnan(x)) return v + x;
  if (x < 0.0 || isinf(v)) return sf_nan();
  if (x == 0.0) return sf_inf();
  if (isinf(x)) return 0.0;
  double i, k;
  sf_besik_v(fabs(v), x, scaled, &i, &k);
  return k;
}
SF_BIG double sf_kv(double v, double x) { return sf_kv_any(v, x, false); }
SF_BIG double sf_kve(double v, double x) { return sf_kv_any(v, x, true); }

#endif
