-- Compatibility with NumPy's values and dtypes (issue 15): item() of a
-- complex element, writing a size-1 array into one element, integer
-- floor/ceil/trunc, conj of bool, complex maximum/minimum/fmax/fmin/clip,
-- integer linspace. The dtype rules run without a GPU (empty arrays need
-- no device); the values need one.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local INTS = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" }

describe("compat: rounding integers and conj of bool", function()
  it("keeps bool and integer dtypes for floor, ceil and trunc (NumPy >= 2.1)", function()
    for _, t in ipairs { "bool", table.unpack(INTS) } do
      for _, f in ipairs { "floor", "ceil", "trunc" } do
        assert.equal(t, ga[f](ga.empty(0, t)).dtype, f .. " " .. t)
      end
    end
    assert.equal("float32", ga.floor(ga.empty(0, "float32")).dtype)
    -- rint has no integer loops in NumPy: integers go to floats
    assert.equal("float64", ga.rint(ga.empty(0, "int32")).dtype)
    assert.equal("float16", ga.rint(ga.empty(0, "int8")).dtype)
  end)

  it("gives int8 for the conj of bool, as NumPy", function()
    assert.equal("int8", ga.conj(ga.empty(0, "bool")).dtype)
    assert.equal("int8", ga.conjugate(ga.empty(0, "bool")).dtype)
    assert.equal("uint16", ga.conj(ga.empty(0, "uint16")).dtype)
  end)

  gpu_it("rounds integers to themselves", function()
    for _, t in ipairs { "int8", "int32", "uint16", "int64" } do
      local lo = t:sub(1, 1) == "u" and 0 or -100
      local vals = {}
      for i = 1, 33 do vals[i] = math.random(lo, 100) end
      local x = ga.array(vals, t)
      for _, f in ipairs { "floor", "ceil", "trunc" } do
        local y = ga[f](x)
        assert.equal(t, y.dtype)
        assert.same(vals, y:totable())
      end
    end
    local b = {}
    for i = 1, 20 do b[i] = math.random() < 0.5 end
    assert.same(b, ga.floor(ga.array(b)):totable())
    local c = ga.conj(ga.array(b))
    local want = {}
    for i, v in ipairs(b) do want[i] = v and 1 or 0 end
    assert.equal("int8", c.dtype)
    assert.same(want, c:totable())
  end)
end)

-- NumPy's complex order and NaN rules, in Lua
local function isnan(z) return z[1] ~= z[1] or z[2] ~= z[2] end
local function le(a, b)
  return (a[1] < b[1] and a[2] == a[2] and b[2] == b[2]) or (a[1] == b[1] and a[2] <= b[2])
end
local function lt(a, b)
  return (a[1] < b[1] and a[2] == a[2] and b[2] == b[2]) or (a[1] == b[1] and a[2] < b[2])
end
-- clip's: a NaN on either side wins
local function max_nan(a, b) return isnan(a) and a or (isnan(b) and b or (lt(a, b) and b or a)) end
local function min_nan(a, b) return isnan(a) and a or (isnan(b) and b or (lt(b, a) and b or a)) end
local REF = {
  maximum = function(a, b) return (le(b, a) or isnan(a)) and a or b end,
  minimum = function(a, b) return (le(a, b) or isnan(a)) and a or b end,
  fmax = function(a, b) return (le(b, a) or isnan(b)) and a or b end,
  fmin = function(a, b) return (le(a, b) or isnan(b)) and a or b end,
}

describe("compat: complex maximum, minimum, fmax, fmin and clip", function()
  it("accept complex operands (lexicographic order) with NumPy's result dtypes", function()
    local c64, c128 = ga.empty({ 0, 2 }, "complex64"), ga.empty(0, "complex128")
    for name in pairs(REF) do
      assert.equal("complex64", ga[name](c64, c64).dtype, name)
      assert.same({ 0, 2 }, ga[name](c64, c64).shape, name)
      assert.equal("complex128", ga[name](ga.empty(0, "complex64"), c128).dtype, name)
      assert.equal("complex64", ga[name](c64, 2.5).dtype, name)
      assert.equal("complex128", ga[name](ga.empty(0, "float64"), ga.empty(0, "complex64")).dtype, name)
    end
    assert.equal("complex64", ga.clip(ga.empty(0, "complex64"), 0, 1).dtype)
    assert.equal("complex128", ga.clip(ga.empty(0, "complex64"), ga.complex128({ 0, 1 }), nil).dtype)
  end)

  local function rand_complex()
    local pool = { -1, 0, 0.5, 2 }
    local function part()
      if math.random() < 0.08 then return 0 / 0 end
      return pool[math.random(#pool)]
    end
    return { part(), part() }
  end

  gpu_it("order complex values as NumPy, NaN handling included", function()
    for _, t in ipairs { "complex64", "complex128" } do
      local a, b = {}, {}
      for i = 1, 64 do
        a[i], b[i] = rand_complex(), rand_complex()
      end
      a[1], b[1] = { 1, 5 }, { 1, 2 }            -- ties in the real part
      a[2], b[2] = { 2, -1 }, { 1, 9 }
      a[3], b[3] = { 0 / 0, 0 }, { 1, 1 }        -- NaN first
      a[4], b[4] = { 1, 1 }, { 0, 0 / 0 }        -- NaN second
      local x, y = ga.array(a, t), ga.array(b, t)
      for name, f in pairs(REF) do
        local z = ga[name](x, y)
        assert.equal(t, z.dtype)
        local want = {}
        for i = 1, #a do want[i] = f(a[i], b[i]) end
        helper.assert_same(want, z:totable(), nil, name .. " " .. t)
      end
    end
  end)

  gpu_it("clips complex values between complex bounds", function()
    local a = {}
    for i = 1, 40 do a[i] = rand_complex() end
    local lo, hi = { 0, 0 }, { 0.5, 2 }
    local z = ga.clip(ga.array(a, "complex128"), ga.complex128(lo), ga.complex128(hi))
    assert.equal("complex128", z.dtype)
    local want = {}
    for i, v in ipairs(a) do want[i] = min_nan(max_nan(v, lo), hi) end
    helper.assert_same(want, z:totable())
  end)
end)

describe("compat: reading and writing single elements", function()
  gpu_it("item returns a complex element as two numbers", function()
    for _, t in ipairs { "complex64", "complex128" } do
      local vals = {}
      for i = 1, 6 do vals[i] = { math.random(-64, 64) / 4, math.random(-64, 64) / 4 } end
      local x = ga.array(vals, t)
      local k = math.random(1, 6)
      local re, im = x:item(k)
      assert.equal(vals[k][1], re)
      assert.equal(vals[k][2], im)
      local r0, i0 = x[{ { k, k } }]:item()
      assert.same({ vals[k][1], vals[k][2] }, { r0, i0 })
      assert.same(vals, x:totable())        -- totable keeps pairs
      assert.same(vals[k], x[k])            -- an element read keeps the pair
    end
  end)

  gpu_it("writes a size-1 array into one element, as NumPy's setitem", function()
    local b = {}
    for i = 1, 7 do b[i] = math.random() < 0.5 end
    local x = ga.array(b)
    x[{ 4 }] = ga.array({ true })
    b[4] = true
    assert.same(b, x:totable())
    local f = {}
    for i = 1, 5 do f[i] = math.random(-100, 100) / 4 end
    local y = ga.array(f, "float64")
    local v = math.random(-100, 100) / 8
    y[{ 2 }] = ga.array({ { v } })            -- shape {1, 1} into {}
    f[2] = v
    y[{ { 1, 2 } }] = ga.array({ { 7, -3 } })  -- {1, 2} into {2}
    f[1], f[2] = 7, -3
    y:set(ga.array({ f }, "float32"))         -- {1, 5} into {5}
    assert.same(f, y:totable())
    helper.assert_gaerror(function() y[{ 2 }] = ga.array({ 1, 2 }) end, "could not broadcast")
  end)
end)

describe("compat: integer linspace", function()
  gpu_it("rounds toward minus infinity, as NumPy >= 1.20", function()
    assert.same({ 6, 4, 3, 1, 0, -2, -3 }, ga.linspace(6, -3.0, 7, { dtype = "int64" }):totable())
    for _ = 1, 5 do
      local a, b = math.random(-200, 200) / 8, math.random(-200, 200) / 8
      local n = math.random(2, 30)
      local x = ga.linspace(a, b, n, { dtype = "int32" })
      assert.equal("int32", x.dtype)
      local want = {}
      local step = (b - a) / (n - 1)
      for i = 1, n do want[i] = math.floor(a + (i - 1) * step) end
      want[n] = math.floor(b)
      assert.same(want, x:totable())
    end
  end)
end)

-- found by make difftest (program 125 of seed 1795506878): std of a
-- single -inf gave 0 where NumPy's x - mean gives NaN
describe("compat: var and std of infinities and NaN", function()
  gpu_it("are NaN where NumPy's two-pass formula meets inf - inf or NaN", function()
    local inf = math.huge
    for _, dt in ipairs { "float32", "float64", "complex64" } do
      for _, f in ipairs { "var", "std" } do
        local one_inf = ga[f](ga.array({ -inf }, dt)):item()
        assert.is_true(one_inf ~= one_inf, f .. " of {-inf} " .. dt)
        local with_inf = ga[f](ga.array({ 1, inf, 2 }, dt)):item()
        assert.is_true(with_inf ~= with_inf, f .. " of {1, inf, 2} " .. dt)
        local nan = ga[f](ga.array({ 0 / 0 }, dt)):item()
        assert.is_true(nan ~= nan, f .. " of {nan} " .. dt)
        local x = math.random() * 100 - 50
        assert.equal(0, ga[f](ga.array({ x }, dt)):item(), f .. " of one finite value " .. dt)
      end
    end
    -- along an axis: each row alone
    local r = ga.std(ga.array({ { -inf }, { 3 } }, "float64"), { axis = 2 }):totable()
    assert.is_true(r[1] ~= r[1])
    assert.equal(0, r[2])
  end)
end)
