-- Bad input raises a "gpuarray: " error and changes nothing. GPU only
-- (the no-GPU behaviour is in module_spec.lua).
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

describe("bad input", function()
  gpu_it("ragged tables raise and allocate nothing", function()
    local pool = ga.get_default_memory_pool()
    local used = pool:used_bytes()
    helper.assert_gaerror(function() ga.array({ { 1, 2 }, { 3 } }) end, "ragged")
    helper.assert_gaerror(function() ga.array({ { 1, 2 }, 3 }) end, "ragged")
    helper.assert_gaerror(function() ga.array({ 1, { 2 } }) end, "ragged")
    helper.assert_gaerror(function() ga.array({ 1, "x" }) end, "string")
    helper.assert_gaerror(function() ga.array({ 300 }, "uint8") end, "does not fit uint8")
    collectgarbage()
    assert.equal(used, pool:used_bytes())
  end)

  gpu_it("unknown dtypes, bad shapes and bad indices raise", function()
    -- the binder names the function and the value; ga.dtype lists the valid names
    helper.assert_gaerror(function() ga.zeros(3, "float128") end, 'zeros: dtype must be a dtype or nil, got "float128"')
    helper.assert_gaerror(function() ga.dtype("float128") end, "unknown dtype 'float128' (valid: bool, int8")
    helper.assert_gaerror(function() ga.zeros({ 2, -1 }) end, "negative dimension")
    local x = ga.arange(12, "int32"):reshape(3, 4)
    local before = x:totable()
    helper.assert_gaerror(function() return x[4] end, "index 4 is out of range for axis 1 with size 3")
    helper.assert_gaerror(function() return x[{ 1, 5 }] end, "out of range for axis 2")
    helper.assert_gaerror(function() x[{ 1, 9 }] = 3 end, "out of range")
    helper.assert_gaerror(function() return x[{ 1, 1, 1 }] end, "too many indices")
    helper.assert_same(before, x:totable())
  end)

  gpu_it("set with the wrong shape raises and leaves the array unchanged", function()
    local x = ga.arange(6, "float64"):reshape(2, 3)
    local before = x:totable()
    helper.assert_gaerror(function() x:set({ 1, 2 }) end, "could not broadcast shape {2} into {2,3}")
    helper.assert_gaerror(function() x:set(ga.zeros({ 3, 2 })) end, "could not broadcast")
    helper.assert_gaerror(function() x:set("abc") end, "3 bytes given for an array of 48 bytes")
    helper.assert_gaerror(function() x[{ {}, 1 }] = { 1, 2, 3 } end, "could not broadcast")
    helper.assert_gaerror(function() x:set({ 1, { 2 } }) end, "ragged")
    helper.assert_gaerror(function() x:fill("a") end, 'fill: value must be a scalar, got "a"')
    helper.assert_gaerror(function() x:reshape(4) end, "cannot reshape")
    helper.assert_same(before, x:totable())
    x:set({ 9, 8, 7 })
    helper.assert_same({ { 9, 8, 7 }, { 9, 8, 7 } }, x:totable())
  end)

  gpu_it("a freed array used again raises", function()
    local x = ga.ones(4)
    local y = ga.zeros(4)
    x:free()
    helper.assert_gaerror(function() x:totable() end, "freed")
    helper.assert_gaerror(function() x:reshape(2, 2) end, "freed")
    helper.assert_gaerror(function() return x[1] end, "freed")
    helper.assert_gaerror(function() y:set(x) end, "freed")
    helper.assert_gaerror(function() ga.array(x) end, "freed")
    helper.assert_same({ 0, 0, 0, 0 }, y:totable())
  end)
end)

-- Each CUDA library's status names live in its room (blas/blas.c,
-- solver/solver.c, fft/fft_plans.c, sparse/sparse.c, nccl/nccl_load.c) and
-- are registered when the module opens; errors name the status from them.
describe("library status names", function()
  local status_name = ga._core._test.status_name

  it("come from each library's room", function()
    assert.equal("CUBLAS_STATUS_INVALID_VALUE", status_name("cuBLAS", 7))
    assert.equal("CUBLAS_STATUS_EXECUTION_FAILED", status_name("cuBLAS", 13))
    assert.equal("CUSOLVER_STATUS_ZERO_PIVOT", status_name("cuSOLVER", 10))
    assert.equal("CUSOLVER_STATUS_INVALID_WORKSPACE", status_name("cuSOLVER", 31))
    assert.equal("CUFFT_INVALID_SIZE", status_name("cuFFT", 8))
    assert.equal("CUSPARSE_STATUS_INSUFFICIENT_RESOURCES", status_name("cuSPARSE", 11))
    assert.equal("ncclInvalidArgument", status_name("NCCL", 4))
  end)

  it("answer nil for a code the library does not have, and raise for a library none registered", function()
    assert.is_nil(status_name("cuBLAS", 0))
    assert.is_nil(status_name("cuFFT", 12345))
    helper.assert_gaerror(function() status_name("cuRAND", 101) end, "status_name: no status names for 'cuRAND'")
  end)
end)
