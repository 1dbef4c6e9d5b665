--- The public design functions: their declarations, errors and (on the
-- GPU) the arrays they return, as SciPy's (the numbers themselves are
-- checked on the host by design_host_spec.lua and fir_host_spec.lua).
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_design"
local FREF = require "scipy.signal.ref_fir"
local signal = ga.scipy.signal

describe("scipy.signal design (public)", function()
  it("is declared, with SciPy's errors before any upload", function()
    for _, n in ipairs({ "butter", "cheby1", "cheby2", "ellip", "bessel", "iirfilter", "iirdesign", "buttord",
                         "zpk2sos", "tf2zpk", "freqz", "sosfreqz", "firwin", "firls", "savgol_coeffs", "residue" }) do
      assert.truthy(ga.help(signal[n]), n)
    end
    assert.are.equal(signal.sosfreqz, signal.freqz_sos)
    helper.assert_gaerror(function() signal.butter(4, 1.5) end, "0 < Wn < 1")
    helper.assert_gaerror(function() signal.butter(-1, 0.5) end, "nonnegative integer")
    helper.assert_gaerror(function() signal.butter(4, 0.5, { output = "tf" }) end, "output")
    helper.assert_gaerror(function() signal.cheby1(4, 1, { 0.5, 0.2 }, "band") end, "Wn[0] must be less")
    helper.assert_gaerror(function() signal.iirdesign(0.2, 0.3, 1, 40, false, "bessel") end, "order selection")
    helper.assert_gaerror(function() signal.buttord(0.2, 0.3, 50, 40) end, "gpass should be smaller")
    helper.assert_gaerror(function() signal.zpk2sos({ 1 }, { 0.5 }, 1, "best") end, "pairing")
    helper.assert_gaerror(function() signal.firwin(30, 0.3, { pass_zero = false }) end, "even number")
    helper.assert_gaerror(function() signal.kaiserord(5, 0.1) end, "too small")
    helper.assert_gaerror(function() signal.freqz_sos({ { 1, 0, 0, 2, 0, 0 } }, 8) end, "should be all ones")
    helper.assert_gaerror(function() signal.group_delay({ { 1 } }) end, "{b, a}")
    helper.assert_gaerror(function() signal.band_stop_obj(0.3, 0, { 0.2, 0.9 }, { 0.4, 0.6 }, 3, 40, "butter") end,
      "1-based")
    assert.are.equal(FREF.kaiser.beta[3], signal.kaiser_beta(60))
    local n, beta = signal.kaiserord(65, 0.05)
    assert.are.equal(FREF.kaiser.ord[1], n)
    assert.are.equal(FREF.kaiser.ord[2], beta)
    local N, Wn = signal.buttord(0.2, 0.3, 3, 40)
    assert.are.equal(REF.ords[1].N, N)
    C.close(REF.ords[1].Wn, Wn, 1e-8, "buttord Wn")
  end)

  helper.gpu_it("butter / cheby / ellip / bessel return b, a (float64), z, p (complex128), k, sos", function()
    local b, a = signal.butter(4, 0.2)
    assert.are.equal("float64", b.dtype)
    C.close(REF.designs[1].r, { b:totable(), a:totable() }, 1e-9, "butter ba")
    local z, p, k = signal.butter(4, 0.2, { output = "zpk" })
    assert.are.equal("float64", z.dtype)
    assert.are.equal("complex128", p.dtype)
    assert.are.equal("number", type(k))
    C.close(REF.designs[2].r[3], k, 1e-9, "butter k")
    local sos = signal.butter(4, 0.2, { output = "sos" })
    assert.are.same({ 2, 6 }, sos.shape)
    C.close(REF.designs[3].r[1], sos:totable(), 1e-9, "butter sos")
    local ez = signal.ellip(4, 1, 60, 0.25, { output = "zpk" })
    assert.are.equal("complex128", ez.dtype)
    -- the reference's filter (butter(3, 0.3)), not the butter(4, 0.2) above
    local r = REF.resp.freqz[1]
    local w, h = signal.freqz(ga.array(r.b), ga.array(r.a), 8)
    assert.are.equal("float64", w.dtype)
    assert.are.equal("complex128", h.dtype)
    C.close(r.r, { w:totable(), h:totable() }, 1e-12, "freqz")
    local called
    signal.freqz(b, a, 4, { plot = function(ww, hh) called = { ww.size, hh.size } end })
    assert.are.same({ 4, 4 }, called)
    local taps = signal.firwin(31, 0.3)
    C.close(FREF.firwin[1].h, taps:totable(), 1e-12, "firwin")
    local rr, pp, kk = signal.residue({ 1, 2, 3, 1 }, { 1, 5, 8, 4 })
    C.close(FREF.residue.residue.r, { rr:totable(), pp:totable(), kk:totable() }, 1e-9, "residue")
    local u, m = signal.unique_roots({ 1, 1.0005, 2, 2.0001, 3 })
    assert.are.equal("int64", m.dtype)
    C.close(FREF.residue.unique_roots[1].r, { u:totable(), m:totable() }, 1e-14, "unique_roots")
  end)
end)
