-- Functional: vectorize's translation (CUDA text, compile, the clear error
-- for a function outside the jit's subset, signature parsing) without a
-- device; apply_along_axis, apply_over_axes, vectorize and piecewise
-- against Lua references on the GPU.
local helper = require "helper"
local ga = helper.ga

local function flat(x) return helper.flatten(x:totable()) end

describe("functional without a device", function()
  it("vectorize translates through the jit and says when it cannot", function()
    local f = function(a, b) if a > b then return a - b end return a * b end
    local k = ga.jit.elementwisekernel(f)
    local src = k:source("float32[]", "int32[]")
    assert.truthy(src:find("float", 1, true), src)
    local _, d = k:source("float64[]", "float64[]")
    ga.ElementwiseKernel(d.in_params, d.out_params, d.operation, d.name, { preamble = d.preamble })
      :compile("float64", "float64")
    local bad = ga.vectorize(function(s) return ("x"):rep(s) end)
    helper.assert_gaerror(function() bad(ga.float32(1)) end, "vectorize: cannot translate the function to CUDA")
    helper.assert_gaerror(function() ga.vectorize(3) end, "vectorize: pyfunc must be a function")
    helper.assert_gaerror(function() ga.vectorize(f, { signature = "(n)->" }) end, "not of the form")
    helper.assert_gaerror(function() ga.vectorize(f, { signature = "(n,1x)->()" }) end, "bad dimension name")
    helper.assert_gaerror(function() ga.vectorize(f, "fz") end, "invalid otype specified: z")
    helper.assert_gaerror(function() ga.vectorize(f, nil, nil, { 0 }) end, "1-based argument positions")
    local v = ga.vectorize(f, { signature = "(m,n),(n)->(m)", otypes = { "float32" } })
    assert.equal(2, #v.sig.ins)
    assert.same({ "float32" }, v.otypes)
  end)

  it("checks the arguments of apply_along_axis, apply_over_axes and piecewise", function()
    helper.assert_gaerror(function() ga.apply_along_axis(1, 1, { 1 }) end, "apply_along_axis: func1d must be")
    helper.assert_gaerror(function() ga.apply_over_axes(print, { 1 }, "x") end, "apply_over_axes: axes must be")
    helper.assert_gaerror(function() ga.piecewise({ 1 }, { true }) end, "piecewise: missing argument 'funclist'")
  end)
end)

describe("functional on the GPU", function()
  helper.gpu_it("apply_along_axis calls func1d per 1-D slice and places its results (1-based axis)", function()
    local t = helper.random_table({ 3, 4, 5 }, function() return math.random(-9, 9) end)
    local x = ga.array(t, "float64")
    -- a reduction: the axis disappears
    local s = ga.apply_along_axis(function(v) return v:sum() end, 2, x)
    assert.same({ 3, 5 }, s.shape)
    for i = 1, 3 do
      for k = 1, 5 do
        local want = 0
        for j = 1, 4 do want = want + t[i][j][k] end
        assert.equal(want, s:totable()[i][k])
      end
    end
    -- a 1-D arr and a number result: a 0-d array
    local u8 = ga.array({ 11, 20, 24 }, "uint8")
    local m0 = ga.apply_along_axis(function(w) return w:max() end, 1, u8)
    assert.same({}, m0.shape)
    assert.equal("uint8", m0.dtype)
    assert.equal(24, m0:item())
    assert.same({}, ga.ones(1):reshape({}).shape)
    -- an array result: its axes take the axis's place; extra arguments pass through
    local r = ga.apply_along_axis(function(v, a, b) return ga.stack({ v:min() * a, v:max() + b }) end, -1, x, 2, 100)
    assert.same({ 3, 4, 2 }, r.shape)
    local m = math.huge
    for k = 1, 5 do m = math.min(m, t[2][3][k]) end
    assert.equal(m * 2, r:totable()[2][3][1])
    local q = ga.apply_along_axis(function(v) return ga.sort(v) end, 1, x)
    assert.same({ 3, 4, 5 }, q.shape)
    helper.assert_same(flat(ga.sort(x, 1)), flat(q))
    -- a Lua number result
    local n = ga.apply_along_axis(function(v) return v.size end, 3, x)
    helper.assert_same({ { 5, 5, 5, 5 }, { 5, 5, 5, 5 }, { 5, 5, 5, 5 } }, n:totable())
    helper.assert_gaerror(function() ga.apply_along_axis(function(v) return v end, 4, x) end, "out of range")
    local ok, err = pcall(ga.apply_along_axis, function() error("mine", 0) end, 1, x)
    assert.is_false(ok)
    assert.equal("mine", err)      -- the user's error passes unchanged
  end)

  helper.gpu_it("apply_over_axes keeps dimensions; vectorize runs on the GPU", function()
    local x = ga.arange(24):reshape(2, 3, 4)
    local s = ga.apply_over_axes(ga.sum, x, { 1, 3 })
    assert.same({ 1, 3, 1 }, s.shape)
    -- sum over i and k of 12 i + 4 j + k: 60 + 32 j
    helper.assert_same({ { { 60 }, { 92 }, { 124 } } }, s:totable())
    local v = ga.vectorize(function(a, b) if a > b then return a - b end return a + b end)
    local a = ga.array(helper.random_table({ 4, 6 }, function() return math.random() end))
    local b = ga.array(helper.random_table({ 6 }, function() return math.random() end))
    local got = v(a, b)
    assert.same({ 4, 6 }, got.shape)
    local av, bv = a:totable(), b:totable()
    for i = 1, 4 do
      for j = 1, 6 do
        local x1, y1 = av[i][j], bv[j]
        assert.near(x1 > y1 and x1 - y1 or x1 + y1, got:totable()[i][j], 1e-12)
      end
    end
    local vf = ga.vectorize(function(p) return p * 2 end, "f")
    assert.equal("float32", vf(ga.array({ 1, 2 })).dtype)
    assert.same({}, ga.vectorize(function(p, q) return p + q end)(1, 2).shape)
    -- a signature: Lua per core slice
    local dotv = ga.vectorize(function(p, q) return ga.dot(p, q) end, { signature = "(n),(n)->()" })
    local m = ga.array({ { 1, 2 }, { 3, 4 }, { 5, 6 } })
    helper.assert_same({ 5, 11, 17 }, flat(dotv(m, ga.array({ 1, 2 }))))
  end)

  helper.gpu_it("piecewise picks values or function results by condition, later ones winning", function()
    local x = ga.linspace(-2, 2, 9)
    local y = ga.piecewise(x, { ga.less(x, 0), ga.greater_equal(x, 0) },
      { function(v) return -v end, function(v) return v * v end })
    local xv = flat(x)
    for i, v in ipairs(flat(y)) do assert.near(xv[i] < 0 and -xv[i] or xv[i] * xv[i], v, 1e-12) end
    local z = ga.piecewise(x, { ga.less(x, -1), ga.greater(x, 1) }, { -1, 1, 0.5 })
    for i, v in ipairs(flat(z)) do
      local w = xv[i] < -1 and -1 or (xv[i] > 1 and 1 or 0.5)
      assert.equal(w, v)
    end
    helper.assert_gaerror(function() ga.piecewise(x, { ga.less(x, 0) }, { 1, 2, 3 }) end, "either 1 or 2 functions")
  end)
end)
