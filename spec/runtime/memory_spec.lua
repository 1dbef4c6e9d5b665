-- The device memory pool: accounting, free/<close>/__gc, bounded memory in a
-- loop that drops big arrays, limits and the out-of-memory path. GPU only
-- (the pool's logic itself is specced without a GPU in pool_spec.lua).
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local MiB = 1024 * 1024

describe("device memory", function()
  gpu_it("free() returns memory now; later use raises", function()
    local pool = ga.get_default_memory_pool()
    local before = pool:used_bytes()
    local x = ga.ones(MiB, "float32")
    assert.equal(before + 4 * MiB, pool:used_bytes())
    local v = x[{ { 1, 10 } }]
    x:free()
    -- a view still holds the block: memory returns when the view goes too
    assert.equal(before + 4 * MiB, pool:used_bytes())
    helper.assert_same({ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, v:totable())
    v:free()
    assert.equal(before, pool:used_bytes())
    helper.assert_gaerror(function() x:totable() end, "freed")
    helper.assert_gaerror(function() return x + 1 end)
    helper.assert_gaerror(function() x:fill(3) end, "freed")
    helper.assert_gaerror(function() ga.zeros(3):set(x) end, "freed")
    x:free() -- freeing twice is harmless
    assert.truthy(tostring(x):find("freed", 1, true))
  end)

  gpu_it("<close> frees at scope exit", function()
    local pool = ga.get_default_memory_pool()
    -- GPUARRAY_GC_STRESS collects at every allocation: free earlier garbage first
    collectgarbage()
    collectgarbage()
    local before = pool:used_bytes()
    do
      local t <close> = ga.empty(2 * MiB, "uint8")
      assert.equal(before + 2 * MiB, pool:used_bytes())
      t:fill(7)
    end
    assert.equal(before, pool:used_bytes())
  end)

  -- device garbage may grow to the bytes in use before the collector steps
  -- (runtime/poolobj.c: Lua's own pause of 200%), two more allocations
  -- when no launch comes between: with one or two 256 MiB arrays alive (the
  -- last one can sit in a dead local's stack slot), at most six of them
  local BOUND = 6 * 256 * MiB

  gpu_it("a loop dropping a 256 MiB array 400 times stays bounded", function()
    local pool = ga.get_default_memory_pool()
    collectgarbage()
    local base = pool:total_bytes()
    local peak = 0
    for i = 1, 400 do
      local a = ga.empty(64 * MiB, "float32")   -- 256 MiB, dropped each iteration
      if i % 50 == 0 then a:fill(i) end
      peak = math.max(peak, pool:total_bytes())
    end
    assert.is_true(peak - base <= BOUND, ("pool grew to %d MiB"):format((peak - base) // MiB))
  end)

  -- the collector's step for device bytes runs after the launch that
  -- needed them (ga_gc_settle): results dropped at once are still reused
  gpu_it("a loop of ufuncs whose 256 MiB results are dropped stays bounded, values right", function()
    local pool = ga.get_default_memory_pool()
    local x = ga.arange(64 * MiB, "float32")
    collectgarbage()
    local base = pool:total_bytes()
    local peak = 0
    local k = math.random(2, 9)
    for i = 1, 200 do
      local y = ga.add(x, k)
      if i % 40 == 0 then
        assert.equal(k + 12345, y[12346])
        assert.equal("float32", y.dtype)
      end
      peak = math.max(peak, pool:total_bytes())
    end
    assert.is_true(peak - base <= BOUND, ("pool grew to %d MiB"):format((peak - base) // MiB))
  end)

  -- runtime/poolobj.c: pay_before_growth. A fresh process, so that the
  -- collector's pace starts where a program's does: there the step for
  -- the 64 MiB of b is due (more than 16 MiB since the last step) and no
  -- launch comes between, so before, the step waited and b took a new
  -- segment beside the dropped a; now the step runs first and b takes a's
  gpu_it("pays a due collector step before the pool grows, and reuses what it freed", function()
    local script = [[
      local ga = require "gpuarray"
      local MiB, k = 1 << 20, %d
      local pool = ga.get_default_memory_pool()
      local a = ga.empty(16 * MiB, "float32")
      local before = pool:total_bytes()
      a = nil                          -- 64 MiB of garbage, not yet collected
      local b = ga.full(16 * MiB, k, "float32")
      local after = pool:total_bytes()
      io.write(before, " ", after, " ", ("%%d"):format(b[16 * MiB] + b[1]))
    ]]
    local k = math.random(1, 1000)
    local file = os.tmpname()
    local f = assert(io.open(file, "w"))
    f:write(script:format(k))
    f:close()
    local p = assert(io.popen(("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' lua5.4 %s 2>&1")
      :format(file)))
    local out = p:read("a")
    p:close()
    os.remove(file)
    local before, after, sum = out:match("^(%d+) (%d+) (%d+)$")
    assert(before, out)
    assert.equal(2 * k, tonumber(sum))
    assert.equal(tonumber(before), tonumber(after), out)
  end)

  gpu_it("raises out of device memory past the limit, then recovers", function()
    local pool = ga.get_default_memory_pool()
    collectgarbage()
    pool:free_all_blocks()
    local old = pool:get_limit()
    local keep = ga.arange(1000, "float32")
    pool:set_limit({ size = pool:used_bytes() + 64 * MiB })
    local ok, err = pcall(ga.empty, 128 * MiB, "uint8")
    pool:set_limit({ size = old })
    assert.is_false(ok)
    -- named after the public function called (API.md §0)
    local want = "^gpuarray: empty: out of device memory %(requested 134217728 bytes, pool holds %d+%)"
    assert.truthy(tostring(err):find(want),
      tostring(err))
    helper.assert_same(ga.arange(1000, "float32"):totable(), keep:totable())
    assert.equal(128 * MiB, ga.empty(128 * MiB, "uint8").nbytes)
    assert.equal(old, pool:get_limit())
  end)

  gpu_it("collects unreachable arrays when memory runs short", function()
    local pool = ga.get_default_memory_pool()
    collectgarbage()
    pool:free_all_blocks()
    local old = pool:get_limit()
    pool:set_limit({ size = pool:used_bytes() + 300 * MiB })
    local ok, err = pcall(function()
      for _ = 1, 20 do
        local _ = ga.empty(100 * MiB, "uint8")   -- garbage at once; the retry path collects it
      end
    end)
    pool:set_limit({ size = old })
    assert(ok, err)
  end)

  gpu_it("GPUARRAY_GPU_MEMORY_LIMIT sets the default pool's limit", function()
    local function limit_with(value)
      local cmd = ("GPUARRAY_GPU_MEMORY_LIMIT=%s LUA_PATH='lua/?.lua;lua/?/init.lua;;' "
        .. "LUA_CPATH='build/?.so;;' lua5.4 -e 'local ga = require [[gpuarray]]; ga.zeros(1); "
        .. "io.write(ga.get_default_memory_pool():get_limit())'"):format(value)
      local p = assert(io.popen(cmd))
      local out = p:read("a")
      p:close()
      return tonumber(out)
    end
    assert.equal(1073741824, limit_with("1073741824"))
    local half = limit_with("50%")
    local total = ga.device_properties().total_memory
    assert.is_true(half and math.abs(half - total / 2) < total / 100, tostring(half))
  end)

  gpu_it("reports pool statistics", function()
    local pool = ga.get_default_memory_pool()
    collectgarbage()
    pool:free_all_blocks()
    local used = pool:used_bytes()
    local x = ga.empty(1000, "float64")
    assert.equal(used + 8192, pool:used_bytes())   -- 8000 bytes rounded to 512
    x:free()
    assert.is_true(pool:free_bytes() >= 8192)
    assert.is_true(pool:n_free_blocks() >= 1)
    assert.equal(pool:used_bytes() + pool:free_bytes(), pool:total_bytes())
    pool:free_all_blocks()
    assert.equal(pool:used_bytes(), pool:total_bytes())
  end)
end)
