--- examples/common.lua: the one rule every example follows (examples/README.md).
-- Where there is no CUDA device an example prints the one line
--   skipped: no CUDA device
-- and exits 0; on a GPU it checks its own result against a CPU reference
-- and exits 1, saying what differed, when a check fails. `make examples`
-- (tools/run-examples) runs them all and tells the three cases apart.
--
-- An example loads this file from its own folder (it is no module of the
-- library), before anything else:
--   local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
--   local ga = example.gpuarray()
local example = {}

--- Print "skipped: <why>" and exit 0.
function example.skip(why)
  print("skipped: " .. why)
  os.exit(0)
end

--- require "gpuarray", or skip where the example cannot run: no CUDA device,
-- fewer than opts.devices of them, or (opts.nccl) no NCCL.
function example.gpuarray(opts)
  opts = opts or {}
  local ga = require "gpuarray"
  if not ga.is_available() then example.skip("no CUDA device") end
  if opts.devices and ga.device_count() < opts.devices then
    example.skip(("needs %d CUDA devices, found %d"):format(opts.devices, ga.device_count()))
  end
  if opts.nccl then
    local ok, why = ga.nccl.available()
    if not ok then example.skip("NCCL is not available: " .. tostring(why)) end
  end
  return ga
end

--- A check: when cond is false, print "check failed: <message>" to stderr
-- and exit 1 (the message formatted from fmt and the values after it).
function example.check(cond, fmt, ...)
  if not cond then
    io.stderr:write("check failed: ", fmt:format(...), "\n")
    os.exit(1)
  end
end

--- The largest relative error of got against want (two Lua lists of numbers,
-- or two numbers): |got - want| / max(|want|, floor), floor defaulting to 1
-- so values near zero are judged by their absolute error.
function example.worst(got, want, floor)
  floor = floor or 1
  if type(got) == "number" then got, want = { got }, { want } end
  example.check(#got == #want, "%d values, expected %d", #got, #want)
  local worst, at = 0, 1
  for i = 1, #want do
    local err = math.abs(got[i] - want[i]) / math.max(math.abs(want[i]), floor)
    if err ~= err then err = math.huge end   -- NaN where a number was expected
    if err > worst then worst, at = err, i end
  end
  return worst, at
end

--- Check got against the CPU reference want within a relative tolerance
-- (see example.worst), naming the first worst element when it fails.
function example.close(got, want, rtol, what, floor)
  local worst, at = example.worst(got, want, floor)
  if type(got) == "number" then got, want = { got }, { want } end
  example.check(worst <= rtol, "%s: element %d is %.9g, the CPU reference %.9g (relative error %.3g > %.3g)",
                what, at, got[at], want[at], worst, rtol)
  return worst
end

--- A double rounded to float32, for CPU references of float32 arithmetic.
function example.f32(v)
  return (string.unpack("<f", string.pack("<f", v)))
end

return example
