--- The distributions of random/distributions.lua: Kolmogorov-Smirnov tests
-- against CDFs written here in Lua, moments against the known ones (4
-- standard errors, spec/random/stats.lua), parameter checks, and
-- reproducibility (the same seed and state give the same bits, whatever
-- the size of the draw).
local helper = require "helper"
local ga = helper.ga
local S = require "random.stats"
local internal = require "gpuarray.internal"

-- KS statistic of a sample (read to the host) against a Lua CDF
local function ks(x, cdf)
  local t = x:astype("float64"):totable()
  table.sort(t)
  local n, d = #t, 0
  for i, v in ipairs(t) do
    local f = cdf(v)
    d = math.max(d, math.abs(f - i / n), math.abs(f - (i - 1) / n))
  end
  return d, n
end
local function check_ks(draw, cdf, what)
  local d, n = ks(draw(), cdf)
  local crit = 1.628 / math.sqrt(n)
  if d < crit then return end
  local d2 = ks(draw(), cdf)
  assert(d2 < crit, ("%s: KS D = %g then %g >= %g (seed %d)"):format(what, d, d2, crit, helper.seed))
end

-- the regularized lower incomplete gamma P(a, x) (series / continued fraction)
local function lgamma(z)
  local g = { 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
              12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7 }
  if z < 0.5 then return math.log(math.pi / math.abs(math.sin(math.pi * z))) - lgamma(1 - z) end
  z = z - 1
  local a, t = 0.99999999999980993, z + 7.5
  for i = 1, 8 do a = a + g[i] / (z + i) end
  return 0.5 * math.log(2 * math.pi) + (z + 0.5) * math.log(t) - t + math.log(a)
end
local function gammp(a, x)
  if x <= 0 then return 0 end
  if x < a + 1 then
    local sum, del, ap = 1 / a, 1 / a, a
    for _ = 1, 1000 do
      ap = ap + 1
      del = del * x / ap
      sum = sum + del
      if math.abs(del) < math.abs(sum) * 1e-15 then break end
    end
    return sum * math.exp(-x + a * math.log(x) - lgamma(a))
  end
  local b, c, d = x + 1 - a, 1 / 1e-300, 1 / (x + 1 - a)
  local h = d
  for i = 1, 1000 do
    local an = -i * (i - a)
    b = b + 2
    d = an * d + b
    if math.abs(d) < 1e-300 then d = 1e-300 end
    c = b + an / c
    if math.abs(c) < 1e-300 then c = 1e-300 end
    d = 1 / d
    local del = d * c
    h = h * del
    if math.abs(del - 1) < 1e-15 then break end
  end
  return 1 - math.exp(-x + a * math.log(x) - lgamma(a)) * h
end

local N = 20000
local function rs() return ga.random.RandomState(helper.seed) end

describe("random: more distributions", function()
  it("compiles the stream kernels (their shared device code and a few expressions)", function()
    -- the device code is one preamble: one compile checks all of it; these
    -- cover a float, an integer and a three-parameter expression (the GPU
    -- specs run every one)
    local k = internal.random_kernels({ vonmises = true, hypergeometric = true, noncentral_f = true })
    assert.is_not_nil(k.vonmises)
    assert.is_not_nil(k.hypergeometric)
    assert.is_not_nil(k.multinomial)
  end)

  it("checks parameters before drawing", function()
    local r = ga.random
    helper.assert_gaerror(function() r.standard_t(0) end, "df <= 0")
    helper.assert_gaerror(function() r.chisquare(-1) end, "df <= 0")
    helper.assert_gaerror(function() r.laplace(0, -1) end, "scale < 0")
    helper.assert_gaerror(function() r.zipf(1) end, "a <= 1")
    helper.assert_gaerror(function() r.geometric(0) end, "p <= 0")
    helper.assert_gaerror(function() r.triangular(2, 1, 3) end, "left > mode")
    helper.assert_gaerror(function() r.hypergeometric(2, 3, 6) end, "ngood + nbad < nsample")
    helper.assert_gaerror(function() r.logseries(1) end, "p < 0, p >= 1")
    helper.assert_gaerror(function() r.wald(0, 1) end, "mean <= 0")
    helper.assert_gaerror(function() r.multinomial(-1, { 0.5, 0.5 }) end, "non-negative")
    helper.assert_gaerror(function() r.vonmises(0, 1, nil, "int32") end, "float32 or float64")
    helper.assert_gaerror(function() r.standard_cauchy({ sise = 3 }) end, "did you mean 'size'")
    helper.assert_gaerror(function() r.RandomState(1):set_state({ key = 1 }) end, "state must be")
  end)

  it("state tables round-trip without a device", function()
    local a = ga.random.RandomState(42)
    local st = a:get_state()
    assert.are.equal("Philox4x3210", st.bit_generator)
    local b = ga.random.RandomState(7)
    b:set_state(st)
    assert.are.same(a:get_state(), b:get_state())
    local g = ga.random.default_rng(3)
    local bg = g.bit_generator
    local s0 = bg.state
    bg.state = { bit_generator = "Philox4x3210", key = s0.key, offset = 12 }
    assert.are.equal(12, g.bit_generator.state.offset)
    assert.are.same(ga.random.default_rng(3).bit_generator.state, ga.random.Generator(ga.random.Philox4x3210(3))
      .bit_generator.state)
  end)

  helper.gpu_it("continuous distributions against their CDFs (KS, 1%)", function()
    local pi = math.pi
    local cases = {
      { "standard_cauchy", function(r) return r:standard_cauchy(N) end,
        function(x) return 0.5 + math.atan(x) / pi end },
      { "laplace", function(r) return r:laplace(1, 2, N) end,
        function(x) return x < 1 and 0.5 * math.exp((x - 1) / 2) or 1 - 0.5 * math.exp(-(x - 1) / 2) end },
      { "logistic", function(r) return r:logistic(-1, 0.5, N) end,
        function(x) return 1 / (1 + math.exp(-(x + 1) / 0.5)) end },
      { "gumbel", function(r) return r:gumbel(0.5, 2, N) end,
        function(x) return math.exp(-math.exp(-(x - 0.5) / 2)) end },
      { "pareto", function(r) return r:pareto(3, N) end, function(x) return x < 0 and 0 or 1 - (1 + x) ^ -3 end },
      { "power", function(r) return r:power(2.5, N) end, function(x) return x <= 0 and 0 or math.min(1, x ^ 2.5) end },
      { "rayleigh", function(r) return r:rayleigh(1.5, N) end,
        function(x) return 1 - math.exp(-x * x / (2 * 1.5 ^ 2)) end },
      { "weibull", function(r) return r:weibull(1.7, N) end,
        function(x) return x <= 0 and 0 or 1 - math.exp(-x ^ 1.7) end },
      { "triangular", function(r) return r:triangular(-1, 0.5, 2, N) end, function(x)
          if x <= -1 then return 0 end
          if x <= 0.5 then return (x + 1) ^ 2 / (3 * 1.5) end
          if x < 2 then return 1 - (2 - x) ^ 2 / (3 * 1.5) end
          return 1 end },
      { "chisquare", function(r) return r:chisquare(3.5, N) end, function(x) return gammp(1.75, x / 2) end },
      { "gamma (array shape)", function(r) return r:gamma(ga.full(N, 2.5), 2.0) end,
        function(x) return gammp(2.5, x / 2) end },
      { "float32 exponential (array scale)", function(r) return r:exponential(ga.full(N, 0.5, "float32"), nil,
        "float32") end,
        function(x) return 1 - math.exp(-x / 0.5) end },
    }
    for _, c in ipairs(cases) do
      local r = rs()
      check_ks(function() return c[2](r) end, c[3], c[1])
    end
  end)

  helper.gpu_it("moments: t, F, noncentral, wald, vonmises, discrete ones", function()
    local r = rs()
    local big = 200000
    S.check_moments(r:standard_t(6, big), 0, 6 / 4, "standard_t")
    S.check_moments(r:noncentral_chisquare(3, 2, big), 5, 2 * (3 + 4), "noncentral_chisquare df > 1")
    S.check_moments(r:noncentral_chisquare(0.5, 1.5, big), 2, 2 * (0.5 + 3), "noncentral_chisquare df <= 1")
    local d1, d2 = 5, 12
    S.check_moments(r:f(d1, d2, big), d2 / (d2 - 2), 2 * d2 ^ 2 * (d1 + d2 - 2) / (d1 * (d2 - 2) ^ 2 * (d2 - 4)), "f")
    S.check_moments(r:wald(1.5, 4, big), 1.5, 1.5 ^ 3 / 4, "wald")
    S.check_moments(r:geometric(0.3, big):astype("float64"), 1 / 0.3, 0.7 / 0.09, "geometric")
    S.check_moments(r:negative_binomial(4, 0.4, big):astype("float64"), 4 * 0.6 / 0.4, 4 * 0.6 / 0.16,
      "negative_binomial")
    local K, Nn, n = 30, 100, 20
    S.check_moments(r:hypergeometric(K, Nn - K, n, big):astype("float64"), n * K / Nn,
      n * K / Nn * (Nn - K) / Nn * (Nn - n) / (Nn - 1), "hypergeometric")
    local p = 0.6
    local lm = -p / ((1 - p) * math.log(1 - p))
    S.check_moments(r:logseries(p, big):astype("float64"), lm,
      -p * (p + math.log(1 - p)) / ((1 - p) ^ 2 * math.log(1 - p) ^ 2),
      "logseries")
    -- von Mises: E cos(x - mu) = I1(k) / I0(k); k = 2: 0.697774657964
    local v = r:vonmises(0.3, 2, big)
    local c = ga.cos(v - 0.3):mean():item()
    assert(math.abs(c - 0.697774657964) < 0.01, "vonmises E cos " .. c)
    assert(ga.max(ga.abs(v)):item() <= math.pi + 1e-12)
    -- zipf(2): P(1) = 6 / pi^2
    local z = r:zipf(2, big)
    local p1 = ga.sum(z:eq(1)):item() / big
    assert(math.abs(p1 - 6 / math.pi ^ 2) < 4 * math.sqrt(0.61 * 0.39 / big), "zipf P(1) " .. p1)
    assert.are.equal("int64", z.dtype)
  end)

  helper.gpu_it("multinomial, dirichlet, multivariate_normal", function()
    local r = rs()
    local m = r:multinomial(50, { 0.2, 0.3, 0.5 }, { 4000 })
    assert.are.same({ 4000, 3 }, m.shape)
    assert.is_true(ga.all(ga.sum(m, { axis = 2 }):eq(50)):item())
    local means = ga.mean(m:astype("float64"), { axis = 1 }):totable()
    for i, p in ipairs({ 0.2, 0.3, 0.5 }) do
      assert(math.abs(means[i] - 50 * p) < 4 * math.sqrt(50 * p * (1 - p) / 4000), "multinomial mean " .. i)
    end
    local d = r:dirichlet({ 1, 2, 3 }, 20000)
    assert.are.same({ 20000, 3 }, d.shape)
    local dm = ga.mean(d, { axis = 1 }):totable()
    for i, a in ipairs({ 1, 2, 3 }) do assert(math.abs(dm[i] - a / 6) < 0.01, "dirichlet mean " .. i) end
    for _, method in ipairs({ "svd", "eigh", "cholesky" }) do
      local cov = { { 2, 0.5 }, { 0.5, 1 } }
      local x = r:multivariate_normal({ 1, -2 }, cov, 50000, { method = method })
      assert.are.same({ 50000, 2 }, x.shape)
      local c = ga.cov(x, nil, false):totable()
      assert(math.abs(c[1][1] - 2) < 0.06 and math.abs(c[1][2] - 0.5) < 0.04 and math.abs(c[2][2] - 1) < 0.03,
             method .. " covariance")
    end
  end)

  helper.gpu_it("bit for bit: same seed, restored states, any draw size", function()
    for _, draw in ipairs({
      function(g, n) return g:chisquare(2.5, n) end,
      function(g, n) return g:hypergeometric(10, 20, 7, n) end,
      function(g, n) return g:vonmises(0, 4, n, "float32") end,
    }) do
      local a = draw(rs(), 1000):totable()
      local b = draw(rs(), 5000)[{ { 1, 1000 } }]:totable()
      assert.are.same(a, b)
      local g = rs()
      local st = g:get_state()
      local first = draw(g, 300):totable()
      g:set_state(st)
      assert.are.same(first, draw(g, 300):totable())
      local rng = ga.random.default_rng(helper.seed)
      local s0 = rng.bit_generator.state
      local x = draw(rng, 64):totable()
      rng.bit_generator.state = s0
      assert.are.same(x, draw(rng, 64):totable())
    end
  end)
end)
