-- Printing: NumPy's repr and array2string text of random arrays (dtypes,
-- shapes, summaries, print options: spec/io/print_cases.lua, written by
-- print_cases.py with NumPy) laid out from Lua values (no GPU);
-- format_float_positional/scientific against NumPy's strings; the print
-- options' state; then tostring, array2string, array_str, array_repr of
-- device arrays (GPU).
local helper = require "helper"
local ga = helper.ga
local P = require("gpuarray.internal").printing

describe("printing without a device", function()
  it("lays out values as NumPy's repr and array2string do", function()
    local cases = dofile("spec/io/print_cases.lua")
    assert.is_true(#cases >= 50)
    for i, c in ipairs(cases) do
      local o = P.merged(c.opts)
      local what = ("case %d: %s {%s}"):format(i, c.dtype, table.concat(c.shape, ","))
      assert.equal(c["repr"], P.repr({ shape = c.shape, dtype = c.dtype, size = c.size, values = c.values }, o), what)
      assert.equal(c.str, P.layout(c.values, c.shape, c.dtype, o, " ", "", "", c.size > o.threshold), what)
    end
  end)

  it("formats floats as NumPy's Dragon4 does", function()
    local f, s = ga.format_float_positional, ga.format_float_scientific
    local pos = {
      { 0.1, {}, "0.1" }, { 1 / 3, { precision = 4 }, "0.3333" }, { ga.float32(0.1), {}, "0.1" },
      { ga.float16(0.1), {}, "0.1" }, { 1e16, {}, "10000000000000000." },
      { 123.456, { unique = false, precision = 5 }, "123.45600" },
      { 0.30000000000000004, { precision = 8 }, "0.30000000" }, { -0.0, {}, "-0." },
      { 2.0, { trim = "-" }, "2" }, { 2.0, { trim = "0" }, "2.0" }, { 2.0, { trim = "." }, "2." },
      { 1.5, { min_digits = 4 }, "1.5000" }, { 93.6, { precision = 1, unique = false, fractional = false }, "90." },
      { 5e-324, { precision = 8 }, "0.00000000" }, { 12.5, { pad_left = 5, pad_right = 4 }, "   12.5   " },
      { 7.0, { sign = true }, "+7." }, { 0 / 0, {}, "nan" }, { -1 / 0, {}, "-inf" },
    }
    for _, c in ipairs(pos) do assert.equal(c[3], f(c[1], c[2]), c[3]) end
    local sci = {
      { 0.1, {}, "1.e-01" }, { 1 / 3, { precision = 4 }, "3.3333e-01" }, { ga.float32(0.1), {}, "1.e-01" },
      { 1e16, {}, "1.e+16" }, { 123.456, { unique = false, precision = 5 }, "1.23456e+02" },
      { 2.0, { trim = "-" }, "2e+00" }, { 1.5, { min_digits = 4 }, "1.5000e+00" },
      { 1e-300, { exp_digits = 4 }, "1.e-0300" },
      { -12345.678, { precision = 2, sign = true, pad_left = 4 }, "  -1.23e+04" },
    }
    for _, c in ipairs(sci) do assert.equal(c[3], s(c[1], c[2]), c[3]) end
    helper.assert_gaerror(function() f(1.5, { precision = 1, min_digits = 2 }) end,
      "min_digits must be less than or equal to precision")
    helper.assert_gaerror(function() f(1.5, { unique = false }) end, "precision must be given")
    helper.assert_gaerror(function() f(1.5, { trim = "x" }) end, "trim must be")
    helper.assert_gaerror(function() f(ga.int32(3)) end, "not a floating point value")
    -- plain Lua errors before (fuzz decl seed 20261127): printf takes 99 digits, string.rep 2^53 spaces no more
    helper.assert_gaerror(function() s(1, { pad_left = 9007199254740992 }) end,
      "format_float_scientific: pad_left = 9007199254740992 is more than 16777216 characters")
    helper.assert_gaerror(function() s(1 / 3, { precision = 120, unique = false }) end,
      "format_float_scientific: precision = 120 is more than the 99 digits")
    helper.assert_gaerror(function() f(1 / 3, { min_digits = 100 }) end, "min_digits = 100 is more than the 99")
    helper.assert_gaerror(function() f(1 / 3, { pad_right = 1 << 40 }) end, "pad_right = 1099511627776 is more")
    -- np.format_float_positional(1/3, precision=99, unique=False); (5e-324, precision=80)
    assert.equal("0.3333333333333333148296162562473909929394721984863281250000000000000000000000000000000000000000"
                 .. "00000", f(1 / 3, { precision = 99, unique = false }))
    assert.equal("0." .. ("0"):rep(80), f(5e-324, { precision = 80 }))
  end)

  it("keeps print options per state; printoptions restores them, also after an error", function()
    local before = ga.get_printoptions()
    assert.equal(8, before.precision)
    assert.equal(1000, before.threshold)
    assert.equal("maxprec", before.floatmode)
    local seen = ga.printoptions(function() return ga.get_printoptions().precision end, { precision = 3 })
    assert.equal(3, seen)
    assert.equal(8, ga.get_printoptions().precision)
    local ok = pcall(ga.printoptions, function() error("inside", 0) end, { linewidth = 20 })
    assert.is_false(ok)
    assert.equal(75, ga.get_printoptions().linewidth)
    ga.set_printoptions({ precision = 4, suppress = true })
    local o = P.merged()
    assert.equal(4, o.precision)
    assert.is_true(o.suppress)
    assert.equal("[0.1235 1.    ]", P.layout({ 0.123456, 1 }, { 2 }, "float64", o, " ", "", "", false))
    ga.set_printoptions(8, nil, nil, nil, false)
    assert.equal(8, ga.get_printoptions().precision)
    helper.assert_gaerror(function() ga.set_printoptions({ floatmode = "exact" }) end, "floatmode must be")
    helper.assert_gaerror(function() ga.set_printoptions({ precision = -1 }) end, "precision must be non-negative")
    helper.assert_gaerror(function() ga.set_printoptions({ sign = "*" }) end, "sign must be")
    for k, v in pairs(before) do
      if k ~= "formatter" and k ~= "override_repr" then assert.equal(v, ga.get_printoptions()[k], k) end
    end
  end)
end)

describe("printing on the GPU", function()
  helper.gpu_it("tostring, array2string, array_str and array_repr of device arrays honour the options", function()
    local x = ga.array({ 1 / 3, 2.5, -1e-3 }, "float64")
    -- values from NumPy: max/min above 1000 makes the whole array scientific
    assert.equal("array([ 3.33333333e-01,  2.50000000e+00, -1.00000000e-03])", tostring(x))
    ga.printoptions(function()
      assert.equal("array([ 3.333e-01,  2.500e+00, -1.000e-03])", tostring(x))
      assert.equal("[ 3.333e-01  2.500e+00 -1.000e-03]", ga.array_str(x))
    end, { precision = 3 })
    assert.equal("array([1., 2.], dtype=float32)", tostring(ga.array({ 1, 2 }, "float32")))
    assert.equal("[1|2]", ga.array2string(ga.array({ 1, 2 }, "int8"), { separator = "|" }))
    assert.equal("0.1", ga.array_str(ga.array(0.1)))
    assert.equal("0.1", ga.array_str(ga.array(0.1, "float32")))
    assert.equal("(1+2j)", ga.array_str(ga.array({ 1, 2 }, "complex128"):reshape({})))
    assert.equal("array(7)", ga.array_repr(ga.array(7)))
    assert.equal("array([], dtype=float64)", tostring(ga.empty(0)))
    assert.equal("array([], shape={0,3}, dtype=float32)", tostring(ga.empty({ 0, 3 }, "float32")))
    local big = ga.arange(2000)
    ga.printoptions(function()
      assert.equal("array([   0, ..., 1999])", tostring(big))
    end, { threshold = 10, edgeitems = 1 })
    assert.equal("[   0    1    2 ... 1997 1998 1999]", ga.array2string(big, { threshold = 100 }))
    ga.printoptions(function()
      assert.equal("array([X, X])", tostring(ga.array({ 1.5, 2.5 })))
    end, { formatter = { float = function() return "X" end } })
    ga.printoptions(function()
      assert.equal("custom", tostring(x))
    end, { override_repr = function() return "custom" end })
  end)
end)
