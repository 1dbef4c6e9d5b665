-- host time of an op whose 4 MiB result is dropped at once (allocation
-- churn: the pool and the collector's pace), against out= and a stopped
-- collector
package.path = "tools/probe/?.lua;./?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local n = 1 << 20
local w = ga.random.random(n, "float32")
local o = ga.empty(n, "float32")
local function show(name, f)
  local h, t = T.split_us(f, 200)
  print(("%-28s host %7.2f us  with sync %7.2f us"):format(name, h, t))
end
show("subtract (new result)", function() return ga.subtract(w, w) end)
show("subtract out=", function() return ga.subtract(w, w, o) end)
show("empty 4 MiB", function() return ga.empty(n, "float32") end)
show("empty 4 B", function() return ga.empty(1, "float32") end)
collectgarbage("stop")
show("subtract (new), gc stopped", function() return ga.subtract(w, w) end)
show("empty 4 MiB, gc stopped", function() return ga.empty(n, "float32") end)
collectgarbage("restart")
local t = T.now(); collectgarbage(); print(("full collect %.1f us, heap %.0f KiB"):format((T.now() - t) * 1e6,
  collectgarbage("count")))
print("pool", ga.get_default_memory_pool():used_bytes(), ga.get_default_memory_pool():total_bytes())
