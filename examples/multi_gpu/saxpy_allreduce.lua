--- One rank of a data-parallel SAXPY: every rank computes z = a*x + y on
-- its own data, then an all-reduce sums the ranks' z, so every rank ends
-- with the same total. Each rank checks it against the sum it computes
-- itself from every rank's (deterministic) inputs. Started by launch.lua:
--   lua5.4 examples/multi_gpu/launch.lua 2
-- Run alone (no GA_RANK), it is a world of one rank.
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/../common.lua")
local ga = example.gpuarray({ nccl = true })

local rank = tonumber(os.getenv("GA_RANK")) or 0
local nranks = tonumber(os.getenv("GA_NRANKS")) or 1
local id = os.getenv("GA_NCCL_ID") or ga.nccl.get_unique_id()
ga.Device(rank % ga.device_count()):use()

local N = 1 << 24
local a = 2.5
local idx = ga.arange(N, "float32")

-- rank k's inputs, the same on whichever rank computes them
local function inputs(k)
  return ga.sin(idx * (0.001 * (k + 1))), ga.cos(idx * (0.002 * (k + 1)))
end

local comm = ga.nccl.Communicator(nranks, id, rank)
local x, y = inputs(rank)
local z = a * x + y                     -- this rank's share of the work
comm:all_reduce(z, z, "sum")            -- in place: every rank now holds the total

local want = ga.zeros(N, "float32")
for k = 0, nranks - 1 do
  local xk, yk = inputs(k)
  want = want + (a * xk + yk)
end
local err = ga.max(ga.abs(z - want)):item()
print(("rank %d of %d on device %d: max |error| = %.3g"):format(rank, nranks, comm.device, err))
comm:destroy()
if err > 1e-4 * nranks then
  print("wrong total")
  os.exit(1)
end
print(("rank %d: ok"):format(rank))
