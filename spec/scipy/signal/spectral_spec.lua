--- Spectral analysis against SciPy 1.10 (ref_spectral.py): welch (every
-- option), csd, periodogram, coherence, spectrogram (every mode), stft,
-- istft, lombscargle, vectorstrength, check_COLA / check_NOLA.
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_spectral"
local signal = ga.scipy.signal
local S = require("gpuarray.internal").scipy_signal

local function tt(...)
  local r = {}
  for i, v in ipairs({ ... }) do r[i] = v:totable() end
  return r
end

describe("scipy.signal spectral analysis", function()
  it("compiles its kernels and answers COLA / NOLA on the host", function()
    for _, dt in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local red = S.spectral_kernels(dt)
      red:compile(dt, "float64")
      S.ola_kernel(dt)
    end
    S.ls_kernel()
    for _, c in ipairs(REF.cola) do
      assert.are.equal(c[4], signal.check_COLA(c[1], c[2], c[3]), ("COLA %s %d %d"):format(c[1], c[2], c[3]))
      assert.are.equal(c[5], signal.check_NOLA(c[1], c[2], c[3]), ("NOLA %s %d %d"):format(c[1], c[2], c[3]))
    end
    helper.assert_gaerror(function() signal.check_COLA("hann", 64, 64) end, "noverlap must be less than nperseg")
    helper.assert_gaerror(function() signal.check_NOLA({ 1, 2 }, 3, 1) end, "window must have length of nperseg")
  end)

  helper.gpu_it("welch: defaults, fs, nperseg, detrend, windows, scaling, nfft, median, two-sided, axes", function()
    local x, W = ga.array(REF.x), REF.welch
    C.close(W.default, tt(signal.welch(x)), 1e-12, "default")
    C.close(W.n64, tt(signal.welch(x, 10.0, { nperseg = 64 })), 1e-12, "fs nperseg")
    C.close(W.lin, tt(signal.welch(x, { nperseg = 50, noverlap = 10, detrend = "linear" })), 1e-11, "linear")
    C.close(W.nodt, tt(signal.welch(x, { nperseg = 64, detrend = false, window = "hamming" })), 1e-12, "no detrend")
    C.close(W.spec, tt(signal.welch(x, { nperseg = 64, scaling = "spectrum" })), 1e-12, "spectrum")
    C.close(W.nfft, tt(signal.welch(x, { nperseg = 60, nfft = 100 })), 1e-12, "nfft")
    C.close(W.median, tt(signal.welch(x, { nperseg = 64, average = "median" })), 1e-12, "median")
    C.close(W.twosided, tt(signal.welch(x, { nperseg = 32, return_onesided = false })), 1e-12, "two-sided")
    C.close(W.odd, tt(signal.welch(x, { nperseg = 33 })), 1e-12, "odd nperseg")
    C.close(W.win, tt(signal.welch(x, { window = ga.hanning(40) })), 1e-12, "window array")
    local X2 = ga.array(REF.x2)
    C.close(W.rows, tt(signal.welch(X2, { nperseg = 32 })), 1e-12, "rows")
    C.close(W.axis0, tt(signal.welch(X2.T, { nperseg = 32, axis = 1 })), 1e-12, "axis 1")
    local f, p = signal.welch(ga.array(REF.x, "float32"))
    assert.are.equal("float64", f.dtype)
    assert.are.equal("float32", p.dtype)
    C.close(W.default[2], p:totable(), 1e-5, "float32")
    -- a user's detrend function
    local _, pu = signal.welch(x, { nperseg = 64, detrend = function(d) return d - ga.mean(d, { axis = -1,
      keepdims = true }) end })
    local _, pc = signal.welch(x, { nperseg = 64 })
    C.close(pc:totable(), pu:totable(), 1e-12, "detrend function")
  end)

  helper.gpu_it("csd, periodogram, coherence", function()
    local x, y = ga.array(REF.x), ga.array(REF.y)
    C.close(REF.csd.default, tt(signal.csd(x, y, { nperseg = 64 })), 1e-12, "csd")
    C.close(REF.csd.median, tt(signal.csd(x, y, { nperseg = 64, average = "median" })), 1e-12, "csd median")
    local P = REF.periodogram
    C.close(P.default, tt(signal.periodogram(x)), 1e-12, "periodogram")
    C.close(P.hann, tt(signal.periodogram(x, 5.0, "hann")), 1e-12, "periodogram hann")
    C.close(P.nfft, tt(signal.periodogram(x, { nfft = 512 })), 1e-12, "periodogram nfft")
    C.close(P.short, tt(signal.periodogram(x, { nfft = 200 })), 1e-12, "periodogram short nfft")
    C.close(P.spec, tt(signal.periodogram(x, { scaling = "spectrum", detrend = "linear" })), 1e-11, "spectrum")
    C.close(REF.coherence, tt(signal.coherence(x, y, { nperseg = 64 })), 1e-11, "coherence")
  end)

  helper.gpu_it("spectrogram (psd, magnitude, angle, phase, complex), stft, istft", function()
    local x = ga.array(REF.x)
    for mode, want in pairs(REF.spectrogram) do
      C.close(want, tt(signal.spectrogram(x, { nperseg = 64, mode = mode })), 1e-10, "spectrogram " .. mode)
    end
    local T = REF.stft
    C.close(T.default, tt(signal.stft(x, { nperseg = 64 })), 1e-12, "stft")
    C.close(T.noboundary, tt(signal.stft(x, { nperseg = 50, noverlap = 20, boundary = false, padded = false })),
      1e-12, "stft no boundary")
    C.close(T.even, tt(signal.stft(x, { nperseg = 40, boundary = "even" })), 1e-12, "stft even")
    C.close(T.psd, tt(signal.stft(x, { nperseg = 64, scaling = "psd" })), 1e-12, "stft psd")
    local I = REF.istft
    local function cz(rows)
      local t = {}
      for i, r in ipairs(rows) do
        t[i] = {}
        for j, v in ipairs(r) do t[i][j] = { v[1], v[2] } end
      end
      return ga.array(t, "complex128")
    end
    C.close(I.default, tt(signal.istft(cz(I.Z), { nperseg = 64 })), 1e-11, "istft")
    C.close(I.nobound, tt(signal.istft(cz(I.Znb), { nperseg = 50, noverlap = 25, boundary = false })), 1e-11,
      "istft without boundary")
    -- the round trip
    local _, _, Z = signal.stft(x, { nperseg = 64 })
    local _, back = signal.istft(Z, { nperseg = 64 })
    C.close(REF.x, back[{ { 1, #REF.x } }]:totable(), 1e-12, "stft / istft round trip")
  end)

  -- the segment times are made on the device (seg_times: welch of 2^24
  -- samples spent most of its time building them as a host list): SciPy's
  -- values to the last bit, with fs 3 (a division that rounds), with and
  -- without the boundary's shift
  helper.gpu_it("spectrogram and stft times: SciPy's to the last bit (fs 3, boundary or not)", function()
    local x = ga.zeros(300)
    local want_sg = { 2.6666666666666665, 6.666666666666667, 10.666666666666666, 14.666666666666666,
      18.666666666666668, 22.666666666666668, 26.666666666666668, 30.666666666666668, 34.666666666666664,
      38.666666666666664, 42.666666666666664, 46.666666666666664, 50.666666666666664, 54.666666666666664,
      58.666666666666664, 62.666666666666664, 66.66666666666667, 70.66666666666667, 74.66666666666667,
      78.66666666666667, 82.66666666666667, 86.66666666666667, 90.66666666666667, 94.66666666666667 }
    local _, t = signal.spectrogram(x, 3.0, { nperseg = 16, noverlap = 4 })
    assert.are.equal("float64", t.dtype)
    assert.are.same({ #want_sg }, t.shape)
    C.close(want_sg, t:totable(), 0, "spectrogram times (fs 3, nperseg 16, noverlap 4)")
    local want_st = { 0.0, 3.6666666666666665, 7.333333333333334, 11.0, 14.666666666666666, 18.333333333333332,
      22.0, 25.666666666666664, 29.333333333333332, 33.0, 36.66666666666667, 40.333333333333336, 44.0,
      47.66666666666667, 51.333333333333336, 55.0, 58.66666666666667, 62.333333333333336, 66.0, 69.66666666666666,
      73.33333333333333, 77.0, 80.66666666666666, 84.33333333333333, 88.0, 91.66666666666666, 95.33333333333333,
      99.0, 102.66666666666666 }
    local _, ts = signal.stft(x, 3.0, { nperseg = 16, noverlap = 5 })
    assert.are.same({ #want_st }, ts.shape)
    C.close(want_st, ts:totable(), 0, "stft times (fs 3, nperseg 16, noverlap 5, boundary zeros)")
  end)

  helper.gpu_it("lombscargle, vectorstrength", function()
    local L = REF.lombscargle
    C.close(L.r, signal.lombscargle(ga.array(L.x), ga.array(L.y), ga.array(L.f)):totable(), 1e-10, "lombscargle")
    C.close(L.pn, signal.lombscargle(ga.array(L.x), ga.array(L.y), ga.array(L.f), true, true):totable(), 1e-10,
      "precenter normalize")
    local V = REF.vectorstrength
    local s, p = signal.vectorstrength(ga.array(V.events), 2.5)
    assert.are.same({}, s.shape)
    C.close(V.one, { s:item(), p:item() }, 1e-12, "vectorstrength scalar period")
    C.close(V.many, tt(signal.vectorstrength(ga.array(V.events), { 1.0, 2.5, 3.3 })), 1e-12, "vectorstrength")
    helper.assert_gaerror(function() signal.vectorstrength(ga.array(V.events), -1.0) end, "positive")
  end)
end)
