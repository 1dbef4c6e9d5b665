--- The clocks the probes in tools/probe share (each probe puts
-- tools/probe on package.path and requires "timing"):
--   T.host_us(f, n, warm)  host time a call: warm calls, then n calls and a
--                          synchronize (the device idle or not, whichever
--                          is slower bounds it)
--   T.queued_us(f, n)      device time a call: one warm call, then events
--                          around n calls queued back to back
--   T.split_us(f, n)       a warm call, then n calls timed three ways: the
--                          host until the last one is queued, the host
--                          until the device is done, and the device (events)
--   T.cpu_us(f, n, reps)   CPU time a call without a device: 1000 warm
--                          calls, then the best of reps runs of n calls
--   T.one_us(f, n)         device time one call at a time, as the bench
--                          times it: events around each call, the median
--                          of n (21)
-- The core's clock and stream synchronize have older names in trees before
-- the rooms (.base): both are looked up.
local ga = require "gpuarray"
local core = ga._core
local T = {}
T.now = (core.runtime and core.runtime.now) or core._now
T.sync = (core._test and core._test.stream_sync) or core._stream_sync
local now, sync = T.now, T.sync

function T.host_us(f, n, warm)
  for _ = 1, warm or 100 do f() end
  sync()
  local t = now()
  for _ = 1, n do f() end
  sync()
  return (now() - t) / n * 1e6
end

function T.cpu_us(f, n, reps)
  for _ = 1, 1000 do f() end
  local best = math.huge
  for _ = 1, reps or 5 do
    local t = os.clock()
    for _ = 1, n do f() end
    best = math.min(best, (os.clock() - t) / n * 1e6)
  end
  return best
end

function T.split_us(f, n)
  f(); sync()
  local e0, e1 = ga.Event(), ga.Event()
  e0:record()
  local t = now()
  for _ = 1, n do f() end
  local issue = (now() - t) / n * 1e6
  e1:record(); e1:synchronize()
  return issue, (now() - t) / n * 1e6, ga.get_elapsed_time(e0, e1) / n * 1e3
end

function T.one_us(f, n)
  n = n or 21
  f()
  ga.synchronize()
  local e0, e1 = ga.Event(), ga.Event()
  local t = {}
  for i = 1, n do
    e0:record()
    f()
    e1:record(); e1:synchronize()
    t[i] = ga.get_elapsed_time(e0, e1) * 1e3
  end
  table.sort(t)
  return t[n // 2 + 1]
end

function T.queued_us(f, n)
  local _, _, q = T.split_us(f, n or 20)
  return q
end

return T
