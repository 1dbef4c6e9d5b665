--- Start one Lua process per GPU and wait for them: the smallest launcher
-- for ga.nccl. It makes the NCCL id (this process hosts NCCL's rendezvous,
-- so it stays alive until the ranks are done), hands it to every rank
-- through the environment, prints each rank's output prefixed with its
-- rank, and fails when any rank fails.
--   lua5.4 examples/multi_gpu/launch.lua [nranks [script [args...]]]
-- nranks defaults to the number of GPUs, script to saxpy_allreduce.lua
-- beside this file. Each rank sees GA_NCCL_ID, GA_RANK (0-based) and
-- GA_NRANKS, and uses GPU GA_RANK % device_count.
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/../common.lua")
local ga = example.gpuarray({ nccl = true })

local here = arg[0]:match("^(.*)/[^/]*$") or "."
local nranks = tonumber(arg[1]) or ga.device_count()
local script = arg[2] or (here .. "/saxpy_allreduce.lua")

-- the interpreter this launcher runs under (arg's lowest index)
local lua = "lua5.4"
for i = -1, -10, -1 do
  if arg[i] == nil then break end
  lua = arg[i]
end

local extra = {}
for i = 3, #arg do extra[#extra + 1] = ("%q"):format(arg[i]) end

local id = ga.nccl.get_unique_id()
local ranks = {}
for r = 0, nranks - 1 do
  local cmd = ("GA_NCCL_ID=%s GA_RANK=%d GA_NRANKS=%d %s %s %s 2>&1"):format(id, r, nranks, lua, script,
    table.concat(extra, " "))
  ranks[r] = io.popen(cmd, "r")
end

local failed = 0
for r = 0, nranks - 1 do
  for line in ranks[r]:lines() do print(("[rank %d] %s"):format(r, line)) end
  local ok, _, code = ranks[r]:close()
  if not ok then
    failed = failed + 1
    print(("[rank %d] exited with status %s"):format(r, tostring(code)))
  end
end
if failed > 0 then
  print(("%d of %d ranks failed"):format(failed, nranks))
  os.exit(1)
end
print(("all %d ranks done"):format(nranks))
