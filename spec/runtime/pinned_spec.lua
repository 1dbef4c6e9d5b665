-- Pinned host arrays (docs/api.md §9): indexing, totable, set, fill from Lua
-- (specced without a GPU on a test pool of malloc'ed memory, the same array
-- type), and the truly asynchronous x:get(h) / x:set(h) on the GPU.
local helper = require "helper"
local spin = require "spin"
local ga = helper.ga
local core = ga._core
local gpu_it = helper.gpu_it
local MS = spin.MS

local empty = core._test.pinned_empty

describe("pinned arrays from Lua (test pool)", function()
  it("has the fields of an array", function()
    local h = empty({ 2, 3 }, "float32")
    assert.same({ 2, 3 }, h.shape)
    assert.equal(2, h.ndim)
    assert.equal(6, h.size)
    assert.equal("float32", h.dtype)
    assert.equal(4, h.itemsize)
    assert.equal(24, h.nbytes)
    assert.same({ 12, 4 }, h.strides)
    assert.equal(2, #h)
    assert.is_true(h.data_ptr ~= 0)
    assert.is_nil(h.base)
    assert.equal("gpuarray.PinnedArray({2,3}, float32)", tostring(h))
    assert.equal("float64", empty(4).dtype)          -- the default dtype
    assert.equal(0, empty(0, "int32").size)
    assert.same({}, empty(0, "int32"):totable())
  end)

  it("reads and writes elements by 1-based and negative indices", function()
    local h = empty(5, "int32")
    for i = 1, 5 do h[i] = i * 10 end
    assert.equal(10, h[1])
    assert.equal(50, h[-1])
    assert.equal(40, h[-2])
    h[-1] = 7
    assert.same({ 10, 20, 30, 40, 7 }, h:totable())
    helper.assert_gaerror(function() return h[6] end, "index 6 is out of range for axis 1 with size 5")
    helper.assert_gaerror(function() return h[0] end, "out of range")
    helper.assert_gaerror(function() h[1] = 2 ^ 40 end, "does not fit int32")
    helper.assert_gaerror(function() return h.nope end, "pinned array has no field or method 'nope'")
    helper.assert_gaerror(function() h.shape = 3 end, "read-only")
    assert.same({ 10, 20, 30, 40, 7 }, h:totable())  -- failed writes changed nothing
  end)

  it("indexes N-d arrays by a table of indices, and rows as views", function()
    local h = empty({ 3, 4 }, "float64")
    local ref = {}
    for i = 1, 3 do
      ref[i] = {}
      for j = 1, 4 do
        local v = math.random() * 100
        ref[i][j] = v
        h[{ i, j }] = v
      end
    end
    assert.same(ref, h:totable())
    assert.equal(ref[2][3], h[{ 2, 3 }])
    assert.equal(ref[3][4], h[{ -1, -1 }])
    local row = h[2]
    assert.same({ 4 }, row.shape)
    assert.equal(h, row.base)
    assert.same(ref[2], row:totable())
    row[1] = -1                                    -- writes through
    assert.equal(-1, h[{ 2, 1 }])
    h[3] = { 1, 2, 3, 4 }                          -- a row from a table
    h[1] = 9                                       -- a row filled
    assert.same({ { 9, 9, 9, 9 }, { -1, ref[2][2], ref[2][3], ref[2][4] }, { 1, 2, 3, 4 } }, h:totable())
    helper.assert_gaerror(function() return h[{ 1 }] end, "1 indices for an array of 2 dimensions")
    helper.assert_gaerror(function() return h[{ 1, "a" }] end, "index 2 is not an integer")
    helper.assert_gaerror(function() return h["1"] end, "no field or method")
    helper.assert_gaerror(function() return h[1.5] end, "expected an integer")
  end)

  it("sets from nested tables, bytes, scalars and other pinned arrays", function()
    local h = empty({ 2, 2 }, "int16")
    h:set({ { 1, 2 }, { 3, 4 } })
    assert.same({ { 1, 2 }, { 3, 4 } }, h:totable())
    h:set(string.pack("<i2i2i2i2", 5, 6, 7, 8))
    assert.same({ { 5, 6 }, { 7, 8 } }, h:totable())
    assert.equal(string.pack("<i2i2i2i2", 5, 6, 7, 8), h:tobytes())
    h:fill(-3)
    assert.same({ { -3, -3 }, { -3, -3 } }, h:totable())
    h:set(ga.int16(11))
    assert.equal(11, h[{ 2, 2 }])
    local f = empty(4, "float32")
    f:set({ 1.5, 2.5, -3.5, 4 })
    h:set(f)                                        -- same size: cast (C casts truncate)
    assert.same({ { 1, 2 }, { -3, 4 } }, h:totable())
    helper.assert_gaerror(function() h:set({ 1, 2, 3, 4 }) end, "length 4 at depth 1 does not match shape {2,2}")
    helper.assert_gaerror(function() h:set({ 1, 2 }) end, "expected a table at depth 2")
    helper.assert_gaerror(function() h:set({ { 1, 2 }, { 3 } }) end, "length 1 at depth 2")
    helper.assert_gaerror(function() h:set("abc") end, "3 bytes given for an array of 8 bytes")
    helper.assert_gaerror(function() h:set(empty(3, "int16")) end, "3 elements given for an array of 4")
    helper.assert_gaerror(function() h:set({ { 1, 2 }, { 3, 1e9 } }) end, "does not fit int16")
  end)

  it("holds booleans and complex pairs", function()
    local b = empty(3, "bool")
    b:set({ true, false, true })
    assert.same({ true, false, true }, b:totable())
    assert.is_false(b[2])
    local c = empty(2, "complex128")
    c:set({ { 1, 2 }, { -3, 0.5 } })
    assert.same({ { 1, 2 }, { -3, 0.5 } }, c:totable())
    assert.same({ -3, 0.5 }, c[2])
    c[1] = 4
    assert.same({ 4, 0 }, c[1])
  end)

  it("frees explicitly, by <close> and __gc; views keep the memory", function()
    local pool = core._test.pinned_pool()
    local used = pool:used_bytes()
    local h = empty({ 4, 256 }, "float32")
    assert.equal(used + 4096, pool:used_bytes())
    local row = h[4]
    row[256] = 3
    h:free()
    h:free()
    helper.assert_gaerror(function() return h[1] end, "the pinned array was freed")
    helper.assert_gaerror(function() h:totable() end, "the pinned array was freed")
    assert.equal("gpuarray.PinnedArray({4,256}, float32, freed)", tostring(h))
    assert.equal(3, row[256])                       -- still alive through the view
    assert.equal(used + 4096, pool:used_bytes())
    row:free()
    assert.equal(used, pool:used_bytes())
    do
      local t <close> = empty(128, "float64")
      t:fill(1)
    end
    assert.equal(used, pool:used_bytes())
    -- freed blocks are reused
    local nfree = pool:n_free_blocks()
    assert.is_true(nfree >= 1)
    local again = empty({ 4, 256 }, "float32")
    assert.equal(nfree - 1, pool:n_free_blocks())
    again:free()
    pool:free_all_blocks()
    assert.equal(0, pool:n_free_blocks())
    assert.equal(pool:used_bytes(), pool:total_bytes())
    assert.matches("PinnedMemoryPool", tostring(pool))
  end)
end)

describe("pinned arrays on the device #gpu", function()
  gpu_it("makes pinned arrays from the default pinned pool", function()
    local pool = ga.get_default_pinned_memory_pool()
    local used = pool:used_bytes()
    local h = ga.pinned_empty({ 3, 5 }, "float32")
    assert.equal("float32", h.dtype)
    assert.is_true(pool:used_bytes() >= used + 60)
    h:set({ { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, { 11, 12, 13, 14, 15 } })
    assert.equal(8, h[{ 2, 3 }])
    h:free()
    assert.equal(used, pool:used_bytes())
  end)

  gpu_it("round-trips asynchronously: x:set(h), a kernel, y:get(h2)", function()
    local k = spin.kernels(ga)
    local n = 100000
    local vals = spin.random_f32(n)
    local h = ga.pinned_empty(n, "float32")
    h:set(vals)
    local x, y = ga.empty(n, "float32"), ga.empty(n, "float32")
    local s = ga.Stream({ non_blocking = true })
    local h2
    do
      local _ <close> = s:scope()
      k.spin_fill(1, 256, { y, 1, 0, 30 * MS })       -- keep s busy
      local t0 = ga._core.runtime.now()
      x:set(h)
      k.scale(80, 256, { x, y, n, 2 })
      h2 = y:get()                                   -- a new pinned array
      local host_ms = (ga._core.runtime.now() - t0) * 1e3
      assert.is_true(host_ms < 20, ("x:set / y:get took %.1f ms on the host"):format(host_ms))
    end
    -- reading h2 waits for the copy
    local t = h2:totable()
    for i = 1, n do
      if t[i] ~= 2 * vals[i] then error(("h2[%d] = %s, expected %s"):format(i, t[i], 2 * vals[i])) end
    end
    assert.equal(2 * vals[n], h2[-1])
    -- into an existing pinned array, on an explicit stream
    local h3 = ga.pinned_empty({ n }, "float32")
    assert.equal(h3, y:get(h3, { stream = s }))
    assert.equal(2 * vals[1], h3[1])
  end)

  gpu_it("copies non-contiguous arrays, casts and reshapes through set", function()
    local m = ga.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float64")
    local h = ga.pinned_empty({ 3, 2 }, "float64")
    m.T:get(h)
    assert.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, h:totable())
    local x = ga.zeros({ 2, 3 }, "float32")
    local h64 = ga.pinned_empty(6, "float64")
    h64:set({ 0.5, 1.5, 2.5, 3.5, 4.5, 5.5 })
    x:set(h64)                                       -- same size: x's shape, cast
    assert.same({ { 0.5, 1.5, 2.5 }, { 3.5, 4.5, 5.5 } }, x:totable())
    local row = ga.pinned_empty(3, "float32")
    row:set({ 7, 8, 9 })
    x:set(row)                                       -- broadcast
    assert.same({ { 7, 8, 9 }, { 7, 8, 9 } }, x:totable())
    x:set({ { 1, 1, 1 }, { 2, 2, 2 } })              -- other sources still work
    assert.same({ { 1, 1, 1 }, { 2, 2, 2 } }, x:totable())
    helper.assert_gaerror(function() x:get(ga.pinned_empty(5, "float32")) end, "get: out is")
    helper.assert_gaerror(function() x:get(ga.pinned_empty(6, "float64")) end, "get: out is")
    helper.assert_gaerror(function() x:get(42) end, "get: out must be a PinnedArray or nil, got 42")
    local hx = ga.pinned_empty({ 2, 3 }, "float32")
    hx:set(x)                                        -- h:set(ndarray) = x:get(h)
    assert.same({ { 1, 1, 1 }, { 2, 2, 2 } }, hx:totable())
  end)

  gpu_it("keeps a pinned block out of reuse until its transfer completed", function()
    local k = spin.kernels(ga)
    local n = 1 << 16
    local y = ga.full(n, 5, "float32")
    local s = ga.Stream({ non_blocking = true })
    local pool = ga.get_default_pinned_memory_pool()
    pool:free_all_blocks()
    local h = ga.pinned_empty(n, "float32")
    local addr = h.data_ptr
    do
      local _ <close> = s:scope()
      k.spin_fill(1, 256, { y, n, 6, 40 * MS })
      y:get(h)                                       -- lands in h after 40 ms
    end
    h:free()
    local h2 = ga.pinned_empty(n, "float32")         -- must not be h's block yet
    assert.are_not.equal(addr, h2.data_ptr)
    h2:fill(1)
    s:synchronize()
    assert.equal(1, h2[n])
  end)
end)
