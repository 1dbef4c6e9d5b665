--- The jit translator: one Lua function (parsed by parser.lua) and the
-- types of its arguments into a CUDA function. A Unit holds one kernel (or
-- elementwise function) and the __device__ functions it calls, one per
-- (function, argument types); Func translates one of them.
--
-- Types of locals are inferred: a local's type is the promotion (NumPy's,
-- weak Lua numbers included) of every value assigned to it. A function is
-- translated in passes; a pass that widens a type runs again, so that the
-- last pass emits code whose declarations hold every value. Expressions
-- are E values: {code = C expression, type = types.T...}, with const (a Lua
-- value known now) or static (a Lua value that is not a C value: a table,
-- a function, a builtin) when they have them. stmt.lua and expr.lua add
-- the statement and expression methods to Func.
local types = require "gpuarray.jit.types"
local parser = require "gpuarray.jit.parser"
local builtins = require "gpuarray.jit.builtins"

local T = types.T
local promote = types.promote

local M = {}

local function jit_error(line, msg)
  error(("gpuarray: jit: line %d: %s"):format(line, msg), 0)
end
M.error = jit_error

-------------------------------------------------------------------------------
-- the Lua source of a function

local ast_cache = setmetatable({}, { __mode = "k" })

local function read_lines(path, first, last)
  local f = io.open(path, "r")
  if not f then return nil end
  local out, n = {}, 0
  for l in f:lines("L") do
    n = n + 1
    if n >= first then out[#out + 1] = l end
    if n >= last then break end
  end
  f:close()
  return table.concat(out)
end

--- The parsed function (cached per function value)
function M.ast(fn)
  local a = ast_cache[fn]
  if a then return a end
  local info = debug.getinfo(fn, "Su")
  if info.what ~= "Lua" then error("gpuarray: jit: a kernel must be a Lua function, not a C function", 0) end
  if info.linedefined == 0 then error("gpuarray: jit: a kernel must be a function, not a main chunk", 0) end
  local src = info.source
  local text
  if src:sub(1, 1) == "@" then
    text = read_lines(src:sub(2), info.linedefined, info.lastlinedefined)
    if not text then error("gpuarray: jit: cannot read the kernel's source file " .. src:sub(2), 0) end
  elseif src:sub(1, 1) == "=" then
    error("gpuarray: jit: cannot read the source of a function from the chunk " .. src:sub(2), 0)
  else
    local lines, n = {}, 0
    for l in (src .. "\n"):gmatch("([^\n]*)\n") do
      n = n + 1
      if n >= info.linedefined and n <= info.lastlinedefined then lines[#lines + 1] = l end
    end
    text = table.concat(lines, "\n")
  end
  a = parser.parse_function(text, info.linedefined, info.lastlinedefined, info.nparams, jit_error)
  a.source = info.short_src
  ast_cache[fn] = a
  return a
end

-------------------------------------------------------------------------------
-- C names

local RESERVED = {}
for w in ([[alignas alignof and asm auto bool break case catch char class const constexpr continue
  decltype default delete do double else enum explicit export extern false float for friend goto if
  inline int long mutable namespace new noexcept not nullptr operator or private protected public
  register return short signed sizeof static struct switch template this throw true try typedef
  typeid typename union unsigned using virtual void volatile while xor char16_t char32_t wchar_t
  threadIdx blockIdx blockDim gridDim warpSize main printf malloc free min max abs fabs fabsf
  sqrt sqrtf exp expf log logf sin sinf cos cosf tan tanf asin asinf acos acosf atan atanf atan2 atan2f
  floor floorf ceil ceilf fmod fmodf pow powf tanh tanhf sinh sinhf cosh coshf log2 log2f log10 log10f
  log1p log1pf exp2 exp2f expm1 expm1f cbrt cbrtf trunc truncf rint rintf hypot hypotf copysign copysignf
  rsqrt rsqrtf asinh asinhf acosh acoshf atanh atanhf sincos
  int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex complex64 complex128
  half bfloat16]]):gmatch("%S+") do
  RESERVED[w] = true
end

--- A C identifier for a Lua name, unique in used
local function c_name(name, used)
  local base = name
  if RESERVED[name] or name:sub(1, 1) == "_" or name:find("^ga_") or name:find("^atomic") or
     name:find("^__") then
    base = name:gsub("^_+", "") .. "_v"
  end
  local c, k = base, 1
  while used[c] do
    k = k + 1
    c = base .. "_" .. k
  end
  used[c] = true
  return c
end
M.c_name = c_name

-------------------------------------------------------------------------------
-- Func: one function at one signature

local Func = {}
Func.__index = Func
M.Func = Func

function Func:fail(line, msg) jit_error(line or self.ast.line, msg) end

function Func.E(_, code, t) return { code = code, type = t } end

--- A Lua number or boolean known now
function Func.const(_, v)
  local t = types.of_value(v)
  return { code = types.literal(v), type = t, const = v }
end

function Func:need(helper) self.helpers[helper] = true end

function Func:emit(s) self.lines[#self.lines + 1] = self.indent .. s end

function Func:tmp()
  self.ntmp = self.ntmp + 1
  return "_jit_t" .. self.ntmp
end

function Func:push_scope() self.scopes[#self.scopes + 1] = {} end
function Func:pop_scope() self.scopes[#self.scopes] = nil end

function Func:lookup(name)
  for i = #self.scopes, 1, -1 do
    local d = self.scopes[i][name]
    if d then return d end
  end
  return nil
end

--- the join of two types a local holds
function Func:join(a, b, line, name)
  if a == b then return a end
  if a.array or b.array then
    self:fail(line, ("local '%s' holds a %s and a %s: a local keeps one array type"):format(name, types.show(a),
      types.show(b)))
  end
  if a.void or b.void then
    self:fail(line, ("'%s' is given a value of nothing (a call with no result)"):format(name))
  end
  if (a == T.bool) ~= (b == T.bool) then
    self:fail(line, ("local '%s' holds a boolean and a number"):format(name))
  end
  return promote(a, b)
end

--- Declare a local; node and k identify it across passes (its C name and type)
function Func:declare(name, node, k, t, kind, line)
  local key = self.vars[node]
  if not key then
    key = {}
    self.vars[node] = key
  end
  local v = key[k]
  if not v then
    v = { name = name, cname = c_name(name, self.used), kind = kind }
    key[k] = v
  end
  if t then
    if v.type == nil then
      v.type = t
    elseif kind == "local" then
      local j = self:join(v.type, t, line, name)
      if j ~= v.type then
        v.type = j
        self.changed = true
      end
    else
      v.type = t
    end
  end
  v.line = line
  self.scopes[#self.scopes][name] = v
  return v
end

--- A value assigned to local v (its type widens if needed)
function Func:assigned(v, t, line)
  if v.kind ~= "local" then return end
  if v.type == nil then
    v.type = t
    self.changed = true
    return
  end
  local j = self:join(v.type, t, line, v.name)
  if j ~= v.type then
    v.type = j
    self.changed = true
  end
end

--- Upvalues and globals by name
function Func:outer(name)
  if self.upvalues == nil then
    local up = {}
    for i = 1, math.huge do
      local n, v = debug.getupvalue(self.fn, i)
      if not n then break end
      up[n] = { v }
    end
    self.upvalues = up
  end
  local u = self.upvalues[name]
  if u then return u[1], "upvalue" end
  local env = self.upvalues._ENV
  env = env and env[1] or _G
  return env[name], "global"
end

function Func.ctype_of(_, t)
  if t.array then return t.elem.ctype .. " *" end
  return types.concrete(t).ctype
end

local CLOSURES = "closures are not supported in a kernel (define helper functions outside the kernel: "
  .. "they become __device__ functions)"
M.CLOSURES = CLOSURES

-------------------------------------------------------------------------------
-- translating a function

--- Run the passes: param_types[i] is the type of parameter i
function Func:run()
  local ast = self.ast
  if ast.vararg then self:fail(ast.line, "varargs (...) are not supported in a kernel") end
  for pass = 1, 50 do
    self.lines, self.indent, self.ntmp = {}, "  ", 0
    self.changed, self.pending = false, nil
    self.calls, self.calls_order, self.needs_size, self.helpers, self.need_math = {}, {}, {}, {}, false
    self.scopes = {}
    self:push_scope()
    self.params = {}
    for i, name in ipairs(ast.params) do
      local t = self.param_types[i]
      self.params[i] = self:declare(name, ast, i, t, "param", ast.line)
    end
    self:push_scope()
    self:block(ast.body)
    if not self.changed then
      if self.pending then self:fail(self.pending.line, self.pending.msg) end
      self.passes = pass
      return
    end
  end
  self:fail(ast.line, "the types of the locals do not settle")
end

--- The C declaration of this function (kernel or __device__)
function Func:signature()
  local ps = {}
  for _, v in ipairs(self.params) do
    if v.type.array then ps[#ps + 1] = ("%s *%s"):format(v.type.elem.ctype, v.cname)
    else ps[#ps + 1] = ("%s %s"):format(types.concrete(v.type).ctype, v.cname) end
  end
  for i, v in ipairs(self.params) do
    if self.needs_size[i] then ps[#ps + 1] = "long long _size_" .. v.cname end
  end
  if self.kind == "kernel" then
    return ("extern \"C\" __global__ void %s(%s)"):format(self.cname, table.concat(ps, ", "))
  end
  local ret = "void"
  if self.nret == 1 then ret = types.concrete(self.rets[1]).ctype
  elseif self.nret and self.nret > 1 then
    for k, r in ipairs(self.rets) do ps[#ps + 1] = ("%s *_jit_out%d"):format(types.concrete(r).ctype, k - 1) end
  end
  return ("static __device__ __forceinline__ %s %s(%s)"):format(ret, self.cname, table.concat(ps, ", "))
end

function Func:definition()
  return self:signature() .. " {\n" .. table.concat(self.lines, "\n") .. (#self.lines > 0 and "\n" or "") .. "}\n"
end

-------------------------------------------------------------------------------
-- Unit: a kernel and the device functions it calls

local Unit = {}
Unit.__index = Unit

function M.unit(ga)
  return setmetatable({ ga = ga, funcs = {}, used_names = {}, translating = {} }, Unit)
end

local function type_key(list)
  local parts = {}
  for i, t in ipairs(list) do
    parts[i] = t.array and (t.elem.name .. "[]") or (t.name .. (t.weak and "~" or ""))
  end
  return table.concat(parts, ",")
end
M.type_key = type_key

--- The translation of fn for these parameter types (kind: "kernel",
-- "device", "elementwise"); name: the C name to use
function Unit:func(fn, param_types, kind, name, line)
  local byfn = self.funcs[fn]
  if not byfn then
    byfn = {}
    self.funcs[fn] = byfn
  end
  local key = kind .. ":" .. type_key(param_types)
  local f = byfn[key]
  if f then
    if self.translating[f] then jit_error(line, "recursive calls are not supported in a kernel") end
    return f
  end
  local ast = M.ast(fn)
  if #param_types ~= #ast.params then
    local what = kind == "kernel" and "kernel" or ("function '" .. (ast.name or "?") .. "'")
    jit_error(line or ast.line, ("the %s takes %d argument%s, got %d"):format(what, #ast.params,
      #ast.params == 1 and "" or "s", #param_types))
  end
  local base = (name or (ast.name and ast.name:match("[%w_]+$")) or "function"):gsub("[^%w_]", "_")
  if kind ~= "kernel" then base = "_jit_" .. base end
  local cname, k = base, 1
  while self.used_names[cname] do
    k = k + 1
    cname = base .. "_" .. k
  end
  self.used_names[cname] = true
  f = setmetatable({ unit = self, fn = fn, ast = ast, kind = kind, param_types = param_types, vars = {},
                     used = {}, cname = cname }, Func)
  byfn[key] = f
  self.translating[f] = true
  f:run()
  self.translating[f] = nil
  return f
end

--- Device functions reachable from root, callees first
function Unit.reachable(_, root)
  local seen, order = {}, {}
  local function visit(f)
    if seen[f] then return end
    seen[f] = true
    for _, g in ipairs(f.calls_order) do visit(g) end
    order[#order + 1] = f
  end
  visit(root)
  return order
end

--- The CUDA text of root and what it calls: helpers, device functions,
-- root; with_headers adds common.cuh (and math.cuh when needed: a complex
-- function, or any complex value, since math.cuh holds complex arithmetic)
function Unit:source(root, with_headers)
  local funcs = self:reachable(root)
  local helpers, need_math, defs = {}, false, {}
  for k, f in ipairs(funcs) do
    for h in pairs(f.helpers) do helpers[h] = true end
    defs[k] = f:definition()
    need_math = need_math or f.need_math or defs[k]:find("complex", 1, true) ~= nil
  end
  local parts = {}
  if with_headers then
    local core = self.ga._core
    parts[#parts + 1] = core.compile.kernel_source("common")
    if need_math then parts[#parts + 1] = core.compile.kernel_source("math") end
  end
  parts[#parts + 1] = ("// ---- gpuarray.jit: %s, from %s:%d ----\n"):format(root.cname, root.ast.source, root.ast.line)
  for _, h in ipairs(builtins.HELPERS_ORDER) do
    if helpers[h] then parts[#parts + 1] = builtins.HELPERS[h] end
  end
  for _, d in ipairs(defs) do parts[#parts + 1] = d end
  return table.concat(parts), need_math
end

return M
