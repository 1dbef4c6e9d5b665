-- ga.RawKernel and ga.RawModule (docs/api.md §7). Without a GPU: construction,
-- parsed signatures, argument errors (they are raised before any device is
-- needed), NVRTC compiles of the examples' kernels for sm_90, compile errors.
-- On the GPU: results against Lua references with int, float and double
-- scalars given as Lua numbers, dynamic shared memory above 48 KiB, templated
-- modules, attributes, launch limits and launch failures.
local helper = require "helper"
local spin = require "spin"
local ga = helper.ga
local core = ga._core
local gpu_it = helper.gpu_it

local MY_ADD = [[
extern "C" __global__
void my_add(const float* x1, const float* x2, float* y) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + x2[tid];
}
]]

local TYPED = [[
struct Params { int n; float a; };
#define DECLARE(name) extern "C" __global__ void name(float *x, int n) { }
DECLARE(hidden)
extern "C" __global__ void typed(const float *x, float *y, int n, float a, double b,
                                 unsigned char u, long long big, Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + (float)b + u + (float)big + p.a;
}
]]

local BAD = [[
extern "C" __global__ void broken(float *x, int n) {
  int i = threadIdx.x;
  x[i] = undefined_name + 1;
}
]]

-- kernels of the GPU cases below (compiled for sm_90 without a GPU too)
local MIX = [[
extern "C" __global__ void mix(const int *xi, int *yi, const float *xf, float *yf,
                               const double *xd, double *yd, int n, int ki, float kf, double kd,
                               long long kl, unsigned short ku) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    yi[i] = xi[i] * ki + (int)ku;
    yf[i] = xf[i] * kf + 1.0f;
    yd[i] = xd[i] * kd + (double)kl;
  }
}
]]
local REVERSE = [[
extern "C" __global__ void reverse_block(const float *x, float *y, int per_block) {
  extern __shared__ float buf[];
  const float *src = x + (long long)blockIdx.x * per_block;
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) buf[i] = src[i];
  __syncthreads();
  float *dst = y + (long long)blockIdx.x * per_block;
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) dst[i] = buf[per_block - 1 - i];
}
]]
local AXPB = [[
template <typename T>
__global__ void axpb(const T *x, T *y, T a, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}
extern "C" __global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}
]]
local STAT = [[
extern "C" __global__ void __launch_bounds__(128) stat(float *x) {
  __shared__ float tile[1024];
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[127 - threadIdx.x];
}
]]
local BOUNDED = [[
extern "C" __global__ void __launch_bounds__(64) small(float *x) { x[threadIdx.x] = 1; }
]]

--- Run an example with a stand-in gpuarray that records the kernels it
-- makes and stops at its first other use of the module.
local STOP = {}
local function example_kernels(path)
  local kernels = {}
  local function dummy()
    return setmetatable({}, { __call = function() error(STOP) end,
                              __index = function() error(STOP) end })
  end
  local proxy = setmetatable({}, { __index = function(_, key)
    if key == "RawKernel" then
      return function(src, name, opts)
        kernels[#kernels + 1] = { src = src, name = name, opts = opts or {} }
        return dummy()
      end
    elseif key == "RawModule" then
      return function(src, opts)
        kernels[#kernels + 1] = { src = src, opts = opts or {}, module = true }
        return dummy()
      end
    end
    -- examples/common.lua's test for a device: the stand-in has one
    if key == "is_available" then return function() return true end end
    error(STOP)
  end })
  local env
  env = setmetatable({
    arg = { [0] = path },
    require = function(name)
      if name == "gpuarray" then return proxy end
      return require(name)
    end,
    -- examples/common.lua, loaded by the example, sees the stand-in too
    dofile = function(file) return assert(loadfile(file, "t", env))() end,
  }, { __index = _G })
  local chunk = assert(loadfile(path, "t", env))
  local ok, err = pcall(chunk)
  assert(ok or err == STOP, tostring(err))
  return kernels
end

describe("RawKernel without launching", function()
  it("reads the kernel's signature at construction", function()
    local k = ga.RawKernel(MY_ADD, "my_add")
    assert.equal("my_add", k.name)
    assert.equal(MY_ADD, k.code)
    assert.same({}, k.options)
    assert.equal("gpuarray.RawKernel(my_add)", tostring(k))
    local kinds = {}
    for i, p in ipairs(k.params) do kinds[i] = p.kind .. " " .. p.type .. " " .. p.name end
    assert.same({ "pointer float* x1", "pointer float* x2", "pointer float* y" }, kinds)
    local t = ga.RawKernel(TYPED, "typed", { options = { "-DEXTRA=1" } })
    assert.same({ "-DEXTRA=1" }, t.options)
    local dt = {}
    for i, p in ipairs(t.params) do dt[i] = p.dtype or p.kind end
    assert.same({ "pointer", "pointer", "int32", "float32", "float64", "uint8", "int64", "unknown" }, dt)
    -- a kernel the parser cannot see (made by a macro) has no parameter list
    assert.is_nil(ga.RawKernel(TYPED, "hidden").params)
  end)

  it("refuses bad constructions", function()
    helper.assert_gaerror(function() ga.RawKernel(MY_ADD, "my_sub") end,
                          "RawKernel: the source has no kernel named 'my_sub'")
    helper.assert_gaerror(function() ga.RawKernel(MY_ADD, "my_add", { option = { "-O3" } }) end,
                          "RawKernel: unknown option 'option'")
    helper.assert_gaerror(function() ga.RawKernel(MY_ADD, "my_add", { options = { 3 } }) end,
                          "options item 1 is not a string")
    helper.assert_gaerror(function() ga.RawKernel(MY_ADD, "my_add", { name_expressions = { "x" } }) end,
                          "unknown option 'name_expressions'")
    helper.assert_gaerror(function() ga.RawKernel(MY_ADD, "my_add", 5) end, "RawKernel: too many arguments")
    assert.has_error(function() ga.RawKernel(nil, "my_add") end)
  end)

  -- these are checked before the device is touched, so they run anywhere
  it("checks the argument count and kinds against the signature", function()
    local k = ga.RawKernel(MY_ADD, "my_add")
    helper.assert_gaerror(function() k(1, 32, { 1.5, 2 }) end,
                          "RawKernel 'my_add': the kernel takes 3 arguments, got 2")
    helper.assert_gaerror(function() k(1, 32, { 1.5, 2, 3 }) end,
                          "argument 1 (float* x1): a float where the kernel wants a pointer: pass an ndarray")
    helper.assert_gaerror(function() k(1, 32, { ga.int32(1), 2, 3 }) end,
                          "argument 1 (float* x1): a int32 scalar where the kernel wants a pointer")
    helper.assert_gaerror(function() k(1, 32, { "x", 2, 3 }) end,
                          "argument 1 (float* x1): expected an ndarray, a number or a typed scalar, got string")
    local t = ga.RawKernel(TYPED, "typed")
    local function args(n, a, b, u, big, p) return { ga.float32(0), ga.float32(0), n, a, b, u, big, p } end
    -- pointers first fail on typed scalars; use the scalar checks by position
    helper.assert_gaerror(function() t(1, 1, args(1, 2, 3, 4, 5, 6)) end,
                          "argument 1 (float* x): a float32 scalar where the kernel wants a pointer")
    local s = ga.RawKernel([[
struct P { int a; };
extern "C" __global__ void s(int n, float a, double b, unsigned char u, long long big, struct P p, short h) {}
]], "s")
    helper.assert_gaerror(function() s(1, 1, { 2.5, 1, 1, 1, 1, ga.int32(0), 1 }) end,
                          "argument 1 (int n): 2.5 is not an integer")
    helper.assert_gaerror(function() s(1, 1, { 1, 1, 1, 300, 1, ga.int32(0), 1 }) end,
                          "argument 4 (unsigned char u): 300 does not fit uint8")
    helper.assert_gaerror(function() s(1, 1, { 1, 1, 1, -1, 1, ga.int32(0), 1 }) end, "does not fit uint8")
    helper.assert_gaerror(function() s(1, 1, { 1, 1e39, 1, 1, 1, ga.int32(0), 1 }) end, "does not fit float32")
    helper.assert_gaerror(function() s(1, 1, { 1, 1, 1, 1, 1, 7, 1 }) end,
                          "argument 6 (P p): its type could not be read from the source, so a Lua number "
                          .. "cannot be converted: pass a typed scalar such as ga.int32(v)")
    helper.assert_gaerror(function() s(1, 1, { ga.int64(1), 1, 1, 1, 1, ga.int32(0), 1 }) end,
                          "argument 1 (int n): the kernel wants int32, got a int64 scalar")
    helper.assert_gaerror(function() s(1, 1, { 1, 1, 1, 1, 1, ga.int32(0), {} }) end,
                          "argument 7 (short h): expected an ndarray, a number or a typed scalar, got table")
    local h = ga.RawKernel(TYPED, "hidden")
    helper.assert_gaerror(function() h(1, 1, { 1, 2 }) end,
                          "the declaration of 'hidden' was not found in the source, so Lua numbers cannot be typed")
  end)

  it("checks grid, block and options", function()
    local k = ga.RawKernel(MY_ADD, "my_add")
    helper.assert_gaerror(function() k(0, 32, {}) end, "grid dimension 1 is 0, not a positive 32-bit count")
    helper.assert_gaerror(function() k({ 1, 2, 3, 4 }, 32, {}) end, "grid must be an integer or a list of 1 to 3")
    helper.assert_gaerror(function() k(1, "32", {}) end, "block must be an integer or a list of 1 to 3")
    helper.assert_gaerror(function() k(1, { 32, -1 }, {}) end, "block dimension 2 is -1")
    helper.assert_gaerror(function() k(1, 32, 5) end, "args must be a list")
    helper.assert_gaerror(function() k(1, 32, {}, 5) end, "expected an options table")
    helper.assert_gaerror(function() k(1, 32, {}, { shared_mem = -1 }) end, "shared_mem must be a non-negative")
    helper.assert_gaerror(function() k(1, 32, {}, { stream = 3 }) end, "expected a Stream")
  end)

  if not helper.gpu then
    it("needs a device to launch", function()
      local k = ga.RawKernel(MY_ADD, "my_add")
      helper.assert_gaerror(function() k(1, 32, { ga.int32(0), ga.int32(0), ga.int32(0) }) end,
                            "wants a pointer")
      local e = ga.RawKernel("extern \"C\" __global__ void e() {}", "e")
      helper.assert_gaerror(function() e(1, 1, {}) end, "no CUDA device")
      helper.assert_gaerror(function() return e.attributes end, "no CUDA device")
    end)
  end

  it("compiles for sm_90 with NVRTC and reports compile errors with the line", function()
    assert.is_true(core._test.rawkernel_compile_for_arch(ga.RawKernel(MY_ADD, "my_add"), 90) > 0)
    assert.is_true(core._test.rawkernel_compile_for_arch(ga.RawKernel(TYPED, "typed"), 90) > 0)
    local err = helper.assert_gaerror(function()
      local k = ga.RawKernel(BAD, "broken")     -- with a GPU this line raises
      core._test.rawkernel_compile_for_arch(k, 90)
    end, "RawKernel 'broken': compile error")
    assert.truthy(err:find("line 3: x[i] = undefined_name + 1;", 1, true), err)
    assert.truthy(err:find("undefined_name", 1, true))
    helper.assert_gaerror(function()
      local m = ga.RawModule(BAD)               -- with a GPU this line raises
      core._test.rawmodule_compile_for_arch(m, 90)
    end, "RawModule: compile error")
  end)

  it("compiles the GPU cases' kernels for sm_90", function()
    for i, src in ipairs { MIX, REVERSE, AXPB, STAT, BOUNDED } do
      assert.is_true(core._test.compile(src, nil, 90) > 0, "source " .. i)
    end
  end)

  it("compiles the examples' kernels for sm_90", function()
    local seen = 0
    for _, ex in ipairs { "raw_kernel", "saxpy", "streams_overlap", "event_timing" } do
      local ks = example_kernels("examples/" .. ex .. ".lua")
      assert.is_true(#ks >= 1, ex .. " makes no kernel")
      for _, k in ipairs(ks) do
        assert.is_true(core._test.compile(k.src, k.opts.options, 90) > 0, ex)
        if k.name then
          local params = core._test.sigfind(k.src, k.name).params
          for _, p in ipairs(params) do
            assert.are_not.equal("unknown", p.kind, ex .. ": " .. p.type)
          end
        end
        seen = seen + 1
      end
    end
    assert.is_true(core._test.compile(spin.SRC, nil, 90) > 0)
    assert.is_true(seen >= 4)
  end)
end)

describe("RawModule without launching", function()
  local SRC = [[
template <typename T>
__global__ void axpb(const T *x, T *y, T a, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}
extern "C" __global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}
]]

  it("keeps the source, options and name expressions, and types templated kernels", function()
    local m = ga.RawModule(SRC, { options = { "-DN=1" }, name_expressions = { "axpb<float>", "axpb<double>" } })
    assert.equal(SRC, m.code)
    assert.same({ "-DN=1" }, m.options)
    assert.same({ "axpb<float>", "axpb<double>" }, m.name_expressions)
    assert.matches("^gpuarray.RawModule%(", tostring(m))
    local kf = m:get_function("axpb<float>")
    local kd = m:get_function("axpb<double>")
    local kt = m:get_function("twice")
    assert.equal("axpb<float>", kf.name)
    assert.equal(m, kf.module)
    assert.same({ "float32", "float32" }, { kf.params[3].dtype, kf.params[4].dtype })
    assert.same({ "float64", "float64" }, { kd.params[3].dtype, kd.params[4].dtype })
    assert.equal("int32", kt.params[2].dtype)
    helper.assert_gaerror(function() m:get_function("nothere") end, "get_function: the source has no kernel named")
    helper.assert_gaerror(function() ga.RawModule(SRC, { name_expressions = "axpb<float>", extra = 1 }) end,
                          "RawModule: unknown option 'extra'")
    assert.is_true(core._test.rawmodule_compile_for_arch(ga.RawModule(SRC), 90) > 0)
  end)
end)

describe("RawKernel #gpu", function()
  gpu_it("runs the seeds' my_add", function()
    local k = ga.RawKernel(MY_ADD, "my_add")
    local a = {}
    local b = {}
    for i = 1, 25 do
      a[i] = math.random(-1000, 1000) / 8
      b[i] = math.random(-1000, 1000) / 8
    end
    local x1, x2 = ga.array(a, "float32"), ga.array(b, "float32")
    local y = ga.zeros(25, "float32")
    k(5, 5, { x1, x2, y })
    local t = y:totable()
    for i = 1, 25 do assert.equal(a[i] + b[i], t[i]) end
    assert.equal("float32", y.dtype)
  end)

  gpu_it("converts Lua numbers to int, float and double parameters", function()
    local k = ga.RawKernel(MIX, "mix")
    local n = 1000
    local xi, xf, xd = {}, {}, {}
    for i = 1, n do
      xi[i] = math.random(-10000, 10000)
      xf[i] = helper.to_f32(math.random() * 100 - 50)
      xd[i] = math.random() * 1e6
    end
    local ki, kf, kd, kl, ku = math.random(-50, 50), 0.3, math.pi, math.random(-2 ^ 40, 2 ^ 40), 65535
    local yi, yf, yd = ga.empty(n, "int32"), ga.empty(n, "float32"), ga.empty(n, "float64")
    k((n + 127) // 128, 128, { ga.array(xi, "int32"), yi, ga.array(xf, "float32"), yf,
                               ga.array(xd, "float64"), yd, n, ki, kf, kd, kl, ku })
    local ti, tf, td = yi:totable(), yf:totable(), yd:totable()
    local f32 = helper.to_f32
    for i = 1, n do
      assert.equal(xi[i] * ki + ku, ti[i])
      -- float arithmetic, with or without FMA contraction (one rounding or two)
      local fused, plain = f32(xf[i] * f32(kf) + 1), f32(f32(xf[i] * f32(kf)) + 1)
      assert(tf[i] == fused or tf[i] == plain, ("yf[%d] = %s, expected %s"):format(i, tf[i], plain))
      assert.is_true(math.abs(td[i] - (xd[i] * kd + kl)) <= 1e-9 * math.abs(xd[i] * kd + kl))
    end
    -- typed scalars of the right dtype work as well, and integral floats for ints
    k(8, 128, { ga.array(xi, "int32"), yi, ga.array(xf, "float32"), yf, ga.array(xd, "float64"), yd,
                ga.int32(n), 2.0, ga.float32(0.5), 1, 0, 0 })
    assert.equal(xi[7] * 2, yi:totable()[7])
  end)

  gpu_it("uses dynamic shared memory above 48 KiB after raising the limit", function()
    local k = ga.RawKernel(REVERSE, "reverse_block")
    local per_block, blocks = 24576, 4           -- 96 KiB of shared memory per block
    local bytes = per_block * 4
    local n = per_block * blocks
    local vals = spin.random_f32(n)
    local x, y = ga.array(vals, "float32"), ga.zeros(n, "float32")
    local err = helper.assert_gaerror(function()
      k(blocks, 256, { x, y, per_block }, { shared_mem = bytes })
    end, "RawKernel 'reverse_block': launch failed: cuda")
    assert.truthy(err:find("set_max_dynamic_shared_mem", 1, true), err)
    k:set_max_dynamic_shared_mem(bytes)
    assert.equal(bytes, k.attributes.max_dynamic_shared_size_bytes)
    k(blocks, 256, { x, y, per_block }, { shared_mem = bytes })
    local t = y:totable()
    for b = 0, blocks - 1 do
      for i = 1, per_block, 97 do
        assert.equal(vals[b * per_block + per_block + 1 - i], t[b * per_block + i])
      end
    end
    helper.assert_gaerror(function() k:set_max_dynamic_shared_mem(1 << 30) end, "exceed the device limit")
    helper.assert_gaerror(function() k(1, 32, { x, y, 1 }, { shared_mem = 1 << 30 }) end,
                          "shared_mem = 1073741824 bytes exceeds the device limit")
  end)

  gpu_it("runs templated RawModule kernels through name expressions", function()
    local m = ga.RawModule(AXPB, { name_expressions = { "axpb<float>", "axpb<double>", "axpb<int>" } })
    local n = 777
    local vals = {}
    for i = 1, n do vals[i] = math.random(-1000, 1000) end
    local kf, kd, ki = m:get_function("axpb<float>"), m:get_function("axpb<double>"), m:get_function("axpb<int>")
    local xf, yf = ga.array(vals, "float32"), ga.empty(n, "float32")
    local xd, yd = ga.array(vals, "float64"), ga.empty(n, "float64")
    local xi, yi = ga.array(vals, "int32"), ga.empty(n, "int32")
    kf(7, 128, { xf, yf, 0.5, 2, n })
    kd(7, 128, { xd, yd, 0.25, -1.5, n })
    ki(7, 128, { xi, yi, 3, 7, n })
    local twice = m:get_function("twice")
    twice(7, 128, { yf, n })
    local tf, td, ti = yf:totable(), yd:totable(), yi:totable()
    for i = 1, n do
      assert.equal(2 * (0.5 * vals[i] + 2), tf[i])
      assert.equal(0.25 * vals[i] - 1.5, td[i])
      assert.equal(3 * vals[i] + 7, ti[i])
    end
    helper.assert_gaerror(function() ki(1, 1, { xi, yi, 2.5, 1, n }) end, "argument 3 (int a): 2.5 is not an integer")
    -- the same module source again comes from the caches
    local m2 = ga.RawModule(m.code, { name_expressions = { "axpb<float>", "axpb<double>", "axpb<int>" } })
    m2:get_function("axpb<float>")(7, 128, { xf, yf, 1, 0, n })
    assert.equal(vals[n], yf:totable()[n])
  end)

  gpu_it("reports attributes", function()
    local k = ga.RawKernel(STAT, "stat")
    local a = k.attributes
    assert.is_true(a.num_regs > 0)
    assert.is_true(a.max_threads_per_block >= 1 and a.max_threads_per_block <= 128)
    assert.is_true(a.shared_size_bytes >= 4096)
    assert.is_true(a.binary_version >= 90 or a.ptx_version >= 90)
    assert.equal(a.num_regs, k.num_regs)
    local x = ga.array(spin.random_f32(128), "float32")
    local before = x:totable()
    k(1, 128, { x })
    local after = x:totable()
    for i = 1, 128 do assert.equal(before[129 - i], after[i]) end
  end)

  gpu_it("checks launch limits and names launch failures", function()
    local k = ga.RawKernel(MY_ADD, "my_add")
    local x = ga.zeros(4096, "float32")
    helper.assert_gaerror(function() k(1, 2048, { x, x, x }) end, "block x = 2048 exceeds the device limit of 1024")
    helper.assert_gaerror(function() k(1, { 1, 1, 128 }, { x, x, x }) end,
                          "block z = 128 exceeds the device limit of 64")
    helper.assert_gaerror(function() k({ 1, 70000 }, 1, { x, x, x }) end,
                          "grid y = 70000 exceeds the device limit of 65535")
    helper.assert_gaerror(function() k(1, { 32, 32, 2 }, { x, x, x }) end,
                          "a block of 2048 threads exceeds the device limit of 1024 threads per block")
    local bounded = ga.RawKernel(BOUNDED, "small")
    helper.assert_gaerror(function() bounded(1, 256, { x }) end, "RawKernel 'small': launch failed: cuda")
    -- the state is usable afterwards
    k(16, 256, { x, x, x })
    assert.equal(0, x:totable()[4096])
  end)

  gpu_it("launches on a given stream and takes pinned arrays as pointers", function()
    local k = spin.kernels(ga)
    local s = ga.Stream({ non_blocking = true })
    local n = 3000
    local vals = spin.random_f32(n)
    local x, y = ga.array(vals, "float32"), ga.empty(n, "float32")
    ga.synchronize()
    k.scale(12, 256, { x, y, n, -2 }, { stream = s })
    s:synchronize()
    assert.equal(-2 * vals[n], y:totable()[n])
    local h = ga.pinned_empty(n, "float32")
    k.scale(12, 256, { x, h, n, 4 })                  -- writes host memory directly
    assert.equal(4 * vals[1], h[1])                   -- reading waits for the kernel
    assert.equal(4 * vals[n], h[n])
  end)
end)
