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
end)
