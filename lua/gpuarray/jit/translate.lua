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
-- a function, a builtin) when they have them. expr.lua adds the
-- expression methods to Func.
local types = require "gpuarray.jit.types"
local parser = require "gpuarray.jit.parser"
local builtins = require "gpuarray.jit.builtins"

local T = types.T
local conv, promote = types.conv, types.promote

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

-------------------------------------------------------------------------------
-- statements

function Func:block(stats)
  for _, s in ipairs(stats) do
    local h = self["s_" .. s.k]
    h(self, s)
  end
end

function Func:scoped_block(stats)
  local saved = self.indent
  self.indent = saved .. "  "
  self:push_scope()
  self:block(stats)
  self:pop_scope()
  self.indent = saved
end

--- a condition: a boolean E, as C
function Func:cond(node)
  local e = self:value(self:expr(node), node.line)
  if e.type ~= T.bool then
    self:fail(node.line, ("a condition must be a boolean, got %s (in Lua, 0 is true: compare explicitly, "
      .. "e.g. x ~= 0)"):format(types.show(e.type)))
  end
  return e.code
end

function Func:s_Local(s)
  for _, a in pairs(s.attribs) do
    if a == "close" then self:fail(s.line, "to-be-closed variables (<close>) are not supported in a kernel") end
  end
  local first = s.exprs[1]
  if #s.names == 1 and #s.exprs == 1 and first.k == "Call" then
    local callee = self:expr(first.fn)
    if callee.isstatic and callee.static == builtins.SHARED_MEMORY then return self:shared_memory(s, first) end
  end
  local es = {}
  for i, e in ipairs(s.exprs) do es[i] = self:expr(e) end
  for k, name in ipairs(s.names) do
    local e = es[k]
    if e and e.isstatic and not (builtins.BUILTINS[e.static] and builtins.BUILTINS[e.static].value) then
      -- a local naming a table or a function (local sqrt = math.sqrt): no C variable
      local v = self:declare(name, s, k, nil, "static", s.line)
      v.static = e
    else
      if e then e = self:value(e, s.line) end
      if e and e.type.void then
        self:fail(s.line, ("'%s' is given the value of a call that returns nothing"):format(name))
      end
      local v = self:declare(name, s, k, e and e.type, "local", s.line)
      if v.type == nil then
        self.pending = self.pending or { line = s.line, msg = ("local '%s' is never given a value"):format(name) }
      elseif e then
        self:emit(("%s%s = %s;"):format(self:decl_prefix(v), v.cname, conv(e.code, e.type, v.type)))
      else
        self:emit(("%s%s{};"):format(self:decl_prefix(v), v.cname))
      end
    end
  end
  for k = #s.names + 1, #es do
    local e = self:value(es[k], s.line)
    self:emit(("(void)(%s);"):format(e.code))
  end
end

function Func:decl_prefix(v)
  local ct = self:ctype_of(v.type)
  return ct:sub(-1) == "*" and ct or ct .. " "
end

function Func:shared_memory(s, call)
  local line = s.line
  local args = call.args
  if #args < 1 or #args > 2 then self:fail(line, "jit.shared_memory takes a dtype and a size") end
  local dt = self:expr(args[1])
  local elem
  if dt.isstatic and type(dt.static) == "string" then elem = T[dt.static]
  elseif dt.isstatic and builtins.BUILTINS[dt.static] then elem = builtins.BUILTINS[dt.static].dtype end
  if not elem or elem.weak or elem.void then
    self:fail(line, "jit.shared_memory: the dtype must be a dtype name or object (\"float32\", ga.float32)")
  end
  local v = self:declare(s.names[1], s, 1, types.array(elem, true), "shared", line)
  if args[2] == nil or args[2].k == "Nil" then
    -- dynamic: the launch's shared_mem option sizes it
    v.dynamic = true
    self:emit(("extern __shared__ __align__(16) unsigned char _jit_dyn_smem[];"))
    self:emit(("%s *%s = (%s *)_jit_dyn_smem;"):format(elem.ctype, v.cname, elem.ctype))
    return
  end
  local n = self:expr(args[2])
  if math.type(n.const) ~= "integer" or n.const <= 0 then
    self:fail(line, "jit.shared_memory: the size must be a positive integer known when the kernel is translated "
      .. "(a literal or a number upvalue); omit it for dynamic shared memory")
  end
  v.size = n.const
  self:emit(("__shared__ %s %s[%d];"):format(elem.ctype, v.cname, n.const))
end

function Func:target(node)
  if node.k == "Name" then
    local v = self:lookup(node.name)
    if not v then
      local _, where = self:outer(node.name)
      self:fail(node.line, ("cannot assign to %s '%s': a kernel writes arrays and its own locals"):format(where,
        node.name))
    end
    if v.kind == "static" then self:fail(node.line, ("cannot assign to '%s', which names a %s"):format(node.name,
      type(v.static.static))) end
    if v.type and v.type.array then
      self:fail(node.line, ("cannot assign to '%s': it is an array (write its elements: %s[i] = v)"):format(node.name,
        node.name))
    end
    return { var = v, line = node.line }
  end
  local obj = self:value(self:expr(node.obj), node.line)
  if not obj.type.array then
    self:fail(node.line, ("cannot index a %s (only arrays are indexed in a kernel)"):format(types.show(obj.type)))
  end
  local key = self:index_key(node.key, node.line)
  return { code = ("%s[%s]"):format(obj.code, key), type = obj.type.elem, line = node.line }
end

function Func:store(tg, e)
  if tg.var then
    local v = tg.var
    self:assigned(v, e.type, tg.line)
    if v.type == nil then return end
    self:emit(("%s = %s;"):format(v.cname, conv(e.code, e.type, v.type)))
  else
    if not types.is_numeric(e.type) then
      self:fail(tg.line, ("an array element takes a number, got %s"):format(types.show(e.type)))
    end
    self:emit(("%s = %s;"):format(tg.code, conv(e.code, e.type, tg.type)))
  end
end

function Func:s_Assign(s)
  local tgs = {}
  for i, t in ipairs(s.targets) do tgs[i] = self:target(t) end
  local es = {}
  for i, e in ipairs(s.exprs) do
    es[i] = self:value(self:expr(e), s.line)
    if es[i].type.void then self:fail(s.line, "assigning the value of a call that returns nothing") end
  end
  if #es < #tgs then self:fail(s.line, "nil is not supported in a kernel (more targets than values)") end
  if #tgs == 1 and #es == 1 then return self:store(tgs[1], es[1]) end
  -- Lua evaluates every value before assigning any
  self:emit("{")
  local saved = self.indent
  self.indent = saved .. "  "
  local held = {}
  for i, e in ipairs(es) do
    local name = self:tmp()
    self:emit(("%s %s = %s;"):format(self:ctype_of(e.type), name, e.code))
    held[i] = { code = name, type = e.type }
  end
  for i, tg in ipairs(tgs) do self:store(tg, held[i]) end
  self.indent = saved
  self:emit("}")
end

function Func:s_CallStat(s)
  local e = self:expr(s.call)
  if e.isstatic then return end
  self:emit(e.code .. ";")
end

function Func:s_Do(s)
  self:emit("{")
  self:scoped_block(s.body)
  self:emit("}")
end

function Func:s_While(s)
  self:emit(("while (%s) {"):format(self:cond(s.cond)))
  self:scoped_block(s.body)
  self:emit("}")
end

function Func:s_Repeat(s)
  -- the condition sees the body's locals, as in Lua
  self:emit("do {")
  local saved = self.indent
  self.indent = saved .. "  "
  self:push_scope()
  self:block(s.body)
  self:emit(("if (%s) break;"):format(self:cond(s.cond)))
  self:pop_scope()
  self.indent = saved
  self:emit("} while (true);")
end

function Func:s_If(s)
  for i, c in ipairs(s.conds) do
    self:emit(("%sif (%s) {"):format(i == 1 and "" or "} else ", self:cond(c)))
    self:scoped_block(s.blocks[i])
  end
  if s.orelse then
    self:emit("} else {")
    self:scoped_block(s.orelse)
  end
  self:emit("}")
end

function Func:s_Break() self:emit("break;") end

function Func:s_Goto(s) self:fail(s.line, "goto is not supported in a kernel") end
function Func:s_Label(s) self:fail(s.line, "labels (::" .. s.label .. "::) are not supported in a kernel") end
function Func:s_Forin(s)
  self:fail(s.line, "the generic for (for ... in) is not supported in a kernel: use a numeric for")
end
local CLOSURES = "closures are not supported in a kernel (define helper functions outside the kernel: "
  .. "they become __device__ functions)"
function Func:s_FunctionStat(s) self:fail(s.line, CLOSURES) end
function Func:s_LocalFunction(s) self:fail(s.line, CLOSURES) end
M.CLOSURES = CLOSURES

function Func:s_Return(s)
  local line = s.line
  local es = {}
  for i, e in ipairs(s.exprs) do
    es[i] = self:value(self:expr(e), line)
    if es[i].type.void then self:fail(line, "returning the value of a call that returns nothing") end
    if es[i].type.array then self:fail(line, "a function cannot return an array") end
  end
  if self.kind == "kernel" then
    if #es > 0 then self:fail(line, "a kernel returns nothing: write its results into an array") end
    return self:emit("return;")
  end
  if #es > 1 and self.kind ~= "elementwise" then
    self:fail(line, "a __device__ function returns one value (several only from an elementwisekernel)")
  end
  if self.nret == nil then
    self.nret = #es
    self.changed = true
  elseif self.nret ~= #es then
    self:fail(line, ("this function returns %d value%s here and %d elsewhere"):format(#es, #es == 1 and "" or "s",
      self.nret))
  end
  self.rets = self.rets or {}
  for k, e in ipairs(es) do
    local r = self.rets[k]
    local j = r and self:join(r, e.type, line, "return value " .. k) or e.type
    if j ~= r then
      self.rets[k] = j
      self.changed = true
    end
  end
  if #es == 0 then return self:emit("return;") end
  if #es == 1 and self.kind ~= "elementwise" or (self.kind == "elementwise" and self.nret == 1) then
    return self:emit(("return %s;"):format(conv(es[1].code, es[1].type, self.rets[1])))
  end
  local parts = {}
  for k, e in ipairs(es) do parts[k] = ("*_jit_out%d = %s;"):format(k - 1, conv(e.code, e.type, self.rets[k])) end
  self:emit("{ " .. table.concat(parts, " ") .. " return; }")
end

-------------------------------------------------------------------------------
-- the numeric for

function Func:s_Fornum(s)
  local line = s.line
  local function num(node, what)
    local e = self:value(self:expr(node), line)
    if not types.is_numeric(e.type) or e.type == T.bool or e.type.kind == "c" then
      self:fail(line, ("'for' %s must be a real number, got %s"):format(what, types.show(e.type)))
    end
    return e
  end
  local a, l = num(s.start, "initial value"), num(s.limit, "limit")
  local st = s.step and num(s.step, "step") or self:const(1)
  if st.const == 0 then self:fail(line, "'for' step is zero") end
  local int_loop = types.is_int(a.type) and types.is_int(st.type)
  local V
  if int_loop then
    V = promote(a.type, st.type)
    if V.kind == "u" and st.const and st.const < 0 then
      if V == T.uint64 then self:fail(line, "a negative 'for' step needs a signed loop variable, not uint64") end
      V = promote(V, T.int64)
    end
  else
    V = promote(promote(a.type, l.type), st.type)
    if V.kind ~= "f" then V = V.weak and T.weak_float or T.float64 end
  end
  local VT = types.concrete(V).ctype
  local s0, l0, st0 = self:tmp(), self:tmp(), self:tmp()
  local lim_t = l.type
  local lim_code = l.code
  if int_loop and not types.is_int(l.type) then
    -- Lua: an integer loop with a float limit runs to floor(limit) (ceil going down)
    local c = types.compute(l.type)
    local fl, ce = c == T.float32 and "floorf" or "floor", c == T.float32 and "ceilf" or "ceil"
    local lc = conv(l.code, l.type, c)
    if st.const then
      lim_code = ("%s(%s)"):format(st.const > 0 and fl or ce, lc)
    else
      lim_code = ("(%s > 0 ? %s(%s) : %s(%s))"):format(st.code, fl, lc, ce, lc)
    end
    lim_t = c
  end
  -- the comparison type holds both the variable and the limit
  local C
  if int_loop then
    C = types.concrete(promote(types.concrete(V), lim_t.weak and T.int64 or lim_t))
    if not types.is_int(C) then C = T.int64 end
  else
    C = types.concrete(V)
  end
  local CT = C.ctype
  self:emit("{")
  local saved = self.indent
  self.indent = saved .. "  "
  self:emit(("const %s %s = %s;"):format(VT, s0, conv(a.code, a.type, V)))
  self:emit(("const %s %s = %s;"):format(CT, l0, conv(lim_code, lim_t, C)))
  self:emit(("const %s %s = %s;"):format(VT, st0, conv(st.code, st.type, V)))
  local i = self:tmp()
  local cmp_up = ("(%s)%s <= %s"):format(CT, i, l0)
  local cmp_down = ("(%s)%s >= %s"):format(CT, i, l0)
  if not int_loop or (st.const and V.kind ~= "u") then
    local cond
    if st.const then cond = st.const > 0 and cmp_up or cmp_down
    else cond = ("(%s > 0 ? %s : %s)"):format(st0, cmp_up, cmp_down) end
    self:emit(("for (%s %s = %s; %s; %s += %s) {"):format(VT, i, s0, cond, i, st0))
    self:loop_body(s, V, i)
    self:emit("}")
  else
    -- Lua 5.4 counts the iterations first: no overflow, unsigned safe
    local n = self:tmp()
    local U = "unsigned long long"
    self:emit(("if (%s != 0 && (%s > 0 ? (%s)%s <= %s : (%s)%s >= %s)) {"):format(st0, st0, CT, s0, l0, CT, s0, l0))
    self:emit(("  %s %s = %s > 0 ? (%s)((%s)%s - (%s)%s) / (%s)%s : (%s)((%s)%s - (%s)%s) / (0ull - (%s)%s);")
      :format(U, n, st0, U, CT, l0, CT, s0, U, st0, U, CT, s0, CT, l0, U, st0))
    self:emit(("  for (%s %s = %s;; %s += %s) {"):format(VT, i, s0, i, st0))
    self.indent = self.indent .. "  "
    self:loop_body(s, V, i)
    self:emit(("  if (%s-- == 0) break;"):format(n))
    self.indent = saved .. "  "
    self:emit("  }")
    self:emit("}")
  end
  self.indent = saved
  self:emit("}")
end

function Func:loop_body(s, V, i)
  local saved = self.indent
  self.indent = saved .. "  "
  self:push_scope()
  local v = self:declare(s.var, s, 1, V, "loop", s.line)
  self:emit(("%s%s = %s;"):format(self:decl_prefix(v), v.cname, i))
  self:block(s.body)
  self:pop_scope()
  self.indent = saved
end

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
-- root; with_headers adds common.cuh (and math.cuh when needed)
function Unit:source(root, with_headers)
  local funcs = self:reachable(root)
  local helpers, need_math = {}, false
  for _, f in ipairs(funcs) do
    for h in pairs(f.helpers) do helpers[h] = true end
    need_math = need_math or f.need_math
  end
  local parts = {}
  if with_headers then
    local core = self.ga._core
    parts[#parts + 1] = core._kernel_source("common")
    if need_math then parts[#parts + 1] = core._kernel_source("math") end
  end
  parts[#parts + 1] = ("// ---- gpuarray.jit: %s, from %s:%d ----\n"):format(root.cname, root.ast.source, root.ast.line)
  for _, h in ipairs(builtins.HELPERS_ORDER) do
    if helpers[h] then parts[#parts + 1] = builtins.HELPERS[h] end
  end
  for _, f in ipairs(funcs) do parts[#parts + 1] = f:definition() end
  return table.concat(parts), need_math
end

return M
