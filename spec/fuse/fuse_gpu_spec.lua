-- ga.fuse on the GPU: a fused function equals the same function run
-- eagerly (same dtype, same shape, the same values bit for bit) for random
-- expressions over every dtype family with broadcasting and Lua scalars,
-- and for fused reductions; each fused call is one kernel call.
local internal = require("gpuarray.internal")
local helper = require "helper"
local R = require "ndref"
local ga = helper.ga
local gpu_it = helper.gpu_it

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }
local SHAPES_Y = { { 4 }, { 3, 1 }, { 3, 4 }, {}, { 1, 4 } }

local function rand_array(dt, shape)
  local n = R.size(shape)
  local lo, hi
  if R.KIND[dt] == "f" or R.KIND[dt] == "c" then lo, hi = -2, 2 end
  if R.KIND[dt] == "i" then lo, hi = -20, 20 end
  if R.KIND[dt] == "u" then lo, hi = 0, 40 end
  local A = { shape = shape, data = R.rand_list(n, dt, lo, hi) }
  return R.to_gpu(A, dt)
end

-- Fused results should equal eager ones bit for bit (each intermediate is
-- rounded to its eager dtype, and no FMA reaches across operations). Where
-- the compiler could still round differently, "fusion changes float
-- rounding": floats within 4 ulps, and an integer or boolean derived from
-- such a float may flip in a few elements. The counts are printed.
local ULP = { float16 = 2 ^ -10, float32 = 2 ^ -23, float64 = 2 ^ -52, complex64 = 2 ^ -23, complex128 = 2 ^ -52 }
local stats = { exact = 0, close = 0 }

local function same_result(fused, eager, what)
  assert.are.equal(eager.dtype, fused.dtype, what .. ": dtype")
  assert.are.same(eager.shape, fused.shape, what .. ": shape")
  local e, f = eager:totable(), fused:totable()
  local ef, ff = helper.flatten(e), helper.flatten(f)
  local nan = false
  for _, v in ipairs(ef) do
    if v ~= v then nan = true end
  end
  if helper.same(e, f) and (nan or eager:tobytes() == fused:tobytes()) then
    stats.exact = stats.exact + 1
    return
  end
  local ulp = ULP[fused.dtype]
  local bad, worst = 0, 0
  for i = 1, #ef do
    local a, b = ef[i], ff[i]
    if ulp then
      local scale = math.max(math.abs(a), math.abs(b), 1)
      local ok = (a ~= a and b ~= b) or a == b or math.abs(a - b) <= 4 * ulp * scale
      if not ok then bad = bad + 1 end
      if a == a and b == b and a ~= b then worst = math.max(worst, math.abs(a - b) / scale / ulp) end
    elseif a ~= b then
      bad = bad + 1
    end
  end
  local allowed = ulp and 0 or math.ceil(#ef / 50)
  assert(bad <= allowed, ("%s: %d of %d elements differ (worst %.1f ulp)"):format(what, bad, #ef, worst))
  stats.close = stats.close + 1
  print(("  not bit for bit (within %.1f ulp, %d flips): %s"):format(worst, ulp and 0 or bad, what))
end

local LEAVES = { "x", "y", "s", "2", "0.5", "3", "1.25", "x", "y" }
local OPS = {
  "ga.sin(%s)", "ga.exp(%s)", "ga.abs(%s)", "ga.sqrt(%s)", "(-%s)", "ga.square(%s)", "ga.tanh(%s)", "ga.log1p(%s)",
  "ga.floor(%s)", "ga.sign(%s)", "ga.logical_not(%s)", "ga.isnan(%s)", "ga.conj(%s)", "ga.real(%s)", "ga.cos(%s)",
  "(~%s)", "(%s):astype('float32')", "(%s):astype('int16')", "ga.clip(%s, -1, 1)", "ga.clip(%s, 0, nil)",
  "(%s + %s)", "(%s - %s)", "(%s * %s)", "(%s / %s)", "(%s // %s)", "(%s %% %s)", "(%s ^ %s)", "(%s & %s)",
  "(%s | %s)", "(%s ~ %s)", "ga.maximum(%s, %s)", "ga.minimum(%s, %s)", "ga.fmod(%s, %s)", "ga.arctan2(%s, %s)",
  "ga.hypot(%s, %s)", "ga.logical_and(%s, %s)", "(%s):lt(%s)", "(%s):ge(%s)", "ga.where((%s):gt(%s), %s, %s)",
  "(%s + %s * %s)", "ga.power(%s, %s)",
}

local function random_expr(depth)
  if depth == 0 or math.random() < 0.2 then return LEAVES[math.random(#LEAVES)] end
  local op = OPS[math.random(#OPS)]
  local n = select(2, op:gsub("%%s", ""))
  local args = {}
  for i = 1, n do args[i] = random_expr(depth - 1) end
  return op:format(table.unpack(args))
end

local function make_fn(src)
  return assert(load("local ga = ...; return function(x, y, s) return " .. src .. " end", "=expr", "t"))(ga)
end

describe("fused equals eager", function()
  gpu_it("for 50 random expressions over every dtype family, broadcasting and Lua scalars", function()
    local done, tries = 0, 0
    local families = {}
    while done < 50 do
      tries = tries + 1
      assert(tries < 20000, "could not generate expressions")
      local dx = DTYPES[done % #DTYPES + 1]
      local dy = math.random() < 0.6 and dx or DTYPES[math.random(#DTYPES)]
      local sy = SHAPES_Y[math.random(#SHAPES_Y)]
      local s = math.random() < 0.5 and math.random(0, 3) or 0.5 + math.random() * 1.5
      local src = random_expr(math.random(1, 3))
      local fn = make_fn(src)
      local f = ga.fuse(fn)
      if src:find("[xy]") and pcall(f._trace, f, { dtype = dx, ndim = 2 }, { dtype = dy, ndim = #sy }, s) then
        local x, y = rand_array(dx, { 3, 4 }), rand_array(dy, sy)
        local what = ("%s with x %s, y %s%s, s = %s"):format(src, dx, dy, internal.shape_str(sy), tostring(s))
        local ok, eager = pcall(fn, x, y, s)
        assert(ok, what .. ": the eager call failed: " .. tostring(eager))
        local fused = f(x, y, s)
        same_result(fused, eager, what)
        local fused2 = f(x, y, s)    -- the cached kernel
        same_result(fused2, eager, what .. " (again)")
        done = done + 1
        families[R.KIND[dx]] = (families[R.KIND[dx]] or 0) + 1
      end
    end
    for _, k in ipairs { "b", "i", "u", "f", "c" } do assert.is_true((families[k] or 0) > 0, k) end
    print(("  fused == eager: %d bit for bit, %d within rounding, of %d results"):format(stats.exact, stats.close,
      stats.exact + stats.close))
  end)

  gpu_it("for 10 fused reductions (axes, keepdims, post-ops with a scalar, float16, dtype=)", function()
    local cases = {
      { function(x, y) return ga.sum(x * y) end, "float32", "float32", { 5, 6 } },
      { function(x) return x:sum(2) end, "int8", nil, { 4, 7 } },
      { function(x) return ga.prod(x % 3 + 1, { axis = 1 }) end, "int32", nil, { 5, 3 } },
      { function(x, y) return ga.max(ga.abs(x - y), { axis = 1, keepdims = true }) end, "float64", "float64",
        { 6, 5 } },
      { function(x, _, s) return ga.min(x * s) end, "float16", nil, { 8, 8 } },
      { function(x) return ga.all(x:gt(-1.5)) end, "float32", nil, { 3, 9 } },
      { function(x, y) return ga.any(x:lt(y), { axis = 2 }) end, "int16", "int16", { 4, 6 } },
      { function(x) return (x * 2):mean() end, "float16", nil, { 6, 10 } },
      { function(x, _, s) return ga.sqrt(ga.sum(x * x, { axis = 2 })) * s end, "float32", nil, { 7, 33 } },
      { function(x) return ga.mean(x:astype("float64"), { axis = { 1, 3 } }) end, "uint8", nil, { 3, 4, 5 } },
    }
    for k, c in ipairs(cases) do
      local fn, dx, dy, shape = c[1], c[2], c[3], c[4]
      local x = rand_array(dx, shape)
      local y = dy and rand_array(dy, shape) or ga.zeros(1)
      local s = 0.5 + math.random()
      local f = ga.fuse(fn)
      same_result(f(x, y, s), fn(x, y, s), ("reduction %d (%s)"):format(k, dx))
    end
  end)

  gpu_it("the examples' functions: softplus and tanh(sin(x) + 0.1 * x)", function()
    local softplus = function(x) return ga.log1p(ga.exp(x)) end
    local chain = function(x) return ga.tanh(ga.sin(x) + 0.1 * x) end
    for _, dt in ipairs { "float16", "float32", "float64" } do
      local x = rand_array(dt, { 1000 })
      same_result(ga.fuse(softplus)(x), softplus(x), "softplus " .. dt)
      same_result(ga.fuse(chain)(x), chain(x), "chain " .. dt)
    end
  end)

  gpu_it("Lua numbers only, several results, shapes that cannot agree", function()
    local f = ga.fuse(function(s, t) return ga.sin(s) * t end)
    local r = f(2, 0.5)
    same_result(r, ga.sin(2) * 0.5, "scalars")
    local two = ga.fuse(function(x, y) return x + y, x * y, ga.exp(x) end)
    local x, y = rand_array("float32", { 3, 4 }), rand_array("float32", { 4 })
    local a, b, c = two(x, y)
    same_result(a, x + y, "first")
    same_result(b, x * y, "second")
    same_result(c, ga.exp(x), "third")
    local bad = ga.fuse(function(p, q) return p + 1, q + 1 end)
    helper.assert_gaerror(function() bad(rand_array("float32", { 3 }), rand_array("float32", { 4, 3 })) end,
      "different shapes")
    local u = ga.fuse(function(p, s) return p + s end)
    helper.assert_gaerror(function() u(rand_array("uint8", { 3 }), -1) end, "Lua integer -1 does not fit uint8")
  end)
end)

describe("a fused call", function()
  gpu_it("is one kernel call, with no eager ufunc call, after the first trace", function()
    local real = ga.ElementwiseKernel
    local calls = 0
    ga.ElementwiseKernel = function(...)
      local k = real(...)
      return setmetatable({}, { __call = function(_, ...)
        calls = calls + 1
        return k(...)
      end })
    end
    local f = ga.fuse(function(a, b) return ga.tanh(ga.sin(a) + 0.1 * b) * (a - b) end)
    local ok, err = pcall(function()
      local x, y = rand_array("float32", { 100 }), rand_array("float32", { 100 })
      f(x, y)
      local umt = getmetatable(ga.add)
      local ucall = umt.__call
      local eager = 0
      umt.__call = function(...)
        eager = eager + 1
        return ucall(...)
      end
      local n0 = calls
      for _ = 1, 5 do f(x, y) end
      umt.__call = ucall
      assert.are.equal(5, calls - n0)
      assert.are.equal(0, eager)
    end)
    ga.ElementwiseKernel = real
    assert(ok, err)
  end)
end)
