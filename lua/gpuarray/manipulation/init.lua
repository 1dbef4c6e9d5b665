--- The manipulation room (API.md §3, §14): shapes and axes, joining,
-- splitting, repeating, rearranging, adding and removing elements, pad.
return function(ga)
  -- `axis: integer|false` (the binder knows `false`): false asks for the
  -- flattened array (ga.sort's convention), where NumPy writes axis=None
  -- for a parameter whose default is an axis
  require("gpuarray.manipulation.shape")(ga)
  require("gpuarray.manipulation.join")(ga)
  require("gpuarray.manipulation.split")(ga)
  require("gpuarray.manipulation.repeat")(ga)
  require("gpuarray.manipulation.rearrange")(ga)
  require("gpuarray.manipulation.edit")(ga)
  require("gpuarray.manipulation.pad")(ga)
end
