--- SAXPY (out = a * x + y) written in Lua and translated to CUDA by ga.jit.
-- The Lua number a is a weak scalar (NumPy 2's rule): with float32 arrays
-- the arithmetic is float32, as the raw-CUDA examples/saxpy.lua writes it.
--   lua5.4 examples/jit_saxpy.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()
local jit = ga.jit

local saxpy = jit.rawkernel(function(a, x, y, out, n)
  local i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
  if i < n then
    out[i] = a * x[i] + y[i]
  end
end, { name = "saxpy" })

local n = 1000000
local hx, hy = {}, {}
for i = 1, n do
  hx[i] = math.random() * 2 - 1
  hy[i] = math.random() * 2 - 1
end
local x = ga.array(hx, "float32")
local y = ga.array(hy, "float32")
local a = 2.5

local function f32(v) return (string.unpack("<f", string.pack("<f", v))) end
local function check(out, how)
  local t = out:totable()
  local worst = 0
  for i = 1, n do
    local err = math.abs(t[i] - f32(a * f32(hx[i]) + f32(hy[i])))
    if err > worst then worst = err end
  end
  print(("saxpy (%s) of %d elements: largest difference from the host %.3g"):format(how, n, worst))
  assert(worst <= 1e-6, "saxpy differs from the host")
end

local block = 256
local out = ga.empty(n, "float32")
saxpy((n + block - 1) // block, block, { a, x, y, out, n })                 -- integers
check(out, "grid and block as integers")
local out2 = ga.empty(n, "float32")
saxpy({ (n + block - 1) // block }, { block, 1, 1 }, { a, x, y, out2, n })  -- lists
check(out2, "grid and block as lists")

local src = saxpy:source(a, x, y, out, n)
print(src:sub((src:find("extern \"C\"", 1, true))))
print("jit_saxpy: ok")
