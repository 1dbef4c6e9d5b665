--- ndimage measurements (SciPy 1.10): sum_labels (sum), mean, variance,
-- standard_deviation, minimum, maximum, median, minimum_position,
-- maximum_position, extrema, center_of_mass, histogram, find_objects,
-- labeled_comprehension, value_indices.
--
-- Groups as SciPy's: no labels, one group of everything; labels and no
-- index, one group of the elements with labels > 0; a scalar index, the
-- elements whose label equals it (scalar results); a list or array of
-- indices, one result per entry (an ndarray, or a list for positions and
-- centres). One kernel gives every element its group's slot (a binary
-- search of its label among the sorted distinct indices); the statistics
-- accumulate per slot with atomics (two passes for the variance, as
-- SciPy's). Returned positions are 1-based (API.md §14); centres of mass
-- are values (0-based coordinates, as SciPy's).
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array

  local ATOMICS = [[
__device__ __forceinline__ void gnd_amin(double *a, double v) {
  unsigned long long *p = (unsigned long long *)a;
  unsigned long long old = *p;
  while (v < __longlong_as_double(old)) {
    const unsigned long long prev = atomicCAS(p, old, __double_as_longlong(v));
    if (prev == old) break;
    old = prev;
  }
}
__device__ __forceinline__ void gnd_amax(double *a, double v) {
  unsigned long long *p = (unsigned long long *)a;
  unsigned long long old = *p;
  while (v > __longlong_as_double(old)) {
    const unsigned long long prev = atomicCAS(p, old, __double_as_longlong(v));
    if (prev == old) break;
    old = prev;
  }
}
]]

  local function K()
    return S.kernel("meas", function()
      return {
        slot = ga.ElementwiseKernel("float64 lab, raw float64 keys, int64 nk, int32 how", "int32 slot", [[
if (how == 0) slot = 0;
else if (how == 1) slot = lab > 0 ? 0 : -1;
else {
  long long lo = 0, hi = nk;
  while (lo < hi) { const long long m = (lo + hi) / 2; if (keys[m] < lab) lo = m + 1; else hi = m; }
  slot = (lo < nk && keys[lo] == lab) ? (int)lo : -1;
}
]], "gnd_meas_slot"),
        sums = ga.ElementwiseKernel("X x, int32 slot, raw float64 s, raw float64 m, raw uint64 c, int32 pass", "", [[
if (slot >= 0) {
  if (pass == 0) { atomicAdd(&s[slot], (double)x); atomicAdd(&c[slot], 1ULL); }
  else { const double d = (double)x - m[slot]; atomicAdd(&s[slot], d * d); }
}
]], "gnd_meas_sums"),
        extreme = ga.ElementwiseKernel("X x, int32 slot, raw float64 lo, raw float64 hi", "", [[
if (slot >= 0) { gnd_amin(&lo[slot], (double)x); gnd_amax(&hi[slot], (double)x); }
]], "gnd_meas_extreme", { preamble = ATOMICS }),
        where = ga.ElementwiseKernel("X x, int32 slot, raw float64 lo, raw float64 hi, raw int64 plo, raw int64 phi",
                                     "", [[
if (slot >= 0) {
  if ((double)x == lo[slot]) atomicMin(&plo[slot], (long long)i);
  if ((double)x == hi[slot]) atomicMin(&phi[slot], (long long)i);
}
]], "gnd_meas_where"),
        hist = ga.ElementwiseKernel("X x, int32 slot, raw uint64 h, float64 mn, float64 mx, int64 bins", "", [[
const double v = (double)x;
if (slot >= 0 && v >= mn && v <= mx) {
  long long b = (long long)((v - mn) / (mx - mn) * (double)bins);
  if (b >= bins) b = bins - 1;
  if (b < 0) b = 0;
  atomicAdd(&h[slot * bins + b], 1ULL);
}
]], "gnd_meas_hist"),
      }
    end)
  end
  M._meas_kernels = K

  --- the center-of-mass kernel for rank N: per slot, sum of x * coordinate
  local function com_kernel(N)
    return S.kernel("com|" .. N, function()
      local params = { "X x", "int32 slot", "raw float64 acc" }
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      local b = { "if (slot >= 0) {", "long long r_ = i;" }
      for d = N - 1, 0, -1 do
        b[#b + 1] = ("atomicAdd(&acc[slot * %d + %d], (double)x * (double)(r_ %% n%d)); r_ /= n%d;"):format(N, d, d, d)
      end
      b[#b + 1] = "}"
      return ga.ElementwiseKernel(table.concat(params, ", "), "", table.concat(b, "\n"), "gnd_meas_com")
    end)
  end
  M._com_kernel = com_kernel

  --- the groups of a call: { x (contiguous, flat), slot (int32), n (slots),
  -- keys (index values in the caller's order), scalar (one result), pos
  -- (per index entry: its slot) }
  local function groups(fname, input, labels, index)
    local x = is_array(input) and input or ga.asarray(input)
    if S.COMPLEX[x.dtype] then fail(fname .. ": Complex type not supported") end
    local shape = x.shape
    local how, keys, scalar, order = 0, nil, true, nil
    local lab, ishape
    if labels ~= nil then
      lab = is_array(labels) and labels or ga.asarray(labels)
      local bx, bl = ga.broadcast_arrays(x, lab)
      x, lab = bx, bl
      shape = x.shape
      if index == nil then
        how = 1
      else
        how = 2
        local list
        if type(index) == "number" then
          if index ~= index then fail(fname .. ": index must be a label value, got NaN") end
          list = { index }
        else
          -- an N-d index is taken flat; the results take its shape (SciPy's)
          local t = index
          if is_array(index) then
            if index.ndim > 1 then ishape = index.shape end
            t = index:astype("float64"):reshape(-1):totable()
            if index.ndim == 0 then t = t[1] end
          end
          if type(t) == "number" then
            if t ~= t then fail(fname .. ": index must be a label value, got NaN") end
            list = { t }
          else
            list = {}
            for k = 1, rawlen(t) do
              local v = t[k]
              -- a nested list would reach table.sort; a NaN key, where[v]
              if type(v) ~= "number" or v ~= v then
                fail(("%s: index must be a label value or a flat list of them, entry %d is %s"):format(
                  fname, k, v ~= v and "NaN" or type(v)))
              end
              list[k] = v
            end
            scalar = false
          end
        end
        local sorted = {}
        for k, v in ipairs(list) do sorted[k] = v end
        table.sort(sorted)
        local uniq = {}
        for _, v in ipairs(sorted) do if uniq[#uniq] ~= v then uniq[#uniq + 1] = v end end
        order = {}
        local where = {}
        for k, v in ipairs(uniq) do where[v] = k - 1 end
        for k, v in ipairs(list) do order[k] = where[v] end
        keys = uniq
      end
    end
    local xf = ga.ascontiguousarray(x):reshape(-1)
    local lf = lab and ga.ascontiguousarray(lab:astype("float64")):reshape(-1) or ga.zeros(xf.size, "float64")
    keys = keys or {}
    local karr = ga.array(#keys > 0 and keys or { 0 }, "float64")
    local slot = K().slot(lf, karr, #keys, how)
    local n = how == 2 and #keys or 1
    if not order then order = { 0 } end
    return { x = xf, slot = slot, n = n, scalar = scalar, order = order, shape = shape, ishape = ishape }
  end
  M._groups = groups

  --- a per-index-entry ndarray in the shape of an N-d index
  local function index_shaped(g, arr)
    if g.ishape then return arr:reshape(g.ishape) end
    return arr
  end

  --- per-slot results (a Lua list, 0-based slots) -> the caller's shape
  local function shape_result(g, vals, dtype)
    if g.scalar then return vals[g.order[1]] end
    local out = {}
    for k, s in ipairs(g.order) do out[k] = vals[s] end
    return index_shaped(g, ga.array(out, dtype or "float64"))
  end
  local function to0(t)
    local out = {}
    if type(t) ~= "table" then t = { t } end
    for k, v in ipairs(t) do out[k - 1] = v end
    return out
  end

  local function sums(g)
    local s = ga.zeros(g.n, "float64")
    local c = ga.zeros(g.n, "uint64")
    if g.x.size > 0 then K().sums(g.x, g.slot, s, s, c, 0) end
    return s, c
  end

  local function stat(fname, input, labels, index, what)
    local g = groups(fname, input, labels, index)
    local s, c = sums(g)
    if what == "sum" then return shape_result(g, to0(s:totable())) end
    local cnt = c:astype("float64")
    local mean = s / ga.maximum(cnt, 1)
    mean = ga.where(cnt:gt(0), mean, 0 / 0)
    if what == "mean" then return shape_result(g, to0(mean:totable())) end
    local v = ga.zeros(g.n, "float64")
    if g.x.size > 0 then K().sums(g.x, g.slot, v, mean, c, 1) end
    local var = ga.where(cnt:gt(0), v / ga.maximum(cnt, 1), 0 / 0)
    if what == "std" then var = ga.sqrt(var) end
    return shape_result(g, to0(var:totable()))
  end

  for _, d in ipairs({
    { "sum_labels", "sum", "The sum of the input over each labelled region." },
    { "mean", "mean", "The mean of the input over each labelled region (NaN for an empty one)." },
    { "variance", "var", "The population variance over each labelled region (two passes, as SciPy's)." },
    { "standard_deviation", "std", "The population standard deviation over each labelled region." },
  }) do
    api.def(M, ([[
scipy.ndimage.%s(input: array_like, labels: array_like?, index: number|list|ndarray?) -> number|ndarray
%s Labels are values; index: a label value (a number results) or a list of them (an ndarray).
]]):format(d[1], d[3]), function(input, labels, index)
      return stat("scipy.ndimage." .. d[1], input, labels, index, d[2])
    end)
  end
  M.sum = M.sum_labels
  api.alias("scipy.ndimage.sum", M.sum_labels)

  --- min, max (per slot, float64 lists) and their first positions (0-based linear)
  local function extremes(g, positions)
    local lo = ga.full(g.n, math.huge, "float64")
    local hi = ga.full(g.n, -math.huge, "float64")
    if g.x.size > 0 then K().extreme(g.x, g.slot, lo, hi) end
    local plo, phi
    if positions then
      plo = ga.full(g.n, math.maxinteger, "int64")
      phi = ga.full(g.n, math.maxinteger, "int64")
      if g.x.size > 0 then K().where(g.x, g.slot, lo, hi, plo, phi) end
      plo, phi = to0(plo:totable()), to0(phi:totable())
    end
    return to0(lo:totable()), to0(hi:totable()), plo, phi
  end

  -- a 0-based linear position as the 1-based index list of shape
  local function unravel(p, shape)
    if p == nil or p == math.maxinteger then return nil end
    local out = {}
    for d = #shape, 1, -1 do
      out[d] = p % shape[d] + 1
      p = p // shape[d]
    end
    return out
  end
  local function positions(g, list)
    if g.scalar then return unravel(list[g.order[1]], g.shape) end
    local out = {}
    for k, s in ipairs(g.order) do out[k] = unravel(list[s], g.shape) or false end
    return out
  end
  local function keep_dtype(g, vals)
    local dt = g.x.dtype
    if g.scalar then
      local v = vals[g.order[1]]
      if v == math.huge or v == -math.huge then return 0 end
      if not S.FLOAT[dt] and v == math.floor(v) then return math.tointeger(v) or v end
      return v
    end
    local out = {}
    for k, s in ipairs(g.order) do
      local v = vals[s]
      out[k] = (v == math.huge or v == -math.huge) and 0 or v
    end
    return index_shaped(g, ga.array(out, "float64"):astype(dt))
  end

  for _, d in ipairs({ { "minimum", 1 }, { "maximum", 2 } }) do
    api.def(M, ([[
scipy.ndimage.%s(input: array_like, labels: array_like?, index: number|list|ndarray?) -> number|ndarray
The %s of the input over each labelled region (labels are values).
]]):format(d[1], d[1]), function(input, labels, index)
      local g = groups("scipy.ndimage." .. d[1], input, labels, index)
      local lo, hi = extremes(g, false)
      return keep_dtype(g, d[2] == 1 and lo or hi)
    end)
    api.def(M, ([[
scipy.ndimage.%s_position(input: array_like, labels: array_like?, index: number|list|ndarray?) -> list
The 1-based index list of the first %s of each labelled region (a list of such lists for a list of indices).
]]):format(d[1], d[1]), function(input, labels, index)
      local g = groups("scipy.ndimage." .. d[1] .. "_position", input, labels, index)
      local _, _, plo, phi = extremes(g, true)
      return positions(g, d[2] == 1 and plo or phi)
    end)
  end

  api.def(M, [[
scipy.ndimage.extrema(input: array_like, labels: array_like?, index: number|list|ndarray?) -> any, any, list, list
The minimum, maximum and their 1-based positions over each labelled region.
]], function(input, labels, index)
    local g = groups("scipy.ndimage.extrema", input, labels, index)
    local lo, hi, plo, phi = extremes(g, true)
    return keep_dtype(g, lo), keep_dtype(g, hi), positions(g, plo), positions(g, phi)
  end)

  api.def(M, [[
scipy.ndimage.median(input: array_like, labels: array_like?, index: number|list|ndarray?) -> number|ndarray
The median of the input over each labelled region.
]], function(input, labels, index)
    local g = groups("scipy.ndimage.median", input, labels, index)
    local vals = {}
    for s = 0, g.n - 1 do
      local sel = g.x[g.slot:eq(s)]
      vals[s] = sel.size > 0 and ga.median(sel:astype("float64")):item() or 0 / 0
    end
    return shape_result(g, vals)
  end)

  api.def(M, [[
scipy.ndimage.center_of_mass(input: array_like, labels: array_like?, index: number|list|ndarray?) -> list
The centre of mass of each labelled region: a list of coordinates (values, 0-based as SciPy's), or a list of such lists.
]], function(input, labels, index)
    local fname = "scipy.ndimage.center_of_mass"
    local g = groups(fname, input, labels, index)
    local N = #g.shape
    local s = sums(g)
    local acc = ga.zeros(g.n * math.max(N, 1), "float64")
    if g.x.size > 0 and N > 0 then
      local args = { g.x, g.slot, acc }
      for d = 1, N do args[#args + 1] = g.shape[d] end
      com_kernel(N)(table.unpack(args))
    end
    local st, at = to0(s:totable()), acc:totable()
    local function one(sl)
      local c = {}
      for d = 1, N do c[d] = at[sl * N + d] / st[sl] end
      return c
    end
    if g.scalar then return one(g.order[1]) end
    local out = {}
    for k, sl in ipairs(g.order) do out[k] = one(sl) end
    return out
  end)

  api.def(M, [[
scipy.ndimage.histogram(input: array_like, min: number, max: number, bins: integer, labels: array_like?,
                        index: number|list|ndarray?) -> ndarray|list
The histogram (bins equal bins over [min, max], int64 counts) of each labelled region: an ndarray, or a list of them.
]], function(input, mn, mx, bins, labels, index)
    local fname = "scipy.ndimage.histogram"
    if bins < 1 then fail(fname .. ": bins must be positive") end
    local g = groups(fname, input, labels, index)
    local h = ga.zeros(g.n * bins, "uint64")
    if g.x.size > 0 then K().hist(g.x, g.slot, h, mn, mx, bins) end
    h = h:astype("int64"):reshape(g.n, bins)
    if g.scalar then return h[g.order[1] + 1] end
    local out = {}
    for k, sl in ipairs(g.order) do out[k] = h[sl + 1] end
    return out
  end)

  local function fo_kernel(N)
    return S.kernel("find_objects|" .. N, function()
      local params = { "L lab", "raw int64 lo", "raw int64 hi", "int64 maxl" }
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      local b = { "const long long l = (long long)lab;", "if (l > 0 && l <= maxl) {", "long long r_ = i;" }
      for d = N - 1, 0, -1 do
        b[#b + 1] = ("{ const long long c = r_ %% n%d; r_ /= n%d; atomicMin(&lo[(l - 1) * %d + %d], c); "
                     .. "atomicMax(&hi[(l - 1) * %d + %d], c); }"):format(d, d, N, d, N, d)
      end
      b[#b + 1] = "}"
      return ga.ElementwiseKernel(table.concat(params, ", "), "", table.concat(b, "\n"), "gnd_find_objects")
    end)
  end
  M._fo_kernel = fo_kernel

  api.def(M, [[
scipy.ndimage.find_objects(input: array_like, max_label: integer = 0) -> list
The bounding box of each label 1..max_label (0: the largest label): a list of per-axis {first, last} ranges,
1-based and inclusive (API.md §14); false where a label is absent (SciPy's None).
]], function(input, max_label)
    local fname = "scipy.ndimage.find_objects"
    local x = is_array(input) and input or ga.asarray(input)
    if S.FLOAT[x.dtype] or S.COMPLEX[x.dtype] or x.dtype == "bool" then
      if x.dtype ~= "bool" then fail(fname .. ": input must be of integer type") end
    end
    local N = x.ndim
    if max_label < 1 then max_label = x.size > 0 and math.tointeger(ga.max(x):item()) or 0 end
    if max_label < 1 or N == 0 then return {} end
    local lo = ga.full(max_label * N, math.maxinteger, "int64")
    local hi = ga.full(max_label * N, -1, "int64")
    local args = { ga.ascontiguousarray(x), lo, hi, max_label }
    for d = 1, N do args[#args + 1] = x.shape[d] end
    fo_kernel(N)(table.unpack(args))
    local lt, ht = lo:totable(), hi:totable()
    local out = {}
    for l = 1, max_label do
      if ht[(l - 1) * N + 1] < 0 then out[l] = false
      else
        local box = {}
        for d = 1, N do box[d] = { lt[(l - 1) * N + d] + 1, ht[(l - 1) * N + d] + 1 } end
        out[l] = box
      end
    end
    return out
  end)

  api.def(M, [[
scipy.ndimage.labeled_comprehension(input: array_like, labels: array_like?, index: number|list|ndarray?,
                                    func: callable?, out_dtype: dtype?, default: number?,
                                    pass_positions: boolean = false) -> number|ndarray
func(values[, positions]) over each labelled region (values: an ndarray; positions: 1-based linear positions);
default where a region is empty.
]], function(input, labels, index, func, out_dtype, default, pass_positions)
    local fname = "scipy.ndimage.labeled_comprehension"
    if func == nil or out_dtype == nil or default == nil then
      fail(fname .. ": func, out_dtype and default are required")
    end
    local g = groups(fname, input, labels, index)
    local vals = {}
    for s = 0, g.n - 1 do
      local mask = g.slot:eq(s)
      local sel = g.x[mask]
      if sel.size == 0 then vals[s] = default
      else
        local r
        if pass_positions then r = api.call_user(func, sel, ga.flatnonzero(mask))
        else r = api.call_user(func, sel) end
        if is_array(r) then r = r:item() end
        vals[s] = r
      end
    end
    if g.scalar then return vals[g.order[1]] end
    local out = {}
    for k, sl in ipairs(g.order) do out[k] = vals[sl] end
    return index_shaped(g, ga.array(out, "float64"):astype(ga.dtype(out_dtype).name))
  end)

  api.def(M, [[
scipy.ndimage.value_indices(arr: array_like, *, ignore_value: number?) -> table
A table from each distinct value of an integer array to the 1-based index arrays (one per axis) where it occurs.
]], function(arr, ignore_value)
    local fname = "scipy.ndimage.value_indices"
    local x = is_array(arr) and arr or ga.asarray(arr)
    if S.FLOAT[x.dtype] or S.COMPLEX[x.dtype] then fail(fname .. ": Parameter 'arr' must be an integer array") end
    local u = ga.unique(x):totable()
    if type(u) ~= "table" then u = { u } end
    local out = {}
    for _, v in ipairs(u) do
      if v ~= ignore_value then out[v] = { ga.nonzero(x:eq(v)) } end
    end
    return out
  end)
end
