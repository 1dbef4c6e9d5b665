--- make soak (issue 24): for SOAK_SECONDS, SOAK_THREADS threads open and
-- close lua_States (examples/host/soak.c) that run random programs of the
-- differential generator (tools/difftest/gen.lua) under memory pressure (a
-- pool limit, ballast arrays) with injected faults (core._test.fault), each
-- result compared with the CPU reference: NumPy (the difftest's Python side,
-- one python3 process ahead of the soak), or where NumPy is missing the
-- programs' own results in a clean run (one thread, no faults, no limit).
-- It reports programs run, faults injected and errors raised, and fails
-- when a thread crashed or raised (a wrong result or an unexplained
-- error), when the pool's used bytes did not come back to where they were
-- before the threads started, or when a program's clean run already
-- disagrees with NumPy (a difftest finding: those programs stay out of
-- the soak). Without a device it generates the programs, runs NumPy's side
-- and says "skipped: no CUDA device".
--
--   lua5.4 tools/soak/run.lua --host build/soak/host_soak [--seconds 300]
--     [--threads 8] [--programs 300] [--seed S] [--python python3]
--     [--limit bytes] [--out build/soak]
package.path = "tools/?.lua;" .. package.path
local gen = require "difftest.gen"
local compare = require "difftest.compare"
local sides = require "difftest.sides"

local opts = { seconds = 300, threads = 8, programs = 300, seed = os.time(), python = "python3",
               limit = 256 << 20, out = "build/soak", host = "build/soak/host_soak" }
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    if a:sub(1, 2) ~= "--" or arg[i + 1] == nil or opts[a:sub(3)] == nil then error("soak: bad argument " .. a, 0) end
    opts[a:sub(3)] = arg[i + 1]
    i = i + 2
  end
  for _, k in ipairs({ "seconds", "threads", "programs", "seed", "limit" }) do
    opts[k] = math.tointeger(tonumber(opts[k]))
  end
end
os.execute(("mkdir -p '%s'"):format(opts.out))
io.stderr:write(("soak: seed %d (make soak SEED=%d replays the programs)\n"):format(opts.seed, opts.seed))

local programs = {}
for id = 1, opts.programs do programs[id] = gen.program(id, opts.seed * 1000 + id) end

-- NumPy's side, with the python asked for, else the system's
local numpy, why = sides.numpy(programs, opts.python, opts.out)
if not numpy and opts.python ~= "/usr/bin/python3" then numpy = sides.numpy(programs, "/usr/bin/python3", opts.out) end

local ga = require "gpuarray"
if not ga.is_available() then
  print(("soak: skipped: no CUDA device (%d programs generated; NumPy's side %s)"):format(opts.programs,
    numpy and "ran" or ("did not run: " .. why)))
  os.exit(0)
end

-- the clean run: this process, one thread, no faults, no pool limit
local clean, kept, left_out = {}, {}, {}
for _, p in ipairs(programs) do
  clean[p.id] = sides.gpuarray(ga, p)
  local same, diff = true, nil
  if numpy then same, diff = compare.results(clean[p.id], numpy[p.id] or { { error = "no NumPy output" } }) end
  if same then
    kept[#kept + 1] = p
  else
    left_out[#left_out + 1] = p
    print(("soak: program %d (difftest seed %d) disagrees with NumPy without faults or pressure: %s"):format(
      p.id, p.seed, diff))
  end
end
local refs = numpy or clean
local reference = numpy and "NumPy" or "the programs' clean run (no NumPy)"

-- the plan every state reads: programs and references as Lua
local plan_path = opts.out .. "/plan.lua"
do
  local f = assert(io.open(plan_path, "w"))
  f:write("return {\n  reference = ", ("%q"):format(reference), ",\n  programs = {\n")
  for _, p in ipairs(kept) do f:write(("    { id = %d, seed = %d, lua = %q },\n"):format(p.id, p.seed, p.lua)) end
  f:write("  },\n  refs = {\n")
  for _, p in ipairs(kept) do
    f:write(("    [%d] = {\n"):format(p.id))
    for _, e in ipairs(refs[p.id]) do
      if e.error then
        f:write(("      { error = %q },\n"):format(e.error))
      else
        local vals = {}
        for k, v in ipairs(e.values) do vals[k] = ("%q"):format(v) end
        f:write(("      { name = %q, dtype = %q, shape = %q, values = { %s } },\n"):format(e.name, e.dtype, e.shape,
          table.concat(vals, ", ")))
      end
    end
    f:write("    },\n")
  end
  f:write("  },\n}\n")
  f:close()
end
if #kept == 0 then
  print("soak: FAILED: no program left to run")
  os.exit(1)
end

-- the threads, in a process of their own (examples/host/soak.c)
local cmd = ("GPUARRAY_GPU_MEMORY_LIMIT=%d '%s' %d %d tools/soak/worker.lua '%s' %d 2>&1"):format(
  opts.limit, opts.host, opts.seconds, opts.threads, plan_path, opts.seed)
local pipe = assert(io.popen(cmd))
local out = pipe:read("a")
local ok, how, code = pipe:close()
io.write(out)
local line = out:match("host_soak: %d+ threads[^\n]*") or ""
local function count(name) return tonumber(line:match(name .. " (%d+)")) or 0 end
local before, after = line:match("pool used bytes (%d+) before and (%d+) after")
local crashed = not ok and how == "signal"
local _, stopped = out:gsub("\nFAILED ", "")
local failed = not ok or not out:find("host_soak: ok", 1, true) or before == nil or before ~= after or #left_out > 0
print(("soak: %d programs run (%d distinct, reference %s), %d faults injected, %d errors raised (%d injected, " ..
       "%d out of device memory, %d as the reference), %d threads stopped by a wrong result or an unexplained " ..
       "error, %d states on %d threads in %d s, %s, %d programs left out (their clean run disagrees with " ..
       "NumPy), %s: %s"):format(
  count("programs"), #kept, reference, count("faults_injected"), count("errors_raised"), count("errors_injected"),
  count("errors_out_of_memory"), count("errors_as_reference"), stopped, tonumber(line:match("(%d+) states")) or 0,
  opts.threads, opts.seconds, crashed and ("CRASHED (signal " .. tostring(code) .. ")") or "no crash",
  #left_out, before and ("pool used bytes " .. before .. " before and " .. after .. " after") or "no pool reading",
  failed and "FAILED" or "ok"))
os.exit(failed and 1 or 0)
