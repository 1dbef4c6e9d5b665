--- average, nanmean/nanvar/nanstd, cov, corrcoef, correlate, histograms:
-- NumPy's values on fixed inputs, Lua references on random ones.
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"
local nan = 0 / 0

describe("statistics: moments and histograms", function()
  it("compiles the one-pass nan reductions, correlate and the histogram kernels", function()
    for _, kind in ipairs({ "mean", "var", "std" }) do
      for _, S in ipairs({ "float", "double" }) do
        assert.is_not_nil(internal.nan_moment_kernels(kind, S, kind ~= "mean" and 1 or nil):compile("float32"))
      end
    end
    -- nanmean's 32-bit count (inputs below 2^31 elements)
    for _, S in ipairs({ "float", "double" }) do
      assert.is_not_nil(internal.nan_moment_kernels("mean", S, nil, "int"):compile("float32"))
      assert.is_not_nil(internal.nan_moment_kernels("mean", S, nil, "int"):compile("int16"))
    end
    internal.correlate_kernel():compile("complex64", "complex64", "int64", "int64", "int64", "complex64")
    internal.correlate_kernel():compile("int32", "int32", "int64", "int64", "int64", "int32")
    internal.histogram_kernel(2, false):compile("float32", "float32", "float64", "int64", "int64", "float64")
    internal.histogram_kernel(3, true):compile("int32", "float64", "float16", "float32", "float64", "int64", "int64",
                                               "float64")
  end)

  it("checks values before work", function()
    helper.assert_gaerror(function() ga.correlate({ 1 }, { 1 }, "vaild") end, "did you mean \"valid\"")
    helper.assert_gaerror(function() ga.cov({ 1, 2 }, nil, true, false, nil, nil, nil, { dtyp = "float32" }) end,
      "did you mean 'dtype'")
    helper.assert_gaerror(function() ga.histogram_bin_edges({ 1, 2 }, "nope") end, "histogram_bin_edges")
    -- 2^53 column views of a zero-size sample ran past the fuzzer's 10^8 instructions (fuzz decl seed 20261127)
    helper.assert_gaerror(function() ga.histogramdd({ sample = ga.empty({ 0, 9007199254740992 }, "complex128") }) end,
      "histogramdd: at most 16 dimensions")
  end)

  helper.gpu_it("average, with weights and returned", function()
    local a = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float64")
    local w = ga.array({ { 1, 0, 2 }, { 3, 1, 1 } }, "float64")
    assert.are.equal(3.75, ga.average(a, nil, w):item())
    helper.assert_same({ 2.3333333333333335, 5.333333333333333 }, ga.average(a, 2, { 1, 2, 3 }):totable(), 1e-15)
    local avg, scl = ga.average(a, 1, { 1, 3 }, true)
    helper.assert_same({ 3.25, 4.25, 5.25 }, avg:totable())
    helper.assert_same({ 4, 4, 4 }, scl:totable())
    assert.are.equal("float64", ga.average(ga.array({ 1, 2 }, "int32")).dtype)
    helper.assert_gaerror(function() ga.average(a, 1, { 0, 0 }) end, "sum to zero")
  end)

  helper.gpu_it("nanmean, nanvar, nanstd: NumPy's values, an all-NaN row gives NaN", function()
    local xn = ga.array({ { 1.0, nan, 3.0, 4.0 }, { nan, nan, nan, nan }, { 2.0, 8.0, nan, 5.0 } })
    helper.assert_same({ 2.6666666666666665, nan, 5.0 }, ga.nanmean(xn, 2):totable(), 1e-15)
    helper.assert_same({ 1.5555555555555554, nan, 6.0 }, ga.nanvar(xn, 2):totable(), 1e-14)
    helper.assert_same({ 1.5275252316519465, nan, 3.0 }, ga.nanstd(xn, 2, nil, nil, 1):totable(), 1e-14)
    -- random float32 with NaNs against a Lua sum
    local n = 10007
    local t, s, c = {}, 0, 0
    for i = 1, n do
      local v = math.random() < 0.1 and nan or math.random() * 4 - 1
      t[i] = v
      if v == v then s, c = s + v, c + 1 end
    end
    local x = ga.array(t, "float32")
    local r = ga.nanmean(x)
    assert.are.equal("float32", r.dtype)
    assert(math.abs(r:item() - s / c) < 1e-5, ("nanmean %g vs %g (seed %d)"):format(r:item(), s / c, helper.seed))
    assert.are.same({ 1, 1 }, ga.nanmean(ga.ones({ 3, 4 }), nil, nil, nil, true).shape)
  end)

  helper.gpu_it("nanmean's one pass (32-bit counts) over a large input, every axis and along one", function()
    local n = (1 << 20) + 3
    local t, s, c = {}, 0, 0
    for i = 1, n do
      local v = math.random() < 0.01 and nan or math.random(0, 1000) * 0.25   -- exact in float32
      t[i] = v
      if v == v then s, c = s + v, c + 1 end
    end
    local x = ga.array(t, "float32")
    local r = ga.nanmean(x)
    assert.are.equal("float32", r.dtype)
    assert.are.same({}, r.shape)
    -- the float32 sum rounds (it passes 2^24), the count may not
    local want = s / c
    assert(math.abs(r:item() - want) <= 1e-4 * want, ("nanmean %.9g vs %.9g (seed %d)"):format(r:item(), want,
                                                                                       helper.seed))
    local i16 = ga.array({ { 1, 2, 3 }, { 4, 5, 7 } }, "int16")
    assert.are.equal(3.6666666666666665, ga.nanmean(i16):item())
    assert.are.same({ 2.0, 16 / 3 }, ga.nanmean(i16, 2):totable())
    assert.are.same({ { 2.5, 3.5, 5.0 } }, ga.nanmean(i16, 1, nil, nil, true):totable())
    local allnan = ga.nanmean(ga.full(1000, nan, "float32"))
    assert(allnan:item() ~= allnan:item(), "an all-NaN input gives NaN")
  end)

  helper.gpu_it("cov and corrcoef match NumPy (rowvar, bias, fweights, aweights)", function()
    local m = ga.array({ { 1, 2, 4, 7 }, { 2, 1, 0, -1 }, { 0.5, 3, 3, 9 } })
    helper.assert_same({ { 7.0, -3.333333333333333, 9.083333333333332 }, { -3.333333333333333, 1.6666666666666665,
      -4.25 },
      { 9.083333333333332, -4.25, 13.0625 } }, ga.cov(m):totable(), 1e-14)
    local cb = ga.cov(m, nil, false, true)
    assert.are.same({ 4, 4 }, cb.shape)
    helper.assert_same(18.666666666666664, cb[{ 4, 4 }], 1e-14)
    local cw = ga.cov(m, nil, true, false, nil, { 1, 2, 1, 3 }, { 0.5, 1, 2, 1 })
    helper.assert_same(6.042553191489362, cw[{ 1, 1 }], 1e-13)
    helper.assert_same(-3.271276595744681, cw[{ 2, 3 }], 1e-13)
    local cc = ga.corrcoef(m)
    helper.assert_same(-0.975900072948533, cc[{ 1, 2 }], 1e-13)
    assert.are.equal("float32", ga.cov(m:astype("float32"), { dtype = "float32" }).dtype)
    assert.are.equal("float64", ga.cov(m:astype("float32")).dtype)
  end)

  helper.gpu_it("correlate's modes, NumPy's values", function()
    local a, v = ga.array({ 1, 2, 3, 4, 5 }, "float64"), ga.array({ 1, 10, 100 }, "float64")
    helper.assert_same({ 321, 432, 543 }, ga.correlate(a, v):totable())
    helper.assert_same({ 210, 321, 432, 543, 54 }, ga.correlate(a, v, "same"):totable())
    helper.assert_same({ 100, 210, 321, 432, 543, 54, 5 }, ga.correlate(a, v, "full"):totable())
    helper.assert_same({ 54, 543, 432, 321, 210 }, ga.correlate(v, a, "same"):totable())
    helper.assert_same({ 43, 32, 21, 10 }, ga.correlate(ga.array({ 1, 10 }), ga.array({ 1, 2, 3, 4 }),
      "same"):totable())
  end)

  helper.gpu_it("histogram2d, histogramdd, histogram_bin_edges", function()
    local hx = ga.array({ 0.1, 0.5, 0.5, 0.9, 1.0, 0.0, 0.25, 0.75 })
    local hy = ga.array({ 0.2, 0.2, 0.8, 0.9, 1.0, 0.0, 0.5, 0.5 })
    local H, ex = ga.histogram2d(hx, hy, 2, { { 0, 1 }, { 0, 1 } })
    assert.are.equal("float64", H.dtype)
    helper.assert_same({ { 2, 1 }, { 1, 4 } }, H:totable())
    helper.assert_same({ 0, 0.5, 1 }, ex:totable())
    local H2, _, ey = ga.histogram2d(hx, hy, { 2, 3 })
    helper.assert_same({ { 2, 1, 0 }, { 1, 1, 3 } }, H2:totable())
    helper.assert_same({ 0, 0.3333333333333333, 0.6666666666666666, 1 }, ey:totable(), 1e-15)
    local Hd, edges = ga.histogramdd(ga.stack({ hx, hy }, 2), { 2, 2 }, { { 0, 1 }, { 0, 1 } })
    helper.assert_same(H:totable(), Hd:totable())
    assert.are.equal(2, #edges)
    local X = ga.array({ 3.5, -1.25, 7.0, 2.0, 2.0, 10.5, -4.0, 0.5, 6.25, 1.0, 8.0 })
    helper.assert_same({ -4.0, 0.833333333333333, 5.666666666666666, 10.5 }, ga.histogram_bin_edges(X, "fd"):totable(),
      1e-14)
    helper.assert_same({ -4.0, -0.375, 3.25, 6.875, 10.5 }, ga.histogram_bin_edges(X, "sqrt"):totable(), 1e-15)
    helper.assert_same({ -4.0, -1.1, 1.7999999999999998, 4.699999999999999, 7.6, 10.5 },
      ga.histogram_bin_edges(X, "auto"):totable(), 1e-14)
    helper.assert_same({ -4.0, 10.5 }, ga.histogram_bin_edges(X, "stone"):totable())
    -- random points against a Lua count
    local n, nb = 5000, 7
    local xs, ys = {}, {}
    local want = {}
    for i = 1, nb * nb do want[i] = 0 end
    for i = 1, n do
      xs[i], ys[i] = math.random(), math.random()
      local bx, by = math.min(math.floor(xs[i] * nb), nb - 1), math.min(math.floor(ys[i] * nb), nb - 1)
      want[bx * nb + by + 1] = want[bx * nb + by + 1] + 1
    end
    local h = ga.histogram2d(ga.array(xs), ga.array(ys), nb, { { 0, 1 }, { 0, 1 } }):reshape(-1):totable()
    local diff = 0
    for i = 1, nb * nb do diff = diff + math.abs(h[i] - want[i]) end
    -- a point within rounding of an edge may land on either side of the float64 edge: none in practice
    assert(diff <= 2, ("histogram2d differs from the Lua count by %d (seed %d)"):format(diff, helper.seed))
  end)
end)
