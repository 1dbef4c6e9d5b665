-- dtype table, NumPy's promotion rules with weak Lua scalars, typed scalars.
-- Pure C: runs everywhere (no GPU).
local helper = require "helper"
local ref = require "core.scalar_ref"
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

  it("are interned: one object per dtype, callable, whatever names it", function()
    local CHARS = "?bhilBHILefdFD"
    local STRS = { "|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8", "<c8", "<c16" }
    for i, name in ipairs(NAMES) do
      local d = ga[name]
      assert.equal(d, ga.dtype(name))
      assert.equal(d, ga.dtype(d))
      assert.equal(d, ga.dtype(ga.dtype(name)))
      assert.equal(d, ga.dtype(d.name))
      assert.equal(d, ga.dtype({ name = name }))   -- the old ga.dtype tables still name dtypes
      assert.equal(d, ga.dtype(d(1)))               -- a typed scalar's dtype
      assert.equal(CHARS:sub(i, i), d.char)
      assert.equal(STRS[i], d.str)
      assert.equal("userdata", type(d))
      assert.equal(name, d(0).dtype)                -- the constructor: .dtype stays the name
    end
    assert.is_true(ga.dtype("float32") == ga.float32)
    assert.is_false(ga.dtype("float32") == ga.float64)
    assert.is_nil(ga.float32.nothing)
    -- a dtype object keys a table as its name does
    local seen = { [ga.dtype("int8")] = true }
    assert.is_true(seen[ga.int8])
  end)

  -- issue 23's three examples, each failing on the tree before it
  it("issue 23: ga.dtype(\"float32\") == ga.dtype(\"float32\") holds", function()
    assert.is_true(ga.dtype("float32") == ga.dtype("float32"))
  end)

  it("issue 23: ga.complex64(1, 2) keeps the 2", function()
    assert.same({ 1, 2 }, ga.complex64(1, 2).value)
  end)

  it("issue 23: ga.int32(7) + 1 is an int32 scalar; its errors carry the gpuarray: prefix", function()
    local ok, r = pcall(function() return ga.int32(7) + 1 end)
    assert(ok, tostring(r))
    assert.equal("int32(8)", tostring(r))
    local err = helper.assert_gaerror(function() return ga.int32(7) + {} end, "add: ")
    assert.falsy(err:find("attempt to perform", 1, true))
  end)

  it("rejects unknown names with the list of valid ones", function()
    local err = helper.assert_gaerror(function() ga.dtype("float8") end, "unknown dtype 'float8'")
    for _, name in ipairs(NAMES) do assert.truthy(err:find(name, 1, true)) end
    helper.assert_gaerror(function() ga.dtype(42) end, "expected a dtype")
    helper.assert_gaerror(function() ga.dtype() end, "dtype: missing argument 'dtype'")
    helper.assert_gaerror(function() ga.dtype("int8", 2) end, "dtype: too many arguments (at most 1, got 2)")
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
        assert.equal(expected, ga.promote_types(NAMES[r], NAMES[c]))
        assert.equal(expected, ga.promote_types(ga[NAMES[c]], ga.dtype(NAMES[r])))
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

  it("result_type and promote_types return names", function()
    assert.equal("string", type(ga.result_type(ga.float32, ga.int8(1))))
    assert.equal("string", type(ga.promote_types(ga.float32, "int8")))
    assert.equal("int16", ga.promote_types(ga.int8(1), ga.uint8))   -- a typed scalar stands for its dtype
    helper.assert_gaerror(function() ga.promote_types("int8", 1) end, "promote_types: a Lua number has no dtype")
    helper.assert_gaerror(function() ga.promote_types("int8") end, "promote_types: missing argument 'type2'")
    helper.assert_gaerror(function() ga.promote_types("int8", "float8") end, "unknown dtype 'float8'")
    helper.assert_gaerror(function() ga.promote_types("int8", "int8", "int8") end,
                          "too many arguments (at most 2, got 3)")
  end)
end)

describe("can_cast", function()
  it("answers as np.can_cast for every pair and casting rule", function()
    for casting, rows in pairs(ref.can_cast) do
      for r, row in ipairs(rows) do
        for c = 1, 14 do
          local want = row:sub(c, c) == "1"
          local what = ("can_cast(%s, %s, %s)"):format(NAMES[r], NAMES[c], casting)
          assert.equal(want, ga.can_cast(NAMES[r], NAMES[c], casting), what)
          assert.equal(want, ga.can_cast(ga[NAMES[r]], ga[NAMES[c]], { casting = casting }), what)
          assert.equal(want, ga.can_cast(ga[NAMES[r]](0), NAMES[c], casting), what .. " (typed scalar)")
          if casting == "safe" then assert.equal(want, ga.can_cast(NAMES[r], NAMES[c]), what) end
        end
      end
    end
  end)

  it("takes an ndarray's dtype", function()
    local x = ga.empty(0, "int16")
    assert.is_true(ga.can_cast(x, "float32"))
    assert.is_false(ga.can_cast(x, "float16"))
    assert.is_true(ga.can_cast(x, "int8", "same_kind"))
    assert.equal("float32", ga.finfo(ga.empty(0, "complex64")).dtype)
    assert.equal(16, ga.iinfo(x).bits)
    assert.equal("float32", ga.promote_types(x, "float16"))
  end)

  it("refuses Lua numbers (NumPy 2 refuses Python scalars), bad castings and options", function()
    helper.assert_gaerror(function() ga.can_cast(7, "int8") end, "can_cast: a Lua number has no dtype of its own")
    helper.assert_gaerror(function() ga.can_cast(true, "int8") end, "can_cast: a Lua boolean has no dtype")
    helper.assert_gaerror(function() ga.can_cast("int8", "int16", "safer") end,
                          "can_cast: casting must be one of \"no\", \"equiv\", \"safe\", \"same_kind\", "
                          .. "\"unsafe\" or nil, got \"safer\" (did you mean \"safe\"?)")
    helper.assert_gaerror(function() ga.can_cast("int8", "int16", { castin = "safe" }) end,
                          "can_cast: unknown option 'castin'")
    helper.assert_gaerror(function() ga.can_cast("int8", "int16", { casting = 1 }) end, "can_cast: casting must be")
    helper.assert_gaerror(function() ga.can_cast("int8") end, "can_cast: missing argument 'to'")
    helper.assert_gaerror(function() ga.can_cast("int8", "int16", "safe", 1) end,
                          "can_cast: too many arguments (at most 3, got 4)")
    helper.assert_gaerror(function() ga.can_cast("int9", "int16") end, "unknown dtype 'int9'")
  end)
end)

describe("finfo and iinfo", function()
  it("describe the float formats as np.finfo (complex: the component float)", function()
    for name, want in pairs(ref.finfo) do
      local f = ga.finfo(name)
      for k, v in pairs(want) do assert.equal(v, f[k], name .. "." .. k) end
      assert.same(f, ga.finfo(ga[name]))
      assert.same(f, ga.finfo(ga[name](0)))
    end
    -- the limits are the dtype's own values
    assert.equal(ga.finfo("float16").max, ga.float16(65504):item())
    helper.assert_gaerror(function() ga.float32(ga.finfo("float64").max) end, "does not fit float32")
    assert.equal(ga.finfo("float32").max, ga.float32(ga.finfo("float32").max):item())
  end)

  it("describe the integer types as np.iinfo; uint64's max is an exact uint64 scalar", function()
    for name, want in pairs(ref.iinfo) do
      local i = ga.iinfo(name)
      assert.equal(want.bits, i.bits)
      assert.equal(name, i.dtype)
      assert.equal(ga.dtype(name).kind, i.kind)
      assert.equal(want.min, tostring(i.min))
      if name == "uint64" then
        assert.equal("uint64(" .. want.max .. ")", tostring(i.max))
        assert.equal("uint64(0)", tostring(i.max + 1))
      else
        assert.equal(want.max, tostring(i.max))
        assert.equal("integer", math.type(i.max))
      end
      assert.same(i.bits, ga.iinfo(ga[name]).bits)
    end
  end)

  it("refuse the other kinds", function()
    helper.assert_gaerror(function() ga.finfo("int32") end, "finfo: int32 is not a float or complex dtype")
    helper.assert_gaerror(function() ga.finfo("bool") end, "finfo: bool is not a float")
    helper.assert_gaerror(function() ga.iinfo("float32") end, "iinfo: float32 is not an integer dtype")
    helper.assert_gaerror(function() ga.iinfo("bool") end, "iinfo: bool is not an integer dtype")
    helper.assert_gaerror(function() ga.finfo(1.5) end, "finfo: a Lua number has no dtype of its own")
    helper.assert_gaerror(function() ga.iinfo() end, "iinfo: missing argument 'dtype'")
    helper.assert_gaerror(function() ga.finfo("float32", 1) end, "finfo: too many arguments (at most 1, got 2)")
  end)
end)

describe("is_ndarray", function()
  it("is false for everything that is no ndarray", function()
    for _, v in ipairs({ 1, 1.5, "x", true, {}, { 1, 2 }, ga.float32, ga.float32(1), print, ga }) do
      assert.is_false(ga.is_ndarray(v))
    end
    assert.is_false(ga.is_ndarray(nil))
    assert.is_false(ga.is_ndarray())
    -- a pinned host array is array-like but no ndarray (this one over malloc'ed memory, no GPU)
    assert.is_false(ga.is_ndarray(ga._core._test.pinned_empty({ 3 })))
  end)

  it("is true for ndarrays (zero-size ones need no GPU)", function()
    local x = ga.empty({ 0, 2 }, "float32")
    assert.is_true(ga.is_ndarray(x))
    assert.is_true(ga.is_ndarray(x:reshape(2, 0)))
    assert.is_true(ga.is_ndarray(ga.int8(1) + ga.empty(0, "int8")))
  end)

  helper.gpu_it("is true for ndarrays, views and freed arrays", function()
    local x = ga.zeros({ 2, 3 })
    assert.is_true(ga.is_ndarray(x))
    assert.is_true(ga.is_ndarray(x[1]))
    assert.is_true(ga.is_ndarray(x:reshape(3, 2)))
    assert.is_false(ga.is_ndarray(ga.pinned_empty(3)))
    x:free()
    assert.is_true(ga.is_ndarray(x))
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
