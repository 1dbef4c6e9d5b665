--- A 100-step update loop captured once as a CUDA graph and replayed. Each
-- step is two tiny ufuncs (b = a * 1.0001; a = b + 1e-4): launched eagerly,
-- the host spends a few microseconds on each one; replayed, the whole loop
-- is one cudaGraphLaunch. The graph reads and writes a and b at replay time,
-- so it continues from whatever the arrays hold, here after a reset.
--   lua5.4 examples/graph_loop.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local n = 1024
local a = ga.ones(n, "float32")
local b = ga.empty_like(a)

-- one step of the update: two ufuncs writing into existing arrays
local function step()
  ga.multiply(a, 1.0001, { out = b })
  ga.add(b, 1e-4, { out = a })
end

local function hundred()          -- 50 steps: 100 operations
  for _ = 1, 50 do step() end
end

-- eager: run the loop 20 times
local now = ga._core.runtime.now
hundred()                         -- compile the two kernels
a:set(ga.ones(n, "float32"))
ga.synchronize()
local t = now()
for _ = 1, 20 do hundred() end
ga.synchronize()
local eager_us = (now() - t) / 20 * 1e6
local eager = a:totable()

-- graph: capture the loop once (nothing runs while capturing), then replay it
a:set(ga.ones(n, "float32"))
local g = ga.graph.capture(hundred)
print(("captured %s"):format(tostring(g)))
ga.synchronize()
t = now()
for _ = 1, 20 do g:launch() end
ga.synchronize()
local graph_us = (now() - t) / 20 * 1e6
local replayed = a:totable()

local worst = 0
for i = 1, n do worst = math.max(worst, math.abs(eager[i] - replayed[i])) end
print(("a[1] after 20 x 100 steps: eager %.7f, graph %.7f, largest difference %g"):format(
  eager[1], replayed[1], worst))
print(("per 100-step loop: eager %.1f us, graph replay %.1f us"):format(eager_us, graph_us))
example.check(worst == 0, "graph replay differs from eager execution by %g", worst)

-- the CPU reference: the same 1000 steps on one float32 value (a starts at 1)
local f32, v = example.f32, 1
for _ = 1, 20 * 50 do v = f32(f32(f32(v * f32(1.0001)) + f32(1e-4))) end
example.close(replayed[1], v, 1e-5, "a[1] after 1000 steps")
example.check(ga.all(a:eq(replayed[1])):item(), "every element of a should hold the same value")
g:destroy()
print("graph_loop: ok")
