--- Window functions against NumPy's values.
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"

describe("window", function()
  it("compiles its kernels; I0 in Lua matches NumPy's i0", function()
    for _, w in ipairs({ "bartlett", "blackman", "hamming", "hanning" }) do
      internal.window_kernel(w):compile("float64", "float64")
    end
    internal.window_kernel("kaiser"):compile("float64", "float64", "float64", "float64")
    -- numpy.i0(0), i0(5), i0(12.5)
    helper.assert_same({ 1.0, 27.239871823604442, 30596.335155785157 },
      { internal.i0(0), internal.i0(5), internal.i0(12.5) }, 1e-14)
  end)
  it("checks its arguments", function()
    helper.assert_gaerror(function() ga.hamming(2.5) end, "hamming")
    helper.assert_gaerror(function() ga.kaiser(4) end, "beta")
  end)
  helper.gpu_it("NumPy's values; M < 1 is empty, M = 1 is {1}", function()
    local want = {
      bartlett = { 0.0, 0.33333333333333337, 0.6666666666666667, 1.0, 0.6666666666666667, 0.33333333333333337, 0.0 },
      blackman = { -1.3877787807814457e-17, 0.13000000000000006, 0.6300000000000001, 0.9999999999999999,
                   0.6300000000000001, 0.13000000000000006, -1.3877787807814457e-17 },
      hamming = { 0.08000000000000002, 0.31000000000000016, 0.7700000000000001, 1.0, 0.7700000000000001,
                  0.31000000000000016, 0.08000000000000002 },
      hanning = { 0.0, 0.2500000000000001, 0.75, 1.0, 0.75, 0.2500000000000001, 0.0 },
    }
    for name, w in pairs(want) do
      local r = ga[name](7)
      assert.are.equal("float64", r.dtype)
      local got = r:totable()
      for i = 1, 7 do assert(math.abs(got[i] - w[i]) < 1e-15, ("%s[%d]: %.17g vs %.17g"):format(name, i, got[i],
        w[i])) end
      assert.are.same({ 0 }, ga[name](0).shape)
      assert.are.same({ 1 }, ga[name](1):totable())
    end
    helper.assert_same({ 0.036710892271286676, 0.4149036392433668, 0.9138124838692001, 0.9138124838692001,
                         0.4149036392433668, 0.036710892271286676 }, ga.kaiser(6, 5.0):totable(), 1e-14)
  end)
end)
