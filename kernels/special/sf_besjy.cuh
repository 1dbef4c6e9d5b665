// sf_besjy.cuh: the Bessel functions of integer order j0 j1 y0 y1 yn.
// On [0, 5] Chebyshev series in x^2: J0 and J1 with their zeros there
// factored out (relative accuracy near them), Y0 and Y1 with their
// logarithms taken out. Past 5 the modulus and phase form
// J_n = sqrt(2/(pi x)) (P cos th - Q sin th),
// Y_n = sqrt(2/(pi x)) (P sin th + Q cos th), th = x - (2n + 1) pi/4,
// with P and Q Chebyshev series in (5/x)^2. Coefficients: tools/special/
// gen_coeffs.py besjy. The phase th is never formed: cos th and sin th
// come from sin x and cos x, which the math library reduces exactly for
// every x (x - pi/4 rounded would cost up to ulp(x)/2 of phase: 1e4 ulps
// of the result at x = 5000, as CUDA's own j0 shows).
#ifndef SF_BESJY_CUH
#define SF_BESJY_CUH

#define SF_1_SQRTPI 0.5641895835477562869480794515607725858
#define SF_2_PI 0.6366197723675813430755350534900574481
// e^euler / 2: log(C x) = log(x / 2) + euler in one rounding
#define SF_EXPEULER_2 0.8905362089950989574
#define SF_BESJY_X0 5.0

// x^2 - z for z = zh + zl (a square of a zero: two parts) with x^2 exact
// (fma), so that the difference keeps its relative accuracy near the zero
SF_DEV double sf_sqdiff(double x, double zh, double zl) {
  double y = x * x;
  return (y - zh) + (fma(x, x, -y) - zl);
}

// J0(x), J1(x) / x for |x| <= 5
SF_DEV double sf_j0_small(double x) {
  const double c[] = {
    3.43377519544300598489e-03, -1.97479451158600379651e-03, 2.47280234321152708830e-04,
    -1.79516559452987978262e-05, 8.61429947247603319204e-07, -2.95214256326848641217e-08,
    7.60923356935320305300e-10, -1.53130632465363290517e-11, 2.47530949795509077561e-13,
    -3.28667073046973322639e-15, 3.65013139550368860707e-17, -3.44188586922584942136e-19,
    2.79063111390715920279e-21};
  double r = sf_cheb(c, (int)(sizeof c / sizeof c[0]), x * x * (2.0 / 25.0) - 1.0);
  return r * sf_sqdiff(x, 5.7831859629467841, 4.123247343506204e-16) * sf_sqdiff(x, 30.471262343662087, -2.3665344857506588e-16);
}
SF_DEV double sf_j1x_small(double x) {
  const double c[] = {
    -1.80284158011662920540e-02, 1.36614870820633612508e-02, -2.16326515592380440312e-03,
    1.90949010366018906339e-04, -1.08161747369574518782e-05, 4.27888605625968595066e-07,
    -1.25133756435268095266e-08, 2.81834888439034151040e-10, -5.04256856727839578026e-12,
    7.34347631506432040162e-14, -8.87674410227827842017e-16, 9.05145472452883546878e-18,
    -7.89177705248178475664e-20};
  double r = sf_cheb(c, (int)(sizeof c / sizeof c[0]), x * x * (2.0 / 25.0) - 1.0);
  return r * sf_sqdiff(x, 14.681970642123893, -9.858177825793294e-17);
}
// Y0(x), Y1(x) for 0 < x <= 5
SF_DEV double sf_y0_small(double x) {
  const double c[] = {
    3.54480701069912029766e-01, -5.01641066433240689904e-01, 1.26786197013359164254e-01,
    -1.58504784579439998715e-02, 1.18091475761879379468e-03, -5.85151389739707163758e-05,
    2.07094065497900007574e-06, -5.50299785063009906041e-08, 1.13915849256773914252e-09,
    -1.88993560115914859637e-11, 2.57020818111960330796e-13, -2.91811114632615859573e-15,
    2.80831236183144784272e-17, -2.32039687682112447530e-19};
  double r = sf_cheb(c, (int)(sizeof c / sizeof c[0]), x * x * (2.0 / 25.0) - 1.0);
  return SF_2_PI * (log(SF_EXPEULER_2 * x) * sf_j0_small(x) + 0.25 * x * x * r);
}
SF_DEV double sf_y1_small(double x) {
  const double c[] = {
    1.08143569442536863212e-01, 2.33317469100300517448e-02, -4.80561518349280278328e-02,
    1.09312596958556513399e-02, -1.16756404013086310077e-03, 7.49806154118804222631e-05,
    -3.25215635060313766548e-06, 1.02196305629781812951e-07, -2.44054092627652767886e-09,
    4.58650600017100509732e-11, -6.96687876158355495587e-13, 8.73709659647941922874e-15,
    -9.20381749448383671672e-17, 8.26176316813085146552e-19};
  double r = x * sf_cheb(c, (int)(sizeof c / sizeof c[0]), x * x * (2.0 / 25.0) - 1.0);
  return r + SF_2_PI * (log(x / 2.0) * x * sf_j1x_small(x) - 1.0 / x);
}

// For x > 5: ss = sqrt 2 sin(x - pi/4) = sin x - cos x and cc = sqrt 2
// cos(x - pi/4) = sin x + cos x; the one of the two that cancels comes
// from their product, -cos 2x (2x exact), so both keep full accuracy near
// their zeros. k = 1 / sqrt(pi x).
SF_DEV void sf_besjy_phase(double x, double *ss, double *cc, double *k) {
  double s, c;
  sincos(x, &s, &c);
  *ss = s - c;
  *cc = s + c;
  if (x < 8.0e307) {
    double z = -cos(x + x);
    if (s * c < 0.0) *cc = z / *ss;
    else *ss = z / *cc;
  }
  *k = SF_1_SQRTPI / sqrt(x);
}
// P0, Q0 and P1, Q1 at x > 5
SF_DEV void sf_besjy_pq0(double x, double *p, double *q) {
  double t = 50.0 / x / x - 1.0;
  {
    const double c[] = {
      9.98652339877695416348e-01, -1.32937162125027993377e-03, 1.76130555129055912553e-05,
      -6.31936711873306863599e-07, 3.94882558709380777014e-08, -3.54096789480190870599e-09,
      4.10324636687238608965e-10, -5.76574766265522279228e-11, 9.42310557839198667330e-12,
      -1.74014057062838845266e-12, 3.55577500524117828580e-13, -7.91464150133811549262e-14,
      1.89594563629618276689e-14, -4.84148301917569733188e-15, 1.30785551959013384092e-15,
      -3.71405082141315401018e-16, 1.10302317787127696033e-16, -3.41093621049811421924e-17,
      1.09421878698102356479e-17, -3.62990567379529711718e-18, 1.24180288916732878867e-18,
      -4.37053929829447067252e-19, 1.57916903574011123490e-19};
    *p = sf_cheb(c, (int)(sizeof c / sizeof c[0]), t);
  }
  {
    const double c[] = {
      -1.23647025821674930168e-01, 1.31901940499226069843e-03, -3.21879912126617494282e-05,
      1.62370932056427889091e-06, -1.27432897420328053584e-07, 1.35130327631344085183e-08,
      -1.78507590511970509056e-09, 2.79085713479036024916e-10, -4.98890802765283275212e-11,
      9.95071366780664454948e-12, -2.17512060430088325466e-12, 5.14012716242760534654e-13,
      -1.29932426560591784559e-13, 3.48376357768897859056e-14, -9.84005757254373054336e-15,
      2.91152749185919986398e-15, -8.98215117130334377156e-16, 2.87776890655792477423e-16,
      -9.54290501173134310482e-17, 3.26581619436483661650e-17, -1.15051817853261607389e-17,
      4.16320426537859005743e-18, -1.54436914390036608981e-18, 5.86295923551917751616e-19,
      -2.27436422382505362442e-19, 9.00296195173501161547e-20, -3.63210166002839878124e-20,
      1.49174506679566255956e-20};
    *q = sf_cheb(c, (int)(sizeof c / sizeof c[0]), t) / x;
  }
}
SF_DEV void sf_besjy_pq1(double x, double *p, double *q) {
  double t = 50.0 / x / x - 1.0;
  {
    const double c[] = {
      1.00226762068534003269e+00, 2.24373529580799849562e-03, -2.30710188625482859911e-05,
      7.63918173253390505700e-07, -4.58968523234340084309e-08, 4.02051547841900123204e-09,
      -4.58677397717097222145e-10, 6.37315896285924632187e-11, -1.03273445676404118377e-11,
      1.89432749951110337860e-12, -3.84970338782410523835e-13, 8.52991452577904377828e-14,
      -2.03544697865722996091e-14, 5.18042173890054913162e-15, -1.39535021482584933545e-15,
      3.95236017133142569301e-16, -1.17111708012680290194e-16, 3.61407856473810876472e-17,
      -1.15723560532515177420e-17, 3.83247390674490727838e-18, -1.30907696750431010698e-18,
      4.60076736307423151224e-19, -1.66017479651147122464e-19};
    *p = sf_cheb(c, (int)(sizeof c / sizeof c[0]), t);
  }
  {
    const double c[] = {
      3.73087346214686366164e-01, -1.87051896810514774704e-03, 4.00569945204603056134e-05,
      -1.91440283908563213750e-06, 1.45881651074219899009e-07, -1.51833986446731651959e-08,
      1.97992226058951679565e-09, -3.06598144943769620745e-10, 5.44023359205975293766e-11,
      -1.07866521925384677150e-11, 2.34635283175889400558e-12, -5.52204685654182601333e-13,
      1.39097284813938293357e-13, -3.71815167521646143542e-14, 1.04740631178291674720e-14,
      -3.09178420291791203492e-15, 9.51805183108149889818e-16, -3.04364506670505171777e-16,
      1.00754875799974927534e-16, -3.44263066198132456762e-17, 1.21105039702216871748e-17,
      -4.37638890242832766435e-18, 1.62144440057473130255e-18, -6.14849414860862149409e-19,
      2.38257580275799884430e-19, -9.42187127683588072666e-20, 3.79753578247170838921e-20};
    *q = sf_cheb(c, (int)(sizeof c / sizeof c[0]), t) / x;
  }
}
// J0 Y0 (n = 0) or J1 Y1 (n = 1) at 5 < x < inf
SF_DEV void sf_besjy_big(int n, double x, double *j, double *y) {
  double ss, cc, k, p, q;
  sf_besjy_phase(x, &ss, &cc, &k);
  if (n == 0) {
    sf_besjy_pq0(x, &p, &q);
    *j = k * (p * cc - q * ss);
    *y = k * (p * ss + q * cc);
  } else {    // th = x - 3 pi/4: cos th = ss / sqrt 2, sin th = -cc / sqrt 2
    sf_besjy_pq1(x, &p, &q);
    *j = k * (p * ss + q * cc);
    *y = k * (q * ss - p * cc);
  }
}

SF_BIG double sf_j0(double x) {
  x = fabs(x);
  if (isnan(x)) return x;
  if (x <= SF_BESJY_X0) return sf_j0_small(x);
  if (isinf(x)) return 0.0;
  double j, y;
  sf_besjy_big(0, x, &j, &y);
  return j;
}
SF_BIG double sf_j1(double x) {
  double ax = fabs(x), r;
  if (isnan(x)) return x;
  if (ax <= SF_BESJY_X0) {
    r = ax * sf_j1x_small(ax);
  } else if (isinf(ax)) {
    r = 0.0;
  } else {
    double y;
    sf_besjy_big(1, ax, &r, &y);
  }
  return x < 0 ? -r : r;
}
SF_BIG double sf_y0(double x) {
  if (isnan(x)) return x;
  if (x < 0) return sf_nan();
  if (x == 0) return -sf_inf();
  if (x <= SF_BESJY_X0) return sf_y0_small(x);
  if (isinf(x)) return 0.0;
  double j, y;
  sf_besjy_big(0, x, &j, &y);
  return y;
}
SF_BIG double sf_y1(double x) {
  if (isnan(x)) return x;
  if (x < 0) return sf_nan();
  if (x == 0) return -sf_inf();
  if (x <= SF_BESJY_X0) return sf_y1_small(x);
  if (isinf(x)) return 0.0;
  double j, y;
  sf_besjy_big(1, x, &j, &y);
  return y;
}

// Y of integer order n (real n is truncated, as SciPy's dd loop does) by
// upward recurrence from Y0, Y1 (stable for Y); negative n by
// Y_-n = (-1)^n Y_n
SF_BIG double sf_yn(double nd, double x) {
  if (isnan(nd) || isnan(x)) return nd + x;
  int n = (int)fmax(fmin(nd, 2.0e9), -2.0e9);
  double s = 1.0;
  if (n < 0) { n = -n; if (n & 1) s = -1.0; }
  if (x < 0) return sf_nan();
  if (x == 0) return -s * sf_inf();
  if (isinf(x)) return 0.0;
  double a, b, j;
  if (x <= SF_BESJY_X0) {
    a = sf_y0_small(x);
    if (n == 0) return s * a;
    b = sf_y1_small(x);
  } else {
    sf_besjy_big(0, x, &j, &a);
    if (n == 0) return s * a;
    sf_besjy_big(1, x, &j, &b);
  }
  for (int i = 1; i < n && isfinite(b); i++) {
    double c = fma(2.0 * i / x, b, -a);   // fma: as NVRTC contracts it on the device
    a = b;
    b = c;
  }
  return s * b;
}

#endif
