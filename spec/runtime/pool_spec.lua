-- The memory pool's logic, run on the host test pool (core._test.host_pool(): the
-- same C code with malloc/free instead of cudaMalloc/cudaFree), so it runs on
-- machines without a GPU. Handles are integers: p:alloc(nbytes[, stream_id]),
-- p:free(h), p:ptr(h), p:size(h).
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
  before_each(function() p = core._test.host_pool() end)

  it("starts empty", function()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
    assert.equal(0, p:get_limit())
    assert.matches("^gpuarray.MemoryPool", tostring(p))
  end)

  it("rounds sizes up to 512 bytes", function()
    for _, case in ipairs { { 0, 512 }, { 1, 512 }, { 511, 512 }, { 512, 512 },
                            { 513, 1024 }, { 1000, 1024 }, { 4096, 4096 },
                            { 100000, 100352 }, { 3 * 1024 * 1024 + 1, 3 * 1024 * 1024 + 512 } } do
      local h = p:alloc(case[1])
      assert.equal(case[2], p:size(h), "size for " .. case[1])
      assert.equal(0, p:ptr(h) % 512)
      p:free(h)
    end
  end)

  it("accounts used, total, free bytes and free blocks", function()
    local a = p:alloc(1000)
    local b = p:alloc(3000)
    assert.same({ used = 1024 + 3072, total = 4096, free = 0, nfree = 0 }, stats(p))
    p:free(a)
    assert.same({ used = 3072, total = 4096, free = 1024, nfree = 1 }, stats(p))
    p:free(b)
    assert.same({ used = 0, total = 4096, free = 4096, nfree = 2 }, stats(p))
    p:free_all_blocks()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
  end)

  it("reuses a freed chunk of the same size", function()
    local a = p:alloc(5000)
    local addr = p:ptr(a)
    p:free(a)
    local b = p:alloc(5000)
    assert.equal(addr, p:ptr(b))
    assert.equal(5120, p:total_bytes())
  end)

  it("picks the best fit, not the first or the largest", function()
    local small, big = p:alloc(4 * KiB), p:alloc(64 * KiB)
    local small_addr = p:ptr(small)
    p:free(small); p:free(big)
    local h = p:alloc(3 * KiB)
    assert.equal(small_addr, p:ptr(h))
    -- the 1 KiB rest stays free next to it; the 64 KiB chunk is untouched
    assert.same({ used = 3 * KiB, total = 68 * KiB, free = 65 * KiB, nfree = 2 }, stats(p))
    -- freed in the other order: same answer
    p:free(h)
    p:free_all_blocks()
    big, small = p:alloc(64 * KiB), p:alloc(4 * KiB)
    small_addr = p:ptr(small)
    p:free(big); p:free(small)
    assert.equal(small_addr, p:ptr(p:alloc(3 * KiB)))
  end)

  it("finds the best fit inside a range size class", function()
    -- 401, 403 and 420 units of 512 bytes: above the exact classes; 401 and
    -- 403 share a class
    local u = 512
    local a, b, c = p:alloc(403 * u), p:alloc(401 * u), p:alloc(420 * u)
    local pa, pb, pc = p:ptr(a), p:ptr(b), p:ptr(c)
    p:free(a); p:free(b); p:free(c)
    local x = p:alloc(402 * u)          -- 401 is too small: 403
    assert.equal(pa, p:ptr(x))
    local y = p:alloc(400 * u)          -- 401 fits best
    assert.equal(pb, p:ptr(y))
    local z = p:alloc(410 * u)          -- only 420 is left that fits
    assert.equal(pc, p:ptr(z))
    assert.equal((403 + 401 + 420) * u, p:total_bytes())
  end)

  it("splits a chunk and merges the pieces back", function()
    local big = p:alloc(64 * KiB)
    local base = p:ptr(big)
    p:free(big)
    local x = p:alloc(32 * KiB)
    local y = p:alloc(32 * KiB)
    assert.equal(base, p:ptr(x))
    assert.equal(base + 32 * KiB, p:ptr(y))
    assert.same({ used = 64 * KiB, total = 64 * KiB, free = 0, nfree = 0 }, stats(p))
    p:free(x)
    assert.equal(1, p:n_free_blocks())
    p:free(y)
    assert.equal(1, p:n_free_blocks())   -- merged into one chunk again
    assert.equal(base, p:ptr(p:alloc(64 * KiB)))
  end)

  it("merges with both neighbours, in any order", function()
    for _, order in ipairs { { 1, 2, 3 }, { 3, 2, 1 }, { 1, 3, 2 }, { 2, 1, 3 }, { 2, 3, 1 } } do
      local q = core._test.host_pool()
      q:free(q:alloc(30 * KiB))
      local hs = { q:alloc(10 * KiB), q:alloc(10 * KiB), q:alloc(10 * KiB) }
      assert.equal(0, q:n_free_blocks())
      for _, i in ipairs(order) do q:free(hs[i]) end
      assert.equal(1, q:n_free_blocks())
      q:free_all_blocks()
      assert.equal(0, q:total_bytes())   -- a whole free segment again
    end
  end)

  it("keeps segments with chunks in use through free_all_blocks", function()
    local a = p:alloc(8 * KiB)
    p:free(a)
    local b = p:alloc(4 * KiB)           -- splits the 8 KiB segment
    local c = p:alloc(16 * KiB)          -- a second segment
    p:free(c)
    p:free_all_blocks()
    assert.same({ used = 4 * KiB, total = 8 * KiB, free = 4 * KiB, nfree = 1 }, stats(p))
    p:free(b)
    p:free_all_blocks()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
  end)

  describe("streams", function()
    it("prefers the stream's own chunks, takes others' only when it must", function()
      local x = p:alloc(4 * KiB, 1)
      local y = p:alloc(8 * KiB, 2)
      local px, py = p:ptr(x), p:ptr(y)
      p:free(x); p:free(y)
      -- stream 1 holds an exact fit, but stream 2 uses its own 8 KiB chunk
      local a = p:alloc(4 * KiB, 2)
      assert.equal(py, p:ptr(a))
      local b = p:alloc(4 * KiB, 2)
      assert.equal(py + 4 * KiB, p:ptr(b))
      -- stream 2 has nothing left: stream 1's chunk, before growing the pool
      local c = p:alloc(4 * KiB, 2)
      assert.equal(px, p:ptr(c))
      assert.equal(12 * KiB, p:total_bytes())
      -- that chunk now belongs to stream 2: freed there, reused there
      p:free(c)
      assert.equal(px, p:ptr(p:alloc(4 * KiB, 2)))
    end)

    it("gives a freed chunk back to its own stream at once", function()
      local a = p:alloc(4 * KiB, 3)
      local pa = p:ptr(a)
      p:free(a)
      assert.equal(pa, p:ptr(p:alloc(4 * KiB, 3)))
      assert.equal(4 * KiB, p:total_bytes())
    end)

    it("does not merge free chunks of different streams", function()
      local seg = p:alloc(8 * KiB, 1)
      local base = p:ptr(seg)
      p:free(seg)
      local a = p:alloc(4 * KiB, 2)      -- taken from stream 1, rest stays there
      assert.equal(base, p:ptr(a))
      p:free(a)                          -- onto stream 2's list
      assert.equal(2, p:n_free_blocks())
      -- neither list holds 8 KiB: a new segment
      local b = p:alloc(8 * KiB, 1)
      assert.are_not.equal(base, p:ptr(b))
      assert.equal(16 * KiB, p:total_bytes())
      -- the first segment is all free (on two lists): free_all gives it back
      p:free_all_blocks()
      assert.same({ used = 8 * KiB, total = 8 * KiB, free = 0, nfree = 0 }, stats(p))
    end)

    it("takes the best fit among other streams", function()
      local a, b = p:alloc(64 * KiB, 1), p:alloc(4 * KiB, 2)
      local pb = p:ptr(b)
      p:free(a); p:free(b)
      assert.equal(pb, p:ptr(p:alloc(2 * KiB, 3)))
    end)
  end)

  describe("limit", function()
    it("caps the bytes the pool holds", function()
      p:set_limit({ size = 8 * KiB })
      assert.equal(8 * KiB, p:get_limit())
      local a = p:alloc(8 * KiB)
      local err = errmsg(p.alloc, p, 1)
      assert.matches("^gpuarray: out of .*memory %(requested 1 bytes, pool holds 8192%)", err)
      p:free(a)
      -- a cached chunk counts: the pool empties its cache and retries
      local b = p:alloc(4 * KiB)
      p:free(b)
      local c = p:alloc(8 * KiB)
      assert.same({ used = 8 * KiB, total = 8 * KiB, free = 0, nfree = 0 }, stats(p))
      p:free(c)
      p:set_limit({ size = 0 })
      assert.equal(0, p:get_limit())
      p:alloc(64 * KiB)
      p:set_limit(1024)
      assert.equal(1024, p:get_limit())
      p:set_limit()
      assert.equal(0, p:get_limit())
    end)

    it("runs a full collection before giving up", function()
      p:set_limit({ size = 8 * KiB })
      local h = p:alloc(8 * KiB)
      -- the only reference to h is in a finalizer that frees it
      setmetatable({}, { __gc = function() p:free(h) end })
      local a = p:alloc(8 * KiB)
      assert.equal(8 * KiB, p:used_bytes())
      p:free(a)
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
    assert.matches("^gpuarray: alloc:", errmsg(p.alloc, p, -1))
    assert.matches("^gpuarray: alloc:", errmsg(p.alloc, p, "x"))
    assert.matches("^gpuarray: alloc:", errmsg(p.alloc, p, 1, -2))
    local h = p:alloc(10)
    p:free(h)
    assert.matches("^gpuarray: free: not a live handle", errmsg(p.free, p, h))
    assert.matches("^gpuarray: ptr: not a live handle", errmsg(p.ptr, p, 12345))
    assert.matches("^gpuarray: size:", errmsg(p.size, p))
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
        assert.equal(r.ptr, p:ptr(h))
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
            p:free(h)
            live[h] = nil
            nlive = nlive - 1
            break
          end
        end
      else
        local n, s = rsize(), math.random(0, 3)
        local h = p:alloc(n, s)
        assert.is_nil(live[h])
        local size = p:size(h)
        assert.equal(math.max(512, (n + 511) // 512 * 512), size)
        assert.equal(0, p:ptr(h) % 512)
        live[h] = { ptr = p:ptr(h), size = size }
        nlive = nlive + 1
      end
      if step % 97 == 0 then p:free_all_blocks() end
      if step % 10 == 0 then check() end
    end
    check()
    for h in pairs(live) do p:free(h) end
    assert.equal(0, p:used_bytes())
    p:free_all_blocks()
    assert.same({ used = 0, total = 0, free = 0, nfree = 0 }, stats(p))
  end)

  it("frees a host test pool when it is collected", function()
    for _ = 1, 50 do
      local q = core._test.host_pool()
      q:alloc(1024 * KiB)
      q:free(q:alloc(512 * KiB, 1))
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

  it("has no test-only methods (the host test pool has its own metatable)", function()
    -- the declared methods bound first (the runtime room loads on first
    -- use: without this the test ran on C's methods or the bound ones by
    -- the order of the tests before it)
    assert.is_function(require("gpuarray").get_default_memory_pool)
    local d = core.get_default_memory_pool()
    for _, name in ipairs { "alloc", "_alloc", "free", "work", "finish", "retire", "adopt", "give_back" } do
      assert.is_nil(d[name], name)
    end
    local h = core._test.host_pool()
    assert.is_function(h.alloc)
    assert.are_not.equal(getmetatable(d), getmetatable(h))
    assert.equal(h:used_bytes(), d.used_bytes(h))   -- the public methods serve both
  end)
end)
