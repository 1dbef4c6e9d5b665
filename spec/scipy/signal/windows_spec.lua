--- scipy.signal.windows against SciPy 1.10's values (ref_windows.py).
-- The windows are computed on the host (host/windows.lua), so the CPU
-- part checks every number; the GPU part checks the upload.
local helper = require "helper"
local ga = helper.ga
local HW = require "gpuarray.scipy.signal.host.windows"
local REF = require "scipy.signal.ref_windows"

local NARGS = { general_cosine = 1, general_hamming = 1, tukey = 1, kaiser = 1, gaussian = 1,
                general_gaussian = 2, chebwin = 1, exponential = 2, taylor = 3 }

local function close(want, got, tol, what)
  assert(#want == #got, ("%s: %d points, want %d"):format(what, #got, #want))
  for i = 1, #want do
    local w, g = want[i], got[i]
    assert(math.abs(w - g) <= tol * math.max(1, math.abs(w)),
      ("%s[%d]: %.17g, SciPy %.17g"):format(what, i, g, w))
  end
end

describe("scipy.signal.windows", function()
  local signal = ga.scipy.signal
  local windows = signal.windows

  it("every window on the host matches SciPy (odd and even M, sym and periodic)", function()
    for _, c in ipairs(REF.cases) do
      local n, a = NARGS[c.name] or 0, c.args
      local got
      if n == 0 then got = HW[c.name](a[1], c.sym)
      elseif n == 1 then got = HW[c.name](a[1], a[2], c.sym)
      elseif n == 2 then got = HW[c.name](a[1], a[2], a[3], c.sym)
      else got = HW[c.name](a[1], a[2], a[3], a[4], c.sym) end
      close(c.w, got, 1e-13, ("%s(M=%d, sym=%s)"):format(c.name, c.args[1], tostring(c.sym)))
    end
    for _, c in ipairs(REF.kbd) do
      close(c.w, HW.kaiser_bessel_derived(c.M, c.beta), 1e-13, ("kbd(%d, %g)"):format(c.M, c.beta))
    end
  end)

  it("dpss: Slepian windows, ratios and every norm", function()
    for _, c in ipairs(REF.dpss) do
      if c.M > 1 then
        local norm = c.norm
        if norm == nil then norm = c.Kmax == nil and "approximate" or 2 end
        local wins, ratios = HW.dpss(c.M, c.NW, c.Kmax or 1, c.sym, norm, true)
        local what = ("dpss(%d, %g, %s)"):format(c.M, c.NW, tostring(c.Kmax))
        if c.Kmax == nil then
          close(c.w, wins[1], 1e-10, what)
          close({ c.ratios }, { ratios[1] }, 1e-10, what .. " ratio")
        else
          for k = 1, c.Kmax do close(c.w[k], wins[k], 1e-10, what .. " window " .. k) end
          close(c.ratios, ratios, 1e-10, what .. " ratios")
        end
      end
    end
  end)

  it("get_window's names, parameters and fftbins on the host", function()
    for _, c in ipairs(REF.get_window) do
      local got = HW.get_window(c.window, c.Nx, c.fftbins)
      close(c.w, got, 1e-10, "get_window(" .. (type(c.window) == "table" and c.window[1] or tostring(c.window)) .. ")")
    end
  end)

  it("is declared, with SciPy's errors", function()
    assert.is_function(windows.hann)
    assert.are.equal(windows.get_window, signal.get_window)
    assert.truthy(ga.help(windows.kaiser):find("beta", 1, true))
    helper.assert_gaerror(function() windows.hann(-1) end, "non-negative integer")
    helper.assert_gaerror(function() windows.hann(2.5) end, "hann")
    helper.assert_gaerror(function() windows.kaiser(4) end, "beta")
    helper.assert_gaerror(function() windows.hann(4, { sym = 1 }) end, "sym")
    helper.assert_gaerror(function() windows.hann(4, { symm = false }) end, "did you mean 'sym'")
    helper.assert_gaerror(function() windows.kaiser_bessel_derived(5, 2.0) end, "even number")
    helper.assert_gaerror(function() windows.kaiser_bessel_derived(4, 2.0, { sym = false }) end, "symmetric")
    helper.assert_gaerror(function() windows.exponential(5, 1.0) end, "center must be None")
    helper.assert_gaerror(function() windows.get_window("kaiser", 8) end, "needs one or more parameters")
    helper.assert_gaerror(function() windows.get_window("nope", 8) end, "Unknown window type")
    helper.assert_gaerror(function() windows.get_window(true, 8) end, "window")
    helper.assert_gaerror(function() windows.dpss(8, 5) end, "NW must be less than M/2")
    helper.assert_gaerror(function() windows.dpss(8, 0) end, "NW must be positive")
    helper.assert_gaerror(function() windows.dpss(8, 2, 9) end, "Kmax")
    helper.assert_gaerror(function() windows.dpss(8, 2, nil, true, "bad") end, "norm")
  end)

  helper.gpu_it("uploads float64 arrays of SciPy's values", function()
    local c = REF.cases
    for _, k in ipairs({ 1, 5, 12 }) do
      local case = c[k]
      local r = windows[case.name](case.args[1], case.sym)
      assert.are.equal("float64", r.dtype)
      assert.are.same({ #case.w }, r.shape)
      close(case.w, case.args[1] > 0 and r:totable() or {}, 1e-13, case.name)
    end
    local r = windows.dpss(17, 3, 3)
    assert.are.same({ 3, 17 }, r.shape)
    local g = windows.get_window({ "kaiser", 4.0 }, 8, false)
    close(REF.get_window[4].w, g:totable(), 1e-13, "get_window kaiser")
    assert.are.same({ 0 }, windows.hann(0).shape)
  end)
end)
