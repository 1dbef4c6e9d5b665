-- The math room without a GPU: every public name of the math families is
-- declared (API.md §0); the hot C paths (ufuncs, built-in reductions,
-- scans) check an options table against their declaration; the ufunc
-- methods are reached both ways and name the ufunc in errors; every kernel
-- the methods and the math functions generate compiles with NVRTC.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

local function err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "no error")
  return tostring(e)
end

local function has(s, sub)
  assert(s:find(sub, 1, true), ("%q lacks %q"):format(s, sub))
end

describe("math declarations", function()
  it("declares every math row of the coverage list", function()
    local names = [[sin cos tan arcsin asin arccos acos arctan atan hypot arctan2 atan2 degrees radians unwrap
      deg2rad rad2deg sinh cosh tanh arcsinh asinh arccosh acosh arctanh atanh round around rint fix floor
      ceil trunc prod sum nanprod nansum cumulative_sum cumulative_prod cumprod cumsum nancumprod nancumsum
      ediff1d gradient cross trapezoid exp expm1 exp2 log log10 log2 log1p logaddexp logaddexp2 i0 sinc
      signbit copysign frexp ldexp nextafter lcm gcd add reciprocal positive negative multiply divide power
      pow subtract true_divide floor_divide float_power fmod mod modf remainder divmod angle real imag conj
      conjugate maximum max amax fmax nanmax minimum min amin fmin nanmin convolve clip sqrt cbrt square
      absolute fabs sign heaviside nan_to_num real_if_close interp rsqrt]]
    for name in names:gmatch("%S+") do
      assert.is_not_nil(ga[name], name)
      assert.is_not_nil(api.entry(ga[name]), name .. " is not declared")
    end
  end)

  it("declares the ufunc methods once, as methods of the class ufunc", function()
    for _, m in ipairs { "reduce", "accumulate", "reduceat", "outer", "at" } do
      local e = api.entry("ufunc:" .. m)
      assert.is_not_nil(e, m)
      assert.equal("ufunc." .. m, e.info.fname)
      for _, u in ipairs { "add", "multiply", "maximum", "logical_and", "subtract", "gcd", "logaddexp" } do
        assert.equal("function", type(ga[u][m]), u .. "." .. m)
      end
    end
    local text = ga.help("ufunc:reduce")
    has(text, "ufunc:reduce(array: array_like, axis: axes = 1")
    has(text, "initial: scalar?")
    -- the bound method is made once per ufunc
    assert.equal(ga.add.reduce, ga.add.reduce)
    assert.are_not.equal(ga.add.reduce, ga.multiply.reduce)
  end)

  it("gives NumPy's identities", function()
    assert.equal(0, ga.add.identity)
    assert.equal(1, ga.multiply.identity)
    assert.equal(true, ga.logical_and.identity)
    assert.equal(false, ga.logical_or.identity)
    assert.equal(-1, ga.bitwise_and.identity)
    assert.equal(-math.huge, ga.logaddexp.identity)
    assert.is_nil(ga.maximum.identity)
    assert.is_nil(ga.subtract.identity)
  end)
end)

describe("options tables of the hot C paths", function()
  it("a ufunc checks its keys against its declaration", function()
    has(err(ga.add, 1, 2, { axsi = 2 }), "gpuarray: add: unknown option 'axsi'")
    has(err(ga.add, 1, 2, { dtpye = "float32" }), "gpuarray: add: unknown option 'dtpye' (did you mean 'dtype'?)")
    has(err(ga.sin, 1, { x = 2 }), "gpuarray: sin: x is an input: give it by position")
    has(err(ga.add, 1, 2, { out = 3 }), "gpuarray: add: out must be an ndarray")
    has(err(ga.add, 1, 2, nil, 5), "gpuarray: add: takes 2 inputs, got 4 arguments")
    has(ga.help(ga.logaddexp), "logaddexp(x1: array_like, x2: array_like, out: ndarray?, *, dtype: dtype?)")
    has(ga.help(ga.sin), "sin(x: array_like, out: ndarray?, *, dtype: dtype?)")
  end)

  it("a built-in reduction binds any call but x:sum() and x:sum(axis)", function()
    has(err(ga.sum, 1, { axsi = 2 }), "gpuarray: sum: unknown option 'axsi' (did you mean 'axis'?)")
    has(err(ga.max, 1, nil, { dtype = "float32" }), "gpuarray: max: unknown option 'dtype'")
    has(err(ga.sum, 1), "gpuarray: sum: a must be an ndarray")
    has(err(ga.argmax, 1, { keepdim = true }), "did you mean 'keepdims'?")
    has(ga.help(ga.var),
        "var(a: ndarray, axis: axes?, dtype: dtype?, out: ndarray?, ddof: number = 0, keepdims: boolean = false)")
    has(ga.help(ga.max), "Also reached as: `amax`, `ndarray:max`")
    has(ga.help(ga.count_nonzero), "count_nonzero(a: ndarray, axis: axes?, *, keepdims: boolean = false)")
  end)

  it("a scan binds any call but x:cumsum() and x:cumsum(axis)", function()
    has(err(ga.cumsum, 1, { axsi = 2 }), "gpuarray: cumsum: unknown option 'axsi' (did you mean 'axis'?)")
    has(err(ga.cumprod, 5), "gpuarray: cumprod: a must be an ndarray")
    has(ga.help(ga.cumsum), "cumsum(a: ndarray, axis: axis?, dtype: dtype?, out: ndarray?)")
  end)

  it("the methods check their options and name the ufunc, called either way", function()
    has(err(ga.add.reduce, 1, { axsi = 1 }), "gpuarray: add.reduce: unknown option 'axsi' (did you mean 'axis'?)")
    has(err(ga.add.reduce, ga.add, 1, { axsi = 1 }), "gpuarray: add.reduce: unknown option 'axsi'")
    has(err(ga.maximum.accumulate, 1, { axis = 1.5 }), "gpuarray: maximum.accumulate: axis must be")
    has(err(ga.sin.reduce, { 1 }), "gpuarray: sin.reduce: reduce only supported for binary functions")
    has(err(ga.cos.accumulate, { 1 }), "gpuarray: cos.accumulate: accumulate only supported for binary functions")
    has(err(ga.exp.outer, 1, 2), "gpuarray: exp.outer: outer product only supported for binary functions")
    has(err(ga.add.at, 1, { 1 }, 1), "gpuarray: add.at: a must be")
    has(err(ga.multiply.reduceat, { 1 }), "gpuarray: multiply.reduceat: missing argument 'indices'")
  end)

  it("the math functions check their arguments by their declarations", function()
    has(err(ga.convolve, { 1 }, { 1 }, "ful"), "gpuarray: convolve: mode must be")
    has(err(ga.gradient, { 1, 2 }, { edge_ordr = 2 }), "did you mean 'edge_order'?")
    has(err(ga.interp, 1, { 1 }, { 1 }, { perod = 2 }), "did you mean 'period'?")
    has(err(ga.frexp, 1, { out = 5 }), "gpuarray: frexp: out must be a table")
    has(err(ga.clip, 1, 0, 1, 5), "gpuarray: clip: out must be an ndarray")
    has(err(ga.unwrap, { 1 }, { priod = 2 }), "did you mean 'period'?")
    has(err(ga.cumulative_sum, { 1 }, 1), "gpuarray: cumulative_sum: too many arguments")
    has(err(ga.nan_to_num, 1, true, "x"), "gpuarray: nan_to_num: nan must be a number")
  end)
end)

describe("math kernels compile with NVRTC", function()
  local um = internal.ufunc_methods
  local K = um.kernels

  local function compiles(what, k, ...)
    local ok, e = pcall(k.compile, k, ...)
    assert(ok, what .. ": " .. tostring(e))
  end

  it("reduce: ReductionKernels over the ufuncs' loops (with where=), the in-order fold", function()
    compiles("add f16 where", K.reduce(ga.add, "add", "float16", true, false), "float16", "bool", "float16")
    compiles("gcd int8", K.reduce(ga.gcd, "gcd", "int8", false, false), "int8", "int8")
    compiles("bitwise_and uint64", K.reduce(ga.bitwise_and, "bitwise_and", "uint64", false, false), "uint64", "uint64")
    compiles("logaddexp f32", K.reduce(ga.logaddexp, "logaddexp", "float32", false, false), "float32", "float32")
    compiles("hypot f64 where", K.reduce(ga.hypot, "hypot", "float64", true, false), "float64", "bool", "float64")
    compiles("logical_xor bool", K.reduce(ga.logical_xor, "logical_xor", "bool", false, false), "int32", "bool")
    compiles("maximum c128", K.reduce(ga.maximum, "maximum", "complex128", false, false), "complex128", "complex128")
    compiles("fold subtract where init", K.fold(ga.subtract, "subtract", "int8", "int8", true, true),
             "int8", "bool", "int64", "int8", "int8")
    compiles("fold divide f16", K.fold(ga.divide, "divide", "float16", "float16", false, false),
             "float16", "int64", "float16")
    compiles("fold power c64", K.fold(ga.power, "power", "complex64", "complex64", false, false),
             "complex64", "int64", "complex64")
    compiles("fold arctan2 f64", K.fold(ga.arctan2, "arctan2", "int32", "float64", false, true),
             "int32", "int64", "float64", "float64")
  end)

  it("accumulate: the chunked scan and its carry", function()
    compiles("scan maximum f32", K.scan(ga.maximum, "maximum", "float32", "float32", "float32"),
             "float32", "int64", "int64", "int64", "float32", "float32")
    compiles("scan subtract u16 into f64", K.scan(ga.subtract, "subtract", "uint16", "uint16", "float64"),
             "uint16", "int64", "int64", "int64", "float64", "uint16")
    compiles("carry fmin f16", K.carry(ga.fmin, "fmin", "float16", "float16"),
             "float16", "int64", "int64", "int64", "float16")
    compiles("carry logical_or bool", K.carry(ga.logical_or, "logical_or", "bool", "bool"),
             "bool", "int64", "int64", "int64", "bool")
  end)

  it("add.at's private shared-memory copies: its RawKernel compiles for each dtype it takes", function()
    local at = require("gpuarray.elementwise.at")(ga, um)
    for _, dt in ipairs { "float32", "float64", "int32", "uint32" } do
      local ok, e = pcall(at.priv_kernel, dt)
      assert(ok, dt .. ": " .. tostring(e))
    end
  end)

  it("reduceat: the warp and the thread segments (RawKernels compile when made)", function()
    for _, c in ipairs { { "add", "float32", "float32", true }, { "add", "int8", "int64", true },
                         { "maximum", "float16", "float16", true }, { "logical_and", "int32", "bool", true },
                         { "multiply", "complex128", "complex128", true },
                         { "subtract", "complex64", "complex64", false },
                         { "divide", "float64", "float64", false } } do
      local ok, e = pcall(K.reduceat, ga[c[1]], c[1], c[2], c[3], c[4])
      assert(ok, table.concat({ c[1], c[2], c[3] }, " ") .. ": " .. tostring(e))
    end
  end)

  it("at: native atomics, compare-and-swap loops, the serial complex128 path", function()
    local at = require("gpuarray.elementwise.at")(ga, um)
    for _, c in ipairs { { "add", "float32", 1, true }, { "add", "float16", 1, true }, { "add", "int64", 2, true },
                         { "add", "complex64", 1, true }, { "subtract", "uint64", 1, true },
                         { "maximum", "float32", 1, true }, { "maximum", "int64", 1, true },
                         { "minimum", "uint8", 1, true }, { "fmax", "float64", 3, true },
                         { "bitwise_or", "int16", 2, true }, { "bitwise_xor", "uint32", 1, true },
                         { "multiply", "complex128", 1, true }, { "logical_and", "bool", 1, true },
                         { "power", "int8", 1, true }, { "negative", "float64", 1, false },
                         { "invert", "uint16", 2, false }, { "sqrt", "int32", 1, false },
                         { "arctan2", "int16", 1, true }, { "less", "float32", 1, true } } do
      local name, A, nidx, has_b = c[1], c[2], c[3], c[4]
      local k = at.kernel(ga[name], A, nidx, has_b)
      local dts = {}
      for _ = 1, nidx do dts[#dts + 1] = "int64"; dts[#dts + 1] = "int64" end
      dts[#dts + 1] = "int64"
      if has_b then dts[#dts + 1] = A == "float16" and "float32" or A end
      if A == "complex128" and name ~= "add" and name ~= "subtract" then dts[#dts + 1] = "int64" end
      dts[#dts + 1] = A
      compiles(table.concat({ name, A, nidx }, " "), k, table.unpack(dts))
    end
  end)

  it("interp, convolve and nan_to_num", function()
    local MK = internal.math_kernels
    compiles("interp f32", MK.interp(), "float32", "float32", "float32", "int64", "float64", "float64", "bool", "bool")
    compiles("interp i64 f64 f16", MK.interp(), "int64", "float64", "float16", "int64", "float64", "float64", "bool",
             "bool")
    for _, t in ipairs { "float32", "float16", "int8", "bool", "complex64", "uint64" } do
      compiles("convolve " .. t, MK.convolve(t), t, t, "int64", "int64", "int64")
    end
    for _, t in ipairs { "float16", "float32", "float64", "complex64", "complex128" } do
      compiles("nan_to_num " .. t, MK.nan_to_num(), t, "float64", "float64", "float64")
    end
  end)

  it("the hidden ufuncs of frexp, modf and ldexp, every loop in every layout", function()
    for name, u in pairs(internal.multiout_ufuncs) do
      assert(core._test.compile(core._test.ufunc_source(u, true), nil, 90) > 0, name)
    end
  end)
end)

-- zero-size arrays own no device memory: the methods' and functions' dtype
-- and shape rules run here to the end
describe("math on zero-size arrays (no device needed)", function()
  local function is(dtype, shape, r)
    assert.equal(dtype, r.dtype)
    assert.same(shape, r.shape)
  end

  it("ufunc methods give NumPy's dtypes and shapes", function()
    is("int64", { 0 }, ga.add.reduce(ga.empty({ 2, 0 }, "int8")))
    is("float64", { 0 }, ga.divide.reduce(ga.empty({ 2, 0 }, "int8")))
    is("float32", { 0 }, ga.subtract.reduce(ga.empty({ 0, 3 }, "float32"), 2))
    is("int16", { 0 }, ga.gcd.reduce(ga.empty({ 2, 0 }, "int16")))
    is("bool", { 1, 0 }, ga.logical_xor.reduce(ga.empty({ 3, 0 }, "float32"), 1, nil, nil, true))
    is("uint64", { 0, 2 }, ga.add.accumulate(ga.empty({ 0, 2 }, "uint8"), 2))
    is("float16", { 0, 2 }, ga.maximum.accumulate(ga.empty({ 0, 2 }, "float16"), 2))
    is("int16", { 0, 3, 0 }, ga.multiply.outer(ga.empty(0, "int8"), ga.empty({ 3, 0 }, "int16")))
    assert.has_error(function() ga.maximum.reduce(ga.empty({ 3, 0 }), 2) end,
      "gpuarray: maximum.reduce: zero-size array to reduction operation maximum which has no identity")
  end)

  it("the functions give NumPy's dtypes and shapes", function()
    local m, e = ga.frexp(ga.empty({ 0, 2 }, "float32"))
    is("float32", { 0, 2 }, m)
    is("int32", { 0, 2 }, e)
    is("float16", { 0 }, ga.ldexp(ga.empty(0, "int8"), 3))
    is("int64", { 0, 3 }, ga.cumulative_sum(ga.empty({ 0, 3 }, "int8"), { axis = 1 }))
    is("float32", { 0 }, ga.nancumsum(ga.empty({ 0 }, "float32")))
    is("float64", { 0 }, ga.sinc(ga.empty({ 0 }, "int16")))
    is("float16", { 0 }, ga.nan_to_num(ga.empty({ 0 }, "float16")))
    is("float64", { 0 }, ga.unwrap(ga.empty({ 0 })))
    is("float64", { 0, 3 }, ga.cross(ga.empty({ 0, 3 }), ga.empty({ 0, 3 })))
    is("float64", { 0 }, ga.ediff1d(ga.empty({ 0 })))
    is("float64", { 2, 0 }, ga.sum(ga.empty({ 2, 0 }), {}))
    assert.has_error(function() ga.interp(ga.empty(0), ga.empty(0), ga.empty(0)) end,
      "gpuarray: interp: array of sample points is empty")
  end)
end)
