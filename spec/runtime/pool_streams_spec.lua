-- The pool across streams, on the host test pool (same C code, malloc
-- instead of cudaMalloc, fake streams and events), so it runs without a GPU.
--
-- Fake streams are small integers (0 is the legacy default stream and always
-- exists). p:live(s, true) makes stream s exist, p:work(s) queues one unit
-- of work on it, p:finish(s[, n]) completes all of it (or its first n
-- units), p:bump() is a stream switch (the state's current stream changed,
-- or an op ran on another stream), p:retire(s) destroys s. p:adopt(s)
-- counts one more user of a host's stream s (ga_push_stream, ga_set_stream),
-- p:give_back(s) one fewer (1: that was the last, and s was settled and
-- untagged; 0: users remain; -1: s was not listed). p:pending() counts
-- chunks waiting for their fences, p:waits() the cross-stream waits the
-- pool issued.
--
-- The rule under test (docs/api.md §9): a block freed on one stream is reused
-- there at once, and on another stream only after that stream's work has
-- passed it.
local core = require "gpuarray.core"

local KiB = 1024

describe("memory pool across streams (host test backend)", function()
  local p
  before_each(function()
    p = core._test.host_pool()
    for s = 1, 4 do p:live(s, true) end
  end)

  it("reuses a chunk on its own stream at once when no stream switched", function()
    local a = p:alloc(4 * KiB, 1)
    local pa = p:ptr(a)
    p:work(1)
    p:free(a)
    assert.equal(0, p:pending())
    assert.equal(pa, p:ptr(p:alloc(4 * KiB, 1)))
    assert.equal(0, p:waits())
  end)

  it("orders another stream behind the owner before handing it the chunk", function()
    local a = p:alloc(4 * KiB, 1)
    local pa = p:ptr(a)
    p:work(1)
    p:free(a)
    local b = p:alloc(4 * KiB, 2)
    assert.equal(pa, p:ptr(b))
    assert.equal(1, p:waits())
  end)

  it("parks a chunk freed after a stream switch until every stream passed it", function()
    local a = p:alloc(4 * KiB, 1)
    local pa = p:ptr(a)
    p:work(1)
    p:work(2)
    p:bump()                       -- a may have been used on stream 2 too
    p:free(a)
    assert.equal(1, p:pending())
    assert.equal(0, p:used_bytes())
    assert.equal(4 * KiB, p:free_bytes())
    assert.equal(0, p:n_free_blocks())
    -- neither stream gets it while their work may still use it
    local b = p:alloc(4 * KiB, 2)
    local c = p:alloc(4 * KiB, 1)
    assert.are_not.equal(pa, p:ptr(b))
    assert.are_not.equal(pa, p:ptr(c))
    p:finish(1)
    local d = p:alloc(4 * KiB, 1)
    assert.are_not.equal(pa, p:ptr(d))
    assert.equal(1, p:pending())
    p:finish(2)
    -- now idle: any stream, no wait needed
    local waits = p:waits()
    local e = p:alloc(4 * KiB, 3)
    assert.equal(pa, p:ptr(e))
    assert.equal(0, p:pending())
    assert.equal(waits, p:waits())
  end)

  it("waits only for the work queued before the release", function()
    local a = p:alloc(4 * KiB, 1)
    local pa = p:ptr(a)
    p:work(1)                      -- unit 1: may use a
    p:bump()
    p:free(a)
    p:work(1)                      -- unit 2: queued after the release
    p:finish(1, 1)
    assert.equal(pa, p:ptr(p:alloc(4 * KiB, 2)))
  end)

  it("fences a destroyed stream's free chunks, even from a new stream with its handle", function()
    local x = p:alloc(8 * KiB, 3)
    local px = p:ptr(x)
    p:free(x)                      -- fast path: on stream 3's free list
    p:work(3)
    p:retire(3)
    assert.equal(1, p:pending())
    p:live(3, true)                -- a new stream, same handle
    local y = p:alloc(8 * KiB, 3)
    assert.are_not.equal(px, p:ptr(y))
    p:finish(3)
    assert.equal(px, p:ptr(p:alloc(8 * KiB, 3)))
  end)

  it("fences chunks still in use when their stream is destroyed", function()
    local a = p:alloc(4 * KiB, 4)
    local pa = p:ptr(a)
    p:work(4)
    p:retire(4)
    p:free(a)                      -- released after the stream went away
    assert.equal(1, p:pending())
    assert.are_not.equal(pa, p:ptr(p:alloc(4 * KiB, 4)))
    -- later releases also wait for the destroyed stream's last work
    local b = p:alloc(4 * KiB, 1)
    local pb = p:ptr(b)
    p:bump()
    p:free(b)
    assert.are_not.equal(pb, p:ptr(p:alloc(4 * KiB, 1)))
    p:finish(4)
    local got = { [p:ptr(p:alloc(4 * KiB, 2))] = true, [p:ptr(p:alloc(4 * KiB, 2))] = true }
    assert.is_true(got[pa] and got[pb])
    assert.equal(0, p:pending())
  end)

  it("merges idle neighbours back into whole chunks", function()
    local big = p:alloc(64 * KiB, 1)
    local base = p:ptr(big)
    p:free(big)
    local x, y = p:alloc(32 * KiB, 1), p:alloc(32 * KiB, 1)
    p:bump()
    p:work(2)
    p:free(x)
    p:free(y)
    assert.equal(2, p:pending())
    p:finish(2)
    assert.equal(base, p:ptr(p:alloc(64 * KiB, 2)))
    assert.equal(64 * KiB, p:total_bytes())
  end)

  it("free_all_blocks waits for pending chunks and gives their segments back", function()
    local a = p:alloc(16 * KiB, 1)
    p:work(1)
    p:bump()
    p:free(a)
    assert.equal(1, p:pending())
    p:free_all_blocks()
    assert.equal(0, p:pending())
    assert.same({ 0, 0 }, { p:total_bytes(), p:used_bytes() })
  end)

  it("runs out of memory only after waiting for pending chunks", function()
    p:set_limit({ size = 8 * KiB })
    local a = p:alloc(8 * KiB, 1)
    p:work(1)
    p:bump()
    p:free(a)
    local b = p:alloc(8 * KiB, 2)  -- the recovery path waits, frees, retries
    assert.equal(8 * KiB, p:used_bytes())
    p:free(b)
  end)

  it("stays consistent under random streams, switches and releases (stress)", function()
    local seed = os.time()
    math.randomseed(seed)
    local live, nlive = {}, 0
    local function check()
      local used, list = 0, {}
      for _, r in pairs(live) do
        used = used + r.size
        list[#list + 1] = r
      end
      assert.equal(used, p:used_bytes(), "seed " .. seed)
      table.sort(list, function(x, y) return x.ptr < y.ptr end)
      for i = 2, #list do
        assert.is_true(list[i - 1].ptr + list[i - 1].size <= list[i].ptr, "overlap (seed " .. seed .. ")")
      end
    end
    for step = 1, 2000 do
      local r = math.random()
      if r < 0.05 then
        p:bump()
      elseif r < 0.15 then
        p:work(math.random(0, 4))
      elseif r < 0.22 then
        p:finish(math.random(0, 4))
      elseif nlive > 0 and (r < 0.6 or nlive > 100) then
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
        local h = p:alloc(math.random(1, 64 * KiB), math.random(0, 4))
        live[h] = { ptr = p:ptr(h), size = p:size(h) }
        nlive = nlive + 1
      end
      if step % 20 == 0 then check() end
      if step % 300 == 0 then p:free_all_blocks() end
    end
    for h in pairs(live) do p:free(h) end
    for s = 0, 4 do p:finish(s) end
    p:free_all_blocks()
    assert.same({ 0, 0, 0 }, { p:used_bytes(), p:total_bytes(), p:pending() })
  end)

  it("rejects bad test hooks as gpuarray errors", function()
    local ok, err = pcall(p.work, p, 99)
    assert.is_false(ok)
    assert.matches("^gpuarray: work: stream id must be below", err)
    ok, err = pcall(p.finish, p, -1)
    assert.is_false(ok)
    assert.matches("^gpuarray: finish:", err)
  end)
end)

-- issue 24, defect 8: a host wraps its stream (ga_set_stream), its state
-- closes (the Stream objects are collected: each gives the stream back),
-- the host destroys the stream, and a new state allocates. Blocks freed on
-- the stream sat in its free list: the next allocation on another stream
-- ordered itself after the dead stream (cudaEventRecord on it: SIGSEGV).
-- The last give-back must settle the stream (an event after its work) and
-- untag its blocks, so nothing names it afterwards.
describe("a host's stream given back (host test backend)", function()
  local p
  local HOST = 5
  before_each(function()
    p = core._test.host_pool()
    for s = 1, 4 do p:live(s, true) end
  end)

  it("keeps its free list while a user remains; the last give-back settles and untags it", function()
    p:adopt(HOST)                  -- two states use it
    p:adopt(HOST)
    local a = p:alloc(8 * KiB, HOST)
    local pa = p:ptr(a)
    p:work(HOST)                   -- a kernel still running on it
    p:free(a)                      -- fast path: on its free list
    assert.equal(1, p:n_free_blocks())
    assert.equal(0, p:give_back(HOST))
    local again = p:alloc(8 * KiB, HOST)
    assert.equal(pa, p:ptr(again), "a user remains: its own free list still serves it")
    p:free(again)
    assert.equal(0, p:pending())
    assert.equal(1, p:give_back(HOST))
    -- settled: parked behind an event recorded on it now; untagged: no free list names it
    assert.equal(1, p:pending())
    assert.equal(0, p:n_free_blocks())
    local waits = p:waits()
    local b = p:alloc(8 * KiB, 2)
    assert.are_not.equal(pa, p:ptr(b), "reused while the host's work may still use it")
    assert.equal(waits, p:waits(), "ordered another stream after the given-back stream")
    local c = p:alloc(8 * KiB, HOST)   -- the handle reused for a new stream
    assert.are_not.equal(pa, p:ptr(c))
    p:finish(HOST)
    local d = p:alloc(8 * KiB, 3)
    assert.equal(pa, p:ptr(d), "idle once the host's work passed it")
    assert.equal(waits, p:waits())
    assert.equal(0, p:pending())
    for _, h in ipairs { b, c, d } do p:free(h) end
    assert.equal(0, p:used_bytes())
  end)

  it("is no longer fenced: later releases wait for its work before the give-back, not after", function()
    p:adopt(HOST)
    local b = p:alloc(4 * KiB, 1)
    local pb = p:ptr(b)
    p:work(HOST)                   -- unit 1: queued by the state, may use b
    assert.equal(1, p:give_back(HOST))
    p:work(HOST)                   -- unit 2: the host's own work afterwards
    p:bump()
    p:free(b)                      -- may have been used on the host's stream
    assert.equal(1, p:pending())
    assert.are_not.equal(pb, p:ptr(p:alloc(4 * KiB, 2)))
    p:finish(HOST, 1)              -- unit 1 done, unit 2 still running
    assert.equal(pb, p:ptr(p:alloc(4 * KiB, 2)), "waited for the host's work after the give-back")
    assert.equal(0, p:pending())
  end)

  it("fences chunks in use when it is given back, and frees them behind its last work", function()
    p:adopt(HOST)
    local a = p:alloc(4 * KiB, HOST)
    local pa = p:ptr(a)
    p:work(HOST)
    assert.equal(1, p:give_back(HOST))
    p:free(a)                      -- an array that outlived the give-back
    assert.equal(1, p:pending())
    assert.are_not.equal(pa, p:ptr(p:alloc(4 * KiB, 1)))
    p:finish(HOST)
    assert.equal(pa, p:ptr(p:alloc(4 * KiB, 1)))
  end)

  it("counts users: a stream never adopted, or already given back, changes nothing", function()
    assert.equal(-1, p:give_back(HOST))
    p:adopt(HOST)
    local a = p:alloc(4 * KiB, HOST)
    p:free(a)
    assert.equal(1, p:give_back(HOST))
    assert.equal(-1, p:give_back(HOST))
    p:retire(HOST)                 -- destroyed afterwards: nothing left to do
    assert.equal(1, p:pending())
    p:finish(HOST)
    p:alloc(4 * KiB, 2)
    assert.equal(0, p:pending())
    assert.matches("^gpuarray: give_back: stream id must be below", select(2, pcall(p.give_back, p, 99)))
  end)
end)

describe("pool objects", function()
  it("makes new pools and async pools without a GPU, and checks set_allocator", function()
    local mp = core.MemoryPool()
    assert.matches("^gpuarray.MemoryPool%(", tostring(mp))
    local ap = core.MemoryAsyncPool()
    assert.matches("^gpuarray.MemoryAsyncPool%(", tostring(ap))
    assert.equal(0, mp:used_bytes())
    assert.equal(0, mp:n_free_blocks())
    local ok, err = pcall(core.set_allocator, 42)
    assert.is_false(ok)
    assert.matches("^gpuarray: set_allocator: expected a memory pool or nil", err)
    ok, err = pcall(core.set_allocator, core._test.host_pool())
    assert.is_false(ok)
    assert.matches("^gpuarray: set_allocator: the host test pool", err)
    core.set_allocator(mp)
    assert.equal(mp, core.get_allocator())
    core.set_allocator(nil)
    assert.equal(core.get_default_memory_pool(), core.get_allocator())
  end)
end)
