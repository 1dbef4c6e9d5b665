--- ga.fuse: a Lua function of arrays becomes one kernel. softplus
-- log1p(exp(x)) and tanh(sin(x) + 0.1 * x) run eagerly (one kernel per
-- operation, an array per intermediate) and fused (one kernel), and give
-- the same dtype, shape and bits.
--   lua5.4 examples/fuse_softplus.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local function softplus(x) return ga.log1p(ga.exp(x)) end
local function chain(x) return ga.tanh(ga.sin(x) + 0.1 * x) end
local fused_softplus = ga.fuse(softplus, { name = "softplus" })
local fused_chain = ga.fuse(chain, { name = "chain" })

local n = 1 << 18
local h = {}
for i = 1, n do h[i] = math.random() * 8 - 4 end
local x64 = ga.array(h, "float64")
for _, dt in ipairs { "float32", "float64", "float16" } do
  local x = x64:astype(dt)
  local cases = { { "softplus", softplus, fused_softplus }, { "tanh(sin(x) + 0.1 * x)", chain, fused_chain } }
  for _, case in ipairs(cases) do
    local eager, fused = case[2](x), case[3](x)
    assert(eager.dtype == fused.dtype and eager.dtype == dt, "dtype")
    assert(#eager.shape == 1 and fused.shape[1] == n, "shape")
    local same = eager:tobytes() == fused:tobytes()
    local diff = ga.abs(eager:astype("float64") - fused:astype("float64")):max():item()
    print(("%-24s %-8s eager %s == fused %s: %s (largest difference %g)"):format(case[1], dt, eager.dtype,
      fused.dtype, same and "bit for bit" or "not bit for bit", diff))
    -- results are in [-1, 5]: an ulp of the dtype is the most fusion may change
    local ulp = ({ float16 = 2 ^ -10, float32 = 2 ^ -23, float64 = 2 ^ -52 })[dt] * 8
    assert(diff <= ulp, case[1] .. " " .. dt .. ": fused differs from eager")
  end
end

-- a fused reduction: the root of the sum of squares, one reduction kernel
local norm = ga.fuse(function(x) return ga.sqrt(ga.sum(x * x)) end)
local x = x64:astype("float32")
local a, b = norm(x):item(), ga.sqrt(ga.sum(x * x)):item()
print(("sqrt(sum(x * x)): fused %.9g, eager %.9g (%s)"):format(a, b, a == b and "the same bits" or "different bits"))
assert(math.abs(a - b) <= 1e-6 * math.abs(b), "the fused reduction differs")

-- against the CPU: both functions in double precision on the host values,
-- to the float32 result's precision
local got1, got2 = fused_softplus(x):totable(), fused_chain(x):totable()
local hx = x:totable()
local want1, want2 = {}, {}
for i = 1, n do
  want1[i] = math.log(1 + math.exp(hx[i]))
  local u = math.sin(hx[i]) + 0.1 * hx[i]
  want2[i] = (math.exp(2 * u) - 1) / (math.exp(2 * u) + 1)
end
example.close(got1, want1, 1e-6, "float32 softplus against the CPU", 1e-3)
example.close(got2, want2, 1e-6, "float32 tanh(sin(x) + 0.1 * x) against the CPU", 1)
local sq = 0
for i = 1, n do sq = sq + hx[i] * hx[i] end
example.close(a, math.sqrt(sq), 1e-5, "sqrt(sum(x * x)) against the CPU")
print("fuse_softplus: ok")
