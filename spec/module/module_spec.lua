-- Loading the module and what works without a device (runs everywhere).
local helper = require "helper"
local ga = helper.ga

describe("the module", function()
  it("loads and reports itself", function()
    assert.is_string(ga.version)
    assert.is_boolean(ga.is_available())
    assert.is_true(ga.device_count() >= 0)
    assert.equal(ga.is_available(), ga.device_count() > 0)
    assert.equal("gpuarray.newaxis", tostring(ga.newaxis))
    assert.equal("gpuarray.ellipsis", tostring(ga.ellipsis))
  end)

  it("can be opened twice in one state", function()
    package.loaded["gpuarray.core"] = nil
    local core2 = require "gpuarray.core"
    assert.equal(ga.float32, core2.float32)
    assert.equal(ga.newaxis, core2.newaxis)
  end)

  local no_gpu_it = ga.is_available() and require("busted").pending or it
  no_gpu_it("raises a clear error for device work when there is no device", function()
    helper.assert_gaerror(function() ga.zeros(3) end, "zeros: no CUDA device")
    helper.assert_gaerror(function() ga.array({ 1, 2 }) end, "array: no CUDA device")
  end)
end)
