-- CuPy-style kernel parameter lists (src/core/params.c): parsing, placeholders,
-- reserved names and the errors. Runs without a GPU.
local helper = require "helper"
local ga = helper.ga
local core = ga._core

local parse = core._test.parse_params

describe("kernel parameter lists", function()
  it("parses typed, placeholder and raw parameters", function()
    local p = parse("float32 x, T y, raw T z")
    assert.equal(3, #p)
    assert.same({ name = "x", type = "float32", dtype = "float32", raw = false }, p[1])
    assert.same({ name = "y", type = "T", raw = false }, p[2])
    assert.same({ name = "z", type = "T", raw = true }, p[3])
  end)

  it("accepts every dtype name as a fixed type", function()
    for _, name in ipairs(ga.dtype_names()) do
      local p = parse(name .. " v")
      assert.equal(name, p[1].dtype)
    end
  end)

  it("takes one-letter placeholders and free spacing", function()
    local p = parse("  X  a ,Y   b,\n\traw  Z\tc  ")
    assert.equal(3, #p)
    assert.same({ "X", "Y", "Z" }, { p[1].type, p[2].type, p[3].type })
    assert.same({ "a", "b", "c" }, { p[1].name, p[2].name, p[3].name })
    assert.is_true(p[3].raw)
    helper.assert_gaerror(function() parse("Tin value") end, "unknown type 'Tin'")
  end)

  it("gives an empty list for an empty string", function()
    assert.same({}, parse(""))
    assert.same({}, parse("   "))
  end)

  it("rejects reserved names", function()
    for _, s in ipairs { "float32 i", "T _x", "raw T _raw_y" } do
      helper.assert_gaerror(function() parse(s) end, "reserved")
    end
  end)

  it("rejects duplicate names", function()
    helper.assert_gaerror(function() parse("float32 x, T x") end, "'x' is used twice")
  end)

  it("rejects malformed parameters, naming them", function()
    helper.assert_gaerror(function() parse("float32") end, "parameter 1 ('float32')")
    helper.assert_gaerror(function() parse("float32 x,") end, "parameter 2 is empty")
    helper.assert_gaerror(function() parse("float32 x,, T y") end, "parameter 2 is empty")
    helper.assert_gaerror(function() parse("const float32 x") end, "unknown keyword 'const'")
    helper.assert_gaerror(function() parse("raw float32 x y") end, "expected '[raw] type name'")
    helper.assert_gaerror(function() parse("float32 *x") end, "unexpected character '*'")
    helper.assert_gaerror(function() parse("float32 x[3]") end, "unexpected character '['")
    helper.assert_gaerror(function() parse("raw x") end, "expected '[raw] type name'")
    helper.assert_gaerror(function() parse("float32 9x") end, "unexpected character '9'")
  end)

  it("points C type names to the dtype to write", function()
    helper.assert_gaerror(function() parse("float x") end, "write the dtype (float32)")
    helper.assert_gaerror(function() parse("double x") end, "(float64)")
    helper.assert_gaerror(function() parse("int x") end, "(int32)")
  end)

  it("limits identifiers and parameter counts", function()
    helper.assert_gaerror(function() parse("float32 " .. ("a"):rep(80)) end, "too long")
    local many = {}
    for k = 1, 33 do many[k] = "float32 p" .. k end
    helper.assert_gaerror(function() parse(table.concat(many, ", ")) end, "more than 32 parameters")
  end)
end)
