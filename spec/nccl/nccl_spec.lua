-- ga.nccl on one process: loading (present, and absent through
-- GPUARRAY_NCCL), ids, argument errors (no GPU needed), and every
-- collective on a one-rank communicator against what one rank must give.
-- Several GPUs: nccl_multi_spec.lua.
local helper = require "helper"
local ref = require "nccl.nccl_ref"
local ga = helper.ga
local nccl = ga.nccl

-- the library loads (available() is false without a device even so: the
-- argument checks and ids below need no device)
local has_nccl = pcall(nccl.get_version)

local function nccl_it(name, fn)
  if has_nccl then it(name, fn) else pending(name .. " (NCCL is not installed here)") end
end

local function gpu_nccl_it(name, fn)
  if has_nccl then helper.gpu_it(name, fn) else pending(name .. " #gpu (NCCL is not installed here)") end
end

local function lua_run(env, code)
  return helper.sh(("%s LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' lua5.4 -e %q")
    :format(env, code))
end

describe("nccl: loading", function()
  it("available() answers true and a version, or false and why", function()
    local ok, info = nccl.available()
    assert.is_boolean(ok)
    if ok then
      assert.is_true(math.type(info) == "integer" and info >= 21300, tostring(info))
      assert.are.equal(info, nccl.get_version())
    else
      assert.is_string(info)
    end
  end)

  it("available() is false without a device, naming the want of one", function()
    local ok, out = lua_run("CUDA_VISIBLE_DEVICES=", [[
      local ga = require "gpuarray"
      print(ga.is_available(), ga.nccl.available())]])
    assert.is_true(ok, out)
    if has_nccl then
      assert.matches("^false\tfalse\tno CUDA device %(NCCL %d+ is installed%)\n$", out)
    else
      assert.matches("^false\tfalse\t%S", out)   -- why the library did not load
    end
    if not ga.is_available() then
      assert.same({ false, out:match("^false\tfalse\t(.-)\n$") }, { nccl.available() })
    end
  end)

  it("the module loads without NCCL and says so when NCCL is used", function()
    local ok, out = lua_run("GPUARRAY_NCCL=/nonexistent/libnccl.so.2", [[
      local ga = require "gpuarray"
      local ok, why = ga.nccl.available()
      print(ok, why)
      print(pcall(ga.nccl.get_unique_id))
      print(pcall(ga.nccl.Communicator, 1, ("0"):rep(256), 0))
      print(ga.zeros ~= nil)]])
    assert.is_true(ok, out)
    assert.matches("false\tGPUARRAY_NCCL=/nonexistent/libnccl.so.2 could not be loaded", out, 1, true)
    assert.matches("gpuarray: nccl.get_unique_id: NCCL is not available", out, 1, true)
    assert.matches("gpuarray: nccl.Communicator: NCCL is not available", out, 1, true)
    assert.matches("\ntrue\n", out, 1, true)
  end)

  nccl_it("get_unique_id() is 256 hex digits, a new one each call", function()
    local a, b = nccl.get_unique_id(), nccl.get_unique_id()
    assert.are.equal(256, #a)
    assert.is_truthy(a:match("^%x+$"))
    assert.are_not.equal(a, b)
  end)

  nccl_it("bad arguments raise naming the function, before any device is touched", function()
    local id = nccl.get_unique_id()
    helper.assert_gaerror(function() nccl.Communicator(2, "abc", 0) end, "Communicator: id must be")
    helper.assert_gaerror(function() nccl.Communicator(2, ("zz"):rep(128), 0) end, "not a hex digit")
    helper.assert_gaerror(function() nccl.Communicator(2, id, 2) end, "Communicator: rank 2 is not in 0 to nranks-1")
    helper.assert_gaerror(function() nccl.Communicator(0, id, 0) end, "nranks must be at least 1")
    helper.assert_gaerror(function() nccl.Communicator(2 ^ 21 | 0, id, 0) end, "at most 2^20 (got 2097152)")
    -- the non-blocking maker behind ga.distributed.init checks the same way
    local raw = ga._core.nccl
    helper.assert_gaerror(function() raw.Communicator_nonblocking(2, id, -1) end,
                          "distributed.init: rank -1 is not in 0 to nranks-1 (1)")
    helper.assert_gaerror(function() raw.Communicator_nonblocking(2, "abc", 0) end, "distributed.init: id must be")
    helper.assert_gaerror(function() nccl.Communicator("x", id, 0) end, "Communicator: nranks")
    helper.assert_gaerror(function() nccl.Communicator.init_all({}) end, "init_all: the device list is empty")
    helper.assert_gaerror(function() nccl.Communicator.init_all("x") end, "init_all: expected a device count")
    helper.assert_gaerror(function() nccl.group(42) end, "nccl.group: fn must be a function, got 42")
  end)

  nccl_it("group(fn) ends the group when fn raises, and passes fn's error on", function()
    local ok, err = pcall(nccl.group, function() error("inside", 0) end)
    assert.is_false(ok)
    assert.are.equal("inside", err)
    -- balanced: another group opens and closes
    assert.are.same({ 1, 2 }, { nccl.group(function() return 1, 2 end) })
  end)
end)

describe("nccl: a one-rank communicator", function()
  local comm
  local function one()
    if not comm then comm = nccl.Communicator(1, nccl.get_unique_id(), 0) end
    return comm
  end

  gpu_nccl_it("knows its rank, size and device", function()
    local c = one()
    assert.are.equal(0, c.rank)
    assert.are.equal(1, c.nranks)
    assert.are.equal(ga.get_device_id(), c.device)
    assert.matches("rank 0 of 1", tostring(c))
  end)

  gpu_nccl_it("all_reduce of every dtype and op gives the rank's own values (or raises)", function()
    local c = one()
    for _, dt in ipairs(ref.dtypes) do
      for _, op in ipairs(ref.ops) do
        local vals = {}
        for i = 1, 37 do vals[i] = ref.value(dt, op, 1) end
        local x = ga.array(vals, dt)
        if ref.reducible(dt, op) then
          local r = c:all_reduce(x, nil, op)
          assert.are.equal(dt, r.dtype)
          assert.are.same({ 37 }, r.shape)
          helper.assert_same(ref.combine({ vals }, op, dt), r:totable(), nil, dt .. " " .. op)
          local inplace = ga.array(vals, dt)
          assert.are.equal(inplace, c:all_reduce(inplace, inplace, op))
          helper.assert_same(vals, inplace:totable(), nil, dt .. " " .. op .. " in place")
        else
          helper.assert_gaerror(function() c:all_reduce(x, nil, op) end, "all_reduce: ")
        end
      end
    end
  end)

  gpu_nccl_it("reduce, broadcast, all_gather, reduce_scatter, send and recv run", function()
    local c = one()
    for _, dt in ipairs({ "int16", "float32", "complex128", "bool" }) do
      local vals = {}
      for i = 1, 24 do vals[i] = ref.value(dt, "max", 1) end
      local x = ga.array(vals, dt):reshape(4, 6)
      local op = ref.reducible(dt, "max") and "max" or nil
      if op then
        helper.assert_same(vals, c:reduce(x, nil, op, 0):reshape(-1):totable())
        local rs = c:reduce_scatter(x:reshape(1, 4, 6), nil, op)
        assert.are.same({ 4, 6 }, rs.shape)
        helper.assert_same(vals, rs:reshape(-1):totable())
      end
      local b = ga.empty({ 4, 6 }, dt)
      c:broadcast(x, b, 0)
      helper.assert_same(vals, b:reshape(-1):totable(), nil, dt .. " broadcast")
      local g = c:all_gather(x)
      assert.are.same({ 1, 4, 6 }, g.shape)
      helper.assert_same(vals, g:reshape(-1):totable(), nil, dt .. " all_gather")
      local into = ga.empty(24, dt)
      nccl.group(function()
        c:send(x, 0)
        c:recv(into, 0)
      end)
      helper.assert_same(vals, into:totable(), nil, dt .. " send/recv to itself")
    end
  end)

  gpu_nccl_it("the given stream is the one used", function()
    local c = one()
    local s = ga.Stream({ non_blocking = true })
    local x = ga.arange(1000, "float32")
    -- a non-blocking stream does not wait for the current one by itself
    s:wait_event(ga.get_current_stream():record())
    local r = c:all_reduce(x, nil, "sum", s)
    s:synchronize()
    helper.assert_same(x:totable(), r:totable())
    local r2 = c:all_reduce(x, nil, "sum", { stream = s })
    s:synchronize()
    helper.assert_same(x:totable(), r2:totable())
  end)

  gpu_nccl_it("bad buffers raise naming the collective, and change nothing", function()
    local c = one()
    local x = ga.arange(12, "float32")
    helper.assert_gaerror(function() c:all_reduce(x, ga.empty(12, "float64")) end,
      "all_reduce: send is float32 and recv is float64")
    helper.assert_gaerror(function() c:all_reduce(x, ga.empty(11, "float32")) end,
      "all_reduce: recv has 11 elements, it needs 12 (as many as send)")
    helper.assert_gaerror(function() c:all_reduce(x, nil, "mean") end, "all_reduce: op must be one of")
    helper.assert_gaerror(function() c:all_reduce(x:reshape(3, 4):transpose()) end, "must be C-contiguous")
    helper.assert_gaerror(function() c:all_reduce({ 1, 2 }) end, "all_reduce: send must be an ndarray")
    helper.assert_gaerror(function() c:all_gather(x, ga.empty(5, "float32")) end,
      "all_gather: recv has 5 elements, it needs 12 (nranks times send's)")
    helper.assert_gaerror(function() c:broadcast(x, 1) end, "broadcast: root 1 is not a rank")
    helper.assert_gaerror(function() c:send(x, 3) end, "send: peer 3 is not a rank")
    helper.assert_gaerror(function() c:all_reduce(x, nil, "sum", 5) end, "expected a Stream or an options table")
    local f = ga.arange(3, "float32")
    f:free()
    helper.assert_gaerror(function() c:all_reduce(f) end, "all_reduce: send was freed")
    helper.assert_same(ga.arange(12, "float32"):totable(), x:totable())
  end)

  gpu_nccl_it("destroy, abort and the collector release communicators", function()
    local c = nccl.Communicator(1, nccl.get_unique_id(), 0)
    c:destroy()
    assert.is_false(c.alive)
    c:destroy()   -- twice is fine
    helper.assert_gaerror(function() c:all_reduce(ga.ones(2)) end, "all_reduce: the communicator was destroyed")
    local d = nccl.Communicator(1, nccl.get_unique_id(), 0)
    d:abort()
    assert.is_false(d.alive)
    for _ = 1, 3 do
      do local _ <close> = nccl.Communicator(1, nccl.get_unique_id(), 0) end
      local _ = nccl.Communicator(1, nccl.get_unique_id(), 0)
    end
    collectgarbage()
    collectgarbage()
  end)

  gpu_nccl_it("a one-device init_all makes one communicator", function()
    local cs = nccl.Communicator.init_all({ ga.get_device_id() })
    assert.are.equal(1, #cs)
    assert.are.equal(0, cs[1].rank)
    local x = ga.array({ 1.5, 2.5 }, "float64")
    helper.assert_same({ 1.5, 2.5 }, cs[1]:all_reduce(x):totable())
    cs[1]:destroy()
  end)

  gpu_nccl_it("an injected library failure raises and leaves the arrays alone", function()
    local c = one()
    local x = ga.arange(8, "int32")
    local r = ga.zeros(8, "int32")
    ga._core._test.fault("lib", 1)
    helper.assert_gaerror(function() c:all_reduce(x, r) end, "all_reduce: injected failure")
    ga._core._test.fault("lib", 0)
    helper.assert_same({ 0, 0, 0, 0, 0, 0, 0, 0 }, r:totable())
  end)
end)
