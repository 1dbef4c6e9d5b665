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
-- the core's C maker behind ga.empty (this tree wraps it in Lua: the
-- upvalue C of basic.lua's call; .base's ga.empty is the C function)
local c_empty = ga.empty
if debug.getinfo(ga.empty, "S").what ~= "C" then
  local _, call = debug.getupvalue(ga.empty, 4)
  for i = 1, 16 do
    local n, v = debug.getupvalue(call, i)
    if n == "C" then c_empty = v.empty end
  end
end
local shape1 = { 1 }
cases[#cases + 1] = { "C_empty", function() return c_empty(shape1, "float32") end }
local res = {}
for _, c in ipairs(cases) do res[#res + 1] = ('"%s": %.4f'):format(c[1], T.host_us(c[2], 20000, 200)) end
-- making arrays with the collector stopped, then collecting them: the
-- making and the finalizers apart
local now = T.now
collectgarbage()
collectgarbage("stop")
local t0 = now()
for _ = 1, 20000 do c_empty(shape1, "float32") end
local t1 = now()
collectgarbage()
local t2 = now()
collectgarbage("restart")
res[#res + 1] = ('"make_nogc": %.4f'):format((t1 - t0) / 20000 * 1e6)
res[#res + 1] = ('"collect_each": %.4f'):format((t2 - t1) / 20000 * 1e6)
print("{" .. table.concat(res, ", ") .. "}")
