--- Peak finding (cupyx.scipy.signal's argrelextrema, argrelmax, argrelmin,
-- find_peaks, peak_prominences, peak_widths).
--
-- Positions the user reads or writes are 1-based (API.md §14): the
-- peaks, the bases (left_bases, right_bases) and plateau edges (left_edges,
-- right_edges), and argrelextrema's index arrays. Interpolated positions
-- (left_ips, right_ips) are continuous coordinates: values as SciPy has
-- them, 0-based. Heights, thresholds, prominences and widths are values.
--
-- On the device: the local maxima (one thread per sample scans its
-- plateau), the prominences and widths (one thread per peak walks out to
-- its bases) and every condition (masks over the peaks). The distance
-- condition keeps peaks greedily by height, a sequential rule: it runs on
-- the host over the peaks found (not over the signal).
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local U = S.U
  local fail = U.fail

  local function name(n) return "scipy.signal." .. n end

  local kernels = {}
  local function ew(key, ins, outs, body)
    if not kernels[key] then kernels[key] = ga.ElementwiseKernel(ins, outs, body, "ga_peaks_" .. key) end
    return kernels[key]
  end

  -- the plateau starting at i (x[i - 1] < x[i]) is a maximum when the first
  -- different sample after it is lower: left = i, right = its last sample
  local function maxima_kernel()
    return ew("maxima", "raw float64 x, int64 n", "int64 left, int64 right", [[
      left = -1;
      right = -1;
      if (i >= 1 && i < n - 1 && x[i - 1] < x[i]) {
        long long a = i + 1;
        while (a < n - 1 && x[a] == x[i]) a++;
        if (x[a] < x[i]) {
          left = i;
          right = a - 1;
        }
      }
    ]])
  end

  -- SciPy's _peak_prominences for one peak (0-based), wlen < 2: no window
  local function prominence_kernel()
    return ew("prominence", "raw float64 x, int64 peak, int64 n, int64 wlen",
              "float64 prom, int64 lb, int64 rb", [[
      long long i_min = 0, i_max = n - 1;
      if (wlen >= 2) {
        i_min = peak - wlen / 2 > i_min ? peak - wlen / 2 : i_min;
        i_max = peak + wlen / 2 < i_max ? peak + wlen / 2 : i_max;
      }
      const double xp = x[peak];
      long long k = peak, base = peak;
      double left_min = xp;
      while (i_min <= k && x[k] <= xp) {
        if (x[k] < left_min) { left_min = x[k]; base = k; }
        k--;
      }
      lb = base;
      k = peak;
      base = peak;
      double right_min = xp;
      while (k <= i_max && x[k] <= xp) {
        if (x[k] < right_min) { right_min = x[k]; base = k; }
        k++;
      }
      rb = base;
      prom = xp - (left_min > right_min ? left_min : right_min);
    ]])
  end

  -- SciPy's _peak_widths for one peak: the crossings of the line rel_height
  -- of the prominence below the peak, interpolated between samples
  local function width_kernel()
    return ew("widths", "raw float64 x, int64 peak, float64 prom, int64 lb, int64 rb, float64 rel",
              "float64 width, float64 height, float64 lip, float64 rip", [[
      const double h = x[peak] - prom * rel;
      height = h;
      long long k = peak;
      while (lb < k && h < x[k]) k--;
      double l = (double)k;
      if (x[k] < h) l += (h - x[k]) / (x[k + 1] - x[k]);
      k = peak;
      while (k < rb && h < x[k]) k++;
      double r = (double)k;
      if (x[k] < h) r -= (h - x[k]) / (x[k - 1] - x[k]);
      lip = l;
      rip = r;
      width = r - l;
    ]])
  end
  S.peak_kernels = function()
    return maxima_kernel(), prominence_kernel(), width_kernel()
  end

  local function as_x(x, fname)
    x = U.arr(x, fname, "x")
    if x.ndim ~= 1 then fail(fname .. ": `x` must be a 1-D array") end
    if U.is_complex(x.dtype) then fail(fname .. ": `x` must be real") end
    return ga.ascontiguousarray(U.cast(x, "float64"))
  end

  -- peaks given by the user (1-based) as 0-based int64, checked
  local function as_peaks(peaks, n, fname)
    local p = U.arr(peaks, fname, "peaks")
    if p.ndim > 1 then fail(fname .. ": `peaks` must be a 1-D array") end
    p = p:reshape({ -1 })
    if p.size > 0 then
      if U.is_complex(p.dtype) or p.dtype:find("float") then
        if not ga.all(ga.floor(p):eq(p)):item() then fail(fname .. ": cannot safely cast `peaks` to integers") end
      end
      p = U.cast(p, "int64") - 1
      if ga.any(p:lt(0) | p:ge(n)):item() then fail(fname .. ": a peak is not a valid index for `x` (1-based)") end
    else
      p = ga.empty(0, "int64")
    end
    return p
  end

  local function wlen_arg(wlen, fname)
    if wlen == nil then return -1 end
    if wlen > 1 then return math.tointeger(math.ceil(wlen)) end
    fail(("%s: `wlen` must be larger than 1, was %s"):format(fname, tostring(wlen)))
  end

  local function prominences0(x, p0, wlen)
    if p0.size == 0 then
      return ga.empty(0, "float64"), ga.empty(0, "int64"), ga.empty(0, "int64")
    end
    return prominence_kernel()(x, p0, x.size, wlen)
  end

  local function widths0(x, p0, prom, lb, rb, rel)
    if p0.size == 0 then
      local e = ga.empty(0, "float64")
      return e, e, e, e
    end
    return width_kernel()(x, p0, prom, lb, rb, rel)
  end

  api.def(signal, [[
scipy.signal.peak_prominences(x: array_like, peaks: array_like, wlen: number? = nil) -> ndarray, ndarray, ndarray
Each peak's prominence (its height above the higher of its two bases) and
the bases (1-based positions), within a window of wlen samples if given.
]], function(x, peaks, wlen)
    local fname = name("peak_prominences")
    local w = wlen_arg(wlen, fname)
    x = as_x(x, fname)
    local p0 = as_peaks(peaks, x.size, fname)
    local prom, lb, rb = prominences0(x, p0, w)
    return prom, lb + 1, rb + 1
  end)

  api.def(signal, [[
scipy.signal.peak_widths(x: array_like, peaks: array_like, rel_height: number = 0.5, prominence_data: list? = nil,
                         wlen: number? = nil) -> ndarray, ndarray, ndarray, ndarray
Each peak's width at rel_height of its prominence below the peak: the
widths, the heights of the lines, and the interpolated left and right
crossings (continuous positions: 0-based values as SciPy's). prominence_data
is {prominences, left_bases, right_bases} (bases 1-based), computed when nil.
]], function(x, peaks, rel_height, prominence_data, wlen)
    local fname = name("peak_widths")
    if rel_height < 0 then fail(fname .. ": `rel_height` must be greater or equal to 0.0") end
    x = as_x(x, fname)
    local p0 = as_peaks(peaks, x.size, fname)
    local prom, lb, rb
    if prominence_data == nil then
      prom, lb, rb = prominences0(x, p0, wlen_arg(wlen, fname))
    else
      prom = U.cast(U.arr(prominence_data[1], fname, "prominences"), "float64")
      lb = U.cast(U.arr(prominence_data[2], fname, "left_bases"), "int64") - 1
      rb = U.cast(U.arr(prominence_data[3], fname, "right_bases"), "int64") - 1
      if prom.size ~= p0.size or lb.size ~= p0.size or rb.size ~= p0.size then
        fail(fname .. ": arrays in `prominence_data` must have the same shape as `peaks`")
      end
      if p0.size > 0 and ga.any(lb:lt(0) | lb:gt(p0) | p0:gt(rb) | rb:ge(x.size)):item() then
        fail(fname .. ": prominence data is invalid")
      end
    end
    return widths0(x, p0, prom, lb, rb, rel_height)
  end)

  -- a condition: a number (the minimum), {min, max} (either nil), or
  -- arrays of x's length (each sampled at the peaks)
  local function condition(c, n, p0, fname, what)
    local function one(v)
      if v == nil then return nil end
      if type(v) == "number" then return v end
      local a = U.cast(U.arr(v, fname, what), "float64")
      if a.ndim == 0 then return a:item() end
      if a.size ~= n then fail(("%s: array size of lower interval border must match x"):format(fname)) end
      return ga.take(a, p0 + 1)
    end
    if type(c) == "table" and not U.is_array(c) and rawlen(c) <= 2 then return one(c[1]), one(c[2]) end
    return one(c), nil
  end

  local function select(prop, lo, hi)
    local keep
    if lo ~= nil then
      keep = type(lo) == "number" and prop:ge(lo) or ga.less_equal(lo, prop)
    end
    if hi ~= nil then
      local k2 = type(hi) == "number" and prop:le(hi) or ga.less_equal(prop, hi)
      keep = keep and (keep & k2) or k2
    end
    return keep
  end

  -- SciPy's _select_by_peak_distance on the host: the highest peaks first,
  -- each removing its neighbours closer than distance
  local function by_distance(p0, heights, distance)
    local pos, pri = p0:totable(), heights:totable()
    local n = #pos
    local order = {}
    for i = 1, n do order[i] = i end
    table.sort(order, function(a, b)
      if pri[a] ~= pri[b] then return pri[a] < pri[b] end
      return a < b
    end)
    local d = math.ceil(distance)
    local keep = {}
    for i = 1, n do keep[i] = true end
    for i = n, 1, -1 do
      local j = order[i]
      if keep[j] then
        local k = j - 1
        while k >= 1 and pos[j] - pos[k] < d do
          keep[k] = false
          k = k - 1
        end
        k = j + 1
        while k <= n and pos[k] - pos[j] < d do
          keep[k] = false
          k = k + 1
        end
      end
    end
    return ga.array(keep, "bool")
  end

  local COND = "number|list|ndarray"
  api.def(signal, ([[
scipy.signal.find_peaks(x: array_like, height: %s? = nil, threshold: %s? = nil, distance: number? = nil,
                        prominence: %s? = nil, width: %s? = nil, wlen: number? = nil, rel_height: number = 0.5,
                        plateau_size: %s? = nil) -> ndarray, table
The local maxima of a 1-D x (a plateau counts once, at its middle), kept
when they meet the conditions (a minimum, or {min, max}): peaks as 1-based
positions, and a table of their properties (peak_heights, left_thresholds,
right_thresholds, prominences, left_bases, right_bases, widths,
width_heights, left_ips, right_ips, plateau_sizes, left_edges,
right_edges: those the conditions computed).
]]):format(COND, COND, COND, COND, COND), function(x, height, threshold, distance, prominence, width, wlen, rel_height,
                                                  plateau_size)
    local fname = name("find_peaks")
    if distance ~= nil and distance < 1 then fail(fname .. ": `distance` must be greater or equal to 1") end
    local wl
    if prominence ~= nil or width ~= nil then wl = wlen_arg(wlen, fname) end
    if width ~= nil and rel_height < 0 then fail(fname .. ": `rel_height` must be greater or equal to 0.0") end
    x = as_x(x, fname)
    local n = x.size
    local p0, left_edges, right_edges
    if n >= 3 then
      local left, right = maxima_kernel()(x, n, ga.empty(n, "int64"), ga.empty(n, "int64"))
      local is_peak = left:ge(0)
      left_edges, right_edges = left[is_peak], right[is_peak]
      -- a plateau's peak is its middle (rounded down)
      p0 = (left_edges + right_edges) // 2
    else
      p0 = ga.empty(0, "int64")
      left_edges, right_edges = p0, p0
    end
    local props = {}
    local function apply(keep)
      if keep == nil then return end
      p0 = p0[keep]
      left_edges, right_edges = left_edges[keep], right_edges[keep]
      for k, v in pairs(props) do props[k] = v[keep] end
    end
    if p0.size == 0 then
      return ga.empty(0, "int64"), props
    end
    if plateau_size ~= nil then
      local sizes = right_edges - left_edges + 1
      local lo, hi = condition(plateau_size, n, p0, fname, "plateau_size")
      props.plateau_sizes = sizes
      props.left_edges, props.right_edges = left_edges, right_edges
      apply(select(U.cast(sizes, "float64"), lo, hi))
    end
    if height ~= nil and p0.size > 0 then
      local h = ga.take(x, p0 + 1)
      local lo, hi = condition(height, n, p0, fname, "height")
      props.peak_heights = h
      apply(select(h, lo, hi))
    end
    if threshold ~= nil and p0.size > 0 then
      local xp = ga.take(x, p0 + 1)
      local lt, rt = xp - ga.take(x, p0), xp - ga.take(x, p0 + 2)
      local lo, hi = condition(threshold, n, p0, fname, "threshold")
      props.left_thresholds, props.right_thresholds = lt, rt
      local keep
      if lo ~= nil then keep = select(ga.minimum(lt, rt), lo, nil) end
      if hi ~= nil then
        local k2 = select(ga.maximum(lt, rt), nil, hi)
        keep = keep and (keep & k2) or k2
      end
      apply(keep)
    end
    if distance ~= nil and p0.size > 0 then
      apply(by_distance(p0, ga.take(x, p0 + 1), distance))
    end
    if prominence ~= nil or width ~= nil then
      local prom, lb, rb = prominences0(x, p0, wl)
      props.prominences, props.left_bases, props.right_bases = prom, lb, rb
    end
    if prominence ~= nil and p0.size > 0 then
      local lo, hi = condition(prominence, n, p0, fname, "prominence")
      apply(select(props.prominences, lo, hi))
    end
    if width ~= nil then
      local w, wh, li, ri = widths0(x, p0, props.prominences, props.left_bases, props.right_bases, rel_height)
      props.widths, props.width_heights, props.left_ips, props.right_ips = w, wh, li, ri
      if p0.size > 0 then
        local lo, hi = condition(width, n, p0, fname, "width")
        apply(select(w, lo, hi))
      end
    end
    -- positions 1-based for the user
    for _, k in ipairs({ "left_bases", "right_bases", "left_edges", "right_edges" }) do
      if props[k] then props[k] = props[k] + 1 end
    end
    return p0 + 1, props
  end)

  ---------------------------------------------------------------------------
  -- relative extrema

  local function relextrema(data, comparator, axis, order, mode, fname)
    if math.type(order) ~= "integer" or order < 1 then fail(fname .. ": Order must be an int >= 1") end
    if mode ~= "clip" and mode ~= "wrap" then fail(fname .. ": mode must be 'clip' or 'wrap'") end
    local x = U.arr(data, fname, "data")
    if x.ndim == 0 then fail(fname .. ": data must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local n = x.shape[ax]
    local function idx(shift)
      local t = {}
      for i = 0, n - 1 do
        local j = i + shift
        if mode == "clip" then j = math.min(math.max(j, 0), n - 1) else j = j % n end
        t[i + 1] = j + 1
      end
      return ga.array(t, "int64")
    end
    local results = ga.ones(x.shape, "bool")
    -- (an empty array has no extrema: its index lists are not made)
    if n == 0 or x.size == 0 then return ga.nonzero(results) end
    for shift = 1, order do
      local plus, minus = ga.take(x, idx(shift), ax), ga.take(x, idx(-shift), ax)
      local a = api.call_user(comparator, x, plus)
      local b = api.call_user(comparator, x, minus)
      results = results & U.cast(a, "bool") & U.cast(b, "bool")
    end
    return ga.nonzero(results)
  end

  api.def(signal, [[
scipy.signal.argrelextrema(data: array_like, comparator: callable, axis: integer = 1, order: integer = 1,
                           mode: "clip"|"wrap" = "clip") -> ndarray
The relative extrema of data along axis (the first by default): where
comparator(x, neighbour) holds against the order neighbours on each side
(mode: the ends clipped or wrapped). One 1-based int64 index array per
dimension, as multiple values (as ga.nonzero).
]], function(data, comparator, axis, order, mode)
    return relextrema(data, comparator, axis, order, mode, name("argrelextrema"))
  end)

  api.def(signal, [[
scipy.signal.argrelmax(data: array_like, axis: integer = 1, order: integer = 1, mode: "clip"|"wrap" = "clip") -> ndarray
The relative maxima of data (argrelextrema with greater): 1-based index arrays.
]], function(data, axis, order, mode)
    return relextrema(data, ga.greater, axis, order, mode, name("argrelmax"))
  end)

  api.def(signal, [[
scipy.signal.argrelmin(data: array_like, axis: integer = 1, order: integer = 1, mode: "clip"|"wrap" = "clip") -> ndarray
The relative minima of data (argrelextrema with less): 1-based index arrays.
]], function(data, axis, order, mode)
    return relextrema(data, ga.less, axis, order, mode, name("argrelmin"))
  end)
end
