-- CUDA graphs (API.md §8): ga.graph.capture(fn[, stream]), s:begin_capture()
-- / s:end_capture(), g:launch([stream]), g:destroy(). Replays read and write
-- the arrays' memory at replay time; memory allocated inside the capture
-- belongs to the graph; a synchronizing call inside a capture raises and
-- leaves the stream usable. The CPU cases check the argument errors; the
-- rest needs a device (helper.gpu_it).
local helper = require "spec.helper"
local ga = helper.ga

local function f32(v) return (string.unpack("f", string.pack("f", v))) end

local function rand_list(n, lo, hi)
  local t = {}
  for i = 1, n do t[i] = f32(lo + (hi - lo) * math.random()) end
  return t
end

--- The bench's loop: 50 x (b = a * 1.0001; a = b + 1e-4), 100 operations
local function hundred(a, b)
  for _ = 1, 50 do
    ga.multiply(a, 1.0001, { out = b })
    ga.add(b, 1e-4, { out = a })
  end
end

--- The same on the CPU, rounding to float32 after each operation
local function hundred_ref(vals, reps)
  local out = {}
  for i, v in ipairs(vals) do
    for _ = 1, 50 * (reps or 1) do v = f32(f32(v * f32(1.0001)) + f32(1e-4)) end
    out[i] = v
  end
  return out
end

describe("graph: arguments (no device needed)", function()
  it("checks what graph.capture is given", function()
    helper.assert_gaerror(function() ga.graph.capture(42) end, "graph.capture: fn must be a function, got 42")
    helper.assert_gaerror(function() ga.graph.capture(function() end, "s") end,
      "graph.capture: stream must be a Stream or nil, got \"s\"")
  end)

  it("refuses to capture the null stream and to end a capture never begun", function()
    helper.assert_gaerror(function() ga.Stream.null:begin_capture() end,
      "begin_capture: the null stream cannot be captured")
    helper.assert_gaerror(function() ga.Stream.null:end_capture() end, "end_capture: the stream is not capturing")
    assert.is_false(ga.Stream.null:is_capturing())
  end)
end)

describe("graph: capture and replay", function()
  helper.gpu_it("replays a 100-operation loop like eager execution, also after the inputs change", function()
    local n = 1024
    local v0 = rand_list(n, 0.5, 1.5)
    -- eager, on its own arrays (this also compiles the two kernels)
    local ae, be = ga.array(v0, "float32"), ga.empty({ n }, "float32")
    hundred(ae, be)
    local ag, bg = ga.array(v0, "float32"), ga.empty({ n }, "float32")
    local g = ga.graph.capture(function() hundred(ag, bg) end)
    assert.is_true(g.nodes >= 100, "nodes: " .. g.nodes)
    -- capturing ran nothing
    helper.assert_same(v0, ag:totable())
    g:launch()
    local eager1 = ae:totable()
    helper.assert_same(eager1, ag:totable())                -- the same kernels: bit for bit
    helper.assert_same(hundred_ref(v0), eager1, 1e-5)
    -- a second replay continues from what the first wrote
    g:launch()
    hundred(ae, be)
    helper.assert_same(ae:totable(), ag:totable())
    helper.assert_same(hundred_ref(v0, 2), ag:totable(), 1e-5)
    -- new values written between replays are what the next replay reads
    local v1 = rand_list(n, -2, 2)
    ag:set(v1)
    ae:set(v1)
    g:launch()
    hundred(ae, be)
    helper.assert_same(ae:totable(), ag:totable())
    helper.assert_same(hundred_ref(v1), ag:totable(), 1e-5)
    assert.equal("float32", ag.dtype)
    assert.same({ n }, ag.shape)
  end)

  helper.gpu_it("captures ufuncs, reductions, scans, copies, kernels and allocations", function()
    local n = 1000
    local vals = rand_list(n, -1, 1)
    local x = ga.array(vals, "float32")
    local add = ga.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + 3 * y", "graph_spec_add3")
    local bump = ga.RawKernel([[
extern "C" __global__ void graph_spec_bump(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}]], "graph_spec_bump")
    local r = {}
    local s = ga.Stream({ non_blocking = true })
    local g = ga.graph.capture(function(cs)
      assert.equal(cs, s)
      assert.equal(s, ga.get_current_stream())
      assert.is_true(s:is_capturing())
      local t = x * 2                    -- allocated inside the capture
      r.t = t + 0.5
      r.sum = ga.sum(t)
      r.cumsum = ga.cumsum(x)
      r.f64 = x:astype("float64")
      r.copy = x:copy()
      r.ew = add(x, t)
      bump((n + 255) // 256, 256, { r.copy, n })
    end, s)
    assert.equal(ga.Stream.null, ga.get_current_stream())   -- restored
    assert.is_false(s:is_capturing())
    assert.equal(s, g.stream)
    assert.is_true(g.nbytes >= 6 * n * 4)
    local function check(v)
      local cs, acc = {}, 0
      local t, sum, ew, cp = {}, 0, {}, {}
      for i = 1, n do
        t[i] = v[i] * 2 + 0.5
        sum = sum + v[i] * 2
        acc = acc + v[i]
        cs[i] = acc
        ew[i] = v[i] + 6 * v[i]
        cp[i] = v[i] + 1
      end
      helper.assert_same(t, r.t:totable(), 1e-6)
      assert.is_true(math.abs(r.sum:item() - sum) <= 1e-4 * n)
      helper.assert_same(v, r.f64:totable())
      helper.assert_same(cp, r.copy:totable(), 1e-6)
      helper.assert_same(ew, r.ew:totable(), 1e-5)
      local got = r.cumsum:totable()
      for i = 1, n do assert.is_true(math.abs(got[i] - cs[i]) <= 1e-4 * i, "cumsum " .. i) end
      assert.equal("float64", r.f64.dtype)
      assert.equal("float32", r.cumsum.dtype)
      assert.same({}, r.sum.shape)
      assert.same({ n }, r.ew.shape)
    end
    ga.synchronize()                     -- x's upload (null stream) before s reads it
    g:launch(s)
    s:synchronize()
    check(vals)
    -- the inputs change, the same graph computes from the new values
    local v2 = rand_list(n, -3, 3)
    x:set(v2)
    g:launch()                           -- on the current stream this time
    check(v2)
  end)

  helper.gpu_it("compiles a kernel met for the first time inside the capture", function()
    local tag = tostring(math.random(1, 1000000))
    local k = ga.ElementwiseKernel("float32 x", "float32 y", "y = x * x - " .. tag .. ".0f",
      "graph_spec_first_" .. tag)
    local vals = rand_list(257, -2, 2)
    local x = ga.array(vals, "float32")
    local y
    local g = ga.graph.capture(function() y = k(x) end)
    g:launch()
    local want = {}
    for i, v in ipairs(vals) do want[i] = f32(v * v - tonumber(tag)) end
    helper.assert_same(want, y:totable(), 1e-6)
  end)

  helper.gpu_it("begin_capture / end_capture on a blocking stream, launched on another stream", function()
    local vals = rand_list(300, 0, 1)
    local x = ga.array(vals, "float32")
    local y = ga.empty({ 300 }, "float32")
    ga.multiply(x, 3, { out = y })         -- both kernels compiled outside
    ga.add(y, x, { out = y })
    local s = ga.Stream()                  -- blocking: the null stream must stay untouched
    local prev = s:use()
    s:begin_capture()
    ga.multiply(x, 3, { out = y })
    ga.add(y, x, { out = y })
    local g = s:end_capture()
    prev:use()
    y:set(ga.zeros({ 300 }, "float32"))
    ga.synchronize()                       -- other does not wait for the null stream
    local other = ga.Stream({ non_blocking = true })
    g:launch(other)
    other:synchronize()
    local want = {}
    for i, v in ipairs(vals) do want[i] = f32(f32(v * 3) + v) end
    helper.assert_same(want, y:totable(), 1e-6)
    g:destroy()
    assert.is_false(g.alive)
    g:destroy()                            -- idempotent
    helper.assert_gaerror(function() g:launch() end, "Graph.launch: the graph was destroyed")
  end)

  helper.gpu_it("takes allocations inside a capture from a device pool under MemoryAsyncPool", function()
    local vals = rand_list(500, -1, 1)
    local x = ga.array(vals, "float32")
    ga.set_allocator(ga.MemoryAsyncPool())
    local ok, err = pcall(function()
      ga.add(x, 1)                          -- an async-pool array, dropped (compiled outside)
      local out
      local g = ga.graph.capture(function()
        collectgarbage()                    -- async frees during the capture are deferred
        out = (x + 1) * 2
      end)
      g:launch()
      local want = {}
      for i, v in ipairs(vals) do want[i] = f32(f32(v + 1) * 2) end
      helper.assert_same(want, out:totable(), 1e-6)
    end)
    ga.set_allocator(nil)
    assert(ok, err)
  end)
end)

describe("graph: synchronizing inside a capture", function()
  local syncs = {
    { "item", function(y) return ga.sum(y):item() end },
    { "totable", function(y) return y:totable() end },
    { "tobytes", function(y) return y:tobytes() end },
    { "tostring", function(y) return tostring(y) end },
    { "Stream.synchronize", function(_, s) s:synchronize() end },
    { "synchronize", function() ga.synchronize() end },
    { "Event.synchronize", function() ga.Event():record():synchronize() end },
  }
  for _, case in ipairs(syncs) do
    local name, call = case[1], case[2]
    helper.gpu_it(name .. " raises and leaves the stream usable", function()
      local vals = rand_list(64, -1, 1)
      local x = ga.array(vals, "float32")
      local s = ga.Stream({ non_blocking = true })
      ga.synchronize()                   -- s does not wait for the null stream
      helper.assert_gaerror(function()
        ga.graph.capture(function() call(x * 3, s) end, s)
      end, name .. ": cannot synchronize while stream capture is active")
      assert.is_false(s:is_capturing())
      assert.equal(ga.Stream.null, ga.get_current_stream())
      -- the stream works again, and so does a new capture on it
      do
        local _ <close> = s:scope()
        local y = x * 3
        s:synchronize()
        local want = {}
        for i, v in ipairs(vals) do want[i] = f32(v * 3) end
        helper.assert_same(want, y:totable(), 1e-6)
        local z
        local g = ga.graph.capture(function() z = y + 1 end, s)
        g:launch(s)
        for i = 1, #want do want[i] = f32(want[i] + 1) end
        helper.assert_same(want, z:totable(), 1e-6)
      end
    end)
  end

  helper.gpu_it("ends a capture begun by hand, and refuses host copies inside one", function()
    local x = ga.array(rand_list(16, 0, 1), "float32")
    local s = ga.Stream({ non_blocking = true })
    ga.synchronize()
    do
      local _ <close> = s:scope()
      s:begin_capture()
      local y = x + 1
      helper.assert_gaerror(function() y:totable() end, "totable: cannot synchronize while stream capture is active")
      assert.is_false(s:is_capturing())
      helper.assert_gaerror(function() s:end_capture() end, "end_capture: the stream is not capturing")
      s:begin_capture()
      helper.assert_gaerror(function() ga.array({ 1, 2, 3 }) end,
        "copy from host: cannot copy from host memory (copy before the capture) while stream capture is active")
      assert.is_true(s:is_capturing())       -- nothing was queued: the capture goes on
      helper.assert_gaerror(function() s:begin_capture() end, "begin_capture: this Lua state is already capturing")
      local g = s:end_capture()
      g:launch()
    end
    s:synchronize()
  end)
end)

describe("graph: memory", function()
  helper.gpu_it("keeps allocations made inside the capture until the graph is collected", function()
    local n = 4096
    local vals = rand_list(n, -1, 1)
    local x = ga.array(vals, "float32")
    local y = ga.empty({ n }, "float32")
    ga.add(x * 2, 1, { out = y })            -- compile outside
    collectgarbage()
    collectgarbage()
    local pool = ga.get_default_memory_pool()
    local before = pool:used_bytes()
    local g = ga.graph.capture(function()
      local t = x * 2                        -- two temporaries, dead after fn
      local u = t + 1
      ga.multiply(u, 1, { out = y })
    end)
    collectgarbage()
    collectgarbage()
    assert.is_true(pool:used_bytes() >= before + 2 * n * 4)
    assert.is_true(g.nbytes >= 2 * n * 4)
    -- the temporaries are still the graph's: replays use them safely while
    -- other arrays come and go
    for _ = 1, 3 do
      ga.full({ n }, 7, "float32")           -- dropped at once
      g:launch()
      collectgarbage()
    end
    local want = {}
    for i, v in ipairs(vals) do want[i] = f32(f32(v * 2) + 1) end
    helper.assert_same(want, y:totable(), 1e-6)
    g = nil                                  -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert.equal(before, pool:used_bytes())
  end)
end)
