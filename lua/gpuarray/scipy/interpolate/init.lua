--- ga.scipy.interpolate: cupyx.scipy.interpolate (SciPy 1.10's
-- semantics). Evaluation and derivatives run on the GPU, one kernel per
-- evaluation (interpolate/kernels.lua); fitting (the spline systems) runs
-- in Lua on the host: the systems are banded and small next to the
-- evaluations. Classes are Lua objects with methods (PPoly, BSpline,
-- interp1d, ...), called like functions. Axes are 1-based (y's
-- interpolation axis); coordinates are values. docs/scipy-interpolate.md.
return function(ga)
  local I = {}
  local C = require("gpuarray.scipy.interpolate.common")(ga)
  I._common = C
  require("gpuarray.scipy.interpolate.ppoly")(ga, I, C)
  require("gpuarray.scipy.interpolate.bspline")(ga, I, C)
  require("gpuarray.scipy.interpolate.interp1d")(ga, I, C)
  require("gpuarray.scipy.interpolate.grid")(ga, I, C)
  require("gpuarray.scipy.interpolate.polyint")(ga, I, C)
  require("gpuarray.scipy.interpolate.scattered")(ga, I)
  require("gpuarray.scipy.interpolate.tensor")(ga, I, C)
  return I
end
