--- ga.benchmark(fn[, opts]): cupyx.profiler.benchmark for Lua.
-- Runs fn n_warmup times, then n_repeat times, each timed twice: on the
-- host clock around the call (CPU time: what the call costs the caller) and
-- with events recorded on the current stream before and after it (GPU time:
-- what the work queued by the call takes on the device). Returns a table
-- with the times in microseconds and their summaries, which prints like
-- CuPy's:
--   name                :    CPU:    12.345 us   +/-  0.321 (min:    11.900 / max:    15.100) us     GPU-0: ...
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

  local function count(opts, key, default, min)
    local v = opts[key]
    if v == nil then return default end
    if math.type(v) ~= "integer" or v < min then
      error(("gpuarray: benchmark: %s must be an integer >= %d, got %s"):format(key, min, tostring(v)), 0)
    end
    return v
  end

  --- ga.benchmark(fn[, {n_repeat = 10000, n_warmup = 10, max_duration = math.huge, name = "fn"}])
  function ga.benchmark(fn, opts)
    if type(fn) ~= "function" and not (getmetatable(fn) or {}).__call then
      error("gpuarray: benchmark: expected a function, got " .. type(fn), 0)
    end
    opts = opts or {}
    if type(opts) ~= "table" then
      error("gpuarray: benchmark: expected an options table, got " .. type(opts), 0)
    end
    local n_repeat = count(opts, "n_repeat", 10000, 1)
    local n_warmup = count(opts, "n_warmup", 10, 0)
    local max_duration = opts.max_duration or math.huge
    if type(max_duration) ~= "number" or max_duration <= 0 then
      error("gpuarray: benchmark: max_duration must be a positive number of seconds", 0)
    end
    local start, stop = ga.Event(), ga.Event()
    for _ = 1, n_warmup do fn() end
    start:record()
    start:synchronize()
    local now = core.runtime.now
    local cpu, gpu = {}, {}
    local duration = 0
    for i = 1, n_repeat do
      start:record()
      local t1 = now()
      fn()
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
      name = opts.name or "fn",
      device = ga.get_device_id(),
      cpu_times = cpu,
      gpu_times = gpu,
      cpu = summary(cpu),
      gpu = summary(gpu),
    }, Result)
  end
end
