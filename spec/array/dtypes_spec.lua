-- The dtype routines made in Lua (lua/gpuarray/array/dtypes.lua):
-- min_scalar_type, common_type, issubdtype, isdtype, typename and
-- mintypecode against NumPy 1.24's answers, computed with NumPy and written
-- here (isdtype is NumPy 2's, after the array API's kind names: NumPy 1.24
-- has none). No device: typed scalars and empty arrays carry the dtypes.
local helper = require "helper"
local ga = helper.ga

local function char_dtype(c)
  for _, n in ipairs(ga.dtype_names()) do
    if ga.dtype(n).char == c then return n end
  end
  error("no dtype for " .. c)
end

-- common_type(a, b) over every pair of non-bool dtypes, NumPy 1.24: one type
-- character a result, b in the order of COLUMNS
local COLUMNS = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                  "float16", "float32", "float64", "complex64", "complex128" }
local COMMON = {
  int8 = "dddddddddddDD",
  int16 = "dddddddddddDD",
  int32 = "dddddddddddDD",
  int64 = "dddddddddddDD",
  uint8 = "dddddddddddDD",
  uint16 = "dddddddddddDD",
  uint32 = "dddddddddddDD",
  uint64 = "dddddddddddDD",
  float16 = "ddddddddefdFD",
  float32 = "ddddddddffdFD",
  float64 = "dddddddddddDD",
  complex64 = "DDDDDDDDFFDFD",
  complex128 = "DDDDDDDDDDDDD",
}

-- typed scalars: { dtype, value, NumPy's min_scalar_type(np.<dtype>(value)) }
local TYPED = {
  { "int8", 0, "uint8" },
  { "int8", 1, "uint8" },
  { "int8", -1, "int8" },
  { "int8", 127, "uint8" },
  { "int8", -128, "int8" },
  { "int16", 0, "uint8" },
  { "int16", 1, "uint8" },
  { "int16", -1, "int8" },
  { "int16", 127, "uint8" },
  { "int16", 128, "uint8" },
  { "int16", 200, "uint8" },
  { "int16", 255, "uint8" },
  { "int16", 256, "uint16" },
  { "int16", 300, "uint16" },
  { "int16", -128, "int8" },
  { "int16", -129, "int16" },
  { "int16", -200, "int16" },
  { "int16", 32767, "uint16" },
  { "int16", -32768, "int16" },
  { "int32", 0, "uint8" },
  { "int32", 1, "uint8" },
  { "int32", -1, "int8" },
  { "int32", 127, "uint8" },
  { "int32", 128, "uint8" },
  { "int32", 200, "uint8" },
  { "int32", 255, "uint8" },
  { "int32", 256, "uint16" },
  { "int32", 300, "uint16" },
  { "int32", -128, "int8" },
  { "int32", -129, "int16" },
  { "int32", -200, "int16" },
  { "int32", 32767, "uint16" },
  { "int32", 32768, "uint16" },
  { "int32", 65535, "uint16" },
  { "int32", 65536, "uint32" },
  { "int32", -32768, "int16" },
  { "int32", -32769, "int32" },
  { "int32", 2147483647, "uint32" },
  { "int32", -2147483648, "int32" },
  { "int64", 0, "uint8" },
  { "int64", 1, "uint8" },
  { "int64", -1, "int8" },
  { "int64", 127, "uint8" },
  { "int64", 128, "uint8" },
  { "int64", 200, "uint8" },
  { "int64", 255, "uint8" },
  { "int64", 256, "uint16" },
  { "int64", 300, "uint16" },
  { "int64", -128, "int8" },
  { "int64", -129, "int16" },
  { "int64", -200, "int16" },
  { "int64", 32767, "uint16" },
  { "int64", 32768, "uint16" },
  { "int64", 65535, "uint16" },
  { "int64", 65536, "uint32" },
  { "int64", -32768, "int16" },
  { "int64", -32769, "int32" },
  { "int64", 2147483647, "uint32" },
  { "int64", 2147483648, "uint32" },
  { "int64", -2147483648, "int32" },
  { "int64", -2147483649, "int64" },
  { "int64", 4294967295, "uint32" },
  { "int64", 4294967296, "uint64" },
  { "int64", 9223372036854775807, "uint64" },
  { "int64", math.mininteger, "int64" },
  { "uint8", 0, "uint8" },
  { "uint8", 1, "uint8" },
  { "uint8", 127, "uint8" },
  { "uint8", 128, "uint8" },
  { "uint8", 200, "uint8" },
  { "uint8", 255, "uint8" },
  { "uint16", 0, "uint8" },
  { "uint16", 1, "uint8" },
  { "uint16", 127, "uint8" },
  { "uint16", 128, "uint8" },
  { "uint16", 200, "uint8" },
  { "uint16", 255, "uint8" },
  { "uint16", 256, "uint16" },
  { "uint16", 300, "uint16" },
  { "uint16", 32767, "uint16" },
  { "uint16", 32768, "uint16" },
  { "uint16", 65535, "uint16" },
  { "uint32", 0, "uint8" },
  { "uint32", 1, "uint8" },
  { "uint32", 127, "uint8" },
  { "uint32", 128, "uint8" },
  { "uint32", 200, "uint8" },
  { "uint32", 255, "uint8" },
  { "uint32", 256, "uint16" },
  { "uint32", 300, "uint16" },
  { "uint32", 32767, "uint16" },
  { "uint32", 32768, "uint16" },
  { "uint32", 65535, "uint16" },
  { "uint32", 65536, "uint32" },
  { "uint32", 2147483647, "uint32" },
  { "uint32", 2147483648, "uint32" },
  { "uint32", 4294967295, "uint32" },
  { "uint64", 0, "uint8" },
  { "uint64", 1, "uint8" },
  { "uint64", 127, "uint8" },
  { "uint64", 128, "uint8" },
  { "uint64", 200, "uint8" },
  { "uint64", 255, "uint8" },
  { "uint64", 256, "uint16" },
  { "uint64", 300, "uint16" },
  { "uint64", 32767, "uint16" },
  { "uint64", 32768, "uint16" },
  { "uint64", 65535, "uint16" },
  { "uint64", 65536, "uint32" },
  { "uint64", 2147483647, "uint32" },
  { "uint64", 2147483648, "uint32" },
  { "uint64", 4294967295, "uint32" },
  { "uint64", 4294967296, "uint64" },
  { "uint64", 9223372036854775807, "uint64" },
  { "float16", 0.0, "float16" },
  { "float16", -0.0, "float16" },
  { "float16", 1.5, "float16" },
  { "float16", 64999.0, "float16" },
  { "float16", 65000.0, "float16" },
  { "float16", -65000.0, "float16" },
  { "float16", math.huge, "float16" },
  { "float16", -math.huge, "float16" },
  { "float16", 0 / 0, "float16" },
  { "float16", 1e-30, "float16" },
  { "float32", 0.0, "float16" },
  { "float32", -0.0, "float16" },
  { "float32", 1.5, "float16" },
  { "float32", 64999.0, "float16" },
  { "float32", 65000.0, "float32" },
  { "float32", -65000.0, "float32" },
  { "float32", 70000.0, "float32" },
  { "float32", 100000.0, "float32" },
  { "float32", 3.3e+38, "float32" },
  { "float32", math.huge, "float16" },
  { "float32", -math.huge, "float16" },
  { "float32", 0 / 0, "float16" },
  { "float32", 1e-30, "float16" },
  { "float64", 0.0, "float16" },
  { "float64", -0.0, "float16" },
  { "float64", 1.5, "float16" },
  { "float64", 64999.0, "float16" },
  { "float64", 65000.0, "float32" },
  { "float64", -65000.0, "float32" },
  { "float64", 70000.0, "float32" },
  { "float64", 100000.0, "float32" },
  { "float64", 3.3e+38, "float32" },
  { "float64", 3.5e+38, "float64" },
  { "float64", 1e+300, "float64" },
  { "float64", math.huge, "float16" },
  { "float64", -math.huge, "float16" },
  { "float64", 0 / 0, "float16" },
  { "float64", 1e-30, "float16" },
  { "complex64", { 0.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, 0.0 }, "complex64" },
  { "complex64", { 1.0, 0.0 }, "complex64" },
  { "complex64", { -0.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, -0.0 }, "complex64" },
  { "complex64", { 1.0, -0.0 }, "complex64" },
  { "complex64", { 1.5, 0.0 }, "complex64" },
  { "complex64", { 0.0, 1.5 }, "complex64" },
  { "complex64", { 1.0, 1.5 }, "complex64" },
  { "complex64", { 64999.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, 64999.0 }, "complex64" },
  { "complex64", { 1.0, 64999.0 }, "complex64" },
  { "complex64", { 65000.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, 65000.0 }, "complex64" },
  { "complex64", { 1.0, 65000.0 }, "complex64" },
  { "complex64", { -65000.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, -65000.0 }, "complex64" },
  { "complex64", { 1.0, -65000.0 }, "complex64" },
  { "complex64", { 70000.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, 70000.0 }, "complex64" },
  { "complex64", { 1.0, 70000.0 }, "complex64" },
  { "complex64", { 100000.0, 0.0 }, "complex64" },
  { "complex64", { 0.0, 100000.0 }, "complex64" },
  { "complex64", { 1.0, 100000.0 }, "complex64" },
  { "complex64", { 3.3e+38, 0.0 }, "complex64" },
  { "complex64", { 0.0, 3.3e+38 }, "complex64" },
  { "complex64", { 1.0, 3.3e+38 }, "complex64" },
  { "complex64", { math.huge, 0.0 }, "complex64" },
  { "complex64", { 0.0, math.huge }, "complex64" },
  { "complex64", { 1.0, math.huge }, "complex64" },
  { "complex64", { -math.huge, 0.0 }, "complex64" },
  { "complex64", { 0.0, -math.huge }, "complex64" },
  { "complex64", { 1.0, -math.huge }, "complex64" },
  { "complex64", { 0 / 0, 0.0 }, "complex64" },
  { "complex64", { 0.0, 0 / 0 }, "complex64" },
  { "complex64", { 1.0, 0 / 0 }, "complex64" },
  { "complex64", { 1e-30, 0.0 }, "complex64" },
  { "complex64", { 0.0, 1e-30 }, "complex64" },
  { "complex64", { 1.0, 1e-30 }, "complex64" },
  { "complex128", { 0.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, 0.0 }, "complex64" },
  { "complex128", { 1.0, 0.0 }, "complex64" },
  { "complex128", { -0.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, -0.0 }, "complex64" },
  { "complex128", { 1.0, -0.0 }, "complex64" },
  { "complex128", { 1.5, 0.0 }, "complex64" },
  { "complex128", { 0.0, 1.5 }, "complex64" },
  { "complex128", { 1.0, 1.5 }, "complex64" },
  { "complex128", { 64999.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, 64999.0 }, "complex64" },
  { "complex128", { 1.0, 64999.0 }, "complex64" },
  { "complex128", { 65000.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, 65000.0 }, "complex64" },
  { "complex128", { 1.0, 65000.0 }, "complex64" },
  { "complex128", { -65000.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, -65000.0 }, "complex64" },
  { "complex128", { 1.0, -65000.0 }, "complex64" },
  { "complex128", { 70000.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, 70000.0 }, "complex64" },
  { "complex128", { 1.0, 70000.0 }, "complex64" },
  { "complex128", { 100000.0, 0.0 }, "complex64" },
  { "complex128", { 0.0, 100000.0 }, "complex64" },
  { "complex128", { 1.0, 100000.0 }, "complex64" },
  { "complex128", { 3.3e+38, 0.0 }, "complex64" },
  { "complex128", { 0.0, 3.3e+38 }, "complex64" },
  { "complex128", { 1.0, 3.3e+38 }, "complex64" },
  { "complex128", { 3.5e+38, 0.0 }, "complex128" },
  { "complex128", { 0.0, 3.5e+38 }, "complex128" },
  { "complex128", { 1.0, 3.5e+38 }, "complex128" },
  { "complex128", { 1e+300, 0.0 }, "complex128" },
  { "complex128", { 0.0, 1e+300 }, "complex128" },
  { "complex128", { 1.0, 1e+300 }, "complex128" },
  { "complex128", { math.huge, 0.0 }, "complex128" },
  { "complex128", { 0.0, math.huge }, "complex128" },
  { "complex128", { 1.0, math.huge }, "complex128" },
  { "complex128", { -math.huge, 0.0 }, "complex128" },
  { "complex128", { 0.0, -math.huge }, "complex128" },
  { "complex128", { 1.0, -math.huge }, "complex128" },
  { "complex128", { 0 / 0, 0.0 }, "complex128" },
  { "complex128", { 0.0, 0 / 0 }, "complex128" },
  { "complex128", { 1.0, 0 / 0 }, "complex128" },
  { "complex128", { 1e-30, 0.0 }, "complex64" },
  { "complex128", { 0.0, 1e-30 }, "complex64" },
  { "complex128", { 1.0, 1e-30 }, "complex64" },
}
-- Lua values (integers as int64, floats as float64, {re, im} as complex128)
local VALUES = {
  { 0, "uint8" },
  { 1, "uint8" },
  { 255, "uint8" },
  { 256, "uint16" },
  { -1, "int8" },
  { -128, "int8" },
  { -129, "int16" },
  { 32767, "uint16" },
  { 32768, "uint16" },
  { 65535, "uint16" },
  { 65536, "uint32" },
  { -32769, "int32" },
  { 2147483647, "uint32" },
  { 2147483648, "uint32" },
  { 4294967295, "uint32" },
  { 4294967296, "uint64" },
  { -2147483649, "int64" },
  { 9223372036854775807, "uint64" },
  { math.mininteger, "int64" },
  { 0.0, "float16" },
  { 1.5, "float16" },
  { -3.1, "float16" },
  { 64999.0, "float16" },
  { 65000.0, "float32" },
  { 65504.0, "float32" },
  { -65000.0, "float32" },
  { 100000.0, "float32" },
  { 3.3e+38, "float32" },
  { 3.4e+38, "float64" },
  { -3.5e+38, "float64" },
  { 1e+300, "float64" },
  { math.huge, "float16" },
  { 0 / 0, "float16" },
  { -math.huge, "float16" },
  { 1e-10, "float16" },
  { 5e-324, "float16" },
  { true, "bool" },
  { false, "bool" },
  { { 1.0, 1.0 }, "complex64" },
  { { 1e+39, 0.0 }, "complex128" },
  { { 0.0, 1e+39 }, "complex128" },
  { { 0 / 0, 0.0 }, "complex128" },
  { { 3.3e+38, -3.3e+38 }, "complex64" },
}

-- issubdtype(a, b) is true exactly for these b (NumPy 1.24, every dtype and
-- abstract type as a)
local SUPER = {
  ["bool"] = { "bool", "generic" },
  int8 = { "int8", "generic", "number", "integer", "signedinteger" },
  int16 = { "int16", "generic", "number", "integer", "signedinteger" },
  int32 = { "int32", "generic", "number", "integer", "signedinteger" },
  int64 = { "int64", "generic", "number", "integer", "signedinteger" },
  uint8 = { "uint8", "generic", "number", "integer", "unsignedinteger" },
  uint16 = { "uint16", "generic", "number", "integer", "unsignedinteger" },
  uint32 = { "uint32", "generic", "number", "integer", "unsignedinteger" },
  uint64 = { "uint64", "generic", "number", "integer", "unsignedinteger" },
  float16 = { "float16", "generic", "number", "inexact", "floating" },
  float32 = { "float32", "generic", "number", "inexact", "floating" },
  float64 = { "float64", "generic", "number", "inexact", "floating" },
  complex64 = { "complex64", "generic", "number", "inexact", "complexfloating" },
  complex128 = { "complex128", "generic", "number", "inexact", "complexfloating" },
  generic = { "generic" },
  number = { "generic", "number" },
  integer = { "generic", "number", "integer" },
  signedinteger = { "generic", "number", "integer", "signedinteger" },
  unsignedinteger = { "generic", "number", "integer", "unsignedinteger" },
  inexact = { "generic", "number", "inexact" },
  floating = { "generic", "number", "inexact", "floating" },
  complexfloating = { "generic", "number", "inexact", "complexfloating" },
}

describe("dtype routines", function()
  it("min_scalar_type: Lua values, typed scalars and arrays as NumPy's", function()
    for _, c in ipairs(VALUES) do
      assert.equal(c[2], ga.min_scalar_type(c[1]), ("min_scalar_type(%s)"):format(
        type(c[1]) == "table" and ("{%s, %s}"):format(c[1][1], c[1][2]) or tostring(c[1])))
    end
    for _, c in ipairs(TYPED) do
      local s = type(c[2]) == "table" and ga[c[1]](c[2][1], c[2][2]) or ga[c[1]](c[2])
      assert.equal(c[3], ga.min_scalar_type(s), tostring(s))
    end
    -- uint64's largest value, past any Lua integer
    assert.equal("uint64", ga.min_scalar_type(ga.iinfo("uint64").max))
    -- an array of one dimension or more: its own dtype, whatever its values
    for _, dt in ipairs(ga.dtype_names()) do
      assert.equal(dt, ga.min_scalar_type(ga.empty({ 0, 3 }, dt)))
    end
    helper.assert_gaerror(function() ga.min_scalar_type("float32") end, "min_scalar_type: a must be a scalar")
    helper.assert_gaerror(function() ga.min_scalar_type(print) end, "got function")
  end)

  it("common_type: every pair of dtypes, one argument, none, typed scalars; bool raises", function()
    local empty = {}
    for _, n in ipairs(COLUMNS) do empty[n] = ga.empty(0, n) end
    for a, row in pairs(COMMON) do
      for j, b in ipairs(COLUMNS) do
        local want = char_dtype(row:sub(j, j))
        assert.equal(want, ga.common_type(empty[a], empty[b]), a .. ", " .. b)
        if a == b then assert.equal(want, ga.common_type(empty[a]), a) end
      end
    end
    assert.equal("float16", ga.common_type())                           -- NumPy's: float16
    assert.equal("float64", ga.common_type(empty.int8, empty.float16, empty.float32))
    assert.equal("complex64", ga.common_type(ga.float32(1), ga.complex64(1, 2)))
    helper.assert_gaerror(function() ga.common_type(ga.empty(0, "bool")) end,
                          "common_type: argument 1 is a bool array")
    helper.assert_gaerror(function() ga.common_type(empty.int8, 1.5) end,
                          "common_type: argument 2 must be an ndarray or a typed scalar, got number")
  end)

  it("issubdtype: NumPy's hierarchy for every dtype and abstract type", function()
    local all = {}
    for name in pairs(SUPER) do all[#all + 1] = name end
    for a, supers in pairs(SUPER) do
      local yes = {}
      for _, b in ipairs(supers) do yes[b] = true end
      for _, b in ipairs(all) do
        assert.equal(yes[b] == true, ga.issubdtype(a, b), a .. " under " .. b)
      end
    end
    -- dtype objects, typed scalars and ga.dtype's answer work as names do
    assert.is_true(ga.issubdtype(ga.float32, "floating"))
    assert.is_true(ga.issubdtype(ga.int8(3), ga.int8))
    assert.is_false(ga.issubdtype(ga.dtype("float64"), ga.float32))
    helper.assert_gaerror(function() ga.issubdtype("float", "floating") end,
                          'issubdtype: arg1 must be a dtype or one of the abstract types generic')
    helper.assert_gaerror(function() ga.issubdtype("float32", 5) end, "issubdtype: arg2 must be")
  end)

  it("isdtype: the array API's kind names, dtypes and lists of them", function()
    local KINDS = {
      ["bool"] = "b", ["signed integer"] = "i", ["unsigned integer"] = "u", ["integral"] = "iu",
      ["real floating"] = "f", ["complex floating"] = "c", ["numeric"] = "iufc",
    }
    for _, dt in ipairs(ga.dtype_names()) do
      local kind = ga.dtype(dt).kind
      for name, kinds in pairs(KINDS) do
        assert.equal(kinds:find(kind, 1, true) ~= nil, ga.isdtype(dt, name), dt .. " " .. name)
      end
      for _, other in ipairs(ga.dtype_names()) do
        assert.equal(dt == other, ga.isdtype(dt, other), dt .. " " .. other)
      end
      assert.equal(kind == "f" or kind == "c" or dt == "int8",
                   ga.isdtype(ga.dtype(dt), { "real floating", "complex floating", ga.int8 }), dt)
    end
    assert.is_false(ga.isdtype("float32", {}))
    helper.assert_gaerror(function() ga.isdtype("float32", "real") end,
                          'isdtype: kind "real" is no dtype and none of the kind names')
    helper.assert_gaerror(function() ga.isdtype("float32", { "numeric", 5 }) end, "isdtype: kind must be")
    helper.assert_gaerror(function() ga.isdtype("float", "numeric") end, "isdtype: dtype must be a dtype")
  end)

  it("typename and mintypecode: NumPy's type characters", function()
    local NAMES = {   -- np.typename, NumPy 1.24
      ["?"] = "bool", b = "signed char", B = "unsigned char", h = "short", H = "unsigned short",
      i = "integer", I = "unsigned integer", l = "long integer", L = "unsigned long integer",
      q = "long long integer", Q = "unsigned long long integer", f = "single precision",
      d = "double precision", g = "long precision", F = "complex single precision",
      D = "complex double precision", G = "complex long double precision", S = "string",
      U = "unicode", V = "void", O = "object", S1 = "character",
    }
    for c, name in pairs(NAMES) do assert.equal(name, ga.typename(c), c) end
    for _, dt in ipairs(ga.dtype_names()) do
      if dt ~= "float16" then assert.is_string(ga.typename(ga.dtype(dt).char), dt) end
    end
    helper.assert_gaerror(function() ga.typename("e") end, 'typename: no description for the type character "e"')
    -- np.mintypecode, NumPy 1.24
    assert.equal("d", ga.mintypecode({ "d", "f", "S" }))
    assert.equal("d", ga.mintypecode("fd"))
    assert.equal("D", ga.mintypecode({ "F", "d" }))
    assert.equal("d", ga.mintypecode({ "i", "l" }))             -- none in typeset: the default
    assert.equal("F", ga.mintypecode({ "f", "F" }))
    assert.equal("D", ga.mintypecode("idF", "GDFgdf"))
    assert.equal("D", ga.mintypecode({ "D", "F" }))
    assert.equal("x", ga.mintypecode({}, { default = "x" }))
    assert.equal("f", ga.mintypecode({ "e", "f" }))
    assert.equal("d", ga.mintypecode({ ga.empty(0, "float32"), "d" }))
    assert.equal("D", ga.mintypecode({ "f", "F", "d" }))
    assert.equal("d", ga.mintypecode({ ga.empty(0, "int8") }))
    assert.equal("l", ga.mintypecode({ "i", "l" }, "il"))
    assert.equal("b", ga.mintypecode({ "?", "b" }, { typeset = "?bB" }))
    -- NumPy raises too: "e" is not in its size order
    helper.assert_gaerror(function() ga.mintypecode({ "e", "f" }, "efd") end, "mintypecode: \"e\" has no place")
    helper.assert_gaerror(function() ga.mintypecode({ 5 }) end, "mintypecode: typechars entry 1 must be")
  end)

  it("are declared (ga.help) and have no structured-dtype helpers", function()
    for _, name in ipairs { "min_scalar_type", "common_type", "issubdtype", "isdtype", "typename", "mintypecode" } do
      assert.truthy(ga.help(name):find(name .. "(", 1, true), name)
    end
    assert.is_nil(ga.make_aligned_dtype)
    assert.is_nil(ga.format_parser)
  end)
end)
