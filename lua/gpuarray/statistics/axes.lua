--- Axis arguments of the statistics functions (API.md §0: 1-based,
-- negative from the end), and moving the reduced axes last.
return function(ga)
  local internal = require("gpuarray.internal")
  local fail = internal.fail
  local A = {}

  --- axis (nil, an integer or a list of integers) as a set of 1-based
  -- axes of an nd-array; nil: every axis
  function A.set(axis, nd, fname)
    local list = axis
    if axis == nil then
      list = {}
      for d = 1, nd do list[d] = d end
    elseif math.type(axis) == "integer" then
      list = { axis }
    end
    local set, n = {}, 0
    for _, ax in ipairs(list) do
      if math.type(ax) ~= "integer" then fail(("%s: axis must be an integer, got %s"):format(fname, tostring(ax))) end
      local d = ax < 0 and nd + 1 + ax or ax
      if d < 1 or d > nd then
        fail(("%s: axis %d is out of bounds for an array of %d dimensions"):format(fname, ax, nd))
      end
      if set[d] then fail(("%s: repeated axis %d"):format(fname, ax)) end
      set[d] = true
      n = n + 1
    end
    return set, n
  end

  --- x as a C-contiguous {rows, L} array whose rows run over the reduced
  -- axes; also the shape of the kept axes and the keepdims shape
  function A.rows(x, axis, fname)
    local nd = x.ndim
    local set = A.set(axis, nd, fname)
    local shape, perm, kept, keep1 = x.shape, {}, {}, {}
    local L = 1
    for d = 1, nd do
      if not set[d] then
        perm[#perm + 1] = d
        kept[#kept + 1] = shape[d]
        keep1[d] = shape[d]
      else
        keep1[d] = 1
      end
    end
    for d = 1, nd do
      if set[d] then
        perm[#perm + 1] = d
        L = L * shape[d]
      end
    end
    local rows = 1
    for _, s in ipairs(kept) do rows = rows * s end
    if nd > 0 then x = ga.transpose(x, perm) end
    return ga.ascontiguousarray(x):reshape(rows, L), kept, keep1
  end

  return A
end
