--- SAXPY (out = a * x + y) with a raw kernel. The scalar a is a plain Lua
-- number: gpuarray reads the kernel's signature and passes it as the float
-- the kernel declares (and n as a size_t), no ga.float32(...) wrapping.
--   lua5.4 examples/saxpy.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local saxpy = ga.RawKernel([[
extern "C" __global__ void saxpy(float a, const float* __restrict__ x,
                                 const float* __restrict__ y, float* __restrict__ out,
                                 size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
]], "saxpy")

local n = 1000000
local hx, hy = {}, {}
for i = 1, n do
  hx[i] = math.random() * 2 - 1
  hy[i] = math.random() * 2 - 1
end
local x = ga.array(hx, "float32")
local y = ga.array(hy, "float32")
local out = ga.empty(n, "float32")

local a = 2.5
local block = 256
saxpy((n + block - 1) // block, block, { a, x, y, out, n })

for i, p in ipairs(saxpy.params) do
  print(("parameter %d: %-14s %-4s -> %s"):format(i, p.type, p.name, p.dtype or p.kind))
end

-- check against float32 arithmetic on the host
local function f32(v) return (string.unpack("<f", string.pack("<f", v))) end
local t = out:totable()
local worst = 0
for i = 1, n do
  local ref = f32(a * f32(hx[i]) + f32(hy[i]))
  local err = math.abs(t[i] - ref)
  if err > worst then worst = err end
end
print(("saxpy of %d elements: largest difference from the host %.3g"):format(n, worst))
assert(worst <= 1e-6, "saxpy differs from the host")
print("saxpy: ok")
