--- Tracing for ga.fuse: the fused function runs once per signature over
-- symbols (tables whose metatable records every operation as a node of a
-- graph) instead of arrays. Operators, ufuncs, ga.where, ga.clip, astype
-- and one final reduction are recorded with the dtypes the eager call
-- would give: ufunc loops come from the ufunc itself
-- (core.elementwise.resolve), so the fused kernel computes exactly what the
-- eager ops would. What cannot be traced raises an error naming the user's
-- line.
--
-- While tracing, this module is the state's tracer (internal.set_tracer,
-- the one dispatch point): ufunc calls, the reductions, ga.where and
-- ga.clip offer it their arguments, and it records the calls whose
-- arguments hold symbols, so that `ga.sin(x)` and a `local sin = ga.sin`
-- taken earlier both trace. No shared table is patched.
local core = require("gpuarray.core")
local internal = require("gpuarray.internal")
local M = {}

local KEY = {}          -- a symbol's node: rawget(sym, KEY)
M.KEY = KEY

local CHARS, KIND = internal.CHARS, internal.KIND   -- C's dtype table
M.CHARS, M.KIND = CHARS, KIND
local WEAK_DTYPE = { i = "int64", f = "float64", b = "bool" }
local WEAK_REP = { i = 0, f = 0.0, b = false }

local tracing, base_depth   -- the function being traced, and the stack depth below it
-- the chunk names of this library's files share this prefix ("@lua/gpuarray/"
-- or ".../share/lua/5.4/gpuarray/"): their frames are never the user's line
local LIBRARY = debug.getinfo(1, "S").source:match("^(.*[/\\])fuse[/\\]trace%.lua$") or "@gpuarray/"

local function stack_depth()
  local d = 2
  while debug.getinfo(d + 1, "l") do d = d + 1 end
  return d
end

--- The line of the innermost user frame inside the traced function (not
-- this module, not C). A tail call (`return ga.floor(x)`) leaves no frame
-- of its caller: then the traced function's first line.
local function user_line(level)
  if not tracing then return nil end
  local top = stack_depth()
  for lv = level or 3, top do
    local info = debug.getinfo(lv, "Sl")
    if not info then break end
    if info.what ~= "C" and info.source:sub(1, #LIBRARY) ~= LIBRARY and info.currentline > 0 then
      if top - lv > base_depth then return info.currentline end
      break
    end
  end
  return debug.getinfo(tracing, "S").linedefined
end

local function fail(msg)
  local line = user_line(3)
  error(("gpuarray: fuse: %s%s"):format(line and ("line " .. line .. ": ") or "", msg), 0)
end
M.fail = fail

-------------------------------------------------------------------------------
-- the graph

local Graph = {}
Graph.__index = Graph

function M.graph(ga) return setmetatable({ ga = ga, nodes = {}, nargs = 0 }, Graph) end

function Graph:add(n)
  n.id = #self.nodes + 1
  self.nodes[n.id] = n
  n.stage = n.stage or "map"
  n.deps = n.deps or {}
  return n
end

local SymMT = {}

function Graph.sym(_, n)
  return setmetatable({ [KEY] = n }, SymMT)
end

--- union of the operands' array dependencies and their stage
local function merge(g, args)
  local deps, post, arr, ndim = {}, false, false, 0
  for _, a in ipairs(args) do
    for k in pairs(a.deps) do deps[k] = true end
    post = post or a.stage == "post"
    arr = arr or (a.stage == "map" and next(a.deps) ~= nil)
    if (a.ndim or 0) > ndim then ndim = a.ndim end
  end
  if post and arr then
    fail("after a reduction, only scalars can join its result (an array operand would need a second kernel)")
  end
  return deps, post and "post" or "map", ndim, g
end

--- A node for an operand: a symbol, a Lua number or boolean (a weak
-- constant), a typed scalar (a strong constant)
function Graph:operand(v)
  local tv = type(v)
  if tv == "table" then
    local n = rawget(v, KEY)
    if n then
      if n.graph ~= self then fail("a traced value from another fused call was used here") end
      return n
    end
    fail("tables cannot be traced (complex Lua pairs are not supported in a fused function)")
  elseif tv == "number" or tv == "boolean" then
    local w = tv == "boolean" and "b" or math.type(v) == "integer" and "i" or "f"
    return self:add { kind = "const", value = v, weak = w, dtype = WEAK_DTYPE[w], graph = self, ndim = 0 }
  elseif tv == "userdata" then
    if internal.is_array(v) then
      fail("an ndarray that is not an argument of the fused function cannot be traced: pass it as an argument")
    end
    local ok, dt = pcall(function() return v.dtype end)
    if ok and KIND[dt] and v.value ~= nil then
      if KIND[dt] == "c" then fail("complex typed scalars cannot be traced: pass them as arguments") end
      return self:add { kind = "const", value = v.value, dtype = dt, graph = self, ndim = 0 }
    end
  end
  fail(("a %s cannot be traced"):format(tv))
end

--- What core.elementwise.resolve and ga.result_type take for a node: a dtype name, or a
-- Lua value for weak ones (the real value for constants, so that the same
-- "does not fit" errors are raised)
local function rep(n)
  if not n.weak then return n.dtype end
  if n.kind == "const" then return n.value end
  return WEAK_REP[n.weak]
end
M.rep = rep

-------------------------------------------------------------------------------
-- operations

local defs_by_ufunc = setmetatable({}, { __mode = "k" })

local function ufunc_def(ga, u)
  local d = defs_by_ufunc[u] or internal.ufunc_def_of[u]
  if d then return d end
  for _, def in ipairs(internal.ufunc_defs) do
    if ga[def.name] == u then
      defs_by_ufunc[u] = def
      return def
    end
  end
  return nil
end

--- The CUDA statement of loop sig (a definition's op, or its per-type override)
local function loop_op(def, sig)
  if def.ops then
    local c = sig:sub(1, 1)
    for chars, op in pairs(def.ops) do
      if chars:find(c, 1, true) then return op end
    end
  end
  return def.op
end

function Graph:ufunc(u, ...)
  local ga = self.ga
  local def = ufunc_def(ga, u)
  if not def then fail("this ufunc cannot be traced") end
  local nin = def.nin
  local args = { ... }
  local opts = args[nin + 1]
  local forced
  if opts ~= nil then
    if type(opts) ~= "table" or rawget(opts, KEY) then fail(def.name .. ": too many arguments") end
    if opts.out ~= nil then fail(def.name .. ": out= cannot be traced (a fused function returns its results)") end
    forced = opts.dtype and ga.dtype(opts.dtype).name
  end
  local ops, reps = {}, {}
  for k = 1, nin do
    if args[k] == nil then fail(("%s takes %d input%s"):format(def.name, nin, nin == 1 and "" or "s")) end
    ops[k] = self:operand(args[k])
    reps[k] = rep(ops[k])
  end
  local deps, stage, ndim = merge(self, ops)
  reps[nin + 1] = forced and { dtype = forced } or nil
  local ok, dtype, sig = pcall(core.elementwise.resolve, u, table.unpack(reps, 1, nin + 1))
  if not ok then fail(tostring(dtype):gsub("^gpuarray: ", "")) end
  local intypes = {}
  for k = 1, nin do intypes[k] = CHARS[sig:sub(k, k)] end
  local nout = def.nout or 1
  if nout == 1 then
    return self:sym(self:add { kind = "ufunc", name = def.name, sig = sig, op = loop_op(def, sig), intypes = intypes,
                               dtype = dtype, args = ops, deps = deps, stage = stage, ndim = ndim,
                               preamble = def.preamble_parts or def.preamble and { def.preamble }, graph = self })
  end
  -- one node per output, each computing the loop and keeping its own (the
  -- compiler shares the common work)
  local syms = {}
  for j = 1, nout do
    local c = sig:sub(nin + 2 + j, nin + 2 + j)
    syms[j] = self:sym(self:add { kind = "ufunc", name = def.name, sig = sig, op = loop_op(def, sig),
                                  intypes = intypes, nout = nout, pick = j - 1, dtype = CHARS[c], args = ops,
                                  deps = deps, stage = stage, ndim = ndim,
                                  preamble = def.preamble_parts or def.preamble and { def.preamble }, graph = self })
  end
  return table.unpack(syms, 1, nout)
end

-- Lua's arithmetic between two Lua numbers stays a Lua number (weak)
local LUA_OPS = {
  add = "+", subtract = "-", multiply = "*", divide = "/", floor_divide = "//", remainder = "%", power = "^",
  bitwise_and = "&", bitwise_or = "|", bitwise_xor = "~", left_shift = "<<", right_shift = ">>",
  negative = "neg", invert = "bnot",
}
local FOLD = require("gpuarray.internal").host_ops   -- Lua operators on Lua numbers
M.FOLD = FOLD

function Graph:lua_op(name, a, b)
  local op = LUA_OPS[name]
  local ops = { a, b }
  local kind = "i"
  for _, n in ipairs(ops) do
    if n.weak == "b" then fail("attempt to perform arithmetic on a boolean value") end
    if n.weak == "f" then kind = "f" end
  end
  if op == "/" or op == "^" then kind = "f" end
  if (op == "&" or op == "|" or op == "~" or op == "<<" or op == ">>" or op == "bnot") and kind == "f" then
    fail("bitwise operation on a Lua float")
  end
  local allconst = true
  for _, n in ipairs(ops) do allconst = allconst and n.kind == "const" end
  if allconst then
    local ok, v = pcall(FOLD[op], a.value, b and b.value)
    if not ok then fail(tostring(v)) end
    return self:sym(self:operand(v))
  end
  local _, stage = merge(self, ops)
  return self:sym(self:add { kind = "luaop", op = op, args = ops, weak = kind, dtype = WEAK_DTYPE[kind],
                             stage = stage, graph = self, ndim = 0 })
end

--- a OP b from the symbols' metatable
function Graph:binary(name, a, b)
  local na, nb = self:operand(a), self:operand(b)
  if na.weak and nb.weak and na.stage ~= "post" and nb.stage ~= "post" then return self:lua_op(name, na, nb) end
  return self:ufunc(self.ga[name], self:sym(na), self:sym(nb))
end

function Graph:unary(name, a)
  local n = self:operand(a)
  if n.weak then return self:lua_op(name, n) end
  return self:ufunc(self.ga[name], a)
end

function Graph:astype(x, dtype)
  local n = self:operand(x)
  local dt = self.ga.dtype(dtype).name
  return self:sym(self:add { kind = "cast", dtype = dt, args = { n }, deps = n.deps, stage = n.stage, ndim = n.ndim,
                             graph = self })
end

function Graph:where(c, x, y, opts)
  if x == nil or y == nil then fail("ga.where(cond) (nonzero) cannot be traced: its result size depends on values") end
  if opts ~= nil and next(opts) ~= nil then fail("where: options cannot be traced") end
  local ops = { self:operand(c), self:operand(x), self:operand(y) }
  local deps, stage, ndim = merge(self, ops)
  local ok, dtype = pcall(self.ga.result_type, rep(ops[2]), rep(ops[3]))
  if not ok then fail(tostring(dtype):gsub("^gpuarray: ", "")) end
  return self:sym(self:add { kind = "where", dtype = dtype, args = ops, deps = deps, stage = stage, ndim = ndim,
                             graph = self })
end

local INT_RANGE = {
  int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
  uint8 = { 0, 255 }, uint16 = { 0, 65535 }, uint32 = { 0, 4294967295 }, uint64 = { 0, math.maxinteger },
}
M.INT_RANGE = INT_RANGE

--- ga.clip with its eager rules: integer Lua bounds are clamped to an
-- integer x's range (so clip(uint8, -1, 300) stays uint8)
function Graph:clip(x, lo, hi, opts)
  if opts ~= nil and next(opts) ~= nil then fail("clip: options cannot be traced") end
  local nx = self:operand(x)
  if nx.weak then
    nx = self:add { kind = "cast", dtype = nx.dtype, args = { nx }, deps = {}, ndim = 0, graph = self }
  end
  local range = INT_RANGE[nx.dtype]
  local bounds, clamps = {}, {}
  for k, b in pairs { lo, hi } do
    if range and math.type(b) == "integer" then b = math.min(math.max(b, range[1]), range[2]) end
    bounds[k] = self:operand(b)
    if range and bounds[k].weak == "i" and bounds[k].kind ~= "const" then clamps[k + 1] = range end
  end
  local reps = { nx.dtype }
  for k = 1, 2 do if bounds[k] then reps[#reps + 1] = rep(bounds[k]) end end
  local ok, dtype = pcall(self.ga.result_type, table.unpack(reps))
  if not ok then fail(tostring(dtype):gsub("^gpuarray: ", "")) end
  if KIND[dtype] == "c" then fail("clip: complex dtypes have no order (got " .. dtype .. ")") end
  if not bounds[1] and not bounds[2] then return self:astype(self:sym(nx), dtype) end
  local ops = { nx, bounds[1] or false, bounds[2] or false }
  local list = { nx }
  for k = 1, 2 do if bounds[k] then list[#list + 1] = bounds[k] end end
  local deps, stage, ndim = merge(self, list)
  return self:sym(self:add { kind = "clip", dtype = dtype, args = ops, deps = deps, stage = stage, ndim = ndim,
                             clamps = clamps, graph = self })
end

-------------------------------------------------------------------------------
-- the final reduction

local CTYPE = internal.CTYPE
M.CTYPE = CTYPE

--- {reduce C type, result dtype} of each reduction for an input dtype (or
-- for dtype=D), NumPy's rules as lua/gpuarray/reduction/builtins.lua has them
local function as_dtype(D)
  return CTYPE[internal.COMPUTE[D]], D   -- float16 and bfloat16 reduce in float
end
local REDUCE = {
  sum = { "ga_r_add(a, b)", "0", function(dt)
    local k = KIND[dt]
    if k == "b" or k == "i" then return "long long", "int64" end
    if k == "u" then return "unsigned long long", "uint64" end
    return as_dtype(dt)
  end, as_dtype },
  mean = { "ga_r_add(a, b)", "0", function(dt)
    local k = KIND[dt]
    if k == "b" or k == "i" or k == "u" then return "double", "float64" end
    return as_dtype(dt)
  end, function(D)
    local k = KIND[D]
    if k == "f" or k == "c" then return as_dtype(D) end
    return nil
  end },
  max = { "ga_r_max(a, b)", nil, function(dt) return CTYPE[dt], dt end },
  min = { "ga_r_min(a, b)", nil, function(dt) return CTYPE[dt], dt end },
  all = { "a && b", "true", function() return "bool", "bool" end },
  any = { "a || b", "false", function() return "bool", "bool" end },
}
REDUCE.prod = { "ga_r_mul(a, b)", "1", REDUCE.sum[3], as_dtype }
REDUCE.amax, REDUCE.amin = REDUCE.max, REDUCE.min
M.REDUCE = REDUCE

function Graph:reduce(name, x, axis, opts)
  local spec = REDUCE[name]
  local canonical = name == "amax" and "max" or name == "amin" and "min" or name
  if type(x) ~= "table" or not rawget(x, KEY) then fail(("%s: expected an ndarray, got %s"):format(name, type(x))) end
  local n = rawget(x, KEY)
  if n.weak then fail(("%s: expected an ndarray, got number"):format(name)) end
  if type(axis) == "table" and not rawget(axis, KEY) and axis[1] == nil then axis, opts = nil, axis end
  opts = internal.opts(opts, name)
  if opts.out ~= nil then fail(name .. ": out= cannot be traced (a fused function returns its results)") end
  if opts.axis ~= nil then
    if axis ~= nil then fail(name .. ": axis given twice (argument and option)") end
    axis = opts.axis
  end
  if self.reduction then fail("a fused function can end in one reduction only") end
  if n.stage == "post" then fail("a fused function can end in one reduction only") end
  local acc, dtype
  if opts.dtype ~= nil then
    local D = self.ga.dtype(opts.dtype).name
    if not spec[4] then fail(name .. ": takes no dtype option") end
    acc, dtype = spec[4](D)
    if not acc then fail(("%s: dtype %s is not supported"):format(name, D)) end
  else
    acc, dtype = spec[3](n.dtype)
  end
  local ndim = n.ndim
  if axis == nil then ndim = 0
  elseif not opts.keepdims then ndim = ndim - (type(axis) == "table" and #axis or 1) end
  if opts.keepdims and axis == nil then ndim = n.ndim end
  local r = self:add { kind = "reduce", op = canonical, reduce = spec[1], identity = spec[2], acc = acc,
                       dtype = dtype, args = { n }, axis = axis, keepdims = opts.keepdims and true or false,
                       stage = "post", deps = n.deps, ndim = ndim, graph = self }
  self.reduction = r
  return self:sym(r)
end

-------------------------------------------------------------------------------
-- the symbols' metatable

local OPERATORS = {
  __add = "add", __sub = "subtract", __mul = "multiply", __div = "divide", __idiv = "floor_divide",
  __mod = "remainder", __pow = "power", __band = "bitwise_and", __bor = "bitwise_or", __bxor = "bitwise_xor",
  __shl = "left_shift", __shr = "right_shift",
}
local function graph_of(a, b)
  local n = type(a) == "table" and rawget(a, KEY) or rawget(b, KEY)
  return n.graph
end
for mm, name in pairs(OPERATORS) do
  SymMT[mm] = function(a, b) return graph_of(a, b):binary(name, a, b) end
end
SymMT.__unm = function(a) return rawget(a, KEY).graph:unary("negative", a) end
SymMT.__bnot = function(a) return rawget(a, KEY).graph:unary("invert", a) end

local BRANCH = "comparing traced values with <, <=, >, >= or == would branch on values: use x:lt(y) "
  .. "(gt, le, ge, eq, ne) and ga.where"
SymMT.__lt = function() fail(BRANCH) end
SymMT.__le = function() fail(BRANCH) end
SymMT.__eq = function() fail(BRANCH) end
SymMT.__len = function() fail("#x cannot be traced (shapes are not known while tracing)") end
SymMT.__concat = function() fail("a traced value cannot be concatenated") end
SymMT.__call = function() fail("a traced value cannot be called") end
SymMT.__tostring = function() fail("tostring cannot be traced (a fused function cannot read values)") end
SymMT.__newindex = function()
  fail("assigning into an array cannot be traced (a fused function returns its results)")
end
SymMT.__pairs = function() fail("pairs cannot be traced") end
SymMT.__name = "gpuarray.fuse.symbol"

local COMPARE = { eq = "equal", ne = "not_equal", lt = "less", le = "less_equal", gt = "greater", ge = "greater_equal" }
local METHODS = {}
for m, u in pairs(COMPARE) do
  METHODS[m] = function(self, other)
    local g = rawget(self, KEY).graph
    return g:ufunc(g.ga[u], self, other)
  end
end
function METHODS.astype(self, dtype) return rawget(self, KEY).graph:astype(self, dtype) end
function METHODS.clip(self, lo, hi, opts) return rawget(self, KEY).graph:clip(self, lo, hi, opts) end
for name in pairs(REDUCE) do
  METHODS[name] = function(self, axis, opts) return rawget(self, KEY).graph:reduce(name, self, axis, opts) end
end

local READS = { item = true, totable = true, tolist = true, tobytes = true, get = true }

SymMT.__index = function(s, k)
  local n = rawget(s, KEY)
  if n.weak then fail(("a Lua number has no field or method '%s'"):format(tostring(k))) end
  if k == "dtype" then return n.dtype end
  if k == "ndim" then
    n.graph.used_ndim = true
    return n.ndim
  end
  local m = METHODS[k]
  if m then return m end
  if type(k) ~= "string" then fail("indexing cannot be traced (a fused function works element by element)") end
  if READS[k] then fail(("x:%s() cannot be traced (a fused function cannot read values)"):format(k)) end
  if k == "shape" or k == "size" then fail(("x.%s cannot be traced (shapes are not known while tracing)"):format(k)) end
  fail(("x.%s cannot be traced"):format(k))
end

-------------------------------------------------------------------------------
-- running the function

local function has_sym(...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if type(v) == "table" and rawget(v, KEY) then return rawget(v, KEY).graph end
  end
  return nil
end

--- The tracer (internal.set_tracer): a call whose arguments hold symbols
-- is recorded on their graph; any other runs as usual. The built-in
-- reductions outside REDUCE (var, argmax, ...) are not traced: they raise
-- their usual "expected an ndarray".
local function tracer(what, f, ...)
  local g = has_sym(...)
  if not g then return false end
  if what == "ufunc" then return true, g:ufunc(f, ...) end
  if what == "reduce" then
    if not REDUCE[f] then return false end
    return true, g:reduce(f, ...)
  end
  if what == "where" then return true, g:where(...) end
  if what == "clip" then return true, g:clip(...) end
  return false
end

--- Call fn with the symbols; returns its results (a list) with ufunc
-- calls, ga.where/clip and the reductions traced
function Graph.run(_, fn, syms)
  local function handler(err)
    if type(err) == "string" and err:find("^gpuarray: ") and not err:find("^gpuarray: fuse: ") then
      local line = user_line(3)
      return ("gpuarray: fuse: %s%s"):format(line and ("line " .. line .. ": ") or "", err:sub(11))
    end
    return err
  end
  local outer, outer_depth = tracing, base_depth
  tracing, base_depth = fn, stack_depth()
  local prev = internal.set_tracer(tracer)
  local res = table.pack(xpcall(fn, handler, table.unpack(syms, 1, syms.n)))
  internal.set_tracer(prev)
  tracing, base_depth = outer, outer_depth
  if not res[1] then error(res[2], 0) end
  return table.pack(table.unpack(res, 2, res.n))
end

--- The symbol of argument i: an array (dtype, ndim), a typed scalar
-- (dtype), or a Lua number or boolean (weak)
function Graph:arg(i, dtype, ndim, weak)
  local n = self:add { kind = "arg", index = i, dtype = dtype, ndim = ndim or 0, weak = weak, graph = self,
                       array = ndim ~= nil }
  if ndim ~= nil then n.deps = { [i] = true } end
  return self:sym(n)
end

function M.node(sym)
  return type(sym) == "table" and rawget(sym, KEY) or nil
end

return M
