-- Streams and events (docs/api.md §8): the current stream per state, use/scope
-- (restored on errors too), synchronize/query/record/wait_event, event
-- timing, destroying streams with queued work, the pool's cross-stream
-- safety, and ga.benchmark.
local helper = require "helper"
local spin = require "spin"
local ga = helper.ga
local gpu_it = helper.gpu_it
local MS = spin.MS

--- Every step-th element of the float32 array x equals want (a number, or
-- want(i) for element i); the message names the first element that differs
-- and both values, so a failure says what went wrong.
local function check_all(x, want, what, step)
  local t = x:totable()
  for i = 1, #t, step or 1 do
    local w = want
    if type(want) == "function" then w = want(i) end
    if t[i] ~= w then
      error(("%s: element %d of %d is %s, expected %s"):format(what, i, #t, tostring(t[i]), tostring(w)), 2)
    end
  end
end

describe("streams without a device", function()
  it("has Stream.null as the current stream", function()
    assert.equal(ga.Stream.null, ga.get_current_stream())
    assert.equal("gpuarray.Stream(null)", tostring(ga.Stream.null))
    assert.equal(0, ga.Stream.null.ptr)
    assert.equal(-1, ga.Stream.null.device)
  end)

  it("uses and scopes the null stream with no CUDA call", function()
    local prev = ga.Stream.null:use()
    assert.equal(ga.Stream.null, prev)
    do
      local _ <close> = ga.Stream.null:scope()
      assert.equal(ga.Stream.null, ga.get_current_stream())
    end
    assert.equal(ga.Stream.null, ga.get_current_stream())
    ga.Stream.null:destroy()          -- never destroyed: a no-op
    assert.is_true(ga.Stream.null.alive)
  end)

  it("reports misuse as gpuarray errors", function()
    helper.assert_gaerror(function() ga.Stream.null.use(42) end, "Stream.use: self must be a Stream")
    helper.assert_gaerror(function() ga.Stream.null.wait_event(ga.Stream.null, 1) end,
                          "wait_event: event must be an Event, got 1")
    helper.assert_gaerror(function() ga.get_elapsed_time(1, 2) end,
                          "get_elapsed_time: start_event must be an Event, got 1")
    helper.assert_gaerror(function() return ga.Stream.null.bogus end, "Stream has no field or method 'bogus'")
    helper.assert_gaerror(function() ga.Stream("fast") end, "Stream: takes no arguments but options")
    helper.assert_gaerror(function() ga.Event(true) end, "Event: takes no arguments but options")
  end)

  if not helper.gpu then
    it("needs a device to create streams and events", function()
      helper.assert_gaerror(function() ga.Stream() end, "no CUDA device")
      helper.assert_gaerror(function() ga.Event() end, "no CUDA device")
      helper.assert_gaerror(function() ga.Stream.null:synchronize() end, "no CUDA device")
    end)
  end
end)

describe("streams #gpu", function()
  local K
  local function kernels()
    K = K or spin.kernels(ga)
    return K
  end

  -- A failed case must not leave kernels spinning, another current stream
  -- or another allocator behind for the next one
  after_each(function()
    if not helper.gpu then return end
    pcall(ga.synchronize)
    ga.Stream.null:use()
    ga.set_allocator(nil)
  end)

  gpu_it("creates streams with options and switches the current stream", function()
    local s = ga.Stream({ non_blocking = true, priority = -1 })
    assert.is_true(s.non_blocking)
    assert.equal(0, s.device)
    assert.is_true(s.ptr ~= 0)
    assert.matches("^gpuarray.Stream%(", tostring(s))
    local prev = s:use()
    assert.equal(ga.Stream.null, prev)
    assert.equal(s, ga.get_current_stream())
    assert.equal(s, ga.Stream.null:use())
    assert.equal(ga.Stream.null, ga.get_current_stream())
  end)

  gpu_it("restores the previous stream at scope exit, errors included", function()
    local s1, s2 = ga.Stream(), ga.Stream()
    do
      local _ <close> = s1:scope()
      assert.equal(s1, ga.get_current_stream())
      local ok = pcall(function()
        local _ <close> = s2:scope()
        assert.equal(s2, ga.get_current_stream())
        error("boom")
      end)
      assert.is_false(ok)
      assert.equal(s1, ga.get_current_stream())
    end
    assert.equal(ga.Stream.null, ga.get_current_stream())
    local sc = s1:scope()
    sc:close()
    sc:close()                       -- idempotent
    assert.equal(ga.Stream.null, ga.get_current_stream())
  end)

  gpu_it("runs operations and transfers on the current stream", function()
    local k = kernels()
    local s = ga.Stream({ non_blocking = true })
    local n = 4096
    local y = ga.zeros(n, "float32")
    ga.synchronize()
    local _ <close> = s:scope()
    k.spin_fill(1, 256, { y, n, 7.5, 40 * MS })
    -- totable syncs the current stream (s): it must see the kernel's values
    check_all(y, 7.5, "y after spin_fill on the current stream")
    -- a write on s lands after s's earlier work
    k.spin_fill(1, 256, { y, n, 1.0, 30 * MS })
    y:set(ga.full(n, 3, "float32"))
    check_all(y, 3, "y after spin_fill then set on the current stream")
  end)

  gpu_it("synchronizes and queries", function()
    local k = kernels()
    local s = ga.Stream({ non_blocking = true })
    local y = ga.empty(256, "float32")
    ga.synchronize()
    assert.is_true(s:query())
    k.spin_fill(1, 256, { y, 256, 2.0, 50 * MS }, { stream = s })
    assert.is_false(s:query())
    assert.is_false(s.done)
    s:synchronize()
    assert.is_true(s:query())
    check_all(y, 2, "y after s:synchronize()")
  end)

  gpu_it("runs two ~50 ms kernels on two streams concurrently", function()
    local k = kernels()
    local s1, s2 = ga.Stream({ non_blocking = true }), ga.Stream({ non_blocking = true })
    local a, b = ga.empty(256, "float32"), ga.empty(256, "float32")
    k.spin_fill(1, 256, { a, 256, 0, 1000 }, { stream = s1 })   -- warm up
    ga.synchronize()
    local t0 = ga._core.runtime.now()
    k.spin_fill(1, 256, { a, 256, 1, 50 * MS }, { stream = s1 })
    k.spin_fill(1, 256, { b, 256, 2, 50 * MS }, { stream = s2 })
    s1:synchronize()
    s2:synchronize()
    local both = (ga._core.runtime.now() - t0) * 1e3
    check_all(a, 1, "a after the pair")
    check_all(b, 2, "b after the pair")
    t0 = ga._core.runtime.now()
    k.spin_fill(1, 256, { a, 256, 3, 50 * MS }, { stream = s1 })
    s1:synchronize()
    local one = (ga._core.runtime.now() - t0) * 1e3
    check_all(a, 3, "a after the single kernel")
    print(("two streams: %.1f ms together, one kernel %.1f ms"):format(both, one))
    assert.is_true(one >= 45, ("one 50 ms kernel took %.1f ms"):format(one))
    assert.is_true(both < 0.75 * 2 * one, ("%.1f ms is not clearly less than 2 x %.1f ms"):format(both, one))
  end)

  gpu_it("orders stream 2 after stream 1 with record / wait_event", function()
    local k = kernels()
    local n = 10000
    local vals = spin.random_f32(n)
    local s1, s2 = ga.Stream({ non_blocking = true }), ga.Stream({ non_blocking = true })
    local x = ga.array(vals, "float32")
    local src = ga.array(vals, "float32")
    local y = ga.zeros(n, "float32")
    ga.synchronize()
    -- stream 1: after 40 ms, x = 2 * src (written late)
    k.spin_fill(1, 256, { x, n, -1, 40 * MS }, { stream = s1 })
    k.scale(40, 256, { src, x, n, 2 }, { stream = s1 })
    local e = s1:record()
    assert.matches("^gpuarray.Event%(", tostring(e))
    s2:wait_event(e)
    k.spin_copy(1, 256, { x, y, n, 0 }, { stream = s2 })
    s2:synchronize()
    check_all(y, function(i) return 2 * vals[i] end, "y (copied on stream 2 after stream 1's x = 2 * src)")
  end)

  gpu_it("times kernels with events, consistent with the host clock", function()
    local k = kernels()
    local y = ga.empty(256, "float32")
    local e1, e2 = ga.Event(), ga.Event()
    ga.synchronize()
    local t0 = ga._core.runtime.now()
    e1:record()
    k.spin_fill(1, 256, { y, 256, 1, 30 * MS })
    e2:record()
    e2:synchronize()
    local host = (ga._core.runtime.now() - t0) * 1e3
    local ms = ga.get_elapsed_time(e1, e2)
    assert.is_true(e2:query())
    assert.is_true(e2.done)
    print(("event time %.3f ms, host time %.3f ms"):format(ms, host))
    assert.is_true(ms >= 29 and ms <= host + 1, ("event %.3f ms vs host %.3f ms"):format(ms, host))
    -- on an explicit stream too, and events made by record()
    local s = ga.Stream()
    local a = s:record()
    k.spin_fill(1, 256, { y, 256, 1, 10 * MS }, { stream = s })
    local b = s:record(ga.Event())
    assert.is_true(ga.get_elapsed_time(a, b) >= 9)
  end)

  gpu_it("refuses timing on events made without it, and unrecorded events", function()
    local e1, e2 = ga.Event({ timing = false }), ga.Event()
    assert.is_false(e1.timing)
    e1:record()
    e2:record()
    helper.assert_gaerror(function() ga.get_elapsed_time(e1, e2) end, "timing = false")
    helper.assert_gaerror(function() ga.get_elapsed_time(e2, ga.Event()) end, "never recorded")
    local e3 = ga.Event({ blocking = true })
    assert.is_true(e3.blocking and e3.timing)
    e3:record()
    e3:synchronize()
    assert.is_true(e3:query())
  end)

  gpu_it("reads no options from the stack when Event() gets none", function()
    -- a table left in the slot above the arguments once read as the options
    -- (and crashed when it was anything else)
    local function stale()
      do local _, opts = nil, { timing = false, blocking = true } end   -- luacheck: ignore 211
      local e = ga.Event()
      return e
    end
    for _ = 1, 3 do
      local e = stale()
      assert.is_true(e.timing)
      assert.is_false(e.blocking)
    end
  end)

  gpu_it("destroys streams and events explicitly, by <close> and by __gc", function()
    local k = kernels()
    local y = ga.empty(256, "float32")
    local s = ga.Stream()
    s:use()
    k.spin_fill(1, 256, { y, 256, 5, 50 * MS })   -- queued work
    s:destroy()                                   -- safe: the work completes
    assert.equal(ga.Stream.null, ga.get_current_stream())
    assert.is_false(s.alive)
    assert.equal("gpuarray.Stream(destroyed)", tostring(s))
    s:destroy()
    helper.assert_gaerror(function() s:synchronize() end, "the stream was destroyed")
    helper.assert_gaerror(function() s:use() end, "the stream was destroyed")
    ga.synchronize()
    check_all(y, 5, "y written by the destroyed stream's queued kernel")
    do
      local s2 <close> = ga.Stream()
      local e <close> = s2:record()
      e:synchronize()
    end
    for _ = 1, 50 do
      local s3 = ga.Stream()
      s3:record():synchronize()
    end
    collectgarbage()
    collectgarbage()
    -- a scope whose previous stream was destroyed returns to the null stream
    local s4, s5 = ga.Stream(), ga.Stream()
    s4:use()
    local sc = s5:scope()
    s4:destroy()
    sc:close()
    assert.equal(ga.Stream.null, ga.get_current_stream())
  end)

  gpu_it("does not hand a block freed on stream A to stream B before A's work passed it", function()
    local k = kernels()
    local n = 1 << 18
    local vals = spin.random_f32(n)
    local a, b = ga.Stream({ non_blocking = true }), ga.Stream({ non_blocking = true })

    -- 1: x allocated on the null stream, read late by a kernel on A, freed
    -- while the null stream is current, then the null stream allocates the
    -- same size and writes at once
    local x = ga.array(vals, "float32")
    local out = ga.zeros(n, "float32")
    ga.synchronize()
    k.spin_copy(1, 1024, { x, out, n, 50 * MS }, { stream = a })
    x:free()
    local y = ga.empty(n, "float32")
    k.scale(64, 256, { y, y, n, 0 })                 -- y = 0 on the null stream, now
    ga.synchronize()
    check_all(out, function(i) return vals[i] end, "out", 7)

    -- 2: allocated and freed on A inside a scope, then stream B allocates
    local out2 = ga.zeros(n, "float32")
    ga.synchronize()
    do
      local _ <close> = a:scope()
      local x2 = ga.array(vals, "float32")
      k.spin_copy(1, 1024, { x2, out2, n, 50 * MS })
      x2:free()
    end
    do
      local _ <close> = b:scope()
      local y2 = ga.empty(n, "float32")
      k.spin_fill(1, 1024, { y2, n, -7, 0 })
    end
    ga.synchronize()
    check_all(out2, function(i) return vals[i] end, "out2", 7)

    -- 3: a stream destroyed with queued work that still reads a freed block
    local out3 = ga.zeros(n, "float32")
    local c = ga.Stream({ non_blocking = true })
    ga.synchronize()
    do
      local _ <close> = c:scope()
      local x3 = ga.array(vals, "float32")
      k.spin_copy(1, 1024, { x3, out3, n, 50 * MS })
      x3:free()
    end
    c:destroy()
    local d = ga.Stream({ non_blocking = true })   -- may get c's handle back
    do
      local _ <close> = d:scope()
      local y3 = ga.empty(n, "float32")
      k.spin_fill(1, 1024, { y3, n, -9, 0 })
    end
    ga.synchronize()
    check_all(out3, function(i) return vals[i] end, "out3", 7)
  end)

  gpu_it("gives ga.MemoryPool and ga.MemoryAsyncPool arrays through set_allocator", function()
    local k = kernels()
    for _, make in ipairs { ga.MemoryPool, ga.MemoryAsyncPool } do
      local pool = make()
      ga.set_allocator(pool)
      local ok, err = pcall(function()
        local n = 5000
        local vals = spin.random_f32(n)
        local x = ga.array(vals, "float32")
        local y = ga.empty(n, "float32")
        assert.is_true(pool:used_bytes() >= 2 * 4 * n)
        k.scale(20, 256, { x, y, n, 3 })
        check_all(y, function(i) return helper.to_f32(3 * vals[i]) end, "y = 3 * x", 11)
        -- an async pool on a stream, freed on another
        local s = ga.Stream()
        do
          local _ <close> = s:scope()
          local z = ga.empty(n, "float32")
          k.spin_fill(1, 256, { z, n, 1, 5 * MS })
          z:free()
        end
        x:free()
        y:free()
      end)
      ga.set_allocator(nil)
      assert(ok, err)
      ga.synchronize()
      collectgarbage()
      pool:free_all_blocks()
    end
    -- a dropped pool lives while its arrays do
    local pool = ga.MemoryPool()
    ga.set_allocator(pool)
    local keep = ga.full(1000, 4, "float32")
    ga.set_allocator(nil)
    pool = nil   -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    check_all(keep, 4, "keep (its pool object dropped)")
  end)

  gpu_it("benchmarks a function like cupyx.profiler.benchmark", function()
    local k = kernels()
    local y = ga.empty(256, "float32")
    local r = ga.benchmark(function() k.spin_fill(1, 256, { y, 256, 1, 100000 }) end,
                           { n_repeat = 20, n_warmup = 2, name = "spin" })
    assert.equal(20, #r.cpu_times)
    assert.equal(20, #r.gpu_times)
    assert.is_true(r.gpu.min >= 90 and r.gpu.mean >= r.gpu.min and r.gpu.max >= r.gpu.mean)
    assert.is_true(r.cpu.mean > 0 and r.cpu.std >= 0)
    local s = tostring(r)
    print(s)
    assert.matches("^spin%s+:%s+CPU:%s+[%d.]+ us%s+%+/%-%s+[%d.]+ %(min:%s+[%d.]+ / max:%s+[%d.]+%) us%s+GPU%-0:", s)
  end)
end)

describe("benchmark arguments", function()
  it("are checked before anything runs", function()
    helper.assert_gaerror(function() ga.benchmark(42) end, "benchmark: func must be a function, got 42")
    helper.assert_gaerror(function() ga.benchmark(print, { n_repeat = 0 }) end,
                          "benchmark: n_repeat must be >= 1, got 0")
    helper.assert_gaerror(function() ga.benchmark(print, { n_warmup = 1.5 }) end,
                          "benchmark: n_warmup must be an integer")
    helper.assert_gaerror(function() ga.benchmark(print, { n_warmup = -1 }) end, "benchmark: n_warmup must be >= 0")
    helper.assert_gaerror(function() ga.benchmark(print, { max_duration = 0 }) end,
                          "benchmark: max_duration must be a positive number")
    helper.assert_gaerror(function() ga.benchmark(print, { n_reepat = 5 }) end,
                          "benchmark: unknown option 'n_reepat' (did you mean 'n_repeat'?)")
    helper.assert_gaerror(function() ga.benchmark(print, "x") end, "benchmark: too many arguments")
  end)
end)
