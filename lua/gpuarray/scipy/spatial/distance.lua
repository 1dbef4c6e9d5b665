--- scipy.spatial.distance: cdist, pdist, distance_matrix and the distances
-- of two vectors, CuPy's set of metrics (SciPy's, with RAFT's hellinger and
-- kl_divergence). One kernel per metric computes every pair (one thread a
-- pair, a loop over the coordinates, in double precision, weights w
-- folded in as SciPy's weighted definitions); the vector functions are
-- the 1 x 1 case, returned as 0-d float64 arrays (no read back).
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local shape_str = internal.shape_str
  local distance = {}

  -- per metric: the accumulators, the loop body (x, y, wk the k-th
  -- coordinates and weight) and the result; pre: a first loop when needed
  local METRIC = {
    euclidean = { body = "acc += wk * (x - y) * (x - y);", final = "sqrt(acc)" },
    sqeuclidean = { body = "acc += wk * (x - y) * (x - y);", final = "acc" },
    cityblock = { body = "acc += wk * fabs(x - y);", final = "acc" },
    chebyshev = { body = "if (wk > 0 && fabs(x - y) > acc) acc = fabs(x - y);", final = "acc" },
    minkowski = { body = "acc += wk * pow(fabs(x - y), p);", final = "pow(acc, 1.0 / p)" },
    canberra = { body = "double den = fabs(x) + fabs(y); if (den > 0) acc += wk * fabs(x - y) / den;",
                 final = "acc" },
    hamming = { body = "acc += wk * (x != y); sw += wk;", final = "sw > 0 ? acc / sw : 0.0" },
    russellrao = { body = "acc += wk * (x != 0 && y != 0); sw += wk;", final = "sw > 0 ? (sw - acc) / sw : 0.0" },
    cosine = { body = "sxy += wk * x * y; sxx += wk * x * x; syy += wk * y * y;",
               final = "fmax(0.0, 1.0 - sxy / sqrt(sxx * syy))" },
    correlation = { body = "sw += wk; sx += wk * x; sy += wk * y; sxy += wk * x * y; sxx += wk * x * x; " ..
                      "syy += wk * y * y;",
                    final = "fmax(0.0, 1.0 - (sxy - sx * sy / sw) / " ..
                      "sqrt((sxx - sx * sx / sw) * (syy - sy * sy / sw)))" },
    -- p and q normalised, m their mean: sqrt((KL(p, m) + KL(q, m)) / 2)
    jensenshannon = { pre = "sx += x; sy += y;", body = [[
      double pp = x / sx, qq = y / sy, mm = (pp + qq) / 2;
      acc += ga_rel_entr(pp, mm) + ga_rel_entr(qq, mm);]], final = "sqrt(fmax(acc, 0.0) / 2 / logbase)" },
    hellinger = { body = "acc += sqrt(x * y);", final = "sqrt(fmax(1.0 - acc, 0.0))" },
    kl_divergence = { body = "acc += ga_rel_entr(x, y);", final = "acc" },
  }
  distance._metrics = METRIC

  local PREAMBLE = [[
__device__ __forceinline__ double ga_rel_entr(double a, double b) {
  if (a > 0 && b > 0) return a * log(a / b);
  if (a == 0 && b >= 0) return 0.0;
  return __longlong_as_double(0x7ff0000000000000LL);
}
]]

  local kernels = {}
  --- the pair kernel of a metric: out[r, c] = dist(a[r, :], b[c, :])
  function distance._kernel(metric)
    local m = METRIC[metric]
    if not kernels[metric] then
      local code = ([[
        long long r = i / n, c = i %% n;
        double acc = 0, sw = 0, sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0;
        %s
        for (long long k = 0; k < d; k++) {
          double x = (double)a[r * d + k], y = (double)b[c * d + k], wk = w[k];
          %s
        }
        out = %s;]]):format(m.pre and ("for (long long k = 0; k < d; k++) { double x = (double)a[r * d + k], " ..
        "y = (double)b[c * d + k]; " .. m.pre .. " }") or "", m.body, m.final)
      kernels[metric] = ga.ElementwiseKernel("raw T a, raw T b, raw float64 w, int64 d, int64 n, float64 p, " ..
        "float64 logbase", "float64 out", code, "ga_dist_" .. metric, { preamble = PREAMBLE })
    end
    return kernels[metric]
  end

  local function matrix(x, fname, what)
    if not is_array(x) then x = ga.asarray(x) end
    if x.ndim ~= 2 then fail(("%s: %s must be a 2-D array, got shape %s"):format(fname, what, shape_str(x.shape))) end
    return x
  end

  local function pairs_of(A, B, metric, p, w, base, fname, out)
    local m = METRIC[metric]
    if not m then fail(("%s: unknown distance metric %s"):format(fname, tostring(metric))) end
    local d = A.shape[2]
    if B.shape[2] ~= d then
      fail(("%s: XA and XB must have the same number of columns (%d and %d)"):format(fname, d, B.shape[2]))
    end
    if metric == "minkowski" and p <= 0 then fail(fname .. ": p must be greater than 0") end
    if metric == "minkowski" and p == math.huge then metric = "chebyshev" end
    local dt = ga.result_type(A, B)
    if dt == "bool" or ga.dtype(dt).kind ~= "f" then dt = "float64" end
    A, B = ga.ascontiguousarray(A:astype(dt)), ga.ascontiguousarray(B:astype(dt))
    local wd
    if w ~= nil then
      wd = ga.asarray(w):astype("float64")
      if wd.ndim ~= 1 or wd.size ~= d then fail(("%s: w must be 1-D with %d weights"):format(fname, d)) end
      if d > 0 and ga.any(ga.less(wd, 0)):item() then fail(fname .. ": input weights should be all non-negative") end
      wd = ga.ascontiguousarray(wd)
    else
      wd = ga.ones(d, "float64")
    end
    local shape = { A.shape[1], B.shape[1] }
    local res = out
    if res then
      internal.check_out(out, shape, fname)
      if out.dtype ~= "float64" then fail(fname .. ": out must be float64") end
    else
      res = ga.empty(shape, "float64")
    end
    if shape[1] * shape[2] > 0 then
      distance._kernel(metric)(A, B, wd, d, shape[2], p, base and math.log(base) or 1.0, res)
    end
    return res
  end

  local METRICS = '"euclidean"|"sqeuclidean"|"cityblock"|"chebyshev"|"minkowski"|"canberra"|"hamming"|' ..
    '"russellrao"|"cosine"|"correlation"|"jensenshannon"|"hellinger"|"kl_divergence"'

  def(distance, ([[
scipy.spatial.distance.cdist(XA: array_like, XB: array_like, metric: %s = "euclidean", *, out: ndarray?,
                             p: number = 2, w: array_like?) -> ndarray
The distances between each row of XA (ma x d) and each row of XB (mb x d): ma x mb, float64. p is
minkowski's order, w the weights of the weighted metrics (SciPy's definitions).
]]):format(METRICS), function(XA, XB, metric, out, p, w)
    local fname = "scipy.spatial.distance.cdist"
    return pairs_of(matrix(XA, fname, "XA"), matrix(XB, fname, "XB"), metric, p, w, nil, fname, out)
  end)

  def(distance, ([[
scipy.spatial.distance.pdist(X: array_like, metric: %s = "euclidean", *, out: ndarray?, p: number = 2,
                             w: array_like?) -> ndarray
The condensed distances of the rows of X (m x d): the m (m - 1) / 2 pairs i < j in row-major order,
float64.
]]):format(METRICS), function(X, metric, out, p, w)
    local fname = "scipy.spatial.distance.pdist"
    X = matrix(X, fname, "X")
    local m = X.shape[1]
    local full = pairs_of(X, X, metric, p, w, nil, fname)
    local count = m * (m - 1) // 2
    local res
    if m < 2 then res = ga.empty(0, "float64")
    else
      local r = ga.arange(0, m, "int64"):reshape(m, 1)
      local c = ga.arange(0, m, "int64"):reshape(1, m)
      res = full:reshape(-1)[ga.less(r, c):reshape(-1)]
    end
    if out then
      internal.check_out(out, { count }, fname)
      out:set(res)
      return out
    end
    return res
  end)

  local function distance_matrix(x, y, p, _)
    local fname = "scipy.spatial.distance.distance_matrix"
    x, y = matrix(x, fname, "x"), matrix(y, fname, "y")
    if x.shape[2] ~= y.shape[2] then
      fail(("%s: x contains %d-dimensional vectors but y contains %d-dimensional vectors"):format(fname,
        x.shape[2], y.shape[2]))
    end
    return pairs_of(x, y, p == math.huge and "chebyshev" or "minkowski", p, nil, nil, fname)
  end
  def(distance, [[
scipy.spatial.distance.distance_matrix(x: array_like, y: array_like, p: number = 2, threshold: integer = 1000000)
  -> ndarray
The Minkowski p-norm distances between the rows of x (m x k) and of y (n x k): m x n, float64.
threshold is accepted for SciPy's signature.
]], distance_matrix)
  distance._distance_matrix = distance_matrix

  -- the 1 x 1 case of a metric: a 0-d float64 array
  local function vector_distance(name, u, v, p, w, base)
    local fname = "scipy.spatial.distance." .. name
    u, v = ga.asarray(u), ga.asarray(v)
    if u.ndim ~= 1 then u = u:reshape(-1) end
    if v.ndim ~= 1 then v = v:reshape(-1) end
    if u.size ~= v.size then
      fail(("%s: u and v must have the same length, got %d and %d"):format(fname, u.size, v.size))
    end
    return pairs_of(u:reshape(1, u.size), v:reshape(1, v.size), name, p, w, base, fname):reshape({})
  end

  for _, name in ipairs({ "canberra", "chebyshev", "cityblock", "cosine", "hamming", "euclidean", "russellrao",
    "sqeuclidean" }) do
    def(distance, ([[
scipy.spatial.distance.%s(u: array_like, v: array_like, w: array_like?) -> ndarray
The %s distance of two vectors (weighted by w), a 0-d float64 array.
]]):format(name, name), function(u, v, w) return vector_distance(name, u, v, 2, w) end)
  end

  def(distance, [[
scipy.spatial.distance.minkowski(u: array_like, v: array_like, p: number = 2, w: array_like?) -> ndarray
The Minkowski p-norm distance (sum w |u - v|^p)^(1/p), a 0-d float64 array.
]], function(u, v, p, w) return vector_distance("minkowski", u, v, p, w) end)

  def(distance, [[
scipy.spatial.distance.correlation(u: array_like, v: array_like, w: array_like?, centered: boolean = true)
  -> ndarray
1 minus the (weighted) correlation of u and v (centered false: the cosine distance), a 0-d float64 array.
]], function(u, v, w, centered)
    return vector_distance(centered and "correlation" or "cosine", u, v, 2, w)
  end)

  def(distance, [[
scipy.spatial.distance.jensenshannon(p: array_like, q: array_like, base: number?, *, axis: integer = 1,
                                     keepdims: boolean = false) -> ndarray
The Jensen-Shannon distance of two probability vectors (normalised first; natural log, or base), a 0-d
float64 array. axis (1-based) and keepdims for 2-D p and q: the distance of each slice.
]], function(pv, qv, base, axis, keepdims)
    local fname = "scipy.spatial.distance.jensenshannon"
    pv, qv = ga.asarray(pv), ga.asarray(qv)
    if pv.ndim <= 1 then
      local r = vector_distance("jensenshannon", pv, qv, 2, nil, base)
      if keepdims then return r:reshape(1) end
      return r
    end
    if pv.ndim ~= 2 then fail(fname .. ": p and q must be 1-D or 2-D") end
    if axis < 0 then axis = axis + 3 end
    if axis ~= 1 and axis ~= 2 then fail(fname .. ": axis must be 1 or 2") end
    local P = axis == 1 and pv:swapaxes(1, 2) or pv
    local Q = axis == 1 and qv:swapaxes(1, 2) or qv
    local full = pairs_of(P, Q, "jensenshannon", 2, nil, base, fname)
    local r = ga.diagonal(full):copy()
    if keepdims then r = axis == 1 and r:reshape(1, r.size) or r:reshape(r.size, 1) end
    return r
  end)

  def(distance, [[
scipy.spatial.distance.hellinger(u: array_like, v: array_like) -> ndarray
The Hellinger distance sqrt(1 - sum sqrt(u v)) of two probability vectors (RAFT's, as CuPy's), a 0-d
float64 array.
]], function(u, v) return vector_distance("hellinger", u, v, 2) end)

  def(distance, [[
scipy.spatial.distance.kl_divergence(u: array_like, v: array_like) -> ndarray
The Kullback-Leibler divergence sum u log(u / v) of two probability vectors (RAFT's, as CuPy's), a 0-d
float64 array.
]], function(u, v) return vector_distance("kl_divergence", u, v, 2) end)

  return distance
end
