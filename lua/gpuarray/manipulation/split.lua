--- Splitting arrays (API.md §3, §14): split, array_split, hsplit, vsplit,
-- dsplit. Each returns a Lua list of views.
--
-- Split points are 1-based positions where a new part starts:
-- split(x, {3, 5}) is x[1..2], x[3..4], x[5..] (NumPy's split(x, [2, 4]));
-- negative points count from the end (-1 starts a part at the last
-- element); points past the end give empty parts, as do points that go
-- backwards. A number of sections n makes n parts (equal ones for split;
-- array_split gives the first len % n parts one element more).
-- Each section is a view (about 750 bytes): 2^20 of them take about 750 MB
-- and two seconds; 2^24 took 13 GB and three minutes (issue 24)
local MAX_SECTIONS = 1 << 20

return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  -- parts of axis ax between 0-based bounds b[i] .. b[i+1] (exclusive end)
  local function parts(x, ax, bounds)
    local nd = x.ndim
    local out = {}
    for i = 1, #bounds - 1 do
      local st, en = bounds[i], bounds[i + 1]
      if en < st then en = st end
      out[i] = x[args.range_key(nd, ax, st + 1, en)]
    end
    return out
  end

  local function split(x, spec, axis, fname, equal)
    x = args.array(ga, x, fname)
    if x.ndim == 0 then fail(fname .. ": a 0-d array cannot be split") end
    local ax = args.axis(axis, x.ndim, fname)
    local n = x.shape[ax]
    local bounds = { 0 }
    if is_array(spec) then
      if spec.ndim > 1 then fail(fname .. ": the split points must be a 1-D list") end
      spec = spec.ndim == 0 and spec:item() or spec:totable()
    end
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
      for i, p in ipairs(args.plain(spec, fname, "the split points")) do
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

  def(ga, [[
split(ary: array_like, indices_or_sections: integer|list|ndarray, axis: integer = 1) -> list
A list of views of ary along axis: n equal sections (an error when the
length does not divide), or parts starting at the 1-based split points.
]], function(ary, spec, axis)
    return split(ary, spec, axis, "split", true)
  end)

  def(ga, [[
array_split(ary: array_like, indices_or_sections: integer|list|ndarray, axis: integer = 1) -> list
ga.split, also for n sections that do not divide the length: the first
(length % n) parts have one element more.
]], function(ary, spec, axis)
    return split(ary, spec, axis, "array_split", false)
  end)

  def(ga, [[
hsplit(ary: array_like, indices_or_sections: integer|list|ndarray) -> list
ga.split along axis 2 (axis 1 for a 1-D array).
]], function(ary, spec)
    local x = args.array(ga, ary, "hsplit")
    if x.ndim == 0 then fail("hsplit: a 0-d array cannot be split") end
    return split(x, spec, x.ndim > 1 and 2 or 1, "hsplit", true)
  end)

  def(ga, [[
vsplit(ary: array_like, indices_or_sections: integer|list|ndarray) -> list
ga.split along axis 1 of an array of at least 2 dimensions.
]], function(ary, spec)
    local x = args.array(ga, ary, "vsplit")
    if x.ndim < 2 then fail(("vsplit: the array must have at least 2 dimensions, got %d"):format(x.ndim)) end
    return split(x, spec, 1, "vsplit", true)
  end)

  def(ga, [[
dsplit(ary: array_like, indices_or_sections: integer|list|ndarray) -> list
ga.split along axis 3 of an array of at least 3 dimensions.
]], function(ary, spec)
    local x = args.array(ga, ary, "dsplit")
    if x.ndim < 3 then fail(("dsplit: the array must have at least 3 dimensions, got %d"):format(x.ndim)) end
    return split(x, spec, 3, "dsplit", true)
  end)
end
