--- gpuarray: CuPy for Lua. N-dimensional arrays in CUDA device memory.
-- This file is what `require "gpuarray"` loads: the C core (gpuarray.core)
-- plus the parts written in Lua. Submodules add themselves to the same table
-- and the same ndarray method table; see docs/design.md for where things live.
local core = require "gpuarray.core"

-- The C module holds the public functions, plus one private table per
-- feature room or layer (core.elementwise, core.runtime, ...) and core._test
-- for the hooks of specs, fuzzers, bench and tools; the private tables share
-- one metatable, which is how they stay off the public table.
local PRIVATE = getmetatable(core._test)
local ga = {}
for name, value in pairs(core) do
  local private = type(value) == "table" and getmetatable(value) == PRIVATE
  if name:sub(1, 1) ~= "_" and name ~= "methods" and not private then
    ga[name] = value
  end
end
-- The one private field: the C core. What the Lua submodules share lives
-- in gpuarray.internal, off the public table.
ga._core = core
ga.methods = core.methods  -- ndarray methods; submodules add theirs here

ga.methods.tolist = ga.methods.totable

require("gpuarray.array.dtypes")(ga)
require("gpuarray.creation")(ga)
require("gpuarray.io")(ga)
require("gpuarray.elementwise.ufuncs")(ga)
require("gpuarray.manipulation")(ga)
require("gpuarray.select")(ga)
require("gpuarray.logic")(ga)
require("gpuarray.binary")(ga)
require("gpuarray.reduction.builtins")(ga)
require("gpuarray.blas.products")(ga)
require("gpuarray.blas.einsum")(ga)
require("gpuarray.math")(ga)
require("gpuarray.solver")(ga)
require("gpuarray.random")(ga)
require("gpuarray.fft")(ga)
require("gpuarray.sort")(ga)
require("gpuarray.statistics")(ga)
require("gpuarray.window")(ga)
require("gpuarray.polynomial")(ga)
require("gpuarray.set")(ga)
require("gpuarray.sparse")(ga)
require("gpuarray.profiler.benchmark")(ga)
require("gpuarray.profiler.ranges")(ga)
require("gpuarray.jit")(ga)
require("gpuarray.jit.api")(ga)
require("gpuarray.functional")(ga)
require("gpuarray.fuse")(ga)
require("gpuarray.lazy")(ga)
require("gpuarray.graph")(ga)
require("gpuarray.nccl")(ga)
require("gpuarray.distributed")(ga)
require("gpuarray.scipy")(ga)
-- last: the C functions' declarations wrap what the rooms above left in place
require("gpuarray.runtime")(ga)
require("gpuarray.signal")(ga)
require("gpuarray.misc")(ga)
require("gpuarray.array.fields")(ga)
require("gpuarray.array.methods")(ga)

local api = require "gpuarray.api"
api.def(ga, [[
help(f: any) -> string
The reference entry of a public function, given as the function (ga.sum,
ga.linalg.norm) or by name ("linalg.norm", "ndarray:sum"): its signature,
parameters, types, defaults and returns, as docs/reference.md has it.
]], function(f)
  local e = api.entry(f)
  if not e then
    require("gpuarray.internal").fail(("help: no declaration for %s"):format(tostring(f)))
  end
  return api.render(e)
end)

return ga
