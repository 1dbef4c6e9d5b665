--- ga.scipy.interpolate: kernels compile and the B-spline basis (CPU);
-- SciPy 1.10's values on the GPU (spec/scipy/ndimage/ref.lua, ref.py).
local helper = require "helper"
local ga = helper.ga
local R = dofile("spec/scipy/ndimage/ref.lua")
local I = ga.scipy.interpolate

-- Relative to the largest expected value, not to each value: a value
-- that is 0 in exact arithmetic (a clamped spline's end slope) comes out
-- as cancellation noise, eps times the magnitudes that cancelled (SciPy
-- 0.0, the device 5.6e-17 = eps / 4 on values of order 1).
local function close(want, got, tol, what)
  got = got:totable()
  tol = tol or 1e-10
  local flat, scale = {}, 0
  local function walk(t)
    for _, v in ipairs(t) do
      if type(v) == "table" then walk(v) else flat[#flat + 1] = v end
    end
  end
  walk(want)
  for _, v in ipairs(flat) do if v == v and math.abs(v) < math.huge then scale = math.max(scale, math.abs(v)) end end
  local function cmp(w, g, path)
    if type(w) == "table" then
      assert(type(g) == "table" and #g == #w, ("%s%s: shape differs"):format(what, path))
      for i = 1, #w do cmp(w[i], g[i], path .. "[" .. i .. "]") end
    elseif w ~= g and not (w ~= w and g ~= g) then
      assert(math.abs(w - g) <= tol * math.max(scale, 1e-300),
        ("%s%s: %.17g, want %.17g (tolerance %g of %g)"):format(what, path, g, w, tol, scale))
    end
  end
  cmp(want, got, "")
end

describe("scipy.interpolate", function()
  it("compiles its evaluation kernels", function()
    assert.is_true(I._common.K.compile_all())
    assert.is_not_nil(I._rgi_kernel(3, false):compile("float64", "float64", "float64", "int64", "bool", "float64",
                                                      "int64", "int64", "int64", "int64", "int64", "int64", "float64"))
    assert.is_not_nil(I._rbf_kernel_matrix("cubic"):compile("float64", "float64", "int64", "int64", "float64",
                                                            "float64"))
  end)

  it("scattered data: SciPy's gradient estimate on the host; the kernels compile", function()
    local H = ga.scipy.spatial._delaunay.host
    local t = H.triangulate(R.sc_P, 2)
    local vnv = H.vertex_neighbors(t.simplices, #R.sc_P)
    local grads, ok = I._estimate_gradients(R.sc_P, vnv, { R.sc_v }, 1e-6, 400)
    assert.is_true(ok)
    helper.assert_same(R.ct_grad, grads[1], 1e-12, "CloughTocher2DInterpolator gradients")
    assert.is_not_nil(I._scattered_kernel("linear"):compile("float64", "float64", "int64", "float64", "int64",
                                                            "int32", "int64", "float64", "float64", "float64"))
    assert.is_not_nil(I._scattered_kernel("ct"):compile("float64", "float64", "int64", "int64", "float64", "float64",
                                                        "float64", "int64", "int64", "float64", "float64", "float64"))
    assert.is_not_nil(I._tensor_kernel("ppoly"):compile("float64", "float64", "float64", "int64", "int64", "int64",
                                                        "int64", "int64", "int32", "int64", "bool", "float64"))
    assert.is_not_nil(I._tensor_kernel("bspl"):compile("float64", "float64", "float64", "int64", "int64", "int64",
                                                       "int64", "int64", "int32", "int64", "bool", "float64"))
    local api = require "gpuarray.api"
    for _, name in ipairs({ "LinearNDInterpolator", "CloughTocher2DInterpolator", "NdPPoly", "NdBSpline" }) do
      assert.is_not_nil(api.entry(I[name]), name)
    end
  end)

  it("the B-spline basis is SciPy's and sums to one", function()
    helper.assert_same({ 0.03125, 0.46875, 0.46875, 0.03125 }, I._basis({ 0, 0, 0, 0, 1, 2, 3, 3, 3, 3 }, 3, 1.5, 5),
                       1e-15)
  end)

  it("Krogh refuses no points at once (fuzz decl: table.unpack of the missing first row)", function()
    helper.assert_gaerror(function() I.KroghInterpolator(ga.empty({ 0 }, "uint32"), {}) end,
                          "scipy.interpolate.KroghInterpolator: xi must hold at least one point")
    helper.assert_gaerror(function() I.krogh_interpolate(ga.empty({ 0 }), ga.empty({ 0, 3 }), {}) end,
                          "scipy.interpolate.krogh_interpolate: xi must hold at least one point")
  end)

  helper.gpu_it("interp1d kinds, CubicSpline boundary conditions, Pchip, Akima", function()
    local x, y, q = ga.array(R.ix), ga.array(R.iy), ga.array(R.iq)
    for _, kind in ipairs({ "linear", "slinear", "quadratic", "cubic" }) do
      close(R["interp1d/" .. kind], I.interp1d(x, y, kind, -1, true, false, "extrapolate")(q), 1e-10, kind)
    end
    for _, kind in ipairs({ "nearest", "nearest-up", "previous", "next" }) do
      close(R["interp1d/" .. kind], I.interp1d(x, y, kind, -1, true, false, { -1, 9 })(q), 1e-12, kind)
    end
    for _, bc in ipairs({ "not-a-knot", "natural", "clamped" }) do
      local cs = I.CubicSpline(x, y, 1, bc)
      close(R["cs/" .. bc], cs(q), 1e-10, "CubicSpline " .. bc)
      close(R["csd/" .. bc], cs(q, 1), 1e-10, "CubicSpline derivative " .. bc)
    end
    close(R["cs/periodic"], I.CubicSpline(x, ga.array(R.iyp), 1, "periodic")(q), 1e-10, "periodic")
    close(R.cs3, I.CubicSpline(x[{ { 1, 3 } }], y[{ { 1, 3 } }])(q), 1e-10, "3 points")
    close(R.cs_anti, I.CubicSpline(x, y):antiderivative()(q), 1e-10, "antiderivative")
    close(R.pchip, I.PchipInterpolator(x, y)(q), 1e-10, "pchip")
    close(R.akima, I.Akima1DInterpolator(x, y)(q), 1e-10, "akima")
    helper.assert_gaerror(function() I.interp1d(x, y)(ga.array({ 10.0 })) end, "above the interpolation range")
  end)

  helper.gpu_it("B-splines, Krogh, barycentric, grids, RBF, nearest", function()
    local x, y, q = ga.array(R.ix), ga.array(R.iy), ga.array(R.iq)
    for _, k in ipairs({ 0, 1, 2, 3, 5 }) do
      close(R["mis/" .. k], I.make_interp_spline(x, y, k)(q), 1e-9, "make_interp_spline k=" .. k)
    end
    close(R.lsq, I.make_lsq_spline(x, y, R.lsq_t)(q), 1e-9, "make_lsq_spline")
    close(R.ius, I.InterpolatedUnivariateSpline(x, y, nil, {}, 2)(q), 1e-9, "InterpolatedUnivariateSpline k=2")
    close(R.krogh, I.KroghInterpolator(x, y)(q), 1e-8, "krogh")
    close(R.bary, I.BarycentricInterpolator(x, y)(q), 1e-8, "barycentric")
    local pts = ga.array(R.rg_pts)
    close(R.rgi_linear, I.RegularGridInterpolator({ { 0, 1, 2.5, 4 }, { -1, 0, 1, 3, 3.5 } }, R.rg_vals)(pts), 1e-12,
          "rgi linear")
    close(R.rgi_nearest, I.interpn({ { 0, 1, 2.5, 4 }, { -1, 0, 1, 3, 3.5 } }, R.rg_vals, pts, "nearest"), nil,
          "interpn nearest")
    close(R.rbf, I.RBFInterpolator(R.rbf_P, R.rbf_d)(pts / 4), 1e-8, "rbf")
    close(R.nearestnd, I.NearestNDInterpolator(R.rbf_P, R.rbf_d)(pts / 4), nil, "nearest nd")
    helper.assert_gaerror(function() I.make_interp_spline(x, y, 4) end, "Odd degree")
  end)

  helper.gpu_it("LinearNDInterpolator (2-D, 3-D, columns, fill, rescale), CloughTocher2DInterpolator", function()
    local P, Q = ga.array(R.sc_P), ga.array(R.sc_Q)
    local f = I.LinearNDInterpolator(P, ga.array(R.sc_v))
    local y = f(Q)
    assert.are.equal("float64", y.dtype)
    assert.are.same({ #R.sc_Q }, y.shape)
    close(R.lnd, y, 1e-12, "LinearNDInterpolator")
    close(R.lnd, f(Q[{ {}, 1 }], Q[{ {}, 2 }]), 1e-12, "LinearNDInterpolator f(x, y)")
    local f2 = I.LinearNDInterpolator(P, ga.array(R.sc_v2), -1.0)
    assert.are.same({ #R.sc_Q, 2 }, f2(Q).shape)
    close(R.lnd2, f2(Q), 1e-12, "LinearNDInterpolator columns, fill_value")
    local scale = ga.array({ 1.0, 100.0 })
    close(R.lnd_rescale, I.LinearNDInterpolator(P * scale, ga.array(R.sc_v), nil, true)(Q * scale), 1e-12,
          "LinearNDInterpolator rescale")
    close(R.lnd3, I.LinearNDInterpolator(R.sc3_P, R.sc3_v)(R.sc3_Q), 1e-12, "LinearNDInterpolator 3-D")
    local tri = ga.scipy.spatial.Delaunay(P)
    close(R.lnd, I.LinearNDInterpolator(tri, ga.array(R.sc_v))(Q), 1e-12, "LinearNDInterpolator on a Delaunay")
    local ct = I.CloughTocher2DInterpolator(P, ga.array(R.sc_v))
    close(R.ct, ct(Q), 1e-10, "CloughTocher2DInterpolator")
    close(R.ct_grad, ct.grad:reshape(#R.sc_P, 2), 1e-10, "CloughTocher2DInterpolator grad")
    close(R.ct2, I.CloughTocher2DInterpolator(P, ga.array(R.sc_v2))(Q), 1e-10, "CloughTocher2DInterpolator columns")
    close(R.ct_rescale, I.CloughTocher2DInterpolator(P * scale, R.sc_v, nil, nil, nil, true)(Q * scale), 1e-10,
          "CloughTocher2DInterpolator rescale")
    helper.assert_gaerror(function() I.CloughTocher2DInterpolator(R.sc3_P, R.sc3_v) end, "2-D")
    helper.assert_gaerror(function() I.LinearNDInterpolator(P, { 1, 2 }) end, "number of values")
    helper.assert_gaerror(function() f(ga.ones({ 2, 3 })) end, "dimensions")
  end)

  helper.gpu_it("NdPPoly (derivatives, columns, no extrapolation) and NdBSpline (derivatives, columns)", function()
    local Q = ga.array(R.np_Q)
    local p = I.NdPPoly(R.np_c, { R.np_x, R.np_y })
    local y = p(Q)
    assert.are.same({ #R.np_Q }, y.shape)
    close(R.np_v, y, 1e-12, "NdPPoly")
    close(R.np_noext, p(Q, nil, false), 1e-12, "NdPPoly extrapolate = false")
    close(R.np_d10, p(Q, { 1, 0 }), 1e-12, "NdPPoly nu {1, 0}")
    close(R.np_d12, p(Q, { 1, 2 }), 1e-12, "NdPPoly nu {1, 2}")
    local p3 = I.NdPPoly(R.np_c3, { R.np_x, R.np_y })
    assert.are.same({ #R.np_Q, 2 }, p3(Q).shape)
    close(R.np_v3, p3(Q), 1e-12, "NdPPoly columns")
    local BQ = ga.array(R.nb_Q)
    local s = I.NdBSpline({ R.nb_tx, R.nb_ty }, R.nb_c, { 3, 2 })
    close(R.nb_v, s(BQ), 1e-12, "NdBSpline")
    close(R.nb_d12, s(BQ, { 1, 2 }), 1e-10, "NdBSpline nu {1, 2}")
    local s2 = I.NdBSpline({ R.nb_tx, R.nb_ty }, R.nb_c2, { 3, 2 })
    assert.are.same({ #R.nb_Q, 2 }, s2(BQ).shape)
    close(R.nb_v2, s2(BQ), 1e-12, "NdBSpline columns")
    local outside = s(BQ, nil, false):totable()
    assert(outside[#outside] ~= outside[#outside], "NdBSpline extrapolate = false gives NaN outside")
    helper.assert_gaerror(function() I.NdBSpline({ R.nb_tx, R.nb_ty }, R.nb_c, 2) end, "coefficients")
    helper.assert_gaerror(function() I.NdPPoly(R.np_c, { R.np_y, R.np_x }) end, "breakpoints")
    helper.assert_gaerror(function() p(ga.ones({ 2, 3 })) end, "last axis")
  end)
end)
