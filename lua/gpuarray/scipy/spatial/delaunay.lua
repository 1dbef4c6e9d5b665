--- scipy.spatial.Delaunay: the triangulation is made on the host
-- (spatial/delaunay_host.lua: Bowyer-Watson in any dimension, its cost
-- there), the queries run on the GPU: find_simplex is one thread per
-- point testing the barycentric coordinates of each simplex in turn
-- (q x nsimplex x d^2 flops: 10^5 points in 2 x 10^4 triangles is about
-- 10^10, a few milliseconds on an H100). The same device function locates
-- the points of LinearNDInterpolator and CloughTocher2DInterpolator.
--
-- Indices are 1-based (API.md §14): simplices and convex_hull hold point
-- numbers 1..npoints, neighbors and find_simplex simplex numbers
-- 1..nsimplex, and 0 where SciPy has -1 (no neighbour, outside).
return function(ga, spatial)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local H = require("gpuarray.scipy.spatial.delaunay_host")
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  local MAXD = 8   -- the device functions' fixed-size coordinate arrays

  -- the simplex holding x: the first whose barycentric coordinates are all
  -- within [-eps, 1 + eps] (SciPy's tolerance), or -1; c its coordinates.
  -- T: the transforms, (d + 1) x d per simplex (SciPy's layout)
  local LOCATE = [[
__device__ long long gsp_locate(const double *x, const double *T, long long ns, int d, double eps, double *c) {
  for (long long s = 0; s < ns; ++s) {
    const double *t = T + s * (d + 1) * d;
    if (t[0] != t[0]) continue;
    const double *r = t + d * d;
    double last = 1.0;
    bool in = true;
    for (int a = 0; a < d && in; ++a) {
      double v = 0.0;
      for (int b = 0; b < d; ++b) v += t[a * d + b] * (x[b] - r[b]);
      c[a] = v;
      last -= v;
      in = v >= -eps && v <= 1.0 + eps;
    }
    if (in && last >= -eps && last <= 1.0 + eps) {
      c[d] = last;
      return s;
    }
  }
  return -1;
}
]]

  local D = { __name = "gpuarray.Delaunay" }
  local methods = {}
  local function is_delaunay(v) return getmetatable(v) == D end
  api.set_type("Delaunay", is_delaunay)

  local function up_int(rows, width)
    if #rows == 0 then return ga.empty({ 0, width }, "int64") end
    return ga.array(rows, "int64")
  end

  -- the transforms, (nsimplex, d + 1, d) as SciPy's (NaN for a flat simplex)
  local function transforms(self)
    local h, d = self._host, self.ndim
    local flat = {}
    for _, s in ipairs(h.simplices) do
      local verts = {}
      for k = 1, d + 1 do verts[k] = self._pts[s[k]] end
      local T, r = H.transform(verts, d)
      for a = 1, d do for b = 1, d do flat[#flat + 1] = T and T[a][b] or 0 / 0 end end
      for b = 1, d do flat[#flat + 1] = T and r[b] or 0 / 0 end
    end
    return flat
  end

  local FIELDS = {
    points = function(self) return self._dev.points end,
    simplices = function(self) return up_int(self._host.simplices, self.ndim + 1) end,
    neighbors = function(self) return up_int(self._host.neighbors, self.ndim + 1) end,
    transform = function(self)
      local d = self.ndim
      local t = self:_transform()
      return t:reshape(self.nsimplex, d + 1, d)
    end,
    vertex_to_simplex = function(self)
      local v = {}
      for i = 1, self.npoints do v[i] = 0 end
      for m, s in ipairs(self._host.simplices) do for _, p in ipairs(s) do v[p] = m end end
      return ga.array(v, "int64")
    end,
    convex_hull = function(self)
      local rows = {}
      local d = self.ndim
      for m, nb in ipairs(self._host.neighbors) do
        for k = 1, d + 1 do
          if nb[k] == 0 then
            local f = {}
            for j = 1, d + 1 do if j ~= k then f[#f + 1] = self._host.simplices[m][j] end end
            rows[#rows + 1] = f
          end
        end
      end
      return up_int(rows, d)
    end,
    coplanar = function(self)
      -- each duplicate point, the simplex of the vertex it repeats, that vertex
      local rows = {}
      local owner = {}
      for m, s in ipairs(self._host.simplices) do for _, p in ipairs(s) do owner[p] = m end end
      for _, i in ipairs(self._host.coplanar) do
        local best, bv = math.huge, 0
        for v, _ in pairs(owner) do
          local s = 0
          for k = 1, self.ndim do s = s + (self._pts[i][k] - self._pts[v][k]) ^ 2 end
          if s < best or (s == best and v < bv) then best, bv = s, v end
        end
        rows[#rows + 1] = { i, owner[bv] or 0, bv }
      end
      return up_int(rows, 3)
    end,
  }
  D.__index = function(self, k)
    local f = FIELDS[k]
    if f then return f(self) end
    return methods[k]
  end
  D.__tostring = function(self)
    return ("<Delaunay of %d points in %d dimensions: %d simplices>"):format(self.npoints, self.ndim, self.nsimplex)
  end

  --- the transforms on the device, made once
  function methods._transform(self)
    local dev = self._dev
    if not dev.transform then
      local flat = transforms(self)
      if #flat == 0 then flat[1] = 0 end
      dev.transform = ga.array(flat, "float64")
    end
    return dev.transform
  end

  --- the query points as a contiguous float64 (q, d) array and the
  -- leading shape of the answer
  local function queries(self, xi, fname)
    local x = is_array(xi) and xi or ga.asarray(xi)
    local d = self.ndim
    if x.ndim == 0 or x.shape[x.ndim] ~= d then
      fail(("%s: wrong dimensionality in xi: the last axis must have %d entries"):format(fname, d))
    end
    local lead = x.shape
    lead[#lead] = nil
    return ga.ascontiguousarray(x:astype("float64")):reshape(-1, d), lead
  end
  methods._queries = queries

  local kernel
  local function find_kernel()
    kernel = kernel or ga.ElementwiseKernel("raw float64 q, raw float64 T, int64 ns, int32 d, float64 eps",
      "int64 out", "double c[9];\nout = gsp_locate(&q[i * d], &T[0], ns, d, eps, c) + 1;", "gsp_find_simplex",
      { preamble = LOCATE })
    return kernel
  end

  def(spatial, [[
scipy.spatial.Delaunay(points: array_like, furthest_site: boolean = false, incremental: boolean = false,
                       qhull_options: string?) -> Delaunay
The Delaunay triangulation of npoints x ndim points (ndim >= 1). Fields: points, simplices (1-based point
numbers, positively oriented), neighbors (the k-th opposite vertex k; 0: none), transform, vertex_to_simplex,
convex_hull, coplanar (duplicates left out), npoints, ndim, nsimplex. Triangulated on the host (Bowyer-Watson,
about n^(1+1/d) steps; docs/scipy-interpolate.md), queried on the GPU. furthest_site and incremental are not
supported; qhull_options are ignored.
]], function(points, furthest_site, incremental)
    local fname = "scipy.spatial.Delaunay"
    if furthest_site then fail(fname .. ": furthest_site is not supported") end
    if incremental then fail(fname .. ": incremental is not supported") end
    local p = is_array(points) and points or ga.asarray(points)
    if p.ndim ~= 2 then fail(fname .. ": points must be 2-D (npoints x ndim)") end
    local n, d = p.shape[1], p.shape[2]
    if d < 1 then fail(fname .. ": points must have at least one coordinate") end
    local pf = ga.ascontiguousarray(p:astype("float64"))
    local pts = n > 0 and pf:totable() or {}
    local h, why = H.triangulate(pts, d)
    if not h then fail(fname .. ": QhullError: " .. why) end
    return setmetatable({ _host = h, _pts = pts, _dev = { points = pf }, npoints = n, ndim = d,
                          nsimplex = #h.simplices, furthest_site = false }, D)
  end)

  def(methods, [[
Delaunay:find_simplex(xi: array_like, bruteforce: boolean = false, tol: number?) -> ndarray
The 1-based number of a simplex holding each point of xi (..., ndim), 0 outside: int64 of shape (...). A
point is inside where its barycentric coordinates are within tol (100 eps by default) of [0, 1]. One GPU
thread per point tests the simplices in turn (bruteforce is accepted for SciPy's signature).
]], function(self, xi, _, tol)
    local fname = "Delaunay.find_simplex"
    if self.ndim > MAXD then fail(("%s: at most %d dimensions on the device"):format(fname, MAXD)) end
    local q, lead = queries(self, xi, fname)
    local out = ga.empty(q.shape[1], "int64")
    if out.size > 0 then
      find_kernel()(q, self:_transform(), self.nsimplex, ga.int32(self.ndim), tol or 100 * 2.220446049250313e-16,
                    out)
    end
    return out:reshape(lead)
  end)

  def(methods, [[
Delaunay:vertex_neighbor_vertices() -> ndarray, ndarray
indptr, indices: the neighbours of vertex k are indices[indptr[k] .. indptr[k + 1] - 1] (1-based positions
and point numbers, ascending).
]], function(self)
    local indptr, indices = { 1 }, {}
    for i, l in ipairs(H.vertex_neighbors(self._host.simplices, self.npoints)) do
      for _, j in ipairs(l) do indices[#indices + 1] = j end
      indptr[i + 1] = #indices + 1
    end
    return ga.array(indptr, "int64"), #indices > 0 and ga.array(indices, "int64") or ga.empty(0, "int64")
  end)

  api.class("Delaunay", methods)

  spatial._delaunay = { LOCATE = LOCATE, MAXD = MAXD, host = H, is = is_delaunay, find_kernel = find_kernel }
end
