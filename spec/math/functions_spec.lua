-- The math room's functions on the GPU against NumPy 1.24's answers (fixed
-- inputs below, computed with NumPy; NumPy 2 agrees on all of them) and Lua
-- references on fresh random data: the two-output ufuncs and ldexp, the
-- new ufuncs' special values, cumulative sums, differences and integrals,
-- convolve, interp, nan_to_num, real_if_close, clip/around through their
-- declarations; issue 26's bincount defect.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local nan, inf = 0 / 0, math.huge

local function close(want, got, rtol, what)
  local ok, msg = helper.same(want, got, rtol)
  assert(ok, (what or "") .. ": " .. tostring(msg))
end

-- exact, signed zeros included
local function exact(want, got, what)
  assert.equal(#want, #got, what)
  for i = 1, #want do
    local w, g = want[i], got[i]
    local ok = (w ~= w and g ~= g) or (w == g and (w ~= 0 or 1 / w == 1 / g))
    assert(ok, ("%s [%d]: got %s, want %s"):format(what, i, tostring(g), tostring(w)))
  end
end

describe("two-output ufuncs and ldexp", function()
  it("a ufunc takes nils past its inputs as no arguments (divmod passes its out and options on)", function()
    -- where there is no device the call gets as far as the device and says so
    for _, call in ipairs {
      function() return ga.floor_divide(7, 2, nil, nil) end,
      function() return ga.divmod(7, 2) end,
    } do
      local ok, err = pcall(call)
      if helper.gpu then
        assert(ok, err)
      else
        assert.falsy(tostring(err):find("arguments", 1, true), err)
        assert.truthy(tostring(err):find("no CUDA device", 1, true), err)
      end
    end
    helper.assert_gaerror(function() ga.add(7, 2, nil, nil, 5) end, "add: takes 2 inputs, got 5 arguments")
  end)

  gpu_it("frexp, modf and divmod give NumPy's values and dtypes, into outs too", function()
    local x = ga.array({ 0.1, -2.5, 3.0, 7.25, -0.0, 1e-3, -1e5, 12.0 })
    local m, e = ga.frexp(x)
    exact({ 0.8, -0.625, 0.75, 0.90625, -0.0, 0.512, -0.762939453125, 0.75 }, m:totable(), "frexp mantissa")
    assert.equal("int32", e.dtype)
    assert.same({ -3, 2, 2, 3, 0, -9, 17, 4 }, e:totable())
    assert.equal("float16", (ga.frexp(ga.array({ 1 }, "int8"))).dtype)
    assert.equal("float64", (ga.frexp(ga.array({ 1 }, "int32"))).dtype)
    local f, i = ga.modf(ga.array({ -3.5, 2.25, -0.0, inf, -inf, nan }))
    exact({ -0.5, 0.25, -0.0, 0.0, -0.0, nan }, f:totable(), "modf fraction")
    exact({ -3.0, 2.0, -0.0, inf, -inf, nan }, i:totable(), "modf integral")
    assert.equal("float32", (ga.modf(ga.array({ 1.5 }, "float32"))).dtype)
    local q, r = ga.divmod(ga.array({ 7, -7, 7, -7 }), ga.array({ 2, 2, -2, -2 }))
    assert.same({ 3, -4, -4, 3 }, q:totable())
    assert.same({ 1, 1, -1, -1 }, r:totable())
    q, r = ga.divmod(ga.array({ 7.5, -7.5, 7.5, -7.5, 1.0 }), ga.array({ 2, 2, -2, -2, 0.0 }))
    exact({ 3.0, -4.0, -4.0, 3.0, inf }, q:totable(), "divmod q")
    exact({ 1.5, 0.5, -0.5, -1.5, nan }, r:totable(), "divmod r")
    -- outs: positional, as a list, and one that is also the input
    local o1, o2 = ga.empty(2), ga.empty(2, "int32")
    local a, b = ga.frexp(ga.array({ 4.0, 0.5 }), o1, o2)
    assert.equal(o1, a)
    assert.equal(o2, b)
    assert.same({ 0.5, 0.5 }, o1:totable())
    assert.same({ 3, 0 }, o2:totable())
    local y = ga.array({ -3.5, 2.25 })
    f, i = ga.modf(y, { out = { y, nil } })
    assert.equal(y, f)
    assert.same({ -0.5, 0.25 }, y:totable())
    assert.same({ -3, 2 }, i:totable())
    local z = ga.array({ 7, -7 })
    q, r = ga.divmod(z, 2, nil, z)
    assert.same({ 3, -4 }, q:totable())
    assert.same({ 1, 1 }, z:totable())
    helper.assert_gaerror(function() ga.frexp(ga.array({ { 1, 2 } }, "complex64")) end, "frexp")
  end)

  gpu_it("ldexp picks NumPy's float loop from x1's dtype", function()
    local r = ga.ldexp(ga.array({ 1.5, -2.0, 3.0 }, "float32"), ga.array({ 2, -1, 100 }))
    assert.equal("float32", r.dtype)
    close({ 6.0, -1.0, 3.802951800684688e+30 }, r:totable(), 1e-7, "ldexp")
    assert.equal("float16", ga.ldexp(ga.array({ 3 }, "int8"), 2).dtype)
    assert.equal("float64", ga.ldexp(ga.array({ 3 }, "int32"), 2).dtype)
    assert.equal("float16", ga.ldexp(ga.array({ 3 }, "float16"), ga.array({ 2 })).dtype)
    assert.equal(12.0, ga.ldexp(3, 2):item())
    assert.equal(0.0, ga.ldexp(1.0, -100000):item())
    assert.equal(inf, ga.ldexp(1.0, 100000):item())
    helper.assert_gaerror(function() ga.ldexp(1.0, 0.5) end, "ldexp")
    helper.assert_gaerror(function() ga.ldexp(ga.array({ 1 }), ga.array({ 1 }, "uint64")) end, "ldexp")
  end)
end)

describe("the new ufuncs at their special values", function()
  gpu_it("match NumPy", function()
    local function f16(v) return ga.array(v, "float16") end
    exact({ 1.0009765625, -5.960464477539063e-08, -0.99951171875, inf, 5.960464477539063e-08 },
          ga.nextafter(f16({ 1, 0, -1, 65504, 0 }), f16({ 2, -1, 0, inf, 1 })):astype("float64"):totable(),
          "nextafter float16")
    exact({ 1.0000001192092896 }, ga.nextafter(ga.array({ 1 }, "float32"), 2):astype("float64"):totable(),
          "nextafter float32")
    exact({ -inf, inf, 0.0, 1000.6931471805599, nan },
          ga.logaddexp(ga.array({ -inf, inf, 0, 1000, nan }), ga.array({ -inf, inf, -inf, 1000, 0 })):totable(),
          "logaddexp")
    close({ -inf, 4.0, 1.584962500721156 }, ga.logaddexp2(ga.array({ -inf, 3, 0 }), ga.array({ -inf, 3, 1 })):totable(),
          1e-15, "logaddexp2")
    exact({ 0.0, 0.5, 1.0, nan, nan },
          ga.heaviside(ga.array({ -1.5, 0, 2, nan, 0 }), ga.array({ 0.5, 0.5, 0.5, 0.5, nan })):totable(), "heaviside")
    assert.same({ 6, 6, 5, 0, 7 }, ga.gcd(ga.array({ 12, -12, 0, 0, -7 }, "int32"),
                                           ga.array({ 18, 18, 5, 0, -21 }, "int32")):totable())
    assert.same({ 12, 12, 0, 12 },
                ga.lcm(ga.array({ 4, -4, 0, 6 }, "int32"), ga.array({ 6, 6, 5, -4 }, "int32")):totable())
    local s = ga.sinc(ga.array({ 0, 0.5, 1, -1.5, 2.25 })):totable()
    for k, w in ipairs { 1.0, 0.6366197723675814, 3.8981718325193755e-17, -0.2122065907891938, 0.10003514623967844 } do
      assert(math.abs(s[k] - w) <= 1e-15, ("sinc [%d]: %.17g vs %.17g"):format(k, s[k], w))
    end
    assert.equal("float64", ga.sinc(ga.array({ 1 }, "int16")).dtype)
    close({ 1.0, 1.2660658777520082, 3.289839144050123, 2815.716628466254 },
          ga.i0(ga.array({ 0, 1, -2.5, 10.0 })):totable(),
          1e-14, "i0")
    close({ 0.5, 9.0 }, ga.float_power(ga.array({ 2, 3 }, "int8"), ga.array({ -1, 2 }, "int8")):totable(), 0,
          "float_power")
    assert.equal("float64", ga.float_power(ga.array({ 2 }, "float32"), 2).dtype)
    assert.equal("complex128", ga.float_power(ga.array({ { 2, 0 } }, "complex64"), 2).dtype)
    exact({ -2.0, 2.0, -0.0 }, ga.fix(ga.array({ -2.5, 2.5, -0.4 })):totable(), "fix")
    assert.equal("int32", ga.fix(ga.array({ 3 }, "int32")).dtype)
    assert.equal("float16", ga.fabs(ga.array({ -3 }, "int8")).dtype)
    close({ 0.5, 0.25 }, ga.rsqrt(ga.array({ 4, 16 }, "float32")):totable(), 1e-6, "rsqrt")
    assert.equal(ga.arcsin, ga.asin)
    assert.equal(ga.power, ga.pow)
    assert.equal(ga.rad2deg, ga.degrees)
  end)
end)

describe("cumulative sums", function()
  gpu_it("nancumsum, nancumprod, cumulative_sum and cumulative_prod", function()
    assert.same({ 1, 1, 3, 3 }, ga.nancumsum(ga.array({ 1, nan, 2, nan })):totable())
    assert.same({ { 1, 1 }, { 2, 3 } }, ga.nancumprod(ga.array({ { 1, nan }, { 2, 3 } }), 1):totable())
    assert.same({ 1, 1, 3, 6 }, ga.nancumsum(ga.array({ { 1, nan }, { 2, 3 } })):totable())
    assert.equal("int64", ga.nancumsum(ga.array({ 1, 2 }, "int8")).dtype)
    local x = ga.array({ { 1, 2 }, { 3, 4 } })
    assert.same({ { 1, 3 }, { 3, 7 } }, ga.cumulative_sum(x, { axis = 2 }):totable())
    assert.same({ { 0, 1, 3 }, { 0, 3, 7 } }, ga.cumulative_sum(x, { axis = -1, include_initial = true }):totable())
    assert.same({ { 1, 1 }, { 1, 2 }, { 3, 8 } }, ga.cumulative_prod(x, { axis = 1, include_initial = true }):totable())
    assert.same({ 1, 3, 6 }, ga.cumulative_sum(ga.array({ 1, 2, 3 })):totable())
    helper.assert_gaerror(function() ga.cumulative_sum(x) end, "cumulative_sum: axis is required")
  end)
end)

describe("differences, gradients, integrals", function()
  gpu_it("ediff1d, gradient, trapezoid as NumPy", function()
    assert.same({ 1, 2, 3, -7 }, ga.ediff1d({ 1, 2, 4, 7, 0 }):totable())
    assert.same({ -99, 1, 2, 3, 88, 99 }, ga.ediff1d(ga.array({ { 1, 2 }, { 4, 7 } }), { 88, 99 }, -99):totable())
    helper.assert_gaerror(function() ga.ediff1d(ga.array({ 1, 2 }, "int8"), { 1.5 }) end,
                          "ediff1d: dtype of `to_end` must be compatible")
    local f = ga.array({ 1, 2, 4, 7, 11, 16.0 })
    close({ 1.0, 1.5, 2.5, 3.5, 4.5, 5.0 }, ga.gradient(f):totable(), 1e-15, "gradient")
    close({ 0.5, 0.75, 1.25, 1.75, 2.25, 2.5 }, ga.gradient(f, 2.0):totable(), 1e-15, "gradient h")
    close({ 0.5, 1.5, 2.5, 3.5, 4.5, 5.5 }, ga.gradient(f, { edge_order = 2 }):totable(), 1e-14, "gradient 2")
    local xs = ga.array({ 0, 1, 1.5, 3.5, 4.0, 6.0 })
    close({ 1.0, 3.0, 3.5, 6.7, 6.9, 2.5 }, ga.gradient(f, xs):totable(), 1e-13, "gradient coords")
    close({ -1.0, 3.0, 3.5, 6.7, 6.9, -1.9 }, ga.gradient(f, xs, { edge_order = 2 }):totable(), 1e-12,
          "gradient coords 2")
    local F = ga.array({ { 1, 2, 6 }, { 3, 4, 5.0 } })
    local g1, g2 = ga.gradient(F)
    assert.same({ { 2, 2, -1 }, { 2, 2, -1 } }, g1:totable())
    assert.same({ { 1, 2.5, 4 }, { 1, 1, 1 } }, g2:totable())
    assert.same({ { 0.5, 1.25, 2 }, { 0.5, 0.5, 0.5 } }, ga.gradient(F, 2.0, { axis = 2 }):totable())
    local gi = ga.gradient(ga.array({ 1, 4, 9, 16 }, "int32"))
    assert.equal("float64", gi.dtype)
    assert.same({ 3, 4, 6, 7 }, gi:totable())
    helper.assert_gaerror(function() ga.gradient(ga.array({ 1 })) end, "gradient: Shape of array too small")
    assert.equal(4.0, ga.trapezoid({ 1, 2, 3 }):item())
    assert.equal(8.0, ga.trapezoid({ 1, 2, 3 }, { 4, 6, 8 }):item())
    assert.equal(8.0, ga.trapezoid({ 1, 2, 3 }, { dx = 2 }):item())
    assert.same({ 3.5, 12.5 }, ga.trapezoid(ga.arange(6, "float64"):reshape(2, 3), { 0, 1, 3 }):totable())
    assert.same({ 1.5, 2.5, 3.5 }, ga.trapezoid(ga.arange(6, "float64"):reshape(2, 3), { axis = 1 }):totable())
    assert.equal("float32", ga.trapezoid(ga.array({ 1, 2 }, "float32")).dtype)
  end)

  gpu_it("gradient matches a Lua reference on random data", function()
    local n = 50 + math.random(0, 50)
    local h, c = {}, { 0 }
    for i = 1, n do h[i] = math.random() * 10 - 5 end
    for i = 2, n do c[i] = c[i - 1] + 0.1 + math.random() end
    local want = {}
    for i = 2, n - 1 do
      local d1, d2 = c[i] - c[i - 1], c[i + 1] - c[i]
      want[i] = (-d2 / (d1 * (d1 + d2))) * h[i - 1] + ((d2 - d1) / (d1 * d2)) * h[i]
                + (d1 / (d2 * (d1 + d2))) * h[i + 1]
    end
    want[1] = (h[2] - h[1]) / (c[2] - c[1])
    want[n] = (h[n] - h[n - 1]) / (c[n] - c[n - 1])
    local got = ga.gradient(ga.array(h), ga.array(c)):totable()
    for i = 1, n do
      assert(math.abs(got[i] - want[i]) <= 1e-9 * (1 + math.abs(want[i])), ("gradient [%d]"):format(i))
    end
  end)

  gpu_it("cross and unwrap as NumPy", function()
    assert.same({ -3, 6, -3 }, ga.cross({ 1, 2, 3 }, { 4, 5, 6 }):totable())
    assert.equal(-2, ga.cross({ 1, 2 }, { 3, 4 }):item())
    assert.same({ 10, -5, -2 }, ga.cross({ 1, 2 }, { 3, 4, 5 }):totable())
    assert.same({ -15, 12, -3 }, ga.cross({ 1, 2, 3 }, { 4, 5 }):totable())
    local a, b = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }), ga.array({ { 4, 5, 6 }, { 1, 2, 3 } })
    assert.same({ { -3, 6, -3 }, { 3, -6, 3 } }, ga.cross(a, b):totable())
    assert.same({ { -3, 6, -3 }, { 3, -6, 3 } }, ga.cross(a.T, b.T, { axisa = 1, axisb = 1 }):totable())
    assert.same({ { -3, 3 }, { 6, -6 }, { -3, 3 } }, ga.cross(a.T, b.T, 1, 1, 1):totable())
    assert.equal("int16", ga.cross(ga.array({ 1, 2, 3 }, "int8"), ga.array({ 4, 5, 6 }, "int16")).dtype)
    helper.assert_gaerror(function() ga.cross({ 1, 2, 3, 4 }, { 1, 2, 3 }) end, "cross: incompatible dimensions")
    close({ 0.0, 3.0, 0.21681469282041377, -2.5663706143591725, 0.5 }, ga.unwrap({ 0, 3, 6.5, 10, 0.5 }):totable(),
          1e-14, "unwrap")
    assert.same({ 0, 1, 2, 3, 4 }, ga.unwrap({ 0, 1, 2, -1, 0 }, { period = 4 }):totable())
    assert.same({ { 0, 4, 8 }, { 1, 5, 9 } }, ga.unwrap(ga.array({ { 0, 4, 8 }, { 1, 5, 9.0 } }), nil, 1):totable())
    close({ 0.0, 3.0, 6.5, 10.0, 13.066370614359172 }, ga.unwrap({ 0, 3, 6.5, 10, 0.5 }, 4):totable(), 1e-14,
          "unwrap discont")
    local u = ga.unwrap(ga.array({ 1, 5, 2, 6 }), { period = 4 })
    assert.equal("int64", u.dtype)
    assert.same({ 1, 1, 2, 2 }, u:totable())
  end)
end)

describe("convolve and interp", function()
  gpu_it("convolve: the three modes, complex numbers, swapped lengths, a Lua reference", function()
    assert.same({ 0, 1, 2.5, 4, 1.5 }, ga.convolve({ 1, 2, 3 }, { 0, 1, 0.5 }):totable())
    assert.same({ 1, 2.5, 4 }, ga.convolve({ 1, 2, 3 }, { 0, 1, 0.5 }, "same"):totable())
    assert.same({ 2.5 }, ga.convolve({ 1, 2, 3 }, { 0, 1, 0.5 }, "valid"):totable())
    assert.same({ 1, 3, 5, 7 }, ga.convolve({ 1, 2, 3, 4 }, { 1, 1 }, "same"):totable())
    assert.same({ 1, 4, 7, 10, 13 }, ga.convolve({ 1, 2 }, { 1, 2, 3, 4, 5 }, "same"):totable())
    assert.same({ 4, 7, 10, 13 }, ga.convolve({ 1, 2 }, { 1, 2, 3, 4, 5 }, { mode = "valid" }):totable())
    assert.same({ { -1, 1 }, { 1, 3 }, { 2, 0 } },
                ga.convolve(ga.array({ { 1, 1 }, { 2, 0 } }, "complex128"),
                            ga.array({ { 0, 1 }, { 1, 0 } }, "complex128")):totable())
    assert.same({ true, true, false }, ga.convolve(ga.array({ true, false }), ga.array({ true, true })):totable())
    helper.assert_gaerror(function() ga.convolve({}, { 1 }) end, "convolve: a cannot be empty")
    local n, m = 300 + math.random(0, 100), 1 + math.random(0, 40)
    local ha, hv = {}, {}
    for i = 1, n do ha[i] = math.random(-9, 9) end
    for i = 1, m do hv[i] = math.random(-9, 9) end
    local want = {}
    for k = 1, n + m - 1 do
      local s = 0
      for j = 1, m do
        local i = k - j + 1
        if i >= 1 and i <= n then s = s + ha[i] * hv[j] end
      end
      want[k] = s
    end
    assert.same(want, ga.convolve(ga.array(ha, "int32"), ga.array(hv, "int32")):totable())
  end)

  gpu_it("interp: NumPy's ends, left/right, period, complex fp, float32 inputs, a Lua reference", function()
    assert.same({ 2, 1, 2, 2, 3, 1 }, ga.interp({ 0.5, -1, 5, 2, 1.0, 0 }, { 0, 1, 2 }, { 1, 3, 2 }):totable())
    assert.same({ 2, -7, 9 }, ga.interp({ 0.5, -1, 5 }, { 0, 1, 2 }, { 1, 3, 2 }, -7, 9):totable())
    local r = ga.interp({ 0.5, nan }, { 0, 1 }, { 0, 1 })
    assert.equal("float64", r.dtype)
    assert.is_true(r:totable()[2] ~= r:totable()[2])
    close({ 7.5, 5, 8.75, 6.25, 3, 3.25, 3.5, 3.75 },
          ga.interp({ -180, -170, -185, 185, -10, -5, 0, 365 }, { 190, -190, 350, -350 }, { 5, 10, 3, 4 },
                    { period = 360 }):totable(), 1e-14, "period")
    assert.same({ { 2, 0.5 }, { 2.5, -1 } },
                ga.interp({ 0.5, 1.5 }, { 0, 1, 2 },
                          ga.array({ { 1, 1 }, { 3, 0 }, { 2, -2 } }, "complex128")):totable())
    -- outside xp without left/right: fp's ends, imaginary parts included (NumPy)
    assert.same({ { 1, 1 }, { 2, -2 } },
                ga.interp({ -1, 3 }, { 0, 1, 2 },
                          ga.array({ { 1, 1 }, { 3, 0 }, { 2, -2 } }, "complex128")):totable())
    helper.assert_gaerror(function() ga.interp({ 1 }, {}, {}) end, "interp: array of sample points is empty")
    helper.assert_gaerror(function() ga.interp({ 1 }, { 1, 2 }, { 1 }) end,
                          "interp: fp and xp are not of the same length")
    -- random queries on float32 knots (the bench's shape, small)
    local k = 64
    local hx, hf = {}, {}
    for i = 1, k do
      hx[i] = helper.to_f32((i - 1) / (k - 1))
      hf[i] = helper.to_f32(math.sin(10 * hx[i]))
    end
    local q = {}
    for i = 1, 1000 do q[i] = helper.to_f32(math.random() * 1.2 - 0.1) end
    local got = ga.interp(ga.array(q, "float32"), ga.array(hx, "float32"), ga.array(hf, "float32")):totable()
    for i, v in ipairs(q) do
      local want
      if v <= hx[1] then want = hf[1]
      elseif v >= hx[k] then want = hf[k]
      else
        local j = 1
        while hx[j + 1] <= v do j = j + 1 end
        want = v == hx[j] and hf[j] or (hf[j + 1] - hf[j]) / (hx[j + 1] - hx[j]) * (v - hx[j]) + hf[j]
      end
      assert(math.abs(got[i] - want) <= 1e-12, ("interp at %.9g: got %.17g, want %.17g"):format(v, got[i], want))
    end
  end)
end)

describe("nan_to_num, real_if_close, clip and around", function()
  gpu_it("as NumPy", function()
    exact({ 0.0, 1.7976931348623157e+308, -1.7976931348623157e+308, 1.0 },
          ga.nan_to_num(ga.array({ nan, inf, -inf, 1 })):totable(), "nan_to_num")
    exact({ 3.4028234663852886e+38 }, ga.nan_to_num(ga.array({ inf }, "float32")):astype("float64"):totable(), "f32")
    exact({ 65504.0 }, ga.nan_to_num(ga.array({ inf }, "float16")):astype("float64"):totable(), "f16")
    exact({ 5.0, 6.0, -6.0 },
          ga.nan_to_num(ga.array({ nan, inf, -inf }), { nan = 5, posinf = 6, neginf = -6 }):totable(),
          "nan_to_num values")
    assert.same({ { 0, 1.7976931348623157e+308 } }, ga.nan_to_num(ga.array({ { nan, inf } }, "complex128")):totable())
    local x = ga.array({ nan, 1 })
    assert.equal(x, ga.nan_to_num(x, false))
    assert.same({ 0, 1 }, x:totable())
    local ints = ga.array({ 1, 2 })
    assert.are_not.equal(ints, ga.nan_to_num(ints))
    local r = ga.real_if_close(ga.array({ { 1, 1e-14 }, { 2, 0 } }, "complex128"))
    assert.equal("float64", r.dtype)
    assert.same({ 1, 2 }, r:totable())
    assert.equal("complex128", ga.real_if_close(ga.array({ { 1, 1e-10 } }, "complex128")).dtype)
    assert.equal("float64", ga.real_if_close(ga.array({ { 1, 1e-10 } }, "complex128"), 1e-9).dtype)
    assert.same({ 0, 0.5, 1 }, ga.clip(ga.array({ -1, 0.5, 3 }), { a_min = 0, a_max = 1 }):totable())
    assert.same({ 0, 0.5, 1 }, ga.clip(ga.array({ -1, 0.5, 3 }), { min = 0, max = 1 }):totable())
    assert.same({ 2, 4, -0.0 }, ga.around(ga.array({ 2.5, 3.5, -0.5 })):totable())
    assert.same({ 1.2 }, ga.round(ga.array({ 1.234 }), { decimals = 1 }):totable())
  end)

  gpu_it("bincount of an empty x with weights gives int64, as NumPy (issue 26)", function()
    local r = ga.bincount(ga.array({}, "int64"), ga.array({}, "float32"), 3)
    assert.equal("int64", r.dtype)
    assert.same({ 0, 0, 0 }, r:totable())
    assert.equal("float64", ga.bincount(ga.array({ 1 }, "int64"), ga.array({ 2 }, "float32")).dtype)
  end)
end)
