-- The memory pool while a stream is being captured into a CUDA graph, on the
-- host test pool (same C code as the device pools, fake streams and events),
-- so it runs without a GPU. p:capture(s) marks fake stream s as being
-- captured, p:capture() ends it; p:alloc(n, s, true) is an allocation made
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
    p = core._test.host_pool()
    for s = 1, 4 do p:live(s, true) end
  end)

  it("parks a release that needs a fence until the capture ends", function()
    local a = p:alloc(4 * KiB, 1)
    local pa = p:ptr(a)
    p:work(1)
    p:bump()                 -- a may have been used on other streams
    p:capture(2)
    p:free(a)
    assert.equal(1, p:pending())
    assert.equal(0, p:used_bytes())
    -- finished work does not free it either: no fence was recorded
    for s = 0, 4 do p:finish(s) end
    local b = p:alloc(4 * KiB, 3)
    assert.are_not.equal(pa, p:ptr(b))
    p:work(1)                -- queued during the capture: the fence must wait for it
    p:capture()
    -- the first poll after the capture fences it; once every stream passed
    -- the fence, the chunk is free for anyone
    local c = p:alloc(4 * KiB, 3)
    assert.are_not.equal(pa, p:ptr(c))
    for s = 0, 4 do p:finish(s) end
    local d = p:alloc(4 * KiB, 4)
    assert.equal(pa, p:ptr(d))
    assert.equal(0, p:pending())
  end)

  it("keeps later fenced releases behind a parked one in order", function()
    local a = p:alloc(4 * KiB, 1)
    local b = p:alloc(8 * KiB, 1)
    p:bump()
    p:capture(2)
    p:free(a)
    p:capture()
    p:free(b)                -- fenced at once: the capture is over
    assert.equal(2, p:pending())
    for s = 0, 4 do p:finish(s) end
    p:alloc(512, 3)          -- polls: a gets its fence now, b's is done
    for s = 0, 4 do p:finish(s) end
    p:alloc(512, 3)
    assert.equal(0, p:pending())
  end)

  it("gives a graph's allocation no chunk of a stream's own free list", function()
    local a = p:alloc(4 * KiB, 2)
    local pa = p:ptr(a)
    p:free(a)                -- same epoch: straight back to stream 2's list
    assert.equal(0, p:pending())
    p:capture(2)
    local g = p:alloc(4 * KiB, 2, true)
    assert.are_not.equal(pa, p:ptr(g))
    assert.equal(0, p:waits())
    -- an ordinary allocation on stream 2 still reuses it
    local e = p:alloc(4 * KiB, 2)
    assert.equal(pa, p:ptr(e))
    p:capture()
  end)

  it("gives a graph's allocation idle chunks", function()
    local a = p:alloc(16 * KiB, 1)
    local pa = p:ptr(a)
    p:bump()
    p:free(a)
    for s = 0, 4 do p:finish(s) end
    p:capture(1)
    local g = p:alloc(16 * KiB, 1, true)
    assert.equal(pa, p:ptr(g))
    p:capture()
  end)

  it("takes no chunk across a capturing stream", function()
    local a = p:alloc(4 * KiB, 2)
    local pa = p:ptr(a)
    p:work(2)
    p:free(a)                -- into stream 2's free list
    p:capture(2)
    local b = p:alloc(4 * KiB, 3)
    assert.are_not.equal(pa, p:ptr(b))
    assert.equal(0, p:waits())
    p:capture()
    local c = p:alloc(4 * KiB, 3)
    assert.equal(pa, p:ptr(c))
    assert.equal(1, p:waits())
  end)
end)
