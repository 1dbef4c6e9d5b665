--- Gridded and scattered interpolation (SciPy 1.10):
-- RegularGridInterpolator and interpn (methods linear, slinear, nearest:
-- one kernel per rank, a binary search per axis and the 2^rank corners),
-- NearestNDInterpolator (the nearest data point by a scan of all of them
-- per query on the GPU).
return function(ga, I, C)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local kernels = {}
  local function rgi_kernel(N, nearest)
    local key = N .. tostring(nearest)
    if kernels[key] then return kernels[key] end
    local params = { "raw X xi", "raw float64 g", "raw float64 v", "int64 r", "bool fill", "float64 fv" }
    for d = 0, N - 1 do
      params[#params + 1] = "int64 n" .. d
      params[#params + 1] = "int64 g" .. d
    end
    local b = { "const long long q = i / r, col = i % r;", "bool out_ = false;" }
    for d = 0, N - 1 do
      b[#b + 1] = ([[
const double x%d = (double)xi[q * %d + %d];
long long j%d; double t%d;
{
  const double *gg = &g[g%d];
  const long long nn = n%d;
  if (x%d != x%d) out_ = true;
  if (fill && (x%d < gg[0] || x%d > gg[nn - 1])) out_ = true;
  long long lo = 0, hi = nn - 1;
  if (nn == 1) { j%d = 0; t%d = 0.0; }
  else {
    // the cell: gg[j] <= x < gg[j+1], clamped (SciPy's searchsorted - 1)
    if (x%d <= gg[0]) lo = 0;
    else if (x%d >= gg[nn - 1]) lo = nn - 2;
    else { while (hi - lo > 1) { const long long m = (lo + hi) / 2; if (gg[m] <= x%d) lo = m; else hi = m; } }
    j%d = lo;
    t%d = (x%d - gg[lo]) / (gg[lo + 1] - gg[lo]);
  }
}
]]):format(d, N, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d)
    end
    if nearest then
      local off = nil
      for d = 0, N - 1 do
        local idx = ("(t%d <= 0.5 ? j%d : (n%d > 1 ? j%d + 1 : j%d))"):format(d, d, d, d, d)
        off = off and ("(%s) * n%d + %s"):format(off, d, idx) or idx
      end
      b[#b + 1] = ("y = out_ ? fv : v[(%s) * r + col];"):format(off)
    else
      b[#b + 1] = "double acc = 0.0;"
      for c = 0, 2 ^ N - 1 do
        local w, off = {}, nil
        for d = 0, N - 1 do
          local bit = (c >> (N - 1 - d)) & 1
          w[#w + 1] = bit == 1 and ("t%d"):format(d) or ("(1.0 - t%d)"):format(d)
          local idx = bit == 1 and ("(n%d > 1 ? j%d + 1 : j%d)"):format(d, d, d) or ("j%d"):format(d)
          off = off and ("(%s) * n%d + %s"):format(off, d, idx) or idx
        end
        b[#b + 1] = ("{ const double w_ = %s; if (w_ != 0.0) acc += w_ * v[(%s) * r + col]; }"):format(
          table.concat(w, " * "), off)
      end
      b[#b + 1] = "y = out_ ? fv : acc;"
    end
    local k = ga.ElementwiseKernel(table.concat(params, ", "), "float64 y", table.concat(b, "\n"), "gip_rgi")
    kernels[key] = k
    return k
  end
  I._rgi_kernel = rgi_kernel

  local MT = { __name = "gpuarray.RegularGridInterpolator" }
  local methods = {}
  MT.__index = methods
  api.set_type("RegularGridInterpolator", function(v) return getmetatable(v) == MT end)

  local METHODS = { linear = true, slinear = true, nearest = true }

  local function call(self, xi, method)
    local fname = "RegularGridInterpolator"
    method = method or self.method
    if not METHODS[method] then fail(fname .. ": Method '" .. tostring(method) .. "' is not defined") end
    local q = is_array(xi) and xi or ga.asarray(xi)
    local N = self.ndim
    if q.ndim == 1 and N > 1 then q = q:reshape(1, q.size) end
    if q.ndim == 0 or q.shape[q.ndim] ~= N then
      fail(fname .. (": The requested sample points xi have dimension %d but this "
        .. "RegularGridInterpolator has dimension %d")
        :format(q.ndim == 0 and 0 or q.shape[q.ndim], N))
    end
    q = ga.ascontiguousarray(q:astype("float64"))
    local npts = q.size // N
    if self.bounds_error and npts > 0 then
      local qq = q:reshape(npts, N)
      for d = 1, N do
        local col = qq[{ {}, d }]
        if ga.min(col):item() < self.grid[d][1] or ga.max(col):item() > self.grid[d][#self.grid[d]] then
          fail(fname .. (": One of the requested xi is out of bounds in dimension %d"):format(d))
        end
      end
    end
    local shape = {}
    for d = 1, q.ndim - 1 do shape[d] = q.shape[d] end
    for _, s in ipairs(self.trail) do shape[#shape + 1] = s end
    local y = ga.empty(npts * self.r, "float64")
    if y.size > 0 then
      local args = { q, self.dev_g, self.dev_v, self.r, self.fill_value ~= nil, self.fill_value or 0 }
      for d = 1, N do
        args[#args + 1] = #self.grid[d]
        args[#args + 1] = self.goff[d]
      end
      args[#args + 1] = y
      rgi_kernel(N, method == "nearest")(table.unpack(args))
    end
    return y:reshape(shape)
  end
  MT.__call = function(self, xi, method) return call(self, xi, method) end

  local function build(fname, points, values, method, bounds_error, fill_value)
    if not METHODS[method] then
      fail(fname .. ": Method '" .. tostring(method) .. "' is not defined (linear, slinear and nearest here)")
    end
    if type(points) ~= "table" or is_array(points) then
      fail(fname .. ": points must be a list of 1-D arrays, one per axis")
    end
    local v = is_array(values) and values or ga.asarray(values)
    local N = #points
    if N == 0 then fail(fname .. ": points must list one 1-D array per axis, got an empty list") end
    if N > v.ndim then
      fail(fname .. (": There are %d point arrays, but values has %d dimensions"):format(N, v.ndim))
    end
    local grid, flat, goff = {}, {}, {}
    for d = 1, N do
      local g = C.list(points[d], fname, "points[" .. d .. "]")
      for i = 2, #g do
        if g[i] <= g[i - 1] or g[i] ~= g[i] then
          fail(fname .. (": The points in dimension %d must be strictly ascending"):format(d))
        end
      end
      if #g ~= v.shape[d] then
        fail(fname .. (": There are %d points and %d values in dimension %d"):format(#g, v.shape[d], d))
      end
      grid[d] = g
      goff[d] = #flat
      for _, e in ipairs(g) do flat[#flat + 1] = e end
    end
    local trail, r = {}, 1
    for d = N + 1, v.ndim do
      trail[#trail + 1] = v.shape[d]
      r = r * v.shape[d]
    end
    local self = { ndim = N, grid = grid, goff = goff, trail = trail, r = r, method = method,
                   bounds_error = bounds_error, fill_value = fill_value,
                   dev_g = ga.array(flat, "float64"),
                   dev_v = ga.ascontiguousarray(v:astype("float64")):reshape(-1) }
    self.values, self.grid_arrays = v, points
    return setmetatable(self, MT)
  end

  api.def(I, [[
scipy.interpolate.RegularGridInterpolator(points: list, values: array_like, method: string = "linear",
                                          bounds_error: boolean = true,
                                          fill_value: number? = (NaN)) -> RegularGridInterpolator
Interpolation on a rectilinear grid (one ascending 1-D array of points per axis); methods linear, slinear,
nearest. Call f(xi[, method]) with xi of shape (..., rank).
]], function(points, values, method, bounds_error, fill_value)
    return build("scipy.interpolate.RegularGridInterpolator", points, values, method, bounds_error,
                 fill_value == nil and 0 / 0 or fill_value)
  end)
  api.def(methods, [[
RegularGridInterpolator:__call(xi: array_like, method: string?) -> ndarray
The interpolated values at xi (shape (..., rank)).
]], call)
  api.class("RegularGridInterpolator", methods)

  api.def(I, [[
scipy.interpolate.interpn(points: list, values: array_like, xi: array_like, method: string = "linear",
                          bounds_error: boolean = true, fill_value: number? = (NaN)) -> ndarray
RegularGridInterpolator(points, values, method, bounds_error, fill_value)(xi).
]], function(points, values, xi, method, bounds_error, fill_value)
    local f = build("scipy.interpolate.interpn", points, values, method, bounds_error,
                    fill_value == nil and 0 / 0 or fill_value)
    return call(f, xi)
  end)

  -------------------------------------------------------------------------
  -- NearestNDInterpolator

  local NN = { __name = "gpuarray.NearestNDInterpolator" }
  api.set_type("NearestNDInterpolator", function(v) return getmetatable(v) == NN end)
  local nn_kernel
  NN.__call = function(self, xi)
    local q = is_array(xi) and xi or ga.asarray(xi)
    local d = self.d
    if q.ndim == 1 and d > 1 then q = q:reshape(1, q.size) end
    if q.shape[q.ndim] ~= d and not (d == 1 and q.ndim >= 1) then
      fail("NearestNDInterpolator: query points must have the data's dimension")
    end
    q = ga.ascontiguousarray(q:astype("float64"))
    local npts = q.size // d
    nn_kernel = nn_kernel or ga.ElementwiseKernel(
      "raw float64 q, raw float64 p, raw float64 v, int64 m, int64 d, int64 r", "float64 y", [[
const long long k = i / r, col = i % r;
long long best = 0; double bd = 1.0 / 0.0;
for (long long j = 0; j < m; ++j) {
  double s = 0.0;
  for (long long e = 0; e < d; ++e) { const double t = q[k * d + e] - p[j * d + e]; s += t * t; }
  if (s < bd) { bd = s; best = j; }
}
y = v[best * r + col];
]], "gip_nearest_nd")
    local y = ga.empty(npts * self.r, "float64")
    if y.size > 0 then nn_kernel(q, self.p, self.v, self.m, d, self.r, y) end
    local shape = {}
    for k = 1, (d == 1 and q.ndim == 1) and 1 or q.ndim - 1 do shape[k] = q.shape[k] end
    for _, s in ipairs(self.trail) do shape[#shape + 1] = s end
    return y:reshape(shape)
  end

  api.def(I, [[
scipy.interpolate.NearestNDInterpolator(x: array_like, y: array_like, rescale: boolean = false,
                                        tree_options: table?) -> NearestNDInterpolator
Nearest-neighbour interpolation of scattered data x (shape (m, d)) with values y (m, ...).
]], function(x, y, rescale)
    local fname = "scipy.interpolate.NearestNDInterpolator"
    if rescale then fail(fname .. ": rescale is not supported") end
    local p = is_array(x) and x or ga.asarray(x)
    if p.ndim == 1 then p = p:reshape(p.size, 1) end
    local v = is_array(y) and y or ga.asarray(y)
    if v.shape[1] ~= p.shape[1] then fail(fname .. ": x and y must have the same number of points") end
    local trail, r = {}, 1
    for d = 2, v.ndim do
      trail[#trail + 1] = v.shape[d]
      r = r * v.shape[d]
    end
    return setmetatable({ p = ga.ascontiguousarray(p:astype("float64")):reshape(-1), d = p.shape[2], m = p.shape[1],
                          v = ga.ascontiguousarray(v:astype("float64")):reshape(-1), r = r, trail = trail }, NN)
  end)
end
