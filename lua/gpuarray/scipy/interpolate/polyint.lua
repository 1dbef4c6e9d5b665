--- Polynomial interpolation through all the points (SciPy 1.10):
-- KroghInterpolator (Newton's divided differences, repeated x for
-- derivative data, as SciPy's) and BarycentricInterpolator (the second
-- barycentric form), their one-call forms, and RBFInterpolator (the
-- kernel system solved with ga.linalg.solve, evaluated as a kernel
-- matrix times the coefficients).
return function(ga, I, C)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local KR = { __name = "gpuarray.KroghInterpolator" }
  api.set_type("KroghInterpolator", function(v) return getmetatable(v) == KR end)
  KR.__call = function(self, x)
    local q, shape = C.queries(x, self.trail)
    return C.eval(C.K.newton, q, self.r, shape, "float64", self.dxi, self.dc, self.n, self.r)
  end

  local function fact(s)
    local f = 1
    for i = 2, s do f = f * i end
    return f
  end

  api.def(I, [[
scipy.interpolate.KroghInterpolator(xi: array_like, yi: array_like, axis: integer = 1) -> KroghInterpolator
The polynomial through (xi, yi); a repeated xi takes the next derivative's value, as SciPy's. Call p(x).
]], function(xi, yi, axis)
    local fname = "scipy.interpolate.KroghInterpolator"
    local xs = C.list(xi, fname, "xi")
    local rows, r, trail, _, n = C.rows(yi, axis, fname)
    if n ~= #xs then fail(fname .. ": xi and yi have different lengths") end
    if n == 0 then fail(fname .. ": xi must hold at least one point") end    -- rows[1] starts the table
    local c = { { table.unpack(rows[1]) } }
    local V = {}
    for k = 2, n do
      local s = 0
      while s <= k - 1 and xs[k - s] == xs[k] do s = s + 1 end
      s = s - 1
      V[1] = {}
      for col = 1, r do V[1][col] = rows[k][col] / fact(s) end
      for i = 1, k - 1 - s do
        if xs[i] == xs[k] then fail(fname .. ": Elements of `xi` can't be equal.") end
        local nv = {}
        for col = 1, r do
          if s == 0 then nv[col] = (c[i][col] - V[i][col]) / (xs[i] - xs[k])
          else nv[col] = (V[i + 1][col] - V[i][col]) / (xs[i] - xs[k]) end
        end
        V[i + 1] = nv
      end
      c[k] = { table.unpack(V[k - s]) }
    end
    return setmetatable({ n = n, r = r, trail = trail, dxi = ga.array(xs, "float64"), dc = C.upload(c) }, KR)
  end)

  api.def(I, [[
scipy.interpolate.krogh_interpolate(xi: array_like, yi: array_like, x: array_like, der: integer = 0,
                                    axis: integer = 1) -> ndarray
KroghInterpolator(xi, yi, axis)(x) (der 0 only).
]], function(xi, yi, x, der, axis)
    if der ~= 0 then fail("scipy.interpolate.krogh_interpolate: only der = 0 is supported") end
    return I.KroghInterpolator(xi, yi, axis)(x)
  end)

  local BA = { __name = "gpuarray.BarycentricInterpolator" }
  local bmethods = {}
  BA.__index = bmethods
  api.set_type("BarycentricInterpolator", function(v) return getmetatable(v) == BA end)
  BA.__call = function(self, x)
    if not self.dy then fail("BarycentricInterpolator: no yi set (set_yi first)") end
    local q, shape = C.queries(x, self.trail)
    return C.eval(C.K.bary, q, self.r, shape, "float64", self.dxi, self.dw, self.dy, self.n, self.r)
  end

  api.def(bmethods, [[
BarycentricInterpolator:set_yi(yi: array_like, axis: integer?) -> nil
Set the values at the points.
]], function(self, yi, axis)
    local rows, r, trail, _, n = C.rows(yi, axis or self.axis, "BarycentricInterpolator.set_yi")
    if n ~= self.n then fail("BarycentricInterpolator.set_yi: yi must have one value per xi") end
    self.r, self.trail, self.dy = r, trail, C.upload(rows)
  end)
  api.class("BarycentricInterpolator", bmethods)

  api.def(I, [[
scipy.interpolate.BarycentricInterpolator(xi: array_like, yi: array_like?, axis: integer = 1) -> BarycentricInterpolator
The polynomial through (xi, yi) in the barycentric form (weights 1 / prod (xi_j - xi_k)). Call p(x).
]], function(xi, yi, axis)
    local fname = "scipy.interpolate.BarycentricInterpolator"
    local xs = C.list(xi, fname, "xi")
    local n = #xs
    local lo, hi = math.huge, -math.huge
    for _, v in ipairs(xs) do lo, hi = math.min(lo, v), math.max(hi, v) end
    local scale = (hi > lo) and 4 / (hi - lo) or 1
    local w = {}
    for j = 1, n do
      local p = 1
      for k = 1, n do
        if k ~= j then
          local d = (xs[j] - xs[k]) * scale
          if d == 0 then fail(fname .. ": Interpolation points xi must be distinct.") end
          p = p * d
        end
      end
      w[j] = 1 / p
    end
    local self = setmetatable({ n = n, axis = axis, dxi = ga.array(xs, "float64"), dw = ga.array(w, "float64") }, BA)
    if yi ~= nil then self:set_yi(yi) end
    return self
  end)

  api.def(I, [[
scipy.interpolate.barycentric_interpolate(xi: array_like, yi: array_like, x: array_like, axis: integer = 1) -> ndarray
BarycentricInterpolator(xi, yi, axis)(x).
]], function(xi, yi, x, axis)
    return I.BarycentricInterpolator(xi, yi, axis)(x)
  end)

  -------------------------------------------------------------------------
  -- RBFInterpolator

  local RBF_KERNELS = {
    linear = { "-r", 0 }, thin_plate_spline = { "(r == 0.0 ? 0.0 : r * r * log(r))", 1 }, cubic = { "r * r * r", 1 },
    quintic = { "-(r * r * r * r * r)", 2 }, multiquadric = { "-sqrt(1.0 + r * r)", 0 },
    inverse_multiquadric = { "1.0 / sqrt(1.0 + r * r)", -1 }, inverse_quadratic = { "1.0 / (1.0 + r * r)", -1 },
    gaussian = { "exp(-r * r)", -1 },
  }
  local SCALE_FREE = { linear = true, thin_plate_spline = true, cubic = true, quintic = true }
  local kmat = {}
  local function kernel_matrix(name)
    if not kmat[name] then
      kmat[name] = ga.ElementwiseKernel("raw float64 a, raw float64 b, int64 nb, int64 d, float64 eps", "float64 k",
        ([[
const long long ia = i / nb, ib = i %% nb;
double s = 0.0;
for (long long e = 0; e < d; ++e) { const double t = a[ia * d + e] - b[ib * d + e]; s += t * t; }
const double r = eps * sqrt(s);
k = %s;
]]):format(RBF_KERNELS[name][1]), "gip_rbf_" .. name)
    end
    return kmat[name]
  end
  I._rbf_kernel_matrix = kernel_matrix

  --- the monomials of degree <= deg in d variables (exponent lists)
  local function monomials(d, deg)
    local out = {}
    local function rec(prefix, left, dim)
      if dim > d then out[#out + 1] = { table.unpack(prefix) } return end
      for e = 0, left do
        prefix[dim] = e
        rec(prefix, left - e, dim + 1)
      end
    end
    if deg >= 0 then rec({}, deg, 1) end
    table.sort(out, function(a, b)
      local sa, sb = 0, 0
      for k = 1, d do sa, sb = sa + a[k], sb + b[k] end
      return sa < sb
    end)
    return out
  end

  local RB = { __name = "gpuarray.RBFInterpolator" }
  api.set_type("RBFInterpolator", function(v) return getmetatable(v) == RB end)

  local function poly_matrix(self, pts, npts)
    -- host: P[i][m] = prod ((x - shift) / scale)^e
    local t = pts:totable()
    local P = {}
    for i = 1, npts do
      P[i] = {}
      for m, ex in ipairs(self.mono) do
        local v = 1
        for e = 1, self.d do v = v * ((t[i][e] - self.shift[e]) / self.scale[e]) ^ ex[e] end
        P[i][m] = v
      end
    end
    return P
  end

  RB.__call = function(self, x)
    local q = is_array(x) and x or ga.asarray(x)
    if q.ndim ~= 2 or q.shape[2] ~= self.d then fail("RBFInterpolator: x must have shape (n, " .. self.d .. ")") end
    q = ga.ascontiguousarray(q:astype("float64"))
    local nq = q.shape[1]
    local Km = ga.empty({ nq, self.m }, "float64")
    kernel_matrix(self.kernel)(q, self.y, self.m, self.d, self.eps, Km)
    local out = ga.matmul(Km, self.coef_k)
    if #self.mono > 0 then
      local P = ga.array(poly_matrix(self, q, nq), "float64")
      out = out + ga.matmul(P, self.coef_p)
    end
    local shape = { nq }
    for _, s in ipairs(self.trail) do shape[#shape + 1] = s end
    return out:reshape(shape)
  end

  api.def(I, [[
scipy.interpolate.RBFInterpolator(y: array_like, d: array_like, neighbors: integer?, smoothing: number = 0.0,
                                  kernel: string = "thin_plate_spline", epsilon: number?,
                                  degree: integer?) -> RBFInterpolator
Radial basis function interpolation of scattered data y (shape (p, dim)) with values d (p, ...): the global
system solved on the GPU (neighbors is not supported).
]], function(y, d, neighbors, smoothing, kernel, epsilon, degree)
    local fname = "scipy.interpolate.RBFInterpolator"
    if neighbors ~= nil then fail(fname .. ": neighbors is not supported (the global system only)") end
    local spec = RBF_KERNELS[kernel]
    if not spec then fail(fname .. ": `kernel` must be one of the SciPy kernel names") end
    if epsilon == nil then
      if not SCALE_FREE[kernel] then fail(fname .. ": `epsilon` must be specified if `kernel` is not scale-free") end
      epsilon = 1.0
    end
    local mindeg = spec[2]
    if degree == nil then degree = math.max(mindeg, 0) end
    if kernel == "linear" or kernel == "multiquadric" then
      if degree < mindeg then degree = mindeg end
    end
    local pts = is_array(y) and y or ga.asarray(y)
    if pts.ndim ~= 2 then fail(fname .. ": `y` must be a 2-dimensional array.") end
    local p, dim = pts.shape[1], pts.shape[2]
    local vals = is_array(d) and d or ga.asarray(d)
    if vals.shape[1] ~= p then fail(fname .. ": Expected the first axis of `d` to have length " .. p) end
    local trail, r = {}, 1
    for k = 2, vals.ndim do
      trail[#trail + 1] = vals.shape[k]
      r = r * vals.shape[k]
    end
    -- the points' dimensions are walked on the host (the polynomial's
    -- monomials, the data's box): bounded, and the monomials counted
    -- (C(dim + degree, degree)) before they are listed
    if dim > 4096 then fail(("%s: `y` has %d dimensions: at most 4096 are supported"):format(fname, dim)) end
    do
      local nm = degree < 0 and 0 or 1
      for k = 1, math.max(degree, 0) do
        nm = nm * (dim + k) / k
        if k > 64 and nm > p then break end   -- a huge degree: enough to refuse
      end
      if nm > p then
        fail(fname .. (": At least %.0f data points are required when the polynomial degree is %d"):format(nm, degree))
      end
    end
    pts = ga.ascontiguousarray(pts:astype("float64"))
    local self = setmetatable({ y = pts, d = dim, m = p, kernel = kernel, eps = epsilon, trail = trail,
                                mono = monomials(dim, degree) }, RB)
    -- the polynomial's shift and scale (SciPy's: the data's box)
    local t = pts:totable()
    self.shift, self.scale = {}, {}
    for e = 1, dim do
      local lo, hi = math.huge, -math.huge
      for i = 1, p do lo, hi = math.min(lo, t[i][e]), math.max(hi, t[i][e]) end
      self.shift[e] = (hi + lo) / 2
      self.scale[e] = hi > lo and (hi - lo) / 2 or 1
    end
    local nm = #self.mono
    if p < nm then
      fail(fname .. (": At least %d data points are required when the polynomial degree is %d"):format(nm, degree))
    end
    local Km = ga.empty({ p, p }, "float64")
    kernel_matrix(kernel)(pts, pts, p, dim, epsilon, Km)
    if smoothing ~= 0 then Km = Km + ga.eye(p, nil, nil, "float64") * smoothing end
    local A = ga.zeros({ p + nm, p + nm }, "float64")
    A[{ { 1, p }, { 1, p } }] = Km
    if nm > 0 then
      local P = ga.array(poly_matrix(self, pts, p), "float64")
      A[{ { 1, p }, { p + 1, p + nm } }] = P
      A[{ { p + 1, p + nm }, { 1, p } }] = P:transpose()
    end
    local rhs = ga.zeros({ p + nm, r }, "float64")
    rhs[{ { 1, p }, {} }] = ga.ascontiguousarray(vals:astype("float64")):reshape(p, r)
    local sol = ga.linalg.solve(A, rhs)
    self.coef_k = sol[{ { 1, p }, {} }]
    if nm > 0 then self.coef_p = sol[{ { p + 1, p + nm }, {} }] end
    return self
  end)
end
