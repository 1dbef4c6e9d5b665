--- ga.scipy.sparse.csgraph: connected_components (CuPy's one routine).
--
-- Weak components (or any components of an undirected graph): hooking and
-- pointer jumping (Shiloach-Vishkin): every edge links the roots of its
-- two ends, the larger root under the smaller, then paths are halved;
-- rounds repeat until no edge links two trees (one read back a round,
-- O(log n) rounds on most graphs). Roots are the smallest vertex of their
-- component, so labels numbered in root order are SciPy's (it labels
-- components in the order of their first vertex).
--
-- Strong components: forward-backward colouring: the largest vertex id
-- reachable backwards colours each vertex (propagated along edges), each
-- colour's root collects the vertices it reaches backwards within the
-- colour, which form its component; repeated on what is left. Labels are
-- numbered in the order of each component's smallest vertex (SciPy numbers
-- strong components in its own traversal order: the partition is the
-- same, the numbers may differ).
--
-- Labels are component numbers (values, 0-based as SciPy's: API.md §14).
return function(ga, sparse)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail = internal.fail
  local csgraph = {}

  local K = {}
  function csgraph._kernels()
    if K.hook then return K end
    K.hook = ga.ElementwiseKernel("int32 u, int32 v", "raw int32 parent, raw int32 changed", [[
      int ru = u; while (parent[ru] != ru) ru = parent[ru];
      int rv = v; while (parent[rv] != rv) rv = parent[rv];
      if (ru != rv) {
        int hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
        atomicMin(&parent[hi], lo);
        changed[0] = 1;
      }]], "ga_cc_hook")
    K.jump = ga.ElementwiseKernel("int32 self", "raw int32 parent", [[
      int p = parent[self];
      while (parent[p] != p) { p = parent[p]; }
      parent[self] = p;]], "ga_cc_jump")
    -- strong: colour[v] = max(colour[v], colour[u]) along u -> v, inside the active set
    K.colour = ga.ElementwiseKernel("int32 u, int32 v", "raw int32 colour, raw int32 comp, raw int32 changed", [[
      if (comp[u] < 0 && comp[v] < 0) {
        int cu = colour[u];
        if (cu > colour[v]) { atomicMax(&colour[v], cu); changed[0] = 1; }
      }]], "ga_cc_colour")
    -- strong: mark u when v is marked, u -> v, same colour, both active
    K.back = ga.ElementwiseKernel("int32 u, int32 v", "raw int32 colour, raw int32 comp, raw int32 mark, " ..
      "raw int32 changed", [[
      if (comp[u] < 0 && comp[v] < 0 && mark[v] && !mark[u] && colour[u] == colour[v]) {
        mark[u] = 1; changed[0] = 1;
      }]], "ga_cc_back")
    return K
  end

  -- repeat a propagation kernel until it changes nothing (one read a round)
  local function until_stable(run)
    local changed = ga.zeros(1, "int32")
    repeat
      changed:fill(0)
      run(changed)
    until changed[1] == 0
  end

  -- numbers 0..k-1 for the component ids of each vertex (ids are vertex
  -- numbers of a representative), in the order of each component's
  -- smallest vertex: unique's first index is that vertex (1-based), its
  -- rank the label; returns k, labels (int32)
  local function number(ids, n)
    if n == 0 then return 0, ga.zeros(0, "int32") end
    local _, first, inv = ga.unique(ids, { return_index = true, return_inverse = true })
    local rank = ga.argsort(ga.argsort(first)) - 1
    return first.size, rank:take(inv:reshape(n)):astype("int32")
  end

  local function edges(G, fname)
    local S
    if sparse.issparse(G) then S = G:tocoo()
    else
      local D = internal.is_array(G) and G or ga.asarray(G)
      if D.ndim ~= 2 then fail(fname .. ": csgraph must be a 2-D matrix") end
      S = sparse.coo_matrix(D)
    end
    local shape = S.shape
    if shape[1] ~= shape[2] then
      fail(("%s: the graph must be square, got shape {%d,%d}"):format(fname, shape[1], shape[2]))
    end
    -- SciPy counts stored entries as edges, zeros too (after summing duplicates)
    return S._row, S._col, shape[1]
  end

  def(csgraph, [[
scipy.sparse.csgraph.connected_components(csgraph: sparse|array_like, directed: boolean = true,
                                          connection: "weak"|"strong" = "weak", return_labels: boolean = true)
  -> integer, ndarray
The connected components of the graph whose edges are the stored entries of csgraph (n x n): their
number and each vertex's component label (0-based values, numbered in the order of each component's
smallest vertex). directed false or connection "weak" ignores edge directions.
]], function(G, directed, connection, return_labels)
    local fname = "scipy.sparse.csgraph.connected_components"
    local row, col, n = edges(G, fname)
    local k = csgraph._kernels()
    local ids
    if not directed or connection == "weak" then
      local parent = ga.arange(0, n, "int32")
      if row.size > 0 then
        until_stable(function(changed)
          k.hook(row, col, parent, changed)
          k.jump(ga.arange(0, n, "int32"), parent)
        end)
      end
      ids = parent
    else
      local comp = ga.full(n, -1, "int32")
      local vid = ga.arange(0, n, "int32")
      while n > 0 and ga.any(ga.less(comp, 0)):item() do
        local colour = ga.where(ga.less(comp, 0), vid, -1):astype("int32")
        if row.size > 0 then until_stable(function(changed) k.colour(row, col, colour, comp, changed) end) end
        local active = ga.less(comp, 0)
        local mark = ga.logical_and(active, ga.equal(colour, vid)):astype("int32")
        if row.size > 0 then until_stable(function(changed) k.back(row, col, colour, comp, mark, changed) end) end
        local m = ga.not_equal(mark, 0)
        comp = ga.where(m, colour, comp):astype("int32")
      end
      ids = comp
    end
    local count, labels = number(ids, n)
    if not return_labels then return count end
    return count, labels
  end)

  return csgraph
end
