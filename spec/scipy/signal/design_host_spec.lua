--- IIR design, conversions and frequency responses on the host
-- (host/zpk.lua, host/iir.lua, host/freq.lua) against SciPy 1.10's values
-- (ref_design.py). Everything here runs without a GPU.
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_design"
local Z = require "gpuarray.scipy.signal.host.zpk"
local H = require "gpuarray.scipy.signal.host.iir"
local F = require "gpuarray.scipy.signal.host.freq"

local function zpk_close(want, z, p, k, what, tol)
  C.roots(want[1], z, tol or 1e-9, what .. " zeros")
  C.roots(want[2], p, tol or 1e-9, what .. " poles")
  C.close(want[3], k, tol or 1e-9, what .. " gain")
end

local function design(f, args, kw)
  local btype = kw.btype or "low"
  local analog, output, fs = kw.analog or false, kw.output or "ba", kw.fs
  if f == "butter" then return H.iirfilter(args[1], args[2], nil, nil, btype, analog, "butter", output, fs) end
  if f == "cheby1" then return H.iirfilter(args[1], args[3], args[2], nil, btype, analog, "cheby1", output, fs) end
  if f == "cheby2" then return H.iirfilter(args[1], args[3], nil, args[2], btype, analog, "cheby2", output, fs) end
  if f == "ellip" then return H.iirfilter(args[1], args[4], args[2], args[3], btype, analog, "ellip", output, fs) end
  return H.iirfilter(args[1], args[2], nil, nil, btype, analog, "bessel", output, fs, kw.norm or "phase")
end

local function result_close(want, got, output, what)
  if output == "zpk" then zpk_close(want, got[1], got[2], got[3], what)
  else C.close(want, got, 1e-9, what) end
end

describe("scipy.signal design on the host", function()
  it("analog prototypes: buttap cheb1ap cheb2ap ellipap besselap (N = 0..6, large Bessel)", function()
    for _, c in ipairs(REF.proto) do
      local z, p, k = Z[c.f](table.unpack(c.args))
      zpk_close(c.zpk, z, p, k, ("%s(%s)"):format(c.f, table.concat(c.args, ", ")), 1e-10)
    end
  end)

  it("butter, cheby1, cheby2, ellip, bessel: every band type, analog and digital, ba/zpk/sos", function()
    for _, c in ipairs(REF.designs) do
      local got = design(c.f, c.args, c.kw)
      result_close(c.r, got, c.kw.output, ("%s %s %s"):format(c.f, C.str(c.args), c.kw.output))
    end
  end)

  it("iirfilter with ftype, fs and output", function()
    for _, c in ipairs(REF.iirfilter) do
      local kw = c.kw
      local got = H.iirfilter(c.args[1], c.args[2], kw.rp, kw.rs, kw.btype or "band", false, kw.ftype, kw.output,
                              kw.fs)
      result_close(c.r, got, kw.output, "iirfilter " .. kw.ftype)
    end
  end)

  it("buttord, cheb1ord, cheb2ord, ellipord: low, high, band pass and stop, analog, fs", function()
    for _, c in ipairs(REF.ords) do
      local a = c.args
      local N, Wn = H[c.f](a[1], a[2], a[3], a[4], c.kw.analog or false, c.kw.fs)
      local what = ("%s %s"):format(c.f, C.str(a))
      assert.are.equal(c.N, N, what)
      C.close(c.Wn, Wn, 1e-8, what .. " Wn")
    end
    for _, c in ipairs(REF.band_stop_obj) do
      local a = c.args
      C.close(c.r, H.band_stop_obj(a[1], a[2] + 1, a[3], a[4], a[5], a[6], a[7]), 1e-12, "band_stop_obj " .. a[7])
    end
  end)

  it("iirdesign", function()
    for _, c in ipairs(REF.iirdesign) do
      local kw = c.kw
      local got = H.iirdesign(c.args[1], c.args[2], c.args[3], c.args[4], false, kw.ftype or "ellip", kw.output or "ba",
                              kw.fs)
      result_close(c.r, got, kw.output or "ba", "iirdesign " .. C.str(c.args))
    end
  end)

  it("zpk2tf, tf2zpk, zpk2sos (every pairing, analog), tf2sos, sos2tf, sos2zpk, normalize", function()
    local cv = REF.conv
    local b, a = Z.zpk2tf(C.cx(cv.zpk2tf.z), C.cx(cv.zpk2tf.p), cv.zpk2tf.k)
    C.close(cv.zpk2tf.ba, { b, a }, 1e-12, "zpk2tf")
    for _, c in ipairs(cv.zpk2sos) do
      C.close(c.sos, Z.zpk2sos(C.cx(c.z), C.cx(c.p), c.k, c.pairing, false), 1e-10,
        "zpk2sos " .. c.pairing .. " " .. C.str(c.p))
    end
    for _, c in ipairs(cv.zpk2sos_analog) do
      C.close(c.sos, Z.zpk2sos(C.cx(c.z), C.cx(c.p), c.k, nil, true), 1e-10, "zpk2sos analog")
    end
    local z, p, k = Z.tf2zpk(cv.tf2zpk.b, cv.tf2zpk.a)
    zpk_close(cv.tf2zpk.zpk, z, p, k, "tf2zpk", 1e-7)
    C.close(cv.tf2zpk.sos, Z.tf2sos(cv.tf2zpk.b, cv.tf2zpk.a), 1e-7, "tf2sos")
    -- zeros of multiplicity 4 at +-1: any root finder is off by eps^(1/4)
    z, p, k = Z.tf2zpk(cv.tf2zpk_multi.b, cv.tf2zpk_multi.a)
    C.roots(cv.tf2zpk_multi.zpk[1], z, 1e-3, "tf2zpk repeated zeros")
    C.roots(cv.tf2zpk_multi.zpk[2], p, 1e-9, "tf2zpk poles")
    b, a = Z.sos2tf(cv.sos2tf.sos)
    C.close(cv.sos2tf.ba, { b, a }, 1e-12, "sos2tf")
    z, p, k = Z.sos2zpk(cv.sos2tf.sos)
    zpk_close(cv.sos2tf.zpk, z, p, k, "sos2zpk", 1e-8)
    for _, c in ipairs(cv.normalize) do
      local nb, na = Z.normalize(c.b, c.a)
      C.close(c.r, { nb, na }, 1e-14, "normalize")
    end
  end)

  it("lp2lp lp2hp lp2bp lp2bs bilinear, and their zpk forms", function()
    local L = REF.conv.lp2
    C.close(L.lp2lp, { Z.lp2lp(L.b, L.a, 2.5) }, 1e-13, "lp2lp")
    C.close(L.lp2hp, { Z.lp2hp(L.b, L.a, 2.5) }, 1e-13, "lp2hp")
    C.close(L.lp2bp, { Z.lp2bp(L.b, L.a, 2.5, 0.7) }, 1e-13, "lp2bp")
    C.close(L.lp2bs, { Z.lp2bs(L.b, L.a, 2.5, 0.7) }, 1e-13, "lp2bs")
    C.close(L.bilinear, { Z.bilinear(L.b, L.a, 10.0) }, 1e-13, "bilinear")
    C.close(L.lp2hp_b, { Z.lp2hp({ 1.0, 2.0, 3.0 }, { 1.0, 4.0 }, 1.0) }, 1e-13, "lp2hp (numerator longer)")
    local Q = REF.conv.lp2_zpk
    Q.z, Q.p = C.cx(Q.z), C.cx(Q.p)
    for _, name in ipairs({ "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk", "lp2bs_zpk" }) do
      local arg = name == "lp2lp_zpk" or name == "lp2hp_zpk"
      local z, p, k
      if arg then z, p, k = Z[name](Q.z, Q.p, Q.k, 3.0) else z, p, k = Z[name](Q.z, Q.p, Q.k, 3.0, 0.5) end
      C.close(Q[name], { z, p, k }, 1e-13, name)
    end
    C.close(Q.bilinear_zpk, { Z.bilinear_zpk(Q.z, Q.p, Q.k, 8.0) }, 1e-13, "bilinear_zpk")
  end)

  it("freqz, freqz_zpk, sosfreqz, freqs, freqs_zpk, findfreqs, group_delay", function()
    local R = REF.resp
    for _, c in ipairs(R.freqz) do
      local w, h = F.freqz(c.b, c.a, c.kw.worN, c.kw.whole, c.kw.fs, c.kw.include_nyquist)
      C.close(c.r, { w, h }, 1e-12, "freqz " .. C.str(c.kw.worN))
    end
    local q = R.freqz_zpk
    q.z, q.p = C.cx(q.z), C.cx(q.p)
    C.close(q.r, { F.freqz_zpk(q.z, q.p, q.k, 6) }, 1e-12, "freqz_zpk")
    C.close(q.r2, { F.freqz_zpk(q.z, q.p, q.k, { 0.1, 0.2 }, false, 2.0) }, 1e-12, "freqz_zpk worN")
    q = R.sosfreqz
    C.close(q.r, { F.sosfreqz(q.sos, 9) }, 1e-12, "sosfreqz")
    C.close(q.rw, { F.sosfreqz(q.sos, 6, true) }, 1e-12, "sosfreqz whole")
    q = R.freqs
    C.close(q.r, { F.freqs(q.b, q.a, 7) }, 1e-12, "freqs")
    C.close(q.r2, { F.freqs(q.b, q.a, { 0.5, 1.0, 4.0 }) }, 1e-12, "freqs worN")
    q = R.freqs_zpk
    q.z, q.p = C.cx(q.z), C.cx(q.p)
    C.close(q.r, { F.freqs_zpk(q.z, q.p, q.k, 5) }, 1e-12, "freqs_zpk")
    C.close(R.findfreqs.r, F.findfreqs({ 1, 0 }, { 1, 8, 25 }, 9, "ba"), 1e-12, "findfreqs")
    C.close(R.findfreqs.zp, F.findfreqs({ -1.0 }, C.cx({ { -2.0, 1 }, { -2.0, -1 } }), 5, "zp"), 1e-12, "findfreqs zp")
    q = R.group_delay
    C.close(q.r, { F.group_delay(q.b, q.a, 8) }, 1e-10, "group_delay")
    C.close(q.rw, { F.group_delay(q.b, q.a, { 0.1, 0.2 }, false, 1.0) }, 1e-10, "group_delay w")
  end)

  it("iirnotch, iirpeak, iircomb, gammatone", function()
    local M = REF.misc
    C.close(M.iirnotch, { H.iirnotch(0.3, 30) }, 1e-14, "iirnotch")
    C.close(M.iirnotch_fs, { H.iirnotch(60, 30, 1000) }, 1e-14, "iirnotch fs")
    C.close(M.iirpeak, { H.iirpeak(0.3, 30) }, 1e-14, "iirpeak")
    C.close(M.iirpeak_fs, { H.iirpeak(1000, 20, 8000) }, 1e-14, "iirpeak fs")
    C.close(M.iircomb, { H.iircomb(20, 30, "notch", 200, false) }, 1e-14, "iircomb")
    C.close(M.iircomb_peak, { H.iircomb(250, 10, "peak", 1000, true) }, 1e-14, "iircomb peak")
    C.close(M.gammatone_fir, { H.gammatone(440, "fir", nil, nil, 16000) }, 1e-12, "gammatone fir")
    C.close(M.gammatone_fir2, { H.gammatone(0.2, "fir", 3, 20, nil) }, 1e-12, "gammatone fir order 3")
    C.close(M.gammatone_iir, { H.gammatone(440, "iir", nil, nil, 16000) }, 1e-10, "gammatone iir")
  end)

  it("raises SciPy's errors", function()
    local function err(fn, text)
      local ok, e = pcall(fn)
      assert(not ok, "expected an error: " .. text)
      assert(type(e) == "table" and e.msg:find(text, 1, true), ("error %s lacks %q"):format(C.str(e), text))
    end
    err(function() Z.buttap(-1) end, "nonnegative integer")
    err(function() H.iirfilter(4, 1.2, nil, nil, "low", false, "butter", "ba") end, "0 < Wn < 1")
    err(function() H.iirfilter(4, { 0.5, 0.2 }, nil, nil, "band", false, "butter", "ba") end, "Wn[0] must be less")
    err(function() H.iirfilter(4, 0.2, nil, nil, "lowish", false, "butter", "ba") end, "invalid bandtype")
    err(function() H.iirfilter(4, 0.2, nil, nil, "low", false, "bessel2", "ba") end, "not a valid basic IIR")
    err(function() H.iirfilter(4, 0.2, nil, nil, "low", false, "cheby1", "ba") end, "rp) must be provided")
    err(function() H.iirfilter(4, 0.2, nil, nil, "low", false, "butter", "xy") end, "not a valid output form")
    err(function() H.iirfilter(4, 0.2, nil, nil, "band", false, "butter", "ba") end, "start and stop")
    err(function() H.iirfilter(4, 0.2, nil, nil, "low", true, "butter", "ba", 10) end, "fs cannot be specified")
    err(function() H.buttord(0.2, 0.3, 50, 40) end, "gpass should be smaller")
    err(function() H.iirdesign(0.2, 0.3, 1, 40, false, "bessel", "ba") end, "does not have order selection")
    err(function() H.iirdesign({ 0.2, 0.5 }, { 0.3, 0.6 }, 1, 40, false, "ellip", "ba") end, "strictly inside")
    err(function() Z.zpk2sos({ 1 }, { 0.5 }, 1, "bogus") end, "pairing must be one of")
    err(function() Z.zpk2sos({ 1, 2 }, { 0.5 }, 1, "minimal", true) end, "len(p)>=len(z)")
    err(function() Z.cplxreal({ { 1, 2 }, { 1, 3 } }) end, "no matching conjugate")
    err(function() Z.normalize({ 1 }, { 0, 0 }) end, "at least on nonzero")
    err(function() Z.lp2lp_zpk({ 1, 2 }, { 1 }, 1, 2) end, "Improper transfer function")
    err(function() H.iircomb(30, 30, "notch", 200, false) end, "divisible by w0")
    err(function() H.gammatone(2, "fir") end, "between 0 and 1")
    err(function() F.sosfreqz({}, 5) end, "no sections")
  end)
end)
