--- upfirdn, resample, resample_poly, decimate, detrend, hilbert and
-- hilbert2 against SciPy 1.10 (ref_conv.py).
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_conv"
local signal = ga.scipy.signal
local S = require("gpuarray.internal").scipy_signal

local function A(t, dt) return ga.array(t, dt) end

describe("scipy.signal resampling", function()
  it("compiles upfirdn's kernel for every dtype and checks arguments on the host", function()
    for _, dt in ipairs({ "float32", "float64", "complex64", "complex128" }) do S.upfirdn_kernel(dt) end
    helper.assert_gaerror(function() signal.upfirdn({ 1 }, { 1, 2 }, 1, 1, -1, "periodic") end, "mode")
    helper.assert_gaerror(function() signal.decimate({ 1, 2 }, 2, nil, "median") end, "ftype")
    helper.assert_gaerror(function() signal.detrend({ 1, 2 }, -1, "quadratic") end, "type")
  end)

  helper.gpu_it("upfirdn: up / down factors, the nine extension modes, cval", function()
    local U = REF.upfirdn
    local x, h = A(U.x), A(U.h)
    for key, want in pairs(U.r) do
      local up, down = key:match("(%d+),(%d+)")
      C.close(want, signal.upfirdn(h, x, tonumber(up), tonumber(down)):totable(), 1e-12, "upfirdn " .. key)
    end
    for mode, want in pairs(U.modes) do
      C.close(want, signal.upfirdn(h, x, 2, 3, { mode = mode }):totable(), 1e-11, "upfirdn mode " .. mode)
    end
    C.close(U.cval, signal.upfirdn(h, x, 2, 1, { mode = "constant", cval = 0.7 }):totable(), 1e-12, "cval")
    local X = ga.stack({ x, x * 2 })
    local r = signal.upfirdn(h, X, 3, 2)
    assert.are.same({ 2, #U.r["3,2"] }, r.shape)
    C.close(U.r["3,2"], r[1]:totable(), 1e-12, "row 1")
    local r32 = signal.upfirdn(A(U.h, "float32"), A(U.x, "float32"), 3, 2)
    assert.are.equal("float32", r32.dtype)
  end)

  helper.gpu_it("resample (up, down, even, complex, window, t) and resample_poly", function()
    local R = REF.resample
    local x = A(R.x)
    C.close(R.up, signal.resample(x, 31):totable(), 1e-11, "resample up")
    C.close(R.down, signal.resample(x, 9):totable(), 1e-11, "resample down")
    C.close(R.even, signal.resample(x, 12):totable(), 1e-11, "resample even")
    local rev = {}
    for i = 1, #R.x do rev[i] = { R.x[i], R.x[#R.x - i + 1] } end
    C.close(R.complex, signal.resample(ga.array(rev, "complex128"), 13):totable(), 1e-11, "complex down")
    C.close(R.complex_up, signal.resample(ga.array(rev, "complex128"), 26):totable(), 1e-11, "complex up")
    C.close(R.window, signal.resample(x, 15, { window = "hann" }):totable(), 1e-11, "window")
    local t = {}
    for i = 0, 19 do t[i + 1] = i * 0.5 end
    local y, nt = signal.resample(x, 8, t)
    C.close(R.t, { y:totable(), nt:totable() }, 1e-11, "with t")
    local P = REF.resample_poly
    C.close(P.r32, signal.resample_poly(x, 3, 2):totable(), 1e-11, "resample_poly 3/2")
    C.close(P.r25, signal.resample_poly(x, 2, 5):totable(), 1e-11, "resample_poly 2/5")
    C.close(P.mean, signal.resample_poly(x, 3, 4, { padtype = "mean" }):totable(), 1e-11, "padtype mean")
    C.close(P.line, signal.resample_poly(x, 5, 3, { padtype = "line" }):totable(), 1e-11, "padtype line")
    C.close(P.window, signal.resample_poly(x, 2, 3, { window = { 0.2, 0.5, 0.8, 0.5, 0.2 } }):totable(), 1e-11,
      "taps as window")
  end)

  helper.gpu_it("decimate (iir, fir, zero_phase or not), detrend (linear, constant, breakpoints, axis)", function()
    local D = REF.decimate
    local x = A(D.x)
    C.close(D.iir, signal.decimate(x, 4):totable(), 1e-9, "decimate iir")
    C.close(D.fir, signal.decimate(x, 3, nil, "fir"):totable(), 1e-11, "decimate fir")
    C.close(D.nozp, signal.decimate(x, 2, { zero_phase = false }):totable(), 1e-9, "decimate iir causal")
    C.close(D.fir_nozp, signal.decimate(x, 3, nil, "fir", { zero_phase = false }):totable(), 1e-11, "fir causal")
    local T = REF.detrend
    local X = A(T.x)
    C.close(T.linear, signal.detrend(X):totable(), 1e-11, "detrend linear")
    C.close(T.constant, signal.detrend(X, { type = "constant" }):totable(), 1e-12, "detrend constant")
    C.close(T.bp, signal.detrend(X, { bp = { 4, 7 } }):totable(), 1e-11, "detrend breakpoints")
    C.close(T.axis0, signal.detrend(X, 1):totable(), 1e-11, "detrend axis 1")
  end)

  helper.gpu_it("hilbert (N), hilbert2 (N), complex results", function()
    local Hh = REF.hilbert
    local r = signal.hilbert(A(Hh.x))
    assert.are.equal("complex128", r.dtype)
    C.close(Hh.r, r:totable(), 1e-12, "hilbert")
    C.close(Hh.r13, signal.hilbert(A(Hh.x), 13):totable(), 1e-12, "hilbert N")
    C.close(Hh.r2, signal.hilbert2(A(Hh.x2)):totable(), 1e-12, "hilbert2")
    C.close(Hh.r2n, signal.hilbert2(A(Hh.x2), { 8, 5 }):totable(), 1e-12, "hilbert2 N")
    assert.are.equal("complex64", signal.hilbert(A(Hh.x, "float32")).dtype)
    helper.assert_gaerror(function() signal.hilbert(ga.array({ { 1, 2 } }, "complex128")) end, "must be real")
  end)
end)
