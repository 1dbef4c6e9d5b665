--- Repeating arrays (API.md §3, §14): tile and repeat_ (NumPy's repeat;
-- `repeat` is a Lua keyword). tile is one broadcast copy; repeat_ with one
-- count is one too, with a count per element it gathers (ga.take) at the
-- positions a cumulative sum of the counts gives.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  def(ga, [[
tile(A: array_like, reps: integer|list) -> ndarray
A repeated reps[d] times along each axis d (NumPy's rules when reps and
A's dimensions differ in number: the shorter is padded with 1s in front).
]], function(x, reps)
    x = args.array(ga, x, "tile")
    if math.type(reps) == "integer" then reps = { reps } end
    reps = args.plain(reps, "tile", "reps")
    local shape = x.shape
    local n = math.max(#reps, #shape)
    if 2 * n > 32 then fail(("tile: at most 16 dimensions (got %d)"):format(n)) end
    local r, s = {}, {}
    for d = 1, n do
      local i, j = d - (n - #reps), d - (n - #shape)
      r[d] = i >= 1 and args.count(reps[i], "tile", "each repetition count") or 1
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
    if out.size > 0 then out:set(x:reshape(inter)) end
    return out:reshape(final)
  end)

  -- every element repeated r times along axis ax: x viewed as
  -- (..., n, 1, ...) broadcast to (..., n, r, ...)
  local function repeat_all(x, r, ax)
    local shape = x.shape
    local inter, spread = {}, {}
    for d = 1, #shape do
      inter[#inter + 1], spread[#spread + 1] = shape[d], shape[d]
      if d == ax then inter[#inter + 1], spread[#spread + 1] = 1, r end
    end
    local out = ga.empty(spread, x.dtype)
    if out.size > 0 then out:set(x:reshape(inter)) end
    shape[ax] = shape[ax] * r
    return out:reshape(shape)
  end

  def(ga, [[
repeat_(a: array_like, repeats: integer|list|ndarray, axis: integer?) -> ndarray
Each element of a repeated: repeats is one count for all, or one count per
element along axis (a list or an integer array; length 1 broadcasts).
Without axis a is flattened first. NumPy's repeat (repeat is a Lua keyword).
A count per element reads their total back (synchronizes).
]], function(a, repeats, axis)
    local x = args.array(ga, a, "repeat_")
    local ax
    if axis == nil then
      x = x:ravel()
      ax = 1
    else
      if x.ndim == 0 then fail("repeat_: axis given for a 0-d array") end
      ax = args.axis(axis, x.ndim, "repeat_")
    end
    local n = x.shape[ax]
    if is_array(repeats) then
      if not args.INDEX_DTYPES[repeats.dtype] and repeats.dtype ~= "bool" then
        fail("repeat_: repeats must be integers, got " .. repeats.dtype)
      end
      if repeats.ndim > 1 then fail("repeat_: repeats must be an integer or a 1-D list of integers") end
      if repeats.size == 1 then repeats = repeats:reshape({}):item() end
    elseif type(repeats) == "table" then
      repeats = args.plain(repeats, "repeat_", "repeats")
      if #repeats == 1 then repeats = repeats[1] end
    end
    if math.type(repeats) == "integer" then
      return repeat_all(x, args.count(repeats, "repeat_", "repeats"), ax)
    end
    local counts, total
    if is_array(repeats) then
      if repeats.size ~= n then
        fail(("repeat_: %d repeat counts given for an axis of length %d"):format(repeats.size, n))
      end
      counts = repeats:astype("int64")
      if n > 0 and ga.min(counts):item() < 0 then fail("repeat_: repeat counts must be non-negative") end
    else
      if type(repeats) ~= "table" then fail("repeat_: repeats must be an integer or a list of integers") end
      if #repeats ~= n then
        fail(("repeat_: %d repeat counts given for an axis of length %d"):format(#repeats, n))
      end
      total = 0
      for i = 1, n do
        total = total + args.count(repeats[i], "repeat_", "each repeat count")
        if total < 0 then fail("repeat_: the repeat counts add up past 2^63") end
      end
    end
    local shape = x.shape
    local cs
    if total == nil then
      cs = n > 0 and ga.cumsum(counts) or nil
      total = n > 0 and cs[n] or 0
    end
    if total == 0 or x.size == 0 then
      shape[ax] = total
      return ga.empty(shape, x.dtype)
    end
    cs = cs or ga.cumsum(ga.array(repeats, "int64"))
    -- the source of output position p (0-based): how many cumulative counts are <= p, plus one
    local src = ga.searchsorted(cs, ga.arange(0, total, "int64"), "right")
    return ga.take(x, src, ax)
  end)
end
