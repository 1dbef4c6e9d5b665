--- The evaluation kernels of ga.scipy.interpolate: one ElementwiseKernel
-- per evaluation, one thread per (query, column): a binary search of the
-- breakpoints (or knots), then the piece's polynomial. Fitting (the
-- spline systems) runs on the host in Lua (interpolate/solve.lua): the
-- systems are banded and small next to the evaluations.
return function(ga)
  local K = {}
  local cache = {}
  local function ek(name, ...)
    local args = { ... }
    return function()
      local k = cache[name]
      if not k then
        k = ga.ElementwiseKernel(table.unpack(args))
        cache[name] = k
      end
      return k
    end
  end

  local SEARCH = [[
// the piece of x among m pieces of ascending breakpoints b[0..m]: the
// last b[j] <= x, clamped to [0, m - 1] (SciPy's find_interval)
__device__ __forceinline__ long long gip_interval(const double *b, long long m, double x) {
  if (x < b[0]) return 0;
  if (x >= b[m]) return m - 1;
  long long lo = 0, hi = m;
  while (hi - lo > 1) {
    const long long mid = (lo + hi) / 2;
    if (x < b[mid]) hi = mid; else lo = mid;
  }
  return lo;
}
]]

  K.SEARCH = SEARCH   -- the tensor-product kernels (interpolate/tensor.lua) search the same way

  --- PPoly: c (k, m, r) float64, breakpoints bp (m + 1); ext 0: NaN
  -- outside, 1: extrapolate, 2: periodic
  K.ppoly = ek("ppoly", "raw X xq, raw float64 c, raw float64 bp, int64 k, int64 m, int64 r, int32 nu, int32 ext",
    "float64 y", [[
const long long q = i / r, col = i % r;
double xv = (double)xq[q];
const double a = bp[0], b = bp[m];
if (ext == 2 && xv == xv) xv = a + fmod(fmod(xv - a, b - a) + (b - a), b - a);
if (xv != xv || (ext == 0 && (xv < a || xv > b))) {
  y = __longlong_as_double(0x7ff8000000000000LL);
} else {
  const long long j = gip_interval(&bp[0], m, xv);
  const double s = xv - bp[j];
  double res = 0.0, z = 1.0;
  // sum over powers from the lowest: c[k-1-p] * p! / (p-nu)! * s^(p-nu)
  for (long long p = nu; p < k; ++p) {
    double f = 1.0;
    for (long long t = p - nu + 1; t <= p; ++t) f *= (double)t;
    res += c[((k - 1 - p) * m + j) * r + col] * f * z;
    z *= s;
  }
  y = res;
}
]], "gip_ppoly", { preamble = SEARCH })

  --- BPoly: Bernstein coefficients c (k, m, r)
  K.bpoly = ek("bpoly", "raw X xq, raw float64 c, raw float64 bp, int64 k, int64 m, int64 r, int32 ext", "float64 y", [[
const long long q = i / r, col = i % r;
const double xv = (double)xq[q];
if (xv != xv || (ext == 0 && (xv < bp[0] || xv > bp[m]))) {
  y = __longlong_as_double(0x7ff8000000000000LL);
} else {
  const long long j = gip_interval(&bp[0], m, xv);
  const double h = bp[j + 1] - bp[j];
  const double s = (xv - bp[j]) / h;
  const long long deg = k - 1;
  double res = 0.0, binom = 1.0;
  for (long long a = 0; a <= deg; ++a) {
    res += c[(a * m + j) * r + col] * binom * pow(s, (double)a) * pow(1.0 - s, (double)(deg - a));
    binom = binom * (double)(deg - a) / (double)(a + 1);
  }
  y = res;
}
]], "gip_bpoly", { preamble = SEARCH })

  --- BSpline: knots t (n + k + 1), coefficients c (n, r); de Boor
  K.bspline = ek("bspline", "raw X xq, raw float64 t, raw float64 c, int64 n, int64 k, int64 r, bool ext",
    "float64 y", [[
const long long q = i / r, col = i % r;
const double xv = (double)xq[q];
if (xv != xv || (!ext && (xv < t[k] || xv > t[n]))) {
  y = __longlong_as_double(0x7ff8000000000000LL);
} else {
  // the interval l with t[l] <= x < t[l+1], k <= l <= n - 1
  const long long l = k + gip_interval(&t[k], n - k, xv);
  double d[32];
  for (long long j = 0; j <= k; ++j) d[j] = c[(l - k + j) * r + col];
  for (long long rr = 1; rr <= k; ++rr) {
    for (long long j = k; j >= rr; --j) {
      const long long ii = l - k + j;
      const double den = t[ii + k + 1 - rr] - t[ii];
      const double alpha = den != 0.0 ? (xv - t[ii]) / den : 0.0;
      d[j] = (1.0 - alpha) * d[j - 1] + alpha * d[j];
    }
  }
  y = d[k];
}
]], "gip_bspline", { preamble = SEARCH })

  --- interp1d's linear / nearest / nearest-up / previous / next: xp, yp
  -- (n, r) in the y dtype; kind 0..4; outside: fill below/above, or
  -- extrapolate (linear and nearest)
  K.simple = ek("simple", [[raw X xq, raw float64 xp, raw Y yp, int64 n, int64 r, int32 kind, bool extrap,
                            float64 below, float64 above]], "Y y", [[
const long long q = i / r, col = i % r;
const double xv = (double)xq[q];
const double x0 = xp[0], x1 = xp[n - 1];
if (xv != xv) { y = (Y)xv; }
else if (!extrap && xv < x0) { y = (Y)below; }
else if (!extrap && xv > x1) { y = (Y)above; }
else if (n == 1) { y = yp[col]; }
else {
  // the last xp[j] < xv (searchsorted left, minus one), in [0, n - 2]
  long long lo = 0, hi = n;
  while (lo < hi) { const long long mid = (lo + hi) / 2; if (xp[mid] < xv) lo = mid + 1; else hi = mid; }
  long long j = lo - 1;
  if (j < 0) j = 0;
  if (j > n - 2) j = n - 2;
  const double a = xp[j], b = xp[j + 1];
  if (kind == 0) {
    const Y ya = yp[j * r + col], yb = yp[(j + 1) * r + col];
    const Y slope = (Y)((double)(yb - ya) / (b - a));
    y = (Y)(slope * (Y)(xv - a) + ya);
  } else if (kind == 1 || kind == 2) {
    // nearest rounds half down, nearest-up half up (SciPy's midpoints)
    const double mid = 0.5 * (a + b);
    const bool up = kind == 1 ? xv > mid : xv >= mid;
    y = yp[(up ? j + 1 : j) * r + col];
  } else if (kind == 3) {
    // previous: the last xp <= xv
    long long lo2 = 0, hi2 = n;
    while (lo2 < hi2) { const long long mid = (lo2 + hi2) / 2; if (xp[mid] <= xv) lo2 = mid + 1; else hi2 = mid; }
    long long p = lo2 - 1; if (p < 0) p = 0;
    y = yp[p * r + col];
  } else {
    // next: the first xp >= xv
    long long p = lo; if (p > n - 1) p = n - 1;
    y = yp[p * r + col];
  }
}
]], "gip_simple")

  --- Krogh (Newton form): p(x) = sum c_j prod_{l<j} (x - xi_l)
  K.newton = ek("newton", "raw X xq, raw float64 xi, raw float64 c, int64 n, int64 r", "float64 y", [[
const long long q = i / r, col = i % r;
const double xv = (double)xq[q];
double p = c[(n - 1) * r + col];
for (long long j = n - 2; j >= 0; --j) p = p * (xv - xi[j]) + c[j * r + col];
y = p;
]], "gip_newton")

  --- barycentric: sum w_j y_j / (x - x_j) / sum w_j / (x - x_j)
  K.bary = ek("bary", "raw X xq, raw float64 xi, raw float64 w, raw float64 yi, int64 n, int64 r", "float64 y", [[
const long long q = i / r, col = i % r;
const double xv = (double)xq[q];
double num = 0.0, den = 0.0;
long long hit = -1;
for (long long j = 0; j < n; ++j) {
  const double d = xv - xi[j];
  if (d == 0.0) { hit = j; break; }
  const double t = w[j] / d;
  num += t * yi[j * r + col];
  den += t;
}
y = hit >= 0 ? yi[hit * r + col] : num / den;
]], "gip_bary")

  --- every kernel compiled for float64 queries (the CPU specs run it)
  function K.compile_all()
    K.ppoly():compile("float64", "float64", "float64", "int64", "int64", "int64", "int32", "int32", "float64")
    K.bpoly():compile("float32", "float64", "float64", "int64", "int64", "int64", "int32", "float64")
    K.bspline():compile("float64", "float64", "float64", "int64", "int64", "int64", "bool", "float64")
    K.simple():compile("float32", "float64", "float32", "int64", "int64", "int32", "bool", "float64", "float64",
                       "float32")
    K.newton():compile("float64", "float64", "float64", "int64", "int64", "float64")
    K.bary():compile("float64", "float64", "float64", "float64", "int64", "int64", "float64")
    return true
  end

  return K
end
