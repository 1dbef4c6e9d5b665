--- A block reduction in shared memory, written in Lua for ga.jit: each
-- block sums its 256 elements in a tree (jit.syncthreads between levels)
-- and adds its partial sum to the total with jit.atomic_add.
--   lua5.4 examples/jit_block_reduce.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()
local jit = ga.jit

local BLOCK = 256    -- a number upvalue: a constant of the kernel

local block_sum = jit.rawkernel(function(x, partial, total)
  local s = jit.shared_memory("float32", BLOCK)
  local t = jit.threadIdx.x
  local i = jit.blockIdx.x * BLOCK + t
  local v = 0.0
  if i < #x then v = x[i] end
  s[t] = v
  jit.syncthreads()
  local stride = BLOCK // 2
  while stride > 0 do
    if t < stride then s[t] = s[t] + s[t + stride] end
    jit.syncthreads()
    stride = stride // 2
  end
  if t == 0 then
    partial[jit.blockIdx.x] = s[0]
    jit.atomic_add(total, 0, s[0])
  end
end)

local n = 100000 + math.random(0, 1000)
local h = {}
for i = 1, n do h[i] = math.random(-100, 100) end    -- integers: float32 sums are exact
local x = ga.array(h, "float32")
local nblocks = (n + BLOCK - 1) // BLOCK
local partial = ga.zeros(nblocks, "float32")
local total = ga.zeros(1, "float32")
block_sum(nblocks, BLOCK, { x, partial, total })

local p = partial:totable()
local want_total = 0
for b = 1, nblocks do
  local s = 0
  for k = (b - 1) * BLOCK + 1, math.min(b * BLOCK, n) do s = s + h[k] end
  assert(p[b] == s, ("block %d: %s, expected %s"):format(b, p[b], s))
  want_total = want_total + s
end
print(("%d blocks of %d: every partial sum equals the Lua sum"):format(nblocks, BLOCK))
assert(total:item(1) == want_total, ("total %s, expected %s"):format(total:item(1), want_total))
print(("total (atomic_add of the partial sums) = %d, as in Lua; ga.sum agrees: %s"):format(want_total,
  tostring(x:sum():item() == want_total)))
print("jit_block_reduce: ok")
