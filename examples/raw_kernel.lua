--- A raw CUDA kernel from Lua: the my_add kernel of CuPy's RawKernel
-- documentation, compiled at run time by NVRTC and launched on 5 blocks of
-- 5 threads. The kernel's pointers take ndarrays.
--   lua5.4 examples/raw_kernel.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local add_kernel = ga.RawKernel([[
extern "C" __global__
void my_add(const float* x1, const float* x2, float* y) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + x2[tid];
}
]], "my_add")

local x1 = ga.arange(25, "float32"):reshape(5, 5)
local x2 = ga.arange(25, "float32"):reshape(5, 5)
local y = ga.zeros({ 5, 5 }, "float32")
add_kernel(5, 5, { x1, x2, y })    -- grid, block, arguments
print(y)

-- the same on the host, to check
local t = y:totable()
for i = 1, 5 do
  for j = 1, 5 do
    local v = (i - 1) * 5 + (j - 1)
    assert(t[i][j] == 2 * v, ("y[%d][%d] = %s, expected %s"):format(i, j, t[i][j], 2 * v))
  end
end
print("my_add: ok")
