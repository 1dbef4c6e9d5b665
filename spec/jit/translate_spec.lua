-- ga.jit without a GPU: the parser, the translation of every construct of
-- the subset (checked in the generated CUDA), type inference, every
-- rejected construct with its line, and NVRTC compiles of the generated
-- kernels for sm_90.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local ek_source = core._test.elementwise_kernel_source
local jit = ga.jit
local parser = require "gpuarray.jit.parser"

local function compile(src)
  return core._test.compile(src, {}, 90)
end

--- the generated function (without the headers)
local function body(src)
  return src:sub((src:find("// ---- gpuarray.jit", 1, true)))
end

local function has(src, text)
  assert(src:find(text, 1, true), ("generated source lacks %q:\n%s"):format(text, body(src)))
end

describe("jit parser", function()
  local function fail(line, msg) error(("line %d: %s"):format(line, msg), 0) end

  it("parses Lua 5.4 statements and expressions with their lines", function()
    local b = parser.parse_block([[
local a, b <const> = 1, 2.5
x[i] = a + b * -c ^ 2 // 3 % 4
if a < b and not c then f(a) elseif d then g() else h() end
while a do break end
repeat a = a - 1 until a == 0
for i = 1, 10, 2 do end
for k, v in pairs(t) do end
do local function f() end end
return a .. b, #t, ~a, a << 1, a >> 2, a & b | c ~ d
]], fail)
    local kinds = {}
    for i, s in ipairs(b) do kinds[i] = s.k .. "@" .. s.line end
    assert.are.same({ "Local@1", "Assign@2", "If@3", "While@4", "Repeat@5", "Fornum@6", "Forin@7", "Do@8",
                      "Return@9" }, kinds)
    -- precedence: a + (b * ((-(c ^ 2)) // 3 % 4)) ... the right operand of + is a '%'
    local e = b[2].exprs[1]
    assert.are.equal("+", e.op)
    assert.are.equal("%", e.r.op)
    assert.are.equal("//", e.r.l.op)
    assert.are.equal("*", e.r.l.l.op)
    assert.are.equal("-", e.r.l.l.r.op)        -- unary minus binds looser than ^
    assert.are.equal("^", e.r.l.l.r.e.op)
    assert.are.equal("const", b[1].attribs[2])
  end)

  it("reads numbers as Lua does (integers, floats, hex, exponents)", function()
    local b = parser.parse_block("x = 10, 0x10, 1e3, 2.5, .5, 0x1p4, 9223372036854775807", fail)
    local v = {}
    for i, e in ipairs(b[1].exprs) do v[i] = e.v end
    assert.are.same({ 10, 16, 1000.0, 2.5, 0.5, 16.0, math.maxinteger }, v)
    assert.are.equal("integer", math.type(v[1]))
    assert.are.equal("float", math.type(v[3]))
  end)

  it("skips comments and long strings, counting their lines", function()
    local b = parser.parse_block("--[[ a\nb ]] x = 1 -- c\n--[==[\n]==]\ny = [[\n\n]]", fail)
    assert.are.equal(2, b[1].line)
    assert.are.equal(5, b[2].line)
  end)

  it("reports syntax errors with their line", function()
    local ok, err = pcall(parser.parse_block, "x = 1\ny = = 2", fail)
    assert.is_false(ok)
    assert.matches("line 2: unexpected symbol", err)
  end)
end)

-- the kernels of the corpus (each used by a case below)
local SCALE = 0.5
local FLAG = true
local consts = { N = 4 }

local K = require "jit_kernels"
local saxpy, elementwise_copy = K.saxpy, K.elementwise_copy

local function block_sum(x, out)
  local s = jit.shared_memory("float32", 256)
  local t = jit.threadIdx.x
  local i = jit.blockIdx.x * jit.blockDim.x + t
  local v = 0.0
  if i < #x then v = x[i] end
  s[t] = v
  jit.syncthreads()
  local stride = jit.blockDim.x // 2
  while stride > 0 do
    if t < stride then s[t] = s[t] + s[t + stride] end
    jit.syncthreads()
    stride = stride // 2
  end
  if t == 0 then jit.atomic_add(out, 0, s[0]) end
end

local function sq(v) return v * v end
local function axpy1(a, x) return a * x + 1 end

local function loops(x, n)
  local acc = 0
  for k = 1, 10 do acc = acc + k end
  for k = 10, 1, -3 do acc = acc - k end
  for _ = 0, n - 1, jit.blockDim.x do acc = acc + 1 end
  for f = 0.0, 1.0, 0.25 do acc = acc + f end
  local j = 0
  while j < 5 do
    j = j + 1
    if j == 3 then break end
  end
  repeat
    local done = j > 7
    j = j + 1
  until done
  x[0] = acc + j
end

local function operators(x, y, i32, n)
  local i = jit.threadIdx.x
  local a, b = x[i], y[i]
  local q = a / b + a // b + a % b + a ^ 2 - -a
  local k = i32[i]
  local bits = (k & 3) | (k ~ 5) + (k << 2) + (k >> 1) + ~k
  local idiv = k // 3 + k % 3 + 7 // 2 + 7 % -3 + n // 2
  local t = 3 / 2
  if a < b and not (a >= b) or a == b and a ~= 0 then q = q + 1 end   -- luacheck: ignore 581
  x[i] = q + bits + idiv + t + SCALE * consts.N
  if FLAG then y[i] = sq(a) + axpy1(2, b) end
end

local function math_fns(x, h, d)
  local i = jit.threadIdx.x
  local v = x[i]
  local r = math.sqrt(v) + math.exp(v) + math.log(v) + math.log(v, 2) + math.log(v, 10) + math.log(v, 3)
  r = r + math.sin(v) + math.cos(v) + math.tan(v) + math.asin(v) + math.acos(v) + math.atan(v) + math.atan(v, 2)
  r = r + math.floor(v) + math.ceil(v) + math.abs(v) + math.fmod(v, 2) + math.max(v, 1, 2) + math.min(v, 0.5)
  r = r + math.deg(v) + math.rad(v) + math.pi + jit.tanh(v) + jit.log1p(v) + jit.hypot(v, 2) + jit.expm1(v)
  if jit.isnan(r) or jit.isinf(r) or not jit.isfinite(r) or math.ult(1, 2) then r = 0 end
  h[i] = r + math.huge * 0 + math.maxinteger // 2 ^ 60
  d[i] = jit.float32(r) + jit.int32(v) + ga.float64(1)
  local m = math.abs(i - 3) + math.max(i, 2)
  d[i] = d[i] + m
end

local function complexk(z, w)
  local i = jit.threadIdx.x
  local a = z[i] * w[i] + z[i] / w[i] - z[i] ^ 2
  if z[i] == w[i] then a = a + 1 end
  z[i] = a * 2.5 + math.sqrt(w[i])
end

-- complex values met only by + - * (math.cuh holds their operators; found
-- by fuzz/jit_fuzz.lua: NVRTC had no operator for them)
local function csq(v) return v * v end
local function complex_plain(x, y, n)
  local i = jit.threadIdx.x
  y[i] = csq(x[i]) + n
  x[i] = x[i] - y[i]
end

local function atomics(h, x, c, u, l)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  local b = math.floor(x[i] * 10)
  jit.atomic_add(h, b, 1)
  jit.atomic_add(l, 0, 1)
  local old = jit.atomic_max(h, 0, 5) + jit.atomic_min(u, 0, 1) + jit.atomic_exch(c, 0, 2)
  jit.atomic_cas(h, 1, old, 7)
  jit.atomic_sub(h, 2, 1)
  jit.atomic_and(u, 1, 3)
  jit.atomic_or(l, 1, 3)
  jit.atomic_xor(h, 3, 1)
end

local function dyn_shared(x)
  local s = jit.shared_memory(ga.float64)
  local t = jit.threadIdx.x
  s[t] = x[t]
  jit.syncwarp()
  x[t] = s[jit.blockDim.x - 1 - t]
end

local function swap_and_locals(x)
  local i = jit.threadIdx.x
  local a, b = x[i], x[i + 1]
  a, b = b, a
  local c
  if a > b then c = 1 else c = 2.5 end
  local e = 0
  e = e + x[i]
  x[i], x[i + 1] = a + c, b + e
  do local f = 1; x[i] = x[i] + f end
  local sqrt = math.sqrt
  x[i] = sqrt(x[i])
end

local function early_return(x, n)
  local i = jit.threadIdx.x
  if i >= n then return end
  x[i] = 1
end

local function uses_size(x, y)
  y[0] = #x + x.size + helper_len(y)   -- luacheck: ignore
end
function helper_len(a) return #a end   -- luacheck: ignore

describe("jit translation", function()
  it("translates saxpy with NumPy types: Lua numbers are weak, arrays give the types", function()
    local src = jit.rawkernel(saxpy):source(2.5, "float32[]", "float32[]", "float32[]", 1000)
    has(src, 'extern "C" __global__ void saxpy(double a, float *x, float *y, float *out, long long n)')
    has(src, "int i = ((((int)blockIdx.x) * ((int)blockDim.x)) + ((int)threadIdx.x));")
    has(src, "if ((((long long)(i)) < n)) {")
    has(src, "out[i] = ((((float)(a)) * x[i]) + y[i]);")
    assert.is_true(compile(src) > 0)
    -- a typed scalar is strong: float64 * float32 is float64
    local s64 = jit.rawkernel(saxpy):source(ga.float64(2.5), "float32[]", "float32[]", "float32[]", ga.int32(9))
    has(s64, "void saxpy(double a, float *x, float *y, float *out, int n)")
    has(s64, "out[i] = ((float)(((a * ((double)(x[i]))) + ((double)(y[i])))));")
    has(s64, "if ((i < n)) {")
  end)

  it("translates the grid-stride copy (a numeric for with a step known only on the GPU)", function()
    local src = jit.rawkernel(elementwise_copy):source("float32[]", "float32[]", 100)
    has(src, "void elementwise_copy(float *x, float *y, long long size)")
    has(src, "y[i] = x[i];")
    has(src, "if (_jit_t5-- == 0) break;")
    assert.is_true(compile(src) > 0)
  end)

  it("translates shared memory, syncthreads, while and atomics; # passes the size", function()
    local src = jit.rawkernel(block_sum):source("float32[]", "float32[]")
    has(src, "void block_sum(float *x, float *out, long long _size_x)")
    has(src, "__shared__ float s[256];")
    has(src, "__syncthreads();")
    has(src, "while ((stride > 0)) {")
    has(src, "atomicAdd(&out[0], s[0]);")
    has(src, "(((long long)(i)) < _size_x)")
    assert.is_true(compile(src) > 0)
    local e = jit.rawkernel(block_sum):_entry { "float32[]", "float32[]", n = 2 }
    assert.are.same({ 1 }, e.sizes)
  end)

  it("translates loops with Lua's semantics", function()
    local src = jit.rawkernel(loops):source("float64[]", 100)
    has(src, "for (long long _jit_t4 = _jit_t1; (long long)_jit_t4 <= _jit_t2; _jit_t4 += _jit_t3) {")
    has(src, "(long long)_jit_t8 >= _jit_t6")            -- the negative constant step counts down
    has(src, "double f = ")                              -- a float loop
    has(src, "do {")
    has(src, "if (done) break;")                          -- until sees the body's locals
    has(src, "double acc = 0.0;")                        -- acc: 0, then + a float: a double
    assert.is_true(compile(src) > 0)
  end)

  it("translates operators with Lua's meaning and device functions", function()
    local src = jit.rawkernel(operators):source("float32[]", "float32[]", "int16[]", 9)
    has(src, "_jit_idiv(")
    has(src, "_jit_fmod_lua(")
    has(src, "powf(")
    has(src, "_jit_shl<short>(")
    has(src, "static __device__ __forceinline__ float _jit_sq(float v)")
    has(src, "static __device__ __forceinline__ float _jit_axpy1(long long a, float x)")
    has(src, "double t = 1.5;")                            -- 3 / 2 folded (a Lua float)
    has(src, "2.0f")                                       -- SCALE * consts.N folded and made float32
    assert.is_true(compile(src) > 0)
  end)

  it("translates math and the jit's extra functions over float16, float32 and float64", function()
    for _, dt in ipairs { "float16", "float32", "float64" } do
      local src = jit.rawkernel(math_fns):source(dt .. "[]", "float32[]", "float64[]")
      assert.is_true(compile(src) > 0, dt)
    end
    local src = jit.rawkernel(math_fns):source("float32[]", "float32[]", "float64[]")
    has(src, "sqrtf(v)")
    has(src, "(logf(v) / ((float)(1.0986122886681098)))")   -- log(v, 3): log 3 folded
    has(src, "log2f(")
    has(src, "atan2f(")
    has(src, "_jit_max(_jit_max(v, 1.0f), 2.0f)")
    has(src, "((long long)floorf(v))")
  end)

  it("translates complex arithmetic (math.cuh is included)", function()
    local src = jit.rawkernel(complexk):source("complex64[]", "complex64[]")
    has(src, "ga_power(")
    has(src, "ga_sqrt(")
    assert.is_true(compile(src) > 0)
  end)

  it("includes complex arithmetic wherever a complex value is computed", function()
    for _, dt in ipairs { "complex64", "complex128" } do
      local src = jit.rawkernel(complex_plain):source(dt .. "[]", dt .. "[]", 3)
      has(src, "_jit_csq(")
      assert.is_true(compile(src) > 0, dt)
    end
    local src = jit.rawkernel(complex_plain):source("complex128[]", "uint16[]", ga.int32(2))
    assert.is_true(compile(src) > 0)
  end)

  it("compiles what fuzz/jit_fuzz.lua found NVRTC rejecting", function()
    -- a float16 loop counts in float32 (float16 has no +=)
    local src = jit.rawkernel(function(x, n)
      for v = n, n + 3, n do x[0] = v end
    end):source("float32[]", "float16")
    has(src, "for (float _jit_t")
    assert.is_true(compile(src) > 0)
    -- a Lua integer past int32 next to an int32 is converted, not written as a long
    src = jit.rawkernel(function(p1)
      local i = jit.threadIdx.x
      p1[i] = math.min(i, 2147483648) + math.max(i, 4294967295, 1 << 40)
    end):source("int64[]")
    assert.is_true(compile(src) > 0)
    -- int32's least value, written so that C reads an int
    src = jit.elementwisekernel(function(v) return math.min(-2147483648, v * v) end):source("int32[]")
    has(src, "(-2147483647 - 1)")
    -- int64 with uint64: // and % in float64 (NumPy's promotion), bitwise ones refused
    src = jit.rawkernel(function(x, u, out)
      local i = jit.threadIdx.x
      out[i] = x[i] // u[i] + x[i] % u[i] + (x[i] << u[i])
    end):source("int64[]", "uint64[]", "float64[]")
    has(src, "floor(")
    assert.is_true(compile(src) > 0)
    helper.assert_gaerror(function()
      return jit.rawkernel(function(x, u) x[0] = x[0] & u[0] end):source("int64[]", "uint64[]")
    end, "bitwise '&' on int64 and uint64: they have no common integer type")
  end)

  it("translates every atomic over its element types", function()
    local src = jit.rawkernel(atomics):source("int32[]", "float32[]", "float32[]", "uint32[]", "int64[]")
    has(src, "atomicAdd(&h[b], 1);")
    has(src, "atomicAdd((unsigned long long *)&l[0], (unsigned long long)(1LL))")
    has(src, "double old = ")   -- int32 + uint32 + float32: float64, as NumPy
    has(src, "atomicCAS(&h[1], ((int)(old)), 7)")
    assert.is_true(compile(src) > 0)
  end)

  it("translates dynamic shared memory, swaps, joined local types, early returns", function()
    local src = jit.rawkernel(dyn_shared):source("float64[]")
    has(src, "extern __shared__ __align__(16) unsigned char _jit_dyn_smem[];")
    assert.is_true(compile(src) > 0)
    src = jit.rawkernel(swap_and_locals):source("float32[]")
    has(src, "double c{};")             -- 1 and 2.5 join to a Lua float (weak, held as a double)
    has(src, "float e = 0.0f;")
    assert.is_true(compile(src) > 0)
    src = jit.rawkernel(early_return):source("int8[]", 5)
    has(src, "return;")
    assert.is_true(compile(src) > 0)
  end)

  it("passes array sizes to kernels and __device__ functions that read them", function()
    local src = jit.rawkernel(uses_size):source("float32[]", "int64[]")
    has(src, "void uses_size(float *x, long long *y, long long _size_x, long long _size_y)")
    has(src, "_jit_helper_len(y, _size_y)")
    assert.is_true(compile(src) > 0)
  end)

  it("compiles one translation per signature and caches it", function()
    local k = jit.rawkernel(saxpy)
    local e1 = k:_entry { 2.5, "float32[]", "float32[]", "float32[]", 10, n = 5 }
    local e2 = k:_entry { 1.5, "float32[]", "float32[]", "float32[]", 3, n = 5 }
    local e3 = k:_entry { 1, "float32[]", "float32[]", "float32[]", 3, n = 5 }
    assert.are.equal(e1, e2)
    assert.are_not.equal(e1, e3)
    assert.are.same({ "a", "x", "y", "out", "n" }, (function()
      local names = {}
      for i, p in ipairs(e1.kernel.params) do names[i] = p.name end
      return names
    end)())
  end)

  it("makes elementwise kernels from scalar functions", function()
    local k = jit.elementwisekernel(function(x, y, t)
      if x > y then return x + (y - x) * t, x - y end
      return y - (y - x) * t, y - x
    end, { name = "mix" })
    local pre, d = k:source("float32[]", "float32[]", 0.25)
    assert.are.equal("float32 in0, float32 in1, float64 in2", d.in_params)
    assert.are.equal("float32 out0, float32 out1", d.out_params)
    assert.are.equal("float _jit_r0; float _jit_r1; _jit_mix(in0, in1, in2, &_jit_r0, &_jit_r1); "
      .. "out0 = _jit_r0; out1 = _jit_r1;", d.operation)
    assert.truthy(pre:find("void _jit_mix(float x, float y, double t, float *_jit_out0, float *_jit_out1)", 1, true))
    local ek = ga.ElementwiseKernel(d.in_params, d.out_params, d.operation, d.name, { preamble = d.preamble })
    local src = ek_source(ek, { types = { "float32", "float32", "float64", "float32", "float32" },
                             scalar = { [3] = true } })
    assert.is_true(compile(src) > 0)
    assert.falsy(src:find("ga_vload(_v3, _p3", 1, true))    -- outputs are written, never loaded
    assert.falsy(src:find("ga_vload(_v4, _p4", 1, true))
    local one = jit.elementwisekernel(function(x) return x * 2 end)
    local _, d1 = one:source("float16[]")
    assert.are.equal("float16 out0", d1.out_params)
    assert.are.equal("out0 = _jit_jit_elementwise(in0);", d1.operation)
  end)
end)

describe("jit rejects what is outside the subset, naming the line and the construct", function()
  local up_tbl, up_str = { 1 }, "s"
  -- luacheck: push ignore
  local cases = {
    { function(x) local f = function() return 1 end end, "closures are not supported in a kernel" },
    { function(x) local function g() end end, "closures are not supported in a kernel" },
    { function(x) local t = {} end, "tables are not supported in a kernel" },
    { function(x, ...) end, "varargs (...) are not supported in a kernel" },
    { function(x) for k, v in pairs(x) do end end, "the generic for (for ... in) is not supported" },
    { function(x) goto done; ::done:: end, "goto is not supported in a kernel" },
    { function(x) x[0] = "a" .. "b" end, "string concatenation (..) is not supported" },
    { function(x) x:fill(0) end, "method calls (:fill()) are not supported" },
    { function(x) x[0] = up_str end, "strings are not supported in a kernel" },
    { function(x) x[0] = up_tbl end, "'up_tbl' is a table, not a value a kernel can hold" },
    { function(x) x[0] = nil end, "nil is not supported in a kernel" },
    { function(x) if x[0] then end end, "a condition must be a boolean, got float32" },
    { function(x) x[1.5] = 1 end, "an array index must be an integer, got Lua float" },
    { function(x) x = 1 end, "cannot assign to 'x': it is an array" },
    { function(x) up_str = 1 end, "cannot assign to upvalue 'up_str'" },
    { function(x) x[0] = math.random() end, "math.random is not supported in a kernel" },
    { function(x) return 1 end, "a kernel returns nothing" },
    { function(x) local y; x[0] = y end, "local 'y' is never given a value" },
    { function(x) x[0] = no_such_global end, "'no_such_global' is nil" },   -- luacheck: ignore
    { function(x) x[0] = 1 and 2 end, "'and' needs booleans" },
    { function(x) x[0] = true + 1 end, "arithmetic ('+') on a boolean" },
    { function(x) for i = 1, 10, 0 do end end, "'for' step is zero" },
    { function(x) local s = jit.shared_memory("float32", x[0]) end, "the size must be a positive integer" },
    { function(x) print(x[0]) end, "print is not supported in a kernel" },
    { function(x) x[0] = x end, "an array element takes a number, got float32 array" },
    { function(x) x[0] = x[0] & 1 end, "bitwise '&' needs integers" },
    { function(x) x[0] = jit.atomic_add(x, 0, 1) end, "" },
    { function(x) local h = x; h[0] = #h end, "# and .size need an array argument" },
    { function(x) x[0] = x.shape end, "arrays in a kernel have no field 'shape'" },
    { function(x) x[0] = jit.threadIdx end, "'jit.threadIdx' is a table" },
    { function(x) x[0] = math.tointeger(x[0]) end, "math.tointeger is not supported" },
    { function(x) local c <close> = x end, "to-be-closed variables" },
    -- found by fuzz/jit_fuzz.lua: constants were folded before their type was checked
    { function(x) x[0] = math.atan(1, 1 < 2) end, "math.atan needs a number, got a boolean" },
    { function(x) x[0] = (x[0] < 1) + 1 end, "arithmetic ('+') on a boolean" },
  }
  -- luacheck: pop
  for k, c in ipairs(cases) do
    local fn, msg = c[1], c[2]
    local line = debug.getinfo(fn, "S").linedefined
    if msg ~= "" then
      it(("case %d: %s"):format(k, msg), function()
        local err = helper.assert_gaerror(function() return jit.rawkernel(fn):source("float32[]") end)
        local prefix = ("gpuarray: jit: line %d: "):format(line)
        assert.are.equal(prefix, err:sub(1, #prefix))
        assert.truthy(err:find(msg, 1, true), err)
      end)
    end
  end

  it("names the line inside a longer kernel and inside __device__ functions", function()
    local function helper_fn(v)
      return v .. "x"
    end
    local function k(x)
      local i = jit.threadIdx.x
      x[i] = helper_fn(x[i])
    end
    local l = debug.getinfo(helper_fn, "S").linedefined + 1
    local err = helper.assert_gaerror(function() return jit.rawkernel(k):source("float32[]") end)
    assert.are.equal(("gpuarray: jit: line %d: string concatenation (..) is not supported in a kernel"):format(l), err)
  end)

  it("rejects recursion, wrong argument counts and bad arguments", function()
    local rec
    rec = function(n) if n > 0 then return rec(n - 1) end return 0 end
    helper.assert_gaerror(function() return jit.rawkernel(function(x) x[0] = rec(3) end):source("float32[]") end,
      "recursive calls are not supported")
    helper.assert_gaerror(function() return jit.rawkernel(saxpy):source(1, "float32[]") end,
      "the kernel takes 5 arguments, got 2")
    helper.assert_gaerror(function() return jit.rawkernel(saxpy):source({}, 1, 2, 3, 4) end,
      "argument 1 must be an ndarray")
    helper.assert_gaerror(function() return jit.rawkernel(print) end, "a kernel must be a Lua function")
    helper.assert_gaerror(function() return jit.rawkernel(42) end, "jit.rawkernel: fn must be a function, got 42")
    helper.assert_gaerror(function() jit.syncthreads() end, "jit.syncthreads can only be called inside a jit kernel")
  end)
end)
