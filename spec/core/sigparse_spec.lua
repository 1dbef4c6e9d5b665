-- The __global__ signature parser (src/core/sigparse.c): how RawKernel learns
-- the C type of each parameter, so Lua numbers convert without wrapping.
-- Pure C: runs without a GPU. core._test.sigparse(src) lists every kernel,
-- core._test.sigfind(src, name) finds the one a launch name means (binding
-- template arguments of name expressions), core._test.ctype(text) types one C type.
local core = require "gpuarray.core"

local function kinds(k)
  local out = {}
  for i, p in ipairs(k.params) do out[i] = p.kind == "scalar" and p.dtype or p.kind end
  return out
end

local function names(k)
  local out = {}
  for i, p in ipairs(k.params) do out[i] = p.name end
  return out
end

describe("signature parser", function()
  it("reads the seeds' my_add kernel", function()
    local ks = core._test.sigparse([[
extern "C" __global__
void my_add(const float* x1, const float* x2, float* y) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + x2[tid];
}]])
    assert.equal(1, #ks)
    assert.equal("my_add", ks[1].name)
    assert.is_true(ks[1].extern_c)
    assert.same({ "pointer", "pointer", "pointer" }, kinds(ks[1]))
    assert.same({ "x1", "x2", "y" }, names(ks[1]))
    assert.equal("float*", ks[1].params[1].type)
  end)

  it("maps the C scalar types to dtypes (LP64: long is 64 bits)", function()
    local cases = {
      { "bool", "bool" }, { "char", "int8" }, { "signed char", "int8" }, { "unsigned char", "uint8" },
      { "short", "int16" }, { "short int", "int16" }, { "unsigned short", "uint16" },
      { "int", "int32" }, { "signed", "int32" }, { "unsigned", "uint32" }, { "unsigned int", "uint32" },
      { "long", "int64" }, { "long int", "int64" }, { "unsigned long", "uint64" },
      { "long long", "int64" }, { "long long int", "int64" }, { "unsigned long long", "uint64" },
      { "long unsigned int", "uint64" }, { "float", "float32" }, { "double", "float64" },
      { "size_t", "uint64" }, { "std::size_t", "uint64" }, { "ptrdiff_t", "int64" },
      { "int8_t", "int8" }, { "int32_t", "int32" }, { "std::int64_t", "int64" }, { "uint16_t", "uint16" },
      { "uint64_t", "uint64" }, { "half", "float16" }, { "__half", "float16" },
      { "__nv_bfloat16", "bfloat16" }, { "nv_bfloat16", "bfloat16" }, { "bfloat16", "bfloat16" },
      { "float16", "float16" }, { "float32", "float32" }, { "int64", "int64" },
      { "complex<float>", "complex64" }, { "thrust::complex<double>", "complex128" },
      { "cuFloatComplex", "complex64" }, { "cuDoubleComplex", "complex128" },
      { "const int", "int32" }, { "volatile unsigned", "uint32" },
    }
    for _, c in ipairs(cases) do
      assert.equal(c[2], core._test.ctype(c[1]), c[1])
    end
    for _, t in ipairs { "float *", "const double* __restrict__", "int**", "void *" } do
      assert.equal("pointer", core._test.ctype(t), t)
    end
    for _, t in ipairs { "long double", "Foo", "float2", "__nv_bfloat162", "unsigned float", "void" } do
      assert.is_nil(core._test.ctype(t), t)
    end
  end)

  it("drops qualifiers, __restrict__ and attributes; finds pointers and names", function()
    local k = core._test.sigparse([[
extern "C" __global__ void __launch_bounds__(256, 2)
k(const float * __restrict__ a, float *const b, volatile int* c, const int n,
  unsigned long long int m, float x[], const __grid_constant__ double g, int) {}
]])[1]
    assert.equal("k", k.name)
    assert.same({ "pointer", "pointer", "pointer", "int32", "uint64", "pointer", "float64", "int32" }, kinds(k))
    assert.same({ "a", "b", "c", "n", "m", "x", "g", "" }, names(k))
    assert.equal("unsigned long long int", k.params[5].type)
  end)

  it("skips comments, strings, character literals and preprocessor lines", function()
    local ks = core._test.sigparse([[
#include <cuda_fp16.h>
#define KERNEL(name) __global__ void name(float *p) { }
#define LONG_MACRO(x) \
    __global__ void in_macro(int x)
// __global__ void line_comment(int a) {}
/* __global__ void block_comment(int a) {}
   extern "C" __global__ void still_comment(int a); */
__device__ const char *s = "__global__ void in_string(int a) {}";
__device__ const char c = '{';
__device__ const char *r = R"x(__global__ void raw(int a) { "}" )x";
extern "C" __global__ void real(int a /* , float b */, float c // d
) { const char *t = "}"; }
]])
    assert.equal(1, #ks)
    assert.equal("real", ks[1].name)
    assert.same({ "int32", "float32" }, kinds(ks[1]))
  end)

  it("finds several kernels in one source, in order, and skips function bodies", function()
    local ks = core._test.sigparse([[
struct Pair { float a, b; __device__ float sum() const { return a + b; } };
__device__ float helper(float x) { if (x > 0) { return x; } return -x; }
extern "C" __global__ void first(float *x, int n) { for (int i = 0; i < n; i++) { x[i] = helper(x[i]); } }
extern "C" __global__ void second(double a);
extern "C" __global__ void second(double a) { }
extern "C" __global__ void third() { }
]])
    local got = {}
    for i, k in ipairs(ks) do got[i] = k.name end
    assert.same({ "first", "second", "second", "third" }, got)
    assert.same({ "pointer", "int32" }, kinds(ks[1]))
    assert.same({ "float64" }, kinds(ks[2]))
    assert.same({}, ks[4].params)
    assert.same({}, core._test.sigparse("__global__ void v(void) {}")[1].params)
  end)

  it("knows extern \"C\" from the declaration and from extern \"C\" { } blocks", function()
    local ks = core._test.sigparse([[
extern "C" {
  __global__ void a(int x) {}
  namespace inner { __global__ void b(int x) {} }
}
extern "C++" { __global__ void c(int x) {} }
__global__ void d(int x) {}
namespace ns { extern "C" __global__ void e(int x) {} }
]])
    local ext = {}
    for _, k in ipairs(ks) do ext[k.name] = k.extern_c end
    assert.same({ a = true, b = true, c = false, d = false, e = true }, ext)
  end)

  it("reads template parameters and binds them from name expressions", function()
    local src = [[
template <typename T, int N, class U = float>
__global__ void scale(T *out, const T *in, T a, U b, int n) {
  for (int i = 0; i < N; i++) out[i] = in[i] * a;
}
extern "C" __global__ void plain(int n) {}
]]
    local k = core._test.sigparse(src)[1]
    assert.same({ "T", "N", "U" }, k.template)
    assert.is_false(k.extern_c)
    assert.same({ "pointer", "pointer", "unknown", "unknown", "int32" }, kinds(k))
    assert.equal(1, k.params[3].tparam)
    assert.equal(3, k.params[4].tparam)

    local f = core._test.sigfind(src, "scale<float, 4>")
    assert.same({ "pointer", "pointer", "float32", "unknown", "int32" }, kinds(f))
    assert.equal("float", f.params[3].type)
    local d = core._test.sigfind(src, "&scale<unsigned long, 2, double>")
    assert.same({ "pointer", "pointer", "uint64", "float64", "int32" }, kinds(d))
    local p = core._test.sigfind(src, "scale<float*, 1>")
    assert.equal("pointer", p.params[3].kind)
    local plain = core._test.sigfind(src, "plain")
    assert.same({ "int32" }, kinds(plain))
    assert.is_nil(core._test.sigfind(src, "missing"))
    assert.is_nil(core._test.sigfind(src, "plain<int>"))   -- not a template
  end)

  it("understands simple aliases declared before the kernel", function()
    local k = core._test.sigparse([[
typedef float real;
typedef unsigned long long index_t;
using acc_t = double;
typedef float *fptr;
typedef struct { float x, y; } vec2;
extern "C" __global__ void k(real a, index_t n, acc_t s, fptr p, vec2 v) {}
]])[1]
    assert.same({ "float32", "uint64", "float64", "pointer", "unknown" }, kinds(k))
    assert.equal("vec2", k.params[5].type)
  end)

  it("marks what it cannot type as unknown rather than guessing", function()
    local k = core._test.sigparse([[
struct Params { int n; float a; };
extern "C" __global__ void k(Params p, long double q, float2 v, const int &r, __nv_bfloat162 b) {}
]])[1]
    assert.same({ "unknown", "unknown", "unknown", "unknown", "unknown" }, kinds(k))
    assert.same({ "p", "q", "v", "r", "b" }, names(k))
    assert.equal("int&", k.params[4].type)
  end)

  it("survives malformed or truncated source", function()
    for _, src in ipairs {
      "", "__global__", "__global__ void", "__global__ void k(", "__global__ void k(int a",
      "extern \"C\" __global__ void k(int a) {", "/* unterminated", "\"unterminated",
      "__global__ void (int a) {}", "__global__ ;", "}}}} __global__ void k(int a) {}",
      "template <typename T __global__ void k(T a) {}", ("{"):rep(100) .. "__global__ void k(int) {}",
    } do
      local ok, ks = pcall(core._test.sigparse, src)
      assert.is_true(ok, src)
      assert.is_table(ks)
    end
    local ks = core._test.sigparse("}}}} __global__ void k(int a) {}")
    assert.equal("k", ks[1].name)
  end)

  it("handles very long parameter lists", function()
    local ps = {}
    for i = 1, 100 do ps[i] = "float a" .. i end
    local k = core._test.sigparse("extern \"C\" __global__ void many(" .. table.concat(ps, ", ") .. ") {}")[1]
    assert.equal(100, #k.params)
    assert.equal("a100", k.params[100].name)
    for i = 101, 200 do ps[i] = "int b" .. i end
    local big = core._test.sigparse("extern \"C\" __global__ void many(" .. table.concat(ps, ", ") .. ") {}")[1]
    assert.is_true(big.too_many)
  end)
end)
