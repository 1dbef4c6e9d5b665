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
      local src = k:_source(layout)
      assert.is_nil(src:find("[^_%w]n%s*=", 1), "generated code assigns its own n")
      assert.is_true(core._compile(src, nil, 90) > 0)
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
    assert.same({ name = "x", type = "U", raw = false }, core._parse_params("U x")[1])
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
