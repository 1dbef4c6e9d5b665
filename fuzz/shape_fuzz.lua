--- Shapes and broadcasting: creation, views, joins and splits, printing,
-- on zero-size arrays (no device memory needed) with any arguments.
local internal = require("gpuarray.internal")
local CALLS = {
  "empty", "zeros", "ones", "full", "eye", "identity", "arange", "linspace", "empty_like", "zeros_like",
  "broadcast_shapes", "broadcast_to", "broadcast_arrays", "reshape", "ravel", "transpose", "swapaxes",
  "squeeze", "expand_dims", "atleast_1d", "atleast_2d", "atleast_3d", "split", "array_split",
  "concatenate", "stack", "hstack", "vstack", "dstack", "tile", "repeat_", "flip", "fliplr", "flipud",
  "roll", "copy", "ascontiguousarray", "array", "asarray",
  -- issue 25's routines
  "pad", "moveaxis", "rollaxis", "rot90", "matrix_transpose", "column_stack", "hsplit", "vsplit", "dsplit",
  "delete", "insert", "append", "resize", "concat", "broadcast", "ndim", "shape", "size", "require",
  "take_along_axis", "put_along_axis", "scatter_add", "scatter_max", "choose", "compress", "unravel_index",
  "ravel_multi_index", "indices", "ix_", "meshgrid", "full_like", "ones_like", "asfortranarray", "copyto",
  "tri", "diagflat", "vander", "frombuffer", "fromstring", "fromiter",
}
local METHODS = {
  "reshape", "ravel", "flatten", "transpose", "swapaxes", "squeeze", "expand_dims", "copy", "astype",
  "totable", "tolist", "tobytes", "item", "fill", "view", "take", "repeat_", "compress", "choose", "nonzero",
}

local function arg(F)
  local r = math.random(10)
  if r <= 3 then return F.array() end
  if r <= 5 then return F.shape(F.chance(0.5)) end
  if r <= 7 then return F.int() end
  if r == 8 then return { F.array(), F.array() } end
  return F.any(2)
end

return {
  name = "shape",
  gen = function(F)
    local n = math.random(0, 4)
    if F.chance(0.4) then
      return { method = F.pick(METHODS), x = F.array(), args = F.args(n, function() return arg(F) end) }
    end
    return { fn = F.pick(CALLS), args = F.args(n, function() return arg(F) end), show = F.chance(0.3) }
  end,
  run = function(t, F)
    if t.method then
      local m = t.x[t.method]
      return m(t.x, table.unpack(t.args, 1, t.args.n))
    end
    local r = F.ga[t.fn](table.unpack(t.args, 1, t.args.n))
    if t.show and internal.is_array(r) then return tostring(r) end
    return r
  end,
}
