-- ga.GeneralizedUFunc (cupyx.GeneralizedUFunc): signatures, core and loop
-- dimensions, axes, keepdims, out, dtype; the batched and the looping
-- calls. Zero-size arrays run without a device; values on the GPU.
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"

local function inner(a, b) return ga.sum(a * b, -1) end

describe("GeneralizedUFunc", function()
  it("parses NumPy's signatures and rejects bad ones", function()
    local ins, outs = internal.parse_gufunc_signature("(m, n),(n,p)->(m,p)")
    assert.same({ { "m", "n" }, { "n", "p" } }, ins)
    assert.same({ { "m", "p" } }, outs)
    ins, outs = internal.parse_gufunc_signature("(i),()->(),(3)")
    assert.same({ { "i" }, {} }, ins)
    assert.same({ {}, { "3" } }, outs)
    helper.assert_gaerror(function() ga.GeneralizedUFunc(inner, "(i),(i)") end, "has no '->'")
    helper.assert_gaerror(function() ga.GeneralizedUFunc(inner, "(i-j)->()") end, "bad signature")
    helper.assert_gaerror(function() ga.GeneralizedUFunc(5, "(i)->()") end, "GeneralizedUFunc: func must be")
    local g = ga.GeneralizedUFunc(inner, "(i),(i)->()", { name = "inner1d" })
    assert.equal("<GeneralizedUFunc 'inner1d' (i),(i)->()>", tostring(g))
  end)

  it("checks core dimensions and broadcasts loop dimensions (zero-size arrays)", function()
    local g = ga.GeneralizedUFunc(inner, "(i),(i)->()", { supports_batched = true, name = "inner1d" })
    local r = g(ga.empty({ 0, 3 }), ga.empty({ 0, 3 }))
    assert.same({ 0 }, r.shape)
    assert.same({ 2, 0 }, g(ga.empty({ 2, 0, 3 }), ga.empty({ 0, 3 })).shape)
    helper.assert_gaerror(function() g(ga.empty({ 0, 3 }), ga.empty({ 0, 4 })) end,
                          "inner1d: core dimension 'i' of input 2 has size 4, expected 3")
    helper.assert_gaerror(function() g(ga.empty({ 2, 0, 3 }), ga.empty({ 3, 0, 3 })) end, "cannot be broadcast")
    helper.assert_gaerror(function() g(ga.empty({ 0, 3 })) end, "inner1d: takes 2 inputs, got 1")
    helper.assert_gaerror(function() g(ga.empty({ 0, 3 }), ga.empty({ 0, 3 }), { axsi = 1 }) end,
                          "inner1d: unknown option 'axsi'")
    -- the looping form of an empty loop makes its outputs from the inputs' dtype
    local h = ga.GeneralizedUFunc(inner, "(i),(i)->()")
    r = h(ga.empty({ 0, 3 }, "float32"), ga.empty({ 0, 3 }, "float32"))
    assert.same({ 0 }, r.shape)
    assert.equal("float32", r.dtype)
    -- axis moves the core axis
    r = g(ga.empty({ 3, 0 }), ga.empty({ 3, 0 }), { axis = 1 })
    assert.same({ 0 }, r.shape)
  end)

  helper.gpu_it("computes batched and looping calls, with axes, keepdims, out and dtype", function()
    local a = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } })
    local b = ga.array({ 1, 0, 2 })
    for _, batched in ipairs { true, false } do
      local g = ga.GeneralizedUFunc(inner, "(i),(i)->()", { supports_batched = batched })
      assert.same({ 7, 16 }, g(a, b):totable())
      assert.same({ { 7 }, { 16 } }, g(a, b, { keepdims = true }):totable())
      assert.same({ 9, 12, 15 }, g(a, ga.array({ 1, 2 }):reshape(2, 1), { axes = { { 1 }, { 1 }, {} } }):totable())
      local out = ga.empty(2, "float32")
      assert.equal(out, g(a, b, { out = out }))
      assert.same({ 7, 16 }, out:totable())
      assert.equal("float32", g(a, b, { dtype = "float32" }).dtype)
    end
    local mm = ga.GeneralizedUFunc(function(x, y) return ga.matmul(x, y) end, "(m,n),(n,p)->(m,p)",
                                   { supports_batched = true })
    local x = ga.arange(12, "float64"):reshape(2, 2, 3)
    local y = ga.arange(6, "float64"):reshape(3, 2)
    assert.same(ga.matmul(x, y):totable(), mm(x, y):totable())
    -- two outputs
    local two = ga.GeneralizedUFunc(function(v) return ga.min(v), ga.max(v) end, "(i)->(),()")
    local lo, hi = two(a)
    assert.same({ 1, 4 }, lo:totable())
    assert.same({ 3, 6 }, hi:totable())
  end)
end)
