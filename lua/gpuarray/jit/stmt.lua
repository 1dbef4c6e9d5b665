--- Statements of the jit translator (methods of translate.Func): locals
-- (with their types joined across assignments), assignments, calls, blocks,
-- while, repeat, if, the numeric for with Lua 5.4's semantics, break,
-- return; and the constructs the subset rejects, each by name.
local translate = require "gpuarray.jit.translate"
local types = require "gpuarray.jit.types"
local builtins = require "gpuarray.jit.builtins"
local Func, CLOSURES = translate.Func, translate.CLOSURES
local T, conv, promote = types.T, types.conv, types.promote


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
function Func:s_FunctionStat(s) self:fail(s.line, CLOSURES) end
function Func:s_LocalFunction(s) self:fail(s.line, CLOSURES) end

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
    -- float16 and bfloat16 arithmetic is float32's (types.compute): so is its loop variable
    V = types.compute(V)
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
