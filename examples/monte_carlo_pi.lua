--- Monte Carlo estimate of pi: points uniform in the unit square, the
-- fraction inside the quarter circle, one reduction. Counter-based random
-- numbers: the same seed gives the same estimate on every run and device.
--   lua5.4 examples/monte_carlo_pi.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local n = 1 << 26
local rng = ga.random.default_rng(2024)
local x = rng:random(n, "float32")
local y = rng:random(n, "float32")
local inside = ga.count_nonzero((x * x + y * y):le(1)):item()
local pi = 4 * inside / n
local se = 4 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / n)
print(("pi ~ %.6f from %d points (error %.1e; one standard error is %.1e)"):format(
  pi, n, math.abs(pi - math.pi), se))

-- checks: the estimate is within 6 standard errors, and the GPU's count of
-- the first 2^16 points is the CPU's count of the same points (the sum of
-- squares may round either way right at the circle: a point or two)
example.check(math.abs(pi - math.pi) < 6 * se, "pi ~ %.6f is %.1f standard errors off", pi,
  math.abs(pi - math.pi) / se)
local m = 1 << 16
local hx, hy = x[{ { 1, m } }]:totable(), y[{ { 1, m } }]:totable()
local cpu = 0
for i = 1, m do
  if hx[i] * hx[i] + hy[i] * hy[i] <= 1 then cpu = cpu + 1 end
end
local gpu = ga.count_nonzero((x[{ { 1, m } }] ^ 2 + y[{ { 1, m } }] ^ 2):le(1)):item()
example.check(math.abs(gpu - cpu) <= 2, "the first %d points: %d inside on the GPU, %d on the CPU", m, gpu, cpu)
print("monte_carlo_pi: ok")
