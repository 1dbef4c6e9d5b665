-- ga.random's distributions on 2^22 samples: mean and variance within 4
-- standard errors of the true ones, for every distribution and dtype; the
-- Kolmogorov-Smirnov statistic of uniform and normal samples below the 1%
-- critical value (a second sample when the first is not: S.check_ks).
-- Fresh seeds every run (helper.seed).
local helper = require "helper"
local S = require "random.stats"
local ga = helper.ga

local N = 1 << 22

describe("random: distributions", function()
  local rs
  before_each(function() rs = ga.random.RandomState(helper.seed + math.random(1, 1 << 30)) end)

  for _, dt in ipairs({ "float32", "float64" }) do
    helper.gpu_it("uniform, normal and friends in " .. dt, function()
      local cases = {
        { "random", rs:random(N, dt), 0.5, 1 / 12 },
        { "uniform(-2, 3)", rs:uniform(-2, 3, N, dt), 0.5, 25 / 12 },
        { "standard_normal", rs:standard_normal(N, dt), 0, 1 },
        { "normal(1.5, 2)", rs:normal(1.5, 2, N, dt), 1.5, 4 },
        { "lognormal(0.2, 0.5)", rs:lognormal(0.2, 0.5, N, dt), math.exp(0.2 + 0.125),
          (math.exp(0.25) - 1) * math.exp(0.4 + 0.25) },
        { "exponential(2)", rs:exponential(2, N, dt), 2, 4 },
        { "gamma(0.5, 2)", rs:gamma(0.5, 2, N, dt), 1, 2 },
        { "gamma(4, 1.5)", rs:gamma(4, 1.5, N, dt), 6, 9 },
        { "beta(2, 5)", rs:beta(2, 5, N, dt), 2 / 7, 10 / (49 * 8) },
        { "beta(0.5, 0.5)", rs:beta(0.5, 0.5, N, dt), 0.5, 0.125 },
      }
      for _, c in ipairs(cases) do
        local x = c[2]
        assert.are.equal(dt, x.dtype, c[1])
        assert.are.same({ N }, x.shape, c[1])
        S.check_moments(x, c[3], c[4], c[1] .. " " .. dt)
      end
      local u = rs:random(N, dt)
      assert.is_true(u:min():item() >= 0 and u:max():item() < 1)
    end)

    helper.gpu_it("Kolmogorov-Smirnov: uniform and normal " .. dt .. " below the 1% critical value", function()
      S.check_ks(function() return rs:random(N, dt) end, "uniform", "uniform " .. dt)
      S.check_ks(function() return rs:standard_normal(N, dt) end, "normal", "normal " .. dt)
      S.check_ks(function() return ga.random.randn(N, { dtype = dt }) end, "normal", "randn " .. dt)
    end)
  end

  for _, dt in ipairs({ "int32", "int64", "uint8", "int16", "uint32" }) do
    helper.gpu_it("randint and integers in " .. dt, function()
      local hi = dt == "uint8" and 200 or 1000
      local x = rs:randint(3, hi, N, dt)
      assert.are.equal(dt, x.dtype)
      local m = hi - 3
      S.check_moments(x, (3 + hi - 1) / 2, (m * m - 1) / 12, "randint " .. dt)
      local g = ga.random.default_rng(helper.seed)
      local y = g:integers(-5, 5, N, { dtype = dt:sub(1, 1) == "u" and "int64" or dt, endpoint = true })
      S.check_moments(y, 0, (11 * 11 - 1) / 12, "integers endpoint")
    end)
  end

  for _, dt in ipairs({ "int64", "int32" }) do
    helper.gpu_it("poisson and binomial in " .. dt, function()
      for _, lam in ipairs({ 0.5, 3, 15.5, 100, 1e4 }) do
        S.check_moments(rs:poisson(lam, N, dt), lam, lam, "poisson " .. lam)
      end
      for _, c in ipairs({ { 20, 0.3 }, { 1000, 0.05 }, { 12345, 0.7 }, { 5, 1 }, { 7, 0 } }) do
        local n, p = c[1], c[2]
        local x = rs:binomial(n, p, N, dt)
        assert.are.equal(dt, x.dtype)
        if p == 0 or p == 1 then
          assert.are.equal(n * p, x:min():item())
          assert.are.equal(n * p, x:max():item())
        else
          S.check_moments(x, n * p, n * p * (1 - p), ("binomial(%d, %g)"):format(n, p))
        end
      end
    end)
  end

  helper.gpu_it("Generator methods: random, standard_normal, normal, uniform, exponential, poisson", function()
    local g = ga.random.default_rng(helper.seed)
    for _, dt in ipairs({ "float32", "float64" }) do
      S.check_moments(g:random(N, dt), 0.5, 1 / 12, "rng.random " .. dt)
      S.check_moments(g:standard_normal(N, dt), 0, 1, "rng.standard_normal " .. dt)
      S.check_moments(g:normal(-1, 0.5, N, dt), -1, 0.25, "rng.normal " .. dt)
      S.check_moments(g:uniform(2, 4, N, dt), 3, 4 / 12, "rng.uniform " .. dt)
      S.check_moments(g:exponential(0.5, N, dt), 0.5, 0.25, "rng.exponential " .. dt)
    end
    S.check_moments(g:poisson(7, N), 7, 7, "rng.poisson")
    S.check_ks(function() return g:random(N, "float32") end, "uniform", "rng.random")
    S.check_ks(function() return g:standard_normal(N, "float32") end, "normal", "rng.standard_normal")
  end)
end)
