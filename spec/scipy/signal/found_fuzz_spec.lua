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
      gaerror(function() signal.butter(1 << 15, 0.5) end, "scipy.signal.butter: Filter order N = 32768 is more than the 200")
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
end)
