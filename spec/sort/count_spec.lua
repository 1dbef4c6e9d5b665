-- ga.bincount, histogram, digitize, diff against Lua counts (GPU), and the
-- counting kernels' compile (no GPU needed).
local internal = require("gpuarray.internal")
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local function flat(x)
  return helper.flatten(x:totable())
end

describe("counting", function()
  it("kernels compile", function()
    local K = internal.count_kernels()
    local function compiles(k, types)
      local src, opts = core._test.elementwise_kernel_source(k, { types = types, layout = "flat", vec = 1 })
      return core._test.compile(src, opts, 90) > 0
    end
    assert.is_true(compiles(K.bincount, { "int32", "int64" }))
    assert.is_true(compiles(K.bincount_w, { "uint8", "float32", "float64" }))
    assert.is_true(compiles(K.hist, { "int64", "float32", "float32", "int64", "int64" }))
    assert.is_true(compiles(K.hist_w, { "int64", "float64", "float64", "int64", "float32", "float64" }))
  end)

  it("histogram's range must be two numbers (fuzz libs: a dtype name in it compared a number with a string)", function()
    helper.assert_gaerror(function() ga.histogram(ga.empty({ 2, 0 }, "uint64"), 64, { "uint32", 64 }) end,
                          "histogram: range must be {lo, hi}, two numbers")
  end)

  helper.gpu_it("bincount counts values and sums weights", function()
    local t, w = {}, {}
    for i = 1, 1000 do t[i] = math.random(0, 30); w[i] = math.random(-8, 8) / 4 end
    local ref, refw = {}, {}
    for v = 1, 40 do ref[v], refw[v] = 0, 0 end
    for i, v in ipairs(t) do ref[v + 1] = ref[v + 1] + 1; refw[v + 1] = refw[v + 1] + w[i] end
    local mx = 0
    for _, v in ipairs(t) do mx = math.max(mx, v) end
    local got = ga.bincount(ga.array(t, "int32"))
    assert.equal("int64", got.dtype)
    assert.same({ mx + 1 }, got.shape)
    helper.assert_same({ table.unpack(ref, 1, mx + 1) }, flat(got))
    local gw = ga.bincount(ga.array(t, "int32"), ga.array(w, "float32"), 40)
    helper.assert_same(refw, flat(gw), 1e-9)
    helper.assert_gaerror(function() ga.bincount(ga.array({ 1, -2 }, "int32")) end, "non-negative")
    helper.assert_gaerror(function() ga.bincount(ga.array({ 1.5 })) end, "integer dtype")
  end)

  helper.gpu_it("histogram counts into equal bins or given edges, with weights and density", function()
    local t = {}
    for i = 1, 2000 do t[i] = math.random() * 10 - 3 end
    t[1], t[2] = 0 / 0, 7      -- NaN is left out; the max lands in the last bin
    local x = ga.array(t, "float64")
    local vals = flat(x)
    local h, e = ga.histogram(x, 8, { range = { -3, 7 } })
    local ev = flat(e)
    assert.equal(9, #ev)
    local ref = {}
    for b = 1, 8 do ref[b] = 0 end
    for _, v in ipairs(vals) do
      if v >= -3 and v <= 7 then
        local b = 8
        for k = 1, 8 do if v < ev[k + 1] then b = k; break end end
        ref[b] = ref[b] + 1
      end
    end
    helper.assert_same(ref, flat(h))
    local edges = { -3, -1, 0, 0.5, 4, 7 }
    local h2 = ga.histogram(x, edges)
    local r2 = { 0, 0, 0, 0, 0 }
    for _, v in ipairs(vals) do
      for k = 1, 5 do
        if v >= edges[k] and (v < edges[k + 1] or (k == 5 and v == 7)) then r2[k] = r2[k] + 1; break end
      end
    end
    helper.assert_same(r2, flat(h2))
    local d = ga.histogram(x, edges, { density = true })
    local total = 0
    for _, c in ipairs(r2) do total = total + c end
    for k = 1, 5 do assert.near(r2[k] / total / (edges[k + 1] - edges[k]), flat(d)[k], 1e-12) end
    local hw = ga.histogram(x, edges, { weights = ga.full(2000, 0.5) })
    for k = 1, 5 do assert.near(r2[k] * 0.5, flat(hw)[k], 1e-9) end
    helper.assert_gaerror(function() ga.histogram(x, { 3, 1, 2 }) end, "monotonically")
  end)

  helper.gpu_it("digitize and diff follow NumPy", function()
    local bins = ga.array({ 0, 1, 2.5, 4 })
    local x = ga.array({ -1, 0, 0.5, 1, 2.5, 3, 4, 10 })
    helper.assert_same({ 0, 1, 1, 2, 3, 3, 4, 4 }, flat(ga.digitize(x, bins)))
    helper.assert_same({ 0, 0, 1, 1, 2, 3, 3, 4 }, flat(ga.digitize(x, bins, true)))
    helper.assert_same({ 4, 3, 3, 2, 1, 1, 0, 0 }, flat(ga.digitize(x, ga.flip(bins))))
    local m = ga.array({ { 1, 4, 9, 16 }, { 2, 3, 5, 7 } }, "int32")
    helper.assert_same({ { 3, 5, 7 }, { 1, 2, 2 } }, m:totable() and ga.diff(m):totable())
    helper.assert_same({ { 2, 2 }, { 1, 0 } }, ga.diff(m, 2):totable())
    helper.assert_same({ { 1, -1, -4, -9 } }, ga.diff(m, { axis = 1 }):totable())
    helper.assert_same({ 1, 3, 5, 7 }, flat(ga.diff(ga.array({ 1, 4, 9, 16 }), { prepend = 0 })))
    helper.assert_same({ true, false }, flat(ga.diff(ga.array({ true, false, false }))))
    assert.same({ 2, 0 }, ga.diff(ga.zeros({ 2, 1 })).shape)
  end)
end)
