-- Lazy evaluation on the CPU (API.md 16, docs/lazy.md): what can be seen
-- without a device. The recorder's structure through core._test.lazy_*;
-- zero-size arrays need no memory; "dry" settling (core._test.lazy_dry)
-- generates the kernel's source and gives results host memory instead of
-- launching, so that the order of effects (which pending work is computed
-- before which write) is checked here. Values on the GPU: lazy_gpu_spec.lua.
local helper = require "helper"
local ga = helper.ga
local core = require "gpuarray.core"
local T = core._test

local function with_lazy(on, f)
  local prev = ga.set_lazy(on)
  local ok, err = pcall(f)
  T.lazy_dry(true)           -- what is still pending settles dry (no device here)
  T.lazy_flush()
  T.lazy_dry(false)
  ga.set_lazy(prev)
  if not ok then error(err, 0) end
end

local function fake(shape, dt) return T.lazy_fake(shape, dt or "float32") end

-- The specs that hand a fake array (host memory) to an eager operation,
-- which fails for want of a device here: where there is one, the
-- operation would reach the device with a host pointer (memcheck: an
-- invalid global read), so they run where there is none (CI)
local function no_device_it(name, f)
  if helper.gpu then
    pending(name .. " (needs no device: its fake arrays are host memory)")
  else
    it(name, f)
  end
end

describe("lazy evaluation (CPU)", function()
  it("is declared: set_lazy returns the previous setting, get_lazy reads it, per state", function()
    local prev = ga.get_lazy()
    assert.are.equal(prev, ga.set_lazy(false))
    assert.is_false(ga.get_lazy())
    assert.is_false(ga.set_lazy(true))
    assert.is_true(ga.get_lazy())
    ga.set_lazy(prev)
    assert.has_error(function() ga.set_lazy("yes") end)
    assert.are.equal("function", type(ga.eval))
    assert.are.equal("function", type(ga.get_lazy_source))
  end)

  it("follows GPUARRAY_LAZY in a fresh process", function()
    local cmd = [[LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 -e ]] ..
      [['print(require("gpuarray").get_lazy())']]
    local ok, out = helper.sh("GPUARRAY_LAZY=0 " .. cmd)
    assert(ok, out)
    assert.are.equal("false", out:match("%a+"))
    ok, out = helper.sh("GPUARRAY_LAZY=1 " .. cmd)
    assert(ok, out)
    assert.are.equal("true", out:match("%a+"))
  end)

  it("records an operation on zero-size arrays as a pending array of the eager shape and dtype", function()
    with_lazy(true, function()
      local x = fake({ 0, 3 })            -- zero-size: no memory, no device needed
      local y = fake({ 3 }, "float64")
      T.lazy_dry(true)
      local z = (x + y) * 2
      local info = T.lazy_info(z)
      assert.is_not_nil(info, "z is pending")
      assert.are.same({ 0, 3 }, z.shape)
      assert.are.equal("float64", z.dtype)
      assert.are.equal(2, info.nodes)
      assert.are.equal(2, info.leaves)
      assert.is_false(info.has_memory)
      assert.are.equal(z, z:eval())
      assert.is_nil(T.lazy_info(z), "settled")
    end)
  end)

  it("with lazy off, nothing is recorded", function()
    with_lazy(false, function()
      local x = fake({ 0 })
      assert.is_nil(T.lazy_info(x + 1))
      assert.is_nil(T.lazy_info(ga.exp(x)))
    end)
  end)

  it("raises shape, dtype and broadcasting errors at the call", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a, b = fake({ 4, 3 }), fake({ 5 })
      local ok, err = pcall(function() return a + b end)
      assert.is_false(ok)
      assert.matches("cannot be broadcast", err)
      ok, err = pcall(function() return ga.bitwise_and(a, a) end)
      assert.is_false(ok, "bitwise_and of float32 has no loop")
      assert.matches("bitwise_and", err)
      ok, err = pcall(function() return ga.where(fake({ 2 }, "bool"), a, 1) end)
      assert.is_false(ok)
      -- the error left the earlier pending work intact
      local y = a * 2
      assert.is_not_nil(T.lazy_info(y))
      assert.has_error(function() return y + b end)
      assert.is_not_nil(T.lazy_info(y), "y still pending after a failed call on it")
    end)
  end)

  it("chains into one expression: nodes, leaves and scalars counted, one kernel source", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a, b = fake({ 4, 3 }), fake({ 3 }, "float64")
      local c = ga.exp(a * 2 + b):astype("float32")
      local info = T.lazy_info(c)
      assert.are.equal("cast", info.kind)
      assert.are.equal("float32", info.dtype)
      assert.are.equal(4, info.nodes)
      assert.are.equal(2, info.leaves)
      assert.are.equal(1, info.scalars)
      local src = ga.get_lazy_source(c)
      assert.matches("ga_lazy", src)
      assert.matches("_fz_keep", src, 1, true)   -- fuse's rounding rule
      assert.is_nil(ga.get_lazy_source(a), "a is not pending")
    end)
  end)

  it("generates CUDA that NVRTC compiles, for ufuncs, casts, where and clip", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a, b = fake({ 8 }), fake({ 8 }, "int32")
      local exprs = {
        ga.tanh(ga.sin(a) + a * 0.1),
        ga.where(a:gt(b), a, b * 3):astype("float16"),
        ga.clip(a - b, -1, 1) // 2,
        ga.hypot(a, b) + ga.arctan2(b, a),
        (~b) ~ (b & 7),
        -- loop bodies that name their typedefs (out0_type: complex outputs)
        ga.scipy.special.lambertw(a) * 2,
        ga.scipy.special.sph_harm_y(2, 1, a, a * 0.5) + 1,
      }
      for i, e in ipairs(exprs) do
        local src = ga.get_lazy_source(e)
        assert(src, "expression " .. i .. " is pending")
        local ok, err = pcall(ga.RawModule, { code = src })
        assert(ok, ("expression %d does not compile: %s\n%s"):format(i, tostring(err), src))
      end
    end)
  end)

  it("caches one program per structure and dtypes", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a, b = fake({ 16 }), fake({ 16 })
      local n0 = T.lazy_stats().programs
      local x = ga.sqrt(a * b + 1.5)
      local y = ga.sqrt(b * a + 2.5)         -- same structure, other leaves and scalar
      x:eval()
      y:eval()
      assert.are.equal(n0 + 1, T.lazy_stats().programs)
      local z = ga.sqrt(a * b + 1.5):astype("float64")
      z:eval()
      assert.are.equal(n0 + 2, T.lazy_stats().programs)
    end)
  end)

  it("bounds an expression: past 48 operations the pending operand is computed first", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a = fake({ 4 })
      local b0 = T.lazy_stats().bounds
      local x = a
      for _ = 1, 100 do x = x * 1.0001 + 0.5 end
      local info = T.lazy_info(x)
      assert(info.nodes <= 48, "nodes " .. info.nodes)
      assert(T.lazy_stats().bounds > b0, "a bound was met")
      -- leaves: at most 12 distinct arrays
      local xs = {}
      for i = 1, 20 do xs[i] = fake({ 4 }) end
      local s = xs[1]
      for i = 2, 20 do s = s + xs[i] end
      assert(T.lazy_info(s).leaves <= 12)
    end)
  end)

  it("keeps a 20-operation chain with 20 distinct scalars over one array as one expression", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a = fake({ 4 })
      local b0 = T.lazy_stats().bounds
      local y = a
      for i = 1, 10 do y = y * (1 + i / 1000) + i end
      assert.are.equal(b0, T.lazy_stats().bounds, "no bound was met")
      local info = T.lazy_info(y)
      assert.are.equal(20, info.nodes)
      assert.are.equal(1, info.leaves)
      assert.are.equal(20, info.scalars)
      -- 29 scalars fit with one array; the 30th starts a new expression
      for i = 1, 9 do y = y + i / 7 end
      assert.are.equal(b0, T.lazy_stats().bounds)
      y = y - 0.25
      assert(T.lazy_stats().bounds > b0, "the 30th parameter met the bound")
    end)
  end)

  no_device_it("a write into memory a pending chain reads computes the chain first", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local x = fake({ 6 })
      local y = x + 1
      local r = T.lazy_info(y).serial
      local readers = T.lazy_block(x)
      assert.are.equal(1, readers)
      T.lazy_log()
      -- an eager write into x's memory (settles y, then needs the device:
      -- there is none here, and the write's own failure does not matter)
      pcall(x.fill, x, 0)
      assert.are.same({ r }, T.lazy_log(), "y was computed before the write")
      assert.is_nil(T.lazy_info(y))
      assert.are.equal(0, (T.lazy_block(x)))
    end)
  end)

  no_device_it("in-place forms and out= are pending writes, landed in program order", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local x = fake({ 5 })
      local y = x * 2                         -- reads x before the write below
      local ry = T.lazy_info(y).serial
      x:add_(1)
      local sx = T.lazy_info(x)
      assert.is_true(sx.store)
      local _, stores = T.lazy_block(x)
      assert.are.equal(1, stores)
      local z = x - 3                         -- reads x after the write
      T.lazy_log()
      x:eval()                                -- the write lands; y first
      local log = T.lazy_log()
      assert.are.equal(ry, log[1], "the reader recorded before the write settles first")
      assert.are.equal(sx.serial, log[#log], "then the write")
      assert.is_nil(T.lazy_info(x))
      z:eval()
      -- out= into an array with readers
      local o = fake({ 5 })
      local w = o + x
      local rw = T.lazy_info(w).serial
      ga.multiply(x, 2, o)
      local so = T.lazy_info(o).serial
      T.lazy_log()
      pcall(o.totable, o)                     -- settles, then would copy to the host
      assert.are.same({ rw, so }, T.lazy_log())
    end)
  end)

  it("a view of an array with a pending write sees the write", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local x = fake({ 8 })
      local v = x[{ { 2, 4 } }]
      x:mul_(3)
      local s = T.lazy_info(x).serial
      T.lazy_log()
      local u = v + 1                          -- an operand: the write lands first
      assert.are.same({ s }, T.lazy_log())
      assert.is_not_nil(T.lazy_info(u))
    end)
  end)

  no_device_it("views, indexing, reductions and host reads of a pending array compute it", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a = fake({ 4, 3 })
      local cases = {
        function(p) return p.T end,
        function(p) return p:reshape(12) end,
        function(p) return p[{ 1 }] end,
        function(p) return p:transpose() end,
        function(p) return pcall(p.totable, p) end,   -- (the copy needs a device)
        function(p) return pcall(p.tobytes, p) end,
        function(p) return pcall(p.item, p, 1) end,
        function(p) return p.data_ptr end,
        function(p) return ga.eval(p) end,
        function(p) return pcall(p.sum, p) end,
        function(p) return pcall(ga.cumsum, p) end,
        function(p) return pcall(ga.sort, p) end,
        function(p) return pcall(p.copy, p) end,
      }
      for i, f in ipairs(cases) do
        local p = a * 2 + 1
        f(p)
        assert.is_nil(T.lazy_info(p), "case " .. i .. " computed it")
      end
      -- shape-only questions do not
      local p = a * 2
      assert.are.equal(4, #p)
      assert.are.same({ 4, 3 }, p.shape)
      assert.are.equal("float32", p.dtype)
      assert.are.equal(12, p.size)
      assert.are.equal(2, p.ndim)
      assert.is_not_nil(T.lazy_info(p))
      pcall(ga.empty_like, p)                 -- (allocating needs a device)
      assert.is_not_nil(T.lazy_info(p), "empty_like reads the shape only")
    end)
  end)

  it("a collected pending result is dropped; its inputs may go first", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local before = T.lazy_stats().pending
      do
        local a = fake({ 1000 })
        local _ = ga.exp(a) * 2
        a = nil
      end
      collectgarbage()
      collectgarbage()
      assert.are.equal(before, T.lazy_stats().pending)
      -- a pending result that outlives its inputs still computes (the leaf keeps the memory)
      local y
      do
        local a = fake({ 16 })
        y = ga.exp(a) + 1
      end
      collectgarbage()
      collectgarbage()
      local s = T.lazy_info(y).serial
      T.lazy_log()
      y:eval()
      assert.are.same({ s }, T.lazy_log())
    end)
  end)

  it("set_lazy, synchronize-type points and lazy_flush compute everything pending", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a = fake({ 4 })
      local ys = {}
      for i = 1, 5 do ys[i] = a + i end
      T.lazy_flush()
      for i = 1, 5 do assert.is_nil(T.lazy_info(ys[i])) end
      local z = a * 7
      ga.set_lazy(true)                       -- set_lazy itself evaluates
      assert.is_nil(T.lazy_info(z))
      assert.are.equal(0, T.lazy_stats().pending)
    end)
  end)

  -- the bench's forcing (bench/run.lua): a timed call's results are
  -- evaluated, then its pending writes land; values it dropped stay pending
  -- (a program never computes them)
  no_device_it("lazy_flush('stores') lands the pending writes, their readers first, and no other value", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local x, o = fake({ 5 }), fake({ 5 })
      local y = x * 2                         -- a value nothing reads
      local w = o * 3                         -- reads o before the write below
      local rw = T.lazy_info(w).serial
      ga.add(x, 1, { out = o })
      local so = T.lazy_info(o)
      assert.is_true(so.store)
      local v = x + math.random(1, 9)         -- another value, after the write
      T.lazy_log()
      T.lazy_flush("stores")
      assert.are.same({ rw, so.serial }, T.lazy_log(), "the reader of o, then the write")
      assert.is_nil(T.lazy_info(o))
      assert.is_nil(T.lazy_info(w))
      assert.is_not_nil(T.lazy_info(y))
      assert.is_not_nil(T.lazy_info(v))
      T.lazy_flush("stores")                  -- nothing left to land
      assert.are.same({}, T.lazy_log())
      assert.is_not_nil(T.lazy_info(y))
      T.lazy_flush()                          -- "all": the values too
      assert.is_nil(T.lazy_info(y))
      assert.is_nil(T.lazy_info(v))
      assert.has_error(function() T.lazy_flush("values") end,
        'gpuarray: lazy_flush: what must be "all" or "stores", got "values"')
    end)
  end)

  it("records inside coroutines into the state's list", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a = fake({ 4 })
      local co = coroutine.wrap(function()
        local y = a + 1
        coroutine.yield(y)
        return y * 2
      end)
      local y = co()
      assert.is_not_nil(T.lazy_info(y))
      local z = co()
      assert.are.equal(2, T.lazy_info(z).nodes)
      T.lazy_flush()
      assert.is_nil(T.lazy_info(z))
      assert.is_nil(T.lazy_info(y))
    end)
  end)

  it("records where, clip and astype; astype to the same dtype with copy=false is no op", function()
    with_lazy(true, function()
      T.lazy_dry(true)
      local a, c = fake({ 6 }), fake({ 6 }, "bool")
      assert.are.equal("where", T.lazy_info(ga.where(c, a, 0)).kind)
      assert.are.equal("clip", T.lazy_info(ga.clip(a, 0, 1)).kind)
      assert.are.equal("cast", T.lazy_info(a:astype("int8")).kind)
      local w = ga.where(c, a, 2.5)
      assert.are.equal("float32", w.dtype)
      assert.are.same({ 6 }, w.shape)
    end)
  end)
end)
