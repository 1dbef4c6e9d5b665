-- The memory pool's logic, run on the host test pool (core._host_pool(): the
-- same C code with malloc/free instead of cudaMalloc/cudaFree), so it runs on
-- machines without a GPU. Handles are integers: p:_alloc(nbytes[, stream_id]),
-- p:_free(h), p:_ptr(h), p:_size(h).
--
-- Streams, as the host pool shows them: a chunk freed on stream S goes to S's
-- free list. An allocation on S takes S's best fit first, even when another
-- stream holds a better one; it takes another stream's chunk only when S has
-- none that fits (on a device the pool then makes S wait for that stream with
-- an event), and grows the pool only when no stream has one. Free neighbours
-- merge only when they are on the same stream's list.
local core = require "gpuarray.core"

local KiB = 1024

local function errmsg(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(err)
end

local function stats(p)
  return { used = p:used_bytes(), total = p:total_bytes(), free = p:free_bytes(),
           nfree = p:n_free_blocks() }
end

describe("memory pool (host test backend)", function()
  local p
  before_each(function() p = core._host_pool() end)

  it("starts empty", function()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
    assert.equal(0, p:get_limit())
    assert.matches("^gpuarray.MemoryPool", tostring(p))
  end)

  it("rounds sizes up to 512 bytes", function()
    for _, case in ipairs { { 0, 512 }, { 1, 512 }, { 511, 512 }, { 512, 512 },
                            { 513, 1024 }, { 1000, 1024 }, { 4096, 4096 },
                            { 100000, 100352 }, { 3 * 1024 * 1024 + 1, 3 * 1024 * 1024 + 512 } } do
      local h = p:_alloc(case[1])
      assert.equal(case[2], p:_size(h), "size for " .. case[1])
      assert.equal(0, p:_ptr(h) % 512)
      p:_free(h)
    end
  end)

  it("accounts used, total, free bytes and free blocks", function()
    local a = p:_alloc(1000)
    local b = p:_alloc(3000)
    assert.same({ used = 1024 + 3072, total = 4096, free = 0, nfree = 0 }, stats(p))
    p:_free(a)
    assert.same({ used = 3072, total = 4096, free = 1024, nfree = 1 }, stats(p))
    p:_free(b)
    assert.same({ used = 0, total = 4096, free = 4096, nfree = 2 }, stats(p))
    p:free_all_blocks()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
  end)

  it("reuses a freed chunk of the same size", function()
    local a = p:_alloc(5000)
    local addr = p:_ptr(a)
    p:_free(a)
    local b = p:_alloc(5000)
    assert.equal(addr, p:_ptr(b))
    assert.equal(5120, p:total_bytes())
  end)

  it("picks the best fit, not the first or the largest", function()
    local small, big = p:_alloc(4 * KiB), p:_alloc(64 * KiB)
    local small_addr = p:_ptr(small)
    p:_free(small); p:_free(big)
    local h = p:_alloc(3 * KiB)
    assert.equal(small_addr, p:_ptr(h))
    -- the 1 KiB rest stays free next to it; the 64 KiB chunk is untouched
    assert.same({ used = 3 * KiB, total = 68 * KiB, free = 65 * KiB, nfree = 2 }, stats(p))
    -- freed in the other order: same answer
    p:_free(h)
    p:free_all_blocks()
    big, small = p:_alloc(64 * KiB), p:_alloc(4 * KiB)
    small_addr = p:_ptr(small)
    p:_free(big); p:_free(small)
    assert.equal(small_addr, p:_ptr(p:_alloc(3 * KiB)))
  end)

  it("finds the best fit inside a range size class", function()
    -- 401, 403 and 420 units of 512 bytes: above the exact classes; 401 and
    -- 403 share a class
    local u = 512
    local a, b, c = p:_alloc(403 * u), p:_alloc(401 * u), p:_alloc(420 * u)
    local pa, pb, pc = p:_ptr(a), p:_ptr(b), p:_ptr(c)
    p:_free(a); p:_free(b); p:_free(c)
    local x = p:_alloc(402 * u)          -- 401 is too small: 403
    assert.equal(pa, p:_ptr(x))
    local y = p:_alloc(400 * u)          -- 401 fits best
    assert.equal(pb, p:_ptr(y))
    local z = p:_alloc(410 * u)          -- only 420 is left that fits
    assert.equal(pc, p:_ptr(z))
    assert.equal((403 + 401 + 420) * u, p:total_bytes())
  end)

  it("splits a chunk and merges the pieces back", function()
    local big = p:_alloc(64 * KiB)
    local base = p:_ptr(big)
    p:_free(big)
    local x = p:_alloc(32 * KiB)
    local y = p:_alloc(32 * KiB)
    assert.equal(base, p:_ptr(x))
    assert.equal(base + 32 * KiB, p:_ptr(y))
    assert.same({ used = 64 * KiB, total = 64 * KiB, free = 0, nfree = 0 }, stats(p))
    p:_free(x)
    assert.equal(1, p:n_free_blocks())
    p:_free(y)
    assert.equal(1, p:n_free_blocks())   -- merged into one chunk again
    assert.equal(base, p:_ptr(p:_alloc(64 * KiB)))
  end)

  it("merges with both neighbours, in any order", function()
    for _, order in ipairs { { 1, 2, 3 }, { 3, 2, 1 }, { 1, 3, 2 }, { 2, 1, 3 }, { 2, 3, 1 } } do
      local q = core._host_pool()
      q:_free(q:_alloc(30 * KiB))
      local hs = { q:_alloc(10 * KiB), q:_alloc(10 * KiB), q:_alloc(10 * KiB) }
      assert.equal(0, q:n_free_blocks())
      for _, i in ipairs(order) do q:_free(hs[i]) end
      assert.equal(1, q:n_free_blocks())
      q:free_all_blocks()
      assert.equal(0, q:total_bytes())   -- a whole free segment again
    end
  end)

  it("keeps segments with chunks in use through free_all_blocks", function()
    local a = p:_alloc(8 * KiB)
    p:_free(a)
    local b = p:_alloc(4 * KiB)           -- splits the 8 KiB segment
    local c = p:_alloc(16 * KiB)          -- a second segment
    p:_free(c)
    p:free_all_blocks()
    assert.same({ used = 4 * KiB, total = 8 * KiB, free = 4 * KiB, nfree = 1 }, stats(p))
    p:_free(b)
    p:free_all_blocks()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
  end)

  describe("streams", function()
    it("prefers the stream's own chunks, takes others' only when it must", function()
      local x = p:_alloc(4 * KiB, 1)
      local y = p:_alloc(8 * KiB, 2)
      local px, py = p:_ptr(x), p:_ptr(y)
      p:_free(x); p:_free(y)
      -- stream 1 holds an exact fit, but stream 2 uses its own 8 KiB chunk
      local a = p:_alloc(4 * KiB, 2)
      assert.equal(py, p:_ptr(a))
      local b = p:_alloc(4 * KiB, 2)
      assert.equal(py + 4 * KiB, p:_ptr(b))
      -- stream 2 has nothing left: stream 1's chunk, before growing the pool
      local c = p:_alloc(4 * KiB, 2)
      assert.equal(px, p:_ptr(c))
      assert.equal(12 * KiB, p:total_bytes())
      -- that chunk now belongs to stream 2: freed there, reused there
      p:_free(c)
      assert.equal(px, p:_ptr(p:_alloc(4 * KiB, 2)))
    end)

    it("gives a freed chunk back to its own stream at once", function()
      local a = p:_alloc(4 * KiB, 3)
      local pa = p:_ptr(a)
      p:_free(a)
      assert.equal(pa, p:_ptr(p:_alloc(4 * KiB, 3)))
      assert.equal(4 * KiB, p:total_bytes())
    end)

    it("does not merge free chunks of different streams", function()
      local seg = p:_alloc(8 * KiB, 1)
      local base = p:_ptr(seg)
      p:_free(seg)
      local a = p:_alloc(4 * KiB, 2)      -- taken from stream 1, rest stays there
      assert.equal(base, p:_ptr(a))
      p:_free(a)                          -- onto stream 2's list
      assert.equal(2, p:n_free_blocks())
      -- neither list holds 8 KiB: a new segment
      local b = p:_alloc(8 * KiB, 1)
      assert.are_not.equal(base, p:_ptr(b))
      assert.equal(16 * KiB, p:total_bytes())
      -- the first segment is all free (on two lists): free_all gives it back
      p:free_all_blocks()
      assert.same({ used = 8 * KiB, total = 8 * KiB, free = 0, nfree = 0 }, stats(p))
    end)

    it("takes the best fit among other streams", function()
      local a, b = p:_alloc(64 * KiB, 1), p:_alloc(4 * KiB, 2)
      local pb = p:_ptr(b)
      p:_free(a); p:_free(b)
      assert.equal(pb, p:_ptr(p:_alloc(2 * KiB, 3)))
    end)
  end)

  describe("limit", function()
    it("caps the bytes the pool holds", function()
      p:set_limit({ size = 8 * KiB })
      assert.equal(8 * KiB, p:get_limit())
      local a = p:_alloc(8 * KiB)
      local err = errmsg(p._alloc, p, 1)
      assert.matches("^gpuarray: out of .*memory %(requested 1 bytes, pool holds 8192%)", err)
      p:_free(a)
      -- a cached chunk counts: the pool empties its cache and retries
      local b = p:_alloc(4 * KiB)
      p:_free(b)
      local c = p:_alloc(8 * KiB)
      assert.same({ used = 8 * KiB, total = 8 * KiB, free = 0, nfree = 0 }, stats(p))
      p:_free(c)
      p:set_limit({ size = 0 })
      assert.equal(0, p:get_limit())
      p:_alloc(64 * KiB)
      p:set_limit(1024)
      assert.equal(1024, p:get_limit())
      p:set_limit()
      assert.equal(0, p:get_limit())
    end)

    it("runs a full collection before giving up", function()
      p:set_limit({ size = 8 * KiB })
      local h = p:_alloc(8 * KiB)
      -- the only reference to h is in a finalizer that frees it
      setmetatable({}, { __gc = function() p:_free(h) end })
      local a = p:_alloc(8 * KiB)
      assert.equal(8 * KiB, p:used_bytes())
      p:_free(a)
    end)

    it("rejects bad arguments with gpuarray errors", function()
      assert.matches("^gpuarray: set_limit:", errmsg(p.set_limit, p, { size = -1 }))
      assert.matches("^gpuarray: set_limit:", errmsg(p.set_limit, p, { size = 1.5 }))
      assert.matches("^gpuarray: set_limit:", errmsg(p.set_limit, p, { size = 1, fraction = 0.5 }))
      assert.matches("^gpuarray: set_limit:", errmsg(p.set_limit, p, { fraction = 2 }))
      assert.matches("^gpuarray: set_limit:", errmsg(p.set_limit, p, { fraction = 0.5 }))
      assert.matches("^gpuarray: set_limit:", errmsg(p.set_limit, p, "big"))
    end)
  end)

  it("reports misuse as gpuarray errors", function()
    assert.matches("^gpuarray: _alloc:", errmsg(p._alloc, p, -1))
    assert.matches("^gpuarray: _alloc:", errmsg(p._alloc, p, "x"))
    assert.matches("^gpuarray: _alloc:", errmsg(p._alloc, p, 1, -2))
    local h = p:_alloc(10)
    p:_free(h)
    assert.matches("^gpuarray: _free: not a live handle", errmsg(p._free, p, h))
    assert.matches("^gpuarray: _ptr: not a live handle", errmsg(p._ptr, p, 12345))
    assert.matches("^gpuarray: _size:", errmsg(p._size, p))
    assert.matches("^gpuarray: used_bytes: expected a memory pool", errmsg(p.used_bytes, {}))
    assert.matches("^gpuarray: free_all_blocks:", errmsg(p.free_all_blocks))
  end)

  it("survives random allocation and freeing (stress)", function()
    local seed = os.time()
    print("pool stress seed: " .. seed)
    math.randomseed(seed)
    local live = {}        -- handle -> { ptr, size, req }
    local nlive = 0
    local function check()
      local used, list = 0, {}
      for h, r in pairs(live) do
        used = used + r.size
        list[#list + 1] = r
        assert.equal(r.ptr, p:_ptr(h))
      end
      assert.equal(used, p:used_bytes())
      assert.equal(p:total_bytes() - used, p:free_bytes())
      assert.is_true(p:total_bytes() >= used)
      table.sort(list, function(a, b) return a.ptr < b.ptr end)
      for i = 2, #list do
        assert.is_true(list[i - 1].ptr + list[i - 1].size <= list[i].ptr,
                       "live chunks overlap (seed " .. seed .. ")")
      end
    end
    local function rsize()
      local r = math.random()
      if r < 0.6 then return math.random(0, 8 * KiB) end
      if r < 0.9 then return math.random(8 * KiB, 512 * KiB) end
      return math.random(512 * KiB, 4 * KiB * KiB)
    end
    for step = 1, 3000 do
      if nlive > 0 and (math.random() < 0.45 or nlive > 200) then
        local k = math.random(nlive)
        for h in pairs(live) do
          k = k - 1
          if k == 0 then
            p:_free(h)
            live[h] = nil
            nlive = nlive - 1
            break
          end
        end
      else
        local n, s = rsize(), math.random(0, 3)
        local h = p:_alloc(n, s)
        assert.is_nil(live[h])
        local size = p:_size(h)
        assert.equal(math.max(512, (n + 511) // 512 * 512), size)
        assert.equal(0, p:_ptr(h) % 512)
        live[h] = { ptr = p:_ptr(h), size = size }
        nlive = nlive + 1
      end
      if step % 97 == 0 then p:free_all_blocks() end
      if step % 10 == 0 then check() end
    end
    check()
    for h in pairs(live) do p:_free(h) end
    assert.equal(0, p:used_bytes())
    p:free_all_blocks()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
  end)

  it("frees a host test pool when it is collected", function()
    for _ = 1, 50 do
      local q = core._host_pool()
      q:_alloc(1024 * KiB)
      q:_free(q:_alloc(512 * KiB, 1))
    end
    collectgarbage()
    collectgarbage()
  end)
end)

describe("default memory pool", function()
  it("is one object per device and needs no GPU to inspect", function()
    local d = core.get_default_memory_pool()
    assert.equal(d, core.get_default_memory_pool())
    assert.matches("^gpuarray.MemoryPool%(device %d+%)$", tostring(d))
    assert.is_true(math.type(d:used_bytes()) == "integer")
    assert.is_true(d:total_bytes() >= d:used_bytes())
    assert.equal(d:total_bytes() - d:used_bytes(), d:free_bytes())
    assert.is_true(d:n_free_blocks() >= 0)
    d:free_all_blocks()
  end)

  it("takes and clears a byte limit", function()
    local d = core.get_default_memory_pool()
    local old = d:get_limit()
    d:set_limit({ size = 1 << 30 })
    assert.equal(1 << 30, d:get_limit())
    d:set_limit({ size = old })
    assert.equal(old, d:get_limit())
  end)

  it("has no test-only methods", function()
    local d = core.get_default_memory_pool()
    assert.matches("^gpuarray: _alloc:", errmsg(d._alloc, d, 16))
  end)
end)
