--- gpuarray: CuPy for Lua. N-dimensional arrays in CUDA device memory.
-- This file is what `require "gpuarray"` loads: the C core (gpuarray.core)
-- plus the parts written in Lua. Submodules add themselves to the same table
-- and the same ndarray method table; see DESIGN.md for where things live.
local core = require "gpuarray.core"

local ga = {}
for name, value in pairs(core) do
  if name:sub(1, 1) ~= "_" and name ~= "methods" then ga[name] = value end
end
ga._core = core            -- test hooks and internals, not part of the API
ga.methods = core.methods  -- ndarray methods; submodules add theirs here

local function fail(msg)
  error("gpuarray: " .. msg, 0)
end
ga._fail = fail

-- An options argument: nil (no options) or a table, else a gpuarray: error
function ga._opts(opts, fname)
  if opts == nil then return {} end
  if type(opts) ~= "table" then fail(("%s: options must be a table, got %s"):format(fname, type(opts))) end
  return opts
end

-- Shared by the Lua submodules (join, select)
function ga._is_array(v)
  if type(v) ~= "userdata" then return false end
  local mt = getmetatable(v)
  return mt ~= nil and mt.__name == "gpuarray.ndarray"
end
function ga._shape_str(s)
  return "{" .. table.concat(s, ",") .. "}"
end
--- out (an ndarray of exactly shape) for an `out=` option, or raise
function ga._check_out(out, shape, fname)
  if not ga._is_array(out) then fail(fname .. ": out must be an ndarray") end
  local os = out.shape
  local same = #os == #shape
  for d = 1, #shape do same = same and os[d] == shape[d] end
  if not same then
    fail(("%s: out has shape %s, the result has shape %s"):format(fname, ga._shape_str(os), ga._shape_str(shape)))
  end
  return out
end

--- Views of several arrays broadcast against each other.
function ga.broadcast_arrays(...)
  local arrays = { ... }
  local shapes = {}
  for i, a in ipairs(arrays) do
    if not ga._is_array(a) then fail(("broadcast_arrays: argument %d is not an ndarray"):format(i)) end
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

require("gpuarray.format")(ga)
require("gpuarray.npy")(ga)
require("gpuarray.ufuncs")(ga)
require("gpuarray.join")(ga)
require("gpuarray.select")(ga)
require("gpuarray.reductions")(ga)
require("gpuarray.benchmark")(ga)

return ga
