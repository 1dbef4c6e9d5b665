--- Monte Carlo estimate of pi: points uniform in the unit square, the
-- fraction inside the quarter circle, one reduction. Counter-based random
-- numbers: the same seed gives the same estimate on every run and device.
--   lua5.4 examples/monte_carlo_pi.lua
local ga = require "gpuarray"

local n = 1 << 26
local rng = ga.random.default_rng(2024)
local x = rng:random(n, "float32")
local y = rng:random(n, "float32")
local inside = ga.count_nonzero((x * x + y * y):le(1)):item()
local pi = 4 * inside / n
print(("pi ~ %.6f from %d points (error %.1e; one standard error is %.1e)"):format(
  pi, n, math.abs(pi - math.pi), 4 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / n)))
