-- XORWOW and MRG32k3a (lua/gpuarray/random/sequential.lua): the Lua
-- reference against published answers, the declarations and errors, every
-- kind of kernel compiling with NVRTC (no GPU needed); on the device: the raw
-- words equal to the Lua reference word for word, reproducibility, streams
-- that differ, moments of uniform and normal draws, and the Generator's
-- methods over these bit generators.
local helper = require "helper"
local R = require "random.sequential_ref"
local stats = require "random.stats"
local ga = helper.ga
local seq = ga.random._sequential

local ALGOS = { "XORWOW", "MRG32k3a" }

describe("random: XORWOW and MRG32k3a", function()
  it("the Lua reference gives the published answers", function()
    -- L'Ecuyer's MRG32k3a from the seeds 12345 (x6): first output
    -- z / (m1 + 1) = 0.12701112204657714 (RngStreams' first number)
    local w = { 12345, 12345, 12345, 12345, 12345, 12345 }
    R.next("MRG32k3a", w)
    assert.is_true(math.abs(R.last_z / 4294967088 - 0.12701112204657714) < 1e-15, tostring(R.last_z))
    -- Marsaglia's xorwow from the paper's seeds: x, y, z, w, v, d
    local x = { 123456789, 362436069, 521288629, 88675123, 5783321, 6615241 }
    local first = R.next("XORWOW", x)
    -- by hand: t = x ^ (x >> 2); v' = (v ^ (v << 4)) ^ (t ^ (t << 1)); d' = d + 362437
    local t = 123456789 ~ (123456789 >> 2)
    local v = (5783321 ~ ((5783321 << 4) & 0xffffffff)) ~ (t ~ ((t << 1) & 0xffffffff))
    assert.are.equal((v + 6615241 + 362437) & 0xffffffff, first)
    -- the keys are random/bits.lua's
    local bits = require("gpuarray.random.bits")(ga)
    assert.are.equal(bits.mix(7, 2), R.key(7, 2))
    assert.are.equal(bits.mix(-5, 3), R.key(-5, 3))
  end)

  it("declares both, with state, tostring, and Generator / default_rng over them", function()
    for _, algo in ipairs(ALGOS) do
      local bg = ga.random[algo](5, { size = 10 })
      assert.are.same({ bit_generator = algo, seed = 5, size = 10 }, bg.state)
      assert.are.equal(algo .. "(seed=5, size=10)", tostring(bg))
      assert.are.equal(256000, ga.random[algo](1).state.size)
      local g = ga.random.Generator(bg)
      assert.are.equal(bg, g.bit_generator)
      assert.are.equal("Generator(" .. algo .. "(seed=5, size=10))", tostring(g))
      assert.are.equal(bg, ga.random.default_rng(bg).bit_generator)
      assert.are.equal("function", type(bg.random_raw))
      -- a fresh seed from entropy when none is given
      assert.are.equal("number", type(ga.random[algo]().state.seed))
    end
  end)

  it("refuses bad arguments, naming the function", function()
    for _, algo in ipairs(ALGOS) do
      local f = ga.random[algo]
      helper.assert_gaerror(function() f(1.5) end, "random." .. algo .. ": seed must be an integer")
      helper.assert_gaerror(function() f(1, { size = 0 }) end, "random." .. algo .. ": size must be a positive")
      helper.assert_gaerror(function() f(1, { size = -3 }) end, "size must be a positive integer, got -3")
      helper.assert_gaerror(function() f(1, { size = "x" }) end, "random." .. algo)
      helper.assert_gaerror(function() f(1, { sise = 3 }) end, "did you mean 'size'")
      local bg = f(1, { size = 4 })
      helper.assert_gaerror(function() bg.state = { seed = 2 } end, "its state cannot be set")
      helper.assert_gaerror(function() bg.foo = 1 end, "no field foo to set")
      helper.assert_gaerror(function() bg:random_raw(1.5) end, "random.")
      helper.assert_gaerror(function() ga.random.Generator({}) end, "random.Generator")
    end
  end)

  it("every kind of kernel compiles (NVRTC)", function()
    -- every engine kind over XORWOW (the samplers are shared: one word
    -- source compiled through all of them), the rest over both
    local function dts_of(params)
      local d = {}
      for ty in params:gmatch("(%w+) %w+") do d[#d + 1] = ty end
      return d
    end
    local function compile(algo, name, params, expr, out_dt, raw)
      local d = dts_of(params)
      d[#d + 1], d[#d + 2], d[#d + 3], d[#d + 4] = "uint32", "uint64", "uint64", out_dt
      local k = seq.kernel(algo, name, params, expr, raw)
      local ok, err = pcall(k.compile, k, table.unpack(d))
      assert(ok, algo .. " " .. name .. ": " .. tostring(err))
    end
    local INT = { integers = true, poisson = true, binomial = true }
    for name, K in pairs(seq.KINDS) do
      compile("XORWOW", name, K[1], K[2], INT[name] and "int32" or (name == "uniform_f32" and "float32" or "float64"))
    end
    for _, algo in ipairs(ALGOS) do
      compile(algo, "raw", "", "s.next()", "uint64")
      compile(algo, "hypergeometric", "int64 ngood, int64 nbad, int64 nsample",
              "ga_rs_hypergeometric(s, ngood, nbad, nsample)", "int64", { nbad = true })
      local k = seq.init_kernel(algo)
      assert(pcall(k.compile, k, "uint32", "uint32", "uint64", "uint32"), algo .. " init")
      local m = seq.multinomial_kernel(algo)
      local ok, err = pcall(m.compile, m, "int64", "float64", "int64", "uint32", "uint64", "uint64", "int64")
      assert(ok, algo .. " multinomial: " .. tostring(err))
    end
    compile("MRG32k3a", "normal", seq.KINDS.normal[1], seq.KINDS.normal[2], "float32")
  end)

  helper.gpu_it("random_raw equals the Lua reference word for word (states reused in order)", function()
    for _, algo in ipairs(ALGOS) do
      for _, case in ipairs({ { seed = 7, size = 3 }, { seed = -123456789, size = 5 } }) do
        local bg = ga.random[algo](case.seed, { size = case.size })
        -- 23 words: 4.6 rounds of 5 states; then 9 more continue each state
        local a = bg:random_raw(23)
        assert.are.equal("uint64", a.dtype)
        assert.are.same({ 23 }, a.shape)
        local b = bg:random_raw({ 3, 3 })
        assert.are.same({ 3, 3 }, b.shape)
        -- the reference: the words of each state in order, element k from state k % size
        local key = R.key(case.seed, algo == "XORWOW" and 2 or 3)
        local states, want = {}, {}
        local function nxt(t)
          states[t] = states[t] or R.state(algo, key, t)
          return R.next(algo, states[t])
        end
        for k = 0, 22 do want[#want + 1] = nxt(k % case.size) end
        local want2 = {}
        for k = 0, 8 do want2[#want2 + 1] = nxt(k % case.size) end
        local got, got2 = a:totable(), helper.flatten(b:totable())
        for k = 1, 23 do
          assert(got[k] == want[k], ("%s seed %d size %d: word %d is %d, want %d")
                 :format(algo, case.seed, case.size, k, got[k], want[k]))
        end
        for k = 1, 9 do
          assert(got2[k] == want2[k], ("%s seed %d size %d: second call word %d is %d, want %d")
                 :format(algo, case.seed, case.size, k, got2[k], want2[k]))
        end
        assert.is_nil(bg:random_raw(4, false))
        assert.are.equal(0, bg:random_raw(0).size)
        assert.are.same({}, bg:random_raw().shape)
      end
    end
  end)

  helper.gpu_it("reproducible for a seed; seeds, calls and streams differ", function()
    for _, algo in ipairs(ALGOS) do
      local function draw(seed) return ga.random.Generator(ga.random[algo](seed, { size = 64 })):random(1000) end
      local a, b, c = draw(11), draw(11), draw(12)
      assert.is_true(ga.array_equal(a, b), algo .. ": the same seed gave different numbers")
      assert.is_false(ga.array_equal(a, c), algo .. ": seeds 11 and 12 gave the same numbers")
      local g = ga.random.Generator(ga.random[algo](11, { size = 64 }))
      local first, second = g:random(1000), g:random(1000)
      assert.is_true(ga.array_equal(first, a), algo .. ": a Generator's first call differs from another's")
      assert.is_false(ga.array_equal(first, second), algo .. ": successive calls repeated")
      -- the streams: 64 states, 4 words each (256 words): no two states' rows equal
      local w = ga.random[algo](3, { size = 64 }):random_raw(256):reshape({ 4, 64 }):transpose():totable()
      local seen = {}
      for t = 1, 64 do
        local row = table.concat(w[t], ",")
        assert.is_nil(seen[row], ("%s: states %s and %d drew the same words"):format(algo, tostring(seen[row]), t))
        seen[row] = t
      end
    end
  end)

  helper.gpu_it("uniform and normal moments over 1e6 draws", function()
    -- mean of n = 1e6 U(0,1): SE = sqrt(1/12 / n) = 2.9e-4; its variance's
    -- SE = sqrt((1/80 - 1/144) / n) = 7.5e-5. N(0,1): SE of the mean 1e-3,
    -- of the variance sqrt(2 / n) = 1.4e-3. check_moments allows 4 SE
    -- (from the sample's own fourth moment); KS at 1% (critical 1.63/sqrt(n)).
    local n = 1000000
    for _, algo in ipairs(ALGOS) do
      local g = ga.random.Generator(ga.random[algo](2024))   -- 256000 states: 4 rounds
      for _, dt in ipairs({ "float64", "float32" }) do
        local u = g:random(n, dt)
        assert.are.equal(dt, u.dtype)
        assert.is_true(ga.min(u):item() >= 0 and ga.max(u):item() < 1, algo .. " " .. dt .. ": outside [0, 1)")
        stats.check_moments(u, 0.5, 1 / 12, algo .. " uniform " .. dt)
        assert(stats.ks(u, "uniform") < 1.63 / math.sqrt(n), algo .. " uniform " .. dt .. ": KS")
        local z = g:standard_normal(n, dt)
        stats.check_moments(z, 0, 1, algo .. " normal " .. dt)
        assert(stats.ks(z, "normal") < 1.63 / math.sqrt(n), algo .. " normal " .. dt .. ": KS")
      end
      local x = g:normal(3, 2, 200000)
      stats.check_moments(x, 3, 4, algo .. " normal(3, 2)")
    end
  end)

  helper.gpu_it("the Generator's methods draw from these bit generators", function()
    for _, algo in ipairs(ALGOS) do
      local g = ga.random.default_rng(ga.random[algo](99, { size = 1000 }))
      local i = g:integers(-3, 7, 100000)
      assert.are.equal("int64", i.dtype)
      assert.are.equal(-3, ga.min(i):item())
      assert.are.equal(6, ga.max(i):item())
      stats.check_moments(i, 1.5, (10 * 10 - 1) / 12, algo .. " integers(-3, 7)")
      local wide = g:integers(0, math.maxinteger, 1000, "int64")
      assert.is_true(ga.min(wide):item() >= 0, algo .. ": wide integers below 0")
      local e = g:exponential(2, 200000)
      stats.check_moments(e, 2, 4, algo .. " exponential(2)")
      local gm = g:gamma(3, 2, 200000)
      stats.check_moments(gm, 6, 12, algo .. " gamma(3, 2)")
      local p = g:poisson(4, 200000)
      stats.check_moments(p, 4, 4, algo .. " poisson(4)")
      local bn = g:binomial(10, 0.3, 100000)
      stats.check_moments(bn, 3, 2.1, algo .. " binomial(10, 0.3)")
      -- an array parameter (the raw-parameter path): t with df 5 and 10
      local t = g:standard_t(ga.array({ 5, 10 }))
      assert.are.same({ 2 }, t.shape)
      local tt = g:standard_t(ga.full({ 100000, 2 }, 10.0))
      stats.check_moments(tt, 0, 10 / 8, algo .. " standard_t(10)")   -- variance df / (df - 2)
      local perm = g:permutation(1000)
      assert.are.same((function() local s = {} for k = 0, 999 do s[k + 1] = k end return s end)(),
                      ga.sort(perm):totable())
      local c = g:choice(50, 20, false)
      assert.are.equal(20, ga.unique(c).size)
      local m = g:multinomial(20, { 0.2, 0.3, 0.5 }, 5000)
      assert.are.same({ 5000, 3 }, m.shape)
      assert.is_true(ga.all(ga.sum(m, 2):eq(20)):item(), algo .. ": multinomial rows do not sum to n")
      local mm = ga.mean(m:astype("float64"), 1):totable()
      for j, pj in ipairs({ 0.2, 0.3, 0.5 }) do
        -- SE of a column mean: sqrt(20 p (1 - p) / 5000) <= 0.032
        assert(math.abs(mm[j] - 20 * pj) < 0.15, ("%s: multinomial column %d mean %g"):format(algo, j, mm[j]))
      end
    end
  end)
end)
