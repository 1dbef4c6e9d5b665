--- make bench: gpuarray's side of the benchmark suite, printed as one JSON
-- object. Every case has a twin with the same key in the CuPy twin script,
-- cupy_ref.py, kept outside the repository, measured the same way, so that
-- one device call runs both and its compare.py prints ratios
-- (docs/performance.md). Cases live in one file per
-- area (bench/<area>.lua returns function(ga, B)); an area whose file is
-- missing is skipped.
local ga = require "gpuarray"
local core = ga._core

local B = {}
B.N = 1 << 26        -- elements in the large 1-D cases (256 MiB of float32)
B.M = 8192           -- side of the large 2-D cases

local results, order = {}, {}
local only = os.getenv("GPUARRAY_BENCH_ONLY")   -- a Lua pattern on keys

function B.sync() core._test.stream_sync() end

--- With lazy evaluation on (API.md 16) a result nobody reads is never
-- computed: every timed call's results are forced (ga.eval), then its
-- pending writes land (out=, in-place forms: core._test.lazy_flush
-- "stores", without a synchronize), so that each iteration does the work a
-- program that reads those results does. Values a call made and dropped
-- stay pending and are never computed, as in that program: so every timed
-- function returns what it computes. (Flushing everything, as this did
-- before, also computed the intermediates a chain had fused into its
-- kernel, dropped but not yet collected: chain_eager took two kernels a
-- call.) Lazy off: f as is.
local function forced(f)
  if not ga.get_lazy() then return f end
  local eval, flush = ga.eval, core._test.lazy_flush
  return function()
    eval(f())
    flush("stores")
  end
end
B.forced = forced

--- Host time per call of a tiny op, in microseconds (launch overhead).
function B.host_us(f, n)
  f = forced(f)
  n = n or 20000
  for _ = 1, 100 do f() end
  B.sync()
  local t = core.runtime.now()
  for _ = 1, n do f() end
  B.sync()
  return (core.runtime.now() - t) / n * 1e6
end

--- Median device time of one call, in milliseconds, timed with events.
function B.gpu_ms(f, n)
  return core._test.gpu_time_ms(forced(f), n or 20)
end

function B.gbps(nbytes, f, n)
  return nbytes / B.gpu_ms(f, n) / 1e6
end

function B.case(key, fn)
  if only and not key:match(only) then return end
  local ok, v = pcall(fn)
  if ok then
    results[key] = v
  else
    io.stderr:write(("bench %s failed: %s\n"):format(key, tostring(v)))
  end
  order[#order + 1] = key
  collectgarbage()
end

-- the original areas first, in their order (the later ones reuse the GPU
-- warm); then every other bench/<area>.lua, one per feature room, by name
local AREAS = { "copy", "elementwise", "elementwise_gather", "reduction", "raw", "linalg", "fftrand", "fuse",
                "graphs", "sort" }
do
  local known = {}
  for _, a in ipairs(AREAS) do known[a] = true end
  local p = io.popen("ls bench/*.lua 2>/dev/null")
  local extra = {}
  for path in p:lines() do
    local a = path:match("^bench/([%w_]+)%.lua$")
    if a and a ~= "run" and a ~= "startup_probe" and not known[a] then extra[#extra + 1] = a end
  end
  p:close()
  table.sort(extra)
  for _, a in ipairs(extra) do AREAS[#AREAS + 1] = a end
end
local areas_only = os.getenv("GPUARRAY_BENCH_AREAS")  -- "copy,linalg": only these areas
for _, area in ipairs(AREAS) do
  local ok, add
  if areas_only and not ("," .. areas_only .. ","):find("," .. area .. ",", 1, true) then
    ok, add = true, function() end
  else
    ok, add = pcall(require, "bench." .. area)
  end
  if ok then
    add(ga, B)
  elseif not tostring(add):find("module 'bench." .. area .. "' not found", 1, true) then
    io.stderr:write(("bench area %s failed to load: %s\n"):format(area, tostring(add)))
  end
end

local props = ga.device_properties()
local lines = {}
for _, key in ipairs(order) do
  local v = results[key]
  if v then lines[#lines + 1] = ("  %q: %.6g"):format(key, v) end
end
lines[#lines + 1] = ('  "_meta": {"impl": "gpuarray %s", "device": %q}'):format(ga.version, props.name)
print("{\n" .. table.concat(lines, ",\n") .. "\n}")
