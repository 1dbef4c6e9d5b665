--- Statistics for the random specs: sample moments with their standard
-- errors, and the Kolmogorov-Smirnov statistic against the uniform or the
-- standard normal CDF, from a histogram of CDF values made on the device
-- (65536 bins: the statistic at the bin edges, within 2^-16 of the exact
-- one, far below the critical values used).
local ga = require("helper").ga

local S = {}

--- mean, variance, and the standard error of the variance (from the
-- sample's fourth moment), as Lua numbers
function S.moments(x)
  local xf = x.dtype == "float32" and x or x:astype("float64")
  local m = xf:mean():item()
  local v = xf:var():item()
  local d = xf - m
  local q = (d * d):var():item()
  return m, v, math.sqrt(q / x.size)
end

--- Raise unless the mean and variance are within 4 standard errors of the
-- true ones
function S.check_moments(x, mean, var, what)
  local n = x.size
  local m, v, se_v = S.moments(x)
  local se_m = math.sqrt(var / n)
  assert(math.abs(m - mean) <= 4 * se_m,
         ("%s: mean %.6g, expected %.6g (4 SE = %.3g)"):format(what, m, mean, 4 * se_m))
  assert(math.abs(v - var) <= 4 * se_v,
         ("%s: variance %.6g, expected %.6g (4 SE = %.3g)"):format(what, v, var, 4 * se_v))
end

local BINS = 65536
local SRC = [[
extern "C" __global__ void ks_hist_T(const T *x, long long n, unsigned *h, int normal) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    double u = (double)x[i];
    if (normal) u = normcdf(u);
    long long b = (long long)(u * BINS);
    if (b < 0) b = 0;
    if (b >= BINS) b = BINS - 1;
    atomicAdd(h + b, 1u);
  }
}
]]
local kernels = {}
local function kernel(dt)
  if not kernels[dt] then
    local ct = dt == "float32" and "float" or "double"
    local src = SRC:gsub("ks_hist_T", "ks_hist_" .. dt):gsub("const T", "const " .. ct):gsub("BINS", tostring(BINS))
    kernels[dt] = ga.RawKernel(src, "ks_hist_" .. dt)
  end
  return kernels[dt]
end

--- The KS statistic of x against U(0, 1) ("uniform") or N(0, 1) ("normal")
function S.ks(x, dist)
  local h = ga.zeros(BINS, "uint32")
  kernel(x.dtype)(1024, 256, { x, x.size, h, dist == "normal" and 1 or 0 })
  local counts = h:totable()
  local n, c, d = x.size, 0, 0
  for j = 1, BINS do
    c = c + counts[j]
    d = math.max(d, math.abs(c / n - j / BINS))
  end
  return d
end

--- The 1% critical value of the KS statistic for n samples
function S.ks_critical(n)
  return 1.628 / math.sqrt(n)
end

--- Raise unless the KS statistic of draw() against dist is below the 1%
-- critical value. A perfect generator exceeds it once in 100 samples, and
-- the distributions spec makes 12 such tests a run, so one excess draws a
-- second, independent sample and only two in a row fail (1e-4 each for a
-- perfect generator; a biased one exceeds it every time). On the H200
-- sqrt(n) D averaged 0.83 over 240 samples (Kolmogorov's mean: 0.87).
function S.check_ks(draw, dist, what)
  local x = draw()
  local crit = S.ks_critical(x.size)
  local d = S.ks(x, dist)
  if d < crit then return end
  local d2 = S.ks(draw(), dist)
  assert(d2 < crit, ("%s: D = %g, then %g on a fresh sample, >= %g"):format(what, d, d2, crit))
end

return S
