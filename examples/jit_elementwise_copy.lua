--- CuPy's first cupyx.jit example as a Lua jit kernel: a grid-stride copy.
-- The kernel is plain Lua; ga.jit.rawkernel translates it to CUDA for the
-- types of the arguments it is launched with (float32 arrays and a Lua
-- integer here, then a typed uint32 size: two signatures, two compiles).
--   lua5.4 examples/jit_elementwise_copy.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()
local jit = ga.jit

local elementwise_copy = jit.rawkernel(function(x, y, size)
  local tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  local ntid = jit.gridDim.x * jit.blockDim.x
  for i = tid, size - 1, ntid do
    y[i] = x[i]
  end
end)

local size = 1 << 22
-- values that differ everywhere: a ramp plus a random offset per period
local period = {}
for i = 1, 4096 do period[i] = math.random() * 2 - 1 end
local x = ga.arange(size, "float32") * 1e-3 + ga.tile(ga.array(period, "float32"), size // 4096)
local y = ga.empty(size, "float32")

-- grid and block as integers
elementwise_copy(128, 1024, { x, y, size })
assert(ga.array_equal(x, y), "the copy differs (integer launch)")
print(("elementwise_copy, grid 128, block 1024, %d float32 elements: y == x"):format(size))

-- grid and block as lists, and the size as a typed uint32
local z = ga.zeros(size, "float32")
elementwise_copy({ 128, 1, 1 }, { 1024 }, { x, z, ga.uint32(size) })
assert(ga.array_equal(x, z), "the copy differs (list launch)")
print("elementwise_copy, grid {128, 1, 1}, block {1024}, size as uint32: z == x")

-- on the host, byte for byte: the copies hold exactly the input's values
local bytes = x:tobytes()
example.check(y:tobytes() == bytes and z:tobytes() == bytes, "a copy differs from x on the host")

-- what was generated for the first launch
local src = elementwise_copy:source(x, y, size)
print(src:sub((src:find("extern \"C\"", 1, true))))
print("jit_elementwise_copy: ok")
