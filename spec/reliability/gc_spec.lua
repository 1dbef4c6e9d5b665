-- GC stress: views, streams, events and pinned buffers survive collections
-- at every allocation (core._test.gc_stress(true), as GPUARRAY_GC_STRESS=1) and
-- under the generational collector; `make gcstress` runs the whole suite
-- both ways.
local helper = require "helper"
local ga = helper.ga
local core = ga._core
local gpu_it = helper.gpu_it

local function rand_list(n)
  return helper.random_table({ n }, function() return math.random(-1000, 1000) / 4 end)
end

-- fn under each collector regime: full collections at every allocation,
-- generational, and both
local function each_mode(fn)
  local was = core._test.gc_stress(true)
  local ok, err = pcall(fn)
  core._test.gc_stress(false)
  if ok then
    collectgarbage("generational")
    ok, err = pcall(fn)
    core._test.gc_stress(true)
    if ok then ok, err = pcall(fn) end
    collectgarbage("incremental")
  end
  core._test.gc_stress(was)
  if not ok then error(err, 0) end
end

describe("GC stress", function()
  it("the switch is readable and settable from Lua", function()
    local was = core._test.gc_stress(true)
    assert.is_true(core._test.gc_stress(was))
    assert.equal(was, core._test.gc_stress())
    assert.is_boolean(was)
  end)

  it("zero-size views keep their base through collections", function()
    each_mode(function()
      local v = ga.empty({ 4, 0, 3 }, "float32")[{ 2 }]
      collectgarbage()
      assert.same({ 0, 3 }, v.shape)
      assert.is_not_nil(v.base)
      assert.same({ 4, 0, 3 }, v.base.shape)
    end)
  end)

  gpu_it("views outlive their dropped bases", function()
    each_mode(function()
      local data = rand_list(60)
      local v
      do
        local x = ga.array(data, "float64"):reshape(3, 4, 5)
        v = x[{ 2, {}, { 1, 5, 2 } }].T
      end
      collectgarbage()
      collectgarbage()
      for _ = 1, 20 do local _ = ga.ones(1000) end          -- reuse of freed blocks
      local want = {}
      for c = 1, 3 do
        want[c] = {}
        for r = 1, 4 do want[c][r] = data[20 + (r - 1) * 5 + (2 * c - 1)] end
      end
      helper.assert_same(want, v:totable())
    end)
  end)

  gpu_it("streams and events survive their last reference inside scopes", function()
    each_mode(function()
      local data = rand_list(1000)
      local z
      do
        local s = ga.Stream({ non_blocking = true })
        local _ <close> = s:scope()
        local x = ga.array(data, "float32")
        z = x * 2
        local e = s:record()
        s = nil
        collectgarbage()
        e:synchronize()
      end
      collectgarbage()
      local want = {}
      for i, v in ipairs(data) do want[i] = 2 * v end
      helper.assert_same(want, z:totable(), 1e-6)
    end)
  end)

  gpu_it("pinned buffers stay valid across asynchronous copies", function()
    each_mode(function()
      local data = rand_list(256)
      local x = ga.array(data, "float32")
      local h = ga.pinned_empty({ 256 }, "float32")
      local s = ga.Stream()
      x:get(h, { stream = s })
      x = nil
      collectgarbage()
      helper.assert_same(data, h:totable(), 1e-6)         -- reading h waits for the copy
      local y = ga.empty({ 256 }, "float32")
      do
        local _ <close> = s:scope()
        y:set(h)
      end
      h = nil
      collectgarbage()
      s:synchronize()
      helper.assert_same(data, y:totable(), 1e-6)
    end)
  end)

  gpu_it("the engines run with a collection at every allocation", function()
    each_mode(function()
      local a, b = rand_list(300), rand_list(300)
      local x, y = ga.array(a, "float64"), ga.array(b, "float64")
      local s = (x * y):sum():item()
      local want = 0
      for i = 1, 300 do want = want + a[i] * b[i] end
      assert.near(want, s, 1e-9 * math.max(1, math.abs(want)))
      local c = ga.cumsum(x):totable()
      assert.near(a[1] + a[2] + a[3], c[3], 1e-9)
      local m = x[x:gt(0)]
      local n = 0
      for _, v in ipairs(a) do if v > 0 then n = n + 1 end end
      assert.equal(n, m.size)
    end)
  end)
end)
