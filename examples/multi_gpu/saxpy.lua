--- Data-parallel SAXPY across processes, one GPU each, started by the
-- launcher you already use:
--   mpirun -np 2 lua5.4 examples/multi_gpu/saxpy.lua
--   srun -n 2 --gpus-per-task=1 lua5.4 examples/multi_gpu/saxpy.lua --store=file:$HOME/.ga-store
--   torchrun --nproc-per-node=2 --no-python lua5.4 examples/multi_gpu/saxpy.lua --store=file:/tmp/ga
--   lua5.4 examples/multi_gpu/saxpy.lua            (one process: a world of one)
-- Rank r computes z = a*x + y on its slice of a vector of N elements
-- (N split evenly), and an all-reduce sums each rank's partial sum of z;
-- rank 0 prints the total and the number it must equal, which does not
-- depend on how many ranks shared the work.
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/../common.lua")
local ga = example.gpuarray({ nccl = true })   -- the examples' rule: skipped without a device

local store = (arg[1] or ""):match("^%-%-store=(.+)$")
local D = ga.distributed
D.init({ store = store, timeout = 120 })
local rank, size = D.rank(), D.size()

local N, a = 1 << 24, 2.5
if N % size ~= 0 then error(("N = %d is not a multiple of the %d ranks"):format(N, size)) end
local n = N // size
local first = rank * n   -- 0-based index of this rank's first element

-- x[i] = sin(0.001 i), y[i] = cos(0.002 i) for the global index i
local i = ga.arange(first, first + n, 1, "float64")
local x, y = ga.sin(i * 0.001), ga.cos(i * 0.002)
local z = a * x + y
local partial = ga.asarray({ ga.sum(z):item() }, "float64")
D.all_reduce(partial)                          -- in place: every rank has the total
local total = partial:totable()[1]

if rank == 0 then
  print(("saxpy: ranks %d N %d sum(a*x+y) = %.12e"):format(size, N, total))
end
D.finalize()
