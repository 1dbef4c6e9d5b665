-- Several GPUs (pending where fewer than two exist): collectives across
-- ranks of one process (Communicator.init_all) against Lua references,
-- peer copies, operations mixing devices, and examples/multi_gpu's SAXPY
-- in two processes (tools/launch).
local helper = require "helper"
local ref = require "nccl.nccl_ref"
local ga = helper.ga
local nccl = ga.nccl

local ndev = helper.gpu and ga.device_count() or 0
local function multi_it(name, fn)
  if ndev >= 2 and nccl.available() then
    it(name .. " #gpu #multigpu", fn)
  else
    pending(name .. " #gpu #multigpu (needs two GPUs and NCCL)")
  end
end

-- run fn(i, comm) for every rank with its device current, inside one group
local function each(comms, fn)
  local out = {}
  nccl.group(function()
    for i, c in ipairs(comms) do
      local _ <close> = ga.Device(c.device):scope()
      out[i] = fn(i, c)
    end
  end)
  return out
end

-- an array of values on the device of comm c
local function on(c, values, dtype)
  local _ <close> = ga.Device(c.device):scope()
  return ga.array(values, dtype)
end

local function host(x)
  local _ <close> = ga.Device(x.device):scope()
  return x:reshape(-1):totable()
end

describe("nccl across GPUs", function()
  local comms
  local function get()
    if not comms then comms = nccl.Communicator.init_all(2) end
    return comms
  end

  multi_it("init_all gives rank i device i", function()
    local cs = get()
    for i, c in ipairs(cs) do
      assert.are.equal(i - 1, c.rank)
      assert.are.equal(2, c.nranks)
      assert.are.equal(i - 1, c.device)
    end
  end)

  multi_it("all_reduce is right for every dtype and op", function()
    local cs = get()
    for _, dt in ipairs(ref.dtypes) do
      for _, op in ipairs(ref.ops) do
        if ref.reducible(dt, op) then
          local n = math.random(1, 3000)
          local vals, xs = {}, {}
          for r = 1, 2 do
            vals[r] = {}
            for i = 1, n do vals[r][i] = ref.value(dt, op, 2) end
            xs[r] = on(cs[r], vals[r], dt)
          end
          local want = ref.combine(vals, op, dt)
          local got = each(cs, function(i, c) return c:all_reduce(xs[i], nil, op) end)
          for r = 1, 2 do
            assert.are.equal(dt, got[r].dtype)
            assert.are.equal(r - 1, got[r].device)
            helper.assert_same(want, host(got[r]), nil, ("%s %s rank %d"):format(dt, op, r - 1))
          end
        end
      end
    end
  end)

  multi_it("broadcast, reduce, all_gather and reduce_scatter are right", function()
    local cs = get()
    for _, dt in ipairs({ "float32", "int64", "uint16", "complex64", "float16" }) do
      local n = math.random(1, 500) * 2
      local vals, xs = {}, {}
      for r = 1, 2 do
        vals[r] = {}
        for i = 1, n do vals[r][i] = ref.value(dt, "max", 2) end
        xs[r] = on(cs[r], vals[r], dt)
      end
      -- broadcast from rank 1, in place
      local b = { on(cs[1], vals[1], dt), on(cs[2], vals[2], dt) }
      each(cs, function(i, c) return c:broadcast(b[i], 1) end)
      for r = 1, 2 do helper.assert_same(vals[2], host(b[r]), nil, dt .. " broadcast") end
      -- all_gather: rank after rank
      local g = each(cs, function(i, c) return c:all_gather(xs[i]) end)
      local cat = {}
      for r = 1, 2 do for i = 1, n do cat[#cat + 1] = vals[r][i] end end
      for r = 1, 2 do
        assert.are.same({ 2, n }, g[r].shape)
        helper.assert_same(cat, host(g[r]), nil, dt .. " all_gather")
      end
      if ref.reducible(dt, "sum") then
        -- reduce to rank 1 only
        local red = each(cs, function(i, c) return c:reduce(xs[i], nil, "sum", 1) end)
        assert.is_nil(red[1])
        helper.assert_same(ref.combine(vals, "sum", dt), host(red[2]), nil, dt .. " reduce")
        -- reduce_scatter: rank r gets block r of the sum
        local rs = each(cs, function(i, c) return c:reduce_scatter(xs[i], nil, "sum") end)
        local sum = ref.combine(vals, "sum", dt)
        for r = 1, 2 do
          local block = {}
          for i = 1, n // 2 do block[i] = sum[(r - 1) * (n // 2) + i] end
          helper.assert_same(block, host(rs[r]), nil, dt .. " reduce_scatter")
        end
      end
    end
  end)

  multi_it("send and recv swap two ranks' arrays in one group", function()
    local cs = get()
    local a, b = {}, {}
    for i = 1, 777 do a[i], b[i] = math.random(), math.random() end
    local xa, xb = on(cs[1], a, "float64"), on(cs[2], b, "float64")
    local ya, yb = on(cs[1], b, "float64"):fill(0), on(cs[2], a, "float64"):fill(0)
    nccl.group(function()
      cs[1]:send(xa, 1)
      cs[2]:send(xb, 0)
      cs[1]:recv(ya, 1)
      cs[2]:recv(yb, 0)
    end)
    helper.assert_same(b, host(ya))
    helper.assert_same(a, host(yb))
  end)

  multi_it("a collective on a buffer of another device raises naming both", function()
    local cs = get()
    local x = on(cs[2], { 1, 2, 3 }, "float32")
    helper.assert_gaerror(function() cs[1]:all_reduce(x) end,
      "all_reduce: send is on device 1, the communicator's device is 0")
  end)
end)

describe("arrays on several GPUs", function()
  multi_it("ga.array, x:copy() and x:astype() under another device copy peer to peer", function()
    local vals = {}
    for i = 1, 3000 do vals[i] = math.random() * 100 end
    local x0 = ga.array(vals, "float64"):reshape(30, 100)
    local strided = x0[{ {}, { 1, -1, 3 } }]   -- not contiguous
    local want_strided = strided:totable()
    local _ <close> = ga.Device(1):scope()
    local a = ga.array(x0)
    local c = x0:copy()
    local f = x0:astype("float32")
    local s = ga.array(strided)
    for _, y in ipairs({ a, c, f, s }) do assert.are.equal(1, y.device) end
    helper.assert_same(x0:totable(), a:totable())
    helper.assert_same(x0:totable(), c:totable())
    helper.assert_same(x0:totable(), f:totable(), 1e-6)
    assert.are.equal("float32", f.dtype)
    helper.assert_same(want_strided, s:totable())
    -- and back to device 0 under its scope
    local _ <close> = ga.Device(0):scope()
    local back = ga.array(a)
    assert.are.equal(0, back.device)
    helper.assert_same(vals, back:reshape(-1):totable())
  end)

  multi_it("a peer copy waits for the work queued on the source device", function()
    local n = 1 << 24
    local x = ga.arange(n, "float32")
    for _ = 1, 20 do x = x * 1.0001 + 1 end      -- queued, not waited for
    local want = { x:item(1), x:item(n), ga.sum(x, { dtype = "float64" }):item() }
    local y0 = x * 2
    local _ <close> = ga.Device(1):scope()
    local y1 = ga.array(y0)
    local got = { y1:item(1), y1:item(n), ga.sum(y1, { dtype = "float64" }):item() }
    helper.assert_same({ 2 * want[1], 2 * want[2], 2 * want[3] }, got, 1e-6)
  end)

  multi_it("an operation on arrays of two devices raises naming both", function()
    local x0 = ga.ones(4)
    local x1
    do
      local _ <close> = ga.Device(1):scope()
      x1 = ga.ones(4)
    end
    local ok, err = pcall(function() return x0 + x1 end)
    assert.is_false(ok)
    assert.matches("gpuarray: ", err, 1, true)
    assert.matches("array is on device 1, the current device is 0", err, 1, true)
  end)

  multi_it("two processes started with torchrun's variables run the SAXPY example", function()
    local ok, out = helper.sh(("LUA_PATH=%q LUA_CPATH=%q sh tools/launch --as torchrun -n 2 -- "
      .. "lua5.4 examples/multi_gpu/saxpy.lua"):format(package.path, package.cpath))
    assert.is_true(ok, out)
    assert.matches("[rank 0] saxpy: ranks 2 N 16777216 sum(a*x+y) = ", out, 1, true)
  end)

  multi_it("one process drives both GPUs (examples/multi_gpu/one_process.lua)", function()
    local ok, out = helper.sh("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' "
      .. "lua5.4 examples/multi_gpu/one_process.lua")
    assert.is_true(ok, out)
    assert.matches("all_gather 0 1", out, 1, true)
    assert.matches("\nok\n", out, 1, true)
  end)
end)
