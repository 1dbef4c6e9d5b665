-- Where chain_eager's time goes with lazy evaluation on: the chain recorded
-- and evaluated each iteration against the same chain through ga.fuse, one
-- call at a time (events: as the bench) and queued back to back; the
-- host's share (record, evaluate, launch); the launch shape of the kernel
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
ga.set_lazy(true)
local N = 1 << 26
local x = ga.random.random(N, "float32")
local chain = ga.fuse(function(a) return ga.tanh(ga.sin(a) + 0.1 * a) end, { name = "probe_chain" })
local function eager() ga.tanh(ga.sin(x) + 0.1 * x):eval() end
local function fused() chain(x) end
for _, c in ipairs({ { "eager(lazy)", eager }, { "fused", fused } }) do
  local issue, done, dev = T.split_us(c[2], 20)
  print(("%-12s host-issue %8.2f us  host-done %8.2f us  device %8.2f us/call"):format(c[1], issue, done, dev))
end
-- the same with the collector stopped (its steps for the 256 MiB results
-- land in these calls), and what the pool held before and after
local pool = ga.get_default_memory_pool()
local held = pool:total_bytes()
collectgarbage("stop")
for _, c in ipairs({ { "eager, no gc", eager }, { "fused, no gc", fused } }) do
  local issue, done, dev = T.split_us(c[2], 20)
  print(("%-12s host-issue %8.2f us  host-done %8.2f us  device %8.2f us/call"):format(c[1], issue, done, dev))
end
collectgarbage("restart")
collectgarbage()
print(("pool held %d MiB, after the runs without the collector %d MiB"):format(held >> 20, pool:total_bytes() >> 20))
print(("%-12s %8.2f us"):format("big record", T.host_us(function() return ga.tanh(ga.sin(x) + 0.1 * x) end, 3000)))
local sx = x[{ { 1, 4096 } }]
print(("%-12s %8.2f us"):format("small eager", T.host_us(function() ga.tanh(ga.sin(sx) + 0.1 * sx):eval() end, 3000)))
print(("%-12s %8.2f us"):format("small record", T.host_us(function() return ga.tanh(ga.sin(sx) + 0.1 * sx) end, 3000)))
local p = ga.tanh(ga.sin(x) + 0.1 * x)
local src = ga.get_lazy_source(p) or "(not pending)"
print("lazy kernel:", src:match("__global__ void[^\n]*"), "vec:", src:match("ga_vec<float, (%d+)>"))
p:eval()
for _ = 1, 3 do eager() end
for _ = 1, 3 do fused() end
ga.synchronize()
