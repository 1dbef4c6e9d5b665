-- dtype table, NumPy's promotion rules with weak Lua scalars, typed scalars.
-- Pure C: runs everywhere (no GPU).
local helper = require "helper"
local ga = helper.ga

local NAMES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128" }
local SIZES = { 1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16 }
local KINDS = { "b", "i", "i", "i", "i", "u", "u", "u", "u", "f", "f", "f", "c", "c" }

-- NumPy's promotion table (np.promote_types), rows and columns in NAMES order
local SHORT = { b = "bool", i1 = "int8", i2 = "int16", i4 = "int32", i8 = "int64", u1 = "uint8",
                u2 = "uint16", u4 = "uint32", u8 = "uint64", f2 = "float16", f4 = "float32",
                f8 = "float64", c8 = "complex64", c16 = "complex128" }
local TABLE = {
  "b   i1  i2  i4  i8  u1  u2  u4  u8  f2  f4  f8  c8  c16",
  "i1  i1  i2  i4  i8  i2  i4  i8  f8  f2  f4  f8  c8  c16",
  "i2  i2  i2  i4  i8  i2  i4  i8  f8  f4  f4  f8  c8  c16",
  "i4  i4  i4  i4  i8  i4  i4  i8  f8  f8  f8  f8  c16 c16",
  "i8  i8  i8  i8  i8  i8  i8  i8  f8  f8  f8  f8  c16 c16",
  "u1  i2  i2  i4  i8  u1  u2  u4  u8  f2  f4  f8  c8  c16",
  "u2  i4  i4  i4  i8  u2  u2  u4  u8  f4  f4  f8  c8  c16",
  "u4  i8  i8  i8  i8  u4  u4  u4  u8  f8  f8  f8  c16 c16",
  "u8  f8  f8  f8  f8  u8  u8  u8  u8  f8  f8  f8  c16 c16",
  "f2  f2  f4  f8  f8  f2  f4  f8  f8  f2  f4  f8  c8  c16",
  "f4  f4  f4  f8  f8  f4  f4  f8  f8  f4  f4  f8  c8  c16",
  "f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  c16 c16",
  "c8  c8  c8  c16 c16 c8  c8  c16 c16 c8  c8  c16 c8  c16",
  "c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16",
}

describe("dtypes", function()
  it("ga.dtype describes all 14", function()
    for i, name in ipairs(NAMES) do
      local d = ga.dtype(name)
      assert.equal(name, d.name)
      assert.equal(SIZES[i], d.itemsize)
      assert.equal(KINDS[i], d.kind)
      -- the constructor object is accepted wherever a dtype is
      assert.equal(name, ga.dtype(ga[name]).name)
      assert.equal(name, tostring(ga[name]))
      assert.equal(SIZES[i], ga[name].itemsize)
    end
  end)

  it("rejects unknown names with the list of valid ones", function()
    local err = helper.assert_gaerror(function() ga.dtype("float8") end, "unknown dtype 'float8'")
    for _, name in ipairs(NAMES) do assert.truthy(err:find(name, 1, true)) end
    helper.assert_gaerror(function() ga.dtype(42) end, "expected a dtype")
  end)

  it("promotes every pair as NumPy does", function()
    for r, row in ipairs(TABLE) do
      local c = 0
      for code in row:gmatch("%S+") do
        c = c + 1
        local expected = SHORT[code]
        assert.equal(expected, ga.result_type(NAMES[r], NAMES[c]),
          ("promote(%s, %s)"):format(NAMES[r], NAMES[c]))
        assert.equal(ga.result_type(NAMES[c], NAMES[r]), expected)
      end
      assert.equal(14, c)
    end
  end)

  it("treats Lua numbers as weak scalars (NEP 50)", function()
    assert.equal("int32", ga.result_type("int32", 1))
    assert.equal("float64", ga.result_type("int32", 0.5))
    assert.equal("float32", ga.result_type("float32", 2.5))
    assert.equal("float16", ga.result_type("float16", 1))
    assert.equal("float16", ga.result_type("float16", 1e3))
    assert.equal("int64", ga.result_type("bool", 3))
    assert.equal("bool", ga.result_type("bool", true))
    assert.equal("uint8", ga.result_type("uint8", 255))
    assert.equal("int64", ga.result_type(1, 2))
    assert.equal("float64", ga.result_type(1, 2.0))
    assert.equal("bool", ga.result_type(true, false))
    assert.equal("complex64", ga.result_type("complex64", 1.5))
    -- typed scalars are strong
    assert.equal("float32", ga.result_type(ga.float32(1), 1.0))
    assert.equal("int16", ga.result_type(ga.int8(1), "uint8"))
  end)

  it("raises when a Lua integer does not fit the integer result", function()
    helper.assert_gaerror(function() ga.result_type("uint8", 256) end, "does not fit uint8")
    helper.assert_gaerror(function() ga.result_type("int8", -129) end, "does not fit int8")
    helper.assert_gaerror(function() ga.result_type("uint32", -1) end, "does not fit uint32")
    assert.equal("int8", ga.result_type("int8", -128))
    assert.equal("uint64", ga.result_type("uint64", math.maxinteger))
  end)

  it("needs at least one argument", function()
    helper.assert_gaerror(function() ga.result_type() end, "at least one")
  end)
end)

describe("typed scalars", function()
  it("hold values that fit and refuse those that do not", function()
    assert.equal(127, ga.int8(127).value)
    assert.equal("int8", ga.int8(127).dtype)
    helper.assert_gaerror(function() ga.int8(128) end, "does not fit int8")
    helper.assert_gaerror(function() ga.uint8(-1) end, "does not fit uint8")
    helper.assert_gaerror(function() ga.int32(2 ^ 31) end, "does not fit int32")
    helper.assert_gaerror(function() ga.float16(70000) end, "does not fit float16")
    helper.assert_gaerror(function() ga.float32(1e39) end, "does not fit float32")
    assert.equal(math.maxinteger, ga.int64(math.maxinteger).value)
    assert.equal(math.mininteger, ga.int64(math.mininteger).value)
    assert.equal(4294967295, ga.uint32(4294967295).value)
  end)

  it("round floats to their dtype and truncate into integers", function()
    for _ = 1, 200 do
      local v = (math.random() - 0.5) * 10 ^ math.random(-6, 4)
      assert.equal(helper.to_f32(v), ga.float32(v).value)
      assert.equal(helper.to_half(v), ga.float16(v).value)
      assert.equal(v, ga.float64(v).value)
      local t = v < 0 and math.ceil(v) or math.floor(v)
      assert.equal(math.tointeger(t) or t, ga.int32(v).value)
    end
    assert.equal(true, ga.bool(3).value)
    assert.equal(false, ga.bool(0).value)
    assert.equal(2 ^ 63, ga.uint64(2 ^ 63).value)
  end)

  it("handle complex pairs, infinities and NaN", function()
    local c = ga.complex64({ 1.5, -2.25 }).value
    assert.same({ 1.5, -2.25 }, c)
    assert.same({ 3, 0 }, ga.complex128(3).value)
    assert.equal(math.huge, ga.float16(math.huge).value)
    local nan = ga.float32(0 / 0).value
    assert.is_true(nan ~= nan)
    assert.equal("float32(0.5)", tostring(ga.float32(0.5)))
  end)
end)

describe("float16 rounding", function()
  it("rounds to nearest even, with subnormals and overflow", function()
    local cases = { 1, 1 + 2 ^ -11, 1 + 3 * 2 ^ -11, 65504, 65519, 2 ^ -24, 2 ^ -25,
                    3 * 2 ^ -26, 2 ^ -14 - 2 ^ -25, 0.1, -0.1, 1e-8, -0.0 }
    for _, v in ipairs(cases) do
      assert.equal(helper.to_half(v), ga.float16(v).value, tostring(v))
    end
    helper.assert_gaerror(function() ga.float16(65520) end, "does not fit float16")
    assert.equal(1, ga.float16(1 + 2 ^ -11).value)          -- tie to even
    assert.equal(1 + 2 ^ -9, ga.float16(1 + 3 * 2 ^ -11).value)
    assert.equal(0, ga.float16(2 ^ -25).value)              -- tie to even (zero)
    assert.equal(2 ^ -24, ga.float16(3 * 2 ^ -26).value)
  end)
end)
