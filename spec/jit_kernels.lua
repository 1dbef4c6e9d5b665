--- Kernels written as Lua functions that several jit specs translate or
-- launch (the seeds' saxpy and elementwise_copy, a shared-memory block sum).
-- ga.jit reads their source from this file.
local jit = require("gpuarray").jit

local function saxpy(a, x, y, out, n)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  if i < n then
    out[i] = a * x[i] + y[i]
  end
end

local function elementwise_copy(x, y, size)
  local tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  local ntid = jit.gridDim.x * jit.blockDim.x
  for i = tid, size - 1, ntid do
    y[i] = x[i]
  end
end

local BLOCK = 256
local function block_sums(x, sums)
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
  if t == 0 then sums[jit.blockIdx.x] = s[0] end
end

return { saxpy = saxpy, elementwise_copy = elementwise_copy, block_sums = block_sums, BLOCK = BLOCK }
