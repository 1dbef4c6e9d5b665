--- Joining and splitting (docs/api.md §3): concatenate, stack, hstack, vstack,
-- dstack, split, array_split, tile, repeat_, flip, fliplr, flipud, roll.
--
-- Everything here is views plus the copy engine (`view:set(src)`: any
-- layout, broadcasting, casts), so no kernels of its own. Conventions:
--   * axes are 1-based, negative from the end; lists of arrays are Lua lists;
--   * results of concatenate/stack/... have ga.result_type of the inputs
--     (opts.dtype overrides, opts.out receives the result);
--   * split/array_split return a Lua list of views;
--   * split points are 1-based positions where a new part starts:
--     split(x, {3, 5}) is x[1..2], x[3..4], x[5..] (NumPy's split(x, [2, 4]));
--     negative points count from the end (-1 starts a part at the last
--     element), points past the end give empty parts;
--   * flip returns a view with negative strides; tile, repeat_ and roll copy.
-- Each section is a view (about 750 bytes): 2^20 of them take about 750 MB
-- and two seconds; 2^24 took 13 GB and three minutes (issue 24)
local MAX_SECTIONS = 1 << 20

return function(ga)
  local internal = require "gpuarray.internal"
  local fail, is_array, shape_str = internal.fail, internal.is_array, internal.shape_str

  local function as_array(x, fname)
    if is_array(x) then return x end
    if type(x) == "table" or type(x) == "number" or type(x) == "boolean" then return ga.asarray(x) end
    fail(("%s: expected an ndarray, got %s"):format(fname, type(x)))
  end

  --- 1-based axis (negative from the end) checked against ndim
  local function norm_axis(axis, ndim, fname)
    if math.type(axis) ~= "integer" then
      fail(("%s: axis must be an integer, got %s"):format(fname, tostring(axis)))
    end
    if axis >= 1 and axis <= ndim then return axis end
    if axis <= -1 and axis >= -ndim then return ndim + 1 + axis end
    fail(("%s: axis %d is out of range for an array of %d dimensions"):format(fname, axis, ndim))
  end

  local function check_count(n, fname, what)
    if math.type(n) ~= "integer" or n < 0 then
      fail(("%s: %s must be a non-negative integer, got %s"):format(fname, what, tostring(n)))
    end
    return n
  end

  --- A key selecting [a, b] (1-based, inclusive) along axis, all of the others
  local function range_key(ndim, axis, a, b)
    local key = {}
    for d = 1, ndim do key[d] = {} end
    key[axis] = { a, b }
    return key
  end

  --- A user's list as a plain one: raw reads, so that no __index or __len
  -- of theirs can make an endless list
  local function plain(t)
    local out = {}
    for i = 1, rawlen(t) do out[i] = rawget(t, i) end
    return out
  end

  local function array_list(list, fname)
    if type(list) ~= "table" or rawlen(list) == 0 then fail(fname .. ": expected a non-empty list of arrays") end
    list = plain(list)
    local arrays = {}
    for i, a in ipairs(list) do arrays[i] = as_array(a, fname) end
    if #arrays ~= #list then fail(fname .. ": the list of arrays has holes") end
    return arrays
  end

  -- (list, axis, opts) or (list, opts)
  local function axis_opts(axis, opts, fname)
    if type(axis) == "table" then axis, opts = nil, axis end
    opts = internal.opts(opts, fname)
    if axis == nil then axis = opts.axis end
    return axis, opts
  end

  local function result_dtype(arrays, opts)
    if opts.dtype then return ga.dtype(opts.dtype).name end
    -- all at once: NumPy's promotion of many dtypes does not depend on their
    -- order, a pairwise fold does ((int16, uint16, float32) is float32)
    local dts = {}
    for i, a in ipairs(arrays) do dts[i] = a.dtype end
    return ga.result_type(table.unpack(dts))
  end

  local check_out = internal.check_out

  -- arrays are already checked to agree outside axis ax
  local function join(arrays, ax, opts, fname)
    local shape = arrays[1].shape
    local nd = #shape
    local total = 0
    for _, a in ipairs(arrays) do total = total + a.shape[ax] end
    shape[ax] = total
    local out = opts.out and check_out(opts.out, shape, fname) or ga.empty(shape, result_dtype(arrays, opts))
    local pos = 1
    for _, a in ipairs(arrays) do
      local len = a.shape[ax]
      if len > 0 then out[range_key(nd, ax, pos, pos + len - 1)]:set(a) end
      pos = pos + len
    end
    return out
  end

  --- ga.concatenate(list[, axis=1][, {axis=, out=, dtype=}])
  function ga.concatenate(list, axis, opts)
    axis, opts = axis_opts(axis, opts, "concatenate")
    local arrays = array_list(list, "concatenate")
    local first = arrays[1].shape
    local nd = #first
    if nd == 0 then fail("concatenate: 0-d arrays cannot be concatenated") end
    local ax = norm_axis(axis or 1, nd, "concatenate")
    for i = 2, #arrays do
      local s = arrays[i].shape
      local ok = #s == nd
      for d = 1, nd do ok = ok and (d == ax or s[d] == first[d]) end
      if not ok then
        fail(("concatenate: array %d has shape %s, array 1 has %s: they must agree except along axis %d")
          :format(i, shape_str(s), shape_str(first), ax))
      end
    end
    return join(arrays, ax, opts, "concatenate")
  end

  --- ga.stack(list[, axis=1][, opts]): join along a new axis
  function ga.stack(list, axis, opts)
    axis, opts = axis_opts(axis, opts, "stack")
    local arrays = array_list(list, "stack")
    local first = arrays[1].shape
    for i = 2, #arrays do
      local s = arrays[i].shape
      local ok = #s == #first
      for d = 1, #first do ok = ok and s[d] == first[d] end
      if not ok then
        fail(("stack: all arrays must have the same shape; array 1 has %s, array %d has %s")
          :format(shape_str(first), i, shape_str(s)))
      end
    end
    local ax = norm_axis(axis or 1, #first + 1, "stack")
    local expanded = {}
    for i, a in ipairs(arrays) do expanded[i] = a:expand_dims(ax) end
    return join(expanded, ax, opts, "stack")
  end

  --- ga.hstack(list[, opts]): along axis 2 (axis 1 for 1-D arrays)
  function ga.hstack(list, opts)
    local arrays = array_list(list, "hstack")
    for i, a in ipairs(arrays) do arrays[i] = ga.atleast_1d(a) end
    return ga.concatenate(arrays, arrays[1].ndim == 1 and 1 or 2, opts)
  end

  --- ga.vstack(list[, opts]): along axis 1, 1-D arrays as rows
  function ga.vstack(list, opts)
    local arrays = array_list(list, "vstack")
    for i, a in ipairs(arrays) do arrays[i] = ga.atleast_2d(a) end
    return ga.concatenate(arrays, 1, opts)
  end

  --- ga.dstack(list[, opts]): along axis 3
  function ga.dstack(list, opts)
    local arrays = array_list(list, "dstack")
    for i, a in ipairs(arrays) do arrays[i] = ga.atleast_3d(a) end
    return ga.concatenate(arrays, 3, opts)
  end

  -- parts of axis ax between 0-based bounds b[i] .. b[i+1] (exclusive end)
  local function parts(x, ax, bounds)
    local nd = x.ndim
    local out = {}
    for i = 1, #bounds - 1 do
      local st, en = bounds[i], bounds[i + 1]
      if en < st then en = st end
      out[i] = x[range_key(nd, ax, st + 1, en)]
    end
    return out
  end

  local function split(x, spec, axis, fname, equal)
    x = as_array(x, fname)
    if x.ndim == 0 then fail(fname .. ": a 0-d array cannot be split") end
    local ax = norm_axis(axis or 1, x.ndim, fname)
    local n = x.shape[ax]
    local bounds = { 0 }
    if math.type(spec) == "integer" then
      if spec <= 0 then fail(("%s: the number of sections must be positive, got %d"):format(fname, spec)) end
      -- each section is a view in the returned list: bound the list
      if spec > MAX_SECTIONS then
        fail(("%s: %d sections are more than the %d views a split returns"):format(fname, spec, MAX_SECTIONS))
      end
      if equal and n % spec ~= 0 then
        fail(("%s: axis %d of length %d does not split into %d equal sections"):format(fname, ax, n, spec))
      end
      local each, extra = n // spec, n % spec
      local pos = 0
      for i = 1, spec do
        pos = pos + each + (i <= extra and 1 or 0)
        bounds[#bounds + 1] = pos
      end
    elseif type(spec) == "table" then
      for i, p in ipairs(plain(spec)) do
        if math.type(p) ~= "integer" or p == 0 then
          fail(("%s: split point %d must be a non-zero integer (1-based), got %s"):format(fname, i, tostring(p)))
        end
        local z = p > 0 and p - 1 or n + p
        bounds[#bounds + 1] = math.max(0, math.min(n, z))
      end
      bounds[#bounds + 1] = n
    else
      fail(("%s: expected a number of sections or a list of split points, got %s"):format(fname, type(spec)))
    end
    return parts(x, ax, bounds)
  end

  --- ga.split(x, n | points[, axis=1]) -> list of views. n equal sections
  -- (an error when they are not equal) or 1-based split points.
  function ga.split(x, spec, axis)
    return split(x, spec, axis, "split", true)
  end

  --- ga.array_split: split that allows unequal sections (the first
  -- n_total % n parts are one longer), as NumPy's.
  function ga.array_split(x, spec, axis)
    return split(x, spec, axis, "array_split", false)
  end

  --- ga.tile(x, reps): x repeated reps[d] times along each axis (NumPy's
  -- rules for differing lengths of reps and x.shape). One broadcast copy.
  function ga.tile(x, reps)
    x = as_array(x, "tile")
    if math.type(reps) == "integer" then reps = { reps } end
    if type(reps) ~= "table" then fail("tile: reps must be an integer or a list of integers") end
    local shape = x.shape
    local n = math.max(#reps, #shape)
    if 2 * n > 32 then fail(("tile: at most 16 dimensions (got %d)"):format(n)) end
    local r, s = {}, {}
    for d = 1, n do
      local i, j = d - (n - #reps), d - (n - #shape)
      r[d] = i >= 1 and check_count(reps[i], "tile", "each repetition count") or 1
      s[d] = j >= 1 and shape[j] or 1
    end
    -- x viewed as (1, s1, 1, s2, ...) broadcast to (r1, s1, r2, s2, ...)
    local inter, spread, final = {}, {}, {}
    for d = 1, n do
      inter[2 * d - 1], inter[2 * d] = 1, s[d]
      spread[2 * d - 1], spread[2 * d] = r[d], s[d]
      final[d] = r[d] * s[d]
    end
    local out = ga.empty(spread, x.dtype)
    out:set(x:reshape(inter))
    return out:reshape(final)
  end

  --- ga.repeat_(x, repeats[, axis]): each element repeated; repeats is an
  -- integer or a list (one count per element along axis; an ndarray is read
  -- back first). Without axis x is flattened, as in NumPy.
  function ga.repeat_(x, repeats, axis)
    x = as_array(x, "repeat_")
    local ax
    if axis == nil then
      x = x:ravel()
      ax = 1
    else
      if x.ndim == 0 then fail("repeat_: axis given for a 0-d array") end
      ax = norm_axis(axis, x.ndim, "repeat_")
    end
    if is_array(repeats) then repeats = repeats:totable() end
    if type(repeats) == "table" and #repeats == 1 then repeats = repeats[1] end
    local shape = x.shape
    local n = shape[ax]
    if math.type(repeats) == "integer" then
      local r = check_count(repeats, "repeat_", "repeats")
      -- x viewed as (..., n, 1, ...) broadcast to (..., n, r, ...)
      local inter, spread = {}, {}
      for d = 1, #shape do
        inter[#inter + 1], spread[#spread + 1] = shape[d], shape[d]
        if d == ax then
          inter[#inter + 1], spread[#spread + 1] = 1, r
        end
      end
      local out = ga.empty(spread, x.dtype)
      out:set(x:reshape(inter))
      shape[ax] = n * r
      return out:reshape(shape)
    end
    if type(repeats) ~= "table" then fail("repeat_: repeats must be an integer or a list of integers") end
    if #repeats ~= n then
      fail(("repeat_: %d repeat counts given for an axis of length %d"):format(#repeats, n))
    end
    -- the counts first: an empty result (a zero count total, or another
    -- axis of length 0) is made without walking the counts
    local total, empty = 0, false
    for i = 1, n do
      total = total + check_count(repeats[i], "repeat_", "each repeat count")
      if total < 0 then fail("repeat_: the repeat counts add up past 2^63") end
    end
    for d = 1, #shape do empty = empty or (d ~= ax and shape[d] == 0) end
    if total == 0 or empty then
      shape[ax] = total
      return ga.empty(shape, x.dtype)
    end
    local idx, k = {}, 0
    for i = 1, n do
      for _ = 1, repeats[i] do
        k = k + 1
        idx[k] = i
      end
    end
    return ga.take(x, ga.array(idx, "int64"), ax)
  end

  --- ga.flip(x[, axis]): a view reversed along axis (an integer or a list;
  -- every axis when nil), with negative strides, as NumPy's.
  function ga.flip(x, axis)
    x = as_array(x, "flip")
    local nd = x.ndim
    local flipped = {}
    if axis == nil then
      for d = 1, nd do flipped[d] = true end
    else
      local axes = type(axis) == "table" and plain(axis) or { axis }
      for _, a in ipairs(axes) do
        local d = norm_axis(a, nd, "flip")
        if flipped[d] then fail(("flip: axis %d repeated"):format(d)) end
        flipped[d] = true
      end
    end
    if nd == 0 then return x:reshape({}) end
    local key = {}
    for d = 1, nd do key[d] = flipped[d] and { nil, nil, -1 } or {} end
    return x[key]
  end

  function ga.fliplr(x)
    x = as_array(x, "fliplr")
    if x.ndim < 2 then fail("fliplr: the array must have at least 2 dimensions") end
    return ga.flip(x, 2)
  end

  function ga.flipud(x)
    x = as_array(x, "flipud")
    if x.ndim < 1 then fail("flipud: the array must have at least 1 dimension") end
    return ga.flip(x, 1)
  end

  -- a copy of x rolled by shifts[d] along each axis d: for every axis, two
  -- pieces (or one when the shift is a multiple of the length), so 2^k copies
  local function roll_axes(x, shifts)
    local out = ga.empty(x.shape, x.dtype)
    local nd = x.ndim
    if x.size == 0 then return out end
    if nd == 0 then
      out:set(x)
      return out
    end
    local pieces = {}
    for d = 1, nd do
      local n = x.shape[d]
      local s = (shifts[d] or 0) % n
      if s == 0 then
        pieces[d] = { { {}, {} } }
      else
        pieces[d] = { { { 1, n - s }, { s + 1, n } }, { { n - s + 1, n }, { 1, s } } }
      end
    end
    local src, dst = {}, {}
    local function walk(d)
      if d > nd then
        out[dst]:set(x[src])
        return
      end
      for _, p in ipairs(pieces[d]) do
        src[d], dst[d] = p[1], p[2]
        walk(d + 1)
      end
    end
    walk(1)
    return out
  end

  --- ga.roll(x, shift[, axis]): elements shifted (with wrap-around) by
  -- shift along axis; shift and axis may be lists (paired; a single value
  -- pairs with each of the other list). Without axis x rolls flattened and
  -- keeps its shape. Always a copy.
  function ga.roll(x, shift, axis)
    x = as_array(x, "roll")
    local shifts = type(shift) == "table" and plain(shift) or { shift }
    -- every entry up to the raw length (ipairs and # stop at a hole)
    for i = 1, type(shift) == "table" and rawlen(shift) or 1 do
      if math.type(shifts[i]) ~= "integer" then
        fail(("roll: shift %d must be an integer, got %s"):format(i, tostring(shifts[i])))
      end
    end
    if #shifts == 0 then fail("roll: shift is empty") end
    if axis == nil then
      local total = 0
      for _, s in ipairs(shifts) do total = total + s end
      return roll_axes(x:ravel(), { total }):reshape(x.shape)
    end
    local axes = type(axis) == "table" and plain(axis) or { axis }
    for i = 1, type(axis) == "table" and rawlen(axis) or 1 do
      if math.type(axes[i]) ~= "integer" then
        fail(("roll: axis %d must be an integer, got %s"):format(i, tostring(axes[i])))
      end
    end
    if #axes == 0 then fail("roll: axis is empty") end
    if #shifts ~= #axes and #shifts ~= 1 and #axes ~= 1 then
      fail(("roll: %d shifts and %d axes cannot be paired"):format(#shifts, #axes))
    end
    local by = {}
    for i = 1, math.max(#shifts, #axes) do
      local d = norm_axis(axes[#axes == 1 and 1 or i], x.ndim, "roll")
      by[d] = (by[d] or 0) + shifts[#shifts == 1 and 1 or i]
    end
    return roll_axes(x, by)
  end
end
