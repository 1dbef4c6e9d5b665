--- ga.scipy.stats (API.md §15): what cupyx.scipy.stats has, with SciPy's
-- semantics: zscore, zmap, entropy, trim_mean, boxcox_llf. Compositions of
-- the reductions, sort and scipy.special's ufuncs. axis is 1-based as
-- everywhere (SciPy's default axis=0 is axis 1); axis = false is SciPy's
-- axis=None (the flattened array: nil would mean the default, in Lua).
return function(ga, scipy)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local fail = internal.fail
  local stats = {}

  local function input(x, fname, what)
    if internal.is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" or t == "boolean" then return ga.asarray(x) end
    fail(("%s: %s must be an ndarray or a table of numbers, got %s"):format(fname, what or "a", t))
  end
  local function as_float(x)
    local dt = x.dtype
    local k = internal.KIND[dt]
    if k == "f" or k == "c" then return x end
    return x:astype("float64")
  end
  local function check_axis(x, axis, fname)
    if axis == nil then return nil end
    if axis == 0 or axis > math.max(x.ndim, 1) or axis < -math.max(x.ndim, 1) then
      fail(("%s: axis %d is out of range for %d dimensions"):format(fname, axis, x.ndim))
    end
    return axis < 0 and axis + x.ndim + 1 or axis
  end
  local function nan_check(x, policy, fname)
    if policy == "raise" and x.size > 0 and ga.any(ga.isnan(x)):item() then
      fail(fname .. ": the input contains nan values")
    end
  end

  local function zmap_impl(scores, compare, axis, ddof, policy, fname)
    if axis == true then fail(fname .. ": axis must be an integer or false") end
    scores, compare = as_float(input(scores, fname, "scores")), as_float(input(compare, fname, "compare"))
    nan_check(compare, policy, fname)
    nan_check(scores, policy, fname)
    local a = compare
    if axis == false then a = compare:reshape(compare.size) end
    axis = check_axis(a, axis or 1, fname)
    local mn, sd
    if policy == "omit" then
      -- mean and std of the values that are not nan; nan stays nan
      local keep = ga.logical_not(ga.isnan(a))
      local cnt = ga.sum(keep, { axis = axis, keepdims = true })
      local x0 = ga.where(keep, a, 0)
      mn = ga.sum(x0, { axis = axis, keepdims = true }) / cnt
      local d = ga.where(keep, a - mn, 0)
      sd = ga.sqrt(ga.sum(d * d, { axis = axis, keepdims = true }) / (cnt - ddof))
    else
      mn = ga.mean(a, { axis = axis, keepdims = true })
      sd = ga.std(a, { axis = axis, keepdims = true, ddof = ddof })
    end
    if a ~= compare then mn, sd = mn:reshape({}), sd:reshape({}) end
    return (scores - mn) / sd
  end

  api.def(stats, [[
scipy.stats.zscore(a: array_like, axis: axis|boolean = 1, ddof: integer = 0,
                   nan_policy: "propagate"|"raise"|"omit" = "propagate") -> ndarray
The z score of each value: (a - mean) / std along axis (1-based; false: the whole array, SciPy's None),
std with ddof; nan_policy "omit" leaves nan out of the mean and std (and nan where it was).
]], function(a, axis, ddof, policy)
    local fname = "scipy.stats.zscore"
    a = input(a, fname)
    return zmap_impl(a, a, axis, ddof, policy, fname)
  end)

  api.def(stats, [[
scipy.stats.zmap(scores: array_like, compare: array_like, axis: axis|boolean = 1, ddof: integer = 0,
                 nan_policy: "propagate"|"raise"|"omit" = "propagate") -> ndarray
(scores - mean(compare)) / std(compare) along axis (1-based; false: all of compare, SciPy's None).
]], function(scores, compare, axis, ddof, policy)
    return zmap_impl(scores, compare, axis, ddof, policy, "scipy.stats.zmap")
  end)

  api.def(stats, [[
scipy.stats.entropy(pk: array_like, qk: array_like?, base: number?, axis: axis = 1) -> ndarray
The Shannon entropy -sum(pk log pk) of the distribution pk (normalised along axis, 1-based), or with qk
the relative entropy sum(pk log(pk / qk)); in units of base (natural logarithm by default).
]], function(pk, qk, base, axis)
    local fname = "scipy.stats.entropy"
    local special = scipy.special
    pk = as_float(input(pk, fname, "pk"))
    if pk.ndim == 0 then pk = pk:reshape(1) end
    axis = check_axis(pk, axis, fname)
    pk = pk / ga.sum(pk, { axis = axis, keepdims = true })
    local s
    if qk == nil then
      s = ga.sum(special.entr(pk), { axis = axis })
    else
      qk = as_float(input(qk, fname, "qk"))
      if qk.ndim == 0 then qk = qk:reshape(1) end
      local ok = pcall(ga.broadcast_shapes, pk.shape, qk.shape)
      if not ok then fail(fname .. ": qk and pk must have the same shape") end
      qk = qk / ga.sum(qk, { axis = axis, keepdims = true })
      s = ga.sum(special.rel_entr(pk, qk), { axis = axis })
    end
    if base ~= nil then s = s / math.log(base) end
    return s
  end)

  api.def(stats, [[
scipy.stats.trim_mean(a: array_like, proportiontocut: number, axis: axis|boolean = 1) -> ndarray
The mean after cutting floor(proportiontocut n) of the smallest and of the largest values along axis
(1-based; false: the whole array, SciPy's None).
]], function(a, cut, axis)
    local fname = "scipy.stats.trim_mean"
    a = input(a, fname)
    if axis == true then fail(fname .. ": axis must be an integer or false") end
    if axis == false then
      a = a:reshape(a.size)
      axis = 1
    end
    if a.ndim == 0 then a = a:reshape(1) end
    axis = check_axis(a, axis, fname)
    local n = a.shape[axis]
    local lo = math.floor(cut * n)
    local hi = n - lo
    if lo >= hi then fail(fname .. ": proportion too big") end
    local s = ga.sort(a, axis)
    local key = {}
    for d = 1, s.ndim do key[d] = {} end
    key[axis] = { lo + 1, hi }
    return ga.mean(s[key], { axis = axis })
  end)

  api.def(stats, [[
scipy.stats.boxcox_llf(lmb: number, data: array_like) -> ndarray
The Box-Cox log-likelihood of data (positive, along axis 1) for the parameter lmb:
(lmb - 1) sum(log data) - n/2 log(var(boxcox(data, lmb))).
]], function(lmb, data)
    local fname = "scipy.stats.boxcox_llf"
    data = as_float(input(data, fname, "data"))
    if data.ndim == 0 then data = data:reshape(1) end
    local n = data.shape[1]
    local logdata = ga.log(data)
    local variance
    if lmb == 0 then
      variance = ga.var(logdata, { axis = 1 })
    else
      variance = ga.var(data ^ lmb / lmb, { axis = 1 })
    end
    return (lmb - 1) * ga.sum(logdata, { axis = 1 }) - n / 2 * ga.log(variance)
  end)

  return stats
end
