--- cupyx's scatter_add, scatter_max, scatter_min (API.md §14): a[slices]
-- = op(a[slices], value) where repeated positions each apply. The atomic
-- update is ufunc.at's engine (lua/gpuarray/elementwise/at.lua, reached as
-- internal.ufunc_at): this file turns the key forms x[key] takes into the
-- index arrays that engine reads, one per leading axis.
--
-- A key is a Lua integer or an integer ndarray (1-based positions along
-- axis 1, wrapping as x[idx] does), a bool ndarray (a mask over a's
-- leading axes), or a table of per-axis selectors as x[key] takes them
-- (integers, {start, stop, step}, {}, ga.newaxis, ga.ellipsis) where
-- integer ndarrays may stand for axes: NumPy's advanced indices, broadcast
-- together; their block of axes goes where the first one is when they are
-- adjacent, else in front.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  local function cstrides(shape) return (args.elem_strides(shape, "C")) end

  -- a range {start, stop, step} on an axis of n: 0-based first, count,
  -- step, by x[key]'s own parser and clamping (src/array/index.c)
  local range = require("gpuarray.core").ndarray.index_range

  -- an integer index array's values as 0-based positions on an axis of n
  -- (wrapping), int64
  local function wrap0(idx, n, fname)
    if not args.INDEX_DTYPES[idx.dtype] then
      fail(("%s: index arrays must be integers, got %s"):format(fname, idx.dtype))
    end
    if n == 0 then fail(fname .. ": cannot index an empty axis") end
    local k = idx:astype("int64", { copy = false })
    local z = ga.where(ga.less(k, 0), ga.add(k, n), ga.subtract(k, 1))
    return ga.remainder(z, n)
  end

  -- A table key: the 0-based flat C positions of the selection in a (an
  -- int64 array of the selection's shape)
  local function table_positions(a, key, fname)
    local shape = a.shape
    local nd = #shape
    local cst = cstrides(shape)
    local entries = args.plain(key, fname, "the key")
    local has_adv, consuming, ell = false, 0, 0
    for _, e in ipairs(entries) do
      if is_array(e) then
        has_adv = true
        if e.dtype == "bool" then fail(fname .. ": a bool array in a key table: give its ga.nonzero positions") end
      end
      if e == ga.ellipsis then ell = ell + 1 elseif e ~= ga.newaxis then consuming = consuming + 1 end
    end
    if ell > 1 then fail(fname .. ": only one ellipsis is allowed") end
    if consuming > nd then fail(("%s: too many indices (%d) for %d dimensions"):format(fname, consuming, nd)) end
    -- one record per entry, the ellipsis and the missing tail as whole axes
    local recs, d = {}, 1
    local function whole()
      recs[#recs + 1] = { kind = "range", axis = d, first = 0, count = shape[d], step = 1 }
      d = d + 1
    end
    for _, e in ipairs(entries) do
      if e == ga.ellipsis then
        for _ = 1, nd - consuming do whole() end
      elseif e == ga.newaxis then
        recs[#recs + 1] = { kind = "new" }
      elseif is_array(e) then
        recs[#recs + 1] = { kind = "adv", axis = d, idx = wrap0(e, shape[d], fname) }
        d = d + 1
      elseif math.type(e) == "integer" then
        local n = shape[d]
        local z = e < 0 and n + e or e - 1
        if e == 0 or z < 0 or z >= n then
          fail(("%s: index %d is out of range for axis %d with size %d"):format(fname, e, d, n))
        end
        -- with index arrays about, an integer is an advanced index too (NumPy)
        if has_adv then
          recs[#recs + 1] = { kind = "adv", axis = d, idx = ga.full({}, z, "int64") }
        else
          recs[#recs + 1] = { kind = "int", axis = d, first = z }
        end
        d = d + 1
      elseif type(e) == "table" then
        if rawlen(e) == 0 then
          whole()
        else
          local first, count, step = range(e, shape[d], fname)
          recs[#recs + 1] = { kind = "range", axis = d, first = first, count = count, step = step }
          d = d + 1
        end
      else
        fail(("%s: unsupported selector of type %s"):format(fname, type(e)))
      end
    end
    while d <= nd do whole() end
    -- the advanced block: its shape, and where it goes
    local adv, bshape = {}, nil
    for i, r in ipairs(recs) do
      if r.kind == "adv" then adv[#adv + 1] = i end
    end
    if #adv > 0 then
      local shapes = {}
      for k, i in ipairs(adv) do shapes[k] = recs[i].idx.shape end
      local ok, b = pcall(ga.broadcast_shapes, table.unpack(shapes))
      if not ok then fail(fname .. ": the index arrays cannot be broadcast together") end
      bshape = b
    end
    local adjacent = #adv > 0 and (adv[#adv] - adv[1] == #adv - 1)
    -- the result's axes: each range and newaxis gives one, the block #B
    local layout, offset = {}, 0
    local block_at
    if #adv > 0 and not adjacent then
      block_at = 1
      for _ = 1, #bshape do layout[#layout + 1] = false end
    end
    for i, r in ipairs(recs) do
      if r.kind == "range" then
        layout[#layout + 1] = r.count
        r.pos = #layout
      elseif r.kind == "new" then
        layout[#layout + 1] = 1
      elseif r.kind == "int" then
        offset = offset + r.first * cst[r.axis]
      elseif i == adv[1] and adjacent then
        block_at = #layout + 1
        for _ = 1, #bshape do layout[#layout + 1] = false end
      end
    end
    local R = #layout
    local rshape = {}
    for k = 1, R do rshape[k] = layout[k] or bshape[k - block_at + 1] end
    -- the sum of each axis's term, broadcast over the result's axes
    local lin = nil
    local function add(term)
      lin = lin and ga.add(lin, term) or term
    end
    for _, r in ipairs(recs) do
      local s = {}
      for k = 1, R do s[k] = 1 end
      if r.kind == "range" then
        s[r.pos] = r.count
        local v = ga.add(ga.multiply(ga.arange(0, r.count, "int64"), r.step * cst[r.axis]), r.first * cst[r.axis])
        add(v:reshape(s))
      elseif r.kind == "adv" then
        for k = 1, #bshape do s[block_at + k - 1] = bshape[k] end
        add(ga.multiply(ga.broadcast_to(r.idx, bshape), cst[r.axis]):reshape(s))
      end
    end
    if lin == nil then lin = ga.full({}, 0, "int64") end
    if offset ~= 0 then lin = ga.add(lin, offset) end
    if not args.same_shape(lin.shape, rshape) then lin = ga.broadcast_to(lin, rshape) end
    return lin
  end

  --- The index arrays of ufunc.at's engine for a key: an integer or an
  -- integer ndarray passes as it is; a mask gives its positions, one array
  -- per axis it covers; a table gives one array per axis of a
  local function index_arrays(a, key, fname)
    if math.type(key) == "integer" then return key end
    if is_array(key) and key.dtype ~= "bool" then
      if not args.INDEX_DTYPES[key.dtype] then
        fail(("%s: index arrays must be integers, got %s"):format(fname, key.dtype))
      end
      return key
    end
    if is_array(key) then
      local ms, s = key.shape, a.shape
      if #ms > #s then fail(("%s: a mask of %d dimensions for an array of %d"):format(fname, #ms, #s)) end
      for d = 1, #ms do
        if ms[d] ~= s[d] then
          fail(("%s: a mask of shape %s does not fit an array of shape %s"):format(fname, internal.shape_str(ms),
                                                                                   internal.shape_str(s)))
        end
      end
      if #ms == 0 then fail(fname .. ": a 0-d mask") end
      return { ga.nonzero(key) }
    end
    if type(key) ~= "table" then
      fail(("%s: the key must be an integer, an ndarray or a table of selectors, got %s"):format(fname, type(key)))
    end
    if a.ndim == 0 then fail(fname .. ": a 0-d array cannot be indexed with a key table") end
    local lin = table_positions(a, key, fname)
    if lin.size == 0 then return nil, lin.shape end
    -- the flat positions as one 1-based coordinate array per axis of a
    local coords = {}
    local z = lin
    local s = a.shape
    for d = #s, 1, -1 do
      if s[d] == 0 then fail(fname .. ": cannot index an empty axis") end
      coords[d] = ga.add(ga.remainder(z, s[d]), 1)
      if d > 1 then z = ga.floor_divide(z, s[d]) end
    end
    return coords
  end
  internal.scatter_index_arrays = index_arrays   -- for the specs

  local function scatter(u, fname, a, slices, value)
    if not is_array(a) then fail(fname .. ": a must be an ndarray") end
    local idx, empty = index_arrays(a, slices, fname)
    if idx == nil then
      -- an empty selection: nothing to update, but the value must fit it
      local vs = args.shape_of(value, fname)
      local ok, b = pcall(ga.broadcast_shapes, vs, empty)
      if not ok or not args.same_shape(b, empty) then
        fail(("%s: a value of shape %s does not broadcast to the selection %s"):format(fname,
          internal.shape_str(vs), internal.shape_str(empty)))
      end
      return
    end
    internal.ufunc_at(u, fname, a, idx, value)
  end

  def(ga, [[
scatter_add(a: ndarray, slices: any, value: array_like)
a[slices] += value where repeated positions each add (cupyx's scatter_add;
x[idx] = x[idx] + v would add once), in place: ga.add.at over the key
forms x[key] takes (an integer or an integer ndarray of 1-based positions
along axis 1, wrapping; a bool mask; a table of per-axis selectors, which
may hold integer ndarrays as NumPy's advanced indices). value broadcasts
to the selection, cast to a's dtype.
]], function(a, slices, value) scatter(ga.add, "scatter_add", a, slices, value) end)

  def(ga, [[
scatter_max(a: ndarray, slices: any, value: array_like)
a[slices] = maximum(a[slices], value) where every repeated position takes
part (cupyx's scatter_max: ga.maximum.at); NaN wins. slices as in
ga.scatter_add.
]], function(a, slices, value) scatter(ga.maximum, "scatter_max", a, slices, value) end)

  def(ga, [[
scatter_min(a: ndarray, slices: any, value: array_like)
a[slices] = minimum(a[slices], value) where every repeated position takes
part (cupyx's scatter_min: ga.minimum.at); NaN wins. slices as in
ga.scatter_add.
]], function(a, slices, value) scatter(ga.minimum, "scatter_min", a, slices, value) end)
end
