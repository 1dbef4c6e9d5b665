-- The pieces of a tiny operation's host time, for tools/probe/ab_host.sh's
-- OPS mode: the same script runs against this tree and .base (timing.lua
-- finds either tree's clock), each piece timed as bench/run.lua's host_us
-- (20000 calls, then a synchronize), printed as one JSON object
package.path = "../tools/probe/?.lua;tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local core = ga._core
local T = require "timing"
local empty_launch = (core._test and core._test.launch_empty) or core._launch_empty
local a1, b1, c1 = ga.ones(1, "float32"), ga.ones(1, "float32"), ga.empty(1, "float32")
local out = { out = c1 }
local cases = {
  { "launch_empty", empty_launch },
  { "empty_1", function() return ga.empty({ 1 }, "float32") end },
  { "add_op", function() return a1 + b1 end },
  { "add_call", function() return ga.add(a1, b1) end },
  { "add_out", function() return ga.add(a1, b1, out) end },
  { "mul_scalar", function() return a1 * 2.0 end },
  { "sum", function() return a1:sum() end },
  { "shape", function() return a1.shape end },
}
local res = {}
for _, c in ipairs(cases) do res[#res + 1] = ('"%s": %.4f'):format(c[1], T.host_us(c[2], 20000, 200)) end
print("{" .. table.concat(res, ", ") .. "}")
