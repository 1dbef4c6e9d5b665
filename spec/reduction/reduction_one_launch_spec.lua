-- A reduction to one value split across blocks finishes in its own launch
-- (kernels/reduction/reduction.cuh: ga_red_last; src/reduction/reduction.c:
-- the tickets): the last block to take a ticket combines the partials and
-- zeroes its stream's counter. What could go wrong is the counter: a
-- reduction that left it non-zero would make the next one on that stream
-- finish early (a partial missing) or never. So: many reductions in a row,
-- on several streams in turn, of sizes with different split counts, queued
-- back to back, with values checked against sums on the host; the struct
-- accumulators (argmax, mean) and bfloat16; graph capture, which takes the
-- finishing launch instead, replayed between eager reductions. Each result
-- is read on the stream that computed it: an earlier version read a
-- non-blocking stream's results from the null stream, which does not wait
-- for them, and compute-sanitizer (slow kernels) showed that race as wrong
-- sums. GPU only.
local helper = require "helper"
local ga = helper.ga
local gpu_it = helper.gpu_it

local function rand_ints(n, lo, hi)
  local t = {}
  for i = 1, n do t[i] = math.random(lo, hi) end
  return t
end

-- small integers: every float32 partial sum is exact, so the sums equal the
-- host's whatever the order
local function exact_sum(t)
  local s = 0
  for i = 1, #t do s = s + t[i] end
  return s
end

describe("reductions to one value in one launch", function()
  gpu_it("give exact sums many times in a row, on three streams in turn, for several split counts", function()
    local sizes = { 4096 * 64 + 5, 1000003, 3 * 2 ^ 20 + 17 }
    local data = {}
    for i, n in ipairs(sizes) do
      local t = rand_ints(n, -8, 8)
      data[i] = { t = t, x = ga.array(t, "float32"), s = exact_sum(t) }
    end
    -- a non-blocking stream does not wait for the null stream's copies, nor
    -- the null stream for its kernels: the inputs are on the device before
    -- the loop, and each result is read on the stream that computed it
    ga.synchronize()
    local streams = { ga.Stream.null, ga.Stream({ non_blocking = true }), ga.Stream() }
    for rep = 1, 30 do
      local st = streams[rep % #streams + 1]
      local d = data[rep % #data + 1]
      local _ <close> = st:scope()
      local got = ga.sum(d.x)
      assert.equal("float32", got.dtype)
      assert.equal(0, got.ndim)
      assert.equal(d.s, got:item(), "rep " .. rep)
    end
    -- queued back to back without reading: each one still sees a zero counter
    local outs = {}
    for rep = 1, 12 do outs[rep] = ga.sum(data[rep % #data + 1].x) end
    for rep = 1, 12 do assert.equal(data[rep % #data + 1].s, outs[rep]:item(), "queued " .. rep) end
  end)

  gpu_it("take struct accumulators, post-maps and bfloat16 the same way", function()
    local n = 2 ^ 21 + 9
    local t = rand_ints(n, -1000, 1000)
    local at = math.random(1, n)
    t[at] = 5000                                  -- one maximum, at a random place
    local x = ga.array(t, "float32")
    assert.equal(at, ga.argmax(x):item())         -- 1-based (API.md 14)
    assert.equal(5000, ga.max(x):item())
    local s = exact_sum(t)
    assert.near(s / n, ga.mean(x):item(), 1e-6)      -- one float32 rounding of |s/n| < 1000
    local xb = ga.array(rand_ints(n, -4, 4), "bfloat16")
    local tb = xb:astype("float32"):totable()
    local sb = ga.sum(xb)
    assert.equal("bfloat16", sb.dtype)
    -- float32 accumulation of small integers is exact; one rounding to bfloat16
    assert.equal(ga.array({ exact_sum(tb) }, "float32"):astype("bfloat16"):item(), sb:item())
  end)

  gpu_it("inside a graph capture finish with a second launch, and replays stay right between eager sums", function()
    local n = 2 ^ 20 + 3
    local t = rand_ints(n, -8, 8)
    local x = ga.array(t, "float32")
    local s = exact_sum(t)
    local stream = ga.Stream({ non_blocking = true })
    local r = {}
    local g = ga.graph.capture(function() r.sum = ga.sum(x) end, stream)
    for rep = 1, 5 do
      g:launch(stream)
      assert.equal(s, ga.sum(x):item(), "eager " .. rep)   -- the null stream's counter, between replays
      stream:synchronize()
      assert.equal(s, r.sum:item(), "replay " .. rep)
    end
  end)
end)
