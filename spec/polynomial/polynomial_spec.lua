--- Polynomials against NumPy's values; the host eigenvalue solver
-- against NumPy's roots without a device.
local helper = require "helper"
local ga = helper.ga
local E = require "gpuarray.polynomial.eig"
local internal = require "gpuarray.internal"

local function sorted_pairs(wr, wi)
  local t = {}
  for i = 1, #wr do t[i] = { wr[i], wi[i] } end
  table.sort(t, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
  return t
end

describe("polynomial", function()
  it("the host QR iteration finds NumPy's roots of a companion matrix", function()
    -- numpy.roots([2, 3, -1, 5, 7, -2])
    local p = { 2, 3, -1, 5, 7, -2 }
    local rows = {}
    for i = 1, 5 do
      rows[i] = {}
      for j = 1, 5 do rows[i][j] = (i == j + 1) and 1 or 0 end
    end
    for j = 1, 5 do rows[1][j] = -p[j + 1] / p[1] end
    local got = sorted_pairs(E.eigvals(rows))
    local want = { { -1.8645929053475618, 0 }, { -1.224470337301313, 0 }, { 0.24362862712533906, 0 },
                   { 0.672717307761768, -1.1598461902085793 }, { 0.672717307761768, 1.1598461902085793 } }
    helper.assert_same(want, got, 1e-12)
  end)

  it("the host QR iteration on random matrices: trace and determinant are kept", function()
    for _ = 1, 20 do
      local n = math.random(2, 12)
      local a = {}
      for i = 1, n do
        a[i] = {}
        for j = 1, n do a[i][j] = math.random() * 2 - 1 end
      end
      local wr, wi = E.eigvals(a)
      assert.is_not_nil(wr, "did not converge (seed " .. helper.seed .. ")")
      local tr, sr, si = 0, 0, 0
      for i = 1, n do tr = tr + a[i][i] end
      for i = 1, n do sr, si = sr + wr[i], si + wi[i] end
      assert(math.abs(sr - tr) < 1e-10 and math.abs(si) < 1e-10, ("trace %g vs %g (seed %d)"):format(sr, tr,
        helper.seed))
    end
  end)

  it("compiles polyvander's kernel and checks arguments", function()
    internal.polyvander_kernel():compile("float64", "int64", "float64")
    helper.assert_gaerror(function() ga.polyder({ 1, 2 }, -1) end, "Order of derivative must be positive")
    helper.assert_gaerror(function() ga.polyint({ 1, 2 }, -1) end, "Order of integral must be positive")
    -- huge orders ran past the fuzzer's 10^8 instructions (fuzz decl seed 20261127)
    helper.assert_gaerror(function() ga.polyint(ga.empty({ 8, 4, 0 }, "bool"), 4294967296, 0) end,
                          "polyint: m = 4294967296 integrations are more than the 4096")
    local t = os.clock()
    assert.are.same({ 0 }, ga.polyder({ [0] = 2, [1.5] = 1, x = 4, [-1] = 3 }, 9007199254740993, {}).shape)
    assert(os.clock() - t < 1, "polyder(p, 2^53 + 1) took " .. (os.clock() - t) .. " s")
    helper.assert_gaerror(function() ga.polyfit({ 1, 2 }, { 1, 2 }, -1) end, "deg >= 0")
    helper.assert_gaerror(function() ga.polynomial.polyutils.trimcoef({ 1 }, -1) end, "tol must be non-negative")
    helper.assert_gaerror(function() ga.poly1d({ 1, 2 }, { rr = true }) end, "did you mean 'r'")
  end)

  helper.gpu_it("np.lib.polynomial: NumPy's values", function()
    local r = ga.roots({ 2, 3, -1, 5, 7, -2 })
    assert.are.equal("complex128", r.dtype)
    assert.are.same({ 5 }, r.shape)
    local rr = ga.roots({ 1, -6, 11, -6, 0, 0 })
    assert.are.equal("float64", rr.dtype)
    local t = rr:totable()
    table.sort(t)
    helper.assert_same({ 0, 0, 1, 2, 3 }, t, 1e-12)
    helper.assert_same({ 1, -6, 11, -6 }, ga.poly({ 1, 2, 3 }):totable(), 1e-14)
    helper.assert_same({ 1.0, -5.0, -1.9999999999999998 }, ga.poly(ga.array({ { 1, 2 }, { 3, 4 } })):totable(), 1e-13)
    helper.assert_same({ 4.0, 13.0, 7.75 }, ga.polyval({ 3, 0, 1 }, ga.array({ 1, 2, -1.5 })):totable())
    local x = ga.array({ 0, 1, 2, 3, 4, 5 }, "float64")
    local y = ga.array({ 1, 2.9, 9.2, 19.1, 32.8, 51.2 })
    helper.assert_same({ 2.001785714285715, 0.008214285714284099, 0.9964285714285799 }, ga.polyfit(x, y, 2):totable(),
      1e-10)
    assert.are.same({ 3, 5, 7 }, ga.polyadd({ 1, 2 }, { 3, 4, 5 }):totable())
    assert.are.same({ -3, -3, -3 }, ga.polysub({ 1, 2 }, { 3, 4, 5 }):totable())
    assert.are.same({ 3, 10, 13, 10 }, ga.polymul({ 1, 2 }, { 3, 4, 5 }):totable())
    local q, rem = ga.polydiv({ 1, -6, 11, -6 }, { 1, -1 })
    helper.assert_same({ 1, -5, 6 }, q:totable())
    helper.assert_same({ 0 }, rem:totable())
    assert.are.same({ 6, 4 }, ga.polyder({ 1, 2, 3, 4 }, 2):totable())
    helper.assert_same({ 1, 1, 1, 5 }, ga.polyint({ 3, 2, 1 }, 1, { 5 }):totable())
    helper.assert_same({ 0.25, 0.3333333333333333, 0.5, 0, 0 }, ga.polyint({ 3.0, 2, 1 }, 2):totable(), 1e-15)
    local p = ga.poly1d({ 1, 2, 3 })
    assert.are.equal(2, p.order)
    helper.assert_same({ 6, 11 }, p(ga.array({ 1.0, 2.0 })):totable())
    assert.are.same({ 2, 2 }, p:deriv().coeffs:totable())
    assert.is_true((p * p) == ga.poly1d({ 1, 4, 10, 12, 9 }))
    assert.is_true(ga.poly1d({ 1, -3, 2 }, true) == ga.poly1d({ 1, -3, 2 }, true))
  end)

  helper.gpu_it("ga.polynomial: NumPy's values", function()
    local P, U = ga.polynomial.polynomial, ga.polynomial.polyutils
    helper.assert_same({ { 1, 1, 1, 1 }, { 1, 2, 4, 8 }, { 1, 3, 9, 27 } }, P.polyvander({ 1.0, 2, 3 }, 3):totable())
    helper.assert_same({ { 0, 0, -0.25 }, { 1, 0, -0.5 }, { 0, 1, -0.75 } }, P.polycompanion({ 1.0, 2, 3,
      4 }):totable())
    helper.assert_same({ 6, 17, 34 }, P.polyval(ga.array({ 1.0, 2, 3 }), { 1, 2, 3 }):totable())
    helper.assert_same({ 0, -1 }, P.polyvalfromroots(ga.array({ 1.0, 2 }), { 1, 3 }):totable())
    helper.assert_same({ 1, 2 }, U.trimcoef({ 1.0, 2, 0, 1e-5, 0 }, 1e-4):totable())
    assert.are.same({ 1, 2 }, U.trimseq({ 1, 2, 0, 0 }))
    local p = ga.polynomial.Polynomial({ 1, 2, 3 })
    assert.are.equal(17.0, p(2.0):item())
    assert.are.equal(2, p:degree())
    helper.assert_same({ 2, 6 }, p:deriv().coef:totable())
    helper.assert_same({ 1, 1, 1, 1 }, p:integ(1, { 1 }).coef:totable())
    helper.assert_same({ 1, 2 }, ga.polynomial.Polynomial({ 2, -3, 1 }):roots():totable(), 1e-12)
  end)
end)
