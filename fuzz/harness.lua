--- The fuzzing harness: random and mutated inputs for one target, each call
-- checked to succeed or raise a "gpuarray: " error. Run by fuzz/run (make
-- fuzz) under the sanitized module; by hand:
--   LUA_PATH="lua/?.lua;lua/?/init.lua;fuzz/?.lua;;" LUA_CPATH="build/?.so;;" \
--     lua5.4 fuzz/harness.lua fuzz/index_fuzz.lua 10
-- Environment: FUZZ_SEED (replay a run), FUZZ_SAVE=path (write each input
-- there before the call: fuzz/run replays a crashed seed with it to keep the
-- input that crashed), FUZZ_STRICT=0 (luaL_check* messages, "bad argument #2
-- to 'x'", are counted apart instead of being findings; a target that
-- drives test hooks with internal arguments sets lax_argcheck itself).
local internal = require("gpuarray.internal")
local ga = require "gpuarray"

local F = { ga = ga, core = ga._core }

-- ===================================================================
-- values
-- ===================================================================

local INTS = {
  0, 1, -1, 2, 3, -2, 7, 8, 16, 31, 32, 33, 63, 64, 127, 128, 255, 256, -128, -129,
  1 << 15, 1 << 16, (1 << 31) - 1, 1 << 31, -(1 << 31), (1 << 32) - 1, 1 << 32, 1 << 40,
  1 << 53, (1 << 53) + 1, 1 << 62, (1 << 62) + 1, math.maxinteger, math.mininteger,
  math.maxinteger - 1, math.mininteger + 1, -(1 << 62),
}
local FLOATS = {
  0.0, -0.0, 0.5, -0.5, 1.0, 1.5, 2.0, -1.0, 1e-300, 5e-324, 1e300, -1e300, 1 / 0, -1 / 0, 0 / 0,
  2.0 ^ 31, 2.0 ^ 32, 2.0 ^ 53, 2.0 ^ 62, 2.0 ^ 63, -2.0 ^ 63, 2.0 ^ 64, 65504.0, 65520.0, 3.4028235e38,
  3.5e38, 1e20, 2.5, -2.5, 1e-8,
}
local DTYPES = ga.dtype_names()
local WORDS = {
  "", " ", "float32", "T", "raw", "x", "y", "i", "n", "_x", "const", "*", "&", ",", "(", ")", "<", ">",
  "::", "\0", "float", "int", "unsigned", "long", "__global__", "void", "template", "typename",
  "extern \"C\"", "//", "/*", "*/", "#", "\"", "'", "{", "}", ";", "[", "]", "\n", "complex<float>",
  ("a"):rep(200), ("9"):rep(25), "-", ".", "True", "False", "None",
  -- issue 24: bytes that are not UTF-8, unbalanced brackets, raw strings, long brackets
  "\255", "\192\128", "\237\160\128", "\1", "((", "))", "<<", ">>", "[[", "]]", "R\"x(", ")x\"", "--[[",
}

function F.chance(p) return math.random() < p end
function F.pick(list) return list[math.random(#list)] end

function F.int()
  local r = math.random()
  if r < 0.5 then return math.random(-4, 12) end
  local v = F.pick(INTS)
  if F.chance(0.2) then v = v + math.random(-2, 2) end   -- wraps at the ends, as intended
  return v
end

function F.float()
  if F.chance(0.3) then return math.random() * 20 - 10 end
  return F.pick(FLOATS)
end

function F.number()
  return F.chance(0.6) and F.int() or F.float()
end

function F.word() return F.pick(WORDS) end

function F.dtype()
  local r = math.random()
  if r < 0.8 then return F.pick(DTYPES) end
  if r < 0.9 then return ga.dtype(F.pick(DTYPES)) end
  return F.word()
end

--- A shape; zero_size: with a 0 somewhere (arrays of it need no device)
function F.shape(zero_size)
  local nd = F.chance(0.05) and math.random(0, 34) or math.random(0, 4)
  local s = {}
  for d = 1, nd do
    s[d] = F.chance(0.7) and math.random(0, 5) or F.int()
  end
  if zero_size then
    if nd == 0 then s[1] = 0 else s[math.random(nd)] = 0 end
  end
  return s
end

--- A zero-size array (made on the host: no device memory), or nil when the
-- random shape is refused
function F.array()
  local shape = F.shape(true)
  for d = 1, #shape do if shape[d] < 0 then shape[d] = -shape[d] end end
  local ok, x = pcall(ga.empty, shape, F.pick(DTYPES))
  if ok then
    if F.chance(0.3) then
      local ok2, v = pcall(function() return x:transpose() end)
      if ok2 then x = v end
    end
    return x
  end
  return ga.empty({ 0 }, F.pick(DTYPES))
end

function F.scalar()
  local dt = F.pick(DTYPES)
  local ok, s = pcall(ga[dt], F.number())
  if ok then return s end
  return ga.float32(1)
end

-- A user's own error, raised from a metamethod: it must come back unchanged
F.USER_ERROR = setmetatable({}, { __tostring = function() return "the user's own error" end })

local function weird_table()
  local r = math.random(4)
  if r == 1 then return setmetatable({}, { __len = function() return F.int() end }) end
  if r == 2 then return setmetatable({}, { __index = function() error(F.USER_ERROR) end }) end
  if r == 3 then return setmetatable({ 1, 2 }, { __index = function(_, k) return k end }) end
  return { [1.5] = 1, [0] = 2, [-1] = 3, x = 4 }
end

--- Any Lua value (depth bounds the nesting of tables)
function F.any(depth)
  depth = depth or 2
  local r = math.random(100)
  if r <= 25 then return F.int()
  elseif r <= 37 then return F.float()
  elseif r <= 45 then return F.dtype()
  elseif r <= 50 then return F.word()
  elseif r <= 53 then return nil
  elseif r <= 56 then return F.chance(0.5)
  elseif r <= 68 then return F.array()
  elseif r <= 73 then return F.scalar()
  elseif r <= 75 then return F.pick({ ga.newaxis, ga.ellipsis })
  elseif r <= 76 then return io.stdout
  elseif r <= 77 then return print
  elseif r <= 79 then return weird_table()
  elseif depth > 0 then
    local t = {}
    for i = 1, math.random(0, 4) do t[i] = F.any(depth - 1) end
    if F.chance(0.2) then t[F.pick({ "dtype", "out", "axis", "keepdims", "order", "copy" })] = F.any(depth - 1) end
    return t
  end
  return 0
end

--- Does v (a string, or a list of strings one level deep) hold a NUL byte?
-- A C string made from it would be cut short: whatever takes it must raise
function F.has_nul(v)
  if type(v) == "string" then return v:find("\0", 1, true) ~= nil end
  if type(v) == "table" and not getmetatable(v) then
    for _, x in pairs(v) do
      if type(x) == "string" and x:find("\0", 1, true) then return true end
    end
  end
  return false
end

--- A list of n values from gen (nils kept: the list's length is n)
function F.args(n, gen)
  local t = { n = n }
  for i = 1, n do t[i] = gen() end
  return t
end

-- ===================================================================
-- strings: byte mutations of corpus entries
-- ===================================================================

function F.mutate(s, corpus)
  for _ = 1, math.random(1, 4) do
    local r = math.random(8)
    local n = #s
    local p = math.random(0, n)
    if r == 1 and n > 0 then                       -- flip a byte
      local b = s:byte(math.max(p, 1)) ~ (1 << math.random(0, 7))
      s = s:sub(1, math.max(p, 1) - 1) .. string.char(b) .. s:sub(math.max(p, 1) + 1)
    elseif r == 2 then                             -- insert a random byte
      s = s:sub(1, p) .. string.char(math.random(0, 255)) .. s:sub(p + 1)
    elseif r == 3 and n > 0 then                   -- delete a range
      local q = math.min(n, p + math.random(0, 8))
      s = s:sub(1, p) .. s:sub(q + 1)
    elseif r == 4 then                             -- insert a token
      s = s:sub(1, p) .. F.word() .. s:sub(p + 1)
    elseif r == 5 then                             -- insert a number
      s = s:sub(1, p) .. tostring(F.number()) .. s:sub(p + 1)
    elseif r == 6 and corpus and #corpus > 0 then  -- splice another entry
      local o = F.pick(corpus)
      local q = math.random(0, #o)
      s = s:sub(1, p) .. o:sub(q + 1)
    elseif r == 7 and n > 0 then                   -- duplicate a range
      local q = math.min(n, p + math.random(1, 16))
      s = s:sub(1, q) .. s:sub(p + 1, q) .. s:sub(q + 1)
    else                                           -- truncate
      s = s:sub(1, p)
    end
  end
  return s
end

--- The corpus of a target: fuzz/corpus/<name>.txt, one %q-style Lua string
-- literal or expression per line ("--" lines are comments)
function F.corpus(name)
  local out = {}
  local f = io.open("fuzz/corpus/" .. name .. ".txt", "rb")
  if not f then return out end
  for line in f:lines() do
    if line ~= "" and not line:match("^%-%-") then
      local chunk = load("return " .. line, "=corpus", "t", { math = math, ga = ga })
      local ok, v = pcall(chunk)
      if ok then out[#out + 1] = v end
    end
  end
  f:close()
  return out
end

-- ===================================================================
-- showing inputs (a replayable Lua expression)
-- ===================================================================

local function show(v, depth)
  depth = depth or 0
  local t = type(v)
  if t == "string" then return ("%q"):format(v):gsub("\\\n", "\\n") end
  if math.type(v) == "integer" then
    if v == math.mininteger then return "math.mininteger" end
    return tostring(v)
  end
  if t == "number" then
    if v ~= v then return "0/0" end
    if v == 1 / 0 then return "1/0" end
    if v == -1 / 0 then return "-1/0" end
    return ("%.17g"):format(v)
  end
  if t == "userdata" then
    if internal.is_array(v) then return ("ga.empty(%s, %q)"):format(show(v.shape), v.dtype) end
    if v == ga.newaxis then return "ga.newaxis" end
    if v == ga.ellipsis then return "ga.ellipsis" end
    return "<" .. tostring(v) .. ">"
  end
  if t == "table" then
    if depth > 6 then return "{...}" end
    if getmetatable(v) then return "<table with a metatable>" end
    local parts = {}
    local n = math.type(v.n) == "integer" and v.n >= 0 and v.n <= 64 and v.n or #v
    for i = 1, n do parts[#parts + 1] = show(v[i], depth + 1) end
    for k, x in pairs(v) do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) and k ~= "n" then
        parts[#parts + 1] = "[" .. show(k, depth + 1) .. "] = " .. show(x, depth + 1)
      end
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(v)
end
F.show = show

-- ===================================================================
-- the loop
-- ===================================================================

local function classify(ok, err, lax)
  if ok or err == F.USER_ERROR then return "ok" end
  if type(err) == "string" and err:find("^gpuarray: ") then return "error" end
  if (lax or os.getenv("FUZZ_STRICT") == "0") and type(err) == "string" and err:find("bad argument #%d+ to '") then
    return "argcheck"     -- luaL_check* wording (src/base/args.c's checks give the prefix)
  end
  return "finding"
end

local function main(target_file, seconds)
  local target = dofile(target_file)
  local name = target.name
  local seed = tonumber(os.getenv("FUZZ_SEED")) or (os.time() * 1000 + math.floor(os.clock() * 1e6) % 1000)
  math.randomseed(seed)
  io.stdout:write(("fuzz %s: seed %d\n"):format(name, seed))
  io.stdout:flush()
  local save = os.getenv("FUZZ_SAVE")
  local max_findings = 20
  local counts = { ok = 0, error = 0, argcheck = 0, finding = 0 }
  local seen = {}
  local deadline = os.time() + seconds
  local iter = 0
  F.state = target.setup and target.setup(F) or nil
  while os.time() < deadline do
    for _ = 1, 50 do
      iter = iter + 1
      local input = target.gen(F)
      if save then
        local f = io.open(save, "wb")
        f:write(("-- fuzz %s seed %d call %d\n%s\n"):format(name, seed, iter, show(input)))
        f:close()
      end
      -- Lua-side hangs end here; C-side ones end at fuzz/run's timeout
      debug.sethook(function() error("fuzz: the call ran past 10^8 instructions", 0) end, "", 100000000)
      local ok, err = pcall(target.run, input, F)
      debug.sethook()
      local kind = classify(ok, err, target.lax_argcheck)
      counts[kind] = counts[kind] + 1
      if kind == "finding" then
        local msg = tostring(err):gsub("\n.*", "")
        local sig = msg:gsub("%d+", "N")
        if not seen[sig] then
          seen[sig] = true
          io.stdout:write(("FINDING %s call %d: %s\n  input: %s\n"):format(name, iter, msg, show(input)))
        end
        if counts.finding >= max_findings then deadline = 0 break end
      end
      if iter % 200 == 0 then collectgarbage() end
    end
  end
  if target.teardown then target.teardown(F) end
  io.stdout:write(("fuzz %s: %d calls, %d succeeded, %d gpuarray errors, %d luaL_check messages, %d findings\n")
    :format(name, iter, counts.ok, counts.error, counts.argcheck, counts.finding))
  os.exit(counts.finding == 0 and 0 or 1)
end

if arg and arg[0] and arg[0]:match("harness%.lua$") then
  main(arg[1], tonumber(arg[2]) or 10)
end
return F
