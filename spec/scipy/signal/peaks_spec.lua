--- Peak finding, waveforms and wavelets against SciPy 1.10 (ref_misc.py).
-- Positions are 1-based: the reference adds 1 to SciPy's.
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_misc"
local signal = ga.scipy.signal
local S = require("gpuarray.internal").scipy_signal

describe("scipy.signal peaks, waveforms, wavelets", function()
  it("compiles the peak kernels; max_len_seq's register matches SciPy on the host", function()
    local a, b, c = S.peak_kernels()
    a:compile("float64", "int64", "int64", "int64")
    b:compile("float64", "int64", "int64", "int64", "float64", "int64", "int64")
    c:compile("float64", "int64", "float64", "int64", "int64", "float64", "float64", "float64", "float64", "float64")
    local W = REF.waveforms
    local seq, st = S.mls_host(5, { 1, 1, 1, 1, 1 }, 31, { 3 })
    C.close(W.mls[1], { seq, st }, 0, "max_len_seq 5")
    seq, st = S.mls_host(6, { 1, 0, 1, 1, 0, 1 }, 40, { 5 })
    C.close(W.mls[2], { seq, st }, 0, "max_len_seq state")
    seq, st = S.mls_host(4, { 1, 1, 1, 1 }, 20, { 1 })
    C.close(W.mls[3], { seq, st }, 0, "max_len_seq taps")
  end)

  it("checks its arguments before touching the device", function()
    helper.assert_gaerror(function() signal.find_peaks({ 1, 2, 1 }, { distance = 0.5 }) end, "`distance`")
    helper.assert_gaerror(function() signal.find_peaks({ 1, 2, 1 }, { width = 1, wlen = 1 }) end, "`wlen`")
    helper.assert_gaerror(function() signal.peak_widths({ 1, 2, 1 }, { 2 }, -1) end, "`rel_height`")
    helper.assert_gaerror(function() signal.chirp({ 0 }, 1, 1, 2, "cubic") end, "method must be")
    helper.assert_gaerror(function() signal.gausspulse("cutoff", 1000, 0.5, -6, 10) end, "time cutoff")
    helper.assert_gaerror(function() signal.gausspulse("middle") end, "cutoff")
    helper.assert_gaerror(function() signal.max_len_seq(40) end, "nbits")
    helper.assert_gaerror(function() signal.max_len_seq(4, { 0, 0, 0, 0 }) end, "all zeros")
    helper.assert_gaerror(function() signal.argrelmax({ 1, 2 }, 1, 0) end, "Order")
    C.close(REF.waveforms.gauss_cut, signal.gausspulse("cutoff", 5, 0.3, -6, -40), 1e-14, "cutoff")
  end)

  helper.gpu_it("find_peaks: plateaus, height, threshold, distance, prominence, width, wlen, plateau_size", function()
    local P = REF.peaks
    local x = ga.array(P.x)
    local cases = {
      plain = {}, height = { height = 0.2 }, height2 = { height = { 0.1, 0.5 } }, threshold = { threshold = 0.05 },
      distance = { distance = 7 }, prominence = { prominence = 0.3 }, width = { width = 3, rel_height = 0.7 },
      wlen = { prominence = { 0.1, nil }, wlen = 11 }, plateau = { plateau_size = 2 },
      all = { height = 0, threshold = 0, distance = 3, prominence = 0.1, width = 1, plateau_size = { 1, 5 } },
    }
    for key, opts in pairs(cases) do
      -- "plain" passes no options: {} would be height = {} (a positional
      -- table), which asks for peak_heights
      local peaks, props
      if next(opts) == nil then peaks, props = signal.find_peaks(x) else peaks, props = signal.find_peaks(x, opts) end
      assert.are.equal("int64", peaks.dtype)
      C.close(P[key].peaks, peaks:totable(), 0, "find_peaks " .. key)
      for k, want in pairs(P[key].props) do
        assert(props[k], ("find_peaks %s lacks property %s"):format(key, k))
        C.close(want, props[k]:totable(), 1e-12, ("find_peaks %s %s"):format(key, k))
      end
      for k in pairs(props) do assert(P[key].props[k], ("find_peaks %s has no property %s in SciPy"):format(key, k)) end
    end
    local pr = P.prominences
    local prom, lb, rb = signal.peak_prominences(x, ga.array(pr.peaks, "int64"))
    C.close(pr.r, { prom:totable(), lb:totable(), rb:totable() }, 1e-12, "peak_prominences")
    prom, lb, rb = signal.peak_prominences(x, pr.peaks, 9)
    C.close(pr.w9, { prom:totable(), lb:totable(), rb:totable() }, 1e-12, "peak_prominences wlen")
    local w = { signal.peak_widths(x, pr.peaks) }
    C.close(REF.peaks.widths.r, { w[1]:totable(), w[2]:totable(), w[3]:totable(), w[4]:totable() }, 1e-12, "widths")
    w = { signal.peak_widths(x, pr.peaks, 0.9) }
    C.close(REF.peaks.widths.r9, { w[1]:totable(), w[2]:totable(), w[3]:totable(), w[4]:totable() }, 1e-12,
      "widths 0.9")
    helper.assert_gaerror(function() signal.peak_prominences(x, { 0 }) end, "1-based")
    local e, eprops = signal.find_peaks(ga.array({ 1.0, 2.0 }))
    assert.are.same({ 0 }, e.shape)
    assert.are.same({}, eprops)
  end)

  helper.gpu_it("argrelmax, argrelmin (order, wrap, 2-D axes)", function()
    local R = REF.peaks.argrel
    local x = ga.array(R.x)
    C.close(R.max, signal.argrelmax(x):totable(), 0, "argrelmax")
    C.close(R.min, signal.argrelmin(x, { order = 2 }):totable(), 0, "argrelmin order 2")
    C.close(R.wrap, signal.argrelmax(x, { mode = "wrap" }):totable(), 0, "argrelmax wrap")
    local m = ga.array(R.m2)
    local i, j = signal.argrelmax(m, 2)
    C.close(R.m2max, { i:totable(), j:totable() }, 0, "argrelmax axis 2")
    i, j = signal.argrelmin(m, 1)
    C.close(R.m2min0, { i:totable(), j:totable() }, 0, "argrelmin axis 1")
    local a, b = signal.argrelextrema(m, ga.greater, 2)
    C.close(R.m2max, { a:totable(), b:totable() }, 0, "argrelextrema")
  end)

  helper.gpu_it("chirp (4 methods, vertex), gausspulse, sawtooth, square, sweep_poly, unit_impulse", function()
    local W = REF.waveforms
    local t = ga.array(W.t)
    for _, m in ipairs({ "linear", "quadratic", "logarithmic", "hyperbolic" }) do
      C.close(W["chirp_" .. m], signal.chirp(t, 2.0, 1.5, 6.0, m, 30):totable(), 1e-10, "chirp " .. m)
    end
    C.close(W.chirp_qv, signal.chirp(t, 2.0, 1.5, 6.0, "quadratic", { vertex_zero = false }):totable(), 1e-10,
      "chirp vertex")
    local yi, yq, ye = signal.gausspulse(t - 1, 5, { retquad = true, retenv = true })
    C.close(W.gauss, { yi:totable(), yq:totable(), ye:totable() }, 1e-12, "gausspulse")
    local tt = ga.array(W.tt)
    C.close(W.saw, signal.sawtooth(tt):totable(), 1e-12, "sawtooth")
    C.close(W.saw5, signal.sawtooth(tt, 0.5):totable(), 1e-12, "sawtooth 0.5")
    C.close(W.square, signal.square(tt):totable(), 0, "square")
    C.close(W.square3, signal.square(tt, 0.3):totable(), 0, "square 0.3")
    C.close(W.sweep, signal.sweep_poly(t, { 0.5, -1.0, 2.0, 3.0 }, 10):totable(), 1e-10, "sweep_poly")
    C.close(W.impulse, signal.unit_impulse({ 3, 4 }, { 2, 3 }):totable(), 0, "unit_impulse (1-based idx)")
    C.close(W.impulse_mid, signal.unit_impulse(7, "mid"):totable(), 0, "unit_impulse mid")
    local s, st = signal.max_len_seq(5)
    assert.are.equal("int8", s.dtype)
    C.close(W.mls[1], { s:totable(), st:totable() }, 0, "max_len_seq")
    C.close(W.gauss_spline, signal.gauss_spline(t, 3):totable(), 1e-12, "gauss_spline")
  end)

  helper.gpu_it("morlet, morlet2, ricker, qmf, cwt", function()
    local W = REF.waveforms
    C.close(W.morlet, signal.morlet(16, 4.0, 0.8):totable(), 1e-12, "morlet")
    C.close(W.morlet_inc, signal.morlet(15, { complete = false }):totable(), 1e-12, "morlet incomplete")
    C.close(W.morlet2, signal.morlet2(17, 3.0, 6):totable(), 1e-12, "morlet2")
    C.close(W.ricker, signal.ricker(21, 3.0):totable(), 1e-12, "ricker")
    C.close(W.qmf, signal.qmf({ 0.1, 0.4, 0.4, 0.1 }):totable(), 1e-15, "qmf")
    local x = ga.array(W.cwt_x)
    C.close(W.cwt_ricker, signal.cwt(x, signal.ricker, { 1, 2, 3.5 }):totable(), 1e-10, "cwt ricker")
    C.close(W.cwt_morlet2, signal.cwt(x, signal.morlet2, { 2, 3 }, nil, 4):totable(), 1e-10, "cwt morlet2 (w = 4)")
  end)
end)
