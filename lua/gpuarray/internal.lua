--- Helpers the Lua submodules share, kept off the public table (`ga` has
-- one private field, `ga._core`). Also the registry of definitions the
-- submodules build (ufuncs, reductions, select kernels, the formatter), for
-- specs and tools: `require("gpuarray.internal").ufunc_defs`.
local core = require "gpuarray.core"
local internal = {}

--- Every ufunc's definition, by the ufunc (the built-ins and scipy.special's):
-- fuse traces a call of any of them from its definition
internal.ufunc_def_of = setmetatable({}, { __mode = "k" })
--- C's dtype table (src/array/dtype_table.c), the one list of the dtypes'
-- names, itemsizes, kinds, C types and type chars: dtypes[id + 1] and
-- dtypes[name] are {id=, name=, itemsize=, kind=, ctype=, char=}.
internal.dtypes = core.ndarray.dtypes
--- ... and its columns by name: CTYPE.float32 == "float", KIND.uint8 == "u",
-- SIZE.complex64 == 8; CHARS maps a type char to its name (CHARS.f == "float32")
internal.CTYPE, internal.KIND, internal.SIZE, internal.CHARS = {}, {}, {}, {}
for _, d in ipairs(internal.dtypes) do
  internal.CTYPE[d.name], internal.KIND[d.name], internal.SIZE[d.name] = d.ctype, d.kind, d.itemsize
  internal.CHARS[d.char] = d.name
end

--- The one dispatch point of tracing (ga.fuse now; lazy evaluation later).
-- While a tracer is set, every traceable call offers it its arguments
-- first: a ufunc call (what = "ufunc", f = the ufunc) and a built-in
-- reduction called with no ndarray (what = "reduce", f = its name) from C,
-- ga.where and ga.clip (what = "where", "clip") from Lua. The tracer is a
-- function tracer(what, f, ...) returning true and the results when it
-- takes the call, false when none of its values is among the arguments
-- (the call then runs as usual). Nothing else is patched: set_tracer is the
-- only switch, and it returns the tracer it replaced, for nesting.
internal.tracer = nil

function internal.set_tracer(t)
  local prev = internal.tracer
  internal.tracer = t
  core.ndarray.set_tracer(t)
  return prev
end

--- Raise a gpuarray error (the message names the function).
function internal.fail(msg)
  error("gpuarray: " .. msg, 0)
end

function internal.is_array(v)
  if type(v) ~= "userdata" then return false end
  local mt = getmetatable(v)
  return mt ~= nil and mt.__name == "gpuarray.ndarray"
end

function internal.shape_str(s)
  return "{" .. table.concat(s, ",") .. "}"
end

--- out (an ndarray of exactly shape) for an `out=` option, or raise
function internal.check_out(out, shape, fname)
  if not internal.is_array(out) then internal.fail(fname .. ": out must be an ndarray") end
  local os = out.shape
  local same = #os == #shape
  for d = 1, #shape do same = same and os[d] == shape[d] end
  if not same then
    internal.fail(("%s: out has shape %s, the result has shape %s"):format(fname, internal.shape_str(os),
                                                                           internal.shape_str(shape)))
  end
  return out
end

--- The byte range [lo, hi) an array can reach
local function span(x)
  local lo, hi = x.data_ptr, x.data_ptr + x.itemsize
  local sh, st = x.shape, x.strides
  for d = 1, #sh do
    if sh[d] == 0 then return 0, 0 end
    local e = (sh[d] - 1) * st[d]
    if e < 0 then lo = lo + e else hi = hi + e end
  end
  return lo, hi
end

--- Whether two arrays may share memory (their byte ranges meet): an out=
-- that overlaps an input is written last or through a copy
function internal.overlaps(x, y)
  if not (internal.is_array(x) and internal.is_array(y)) then return false end
  local a0, a1 = span(x)
  local b0, b1 = span(y)
  return a0 < b1 and b0 < a1
end

--- An options argument: nil (no options) or a table, else a gpuarray: error
function internal.opts(opts, fname)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    internal.fail(("%s: options must be a table, got %s"):format(fname, type(opts)))
  end
  return opts
end

--- v when it is nil or an integer, else a gpuarray error ("fname: what must be an integer")
function internal.integer(v, fname, what)
  if v ~= nil and math.type(v) ~= "integer" then
    internal.fail(("%s: %s must be an integer, got %s"):format(fname, what, tostring(v)))
  end
  return v
end

--- A list argument of integers (sizes, axes) as a plain list, read raw: a
-- metatable's __len or __index cannot make it long or endless, as shapes
-- are read (a Lua integer is a list of one; nil stays nil). At most 64
-- entries (a shape's or axes' bound), or max: a list of data (indices)
-- passes math.huge
function internal.int_list(v, fname, what, max)
  max = max or 64
  if v == nil then return nil end
  if type(v) == "number" then return { internal.integer(v, fname, what) } end
  if type(v) ~= "table" or internal.is_array(v) then
    internal.fail(("%s: %s must be an integer or a list of integers, got %s"):format(fname, what, type(v)))
  end
  local n = rawlen(v)
  if n > max then internal.fail(("%s: %s has %d entries (at most %d)"):format(fname, what, n, max)) end
  local list = {}
  for i = 1, n do
    list[i] = rawget(v, i)
    -- a hole is no integer either (internal.integer lets nil through)
    if list[i] == nil then internal.fail(("%s: %s has a hole at entry %d"):format(fname, what, i)) end
    internal.integer(list[i], fname, what)
  end
  return list
end

--- Lua's operators on Lua numbers, by operator (and "neg", "bnot" for the
-- unary ones): what fuse computes on the host and jit folds, with Lua's meaning
internal.host_ops = {
  ["+"] = function(a, b) return a + b end, ["-"] = function(a, b) return a - b end,
  ["*"] = function(a, b) return a * b end, ["/"] = function(a, b) return a / b end,
  ["//"] = function(a, b) return a // b end, ["%"] = function(a, b) return a % b end,
  ["^"] = function(a, b) return a ^ b end, ["&"] = function(a, b) return a & b end,
  ["|"] = function(a, b) return a | b end, ["~"] = function(a, b) return a ~ b end,
  ["<<"] = function(a, b) return a << b end, [">>"] = function(a, b) return a >> b end,
  ["=="] = function(a, b) return a == b end, ["~="] = function(a, b) return a ~= b end,
  ["<"] = function(a, b) return a < b end, ["<="] = function(a, b) return a <= b end,
  [">"] = function(a, b) return a > b end, [">="] = function(a, b) return a >= b end,
  neg = function(a) return -a end, bnot = function(a) return ~a end,
}

return internal
