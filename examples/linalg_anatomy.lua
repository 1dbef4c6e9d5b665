--- The anatomy of a CuPy program, in Lua: make a random 1000 x 1000 matrix
-- on the GPU, double it in place, take its SVD, and time the whole thing
-- twice, with events on the stream (the device's time) and with the host
-- clock around a synchronisation (what the caller waits), as the seed does.
--   lua5.4 examples/linalg_anatomy.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local x
local function program()
  x = ga.random.random({ 1000, 1000 }, "float32")   -- uniform [0, 1)
  x:mul_(2)                               -- x *= 2
  return ga.linalg.svd(x)
end

program()                                 -- warm up: compile kernels, create handles
ga.synchronize()

local start, stop = ga.Event(), ga.Event()
start:record()
local host0 = ga._core.runtime.now()
local U, S, Vh = program()
stop:record()
stop:synchronize()
local host_ms = (ga._core.runtime.now() - host0) * 1e3
local gpu_ms = ga.get_elapsed_time(start, stop)

local function shp(a) return "{" .. table.concat(a.shape, ", ") .. "}" end
print(("U %s, S %s, Vh %s (%s)"):format(shp(U), shp(S), shp(Vh), S.dtype))
print(("largest singular value %.4f, smallest %.6f"):format(S:item(1), S:item(1000)))
print(("GPU time (events):  %8.3f ms"):format(gpu_ms))
print(("host time (clock):  %8.3f ms"):format(host_ms))

-- checks against the CPU: the singular values are sorted and not negative,
-- and their squares add up to the sum of the squared elements of x
-- (the Frobenius norm), summed here from x's values
local s = S:totable()
for i = 2, #s do example.check(s[i] <= s[i - 1] and s[i] >= 0, "S is not sorted at %d", i) end
local fro2, sv2 = 0, 0
for _, row in ipairs(x:totable()) do
  for _, v in ipairs(row) do fro2 = fro2 + v * v end
end
for _, v in ipairs(s) do sv2 = sv2 + v * v end
example.close(sv2, fro2, 1e-4, "sum of S^2 against the sum of x^2")
-- and U diag(S) Vh gives x back
local back = ga.matmul(U * S:reshape(1, -1), Vh)
local rel = ga.linalg.norm(back - x):item() / math.sqrt(fro2)
example.check(rel < 1e-4, "U diag(S) Vh differs from x by %.3g (relative)", rel)
print("linalg_anatomy: ok")
