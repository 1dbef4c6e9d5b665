--- gpuarray: CuPy for Lua. N-dimensional arrays in CUDA device memory.
-- This file is what `require "gpuarray"` loads: the C core (gpuarray.core)
-- plus the parts written in Lua. Submodules add themselves to the same table
-- and the same ndarray method table; see docs/design.md for where things live.
local core = require "gpuarray.core"
local internal = require "gpuarray.internal"

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

--- Views of several arrays broadcast against each other.
function ga.broadcast_arrays(...)
  local arrays = { ... }
  local shapes = {}
  for i, a in ipairs(arrays) do
    if not internal.is_array(a) then
      internal.fail(("broadcast_arrays: argument %d is not an ndarray (got %s)"):format(i, type(a)))
    end
    shapes[i] = a.shape
  end
  local shape = ga.broadcast_shapes(table.unpack(shapes))
  local out = {}
  for i, a in ipairs(arrays) do out[i] = ga.broadcast_to(a, shape) end
  return table.unpack(out)
end

local function atleast(n, x)
  x = ga.asarray(x)
  local nd = x.ndim
  if nd >= n then return x end
  if n == 2 and nd == 0 then return x:reshape(1, 1) end
  if n == 2 then return x:reshape(1, x.shape[1]) end
  if nd == 0 then return x:reshape(1, 1, 1) end
  if nd == 1 then return x:reshape(1, x.shape[1], 1) end
  local s = x.shape
  return x:reshape(s[1], s[2], 1)
end

--- NumPy's atleast_1d/2d/3d; with several arguments, one result each.
for n = 1, 3 do
  ga["atleast_" .. n .. "d"] = function(...)
    local args = table.pack(...)
    local out = {}
    for i = 1, args.n do
      if n == 1 then
        local x = ga.asarray(args[i])
        out[i] = x.ndim == 0 and x:reshape(1) or x
      else
        out[i] = atleast(n, args[i])
      end
    end
    return table.unpack(out, 1, args.n)
  end
end

ga.methods.tolist = ga.methods.totable

require("gpuarray.io")(ga)
require("gpuarray.elementwise.ufuncs")(ga)
require("gpuarray.manipulation.join")(ga)
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
require("gpuarray.jit")(ga)
require("gpuarray.functional")(ga)
require("gpuarray.fuse")(ga)
require("gpuarray.graph")(ga)
require("gpuarray.nccl")(ga)
require("gpuarray.scipy")(ga)
require("gpuarray.signal")(ga)
require("gpuarray.misc")(ga)

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
