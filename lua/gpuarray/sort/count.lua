--- Counting (API.md §7): ga.bincount, ga.histogram, ga.digitize, ga.diff.
-- Counts are atomic adds into a zeroed output (ElementwiseKernels built
-- once per dtype); bins come from ga.searchsorted on the edges, so a value
-- lands in the bin NumPy puts it in, edge cases included.
return function(ga)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail, is_array = internal.fail, internal.is_array
  local S = internal.sort
  local as_array = S.as_array

  local INT = { bool = true, int8 = true, int16 = true, int32 = true, int64 = true,
                uint8 = true, uint16 = true, uint32 = true, uint64 = true }

  local kernels = {}
  local function kernel(name, ins, outs, body)
    local k = kernels[name]
    if not k then
      k = ga.ElementwiseKernel(ins, outs, body, name)
      kernels[name] = k
    end
    return k
  end
  internal.count_kernels = function()   -- for the compile specs
    return {
      bincount = kernel("ga_bincount", "T x", "raw int64 out",
        "atomicAdd((unsigned long long *)&out[(long long)x], 1ull)"),
      bincount_w = kernel("ga_bincount_w", "T x, W w", "raw float64 out",
        "atomicAdd(&out[(long long)x], (double)w)"),
      hist = kernel("ga_hist", "int64 p, T x, T last, int64 nb", "raw int64 out",
        "long long b = x == last ? nb - 1 : p - 2; "
        .. "if (b >= 0 && b < nb) atomicAdd((unsigned long long *)&out[b], 1ull)"),
      hist_w = kernel("ga_hist_w", "int64 p, T x, T last, int64 nb, W w", "raw float64 out",
        "long long b = x == last ? nb - 1 : p - 2; if (b >= 0 && b < nb) atomicAdd(&out[b], (double)w)"),
    }
  end

  def(ga, [[
bincount(x: array_like, weights: array_like?, minlength: integer = 0) -> ndarray
Element v + 1 of the result counts the elements of non-negative integer 1-D
x equal to v (int64), or sums their weights (float64); at least minlength
long. The values of x are values, not positions (API.md §14).
]], function(x, weights, ml)
    x = as_array(x, "bincount")
    if x.ndim ~= 1 then fail(("bincount: x must be 1-D, got %d dimensions"):format(x.ndim)) end
    if not INT[x.dtype] then fail("bincount: x must have an integer dtype, got " .. x.dtype) end
    if ml < 0 then fail("bincount: minlength must be a non-negative integer") end
    local n = ml
    if x.size > 0 then
      if x:min():item() < 0 then fail("bincount: x must be non-negative") end
      n = math.max(n, math.tointeger(x:max():item()) + 1)
    end
    local K = internal.count_kernels()
    if weights ~= nil then
      local w = as_array(weights, "bincount")
      if w.size ~= x.size then
        fail(("bincount: weights has %d elements, x has %d"):format(w.size, x.size))
      end
      local out = ga.zeros(n, x.size > 0 and "float64" or "int64")   -- NumPy: an empty x gives int64 counts
      if x.size > 0 then K.bincount_w(x, w:reshape(x.size), out) end
      return out
    end
    local out = ga.zeros(n, "int64")
    if x.size > 0 then K.bincount(x, out) end
    return out
  end)

  -- the bin edges of histogram: a count over a range, or given edges
  local function edges_of(x, bins, range)
    local et = internal.KIND[x.dtype] == "f" and x.dtype or "float64"
    if math.type(bins) == "integer" then
      if bins < 1 then fail("histogram: bins must be a positive integer") end
      local lo, hi
      if range ~= nil then
        if type(range) ~= "table" or #range ~= 2 or type(range[1]) ~= "number" or type(range[2]) ~= "number" then
          fail("histogram: range must be {lo, hi}, two numbers")
        end
        lo, hi = range[1], range[2]
        if lo > hi then fail("histogram: range must have lo <= hi") end
      elseif x.size == 0 then
        lo, hi = 0, 1
      else
        lo, hi = x:min():item(), x:max():item()
      end
      if lo ~= lo or hi ~= hi or lo == math.huge or hi == math.huge or lo == -math.huge or hi == -math.huge then
        fail(("histogram: the range [%s, %s] is not finite"):format(tostring(lo), tostring(hi)))
      end
      if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
      return ga.linspace(lo, hi, bins + 1, { dtype = et })
    end
    local e = as_array(bins, "histogram")
    if e.ndim ~= 1 or e.size < 2 then fail("histogram: bins must be an integer or a 1-D list of at least 2 edges") end
    if e.dtype ~= et then e = e:astype(et) end
    local n = e.size
    if (e[{ { 2, n } }] - e[{ { 1, n - 1 } }]):min():item() < 0 then
      fail("histogram: bin edges must increase monotonically")
    end
    return e
  end

  def(ga, [[
histogram(a: array_like, bins: integer|list|ndarray = 10, range: list?, density: boolean?,
          weights: array_like?) -> ndarray, ndarray
Counts and bin edges: bins equal bins over range (default a's min and max)
or the given edges; each bin holds [left, right) but the last also its right
edge; values outside the edges are left out. Counts are int64 (float64 with
weights or density).
]], function(x, bins, range, density, weights)
    x = as_array(x, "histogram")
    if ga.dtype(x.dtype).kind == "c" then fail("histogram: complex values have no order for bins") end
    local flat = x:reshape(x.size)
    local edges = edges_of(flat, bins, range)
    local nb = edges.size - 1
    local last = edges[nb + 1]      -- a Lua number: integer indexing reads the element
    local K = internal.count_kernels()
    local xs = flat:astype(edges.dtype)
    local pos = ga.searchsorted(edges, xs, "right")
    local hist
    if weights ~= nil then
      local w = as_array(weights, "histogram")
      if w.size ~= x.size then fail(("histogram: weights has %d elements, x has %d"):format(w.size, x.size)) end
      hist = ga.zeros(nb, "float64")
      if x.size > 0 then K.hist_w(pos, xs, last, nb, w:reshape(x.size), hist) end
    else
      hist = ga.zeros(nb, "int64")
      if x.size > 0 then K.hist(pos, xs, last, nb, hist) end
    end
    if density then
      local widths = (edges[{ { 2, nb + 1 } }] - edges[{ { 1, nb } }]):astype("float64")
      hist = hist:astype("float64") / hist:sum():item() / widths
    end
    return hist, edges
  end)

  def(ga, [[
digitize(x: array_like, bins: array_like, right: boolean = false) -> ndarray
NumPy's bin numbers, values not positions (API.md §14): for increasing bins,
the count of edges at or below each value (right: strictly below), so 0
below the first edge and #bins above the last; decreasing bins mirrored.
]], function(x, bins, right)
    x = as_array(x, "digitize")
    bins = as_array(bins, "digitize")
    if bins.ndim ~= 1 then fail("digitize: bins must be 1-D") end
    local n = bins.size
    local side = right and "left" or "right"
    if n >= 2 then
      local d = bins[{ { 2, n } }] - bins[{ { 1, n - 1 } }]
      local lo, hi = d:min():item(), d:max():item()
      if lo < 0 and hi > 0 then fail("digitize: bins must be monotonically increasing or decreasing") end
      if hi <= 0 and lo < 0 then
        return n - (ga.searchsorted(ga.flip(bins), x, side) - 1)
      end
    end
    return ga.searchsorted(bins, x, side) - 1
  end)

  -- a slice key selecting range r along axis d of an nd-array
  local function key_along(nd, d, r)
    local key = {}
    for i = 1, nd do key[i] = i == d and r or {} end
    return key
  end

  local function edge(v, x, d, fname)
    if type(v) == "table" then v = ga.asarray(v) end
    if is_array(v) then
      if v.ndim == 0 then v = v:item() else return v end
    end
    if type(v) ~= "number" and type(v) ~= "boolean" then
      fail(fname .. ": prepend/append must be a number or an array")
    end
    local shape = x.shape
    shape[d] = 1
    return ga.full(shape, v, x.dtype)
  end

  def(ga, [[
diff(a: array_like, n: integer = 1, axis: axis = -1, prepend: array_like?, append: array_like?) -> ndarray
The n-th discrete difference along axis (1-based, negative from the end);
prepend/append are joined along axis first; bool arrays give x[i+1] ~= x[i].
]], function(x, n, axis, prepend, append)
    x = as_array(x, "diff")
    if n < 0 then fail("diff: n must be a non-negative integer") end
    if x.ndim == 0 then fail("diff: x must have at least one dimension") end
    local d = S.axis(axis, x.ndim, "diff", -1)
    if d == false then fail("diff: axis must be an integer") end
    if prepend ~= nil or append ~= nil then
      local parts = {}
      if prepend ~= nil then parts[#parts + 1] = edge(prepend, x, d, "diff") end
      parts[#parts + 1] = x
      if append ~= nil then parts[#parts + 1] = edge(append, x, d, "diff") end
      x = ga.concatenate(parts, d)
    end
    -- nothing to subtract (zero-size, or n past the axis): the shape alone,
    -- without n steps (n may be huge)
    local len0 = x.shape[d]
    if n > 0 and (x.size == 0 or n >= len0) then
      local shape = x.shape
      shape[d] = math.max(len0 - n, 0)
      return ga.empty(shape, x.dtype)
    end
    for _ = 1, n do
      local len = x.shape[d]
      if len <= 1 then
        local shape = x.shape
        shape[d] = 0
        return ga.empty(shape, x.dtype)
      end
      local hi, lo = x[key_along(x.ndim, d, { 2, len })], x[key_along(x.ndim, d, { 1, len - 1 })]
      x = x.dtype == "bool" and ga.not_equal(hi, lo) or hi - lo
    end
    return x
  end)
end
