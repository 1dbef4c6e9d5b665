--- Distributed conjugate gradients, one GPU per process: A x = b for the
-- 1-D Laplacian (2 on the diagonal, -1 beside it) of N unknowns, its rows
-- split evenly over the ranks. Each step gathers the search direction
-- (all_gather: A p needs its neighbours' entries) and sums the two dot
-- products over the ranks (all_reduce), so every rank takes the same step.
-- Start it as saxpy.lua is (mpirun, srun, torchrun, or alone); rank 0
-- prints the iterations, the residual and a checksum of x, which match a
-- one-process run to rounding.
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/../common.lua")
local ga = example.gpuarray({ nccl = true })   -- the examples' rule: skipped without a device

local store = (arg[1] or ""):match("^%-%-store=(.+)$")
local D = ga.distributed
D.init({ store = store, timeout = 120 })
local rank, size = D.rank(), D.size()

local N = 1 << 10
local steps = 4 * N
if N % size ~= 0 then error(("N = %d is not a multiple of the %d ranks"):format(N, size)) end
local n = N // size
local lo = rank * n + 1           -- this rank's rows, 1-based: lo .. lo + n - 1

local function dot(u, v)          -- over every rank
  local s = ga.asarray({ ga.sum(u * v):item() }, "float64")
  return D.all_reduce(s):totable()[1]
end

-- A p on this rank's rows, from the whole p (gathered)
local function apply(p_local)
  local p = D.all_gather(p_local):reshape({ N })
  local padded = ga.concatenate({ ga.zeros({ 1 }, "float64"), p, ga.zeros({ 1 }, "float64") })
  local mid = padded[{ { lo + 1, lo + n } }]
  local left = padded[{ { lo, lo + n - 1 } }]
  local right = padded[{ { lo + 2, lo + n + 1 } }]
  return 2 * mid - left - right
end

local g = ga.arange(lo, lo + n, 1, "float64")
local b = ga.sin(g * (3.0 / N)) + 1                -- the right-hand side, by global row
local x = ga.zeros({ n }, "float64")
local r = b:copy()
local p = r:copy()
local rr = dot(r, r)
local k = 0
local tol = 1e-9 * math.sqrt(rr)
while k < steps and math.sqrt(rr) > tol do
  local ap = apply(p)
  local alpha = rr / dot(p, ap)
  x = x + alpha * p
  r = r - alpha * ap
  local rr_new = dot(r, r)
  p = r + (rr_new / rr) * p
  rr = rr_new
  k = k + 1
end
local checksum = dot(x, ga.ones({ n }, "float64"))
if rank == 0 then
  print(("cg: ranks %d N %d iterations %d residual %.3e checksum %.12e"):format(size, N, k, math.sqrt(rr), checksum))
end
D.finalize()
