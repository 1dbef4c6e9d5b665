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
local lexer = require "gpuarray.jit.lexer"
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

-- The whole text of the chunk fn was loaded from: a function is found in
-- its chunk lexed from the first line, so that a long string or comment is
-- what Lua took it for (a line may begin inside one)
local function chunk_text(info)
  local src = info.source
  if src:sub(1, 1) == "=" then
    error("gpuarray: jit: cannot read the source of a function from the chunk " .. src:sub(2), 0)
  end
  if src:sub(1, 1) ~= "@" then return src end
  local f = io.open(src:sub(2), "rb")
  if not f then error("gpuarray: jit: cannot read the kernel's source file " .. src:sub(2), 0) end
  local text = f:read("a") or ""
  f:close()
  -- as luaL_loadfile reads it: without a UTF-8 byte order mark, and with a
  -- first line that starts with '#' (#!/usr/bin/lua) left out
  if text:sub(1, 3) == "\239\187\191" then text = text:sub(4) end
  if text:sub(1, 1) == "#" then text = text:gsub("^[^\n]*", "", 1) end
  return text
end

-- The part of a Lua 5.4 binary chunk (string.dump) that says what its
-- function does: the header fields, code and constants; not the upvalues'
-- places in the enclosing function (a copy compiled alone cannot share
-- them). nil for another format.
local function code_of(dump)
  if dump:byte(5) ~= 0x54 or dump:byte(6) ~= 0 then return nil end
  local isize, nsize, insize = dump:byte(14), dump:byte(15), dump:byte(13)
  local pos = 16 + isize + nsize + 1     -- past the header and the closure's upvalue count
  local start = pos
  local function size()   -- Lua's dumpSize: 7 bits a byte, the last one marked
    local v = 0
    while true do
      local b = dump:byte(pos) or 0x80
      pos = pos + 1
      v = v * 128 + (b & 0x7f)
      if b >= 0x80 then return v end
    end
  end
  local function skip_string()
    local n = size()
    if n > 0 then pos = pos + n - 1 end
  end
  skip_string()                           -- the source (none: stripped)
  size()
  size()                                  -- linedefined, lastlinedefined
  pos = pos + 3                           -- numparams, is_vararg, maxstacksize
  pos = pos + insize * size()             -- the code
  for _ = 1, size() do                    -- the constants
    local tt = dump:byte(pos)
    pos = pos + 1
    if tt == 3 then pos = pos + isize              -- integer
    elseif tt == 19 then pos = pos + nsize         -- float
    elseif tt == 4 or tt == 20 then skip_string()  -- short and long strings
    elseif tt ~= 0 and tt ~= 1 and tt ~= 17 then return nil end   -- nil, false, true
  end
  if pos > #dump + 1 then return nil end
  return dump:sub(start, pos - 1)
end

-- Does the candidate (of functions_on_line) compile to fn's code? It is
-- compiled alone, at fn's line, with fn's upvalues declared as locals
-- around it, so that every name resolves as in fn; loading it runs nothing
-- of the user's code.
local function compiles_to(fn, info, text, toks, cand)
  local want = code_of(string.dump(fn, true))
  if not want then return false end
  local decl, seen = {}, {}
  for i = 1, info.nups do
    local name = debug.getupvalue(fn, i)
    if name and name ~= "_ENV" and name:match("^[%a_][%w_]*$") and not seen[name] then
      seen[name] = true
      decl[#decl + 1] = name
    end
  end
  local params = text:sub(toks[cand.paren].pos + 1, toks[cand.last].stop)
  if cand.method then params = (toks[cand.paren + 1].t == ")" and "self" or "self, ") .. params end
  local chunk = (#decl > 0 and "local " .. table.concat(decl, ", ") .. "; " or "") ..
                ("\n"):rep(info.linedefined - 1) .. "return function(" .. params
  local loaded = load(chunk, "=jit", "t", {})
  if not loaded then return false end
  local ok, copy = pcall(loaded)
  return ok and type(copy) == "function" and code_of(string.dump(copy, true)) == want
end

--- The parsed function (cached per function value). It is found in its
-- chunk by the line of its 'function' keyword and of its 'end', its
-- parameter names and whether it takes '...'; functions that share all of
-- these (two on one line) are told apart by compiling each and comparing
-- its code with fn's. Where that cannot tell, it raises: another function
-- is never translated.
function M.ast(fn)
  local a = ast_cache[fn]
  if a then return a end
  local info = debug.getinfo(fn, "Su")
  if info.what ~= "Lua" then error("gpuarray: jit: a kernel must be a Lua function, not a C function", 0) end
  if info.linedefined == 0 then error("gpuarray: jit: a kernel must be a function, not a main chunk", 0) end
  local text = chunk_text(info)
  local first = info.linedefined
  local lexed, toks = pcall(lexer.tokens, text, 1, jit_error)
  if not lexed then jit_error(first, "cannot read the function's source (is the file changed since it was loaded?)") end
  local params = {}
  for i = 1, info.nparams do params[i] = debug.getlocal(fn, i) end
  local found = {}
  for _, f in ipairs(parser.functions_on_line(toks, first)) do
    if toks[f.last].line == info.lastlinedefined and f.vararg == info.isvararg and
       table.concat(f.params, ",") == table.concat(params, ",") then
      found[#found + 1] = f
    end
  end
  if #found > 1 then
    local same = {}
    for _, f in ipairs(found) do
      if compiles_to(fn, info, text, toks, f) then same[#same + 1] = f end
    end
    if #same == 0 then
      jit_error(first, ("%d functions on this line take (%s) and end on line %d, and their code cannot tell which " ..
                        "one this is: put it on a line of its own"):format(#found, table.concat(params, ", "),
                                                                      info.lastlinedefined))
    end
    found = same   -- any of them: they compile to the same code
  end
  if #found == 0 then
    jit_error(first, "cannot find the function's source (is the file changed since it was loaded?)")
  end
  a = parser.parse_function_at(toks, found[1].i, jit_error)
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
  half]]):gmatch("%S+") do
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
