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
end)
