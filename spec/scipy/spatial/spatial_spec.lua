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

describe("scipy.spatial without a GPU", function()
  it("has CuPy's names (Delaunay aside), each declared, and compiles every metric", function()
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
end)
