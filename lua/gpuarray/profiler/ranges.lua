--- ga.profiler: named NVTX ranges (cupyx.profiler.time_range's), so that a
-- timeline of Nsight Systems (`nsys profile`) or Nsight Compute
-- (`ncu --nvtx`) shows the user's ranges around gpuarray's kernels. NVTX 3
-- is header-only (src/profiler/nvtx.c): the tool injects its library into
-- the process; with none attached every call is a no-op. profiler.profile
-- starts and stops the CUDA profiler around a function; ga.benchmark
-- (benchmark.lua, also ga.profiler.benchmark) times a function instead.
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local raw = ga._core.profiler
  local profiler = ga.profiler or {}
  ga.profiler = profiler

  -- the ranges this Lua state has open: range_pop with none raises here,
  -- rather than closing a range that other code of the thread (a host's C,
  -- another library) opened
  local depth = 0

  local function check(fname, name, color)
    if name == "" then internal.fail(fname .. ": the range's name is empty") end
    if name:find("\0", 1, true) then
      internal.fail(fname .. ": the range's name contains a NUL byte (NVTX takes a C string)")
    end
    if color ~= nil and (color < 0 or color > 0xFFFFFFFF) then
      internal.fail(("%s: color must be an ARGB value in 0 to 0xFFFFFFFF, got %d"):format(fname, color))
    end
  end

  local function push(name, color)
    raw.range_push(name, color)
    depth = depth + 1
  end

  local function pop()
    raw.range_pop()
    depth = depth - 1
  end

  api.def(profiler, [[
profiler.range_push(name: string, *, color: integer?)
Opens a named NVTX range on this thread (cupyx.profiler's range_push): a profiler's timeline shows
it from here to the matching range_pop. color: 0xAARRGGBB. A no-op without a profiling tool
attached.
]], function(name, color)
    check("profiler.range_push", name, color)
    push(name, color)
  end)

  api.def(profiler, [[
profiler.range_pop()
Closes the range the last range_push of this Lua state opened; raises when none is open.
]], function()
    if depth == 0 then internal.fail("profiler.range_pop: no range is open (range_push opens one)") end
    pop()
  end)

  api.def(profiler, [[
profiler.time_range(name: string, fn: callable, *, color: integer?, sync: boolean = false) -> ...
Calls fn() inside a named NVTX range and returns what it returns (cupyx.profiler.time_range). The
range is closed when fn raises too, and fn's error goes on. sync: wait for the current device's work
before closing the range, so that the range also spans the kernels fn queued.
]], function(name, fn, color, sync)
    check("profiler.time_range", name, color)
    push(name, color)
    local res = table.pack(pcall(api.call_user, fn))   -- the user's errors pass unchanged
    if res[1] and sync and ga.is_available() then
      local ok, err = pcall(ga.synchronize)
      if not ok then res = { false, err, n = 2 } end
    end
    pop()
    if not res[1] then error(res[2], 0) end
    return table.unpack(res, 2, res.n)
  end)

  api.def(profiler, [[
profiler.profile(fn: callable) -> ...
Calls fn() with the CUDA profiler started (cudaProfilerStart, then cudaProfilerStop, when fn raises too)
and returns what it returns (cupyx.profiler.profile): a profiler started with its capture off
(nsys --capture-range=cudaProfilerApi, ncu --profile-from-start off) records only this part.
Needs a CUDA device.
]], function(fn)
    if not ga.is_available() then internal.fail("profiler.profile: no CUDA device to profile") end
    raw.profile_start()
    local res = table.pack(pcall(api.call_user, fn))   -- the user's errors pass unchanged
    local ok, err = pcall(raw.profile_stop)
    if not res[1] then error(res[2], 0) end
    if not ok then error(err, 0) end
    return table.unpack(res, 2, res.n)
  end)
end
