--- Expressions of the jit translator (methods of translate.Func): names,
-- constants, array elements, operators with Lua's meaning over NumPy's
-- types, calls of builtins and of other Lua functions (__device__).
local types = require "gpuarray.jit.types"
local translate = require "gpuarray.jit.translate"
local builtins = require "gpuarray.jit.builtins"

local T = types.T
local conv, promote = types.conv, types.promote
local Func = translate.Func
local BUILTINS = builtins.BUILTINS

local function is_array_value(v)
  local mt = type(v) == "userdata" and getmetatable(v)
  return mt and mt.__name == "gpuarray.ndarray"
end

--- A Lua value reached by a name or a field: a constant, or a static E
function Func:from_lua(v, desc, line)
  local tv = type(v)
  if tv == "number" or tv == "boolean" then return self:const(v) end
  if v == nil then self:fail(line, ("'%s' is nil (an undefined name?)"):format(desc)) end
  if is_array_value(v) then
    self:fail(line, ("'%s' is an ndarray from outside the kernel: pass arrays as arguments"):format(desc))
  end
  return { isstatic = true, static = v, desc = desc }
end

--- E as a C value (statics become builtin values or raise)
function Func:value(e, line)
  if not e.isstatic then return e end
  local b = BUILTINS[e.static]
  if b and b.value then return { code = b.value.code, type = b.value.type } end
  local v = e.static
  local what = type(v)
  if b then what = "function" end
  if what == "string" then self:fail(line, "strings are not supported in a kernel") end
  if what == "table" and v._jit_fn then what = "jit kernel" end
  self:fail(line, ("'%s' is a %s, not a value a kernel can hold (upvalues must be numbers or booleans)")
    :format(e.desc, what))
end

function Func:exprs(nodes)
  local out = {}
  for i, n in ipairs(nodes) do out[i] = self:value(self:expr(n), n.line) end
  return out
end

function Func:expr(node)
  local h = self["e_" .. node.k]
  return h(self, node)
end

function Func:e_Nil(n) self:fail(n.line, "nil is not supported in a kernel") end
function Func:e_True() return self:const(true) end
function Func:e_False() return self:const(false) end
function Func:e_Number(n) return self:const(n.v) end
function Func.e_String(_, n) return { isstatic = true, static = n.v, desc = ("%q"):format(n.v) } end
function Func:e_Vararg(n) self:fail(n.line, "varargs (...) are not supported in a kernel") end
function Func:e_Function(n) self:fail(n.line, translate.CLOSURES) end
function Func:e_Table(n) self:fail(n.line, "tables are not supported in a kernel") end
function Func:e_Method(n)
  self:fail(n.line, ("method calls (%s) are not supported in a kernel"):format(":" .. n.name .. "()"))
end

function Func:e_Paren(n)
  local e = self:expr(n.e)
  if e.isstatic then return e end
  return { code = e.code, type = e.type, const = e.const, var = e.var }
end

function Func:e_Name(n)
  local v = self:lookup(n.name)
  if v then
    if v.kind == "static" then return v.static end
    if v.type == nil then
      local msg = ("local '%s' is used before it is given a value"):format(n.name)
      self.pending = self.pending or { line = n.line, msg = msg }
      return { code = "0", type = T.weak_int }
    end
    return { code = v.cname, type = v.type, var = v }
  end
  local value = self:outer(n.name)
  return self:from_lua(value, n.name, n.line)
end

--- an array index: an integer C expression
function Func:index_key(node, line)
  local k = self:value(self:expr(node), line)
  if not types.is_integer(k.type) then
    self:fail(line, ("an array index must be an integer, got %s"):format(types.show(k.type)))
  end
  if k.const then return conv(k.code, k.type, T.int32) end
  return k.code
end

function Func:e_Index(n)
  local obj = self:expr(n.obj)
  if obj.isstatic then
    local key = self:expr(n.key)
    if key.const == nil and not (key.isstatic and type(key.static) == "string") then
      self:fail(n.line, ("'%s' is indexed with a value known only on the GPU"):format(obj.desc))
    end
    local k = key.const ~= nil and key.const or key.static
    local t = obj.static
    if type(t) ~= "table" then
      self:fail(n.line, ("'%s' is a %s: it has no field '%s'"):format(obj.desc, type(t), tostring(k)))
    end
    local desc = obj.desc .. (type(k) == "string" and ("." .. k) or ("[" .. tostring(k) .. "]"))
    return self:from_lua(t[k], desc, n.line)
  end
  obj = self:value(obj, n.line)
  if obj.type.array then
    if n.dot then
      local field = n.key.v
      if field == "size" then return self:size_of(obj, n.line) end
      self:fail(n.line, ("arrays in a kernel have no field '%s' (only .size, or #x)"):format(field))
    end
    local key = self:index_key(n.key, n.line)
    return { code = ("%s[%s]"):format(obj.code, key), type = obj.type.elem }
  end
  self:fail(n.line, ("cannot index a %s (only arrays are indexed in a kernel)"):format(types.show(obj.type)))
end

--- #x and x.size: the element count of an array parameter or of shared memory
function Func:size_of(e, line)
  local v = e.var
  if v and v.kind == "shared" then
    if v.dynamic then self:fail(line, "the size of dynamic shared memory is not known in the kernel") end
    return { code = tostring(v.size) .. "LL", type = T.int64 }
  end
  if v and v.kind == "param" then
    for i, p in ipairs(self.params) do
      if p == v then
        self.needs_size[i] = true
        return { code = "_size_" .. v.cname, type = T.int64 }
      end
    end
  end
  self:fail(line, "# and .size need an array argument of the function or shared memory")
end

-------------------------------------------------------------------------------
-- operators

local ARITH = { ["+"] = true, ["-"] = true, ["*"] = true }
local CMP = { ["=="] = "==", ["~="] = "!=", ["<"] = "<", ["<="] = "<=", [">"] = ">", [">="] = ">=" }
local BITS = { ["&"] = "&", ["|"] = "|", ["~"] = "^" }
local FOLD = require("gpuarray.internal").host_ops   -- constant folding, with Lua's meaning

local function small(t)
  return (t.kind == "i" or t.kind == "u" or t.kind == "b") and t.size < 4
end

--- C of a OP b computed in type r (float16, bfloat16 in float, small integers cast back)
local function arith(a, b, op, r)
  local c = types.compute(r)
  local code = ("(%s %s %s)"):format(conv(a.code, a.type, c), op, conv(b.code, b.type, c))
  if small(r) then return ("((%s)%s)"):format(r.ctype, code) end
  return conv(code, c, r)
end

function Func:numeric_operand(e, op, line)
  local t = e.type
  if t.array then self:fail(line, ("'%s' on an array: index it (x[i])"):format(op)) end
  if t.void then self:fail(line, ("'%s' on a call that returns nothing"):format(op)) end
  if t == T.bool then self:fail(line, ("arithmetic ('%s') on a boolean"):format(op)) end
  return e
end

function Func:e_Binop(n)
  local op, line = n.op, n.line
  if op == "and" or op == "or" then
    local a, b = self:value(self:expr(n.l), line), self:value(self:expr(n.r), line)
    if a.type ~= T.bool or b.type ~= T.bool then
      self:fail(line, ("'%s' needs booleans, got %s and %s (in Lua, 0 is true: compare explicitly)"):format(op,
        types.show(a.type), types.show(b.type)))
    end
    if a.const ~= nil and b.const ~= nil then return self:const(FOLD[op] and FOLD[op](a.const, b.const) or
      (op == "and" and (a.const and b.const) or (a.const or b.const))) end
    return self:E(("(%s %s %s)"):format(a.code, op == "and" and "&&" or "||", b.code), T.bool)
  end
  if op == ".." then self:fail(line, "string concatenation (..) is not supported in a kernel") end
  local a, b = self:value(self:expr(n.l), line), self:value(self:expr(n.r), line)
  if CMP[op] then return self:compare(op, a, b, line) end
  self:numeric_operand(a, op, line)
  self:numeric_operand(b, op, line)
  local ta, tb = a.type, b.type
  if a.const ~= nil and b.const ~= nil and ta.weak and tb.weak then
    local ok, v = pcall(FOLD[op], a.const, b.const)
    if ok and v == v and v ~= math.huge and v ~= -math.huge then return self:const(v) end
  end
  local cplx = ta.kind == "c" or tb.kind == "c"
  if cplx and not (ARITH[op] or op == "/" or op == "^") then
    self:fail(line, ("'%s' is not defined for complex numbers"):format(op))
  end
  local ints = types.is_int(ta) and types.is_int(tb)
  if ARITH[op] then return self:E(arith(a, b, op, promote(ta, tb)), promote(ta, tb)) end
  if op == "/" then
    local r = ints and (ta.weak and tb.weak and T.weak_float or T.float64) or promote(ta, tb)
    return self:E(arith(a, b, "/", r), r)
  end
  if op == "//" or op == "%" then
    local r = promote(ta, tb)
    -- int64 with uint64 promotes to float64 (NumPy): then the float operation
    if ints and types.is_int(r) then
      self:need(op == "//" and "idiv" or "imod")
      local fn = op == "//" and "_jit_idiv" or "_jit_imod"
      return self:E(("%s(%s, %s)"):format(fn, conv(a.code, ta, r), conv(b.code, tb, r)), r)
    end
    local c = types.compute(r)
    local ac, bc = conv(a.code, ta, c), conv(b.code, tb, c)
    if op == "//" then
      return self:E(conv(("%s(%s / %s)"):format(c == T.float32 and "floorf" or "floor", ac, bc), c, r), r)
    end
    self:need("fmod_lua")
    return self:E(conv(("_jit_fmod_lua(%s, %s)"):format(ac, bc), c, r), r)
  end
  if op == "^" then
    -- Lua: exponentiation gives a float, also for two integers
    local r = ints and (ta.weak and tb.weak and T.weak_float or T.float64) or promote(ta, tb)
    if r.kind == "c" then
      self.need_math = true
      return self:E(("ga_power(%s, %s)"):format(conv(a.code, ta, r), conv(b.code, tb, r)), r)
    end
    local c = types.compute(r)
    return self:E(conv(("%s(%s, %s)"):format(c == T.float32 and "powf" or "pow", conv(a.code, ta, c),
      conv(b.code, tb, c)), c, r), r)
  end
  -- bitwise: integers only, as in Lua
  if not ints then
    self:fail(line, ("bitwise '%s' needs integers, got %s and %s"):format(op, types.show(ta), types.show(tb)))
  end
  if BITS[op] then
    local r = promote(ta, tb)
    if not types.is_int(r) then
      self:fail(line, ("bitwise '%s' on %s and %s: they have no common integer type (NumPy promotes them to "
        .. "%s); convert one, as jit.int64(x)"):format(op, types.show(ta), types.show(tb), types.show(r)))
    end
    return self:E(arith(a, b, BITS[op], r), r)
  end
  -- shifts: Lua's (logical, 0 past the width, a negative count shifts the other way), in a's type
  self:need("shl")
  local r = ta.weak and types.concrete(ta) or ta
  local count = conv(b.code, tb, T.int64)
  if op == ">>" then count = "-(" .. count .. ")" end
  return self:E(("_jit_shl<%s>(%s, %s)"):format(r.ctype, conv(a.code, ta, r), count), ta.weak and T.weak_int or r)
end

--- The type two numbers compare in: NumPy's promotion, except that an
-- integer compares with a Lua integer in 64 bits (never truncated)
local function compare_type(ta, tb, a, b)
  -- a constant that fits the other side's integer type compares in it
  if types.is_int(ta) and types.is_int(tb) then
    if a.const ~= nil and ta.weak and not tb.weak and types.fits(a.const, tb) then return tb end
    if b.const ~= nil and tb.weak and not ta.weak and types.fits(b.const, ta) then return ta end
  end
  if types.is_int(ta) and types.is_int(tb) and (ta.weak or tb.weak) then
    return promote(types.concrete(ta), types.concrete(tb))
  end
  return types.concrete(promote(ta, tb))
end

function Func:compare(op, a, b, line)
  local ta, tb = a.type, b.type
  if ta.array or tb.array then self:fail(line, ("'%s' on an array: index it (x[i])"):format(op)) end
  if ta.void or tb.void then self:fail(line, ("'%s' on a call that returns nothing"):format(op)) end
  if a.const ~= nil and b.const ~= nil then
    local ok, v = pcall(FOLD[op], a.const, b.const)
    if ok then return self:const(v) end
  end
  if (ta == T.bool) ~= (tb == T.bool) then
    self:fail(line, ("'%s' between a boolean and a number (in Lua they are never equal)"):format(op))
  end
  if ta == T.bool then
    if op ~= "==" and op ~= "~=" then self:fail(line, ("'%s' on booleans: they have no order"):format(op)) end
    return self:E(("(%s %s %s)"):format(a.code, CMP[op], b.code), T.bool)
  end
  local c = compare_type(ta, tb, a, b)
  if c.kind == "c" then
    if op ~= "==" and op ~= "~=" then self:fail(line, "complex numbers have no order") end
    self.need_math = true
  end
  c = types.compute(c)
  return self:E(("(%s %s %s)"):format(conv(a.code, ta, c), CMP[op], conv(b.code, tb, c)), T.bool)
end

function Func:e_Unop(n)
  local op, line = n.op, n.line
  local e = self:expr(n.e)
  if op == "#" then
    e = self:value(e, line)
    if not e.type.array then self:fail(line, ("# of a %s (only arrays have a length)"):format(types.show(e.type))) end
    return self:size_of(e, line)
  end
  e = self:value(e, line)
  local t = e.type
  if op == "not" then
    if t ~= T.bool then
      self:fail(line, ("'not' needs a boolean, got %s (in Lua, 0 is true: compare explicitly)"):format(types.show(t)))
    end
    if e.const ~= nil then return self:const(not e.const) end
    return self:E(("(!%s)"):format(e.code), T.bool)
  end
  self:numeric_operand(e, op, line)
  if op == "-" then
    if e.const ~= nil then return self:const(-e.const) end
    local c = types.compute(t)
    local code = ("(-%s)"):format(conv(e.code, t, c))
    if small(t) then return self:E(("((%s)%s)"):format(t.ctype, code), t) end
    return self:E(conv(code, c, t), t)
  end
  -- ~x
  if not types.is_int(t) then self:fail(line, ("bitwise '~' needs an integer, got %s"):format(types.show(t))) end
  if e.const ~= nil then return self:const(~e.const) end
  local code = ("(~%s)"):format(e.code)
  if small(t) then code = ("((%s)%s)"):format(t.ctype, code) end
  return self:E(code, t)
end

-------------------------------------------------------------------------------
-- calls

function Func:e_Call(n)
  local line = n.line
  local callee = self:expr(n.fn)
  if not callee.isstatic then
    self:fail(line, ("cannot call a %s"):format(types.show(callee.type)))
  end
  local v = callee.static
  local b = BUILTINS[v]
  if b then
    if not b.call then self:fail(line, ("%s is not a function"):format(b.name)) end
    return b.call(self, n, line)
  end
  if type(v) == "table" and v._jit_fn then v = v._jit_fn end
  if type(v) ~= "function" then
    self:fail(line, ("cannot call '%s': it is a %s"):format(callee.desc, type(v)))
  end
  return self:device_call(v, n, line, callee.desc)
end

--- a call of another Lua function: its __device__ translation for these types
function Func:device_call(fn, n, line, desc)
  local args = self:exprs(n.args)
  local ts = {}
  for i, a in ipairs(args) do
    if a.type.void then self:fail(line, ("argument %d of %s is a call that returns nothing"):format(i, desc)) end
    ts[i] = a.type.array and types.array(a.type.elem) or a.type
  end
  local info = debug.getinfo(fn, "S")
  if info.what ~= "Lua" then self:fail(line, ("'%s' is a C function: a kernel can call Lua functions and "
    .. "the jit's builtins"):format(desc)) end
  local f = self.unit:func(fn, ts, "device", desc:match("[%w_]+$"), line)
  if not self.calls[f] then
    self.calls[f] = true
    self.calls_order[#self.calls_order + 1] = f
  end
  local codes = {}
  for i, a in ipairs(args) do codes[i] = a.code end
  for i, a in ipairs(args) do
    if f.needs_size[i] then codes[#codes + 1] = self:size_of(a, line).code end
  end
  local ret = T.void
  if f.nret and f.nret > 0 then ret = f.rets[1] end
  return self:E(("%s(%s)"):format(f.cname, table.concat(codes, ", ")), ret)
end
