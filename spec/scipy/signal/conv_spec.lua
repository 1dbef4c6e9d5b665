--- Convolution, rank filters and Savitzky-Golay filtering against SciPy
-- 1.10 (ref_conv.py). CPU: kernels compile, the geometry and the cost
-- model, the errors raised before the device is touched. GPU: every mode,
-- method and boundary, odd and even sizes, int, complex and N-D inputs.
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_conv"
local signal = ga.scipy.signal
local S = require("gpuarray.internal").scipy_signal

local function A(t, dt) return ga.array(t, dt) end
local function cpx(t)
  local out = {}
  for i, v in ipairs(t) do out[i] = { v[1], v[2] } end
  return ga.array(out, "complex128")
end

describe("scipy.signal convolution and rank filters", function()
  it("compiles the direct, 2-D, 1-D and rank kernels for every dtype", function()
    for _, which in ipairs({ "nd", "2d", "1d" }) do
      for _, dt in ipairs({ "float16", "float32", "float64", "complex64", "complex128", "int32", "int64", "uint8" }) do
        S.conv_kernel(which, dt)
      end
    end
    for _, dt in ipairs({ "float32", "float64", "int16", "uint8" }) do S.order_kernel(dt, 9, 4) end
  end)

  it("mode geometry, transform lengths and the cost model", function()
    local os, off = S.mode_geometry({ 13 }, { 4 }, "same", "t")
    assert.are.same({ { 13 }, { 1 } }, { os, off })
    os, off = S.mode_geometry({ 4, 13 }, { 6, 4 }, "full", "t")
    assert.are.same({ { 9, 16 }, { 0, 0 } }, { os, off })
    os, off = S.mode_geometry({ 4 }, { 13 }, "valid", "t")
    assert.are.same({ { 10 }, { 3 } }, { os, off })
    assert.are.equal(4116, S.fast_len(4111))
    assert.are.equal(1, S.fast_len(1))
    -- both inputs are padded to the transform length: "same" with in2
    -- longer than in1 (13 against 4) needs 13 points, not full - start = 10
    for _, mode in ipairs({ "full", "same", "valid" }) do
      for _, n in ipairs({ { 4, 13 }, { 13, 4 }, { 1, 9 }, { 6, 6 } }) do
        local L = S.fft_len(n[1], n[2], mode)
        assert(L >= n[1] and L >= n[2], ("%s %d %d: length %d"):format(mode, n[1], n[2], L))
        local start = mode == "full" and 0 or (mode == "same" and (n[2] - 1) // 2 or math.min(n[1], n[2]) - 1)
        assert(L >= n[1] + n[2] - 1 - start, ("%s %d %d: the window wraps"):format(mode, n[1], n[2]))
      end
    end
    for _, n in ipairs({ 7, 11, 13, 1000, 4097 }) do
      local f = S.fast_len(n)
      assert(f >= n)
      local r = f
      for _, p in ipairs({ 2, 3, 5, 7 }) do while r % p == 0 do r = r // p end end
      assert.are.equal(1, r, "fast length " .. f .. " is 7-smooth")
    end
    local d, f = S.conv_costs({ 4096, 4096 }, { 31, 31 }, "same")
    assert(f < d, "a 31 x 31 kernel over 4096^2 is cheaper with FFTs")
    d, f = S.conv_costs({ 1000 }, { 5 }, "full")
    assert(d < f, "a 5-tap filter of 1000 samples is cheaper directly")
  end)

  it("checks its arguments before touching the device", function()
    helper.assert_gaerror(function() signal.convolve({ 1, 2 }, { 1 }, "bogus") end, "mode")
    helper.assert_gaerror(function() signal.convolve({ 1, 2 }, { 1 }, "full", "slow") end, "method")
    helper.assert_gaerror(function() signal.convolve2d({ { 1 } }, { { 1 } }, "full", "reflect") end, "boundary")
    helper.assert_gaerror(function() signal.medfilt({ 1, 2 }, { 1, 3 }) end, "one entry per dimension")
    helper.assert_gaerror(function() signal.medfilt({ 1, 2 }, 4) end, "should be odd")
    helper.assert_gaerror(function() signal.medfilt2d({ 1, 2 }) end, "2-D")
    helper.assert_gaerror(function() signal.savgol_filter({ 1, 2, 3 }, 3, 3) end, "polyorder must be less")
    helper.assert_gaerror(function() signal.correlation_lags(3, 2, "middle") end, "mode")
  end)

  helper.gpu_it("convolve and correlate: full/same/valid, direct and fft, 1-D, 2-D, 3-D, int, complex", function()
    local inputs = {
      ["1d"] = { A(REF.a1), A(REF.b1) }, ["2d"] = { A(REF.a2), A(REF.b2) }, ["3d"] = { A(REF.a3), A(REF.b3) },
      int = { A(REF.ai, "int64"), A(REF.bi, "int64") }, complex = { cpx(REF.ac), cpx(REF.bc) },
      swap = { A(REF.b1), A(REF.a1) },
    }
    for _, c in ipairs(REF.conv) do
      local x, h = inputs[c.name][1], inputs[c.name][2]
      local what = ("%s %s %s"):format(c.name, c.mode, c.method)
      local r = signal.convolve(x, h, c.mode, c.method)
      if c.name == "int" then assert.are.equal("int64", r.dtype, what) end
      C.close(c.convolve, r:totable(), 1e-10, "convolve " .. what)
      C.close(c.correlate, signal.correlate(x, h, c.mode, c.method):totable(), 1e-10, "correlate " .. what)
    end
    -- auto picks a method and gives the same numbers
    C.close(REF.conv[1].convolve, signal.convolve(A(REF.a1), A(REF.b1)):totable(), 1e-10, "auto")
    assert.are.equal("direct", signal.choose_conv_method(A(REF.a1), A(REF.b1)))
    local m, t = signal.choose_conv_method(A(REF.a2), A(REF.b2), "full", true)
    assert(m == "direct" or m == "fft")
    assert(t.direct > 0 and t.fft > 0)
  end)

  helper.gpu_it("fftconvolve over axes (broadcast), oaconvolve, float32 stays float32", function()
    local F = REF.fftconvolve_axes
    C.close(F.r, signal.fftconvolve(A(F.x), A(F.h), "same", 2):totable(), 1e-10, "axes 2")
    C.close(F.r2, signal.fftconvolve(A(F.x), A(F.hcol), "full", { 1 }):totable(), 1e-10, "axes {1}")
    C.close(REF.oaconvolve, signal.oaconvolve(A(REF.a2), A(REF.b2), "same"):totable(), 1e-10, "oaconvolve")
    local r = signal.fftconvolve(A(REF.a2, "float32"), A(REF.b2, "float32"), "same")
    assert.are.equal("float32", r.dtype)
    assert.are.same({ 5, 6 }, r.shape)
    C.close(REF.conv[9].convolve, r:totable(), 1e-5, "float32 same")
  end)

  helper.gpu_it("convolve2d / correlate2d: fill (fillvalue), wrap, symm; every mode; swapped valid", function()
    local x, h = A(REF.a2), A(REF.b2)
    for _, c in ipairs(REF.c2d) do
      local what = c.boundary .. " " .. c.mode
      C.close(c.conv, signal.convolve2d(x, h, c.mode, c.boundary, 1.5):totable(), 1e-12, "convolve2d " .. what)
      C.close(c.corr, signal.correlate2d(x, h, c.mode, c.boundary, 1.5):totable(), 1e-12, "correlate2d " .. what)
    end
    C.close(REF.c2d_swap.conv, signal.convolve2d(h, x, "valid"):totable(), 1e-12, "convolve2d swapped")
    C.close(REF.c2d_swap.corr, signal.correlate2d(h, x, "valid"):totable(), 1e-12, "correlate2d swapped")
    C.close(REF.sepfir2d, signal.sepfir2d(x, { 1.0, 2.0, 0.5 }, { 0.3, 1.0, -0.2, 0.5, 0.1 }):totable(), 1e-12,
      "sepfir2d")
  end)

  helper.gpu_it("correlation_lags", function()
    for mode, cases in pairs(REF.lags) do
      local args = { { 7, 4 }, { 4, 7 }, { 6, 3 } }
      for i, want in ipairs(cases) do
        local got = signal.correlation_lags(args[i][1], args[i][2], mode)
        assert.are.equal("int64", got.dtype)
        C.close(want, got:totable(), 0, ("lags %s %d %d"):format(mode, args[i][1], args[i][2]))
      end
    end
  end)

  helper.gpu_it("order_filter, medfilt (N-D, sizes), medfilt2d, wiener", function()
    local O = REF.order
    local x = A(O.x)
    C.close(O.r0, signal.order_filter(x, A(O.domain), 0):totable(), 0, "order_filter rank 0")
    C.close(O.r3, signal.order_filter(x, A(O.domain), 3):totable(), 0, "order_filter rank 3")
    C.close(O.medfilt, signal.medfilt(x):totable(), 0, "medfilt")
    C.close(O.medfilt35, signal.medfilt(x, { 3, 5 }):totable(), 0, "medfilt 3x5")
    C.close(O.medfilt1, signal.medfilt(A(REF.a1), 5):totable(), 0, "medfilt 1-D")
    C.close(O.medfilt2d, signal.medfilt2d(x, 5):totable(), 0, "medfilt2d")
    local f32 = signal.medfilt2d(A(O.x, "float32"), 3)
    assert.are.equal("float32", f32.dtype)
    C.close(O.wiener, signal.wiener(x):totable(), 1e-12, "wiener")
    C.close(O.wiener_n, signal.wiener(x, { 3, 5 }, 0.5):totable(), 1e-12, "wiener mysize noise")
    helper.assert_gaerror(function() signal.medfilt(x, 4) end, "odd")
  end)

  helper.gpu_it("savgol_filter: every mode, derivatives, cval, axis", function()
    local G = REF.savgol
    local x = A(G.x)
    for mode, want in pairs(G.modes) do
      C.close(want, signal.savgol_filter(x, 7, 2, { mode = mode }):totable(), 1e-11, "savgol " .. mode)
    end
    C.close(G.deriv, signal.savgol_filter(x, 6, 3, 1, 0.5):totable(), 1e-10, "savgol deriv")
    C.close(G.cval, signal.savgol_filter(x, 5, 1, { mode = "constant", cval = 2.0 }):totable(), 1e-11, "cval")
    C.close(G.axis0, signal.savgol_filter(A(G.x2), 5, 2, { axis = 1 }):totable(), 1e-11, "axis 1")
    local f = signal.savgol_filter(A(G.x, "float32"), 7, 2)
    assert.are.equal("float32", f.dtype)
  end)
end)
