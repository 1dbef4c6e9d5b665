--- Shared by the specs: GPU gating and CPU references.
-- GPU-only cases are declared with helper.gpu_it: where no device exists
-- they are registered as pending (so CI reports how many it could not run).
local busted = require "busted"
local ga = require "gpuarray"

local helper = {}
helper.ga = ga
helper.gpu = ga.is_available()

function helper.gpu_it(name, fn)
  if helper.gpu then
    busted.it(name .. " #gpu", fn)
  else
    busted.pending(name .. " #gpu (needs a CUDA device)")
  end
end

--- Run a shell command; returns ok, output (stdout and stderr). The command
-- and its children run without LD_PRELOAD, so that under `make asan` the
-- compilers and tools a spec starts are not instrumented themselves.
function helper.sh(cmd)
  local p = io.popen("unset LD_PRELOAD; " .. cmd .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  return ok, out
end

--- A fresh seed per run, printed so a failure can be replayed.
local seed = tonumber(os.getenv("GPUARRAY_SEED")) or (os.time() * 1000 + math.floor(os.clock() * 1e6) % 1000)
math.randomseed(seed)
helper.seed = seed
io.stderr:write(("[spec seed %d: GPUARRAY_SEED=%d replays it]\n"):format(seed, seed))

--- Random nested table of a shape, values from gen().
function helper.random_table(shape, gen, d)
  d = d or 1
  if d > #shape then return gen() end
  local t = {}
  for i = 1, shape[d] do t[i] = helper.random_table(shape, gen, d + 1) end
  return t
end

--- Flatten a nested table in C order.
function helper.flatten(t, out)
  out = out or {}
  if type(t) ~= "table" then
    out[#out + 1] = t
    return out
  end
  for _, v in ipairs(t) do helper.flatten(v, out) end
  return out
end

--- Element-wise comparison of nested tables with a relative tolerance
-- (nil: exact). NaN equals NaN.
function helper.same(a, b, rtol, path)
  path = path or ""
  if type(a) == "table" and type(b) == "table" then
    if #a ~= #b then return false, ("%s: length %d vs %d"):format(path, #a, #b) end
    for i = 1, #a do
      local ok, why = helper.same(a[i], b[i], rtol, path .. "[" .. i .. "]")
      if not ok then return false, why end
    end
    return true
  end
  if type(a) == "number" and type(b) == "number" then
    if a ~= a and b ~= b then return true end
    if a == b then return true end
    if rtol and math.abs(a - b) <= rtol * math.max(math.abs(a), math.abs(b)) then return true end
    return false, ("%s: %s vs %s"):format(path, tostring(a), tostring(b))
  end
  if a == b then return true end
  return false, ("%s: %s vs %s"):format(path, tostring(a), tostring(b))
end

function helper.assert_same(expected, got, rtol, msg)
  local ok, why = helper.same(expected, got, rtol)
  assert(ok, msg and (msg .. ": " .. tostring(why)) or why)
end

--- An error that starts "gpuarray: " and contains the pattern (plain text).
function helper.assert_gaerror(fn, text)
  local ok, err = pcall(fn)
  assert(not ok, "expected an error")
  err = tostring(err)
  assert(err:sub(1, 10) == "gpuarray: ", "error does not start with 'gpuarray: ': " .. err)
  if text then assert(err:find(text, 1, true), ("error %q lacks %q"):format(err, text)) end
  return err
end

--- Run fn(...) with Lua's warn() captured: returns the messages warned (a
-- list, in order) and then pcall's results. The library's warn is _G.warn:
-- busted runs each spec file in an environment of its own, so a spec that
-- assigns `warn = ...` only shadows it there and sees no warning.
function helper.capture_warnings(fn, ...)
  local got, old = {}, _G.warn
  _G.warn = function(...) got[#got + 1] = table.concat({ ... }) end
  local res = table.pack(pcall(fn, ...))
  _G.warn = old
  return got, table.unpack(res, 1, res.n)
end

--- Shape of a nested table.
function helper.shape_of(t)
  local s = {}
  while type(t) == "table" do
    s[#s + 1] = #t
    t = t[1]
  end
  return s
end

--- float16 rounding of a double (round to nearest even), for references.
function helper.to_half(x)
  if x ~= x or x == math.huge or x == -math.huge then return x end
  local a = math.abs(x)
  if a >= 65520 then return x > 0 and math.huge or -math.huge end
  local function rne(v)
    local f = math.floor(v)
    local r = v - f
    if r > 0.5 or (r == 0.5 and f % 2 == 1) then f = f + 1 end
    return f
  end
  local q
  if a < 2 ^ -14 then
    q = rne(a * 2 ^ 24) / 2 ^ 24
  else
    local e = math.floor(math.log(a, 2))     -- a = m * 2^e, m in [1, 2)
    while 2.0 ^ e > a do e = e - 1 end
    while 2.0 ^ (e + 1) <= a do e = e + 1 end
    q = rne(a / 2.0 ^ e * 1024) / 1024 * 2.0 ^ e
  end
  if x < 0 or (x == 0 and 1 / x < 0) then q = -q end
  return q
end

--- float32 rounding of a double, through string.pack.
function helper.to_f32(x)
  return (string.unpack("<f", string.pack("<f", x)))
end

return helper
