--- Sorting, searching and sets (API.md §7): ga.sort, x:sort(), argsort,
-- lexsort, partition, argpartition, searchsorted, unique; the counting
-- functions (bincount, histogram, digitize, diff) are in sort/count.lua.
--
-- The device side is one radix sort of rows (src/sort/sort.c): sorting
-- along an axis moves that axis last and sorts every row in one call.
-- Order is NumPy's: NaNs last, -0.0 equal to 0.0 (argsort keeps their input
-- order: every sort here is stable), complex values by real part, then
-- imaginary part. complex128, and every lexsort, chains stable sorts from
-- the least significant key to the most significant one.
--
-- Indices are 1-based: argsort gives 1-based positions along the axis, and
-- searchsorted the 1-based position at which each value would be inserted
-- (1: before the first element, #a + 1: after the last).
return function(ga)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local methods = ga.methods
  local fail, is_array = internal.fail, internal.is_array

  local S = {}
  internal.sort = S

  function S.as_array(x, fname)
    if is_array(x) then return x end
    if type(x) == "table" or type(x) == "number" or type(x) == "boolean" then return ga.asarray(x) end
    fail(("%s: expected an ndarray, got %s"):format(fname, type(x)))
  end
  local as_array = S.as_array

  --- axis: an integer (1-based, negative from the end) or false (the
  -- flattened array); nil takes def. Returns the axis, or false.
  function S.axis(axis, nd, fname, def)
    if axis == nil then axis = def end
    if axis == false then return false end
    if math.type(axis) ~= "integer" then
      fail(("%s: axis must be an integer or false (flattened), got %s"):format(fname, tostring(axis)))
    end
    if nd == 0 then fail(fname .. ": a 0-d array has no axis to sort along (use axis = false)") end
    if axis >= 1 and axis <= nd then return axis end
    if axis <= -1 and axis >= -nd then return nd + 1 + axis end
    fail(("%s: axis %d is out of range for an array of %d dimensions"):format(fname, axis, nd))
  end

  -- (axis | opts) positional-or-table arguments
  local function split_opts(a, opts)
    if type(a) == "table" then return a.axis, a end
    return a, opts or {}
  end

  -- x with axis d moved last (a view; the engine copies it to C order), or
  -- x flattened when d is false. Returns the array and the row length.
  local function rows(x, d)
    if d == false then
      x = x:reshape(x.size)
      return x, x.size
    end
    local nd = x.ndim
    if d ~= nd then x = ga.swapaxes(x, d, nd) end
    return x, x.shape[nd]
  end
  local function unrows(y, x, d)
    if d == false or d == x.ndim then return y end
    return ga.ascontiguousarray(ga.swapaxes(y, d, x.ndim))
  end

  -- The keys of one sort, least significant first: complex128 is two
  -- float64 keys (imaginary, then real)
  local function keys_of(x)
    if x.dtype == "complex128" then return { ga.imag(x), ga.real(x) } end
    return { x }
  end

  --- Stable sort of the rows of the keys (same shape, least significant
  -- first): the engine's final mode ("argsort": int64 1-based in-row
  -- indices, "perm": uint32 0-based flat positions)
  function S.chain(keys, rowlen, mode)
    local p
    for i, k in ipairs(keys) do
      local last = i == #keys
      p = core.sort.sort(k, last and rowlen or k.size, last and mode or "perm", p)
    end
    return p
  end

  -- flat positions (uint32, 0-based) to an int64 1-based index array
  local function positions(p)
    return p:astype("int64") + 1
  end

  -- Complex values sort through their order (then a gather), because the
  -- radix keys of the values themselves would order -0.0 before 0.0 in the
  -- real part, and so decide on it where NumPy looks at the imaginary part
  local function sorted(x, d)
    local r, rowlen = rows(x, d)
    if not r.dtype:match("^complex") then return unrows(core.sort.sort(r, rowlen, "sort"), x, d) end
    r = ga.ascontiguousarray(r)
    local p = S.chain(keys_of(r), rowlen, "perm")
    return unrows(r:reshape(r.size):take(positions(p)):reshape(r.shape), x, d)
  end

  --- ga.sort(x[, axis]): a sorted copy, along axis (default the last; false:
  -- the flattened array)
  function ga.sort(x, axis, opts)
    axis = split_opts(axis, opts)
    x = as_array(x, "sort")
    return sorted(x, S.axis(axis, x.ndim, "sort", -1))
  end

  --- x:sort([axis]): sorts x in place along axis (default the last); returns x
  function methods.sort(x, axis, opts)
    axis = split_opts(axis, opts)
    local d = S.axis(axis, x.ndim, "sort", -1)
    if d == false then fail("sort: x:sort() sorts along an axis (use ga.sort(x, false) for the flattened array)") end
    local r = sorted(x, d)
    local key = {}
    for i = 1, x.ndim do key[i] = {} end
    x[key] = r
    return x
  end

  --- ga.argsort(x[, axis]): int64 1-based indices that sort x along axis
  -- (stable: equal values keep their order)
  function ga.argsort(x, axis, opts)
    axis = split_opts(axis, opts)
    x = as_array(x, "argsort")
    local d = S.axis(axis, x.ndim, "argsort", -1)
    local r, rowlen = rows(x, d)
    if r.dtype == "complex128" then r = ga.ascontiguousarray(r) end
    return unrows(S.chain(keys_of(r), rowlen, "argsort"), x, d)
  end
  methods.argsort = ga.argsort

  --- ga.lexsort(keys[, axis]): indices sorting by the last key first, then
  -- the one before it, ... (NumPy's order); keys is a list of arrays of one
  -- shape, or a 2-D+ array whose first axis lists them
  function ga.lexsort(keys, axis, opts)
    axis = split_opts(axis, opts)
    local list = {}
    if is_array(keys) then
      if keys.ndim < 1 then fail("lexsort: keys must have at least one dimension") end
      if keys.size == 0 and keys.shape[1] > 0 then
        -- zero-size keys (of any count along the first axis): the empty order, at once
        local shape = table.move(keys.shape, 2, keys.ndim, 1, {})
        if #shape == 0 then fail("lexsort: keys must have at least one dimension") end
        S.axis(axis, #shape, "lexsort", -1)
        return ga.empty(shape, "int64")
      end
      for i = 1, keys.shape[1] do list[i] = keys[i] end
    elseif type(keys) == "table" then
      for i, k in ipairs(keys) do list[i] = as_array(k, "lexsort") end
    else
      fail("lexsort: keys must be a list of arrays or an array, got " .. type(keys))
    end
    if #list == 0 then fail("lexsort: need at least one key") end
    local shape = list[1].shape
    for i = 2, #list do
      if internal.shape_str(list[i].shape) ~= internal.shape_str(shape) then
        fail(("lexsort: all keys must have one shape, got %s and %s"):format(internal.shape_str(shape),
          internal.shape_str(list[i].shape)))
      end
    end
    if #shape == 0 then fail("lexsort: keys must have at least one dimension") end
    local d = S.axis(axis, #shape, "lexsort", -1)
    local ks, rowlen = {}, nil
    for _, k in ipairs(list) do
      local r
      r, rowlen = rows(k, d)
      r = ga.ascontiguousarray(r)
      for _, part in ipairs(keys_of(r)) do ks[#ks + 1] = part end
    end
    return unrows(S.chain(ks, rowlen, "argsort"), list[1], d)
  end

  local function check_kth(kth, x, d, fname)
    local len = d == false and x.size or x.shape[d]
    local list = type(kth) == "table" and kth or { kth }
    for _, k in ipairs(list) do
      if math.type(k) ~= "integer" or k == 0 or k > len or k < -len then
        fail(("%s: kth %s is out of range for an axis of length %d"):format(fname, tostring(k), len))
      end
    end
  end

  --- ga.partition(x, kth[, axis]): a copy in which the kth element (1-based,
  -- or a list of them) is the one a sort would put there, smaller ones
  -- before it and larger ones after. This returns the sorted array, which
  -- has the property for every kth.
  function ga.partition(x, kth, axis, opts)
    axis = split_opts(axis, opts)
    x = as_array(x, "partition")
    local d = S.axis(axis, x.ndim, "partition", -1)
    check_kth(kth, x, d, "partition")
    return sorted(x, d)
  end

  --- ga.argpartition(x, kth[, axis]): indices that partition x (the argsort)
  function ga.argpartition(x, kth, axis, opts)
    axis = split_opts(axis, opts)
    x = as_array(x, "argpartition")
    local d = S.axis(axis, x.ndim, "argpartition", -1)
    check_kth(kth, x, d, "argpartition")
    return ga.argsort(x, d)
  end

  --- ga.searchsorted(a, v[, side][, {side=, sorter=}]): for each value of v,
  -- the 1-based position in sorted 1-D a before which it would be inserted
  -- to keep a sorted: side "left" (default) puts it before equal values,
  -- "right" after them. int64, v's shape; a Lua number gives a 0-d array.
  function ga.searchsorted(a, v, side, opts)
    if type(side) == "table" then side, opts = nil, side end
    opts = internal.opts(opts, "searchsorted")
    side = side or opts.side or "left"
    if side ~= "left" and side ~= "right" then
      fail(("searchsorted: side must be \"left\" or \"right\", got %s"):format(tostring(side)))
    end
    a = as_array(a, "searchsorted")
    if a.ndim ~= 1 then fail(("searchsorted: a must be 1-D, got shape %s"):format(internal.shape_str(a.shape))) end
    if opts.sorter ~= nil then a = a:take(opts.sorter) end
    local t = ga.result_type(a, v)
    if not is_array(v) then v = ga.array(v, t) end
    if a.dtype ~= t then a = a:astype(t) end
    if v.dtype ~= t then v = v:astype(t) end
    return core.sort.searchsorted(a, v, side == "right")
  end

  local OPT_KEYS = { return_index = true, return_inverse = true, return_counts = true, axis = true,
                     equal_nan = true }

  --- ga.unique(x[, {return_index=, return_inverse=, return_counts=}]): the
  -- sorted distinct values of x (flattened; NaNs count as one value), and
  -- as asked, in this order: the 1-based flat index of each value's first
  -- occurrence, the 1-based index into the values of each element of x
  -- (flat), and how often each value occurs (int64).
  function ga.unique(x, opts)
    opts = internal.opts(opts, "unique")
    if type(opts) ~= "table" then fail("unique: options must be a table") end
    for k in pairs(opts) do
      if not OPT_KEYS[k] then fail(("unique: unknown option %q"):format(tostring(k))) end
    end
    if opts.axis ~= nil then fail("unique: only axis = nil (the flattened array) is supported") end
    x = as_array(x, "unique")
    local flat = x:reshape(x.size)
    local want_i, want_inv, want_c = opts.return_index, opts.return_inverse, opts.return_counts
    if not (want_i or want_inv or want_c) then
      local s = sorted(flat, 1)
      return s[core.sort.unique_flags(s)]
    end
    local idx = ga.argsort(flat)
    local s = flat:take(idx)
    local m = core.sort.unique_flags(s)
    local out = { s[m] }
    if want_i then out[#out + 1] = idx[m] end
    if want_inv then
      local inv = ga.empty(x.size, "int64")
      if x.size > 0 then ga.put(inv, idx, ga.cumsum(m)) end
      out[#out + 1] = inv
    end
    if want_c then
      local n = x.size
      local starts = ga.arange(1, n + 1, "int64")[m]
      out[#out + 1] = ga.diff(starts, { append = n + 1 })
    end
    return table.unpack(out)
  end

  require("gpuarray.sort.count")(ga)
end
