--- ga.jit: kernels written in a subset of Lua (the twin of cupyx.jit).
--   ga.jit.rawkernel(fn[, {name=}])       -> k; k(grid, block, args[, opts]) as ga.RawKernel
--   ga.jit.elementwisekernel(fn[, {name=}]) -> k; k(x, y, ...) as an ElementwiseKernel
--   k:source(args...)                      -> the generated CUDA for those arguments
-- The Lua source of fn is read back (debug.getinfo), parsed (parser.lua)
-- and translated (translate.lua, stmt.lua, expr.lua) once per signature: the dtypes
-- of the array arguments, the dtypes of typed scalars, and which Lua
-- numbers are integers or floats. docs/kernels-in-lua.md describes the
-- subset.
local types = require "gpuarray.jit.types"
local translate = require "gpuarray.jit.translate"
local builtins = require "gpuarray.jit.builtins"
require "gpuarray.jit.stmt"
require "gpuarray.jit.expr"

local T = types.T

return function(ga)
  local internal = require("gpuarray.internal")
  local jit = builtins.namespace(ga)

  local function fail(msg) error("gpuarray: jit: " .. msg, 0) end

  local function is_dtype_object(v)
    for name in pairs(types.CTYPE) do
      if ga[name] == v then return name end
    end
    return nil
  end

  --- The jit type of one argument. Besides the values a launch takes,
  -- k:source accepts descriptions: "float32[]" (an array), "float32" or
  -- ga.float32 (a typed scalar).
  local function arg_type(v, i, what)
    local tv = type(v)
    if tv == "number" then return math.type(v) == "integer" and T.weak_int or T.weak_float end
    if tv == "boolean" then return T.bool end
    if tv == "userdata" then
      local ok, dt = pcall(function() return v.dtype end)
      if ok and T[dt] then
        if internal.is_array(v) then return types.array(T[dt]) end
        return T[dt]
      end
      local name = is_dtype_object(v)
      if name then return T[name] end
    elseif tv == "string" then
      local arr = v:match("^(%w+)%[%]$") or v:match("^(%w+)%s*%*$")
      if arr and T[arr] and not T[arr].weak then return types.array(T[arr]) end
      if T[v] and types.CTYPE[v] then return T[v] end
    end
    fail(("%s: argument %d must be an ndarray, a typed scalar or a Lua number, got %s"):format(what, i, tv))
  end

  local function arg_types(args, what)
    local ts, parts = {}, {}
    for i = 1, args.n or #args do
      ts[i] = arg_type(args[i], i, what)
      parts[i] = translate.type_key({ ts[i] })
    end
    return ts, table.concat(parts, ",")
  end

  local function check_fn(fn, what)
    if type(fn) ~= "function" then fail(what .. ": expected a Lua function, got " .. type(fn)) end
    translate.ast(fn)    -- reads and parses now: a bad source raises here
  end

  local function check_name(name, what)
    if name ~= nil and (type(name) ~= "string" or not name:match("^[%a_][%w_]*$")) then
      fail(what .. ": name must be a C identifier")
    end
  end

  -------------------------------------------------------------------------
  -- rawkernel

  local Raw = {}
  Raw.__index = Raw

  --- translate for argument types ts -> entry {src, name, sizes = {param indices}}
  local function raw_translate(self, ts)
    local unit = translate.unit(ga)
    local f = unit:func(self._jit_fn, ts, "kernel", self.name)
    local src = unit:source(f, true)
    local sizes = {}
    for i = 1, #ts do
      if f.needs_size[i] then sizes[#sizes + 1] = i end
    end
    return { src = src, name = f.cname, sizes = sizes, func = f }
  end

  function Raw:source(...)
    local ts = arg_types(table.pack(...), "jit.rawkernel " .. self.name .. ":source")
    return raw_translate(self, ts).src
  end

  function Raw:_entry(args)
    local ts, key = arg_types(args, "jit.rawkernel " .. self.name)
    local e = self._cache[key]
    if not e then
      e = raw_translate(self, ts)
      e.kernel = ga.RawKernel(e.src, e.name)
      self._cache[key] = e
    end
    return e
  end

  function Raw:__call(grid, block, args, opts)
    if type(args) ~= "table" then
      fail(("jit.rawkernel %s: args must be a list, got %s"):format(self.name, type(args)))
    end
    local e = self:_entry(args)
    local n = #args
    for i = 1, n do
      local a = args[i]
      if type(a) == "userdata" and internal.is_array(a) and not a.flags.c_contiguous then
        fail(("jit.rawkernel %s: argument %d is not C-contiguous (kernels index arrays by flat "
          .. "position: pass x:copy())"):format(self.name, i))
      end
    end
    if #e.sizes == 0 then return e.kernel(grid, block, args, opts) end
    local full = table.move(args, 1, n, 1, {})
    for k, i in ipairs(e.sizes) do full[n + k] = args[i].size end
    return e.kernel(grid, block, full, opts)
  end

  function Raw:__tostring() return "gpuarray.jit.rawkernel(" .. self.name .. ")" end

  function jit.rawkernel(fn, opts)
    opts = internal.opts(opts, "jit.rawkernel")
    check_fn(fn, "rawkernel")
    check_name(opts.name, "rawkernel")
    local ast = translate.ast(fn)
    local name = opts.name or (ast.name and ast.name:match("[%w_]+$")) or "jit_kernel"
    return setmetatable({ _jit_fn = fn, name = name, _cache = {} }, Raw)
  end

  -------------------------------------------------------------------------
  -- elementwisekernel

  local Ew = {}
  Ew.__index = Ew

  local function ew_translate(self, ts)
    local unit = translate.unit(ga)
    for i, t in ipairs(ts) do
      if t.array then ts[i] = t.elem end    -- the function sees one element
    end
    local f = unit:func(self._jit_fn, ts, "elementwise", self.name)
    if not f.nret or f.nret == 0 then
      translate.error(f.ast.line, "an elementwisekernel's function must return its result(s)")
    end
    local preamble = unit:source(f, false)
    local ins, outs, args = {}, {}, {}
    for i, t in ipairs(ts) do
      ins[i] = ("%s in%d"):format(types.concrete(t).name, i - 1)
      args[i] = "in" .. (i - 1)
    end
    for k, r in ipairs(f.rets) do
      outs[k] = ("%s out%d"):format(types.concrete(r).name, k - 1)
    end
    local op
    if f.nret == 1 then
      op = ("out0 = %s(%s);"):format(f.cname, table.concat(args, ", "))
    else
      -- results into locals first: the engine then sees every output written before read
      local decls, stores = {}, {}
      for k, r in ipairs(f.rets) do
        decls[k] = ("%s _jit_r%d;"):format(types.concrete(r).ctype, k - 1)
        args[#args + 1] = "&_jit_r" .. (k - 1)
        stores[k] = ("out%d = _jit_r%d;"):format(k - 1, k - 1)
      end
      op = ("%s %s(%s); %s"):format(table.concat(decls, " "), f.cname, table.concat(args, ", "),
        table.concat(stores, " "))
    end
    return { in_params = table.concat(ins, ", "), out_params = table.concat(outs, ", "), operation = op,
             preamble = preamble, name = self.name, func = f }
  end

  --- k:source(args...) -> the functions (CUDA) and the ElementwiseKernel's
  -- definition {in_params, out_params, operation, preamble, name}
  function Ew:source(...)
    local d = ew_translate(self, (arg_types(table.pack(...), "jit.elementwisekernel " .. self.name .. ":source")))
    return d.preamble, d
  end

  function Ew:_kernel(...)
    local args = table.pack(...)
    local nin = self._nparams
    local ins = { n = math.min(args.n, nin) }
    for i = 1, ins.n do ins[i] = args[i] end
    local ts, key = arg_types(ins, "jit.elementwisekernel " .. self.name)
    local e = self._cache[key]
    if not e then
      e = ew_translate(self, ts)
      e.kernel = ga.ElementwiseKernel(e.in_params, e.out_params, e.operation, e.name, { preamble = e.preamble })
      self._cache[key] = e
    end
    return e.kernel
  end

  function Ew:__call(...)
    return self:_kernel(...)(...)
  end

  function Ew:__tostring() return "gpuarray.jit.elementwisekernel(" .. self.name .. ")" end

  function jit.elementwisekernel(fn, opts)
    opts = internal.opts(opts, "jit.elementwisekernel")
    check_fn(fn, "elementwisekernel")
    check_name(opts.name, "elementwisekernel")
    local ast = translate.ast(fn)
    local name = opts.name or (ast.name and ast.name:match("[%w_]+$")) or "jit_elementwise"
    return setmetatable({ _jit_fn = fn, name = name, _cache = {}, _nparams = #ast.params }, Ew)
  end

  ga.jit = jit
end
