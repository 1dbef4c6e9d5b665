--- The seeds' random lines, in Lua: module-level functions with a dtype
-- (cp.random.random(..., dtype=cp.float32)) and a Generator
-- (cp.random.default_rng(123)).
--   lua5.4 examples/random_seeds.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

-- the mean and standard deviation of a list, computed here on the CPU
local function moments(t)
  local n, sum, sq = #t, 0, 0
  for i = 1, n do sum = sum + t[i] end
  local mean = sum / n
  for i = 1, n do sq = sq + (t[i] - mean) ^ 2 end
  return mean, math.sqrt(sq / n)
end

-- cp.random.random((1000, 1000), dtype=cp.float32)
local a = ga.random.random({ 1000, 1000 }, "float32")
local amean = a:mean():item()
print(a.dtype, "{" .. table.concat(a.shape, ", ") .. "}", ("mean %.4f"):format(amean))

-- rng = cp.random.default_rng(123); rng.standard_normal(10 ** 6)
local rng = ga.random.default_rng(123)
local z = rng:standard_normal(1000000)
local zmean, zstd = z:mean():item(), z:std():item()
print(z.dtype, ("mean %.4f, std %.4f"):format(zmean, zstd))
local ints = rng:integers(0, 10, 8):totable()
print("integers", table.concat(ints, " "))

-- reproducible: the same seed, the same numbers
ga.random.seed(7)
local first = ga.random.rand(3)
ga.random.seed(7)
example.check(ga.array_equal(first, ga.random.rand(3)), "seed(7) twice gave different numbers")
print("seed(7) twice gives", tostring(first))

-- checks against the CPU: the GPU's mean and std are those of the values
-- copied back, and the values are what the distributions promise
local ha = a:reshape(-1):totable()
local cmean = moments(ha)
example.close(amean, cmean, 1e-5, "mean of random()")
for i = 1, #ha do example.check(ha[i] >= 0 and ha[i] < 1, "random() gave %.9g", ha[i]) end
example.check(math.abs(cmean - 0.5) < 0.005, "random(): mean %.5f is far from 1/2", cmean)
local cz, czstd = moments(z:totable())
example.close(zmean, cz, 1e-9, "mean of standard_normal()", 1)
example.close(zstd, czstd, 1e-9, "std of standard_normal()")
example.check(math.abs(cz) < 0.006 and math.abs(czstd - 1) < 0.005, "standard_normal(): mean %.4f, std %.4f", cz,
  czstd)
for _, v in ipairs(ints) do
  example.check(math.type(v) == "integer" and v >= 0 and v < 10, "integers(0, 10) gave %s", tostring(v))
end
print("random_seeds: ok")
