--- Histograms of several dimensions (NumPy 2): histogramdd, histogram2d,
-- and histogram_bin_edges with NumPy's bin-width estimators. A point's bin
-- along each dimension is found by a binary search of that dimension's
-- edges (compared in float64, as NumPy's searchsorted compares the sample
-- with float64 edges): [left, right) bins, the last one closed; points
-- outside the edges, or NaN, are left out. Every point adds its weight (1)
-- with one float64 atomic add into the flat result: one kernel over the
-- points (histogram2d_f32_2^24_ms). Results are float64, as NumPy's.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local fail, is_array = internal.fail, internal.is_array

  local function as_array(x)
    if is_array(x) then return x end
    return ga.asarray(x)
  end
  local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

  local PREAMBLE = [[
// the bin of v among the nb + 1 edges e[o..o+nb]: -1 outside (or NaN)
template <typename E>
__device__ __forceinline__ long long ga_hbin(const E &e, long long o, long long nb, double v) {
  if (!(v >= (double)e[o]) || v > (double)e[o + nb]) return -1;
  if (v == (double)e[o + nb]) return nb - 1;
  long long lo = 0, hi = nb;
  while (hi - lo > 1) {
    const long long m = (lo + hi) / 2;
    if ((double)e[o + m] <= v) lo = m; else hi = m;
  }
  return lo;
}
]]
  local LETTERS = "ABCDEFGHJKLMNPQR"
  local MAXDIM = #LETTERS
  local kernels = {}
  local function hist_kernel(D, weighted)
    local key = D .. (weighted and "w" or "")
    if kernels[key] then return kernels[key] end
    local ins, body = {}, { "long long f = 0, b; bool ok = true;" }
    for d = 0, D - 1 do
      ins[#ins + 1] = ("%s x%d"):format(LETTERS:sub(d + 1, d + 1), d)
      body[#body + 1] = ("b = ga_hbin(e, eo[%d], nb[%d], (double)x%d); ok = ok && b >= 0; f = f * nb[%d] + b;")
        :format(d, d, d, d)
    end
    if weighted then ins[#ins + 1] = "W w" end
    ins[#ins + 1] = "raw float64 e, raw int64 eo, raw int64 nb"
    body[#body + 1] = ("if (ok) atomicAdd(&h[f], %s);"):format(weighted and "(double)w" or "1.0")
    local k = ga.ElementwiseKernel(table.concat(ins, ", "), "raw float64 h", table.concat(body, "\n"),
                                   "ga_histogramdd_" .. key, { preamble = PREAMBLE })
    kernels[key] = k
    return k
  end
  internal.histogram_kernel = hist_kernel   -- for the compile specs

  -- the outer edges of a 1-D array for a range ({lo, hi} or nil)
  local function outer_edges(x, range, fname)
    local lo, hi
    if range ~= nil then
      if type(range) ~= "table" or #range ~= 2 or type(range[1]) ~= "number" or type(range[2]) ~= "number" then
        fail(fname .. ": a range must be {min, max}")
      end
      lo, hi = range[1], range[2]
      if lo > hi then fail(fname .. ": max must be larger than min in range parameter") end
      if not (finite(lo) and finite(hi)) then
        fail(("%s: supplied range of [%s, %s] is not finite"):format(fname, tostring(lo), tostring(hi)))
      end
    elseif x.size == 0 then
      lo, hi = 0, 1
    else
      lo, hi = x:min():item(), x:max():item()
      if not (finite(lo) and finite(hi)) then
        fail(("%s: autodetected range of [%s, %s] is not finite"):format(fname, tostring(lo), tostring(hi)))
      end
    end
    if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
    return lo, hi
  end

  local function check_increasing(e, fname, what)
    if e.ndim ~= 1 then fail(("%s: %s must be a scalar or 1d array"):format(fname, what)) end
    local n = e.size
    if n >= 2 and ga.any(ga.greater(e[{ { 1, n - 1 } }], e[{ { 2, n } }])):item() then
      fail(("%s: %s must increase monotonically, when an array"):format(fname, what))
    end
    if n < 2 then fail(("%s: %s must hold at least 2 edges"):format(fname, what)) end
    return e
  end

  local function kind(dt) return ga.dtype(dt).kind end

  ---------------------------------------------------------------------------
  -- bin widths (NumPy's _hist_bin_selectors)
  local ptp = function(x) return x:max():item() - x:min():item() end
  local WIDTH = {}
  function WIDTH.sqrt(x) return ptp(x) / math.sqrt(x.size) end
  function WIDTH.sturges(x) return ptp(x) / (math.log(x.size, 2) + 1.0) end
  function WIDTH.rice(x) return ptp(x) / (2.0 * x.size ^ (1.0 / 3)) end
  function WIDTH.scott(x)
    return (24.0 * math.pi ^ 0.5 / x.size) ^ (1.0 / 3.0) * ga.std(x:astype("float64")):item()
  end
  function WIDTH.fd(x)
    local p = ga.percentile(x, { 75, 25 }):astype("float64"):totable()
    return 2.0 * (p[1] - p[2]) * x.size ^ (-1.0 / 3.0)
  end
  function WIDTH.doane(x)
    local n = x.size
    if n > 2 then
      local xd = x:astype("float64")
      local sg1 = math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
      local sigma = ga.std(xd):item()
      if sigma > 0 then
        local t = (xd - ga.mean(xd):item()) / sigma
        local g1 = ga.mean(t * t * t):item()
        return ptp(x) / (1.0 + math.log(n, 2) + math.log(1.0 + math.abs(g1) / sg1, 2))
      end
    end
    return 0.0
  end
  function WIDTH.auto(x)
    local fd, st = WIDTH.fd(x), WIDTH.sturges(x)
    if fd ~= 0 then return math.min(fd, st) end
    return st
  end
  local counts1d
  function WIDTH.stone(x, lo, hi)
    local n = x.size
    local p = ptp(x)
    if n <= 1 or p == 0 then return 0 end
    local best, bestj
    for nb = 1, math.max(100, math.floor(math.sqrt(n))) do
      local pk = counts1d(x, ga.linspace(lo, hi, nb + 1, { dtype = "float64" })) / n
      local j = (2 - (n + 1) * ga.dot(pk, pk):item()) / (p / nb)
      if best == nil or j < bestj then best, bestj = nb, j end
    end
    return p / best
  end

  --- the edges of one dimension: bins an integer, a string or the edges
  local function edges_of(x, bins, range, weights, fname, what)
    if type(bins) == "string" then
      local f = WIDTH[bins]
      if not f then fail(("%s: %q is not a valid estimator for bins"):format(fname, bins)) end
      if weights ~= nil then
        fail(fname .. ": automated estimation of the number of bins is not supported for weighted data")
      end
      local lo, hi = outer_edges(x, range, fname)
      local data = x
      if range ~= nil and x.size > 0 then data = x[ga.logical_and(x:ge(lo), x:le(hi))] end
      local n = 1
      if data.size > 0 then
        local w = f(data, lo, hi)
        if w ~= 0 then n = math.ceil((hi - lo) / w) end
      end
      bins = n
    end
    if math.type(bins) == "integer" then
      if bins < 1 then fail(("%s: %s must be positive, when an integer"):format(fname, what)) end
      local lo, hi = outer_edges(x, range, fname)
      local k = kind(x.dtype)
      local dt = (k == "f" and range == nil) and x.dtype or "float64"
      return ga.linspace(lo, hi, bins + 1, { dtype = dt })
    end
    if type(bins) == "number" then fail(("%s: %s must be an integer, when a scalar"):format(fname, what)) end
    return check_increasing(as_array(bins), fname, what)
  end

  -- the columns of a sample: an (N, D) array, a 1-D array (D = 1), or a
  -- list of D 1-D arrays / tables
  local function columns(sample, fname)
    local cols = {}
    if is_array(sample) then
      if sample.ndim == 1 then
        cols[1] = sample
      elseif sample.ndim == 2 then
        -- before the loop: a zero-size {0, 2^53} sample took 2^53 column views
        if sample.shape[2] > MAXDIM then fail(("%s: at most %d dimensions"):format(fname, MAXDIM)) end
        -- before the split: a {N, 0} sample has no column to tell its dtype
        if kind(sample.dtype) == "c" then fail(fname .. ": complex values have no order for bins") end
        for d = 1, sample.shape[2] do cols[d] = sample[{ {}, d }] end
      else
        fail(fname .. ": the sample must be an (N, D) array or a list of D arrays")
      end
    elseif type(sample) == "table" and (type(sample[1]) == "table" or is_array(sample[1])) then
      for d, c in ipairs(sample) do cols[d] = as_array(c):reshape(-1) end
    else
      cols[1] = as_array(sample):reshape(-1)
    end
    for d, c in ipairs(cols) do
      if kind(c.dtype) == "c" then fail(fname .. ": complex values have no order for bins") end
      if c.size ~= cols[1].size then fail(fname .. ": every dimension of the sample needs the same count of points") end
      cols[d] = c
    end
    if #cols > MAXDIM then fail(("%s: at most %d dimensions"):format(fname, MAXDIM)) end
    -- (NumPy's D = 0 has no bins to count into: its ravel_multi_index fails)
    if #cols == 0 then fail(fname .. ": the sample has no dimensions (D = 0)") end
    return cols
  end

  -- the float64 histogram of the columns over the edges (one per column),
  -- shape {#e1 - 1, #e2 - 1, ...}
  local function count(cols, edges, weights)
    local D = #cols
    local e64, eo, nb, shape, total, off = {}, {}, {}, {}, 1, 0
    for d = 1, D do
      e64[d] = edges[d]:astype("float64")
      eo[d] = off
      nb[d] = edges[d].size - 1
      off = off + edges[d].size
      shape[d] = nb[d]
      total = total * nb[d]
    end
    local h = ga.zeros(total, "float64")
    local n = cols[1].size
    if n > 0 and total > 0 then
      local args = {}
      for d = 1, D do args[d] = cols[d] end
      if weights ~= nil then args[#args + 1] = weights end
      args[#args + 1] = D == 1 and e64[1] or ga.concatenate(e64)
      args[#args + 1] = ga.array(eo, "int64")
      args[#args + 1] = ga.array(nb, "int64")
      args[#args + 1] = h
      hist_kernel(D, weights ~= nil)(table.unpack(args))
    end
    return h:reshape(shape)
  end
  counts1d = function(x, e) return count({ x }, { e }) end

  local function density(h, edges)
    local D = #edges
    local s = h:sum():item()
    for d = 1, D do
      local shape = {}
      for k = 1, D do shape[k] = 1 end
      local e = edges[d]:astype("float64")
      shape[d] = e.size - 1
      h = h / ga.diff(e):reshape(shape)
    end
    return h / s
  end

  local function histdd(fname, sample, bins, range, dens, weights)
    local cols = columns(sample, fname)
    local D = #cols
    local blist
    if type(bins) == "table" and not is_array(bins) and (type(bins[1]) == "table" or is_array(bins[1])
        or math.type(bins[1]) == "integer" or type(bins[1]) == "string") then
      blist = bins
      if #blist ~= D then fail(fname .. ": the dimension of bins must be equal to the dimension of the sample x") end
    elseif is_array(bins) and bins.ndim == 1 and D == 1 then
      blist = { bins }
    else
      blist = {}
      for d = 1, D do blist[d] = bins end
    end
    if range ~= nil and #range ~= D then fail(fname .. ": range argument must have one entry per dimension") end
    local w
    if weights ~= nil then
      w = as_array(weights):reshape(-1)
      if w.size ~= cols[1].size then fail(fname .. ": weights must have one value per point") end
    end
    local edges = {}
    for d = 1, D do
      edges[d] = edges_of(cols[d], blist[d], range and range[d], nil, fname, ("bins[%d]"):format(d))
    end
    local h = count(cols, edges, w)
    if dens then h = density(h, edges) end
    return h, edges
  end

  api.def(ga, [[
histogramdd(sample: array_like, bins: integer|list|ndarray = 10, range: list?, density: boolean?,
            weights: array_like?) -> ndarray, list
The multidimensional histogram of an (N, D) sample (or a list of D
sequences): float64 counts of shape {nbins1, ...} and the list of D edge
arrays. bins: a count, or per dimension a count or the edges; range: per
dimension {min, max}. density: divided by the total and the bin volumes.
]], function(sample, bins, range, dens, weights)
    return histdd("histogramdd", sample, bins, range, dens, weights)
  end)

  api.def(ga, [[
histogram2d(x: array_like, y: array_like, bins: integer|list|ndarray = 10, range: list?, density: boolean?,
            weights: array_like?) -> ndarray, ndarray, ndarray
The two-dimensional histogram of the points (x, y): float64 counts of shape
{nx, ny}, the x edges and the y edges. bins: a count, {nx, ny}, one edge
array for both, or {xedges, yedges}.
]], function(x, y, bins, range, dens, weights)
    x, y = as_array(x), as_array(y)
    if x.ndim ~= 1 or y.ndim ~= 1 or x.size ~= y.size then
      fail("histogram2d: x and y must be 1-D sequences of the same length")
    end
    if is_array(bins) or (type(bins) == "table" and #bins ~= 2) then bins = { bins, bins } end
    local h, e = histdd("histogram2d", { x, y }, bins, range, dens, weights)
    return h, e[1], e[2]
  end)

  api.def(ga, [[
histogram_bin_edges(a: array_like, bins: integer|string|list|ndarray = 10, range: list?,
                    weights: array_like?) -> ndarray
The edges histogram would use: bins a count, the edges, or the name of an
estimator of the bin width ("auto", "fd", "doane", "scott", "stone", "rice",
"sturges", "sqrt", NumPy's formulas; not with weights).
]], function(a, bins, range, weights)
    a = as_array(a)
    if kind(a.dtype) == "c" then fail("histogram_bin_edges: complex values have no order for bins") end
    return edges_of(a:reshape(-1), bins, range, weights, "histogram_bin_edges", "bins")
  end)
end
