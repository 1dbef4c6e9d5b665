--- Random small gpuarray programs, each written twice: as Lua (gpuarray)
-- and as Python (NumPy), with the same meaning. The generator keeps a
-- model of every variable (shape, and a coarse kind: b i u f c) to choose
-- operations that are defined; what it cannot foresee (a promotion that
-- makes an operation invalid) raises on both sides, which counts as
-- agreement.
--
-- Translations (the documented differences, mapped rather than avoided):
-- indices, axes and inclusive ranges are 1-based in Lua and 0-based and
-- half-open in Python; argmin/argmax results are compared minus one;
-- `~` (Lua's xor) is Python's `^`, `^` is `**`. Avoided by design:
-- negative integer exponents, reciprocal of integers, shifts past the
-- width, float to unsigned casts, NaN to integer casts (NumPy raises or
-- leaves these undefined, gpuarray documents its own answer).
local gen = {}

local DTYPES = {
  b = { "bool" },
  i = { "int8", "int16", "int32", "int64" },
  u = { "uint8", "uint16", "uint32", "uint64" },
  f = { "float16", "float32", "float64" },
  c = { "complex64", "complex128" },
}
local KIND_OF = {}
for k, list in pairs(DTYPES) do
  for _, t in ipairs(list) do KIND_OF[t] = k end
end
gen.KIND_OF = KIND_OF

local random = math.random

local function pick(t) return t[random(#t)] end
local function kind_ok(kinds, k) return kinds:find(k, 1, true) ~= nil end

-- A kind for source arrays: mostly numbers, some bools and complex
local function pick_kind()
  local r = random(100)
  if r <= 10 then return "b" end
  if r <= 40 then return "i" end
  if r <= 55 then return "u" end
  if r <= 90 then return "f" end
  return "c"
end

-- The coarse kind of a binary result (NumPy's order b < u,i < f < c)
local RANK = { b = 1, u = 2, i = 2, f = 3, c = 4 }
local function join_kind(a, b)
  if a == b then return a end
  if RANK[a] == RANK[b] then return "i" end        -- int with uint: signed (or float64)
  return RANK[a] > RANK[b] and a or b
end

---------------------------------------------------------------------------
-- literals
---------------------------------------------------------------------------

-- Values exact in float16: quarters in [-10, 10]
local function real_value(kind)
  if kind == "b" then return random() < 0.5 end
  if kind == "i" then return random(-20, 20) end
  if kind == "u" then return random(0, 40) end
  return random(-40, 40) / 4
end

local function value(kind)
  if kind == "c" then return { real_value("f"), real_value("f") } end
  return real_value(kind)
end

local function lua_num(v)
  if math.type(v) == "integer" then return tostring(v) end
  local s = ("%.17g"):format(v)
  if not s:find("[%.eEn]") then s = s .. ".0" end
  return s
end

local function lua_lit(v)
  if type(v) == "boolean" then return tostring(v) end
  if type(v) == "table" and type(v[1]) == "number" and v.pair then
    return "{" .. lua_num(v[1]) .. ", " .. lua_num(v[2]) .. "}"
  end
  return lua_num(v)
end

local function py_lit(v)
  if type(v) == "boolean" then return v and "True" or "False" end
  if type(v) == "table" and v.pair then return ("complex(%s, %s)"):format(lua_num(v[1]), lua_num(v[2])) end
  return lua_num(v)
end

local function nested(shape, d, kind, lua, py)
  if d > #shape then
    local v = value(kind)
    if type(v) == "table" then v.pair = true end
    return lua_lit(v), py_lit(v)
  end
  local ls, ps = {}, {}
  for i = 1, shape[d] do ls[i], ps[i] = nested(shape, d + 1, kind, lua, py) end
  return "{" .. table.concat(ls, ", ") .. "}", "[" .. table.concat(ps, ", ") .. "]"
end

local function shape_lit(shape, py)
  if py then
    if #shape == 1 then return "(" .. shape[1] .. ",)" end
    return "(" .. table.concat(shape, ", ") .. ")"
  end
  return "{" .. table.concat(shape, ", ") .. "}"
end

local function random_shape(max_nd)
  local nd = random(0, max_nd or 3)
  if nd == 0 and random() < 0.5 then nd = 1 end
  local s = {}
  for d = 1, nd do s[d] = random(1, 4) end
  return s
end

local function has_zero(shape)
  for _, n in ipairs(shape) do
    if n < 1 then return true end
  end
  return false
end

local function copy(t)
  local r = {}
  for i, v in ipairs(t) do r[i] = v end
  return r
end

---------------------------------------------------------------------------
-- programs
---------------------------------------------------------------------------

local Program = {}
Program.__index = Program

function Program:var(shape, kind, lua, py)
  self.n = self.n + 1
  local name = "v" .. self.n
  self.lua[#self.lua + 1] = ("  local %s = %s"):format(name, lua)
  self.py[#self.py + 1] = ("    %s = %s"):format(name, py)
  local v = { name = name, shape = shape, kind = kind }
  self.vars[#self.vars + 1] = v
  return v
end

function Program:emit(v, lua_expr, py_expr)
  self.lua[#self.lua + 1] = ("  emit(%q, %s)"):format(v.name, lua_expr or v.name)
  self.py[#self.py + 1] = ("    emit(%q, %s)"):format(v.name, py_expr or v.name)
end

--- A fresh array literal of a shape and kind
function Program:source(shape, kind, dtype)
  dtype = dtype or pick(DTYPES[kind])
  local l, p = nested(shape, 1, kind)
  return self:var(shape, kind, ("ga.array(%s, %q)"):format(l, dtype), ("np.array(%s, dtype=%q)"):format(p, dtype))
end

-- A shape that broadcasts with s: drop leading axes, set some to 1
local function broadcastable(s)
  local r = {}
  local drop = random(0, #s)
  if random() < 0.6 then drop = 0 end
  for d = drop + 1, #s do r[#r + 1] = (random() < 0.3) and 1 or s[d] end
  return r
end

local function broadcast(a, b)
  local n = math.max(#a, #b)
  local r = {}
  for k = 1, n do
    local x = a[#a - n + k] or 1
    local y = b[#b - n + k] or 1
    r[k] = x == 1 and y or x
  end
  return r
end

local function scalar_for(kind)
  local r = random(100)
  if kind == "b" and r <= 50 then return random() < 0.5 end
  if r <= 50 then return random(0, 5) end
  return random(-12, 12) / 4
end

-- A weak Lua scalar for op on an array of kind k, and the kind of the result
local function scalar_operand(op_kinds, k)
  local s
  if k == "b" then
    s = (kind_ok(op_kinds, "i") and random() < 0.5) and random(0, 3) or (random() < 0.5)
  elseif k == "i" or k == "u" then
    s = (kind_ok(op_kinds, "f") and random() < 0.3) and random(-12, 12) / 4 or random(0, 5)
  else
    s = random() < 0.4 and random(0, 5) or random(-12, 12) / 4
  end
  local sk = type(s) == "boolean" and "b" or (math.type(s) == "integer" and "i" or "f")
  return s, RANK[sk] <= RANK[k] and k or sk
end

local BINARY = {
  -- name, operator (Lua, Python) or nil, kinds allowed
  { "add", "+", "+", "bif" .. "uc" }, { "subtract", "-", "-", "iufc" }, { "multiply", "*", "*", "biufc" },
  { "divide", "/", "/", "iufc" }, { "floor_divide", "//", "//", "iuf" }, { "remainder", "%", "%", "iuf" },
  { "maximum", nil, nil, "biufc" }, { "minimum", nil, nil, "biufc" }, { "fmax", nil, nil, "biufc" },
  { "fmin", nil, nil, "biufc" }, { "arctan2", nil, nil, "f" }, { "hypot", nil, nil, "f" },
  { "copysign", nil, nil, "f" }, { "logical_and", nil, nil, "biuf" }, { "logical_or", nil, nil, "biuf" },
  { "logical_xor", nil, nil, "biuf" }, { "bitwise_and", "&", "&", "biu" }, { "bitwise_or", "|", "|", "biu" },
  { "bitwise_xor", "~", "^", "biu" }, { "equal", nil, nil, "biufc" }, { "not_equal", nil, nil, "biufc" },
  { "less", nil, nil, "biuf" }, { "less_equal", nil, nil, "biuf" }, { "greater", nil, nil, "biuf" },
  { "greater_equal", nil, nil, "biuf" },
  -- the math room's ufuncs (issue 26)
  { "logaddexp", nil, nil, "f" }, { "logaddexp2", nil, nil, "f" }, { "heaviside", nil, nil, "f" },
  { "nextafter", nil, nil, "f" }, { "gcd", nil, nil, "iu" }, { "lcm", nil, nil, "iu" },
  { "fmod", nil, nil, "iuf" }, { "float_power", nil, nil, "f" },
}

local UNARY = {
  { "negative", "iufc", "same" }, { "abs", "biufc", "real" }, { "sign", "iuf", "same" },
  { "sqrt", "f", "float" }, { "exp", "fc", "float" }, { "log", "f", "float" }, { "sin", "fc", "float" },
  { "cos", "f", "float" }, { "tanh", "f", "float" }, { "arctan", "f", "float" }, { "floor", "f", "same" },
  { "ceil", "f", "same" }, { "trunc", "f", "same" }, { "rint", "f", "same" }, { "square", "iufc", "same" },
  { "conj", "iufc", "same" }, { "isnan", "fc", "bool" }, { "isinf", "fc", "bool" },
  { "isfinite", "biufc", "bool" }, { "logical_not", "biuf", "bool" }, { "invert", "biu", "same" },
  { "real", "fc", "real" }, { "imag", "fc", "real" },
  -- the math room's ufuncs (issue 26)
  { "fabs", "iuf", "float" }, { "fix", "f", "same" }, { "sinc", "iuf", "float" }, { "i0", "f", "same" },
  { "positive", "iufc", "same" }, { "nan_to_num", "fc", "same" },
}

function Program:binary(a)
  local choices = {}
  for _, op in ipairs(BINARY) do
    if kind_ok(op[4], a.kind) then choices[#choices + 1] = op end
  end
  local op = pick(choices)
  local bl, bp, bshape, bkind
  local r = random(100)
  if r <= 35 then
    -- a weak Lua scalar
    local s
    s, bkind = scalar_operand(op[4], a.kind)
    bl, bp, bshape = lua_lit(s), py_lit(s), {}
  else
    -- another array (an existing variable of a compatible shape, or a new one)
    local other
    for _, v in ipairs(self.vars) do
      if v ~= a and kind_ok(op[4], v.kind) and random() < 0.5 then
        local ok = pcall(function()
          for k = 1, math.min(#v.shape, #a.shape) do
            local x, y = v.shape[#v.shape - k + 1], a.shape[#a.shape - k + 1]
            if x ~= y and x ~= 1 and y ~= 1 then error("no") end
          end
        end)
        if ok then other = v end
      end
    end
    if not other then
      local kinds = op[4]:gsub("c", random() < 0.8 and "" or "c")
      local k = kind_ok(kinds, a.kind) and (random() < 0.6 and a.kind or pick_kind()) or a.kind
      if not kind_ok(op[4], k) then k = a.kind end
      other = self:source(broadcastable(a.shape), k)
    end
    bl, bp, bshape, bkind = other.name, other.name, other.shape, other.kind
  end
  local shape = broadcast(a.shape, bshape)
  local kind = join_kind(a.kind, bkind)
  if op[1]:find("^logical") or op[1]:find("equal") or op[1]:find("^less") or op[1]:find("^greater") then
    kind = "b"
  elseif op[1] == "divide" or op[1] == "arctan2" or op[1] == "hypot" or op[1] == "copysign"
      or op[1]:find("^logaddexp") or op[1] == "heaviside" or op[1] == "nextafter" or op[1] == "float_power" then
    kind = kind == "c" and "c" or "f"
  end
  local left = random() < 0.15 and bshape ~= nil and #bshape == 0 and op[2] ~= nil
  if op[2] and random() < 0.6 then
    if left then
      return self:var(shape, kind, ("%s %s %s"):format(bl, op[2], a.name), ("%s %s %s"):format(bp, op[3], a.name))
    end
    return self:var(shape, kind, ("%s %s %s"):format(a.name, op[2], bl), ("%s %s %s"):format(a.name, op[3], bp))
  end
  return self:var(shape, kind, ("ga.%s(%s, %s)"):format(op[1], a.name, bl),
                  ("np.%s(%s, %s)"):format(op[1], a.name, bp))
end

function Program:power(a)
  -- floats to any real power; integers to small non-negative Lua integers
  if a.kind == "f" or a.kind == "c" then
    local e = pick { 2, 3, 0.5, -1.0, 1.5 }
    return self:var(a.shape, a.kind, ("%s ^ %s"):format(a.name, lua_num(e)), ("%s ** %s"):format(a.name, lua_num(e)))
  end
  if a.kind == "b" then return self:unary(a) end
  local e = random(0, 3)
  return self:var(a.shape, a.kind, ("ga.power(%s, %d)"):format(a.name, e), ("np.power(%s, %d)"):format(a.name, e))
end

function Program:shift(a)
  if a.kind ~= "i" and a.kind ~= "u" then return self:unary(a) end
  local s = random(0, 6)
  local op = pick { "<<", ">>" }
  return self:var(a.shape, a.kind, ("%s %s %d"):format(a.name, op, s), ("%s %s %d"):format(a.name, op, s))
end

function Program:unary(a)
  local choices = {}
  for _, op in ipairs(UNARY) do
    if kind_ok(op[2], a.kind) then choices[#choices + 1] = op end
  end
  local op = pick(choices)
  local kind = op[3] == "bool" and "b" or ((op[3] == "float" and a.kind ~= "c") and "f" or a.kind)
  if op[3] == "real" and a.kind == "c" then kind = "f" end
  if random() < 0.2 and op[1] == "negative" then
    return self:var(a.shape, kind, "-" .. a.name, "-" .. a.name)
  end
  return self:var(a.shape, kind, ("ga.%s(%s)"):format(op[1], a.name), ("np.%s(%s)"):format(op[1], a.name))
end

-- One selector per axis: {start, stop[, step]} (Lua, inclusive) and the
-- Python slice; integers on some axes; the resulting shape
local function range_sel(n)
  local r = random(100)
  if r <= 25 then return "{}", ":", n end
  if r <= 45 then
    local a = random(1, n)
    local b = random(a, n)
    return ("{%d, %d}"):format(a, b), ("%d:%d"):format(a - 1, b), b - a + 1
  end
  if r <= 60 then return "{nil, nil, -1}", "::-1", n end
  if r <= 75 then
    local step = random(2, 3)
    return ("{1, %d, %d}"):format(n, step), ("0:%d:%d"):format(n, step), (n - 1) // step + 1
  end
  if r <= 85 then
    local a = random(1, n)
    local b = random(1, a)
    local stop = b == 1 and "" or tostring(b - 2)
    return ("{%d, %d, -1}"):format(a, b), ("%d:%s:-1"):format(a - 1, stop), a - b + 1
  end
  return ("{-%d, -1}"):format(n), ("-%d:"):format(n), n
end

function Program:view(a)
  local nd = #a.shape
  local r = random(100)
  if nd >= 2 and r <= 20 then
    local s = copy(a.shape)
    local ls = {}
    for d = nd, 1, -1 do s[nd - d + 1] = a.shape[d] end
    if random() < 0.5 then
      return self:var(s, a.kind, a.name .. ".T", a.name .. ".T")
    end
    local perm, pperm = {}, {}
    for d = 1, nd do perm[d] = d end
    for d = nd, 2, -1 do
      local j = random(d)
      perm[d], perm[j] = perm[j], perm[d]
    end
    for d = 1, nd do
      s[d] = a.shape[perm[d]]
      ls[d] = tostring(perm[d])
      pperm[d] = tostring(perm[d] - 1)
    end
    return self:var(s, a.kind, ("%s:transpose({%s})"):format(a.name, table.concat(ls, ", ")),
                    ("%s.transpose((%s,))"):format(a.name, table.concat(pperm, ", ")))
  end
  if r <= 35 then
    local size = 1
    for _, n in ipairs(a.shape) do size = size * n end
    local s = (size % 2 == 0 and random() < 0.5) and { 2, size // 2 } or { size }
    local ls = (#s == 2 and random() < 0.5) and { 2, -1 } or s
    return self:var(s, a.kind, ("%s:reshape(%s)"):format(a.name, shape_lit(ls)),
                    ("%s.reshape(%s)"):format(a.name, shape_lit(ls, true)))
  end
  if r <= 45 and nd < 4 then
    local ax = random(1, nd + 1)
    local s = copy(a.shape)
    table.insert(s, ax, 1)
    return self:var(s, a.kind, ("%s:expand_dims(%d)"):format(a.name, ax),
                    ("np.expand_dims(%s, %d)"):format(a.name, ax - 1))
  end
  if nd == 0 or has_zero(a.shape) then return self:unary(a) end
  -- basic indexing
  local ls, ps, s = {}, {}, {}
  for d = 1, nd do
    if d == 1 and nd >= 2 and random() < 0.25 then
      local k = random(1, a.shape[1])
      if random() < 0.3 then k = -k end
      ls[d] = tostring(k)
      ps[d] = tostring(k > 0 and k - 1 or k)
    elseif random() < 0.1 then
      ls[d], ps[d] = "{}", ":"
      s[#s + 1] = a.shape[d]
      ls[#ls + 1], ps[#ps + 1] = "ga.newaxis", "None"
      s[#s + 1] = 1
    else
      local l, p, n = range_sel(a.shape[d])
      ls[#ls + 1], ps[#ps + 1] = l, p
      s[#s + 1] = n
    end
  end
  return self:var(s, a.kind, ("%s[{ %s }]"):format(a.name, table.concat(ls, ", ")),
                  ("%s[%s]"):format(a.name, table.concat(ps, ", ")))
end

local REDUCTIONS = {
  { "sum", "biufc" }, { "prod", "biufc" }, { "mean", "biufc" }, { "min", "biuf" }, { "max", "biuf" },
  { "argmin", "biuf" }, { "argmax", "biuf" }, { "all", "biufc" }, { "any", "biufc" }, { "var", "biuf" },
  { "std", "biuf" }, { "count_nonzero", "biufc" },
}

function Program:reduction(a)
  local choices = {}
  for _, op in ipairs(REDUCTIONS) do
    if kind_ok(op[2], a.kind) then choices[#choices + 1] = op end
  end
  local op = pick(choices)
  local name = op[1]
  local nd = #a.shape
  local axis = (nd >= 1 and random() < 0.7) and random(1, nd) or nil
  if axis and random() < 0.2 then axis = axis - nd - 1 end        -- negative axes count from the end
  local keep = axis and name ~= "count_nonzero" and random() < 0.3
  local lopts, popts = {}, {}
  if axis then
    lopts[#lopts + 1] = "axis = " .. axis
    popts[#popts + 1] = "axis=" .. (axis > 0 and axis - 1 or axis)
  end
  if keep then
    lopts[#lopts + 1] = "keepdims = true"
    popts[#popts + 1] = "keepdims=True"
  end
  local ax0 = axis and (axis > 0 and axis or nd + axis + 1)
  if (name == "var" or name == "std") and random() < 0.3 then
    lopts[#lopts + 1] = "ddof = 1"
    popts[#popts + 1] = "ddof=1"
  end
  local s = {}
  for d = 1, nd do
    if axis and d ~= ax0 then s[#s + 1] = a.shape[d] elseif axis and keep then s[#s + 1] = 1 end
  end
  local kind = (name == "all" or name == "any") and "b" or ((name == "argmin" or name == "argmax"
    or name == "count_nonzero") and "i" or ((name == "mean" or name == "var" or name == "std") and "f" or a.kind))
  local lo = #lopts > 0 and (", { " .. table.concat(lopts, ", ") .. " }") or ""
  local po = #popts > 0 and (", " .. table.concat(popts, ", ")) or ""
  local lua = ("ga.%s(%s%s)"):format(name, a.name, lo)
  if name == "argmin" or name == "argmax" then lua = "(" .. lua .. " - 1)" end   -- 1-based positions
  if name == "count_nonzero" and not axis then
    -- NumPy gives a Python int; gpuarray a 0-d int64 array
    return self:var(s, kind, lua, ("np.asarray(np.count_nonzero(%s), dtype='int64')"):format(a.name))
  end
  return self:var(s, kind, lua, ("np.%s(%s%s)"):format(name, a.name, po))
end

function Program:scan(a)
  local name = pick { "cumsum", "cumprod" }
  local nd = #a.shape
  if nd == 0 or random() < 0.3 then
    local size = 1
    for _, n in ipairs(a.shape) do size = size * n end
    return self:var({ size }, a.kind == "b" and "i" or a.kind, ("ga.%s(%s)"):format(name, a.name),
                    ("np.%s(%s)"):format(name, a.name))
  end
  local ax = random(1, nd)
  return self:var(copy(a.shape), a.kind == "b" and "i" or a.kind, ("ga.%s(%s, %d)"):format(name, a.name, ax),
                  ("np.%s(%s, axis=%d)"):format(name, a.name, ax - 1))
end

function Program:mask(a)
  if a.kind == "c" or #a.shape == 0 then return self:unary(a) end
  local c = a.kind == "b" and "true" or lua_num(scalar_for("i"))
  local pc = a.kind == "b" and "True" or c
  -- the count is data-dependent: the model's shape is a guess only used to size later operands
  return self:var({ 1 }, a.kind, ("%s[%s:ge(%s)]"):format(a.name, a.name, c),
                  ("%s[%s >= %s]"):format(a.name, a.name, pc))
end

function Program:take(a)
  local nd = #a.shape
  if nd == 0 or has_zero(a.shape) then return self:unary(a) end
  local ax = random(1, nd)
  local n = a.shape[ax]
  local k = random(1, 5)
  local li, pi = {}, {}
  for j = 1, k do
    local v = random(1, n)
    if random() < 0.15 then v = -1 end
    li[j] = tostring(v)
    pi[j] = tostring(v > 0 and v - 1 or v)
  end
  local s = copy(a.shape)
  s[ax] = k
  local axis_lua = nd == 1 and "" or (", " .. ax)
  local axis_py = nd == 1 and "" or (", axis=" .. (ax - 1))
  if nd == 1 and random() < 0.5 then
    return self:var(s, a.kind, ("%s[ga.array({%s})]"):format(a.name, table.concat(li, ", ")),
                    ("%s[np.array([%s])]"):format(a.name, table.concat(pi, ", ")))
  end
  return self:var(s, a.kind, ("ga.take(%s, ga.array({%s})%s)"):format(a.name, table.concat(li, ", "), axis_lua),
                  ("np.take(%s, np.array([%s])%s)"):format(a.name, table.concat(pi, ", "), axis_py))
end

function Program:where(a)
  if a.kind == "c" then return self:unary(a) end
  local cond = self:source(broadcastable(a.shape), "b")
  local s = scalar_for(a.kind)
  if a.kind == "b" then s = false end
  return self:var(broadcast(a.shape, cond.shape), a.kind,
                  ("ga.where(%s, %s, %s)"):format(cond.name, a.name, lua_lit(s)),
                  ("np.where(%s, %s, %s)"):format(cond.name, a.name, py_lit(s)))
end

function Program:astype(a)
  local k = pick { "b", "i", "f", "c", "u" }
  if (a.kind == "f" or a.kind == "c") and (k == "u" or k == "i" or k == "b") then k = "f" end
  local t = pick(DTYPES[k])
  return self:var(copy(a.shape), k, ("%s:astype(%q)"):format(a.name, t), ("%s.astype(%q)"):format(a.name, t))
end

function Program:creation()
  local r = random(100)
  if r <= 30 then
    local a, b = random(-5, 5), random(-5, 12)
    if random() < 0.5 then
      return self:var({ math.max(0, b - a) }, "i", ("ga.arange(%d, %d)"):format(a, b),
                      ("np.arange(%d, %d)"):format(a, b))
    end
    local step = pick { 0.5, 0.25, 1.5 }
    local n = math.max(0, math.ceil((b - a) / step))
    return self:var({ n }, "f", ("ga.arange(%d, %d, %s)"):format(a, b, lua_num(step)),
                    ("np.arange(%d, %d, %s)"):format(a, b, lua_num(step)))
  end
  if r <= 50 then
    local a, b, n = random(-20, 20) / 4, random(-20, 20) / 4, random(2, 9)
    local t = pick { "float32", "float64", "int32", "int64" }
    return self:var({ n }, KIND_OF[t], ("ga.linspace(%s, %s, %d, %q)"):format(lua_num(a), lua_num(b), n, t),
                    ("np.linspace(%s, %s, %d, dtype=%q)"):format(lua_num(a), lua_num(b), n, t))
  end
  if r <= 70 then
    local n, m, k = random(1, 4), random(1, 4), random(-2, 2)
    local t = pick { "float32", "int16", "bool", "uint8" }
    return self:var({ n, m }, KIND_OF[t], ("ga.eye(%d, %d, %d, %q)"):format(n, m, k, t),
                    ("np.eye(%d, %d, %d, dtype=%q)"):format(n, m, k, t))
  end
  local s = random_shape(3)
  local kind = pick_kind()
  local t = pick(DTYPES[kind])
  local v = value(kind == "c" and "f" or kind)
  return self:var(s, kind, ("ga.full(%s, %s, %q)"):format(shape_lit(s), lua_lit(v), t),
                  ("np.full(%s, %s, dtype=%q)"):format(shape_lit(s, true), py_lit(v), t))
end

-- ufunc methods (issue 26): axes and indices 1-based in Lua, 0-based in
-- Python; reduce's and accumulate's default axis is the first on both sides
local METHOD_UFUNCS = {
  { "add", "biuf", true }, { "multiply", "biuf", true }, { "maximum", "biuf", true },
  { "minimum", "biuf", true }, { "logical_and", "biuf", true }, { "logical_or", "biuf", true },
  { "subtract", "iuf", false }, { "bitwise_or", "iu", true }, { "bitwise_xor", "biu", true },
  { "fmax", "f", true }, { "logaddexp", "f", true },
}

local function method_kind(name, k)
  if name:find("^logical") then return "b" end
  if name == "logaddexp" then return "f" end
  if (name == "add" or name == "multiply") and k == "b" then return "i" end
  return k
end

function Program:method(a)
  local nd = #a.shape
  if nd == 0 or has_zero(a.shape) then return self:unary(a) end
  local choices = {}
  for _, u in ipairs(METHOD_UFUNCS) do
    if kind_ok(u[2], a.kind) then choices[#choices + 1] = u end
  end
  if #choices == 0 then return self:unary(a) end
  local u = pick(choices)
  local name = u[1]
  local kind = method_kind(name, a.kind)
  local r = random(100)
  if r <= 40 then
    -- reduce: the default axis, one axis, or every axis (reorderable ones)
    local ax = random(1, nd)
    if random() < 0.3 then ax = ax - nd - 1 end
    local ax0 = ax > 0 and ax or nd + ax + 1
    local keep = random() < 0.25
    local s = {}
    if u[3] and nd > 1 and random() < 0.2 then
      local la, pa = {}, {}
      for d = 1, nd do
        la[d], pa[d] = tostring(d), tostring(d - 1)
        if keep then s[d] = 1 end
      end
      return self:var(s, kind, ("ga.%s.reduce(%s, { axis = {%s}, keepdims = %s })"):format(name, a.name,
                        table.concat(la, ", "), tostring(keep)),
                      ("np.%s.reduce(%s, axis=(%s,), keepdims=%s)"):format(name, a.name, table.concat(pa, ", "),
                        keep and "True" or "False"))
    end
    for d = 1, nd do
      if d ~= ax0 then s[#s + 1] = a.shape[d] elseif keep then s[#s + 1] = 1 end
    end
    if random() < 0.3 and not keep then
      -- positional axis, or none (the first axis by default on both sides)
      return self:var(s, kind, ("ga.%s.reduce(%s%s)"):format(name, a.name, ax0 == 1 and "" or (", " .. ax)),
                      ("np.%s.reduce(%s%s)"):format(name, a.name,
                        ax0 == 1 and "" or (", axis=" .. (ax > 0 and ax - 1 or ax))))
    end
    return self:var(s, kind, ("ga.%s:reduce(%s, { axis = %d, keepdims = %s })"):format(name, a.name, ax,
                      tostring(keep)),
                    ("np.%s.reduce(%s, axis=%d, keepdims=%s)"):format(name, a.name, ax > 0 and ax - 1 or ax,
                      keep and "True" or "False"))
  end
  if r <= 65 then
    local ax = random(1, nd)
    return self:var(copy(a.shape), kind, ("ga.%s.accumulate(%s, %d)"):format(name, a.name, ax),
                    ("np.%s.accumulate(%s, axis=%d)"):format(name, a.name, ax - 1))
  end
  if r <= 80 then
    -- reduceat: random 1-based starts (descending pairs included) along an axis
    local ax = random(1, nd)
    local n = a.shape[ax]
    local k = random(1, 4)
    local li, pi = {}, {}
    for j = 1, k do
      local v = random(1, n)
      li[j], pi[j] = tostring(v), tostring(v - 1)
    end
    local s = copy(a.shape)
    s[ax] = k
    return self:var(s, kind, ("ga.%s.reduceat(%s, {%s}, %d)"):format(name, a.name, table.concat(li, ", "), ax),
                    ("np.%s.reduceat(%s, [%s], axis=%d)"):format(name, a.name, table.concat(pi, ", "), ax - 1))
  end
  if r <= 90 then
    local b = self:source({ random(1, 3) }, a.kind)
    local s = copy(a.shape)
    s[#s + 1] = b.shape[1]
    local okind = name:find("^logical") and "b" or a.kind
    return self:var(s, okind, ("ga.%s.outer(%s, %s)"):format(name, a.name, b.name),
                    ("np.%s.outer(%s, %s)"):format(name, a.name, b.name))
  end
  -- at: in place on a copy; repeated 1-based positions along the first axis
  if a.kind == "b" or name:find("^logical") or name == "logaddexp" then return self:unary(a) end
  local n = a.shape[1]
  local k = random(1, 6)
  local li, pi = {}, {}
  for j = 1, k do
    local v = random(1, n)
    if random() < 0.2 then v = -v end
    li[j], pi[j] = tostring(v), tostring(v > 0 and v - 1 or v)
  end
  local val = a.kind == "f" and random(-8, 8) / 4 or random(0, 3)
  return self:var(copy(a.shape), a.kind,
                  ("(function() local t = %s:copy(); ga.%s.at(t, {%s}, %s); return t end)()"):format(a.name, name,
                    table.concat(li, ", "), lua_num(val)),
                  ("(lambda t: (np.%s.at(t, [%s], %s), t)[1])(%s.copy())"):format(name, table.concat(pi, ", "),
                    lua_num(val), a.name))
end

---------------------------------------------------------------------------
-- sorting, sets, logic, bits, functional, counting (issue 25's rooms)
---------------------------------------------------------------------------

-- axis argument pairs: a 1-based Lua axis (or false: flattened) and NumPy's
local function axis_pair(nd, allow_none)
  if nd == 0 or (allow_none and random() < 0.25) then return "false", "None", nil end
  local ax = random(1, nd)
  if random() < 0.3 then ax = ax - nd - 1 end
  return tostring(ax), tostring(ax > 0 and ax - 1 or ax), ax > 0 and ax or nd + 1 + ax
end

local function size_of(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

local BREADTH = {}

function BREADTH.sort(p, a)
  if a.kind == "c" and random() < 0.5 then a = p:source(a.shape, "f") end
  local la, pa, ax = axis_pair(#a.shape, true)
  local shape = ax and copy(a.shape) or { size_of(a.shape) }
  if random() < 0.5 then
    return p:var(shape, a.kind, ("ga.sort(%s, %s)"):format(a.name, la), ("np.sort(%s, axis=%s)"):format(a.name, pa))
  end
  return p:var(shape, "i", ("(ga.argsort(%s, %s) - 1)"):format(a.name, la),
               ("np.argsort(%s, axis=%s, kind='stable')"):format(a.name, pa))
end

function BREADTH.unique(p, a)
  local r = random(4)
  if r == 1 then
    return p:var({ 1 }, a.kind, ("ga.unique(%s)"):format(a.name), ("np.unique(%s)"):format(a.name))
  elseif r == 2 then
    return p:var({ 1 }, "i", ("(select(2, ga.unique(%s, false, false, true)))"):format(a.name),
                 ("np.unique(%s, return_counts=True)[1]"):format(a.name))
  elseif r == 3 then
    return p:var(copy(a.shape), "i", ("(select(2, ga.unique(%s, { return_inverse = true })) - 1)"):format(a.name),
                 ("np.unique(%s, return_inverse=True)[1].reshape(np.shape(%s))"):format(a.name, a.name))
  end
  return p:var({ 1 }, "i", ("(select(2, ga.unique(%s, true)) - 1)"):format(a.name),
               ("np.unique(%s, return_index=True)[1]"):format(a.name))
end

function BREADTH.isin(p, a)
  local k = a.kind == "c" and "c" or pick { a.kind, a.kind, "i", "f" }
  local t = p:source({ random(0, 5) }, k)
  local inv = random() < 0.3
  return p:var(copy(a.shape), "b", ("ga.isin(%s, %s, false, %s)"):format(a.name, t.name, tostring(inv)),
               ("np.isin(%s, %s, invert=%s)"):format(a.name, t.name, inv and "True" or "False"))
end

function BREADTH.setop(p, a)
  if a.kind == "c" then return p:unary(a) end
  local b = p:source(random_shape(2), pick { "i", "f", a.kind })
  local op = pick { "intersect1d", "union1d", "setdiff1d", "setxor1d" }
  local kind = op == "setdiff1d" and a.kind or join_kind(a.kind, b.kind)
  if op == "intersect1d" and random() < 0.4 then
    local which = random(2, 3)
    return p:var({ 1 }, "i", ("(select(%d, ga.intersect1d(%s, %s, false, true)) - 1)"):format(which, a.name, b.name),
                 ("np.intersect1d(%s, %s, return_indices=True)[%d]"):format(a.name, b.name, which - 1))
  end
  return p:var({ 1 }, kind, ("ga.%s(%s, %s)"):format(op, a.name, b.name), ("np.%s(%s, %s)"):format(op, a.name, b.name))
end

function BREADTH.searchsorted(p, a)
  if a.kind == "c" or a.kind == "b" then return p:unary(a) end
  local s = p:var({ size_of(a.shape) }, a.kind, ("ga.sort(%s, false)"):format(a.name),
                  ("np.sort(%s, axis=None)"):format(a.name))
  local v = p:source(random_shape(2), a.kind)
  local side = pick { "left", "right" }
  return p:var(copy(v.shape), "i", ("(ga.searchsorted(%s, %s, %q) - 1)"):format(s.name, v.name, side),
               ("np.searchsorted(%s, %s, side=%q)"):format(s.name, v.name, side))
end

function BREADTH.logic(p, a)
  local r = random(5)
  if r == 1 and a.kind == "f" then
    local f = pick { "isposinf", "isneginf" }
    local b = p:var(copy(a.shape), "f", ("(%s / 0.25)"):format(a.name), ("(%s / 0.25)"):format(a.name))
    return p:var(copy(a.shape), "b", ("ga.%s(ga.divide(1, %s))"):format(f, b.name),
                 ("np.%s(np.divide(1, %s))"):format(f, b.name))
  elseif r == 2 then
    local f = pick { "isreal", "iscomplex" }
    return p:var(copy(a.shape), "b", ("ga.%s(%s)"):format(f, a.name), ("np.%s(%s)"):format(f, a.name))
  elseif r == 3 and a.kind ~= "b" then
    local b = p:source(broadcastable(a.shape), a.kind == "c" and "c" or "f")
    local rtol, atol = pick { "1e-05", "0.1", "0.0" }, pick { "1e-08", "0.5" }
    return p:var(broadcast(a.shape, b.shape), "b", ("ga.isclose(%s, %s, %s, %s)"):format(a.name, b.name, rtol, atol),
                 ("np.isclose(%s, %s, %s, %s)"):format(a.name, b.name, rtol, atol))
  elseif r == 4 then
    local b = p:source(broadcastable(a.shape), a.kind)
    local f = pick { "array_equiv", "array_equal", "allclose" }
    if f == "allclose" and (a.kind == "b") then f = "array_equal" end
    return p:var({}, "b", ("ga.array(ga.%s(%s, %s))"):format(f, a.name, b.name),
                 ("np.asarray(np.%s(%s, %s))"):format(f, a.name, b.name))
  end
  if #a.shape == 0 or a.kind == "c" then return p:unary(a) end
  if random() < 0.5 then
    return p:var({ 1 }, "i", ("(ga.flatnonzero(%s) - 1)"):format(a.name), ("np.flatnonzero(%s)"):format(a.name))
  end
  local c = a.kind == "b" and a.name or ("ga.greater(%s, 0)"):format(a.name)
  local pc = a.kind == "b" and a.name or ("(%s > 0)"):format(a.name)
  return p:var({ 1 }, a.kind, ("ga.extract(%s, %s)"):format(c, a.name), ("np.extract(%s, %s)"):format(pc, a.name))
end

function BREADTH.bits(p, a)
  if a.kind == "f" or a.kind == "c" then return p:unary(a) end
  local r = random(3)
  local order = pick { "big", "little" }
  if r == 1 then
    local la, pa, ax = axis_pair(#a.shape, true)
    local shape
    if ax then
      shape = copy(a.shape)
      shape[ax] = (shape[ax] + 7) // 8
    else
      shape = { (size_of(a.shape) + 7) // 8 }
    end
    la = la == "false" and "nil" or la
    return p:var(shape, "u", ("ga.packbits(%s, %s, %q)"):format(a.name, la, order),
                 ("np.packbits(%s, axis=%s, bitorder=%q)"):format(a.name, pa, order))
  elseif r == 2 then
    local u = p:var(copy(a.shape), "u", ("%s:astype(\"uint8\")"):format(a.name), ("%s.astype('uint8')"):format(a.name))
    local la, pa, ax = axis_pair(#a.shape, true)
    local shape
    if ax then
      shape = copy(a.shape)
      shape[ax] = shape[ax] * 8
    else
      shape = { size_of(a.shape) * 8 }
    end
    la = la == "false" and "nil" or la
    return p:var(shape, "u", ("ga.unpackbits(%s, %s, nil, %q)"):format(u.name, la, order),
                 ("np.unpackbits(%s, axis=%s, bitorder=%q)"):format(u.name, pa, order))
  end
  return p:var(copy(a.shape), "u", ("ga.bitwise_count(%s)"):format(a.name),
               ("np.asarray(np.vectorize(lambda v: bin(abs(int(v))).count('1'), otypes='B')(%s))"):format(a.name))
end

function BREADTH.functional(p, a)
  if a.kind == "c" or a.kind == "b" then return p:unary(a) end
  local r = random(4)
  local nd = #a.shape
  if r == 1 and nd >= 1 and size_of(a.shape) > 0 then
    local ax = random(1, nd)
    local s = {}
    for d = 1, nd do if d ~= ax then s[#s + 1] = a.shape[d] end end
    return p:var(s, a.kind, ("ga.apply_along_axis(function(v) return v:max() end, %d, %s)"):format(ax, a.name),
                 ("np.apply_along_axis(lambda v: v.max(), %d, %s)"):format(ax - 1, a.name))
  elseif r == 2 and nd >= 1 then
    local ax = random(1, nd)
    local s = copy(a.shape)
    s[ax] = 1
    return p:var(s, a.kind == "u" and "u" or a.kind, ("ga.apply_over_axes(ga.max, %s, %d)"):format(a.name, ax),
                 ("np.apply_over_axes(np.max, %s, %d)"):format(a.name, ax - 1))
  elseif r == 3 then
    -- x * 2 is exact in every dtype (the jit may compute float16 in float32)
    return p:var(copy(a.shape), "f", ("ga.vectorize(function(x) return x * 2 end, \"d\")(%s)"):format(a.name),
                 ("np.vectorize(lambda x: x * 2, otypes='d')(%s)"):format(a.name))
  end
  if a.kind == "u" then return p:unary(a) end
  return p:var(copy(a.shape), a.kind, ("ga.piecewise(%s, { ga.less(%s, 0) }, { -1, 1 })"):format(a.name, a.name),
               ("np.piecewise(%s, [%s < 0], [-1, 1])"):format(a.name, a.name))
end

function BREADTH.counting(p, a)
  local nd = #a.shape
  local r = random(4)
  if r == 1 and a.kind == "f" and nd >= 1 then
    local la, pa = axis_pair(nd, false)
    local f = pick { "nanargmax", "nanargmin" }
    local s = {}
    local ax = tonumber(la)
    ax = ax < 0 and nd + 1 + ax or ax
    for d = 1, nd do if d ~= ax then s[#s + 1] = a.shape[d] end end
    return p:var(s, "i", ("(ga.%s(%s, %s) - 1)"):format(f, a.name, la), ("np.%s(%s, axis=%s)"):format(f, a.name, pa))
  elseif r == 2 and nd >= 1 and a.kind ~= "c" then
    local la, pa, ax = axis_pair(nd, false)
    local n = random(1, 2)
    local s = copy(a.shape)
    s[ax] = math.max(s[ax] - n, 0)
    return p:var(s, a.kind, ("ga.diff(%s, %d, %s)"):format(a.name, n, la),
                 ("np.diff(%s, n=%d, axis=%s)"):format(a.name, n, pa))
  elseif r == 3 and (a.kind == "f" or a.kind == "i") then
    local right = random() < 0.5
    return p:var(copy(a.shape), "i", ("ga.digitize(%s, ga.array({-2, 0, 3}), %s)"):format(a.name, tostring(right)),
                 ("np.digitize(%s, np.array([-2, 0, 3]), right=%s)"):format(a.name, right and "True" or "False"))
  elseif r == 4 and a.kind ~= "c" and nd >= 1 then
    return p:var(copy(a.shape), "c", ("ga.sort_complex(%s)"):format(a.name), ("np.sort_complex(%s)"):format(a.name))
  end
  return p:unary(a)
end

local BREADTH_NAMES = { "sort", "unique", "isin", "setop", "searchsorted", "logic", "bits", "functional",
                        "counting" }

function Program:breadth(a)
  return BREADTH[pick(BREADTH_NAMES)](self, a)
end

local STEPS = {
  { "binary", 30 }, { "unary", 12 }, { "power", 4 }, { "shift", 3 }, { "view", 16 }, { "reduction", 14 },
  { "scan", 5 }, { "mask", 4 }, { "take", 5 }, { "where", 3 }, { "astype", 4 }, { "breadth", 14 },
  { "method", 8 },
}

local function pick_step()
  local total = 0
  for _, s in ipairs(STEPS) do total = total + s[2] end
  local r = random(total)
  for _, s in ipairs(STEPS) do
    r = r - s[2]
    if r <= 0 then return s[1] end
  end
end

--- One program: {id, seed, lua = source, py = source}. The Lua source is a
-- chunk returning function(ga, emit); the Python one defines p<id>(emit).
function gen.program(id, seed)
  math.randomseed(seed)
  local p = setmetatable({ n = 0, vars = {}, lua = {}, py = {} }, Program)
  local first
  if random() < 0.15 then
    first = p:creation()
  else
    first = p:source(random_shape(3), pick_kind())
  end
  local results = {}
  local cur = first
  for _ = 1, random(1, 4) do
    local step = pick_step()
    local v = p[step](p, cur)
    results[#results + 1] = v
    -- continue from the result, or from an earlier variable
    cur = random() < 0.7 and v or pick(p.vars)
  end
  for _, v in ipairs(results) do p:emit(v) end
  local lua = "return function(ga, emit)\n" .. table.concat(p.lua, "\n") .. "\nend\n"
  local py = ("def p%d(emit):\n"):format(id) .. table.concat(p.py, "\n") .. "\n"
  return { id = id, seed = seed, lua = lua, py = py }
end

return gen
