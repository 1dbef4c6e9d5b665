-- ga.fft against a direct DFT in Lua (spec/fft/dft_ref.lua) on small sizes,
-- odd and prime lengths included, over several axes and layouts, in every
-- norm mode; round trips and Parseval's identity on 2^20 values; the plan
-- cache observed through cache_info.
local helper = require "helper"
local D = require "fft.dft_ref"
local ga = helper.ga
local fft = ga.fft

local NORMS = { "backward", "ortho", "forward" }

-- the factor NumPy applies for norm over n points
local function factor(norm, n, forward)
  if norm == "ortho" then return 1 / math.sqrt(n) end
  if norm == "forward" then return forward and 1 / n or 1 end
  return forward and 1 or 1 / n
end

-- compare an ndarray with a reference, relative to the reference's largest value
local function check(got, ref, complex, what)
  local want = D.flat(ref, complex)
  local have = helper.flatten(got:totable())
  assert.are.equal(#want, #have, what .. ": sizes")
  local big = 1e-30
  for _, v in ipairs(want) do big = math.max(big, math.abs(v)) end
  local single = got.dtype == "complex64" or got.dtype == "float32"
  local tol = (single and 2e-5 or 1e-11) * big
  for i = 1, #want do
    assert(math.abs(want[i] - have[i]) <= tol, ("%s: value %d: %.10g vs %.10g"):format(what, i, have[i], want[i]))
  end
end

local function close(a, b)
  return ga.abs(a - b):max():item() <= 1e-12 * (1 + ga.abs(b):max():item())
end

local function dftn(a, axes, inverse)
  for _, ax in ipairs(axes) do a = D.dft(a, ax, inverse) end
  return a
end

describe("fft", function()
  it("has NumPy's functions and a plan cache to inspect, without a GPU too", function()
    for _, name in ipairs({ "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
                            "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
                            "cache_info", "set_cache_size" }) do
      assert.are.equal("function", type(fft[name]), name)
    end
    local info = fft.cache_info()
    assert.are.equal(16, info.max_size)
    fft.set_cache_size(4)
    assert.are.equal(4, fft.cache_info().max_size)
    fft.set_cache_size(16)
    helper.assert_gaerror(function() fft.set_cache_size(-1) end, "set_cache_size")
    helper.assert_gaerror(function() fft.fft(5) end, "fft.fft: a must be an ndarray")
  end)

  for _, dt in ipairs({ "complex128", "complex64" }) do
    helper.gpu_it("fft and ifft of " .. dt .. " in every norm, odd, even and prime n, n cropping and padding",
      function()
        for _, n in ipairs({ 1, 2, 7, 8, 13, 17, 30 }) do
          local a = D.random({ n }, true)
          local x = ga.array(D.totable(a, true), dt)
          for _, norm in ipairs(NORMS) do
            check(fft.fft(x, nil, nil, norm), D.scale(D.dft(a, 1), factor(norm, n, true)), true, "fft " .. norm)
            check(fft.ifft(x, { norm = norm }), D.scale(D.dft(a, 1, true), factor(norm, n, false)), true,
                  "ifft " .. norm)
          end
          local y = fft.fft(x)
          assert.are.equal(dt, y.dtype)
          assert.are.same({ n }, y.shape)
          for _, m in ipairs({ 5, 12 }) do
            check(fft.fft(x, m), D.dft(D.resize(a, 1, m), 1), true, "fft n=" .. m)
          end
        end
      end)
  end

  helper.gpu_it("fft along each axis of a 3-d array, strided views, real and integer input", function()
    local a = D.random({ 3, 5, 4 }, true)
    local x = ga.array(D.totable(a, true), "complex128")
    for _, ax in ipairs({ 1, 2, 3, -1, -3 }) do
      local pos = ax < 0 and ax + 4 or ax
      check(fft.fft(x, { axis = ax }), D.dft(a, pos), true, "axis " .. ax)
      check(fft.ifft(x, nil, ax), D.scale(D.dft(a, pos, true), 1 / a.shape[pos]), true, "ifft axis " .. ax)
    end
    -- a transposed view and a strided slice
    local t = x:transpose({ 3, 1, 2 })
    assert.is_true(close(fft.fft(t, nil, 2), fft.fft(x, nil, 1):transpose({ 3, 1, 2 })))
    local s = x[{ {}, { 1, -1, 2 }, {} }]
    assert.is_true(close(fft.fft(s, nil, 2), fft.fft(s:copy(), nil, 2)))
    -- real input promoted: float32 to complex64, int to complex128
    local r = D.random({ 9 })
    local xf = ga.array(D.totable(r), "float32")
    local y = fft.fft(xf)
    assert.are.equal("complex64", y.dtype)
    check(y, D.dft(r, 1), true, "float32 input")
    local yi = fft.fft(ga.array({ 1, 2, 3, 4, 5 }, "int32"))
    assert.are.equal("complex128", yi.dtype)
    check(yi, D.dft(D.new({ 5 }, { 1, 2, 3, 4, 5 }), 1), true, "int input")
  end)

  helper.gpu_it("fft2, ifft2, fftn and ifftn over default and chosen axes, with s", function()
    local a = D.random({ 3, 5, 6 }, true)
    local x = ga.array(D.totable(a, true), "complex128")
    for _, norm in ipairs(NORMS) do
      check(fft.fftn(x, nil, nil, norm), D.scale(dftn(a, { 1, 2, 3 }), factor(norm, 90, true)), true, "fftn")
      check(fft.ifftn(x, { norm = norm }), D.scale(dftn(a, { 1, 2, 3 }, true), factor(norm, 90, false)), true,
            "ifftn")
      check(fft.fft2(x, { norm = norm }), D.scale(dftn(a, { 2, 3 }), factor(norm, 30, true)), true, "fft2")
      check(fft.ifft2(x, nil, nil, norm), D.scale(dftn(a, { 2, 3 }, true), factor(norm, 30, false)), true, "ifft2")
    end
    check(fft.fftn(x, { axes = { 1, 3 } }), dftn(a, { 1, 3 }), true, "fftn axes {1,3}")
    check(fft.fftn(x, { axes = { -1, 1 } }), dftn(a, { 3, 1 }), true, "fftn axes {-1,1}")
    check(fft.fft2(x, nil, { 1, 2 }), dftn(a, { 1, 2 }), true, "fft2 axes {1,2}")
    local b = D.resize(D.resize(a, 2, 4), 3, 7)
    check(fft.fftn(x, { s = { 4, 7 } }), dftn(b, { 2, 3 }), true, "fftn s={4,7}")
    local c = D.resize(a, 1, 5)
    check(fft.ifftn(x, { 5 }, { 1 }), D.scale(D.dft(c, 1, true), 1 / 5), true, "ifftn s={5} axes={1}")
    -- more than three axes go in several cuFFT calls
    local a4 = D.random({ 2, 3, 2, 3 }, true)
    local x4 = ga.array(D.totable(a4, true), "complex128")
    check(fft.fftn(x4), dftn(a4, { 1, 2, 3, 4 }), true, "fftn 4-d")
  end)

  for _, dt in ipairs({ "float64", "float32" }) do
    helper.gpu_it("rfft and irfft in " .. dt .. ": odd and even n, every norm, along any axis", function()
      for _, n in ipairs({ 1, 2, 7, 8, 13 }) do
        local a = D.random({ n })
        local x = ga.array(D.totable(a), dt)
        local m = n // 2 + 1
        for _, norm in ipairs(NORMS) do
          local spec = D.resize(D.dft(a, 1), 1, m)
          local y = fft.rfft(x, { norm = norm })
          assert.are.same({ m }, y.shape)
          check(y, D.scale(spec, factor(norm, n, true)), true, "rfft n=" .. n .. " " .. norm)
          -- irfft of a Hermitian spectrum (the rfft of a real signal) gives the signal back
          local back = fft.irfft(y, n, nil, norm)
          assert.are.equal(dt, back.dtype)
          check(back, a, false, "irfft n=" .. n .. " " .. norm)
        end
      end
      local a = D.random({ 10 })
      local x = ga.array(D.totable(a), dt)
      check(fft.rfft(x, 7), D.resize(D.dft(D.resize(a, 1, 7), 1), 1, 4), true, "rfft n=7 cropped")
      check(fft.rfft(x, 13), D.resize(D.dft(D.resize(a, 1, 13), 1), 1, 7), true, "rfft n=13 padded")
      -- irfft with odd n from an odd-length spectrum
      local s9 = D.resize(D.dft(D.resize(a, 1, 9), 1), 1, 5)
      local spec = ga.array(D.totable(s9, true), dt == "float32" and "complex64" or "complex128")
      check(fft.irfft(spec, 9), D.resize(a, 1, 9), false, "irfft n=9")
      -- along the first axis of a 2-d array
      local b = D.random({ 7, 3 })
      local xb = ga.array(D.totable(b), dt)
      local yb = fft.rfft(xb, nil, 1)
      assert.are.same({ 4, 3 }, yb.shape)
      check(yb, D.resize(D.dft(b, 1), 1, 4), true, "rfft axis 1")
      check(fft.irfft(yb, 7, 1), b, false, "irfft axis 1")
    end)
  end

  helper.gpu_it("rfft2, irfft2, rfftn and irfftn, trailing and other axes", function()
    local a = D.random({ 3, 5, 6 })
    local x = ga.array(D.totable(a), "float64")
    for _, norm in ipairs(NORMS) do
      local y = fft.rfftn(x, { norm = norm })
      assert.are.same({ 3, 5, 4 }, y.shape)
      check(y, D.scale(D.resize(dftn(a, { 1, 2, 3 }), 3, 4), factor(norm, 90, true)), true, "rfftn " .. norm)
      check(fft.irfftn(y, { s = { 3, 5, 6 }, norm = norm }), a, false, "irfftn " .. norm)
      local y2 = fft.rfft2(x, { norm = norm })
      check(y2, D.scale(D.resize(dftn(a, { 2, 3 }), 3, 4), factor(norm, 30, true)), true, "rfft2 " .. norm)
      check(fft.irfft2(y2, nil, nil, norm), a, false, "irfft2 " .. norm)
    end
    -- axes that are not the last ones: r2c on the last listed axis
    local y = fft.rfftn(x, nil, { 3, 1 })
    assert.are.same({ 2, 5, 6 }, y.shape)
    check(y, D.resize(dftn(a, { 3, 1 }), 1, 2), true, "rfftn axes {3,1}")
    check(fft.irfftn(y, { 6, 3 }, { 3, 1 }), a, false, "irfftn axes {3,1}")
    -- odd last length through irfftn's s
    local b = D.random({ 4, 7 })
    local xb = ga.array(D.totable(b), "float64")
    check(fft.irfftn(fft.rfftn(xb), { 4, 7 }), b, false, "rfftn/irfftn odd")
  end)

  helper.gpu_it("hfft and ihfft", function()
    for _, n in ipairs({ 8, 9 }) do
      local a = D.random({ n })
      local spec = D.resize(D.dft(a, 1), 1, n // 2 + 1)        -- a Hermitian half-spectrum
      local h = ga.array(D.totable(spec, true), "complex128")
      for _, norm in ipairs(NORMS) do
        -- hfft(h, n) = n * irfft(conj(h), n) for the default norm
        local full = D.dft(D.hermitian(D.conj(spec), 1, n), 1, true)
        local f = norm == "backward" and 1 or norm == "ortho" and 1 / math.sqrt(n) or 1 / n
        check(fft.hfft(h, n, nil, norm), D.scale(D.new({ n }, full.re), f), false, "hfft " .. n .. " " .. norm)
        local x = ga.array(D.totable(a), "float64")
        local g = norm == "backward" and 1 / n or norm == "ortho" and 1 / math.sqrt(n) or 1
        check(fft.ihfft(x, { norm = norm }), D.scale(D.conj(spec), g), true, "ihfft " .. n .. " " .. norm)
      end
    end
  end)

  helper.gpu_it("round trip error and Parseval's identity on 2^20 values", function()
    local n = 1 << 20
    for _, dt in ipairs({ "complex128", "complex64" }) do
      local real = dt == "complex128" and "float64" or "float32"
      local x = (ga.random.standard_normal(n, real) + ga.random.standard_normal(n, real) * ga.array({ 0, 1 }, dt))
      assert.are.equal(dt, x.dtype)
      local X = fft.fft(x)
      local back = fft.ifft(X)
      local err = ga.abs(back - x):max():item()
      assert.is_true(err < (dt == "complex128" and 1e-12 or 1e-4), dt .. " round trip error " .. err)
      local ex = (ga.abs(x) ^ 2):astype("float64"):sum():item()
      local eX = (ga.abs(X) ^ 2):astype("float64"):sum():item() / n
      assert.is_true(math.abs(ex - eX) <= (dt == "complex128" and 1e-10 or 1e-4) * ex, dt .. " Parseval")
      local r = ga.random.random(n, real)
      local rr = fft.irfft(fft.rfft(r), n)
      assert.is_true(ga.abs(rr - r):max():item() < (dt == "complex128" and 1e-12 or 1e-5))
    end
  end)

  helper.gpu_it("the plan cache: a second call with the same shape reuses the plan; LRU bound", function()
    fft.set_cache_size(16)
    local x = ga.random.random(4099):astype("complex128")
    local i0 = fft.cache_info()
    fft.fft(x)
    local i1 = fft.cache_info()
    assert.are.equal(i0.misses + 1, i1.misses)
    fft.fft(x)
    local i2 = fft.cache_info()
    assert.are.equal(i1.misses, i2.misses)
    assert.are.equal(i1.hits + 1, i2.hits)
    assert.are.equal(i1.size, i2.size)
    fft.set_cache_size(2)
    for _, n in ipairs({ 31, 37, 41 }) do fft.fft(ga.ones(n, "complex64")) end
    assert.are.equal(2, fft.cache_info().size)
    fft.set_cache_size(0)
    assert.are.equal(0, fft.cache_info().size)
    check(fft.fft(ga.array({ 1, 2, 3 }, "complex128")), D.dft(D.new({ 3 }, { 1, 2, 3 }), 1), true, "uncached")
    assert.are.equal(0, fft.cache_info().size)
    fft.set_cache_size(16)
    -- another stream: the plan runs there
    local s = ga.Stream({ non_blocking = true })
    local _ <close> = s:scope()
    local y = fft.fft(x)
    s:synchronize()
    assert.is_true(close(y, fft.fft(x)))
  end)

  helper.gpu_it("fftfreq, rfftfreq, fftshift and ifftshift", function()
    helper.assert_same({ 0, 0.25, -0.5, -0.25 }, fft.fftfreq(4):totable())
    helper.assert_same({ 0, 0.2, 0.4, -0.4, -0.2 }, fft.fftfreq(5):totable(), 1e-15)
    helper.assert_same({ 0, 0.1, 0.2, -0.2, -0.1 }, fft.fftfreq(5, 2):totable(), 1e-15)
    helper.assert_same({ 0, 0.1, 0.2 }, fft.rfftfreq(5, 2):totable(), 1e-15)
    helper.assert_same({ 0, 1 / 6, 2 / 6, 3 / 6 }, fft.rfftfreq(6):totable(), 1e-15)
    helper.assert_same({ 3, 4, 0, 1, 2 }, fft.fftshift(ga.arange(5)):totable())
    helper.assert_same({ 2, 3, 4, 0, 1 }, fft.ifftshift(ga.arange(5)):totable())
    local m = ga.arange(6):reshape(2, 3)
    helper.assert_same({ { 5, 3, 4 }, { 2, 0, 1 } }, fft.fftshift(m):totable())
    helper.assert_same({ { 2, 0, 1 }, { 5, 3, 4 } }, fft.fftshift(m, 2):totable())
    helper.assert_same(m:totable(), fft.ifftshift(fft.fftshift(m)):totable())
    assert.are.equal("float32", fft.fftfreq(8, { dtype = "float32" }).dtype)
  end)

  helper.gpu_it("bad arguments raise naming the function", function()
    local x = ga.ones(8, "complex64")
    helper.assert_gaerror(function() fft.fft(x, nil, nil, "sideways") end, "fft.fft: norm must be")
    helper.assert_gaerror(function() fft.fft(x, 0) end, "invalid number of data points")
    helper.assert_gaerror(function() fft.fft(x, nil, 2) end, "axis 2 is out of range")
    helper.assert_gaerror(function() fft.rfft(x) end, "fft.rfft: the input must be real")
    helper.assert_gaerror(function() fft.fftn(x, { s = { 2, 2 }, axes = { 1 } }) end, "same length")
    helper.assert_gaerror(function() fft.fft(ga.ones({}, "complex64")) end, "at least 1-d")
  end)
end)
