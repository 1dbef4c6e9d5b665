--- Order statistics against NumPy (values computed with NumPy on fixed
-- inputs) and against a Lua reference of NumPy's methods on fresh random
-- data, through both paths (sorted rows; the selection over one long row).
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"

local X = { 3.5, -1.25, 7.0, 2.0, 2.0, 10.5, -4.0, 0.5, 6.25, 1.0, 8.0 }
local Q = { 0, 0.1, 0.25, 0.5, 0.77, 1 }
local EXPECT = {   -- numpy.quantile(X, Q, method=m)
  linear = { -4, -1.25, 0.75, 2, 6.7750000000000004, 10.5 },
  lower = { -4, -1.25, 0.5, 2, 6.25, 10.5 },
  higher = { -4, -1.25, 1, 2, 7, 10.5 },
  nearest = { -4, -1.25, 0.5, 2, 7, 10.5 },
  midpoint = { -4, -1.25, 0.75, 2, 6.625, 10.5 },
  inverted_cdf = { -4, -1.25, 0.5, 2, 7, 10.5 },
  averaged_inverted_cdf = { -4, -1.25, 0.5, 2, 7, 10.5 },
  closest_observation = { -4, -4, 0.5, 2, 6.25, 10.5 },
  interpolated_inverted_cdf = { -4, -3.7249999999999996, 0.0625, 2, 6.6025000000000009, 10.5 },
  hazen = { -4, -2.3499999999999996, 0.625, 2, 6.9775000000000009, 10.5 },
  weibull = { -4, -3.4499999999999993, 0.5, 2, 7.2400000000000002, 10.5 },
  median_unbiased = { -4, -2.7166666666666663, 0.58333333333333326, 2, 7.0600000000000005, 10.5 },
  normal_unbiased = { -4, -2.625, 0.59375, 2, 7.0375000000000014, 10.5 },
}

-- NumPy's linear method on a sorted Lua list (the reference for random data)
local function linear_ref(s, q)
  local n = #s
  local v = (n - 1) * q
  local f = math.floor(v)
  local a, b = s[f + 1], s[math.min(f + 2, n)]
  local g = v - f
  if v >= n - 1 then return s[n] end
  local d = b - a
  if g >= 0.5 then return b - d * (1 - g) end
  return a + d * g
end

describe("statistics: quantiles", function()
  it("declares median, percentile, quantile and the nan forms", function()
    for _, name in ipairs({ "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile" }) do
      assert.is_function(ga[name], name)
      assert.matches(name .. "%(a", ga.help(ga[name]))
    end
  end)

  it("rejects bad methods, q out of range, complex input, before any work", function()
    helper.assert_gaerror(function() ga.quantile({ 1, 2 }, 0.5, nil, nil, false, "linar") end, "did you mean")
    helper.assert_gaerror(function() ga.quantile({ 1, 2 }, 1.5) end, "Quantiles must be in the range [0, 1]")
    helper.assert_gaerror(function() ga.percentile({ 1, 2 }, { 50, 101 }) end, "Percentiles must be in the range")
    helper.assert_gaerror(function() ga.percentile({ 1, 2 }, -1) end, "percentile")
    helper.assert_gaerror(function() ga.median({ 1, 2 }, { axsi = 1 }) end, "did you mean 'axis'")
  end)

  it("compiles its kernels for every value dtype", function()
    for _, p in ipairs({ { "float32", "float32" }, { "float64", "float64" }, { "int32", "float64" },
                         { "float16", "float16" }, { "int64", "int64" }, { "uint8", "float64" } }) do
      local k = internal.quantile_kernels(p[1], p[2])
      assert.is_not_nil(k.rows, p[1])
    end
  end)

  helper.gpu_it("every method matches NumPy on a fixed sample, both dtypes", function()
    for m, want in pairs(EXPECT) do
      for _, dt in ipairs({ "float64", "float32" }) do
        local r = ga.quantile(ga.array(X, dt), Q, { method = m })
        assert.are.equal(dt, r.dtype, m)
        assert.are.same({ #Q }, r.shape)
        helper.assert_same(want, r:totable(), dt == "float32" and 1e-6 or 1e-15, m .. " " .. dt)
      end
    end
    -- percentile = quantile * 100; the interpolation keyword is method's old name
    helper.assert_same(EXPECT.hazen, ga.percentile(ga.array(X), { 0, 10, 25, 50, 77, 100 },
      { interpolation = "hazen" }):totable(), 1e-14)
  end)

  helper.gpu_it("axes, keepdims, integer input, discrete methods keep the dtype", function()
    local xi = ga.array({ { 5, 1, 4 }, { 2, 8, 3 }, { 9, 0, 7 }, { 6, 6, 1 } }, "int32")
    local m0 = ga.median(xi, 1)
    assert.are.equal("float64", m0.dtype)
    helper.assert_same({ 5.5, 3.5, 3.5 }, m0:totable())
    helper.assert_same({ 4, 3, 7, 6 }, ga.median(xi, -1):totable())
    local p = ga.percentile(xi, { 10, 90 }, 1)
    assert.are.same({ 2, 3 }, p.shape)
    helper.assert_same({ { 2.9000000000000004, 0.30000000000000004, 1.6 }, { 8.100000000000001, 7.4,
      6.1000000000000005 } },
      p:totable(), 1e-15)
    local lo = ga.percentile(xi, 40, 2, { method = "lower" })
    assert.are.equal("int32", lo.dtype)
    assert.are.same({ 1, 2, 0, 1 }, lo:totable())
    assert.are.same({ 4, 1 }, ga.median(xi, 2, { keepdims = true }).shape)
    assert.are.same({ 1, 1 }, ga.median(xi, nil, nil, false, true).shape)
    assert.are.same({}, ga.median(xi).shape)
    assert.are.same({ 3 }, ga.median(ga.zeros({ 0, 3 }), 1).shape)
    assert.is_true(ga.median(ga.zeros(0)):item() ~= ga.median(ga.zeros(0)):item())   -- NaN
    helper.assert_gaerror(function() ga.percentile(ga.zeros(0), 50) end, "empty")
    helper.assert_gaerror(function() ga.median(xi, 3) end, "out of bounds")
  end)

  helper.gpu_it("NaN: the plain forms give NaN, the nan forms leave NaNs out", function()
    local nan = 0 / 0
    local xn = ga.array({ { 1.0, nan, 3.0, 4.0 }, { nan, nan, nan, nan }, { 2.0, 8.0, nan, 5.0 } })
    helper.assert_same({ 3.0, nan, 5.0 }, ga.nanmedian(xn, 2):totable())
    helper.assert_same({ nan, nan, nan }, ga.median(xn, 2):totable())
    helper.assert_same({ 2.2, nan, 3.8 }, ga.nanpercentile(xn, 30, 2):totable(), 1e-15)
    local f32 = ga.array({ 0.1, 0.7, 0.3, 0.9 }, "float32")
    assert.are.equal("float32", ga.median(f32).dtype)
    assert.are.equal(0.5, ga.median(f32):item())
    helper.assert_same(0.2800000101327896, ga.quantile(f32, 0.3):item(), 1e-7)
  end)

  helper.gpu_it("the selection path (one long row) gives the sorted path's numbers", function()
    local n = (1 << 17) + 12345
    for _, dt in ipairs({ "float32", "float64" }) do
      local x = ga.random.RandomState(helper.seed):standard_normal(n, dt)
      local s = ga.sort(x):totable()
      local qs = { 0.0, 0.05, 0.5, 0.95, 0.999, 1.0 }
      local got = ga.quantile(x, qs):totable()
      for i, q in ipairs(qs) do
        local want = linear_ref(s, q)
        assert(math.abs(got[i] - want) <= 1e-6 * math.max(1, math.abs(want)),
               ("%s q=%g: %.9g vs %.9g (seed %d)"):format(dt, q, got[i], want, helper.seed))
      end
      local med = ga.median(x):item()
      local mid = (#s % 2 == 1) and s[(#s + 1) // 2] or (s[#s // 2] + s[#s // 2 + 1]) / 2
      assert(math.abs(med - mid) <= 1e-6 * math.max(1, math.abs(mid)), dt .. " median")
      -- the plain form sees a NaN; the nan form leaves it out
      local y = x:copy()
      y[7] = 0 / 0
      assert.is_true(ga.median(y):item() ~= ga.median(y):item())
      local ys = ga.sort(y):totable()
      table.remove(ys)           -- the NaN sorts last
      local nm = ga.nanmedian(y):item()
      local half = #ys // 2
      local want = (#ys % 2 == 1) and ys[half + 1] or (ys[half] + ys[half + 1]) / 2
      assert(math.abs(nm - want) <= 1e-6 * math.max(1, math.abs(want)), dt .. " nanmedian")
      -- heavy ties: the brackets fail and the rows path answers the same
      local ties = ga.floor(x * 2)
      local ts = ga.sort(ties):totable()
      assert.are.equal(linear_ref(ts, 0.5), ga.quantile(ties, 0.5):item())
    end
  end)
end)
