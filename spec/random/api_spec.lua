-- ga.random's API: seeding and reproducibility, shapes and dtypes, integer
-- ranges to both ends (wide int64 ranges too), permutations, choice,
-- RandomState objects, Generators and the per-state module functions.
local helper = require "helper"
local ga = helper.ga

local function sorted(t)
  local c = table.move(t, 1, #t, 1, {})
  table.sort(c)
  return c
end

describe("random: API", function()
  it("exists with NumPy's names, without a GPU too", function()
    for _, name in ipairs({ "seed", "rand", "random", "random_sample", "randn", "standard_normal", "uniform",
                            "normal", "randint", "choice", "permutation", "shuffle", "lognormal", "exponential",
                            "poisson", "binomial", "gamma", "beta", "RandomState", "default_rng" }) do
      assert.are.equal("function", type(ga.random[name]), name)
    end
    local g = ga.random.default_rng(123)
    for _, name in ipairs({ "random", "standard_normal", "normal", "uniform", "integers", "choice", "permutation",
                            "shuffle", "exponential", "poisson" }) do
      assert.are.equal("function", type(g[name]), name)
    end
    assert.are.equal(g, ga.random.default_rng(g))
    assert.matches("^Generator", tostring(g))
    assert.matches("^RandomState", tostring(ga.random.RandomState(1)))
  end)

  helper.gpu_it("the same seed gives equal arrays, other seeds and successive calls differ", function()
    local s = helper.seed
    for _, f in ipairs({
      function(r) return r:random({ 64, 3 }, "float32") end,
      function(r) return r:standard_normal(1001) end,
      function(r) return r:randint(0, 1 << 40, 257) end,
      function(r) return r:gamma(2.5, 1, 99) end,
      function(r) return r:permutation(500) end,
    }) do
      local a, b, c = f(ga.random.RandomState(s)), f(ga.random.RandomState(s)), f(ga.random.RandomState(s + 1))
      assert.is_true(ga.array_equal(a, b))
      assert.is_false(ga.array_equal(a, c))
      local r = ga.random.RandomState(s)
      assert.is_false(ga.array_equal(f(r), f(r)))
    end
    ga.random.seed(s)
    local m1 = ga.random.rand(5, 7)
    ga.random.seed(s)
    local m2 = ga.random.rand(5, 7)
    assert.is_true(ga.array_equal(m1, m2))
    assert.are.same({ 5, 7 }, m1.shape)
    assert.are.equal("float64", m1.dtype)
    assert.is_false(ga.array_equal(m1, ga.random.rand(5, 7)))
    local g1, g2 = ga.random.default_rng(123), ga.random.default_rng(123)
    assert.is_true(ga.array_equal(g1:random(100, "float32"), g2:random(100, "float32")))
  end)

  helper.gpu_it("shapes and dtypes: nil size is 0-d, lists, rand's dimensions, options tables", function()
    local r = ga.random.RandomState(1)
    assert.are.same({}, r:random().shape)
    assert.are.same({ 2, 3, 4 }, r:standard_normal({ 2, 3, 4 }, ga.float32).shape)
    assert.are.equal("float32", r:standard_normal(3, { dtype = "float32" }).dtype)
    assert.are.equal("float32", ga.random.randn(2, 2, "float32").dtype)
    assert.are.equal("int64", r:randint(0, 5, 3).dtype)
    assert.are.equal("int64", r:poisson(3, 3).dtype)
    assert.are.same({ 0 }, r:random(0).shape)
    local u = r:uniform(ga.zeros(4), ga.full(4, 2.0))
    assert.are.same({ 4 }, u.shape)
    for _, v in ipairs(u:totable()) do assert.is_true(v >= 0 and v < 2) end
    local n = r:normal(ga.array({ 100, -100 }), 0.001, { 1000, 2 })
    local m = n:mean(1):totable()
    assert.is_true(math.abs(m[1] - 100) < 0.01 and math.abs(m[2] + 100) < 0.01)
  end)

  helper.gpu_it("randint and integers reach both ends of their range", function()
    local r = ga.random.RandomState(helper.seed)
    local x = r:randint(-3, 4, 10000, "int8")
    assert.are.equal(-3, x:min():item())
    assert.are.equal(3, x:max():item())
    local g = ga.random.default_rng(helper.seed)
    local y = g:integers(0, 1, 1000, { endpoint = true })
    assert.are.equal(0, y:min():item())
    assert.are.equal(1, y:max():item())
    -- full int32 range, then an int64 range wider than 2^32
    local z = r:randint(-2147483648, 2147483647, 1 << 20, "int32")
    assert.is_true(z:min():item() < -2147000000 and z:max():item() > 2147000000)
    local lo, hi = -(1 << 40), (1 << 40)
    local w = r:randint(lo, hi, 1 << 20)
    assert.is_true(w:min():item() >= lo and w:max():item() < hi)
    assert.is_true(w:min():item() < lo + (1 << 33) and w:max():item() > hi - (1 << 33))
    local ends = g:integers(lo, lo + (1 << 33), 1 << 16, { endpoint = true })
    assert.is_true(ends:min():item() >= lo and ends:max():item() <= lo + (1 << 33))
    -- a wide range with only its two ends: both appear
    local two = r:randint(math.mininteger, math.maxinteger, 4096)
    assert.is_true(two:min():item() < -(1 << 61) and two:max():item() > (1 << 61))
    local b = r:randint(5, 7, 4000, "uint64")
    assert.are.equal(5, b:min():item())
    assert.are.equal(6, b:max():item())
  end)

  helper.gpu_it("permutation is a permutation; shuffle permutes rows in place", function()
    local r = ga.random.RandomState(helper.seed)
    for _, n in ipairs({ 1, 2, 3, 17, 1000, 4097 }) do
      local p = r:permutation(n)
      assert.are.equal("int64", p.dtype)
      local s = sorted(p:totable())
      for i = 1, n do assert.are.equal(i - 1, s[i]) end
    end
    local x = ga.arange(30):reshape(10, 3)
    local y = r:permutation(x)
    local rows = {}
    for _, row in ipairs(y:totable()) do
      assert.are.equal(row[1] + 1, row[2])
      rows[#rows + 1] = row[1] // 3
    end
    local s = sorted(rows)
    for i = 1, 10 do assert.are.equal(i - 1, s[i]) end
    local v = ga.arange(100, "float32")
    r:shuffle(v)
    assert.is_false(ga.array_equal(v, ga.arange(100, "float32")))
    s = sorted(v:totable())
    for i = 1, 100 do assert.are.equal(i - 1, s[i]) end
  end)

  helper.gpu_it("choice: with and without replacement, from values, with weights", function()
    local r = ga.random.RandomState(helper.seed)
    local c = r:choice(50, 50, false)
    local s = sorted(c:totable())
    for i = 1, 50 do assert.are.equal(i - 1, s[i]) end
    local d = r:choice(1000, { size = 300, replace = false }):totable()
    local seen = {}
    for _, v in ipairs(d) do
      assert.is_nil(seen[v])
      assert.is_true(v >= 0 and v < 1000)
      seen[v] = true
    end
    local vals = ga.array({ 10, 20, 30 }, "float32")
    local e = r:choice(vals, { 4, 5 })
    assert.are.same({ 4, 5 }, e.shape)
    assert.are.equal("float32", e.dtype)
    for _, v in ipairs(helper.flatten(e:totable())) do assert.is_true(v == 10 or v == 20 or v == 30) end
    local w = r:choice(4, 100000, true, { 0.1, 0.0, 0.6, 0.3 }):astype("float64")
    local cnt = {}
    for k = 0, 3 do cnt[k] = w:eq(k):astype("float64"):sum():item() / 100000 end
    assert.are.equal(0, cnt[1])
    assert.is_true(math.abs(cnt[0] - 0.1) < 0.01 and math.abs(cnt[2] - 0.6) < 0.01 and math.abs(cnt[3] - 0.3) < 0.01)
    helper.assert_gaerror(function() r:choice(3, 4, false) end, "larger sample")
    helper.assert_gaerror(function() r:choice(3, 2, true, { 0.5, 0.2, 0.2 }) end, "sum to 1")
  end)

  helper.gpu_it("the seeds' lines: random(..., dtype=float32) and default_rng(123)", function()
    local a = ga.random.random({ 1000, 1000 }, "float32")
    assert.are.equal("float32", a.dtype)
    assert.are.same({ 1000, 1000 }, a.shape)
    local rng = ga.random.default_rng(123)
    local x = rng:standard_normal(1000)
    assert.are.equal("float64", x.dtype)
    assert.is_true(math.abs(x:mean():item()) < 0.2)
  end)
end)
