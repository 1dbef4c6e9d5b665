-- ndarray operators: arithmetic and bitwise metamethods, comparison
-- methods, < and <= on 0-d arrays, the in-place methods; result dtypes
-- follow ga.result_type with Lua numbers as weak scalars.
local helper = require "helper"
local ga = helper.ga

local function mt() return debug.getregistry()["gpuarray.ndarray"] end

describe("operators", function()
  it("installs the metamethods and methods (no __eq: == is identity)", function()
    for _, k in ipairs { "__add", "__sub", "__mul", "__div", "__idiv", "__mod", "__pow", "__unm", "__band",
                         "__bor", "__bxor", "__shl", "__shr", "__bnot", "__lt", "__le" } do
      assert.is_function(mt()[k], k)
    end
    assert.is_nil(mt().__eq)
    for _, k in ipairs { "eq", "ne", "lt", "le", "gt", "ge", "add_", "sub_", "mul_", "div_", "pow_" } do
      assert.is_function(ga.methods[k], k)
    end
  end)

  it("checks arguments before touching the device", function()
    helper.assert_gaerror(function() return mt().__add("a", 1) end, "add: argument 1 must be an ndarray or a number")
    helper.assert_gaerror(function() return mt().__lt({}, 1) end, "<: cannot compare")
    helper.assert_gaerror(function() return mt().__band(1.5, 1) end, "bitwise_and: not supported for float64")
  end)

  local function vals(x) return x:totable() end

  helper.gpu_it("mixes arrays and Lua integers and floats with NumPy's result dtypes", function()
    local f32 = ga.array({ 1, 2, 3 }, "float32")
    local i32 = ga.array({ 4, -5, 6 }, "int32")
    local i8 = ga.array({ 1, 2, 3 }, "int8")
    local u8 = ga.array({ 1, 2, 3 }, "uint8")
    local cases = {
      { f32 + 1, "float32", { 2, 3, 4 } }, { f32 * 2.5, "float32", { 2.5, 5, 7.5 } },
      { i32 + 1, "int32", { 5, -4, 7 } }, { i32 * 0.5, "float64", { 2, -2.5, 3 } },
      { 1 - i32, "int32", { -3, 6, -5 } }, { 10 / i32, "float64", { 2.5, -2, 10 / 6 } },
      { i32 / 2, "float64", { 2, -2.5, 3 } }, { i32 // 4, "int32", { 1, -2, 1 } },
      { i32 % 4, "int32", { 0, 3, 2 } }, { -7 // i32, "int32", { -2, 1, -2 } },
      { i32 ^ 2, "int32", { 16, 25, 36 } }, { f32 ^ 2, "float32", { 1, 4, 9 } },
      { 2 ^ f32, "float32", { 2, 4, 8 } }, { -i32, "int32", { -4, 5, -6 } },
      { i8 + u8, "int16", { 2, 4, 6 } }, { i8 + 127, "int8", { -128, -127, -126 } },
      { u8 - 1, "uint8", { 0, 1, 2 } }, { f32 + i32, "float64", { 5, -3, 9 } },
      { i32 & 6, "int32", { 4, 2, 6 } }, { i32 | 1, "int32", { 5, -5, 7 } },
      { i32 ~ 3, "int32", { 7, -8, 5 } }, { i32 << 2, "int32", { 16, -20, 24 } },
      { i32 >> 1, "int32", { 2, -3, 3 } }, { ~i32, "int32", { -5, 4, -7 } },
      { 1 << u8, "uint8", { 2, 4, 8 } }, { f32 % 2, "float32", { 1, 0, 1 } },
      { -f32 // 2, "float32", { -1, -1, -2 } },
    }
    for k, c in ipairs(cases) do
      assert.equal(c[2], c[1].dtype, "case " .. k)
      helper.assert_same(c[3], vals(c[1]), 1e-6)
    end
    local b = ga.array({ true, false, true }, "bool")
    local c = ga.array({ true, true, false }, "bool")
    assert.same({ "bool", { true, true, true } }, { (b + c).dtype, vals(b + c) })
    assert.same({ true, false, false }, vals(b & c))
    assert.same({ true, true, true }, vals(b | c))
    assert.same({ false, true, true }, vals(b ~ c))
    assert.same({ false, true, false }, vals(~b))
    assert.equal("int64", (b + 1).dtype)
    helper.assert_gaerror(function() return i8 + 128 end, "add: Lua integer 128 does not fit int8")
    helper.assert_gaerror(function() return u8 + (-1) end, "does not fit uint8")
    helper.assert_gaerror(function() return f32 & 1 end, "bitwise_and: not supported for float32")
    helper.assert_gaerror(function() return ~f32 end, "invert: not supported for float32")
    helper.assert_gaerror(function() return f32 << 1 end, "left_shift: not supported")
    helper.assert_gaerror(function() return b - c end, "boolean subtract")
    helper.assert_gaerror(function() return -b end, "boolean negative")
    assert.same({ 1, 2, 3 }, vals(f32))
  end)

  helper.gpu_it("gives 0-d arrays for 0-d operands", function()
    local x = ga.array(3, "int64")
    local r = x * 2 + 1
    assert.same({ 0, "int64", 7 }, { r.ndim, r.dtype, r:item() })
    local f = 2.5 * ga.array(2, "float32")
    assert.same({ 0, "float32", 5 }, { f.ndim, f.dtype, f:item() })
  end)

  helper.gpu_it("compares element-wise with methods", function()
    local x = ga.array({ 1, 5, 3, 0 / 0 }, "float64")
    local y = ga.array({ 2, 5, 1, 1 }, "float64")
    assert.same({ true, false, false, false }, vals(x:lt(y)))
    assert.same({ true, true, false, false }, vals(x:le(y)))
    assert.same({ false, false, true, false }, vals(x:gt(y)))
    assert.same({ false, true, true, false }, vals(x:ge(y)))
    assert.same({ false, true, false, false }, vals(x:eq(y)))
    assert.same({ true, false, true, true }, vals(x:ne(y)))
    assert.same({ true, false, false, false }, vals(x:lt(3)))
    assert.equal("bool", x:lt(3).dtype)
    assert.same({ false, true, true, false }, vals(ga.greater(x, 2)))
    local big = ga.array({ (1 << 62) + 1 }, "int64")
    assert.same({ true }, vals(big:gt(1 << 62)))      -- exact: compared as int64, not as float
  end)

  helper.gpu_it("compares 0-d arrays with < and <= (synchronizing) and refuses other arrays", function()
    local a, b = ga.array(3, "int32"), ga.array(5.5, "float64")
    assert.is_true(a < b)
    assert.is_true(a <= 3)
    assert.is_false(b < a)
    assert.is_true(b > a)
    assert.is_true(2 < a)
    assert.is_false(a >= 4)
    assert.is_false(ga.array(0 / 0) < 1)
    assert.is_true(ga.array((1 << 62) + 1, "int64") > (1 << 62))
    assert.is_true(ga.array(-1, "int8") < ga.array(255, "uint8"))
    assert.is_true(ga.array(1, "uint64") <= ga.float32(1))
    local v = ga.array({ 1, 2 })
    helper.assert_gaerror(function() return v < v end,
      "gpuarray: < on arrays: use x:lt(y) (or le, gt, ge) for element-wise comparison")
    helper.assert_gaerror(function() return v < 1 end, "use x:lt(y)")
    helper.assert_gaerror(function() return 1 < v end, "use x:lt(y)")
    helper.assert_gaerror(function() return v <= v end, "<= on arrays: use x:le(y)")
    helper.assert_gaerror(function() return v > a end, "on arrays")
    -- == is identity
    assert.is_true(v == v)
    assert.is_false(v == v:copy())
    assert.is_false(a == ga.array(3, "int32"))
  end)

  helper.gpu_it("updates in place with add_ sub_ mul_ div_ pow_ and returns the array", function()
    local x = ga.array({ 1, 2, 3 }, "float32")
    assert.is_true(rawequal(x, x:add_(1)))
    assert.same({ 2, 3, 4 }, vals(x))
    x:sub_(ga.array({ 1, 1, 1 }, "float32")):mul_(3)
    assert.same({ 3, 6, 9 }, vals(x))
    x:div_(2)
    assert.same({ 1.5, 3, 4.5 }, vals(x))
    x:pow_(2)
    assert.same({ 2.25, 9, 20.25 }, vals(x))
    assert.equal("float32", x.dtype)
    x:add_(x)                                 -- aliasing: element for element
    assert.same({ 4.5, 18, 40.5 }, vals(x))
    local m = ga.array({ { 1, 2 }, { 3, 4 } }, "int64")
    m:add_(ga.array({ 10, 20 }, "int64"))     -- broadcast into x
    assert.same({ { 11, 22 }, { 13, 24 } }, vals(m))
    m:add_(m.T)                               -- overlapping transposed view: read first
    assert.same({ { 22, 35 }, { 35, 48 } }, vals(m))
    local i = ga.array({ 1, 2 }, "int32")
    helper.assert_gaerror(function() i:add_(1.5) end, "cannot cast the float64 result to the int32 output")
    helper.assert_gaerror(function() i:div_(2) end, "cannot cast the float64 result to the int32 output")
    helper.assert_gaerror(function() i:add_(ga.ones({ 3, 2 }, "int32")) end, "broadcast shape")
    assert.same({ 1, 2 }, vals(i))
    i:mul_(ga.array({ 3, 4 }, "int8"))        -- int8 into int32: fine
    assert.same({ 3, 8 }, vals(i))
  end)
end)
