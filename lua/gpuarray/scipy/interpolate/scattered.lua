--- Interpolation of scattered data on a Delaunay triangulation
-- (ga.scipy.spatial.Delaunay, made on the host): LinearNDInterpolator
-- (barycentric, any dimension up to 8) and CloughTocher2DInterpolator
-- (the C1 cubic Clough-Tocher patches of SciPy, with SciPy's global
-- gradient estimate). Gradients are estimated on the host (SciPy's
-- Gauss-Seidel sweeps over the vertices, in their order, so the same
-- iterates); evaluation is one GPU thread per (query, value column): it
-- locates the point (spatial/delaunay.lua's device function, every
-- simplex in turn), then combines the simplex's data.
return function(ga, I)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local EPS = 100 * 2.220446049250313e-16   -- SciPy's point location tolerance

  local function sp() return ga.scipy.spatial end

  local LINEAR = [[
const long long k = i / r, col = i % r;
double c[9];
const long long s = gsp_locate(&q[k * d], &T[0], ns, d, eps, c);
if (s < 0) {
  y = fill;
} else {
  double acc = 0.0;
  for (int a = 0; a <= d; ++a) acc += c[a] * v[(S[s * (d + 1) + a] - 1) * r + col];
  y = acc;
}
]]

  -- The Clough-Tocher patch of a triangle (Farin's Bezier form, SciPy's
  -- choices): the cubic Bezier ordinates from the vertex values f and
  -- gradients (fx, fy) along the edges, the interior ordinates from C1
  -- continuity across each edge towards the neighbour's centroid (g; -1/2
  -- on the hull), the split at the centroid, and the patch evaluated at
  -- the extended barycentric coordinates of b.
  local CT = [[
__device__ double gsp_ct_eval(const double *px, const double *py, const double *f, const double *fx,
                              const double *fy, const double *g, const double *b) {
  const double e12x = px[1] - px[0], e12y = py[1] - py[0];
  const double e23x = px[2] - px[1], e23y = py[2] - py[1];
  const double e31x = px[0] - px[2], e31y = py[0] - py[2];
  const double df12 = fx[0] * e12x + fy[0] * e12y, df21 = -(fx[1] * e12x + fy[1] * e12y);
  const double df23 = fx[1] * e23x + fy[1] * e23y, df32 = -(fx[2] * e23x + fy[2] * e23y);
  const double df31 = fx[2] * e31x + fy[2] * e31y, df13 = -(fx[0] * e31x + fy[0] * e31y);
  const double c3000 = f[0], c2100 = (df12 + 3 * c3000) / 3, c2010 = (df13 + 3 * c3000) / 3;
  const double c0300 = f[1], c1200 = (df21 + 3 * c0300) / 3, c0210 = (df23 + 3 * c0300) / 3;
  const double c0030 = f[2], c1020 = (df31 + 3 * c0030) / 3, c0120 = (df32 + 3 * c0030) / 3;
  const double c2001 = (c2100 + c2010 + c3000) / 3;
  const double c0201 = (c1200 + c0300 + c0210) / 3;
  const double c0021 = (c1020 + c0120 + c0030) / 3;
  const double c0111 = (g[0] * (-c0300 + 3 * c0210 - 3 * c0120 + c0030) +
                        (-c0300 + 2 * c0210 - c0120 + c0021 + c0201)) / 2;
  const double c1011 = (g[1] * (-c0030 + 3 * c1020 - 3 * c2010 + c3000) +
                        (-c0030 + 2 * c1020 - c2010 + c2001 + c0021)) / 2;
  const double c1101 = (g[2] * (-c3000 + 3 * c2100 - 3 * c1200 + c0300) +
                        (-c3000 + 2 * c2100 - c1200 + c2001 + c0201)) / 2;
  const double c1002 = (c1101 + c1011 + c2001) / 3;
  const double c0102 = (c1101 + c0111 + c0201) / 3;
  const double c0012 = (c1011 + c0111 + c0021) / 3;
  const double c0003 = (c1002 + c0102 + c0012) / 3;
  double m = b[0];
  if (b[1] < m) m = b[1];
  if (b[2] < m) m = b[2];
  const double b1 = b[0] - m, b2 = b[1] - m, b3 = b[2] - m, b4 = 3 * m;
  return b1 * b1 * b1 * c3000 + 3 * b1 * b1 * b2 * c2100 + 3 * b1 * b1 * b3 * c2010 + 3 * b1 * b1 * b4 * c2001 +
         3 * b1 * b2 * b2 * c1200 + 6 * b1 * b2 * b4 * c1101 + 3 * b1 * b3 * b3 * c1020 + 6 * b1 * b3 * b4 * c1011 +
         3 * b1 * b4 * b4 * c1002 + b2 * b2 * b2 * c0300 + 3 * b2 * b2 * b3 * c0210 + 3 * b2 * b2 * b4 * c0201 +
         3 * b2 * b3 * b3 * c0120 + 6 * b2 * b3 * b4 * c0111 + 3 * b2 * b4 * b4 * c0102 + b3 * b3 * b3 * c0030 +
         3 * b3 * b3 * b4 * c0021 + 3 * b3 * b4 * b4 * c0012 + b4 * b4 * b4 * c0003;
}
]]
  I._ct_source = CT   -- the CPU specs compile it for the host

  local CLOUGH = [[
const long long k = i / r, col = i % r;
double c[9];
const long long s = gsp_locate(&q[k * 2], &T[0], ns, 2, eps, c);
if (s < 0) {
  y = fill;
} else {
  double px[3], py[3], f[3], fx[3], fy[3], g[3];
  for (int a = 0; a < 3; ++a) {
    const long long p = S[s * 3 + a] - 1;
    px[a] = P[p * 2];
    py[a] = P[p * 2 + 1];
    f[a] = v[p * r + col];
    fx[a] = G[(p * r + col) * 2];
    fy[a] = G[(p * r + col) * 2 + 1];
  }
  const double *t = &T[s * 6];
  for (int a = 0; a < 3; ++a) {
    const long long nb = N[s * 3 + a] - 1;
    if (nb < 0) { g[a] = -0.5; continue; }
    double y0 = 0.0, y1 = 0.0;
    for (int e = 0; e < 3; ++e) {
      const long long p = S[nb * 3 + e] - 1;
      y0 += P[p * 2];
      y1 += P[p * 2 + 1];
    }
    y0 /= 3;
    y1 /= 3;
    double cc[3];
    cc[0] = t[0] * (y0 - t[4]) + t[1] * (y1 - t[5]);
    cc[1] = t[2] * (y0 - t[4]) + t[3] * (y1 - t[5]);
    cc[2] = 1.0 - cc[0] - cc[1];
    const int u = (a + 1) % 3, w = (a + 2) % 3;
    g[a] = (2 * cc[w] + cc[u] - 1) / (2 - 3 * cc[w] - 3 * cc[u]);
  }
  y = gsp_ct_eval(px, py, f, fx, fy, g, c);
}
]]

  local kernels = {}
  local function kernel(which)
    if not kernels[which] then
      local pre = sp()._delaunay.LOCATE
      if which == "linear" then
        kernels.linear = ga.ElementwiseKernel(
          "raw float64 q, raw float64 T, raw int64 S, raw float64 v, int64 ns, int32 d, int64 r, float64 fill, " ..
          "float64 eps", "float64 y", LINEAR, "gip_linear_nd", { preamble = pre })
      else
        kernels.ct = ga.ElementwiseKernel(
          "raw float64 q, raw float64 T, raw int64 S, raw int64 N, raw float64 P, raw float64 v, raw float64 G, " ..
          "int64 ns, int64 r, float64 fill, float64 eps", "float64 y", CLOUGH, "gip_clough_tocher",
          { preamble = pre .. CT })
      end
    end
    return kernels[which]
  end
  I._scattered_kernel = kernel

  --- SciPy's estimate_gradients_2d_global on the host: for each value
  -- column, Gauss-Seidel sweeps over the vertices (in order) minimising
  -- the edge energy; pts: n {x, y}; vnv: n lists of neighbour numbers;
  -- cols: r lists of n values. Returns grads[col][point] = {gx, gy} and
  -- whether every column converged.
  function I._estimate_gradients(pts, vnv, cols, tol, maxiter)
    local n = #pts
    local out, converged = {}, true
    for ci, f in ipairs(cols) do
      local gx, gy = {}, {}
      for p = 1, n do gx[p], gy[p] = 0.0, 0.0 end
      local ok = false
      for _ = 1, maxiter do
        local err = 0
        for p = 1, n do
          local q0, q1, q3, s0, s1 = 0, 0, 0, 0, 0
          local xp, yp, fp = pts[p][1], pts[p][2], f[p]
          for _, j in ipairs(vnv[p]) do
            local ex, ey = pts[j][1] - xp, pts[j][2] - yp
            local L = math.sqrt(ex * ex + ey * ey)
            local L3 = L * L * L
            local df2 = -ex * gx[j] - ey * gy[j]
            q0 = q0 + 4 * ex * ex / L3
            q1 = q1 + 4 * ex * ey / L3
            q3 = q3 + 4 * ey * ey / L3
            s0 = s0 + (6 * (fp - f[j]) - 2 * df2) * ex / L3
            s1 = s1 + (6 * (fp - f[j]) - 2 * df2) * ey / L3
          end
          local det = q0 * q3 - q1 * q1
          local r0 = (q3 * s0 - q1 * s1) / det
          local r1 = (-q1 * s0 + q0 * s1) / det
          local change = math.max(math.abs(gx[p] + r0), math.abs(gy[p] + r1))
          gx[p], gy[p] = -r0, -r1
          change = change / math.max(1.0, math.max(math.abs(r0), math.abs(r1)))
          err = math.max(err, change)
        end
        if err < tol then
          ok = true
          break
        end
      end
      converged = converged and ok
      local g = {}
      for p = 1, n do g[p] = { gx[p], gy[p] } end
      out[ci] = g
    end
    return out, converged
  end

  -- points (or a Delaunay), values (npoints, ...), rescale: the
  -- triangulation, the values as (npoints, r) float64, the trailing shape,
  -- and the rescaling (offset, scale lists) or nil
  local function setup(points, values, rescale, fname)
    local S = sp()
    local tri, offset, scale
    if S._delaunay.is(points) then
      if rescale then fail(fname .. ": Rescaling is not supported when passing a Delaunay triangulation as points.") end
      tri = points
    else
      local p = is_array(points) and points or ga.asarray(points)
      if p.ndim == 1 then p = p:reshape(p.size, 1) end
      if p.ndim ~= 2 then fail(fname .. ": points must be 2-D (npoints x ndim)") end
      p = p:astype("float64")
      if rescale then
        local lo, hi = ga.min(p, 1):totable(), ga.max(p, 1):totable()
        offset, scale = ga.mean(p, 1):totable(), {}
        for k = 1, #lo do
          scale[k] = hi[k] - lo[k]
          if scale[k] <= 0 or scale[k] ~= scale[k] then scale[k] = 1.0 end
        end
        p = (p - ga.array(offset)) / ga.array(scale)
      end
      tri = S.Delaunay(p)
    end
    if tri.ndim > S._delaunay.MAXD then fail(("%s: at most %d dimensions"):format(fname, S._delaunay.MAXD)) end
    local v = is_array(values) and values or ga.asarray(values)
    if v.ndim == 0 or v.shape[1] ~= tri.npoints then
      fail(fname .. ": different number of values and points")
    end
    if v.dtype == "complex64" or v.dtype == "complex128" then fail(fname .. ": complex values are not supported") end
    local trail, r = {}, 1
    for k = 2, v.ndim do
      trail[#trail + 1] = v.shape[k]
      r = r * v.shape[k]
    end
    v = ga.ascontiguousarray(v:astype("float64")):reshape(tri.npoints, r)
    return tri, v, r, trail, offset, scale
  end

  -- the query points of f(xi) or f(x1, x2, ...): (q, d) float64, rescaled,
  -- and the leading shape
  local function query(self, args, fname)
    local d = self.tri.ndim
    local x
    if args.n > 1 then
      local arrs = {}
      for k = 1, args.n do arrs[k] = is_array(args[k]) and args[k] or ga.asarray(args[k]) end
      x = ga.stack({ ga.broadcast_arrays(table.unpack(arrs)) }, -1)
    else
      x = is_array(args[1]) and args[1] or ga.asarray(args[1])
      if d == 1 and (x.ndim == 0 or x.shape[x.ndim] ~= 1) then
        local shape = x.shape
        shape[#shape + 1] = 1
        x = x:reshape(shape)
      end
    end
    if x.ndim == 0 or x.shape[x.ndim] ~= d then
      fail(("%s: number of dimensions in xi does not match x (%d)"):format(fname, d))
    end
    local lead = x.shape
    lead[#lead] = nil
    x = x:astype("float64")
    if self.offset then x = (x - ga.array(self.offset)) / ga.array(self.scale) end
    return ga.ascontiguousarray(x):reshape(-1, d), lead
  end

  local function shaped(y, lead, trail)
    local shape = {}
    for _, s in ipairs(lead) do shape[#shape + 1] = s end
    for _, s in ipairs(trail) do shape[#shape + 1] = s end
    return y:reshape(shape)
  end

  local LIN = { __name = "gpuarray.LinearNDInterpolator" }
  api.set_type("LinearNDInterpolator", function(v) return getmetatable(v) == LIN end)
  LIN.__index = function(self, k)
    if k == "tri" then return rawget(self, "_tri") end
    if k == "values" then return rawget(self, "_values") end
    return nil
  end
  LIN.__call = function(self, ...)
    local fname = "LinearNDInterpolator"
    local q, lead = query(self, table.pack(...), fname)
    local tri = self._tri
    local y = ga.empty(q.shape[1] * self.r, "float64")
    if y.size > 0 then
      kernel("linear")(q, tri:_transform(), self._S, self._v, tri.nsimplex, ga.int32(tri.ndim), self.r,
                       self.fill_value, EPS, y)
    end
    return shaped(y, lead, self.trail)
  end

  api.def(I, [[
scipy.interpolate.LinearNDInterpolator(points: array_like|Delaunay, values: array_like, fill_value: number = (NaN),
                                       rescale: boolean = false) -> LinearNDInterpolator
Piecewise linear interpolation of scattered data in N-D (N <= 8): the barycentric combination of the values at
the vertices of the Delaunay simplex holding each point (fill_value outside the hull). values: (npoints, ...);
call f(xi) with xi (..., ndim), or f(x1, x2, ...) with broadcastable coordinate arrays.
]], function(points, values, fill_value, rescale)
    local fname = "scipy.interpolate.LinearNDInterpolator"
    local tri, v, r, trail, offset, scale = setup(points, values, rescale, fname)
    return setmetatable({ _tri = tri, _values = v, _v = v:reshape(-1), _S = tri.simplices, r = r, trail = trail,
                          fill_value = fill_value, offset = offset, scale = scale }, LIN)
  end)

  local CTI = { __name = "gpuarray.CloughTocher2DInterpolator" }
  api.set_type("CloughTocher2DInterpolator", function(v) return getmetatable(v) == CTI end)
  CTI.__index = function(self, k)
    if k == "tri" then return rawget(self, "_tri") end
    if k == "values" then return rawget(self, "_values") end
    if k == "grad" then return rawget(self, "_grad") end
    return nil
  end
  CTI.__call = function(self, ...)
    local fname = "CloughTocher2DInterpolator"
    local q, lead = query(self, table.pack(...), fname)
    local tri = self._tri
    local y = ga.empty(q.shape[1] * self.r, "float64")
    if y.size > 0 then
      kernel("ct")(q, tri:_transform(), self._S, self._N, self._P, self._v, self._G, tri.nsimplex, self.r,
                   self.fill_value, EPS, y)
    end
    return shaped(y, lead, self.trail)
  end

  api.def(I, [[
scipy.interpolate.CloughTocher2DInterpolator(points: array_like|Delaunay, values: array_like,
                                             fill_value: number = (NaN), tol: number = 1e-6,
                                             maxiter: integer = 400,
                                             rescale: boolean = false) -> CloughTocher2DInterpolator
The C1 piecewise cubic (Clough-Tocher) interpolant of scattered 2-D data: gradients estimated as SciPy's
(global, tol and maxiter; on the host, warning when they do not converge), the patches evaluated on the GPU.
values: (npoints, ...); call f(xi) with xi (..., 2), or f(x, y). fill_value outside the hull.
]], function(points, values, fill_value, tol, maxiter, rescale)
    local fname = "scipy.interpolate.CloughTocher2DInterpolator"
    local tri, v, r, trail, offset, scale = setup(points, values, rescale, fname)
    if tri.ndim ~= 2 then fail(fname .. ": points must be 2-D") end
    local pts = tri._pts
    local vnv = sp()._delaunay.host.vertex_neighbors(tri._host.simplices, tri.npoints)
    local vt = v:totable()
    local cols = {}
    for c = 1, r do
      local col = {}
      for p = 1, tri.npoints do col[p] = vt[p][c] end
      cols[c] = col
    end
    local grads, ok = I._estimate_gradients(pts, vnv, cols, tol, maxiter)
    if not ok then
      warn("gpuarray: " .. fname .. ": gradient estimation did not converge, the results may be inaccurate")
    end
    local flat = {}
    for p = 1, tri.npoints do
      for c = 1, r do
        flat[#flat + 1] = grads[c][p][1]
        flat[#flat + 1] = grads[c][p][2]
      end
    end
    if #flat == 0 then flat[1] = 0 end
    local G = ga.array(flat, "float64")
    local gshape = { tri.npoints }
    for _, s in ipairs(trail) do gshape[#gshape + 1] = s end
    gshape[#gshape + 1] = 2
    return setmetatable({ _tri = tri, _values = v, _v = v:reshape(-1), _S = tri.simplices, _N = tri.neighbors,
                          _P = tri.points:reshape(-1), _G = G, _grad = G:reshape(gshape), r = r, trail = trail,
                          fill_value = fill_value, offset = offset, scale = scale }, CTI)
  end)
end
