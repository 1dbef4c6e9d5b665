-- Compatibility with CuPy's user kernels (issue 15): `n` is a user name,
-- only one-letter types are placeholders, RawKernel names match whole and
-- RawKernel/RawModule compile at construction (NVRTC needs no GPU, so all
-- of this but the launches runs on CI).
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gpu_it = helper.gpu_it

local EK = ga.ElementwiseKernel

describe("compat: ElementwiseKernel parameters", function()
  it("takes a parameter named n (CuPy reserves only i and _ names)", function()
    local k = EK("T x, int32 n", "T y", "y = x * (T)n", "scale_n")
    assert.equal("gpuarray.ElementwiseKernel(scale_n)", tostring(k))
    -- the generated code's own count is _n: no clash in any layout
    for _, layout in ipairs { { layout = "flat", vec = 4 }, { layout = "strided", nd = 2 } } do
      layout.types = { "float32", "int32", "float32" }
      layout.scalar = { false, true }
      local src = core._test.elementwise_kernel_source(k, layout)
      assert.is_nil(src:find("[^_%w]n%s*=", 1), "generated code assigns its own n")
      assert.is_true(core._test.compile(src, nil, 90) > 0)
    end
    local r = ga.ReductionKernel("T x, int32 n", "T y", "x * (T)n", "a + b", "y = a", "0", "sum_n")
    assert.equal("gpuarray.ReductionKernel(sum_n)", tostring(r))
    helper.assert_gaerror(function() EK("float32 i", "float32 y", "y = i", "k") end, "reserved")
    helper.assert_gaerror(function() EK("float32 _x", "float32 y", "y = _x", "k") end, "reserved")
  end)

  it("raises for a multi-letter type that is not a dtype, listing the dtypes", function()
    local err = helper.assert_gaerror(function() EK("flot32 x", "float32 y", "y = x", "k") end,
                                      "parameter x: unknown type 'flot32'")
    for _, name in ipairs(ga.dtype_names()) do assert.truthy(err:find(name, 1, true), name) end
    helper.assert_gaerror(function() EK("float32 x", "TT y", "y = x", "k") end, "unknown type 'TT'")
    helper.assert_gaerror(function() ga.ReductionKernel("Tx x", "T y", "x", "a + b", "y = a", "0", "r") end,
                          "unknown type 'Tx'")
    -- one letter is a placeholder, as in CuPy
    assert.same({ name = "x", type = "U", raw = false }, core._test.parse_params("U x")[1])
  end)

  gpu_it("runs a kernel with an int32 n", function()
    local k = EK("T x, int32 n", "T y", "y = x * (T)n", "scale_n")
    local vals = {}
    for i = 1, 37 do vals[i] = math.random(-500, 500) / 4 end
    local n = math.random(2, 9)
    local y = k(ga.array(vals, "float64"), n)
    assert.equal("float64", y.dtype)
    assert.same({ 37 }, y.shape)
    local want = {}
    for i, v in ipairs(vals) do want[i] = v * n end
    helper.assert_same(want, y:totable())
  end)
end)

describe("compat: RawKernel and RawModule", function()
  local SRC = [[
extern "C" __global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
extern "C" __global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
]]

  it("matches the kernel name as a whole name, naming the kernels the source declares", function()
    for _, bad in ipairs { "g", "glo", "add", "one", "twic", "add_one2" } do
      local err = helper.assert_gaerror(function() ga.RawKernel(SRC, bad) end,
                                        "RawKernel: the source has no kernel named '" .. bad .. "'")
      assert.truthy(err:find("add_one, twice", 1, true), err)
    end
    assert.equal("add_one", ga.RawKernel(SRC, "add_one").name)
    local m = ga.RawModule(SRC)
    helper.assert_gaerror(function() m:get_function("tw") end, "get_function: the source has no kernel named 'tw'")
    assert.equal("twice", m:get_function("twice").name)
    helper.assert_gaerror(function() ga.RawKernel("__device__ int g;", "g") end, "declares no __global__ function")
  end)

  it("accepts kernels that a macro makes, named as a whole identifier", function()
    local src = "#define K(name) extern \"C\" __global__ void name(float *x) { x[0] = 1; }\nK(made)\n"
    assert.equal("made", ga.RawKernel(src, "made").name)
    helper.assert_gaerror(function() ga.RawKernel(src, "mad") end, "no kernel named 'mad'")
  end)

  it("raises compile errors at construction", function()
    local bad = "extern \"C\" __global__ void broken(float *x) {\n  x[0] = undefined_name;\n}\n"
    local err = helper.assert_gaerror(function() ga.RawKernel(bad, "broken") end,
                                      "RawKernel 'broken': compile error")
    assert.truthy(err:find("undefined_name", 1, true))
    helper.assert_gaerror(function() ga.RawModule(bad) end, "RawModule: compile error")
    helper.assert_gaerror(function() ga.RawKernel(SRC, "add_one", { options = { "--bogus-flag" } }) end,
                          "RawKernel 'add_one': invalid NVRTC option")
    -- a name expression NVRTC cannot resolve is an error of the module too
    local tmpl = "template <typename T> __global__ void f(T *x) { x[0] = (T)1; }\n"
    assert.truthy(ga.RawModule(tmpl, { name_expressions = { "f<float>" } }))
    helper.assert_gaerror(function() ga.RawModule(tmpl, { name_expressions = { "f<nosuchtype>" } }) end,
                          "RawModule")
  end)

  gpu_it("launches a kernel compiled at construction", function()
    local k = ga.RawKernel(SRC, "add_one")
    local vals = {}
    for i = 1, 50 do vals[i] = math.random(-100, 100) / 8 end
    local x = ga.array(vals, "float32")
    k(1, 64, { x, 50 })
    local want = {}
    for i, v in ipairs(vals) do want[i] = helper.to_f32(v + 1) end
    helper.assert_same(want, x:totable())
  end)
end)

describe("compat: k:compile(dtype...) for ElementwiseKernel and ReductionKernel", function()
  local RK = ga.ReductionKernel

  it("compiles an ElementwiseKernel for the dtypes given, without running it", function()
    local k = EK("T x, int32 n", "T y", "y = x * (T)n", "ek_compile_ok")
    assert.equal(k, k:compile("float32", "int32"))
    assert.equal(k, k:compile(ga.float64, "int32", "float64"))   -- with the output's dtype
    local raw = EK("raw T x, int32 m", "T y", "y = x[i % m]", "ek_compile_raw")
    assert.equal(raw, raw:compile("complex64", "int32"))
    -- an output placeholder no input binds needs its dtype
    local u = EK("T x", "U y", "y = (U)x", "ek_compile_unbound")
    helper.assert_gaerror(function() u:compile("float64") end,
                          "placeholder type U (of output y) is not bound by the inputs")
    assert.equal(u, u:compile("float64", "int8"))
  end)

  it("raises a compile error with NVRTC's log", function()
    local k = EK("T x", "T y", "y = x +* undefined_thing", "ek_compile_bad")
    local err = helper.assert_gaerror(function() k:compile("float32") end,
                                      "ElementwiseKernel 'ek_compile_bad': compile error")
    assert.truthy(err:find("undefined_thing", 1, true), err)
    assert.truthy(err:find("error", 30, true), err)
    -- an error only some dtypes show: a bitwise operator on floats
    local b = EK("T x", "T y", "y = x & (T)1", "ek_compile_bits")
    assert.equal(b, b:compile("int32"))
    helper.assert_gaerror(function() b:compile("float64") end, "ElementwiseKernel 'ek_compile_bits': compile error")
  end)

  it("checks the dtypes like a call", function()
    local k = EK("T x, int32 n", "T y", "y = x * (T)n", "ek_compile_args")
    helper.assert_gaerror(function() k:compile("float32") end,
                          "compile: ek_compile_args takes 2 dtypes (one per input) or 3 (inputs and outputs), got 1")
    helper.assert_gaerror(function() k:compile("float32", "int32", "float32", "int8") end, "got 4")
    local err = helper.assert_gaerror(function() k:compile("flot32", "int32") end, "compile: unknown dtype 'flot32'")
    assert.truthy(err:find("complex128", 1, true), err)
    helper.assert_gaerror(function() k:compile(3, "int32") end, "expected a dtype")
    helper.assert_gaerror(function() k:compile("float32", "int64") end,
                          "argument 2 (n) is int64, the kernel declares int32")
    helper.assert_gaerror(function() k:compile("float32", "int32", "float64") end, "T is already float64")
  end)

  it("compiles a ReductionKernel for the dtypes given", function()
    local r = RK("T x, int32 n", "T y", "x * (T)n", "a + b", "y = a", "0", "rk_compile_ok")
    assert.equal(r, r:compile("float32", "int32"))
    assert.equal(r, r:compile("complex128", "int32", "complex128"))
    local u = RK("T x", "U y", "x", "a + b", "y = a", "0", "rk_compile_unbound")
    helper.assert_gaerror(function() u:compile("float64") end, "output type U is not bound by the inputs")
    assert.equal(u, u:compile("float64", "float32"))
    local bad = RK("T x", "T y", "x", "a +* missing_b", "y = a", "0", "rk_compile_bad")
    local err = helper.assert_gaerror(function() bad:compile("float64") end,
                                      "ReductionKernel 'rk_compile_bad': compile error")
    assert.truthy(err:find("missing_b", 1, true), err)
    helper.assert_gaerror(function() r:compile() end, "compile: rk_compile_ok takes 2 dtypes")
    helper.assert_gaerror(function() r:compile("float32", "nope") end, "unknown dtype 'nope'")
    helper.assert_gaerror(function() r:compile("float32", "int16") end, "the kernel takes int32")
  end)

  gpu_it("runs a kernel compiled ahead of the call", function()
    local k = EK("T x, int32 n", "T y", "y = x * (T)n", "ek_compile_run"):compile("float64", "int32")
    local r = RK("T x", "T y", "x * x", "a + b", "y = a", "0", "rk_compile_run"):compile("float64")
    local vals = {}
    for i = 1, 41 do vals[i] = math.random(-200, 200) / 8 end
    local x = ga.array(vals, "float64")
    local n = math.random(2, 7)
    local want, ss = {}, 0
    for i, v in ipairs(vals) do
      want[i] = v * n
      ss = ss + v * v
    end
    helper.assert_same(want, k(x, n):totable())
    helper.assert_same(ss, r(x):item(), 1e-12)
  end)
end)
