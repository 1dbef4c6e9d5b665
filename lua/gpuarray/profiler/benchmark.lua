--- ga.benchmark(fn[, opts]): cupyx.profiler.benchmark for Lua.
-- Runs fn n_warmup times, then n_repeat times, each timed twice: on the
-- host clock around the call (CPU time: what the call costs the caller) and
-- with events recorded on the current stream before and after it (GPU time:
-- what the work queued by the call takes on the device). Returns a table
-- with the times in microseconds and their summaries, which prints like
-- CuPy's (also ga.profiler.benchmark; docs/profiler.md):
--   name                :    CPU:    12.345 us   +/-  0.321 (min:    11.900 / max:    15.100) us     GPU-0: ...
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local core = ga._core

  local function summary(t)
    local n, sum, lo, hi = #t, 0, math.huge, -math.huge
    for i = 1, n do
      local v = t[i]
      sum = sum + v
      if v < lo then lo = v end
      if v > hi then hi = v end
    end
    local mean = sum / n
    local var = 0
    for i = 1, n do var = var + (t[i] - mean) ^ 2 end
    return { min = lo, mean = mean, max = hi, std = math.sqrt(var / n), n = n }
  end

  local function item(label, s)
    local str = ("    %s: %9.3f us"):format(label, s.mean)
    if s.n > 1 then
      str = str .. ("   +/- %6.3f (min: %9.3f / max: %9.3f) us"):format(s.std, s.min, s.max)
    end
    return str
  end

  local Result = {}
  Result.__index = Result
  Result.__tostring = function(r)
    return ("%-20s:%s %s"):format(r.name, item("CPU", r.cpu), item("GPU-" .. r.device, r.gpu))
  end

  api.def(ga, [[
benchmark(func: callable, *, n_repeat: integer = 10000, n_warmup: integer = 10,
          max_duration: number = math.huge, name: string = "fn") -> table
Times func() n_repeat times after n_warmup calls (stopping once the runs
took max_duration seconds): CPU time around each call and GPU time between
events on the current stream, in microseconds (cupyx.profiler.benchmark;
the result prints like CuPy's and holds cpu_times, gpu_times and their
min/mean/max/std summaries).
]], function(fn, n_repeat, n_warmup, max_duration, name)
    if n_repeat < 1 then internal.fail(("benchmark: n_repeat must be >= 1, got %d"):format(n_repeat)) end
    if n_warmup < 0 then internal.fail(("benchmark: n_warmup must be >= 0, got %d"):format(n_warmup)) end
    if max_duration ~= max_duration or max_duration <= 0 then   -- NaN too
      internal.fail("benchmark: max_duration must be a positive number of seconds")
    end
    local start, stop = ga.Event(), ga.Event()
    -- the user's function runs as user code: its errors keep their own names
    local call_user = api.call_user
    for _ = 1, n_warmup do call_user(fn) end
    start:record()
    start:synchronize()
    local now = core.runtime.now
    local cpu, gpu = {}, {}
    local duration = 0
    for i = 1, n_repeat do
      start:record()
      local t1 = now()
      call_user(fn)
      local t2 = now()
      stop:record()
      stop:synchronize()
      cpu[i] = (t2 - t1) * 1e6
      gpu[i] = ga.get_elapsed_time(start, stop) * 1e3
      duration = duration + (now() - t1)
      if duration > max_duration then break end
    end
    start:destroy()
    stop:destroy()
    return setmetatable({
      name = name,
      device = ga.get_device_id(),
      cpu_times = cpu,
      gpu_times = gpu,
      cpu = summary(cpu),
      gpu = summary(gpu),
    }, Result)
  end)

  -- and in cupyx.profiler.benchmark's place (ga.profiler, ranges.lua)
  ga.profiler = ga.profiler or {}
  ga.profiler.benchmark = ga.benchmark
  api.alias("profiler.benchmark", ga.benchmark)
end
