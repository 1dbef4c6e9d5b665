--- make difftest N=300: random programs (tools/difftest/gen.lua) run by
-- gpuarray in this process and by NumPy in one python3 process; results
-- compared (dtype, shape, values; floats with a tolerance per dtype).
-- Prints each failure, then "difftest: N programs, P passed, F failed";
-- failing programs go to the out folder as <id>.lua, <id>.py, <id>.txt.
--
--   lua5.4 tools/difftest/run.lua [--n N] [--seed S] [--python python3]
--          [--out build/difftest] [--python-only]
--
-- --python-only runs the NumPy side alone (no GPU needed): a check of the
-- generator's Python. The exit status is 1 when a program failed.
package.path = "tools/?.lua;" .. package.path
local gen = require "difftest.gen"
local compare = require "difftest.compare"
local sides = require "difftest.sides"

local opts = { n = 200, seed = os.time(), python = "python3", out = "build/difftest" }
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    if a == "--python-only" then
      opts.python_only = true
    elseif a:sub(1, 2) == "--" and arg[i + 1] then
      opts[a:sub(3)] = arg[i + 1]
      i = i + 1
    else
      error("difftest: unknown argument " .. a)
    end
    i = i + 1
  end
  opts.n, opts.seed = tonumber(opts.n), tonumber(opts.seed)
end

os.execute(("mkdir -p '%s'"):format(opts.out))
io.stderr:write(("difftest: seed %d (make difftest SEED=%d replays it)\n"):format(opts.seed, opts.seed))

local programs = {}
for id = 1, opts.n do programs[id] = gen.program(id, opts.seed * 1000 + id) end

-- the NumPy side: every program in one process
local py, py_failed = sides.numpy(programs, opts.python, opts.out)
if not py then
  print("difftest: " .. py_failed)
  print(("difftest: %d programs, 0 passed, %d failed"):format(opts.n, opts.n))
  os.exit(1)
end

if opts.python_only then
  local errors = 0
  for _, p in ipairs(programs) do
    local r = py[p.id]
    if not r then error("difftest: no output for program " .. p.id) end
    if r[1] and r[1].error then errors = errors + 1 end
  end
  print(("difftest: %d programs run by NumPy, %d raised (the generator's Python is well formed)"):format(
    opts.n, errors))
  os.exit(0)
end

-- the gpuarray side, in this process
local ga = require "gpuarray"
local function run_lua(p) return sides.gpuarray(ga, p) end

local passed, failed = 0, 0
for _, p in ipairs(programs) do
  local lua_res = run_lua(p)
  local same, why = compare.results(lua_res, py[p.id] or { { error = "no NumPy output" } })
  if same then
    passed = passed + 1
  else
    failed = failed + 1
    print(("difftest: program %d (seed %d): %s"):format(p.id, p.seed, why))
    local base = ("%s/%d"):format(opts.out, p.id)
    local f = assert(io.open(base .. ".lua", "w"))
    f:write(p.lua)
    f:close()
    f = assert(io.open(base .. ".py", "w"))
    f:write("import numpy as np\n\n", p.py, ("\np%d(lambda name, v: print(name, repr(np.asarray(v))))\n"):format(p.id))
    f:close()
    f = assert(io.open(base .. ".txt", "w"))
    f:write("gpuarray:\n", compare.dump(lua_res), "\nNumPy:\n", compare.dump(py[p.id] or {}), "\n", why, "\n")
    f:close()
  end
end
print(("difftest: %d programs, %d passed, %d failed"):format(opts.n, passed, failed))
if failed > 0 then print(("difftest: failing programs are in %s/"):format(opts.out)) end
os.exit(failed == 0 and 0 or 1)
