// interp.cuh: NumPy's interp for one query (lua/gpuarray/math/interp.lua;
// the key interp_f32_2^24_ms times it). xp increasing (not checked, as
// NumPy), n >= 1 knots read through raw views, everything in double as
// NumPy computes: below xp[0] left, above xp[n-1] right, at a knot its
// value, else the line through the two knots around x (NumPy's fallbacks
// when that gives NaN: the line from the right knot, then the common value
// of equal knots).
template <typename XP, typename FP>
__device__ __forceinline__ double ga_interp(double x, const XP &xp, const FP &fp, long long n, double left,
                                            double right) {
  if (x != x) return x;
  if (x > (double)xp[n - 1]) return right;
  if (x < (double)xp[0]) return left;
  if (x == (double)xp[n - 1]) return (double)fp[n - 1];
  // xp[lo] <= x < xp[hi]
  long long lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    long long mid = (lo + hi) >> 1;
    if ((double)xp[mid] <= x) lo = mid;
    else hi = mid;
  }
  double x0 = (double)xp[lo], y0 = (double)fp[lo];
  if (x == x0) return y0;
  double x1 = (double)xp[lo + 1], y1 = (double)fp[lo + 1];
  double slope = (y1 - y0) / (x1 - x0);
  double r = slope * (x - x0) + y0;
  if (r != r) {
    r = slope * (x - x1) + y1;
    if (r != r && y0 == y1) r = y0;
  }
  return r;
}
