--- ga.scipy.spatial: distance (distance.lua), distance_matrix, KDTree and
-- Delaunay (delaunay.lua).
--
-- KDTree answers its queries exactly, by computing the distances to every
-- point on the GPU (one kernel, spatial/distance.lua) and selecting from
-- them (a row-wise sort for the k nearest, a mask for the balls): no tree
-- is built, leafsize and the tree options are accepted for SciPy's
-- signature, and eps (approximate search) is not needed. Indices returned
-- are 1-based (API.md §14); a missing neighbour has index n + 1 (SciPy's
-- n) and distance inf.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  require("gpuarray.api.surface")       -- api.class
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local spatial = {}
  local distance = require("gpuarray.scipy.spatial.distance")(ga)
  spatial.distance = distance
  spatial.distance_matrix = distance.distance_matrix
  api.alias("scipy.spatial.distance_matrix", distance.distance_matrix)

  local methods = {}
  local MT = { __name = "gpuarray.KDTree" }
  api.set_type("KDTree", function(v) return getmetatable(v) == MT end)
  MT.__index = function(t, k)
    local f = methods[k]
    if f then return f end
    if k == "n" then return t.data.shape[1] end
    if k == "m" then return t.data.shape[2] end
    return nil
  end
  MT.__tostring = function(t)
    return ("<KDTree of %d points in %d dimensions>"):format(t.data.shape[1], t.data.shape[2])
  end

  def(spatial, [[
scipy.spatial.KDTree(data: array_like, leafsize: integer = 10, compact_nodes: boolean = true,
                     copy_data: boolean = false, balanced_tree: boolean = true, boxsize: any = nil) -> KDTree
A nearest-neighbour index over the n x m points of data: query, query_ball_point, query_pairs,
count_neighbors, sparse_distance_matrix. Queries are exact and computed from all distances on the GPU
(no tree is built: the tree options are accepted for SciPy's signature). Periodic boxes (boxsize) are
not supported.
]], function(data, leafsize)
    local fname = "scipy.spatial.KDTree"
    if leafsize < 1 then fail(fname .. ": leafsize must be at least 1") end
    if not is_array(data) then data = ga.asarray(data) end
    if data.ndim ~= 2 then fail(fname .. ": data must be 2-D (n points of m coordinates)") end
    local dt = ga.dtype(data.dtype).kind == "f" and data.dtype or "float64"
    return setmetatable({ data = ga.ascontiguousarray(data:astype(dt)), leafsize = leafsize }, MT)
  end)

  -- the query points as q x m rows, and the leading shape to give back
  local function points(tree, x, fname)
    if not is_array(x) then x = ga.asarray(x) end
    local m = tree.data.shape[2]
    if x.ndim == 0 or x.shape[x.ndim] ~= m then
      fail(("%s: x must consist of vectors of length %d"):format(fname, m))
    end
    local lead = x.shape
    lead[#lead] = nil
    return x:reshape(-1, m), lead
  end

  local function dist(tree, X, p)
    return distance._distance_matrix(X, tree.data, p)
  end

  def(methods, [[
KDTree:query(x: array_like, k: integer|list = 1, eps: number = 0, p: number = 2,
             distance_upper_bound: number = (inf), workers: integer = 1) -> ndarray, ndarray
The k nearest points of each point of x (..., m): distances and 1-based indices, shaped (...) when k is
1, (..., k) when k is an integer, (..., #k) when k lists the neighbour ranks wanted (1-based). Points
past distance_upper_bound come back as distance inf and index n + 1.
]], function(tree, x, k, _, p, bound)
    local fname = "KDTree.query"
    bound = bound or math.huge
    local X, lead = points(tree, x, fname)
    local n = tree.data.shape[1]
    local ranks = type(k) == "table" and k or nil
    local kmax = ranks and 0 or k
    if ranks then for _, r in ipairs(ranks) do kmax = math.max(kmax, r) end end
    if kmax < 1 then fail(fname .. ": k must be positive") end
    local q = X.shape[1]
    local D = dist(tree, X, p)
    local take = math.min(kmax, n)
    local order = ga.argsort(D, 2)[{ {}, { 1, take } }]                    -- 1-based, ascending
    local rowbase = (ga.arange(0, q, "int64") * n):reshape(q, 1)
    local d = ga.take(D:reshape(-1), ga.add(order:astype("int64"), rowbase):reshape(-1)):reshape(q, take)
    local idx = order:astype("int64")
    if take < kmax then
      d = ga.concatenate({ d, ga.full({ q, kmax - take }, math.huge) }, 2)
      idx = ga.concatenate({ idx, ga.full({ q, kmax - take }, n + 1, "int64") }, 2)
    end
    if bound < math.huge then
      local far = ga.greater(d, bound)
      d = ga.where(far, math.huge, d)
      idx = ga.where(far, n + 1, idx):astype("int64")
    end
    if ranks then
      local cols = ga.array(ranks, "int64")
      d, idx = ga.take(d, cols, 2), ga.take(idx, cols, 2)
    end
    local shape = { table.unpack(lead) }
    if ranks or k ~= 1 then shape[#shape + 1] = ranks and #ranks or k end
    return d:reshape(shape), idx:reshape(shape)
  end)

  def(methods, [[
KDTree:query_ball_point(x: array_like, r: number|ndarray, p: number = 2, eps: number = 0, workers: integer = 1,
                        return_sorted: boolean?, return_length: boolean = false) -> ndarray|table
The 1-based indices of the points within distance r of x (ascending): an ndarray for one point (m,), a
Lua list of ndarrays for several; with return_length the counts instead.
]], function(tree, x, r, p, _, _, _, return_length)
    local fname = "KDTree.query_ball_point"
    local single = not is_array(x) and type(x) == "table" and type(x[1]) == "number" or
      (is_array(x) and x.ndim == 1)
    local X = points(tree, x, fname)
    local q = X.shape[1]
    local D = dist(tree, X, p)
    local rr = is_array(r) and r:reshape(q, 1) or r
    local within = ga.less_equal(D, rr)
    if return_length then
      local counts = ga.sum(within:astype("int64"), { axis = 2 })
      if single then return math.tointeger(counts[1]) end
      return counts
    end
    local out = {}
    for i = 1, q do out[i] = ga.nonzero(within[i]) end
    if single then return out[1] end
    return out
  end)

  def(methods, [[
KDTree:query_pairs(r: number, p: number = 2, eps: number = 0, output_type: "set"|"ndarray" = "set") -> ndarray
The pairs (i, j), i < j, of points within distance r: an npairs x 2 array of 1-based indices, sorted
(for either output_type: Lua has no sets of tuples).
]], function(tree, r, p)
    local n = tree.data.shape[1]
    if n < 2 then return ga.empty({ 0, 2 }, "int64") end
    local D = dist(tree, tree.data, p)
    local i = ga.arange(0, n, "int64"):reshape(n, 1)
    local j = ga.arange(0, n, "int64"):reshape(1, n)
    local mask = ga.logical_and(ga.less(i, j), ga.less_equal(D, r)):reshape(-1)
    local flat = ga.arange(0, n * n, "int64")[mask]
    return ga.stack({ flat // n + 1, flat % n + 1 }, 2)
  end)

  def(methods, [[
KDTree:count_neighbors(other: KDTree, r: number|array_like, p: number = 2, weights: any = nil,
                       cumulative: boolean = true) -> ndarray|integer
The number of pairs (x in self, y in other) with distance(x, y) <= r, for each r (cumulative false:
in the bins from r[i-1] (excluded) to r[i]). weights are not supported.
]], function(tree, other, r, p, weights, cumulative)
    local fname = "KDTree.count_neighbors"
    if weights ~= nil then fail(fname .. ": weights are not supported") end
    local D = dist(tree, other.data, p):reshape(-1)
    if type(r) == "number" then return math.tointeger(ga.count_nonzero(ga.less_equal(D, r)):item()) end
    local rv = ga.asarray(r):astype("float64"):reshape(-1)
    local sorted = ga.sort(D)
    local counts = ga.searchsorted(sorted, rv, "right") - 1                -- how many <= r
    if not cumulative then
      counts = ga.concatenate({ counts[{ { 1, 1 } }], ga.subtract(counts[{ { 2, -1 } }], counts[{ { 1, -2 } }]) })
    end
    return counts:astype("int64")
  end)

  def(methods, [[
KDTree:sparse_distance_matrix(other: KDTree, max_distance: number, p: number = 2,
                              output_type: string = "coo_matrix") -> spmatrix
The distances between the points of self and of other that are at most max_distance, as a COO matrix
(n x other.n; a stored distance of 0 is kept out, as SciPy's sparse results).
]], function(tree, other, max_distance, p)
    -- self's points are the rows (n x other.n), as SciPy's
    local D = distance._distance_matrix(tree.data, other.data, p)
    local keep = ga.less_equal(D, max_distance)
    local Dm = ga.where(keep, D, 0)
    return ga.sparse.coo_matrix(Dm)
  end)

  api.class("KDTree", methods)
  require("gpuarray.scipy.spatial.delaunay")(ga, spatial)
  return spatial
end
