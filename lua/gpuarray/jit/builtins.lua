--- What a jit kernel can call or read besides its own locals: the ga.jit
-- namespace (threadIdx & co, syncthreads, shared_memory, atomics, extra
-- math), Lua's math library, and the dtype objects as casts. Each is
-- recognised by identity: the translator resolves `jit.threadIdx.x` or
-- `math.sqrt` to the Lua value and looks it up in BUILTINS. Builtins
-- return E values ({code = C expression, type = ...}, see translate.lua).
local types = require "gpuarray.jit.types"

local T = types.T
local conv, promote = types.conv, types.promote

local M = {}

--- C helpers a translation may need; each is emitted once, before the
-- functions that use it, in this order. They follow Lua's meaning of the
-- operators: floor division and modulo with the divisor's sign (integer
-- division by zero gives 0 where Lua would raise: a kernel cannot),
-- shifts that are logical and give 0 past the width.
M.HELPERS_ORDER = { "idiv", "imod", "fmod_lua", "shl", "minmax", "fmodi" }
M.HELPERS = {
  idiv = [[
template <typename T> __device__ __forceinline__ T _jit_idiv(T a, T b) {
  if (b == (T)0) return (T)0;
  if ((T)-1 < (T)0 && b == (T)-1) return (T)((T)0 - a);
  T q = (T)(a / b);
  if ((T)(q * b) != a && ((a < (T)0) != (b < (T)0))) q = (T)(q - (T)1);
  return q;
}
]],
  imod = [[
template <typename T> __device__ __forceinline__ T _jit_imod(T a, T b) {
  if (b == (T)0 || ((T)-1 < (T)0 && b == (T)-1)) return (T)0;
  T r = (T)(a % b);
  if (r != (T)0 && ((r < (T)0) != (b < (T)0))) r = (T)(r + b);
  return r;
}
]],
  fmod_lua = [[
__device__ __forceinline__ float _jit_fmod_lua(float a, float b) {
  float m = fmodf(a, b);
  if ((m > 0.0f) ? b < 0.0f : (m < 0.0f && b > 0.0f)) m += b;   // signs differ: Lua's luai_nummod
  return m;
}
__device__ __forceinline__ double _jit_fmod_lua(double a, double b) {
  double m = fmod(a, b);
  if ((m > 0.0) ? b < 0.0 : (m < 0.0 && b > 0.0)) m += b;
  return m;
}
]],
  shl = [[
template <typename T> __device__ __forceinline__ T _jit_shl(T a, long long n) {
  const int W = 8 * (int)sizeof(T);
  const unsigned long long mask = W == 64 ? ~0ull : ((1ull << W) - 1ull);
  if (n <= -W || n >= W) return (T)0;
  if (n >= 0) return (T)(((unsigned long long)a << n) & mask);
  return (T)(((unsigned long long)a & mask) >> (-n));
}
]],
  minmax = [[
template <typename T> __device__ __forceinline__ T _jit_min(T a, T b) { return b < a ? b : a; }
template <typename T> __device__ __forceinline__ T _jit_max(T a, T b) { return a < b ? b : a; }
]],
  fmodi = [[
template <typename T> __device__ __forceinline__ T _jit_fmodi(T a, T b) {
  if (b == (T)0 || ((T)-1 < (T)0 && b == (T)-1)) return (T)0;
  return (T)(a % b);
}
]],
}

--- builtins by identity: value -> {name = "math.sqrt", value = E} or
-- {name = ..., call = function(tr, node, line) -> E}
local BUILTINS = {}
M.BUILTINS = BUILTINS

local function unsupported(name, why)
  return { name = name, call = function(tr, _, line)
    tr:fail(line, name .. " is not supported in a kernel" .. (why and (" (" .. why .. ")") or ""))
  end }
end

local function nargs(tr, node, line, name, lo, hi)
  local n = #node.args
  if n < lo or n > (hi or lo) then
    local want = hi == nil and tostring(lo) or hi == math.huge and ("at least " .. lo) or (lo .. " to " .. hi)
    tr:fail(line, ("%s takes %s argument%s, got %d"):format(name, want, (lo == 1 and hi == nil) and "" or "s", n))
  end
  return tr:exprs(node.args)
end

local function numeric(tr, e, line, name)
  if not types.is_numeric(e.type) then
    tr:fail(line, ("%s needs a number, got %s"):format(name, types.show(e.type)))
  end
  if e.type == T.bool then tr:fail(line, name .. " needs a number, got a boolean") end
  return e
end

--- the float type a real function of t returns (Lua: integers become floats)
local function float_result(t)
  if t.kind == "f" or t.kind == "c" then return t end
  return t.weak and T.weak_float or T.float64
end

local function fold1(tr, e, f)
  if e.const ~= nil then
    local ok, v = pcall(f, e.const)
    if ok and type(v) == "number" then return tr:const(v) end
  end
end

-- real functions: {float name, double name, complex name in math.cuh}
local FLOAT1 = {
  sqrt = { "sqrtf", "sqrt", "ga_sqrt", math.sqrt }, exp = { "expf", "exp", "ga_exp", math.exp },
  sin = { "sinf", "sin", "ga_sin", math.sin }, cos = { "cosf", "cos", "ga_cos", math.cos },
  tan = { "tanf", "tan", "ga_tan", math.tan }, asin = { "asinf", "asin", "ga_arcsin", math.asin },
  acos = { "acosf", "acos", "ga_arccos", math.acos }, atan = { "atanf", "atan", "ga_arctan" },
  log = { "logf", "log", "ga_log", math.log },
  tanh = { "tanhf", "tanh", "ga_tanh" }, sinh = { "sinhf", "sinh", "ga_sinh" }, cosh = { "coshf", "cosh", "ga_cosh" },
  asinh = { "asinhf", "asinh", "ga_arcsinh" }, acosh = { "acoshf", "acosh", "ga_arccosh" },
  atanh = { "atanhf", "atanh", "ga_arctanh" },
  log2 = { "log2f", "log2", "ga_log2" }, log10 = { "log10f", "log10", "ga_log10" },
  log1p = { "log1pf", "log1p", "ga_log1p" }, exp2 = { "exp2f", "exp2", "ga_exp2" },
  expm1 = { "expm1f", "expm1", "ga_expm1" }, cbrt = { "cbrtf", "cbrt" }, trunc = { "truncf", "trunc" },
  rint = { "rintf", "rint" }, rsqrt = { "rsqrtf", "rsqrt" },
}

--- f(x) for a real function: the result type, C call in the compute type
local function apply_float(tr, name, spec, e, line)
  local t = e.type
  local r = float_result(t)
  if t.kind == "c" then
    if not spec[3] then tr:fail(line, name .. " is not defined for complex numbers") end
    tr.need_math = true
    return tr:E(("%s(%s)"):format(spec[3], e.code), t)
  end
  local folded = spec[4] and r.weak and fold1(tr, e, spec[4])
  if folded then return folded end
  local c = types.compute(r)
  local fn = c == T.float32 and spec[1] or spec[2]
  return tr:E(conv(("%s(%s)"):format(fn, conv(e.code, t, c)), c, r), r)
end

local function float_fn(name, spec)
  return { name = name, call = function(tr, node, line)
    local a = nargs(tr, node, line, name, 1)
    return apply_float(tr, name, spec, numeric(tr, a[1], line, name), line)
  end }
end

--- two real arguments promoted to one float type: atan2, hypot, copysign, pow
local function float2(tr, name, a, b, fnames, line)
  numeric(tr, a, line, name)
  numeric(tr, b, line, name)
  if a.type.kind == "c" or b.type.kind == "c" then tr:fail(line, name .. " is not defined for complex numbers") end
  local r = float_result(promote(a.type, b.type))
  local c = types.compute(r)
  local fn = c == T.float32 and fnames[1] or fnames[2]
  return tr:E(conv(("%s(%s, %s)"):format(fn, conv(a.code, a.type, c), conv(b.code, b.type, c)), c, r), r)
end

local function float2_fn(name, fnames)
  return { name = name, call = function(tr, node, line)
    local a = nargs(tr, node, line, name, 2)
    return float2(tr, name, a[1], a[2], fnames, line)
  end }
end

--- math.floor / math.ceil: Lua returns an integer
local function round_fn(name, ff, df, lf)
  return { name = name, call = function(tr, node, line)
    local e = numeric(tr, nargs(tr, node, line, name, 1)[1], line, name)
    if types.is_int(e.type) then return e end
    if e.type.kind == "c" then tr:fail(line, name .. " is not defined for complex numbers") end
    local folded = e.const ~= nil and fold1(tr, e, lf)
    if folded then return folded end
    local c = types.compute(e.type)
    local fn = c == T.float32 and ff or df
    return tr:E(("((long long)%s(%s))"):format(fn, conv(e.code, e.type, c)), T.weak_int)
  end }
end

local function abs_call(tr, node, line)
  local e = numeric(tr, nargs(tr, node, line, "math.abs", 1)[1], line, "math.abs")
  local t = e.type
  if e.const ~= nil then return tr:const(math.abs(e.const)) end
  if t.kind == "c" then
    tr.need_math = true
    local r = t == T.complex64 and T.float32 or T.float64
    return tr:E(("ga_abs(%s)"):format(e.code), r)
  end
  if t.kind == "u" then return e end
  if t.kind == "i" then return tr:E(conv(("(%s < 0 ? -%s : %s)"):format(e.code, e.code, e.code), T.int32, t), t) end
  local c = types.compute(t)
  local fn = c == T.float32 and "fabsf" or "fabs"
  return tr:E(conv(("%s(%s)"):format(fn, conv(e.code, t, c)), c, t), t)
end

local function minmax(which)
  local name = "math." .. which
  return { name = name, call = function(tr, node, line)
    local args = nargs(tr, node, line, name, 1, math.huge)
    local r
    for _, a in ipairs(args) do
      numeric(tr, a, line, name)
      if a.type.kind == "c" then tr:fail(line, name .. ": complex numbers have no order") end
      r = r and promote(r, a.type) or a.type
    end
    local allconst = true
    for _, a in ipairs(args) do allconst = allconst and a.const ~= nil end
    if allconst then
      local v = args[1].const
      for i = 2, #args do
        local b = args[i].const
        if which == "min" and b < v or which == "max" and v < b then v = b end
      end
      return tr:const(v)
    end
    tr:need("minmax")
    local c = types.compute(r)
    local code = conv(args[1].code, args[1].type, c)
    for i = 2, #args do code = ("_jit_%s(%s, %s)"):format(which, code, conv(args[i].code, args[i].type, c)) end
    return tr:E(conv(code, c, r), r)
  end }
end

local function log_call(tr, node, line)
  local a = nargs(tr, node, line, "math.log", 1, 2)
  local x = numeric(tr, a[1], line, "math.log")
  if not a[2] then
    if x.const ~= nil and x.type.weak then return tr:const(math.log(x.const)) end
    return apply_float(tr, "math.log", FLOAT1.log, x, line)
  end
  local base = numeric(tr, a[2], line, "math.log")
  if x.const ~= nil and base.const ~= nil then return tr:const(math.log(x.const, base.const)) end
  if base.const == 2 then return apply_float(tr, "math.log", FLOAT1.log2, x, line) end
  if base.const == 10 then return apply_float(tr, "math.log", FLOAT1.log10, x, line) end
  local lx = apply_float(tr, "math.log", FLOAT1.log, x, line)
  local lb = apply_float(tr, "math.log", FLOAT1.log, base, line)
  local r = promote(lx.type, lb.type)
  local c = types.compute(r)
  return tr:E(conv(("(%s / %s)"):format(conv(lx.code, lx.type, c), conv(lb.code, lb.type, c)), c, r), r)
end

local function atan_call(tr, node, line)
  local a = nargs(tr, node, line, "math.atan", 1, 2)
  local y = numeric(tr, a[1], line, "math.atan")
  if not a[2] then return apply_float(tr, "math.atan", FLOAT1.atan, y, line) end
  local x = numeric(tr, a[2], line, "math.atan")
  if y.const ~= nil and x.const ~= nil then return tr:const(math.atan(y.const, x.const)) end
  return float2(tr, "math.atan", a[1], a[2], { "atan2f", "atan2" }, line)
end

local function fmod_call(tr, node, line)
  local a = nargs(tr, node, line, "math.fmod", 2)
  local x, y = numeric(tr, a[1], line, "math.fmod"), numeric(tr, a[2], line, "math.fmod")
  if types.is_int(x.type) and types.is_int(y.type) then
    local r = promote(x.type, y.type)
    tr:need("fmodi")
    return tr:E(("_jit_fmodi(%s, %s)"):format(conv(x.code, x.type, r), conv(y.code, y.type, r)), r)
  end
  return float2(tr, "math.fmod", x, y, { "fmodf", "fmod" }, line)
end

local function scale_fn(name, factor)
  return { name = name, call = function(tr, node, line)
    local e = numeric(tr, nargs(tr, node, line, name, 1)[1], line, name)
    local r = float_result(e.type)
    if e.const ~= nil then return tr:const(e.const * factor) end
    local c = types.compute(r)
    return tr:E(conv(("(%s * %s)"):format(conv(e.code, e.type, c), conv(types.literal(factor), T.float64, c)), c, r), r)
  end }
end

local function ult_call(tr, node, line)
  local a = nargs(tr, node, line, "math.ult", 2)
  for _, e in ipairs(a) do
    if not types.is_int(e.type) then tr:fail(line, "math.ult needs integers, got " .. types.show(e.type)) end
  end
  return tr:E(("((unsigned long long)(%s) < (unsigned long long)(%s))"):format(a[1].code, a[2].code), T.bool)
end

local function classify_fn(name, expr)
  return { name = name, call = function(tr, node, line)
    local e = numeric(tr, nargs(tr, node, line, name, 1)[1], line, name)
    if e.type.kind == "c" then tr:fail(line, name .. " is not defined for complex numbers here") end
    if e.type.kind ~= "f" then return tr:E(name:find("finite") and "true" or "false", T.bool) end
    local c = types.compute(e.type)
    local v = conv(e.code, e.type, c)
    local inf = conv(types.literal(math.huge), T.float64, c)
    local subst = { X = v, INF = inf, ABS = c == T.float32 and "fabsf" or "fabs" }
    local code = expr:gsub("%u+", function(w) return subst[w] end)
    return tr:E(code, T.bool)
  end }
end

-------------------------------------------------------------------------------
-- the jit namespace

local function only_in_kernels(name)
  return function() error("gpuarray: jit." .. name .. " can only be called inside a jit kernel", 0) end
end

local function sentinel(name) return setmetatable({}, { __name = "gpuarray.jit." .. name }) end

--- Atomics: CUDA's functions per element type; "ull" casts 64-bit signed
-- values through unsigned long long (two's complement makes it the same op)
local ATOMIC_TYPES = {
  add = { int32 = true, uint32 = true, uint64 = true, int64 = "ull", float32 = true, float64 = true },
  sub = { int32 = true, uint32 = true },
  max = { int32 = true, uint32 = true, int64 = true, uint64 = true },
  min = { int32 = true, uint32 = true, int64 = true, uint64 = true },
  exch = { int32 = true, uint32 = true, uint64 = true, int64 = "ull", float32 = true },
  cas = { int32 = true, uint32 = true, uint64 = true, int64 = "ull" },
  ["and"] = { int32 = true, uint32 = true, uint64 = true, int64 = "ull" },
  ["or"] = { int32 = true, uint32 = true, uint64 = true, int64 = "ull" },
  xor = { int32 = true, uint32 = true, uint64 = true, int64 = "ull" },
}
local CUDA_ATOMIC = { add = "atomicAdd", sub = "atomicSub", max = "atomicMax", min = "atomicMin",
                      exch = "atomicExch", cas = "atomicCAS", ["and"] = "atomicAnd", ["or"] = "atomicOr",
                      xor = "atomicXor" }

local function atomic(op)
  local name = "jit.atomic_" .. op
  local nval = op == "cas" and 2 or 1
  return { name = name, call = function(tr, node, line)
    local a = nargs(tr, node, line, name, 2 + nval)
    local arr, idx = a[1], a[2]
    if not arr.type.array then
      tr:fail(line, name .. ": the first argument must be an array, got " .. types.show(arr.type))
    end
    if not types.is_integer(idx.type) then
      tr:fail(line, name .. ": the index must be an integer, got " .. types.show(idx.type))
    end
    local el = arr.type.elem
    local how = ATOMIC_TYPES[op][el.name]
    if not how then
      local ok = {}
      for k in pairs(ATOMIC_TYPES[op]) do ok[#ok + 1] = k end
      table.sort(ok)
      tr:fail(line, ("%s: %s arrays are not supported (supported: %s)"):format(name, el.name, table.concat(ok, ", ")))
    end
    local vals = {}
    for k = 1, nval do
      local v = numeric(tr, a[2 + k], line, name)
      vals[k] = conv(v.code, v.type, el)
      if how == "ull" then vals[k] = "(unsigned long long)(" .. vals[k] .. ")" end
    end
    local icode = idx.const ~= nil and conv(idx.code, idx.type, T.int32) or idx.code
    local ptr = ("&%s[%s]"):format(arr.code, icode)
    if how == "ull" then ptr = "(unsigned long long *)" .. ptr end
    local code = ("%s(%s, %s)"):format(CUDA_ATOMIC[op], ptr, table.concat(vals, ", "))
    if how == "ull" then code = ("((%s)%s)"):format(el.ctype, code) end
    return tr:E(code, el)
  end }
end

--- The ga.jit table's builtin members (the module adds rawkernel & co)
function M.namespace(ga)
  local jit = {}
  for _, axis_name in ipairs { "threadIdx", "blockIdx", "blockDim", "gridDim" } do
    local t = {}
    for _, c in ipairs { "x", "y", "z" } do
      local s = sentinel(axis_name .. "." .. c)
      t[c] = s
      BUILTINS[s] = { name = "jit." .. axis_name .. "." .. c,
                      value = { code = ("((int)%s.%s)"):format(axis_name, c), type = T.int32 } }
    end
    jit[axis_name] = t
  end
  jit.warpsize = 32
  local calls = {
    syncthreads = function(tr, node, line)
      nargs(tr, node, line, "jit.syncthreads", 0)
      return tr:E("__syncthreads()", T.void)
    end,
    syncwarp = function(tr, node, line)
      nargs(tr, node, line, "jit.syncwarp", 0)
      return tr:E("__syncwarp()", T.void)
    end,
    shared_memory = function(tr, _, line)
      tr:fail(line, "jit.shared_memory must be the value of a local: local s = jit.shared_memory(dtype, n)")
    end,
  }
  for op in pairs(CUDA_ATOMIC) do calls["atomic_" .. op] = atomic(op).call end
  for name, impl in pairs(calls) do
    local f = only_in_kernels(name)
    jit[name] = f
    BUILTINS[f] = { name = "jit." .. name, call = impl }
  end
  M.SHARED_MEMORY = jit.shared_memory
  -- extra math, over float16/32/64 (and complex where math.cuh has it)
  local extra = { "tanh", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "log1p", "exp2",
                  "expm1", "cbrt", "trunc", "rint", "rsqrt" }
  for _, name in ipairs(extra) do
    local f = only_in_kernels(name)
    jit[name] = f
    BUILTINS[f] = float_fn("jit." .. name, FLOAT1[name])
  end
  for name, fn in pairs { hypot = { "hypotf", "hypot" }, atan2 = { "atan2f", "atan2" },
                          copysign = { "copysignf", "copysign" } } do
    local f = only_in_kernels(name)
    jit[name] = f
    BUILTINS[f] = float2_fn("jit." .. name, fn)
  end
  for name, expr in pairs { isnan = "(X != X)", isinf = "(ABS(X) == INF)", isfinite = "(X - X == X - X)" } do
    local f = only_in_kernels(name)
    jit[name] = f
    BUILTINS[f] = classify_fn("jit." .. name, expr)
  end
  -- casts: the dtype objects (jit.float32 is ga.float32)
  for name in pairs(types.CTYPE) do
    local d = ga[name]
    jit[name] = d
    BUILTINS[d] = { name = name, dtype = T[name], call = function(tr, node, line)
      local e = nargs(tr, node, line, name, 1)[1]
      if not types.is_numeric(e.type) then tr:fail(line, name .. "() needs a number, got " .. types.show(e.type)) end
      return tr:E(conv(e.code, e.type, T[name]), T[name])
    end }
  end

  -- Lua's math library
  for _, name in ipairs { "sqrt", "exp", "sin", "cos", "tan", "asin", "acos" } do
    BUILTINS[math[name]] = float_fn("math." .. name, FLOAT1[name])
  end
  BUILTINS[math.log] = { name = "math.log", call = log_call }
  BUILTINS[math.atan] = { name = "math.atan", call = atan_call }
  BUILTINS[math.floor] = round_fn("math.floor", "floorf", "floor", math.floor)
  BUILTINS[math.ceil] = round_fn("math.ceil", "ceilf", "ceil", math.ceil)
  BUILTINS[math.abs] = { name = "math.abs", call = abs_call }
  BUILTINS[math.min] = minmax("min")
  BUILTINS[math.max] = minmax("max")
  BUILTINS[math.fmod] = { name = "math.fmod", call = fmod_call }
  BUILTINS[math.deg] = scale_fn("math.deg", 180 / math.pi)
  BUILTINS[math.rad] = scale_fn("math.rad", math.pi / 180)
  BUILTINS[math.ult] = { name = "math.ult", call = ult_call }
  BUILTINS[math.random] = unsupported("math.random", "use ga.random on the host")
  BUILTINS[math.randomseed] = unsupported("math.randomseed")
  BUILTINS[math.type] = unsupported("math.type", "types are known when the kernel is translated")
  BUILTINS[math.tointeger] = unsupported("math.tointeger", "use math.floor or jit.int64")
  BUILTINS[math.modf] = unsupported("math.modf", "it returns two values")
  for _, f in ipairs { print, tostring, tonumber, pairs, ipairs, type, error, assert, select, next, pcall, require,
                       setmetatable, getmetatable, rawget, rawset } do
    local name
    for k, v in pairs(_G) do if v == f then name = k end end
    if name then BUILTINS[f] = unsupported(name) end
  end
  return jit
end

return M
