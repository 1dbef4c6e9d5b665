--- ga.jit's parser and translator (no GPU): kernels written in Lua, parsed
-- and translated to CUDA. An input is the text of a Lua function and the
-- argument descriptions k:source takes ("float32[]", "int16", a Lua
-- number, a boolean). The text is a kernel generated from the subset's
-- grammar (random statements and expressions over its parameters, locals,
-- jit builtins and math), now and then a corpus kernel (fuzz/corpus/jit.txt),
-- or a byte mutation of either. Each call parses the text (the jit's own
-- parser reads any string), then, when Lua loads it, translates it as a
-- rawkernel or an elementwisekernel: every step must succeed or raise a
-- "gpuarray: " error. One translation in COMPILE_EVERY is compiled by NVRTC
-- for sm_90 too: a source the translator emitted and NVRTC rejects is a
-- finding (the translator accepted what it cannot express).
local parser = require "gpuarray.jit.parser"

local COMPILE_EVERY = 40

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float32", "float64", "complex64", "complex128" }
local NUMERIC = { "int32", "int64", "uint32", "float32", "float64", "int16", "float16" }

local BINOPS = { "+", "-", "*", "/", "//", "%", "^", "&", "|", "~", "<<", ">>", "==", "~=", "<", "<=", ">",
                 ">=", "and", "or", ".." }
local MATH1 = { "sqrt", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "log", "floor", "ceil", "abs" }
local MATH2 = { "max", "min", "fmod", "atan", "log", "ult" }
local JIT1 = { "tanh", "sinh", "cosh", "log2", "log10", "log1p", "exp2", "expm1", "cbrt", "trunc", "rint",
               "rsqrt", "isnan", "isinf", "isfinite", "float32", "float64", "int32", "int64", "uint8", "float16" }
local JIT2 = { "hypot", "atan2", "copysign" }
local ATOMICS = { "add", "sub", "max", "min", "exch", "and", "or", "xor" }
local AXES = { "threadIdx", "blockIdx", "blockDim", "gridDim" }
-- tokens that a swap puts in place of another (inside and outside the subset)
local TOKENS = {
  "x", "y", "n", "i", "out", "a", "0", "1", "-1", "2.5", "0x10", "1e300", "math.huge", "math.pi",
  "math.maxinteger", "jit.threadIdx.x", "jit.blockDim.y", "jit.warpsize", "#x", "x.size", "x[0]", "x[i]",
  "true", "false", "nil", "\"s\"", "{}", "...", "function() end", "goto", "::l::", "local", "end", "then",
  "do", "(", ")", "[", "]", "=", "==", "+", "-", "*", "/", "//", "%", "^", "..", "and", "or", "not", "~",
  "<<", ">>", "#", ",", ";", "break", "return", "jit.syncthreads()", "sq(x[0])", "math.sqrt", "jit.int8",
  "jit.atomic_add(x, 0, 1)", "print", "x:fill(0)", "while", "repeat", "until", "for", "in", "if", "else",
  "elseif", "<const>", "<close>", "--", "--[[", "]]", "[[", "\n",
}

-- ===================================================================
-- a kernel from the grammar
-- ===================================================================

local G = {}
G.__index = G

local function new_gen(F, nparams)
  local g = setmetatable({ F = F, out = {}, depth = 0, loops = 0, nlocals = 0, params = {}, locals = {},
                           bools = {}, arrays = {}, indent = "  " }, G)
  for p = 1, nparams do
    local name = "p" .. p
    g.params[p] = name
    if F.chance(0.6) then g.arrays[#g.arrays + 1] = name else g.locals[#g.locals + 1] = name end
  end
  return g
end

function G:pick(t) return self.F.pick(t) end
function G:chance(p) return self.F.chance(p) end
function G:line(s) self.out[#self.out + 1] = self.indent .. s end

function G:number()
  local r = math.random(10)
  if r <= 4 then return tostring(math.random(0, 9)) end
  if r <= 6 then return ("%.17g"):format(math.random() * 10) end
  if r == 7 then return self:pick { "0x7f", "1e3", "0.5", "2^31", "(1 << 40)", "-0.0", "1e-3", "256", "32" } end
  local v = self.F.number()
  if math.type(v) == "integer" then
    if v == math.mininteger then return "math.mininteger" end
    return v < 0 and "(" .. v .. ")" or tostring(v)
  end
  if v ~= v then return "(0/0)" end
  if v == 1 / 0 then return "math.huge" end
  if v == -1 / 0 then return "(-math.huge)" end
  return ("(%.17g)"):format(v)
end

function G:array() return #self.arrays > 0 and self:pick(self.arrays) or nil end

--- now and then a value outside the subset, or of the wrong kind
function G:wild()
  return self:pick { "nil", "\"s\"", "{}", "print", "up", "x", "true", "jit.threadIdx", "math", "(1 < 2)",
                     "jit.syncthreads()", "...", "function() end" }
end

function G:leaf()
  local r = math.random(20)
  if r <= 5 then return self:number() end
  if r <= 10 and #self.locals > 0 then return self:pick(self.locals) end
  if r <= 13 then
    local a = self:array()
    if a then return ("%s[%s]"):format(a, self:index()) end
  end
  if r <= 15 then return ("jit.%s.%s"):format(self:pick(AXES), self:pick { "x", "y", "z" }) end
  if r == 16 then
    local a = self:array()
    if a then return self:chance(0.5) and "#" .. a or a .. ".size" end
  end
  if r == 17 then return self:pick { "math.pi", "math.huge", "math.maxinteger", "math.mininteger", "jit.warpsize" } end
  if r == 18 and self:chance(0.3) then return self:wild() end
  return self:number()
end

--- an integer-ish index expression (most of the time)
function G:index()
  local r = math.random(6)
  if r <= 3 then return "i" end
  if r == 4 then return tostring(math.random(0, 7)) end
  if r == 5 then return ("jit.int32(%s)"):format(self:expr(2)) end
  return self:expr(2)
end

local ARITH = { "+", "-", "*", "/", "//", "%", "^", "+", "-", "*" }
local BITS = { "&", "|", "~", "<<", ">>" }
local CMP = { "==", "~=", "<", "<=", ">", ">=" }

--- a numeric expression (now and then one of another kind)
function G:expr(depth)
  depth = depth or 0
  if depth >= 4 or self:chance(0.3) then return self:leaf() end
  local r = math.random(14)
  if r <= 5 then
    return ("(%s %s %s)"):format(self:expr(depth + 1), self:pick(ARITH), self:expr(depth + 1))
  elseif r == 6 then
    local int = self:pick { "jit.int32", "jit.int64", "jit.uint32", "math.floor" }
    if self:chance(0.2) then return ("~%s(%s)"):format(int, self:expr(depth + 1)) end
    return ("(%s(%s) %s %s(%s))"):format(int, self:expr(depth + 1), self:pick(BITS), int, self:expr(depth + 1))
  elseif r == 7 then
    return ("-(%s)"):format(self:expr(depth + 1))
  elseif r == 8 then
    return ("math.%s(%s)"):format(self:pick(MATH1), self:expr(depth + 1))
  elseif r == 9 then
    return ("math.%s(%s, %s)"):format(self:pick(MATH2), self:expr(depth + 1), self:expr(depth + 1))
  elseif r == 10 then
    return ("jit.%s(%s)"):format(self:pick(JIT1), self:expr(depth + 1))
  elseif r == 11 then
    return ("jit.%s(%s, %s)"):format(self:pick(JIT2), self:expr(depth + 1), self:expr(depth + 1))
  elseif r == 12 then
    return ("sq(%s)"):format(self:expr(depth + 1))
  elseif r == 13 and self:chance(0.2) then
    return ("(%s %s %s)"):format(self:expr(depth + 1), self:pick(BINOPS), self:expr(depth + 1))
  end
  local a = self:array()
  if a and self:chance(0.5) then
    return ("jit.atomic_%s(%s, %s, %s)"):format(self:pick(ATOMICS), a, self:index(), self:expr(depth + 1))
  end
  return self:leaf()
end

--- a boolean expression
function G:cond(depth)
  depth = depth or 0
  local r = math.random(10)
  if depth >= 3 or r <= 5 then
    return ("(%s %s %s)"):format(self:expr(2), self:pick(CMP), self:expr(2))
  elseif r == 6 then
    return "not " .. self:cond(depth + 1)
  elseif r <= 8 then
    return ("(%s %s %s)"):format(self:cond(depth + 1), self:pick { "and", "or" }, self:cond(depth + 1))
  elseif r == 9 then
    if #self.bools > 0 and self:chance(0.5) then return self:pick(self.bools) end
    return ("jit.%s(%s)"):format(self:pick { "isnan", "isinf", "isfinite" }, self:expr(2))
  end
  return self:chance(0.8) and self:pick { "true", "false" } or self:expr(1)
end

function G:new_local()
  self.nlocals = self.nlocals + 1
  local name = "v" .. self.nlocals
  return name
end

function G:block(n)
  local saved_locals, saved_bools, saved_indent = #self.locals, #self.bools, self.indent
  self.indent = self.indent .. "  "
  self.depth = self.depth + 1
  for _ = 1, n do self:stmt() end
  self.depth = self.depth - 1
  self.indent = saved_indent
  for k = #self.locals, saved_locals + 1, -1 do self.locals[k] = nil end
  for k = #self.bools, saved_bools + 1, -1 do self.bools[k] = nil end
end

function G:stmt()
  local r = math.random(20)
  local deep = self.depth >= 3
  if r <= 4 then
    local v = self:new_local()
    if self:chance(0.15) then
      self:line(("local %s = %s"):format(v, self:cond()))
      self.bools[#self.bools + 1] = v
    else
      self:line(("local %s = %s"):format(v, self:expr()))
      self.locals[#self.locals + 1] = v
    end
  elseif r <= 6 and #self.locals > 0 then
    self:line(("%s = %s"):format(self:pick(self.locals), self:expr()))
  elseif r <= 9 and self:array() then
    self:line(("%s[%s] = %s"):format(self:array(), self:index(), self:expr()))
  elseif r <= 11 and not deep then
    self:line(("if %s then"):format(self:cond()))
    self:block(math.random(1, 3))
    if self:chance(0.3) then
      self:line(("elseif %s then"):format(self:cond()))
      self:block(math.random(1, 2))
    end
    if self:chance(0.4) then
      self:line("else")
      self:block(math.random(1, 2))
    end
    self:line("end")
  elseif r == 12 and not deep then
    local v = self:new_local()
    local step = self:chance(0.4) and (", " .. self:pick { "1", "2", "-1", "0", "jit.blockDim.x", "0.5", self:expr(2) })
                 or ""
    self:line(("for %s = %s, %s%s do"):format(v, self:expr(2), self:expr(2), step))
    self.locals[#self.locals + 1] = v
    self.loops = self.loops + 1
    self:block(math.random(1, 3))
    self.loops = self.loops - 1
    self.locals[#self.locals] = nil
    self:line("end")
  elseif r == 13 and not deep then
    self:line(("while %s do"):format(self:cond(1)))
    self.loops = self.loops + 1
    self:block(math.random(1, 3))
    self.loops = self.loops - 1
    self:line("end")
  elseif r == 14 and not deep then
    self:line("repeat")
    self.loops = self.loops + 1
    self:block(math.random(1, 2))
    self.loops = self.loops - 1
    self:line(("until %s"):format(self:cond(1)))
  elseif r == 15 and (self.loops > 0 or self:chance(0.1)) then
    self:line("break")
  elseif r == 16 then
    self:line(self:pick { "jit.syncthreads()", "jit.syncwarp()" })
  elseif r == 17 and self.depth == 0 then
    local v = self:new_local()
    self:line(("local %s = jit.shared_memory(%q, %s)"):format(v, self:pick(NUMERIC),
      self:pick { "64", "256", "1", "0", "n", "p1", "32 * 4" }))
    self.arrays[#self.arrays + 1] = v
  elseif r == 18 and self:array() then
    self:line(("jit.atomic_%s(%s, %s, %s)"):format(self:pick(ATOMICS), self:array(), self:index(), self:expr(2)))
  elseif r == 19 and not deep then
    self:line("do")
    self:block(math.random(1, 2))
    self:line("end")
  else
    local v = self:new_local()
    self:line(("local %s = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x"):format(v))
    self.locals[#self.locals + 1] = v
  end
end

--- "function(p1, ...)\n  body\nend", and which parameters it reads as arrays
local function generate(F, nparams, elementwise)
  local g = new_gen(F, nparams)
  local is_array = {}
  for _, a in ipairs(g.arrays) do is_array[a] = true end
  g.locals[#g.locals + 1] = "i"
  g:line("local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x")
  if elementwise then
    g.arrays, is_array = {}, {}            -- an elementwise function sees one element a parameter
    for _, p in ipairs(g.params) do g.locals[#g.locals + 1] = p end
    for _ = 1, math.random(0, 3) do
      local v = g:new_local()
      g:line(("local %s = %s"):format(v, g:expr()))
      g.locals[#g.locals + 1] = v
    end
    if F.chance(0.3) then
      g:line(("if %s then return %s end"):format(g:cond(), g:expr()))
    end
    local rets = {}
    for k = 1, F.chance(0.05) and 0 or math.random(1, 2) do rets[k] = g:expr() end
    if #rets > 0 then g:line("return " .. table.concat(rets, ", ")) end
  else
    for _ = 1, math.random(1, 6) do g:stmt() end
    if F.chance(0.05) then g:line("return " .. g:expr()) end
  end
  local kinds = {}
  for k, p in ipairs(g.params) do kinds[k] = is_array[p] or elementwise end
  return ("function(%s)\n%s\nend"):format(table.concat(g.params, ", "), table.concat(g.out, "\n")), kinds
end

-- ===================================================================
-- the target
-- ===================================================================

--- an argument description for k:source: for an array parameter (or an
-- element of an elementwise function) "dtype[]", for a scalar one a dtype
-- name or a Lua number; anything when kind is nil
local function arg_desc(F, kind)
  if kind == true then return F.pick(F.chance(0.8) and NUMERIC or DTYPES) .. "[]" end
  if kind == false then
    local r = math.random(4)
    if r == 1 then return F.pick(NUMERIC) end
    if r == 2 then return math.random(-3, 1000) end
    if r == 3 then return math.random() * 4 end
    return F.pick(DTYPES)
  end
  local r = math.random(10)
  if r <= 5 then return F.pick(DTYPES) .. "[]" end
  if r <= 7 then return F.pick(DTYPES) end
  if r == 8 then return F.chance(0.5) and math.random(-3, 1000) or math.random() * 4 end
  if r == 9 then return F.chance(0.5) end
  return F.pick { "float32*", "T", "", "raw float32", "float33[]", "[]", "complex" }
end

local function swap_tokens(F, text)
  for _ = 1, math.random(1, 3) do
    local spots = {}
    for s, e in text:gmatch("()[%w_%.%[%]#]+()") do spots[#spots + 1] = { s, e } end
    if #spots == 0 then break end
    local s = F.pick(spots)
    text = text:sub(1, s[1] - 1) .. F.pick(TOKENS) .. text:sub(s[2])
  end
  return text
end

-- a chunk that returns the function `f` defined in it beside a decoy
local PLACES = {
  function(f, d) return ("local a, b = %s, %s\nreturn b"):format(d, f) end,
  function(f, d) return ("local a, b = %s, %s\nreturn a"):format(f, d) end,
  function(f, d, l) return ("local s = [%s[\nlocal g = %s ]%s] local f = %s\nreturn f"):format(l, d, l, f) end,
  function(f, d, l) return ("--[%s[\nlocal g = %s ]%s] local f = %s\nreturn f"):format(l, d, l, f) end,
  function(f, d) return ("local s = %q local f = %s\nreturn f"):format("local g = " .. d, f) end,
  function(f, d) return ("local t = { %s, %s, %s }\nreturn t[2]"):format(d, f, d) end,
}

local function translate(ga, fn, t)
  local src
  if t.elementwise then
    local _, d = ga.jit.elementwisekernel(fn, { name = "fz" }):source(table.unpack(t.args, 1, t.args.n))
    src = d.preamble .. "\n" .. d.operation
  else
    src = ga.jit.rawkernel(fn, { name = "fz" }):source(table.unpack(t.args, 1, t.args.n))
  end
  -- the banners name the chunk and the line: not part of the translation
  return (src:gsub("// %-%-%-%- gpuarray%.jit:[^\n]*\n", ""))
end

-- The function alone, then beside a decoy: the same CUDA, or a gpuarray
-- error (the jit may refuse what it cannot tell apart; never translate the
-- decoy)
local function placed(t, F)
  local ga = F.ga
  local env = { jit = ga.jit, math = math, sq = function(v) return v * v end }
  local alone = load("return " .. t.text, "return " .. t.text, "t", env)
  local chunk = PLACES[t.place.form](t.text, t.place.decoy, t.place.level)
  local beside = load(chunk, chunk, "t", env)
  if not alone or not beside then return end
  local ok_a, fa = pcall(alone)
  local ok_b, fb = pcall(beside)
  if not (ok_a and ok_b and type(fa) == "function" and type(fb) == "function") then return end
  local ref_ok, ref = pcall(translate, ga, fa, t)
  local got_ok, got = pcall(translate, ga, fb, t)
  if not got_ok then error(got, 0) end
  if not ref_ok then return end
  if got ~= ref then error("fuzz: the jit translated another function than the one it was given", 0) end
  return got
end

return {
  name = "jit",
  setup = function(F)
    return { corpus = F.corpus("jit"), compiled = 0 }
  end,
  gen = function(F)
    local elementwise = F.chance(0.25)
    local nparams = math.random(0, 5)
    local text, kinds
    local r = math.random(100)
    if r <= 15 and #F.state.corpus > 0 then
      text = swap_tokens(F, F.pick(F.state.corpus))
      kinds = {}
      nparams = select(2, (text:match("^function%((.-)%)") or ""):gsub("[%w_]+", ""))
    else
      text, kinds = generate(F, nparams, elementwise)
    end
    if r > 90 then text = F.mutate(text, F.state.corpus) end
    -- the common case: one description a parameter, of the parameter's kind
    local args = { n = F.chance(0.9) and nparams or math.random(0, 6) }
    local wild = F.chance(0.1)
    for k = 1, args.n do args[k] = arg_desc(F, not wild and kinds[k] or nil) end
    -- issue 24: now and then the function shares its line with a decoy
    -- (a function with the same parameters), or its line begins inside a
    -- long string or comment holding one; the jit must translate it as it
    -- translates the function alone, or raise
    local place
    if r <= 90 and F.chance(0.2) then
      local decoy = generate(F, nparams, elementwise)
      place = { form = math.random(#PLACES), decoy = decoy:gsub("\n", " "), level = ("="):rep(math.random(0, 2)) }
      text = text:gsub("\n", " ")   -- one line each (the generated text holds no comment)
    end
    return { text = text, elementwise = elementwise, args = args, place = place }
  end,
  run = function(t, F)
    local ga = F.ga
    if t.place then return placed(t, F) end
    -- the jit's parser on the text alone (any string; a hostile one too)
    local nl = select(2, t.text:gsub("\n", "")) + 1
    parser.parse_function(t.text, 1, nl, nil, function(line, msg)
      error(("gpuarray: jit: line %d: %s"):format(line, msg), 0)
    end)
    -- the chunk is one return statement: loading it runs no statement of
    -- the text, only the expressions after `return`, in an environment
    -- that holds the jit, math and a helper function, nothing else
    local env = { jit = ga.jit, math = math, sq = function(v) return v * v end }
    local chunk = load("return " .. t.text, "return " .. t.text, "t", env)
    if not chunk then return end
    local ok, fn = pcall(chunk)
    if not ok or type(fn) ~= "function" then return end
    local src
    if t.elementwise then
      local _, d = ga.jit.elementwisekernel(fn):source(table.unpack(t.args, 1, t.args.n))
      src = d
    else
      src = ga.jit.rawkernel(fn):source(table.unpack(t.args, 1, t.args.n))
    end
    F.state.compiled = F.state.compiled + 1
    if F.state.compiled % COMPILE_EVERY ~= 0 then return end
    local cok, err
    if t.elementwise then
      cok, err = pcall(function()
        local k = ga.ElementwiseKernel(src.in_params, src.out_params, src.operation, src.name,
                                       { preamble = src.preamble })
        local dts = {}
        for dt in (src.in_params .. ", " .. src.out_params):gmatch("(%w+) %w+") do dts[#dts + 1] = dt end
        return k:compile(table.unpack(dts))
      end)
    else
      cok, err = pcall(F.core._test.compile, src, {}, 90)
    end
    if not cok then
      error("fuzz: NVRTC rejects what the jit emitted: " .. tostring(err):gsub("\n", " "):sub(1, 300), 0)
    end
  end,
}
