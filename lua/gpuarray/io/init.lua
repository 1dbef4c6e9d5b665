--- Input and output (API.md §2, §14): printing (printing.lua, over the
-- float text of floatfmt.lua), .npy and .npz files (npy.lua over zip.lua
-- and deflate.lua), text tables and raw files (text.lua).
return function(ga)
  require("gpuarray.io.printing")(ga)
  require("gpuarray.io.npy")(ga)
  require("gpuarray.io.text")(ga)
end
