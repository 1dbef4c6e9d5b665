--- The CUDA that ndimage's kernels share, as SciPy 1.10's C has it:
-- where a boundary mode sends a position (filters) or a coordinate
-- (interpolation), the B-spline weights of orders 0-5, and the B-spline
-- prefilter of one line (the causal/anticausal recursion with each mode's
-- initial values). The functions are GND_HD: __device__ in kernels, plain
-- C++ where spec/scipy/ndimage/cuda_host_spec.lua compiles them with the
-- host compiler and compares them with SciPy's numbers.
local C = {}

C.SOURCE = [[
#ifndef GND_HD
#define GND_HD __device__ __forceinline__
#endif
// SciPy's mode codes (_ni_support._extend_mode_to_code)
#define GND_NEAREST 0
#define GND_WRAP 1
#define GND_REFLECT 2
#define GND_MIRROR 3
#define GND_CONSTANT 4
#define GND_GRID_WRAP 5
#define GND_GRID_CONSTANT 6

// Filters: the position read for position j on an axis of n, or -1 for
// cval. reflect repeats with period 2n (the edge sample twice), mirror
// with 2n - 2, wrap with n: SciPy extends its line buffers the same way
// for any reach.
GND_HD long long gnd_fix(long long j, long long n, int mode) {
  if (j >= 0 && j < n) return j;
  switch (mode) {
  case GND_NEAREST: return j < 0 ? 0 : n - 1;
  case GND_WRAP: case GND_GRID_WRAP: {
    long long r = j % n;
    return r < 0 ? r + n : r;
  }
  case GND_REFLECT: {
    if (n == 1) return 0;
    const long long p = 2 * n;
    long long r = j % p;
    if (r < 0) r += p;
    return r < n ? r : p - 1 - r;
  }
  case GND_MIRROR: {
    if (n == 1) return 0;
    const long long p = 2 * n - 2;
    long long r = j % p;
    if (r < 0) r += p;
    return r < n ? r : p - r;
  }
  default: return -1;
  }
}

// Interpolation: a coordinate outside [0, len - 1] mapped as SciPy's
// map_coordinate does (wrap has period len - 1 there, grid-wrap len);
// -1 stands for cval (constant). nearest and grid-constant are not mapped.
GND_HD double gnd_map_coord(double in, long long len, int mode) {
  if (in < 0) {
    switch (mode) {
    case GND_MIRROR:
      if (len <= 1) return 0;
      {
        const long long sz2 = 2 * len - 2;
        in = sz2 * (double)(long long)(-in / sz2) + in;
        return in <= 1 - len ? in + sz2 : -in;
      }
    case GND_REFLECT:
      if (len <= 1) return 0;
      {
        const long long sz2 = 2 * len;
        if (in < -sz2) in = sz2 * (double)(long long)(-in / sz2) + in;
        return in < -len ? in + sz2 : -in - 1;
      }
    case GND_WRAP:
      if (len <= 1) return 0;
      {
        const long long sz = len - 1;
        return in + sz * (double)((long long)(-in / sz) + 1);
      }
    case GND_GRID_WRAP:
      if (len <= 1) return 0;
      return in + len * (double)((long long)((-1 - in) / len) + 1);
    case GND_NEAREST: return 0;
    case GND_CONSTANT: return -1;
    default: return in;
    }
  } else if (in > len - 1) {
    switch (mode) {
    case GND_MIRROR:
      if (len <= 1) return 0;
      {
        const long long sz2 = 2 * len - 2;
        in -= sz2 * (double)(long long)(in / sz2);
        return in >= len ? sz2 - in : in;
      }
    case GND_REFLECT:
      if (len <= 1) return 0;
      {
        const long long sz2 = 2 * len;
        in -= sz2 * (double)(long long)(in / sz2);
        return in >= len ? sz2 - in - 1 : in;
      }
    case GND_WRAP:
      if (len <= 1) return 0;
      {
        const long long sz = len - 1;
        return in - sz * (double)(long long)(in / sz);
      }
    case GND_GRID_WRAP:
      if (len <= 1) return 0;
      return in - len * (double)(long long)(in / len);
    case GND_NEAREST: return (double)(len - 1);
    case GND_CONSTANT: return -1;
    default: return in;
    }
  }
  return in;
}

// The mode the spline's taps are read with: constant and wrap have no
// exact prefilter and read mirrored taps (SciPy's _get_spline_boundary_mode)
GND_HD int gnd_tap_mode(int mode) {
  return (mode == GND_CONSTANT || mode == GND_WRAP) ? GND_MIRROR : mode;
}

// The first tap of a spline of this order around coordinate x
GND_HD long long gnd_spline_start(double x, int order) {
  return (order & 1) ? (long long)floor(x) - order / 2 : (long long)floor(x + 0.5) - order / 2;
}

// The order + 1 B-spline weights at x, taps from gnd_spline_start
GND_HD void gnd_spline_weights(double x, int order, double *w) {
  const double start = (double)gnd_spline_start(x, order);
  for (int h = 0; h <= order; ++h) {
    double y = fabs(start - x + h), r = 0.0;
    switch (order) {
    case 0: r = 1.0; break;
    case 1: r = y > 1.0 ? 0.0 : 1.0 - y; break;
    case 2:
      if (y < 0.5) r = 0.75 - y * y;
      else if (y < 1.5) { y = 1.5 - y; r = 0.5 * y * y; }
      break;
    case 3:
      if (y < 1.0) r = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
      else if (y < 2.0) { y = 2.0 - y; r = y * y * y / 6.0; }
      break;
    case 4:
      if (y < 0.5) { y *= y; r = y * (y * 0.25 - 0.625) + 115.0 / 192.0; }
      else if (y < 1.5) r = y * (y * (y * (5.0 / 6.0 - y / 6.0) - 1.25) + 5.0 / 24.0) + 55.0 / 96.0;
      else if (y < 2.5) { y -= 2.5; y *= y; r = y * y / 24.0; }
      break;
    case 5:
      if (y < 1.0) { const double f = y * y; r = f * (f * (0.25 - y / 12.0) - 0.5) + 0.55; }
      else if (y < 2.0) r = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425;
      else if (y < 3.0) { const double f = 3.0 - y; y = f * f; r = f * y * y / 120.0; }
      break;
    }
    w[h] = r;
  }
}

// One axis of an interpolation: the taps (positions, -1 for cval) and
// weights around coordinate c (prepadding already added) on an axis of
// n, or false when the point takes cval (SciPy's NI_GeometricTransform,
// per axis)
GND_HD bool gnd_axis_taps(double c, long long n, int mode, int order, long long *idx, double *w) {
  if (mode != GND_GRID_CONSTANT && mode != GND_NEAREST) {
    c = gnd_map_coord(c, n, mode);
    if (!(c > -1.0)) return false;
  }
  const long long start = gnd_spline_start(c, order);
  const int tm = gnd_tap_mode(mode);
  for (int t = 0; t <= order; ++t) idx[t] = gnd_fix(start + t, n, tm);
  gnd_spline_weights(c, order, w);
  return true;
}

// The B-spline prefilter's poles for orders 2-5
GND_HD int gnd_spline_poles(int order, double *z) {
  switch (order) {
  case 2: z[0] = sqrt(8.0) - 3.0; return 1;
  case 3: z[0] = sqrt(3.0) - 2.0; return 1;
  case 4:
    z[0] = sqrt(664.0 - sqrt(438976.0)) + sqrt(304.0) - 19.0;
    z[1] = sqrt(664.0 + sqrt(438976.0)) - sqrt(304.0) - 19.0;
    return 2;
  case 5:
    z[0] = sqrt(67.5 - sqrt(4436.25)) + sqrt(26.25) - 6.5;
    z[1] = sqrt(67.5 + sqrt(4436.25)) - sqrt(26.25) - 6.5;
    return 2;
  }
  return 0;
}

// One line c[0], c[s], ..., c[(n-1)s] filtered in place (n > 1): the gain,
// then per pole the causal pass from its initial value and the
// anticausal pass from its own. mirror's initial values serve constant,
// grid-constant, mirror and wrap; reflect's serve reflect and nearest;
// grid-wrap has its own (SciPy's ni_splines.c, apply_filter).
GND_HD void gnd_spline_line(double *c, long long n, long long s, int order, int mode) {
  double zs[2];
  const int np = gnd_spline_poles(order, zs);
  double gain = 1.0;
  for (int k = 0; k < np; ++k) gain *= (1.0 - zs[k]) * (1.0 - 1.0 / zs[k]);
  for (long long i = 0; i < n; ++i) c[i * s] *= gain;
  const int kind = (mode == GND_GRID_WRAP) ? 2 : (mode == GND_REFLECT || mode == GND_NEAREST) ? 1 : 0;
  for (int k = 0; k < np; ++k) {
    const double z = zs[k];
    // causal initial value
    if (kind == 0) {
      double zi = z;
      const double zn1 = pow(z, (double)(n - 1));
      double c0 = c[0] + zn1 * c[(n - 1) * s];
      for (long long i = 1; i < n - 1; ++i) {
        c0 += zi * (c[i * s] + zn1 * c[(n - 1 - i) * s]);
        zi *= z;
      }
      c[0] = c0 / (1 - zn1 * zn1);
    } else if (kind == 1) {
      // accumulated in place, as SciPy does: its last term reads the
      // partly summed c[0] (an O(z^n) difference from the exact sum)
      double zi = z;
      const double zn = pow(z, (double)n);
      const double first = c[0];
      c[0] = c[0] + zn * c[(n - 1) * s];
      for (long long i = 1; i < n; ++i) {
        c[0] += zi * (c[i * s] + zn * c[(n - 1 - i) * s]);
        zi *= z;
      }
      c[0] *= z / (1 - zn * zn);
      c[0] += first;
    } else {
      double zi = z;
      double c0 = c[0];
      for (long long i = 1; i < n; ++i) {
        c0 += zi * c[(n - i) * s];
        zi *= z;
      }
      c[0] = c0 / (1 - zi);
    }
    for (long long i = 1; i < n; ++i) c[i * s] += z * c[(i - 1) * s];
    // anticausal initial value
    if (kind == 0) {
      c[(n - 1) * s] = (z * c[(n - 2) * s] + c[(n - 1) * s]) * z / (z * z - 1);
    } else if (kind == 1) {
      c[(n - 1) * s] *= z / (z - 1);
    } else {
      double zi = z;
      double cl = c[(n - 1) * s];
      for (long long i = 0; i < n - 1; ++i) {
        cl += zi * c[i * s];
        zi *= z;
      }
      c[(n - 1) * s] = cl * z / (zi - 1);
    }
    for (long long i = n - 2; i >= 0; --i) c[i * s] = z * (c[(i + 1) * s] - c[i * s]);
  }
}

// SciPy's cast of an interpolated value: integers round half away from
// zero and saturate, unsigned ones clamp at 0 (CASE_INTERP_OUT_INT/UINT)
GND_HD double gnd_round_int(double t, double lo, double hi) {
  t = t > 0 ? t + 0.5 : (lo < 0 ? t - 0.5 : 0.0);
  t = t > hi ? hi : t;
  t = t < lo ? lo : t;
  return t;
}
]]

return C
