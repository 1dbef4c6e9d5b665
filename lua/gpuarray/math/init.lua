--- The math room (API.md §14, the "math" and "ufunc_method" families):
-- ufunc methods (ufunc_methods.lua, loaded by elementwise/ufuncs.lua),
-- the two-output ufuncs and ldexp, cumulative sums, differences and
-- integrals, convolution, interpolation, nan_to_num and real_if_close.
-- The ufuncs themselves are definitions in elementwise/ufuncs.lua.
return function(ga)
  require("gpuarray.math.multiout")(ga)
  require("gpuarray.math.sums")(ga)
  require("gpuarray.math.calculus")(ga)
  require("gpuarray.math.convolve")(ga)
  require("gpuarray.math.interp")(ga)
  require("gpuarray.math.misc")(ga)
  require("gpuarray.math.gufunc")(ga)
end
