-- The built-in ufuncs: definitions, NVRTC compilation of every loop, loop
-- resolution and promotion, layout classes (all without a GPU); values
-- against CPU references for every dtype family, special values,
-- broadcasting and layouts, out= and dtype= (on the GPU).
local helper = require "helper"
local R = require "ewref"
local ga = helper.ga
local core = ga._core

local UNARY = [[negative positive abs sign sqrt cbrt square reciprocal exp exp2 expm1
  log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh
  arccosh arctanh deg2rad rad2deg floor ceil trunc rint isnan isinf isfinite
  signbit logical_not invert conj real imag angle]]
local BINARY = [[add subtract multiply divide floor_divide remainder fmod power
  maximum minimum fmax fmin arctan2 hypot copysign logical_and logical_or
  logical_xor bitwise_and bitwise_or bitwise_xor left_shift right_shift
  equal not_equal less less_equal greater greater_equal]]

local function words(s)
  local t = {}
  for w in s:gmatch("%S+") do t[#t + 1] = w end
  return t
end

local function resolve(name, ...)
  return core.elementwise.resolve(ga[name], ...)
end

describe("ufuncs", function()
  it("defines every ufunc of docs/api.md §5 with its arity", function()
    for _, name in ipairs(words(UNARY)) do
      assert.is_not_nil(ga[name], name)
      assert.equal(1, ga[name].nin, name)
      assert.equal(1, ga[name].nout, name)
    end
    for _, name in ipairs(words(BINARY)) do
      assert.is_not_nil(ga[name], name)
      assert.equal(2, ga[name].nin, name)
    end
    assert.equal("add", ga.add.name)
    assert.equal("<ufunc 'add'>", tostring(ga.add))
    assert.equal(ga.abs, ga.absolute)
  end)

  it("lists its loops as NumPy-style signatures", function()
    local t = ga.add.types
    assert.equal("??->?", t[1])
    assert.equal("DD->D", t[#t])
    assert.equal(#t, ga.add.ntypes)
    local has = {}
    for _, s in ipairs(ga.abs.types) do has[s] = true end
    assert.is_true(has["F->f"] and has["D->d"] and has["e->e"])
  end)

  it("the CPU references of lcm and sinc give NumPy's values (NumPy 1.24, here)", function()
    -- lcm wraps |a| / gcd * |b| to the dtype; a float32 sinc rounds pi x to float32
    local cases = { { 127, 126, "int8", -126 }, { -128, 3, "int8", -128 }, { 100, -7, "int8", -68 },
                    { 255, 254, "uint8", 2 }, { 200, 3, "uint8", 88 }, { 30000, 29999, "int16", 29648 } }
    for _, c in ipairs(cases) do
      assert.equal(c[4], R.F.lcm(c[1], c[2], c[3]), ("lcm(%d, %d) %s"):format(c[1], c[2], c[3]))
    end
    local sinc32 = { { 3.8273983001709, -0.04291862994432449 }, { 1, -2.7827534054836178e-08 },
                     { 2, 2.7827534054836178e-08 }, { 0.5, 0.6366197466850281 }, { -3, -2.530538223410872e-09 } }
    for _, c in ipairs(sinc32) do
      assert.equal(c[2], R.F.sinc(helper.to_f32(c[1]), nil, "float32"), "sinc float32 " .. c[1])
    end
    assert.equal(0.00030803680419921875, R.F.sinc(1, nil, "float16"))
  end)

  describe("compile with NVRTC for sm_90", function()
    -- one program per ufunc: every loop (every dtype it supports), the
    -- first and last loops in every layout class
    for _, name in ipairs(require("gpuarray.internal").ufunc_names) do
      it(name, function()
        assert.is_true(core._test.compile(core._test.ufunc_source(ga[name]), nil, 90) > 0)
      end)
    end
  end)

  describe("loop resolution", function()
    it("promotes arrays as NumPy does", function()
      local cases = {
        { "add", "int8", "uint8", "int16" }, { "add", "int64", "uint64", "float64" },
        { "add", "float16", "int8", "float16" }, { "add", "float16", "int16", "float32" },
        { "add", "bool", "bool", "bool" }, { "add", "complex64", "float64", "complex128" },
        { "add", "uint32", "int32", "int64" }, { "maximum", "float16", "float32", "float32" },
        { "floor_divide", "int8", "uint8", "int16" }, { "multiply", "int16", "float16", "float32" },
      }
      for _, c in ipairs(cases) do
        assert.equal(c[4], (resolve(c[1], c[2], c[3])), table.concat(c, " "))
      end
    end)

    it("treats Lua numbers as weak scalars (NEP 50)", function()
      local cases = {
        { "add", "float32", 2.5, "float32" }, { "add", "float32", 2, "float32" },
        { "add", "int32", 1, "int32" }, { "multiply", "int32", 0.5, "float64" },
        { "add", "int8", 127, "int8" }, { "add", "bool", 1, "int64" }, { "add", "bool", true, "bool" },
        { "add", 1, 2, "int64" }, { "add", 1.5, 2, "float64" }, { "add", true, false, "bool" },
        { "add", "float32", { 1, 2 }, "complex64" }, { "add", "float64", { 1, 2 }, "complex128" },
        { "add", "complex64", 1.0, "complex64" }, { "add", "uint8", 255, "uint8" },
        { "add", "float16", 1e6, "float16" }, { "subtract", "bool", 1, "int64" },
        { "power", "int8", 2, "int8" }, { "power", "float32", 0.5, "float32" },
        { "remainder", "float16", 1, "float16" }, { "left_shift", "int8", 1, "int8" },
      }
      for _, c in ipairs(cases) do
        assert.equal(c[4], (resolve(c[1], c[2], c[3])), c[1] .. " " .. tostring(c[2]) .. " " .. tostring(c[3]))
      end
      -- typed scalars are strong
      assert.equal("float64", (resolve("add", "float32", ga.float64(1))))
      assert.equal("int16", (resolve("add", "int8", ga.int16(1))))
    end)

    it("agrees with ga.result_type", function()
      local names = ga.dtype_names()
      local weak = { 1, -1, 2.5, true, 200, -200, 1 << 40 }
      for _, a in ipairs(names) do
        for _, b in ipairs(names) do
          assert.equal(ga.result_type(a, b), (resolve("add", a, b)), a .. " + " .. b)
        end
        for _, w in ipairs(weak) do
          local ok, rt = pcall(ga.result_type, a, w)
          local ok2, r = pcall(resolve, "add", a, w)
          assert.equal(ok, ok2, a .. " + " .. tostring(w))
          if ok then assert.equal(rt, r, a .. " + " .. tostring(w)) end
        end
      end
    end)

    it("raises for a Lua integer that does not fit", function()
      helper.assert_gaerror(function() resolve("add", "int8", 128) end, "add: Lua integer 128 does not fit int8")
      helper.assert_gaerror(function() resolve("add", "uint8", -1) end, "does not fit uint8")
      helper.assert_gaerror(function() resolve("multiply", "int32", 1 << 40) end, "does not fit int32")
    end)

    it("divides integers into float64 and keeps floats", function()
      assert.same({ "float64", "bb->d" }, { resolve("divide", "int8", "int8") })
      assert.equal("float64", (resolve("divide", "int32", 2)))
      assert.equal("float64", (resolve("divide", "bool", "bool")))
      assert.equal("float32", (resolve("divide", "float32", 2)))
      assert.equal("float16", (resolve("divide", "float16", "float16")))
      assert.equal("float32", (resolve("divide", "int16", "float16")))
    end)

    it("casts integers to the smallest safe float for float functions", function()
      assert.same({ "float16", "e->e" }, { resolve("sqrt", "int8") })
      assert.equal("float16", (resolve("sqrt", "bool")))
      assert.equal("float32", (resolve("sqrt", "int16")))
      assert.equal("float64", (resolve("sqrt", "int32")))
      assert.equal("float64", (resolve("sqrt", "uint64")))
      assert.equal("complex64", (resolve("sqrt", "complex64")))
      assert.equal("bool", (resolve("signbit", "int8")))
      assert.equal("float64", (resolve("angle", "int32")))
    end)

    it("gives bool for predicates, comparisons and logical ufuncs", function()
      assert.equal("bool", (resolve("less", "float32", 1)))
      assert.equal("bool", (resolve("equal", "complex64", { 0, 1 })))
      assert.equal("bool", (resolve("logical_and", "float32", "int8")))
      assert.equal("bool", (resolve("isnan", "int8")))
      assert.equal("bool", (resolve("isfinite", "complex128")))
    end)

    it("returns real parts for complex abs, real, imag, angle", function()
      assert.same({ "float32", "F->f" }, { resolve("abs", "complex64") })
      assert.equal("float64", (resolve("abs", "complex128")))
      assert.equal("float64", (resolve("real", "complex128")))
      assert.equal("float32", (resolve("imag", "complex64")))
      assert.equal("float32", (resolve("angle", "complex64")))
      assert.equal("float32", (resolve("imag", "float32")))
      assert.equal("int8", (resolve("abs", "int8")))
      assert.equal("bool", (resolve("abs", "bool")))
    end)

    it("restricts bitwise operations to integers and bools", function()
      assert.equal("bool", (resolve("bitwise_and", "bool", "bool")))
      assert.equal("bool", (resolve("invert", "bool")))
      assert.equal("int64", (resolve("bitwise_xor", "int64", 3)))
      helper.assert_gaerror(function() resolve("bitwise_and", "float32", 1) end,
        "bitwise_and: not supported for float32 (supports integers and booleans)")
      helper.assert_gaerror(function() resolve("invert", "float64") end, "invert: not supported for float64")
      helper.assert_gaerror(function() resolve("left_shift", "float32", 1) end, "left_shift: not supported")
      helper.assert_gaerror(function() resolve("bitwise_or", "int32", 0.5) end, "not supported for float64")
    end)

    it("rejects the boolean negative and subtract", function()
      helper.assert_gaerror(function() resolve("subtract", "bool", "bool") end, "boolean subtract")
      helper.assert_gaerror(function() resolve("negative", "bool") end, "boolean negative")
    end)

    it("takes the loop opts.dtype names, with same_kind input casting", function()
      assert.same({ "float32", "ff->f" }, { resolve("add", "int8", "int8", { dtype = "float32" }) })
      assert.equal("float16", (resolve("add", "int32", "int32", { dtype = ga.float16 })))
      assert.equal("int64", (resolve("add", "int8", "int8", { dtype = "int64" })))
      assert.same({ "bool", "ff->?" }, { resolve("less", "int8", "int8", { dtype = "float32" }) })
      assert.equal("int16", (resolve("add", "int8", 300, { dtype = "int16" })))
      helper.assert_gaerror(function() resolve("add", "float64", 1, { dtype = "int32" }) end,
        "cannot cast input 1 from float64 to int32 (casting rule 'same_kind')")
      helper.assert_gaerror(function() resolve("add", "int8", 2.5, { dtype = "int8" }) end, "cannot cast input 2")
      helper.assert_gaerror(function() resolve("add", "int8", 300, { dtype = "int8" }) end, "300 does not fit int8")
      helper.assert_gaerror(function() resolve("bitwise_and", "int8", 1, { dtype = "float32" }) end,
        "no loop for dtype float32")
    end)
  end)

  describe("argument errors", function()
    it("checks the number and kind of arguments before touching the device", function()
      helper.assert_gaerror(function() ga.add(1) end, "add: takes 2 inputs, got 1")
      helper.assert_gaerror(function() ga.sqrt(1, 2, 3) end, "sqrt: takes 1 input, got 3 arguments")
      helper.assert_gaerror(function() ga.add("x", 1) end, "add: argument 1 must be an ndarray or a number")
      helper.assert_gaerror(function() ga.add(1, {}) end, "add: argument 2 must be")
      helper.assert_gaerror(function() ga.add(1, 2, { out = 3 }) end, "add: out must be an ndarray")
      helper.assert_gaerror(function() ga.add(1, 2, { dtype = "float99" }) end, "unknown dtype 'float99'")
      helper.assert_gaerror(function() ga.subtract(true, false) end, "boolean subtract")
    end)
  end)

  describe("layout classes", function()
    local L = core._test.ew_layout
    local function op(strides, itemsize, ptr, out)
      return { strides = strides, itemsize = itemsize or 4, ptr = ptr or 4096, out = out }
    end

    it("runs contiguous operands flat with the widest aligned vectors", function()
      local n = 5000 + math.random(0, 1000)   -- past the one-element-per-thread size (4096)
      local r = L { shape = { n }, contiguous = true, ops = { op { 4 }, op { 4 }, op({ 4 }, 4, 8192, true) } }
      assert.same({ "flat", 4, 2 }, { r.class, r.vec, r.unroll })
      assert.equal(n, r.count)
      assert.is_false(r.idx64)
      r = L { shape = { n }, contiguous = true, ops = { op({ 4 }, 4, 4100), op({ 4 }, 4, 4096, true) } }
      assert.equal(1, r.vec)
      r = L { shape = { n }, contiguous = true, ops = { op({ 4 }, 4, 4104), op({ 4 }, 4, 4096, true) } }
      assert.equal(2, r.vec)
      r = L { shape = { n }, contiguous = true, ops = { op({ 1 }, 1), op({ 4 }, 4, 4096, true) } }
      assert.equal(4, r.vec)
      r = L { shape = { n }, contiguous = true, ops = { op({ 16 }, 16), op({ 16 }, 16, 4096, true) } }
      assert.equal(1, r.vec)
      r = L { shape = { n }, contiguous = true, ops = { op({ 1 }, 1), op({ 1 }, 1, 4096, true) } }
      assert.equal(16, r.vec)
      -- up to 4096 elements: one element per thread, however aligned
      for _, m in ipairs({ 1, 64, 1000, 4096 }) do
        r = L { shape = { m }, contiguous = true, ops = { op { 4 }, op { 4 }, op({ 4 }, 4, 8192, true) } }
        assert.same({ "flat", 1, 1, m }, { r.class, r.vec, r.unroll, r.count })
      end
      r = L { shape = { 4097 }, contiguous = true, ops = { op { 4 }, op({ 4 }, 4, 8192, true) } }
      assert.same({ 4, 2 }, { r.vec, r.unroll })
      r = L { shape = {}, contiguous = true, ops = { op({}, 8), op({}, 8, 4096, true) } }
      assert.same({ "flat", 1 }, { r.class, r.count })
    end)

    it("merges contiguous axes into the flat class", function()
      local r = L { shape = { 2, 3, 4 }, ops = { op { 48, 16, 4 }, op({ 48, 16, 4 }, 4, 4096, true) } }
      assert.same({ "flat", 24 }, { r.class, r.count })
      r = L { shape = { 2, 1, 4 }, ops = { op { 16, 0, 4 }, op({ 16, 16, 4 }, 4, 4096, true) } }
      assert.equal("flat", r.class)
    end)

    it("vectorises a last axis that is contiguous or broadcast for every operand", function()
      local M = 8192
      local r = L { shape = { M, M }, ops = { op { 4 * M, 4 }, op { 0, 4 }, op({ 4 * M, 4 }, 4, 4096, true) } }
      assert.same({ "vin", 4, 2, 0 }, { r.class, r.vec, r.nd, r.bmask })
      assert.equal(M * M // 4, r.count)
      -- a broadcast column: w(m, 1) is stride 0 along the last axis
      r = L { shape = { 64, 32 }, ops = { op { 128, 4 }, op { 4, 0 }, op({ 128, 4 }, 4, 4096, true) } }
      assert.same({ "vin", 2 }, { r.class, r.bmask })
      -- a 0-d operand against a vector
      r = L { shape = { 1000 }, ops = { op { 4 }, op { 0 }, op({ 4 }, 4, 4096, true) } }
      assert.same({ "vin", 4, 1 }, { r.class, r.vec, r.nd })
      -- padded rows (a slice of a wider array) still vectorise
      r = L { shape = { 10, 16 }, ops = { op { 128, 4 }, op({ 64, 4 }, 4, 4096, true) } }
      assert.same({ "vin", 4, 0 }, { r.class, r.vec, r.bmask })
      -- vector width halves until the last axis divides
      r = L { shape = { 10, 6 }, ops = { op { 32, 4 }, op({ 24, 4 }, 4, 4096, true) } }
      assert.same({ "vin", 2 }, { r.class, r.vec })
    end)

    it("falls back to the strided class, with 32-bit indexing when it fits", function()
      local r = L { shape = { 4096, 4096 },
                    ops = { op { 65536, 8 }, op { 65536, 8 }, op({ 32768, 4 }, 4, 4096, true) } }
      assert.same({ "strided", 2, false }, { r.class, r.nd, r.idx64 })
      r = L { shape = { 3, 5 }, ops = { op { 4, 12 }, op({ 20, 4 }, 4, 4096, true) } }
      assert.same({ "strided", 2 }, { r.class, r.nd })
      r = L { shape = { 10, 7 }, ops = { op { 28, 4 }, op { 0, 4 }, op({ 28, 4 }, 4, 4096, true) } }
      assert.equal("strided", r.class)        -- odd rows: no vector divides 7
      r = L { shape = { 10 }, ops = { op { -4 }, op({ 4 }, 4, 4096, true) } }
      assert.same({ "strided", 1 }, { r.class, r.nd })
      r = L { shape = { 1 << 31 }, ops = { op { 8 }, op({ 4 }, 4, 4096, true) } }
      assert.same({ "strided", true }, { r.class, r.idx64 })
      r = L { shape = { (1 << 31) + 10 }, contiguous = true, ops = { op { 4 }, op({ 4 }, 4, 4096, true) } }
      assert.same({ "flat", true }, { r.class, r.idx64 })
      -- an output broadcast along the last axis is never vectorised
      r = L { shape = { 8, 8 }, ops = { op { 32, 4 }, op({ 4, 0 }, 4, 4096, true) } }
      assert.equal("strided", r.class)
    end)

    it("keeps every axis without reduce_dims, and without vin when asked", function()
      local r = L { shape = { 2, 3, 4 }, reduce_dims = false,
                    ops = { op { 48, 16, 4 }, op({ 48, 16, 4 }, 4, 4096, true) } }
      assert.same({ "strided", 3 }, { r.class, r.nd })
      r = L { shape = { 64, 64 }, vin = false, ops = { op { 256, 4 }, op { 0, 4 }, op({ 256, 4 }, 4, 4096, true) } }
      assert.equal("strided", r.class)
    end)
  end)
end)

-------------------------------------------------------------------------------
-- on the GPU

-- the dtypes each ufunc is checked in (one per family, several widths of ints)
local TEST_CHARS = "?bilBILefdFD"

--- Flatten nested results in C order; {re, im} pairs are leaves
local function flat(t, out)
  out = out or {}
  if type(t) ~= "table" or (#t == 2 and type(t[1]) == "number") then
    out[#out + 1] = t
    return out
  end
  for _, v in ipairs(t) do flat(v, out) end
  return out
end

local function check_values(name, dt, outdt, a, b, got, scale_of)
  local f = R.F[name]
  for i = 1, #a do
    local want = f(a[i], b and b[i], dt)
    local scale = scale_of and scale_of(a[i], b and b[i]) or nil
    if not R.close(want, got[i], outdt, scale) then
      local function show(v)
        if type(v) == "table" then return ("{%.17g, %.17g}"):format(v[1], v[2]) end
        return tostring(v)
      end
      error(("%s(%s%s) in %s: got %s, want %s"):format(name, show(a[i]), b and (", " .. show(b[i])) or "", dt,
        show(got[i]), show(want)), 2)
    end
  end
end

-- scale for results that cancel (subtracting close values): the inputs' size
local function input_scale(a, b)
  local function m(v)
    if type(v) == "table" then return math.abs(v[1]) + math.abs(v[2]) end
    if type(v) == "number" then return math.abs(v) end
    return 1
  end
  return math.max(m(a), b and m(b) or 0)
end

describe("ufuncs on the GPU", function()
  for _, name in ipairs(require("gpuarray.internal").ufunc_names) do
    helper.gpu_it(name .. " matches the CPU reference in every dtype family", function()
      local u = ga[name]
      local n = 67              -- odd: vector loads plus a tail
      local tested = 0
      for _, sig in ipairs(u.types) do
        local c = sig:sub(1, 1)
        if TEST_CHARS:find(c, 1, true) then
          local dt, outdt = R.CHAR[c], R.CHAR[sig:sub(-1)]
          local x = ga.array(R.inputs(name, 1, dt, n), dt)
          local y = u.nin == 2 and ga.array(R.inputs(name, 2, dt, n), dt) or nil
          local r = y and u(x, y) or u(x)
          assert.equal(outdt, r.dtype, name .. " " .. sig)
          assert.same({ n }, r.shape)
          check_values(name, dt, outdt, flat(x:totable()), y and flat(y:totable()), flat(r:totable()), input_scale)
          tested = tested + 1
        end
      end
      assert.is_true(tested > 0)
    end)
  end

  helper.gpu_it("propagates NaN, inf and signed zeros as NumPy defines them", function()
    local nan, inf = 0 / 0, math.huge
    for _, dt in ipairs { "float32", "float64", "float16" } do
      local function run(name, a, b)
        local x = ga.array(a, dt)
        local r = b and ga[name](x, ga.array(b, dt)) or ga[name](x)
        return r:totable()
      end
      local function is_negzero(v) return v == 0 and 1 / v < 0 end
      helper.assert_same({ nan, nan, 2, -inf }, run("maximum", { nan, 1, 2, -inf }, { 1, nan, -inf, -inf }))
      helper.assert_same({ nan, nan, -inf }, run("minimum", { nan, 1, 2 }, { 1, nan, -inf }))
      helper.assert_same({ 1, 1, 2 }, run("fmax", { nan, 1, 2 }, { 1, nan, -inf }))
      helper.assert_same({ 1, 1, -inf }, run("fmin", { nan, 1, 2 }, { 1, nan, -inf }))
      assert.is_true(run("fmax", { nan }, { nan })[1] ~= run("fmax", { nan }, { nan })[1])
      helper.assert_same({ true, false, false, false, false }, run("isnan", { nan, inf, -inf, 0, 1 }))
      helper.assert_same({ false, true, true, false, false }, run("isinf", { nan, inf, -inf, 0, 1 }))
      helper.assert_same({ false, false, false, true, true }, run("isfinite", { nan, inf, -inf, 0, 1 }))
      helper.assert_same({ true, false, true, false }, run("signbit", { -0.0, 0.0, -inf, 1 }))
      local s = run("sign", { nan, -0.0, 0.0, -3, 4, -inf })
      assert.is_true(s[1] ~= s[1])
      helper.assert_same({ 0, 0, -1, 1, -1 }, { s[2], s[3], s[4], s[5], s[6] })
      assert.is_true(is_negzero(run("negative", { 0.0 })[1]))
      assert.is_false(is_negzero(run("abs", { -0.0 })[1]))
      helper.assert_same({ -1, 1 }, run("copysign", { 1, -1 }, { -0.0, 0.0 }))
      helper.assert_same({ 2, 4, -2, -4, 0 }, run("rint", { 2.5, 3.5, -2.5, -3.5, 0.5 }))
      assert.is_true(is_negzero(run("rint", { -0.4 })[1]))
      local sq = run("sqrt", { -1, 0, inf })
      assert.is_true(sq[1] ~= sq[1])
      helper.assert_same({ 0, inf }, { sq[2], sq[3] })
      local lg = run("log", { 0, -1, inf, 1 })
      helper.assert_same({ -inf, inf, 0 }, { lg[1], lg[3], lg[4] })
      assert.is_true(lg[2] ~= lg[2])
      helper.assert_same({ inf, 0, 1 }, run("exp", { inf, -inf, 0 }))
      local dv = run("divide", { 1, -1, 0 }, { 0, 0, 0 })
      helper.assert_same({ inf, -inf }, { dv[1], dv[2] })
      assert.is_true(dv[3] ~= dv[3])
      -- Python's floor division and remainder: the divisor's sign
      helper.assert_same({ -2, 1, -2, -1 }, run("floor_divide", { -3.5, 3.5, 3.5, 1 }, { 2, 2, -2, -1 }))
      helper.assert_same({ 0.5, 1.5, -0.5 }, run("remainder", { -3.5, 3.5, 3.5 }, { 2, 2, -2 }))
      helper.assert_same({ -1.5, 1.5, 1.5 }, run("fmod", { -3.5, 3.5, 3.5 }, { 2, 2, -2 }))
      local rz = run("remainder", { 1, 0 }, { 0, 0 })
      assert.is_true(rz[1] ~= rz[1] and rz[2] ~= rz[2])
      local fz = run("floor_divide", { 1, -1, 0 }, { 0, 0, 0 })
      helper.assert_same({ inf, -inf }, { fz[1], fz[2] })
      assert.is_true(fz[3] ~= fz[3])
      assert.is_true(is_negzero(run("remainder", { 2 }, { -1 })[1]))   -- mod zero takes the divisor's sign
      local pw = run("power", { 0, 2, -8 }, { -1, 0.5, 1 / 3 })
      assert.equal(inf, pw[1])
      assert.is_true(R.close(math.sqrt(2), pw[2], dt))
      assert.is_true(pw[3] ~= pw[3])
    end
  end)

  helper.gpu_it("follows NumPy's integer division, remainder and shift rules", function()
    for _, dt in ipairs { "int8", "int32", "int64" } do
      local lo = R.imin(dt)
      local a = ga.array({ 7, -7, 7, -7, 5, lo, lo, 3 }, dt)
      local b = ga.array({ 2, 2, -2, -2, 0, -1, 1, 0 }, dt)
      assert.same({ 3, -4, -4, 3, 0, lo, lo, 0 }, ga.floor_divide(a, b):totable())
      assert.same({ 1, 1, -1, -1, 0, 0, 0, 0 }, ga.remainder(a, b):totable())
      assert.same({ 1, -1, 1, -1, 0, 0, 0, 0 }, ga.fmod(a, b):totable())
      local d = ga.divide(a, b)
      assert.equal("float64", d.dtype)
      assert.same({ 3.5, -3.5, -3.5, 3.5, math.huge }, { table.unpack(d:totable(), 1, 5) })
      local bits = R.INFO[dt].bits
      local s = ga.array({ 1, -8, -8, 3, 1 }, dt)
      local k = ga.array({ bits - 1, 1, bits, bits + 5, -1 }, dt)
      assert.same({ R.wrap(1 << (bits - 1), dt), -16, 0, 0, 0 }, ga.left_shift(s, k):totable())
      assert.same({ 0, -4, -1, 0, 0 }, ga.right_shift(s, k):totable())
    end
    local u = ga.array({ 7, 200, 3 }, "uint8")
    assert.same({ 3, 0, 0 }, ga.floor_divide(u, ga.array({ 2, 0, 4 }, "uint8")):totable())
    assert.same({ 1, 0, 3 }, ga.remainder(u, ga.array({ 2, 0, 4 }, "uint8")):totable())
    -- integer powers wrap; negative exponents give 1 // a^|b| (NumPy raises instead)
    local p = ga.power(ga.array({ 2, 3, 1, -1, -1, 2 }, "int8"), ga.array({ 7, 5, -3, -3, -2, -1 }, "int8"))
    assert.same({ -128, -13, 1, -1, 1, 0 }, p:totable())
  end)

  helper.gpu_it("computes float16 in float32 and rounds once", function()
    local x = ga.array({ 1000, 2048, 0.1 }, "float16")
    local r = x * ga.array({ 1000, 1, 3 }, "float16")
    assert.equal("float16", r.dtype)
    local v = x:totable()
    helper.assert_same({ math.huge, 2048, helper.to_half(helper.to_f32(v[3] * 3)) }, r:totable())
    local s = ga.array({ 2049 }, "float32"):astype("float16")
    assert.same({ 2048 }, s:totable())
    assert.same({ 4096 }, (ga.array({ 2048 }, "float16") + 2048):totable())
  end)

  helper.gpu_it("broadcasts (1, n) x (m, 1), 0-d and empty operands", function()
    local m, n = 5, 7
    local at = helper.random_table({ 1, n }, function() return math.random(-50, 50) end)
    local bt = helper.random_table({ m, 1 }, function() return math.random(-50, 50) end)
    local a, b = ga.array(at, "int32"), ga.array(bt, "int32")
    local r = ga.subtract(a, b)
    assert.same({ m, n }, r.shape)
    assert.equal("int32", r.dtype)
    local rt = r:totable()
    for i = 1, m do
      for j = 1, n do assert.equal(at[1][j] - bt[i][1], rt[i][j]) end
    end
    -- 0-d against arrays, and two 0-d arrays
    local z = ga.array(2.5, "float32")
    assert.same({}, z.shape)
    local rz = ga.multiply(ga.array({ { 1, 2 }, { 3, 4 } }, "float32"), z)
    assert.same({ { 2.5, 5 }, { 7.5, 10 } }, rz:totable())
    local zz = ga.add(z, z)
    assert.equal(0, zz.ndim)
    assert.equal(5, zz:item())
    local s = ga.add(1, 2)
    assert.same({ 0, "int64", 3 }, { s.ndim, s.dtype, s:item() })
    -- empty
    local e = ga.add(ga.empty({ 0, 3 }, "float32"), ga.ones(3, "float32"))
    assert.same({ 0, 3 }, e.shape)
    assert.equal("float32", e.dtype)
    assert.same({}, ga.sqrt(ga.empty(0, "float64")):totable())
    helper.assert_gaerror(function() ga.add(ga.ones({ 2, 3 }), ga.ones(4)) end,
      "add: shapes {2,3} and {4} cannot be broadcast")
  end)

  helper.gpu_it("handles non-contiguous and negative-stride operands", function()
    local m, n = 10, 12
    local t = helper.random_table({ m, n }, function() return math.random() * 10 - 5 end)
    local x = ga.array(t, "float64")
    local ref = t
    local function at(i, j) return ref[i][j] end
    -- transposed
    local r = ga.add(x.T, x.T)
    local rt = r:totable()
    for i = 1, n do for j = 1, m do assert.equal(2 * at(j, i), rt[i][j]) end end
    -- stepped slices of both axes (the strided class)
    local s1 = x[{ { 1, nil, 2 }, { 1, nil, 3 } }]
    local s2 = x[{ { 2, nil, 2 }, { 2, nil, 3 } }]
    local r2 = ga.multiply(s1, s2):totable()
    for i = 1, #r2 do
      for j = 1, #r2[1] do
        assert.equal(at(2 * i - 1, 3 * j - 2) * at(2 * i, 3 * j - 1), r2[i][j])
      end
    end
    -- reversed rows and columns
    local rev = x[{ { nil, nil, -1 }, { nil, nil, -1 } }]
    local r3 = ga.subtract(rev, x):totable()
    for i = 1, m do
      for j = 1, n do assert.equal(at(m + 1 - i, n + 1 - j) - at(i, j), r3[i][j]) end
    end
    -- a misaligned contiguous view (vectors narrower than 16 bytes)
    local v = ga.array(helper.random_table({ 1001 }, function() return math.random(0, 100) end), "float32")
    local vt = v:totable()
    local w = v[{ { 2, -1 } }]
    local r4 = (w * 2):totable()
    for i = 1, 1000 do assert.equal(2 * vt[i + 1], r4[i]) end
    -- X(m, n) * w(n): the vectorised inner-axis class, and a broadcast column
    local X = ga.array(helper.random_table({ 6, 16 }, function() return math.random(-9, 9) end), "float32")
    local wv = ga.array(helper.random_table({ 16 }, function() return math.random(-9, 9) end), "float32")
    local col = ga.array(helper.random_table({ 6, 1 }, function() return math.random(-9, 9) end), "float32")
    local Xt, wt, ct = X:totable(), wv:totable(), col:totable()
    local p, q = (X * wv):totable(), (X - col):totable()
    for i = 1, 6 do
      for j = 1, 16 do
        assert.equal(Xt[i][j] * wt[j], p[i][j])
        assert.equal(Xt[i][j] - ct[i][1], q[i][j])
      end
    end
  end)

  helper.gpu_it("agrees with the reference on random views, broadcasts and dtypes", function()
    local ND = require "ndref"
    local ops = { add = function(a, b) return a + b end, subtract = function(a, b) return a - b end,
                  multiply = function(a, b) return a * b end, maximum = math.max }
    local names = { "add", "subtract", "multiply", "maximum" }
    local dts = { "int32", "float64", "float32", "int8", "int64", "float16" }
    for trial = 1, 60 do
      local nd = math.random(1, 4)
      local shape = {}
      for d = 1, nd do shape[d] = math.random(1, 7) end
      local dt = dts[math.random(#dts)]
      local gen = function() return math.random(-9, 9) end
      local base = helper.random_table(shape, gen)
      local x = ga.array(base, dt)
      local A = ND.from_nested(base, shape)
      local key = ND.random_key(shape)
      local okv, view = pcall(function() return x[key] end)
      if not okv or type(view) ~= "userdata" then goto continue end   -- a Lua value, or a key the model rejects
      local V = ND.index(A, key)
      do
        -- the other operand: V's shape with some axes 1 (broadcast), maybe fewer axes
        local bshape = {}
        local first = (#V.shape > 0 and math.random() < 0.3) and 2 or 1
        for d = first, #V.shape do bshape[#bshape + 1] = math.random() < 0.35 and 1 or V.shape[d] end
        local bt = helper.random_table(bshape, gen)
        local y, B
        if #bshape == 0 then
          y = ga.array(gen(), dt)
          B = { data = { y:item() }, shape = {} }
        elseif ND.size(bshape) == 0 then                -- empty: a nested table cannot say its shape
          y = ga.zeros(bshape, dt)
          B = { data = {}, shape = bshape }
        else
          y = ga.array(bt, dt)
          B = ND.from_nested(bt, bshape)
        end
        local name = names[math.random(#names)]
        local r
        if math.random() < 0.3 then                      -- into a transposed out
          local oshape = {}
          for d = #V.shape, 1, -1 do oshape[#oshape + 1] = V.shape[d] end
          local o = ga.zeros(oshape, dt)
          r = ga[name](view, y, { out = o.T })
        else
          r = ga[name](view, y)
        end
        assert.equal(dt, r.dtype)
        assert.same(V.shape, r.shape)
        -- the reference, element by element in C order over V's shape
        local got = helper.flatten(r:totable())
        local idx, n = {}, ND.size(V.shape)
        for d = 1, #V.shape do idx[d] = 1 end
        local off = #V.shape - #B.shape
        for e = 1, n do
          local bpos, mul = 0, 1
          for d = #B.shape, 1, -1 do
            local i = B.shape[d] == 1 and 1 or idx[d + off]
            bpos = bpos + (i - 1) * mul
            mul = mul * B.shape[d]
          end
          local want = ops[name](V.data[e], B.data[bpos + 1])
          if dt == "int8" then want = R.wrap(want, dt) end
          assert.equal(want, got[e], ("trial %d: %s %s %s element %d"):format(trial, name, dt,
            table.concat(V.shape, "x"), e))
          for d = #V.shape, 1, -1 do
            idx[d] = idx[d] + 1
            if idx[d] <= V.shape[d] then break end
            idx[d] = 1
          end
        end
      end
      ::continue::
    end
  end)

  helper.gpu_it("writes into out= with same_kind casting and checks it", function()
    local a = ga.array({ 1, 2, 3 }, "int32")
    local out = ga.zeros(3, "float64")
    local r = ga.add(a, a, { out = out })
    assert.is_true(rawequal(r, out))
    assert.same({ 2, 4, 6 }, out:totable())
    local out2 = ga.zeros(3, "float32")
    ga.multiply(a, 2, out2)                       -- positional out
    assert.same({ 2, 4, 6 }, out2:totable())
    local iout = ga.zeros(3, "int32")
    helper.assert_gaerror(function() ga.divide(a, a, { out = iout }) end,
      "cannot cast the float64 result to the int32 output")
    assert.same({ 0, 0, 0 }, iout:totable())
    helper.assert_gaerror(function() ga.add(a, a, { out = ga.zeros(4, "int32") }) end,
      "the output has shape {4}, the broadcast shape is {3}")
    -- out broadcasts the inputs up to its shape
    local big = ga.zeros({ 2, 3 }, "int64")
    ga.add(a, 1, { out = big })
    assert.same({ { 2, 3, 4 }, { 2, 3, 4 } }, big:totable())
    -- a non-contiguous out
    local base = ga.zeros({ 3, 2 }, "int32")
    ga.add(a, 10, { out = base[{ {}, 2 }] })
    assert.same({ { 0, 11 }, { 0, 12 }, { 0, 13 } }, base:totable())
    -- dtype= picks the loop
    local f = ga.add(ga.array({ 100, 100 }, "int8"), ga.array({ 100, 1 }, "int8"), { dtype = "float32" })
    assert.same({ "float32", { 200, 101 } }, { f.dtype, f:totable() })
    local w = ga.add(ga.array({ 100 }, "int8"), ga.array({ 100 }, "int8"))
    assert.same({ -56 }, w:totable())
  end)

  helper.gpu_it("reads overlapping inputs before writing out", function()
    local x = ga.arange(10, "int64")
    ga.add(x[{ { 1, 9 } }], 100, { out = x[{ { 2, 10 } }] })
    assert.same({ 0, 100, 101, 102, 103, 104, 105, 106, 107, 108 }, x:totable())
    local y = ga.arange(6, "float64"):reshape(2, 3)
    ga.add(y, y.T:copy():reshape(2, 3), { out = y })   -- same elements: in place
    local z = ga.arange(4, "float64"):reshape(2, 2)
    ga.add(z, z.T, { out = z })                        -- transposed alias: read from a copy
    assert.same({ { 0, 3 }, { 3, 6 } }, z:totable())
    assert.same({ { 0, 4, 3 }, { 7, 6, 10 } }, y:totable())
  end)

  helper.gpu_it("leaves inputs unchanged on errors", function()
    local u8 = ga.array({ 1, 2 }, "uint8")
    helper.assert_gaerror(function() return ga.add(u8, -1) end, "does not fit uint8")
    helper.assert_gaerror(function() return ga.bitwise_and(ga.array({ 1.5 }), 1) end, "not supported for float64")
    assert.same({ 1, 2 }, u8:totable())
  end)

  helper.gpu_it("handles complex scalars and the complex functions on special inputs", function()
    local z = ga.array({ { 1, 2 }, { -3, 0.5 } }, "complex128")
    local r = ga.multiply(z, { 0, 1 })
    assert.equal("complex128", r.dtype)
    helper.assert_same({ { -2, 1 }, { -0.5, -3 } }, r:totable())
    local c64 = ga.add(ga.array({ 1, 2 }, "float32"), { 0, 1 })
    assert.equal("complex64", c64.dtype)
    local ab = ga.abs(ga.array({ { 3, 4 } }, "complex64"))
    assert.same({ "float32", 5 }, { ab.dtype, ab:item() })
    helper.assert_same({ { 1, 0 } }, ga.power(z[{ { 1, 1 } }], { 0, 0 }):totable())
    helper.assert_same({ { 0, 1 } }, ga.sqrt(ga.array({ { -1, 0 } }, "complex128")):totable())
    helper.assert_same({ { 0, 0 } }, ga.sign(ga.array({ { 0, 0 } }, "complex64")):totable())
  end)
end)
