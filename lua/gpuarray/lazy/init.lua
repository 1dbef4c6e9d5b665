--- Lazy evaluation (API.md 16, docs/lazy.md): elementwise work is recorded
-- by the C side (src/elementwise/lazy*.c) and runs as one generated kernel
-- when its value is needed. This file declares the switch and the forcing
-- functions, and installs the code generator the C side asks once per
-- expression structure (lazy/codegen.lua over fuse's).
local core = require "gpuarray.core"
local api = require "gpuarray.api"

return function(ga)
  local E = core.elementwise
  E.lazy_set_codegen(require "gpuarray.lazy.codegen")

  api.def(ga, [[
set_lazy(on: boolean) -> boolean
Turn lazy evaluation of elementwise work on or off for this Lua state
(default off in this release; GPUARRAY_LAZY=1 in the environment starts it on). Pending
work is computed first either way. Returns the previous setting.
]], function(on) return E.lazy_set(on) end)

  api.def(ga, [[
get_lazy() -> boolean
Whether elementwise work is recorded (lazy evaluation) in this Lua state.
]], function() return E.lazy_get() end)

  -- ga.eval is a C function (no binder on the path: it takes any values)
  ga.eval = E.lazy_eval
  api.declare([[
eval(...: any|dict) -> ...
Compute the pending arrays among the arguments (lazy evaluation) and
return the arguments. Arrays that are not pending and other values
(tables included: no options) pass through unchanged.
]], ga.eval)

  -- bound like every method (the binder checks its arguments; the C method
  -- under it takes only self)
  api.def(ga.methods, [[
ndarray:eval() -> ndarray
Compute the array if it is pending (lazy evaluation), and land writes
recorded into its memory; returns the array. Does not synchronize.
]], ga.methods.eval)

  api.def(ga, [[
get_lazy_source(x: ndarray) -> string?
The CUDA source of the kernel that computing the pending array x would
compile now (nil when x is not pending). An expression of one ufunc runs
the ufunc's own kernel instead; this shows the generated one.
]], function(x) return E.lazy_source(x) end)
end
