-- ga.scipy.spatial: cdist / pdist in every metric (weighted too), the
-- vector distances, distance_matrix, KDTree's queries against SciPy
-- (spec/scipy/spatial/ref.lua, written by ref.py); CPU: declarations,
-- early checks, every metric's kernel compiled.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"
local R = dofile("spec/scipy/spatial/ref.lua")
local spatial = ga.scipy.spatial
local d = spatial.distance

local function near(got, ref, tol, what)
  if not ga.is_ndarray(got) then got = ga.asarray(got) end
  local r = ga.array(ref, "float64")
  assert.same(r.shape, got.shape, (what or "") .. ": shape")
  if r.size == 0 then return end
  local finite = ga.isfinite(r)
  assert.is_true(ga.array_equal(finite, ga.isfinite(got)), (what or "") .. ": inf at the same places")
  local diff = ga.max(ga.abs(ga.where(finite, ga.subtract(got, r), 0))):item()
  assert(diff <= tol, ("%s: largest difference %.3g"):format(what or "values", diff))
end

local function det(A, n)
  local M = {}
  for i = 1, n do M[i] = { table.unpack(A[i]) } end
  local r = 1
  for c = 1, n do
    local p = c
    for i = c + 1, n do if math.abs(M[i][c]) > math.abs(M[p][c]) then p = i end end
    if M[p][c] == 0 then return 0 end
    if p ~= c then M[c], M[p], r = M[p], M[c], -r end
    r = r * M[c][c]
    for i = c + 1, n do
      local f = M[i][c] / M[c][c]
      for j = c, n do M[i][j] = M[i][j] - f * M[c][j] end
    end
  end
  return r
end

-- sorted vertex sets, as ref.py writes them
local function vsets(rows)
  local out = {}
  for i, r in ipairs(rows) do
    local t = { table.unpack(r) }
    table.sort(t)
    out[i] = t
  end
  table.sort(out, function(a, b)
    for k = 1, math.max(#a, #b) do
      if a[k] ~= b[k] then return (a[k] or -1) < (b[k] or -1) end
    end
    return false
  end)
  return out
end

-- the neighbours agree with the simplices: neighbour k shares every
-- vertex but the k-th, and names the simplex back; 0s are hull facets
local function check_neighbors(simplices, neighbors, dim, what)
  local hull = {}
  for m, s in ipairs(simplices) do
    for k = 1, dim + 1 do
      local nb = neighbors[m][k]
      if nb == 0 then
        local f = {}
        for j = 1, dim + 1 do if j ~= k then f[#f + 1] = s[j] end end
        hull[#hull + 1] = f
      else
        local has = {}
        for _, v in ipairs(simplices[nb]) do has[v] = true end
        for j = 1, dim + 1 do
          if j ~= k then assert(has[s[j]], ("%s: simplex %d and its neighbour %d"):format(what, m, nb)) end
        end
        local back = false
        for _, b in ipairs(neighbors[nb]) do back = back or b == m end
        assert(back, ("%s: neighbour %d of %d does not name it back"):format(what, nb, m))
      end
    end
  end
  return hull
end

describe("scipy.spatial without a GPU", function()
  it("Delaunay's host triangulation is SciPy's (2-D, 3-D, 4-D), empty-sphere, oriented, with its hull", function()
    local H = spatial._delaunay.host
    for _, name in ipairs({ "del2", "del3", "del4" }) do
      local c = R[name]
      local dim = #c.P[1]
      local t = H.triangulate(c.P, dim)
      assert.same(c.simplices, vsets(t.simplices), name .. " simplices")
      assert.same(c.hull, vsets(check_neighbors(t.simplices, t.neighbors, dim, name)), name .. " hull")
      for m, s in ipairs(t.simplices) do
        local verts = {}
        for k = 1, dim + 1 do verts[k] = c.P[s[k]] end
        -- positive orientation: det [v_k - v_last] > 0
        local A = {}
        for a = 1, dim do
          A[a] = {}
          for b = 1, dim do A[a][b] = verts[b][a] - verts[dim + 1][a] end
        end
        assert(det(A, dim) > 0, ("%s: simplex %d is not positively oriented"):format(name, m))
        -- empty circumsphere: no point strictly inside
        local Bm, rhs = {}, {}
        for a = 1, dim do
          Bm[a], rhs[a] = {}, 0
          for b = 1, dim do
            Bm[a][b] = 2 * (verts[a][b] - verts[dim + 1][b])
            rhs[a] = rhs[a] + verts[a][b] ^ 2 - verts[dim + 1][b] ^ 2
          end
        end
        local cc = H.solve(Bm, rhs, dim)
        local r2 = 0
        for b = 1, dim do r2 = r2 + (cc[b] - verts[1][b]) ^ 2 end
        for i, p in ipairs(c.P) do
          local s2 = 0
          for b = 1, dim do s2 = s2 + (cc[b] - p[b]) ^ 2 end
          assert(s2 >= r2 * (1 - 1e-9), ("%s: point %d inside the circumsphere of simplex %d"):format(name, i, m))
        end
      end
    end
    -- a grid: cocircular points, every one a vertex, as many triangles as Qhull
    local g = H.triangulate(R.grid.P, 2)
    assert.equal(R.grid.nsimplex, #g.simplices)
    assert.same({}, g.coplanar)
    check_neighbors(g.simplices, g.neighbors, 2, "grid")
    -- duplicates are left out; 1-D is intervals; flat sets fail
    local dup = H.triangulate({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } }, 2)
    assert.same({ 4 }, dup.coplanar)
    assert.equal(2, #dup.simplices)
    local one = H.triangulate({ { 3 }, { 1 }, { 2 }, { 0 } }, 1)
    assert.same({ { 1, 3 }, { 2, 3 }, { 2, 4 } }, vsets(one.simplices))
    local flat, why = H.triangulate({ { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 } }, 2)
    assert.is_nil(flat)
    assert.truthy(why:find("lower-dimensional", 1, true))
    assert.is_nil(H.triangulate({ { 0, 0 }, { 1, 1 } }, 2))
  end)

  it("Delaunay's device code compiles; bad calls raise before the device", function()
    assert.is_not_nil(spatial._delaunay.find_kernel():compile("float64", "float64", "int64", "int32", "float64",
                                                              "int64"))
    helper.assert_gaerror(function() spatial.Delaunay({ { 0, 0 }, { 1, 0 }, { 0, 1 } }, true) end, "furthest_site")
  end)

  it("has CuPy's names, each declared, and compiles every metric", function()
    for _, n in ipairs({ "pdist", "cdist", "distance_matrix", "minkowski", "canberra", "chebyshev", "cityblock",
      "correlation", "cosine", "hamming", "euclidean", "jensenshannon", "russellrao", "sqeuclidean", "hellinger",
      "kl_divergence" }) do
      assert.is_not_nil(api.entry(d[n]), n)
    end
    assert.equal(d.distance_matrix, spatial.distance_matrix)
    assert.is_not_nil(api.entry(spatial.KDTree))
    for name in pairs(d._metrics) do
      for _, t in ipairs({ "float32", "float64" }) do
        d._kernel(name):compile(t, t, "float64", "int64", "int64", "float64", "float64", "float64")
      end
    end
  end)

  it("checks arguments before touching the device", function()
    helper.assert_gaerror(function() d.cdist(1, 2, "mahalanobis") end, "metric must be one of")
    helper.assert_gaerror(function() spatial.KDTree({ { 1, 2 } }, 0) end, "leafsize must be at least 1")
  end)
end)

describe("scipy.spatial", function()
  helper.gpu_it("cdist and pdist in every metric against SciPy, weighted and not", function()
    local XA, XB = ga.array(R.XA), ga.array(R.XB)
    for _, m in ipairs({ "euclidean", "sqeuclidean", "cityblock", "chebyshev", "canberra", "cosine",
      "correlation" }) do
      near(d.cdist(XA, XB, m), R["cdist_" .. m], 1e-12, "cdist " .. m)
      near(d.cdist(XA, XB, m, { w = R.w }), R["cdist_w_" .. m], 1e-12, "weighted " .. m)
      near(d.pdist(XA, m), R["pdist_" .. m], 1e-12, "pdist " .. m)
    end
    near(d.cdist(XA, XB, "minkowski", { p = 3 }), R.cdist_minkowski3, 1e-12, "minkowski 3")
    for _, m in ipairs({ "hamming", "russellrao" }) do
      near(d.cdist(ga.array(R.BA), ga.array(R.BB), m), R["cdist_" .. m], 1e-12, m)
    end
    near(d.cdist(ga.array(R.P), ga.array(R.Q), "jensenshannon"), R.cdist_jensenshannon, 1e-12, "jensenshannon")
    near(d.cdist(ga.array(R.Pn), ga.array(R.Qn), "hellinger"), R.hellinger, 1e-12, "hellinger")
    near(d.cdist(ga.array(R.Pn), ga.array(R.Qn), "kl_divergence"), R.kl, 1e-12, "kl_divergence")
    local x32 = d.cdist(XA:astype("float32"), XB:astype("float32"))
    assert.equal("float64", x32.dtype)
    near(x32, R.cdist_euclidean, 1e-6, "float32 input")
    assert.same({ 0 }, d.pdist(ga.ones({ 1, 3 })).shape)
    helper.assert_gaerror(function() d.cdist(XA, ga.ones({ 2, 2 })) end, "same number of columns")
  end)

  helper.gpu_it("vector distances (0-d arrays), distance_matrix", function()
    local u, v = ga.array(R.XA)[1], ga.array(R.XB)[1]
    assert.near(R.minkowski, d.minkowski(u, v, 3, R.w):item(), 1e-12)
    assert.near(R.cdist_euclidean[1][1], d.euclidean(u, v):item(), 1e-12)
    assert.near(R.cdist_cosine[1][1], d.cosine(u, v):item(), 1e-12)
    assert.near(R.correlation_nc, d.correlation(u, v, nil, false):item(), 1e-12)
    assert.near(R.js_base2, d.jensenshannon(ga.array(R.P)[1], ga.array(R.Q)[1], 2):item(), 1e-12)
    assert.same({}, d.sqeuclidean(u, v).shape)
    near(spatial.distance_matrix(R.XA, R.XB, 1), R.distance_matrix, 1e-12, "distance_matrix p = 1")
    helper.assert_gaerror(function() d.euclidean({ 1, 2 }, { 1, 2, 3 }) end, "same length")
  end)

  helper.gpu_it("KDTree: query (k, ranks, upper bound), query_ball_point, query_pairs, count_neighbors", function()
    local t = spatial.KDTree(R.pts)
    assert.equal(30, t.n)
    assert.equal(2, t.m)
    local dd, ii = t:query(R.qs, 3)
    near(dd, R.q_d, 1e-12, "distances")
    assert.same(R.q_i, ii:totable())
    local d1, i1 = t:query(R.qs)
    near(d1, R.q1_d, 1e-12, "k = 1")
    assert.same(R.q1_i, i1:totable())
    local db, ib = t:query(R.qs, { 2, 4 }, { distance_upper_bound = 0.15 })
    near(db, R.qb_d, 1e-12, "bounded")
    assert.same(R.qb_i, ib:totable())
    local balls = t:query_ball_point(R.qs, 0.2)
    for i, b in ipairs(R.ball) do assert.same(b, balls[i]:totable(), "ball " .. i) end
    assert.same(R.ball_len, t:query_ball_point(R.qs, 0.2, { return_length = true }):totable())
    local one = t:query_ball_point(R.qs[1], 0.2)
    assert.same(R.ball[1], one:totable())
    assert.same(R.pairs, t:query_pairs(0.1):totable())
    assert.equal(R.count, t:count_neighbors(spatial.KDTree(R.qs), 0.2))
    local S = t:sparse_distance_matrix(spatial.KDTree(R.qs), 0.2)
    assert.same({ 30, 4 }, S.shape)
  end)

  helper.gpu_it("Delaunay: fields, find_simplex, transform, vertex_neighbor_vertices, convex_hull against SciPy",
    function()
    for _, name in ipairs({ "del2", "del3", "del4" }) do
      local c = R[name]
      local dim = #c.P[1]
      local tri = spatial.Delaunay(ga.array(c.P))
      assert.equal(#c.P, tri.npoints)
      assert.equal(dim, tri.ndim)
      local S = tri.simplices
      assert.equal("int64", S.dtype)
      assert.same({ #c.simplices, dim + 1 }, S.shape)
      local simplices = S:totable()
      assert.same(c.simplices, vsets(simplices), name .. " simplices")
      assert.same(c.hull, vsets(check_neighbors(simplices, tri.neighbors:totable(), dim, name)), name .. " neighbors")
      assert.same(c.hull, vsets(tri.convex_hull:totable()), name .. " convex_hull")
      -- find_simplex: the simplex found is SciPy's (as a vertex set); 0 outside
      local found = tri:find_simplex(ga.array(c.Q))
      assert.equal("int64", found.dtype)
      assert.same({ #c.Q }, found.shape)
      for i, f in ipairs(found:totable()) do
        local got = {}
        if f > 0 then
          got = { table.unpack(simplices[f]) }
          table.sort(got)
        end
        assert.same(c.found[i], got, ("%s: query %d found simplex %d"):format(name, i, f))
      end
      -- shapes: (2, 3, dim) queries give (2, 3)
      local q6 = ga.array(c.Q):reshape(-1)[{ { 1, 6 * dim } }]:reshape(2, 3, dim)
      assert.same({ 2, 3 }, tri:find_simplex(q6).shape)
      -- transform: each simplex's vertices have unit barycentric coordinates
      local T = tri.transform:totable()
      for m, s in ipairs(simplices) do
        for k = 1, dim + 1 do
          local x = c.P[s[k]]
          local last = 1
          for a = 1, dim do
            local v = 0
            for b = 1, dim do v = v + T[m][a][b] * (x[b] - T[m][dim + 1][b]) end
            assert(math.abs(v - (a == k and 1 or 0)) < 1e-9, ("%s transform %d vertex %d"):format(name, m, k))
            last = last - v
          end
          assert(math.abs(last - (k == dim + 1 and 1 or 0)) < 1e-9)
        end
      end
      local indptr, indices = tri:vertex_neighbor_vertices()
      local ip, ix = indptr:totable(), indices:totable()
      for k = 1, #c.P do
        local l = {}
        for j = ip[k], ip[k + 1] - 1 do l[#l + 1] = ix[j] end
        assert.same(c.vnv[k], l, name .. " vertex_neighbor_vertices " .. k)
      end
      local v2s = tri.vertex_to_simplex:totable()
      for k = 1, #c.P do
        local has = false
        for _, v in ipairs(simplices[v2s[k]]) do has = has or v == k end
        assert(has, name .. " vertex_to_simplex " .. k)
      end
    end
    local dup = spatial.Delaunay({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } })
    local cop = dup.coplanar:totable()
    assert.equal(4, cop[1][1])
    assert.equal(2, cop[1][3])
    assert.equal(0, dup.vertex_to_simplex:totable()[4])
    helper.assert_gaerror(function() spatial.Delaunay({ { 0, 0 }, { 1, 1 }, { 2, 2 } }) end, "QhullError")
    helper.assert_gaerror(function() dup:find_simplex({ 1, 2, 3 }) end, "dimensionality")
  end)
end)
