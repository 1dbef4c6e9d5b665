--- What the declaration fuzzer (fuzz/decl_fuzz.lua, FUZZ_SEED=20261127)
-- found in scipy.signal, each input as it reproduced: the call now raises
-- a gpuarray error at once. No GPU: zero-size arrays and Lua tables.
-- (spec/reliability/found_ci_spec.lua holds the findings elsewhere.)
local helper = require "helper"
local ga = helper.ga
local gaerror = helper.assert_gaerror
local signal = ga.scipy.signal

-- calls that ran past the fuzzer's 10^8 instructions must end at once
local function quickly(fn)
  local t = os.clock()
  fn()
  assert(os.clock() - t < 5, ("took %.1f s"):format(os.clock() - t))
end

describe("scipy.signal: the declaration fuzzer's findings", function()
  it("IIR orders are bounded (bessel(255, {}) ran the root finder past 10^8 instructions)", function()
    quickly(function()
      gaerror(function() signal.bessel(255, {}) end, "scipy.signal.bessel: Filter order N = 255 is more than the 50")
      gaerror(function() signal.bessel(51, 0.5) end, "Filter order N = 51 is more than the 50")
      gaerror(function() signal.besselap(64) end, "scipy.signal.besselap: Filter order N = 64 is more than the 50")
      gaerror(function() signal.butter(1 << 15, 0.5) end,
              "scipy.signal.butter: Filter order N = 32768 is more than the 200")
      gaerror(function() signal.ellip(math.maxinteger, 1, 40, 0.5) end, "is more than the 200")
      gaerror(function() signal.buttap(201) end, "scipy.signal.buttap: Filter order N = 201 is more than the 200")
    end)
  end)

  it("tf2sos / tf2zpk refuse an empty numerator (tf2sos({}, {a = 3.4e38}) indexed a nil gain)", function()
    gaerror(function() signal.tf2sos({}, { a = 3.4028234999999999e+38 }) end,
            "scipy.signal.tf2sos: b must have at least one coefficient")
    gaerror(function() signal.tf2zpk(ga.empty({ 0 }, "float32"), { 1 }) end,
            "scipy.signal.tf2zpk: b must have at least one coefficient")
  end)

  it("square / sawtooth take duty / width as array_like (a Lua list was used in arithmetic)", function()
    -- a list becomes an array (a device one: without a GPU that raises too)
    gaerror(function() signal.square(ga.empty({ 0 }, "int32"), { 4294967296, 4294967296 }) end, "")
    gaerror(function() signal.sawtooth(ga.empty({ 0 }, "int32"), { 0.5, 0.5 }) end, "")
    gaerror(function() signal.square(ga.empty({ 0 }, "int32"), { "x" }) end, "scipy.signal.square: duty")
    gaerror(function() signal.sawtooth(ga.empty({ 0 }, "int32"), { "x" }) end, "scipy.signal.sawtooth: width")
  end)

  it("cont2discrete refuses an ndarray for its system (rawlen of a userdata)", function()
    gaerror(function() signal.cont2discrete(ga.empty({ 0 }, "int16"), 127, {}) end,
            "scipy.signal.cont2discrete: system must be an lti object or a list of arrays")
  end)
  it("lp2lp refuses an empty denominator (lp2lp(-1, {}) read past its powers of wo)", function()
    gaerror(function() signal.lp2lp(-1, {}) end, "scipy.signal.lp2lp: Denominator must have at least on nonzero")
    gaerror(function() signal.lp2lp({}, ga.empty({ 0 }, "float64")) end, "Denominator must have at least on nonzero")
  end)

  it("invres / invresz refuse no poles, and leave out residues past the poles (a nil factor was indexed)", function()
    gaerror(function() signal.invres({ 2147483647, 1099511627774 }, ga.empty({ 0 }, "int32"), 2) end,
            "scipy.signal.invres: p must hold at least one pole")
    gaerror(function() signal.invresz({ 1, 2 }, {}, {}) end, "scipy.signal.invresz: p must hold at least one pole")
    -- more residues than poles: SciPy's zip uses the first (b = {1}, a = {1, -1})
    local RZ = require "gpuarray.scipy.signal.host.residue"
    for _, f in ipairs({ "invres", "invresz" }) do
      local b, a = RZ[f]({ 1, 2 }, { 1 }, {}, 1e-3, "avg")
      assert.are.same({ 1 }, b, f)
      assert.are.same({ 1, -1 }, a, f)
    end
  end)

  it("zpk2tf refuses a list of gains for a 1-D z (an empty one was multiplied)", function()
    gaerror(function() signal.zpk2tf(ga.empty({ 0 }, "bool"), -8.9900596799867287, { axis = "\n" }, {}) end,
            "scipy.signal.zpk2tf: k must be a number, or one gain per row of a 2-D z (got 0 gains)")
    gaerror(function() signal.zpk2tf({ 1 }, { 2 }, { 1, 2 }) end, "(got 2 gains)")
  end)
  it("responses bound their points (freqs_zpk with worN = 2^40, findfreqs with N = 2^63 - 1 ran for ever)", function()
    quickly(function()
      gaerror(function() signal.freqs_zpk(4611686018427387904, {}, 11, 1099511627776) end,
              "scipy.signal.freqs_zpk: 1099511627776 points are more than the 16777216 a response is computed at")
      gaerror(function() signal.findfreqs(10, { [3] = 0, [2] = 7, order = "/*" }, 9223372036854775807, {}) end,
              "scipy.signal.findfreqs: 9223372036854775807 points are more than the 16777216")
      gaerror(function() signal.freqresp({ { 1 }, { 1 } }, nil, 1 << 40) end, "more than the 16777216")
      gaerror(function() signal.group_delay({ { 1 }, { 1 } }, 1 << 40) end, "more than the 16777216")
    end)
  end)

  it("savgol_coeffs bounds its host fit (savgol_coeffs(32768, 256) ran past 10^8 instructions)", function()
    quickly(function()
      gaerror(function() signal.savgol_coeffs(32768, 256) end,
              "scipy.signal.savgol_coeffs: window_length * (polyorder + 1)^2 = 32768 * 257^2 is more than the 1048576")
      gaerror(function() signal.savgol_coeffs(math.maxinteger, (1 << 32) - 1) end, "is more than the 1048576")
      gaerror(function() signal.savgol_filter(ga.empty({ 0 }), 1 << 21, 0) end, "2097152 * 1^2 is more than")
    end)
  end)

  it("a discrete system's dt is a number or true (dimpulse read io.stdout); n and dlsim's steps bounded", function()
    quickly(function()
      gaerror(function()
        signal.dimpulse({ ga.empty({ 0 }, "uint64"), 3.5e+38, io.stdout }, ga.empty({ 1, 0 }, "int16"))
      end, "scipy.signal.dimpulse: dt must be a number or true, got a userdata")
      gaerror(function() signal.dlti({ 1 }, { 1 }, { dt = false }) end,
              "scipy.signal.dlti: dt must be a number or true")
      gaerror(function() signal.dstep({ { 1 }, { 1 }, 1 }, nil, nil, 1 << 40) end,
              "scipy.signal.dstep: n = 1099511627776 is more than the 16777216 steps")
      gaerror(function() signal.impulse({ { 1 }, { 1, 2 } }, nil, nil, 1 << 40) end, "N = 1099511627776 is more than")
      gaerror(function() signal.dimpulse({ { 1 }, { 1 }, 1 }, nil, {}) end, "t must hold at least one time")
      gaerror(function() signal.dlsim({ { 1 }, { 1 }, 1e-300 }, { 1, 2 }, { 0, 1e300 }) end,
              "scipy.signal.dlsim: the last time / dt = 1e+300 / 1e-300 steps are more than the 16777216")
      gaerror(function() signal.dlsim({ { 1 }, { 1 }, 1 }, { 1, 2 }, { 0, 0 / 0 }) end, "steps are more than")
    end)
  end)

  it("ss2tf / ss2zpk check input against the inputs (a negative one, or none, indexed nil)", function()
    gaerror(function() signal.ss2zpk(31, 5, -2.5, ga.empty({ 0 }, "float16"), -2147483648) end,
            "scipy.signal.ss2zpk: System does not have the input specified.")
    gaerror(function() signal.ss2tf({}, {}, {}, {}, 0) end, "System does not have the input specified.")
  end)

  it("scalar arguments take typed scalars (symiirorder1's z1 = ga.int64(10), ZoomFFT's fn)", function()
    gaerror(function() signal.symiirorder1(ga.empty({ 0 }, "int64"), 1, ga.int64(10), {}) end,
            "scipy.signal.symiirorder1: |z1| must be less than 1.0")
    assert.are.equal("float64", signal.symiirorder1(ga.empty({ 0 }, "int64"), 1, ga.float32(0.5)).dtype)
    gaerror(function() signal.ZoomFFT(11, { "x" }) end, "scipy.signal.ZoomFFT: fn must be a scalar")
    gaerror(function() signal.ZoomFFT(11, { { 1, 2 } }) end, "fn must hold real frequencies")
    -- read as 128 (the transform's device arrays need a GPU: the error is that one)
    local ok, err = pcall(signal.ZoomFFT, 11, { ga.bfloat16(128.0) })
    assert(ok or tostring(err):find("^gpuarray: scipy.signal.ZoomFFT: "), tostring(err))
  end)
  it("medfilt refuses a window past 1024 cells before listing it (kernel_size 2^31 - 1 ran for ever)", function()
    quickly(function()
      gaerror(function() signal.medfilt(ga.empty({ 5, 4, 0 }, "uint32"), 2147483647, {}) end,
              "scipy.signal.medfilt: at most 1024 elements in the window")
      gaerror(function() signal.medfilt(ga.empty({ 5, 4, 0 }, "uint32"), { 2147483647, 2147483647, 2147483647 }) end,
              "at most 1024 elements in the window")
      assert.are.same({ 5, 4, 0 }, signal.medfilt(ga.empty({ 5, 4, 0 }, "uint32"), 9).shape)
    end)
  end)

  it("czt's A^-k is one step a point past k = 100, as NumPy's power (65536 points took 10^8 instructions)", function()
    quickly(function()
      -- the host chirps of 65536 points, then the device (absent here) raises
      local ok, err = pcall(signal.czt, ga.empty({ 3, 0, 2, 65536 }, "bfloat16"), {})
      assert(ok or tostring(err):find("^gpuarray: scipy.signal.czt: "), tostring(err))
      ok, err = pcall(signal.czt, ga.empty({ 0, 65536 }, "float32"), nil, nil, { 1.0001, 0.0002 })
      assert(ok or tostring(err):find("^gpuarray: scipy.signal.czt: "), tostring(err))
    end)
  end)
  it("more found with other seeds over scipy.signal alone (seeds 1 and 2): each raises at once", function()
    quickly(function()
      gaerror(function() signal.zpk2tf(ga.empty({ 0, 3 }, "complex128"), 4, {}) end,
              "scipy.signal.zpk2tf: a 2-D z must have at least one row")
      gaerror(function() signal.zpk2tf(ga.empty({ 0, 8 }, "uint32"), ga.empty({ 0 }, "int16"), 9, {}) end,
              "a 2-D z must have at least one row")
      gaerror(function() signal.max_len_seq(32) end,
              "scipy.signal.max_len_seq: length 4294967295 is more than the 16777216 steps")
      gaerror(function() signal.max_len_seq(4611686018427387904, nil, nil, { 1 }) end, "nbits must be between 1 and 62")
      gaerror(function() signal.cheb2ord({}, -3, 8, 9007199254740992, {}) end,
              "scipy.signal.cheb2ord: wp and ws must have one or two elements each, and the same shape")
      gaerror(function() signal.buttord(ga.empty({ 0 }, "int16"), 31, 9007199254740992, 1 / 0) end,
              "wp and ws must have one or two elements each")
      gaerror(function() signal.step({ 9223372036854775807, 4 }, { 8, -9223372036854775807 }, {}) end,
              "scipy.signal.step: T must hold at least one time")
      gaerror(function() signal.windows.taylor(2, 65535, {}) end,
              "scipy.signal.windows.taylor: nbar * (nbar + M) = 65535 * 65537 is more than the 4194304 terms")
      gaerror(function() signal.windows.get_window({ "taylor", 100000 }, 10) end, "is more than the 4194304 terms")
      gaerror(function() signal.windows.get_window(-1, 9007199254740993) end,
              "scipy.signal.windows.get_window: Window length M = 9007199254740993 is more than the 16777216 points")
      gaerror(function() signal.windows.get_window(31, math.maxinteger, {}) end, "is more than the 16777216 points")
    end)
  end)
  it("empty arrays with a huge axis are not walked on the host (qspline2d, argrelmax, detrend, hilbert)", function()
    quickly(function()
      local q = signal.qspline2d(ga.empty({ 0, 2147483647 }, "int8"))
      assert.are.same({ 0, 2147483647 }, q.shape)
      assert.are.equal("float64", q.dtype)
      local i = signal.argrelmax(ga.empty({ 9007199254740991, 0, 2 }, "int16"))
      assert.are.equal(0, i.size)
      local d = signal.detrend(ga.empty({ 3, 0, 2, 9007199254740993 }, "uint16"))
      assert.are.same({ 3, 0, 2, 9007199254740993 }, d.shape)
      local h = signal.hilbert(ga.empty({ 3, 0, 5, 2147483648 }, "uint64"))
      assert.are.same({ 3, 0, 5, 2147483648 }, h.shape)
      assert.are.equal("complex128", h.dtype)
      gaerror(function()
        signal.firls(9223372036854775807, ga.empty({ 0 }, "float16"), ga.empty({ 1, 0, 0 }, "int8"),
                     ga.empty({ 0 }, "bool"), {})
      end, "scipy.signal.firls: numtaps = 9223372036854775807 is more than the 1025 taps")
    end)
  end)
  it("taylor with nbar = math.mininteger and expm of an infinite matrix end (seeds 3 and 4)", function()
    quickly(function()
      local HW = require "gpuarray.scipy.signal.host.windows"
      -- nbar <= 0: no sidelobe terms (SciPy's empty arange), the plain window of ones
      local w = HW.taylor(5, math.mininteger, 30, true, true)
      assert.are.same({ 1.0, 1.0, 1.0, 1.0, 1.0 }, w)
      local ok, err = pcall(signal.windows.taylor, 32768, math.mininteger, {})
      assert(ok or tostring(err):find("^gpuarray: scipy.signal.windows.taylor: "), tostring(err))
      local M = require "gpuarray.scipy.signal.host.mat"
      local r = M.expm({ { 1 / 0, 0 }, { 0, 1 } })
      assert(r[1][1] ~= r[1][1] and r[2][2] ~= r[2][2], "NaN throughout")
      ok, err = pcall(signal.impulse, { 0, 1.0000000000000001e+300, 1 }, -4.8813426126475479,
                      4.6116860184273879e+18, {})
      assert(ok or tostring(err):find("^gpuarray: scipy.signal.impulse: "), tostring(err))
    end)
  end)
  it("seeds 5 and 6: freqs' negative worN, wiener's mysize, istft of an empty input, dpss's work", function()
    quickly(function()
      gaerror(function() signal.freqs(5, 2147483648, math.mininteger) end,
              "scipy.signal.freqs: Number of samples, -9223372036854775808, must be non-negative.")
      gaerror(function() signal.wiener(ga.empty({ 7, 2, 0 }, "int32"), { true, "*/", ga.empty({ 1, 0 }, "int8") }) end,
              "scipy.signal.wiener: mysize must be positive integers")
      gaerror(function() signal.wiener(ga.empty({ 0, 8, 3, 5 }, "uint8"), { ga.complex128, 0, 0, 2147483648 }) end,
              "mysize must be positive integers")
      -- an empty input: no host list as long as its (huge) output
      local times, x = signal.istft(ga.empty({ 0, 1, 3, 4294967293 }, "uint32"))
      assert.are.equal(0, x.size)
      assert.are.equal("float64", times.dtype)
      gaerror(function() signal.windows.dpss(32766, 5.079846338130551, 4) end,
              "scipy.signal.windows.dpss: M * Kmax = 32766 * 4 is more than the 65536")
      gaerror(function() signal.windows.get_window({ "dpss", 3 }, 100000) end, "100000 * 1 is more than the 65536")
    end)
  end)
  it("seeds 7 and 8: resample_poly bounds its rates (a 2^62 one designed its filter for ever), firls' lists", function()
    quickly(function()
      gaerror(function() signal.resample_poly({}, 4294967295, 6, {}) end,
              "scipy.signal.resample_poly: up / down = 1431655765 / 2 (reduced) is past the rate of 8192")
      gaerror(function() signal.resample_poly(ga.empty({ 3, 0, 0, 3 }, "float32"), 5, 4611686018427387905, {}) end,
              "up / down = 1 / 922337203685477581 (reduced) is past the rate of 8192")
      gaerror(function() signal.firls(-129, { setmetatable({}, {}), false, "int8", 256 }, 6) end,
              "scipy.signal.firls: bands must be a list of numbers or of pairs")
    end)
  end)
  it("place_poles' rank of a wide B is at most its rows (a 1 x 4 B had rank 4; seed 7)", function()
    local L = require "gpuarray.scipy.signal.host.lti"
    assert.are.equal(1, L.rank({ { -2, -3, 0, -4 } }))
    assert.are.equal(1, L.rank({ { 1, 2 }, { 2, 4 } }))
    assert.are.equal(2, L.rank({ { 1, 0 }, { 0, 1 }, { 1, 1 } }))
    -- SciPy 1.10: place_poles([[9]], [[-2, -3, 0, -4]], [2^40]).gain_matrix
    local want = { 7.58283881e+10, 1.13742582e+11, 0.0, 1.51656776e+11 }
    local gain = L.place_poles({ { 9 } }, { { -2, -3, 0, -4 } }, { 1099511627776 }, "YT", 0.001, 30)
    for i = 1, 4 do
      assert(math.abs(gain[i][1] - want[i]) <= 1e-8 * 2 ^ 40,
             ("gain[%d] = %s, SciPy %s"):format(i, gain[i][1], want[i]))
    end
    local ok, err = pcall(signal.place_poles, 9, { -2, -3, 0, -4 }, 1099511627776)
    assert(ok or tostring(err):find("^gpuarray: scipy.signal.place_poles: "), tostring(err))
  end)
end)
