-- A sum one call at a time against queued (the bench measures the first):
-- the host issue time (T.split_us), the queued device time and the gap
-- between them, for 2^26 and 4096 elements in bfloat16 and float32.
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 tools/probe/sum_gap.lua
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local one_us = T.one_us
for _, c in ipairs { { "bfloat16", 1 << 26 }, { "float32", 1 << 26 }, { "bfloat16", 4096 }, { "float32", 4096 } } do
  local x = ga.random.random(c[2], "float32"):astype(c[1])
  local f = function() return x:sum() end
  local iss, _, q = T.split_us(f, 20)
  local o = one_us(f)
  local nbytes = c[2] * (c[1] == "float32" and 4 or 2)
  print(("sum %-8s n=%-9d issue %5.2f us  queued %6.1f  one %6.1f  gap %5.1f  %6.0f GB/s one-call")
    :format(c[1], c[2], iss, q, o, o - q, nbytes / o / 1e3))
end
