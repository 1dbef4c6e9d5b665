--- B-splines, symmetric IIR smoothing and chirp z-transforms against
-- SciPy 1.10 (ref_misc.py).
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_misc"
local signal = ga.scipy.signal
local S = require("gpuarray.internal").scipy_signal

describe("scipy.signal B-splines and chirp z-transforms", function()
  it("compiles the evaluation kernels and checks arguments on the host", function()
    for _, k in ipairs({ "cubic", "quad" }) do
      S.spline_eval_kernel(k):compile("float64", "float64", "int64", "float64", "float64", "float64")
    end
    helper.assert_gaerror(function() signal.symiirorder2({ 1, 2, 3 }, 1.5, 0.3) end, "r must be less than 1.0")
    helper.assert_gaerror(function() signal.qspline1d({ 1, 2, 3 }, 0.5) end, "not supported")
    helper.assert_gaerror(function() signal.qspline2d({ { 1, 2 } }, 0.5) end, "not yet implemented")
    helper.assert_gaerror(function() signal.CZT(0) end, "n must be positive")
    helper.assert_gaerror(function() signal.czt_points(0) end, "m must be positive")
    helper.assert_gaerror(function() signal.ZoomFFT(8, { 0.1, 0.2, 0.3 }) end, "fn must be")
  end)

  helper.gpu_it("symiirorder1 (real, complex), symiirorder2 (omega, pi)", function()
    local P = REF.splines
    local x = ga.array(P.x)
    C.close(P.sym1, signal.symiirorder1(x, 0.7, 0.5):totable(), 1e-10, "symiirorder1")
    local xc = x:astype("complex128")
    C.close(P.sym1c, signal.symiirorder1(xc, { 0.7, 0.1 }, { 0.5, -0.2 }):totable(), 1e-10, "symiirorder1 complex")
    C.close(P.sym2, signal.symiirorder2(x, 0.5, 0.3):totable(), 1e-10, "symiirorder2")
    C.close(P.sym2pi, signal.symiirorder2(x, 0.4, math.pi):totable(), 1e-10, "symiirorder2 pi")
    helper.assert_gaerror(function() signal.symiirorder1(x, 1, 1.5) end, "|z1| must be less than 1.0")
  end)

  helper.gpu_it("cspline1d (smoothing), qspline1d, cspline2d, qspline2d, spline_filter, evaluation", function()
    local P = REF.splines
    local x = ga.array(P.x)
    C.close(P.c1, signal.cspline1d(x):totable(), 1e-10, "cspline1d")
    C.close(P.c1l, signal.cspline1d(x, 0.5):totable(), 1e-10, "cspline1d lamb")
    C.close(P.q1, signal.qspline1d(x):totable(), 1e-10, "qspline1d")
    local img = ga.array(P.img)
    C.close(P.c2, signal.cspline2d(img):totable(), 1e-9, "cspline2d")
    C.close(P.c2l, signal.cspline2d(img, 0.5):totable(), 1e-9, "cspline2d lambda")
    C.close(P.q2, signal.qspline2d(img):totable(), 1e-9, "qspline2d")
    C.close(P.filt, signal.spline_filter(img, 2.0):totable(), 1e-6, "spline_filter")
    local cj = signal.cspline1d(x)
    local nx = ga.array(P.newx)
    C.close(P.c1eval, signal.cspline1d_eval(cj, nx):totable(), 1e-10, "cspline1d_eval")
    C.close(P.c1eval_dx, signal.cspline1d_eval(cj, nx, 1.5, 2.0):totable(), 1e-10, "cspline1d_eval dx x0")
    C.close(P.q1eval, signal.qspline1d_eval(signal.qspline1d(x), nx):totable(), 1e-10, "qspline1d_eval")
  end)

  helper.gpu_it("czt, zoom_fft, CZT, ZoomFFT, czt_points", function()
    local Z = REF.czt
    local pairs_ = {}
    for i, v in ipairs(Z.x) do pairs_[i] = { v[1], v[2] } end
    local x = ga.array(pairs_, "complex128")
    C.close(Z.r, signal.czt(x):totable(), 1e-10, "czt (the DFT)")
    local w = { 0.99 * math.cos(-0.2), 0.99 * math.sin(-0.2) }
    local a = { 0.9 * math.cos(0.3), 0.9 * math.sin(0.3) }
    C.close(Z.m20, signal.czt(x, 20, w, a):totable(), 1e-9, "czt m w a")
    local t = signal.CZT(12, 20, w, a)
    C.close(Z.m20, t(x):totable(), 1e-9, "CZT object")
    C.close(Z.zoom, signal.zoom_fft(x, { 0.1, 0.6 }, 15):totable(), 1e-10, "zoom_fft")
    C.close(Z.zoom_ep, signal.zoom_fft(x, 0.5, 8, { fs = 1.5, endpoint = true }):totable(), 1e-10, "zoom_fft endpoint")
    local zf = signal.ZoomFFT(12, { 0.1, 0.6 }, 15)
    C.close(Z.zoom, zf:transform(x):totable(), 1e-10, "ZoomFFT object")
    C.close(Z.points, signal.czt_points(6, { 0.9 * math.cos(-0.3), 0.9 * math.sin(-0.3) }, 1.1):totable(), 1e-12,
      "czt_points")
    C.close(Z.points_default, signal.czt_points(5):totable(), 1e-12, "czt_points default")
    local rows = {}
    for i, v in ipairs(Z.x) do rows[1] = rows[1] or {}; rows[2] = rows[2] or {}; rows[1][i], rows[2][i] = v[1], v[2] end
    C.close(Z.rows, signal.czt(ga.array(rows), 7):totable(), 1e-10, "czt of rows")
  end)
end)
