--- Loaded before the specs by `make gcstress` (busted --helper): the
-- collector mode under test. GPUARRAY_GC=generational switches Lua's
-- collector to generational mode for the whole run; GPUARRAY_GC_STRESS=1
-- (read by the module) runs a full collection at every device allocation.
local mode = os.getenv("GPUARRAY_GC")
if mode == "generational" or mode == "incremental" then
  collectgarbage(mode)
  io.stderr:write(("[collector: %s]\n"):format(mode))
end
