-- The ndarray: round trips between Lua and the device for every dtype,
-- creation routines, fields, tostring. GPU only.
local helper = require "helper"
local R = require "ndref"
local BF = require "spec.bf16.bfref"
local ga = helper.ga
local gpu_it = helper.gpu_it

local NAMES = ga.dtype_names()
local INT_RANGE = {
  int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
  int64 = { math.mininteger, math.maxinteger }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
  uint32 = { 0, 4294967295 }, uint64 = { 0, math.maxinteger },
}

-- A random value of a dtype, as Lua holds it after the round trip
local function random_value(dt)
  local kind = ga.dtype(dt).kind
  if kind == "b" then return math.random() < 0.5 end
  if kind == "i" or kind == "u" then
    local r = INT_RANGE[dt]
    if dt == "int64" or dt == "uint64" then return math.random(r[1], r[2]) end
    return math.random(r[1], r[2])
  end
  local v = (math.random() - 0.5) * 10 ^ math.random(-3, 4)
  if dt == "float16" then return helper.to_half(v) end
  if dt == "bfloat16" then return BF.round(v) end
  if dt == "float32" then return helper.to_f32(v) end
  if dt == "float64" then return v end
  local w = (math.random() - 0.5) * 100
  if dt == "complex64" then return { helper.to_f32(v), helper.to_f32(w) } end
  return { v, w }
end

local LIMITS = {
  bool = { true, false },
  int8 = { -128, 127, 0 }, uint8 = { 0, 255 }, int16 = { -32768, 32767 }, uint16 = { 0, 65535 },
  int32 = { -2147483648, 2147483647 }, uint32 = { 0, 4294967295 },
  int64 = { math.mininteger, math.maxinteger, -1 },
  uint64 = { 0, math.maxinteger, 2.0 ^ 63, 2.0 ^ 64 - 2048 },
  float16 = { 65504, -65504, 2 ^ -14, 2 ^ -24, math.huge, -math.huge, 0 / 0, -0.0 },
  float32 = { 3.4028234663852886e38, -3.4028234663852886e38, 1.1754943508222875e-38,
              1.401298464324817e-45, math.huge, 0 / 0, -0.0 },
  float64 = { 1.7976931348623157e308, 2.2250738585072014e-308, 5e-324, -math.huge, 0 / 0, -0.0 },
  complex64 = { { 3.4028234663852886e38, -1.401298464324817e-45 }, { math.huge, 0 / 0 }, { -0.0, 1 } },
  complex128 = { { 1.7976931348623157e308, 5e-324 }, { -math.huge, 0 / 0 }, { 1, -0.0 } },
}

local function same_bits(a, b)
  -- -0.0 and 0.0 differ; NaN equals NaN
  if type(a) == "number" and type(b) == "number" then
    if a ~= a then return b ~= b end
    if a == 0 and b == 0 then return 1 / a == 1 / b end
    return a == b and math.type(a) == math.type(b) or a == b
  end
  if type(a) == "table" then
    for i = 1, #a do if not same_bits(a[i], b[i]) then return false end end
    return #a == #b
  end
  return a == b
end

describe("round trips", function()
  gpu_it("table -> device -> table for every dtype, random values", function()
    for _, dt in ipairs(NAMES) do
      local shape = { math.random(1, 4), math.random(1, 5), 3 }
      local t = helper.random_table(shape, function() return random_value(dt) end)
      local x = ga.array(t, dt)
      assert.equal(dt, x.dtype)
      assert.same(shape, x.shape)
      assert.equal(ga.dtype(dt).itemsize, x.itemsize)
      helper.assert_same(t, x:totable())
    end
  end)

  gpu_it("keeps each dtype's limits, infinities, NaN and negative zero", function()
    for dt, values in pairs(LIMITS) do
      local x = ga.array(values, dt)
      local back = x:totable()
      assert.equal(#values, #back)
      for i, v in ipairs(values) do
        assert.is_true(same_bits(v, back[i]), ("%s[%d]: %s vs %s"):format(dt, i, tostring(v), tostring(back[i])))
        -- a complex element comes back from item as two numbers (re, im)
        local item = dt:find("complex", 1, true) and { x:item(i) } or x:item(i)
        assert.is_true(same_bits(v, item), dt)
      end
    end
  end)

  gpu_it("bytes -> device -> bytes for every dtype, also through views", function()
    for _, dt in ipairs(NAMES) do
      local size = ga.dtype(dt).itemsize
      local rows, cols = math.random(2, 7), math.random(2, 9)
      local parts = {}
      -- any bytes are valid values, except that a bool is 0 or 1
      local top = dt == "bool" and 1 or 255
      for i = 1, rows * cols * size do parts[i] = string.char(math.random(0, top)) end
      local bytes = table.concat(parts)
      local x = ga.array(bytes, { dtype = dt, shape = { rows, cols } })
      assert.same({ rows, cols }, x.shape)
      assert.equal(bytes, x:tobytes())
      -- the transpose's bytes are the elements in transposed order
      local expected = {}
      for c = 1, cols do
        for r = 1, rows do
          local at = ((r - 1) * cols + (c - 1)) * size
          expected[#expected + 1] = bytes:sub(at + 1, at + size)
        end
      end
      assert.equal(table.concat(expected), x.T:tobytes())
      assert.equal(table.concat(expected), x.T:copy():tobytes())
    end
  end)

  gpu_it("0-d arrays and scalars", function()
    local z = ga.array(3.5)
    assert.same({}, z.shape)
    assert.equal(0, z.ndim)
    assert.equal(3.5, z:item())
    assert.equal(3.5, z:totable())
    assert.equal("int64", ga.array(7).dtype)
    assert.equal("bool", ga.array(true).dtype)
    assert.equal("float32", ga.array(ga.float32(1.25)).dtype)
    assert.same({ 1, -2 }, { ga.array({ 1, -2 }, "complex64"):item() })
  end)

  gpu_it("infers dtypes from Lua values", function()
    assert.equal("int64", ga.array({ 1, 2, 3 }).dtype)
    assert.equal("float64", ga.array({ 1, 2.5 }).dtype)
    assert.equal("bool", ga.array({ true, false }).dtype)
    assert.equal("float64", ga.array({}).dtype)
    assert.same({ 0 }, ga.array({}).shape)
  end)
end)

describe("creation", function()
  gpu_it("zeros, ones, full, empty and their _like forms", function()
    local shape = { math.random(1, 5), math.random(1, 5) }
    for _, dt in ipairs(NAMES) do
      local z = ga.zeros(shape, dt)
      assert.equal(dt, z.dtype)
      assert.same(shape, z.shape)
      local kind = ga.dtype(dt).kind
      local zero, one = 0, 1
      if kind == "b" then zero, one = false, true end
      if kind == "c" then zero, one = { 0, 0 }, { 1, 0 } end
      helper.assert_same(helper.random_table(shape, function() return zero end), z:totable())
      helper.assert_same(helper.random_table(shape, function() return one end), ga.ones(shape, ga[dt]):totable())
      helper.assert_same(helper.random_table(shape, function() return one end), ga.ones_like(z):totable())
      assert.equal(dt, ga.empty_like(z).dtype)
    end
    local v = math.random(-1000, 1000)
    local f = ga.full({ 3, 2 }, v, "int32")
    assert.equal("int32", f.dtype)
    helper.assert_same({ { v, v }, { v, v }, { v, v } }, f:totable())
    assert.equal("int64", ga.full(3, 7).dtype)
    assert.equal("float64", ga.full(3, 0.5).dtype)
    helper.assert_same({ { 1.5, -2 }, { 1.5, -2 } }, ga.full(2, { 1.5, -2 }, "complex128"):totable())
    helper.assert_same({ 2.5, 2.5 }, ga.full_like(ga.zeros(2), 2.5):totable())
    assert.equal("float64", ga.zeros(3).dtype)
  end)

  gpu_it("honours set_default_dtype", function()
    ga.set_default_dtype("float32")
    local ok, err = pcall(function()
      assert.equal("float32", ga.zeros(2).dtype)
      assert.equal("float32", ga.ones({ 2, 2 }).dtype)
      assert.equal("int64", ga.arange(3).dtype)
    end)
    ga.set_default_dtype("float64")
    assert(ok, err)
  end)

  gpu_it("arange follows NumPy's half-open ranges", function()
    local function ref(a, b, s)
      local t = {}
      local v = a
      while (s > 0 and v < b) or (s < 0 and v > b) do
        t[#t + 1] = v
        v = v + s
      end
      return t
    end
    for _ = 1, 20 do
      local a, b = math.random(-50, 50), math.random(-50, 50)
      local s = ({ 1, 2, 3, -1, -2, 7 })[math.random(6)]
      local x = ga.arange(a, b, s)
      assert.equal("int64", x.dtype)
      helper.assert_same(ref(a, b, s), x:totable())
    end
    helper.assert_same({ 0, 1, 2, 3, 4 }, ga.arange(5):totable())
    local f = ga.arange(0.5, 3, 0.5)
    assert.equal("float64", f.dtype)
    helper.assert_same({ 0.5, 1, 1.5, 2, 2.5 }, f:totable())
    local g = ga.arange(1, 7, 2, "float32")
    assert.equal("float32", g.dtype)
    helper.assert_same({ 1, 3, 5 }, g:totable())
    assert.same({ 0 }, ga.arange(5, 1).shape)
  end)

  gpu_it("linspace includes both ends", function()
    local n = math.random(2, 40)
    local a, b = math.random() * 10 - 5, math.random() * 10 + 5
    local x = ga.linspace(a, b, n)
    local t = x:totable()
    assert.equal(n, #t)
    assert.equal(a, t[1])
    assert.equal(b, t[n])
    for i = 1, n do
      assert.is_true(math.abs(t[i] - (a + (i - 1) * (b - a) / (n - 1))) < 1e-12 * math.max(1, math.abs(b)))
    end
    local y = ga.linspace(0, 1, 4, { endpoint = false, dtype = "float32" })
    assert.equal("float32", y.dtype)
    helper.assert_same({ 0, 0.25, 0.5, 0.75 }, y:totable())
  end)

  gpu_it("eye and identity", function()
    for _ = 1, 10 do
      local n, m, k = math.random(1, 6), math.random(1, 6), math.random(-3, 3)
      local t = ga.eye(n, m, k, "int32"):totable()
      for i = 1, n do
        for j = 1, m do assert.equal(j - i == k and 1 or 0, t[i][j]) end
      end
    end
    helper.assert_same({ { 1, 0 }, { 0, 1 } }, ga.identity(2):totable())
    assert.equal("float64", ga.identity(2).dtype)
    assert.equal("bool", ga.eye(3, "bool").dtype)
  end)
end)

describe("fields and printing", function()
  gpu_it("report shape, strides, sizes, flags and base", function()
    local x = ga.zeros({ 3, 4 }, "float32")
    assert.same({ 3, 4 }, x.shape)
    assert.equal(2, x.ndim)
    assert.equal(12, x.size)
    assert.equal(4, x.itemsize)
    assert.equal(48, x.nbytes)
    assert.same({ 16, 4 }, x.strides)
    assert.equal(3, #x)
    assert.equal(0, x.device)
    assert.is_true(x.data_ptr > 0)
    assert.is_nil(x.base)
    assert.is_true(x.flags.c_contiguous)
    assert.is_false(x.flags.f_contiguous)
    assert.is_true(x.flags.owndata)
    local t = x.T
    assert.same({ 4, 3 }, t.shape)
    assert.same({ 4, 16 }, t.strides)
    assert.is_true(t.flags.f_contiguous)
    assert.is_false(t.flags.owndata)
    assert.equal(x, t.base)
    assert.equal(x, t[{ {}, 2 }].base)      -- a view of a view points at the owner
    assert.equal(x.data_ptr + 4, t[2].data_ptr)
    helper.assert_gaerror(function() return #ga.array(1) end, "0-d")
    helper.assert_gaerror(function() return x.nosuchfield end, "no field or method 'nosuchfield'")
  end)

  gpu_it("print like NumPy", function()
    assert.equal("array([[1, 2],\n       [3, 4]], dtype=int32)",
      tostring(ga.array({ { 1, 2 }, { 3, 4 } }, "int32")))
    local s = tostring(ga.array({ 0.5, 2, -0.25 }))
    assert.truthy(s:find("^array%(%[") and s:find("0.5", 1, true) and s:find("-0.25", 1, true))
    assert.equal("array([ true, false])", tostring(ga.array({ true, false })))
    assert.equal("array(7)", tostring(ga.array(7)))
    local big = tostring(ga.arange(5000))
    assert.truthy(big:find("...", 1, true))
    assert.truthy(big:find("4999", 1, true))
    assert.truthy(big:find("array([   0,    1,    2, ..., 4997, 4998, 4999])", 1, true), big)
    local big2 = tostring(ga.arange(3000):reshape(30, 100))
    assert.truthy(big2:find("2999", 1, true))
    assert.truthy(tostring(ga.array({ { 1, 2 } }, "complex64")):find("1.+2.j", 1, true))
  end)

  gpu_it("round-trip through a nested random layout", function()
    local shape = { 3, 4, 5 }
    local t = helper.random_table(shape, function() return math.random(-99, 99) end)
    local x = ga.array(t, "int16")
    local A = R.from_nested(t, shape)
    helper.assert_same(R.nested(R.transpose(A, { 2, 3, 1 })), x:transpose(2, 3, 1):totable())
    helper.assert_same(R.nested(R.transpose(A, { 3, 1, 2 })), x:transpose({ 3, 1, 2 }):copy():totable())
  end)
end)
