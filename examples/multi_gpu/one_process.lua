--- One process driving every GPU: Communicator.init_all makes one
-- communicator per device, and the collectives for all of them are queued
-- inside one ga.nccl.group, which NCCL launches together (queued one after
-- another outside a group, the first would wait for the others forever).
--   lua5.4 examples/multi_gpu/one_process.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/../common.lua")
local ga = example.gpuarray({ nccl = true })

local n = ga.device_count()
local comms = ga.nccl.Communicator.init_all(n)
local N = 1 << 20

-- a shard on each device: device d holds the values d+1
local shards = {}
for d = 0, n - 1 do
  local _ <close> = ga.Device(d):scope()
  shards[d + 1] = ga.full(N, d + 1, "float32")
end

-- every device ends with the sum 1 + 2 + ... + n
ga.nccl.group(function()
  for i, c in ipairs(comms) do c:all_reduce(shards[i], shards[i], "sum") end
end)

-- and gathers every device's rank number
local gathered = {}
ga.nccl.group(function()
  for i, c in ipairs(comms) do
    local _ <close> = ga.Device(c.device):scope()
    gathered[i] = c:all_gather(ga.full(1, c.rank, "int32"))
  end
end)

local want = n * (n + 1) / 2
for i, c in ipairs(comms) do
  local _ <close> = ga.Device(c.device):scope()
  local lo, hi = ga.min(shards[i]):item(), ga.max(shards[i]):item()
  print(("device %d (rank %d): all_reduce %g..%g (want %g), all_gather %s"):format(
    c.device, c.rank, lo, hi, want, table.concat(gathered[i]:reshape(-1):totable(), " ")))
  assert(lo == want and hi == want, "wrong sum")
  c:destroy()
end
print("ok")
