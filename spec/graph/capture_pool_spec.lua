-- The memory pool while a stream is being captured into a CUDA graph, on the
-- host test pool (same C code as the device pools, fake streams and events),
-- so it runs without a GPU. p:_capture(s) marks fake stream s as being
-- captured, p:_capture() ends it; p:_alloc(n, s, true) is an allocation made
-- for the graph being captured (what ga_alloc does inside a capture).
--
-- The rules under test (runtime/graph.c, pool.c):
-- * no event is recorded and nothing waited for while a capture runs: a
--   release that needs a fence is parked until the capture ends;
-- * a graph's memory comes only from chunks free for every stream (or new
--   segments), since a replay may run on any stream;
-- * no chunk is taken across a capturing stream (that would record an event
--   into the capture).
local core = require "gpuarray.core"

local KiB = 1024

describe("memory pool during a stream capture (host test backend)", function()
  local p
  before_each(function()
    p = core._host_pool()
    for s = 1, 4 do p:_live(s, true) end
  end)

  it("parks a release that needs a fence until the capture ends", function()
    local a = p:_alloc(4 * KiB, 1)
    local pa = p:_ptr(a)
    p:_work(1)
    p:_bump()                 -- a may have been used on other streams
    p:_capture(2)
    p:_free(a)
    assert.equal(1, p:_pending())
    assert.equal(0, p:used_bytes())
    -- finished work does not free it either: no fence was recorded
    for s = 0, 4 do p:_finish(s) end
    local b = p:_alloc(4 * KiB, 3)
    assert.are_not.equal(pa, p:_ptr(b))
    p:_work(1)                -- queued during the capture: the fence must wait for it
    p:_capture()
    -- the first poll after the capture fences it; once every stream passed
    -- the fence, the chunk is free for anyone
    local c = p:_alloc(4 * KiB, 3)
    assert.are_not.equal(pa, p:_ptr(c))
    for s = 0, 4 do p:_finish(s) end
    local d = p:_alloc(4 * KiB, 4)
    assert.equal(pa, p:_ptr(d))
    assert.equal(0, p:_pending())
  end)

  it("keeps later fenced releases behind a parked one in order", function()
    local a = p:_alloc(4 * KiB, 1)
    local b = p:_alloc(8 * KiB, 1)
    p:_bump()
    p:_capture(2)
    p:_free(a)
    p:_capture()
    p:_free(b)                -- fenced at once: the capture is over
    assert.equal(2, p:_pending())
    for s = 0, 4 do p:_finish(s) end
    p:_alloc(512, 3)          -- polls: a gets its fence now, b's is done
    for s = 0, 4 do p:_finish(s) end
    p:_alloc(512, 3)
    assert.equal(0, p:_pending())
  end)

  it("gives a graph's allocation no chunk of a stream's own free list", function()
    local a = p:_alloc(4 * KiB, 2)
    local pa = p:_ptr(a)
    p:_free(a)                -- same epoch: straight back to stream 2's list
    assert.equal(0, p:_pending())
    p:_capture(2)
    local g = p:_alloc(4 * KiB, 2, true)
    assert.are_not.equal(pa, p:_ptr(g))
    assert.equal(0, p:_waits())
    -- an ordinary allocation on stream 2 still reuses it
    local e = p:_alloc(4 * KiB, 2)
    assert.equal(pa, p:_ptr(e))
    p:_capture()
  end)

  it("gives a graph's allocation idle chunks", function()
    local a = p:_alloc(16 * KiB, 1)
    local pa = p:_ptr(a)
    p:_bump()
    p:_free(a)
    for s = 0, 4 do p:_finish(s) end
    p:_capture(1)
    local g = p:_alloc(16 * KiB, 1, true)
    assert.equal(pa, p:_ptr(g))
    p:_capture()
  end)

  it("takes no chunk across a capturing stream", function()
    local a = p:_alloc(4 * KiB, 2)
    local pa = p:_ptr(a)
    p:_work(2)
    p:_free(a)                -- into stream 2's free list
    p:_capture(2)
    local b = p:_alloc(4 * KiB, 3)
    assert.are_not.equal(pa, p:_ptr(b))
    assert.equal(0, p:_waits())
    p:_capture()
    local c = p:_alloc(4 * KiB, 3)
    assert.equal(pa, p:_ptr(c))
    assert.equal(1, p:_waits())
  end)
end)
