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
}

local UNARY = {
  { "negative", "iufc", "same" }, { "abs", "biufc", "real" }, { "sign", "iuf", "same" },
  { "sqrt", "f", "float" }, { "exp", "fc", "float" }, { "log", "f", "float" }, { "sin", "fc", "float" },
  { "cos", "f", "float" }, { "tanh", "f", "float" }, { "arctan", "f", "float" }, { "floor", "f", "same" },
  { "ceil", "f", "same" }, { "trunc", "f", "same" }, { "rint", "f", "same" }, { "square", "iufc", "same" },
  { "conj", "iufc", "same" }, { "isnan", "fc", "bool" }, { "isinf", "fc", "bool" },
  { "isfinite", "biufc", "bool" }, { "logical_not", "biuf", "bool" }, { "invert", "biu", "same" },
  { "real", "fc", "real" }, { "imag", "fc", "real" },
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
  elseif op[1] == "divide" or op[1] == "arctan2" or op[1] == "hypot" or op[1] == "copysign" then
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
    return self:var({ n }, KIND_OF[t], ("ga.linspace(%s, %s, %d, {dtype = %q})"):format(lua_num(a), lua_num(b), n, t),
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

local STEPS = {
  { "binary", 30 }, { "unary", 12 }, { "power", 4 }, { "shift", 3 }, { "view", 16 }, { "reduction", 14 },
  { "scan", 5 }, { "mask", 4 }, { "take", 5 }, { "where", 3 }, { "astype", 4 },
}

-- the creation/manipulation/indexing rooms' generators (gen_manip.lua)
do
  local H = { random = random, pick = pick, copy = copy, has_zero = has_zero, random_shape = random_shape,
              shape_lit = shape_lit }
  for _, s in ipairs(require("difftest.gen_manip")(Program, H)) do STEPS[#STEPS + 1] = s end
end

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
