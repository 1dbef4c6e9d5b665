-- Logic: the object tests without a device (isscalar, iscomplexobj,
-- isrealobj), and on the GPU isposinf/isneginf/isreal/iscomplex,
-- array_equiv, isclose/allclose with positional rtol/atol, array_equal,
-- isfortran, against Lua references on random data.
local helper = require "helper"
local ga = helper.ga

local function flat(x) return helper.flatten(x:totable()) end

describe("logic without a device", function()
  it("tests objects: isscalar, iscomplexobj, isrealobj", function()
    assert.is_true(ga.isscalar(3))
    assert.is_true(ga.isscalar(2.5))
    assert.is_true(ga.isscalar(true))
    assert.is_true(ga.isscalar("text"))
    assert.is_true(ga.isscalar(ga.float32(1)))
    assert.is_false(ga.isscalar({ 1, 2 }))
    assert.is_false(ga.isscalar(print))
    assert.is_true(ga.iscomplexobj(ga.complex64))
    assert.is_true(ga.iscomplexobj(ga.complex128(1)))
    assert.is_true(ga.iscomplexobj("complex64" == "x" and 1 or ga.dtype("complex128")))
    assert.is_false(ga.iscomplexobj(1.5))
    assert.is_false(ga.iscomplexobj({ 1, 2 }))
    assert.is_true(ga.isrealobj(ga.float16(1)))
    assert.is_false(ga.isrealobj(ga.complex64))
    helper.assert_gaerror(function() ga.isscalar() end, "isscalar: missing argument 'element'")
  end)

  it("declares isclose and allclose with NumPy's positional rtol and atol", function()
    helper.assert_gaerror(function() ga.isclose(1, 1, "x") end, "isclose: rtol must be a number")
    helper.assert_gaerror(function() ga.allclose(1, 1, 1e-5, "y") end, "allclose: atol must be a number")
    helper.assert_gaerror(function() ga.array_equiv(1) end, "array_equiv: missing argument 'a2'")
    helper.assert_gaerror(function() ga.isposinf(1, 2) end, "isposinf: out must be an ndarray")
  end)
end)

describe("logic on the GPU", function()
  helper.gpu_it("isposinf, isneginf, isreal, iscomplex follow NumPy", function()
    local inf = math.huge
    for _, dt in ipairs({ "float16", "float32", "float64" }) do
      local vals = { inf, -inf, 0 / 0, 1, -1, 0 }
      local x = ga.array(vals, dt)
      helper.assert_same({ true, false, false, false, false, false }, flat(ga.isposinf(x)), nil, dt)
      helper.assert_same({ false, true, false, false, false, false }, flat(ga.isneginf(x)), nil, dt)
    end
    helper.assert_same({ false, false }, flat(ga.isposinf(ga.array({ 1, 2 }, "int32"))))
    local out = ga.ones(2, "bool")
    assert.equal(out, ga.isneginf(ga.array({ 1, 2 }, "uint8"), out))
    helper.assert_same({ false, false }, flat(out))
    helper.assert_gaerror(function() ga.isposinf(ga.zeros(2, "complex64")) end, "complex values")
    local c = ga.array({ { 1, 0 }, { 1, 2 }, { 0, -0.5 } }, "complex128")
    helper.assert_same({ true, false, false }, flat(ga.isreal(c)))
    helper.assert_same({ false, true, true }, flat(ga.iscomplex(c)))
    helper.assert_same({ true, true }, flat(ga.isreal(ga.array({ 1.5, 2 }))))
    helper.assert_same({ false, false }, flat(ga.iscomplex(ga.array({ 1, 2 }, "int8"))))
    assert.is_true(ga.iscomplexobj(c))
    assert.is_true(ga.isrealobj(ga.zeros(2)))
    assert.is_false(ga.isscalar(ga.array(1)))
  end)

  helper.gpu_it("array_equiv broadcasts; array_equal does not; isfortran", function()
    local a = ga.array({ 1, 2 })
    assert.is_true(ga.array_equiv(a, ga.array({ { 1, 2 }, { 1, 2 } })))
    assert.is_false(ga.array_equiv(a, ga.array({ { 1, 2 }, { 1, 3 } })))
    assert.is_false(ga.array_equiv(a, ga.array({ 1, 2, 3 })))
    assert.is_true(ga.array_equiv(ga.zeros({ 0, 2 }), a))
    assert.is_false(ga.array_equal(a, ga.array({ { 1, 2 } })))
    assert.is_true(ga.array_equal(ga.array({ 0 / 0, 1 }), ga.array({ 0 / 0, 1 }), true))
    assert.is_false(ga.array_equal(ga.array({ 0 / 0, 1 }), ga.array({ 0 / 0, 1 })))
    local m = ga.zeros({ 3, 4 })
    assert.is_false(ga.isfortran(m))
    assert.is_true(ga.isfortran(m.T))
    assert.is_false(ga.isfortran(ga.zeros(5)))
  end)

  helper.gpu_it("isclose and allclose with positional rtol/atol and equal_nan, against a Lua reference", function()
    local n = 200
    local av, bv = {}, {}
    for i = 1, n do
      av[i] = (math.random() - 0.5) * 10
      bv[i] = av[i] * (1 + (math.random() - 0.5) * 2e-3) + (math.random() - 0.5) * 1e-3
    end
    av[1], bv[1] = 0 / 0, 0 / 0
    local a, b = ga.array(av), ga.array(bv)
    for _, tol in ipairs({ { 1e-5, 1e-8 }, { 1e-3, 1e-4 }, { 0, 1e-3 } }) do
      local got = flat(ga.isclose(a, b, tol[1], tol[2]))
      local gotn = flat(ga.isclose(a, b, tol[1], tol[2], true))
      for i = 1, n do
        local x, y = av[i], bv[i]
        local want = x == y or (x == x and y == y and math.abs(x - y) <= tol[2] + tol[1] * math.abs(y))
        assert.equal(want, got[i], ("rtol %g atol %g at %d"):format(tol[1], tol[2], i))
        assert.equal(want or (x ~= x and y ~= y), gotn[i])
      end
      local all_rest = true
      for i = 2, n do all_rest = all_rest and got[i] end
      assert.equal(all_rest, ga.allclose(a[{ { 2, n } }], b[{ { 2, n } }], tol[1], tol[2]))
      helper.assert_same(got, flat(ga.isclose(a, b, { rtol = tol[1], atol = tol[2] })))
    end
    assert.is_true(ga.allclose(a, a, 0, 0, true))
    assert.is_false(ga.allclose(a, a))
  end)
end)
