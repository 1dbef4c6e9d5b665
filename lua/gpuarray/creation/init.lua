--- The creation room (API.md §2, §14): new arrays, ranges, matrices, and
-- arrays from Lua values, strings, iterators and DLPack tensors.
return function(ga)
  require("gpuarray.creation.basic")(ga)
  require("gpuarray.creation.ranges")(ga)
  require("gpuarray.creation.matrix")(ga)
  require("gpuarray.creation.from")(ga)
end
