-- bfloat16 without a GPU (API.md §17): the dtype, rounding into it on the
-- host (typed scalars: float32 values against round-to-nearest-even on the
-- float32 bits, doubles and integers against one rounding of the value),
-- typed-scalar arithmetic (float32 computation rounded once), the one
-- promotion table (promote_types, result_type, can_cast, ufunc loops),
-- NVRTC compiles of every kernel kind for bfloat16, and the errors of
-- what has no bfloat16 (fft, .npy). The device side: bfloat16_gpu_spec.lua.
local helper = require "helper"
local R = require "spec.bf16.bfref"
local ga = helper.ga
local core = ga._core
local internal = require "gpuarray.internal"

local function compile(src, opts)
  local ok, r = pcall(core._test.compile, src, opts or {}, 90)
  assert(ok, r)
  return r
end

local function resolve(name, ...)
  return core.elementwise.resolve(ga[name], ...)
end

local function bf(v) return ga.bfloat16(v).value end

describe("bfloat16: the dtype", function()
  it("is ga.bfloat16, 2 bytes, a float, type char E, last in the id order", function()
    local d = ga.dtype("bfloat16")
    assert.equal(ga.bfloat16, d)
    assert.equal("bfloat16", d.name)
    assert.equal(2, d.itemsize)
    assert.equal("f", d.kind)
    assert.equal("E", d.char)
    assert.equal("<V2", d.str)
    assert.equal("<f2", ga.float16.str)
    local names = ga.dtype_names()
    assert.equal("bfloat16", names[#names])
    assert.equal(15, #names)
    assert.equal("bfloat16", internal.CHARS.E)
    assert.equal("float32", internal.COMPUTE.bfloat16)
    assert.equal("bfloat16", internal.CTYPE.bfloat16)
  end)

  it("has finfo as ml_dtypes gives it", function()
    local f = ga.finfo("bfloat16")
    assert.equal(16, f.bits)
    assert.equal(7, f.nmant)
    assert.equal(8, f.nexp)
    assert.equal(2 ^ -7, f.eps)
    assert.equal(2 ^ -8, f.epsneg)
    assert.equal(R.MAX, f.max)
    assert.equal(-R.MAX, f.min)
    assert.equal(R.TINY, f.tiny)
    assert.equal(R.SUB, f.smallest_subnormal)
    assert.equal(128, f.maxexp)
    assert.equal(-126, f.minexp)
    assert.equal(2, f.precision)
    assert.equal(R.round(0.01), f.resolution)
  end)

  it("is known to the C signatures of RawKernels (__nv_bfloat16)", function()
    assert.equal("bfloat16", core._test.ctype("__nv_bfloat16"))
    assert.equal("bfloat16", core._test.ctype("const nv_bfloat16"))
    assert.equal("pointer", core._test.ctype("const __nv_bfloat16 *"))
  end)
end)

describe("bfloat16: rounding on the host", function()
  it("rounds float32 values to nearest even on their bits (random bits)", function()
    for _ = 1, 20000 do
      local v = R.random_f32()
      local want = R.value(R.from_f32(v))
      if want == math.huge or want == -math.huge then
        helper.assert_gaerror(function() ga.bfloat16(v) end, "does not fit bfloat16")
      else
        local got = bf(v)
        assert(got == want and (1 / got > 0) == (1 / want > 0),
               ("bfloat16(%.9g): %.9g, expected %.9g (float32 bits 0x%08x)"):format(v, got, want, R.f32_bits(v)))
      end
    end
  end)

  it("rounds ties to even, carries into the exponent, keeps signed zeros and subnormals", function()
    local cases = {
      { 1 + 2 ^ -8, 1.0 }, { 1 + 3 * 2 ^ -8, 1 + 2 ^ -6 }, { 257, 256 }, { 259, 260 }, { -257, -256 },
      { 255.5, 256 }, { 2 - 2 ^ -9, 2 }, { 2 ^ -133, 2 ^ -133 }, { 2 ^ -134, 0 }, { 3 * 2 ^ -135, 2 ^ -133 },
      { 2 ^ -126 - 2 ^ -134, 2 ^ -126 }, { 1 / 3, 0.333984375 }, { 0.1, 0.10009765625 },
      { R.MAX, R.MAX }, { -R.MAX, -R.MAX },
    }
    for _, c in ipairs(cases) do
      assert.equal(c[2], bf(c[1]), ("%.17g"):format(c[1]))
      assert.equal(c[2], R.round(c[1]), "the reference: " .. ("%.17g"):format(c[1]))
    end
    assert.equal(-math.huge, 1 / bf(-0.0))
    assert.equal(-math.huge, 1 / bf(-2 ^ -140))
    assert.equal(math.huge, bf(math.huge))
    assert.equal(-math.huge, bf(-math.huge))
    local nan = bf(0 / 0)
    assert.is_true(nan ~= nan)
  end)

  it("rounds a double once, not through float32 (ml_dtypes <= 0.5 rounds twice)", function()
    -- float32 rounds 1 + 2^-8 + 2^-40 to 1 + 2^-8, a bfloat16 tie that goes
    -- to even (1.0); the value itself is above the midpoint
    assert.equal(1 + 2 ^ -7, bf(1 + 2 ^ -8 + 2 ^ -40))
    assert.equal(1.0, bf(1 + 2 ^ -8 - 2 ^ -40))
    assert.equal(-(1 + 2 ^ -7), bf(-(1 + 2 ^ -8 + 2 ^ -40)))
    -- past bfloat16's largest value but rounding to it: fits; from its
    -- midpoint with 2^128 on (a tie: the even neighbour is 2^128), not
    assert.equal(R.MAX, bf(R.MAX + 2 ^ 118))
    helper.assert_gaerror(function() ga.bfloat16(R.MAX + 2 ^ 119) end, "does not fit bfloat16")
    helper.assert_gaerror(function() ga.bfloat16(1e300) end, "does not fit bfloat16")
    for _ = 1, 20000 do
      -- random doubles: a random 53-bit mantissa over a wide exponent range
      local v = (math.random(1 << 52, (1 << 53) - 1) + 0.0) * 2.0 ^ (math.random(-190, 130) - 52)
      if math.random(2) == 1 then v = -v end
      local want = R.round(v)
      if math.abs(want) ~= math.huge then
        assert(bf(v) == want, ("bfloat16(%.17g): %.9g, expected %.9g"):format(v, bf(v), want))
      end
    end
  end)

  it("rounds integers once, past 2^53 too", function()
    assert.equal(16908288.0, bf(16973823))    -- float32 would make it a tie (16973824), rounding to 17039360
    assert.equal(-16908288.0, bf(-16973823))
    assert.equal(2.0 ^ 63, bf(math.maxinteger))
    assert.equal(-2.0 ^ 63, bf(math.mininteger))
    for _ = 1, 20000 do
      local n = math.random(math.mininteger, math.maxinteger) >> math.random(0, 62)
      if math.random(2) == 1 then n = -n end
      assert(bf(n) == R.round_int(n), ("bfloat16(%d): %.17g, expected %.17g"):format(n, bf(n), R.round_int(n)))
      -- a Lua integer and a typed int64 scalar convert alike
      assert.equal(R.round_int(n), ga.bfloat16(ga.int64(n)).value)
    end
  end)

  it("converts typed scalars to and from the other dtypes", function()
    assert.equal(R.round(1 / 3), ga.bfloat16(ga.float64(1 / 3)).value)
    assert.equal(R.value(R.from_f32(1 / 3)), ga.bfloat16(ga.float32(1 / 3)).value)
    assert.equal(0.333984375, ga.float32(ga.bfloat16(1 / 3)).value)
    assert.equal(0.333984375, ga.float64(ga.bfloat16(1 / 3)).value)
    assert.equal(R.round(ga.float16(1 / 3).value), ga.bfloat16(ga.float16(1 / 3)).value)
    assert.equal(-3, ga.int32(ga.bfloat16(-3.75)).value)
    assert.equal(true, ga.bool(ga.bfloat16(0.5)).value)
    assert.equal(256, ga.bfloat16(ga.uint16(257)).value)
    assert.equal(1.0, ga.bfloat16(true).value)
    local c = ga.complex64(ga.bfloat16(1.5)).value
    assert.same({ 1.5, 0 }, c)
  end)

  it("prints the shortest digits that read back as the bfloat16", function()
    assert.equal("bfloat16(0.1)", tostring(ga.bfloat16(0.1)))
    assert.equal("bfloat16(1.0)", tostring(ga.bfloat16(1)))
    assert.equal("bfloat16(256.0)", tostring(ga.bfloat16(257)))
    assert.equal("bfloat16(0.334)", tostring(ga.bfloat16(1 / 3)))
    assert.equal("bfloat16(-inf)", tostring(ga.bfloat16(-math.huge)))
    -- the formatting routines read the value in its own precision
    assert.equal("0.1", ga.format_float_positional(ga.bfloat16(0.1)))
    assert.equal(R.round(0.1), require("gpuarray.io.floatfmt").round_to(0.1, "bfloat16"))
  end)
end)

describe("bfloat16: typed-scalar arithmetic", function()
  it("computes in float32 and rounds once", function()
    local ops = {
      { "+", function(a, b) return a + b end }, { "-", function(a, b) return a - b end },
      { "*", function(a, b) return a * b end }, { "/", function(a, b) return a / b end },
    }
    for _ = 1, 4000 do
      local a, b = R.random_bf16(-20, 20), R.random_bf16(-20, 20)
      local x, y = ga.bfloat16(a), ga.bfloat16(b)
      for _, o in ipairs(ops) do
        local r = o[1] == "+" and x + y or o[1] == "-" and x - y or o[1] == "*" and x * y or x / y
        -- +, -, *, / in double then to float32 are float32's own results
        local want = R.value(R.from_f32(R.f32(o[2](a, b))))
        assert.equal("bfloat16", r.dtype)
        assert(r.value == want, ("%.9g %s %.9g: %.9g, expected %.9g"):format(a, o[1], b, r.value, want))
      end
    end
  end)

  it("takes Lua numbers as weak scalars, converted to bfloat16 first", function()
    local r = ga.bfloat16(1) + 0.1
    assert.equal("bfloat16", r.dtype)
    assert.equal(R.value(R.from_f32(R.f32(1 + R.round(0.1)))), r.value)
    assert.equal("bfloat16", (ga.bfloat16(1) * 3).dtype)
    assert.equal("float32", (ga.bfloat16(1) + ga.float16(1)).dtype)
    assert.equal("float64", (ga.bfloat16(1) + ga.float64(1)).dtype)
    assert.equal("bfloat16", (ga.bfloat16(1) + ga.int64(1)).dtype)
    assert.equal("complex64", (ga.bfloat16(1) + ga.complex64(1, 1)).dtype)
    assert.is_true(ga.bfloat16(0.1) == ga.bfloat16(0.1000001))
    assert.is_true(ga.bfloat16(1) < ga.bfloat16(1.01))
  end)
end)

describe("bfloat16: promotion (one table, JAX's rules)", function()
  local WITH = {
    bool = "bfloat16", int8 = "bfloat16", int16 = "bfloat16", int32 = "bfloat16", int64 = "bfloat16",
    uint8 = "bfloat16", uint16 = "bfloat16", uint32 = "bfloat16", uint64 = "bfloat16",
    float16 = "float32", float32 = "float32", float64 = "float64", complex64 = "complex64",
    complex128 = "complex128", bfloat16 = "bfloat16",
  }

  it("promote_types and result_type, both orders", function()
    for other, want in pairs(WITH) do
      assert.equal(want, ga.promote_types("bfloat16", other), other)
      assert.equal(want, ga.promote_types(other, "bfloat16"), other)
      assert.equal(want, ga.result_type(other, "bfloat16"), other)
    end
  end)

  it("Lua numbers are weak: bfloat16 stays, a complex number gives complex64", function()
    assert.equal("bfloat16", ga.result_type("bfloat16", 1))
    assert.equal("bfloat16", ga.result_type("bfloat16", 2.5))
    assert.equal("bfloat16", ga.result_type("bfloat16", true))
    assert.equal("bfloat16", ga.result_type("bfloat16", 1 << 62))
    assert.equal("complex64", ga.result_type("bfloat16", { 1, 2 }))
  end)

  it("many operands: independent of their order", function()
    local sets = {
      { { "int16", "uint16", "bfloat16" }, "bfloat16" }, { { "float16", "bfloat16", "int8" }, "float32" },
      { { "int64", "uint64", "bfloat16" }, "bfloat16" }, { { "bfloat16", "float16", "float64" }, "float64" },
      { { "bfloat16", 2.5, "int32" }, "bfloat16" }, { { "bool", "bfloat16", { 1, 0 } }, "complex64" },
    }
    for _, s in ipairs(sets) do
      local t = s[1]
      for _, perm in ipairs { { 1, 2, 3 }, { 3, 2, 1 }, { 2, 3, 1 }, { 1, 3, 2 } } do
        assert.equal(s[2], ga.result_type(t[perm[1]], t[perm[2]], t[perm[3]]))
      end
    end
  end)

  it("can_cast follows the table", function()
    for other, want in pairs(WITH) do
      assert.equal(want == "bfloat16", ga.can_cast(other, "bfloat16"), other .. " -> bfloat16")
      assert.equal(want == other, ga.can_cast("bfloat16", other), "bfloat16 -> " .. other)
    end
    assert.is_true(ga.can_cast("bfloat16", "float16", "same_kind"))
    assert.is_false(ga.can_cast("bfloat16", "int8", "same_kind"))
    assert.is_true(ga.can_cast("float64", "bfloat16", "same_kind"))
    assert.is_true(ga.can_cast("bfloat16", "int8", "unsafe"))
  end)

  it("picks the ufunc loops: bfloat16's own, integers unchanged", function()
    assert.same({ "bfloat16", "EE->E" }, { resolve("add", "bfloat16", "bfloat16") })
    assert.same({ "bfloat16", "EE->E" }, { resolve("add", "bfloat16", "int64") })
    assert.same({ "bfloat16", "EE->E" }, { resolve("multiply", "bfloat16", 2.5) })
    assert.same({ "float32", "ff->f" }, { resolve("add", "bfloat16", "float16") })
    assert.same({ "bfloat16", "EE->E" }, { resolve("divide", "bfloat16", "bfloat16") })
    assert.same({ "bfloat16", "E->E" }, { resolve("sqrt", "bfloat16") })
    assert.same({ "bool", "EE->?" }, { resolve("less", "bfloat16", 1) })
    assert.same({ "bool", "E->?" }, { resolve("isnan", "bfloat16") })
    assert.same({ "bfloat16", "E->E" }, { resolve("abs", "bfloat16") })
    assert.same({ "bfloat16", "EE->E" }, { resolve("nextafter", "bfloat16", "bfloat16") })
    assert.same({ "bfloat16", "EE->E" }, { resolve("floor_divide", "bfloat16", "int8") })
    -- integers still take NumPy's float loops, though they cast to bfloat16
    assert.same({ "float16", "e->e" }, { resolve("sqrt", "int8") })
    assert.same({ "float32", "f->f" }, { resolve("sqrt", "int16") })
    assert.same({ "float64", "d->d" }, { resolve("sqrt", "int64") })
    assert.same({ "float64", "bb->d" }, { resolve("divide", "int8", "int8") })
    -- dtype= picks bfloat16's loop for other inputs
    assert.same({ "bfloat16", "EE->E" }, { resolve("add", "int16", "int16", { dtype = "bfloat16" }) })
    assert.same({ "float32", "ff->f" }, { resolve("add", "bfloat16", "bfloat16", { dtype = "float32" }) })
    helper.assert_gaerror(function() resolve("bitwise_and", "bfloat16", "bfloat16") end,
                          "not supported for bfloat16")
    helper.assert_gaerror(function() resolve("gcd", "bfloat16", 1) end, "not supported for bfloat16")
  end)

  it("every ufunc with a float16 loop has a bfloat16 loop computing the same expression", function()
    for _, d in ipairs(internal.ufunc_defs) do
      local e, E = {}, {}
      for _, s in ipairs(d.loops) do
        if s:match("^e+%->") then e[#e + 1] = s end
        if s:match("^E+%->") then E[#E + 1] = s end
      end
      assert.equal(#e, #E, d.name)
      for i = 1, #e do assert.equal(e[i]:gsub("e", "E"), E[i], d.name) end
    end
  end)
end)

describe("bfloat16: kernels compile with NVRTC for sm_90", function()
  it("the copy engine's casts and fills, every dtype to and from bfloat16", function()
    local w = {}
    for i, t in ipairs(ga.dtype_names()) do
      local v = math.max(1, 16 // math.max(2, ga.dtype(t).itemsize))
      w[#w + 1] = core._test.copy_wrapper("flat", "a" .. i, "bfloat16", t, v, 1, false)
      w[#w + 1] = core._test.copy_wrapper("flat", "b" .. i, t, "bfloat16", v, 1, false)
      w[#w + 1] = core._test.copy_wrapper("strided", "c" .. i, t, "bfloat16", 1, 3, true)
      w[#w + 1] = core._test.copy_wrapper("tiled", "d" .. i, "bfloat16", t)
    end
    w[#w + 1] = core._test.copy_wrapper("fill", "f", "bfloat16", "bfloat16", 8, 1, false)
    w[#w + 1] = core._test.copy_wrapper("arange", "g", "bfloat16", "bfloat16")
    assert.is_true(compile(core.compile.kernel_source("common") .. core.compile.kernel_source("copy") ..
                           table.concat(w)) > 0)
  end)

  it("the ufuncs' bfloat16 loops, with the flat 8-wide vectors", function()
    for _, name in ipairs { "add", "multiply", "divide", "sqrt", "exp", "tanh", "maximum", "nextafter", "less",
                            "isnan", "floor_divide", "power", "arctan2", "sign", "rint" } do
      local src = core._test.ufunc_source(ga[name])
      assert.truthy(src:find("bfloat16", 1, true), name)
      assert.is_true(compile(src) > 0, name)
    end
  end)

  it("every built-in reduction and both scans", function()
    local RD = internal.reductions
    for name, f in pairs(RD) do
      compile(core._test.reduction_source(f, "bfloat16", { kind = "row", vec = 8 }))
      compile(core._test.reduction_source(f, "bfloat16", { kind = "col", ndk = 2 }))
      compile(core._test.reduction_source(f, "bfloat16", { fin = true }))
      compile(core._test.reduction_source(f, "bfloat16", { kind = "row", vec = 8, onek = true }))
      assert.truthy(name)
    end
    compile(core._test.reduction_source(RD.sum, "int8", nil, { dtype = "bfloat16" }))
    compile(core._test.reduction_source(RD.mean, "bfloat16", nil, { out = "float32" }))
    for _, op in ipairs { "cumsum", "cumprod" } do
      compile(core._test.scan_source(op, "bfloat16", nil, "tiles", 1))
      compile(core._test.scan_source(op, "bfloat16", nil, "rows", 2))
    end
  end)

  it("the sort engine (radix passes, searchsorted, CUB's onesweep)", function()
    compile(core._test.sort_source("hist", "bfloat16"))
    compile(core._test.sort_source("pass", "bfloat16"))
    compile(core._test.sort_source("search", "bfloat16", true))
    compile(core._test.sort_source("flags", "bfloat16"))
    local src, opts = core._test.sort_cub_source({ { "hist", "bfloat16", 0, false }, { "pass", "bfloat16", 1, true } })
    if src then compile(src, opts) end
  end)

  it("random: uniform (rounded down), normal, lognormal, exponential", function()
    for _, kind in ipairs { "uniform", "normal", "lognormal", "exponential" } do
      local src = core._test.random_source(kind, "bfloat16")
      if kind == "uniform" then assert.truthy(src:find("ga_uniform_bf", 1, true)) end
      compile(src)
    end
    helper.assert_gaerror(function() core._test.random_source("gamma", "bfloat16") end, "gamma cannot produce bfloat16")
  end)

  it("ElementwiseKernel: bfloat16 by name and as a placeholder, arrays and scalars", function()
    local k = ga.ElementwiseKernel("bfloat16 x, T y, float32 s", "bfloat16 z", "z = x * y + s", "bf_ek")
    for _, layout in ipairs { { layout = "flat", vec = 8 }, { layout = "strided" } } do
      layout.types = { "bfloat16", "bfloat16", "float32", "bfloat16" }
      local src, opts = core._test.elementwise_kernel_source(k, layout)
      compile(src, opts)
    end
    local k2 = ga.ElementwiseKernel("T x, raw T t", "U y", "y = (U)(x + t[i])", "bf_ek2")
    local src, opts = core._test.elementwise_kernel_source(k2, { types = { "bfloat16", "bfloat16", "float64" } })
    compile(src, opts)
  end)

  it("ReductionKernel: bfloat16 in, float32 accumulation, bfloat16 out", function()
    local k = ga.ReductionKernel("bfloat16 x", "bfloat16 y", "(float)x * (float)x", "a + b", "y = sqrt(a)", "0",
                                 "bf_l2", { reduce_type = "float32" })
    compile(core._test.reduction_kernel_source(k, { "bfloat16" }))
    local g = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "bf_sum")
    compile(core._test.reduction_kernel_source(g, { "bfloat16" }))
  end)

  it("RawKernel and RawModule with cuda_bf16.h (the toolkit's include directory is searched)", function()
    local k = ga.RawKernel([[
#include <cuda_bf16.h>
extern "C" __global__ void bf_scale(const __nv_bfloat16 *x, __nv_bfloat16 *y, __nv_bfloat16 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hmul(x[i], a);
}]], "bf_scale")
    assert.equal("bf_scale", k.name)
    local m = ga.RawModule([[
#include <cuda_bf16.h>
extern "C" __global__ void bf_fill(__nv_bfloat16 *y, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16_rn(v);
}]])
    assert.is_not_nil(m:get_function("bf_fill"))
    -- the module's own type in a RawKernel that includes nothing
    compile(core.compile.kernel_source("common") ..
            [[extern "C" __global__ void k(bfloat16 *y, const bfloat16 *x) { y[0] = (float)x[0] * 2.0f; }]])
  end)

  it("jit: bfloat16 arrays and the bfloat16 cast in the kernel language", function()
    local jit = ga.jit
    local f = jit.rawkernel(function(x, y, n)
      local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
      if i < n then y[i] = jit.bfloat16(x[i] * 2 + 1) end
    end)
    local src = f:source("bfloat16[]", "bfloat16[]", ga.int32(4))
    assert.truthy(src:find("ga_cast<bfloat16>", 1, true), src)
    compile(src)
    local g = jit.rawkernel(function(x, y)
      local i = jit.threadIdx.x
      y[i] = math.sqrt(x[i]) + jit.float32(x[i])
    end)
    compile(g:source("bfloat16[]", "float32[]"))
  end)

  it("fuse: bfloat16 chains keep bfloat16 intermediates and reduce in float", function()
    local f = ga.fuse(function(x, y) return ga.tanh(x * y + 1) end)
    local p = f:_trace({ dtype = "bfloat16", ndim = 1 }, { dtype = "bfloat16", ndim = 1 })
    assert.equal("bfloat16 a1, bfloat16 a2", p.in_params)
    assert.equal("bfloat16 o0", p.out_params)
    local k = ga.ElementwiseKernel(p.in_params, p.out_params, p.operation, "fzbf",
                                   p.preamble ~= "" and { preamble = p.preamble } or nil)
    local src, opts = core._test.elementwise_kernel_source(k, { types = { "bfloat16", "bfloat16", "bfloat16" } })
    compile(src, opts)
    local s = ga.fuse(function(x) return ga.sum(x * x) end)
    local q = s:_trace({ dtype = "bfloat16", ndim = 1 })
    assert.equal("reduction", q.kind)
    assert.equal("float", q.reduce_type)
    local rk = ga.ReductionKernel(q.in_params, q.out_params, q.map, q.reduce, q.post, q.identity, "fzrbf",
                                  { reduce_type = q.reduce_type, preamble = q.preamble })
    compile(core._test.reduction_kernel_source(rk, { "bfloat16" }))
  end)
end)

describe("bfloat16: what has none", function()
  it("random distributions computed in double name the dtypes they take", function()
    helper.assert_gaerror(function() ga.random.gamma(2, 1, 4, "bfloat16") end,
                          "random.gamma: dtype must be float32 or float64, got bfloat16")
    helper.assert_gaerror(function() ga.random.random(4, "float16") end,
                          "random.random: dtype must be float32, float64 or bfloat16, got float16")
  end)

  it("fft and .npy raise naming the way out, before any work (empty arrays, no device)", function()
    local x = ga.empty(0, "bfloat16")
    for _, f in ipairs { "fft", "ifft", "rfft", "fftn" } do
      helper.assert_gaerror(function() ga.fft[f](x) end,
                            "fft." .. f .. ": cuFFT has no bfloat16 transforms for general sizes; convert first: "
                            .. 'x:astype("float32")')
    end
    local path = os.tmpname()
    os.remove(path)
    for _, f in ipairs { "save", "savez", "savez_compressed" } do
      helper.assert_gaerror(function() ga[f](path, x) end, f .. ": .npy files have no bfloat16 dtype; save "
                            .. 'x:astype("float32") instead')
    end
    for _, ext in ipairs { "", ".npy", ".npz" } do
      local fh = io.open(path .. ext, "rb")
      if fh then fh:close() end
      assert.is_nil(fh, "a file was written: " .. path .. ext)
    end
  end)

  it("products follow the promotion table (empty operands, no device)", function()
    local function m(shape, dt) return ga.empty(shape, dt) end
    assert.equal("bfloat16", ga.matmul(m({ 0, 3 }, "bfloat16"), m({ 3, 0 }, "bfloat16")).dtype)
    assert.equal("float32", ga.matmul(m({ 0, 3 }, "float16"), m({ 3, 0 }, "bfloat16")).dtype)
    assert.equal("bfloat16", ga.matmul(m({ 0, 3 }, "int8"), m({ 3, 0 }, "bfloat16")).dtype)
    assert.equal("float64", ga.matmul(m({ 0, 3 }, "bfloat16"), m({ 3, 0 }, "float64")).dtype)
    assert.equal("bfloat16", ga.einsum("ij,jk->ik", m({ 0, 3 }, "bfloat16"), m({ 3, 0 }, "bfloat16")).dtype)
    assert.same({ 0, 0 }, ga.einsum("ij,jk->ik", m({ 0, 3 }, "bfloat16"), m({ 3, 0 }, "bfloat16")).shape)
  end)

  it("ndimage's routines for integer labels refuse bfloat16 as a float", function()
    local x = ga.empty({ 0, 3 }, "bfloat16")
    helper.assert_gaerror(function() ga.scipy.ndimage.find_objects(x) end,
                          "scipy.ndimage.find_objects: input must be of integer type")
    helper.assert_gaerror(function() ga.scipy.ndimage.value_indices(x) end,
                          "scipy.ndimage.value_indices: Parameter 'arr' must be an integer array")
  end)
end)
