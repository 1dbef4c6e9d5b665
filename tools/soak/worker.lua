--- One state of make soak (run by examples/host/soak.c, once per state,
-- on every thread): PER_STATE programs of the plan (tools/soak/run.lua),
-- picked at random, each result compared with the reference. Thread 1
-- arms a fault of a random kind now and then (core._test.fault: process-wide,
-- so it may fire in any thread); every thread now and then holds a ballast
-- array of a few MiB (with the pool's limit, memory pressure: the pool
-- empties its cache, the collector runs, allocations may fail). A program
-- may raise where its reference raised, or with an injected fault's error,
-- or "out of device memory"; anything else, and any result that differs
-- from the reference, raises here: the soak fails.
--   arguments: thread, state, plan file, seed
local tid, state, plan_path, seed = ...
tid, state, seed = math.tointeger(tid), math.tointeger(state), math.tointeger(seed)
local compare = require "difftest.compare"
local sides = require "difftest.sides"
local ga = require "gpuarray"
local core = ga._core

local PER_STATE = 10
local KINDS = { "alloc", "compile", "launch", "lib" }

local plan = dofile(plan_path)
math.randomseed(seed * 1000 + tid * 100003 + state * 7919)

local n = { programs = 0, faults_injected = 0, errors_raised = 0, errors_injected = 0, errors_out_of_memory = 0,
            errors_as_reference = 0, ballast_mib = 0 }
local ballast = {}

-- a gpuarray error an injected fault or the pool's limit explains
local function explained(err)
  if err:find("injected", 1, true) or err:find("cudaErrorLaunchFailure", 1, true) then return "errors_injected" end
  if err:find("out of device memory", 1, true) then return "errors_out_of_memory" end
end

for _ = 1, PER_STATE do
  local p = plan.programs[math.random(#plan.programs)]
  local kind, at
  if tid == 0 and math.random() < 0.3 then
    kind, at = KINDS[math.random(#KINDS)], math.random(1, 40)
    core._test.fault(kind, at)
  end
  if math.random() < 0.15 then
    local mib = math.random(1, 8)
    local ok, b = pcall(ga.empty, mib << 18, "float32")
    if ok then
      ballast[#ballast % 3 + 1] = b
      n.ballast_mib = n.ballast_mib + mib
    end
  end
  local res = sides.gpuarray(ga, p)
  if kind and core._test.fault(kind, 0) >= at then n.faults_injected = n.faults_injected + 1 end
  n.programs = n.programs + 1
  local err = res[1] and res[1].error
  if err then n.errors_raised = n.errors_raised + 1 end
  local same, why = compare.results(res, plan.refs[p.id])
  if same then
    if err then n.errors_as_reference = n.errors_as_reference + 1 end
  elseif err and explained(err) then
    local k = explained(err)
    n[k] = n[k] + 1
  else
    error(("soak: program %d (difftest seed %d, reference %s): %s"):format(p.id, p.seed, plan.reference, why), 0)
  end
end
for _, b in ipairs(ballast) do b:free() end
collectgarbage()
return n
