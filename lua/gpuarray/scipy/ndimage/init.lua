--- ga.scipy.ndimage: cupyx.scipy.ndimage (SciPy 1.10's semantics) on the
-- GPU. Filters (filters.lua over the separable pass and the N-d stencil),
-- generic filters over ga.jit functions (generic.lua), interpolation
-- (interpolation.lua), measurements (measurements.lua, label.lua),
-- morphology (morphology.lua, distance.lua) and Fourier filters
-- (fourier.lua). docs/scipy-ndimage.md has the conventions: axes and
-- returned positions are 1-based; labels, coordinates and offsets are
-- values as SciPy has them.
return function(ga)
  local M = {}
  local S = require("gpuarray.scipy.ndimage.support")(ga)
  local St = require("gpuarray.scipy.ndimage.stencil")(ga, S)
  local P = require("gpuarray.scipy.ndimage.separable")(ga, S, St)
  M._support, M._stencil, M._pass = S, St, P
  require("gpuarray.scipy.ndimage.filters")(ga, M, S, St, P)
  require("gpuarray.scipy.ndimage.generic")(ga, M, S)
  require("gpuarray.scipy.ndimage.interpolation")(ga, M, S)
  require("gpuarray.scipy.ndimage.label")(ga, M, S)
  require("gpuarray.scipy.ndimage.measurements")(ga, M, S)
  require("gpuarray.scipy.ndimage.morphology")(ga, M, S)
  require("gpuarray.scipy.ndimage.distance")(ga, M, S)
  require("gpuarray.scipy.ndimage.fourier")(ga, M, S)
  return M
end
