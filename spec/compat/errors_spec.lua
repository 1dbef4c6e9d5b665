-- Compatibility of errors and of the module table (issue 15): every error
-- starts "gpuarray: " and names the function, argument errors included;
-- without a driver the error says which call needed a device and that no
-- driver was found; the module table has one private field, _core.
local helper = require "helper"
local ga = helper.ga

describe("compat: argument errors name the function", function()
  local EMPTY = ga.empty(0)      -- empty arrays need no device

  local cases = {
    { function() ga.eye("a") end, 'eye: N must be an integer, got "a"' },
    { function() ga.eye(2, "x", 1) end, 'eye: M must be an integer or a dtype or nil, got "x"' },
    { function() ga.eye(2, 2, 1.5) end, "eye: k must be an integer or a dtype or nil, got 1.5" },
    { function() ga.identity({}) end, "identity: missing argument 'n'" },
    { function() ga.arange("x") end, 'arange: start must be a number, got "x"' },
    { function() ga.arange(1, {}, 2) end, "arange: stop must be a number or a dtype or nil, got table" },
    { function() ga.arange(1, 5, true) end, "arange: step must be a number or a dtype or nil, got boolean" },
    { function() ga.linspace(1) end, "linspace: missing argument 'stop'" },
    { function() ga.linspace("a", 1) end, "linspace: start must be an array" },
    { function() ga.linspace(0, 1, 2.5) end, "linspace: num must be an integer or nil, got 2.5" },
    { function() ga.full({ 2 }) end, "full: missing argument 'fill_value'" },
    { function() ga.full_like(EMPTY) end, "full_like: missing argument 'fill_value'" },
    { function() ga.zeros(3, 4) end, "zeros: the shape is one argument: write ga.zeros({3, 4})" },
    { function() ga.ones(2, 5) end, "ga.ones({2, 5})" },
    { function() ga.empty(2, 2) end, "ga.empty({2, 2})" },
    { function() ga.empty({ 0, 2 }):swapaxes("a", 1) end, 'swapaxes: axis1 must be an integer, got "a"' },
    { function() ga.empty({ 0, 2 }):swapaxes(1) end, "swapaxes: missing argument 'axis2'" },
    { function() EMPTY:expand_dims("x") end, 'expand_dims: axis must be an integer or a list of integers, got "x"' },
    { function() EMPTY:item("x") end, 'item: each extra argument must be an integer, got "x"' },
    { function() ga.empty({ 0, 2 }):item(1.5) end, "item: each extra argument must be an integer, got 1.5" },
    { function() EMPTY:copy(5) end, 'copy: order must be one of "C", "F", "A", "K" or nil, got 5' },
    { function() EMPTY:set() end, "set: missing argument 'value'" },
    { function() ga.array() end, "array: missing argument 'object'" },
    { function() ga.device_properties("x") end, "device_properties: device must be an integer or nil, got \"x\"" },
    { function() ga.int32() end, "int32: the value is missing" },
    { function() ga.float64() end, "float64: the value is missing" },
    { function() ga.RawKernel(3) end, "RawKernel: code must be a string, got 3" },
    { function() ga.RawKernel("__global__ void f() {}") end,
      "RawKernel: missing argument 'name'" },
    { function() ga.RawModule() end, "RawModule: missing argument 'code'" },
    { function() ga.RawModule("extern \"C\" __global__ void f() {}"):get_function(1) end,
      "RawModule.get_function: name must be a string, got 1" },
    { function() ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", 5) end,
      "ReductionKernel: name must be a string or nil, got 5" },
    { function() ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "r", 5) end,
      "ReductionKernel: too many arguments (at most 7, got 8)" },
    { function() ga.broadcast_arrays(EMPTY, "x") end, "broadcast_arrays: each extra argument must be an array" },
    { function() EMPTY:round(1, 2) end, "around: out must be an ndarray or nil, got 2" },
  }

  it("raises gpuarray errors, not luaL_check* ones", function()
    for i, c in ipairs(cases) do
      local ok, err = pcall(c[1])
      assert.is_false(ok, "case " .. i .. " did not raise")
      err = tostring(err)
      assert.equal("gpuarray: ", err:sub(1, 10), "case " .. i .. ": " .. err)
      assert.truthy(err:find(c[2], 1, true), ("case %d: %q lacks %q"):format(i, err, c[2]))
      assert.is_nil(err:find("bad argument", 1, true), err)
    end
  end)

  it("keeps typed scalars and dtype objects quiet about unknown keys", function()
    assert.is_nil(ga.int32(3)[1])
    assert.is_nil(ga.float32[{}])
    assert.equal("int32", ga.int32(3).dtype)
  end)
end)

describe("compat: no device", function()
  local no_gpu_it = ga.is_available() and require("busted").pending or it
  no_gpu_it("names the call that needed a device and says no driver was found", function()
    for name, f in pairs {
      zeros = function() ga.zeros(3) end,
      array = function() ga.array({ 1, 2 }) end,
      synchronize = function() ga.synchronize() end,
      Stream = function() ga.Stream() end,
      pinned_empty = function() ga.pinned_empty(4) end,
    } do
      local err = helper.assert_gaerror(f, name .. ": no CUDA device: ")
      -- CI has no driver: say so, not "insufficient driver version"
      if err:find("cudaErrorInsufficientDriver", 1, true) then
        assert.truthy(err:find("no NVIDIA driver was found (cudaErrorInsufficientDriver)", 1, true)
                      or err:find("update the driver", 1, true), err)
      end
      assert.is_nil(err:find("driver version is insufficient", 1, true), err)
    end
  end)
end)

describe("compat: the module table", function()
  it("has one private field, _core", function()
    local private = {}
    for k in pairs(require "gpuarray") do
      if type(k) == "string" and k:sub(1, 1) == "_" then private[#private + 1] = k end
    end
    table.sort(private)
    assert.same({ "_core" }, private)
    assert.is_function(require("gpuarray.internal").fail)
  end)
end)
