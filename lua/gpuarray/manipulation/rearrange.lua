--- Rearranging elements (API.md §3, §14): flip, fliplr, flipud (views
-- with negative strides), roll (a copy), rot90 (a view).
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail = internal.fail
  local def = api.def

  local function flip(x, axes)
    local nd = x.ndim
    local flipped = {}
    if axes == nil then
      for d = 1, nd do flipped[d] = true end
    else
      for _, d in ipairs(args.axes(axes, nd, "flip")) do flipped[d] = true end
    end
    if nd == 0 then return x:reshape({}) end
    local key = {}
    for d = 1, nd do key[d] = flipped[d] and { nil, nil, -1 } or {} end
    return x[key]
  end

  def(ga, [[
flip(m: array_like, axis: axes?) -> ndarray
A view of m with the order of elements reversed along axis (an integer or
a list of axes; every axis when nil).
]], function(m, axis)
    return flip(args.array(ga, m, "flip"), axis)
  end)

  def(ga, [[
fliplr(m: array_like) -> ndarray
A view of m reversed along axis 2 (m has at least 2 dimensions).
]], function(m)
    local x = args.array(ga, m, "fliplr")
    if x.ndim < 2 then fail("fliplr: the array must have at least 2 dimensions") end
    return flip(x, 2)
  end)

  def(ga, [[
flipud(m: array_like) -> ndarray
A view of m reversed along axis 1 (m has at least 1 dimension).
]], function(m)
    local x = args.array(ga, m, "flipud")
    if x.ndim < 1 then fail("flipud: the array must have at least 1 dimension") end
    return flip(x, 1)
  end)

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

  def(ga, [[
roll(a: array_like, shift: integer|list, axis: axes?) -> ndarray
A copy of a with its elements shifted by shift along axis, wrapping around
(shift and axis may be lists, paired; one value pairs with each of the
other list). Without axis a rolls flattened and keeps its shape.
]], function(a, shift, axis)
    local x = args.array(ga, a, "roll")
    local shifts = type(shift) == "table" and args.plain(shift, "roll", "shift") or { shift }
    if #shifts == 0 then fail("roll: shift is empty") end
    for i, s in ipairs(shifts) do
      if math.type(s) ~= "integer" then fail(("roll: shift %d must be an integer, got %s"):format(i, tostring(s))) end
    end
    if axis == nil then
      local total = 0
      for _, s in ipairs(shifts) do total = total + s end
      return roll_axes(x:ravel(), { total }):reshape(x.shape)
    end
    local axes = type(axis) == "table" and args.plain(axis, "roll", "axis") or { axis }
    if #axes == 0 then fail("roll: axis is empty") end
    if #shifts ~= #axes and #shifts ~= 1 and #axes ~= 1 then
      fail(("roll: %d shifts and %d axes cannot be paired"):format(#shifts, #axes))
    end
    local by = {}
    for i = 1, math.max(#shifts, #axes) do
      local d = args.axis(axes[#axes == 1 and 1 or i], x.ndim, "roll")
      by[d] = (by[d] or 0) + shifts[#shifts == 1 and 1 or i]
    end
    return roll_axes(x, by)
  end)

  def(ga, [[
rot90(m: array_like, k: integer = 1, axes: axes = ({1, 2})) -> ndarray
A view of m rotated by 90 degrees k times in the plane of the two axes,
from the first axis towards the second (k < 0 turns the other way).
]], function(m, k, axes)
    local x = args.array(ga, m, "rot90")
    axes = axes or { 1, 2 }
    local list = type(axes) == "table" and args.plain(axes, "rot90", "axes") or { axes }
    if #list ~= 2 then fail(("rot90: axes must hold 2 axes, got %d"):format(#list)) end
    local nd = x.ndim
    local a1, a2 = args.axis(list[1], nd, "rot90"), args.axis(list[2], nd, "rot90")
    if a1 == a2 then fail("rot90: the two axes must be different") end
    k = k % 4
    if k == 0 then return x[{ ga.ellipsis }] end
    if k == 2 then return flip(flip(x, a1), a2) end
    local perm = {}
    for d = 1, nd do perm[d] = d end
    perm[a1], perm[a2] = perm[a2], perm[a1]
    if k == 1 then return flip(x, a2):transpose(perm) end
    return flip(x:transpose(perm), a2)
  end)
end
