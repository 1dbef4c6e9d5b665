--- ga.fuse(fn[, {name=}]): fn traced over symbols (fuse/trace.lua) becomes
-- one ElementwiseKernel, or one ReductionKernel when it ends in sum, prod,
-- min, max, all, any or mean (fuse/codegen.lua). A fused call looks its
-- kernel up by the arguments' dtypes and ndims and by which Lua numbers are
-- integers, floats or booleans, through a tree of small tables (no string
-- is built per call), then makes one call of the kernel object: one launch
-- (two when a reduction splits its rows across blocks, as the eager one).
--
-- Lua numbers are weak scalars, passed to the kernel at each call; Lua
-- numbers written in fn (or upvalues) are constants of the kernel.
local trace = require "gpuarray.fuse.trace"
local codegen = require "gpuarray.fuse.codegen"

return function(ga)
  local internal = require("gpuarray.internal")
  local fail = internal.fail
  local is_array = internal.is_array
  local math_type = math.type

  local Fused = {}
  local FusedMT = { __index = Fused, __name = "gpuarray.fuse" }

  --- dtype, ndim (nil: a typed scalar) and weak kind of one argument;
  -- f:_trace also takes descriptions: {dtype = "float32", ndim = 2}, or a
  -- dtype name for a typed scalar
  local function classify(v, i)
    local tv = type(v)
    if tv == "number" then
      return math_type(v) == "integer" and "int64" or "float64", nil, math_type(v) == "integer" and "i" or "f"
    elseif tv == "boolean" then
      return "bool", nil, "b"
    elseif tv == "userdata" then
      if is_array(v) then return v.dtype, v.ndim end
      local ok, dt = pcall(function() return v.dtype end)
      if ok and trace.KIND[dt] then return dt end
    elseif tv == "table" and trace.KIND[v.dtype] then
      return v.dtype, v.ndim or 0
    elseif tv == "string" and trace.KIND[v] then
      return v
    end
    fail(("fuse: argument %d must be an ndarray, a typed scalar, a Lua number or a boolean, got %s"):format(i, tv))
  end

  --- Trace fn for args and plan its kernel (and whether the trace read an ndim)
  local function plan_for(self, args)
    local g = trace.graph(ga)
    local syms = { n = args.n }
    for i = 1, args.n do
      local dt, nd, weak = classify(args[i], i)
      syms[i] = g:arg(i, dt, nd, weak)
    end
    local res = g:run(self._fn, syms)
    local outs = {}
    for i = 1, res.n do
      local n = trace.node(res[i])
      if not n then
        fail(("fuse: result %d is a %s: a fused function returns values computed from its arguments")
          :format(i, type(res[i])))
      end
      outs[i] = n
    end
    return codegen.plan(g, outs, ga), g.used_ndim
  end

  --- f:_trace(args or descriptions...) -> the plan (kernel definition) without compiling
  function Fused:_trace(...)
    return (plan_for(self, table.pack(...)))
  end

  local function check_ints(checks, used)
    for _, c in ipairs(checks) do
      local v = used[c.index]
      if v < c.lo or v > c.hi then
        fail(("fuse: Lua integer %d does not fit %s%s"):format(v, c.dtype,
          c.arg and (" (argument " .. c.arg .. ")") or ""))
      end
    end
  end

  local function check_shapes(groups, args)
    local first
    for k, group in ipairs(groups) do
      local shapes = {}
      for m, i in ipairs(group) do shapes[m] = args[i].shape end
      local s = #shapes > 0 and ga.broadcast_shapes(table.unpack(shapes)) or {}
      local str = internal.shape_str(s)
      if first and str ~= first then
        fail(("fuse: results 1 and %d have different shapes (%s and %s): fuse them separately"):format(k, first, str))
      end
      first = first or str
    end
  end

  --- The entry for these arguments: {call = function(...)}, built on a miss
  local function build(self, args)
    local plan, used_ndim = plan_for(self, args)
    local k
    if plan.kind == "elementwise" then
      k = ga.ElementwiseKernel(plan.in_params, plan.out_params, plan.operation, self.name,
                               plan.preamble ~= "" and { preamble = plan.preamble } or nil)
    else
      k = ga.ReductionKernel(plan.in_params, plan.out_params, plan.map, plan.reduce, plan.post, plan.identity,
                             self.name, { reduce_type = plan.reduce_type, preamble = plan.preamble })
    end
    local nused = #plan.args
    for m in pairs(plan.host) do if m > nused then nused = m end end
    local direct = nused == args.n and #plan.checks == 0 and not plan.groups and not plan.scalar_only
    for i = 1, nused do direct = direct and plan.args[i] == i end
    local e = { kernel = k, plan = plan }
    local opts = plan.kind == "reduction" and { axis = plan.axis, keepdims = plan.keepdims } or nil
    if direct and plan.kind == "elementwise" then
      e.call = k
      return e, used_ndim
    end
    local argmap, host = plan.args, plan.host
    e.call = function(...)
      local all = table.pack(...)
      if plan.groups then check_shapes(plan.groups, all) end
      local used = {}
      for m = 1, nused do
        local i = argmap[m]
        if i then used[m] = all[i] else used[m] = host[m](all) end
      end
      check_ints(plan.checks, used)
      if opts then
        used[nused + 1] = opts
        return k(table.unpack(used, 1, nused + 1))
      end
      if plan.scalar_only then
        used[nused + 1] = { size = 1 }
        local outs = table.pack(k(table.unpack(used, 1, nused + 1)))
        for m = 1, outs.n do outs[m] = outs[m]:reshape({}) end
        return table.unpack(outs, 1, outs.n)
      end
      return k(table.unpack(used, 1, nused))
    end
    return e, used_ndim
  end

  -- The cache is a tree with one level per argument: a userdata by its
  -- metatable (array or typed scalar) then its dtype (then its ndim, only
  -- once a trace of this function read x.ndim: the kernels serve every
  -- ndim), a Lua number by math.type, a boolean by "boolean".
  local getmetatable = getmetatable

  local function step(node, v, nd)
    local tv = type(v)
    if tv == "userdata" then
      local bym = node[getmetatable(v)]
      node = bym and bym[v.dtype]
      if nd and node then node = node[v.ndim or false] end
      return node
    elseif tv == "number" then
      return node[math_type(v)]
    elseif tv == "boolean" then
      return node.boolean
    end
    return nil
  end

  local function child(node, key)
    local c = node[key]
    if not c then
      c = {}
      node[key] = c
    end
    return c
  end

  local function insert(self, args, e)
    local node = self._cache
    for i = 1, args.n do
      local v = args[i]
      local tv = type(v)
      if tv == "number" then
        node = child(node, math_type(v))
      elseif tv == "boolean" then
        node = child(node, "boolean")
      else
        node = child(child(node, getmetatable(v)), v.dtype)
        if self._ndim then node = child(node, v.ndim or false) end
      end
    end
    node.entry = e
  end

  local function slow(self, ...)
    local args = table.pack(...)
    -- a fused function called while another one is traced is traced inline
    for i = 1, args.n do
      if trace.node(args[i]) then return self._fn(...) end
    end
    local e, used_ndim = build(self, args)
    if used_ndim and not self._ndim then
      -- this function's kernels depend on ndims: key them by ndim from now on
      self._ndim = true
      self._cache = {}
    end
    insert(self, args, e)
    return e.call(...)
  end

  function FusedMT.__call(self, a, b, ...)
    local node = self._cache
    local nd = self._ndim
    if not nd and type(b) == "userdata" and type(a) == "userdata" and (...) == nil then
      -- two arrays: the hottest case, inline
      node = node[getmetatable(a)]
      node = node and node[a.dtype]
      node = node and node[getmetatable(b)]
      node = node and node[b.dtype]
      local e = node and node.entry
      if e then return e.call(a, b) end
      return slow(self, a, b)
    end
    if (...) == nil then
      -- no, one or two arguments: the common cases, without a loop; the
      -- kernel gets exactly the arguments given (no trailing nil)
      if a == nil then
        local e = node.entry
        if e then return e.call() end
        return slow(self)
      end
      node = step(node, a, nd)
      if b == nil then
        local e = node and node.entry
        if e then return e.call(a) end
        return slow(self, a)
      end
      node = node and step(node, b, nd)
      local e = node and node.entry
      if e then return e.call(a, b) end
      return slow(self, a, b)
    end
    node = node and step(node, a, nd)
    node = node and step(node, b, nd)
    for i = 1, select("#", ...) do
      if not node then break end
      node = step(node, (select(i, ...)), nd)
    end
    local e = node and node.entry
    if e then return e.call(a, b, ...) end
    return slow(self, a, b, ...)
  end

  function FusedMT.__tostring(self) return "gpuarray.fuse(" .. self.name .. ")" end

  --- ga.fuse(fn[, {name=}]) -> a callable; `ga.fuse{name=}` returns a decorator
  local function fuse(fn, name)
    if not name:match("^[%a][%w_]*$") then fail("fuse: name must be a C identifier") end
    return setmetatable({ _fn = fn, name = name, _cache = {} }, FusedMT)
  end
  require("gpuarray.api").def(ga, [[
fuse(fn: function?, *, name|kernel_name: string = "fused_kernel") -> callable
Traces the Lua function over symbolic arrays and compiles one elementwise kernel (plus one final
reduction if fn ends in one), cached by argument dtypes and ndims. Without fn (ga.fuse{name = "k"})
it returns a decorator: a function of fn.
]], function(fn, name)
    if fn == nil then return function(f) return fuse(f, name) end end
    return fuse(fn, name)
  end)
end
