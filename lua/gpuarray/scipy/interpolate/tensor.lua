--- Tensor-product interpolants in N-D (N <= 8): NdPPoly (piecewise
-- polynomials on a rectilinear grid of breakpoints) and NdBSpline
-- (tensor-product B-splines). Evaluation on the GPU, one thread per
-- (query, value column): a binary search per axis, then the sum over
-- the piece's coefficients (prod k_d of them for NdPPoly, prod (k_d + 1)
-- for NdBSpline, whose basis values per axis come from de Boor's
-- recursion, derivatives included).
return function(ga, I, C)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local MAXD, MAXK = 8, 15

  local NAN = "__longlong_as_double(0x7ff8000000000000LL)"

  local PPOLY = [=[
const long long q = i / r, col = i % r;
long long base = col;
bool out = false;
double s[8];
for (int d = 0; d < n; ++d) {
  const double xv = x[q * n + d];
  const double *b = &bp[off[d]];
  const long long md = m[d];
  if (xv != xv || (!ext && (xv < b[0] || xv > b[md]))) out = true;
  const long long j = gip_interval(b, md, xv);
  s[d] = xv - b[j];
  base += j * st[n + d];
}
if (out) {
  y = NAN_;
} else {
  long long p[8];
  bool zero = false;
  for (int d = 0; d < n; ++d) {
    p[d] = nu[d];
    if (nu[d] >= k[d]) zero = true;
  }
  double res = 0.0;
  while (!zero) {
    double term = 1.0;
    long long idx = base;
    for (int d = 0; d < n; ++d) {
      idx += (k[d] - 1 - p[d]) * st[d];
      for (long long t = p[d] - nu[d] + 1; t <= p[d]; ++t) term *= (double)t;
      for (long long t = 0; t < p[d] - nu[d]; ++t) term *= s[d];
    }
    res += c[idx] * term;
    int d = n - 1;
    while (d >= 0 && ++p[d] >= k[d]) {
      p[d] = nu[d];
      d--;
    }
    if (d < 0) break;
  }
  y = res;
}
]=]

  -- the k + 1 basis functions (their nu-th derivatives) nonzero at xv on
  -- the knot interval [t[l], t[l + 1]): B_{l-k+a} for a = 0..k into h
  local BASIS = [=[
__device__ void gip_basis(const double *t, long long l, int k, int nu, double xv, double *h) {
  double hh[16];
  h[0] = 1.0;
  for (int j = 1; j <= k; ++j) {
    for (int a = 0; a < j; ++a) hh[a] = h[a];
    h[0] = 0.0;
    for (int a = 1; a <= j; ++a) {
      const double xb = t[l + a], xa = t[l + a - j];
      if (xb == xa) {
        h[a] = 0.0;
        continue;
      }
      if (j <= k - nu) {
        const double w = hh[a - 1] / (xb - xa);
        h[a - 1] += w * (xb - xv);
        h[a] = w * (xv - xa);
      } else {
        const double w = j * hh[a - 1] / (xb - xa);
        h[a - 1] -= w;
        h[a] = w;
      }
    }
  }
}
]=]

  local BSPL = [=[
const long long q = i / r, col = i % r;
double B[8 * 16];
long long base = col;
bool out = false;
for (int d = 0; d < n; ++d) {
  const double xv = x[q * n + d];
  const double *t = &tk[off[d]];
  const int kd = (int)k[d];
  const long long nd = nc[d];
  if (xv != xv || (!ext && (xv < t[kd] || xv > t[nd]))) out = true;
  const long long l = kd + gip_interval(&t[kd], nd - kd, xv);
  gip_basis(t, l, kd, (int)nu[d], xv, &B[d * 16]);
  base += (l - kd) * st[d];
}
if (out) {
  y = NAN_;
} else {
  long long a[8];
  for (int d = 0; d < n; ++d) a[d] = 0;
  double res = 0.0;
  for (;;) {
    double term = 1.0;
    long long idx = base;
    for (int d = 0; d < n; ++d) {
      term *= B[d * 16 + a[d]];
      idx += a[d] * st[d];
    }
    res += c[idx] * term;
    int d = n - 1;
    while (d >= 0 && ++a[d] > k[d]) {
      a[d] = 0;
      d--;
    }
    if (d < 0) break;
  }
  y = res;
}
]=]

  local kernels = {}
  local function kernel(which)
    if not kernels[which] then
      local pre = C.K.SEARCH .. "#define NAN_ " .. NAN .. "\n"
      if which == "ppoly" then
        kernels.ppoly = ga.ElementwiseKernel(
          "raw float64 x, raw float64 c, raw float64 bp, raw int64 off, raw int64 m, raw int64 k, raw int64 st, " ..
          "raw int64 nu, int32 n, int64 r, bool ext", "float64 y", PPOLY, "gip_ndppoly", { preamble = pre })
      else
        kernels.bspl = ga.ElementwiseKernel(
          "raw float64 x, raw float64 c, raw float64 tk, raw int64 off, raw int64 nc, raw int64 k, raw int64 st, " ..
          "raw int64 nu, int32 n, int64 r, bool ext", "float64 y", BSPL, "gip_ndbspline",
          { preamble = pre .. BASIS })
      end
    end
    return kernels[which]
  end
  I._tensor_kernel = kernel

  -- a list of n 1-D float64 host lists from a list of array_likes
  local function axes_of(list, fname, what)
    if type(list) ~= "table" or is_array(list) then
      fail(("%s: %s must be a list of 1-D arrays"):format(fname, what))
    end
    local out = {}
    for d, v in ipairs(list) do out[d] = C.list(v, fname, what .. "[" .. d .. "]") end
    if #out < 1 or #out > MAXD then fail(("%s: %s must have 1 to %d entries"):format(fname, what, MAXD)) end
    return out
  end

  -- the queries (..., n) as (q, n) float64 and the leading shape
  local function queries(xi, n, fname)
    local x = is_array(xi) and xi or ga.asarray(xi)
    if n == 1 and (x.ndim == 0 or x.shape[x.ndim] ~= 1) then
      local shape = x.shape
      shape[#shape + 1] = 1
      x = x:reshape(shape)
    end
    if x.ndim == 0 or x.shape[x.ndim] ~= n then
      fail(("%s: the last axis of x must have %d entries"):format(fname, n))
    end
    local lead = x.shape
    lead[#lead] = nil
    return ga.ascontiguousarray(x:astype("float64")):reshape(-1, n), lead
  end

  -- derivative orders: nil (zeros) or a list of n non-negative integers
  local function orders(nu, n, fname)
    local out = {}
    for d = 1, n do
      local v = nu and nu[d] or 0
      if math.type(v) ~= "integer" or v < 0 then fail(fname .. ": nu must be non-negative integers, one per axis") end
      out[d] = v
    end
    if nu and #nu ~= n then fail(("%s: nu must have %d entries"):format(fname, n)) end
    return ga.array(out, "int64")
  end

  -- strides (in elements) of a C-ordered shape
  local function strides(shape)
    local st, acc = {}, 1
    for d = #shape, 1, -1 do
      st[d] = acc
      acc = acc * shape[d]
    end
    return st
  end

  local function flat_axes(axes)
    local flat, off = {}, {}
    for d, a in ipairs(axes) do
      off[d] = #flat
      for _, v in ipairs(a) do flat[#flat + 1] = v end
    end
    return ga.array(flat, "float64"), ga.array(off, "int64")
  end

  local function shaped(y, lead, trail)
    local shape = {}
    for _, s in ipairs(lead) do shape[#shape + 1] = s end
    for _, s in ipairs(trail) do shape[#shape + 1] = s end
    return y:reshape(shape)
  end

  -------------------------------------------------------------------------
  -- NdPPoly

  local NP = { __name = "gpuarray.NdPPoly" }
  api.set_type("NdPPoly", function(v) return getmetatable(v) == NP end)

  local function np_call(self, xi, nu, extrapolate, fname)
    local n = #self.xs
    if extrapolate == nil then extrapolate = self.extrapolate end
    local q, lead = queries(xi, n, fname)
    local nus = orders(nu, n, fname)
    local y = ga.empty(q.shape[1] * self.r, "float64")
    if y.size > 0 then
      local d = self._dev
      kernel("ppoly")(q, d.c, d.bp, d.off, d.m, d.k, d.st, nus, ga.int32(n), self.r, extrapolate and true or false, y)
    end
    return shaped(y, lead, self.trail)
  end
  NP.__call = function(self, xi, nu, extrapolate) return np_call(self, xi, nu, extrapolate, "NdPPoly") end


  api.def(I, [[
scipy.interpolate.NdPPoly(c: array_like, x: list, extrapolate: boolean = true) -> NdPPoly
A piecewise polynomial on the rectilinear grid of breakpoints x (a list of ndim ascending 1-D arrays):
c has shape (k_1, ..., k_n, m_1, ..., m_n, ...), the power k_d - 1 - p of axis d first. Call p(x[, nu,
extrapolate]) with x (..., ndim); outside the breakpoints NaN unless extrapolate.
]], function(c, x, extrapolate)
    local fname = "scipy.interpolate.NdPPoly"
    local xs = axes_of(x, fname, "x")
    local n = #xs
    local ca = is_array(c) and c or ga.asarray(c)
    if ca.ndim < 2 * n then fail(("%s: c must have at least %d dimensions"):format(fname, 2 * n)) end
    local ks, ms = {}, {}
    for d = 1, n do
      C.check_increasing(xs[d], fname)
      ks[d], ms[d] = ca.shape[d], ca.shape[n + d]
      if ms[d] ~= #xs[d] - 1 then
        fail(("%s: number of breakpoints on axis %d is not consistent with c"):format(fname, d))
      end
      if ks[d] < 1 then fail(fname .. ": c must have at least one power per axis") end
    end
    local trail, r = {}, 1
    for d = 2 * n + 1, ca.ndim do
      trail[#trail + 1] = ca.shape[d]
      r = r * ca.shape[d]
    end
    local cf = ga.ascontiguousarray(ca:astype("float64"))
    local st = strides(cf.shape)
    local sts = {}
    for d = 1, 2 * n do sts[d] = st[d] end
    local bp, off = flat_axes(xs)
    local obj = { xs = xs, r = r, trail = trail, extrapolate = extrapolate, c = cf,
                  _dev = { c = cf:reshape(-1), bp = bp, off = off, m = ga.array(ms, "int64"),
                           k = ga.array(ks, "int64"), st = ga.array(sts, "int64") } }
    obj.x = {}
    for d = 1, n do obj.x[d] = ga.array(xs[d], "float64") end
    return setmetatable(obj, NP)
  end)

  -------------------------------------------------------------------------
  -- NdBSpline

  local NB = { __name = "gpuarray.NdBSpline" }
  api.set_type("NdBSpline", function(v) return getmetatable(v) == NB end)

  local function nb_call(self, xi, nu, extrapolate, fname)
    local n = #self.tk
    if extrapolate == nil then extrapolate = self.extrapolate end
    local q, lead = queries(xi, n, fname)
    local nus = orders(nu, n, fname)
    local y = ga.empty(q.shape[1] * self.r, "float64")
    if y.size > 0 then
      local d = self._dev
      kernel("bspl")(q, d.c, d.t, d.off, d.nc, d.k, d.st, nus, ga.int32(n), self.r, extrapolate and true or false, y)
    end
    return shaped(y, lead, self.trail)
  end
  NB.__call = function(self, xi, nu, extrapolate) return nb_call(self, xi, nu, extrapolate, "NdBSpline") end


  api.def(I, [[
scipy.interpolate.NdBSpline(t: list, c: array_like, k: integer|list, extrapolate: boolean = true) -> NdBSpline
The tensor-product spline sum c[i_1, ..., i_n] B_(i_1)(x_1) ... B_(i_n)(x_n): t a list of ndim knot
vectors, k the degrees (one, or one per axis; at most 15), c of shape (n_1, ..., n_ndim, ...) with n_d =
#t_d - k_d - 1. Call s(xi[, nu, extrapolate]) with xi (..., ndim).
]], function(t, c, k, extrapolate)
    local fname = "scipy.interpolate.NdBSpline"
    local tk = axes_of(t, fname, "t")
    local n = #tk
    local ks = {}
    for d = 1, n do
      ks[d] = type(k) == "table" and k[d] or k
      if math.type(ks[d]) ~= "integer" or ks[d] < 0 or ks[d] > MAXK then
        fail(("%s: k must be integers in 0..%d, one or one per axis"):format(fname, MAXK))
      end
    end
    if type(k) == "table" and #k ~= n then fail(fname .. ": k must have one degree per axis") end
    local ca = is_array(c) and c or ga.asarray(c)
    if ca.ndim < n then fail(("%s: c must have at least %d dimensions"):format(fname, n)) end
    local ncs = {}
    for d = 1, n do
      for i = 2, #tk[d] do
        if tk[d][i] < tk[d][i - 1] then fail(fname .. ": knots must be in non-decreasing order") end
      end
      ncs[d] = #tk[d] - ks[d] - 1
      if ncs[d] < ks[d] + 1 then
        fail(("%s: need at least %d knots on axis %d for degree %d"):format(fname, 2 * ks[d] + 2, d, ks[d]))
      end
      if ca.shape[d] ~= ncs[d] then
        fail(("%s: c has %d coefficients on axis %d, the knots need %d"):format(fname, ca.shape[d], d, ncs[d]))
      end
    end
    local trail, r = {}, 1
    for d = n + 1, ca.ndim do
      trail[#trail + 1] = ca.shape[d]
      r = r * ca.shape[d]
    end
    local cf = ga.ascontiguousarray(ca:astype("float64"))
    local st = strides(cf.shape)
    local sts = {}
    for d = 1, n do sts[d] = st[d] end
    local tv, off = flat_axes(tk)
    local obj = { tk = tk, k = ks, r = r, trail = trail, extrapolate = extrapolate, c = cf,
                  _dev = { c = cf:reshape(-1), t = tv, off = off, nc = ga.array(ncs, "int64"),
                           k = ga.array(ks, "int64"), st = ga.array(sts, "int64") } }
    obj.t = {}
    for d = 1, n do obj.t[d] = ga.array(tk[d], "float64") end
    return setmetatable(obj, NB)
  end)
end
