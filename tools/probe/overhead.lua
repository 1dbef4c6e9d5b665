-- host time per call of small ops, for A/B runs of two trees (the tree in
-- .base runs a copy): PAD_KB=n first grows the Lua heap by about n KiB,
-- GC_GEN=1 switches the collector to generational mode
local pad = {}   -- luacheck: ignore 241 (kept alive only to enlarge the heap)
for i = 1, tonumber(os.getenv("PAD_KB") or "0") * 16 do pad[i] = { i } end   -- ~64 B each
if os.getenv("GC_GEN") then collectgarbage("generational") end
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local function us(f, n) return T.host_us(f, n, 200) end
local a1, b1 = ga.ones(1, "float32"), ga.ones(1, "float32")
local o1 = ga.empty(1, "float32")
local cases = {
  { "empty1", function() return ga.empty(1, "float32") end },
  { "empty0d", function() return ga.empty({}, "float32") end },
  { "add", function() return a1 + b1 end },
  { "add_out", function() return ga.add(a1, b1, o1) end },
  { "ufunc_add", function() return ga.add(a1, b1) end },
  { "sum", function() return a1:sum() end },
  { "sum_out", function() return ga.sum(a1, nil, nil, ga.empty({}, "float32")) end },
  { "index_sum_lookup", function() return a1.sum end },
}
local heap = collectgarbage("count")
for _, mode in ipairs { "default" } do
  if mode == "stopped" then collectgarbage("stop") end
  for _, c in ipairs(cases) do
    local ok, v = pcall(us, c[2], 5000)
    print(("%-8s %-18s %s"):format(mode, c[1], ok and ("%.3f us"):format(v) or tostring(v)))
  end
  collectgarbage("restart")
  collectgarbage()
end
print(("lua heap %.0f KiB"):format(heap))
