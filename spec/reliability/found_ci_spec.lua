-- What make fuzz found in the release branch's CI run (two hangs of the
-- breadth routines on extreme sizes), each as it reproduced, without a GPU:
-- the call now raises at once. spec/reliability/found_spec.lua holds issue
-- 16's findings.
local helper = require "helper"
local ga = helper.ga
local gaerror = helper.assert_gaerror

-- each call below ran for minutes (past the fuzzer's 10^8 instructions)
local function quickly(fn)
  local t = os.clock()
  fn()
  assert(os.clock() - t < 5, ("took %.1f s"):format(os.clock() - t))
end

describe("fuzz findings: extreme sizes that hung", function()
  it("a window of 2^62 points raises instead of filling a Lua list (fuzz decl)", function()
    quickly(function()
      gaerror(function() ga.scipy.signal.windows.barthann(4611686018427387905, {}) end,
              "scipy.signal.windows.barthann: Window length M = 4611686018427387905 is more than the 16777216 points")
      gaerror(function() ga.scipy.signal.windows.hann(16777217) end, "more than the 16777216 points")
      gaerror(function() ga.scipy.signal.windows.kaiser(math.maxinteger, 1.5) end, "more than the 16777216 points")
    end)
  end)

  it("czt_points of 2^31 - 1 points raises instead of filling a Lua list (fuzz decl, second run)", function()
    quickly(function()
      gaerror(function() ga.scipy.signal.czt_points(2147483647) end,
              "scipy.signal.czt_points: m = 2147483647 is more than the 16777216 points")
    end)
  end)

  it("fft.cache_info refuses an ndarray for its device with a gpuarray error (fuzz decl, second run)", function()
    gaerror(function() ga.fft.cache_info(ga.empty({ 0 }, "complex128")) end,
            "fft.cache_info: device must be a device id or a Device, got gpuarray.ndarray")
  end)

  it("sparse.diags counts an array's diagonals before taking its rows (fuzz libs)", function()
    quickly(function()
      gaerror(function()
        ga.sparse.diags(ga.empty({ 2147483648, 0 }, "int16"), { 0, 1 }, { 2147483647, math.mininteger, 4 })
      end, "sparse.diags: 2147483648 diagonals but 2 offsets")
      gaerror(function() ga.sparse.diags_array(ga.empty({ 3, 0 }), { offsets = { 0, 1 } }) end,
              "sparse.diags_array: 3 diagonals but 2 offsets")
      -- none at all (an index error before)
      gaerror(function() ga.sparse.diags(ga.empty({ 0, 5 }, "int32"), ga.empty({ 0 }, "uint64")) end,
              "sparse.diags: no diagonals given")
    end)
  end)

  it("chebwin past 2^15 points raises instead of a long host FFT (fuzz decl, 30-minute run)", function()
    quickly(function()
      gaerror(function() ga.scipy.signal.windows.chebwin(32770, 4294967294) end,
              "scipy.signal.windows.chebwin: Window length M = 32770 is more than the 32768 points chebwin")
      gaerror(function() ga.scipy.signal.windows.get_window({ "chebwin", 100 }, 40000) end,
              "scipy.signal.windows.get_window: Window length M = 40000 is more than the 32768 points")
    end)
  end)

  it("firwin and firwin2 refuse more than 2^24 taps, as the windows do (fuzz decl, fourth run)", function()
    quickly(function()
      gaerror(function() ga.scipy.signal.firwin(4611686018427387905, 1e-300, nil, "int32") end,
              "scipy.signal.firwin: numtaps = 4611686018427387905 is more than the 16777216 taps")
      gaerror(function() ga.scipy.signal.firwin2(16777217, { 0, 1 }, { 1, 0 }) end,
              "scipy.signal.firwin2: numtaps = 16777217 is more than the 16777216 taps")
      gaerror(function() ga.scipy.signal.firwin2(5, { 0, 1 }, { 1, 0 }, 1 << 40) end,
              "scipy.signal.firwin2: nfreqs = 1099511627776 is more than the 16777217 points")
    end)
  end)
end)

describe("fuzz findings: plain Lua errors in the SciPy layer (fuzz decl, 30-minute run)", function()
  it("make_lsq_spline refuses a negative degree", function()
    gaerror(function()
      ga.scipy.interpolate.make_lsq_spline(ga.empty({ 0 }, "int8"), ga.empty({ 0 }, "float16"),
        ga.empty({ 0 }, "int8"), -3, {})
    end, "scipy.interpolate.make_lsq_spline: k must be non-negative, got -3")
  end)

  it("ndimage's measurements refuse a NaN label index, as a number or a 0-d array", function()
    gaerror(function() ga.scipy.ndimage.maximum(ga.empty({ 3, 0 }, "uint32"), ga.empty({ 0 }, "uint16"), 0 / 0) end,
            "scipy.ndimage.maximum: index must be a label value, got NaN")
  end)

  it("interpn and RegularGridInterpolator refuse an empty list of points", function()
    gaerror(function() ga.scipy.interpolate.interpn({}, {}, {}) end,
            "scipy.interpolate.interpn: points must list one 1-D array per axis, got an empty list")
  end)

  it("the spectral routines say an empty signal has no segment (stft with a negative noverlap divided by 0)", function()
    gaerror(function() ga.scipy.signal.stft(ga.empty({ 0 }, "int8"), 0, nil, 10, -2147483648) end,
            "scipy.signal.stft: x is empty along the axis: no segment to take")
    gaerror(function() ga.scipy.signal.welch(ga.empty({ 0 }, "float32"), { nperseg = 10 }) end,
            "scipy.signal.welch: x is empty along the axis: no segment to take")
  end)

  it("polyval of an empty stack of 2^32 - 1 series takes one step, not 2^32 (second 30-minute run)", function()
    quickly(function()
      local c = ga.empty({ 4294967295, 4, 5, 0 }, "int16")
      local r = ga.polynomial.polynomial.polyval(ga.empty({ 0 }, "int16"), c, {})
      assert.same({ 4, 5, 0, 0 }, r.shape)
      assert.equal("float64", r.dtype)
    end)
  end)

  it("iircomb refuses a comb of more than 2^24 taps (w0 = 1e-300 left N a float: third run)", function()
    gaerror(function() ga.scipy.signal.iircomb(1e-300, 1, "notch") end,
            "scipy.signal.iircomb: fs / w0 = 1.9999999999999998e+300: a comb of more than 16777216 taps")
  end)

  it("label refuses more than 12 dimensions before walking a 3^N structure (third run)", function()
    quickly(function()
      gaerror(function()
        ga.scipy.ndimage.label(ga.empty({ 3, 2147483648, 2, 0, 1, 1, 0, 4, 0, 0, 3, 5, 5, 31, 2 }, "int32"))
      end, "scipy.ndimage.label: arrays of 15 dimensions: at most 12 are supported")
    end)
  end)

  it("RBFInterpolator counts its monomials before listing them (2^32 dimensions overflowed the stack)", function()
    quickly(function()
      gaerror(function() ga.scipy.interpolate.RBFInterpolator(ga.empty({ 0, 4294967296 }, "int16"), {}) end,
              "scipy.interpolate.RBFInterpolator: `y` has 4294967296 dimensions: at most 4096 are supported")
      gaerror(function()
        ga.scipy.interpolate.RBFInterpolator(ga.empty({ 0, 3 }, "int16"), ga.empty({ 0 }), { degree = 2 })
      end,
              "scipy.interpolate.RBFInterpolator: At least 10 data points are required when the polynomial degree is 2")
    end)
  end)

  it("minimum_phase refuses an n_fft past 2^24 points (found probing next to firwin)", function()
    quickly(function()
      gaerror(function() ga.scipy.signal.minimum_phase({ 1, 2, 3 }, "hilbert", 1 << 40) end,
              "scipy.signal.minimum_phase: n_fft = 1099511627776 is more than the 16777216 points")
    end)
  end)

  it("residue, residuez and unique_roots refuse a negative or NaN tol (fuzz decl, fourth run)", function()
    -- every root was in no group, itself included: a NaN root of
    -- multiplicity 0 whose factor residue then divided (poly.lua:215)
    gaerror(function() ga.scipy.signal.residue(-128, { math.mininteger, true }, -4, {}) end,
            "scipy.signal.residue: tol must be a non-negative number, got -4")
    gaerror(function() ga.scipy.signal.residuez({ 1 }, { 1, 2 }, 0 / 0) end,
            "scipy.signal.residuez: tol must be a non-negative number, got NaN")
    gaerror(function() ga.scipy.signal.unique_roots({ 1, 2 }, -1) end,
            "scipy.signal.unique_roots: tol must be a non-negative number, got -1")
  end)

  it("the host roots refuse an inf or NaN companion matrix as numpy.roots does (fuzz decl, fourth run)", function()
    -- a = {0, inf, 1, 3} normalised to {NaN, 0, 0}: NaN poles that
    -- zpk2sos's pairing indexed as nothing (cx.lua:28)
    gaerror(function() ga.scipy.signal.tf2sos(5, { 0, 1 / 0, true, 3 }) end,
            "scipy.signal.tf2sos: Array must not contain infs or NaNs")
    gaerror(function() ga.scipy.signal.tf2zpk({ 1, 0 / 0, 3 }, { 1, 2, 3 }) end,
            "scipy.signal.tf2zpk: Array must not contain infs or NaNs")
    gaerror(function() ga.scipy.signal.zpk2sos({}, { 0 / 0, 0 / 0 }, 1) end,
            "scipy.signal.zpk2sos: zeros and poles must not be NaN")
  end)

  it("grey morphology checks the footprint's dimensions before its shape is read (fuzz decl, fourth run)", function()
    -- footprint = false is an array_like (0-d, as numpy.asarray(False)):
    -- the dilation's origin shift read the size it stood for
    -- (morphology.lua:295); SciPy raises an IndexError there
    gaerror(function() ga.scipy.ndimage.grey_dilation(ga.empty({ 0 }, "int32"), { footprint = false, cval = 4 }) end,
            "scipy.ndimage.grey_dilation: footprint array has incorrect shape.")
    gaerror(function() ga.scipy.ndimage.grey_erosion(ga.empty({ 0, 3 }, "int32"), { structure = { 1, 2 } }) end,
            "scipy.ndimage.grey_erosion: structure array has incorrect shape")
  end)

  it("hilbert2 refuses an N whose entries are not integers", function()
    gaerror(function()
      ga.scipy.signal.hilbert2(ga.empty({ 1, 0 }, "float32"), { "R\"x(", ga.empty({ 0, 12, 1 }) }, {})
    end,
            "scipy.signal.hilbert2: When given as a tuple, N must hold exactly two positive integers")
  end)
end)

describe("fuzz findings: plain Lua errors outside the SciPy layer (fuzz decl, fourth run)", function()
  it("fht's coefficients at two poles take the q factors between them, not two factorials (seed 7)", function()
    quickly(function()
      -- mu = 2^63 - 1 wrapped to -2^63 in integers: both gammas at poles,
      -- and the loop of the factorial of 2^62 ran past 10^8 instructions
      gaerror(function() ga.scipy.fft.fht(ga.empty({ 0, 7, 6 }, "complex64"), -2, math.maxinteger) end,
              "scipy.fft.fht: a must be real, got complex64")
      local r = ga.scipy.fft.fht(ga.empty({ 0, 7, 6 }, "float32"), -2, math.maxinteger)
      assert.same({ 0, 7, 6 }, r.shape)
      assert.equal("float64", r.dtype)
      -- no points, no coefficients (n // 2 + 1 of them for a {0, 2^40})
      assert.same({ 0, 1099511627776 }, ga.scipy.fft.ifht(ga.empty({ 0, 1099511627776 }), 0.1, 0.5).shape)
      -- poles 10^18 apart: 2^q is 0 and the product stops at once
      local re = ga.scipy.fft._fht_coeffs(6, 0.1, -1e18 - 1, 0, -1e18)
      assert.equal(0, re[1])
      -- 2^q poch(xm, q): q = 1, xm = -2 gives -4 as SciPy
      assert.equal(-4, ga.scipy.fft._fht_coeffs(6, 0.1, -4, 0, 1)[1])
    end)
  end)

  it("krogh_interpolate bounds the host table's rows (2^53 rows of nothing; fifth run)", function()
    quickly(function()
      gaerror(function()
        ga.scipy.interpolate.krogh_interpolate({}, ga.empty({ 9007199254740992, 2, 0 }, "int64"), ga.float32(1.0))
      end, "scipy.interpolate.krogh_interpolate: at most 16777216 points (y has 9007199254740992 along the axis)")
    end)
  end)

  it("scatter_max refuses a range whose end is false (fuzz shape, second 30-minute run)", function()
    -- false read as an absent end, then compared with 0 (scatter.lua:33,
    -- when scatter had a range parser of its own; now x[key]'s in C)
    gaerror(function()
      ga.scatter_max(ga.empty({ 0, 2147483647, 33, 5 }, "int64"), { { false }, -2, 4294967295 },
                     { 4, { ga.empty({ 0 }, "int64") } })
    end, "scatter_max: a range start must be an integer, got boolean")
    gaerror(function() ga.scatter_add(ga.empty({ 0 }, "float32"), { { 1, false } }, 1) end,
            "scatter_add: a range stop must be an integer, got boolean")
  end)

  it("histogramdd refuses a complex sample before taking its columns, and a sample of no dimensions", function()
    -- a {0, 0} sample has no column: the weights' count read cols[1]
    -- (histograms.lua:256)
    gaerror(function()
      ga.histogramdd(ga.empty({ 0, 0 }, "complex128"), { weights = ga.empty({ 3, 1099511627776, 0, 1 }, "int64") })
    end, "histogramdd: complex values have no order for bins")
    gaerror(function() ga.histogramdd(ga.empty({ 5, 0 }, "float32")) end,
            "histogramdd: the sample has no dimensions (D = 0)")
  end)
end)
