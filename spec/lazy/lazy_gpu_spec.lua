-- Lazy evaluation on the GPU (API.md 16, docs/lazy.md): results equal the
-- eager ones bit for bit (NaN payloads aside: a NaN is a NaN), and every
-- hazard of issue 29 computes pending work before it could be observed or
-- overwritten. Each case runs its code with lazy off (the reference) and
-- on, or checks values against a CPU reference; failures name the case and
-- the first differing element. The CPU side of the recorder (structure,
-- order of effects): lazy_spec.lua. Memory: lazy_memory_spec.lua.
local helper = require "helper"
local R = require "ndref"
local ga = helper.ga
local gpu_it = helper.gpu_it
local core = require "gpuarray.core"
local T = core._test

local function pending(x) return T.lazy_info(x) ~= nil end

-- run f(...) with lazy set to on, restoring the setting
local function under(on, f, ...)
  local prev = ga.set_lazy(on)
  local r = table.pack(pcall(f, ...))
  ga.set_lazy(prev)
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

-- equal dtype, shape and bits (a NaN equals any NaN); what names the case
local function same_bits(eager, lazy, what)
  assert.are.equal(eager.dtype, lazy.dtype, what .. ": dtype")
  assert.are.same(eager.shape, lazy.shape, what .. ": shape")
  if eager:tobytes() == lazy:tobytes() then return end
  local e, l = helper.flatten(eager:totable()), helper.flatten(lazy:totable())
  for i = 1, #e do
    local a, b = e[i], l[i]
    if type(a) == "table" then a, b = a[1] .. "," .. a[2], b[1] .. "," .. b[2] end
    local nan = a ~= a and b ~= b
    if not nan and a ~= b and not (a == 0 and b == 0 and 1 / a == 1 / b) then
      error(("%s: element %d: eager %s, lazy %s"):format(what, i, tostring(a), tostring(b)), 2)
    end
  end
  -- only NaN payloads (or the sign of a NaN) differ
end

local function rand(dt, shape, lo, hi)
  return R.to_gpu({ shape = shape, data = R.rand_list(R.size(shape), dt, lo, hi) }, dt)
end

local function values(x) return helper.flatten(x:totable()) end

describe("lazy evaluation on the GPU", function()
  gpu_it("records and computes: a pending result, then its value equals eager", function()
    local x = rand("float32", { 1000 }, -2, 2)
    local lazy = under(true, function()
      local y = ga.tanh(ga.sin(x) + 0.1 * x)
      assert(pending(y), "the chain is pending")
      return y
    end)
    local eager = under(false, function() return ga.tanh(ga.sin(x) + 0.1 * x) end)
    same_bits(eager, lazy, "tanh(sin(x) + 0.1 x)")
  end)

  -- random expressions as in fuse_gpu_spec.lua, each run eagerly and lazily
  local LEAVES = { "x", "y", "s", "2", "0.5", "3", "1.25", "x", "y" }
  local OPS = {
    "ga.sin(%s)", "ga.exp(%s)", "ga.abs(%s)", "ga.sqrt(%s)", "(-%s)", "ga.square(%s)", "ga.tanh(%s)",
    "ga.log1p(%s)", "ga.floor(%s)", "ga.sign(%s)", "ga.logical_not(%s)", "ga.isnan(%s)", "ga.conj(%s)",
    "ga.real(%s)", "ga.cos(%s)", "(~%s)", "(%s):astype('float32')", "(%s):astype('int16')",
    "ga.clip(%s, -1, 1)", "ga.clip(%s, 0, nil)", "(%s + %s)", "(%s - %s)", "(%s * %s)", "(%s / %s)",
    "(%s // %s)", "(%s %% %s)", "(%s ^ %s)", "(%s & %s)", "(%s | %s)", "(%s ~ %s)", "ga.maximum(%s, %s)",
    "ga.minimum(%s, %s)", "ga.fmod(%s, %s)", "ga.arctan2(%s, %s)", "ga.hypot(%s, %s)",
    "ga.logical_and(%s, %s)", "(%s):lt(%s)", "(%s):ge(%s)", "ga.where((%s):gt(%s), %s, %s)",
    "(%s + %s * %s)", "ga.power(%s, %s)",
  }
  local function random_expr(depth)
    if depth == 0 or math.random() < 0.2 then return LEAVES[math.random(#LEAVES)] end
    local op = OPS[math.random(#OPS)]
    local n = select(2, op:gsub("%%s", ""))
    local args = {}
    for i = 1, n do args[i] = random_expr(depth - 1) end
    return op:format(table.unpack(args))
  end
  local DTYPES = { "bool", "int8", "int32", "int64", "uint8", "uint32", "float16", "float32", "float64",
                   "complex64", "complex128" }

  gpu_it("equals eager bit for bit on 60 random expressions over every dtype family, broadcasting, scalars", function()
    local tried, ran = 0, 0
    while ran < 60 and tried < 400 do
      tried = tried + 1
      local src = random_expr(4)
      local dx, dy = DTYPES[math.random(#DTYPES)], DTYPES[math.random(#DTYPES)]
      local lo = (dx:match("^u") or dx == "bool") and 0 or -3
      local x = rand(dx, { 3, 4 }, lo, 5)
      local y = rand(dy, ({ { 4 }, { 3, 1 }, { 3, 4 }, {}, { 1, 4 } })[math.random(5)], 0, 5)
      local s = ga.asarray(1.5, "float32")
      local f = assert(load("local ga = ...; return function(x, y, s) return " .. src .. " end", "=expr", "t"))(ga)
      local ok, eager = pcall(under, false, f, x, y, s)
      local what = ("%s with x %s, y %s %s"):format(src, dx, dy, table.concat(y.shape, "x"))
      local lok, lazy = pcall(under, true, function() return ga.eval(f(x, y, s)) end)
      assert.are.equal(ok, lok, what .. ": eager " .. tostring(eager) .. " / lazy " .. tostring(lazy))
      if ok and type(eager) == "userdata" then
        ran = ran + 1
        same_bits(eager, lazy, what)
      end
    end
    assert(ran >= 30, "too few expressions ran: " .. ran)
  end)

  gpu_it("multi-output ufuncs, casts, where, clip and float16/complex chains equal eager", function()
    local a = rand("float32", { 64 }, -4, 4)
    local h = rand("float16", { 64 }, -2, 2)
    local c = rand("complex64", { 64 }, -2, 2)
    local i8 = rand("int8", { 64 }, -100, 100)
    local cases = {
      { "modf", function() local f, w = ga.modf(a * 2); return f + w end },
      { "divmod", function() local q, r = ga.divmod(a, 3); return r * q end },
      { "frexp/ldexp", function() local m, e = ga.frexp(a + 1); return ga.ldexp(m, e) end },
      { "float16 exp", function() return ga.exp(h * 2) + h end },
      { "complex abs", function() return ga.abs(c * c + 1) end },
      { "complex cast", function() return (c * 2):astype("complex128") + 1 end },
      { "int8 wraps", function() return i8 * 100 + i8 end },
      { "sqrt int8", function() return ga.sqrt(i8) end },
      { "power", function() return ga.power(a, 2.5) / i8 end },
      { "where complex", function() return ga.where(c:ne(0), c, 1) end },
      { "clip where astype", function() return ga.where(a:gt(0), ga.clip(a, -1, 0.5), a * a):astype("float16") end },
      { "bool logic", function() return ga.logical_xor(a:gt(0), i8:lt(0)) end },
    }
    for _, cs in ipairs(cases) do
      same_bits(under(false, cs[2]), under(true, cs[2]), cs[1])
    end
  end)

  gpu_it("a 300-operation chain (past the bound) and an in-place loop equal eager", function()
    local x0 = rand("float32", { 4096 }, 0, 1)
    local function chain()
      local x = x0
      for i = 1, 150 do x = x * 1.0001 + (i % 7) * 1e-3 end
      return x
    end
    same_bits(under(false, chain), under(true, chain), "300 ops")
    -- eager_100ops' pattern: out= ping-pong
    local function pingpong()
      local a, b = x0:copy(), ga.empty_like(x0)
      for _ = 1, 50 do
        ga.multiply(a, 1.0001, b)
        ga.add(b, 1e-4, a)
      end
      return a, b
    end
    local ea, eb = under(false, pingpong)
    local la, lb = under(true, pingpong)
    same_bits(ea, la, "ping-pong a")
    same_bits(eb, lb, "ping-pong b")
    local function inplace()
      local a = x0:copy()
      for _ = 1, 60 do a:mul_(1.001); a:add_(0.5); a:sub_(a * 0.25) end
      return a
    end
    same_bits(under(false, inplace), under(true, inplace), "in-place loop")
  end)

  gpu_it("a write into memory a pending chain reads computes the chain first", function()
    under(true, function()
      local x = ga.array({ 1, 2, 3, 4 }, "float32")
      local writes = {
        { "fill", function() x:fill(9) end },
        { "setitem", function() x[{ { 1, 2 } }] = 0 end },
        { "set", function() x:set(ga.zeros(4, "float32")) end },
        { "out=", function() ga.multiply(x, 0, x) end },
        { "in-place", function() x:mul_(0) end },
        { "copyto", function() ga.copyto(x, ga.full(4, 7, "float32")) end },
      }
      for _, w in ipairs(writes) do
        x:set(ga.array({ 1, 2, 3, 4 }, "float32"))
        local y = x * 10 + 1
        assert(pending(y), w[1])
        w[2]()
        assert.are.same({ 11, 21, 31, 41 }, values(y), w[1] .. ": y read x before the write")
      end
    end)
  end)

  gpu_it("out= aliasing an input, overlapping views, reversed views", function()
    under(true, function()
      local x = ga.array({ 1, 2, 3, 4, 5 }, "float64")
      ga.add(x, x[{ { -1, 1, -1 } }], x)           -- x + reversed x into x
      assert.are.same({ 6, 6, 6, 6, 6 }, values(x), "x + x[::-1] into x")
      local y = ga.array({ 1, 2, 3, 4, 5, 6 }, "float64")
      ga.multiply(y[{ { 1, 5 } }], 2, y[{ { 2, 6 } }])   -- shifted overlap
      assert.are.same({ 1, 2, 4, 6, 8, 10 }, values(y), "shifted overlap")
      local z = ga.array({ 1, 2, 3 }, "float32")
      z:add_(z):mul_(z)
      assert.are.same({ 4, 16, 36 }, values(z), "z += z; z *= z")
    end)
  end)

  gpu_it("views and indexing of a pending result see its value", function()
    under(true, function()
      local x = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32")
      local p = x * 2 - 1
      assert.are.same({ { 1, 7 }, { 3, 9 }, { 5, 11 } }, p.T:totable())
      p = x * 2 - 1
      assert.are.same({ 3, 9 }, p[{ {}, 2 }]:totable())
      p = x * 2 - 1
      assert.are.same({ 1, 3, 5, 7, 9, 11 }, p:reshape(6):totable())
      p = x * 2 - 1
      assert.are.equal(9, p[{ 2, 2 }])
      p = x * 2 - 1
      assert.are.same({ 9, 11 }, p[p:gt(8)]:totable(), "boolean mask of a pending array by a pending mask")
      p = x * 2 - 1
      local v = p[{ 1 }]
      x:fill(0)                                   -- p was computed when viewed
      assert.are.same({ 1, 3, 5 }, v:totable())
    end)
  end)

  gpu_it("consumers of a pending chain: reductions, scan, sort, matmul, fft, take", function()
    local x = rand("float32", { 8, 8 }, -1, 1)
    local cases = {
      { "sum", function() return (x * 2 + 1):sum(1) end },
      { "max", function() return ga.exp(x):max() end },
      { "cumsum", function() return ga.cumsum(x * x) end },
      { "sort", function() return ga.sort(-x) end },
      { "matmul", function() return ga.matmul(x + 1, x * 2) end },
      { "take", function() return ga.take(x * 3, ga.array({ 1, 5, 9 }, "int64")) end },
      { "fft", function() return ga.fft.fft(x * 2) end },
      { "copy", function() return (x - 1):copy() end },
    }
    for _, cs in ipairs(cases) do
      same_bits(under(false, cs[2]), under(true, cs[2]), cs[1])
    end
  end)

  gpu_it("stream switches, events and synchronize compute pending work on its stream", function()
    under(true, function()
      local x = ga.arange(1, 100001, 1, "float32")
      local s = ga.Stream({ non_blocking = true })
      local y
      do
        local _ <close> = s:scope()
        y = x * 2
        assert(pending(y))
      end
      assert(not pending(y), "leaving the stream's scope computed y")
      s:synchronize()
      assert.are.equal(200000, y[{ 100000 }])
      local z = x + 1
      local e = ga.Event()
      e:record()
      assert(not pending(z), "an event record computed z")
      e:synchronize()
      assert.are.equal(100001, z[{ 100000 }])
      local w = x - 1
      ga.synchronize()
      assert(not pending(w), "synchronize computed w")
      -- recorded on the null stream, consumed under another stream
      local u = x * 3
      do
        local _ <close> = s:scope()
        local v = u + 1                        -- u was computed on its own stream first
        assert.are.equal(300001, v[{ 100000 }])
      end
    end)
  end)

  gpu_it("graph capture: pending work before it is computed; capture records launches", function()
    under(true, function()
      local a = ga.arange(1, 1025, 1, "float32")
      local b = ga.empty_like(a)
      local pre = a * 2
      local s = ga.Stream({ non_blocking = true })
      local g
      do
        local _ <close> = s:scope()
        ga.multiply(a, 3, b)                   -- compile and warm outside the capture
        s:synchronize()
        s:begin_capture()
        assert(not pending(pre), "begin_capture computed the pending work")
        ga.multiply(a, 3, b)
        local c = b + 1
        assert(not pending(c), "nothing is recorded while capturing")
        g = s:end_capture()
      end
      b:fill(0)
      g:launch(s)
      s:synchronize()
      assert.are.equal(3072, b[{ 1024 }])
      assert.are.equal(2048, pre[{ 1024 }])
    end)
  end)

  gpu_it("RawKernel and ElementwiseKernel arguments: inputs computed, readers of outputs first", function()
    under(true, function()
      local k = ga.RawKernel([[
extern "C" __global__ void lz_add(const float* x1, const float* x2, float* y) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  y[i] = x1[i] + x2[i];
}]], "lz_add")
      local x = ga.arange(0, 256, 1, "float32")
      local p = x * 2
      local y = ga.zeros(256, "float32")
      local r = y + 5                          -- reads y before the kernel writes it
      k(1, 256, { p, x, y })
      assert.are.equal(3 * 255, y[{ 256 }], "raw kernel saw p's value")
      assert.are.equal(5, r[{ 256 }], "r read y before the raw kernel wrote it")
      local ek = ga.ElementwiseKernel("float32 a", "float32 b", "b = a * a", "lz_sq")
      local q = x + 1
      local t = x * 1                          -- reads x before ek writes it
      ek(q, x)
      assert.are.equal(256 * 256, x[{ 256 }])
      assert.are.equal(255, t[{ 256 }])
    end)
  end)

  gpu_it("DLPack export and import of a pending array give its value", function()
    under(true, function()
      local x = ga.arange(0, 10, 1, "float64")
      local p = x * x
      local cap = p:to_dlpack()
      local back = ga.from_dlpack(cap)
      assert.are.same({ 0, 1, 4, 9, 16, 25, 36, 49, 64, 81 }, back:totable())
      local q = x + 0.5
      local v = ga.from_dlpack(q)               -- a view of an ndarray
      assert.are.equal(9.5, v[{ 10 }])
      -- imported (wrapped) memory can change behind the recorder: eager
      local w = ga.from_dlpack(x:to_dlpack())
      local r = w * 2
      assert(not pending(r), "a call on wrapped memory runs eagerly")
      assert(not pending(w:astype("float32")), "astype of wrapped memory runs eagerly")
      assert.are.equal(18, r[{ 10 }])
    end)
  end)

  gpu_it("host reads: item, totable, tostring, comparison of 0-d pending arrays", function()
    under(true, function()
      local x = ga.array({ 1.5, 2.5 }, "float32")
      assert.are.equal(4, (x * 2)[{ 2 }] - 1)
      assert.are.equal(6, (x * 2 + 1):max():item())
      assert.are.same({ 4, 6 }, (x * 2 + 1):totable())
      assert.matches("4", tostring(x * 2 + 1))
      local s = ga.asarray(3, "float64") + 1
      assert(pending(s))
      assert.is_true(s < 5)
      assert.is_true(s <= 4)
      assert.is_false(s < 4)
    end)
  end)

  gpu_it("a collected pending result whose inputs are gone; errors mid-chain leave the rest intact", function()
    under(true, function()
      local y
      do
        local a = ga.arange(0, 1000, 1, "float32")
        local b = a * 3
        y = b + 1
      end
      collectgarbage()
      collectgarbage()
      assert.are.equal(2998, y[{ 1000 }])
      for _ = 1, 200 do local _ = ga.exp(ga.arange(0, 1000, 1, "float32")) * 2 end
      collectgarbage()
      local x = ga.arange(0, 4, 1, "float32")
      local p = x * 2
      assert.has_error(function() return p + ga.zeros(5, "float32") end)
      assert.has_error(function() return ga.bitwise_and(p, p) end)
      assert.are.same({ 0, 2, 4, 6 }, p:totable())
      local q = p + 1
      assert.are.same({ 1, 3, 5, 7 }, q:totable())
    end)
  end)

  gpu_it("coroutines record into the state's pending work", function()
    under(true, function()
      local x = ga.arange(0, 4, 1, "float32")
      local co = coroutine.wrap(function()
        local y = x + 1
        coroutine.yield(y)
        x:fill(0)                              -- y was recorded in the coroutine: computed first
        return y * 2
      end)
      local y = co()
      local z = co()
      assert.are.same({ 1, 2, 3, 4 }, y:totable())
      assert.are.same({ 2, 4, 6, 8 }, z:totable())
    end)
  end)

  gpu_it("set_lazy(false) computes pending work and later calls run eagerly", function()
    local x = ga.arange(0, 4, 1, "float32")
    local prev = ga.set_lazy(true)
    local y = x + 1
    assert(pending(y))
    ga.set_lazy(false)
    assert(not pending(y))
    assert(not pending(x * 2))
    ga.set_lazy(prev)
    assert.are.same({ 1, 2, 3, 4 }, y:totable())
  end)

  gpu_it("get_lazy_source shows the kernel; one launch per evaluated chain", function()
    under(true, function()
      local x = ga.random.random(1 << 16, "float32")
      local y = ga.tanh(ga.sin(x) + 0.1 * x)
      local src = ga.get_lazy_source(y)
      assert.matches("ga_lazy", src)
      local k0 = T.lazy_stats().kernels
      y:eval()
      assert.are.equal(k0 + 1, T.lazy_stats().kernels, "one generated kernel")
      assert.is_nil(ga.get_lazy_source(y))
    end)
  end)
end)
