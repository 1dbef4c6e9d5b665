--- FIR design, Savitzky-Golay coefficients and partial fractions on the
-- host (host/fir.lua, host/residue.lua) against SciPy 1.10 (ref_fir.py).
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_fir"
local R = require "gpuarray.scipy.signal.host.fir"
local RZ = require "gpuarray.scipy.signal.host.residue"

describe("scipy.signal FIR design on the host", function()
  it("kaiser_beta, kaiser_atten, kaiserord", function()
    C.close(REF.kaiser.beta, { R.kaiser_beta(10), R.kaiser_beta(30), R.kaiser_beta(60) }, 1e-14, "kaiser_beta")
    C.close(REF.kaiser.atten, R.kaiser_atten(31, 0.1), 1e-14, "kaiser_atten")
    C.close(REF.kaiser.ord, { R.kaiserord(65, 0.05) }, 1e-14, "kaiserord")
  end)

  it("firwin: low, high, band pass and stop, fs, windows, width, scale", function()
    for _, c in ipairs(REF.firwin) do
      local kw = c.kw
      local pass_zero = kw.pass_zero
      if pass_zero == nil then pass_zero = true end
      local scale = kw.scale
      if scale == nil then scale = true end
      local cut = type(c.args[2]) == "table" and c.args[2] or { c.args[2] }
      local h = R.firwin(c.args[1], cut, kw.width, kw.window or "hamming", pass_zero, scale, nil, kw.fs)
      C.close(c.h, h, 1e-12, "firwin " .. C.str(c.args) .. " " .. tostring(pass_zero))
    end
  end)

  it("firwin2 (types I to IV, nfreqs, fs, no window) and firls", function()
    for _, c in ipairs(REF.firwin2) do
      local kw = c.kw
      local window = "hamming"
      if c.args[1] == 24 then window = nil end   -- the case written with window=None
      local h = R.firwin2(c.args[1], c.args[2], c.args[3], kw.nfreqs, window, nil, kw.antisymmetric or false, kw.fs)
      C.close(c.h, h, 1e-12, "firwin2 " .. C.str(c.args))
    end
    for _, c in ipairs(REF.firls) do
      local h = R.firls(c.args[1], c.args[2], c.args[3], c.kw.weight, nil, c.kw.fs)
      C.close(c.h, h, 1e-10, "firls " .. C.str(c.args))
    end
  end)

  it("minimum_phase (homomorphic, hilbert, n_fft)", function()
    for _, c in ipairs(REF.minimum_phase) do
      -- hilbert takes logs of magnitudes near 1e-10 made by a square root of
      -- differences near 0: the FFT's rounding moves its result by ~1e-5
      local tol = c.method == "hilbert" and 1e-4 or 1e-9
      C.close(c.r, R.minimum_phase(c.h, c.method, c.n_fft), tol, "minimum_phase " .. c.method)
    end
  end)

  it("savgol_coeffs and the interp edge matrices", function()
    for _, c in ipairs(REF.savgol_coeffs) do
      local kw = c.kw
      local got = R.savgol_coeffs(c.args[1], c.args[2], kw.deriv or 0, kw.delta or 1.0, kw.pos, kw.use or "conv")
      C.close(c.c, got, 1e-11, "savgol_coeffs " .. C.str(c.args))
    end
    for _, e in ipairs(REF.savgol_edges) do
      local half = e.wl // 2
      local left, right = {}, {}
      for i = 1, half do
        left[i] = i - 1
        right[i] = e.wl - half + i - 1
      end
      C.close(e.left, R.savgol_edge_matrix(e.wl, e.po, e.deriv, e.delta, left), 1e-10, "left edge " .. e.wl)
      C.close(e.right, R.savgol_edge_matrix(e.wl, e.po, e.deriv, e.delta, right), 1e-10, "right edge " .. e.wl)
    end
  end)

  it("unique_roots, residue, residuez, invres, invresz", function()
    local Z = REF.residue
    for _, c in ipairs(Z.unique_roots) do
      C.close(c.r, { RZ.unique_roots(c.p, c.tol, c.rtype) }, 1e-14, "unique_roots " .. c.rtype)
    end
    for _, key in ipairs({ "residue", "residue2" }) do
      local c = Z[key]
      local r, p, k = RZ.residue(c.b, c.a, 1e-3, "avg")
      C.close(c.r, { r, p, k }, 1e-9, key)
    end
    for _, key in ipairs({ "residuez", "residuez2" }) do
      local c = Z[key]
      local r, p, k = RZ.residuez(c.b, c.a, 1e-3, "avg")
      C.close(c.r, { r, p, k }, 1e-9, key)
    end
    local c = Z.invres
    C.close(c.ba, { RZ.invres(C.cx(c.r), C.cx(c.p), C.cx(c.k), 1e-3, "avg") }, 1e-9, "invres")
    c = Z.invresz
    C.close(c.ba, { RZ.invresz(C.cx(c.r), C.cx(c.p), C.cx(c.k), 1e-3, "avg") }, 1e-9, "invresz")
  end)

  it("raises SciPy's errors", function()
    local function err(fn, text)
      local ok, e = pcall(fn)
      assert(not ok, "expected an error: " .. text)
      assert(type(e) == "table" and e.msg:find(text, 1, true), ("error %s lacks %q"):format(C.str(e), text))
    end
    err(function() R.kaiserord(5, 0.1) end, "too small for the Kaiser formula")
    err(function() R.firwin(30, { 0.3 }, nil, "hamming", false, true) end, "even number of coefficients")
    err(function() R.firwin(31, { 1.3 }, nil, "hamming", true, true) end, "Invalid cutoff frequency")
    err(function() R.firwin(31, { 0.5, 0.3 }, nil, "hamming", true, true) end, "strictly increasing")
    err(function() R.firwin(31, { 0.5, 0.3 }, nil, "hamming", "lowpass", true) end, "strictly increasing")
    err(function() R.firwin(31, { 0.3, 0.5 }, nil, "hamming", "lowpass", true) end, "one element")
    err(function() R.firwin(31, { 0.3 }, nil, "hamming", "sideways", true) end, "pass_zero must be")
    err(function() R.firwin(31, { 0.3 }, nil, "hamming", true, true, 1, 2) end, "both 'nyq' and 'fs'")
    err(function() R.firwin2(31, { 0, 0.5 }, { 1, 1, 0 }) end, "same length")
    err(function() R.firwin2(31, { 0.1, 1 }, { 1, 0 }) end, "start with 0")
    err(function() R.firwin2(30, { 0, 0.5, 1 }, { 1, 1, 1 }) end, "Type II")
    err(function() R.firls(30, { 0, 0.5, 0.6, 1 }, { 1, 1, 0, 0 }) end, "odd")
    err(function() R.firls(31, { 0, 0.5, 0.6 }, { 1, 1, 0 }) end, "pairs")
    err(function() R.minimum_phase({ 1, 2 }, "homomorphic") end, "at least 2 samples")
    err(function() R.minimum_phase({ 1, 2, 1 }, "other") end, "method must be")
    err(function() R.savgol_coeffs(5, 5, 0, 1, nil, "conv") end, "polyorder must be less")
    err(function() R.savgol_coeffs(5, 2, 0, 1, 7, "conv") end, "pos must be")
    err(function() RZ.residue({ 1 }, { 0, 0 }, 1e-3, "avg") end, "Denominator `a` is zero")
    err(function() RZ.unique_roots({ 1 }, 1e-3, "median") end, "`rtype` must be one of")
  end)
end)
