-- The generator itself: Philox4x32-10 against Random123's known answers (in
-- Lua), every kernel instantiation compiling with NVRTC (no GPU needed), and
-- the device's numbers equal to the Lua reference word for word, so they
-- depend on the seed and the call sequence only, never on the launch.
local helper = require "helper"
local R = require "random.philox_ref"
local ga = helper.ga
local core = ga._core

describe("random: Philox", function()
  it("the Lua reference gives Random123's known answers", function()
    local function hex(...) return string.format("%08x %08x %08x %08x", ...) end
    assert.are.equal("6627e8d5 e169c58d bc57ac4c 9b00dbd8", hex(R.philox(0, 0, 0, 0, 0, 0)))
    local f = 0xffffffff
    assert.are.equal("408f276d 41c83b0e a20bc7c6 6d5451fd", hex(R.philox(f, f, f, f, f, f)))
    assert.are.equal("d16cfe09 94fdcceb 5001e420 24126ea1",
                     hex(R.philox(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0)))
  end)

  it("every kind and dtype compiles (NVRTC, sm_90)", function()
    local combos = {
      { "uniform", "float32" }, { "uniform", "float64" }, { "normal", "float32" }, { "normal", "float64" },
      { "lognormal", "float32" }, { "lognormal", "float64" }, { "exponential", "float32" },
      { "exponential", "float64" }, { "integers", "int32" }, { "integers", "uint8" },
      { "integers", "int64", true }, { "integers", "uint64", true }, { "gamma", "float32" },
      { "beta", "float64" }, { "poisson", "int64" }, { "binomial", "int32" }, { "permutation", "int64" },
    }
    for _, c in ipairs(combos) do
      local src = core._test.random_source(c[1], c[2], c[3])
      assert.is_true(src:find("extern \"C\" __global__ void k", 1, true) ~= nil)
      local ok, err = pcall(core._test.compile, src, {}, 90)
      assert(ok, c[1] .. " " .. c[2] .. ": " .. tostring(err))
    end
  end)

  it("refuses dtypes a kind cannot produce, naming it", function()
    helper.assert_gaerror(function() core._test.random_source("normal", "int32") end, "normal cannot produce int32")
    helper.assert_gaerror(function() core._test.random_source("integers", "float32") end, "integer dtype")
    helper.assert_gaerror(function() ga.random.random(4, "int32") end, "float32, float64 or bfloat16, got int32")
    helper.assert_gaerror(function() ga.random.beta(1, 2, 4, "bfloat16") end, "float32 or float64, got bfloat16")
    helper.assert_gaerror(function() ga.random.randint(5, 5, 3) end, "low >= high")
    helper.assert_gaerror(function() ga.random.randint(0, 300, 3, "uint8") end, "does not fit uint8")
    helper.assert_gaerror(function() ga.random.binomial(-1, 0.5, 3) end, "n must be")
    helper.assert_gaerror(function() ga.random.seed(1.5) end, "seed must be an integer")
  end)

  helper.gpu_it("float32 and float64 uniforms equal the Lua reference, call after call", function()
    local seed = helper.seed
    local key = R.mix(seed, 0)
    local rs = ga.random.RandomState(seed)
    local a = rs:random(37, "float32"):totable()        -- groups 0..9
    local b = rs:random(10, "float64"):totable()        -- groups 10..14
    local c = rs:random({ 3, 5 }, "float32")            -- groups 15..18
    helper.assert_same(R.uniform_f32(key, 0, 37), a)
    helper.assert_same(R.uniform_f64(key, 10, 10), b)
    helper.assert_same(R.uniform_f32(key, 15, 15), helper.flatten(c:totable()))
    -- integers: one word each, Lemire's multiply-shift
    local d = rs:randint(-7, 993, 50, "int32"):totable()
    helper.assert_same(R.integers32(key, 19, 50, -7, 1000), d)
  end)

  helper.gpu_it("the numbers do not depend on how a call is split or launched", function()
    local x = ga.random.RandomState(5):random(1 << 20, "float32")
    local rs = ga.random.RandomState(5)
    local y1, y2 = rs:random(1 << 19, "float32"), rs:random(1 << 19, "float32")
    assert.is_true(ga.array_equal(x, ga.concatenate({ y1, y2 })))
    -- a huge call (grid-stride loop) starts like a small one
    local big = ga.random.RandomState(6):random(1 << 24, "float32")
    local small = ga.random.RandomState(6):random(1000, "float32")
    assert.is_true(ga.array_equal(big[{ { 1, 1000 } }], small))
  end)
end)
