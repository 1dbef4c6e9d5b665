-- Devices (docs/api.md §8): ga.Device, use/scope/synchronize, ga.get_device,
-- arrays remembering their device. The CI machine and the GPU machine have
-- at most one device: multi-device behaviour is specced where one device
-- shows it (other ids raise clearly; switching to the current device keeps
-- the current stream).
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

describe("devices", function()
  it("knows the current device without touching CUDA", function()
    local d = ga.get_device()
    assert.equal(0, d.id)
    assert.equal(0, ga.get_device_id())
    assert.equal("<CUDA Device 0>", tostring(d))
    assert.equal(ga.get_device(), d)             -- __eq compares ids
    helper.assert_gaerror(function() return d.bogus end, "Device has no field or method 'bogus'")
  end)

  it("refuses devices that do not exist", function()
    local n = ga.device_count()
    local err = helper.assert_gaerror(function() ga.Device(n) end, "Device: device " .. n .. " does not exist")
    if n == 0 then
      assert.truthy(err:find("no CUDA device available", 1, true))
    else
      assert.truthy(err:find(("(%d device"):format(n), 1, true))
    end
    helper.assert_gaerror(function() ga.Device(-1) end, "does not exist")
    helper.assert_gaerror(function() ga.Device("zero") end, "Device: id must be an integer or a Device or nil")
    helper.assert_gaerror(function() ga.Device(1.5) end, "Device: id must be an integer or a Device or nil")
    -- nothing changed
    assert.equal(0, ga.get_device_id())
  end)

  gpu_it("uses, scopes and synchronizes device 0", function()
    local d = ga.Device(0)
    assert.equal(0, d.id)
    assert.equal(d, ga.Device())
    assert.matches("^%d+$", d.compute_capability)
    local props = ga.device_properties(0)
    assert.equal(props.major * 10 + props.minor, tonumber(d.compute_capability))
    local prev = d:use()
    assert.equal(ga.Device(0), prev)
    -- switching to the current device keeps the current stream
    local s = ga.Stream()
    do
      local _ <close> = s:scope()
      local _ <close> = d:scope()
      assert.equal(s, ga.get_current_stream())
      assert.equal(0, ga.get_device_id())
    end
    assert.equal(ga.Stream.null, ga.get_current_stream())
    d:synchronize()
    local free, total = d:mem_info()
    assert.is_true(free > 0 and total >= free)
    -- errors inside a scope restore the device
    local ok = pcall(function()
      local _ <close> = d:scope()
      error("boom")
    end)
    assert.is_false(ok)
    assert.equal(0, ga.get_device_id())
  end)

  gpu_it("makes arrays remember their device", function()
    local x = ga.zeros({ 2, 3 }, "float32")
    assert.equal(0, x.device)
    assert.equal(0, x:reshape(3, 2).device)
    assert.equal(0, ga.array(x).device)
    assert.equal(ga.get_device_id(), x.device)
  end)

  if helper.gpu and ga.device_count() == 1 then
    it("names the only device in errors #gpu", function()
      helper.assert_gaerror(function() ga.Device(1) end, "device 1 does not exist (1 device)")
      helper.assert_gaerror(function() ga.Device(1):use() end, "does not exist")
    end)
  end
end)
