-- The differential check against NumPy (tools/difftest): the generator
-- and the comparison run without a GPU; `make difftest` runs the programs.
package.path = "tools/?.lua;" .. package.path
local gen = require "difftest.gen"
local compare = require "difftest.compare"

describe("difftest generator", function()
  it("writes each program as loadable Lua and as Python, the same for a seed", function()
    local base = math.random(1, 1e6)
    for id = 1, 200 do
      local p = gen.program(id, base + id)
      local chunk, err = load(p.lua, "=program" .. id)
      assert.is_truthy(chunk, err)
      assert.is_function(chunk())
      assert.truthy(p.py:find("^def p" .. id .. "%(emit%):\n"))
      assert.truthy(p.lua:find("emit(", 1, true))
      local q = gen.program(id, base + id)
      assert.equal(p.lua, q.lua)
      assert.equal(p.py, q.py)
    end
  end)

  it("maps 1-based inclusive ranges to Python slices", function()
    local seen = {}
    for id = 1, 400 do
      local p = gen.program(id, 7000 + id)
      for l in p.lua:gmatch("%[{ ([^\n]-) }%]") do seen[#seen + 1] = l end
    end
    assert.is_true(#seen > 10)
  end)
end)

describe("difftest comparison", function()
  local function entry(dtype, shape, values) return { name = "v", dtype = dtype, shape = shape, values = values } end

  it("compares dtype, shape and values, floats within a tolerance", function()
    assert.is_true(compare.results({ entry("int32", "2", { "1", "2" }) }, { entry("int32", "2", { "1", "2" }) }))
    assert.is_false(compare.results({ entry("int32", "2", { "1", "3" }) }, { entry("int32", "2", { "1", "2" }) }))
    assert.is_false(compare.results({ entry("int64", "2", { "1", "2" }) }, { entry("int32", "2", { "1", "2" }) }))
    assert.is_false(compare.results({ entry("int32", "1,2", { "1", "2" }) }, { entry("int32", "2", { "1", "2" }) }))
    assert.is_true(compare.results({ entry("float32", "", { "0.1" }) }, { entry("float32", "", { "0.10000000149" }) }))
    assert.is_false(compare.results({ entry("float64", "", { "0.1" }) }, { entry("float64", "", { "0.1001" }) }))
    assert.is_true(compare.results({ entry("float64", "1", { "nan" }) }, { entry("float64", "1", { "nan" }) }))
    assert.is_false(compare.results({ entry("float64", "1", { "inf" }) }, { entry("float64", "1", { "-inf" }) }))
    assert.is_true(compare.results({ entry("complex64", "1", { "1.5:-2" }) },
                                   { entry("complex64", "1", { "1.5:-2.0" }) }))
  end)

  it("holds a value to the precision of the least precise value before it", function()
    -- program 265 of seed 1795506878: a complex64 power, then astype("float64")
    local ours = { entry("complex64", "1", { "-10.53277:2.1" }), entry("float64", "1", { "-9.2827701568603516" }) }
    local numpy = { entry("complex64", "1", { "-10.532769:2.1" }), entry("float64", "1", { "-9.282769203186035" }) }
    assert.is_true(compare.results(ours, numpy))
    -- alone, the float64 value is held to float64's tolerance
    assert.is_false(compare.results({ ours[2] }, { numpy[2] }))
  end)

  it("counts errors on both sides as agreement, and one-sided errors as failures", function()
    assert.is_true(compare.results({ { error = "x" } }, { { error = "y" } }))
    assert.is_false(compare.results({ entry("int32", "", { "1" }) }, { { error = "y" } }))
    assert.is_false(compare.results({ { error = "x" } }, { entry("int32", "", { "1" }) }))
  end)

  it("parses NumPy's output blocks", function()
    local b = compare.parse_blocks("@1\nv2\tfloat64\t2,1\t1.5 nan\n@2\n!error\tValueError: bad\n@3\nv1\tbool\t\t1\n")
    assert.same({ name = "v2", dtype = "float64", shape = "2,1", values = { "1.5", "nan" } }, b[1][1])
    assert.equal("ValueError: bad", b[2][1].error)
    assert.same({ "1" }, b[3][1].values)
    assert.equal("", b[3][1].shape)
  end)
end)
