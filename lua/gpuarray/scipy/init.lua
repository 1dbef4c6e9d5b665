--- ga.scipy: cupyx.scipy's modules, name for name (API.md §15), each loaded
-- on first use: ga.scipy.special requires "gpuarray.scipy.special" the
-- first time it is read, so a script that never touches SciPy pays
-- nothing. A module is lua/gpuarray/scipy/<module>.lua or
-- lua/gpuarray/scipy/<module>/init.lua; it returns function(ga, scipy)
-- giving its table. Submodules (sparse.linalg, signal.windows) are fields
-- of their module's table, set by that module.
local surface = require "gpuarray.api.surface"

local MODULES = { "special", "linalg", "sparse", "fft", "fftpack", "stats", "signal", "ndimage", "interpolate",
                  "spatial" }

return function(ga)
  local scipy = {}
  local known = {}
  for _, m in ipairs(MODULES) do
    known[m] = true
    surface.lazy[#surface.lazy + 1] = "scipy." .. m
  end
  setmetatable(scipy, {
    __index = function(t, name)
      if not known[name] then return nil end
      local ok, mod = pcall(require, "gpuarray.scipy." .. name)
      if not ok then
        if tostring(mod):find("module 'gpuarray.scipy." .. name .. "' not found", 1, true) then return nil end
        error(mod, 2)
      end
      local value = mod(ga, t)
      rawset(t, name, value)
      return value
    end,
  })
  ga.scipy = scipy
end
