-- pad_reflect's bench time depends on what the process did before: in
-- make bench (every area before it) 2418 GB/s, in a run of the copy and
-- manipulation areas alone about 1000. This probe replays the second:
-- 640 MiB of arrays made and dropped (the copy area's x, z, z16), then
-- pad's 21 calls as bench/run.lua times them, each call's event time
-- printed with the pool's bytes in use and held after it
local ga = require "gpuarray"
local s, p = 4096, 32
local pool = ga.get_default_memory_pool()
local mode = arg[1] or "garbage"
if mode == "garbage" then
  local x, z, z16 = ga.empty(1 << 26, "float32"), ga.empty(1 << 26, "float32"), ga.empty(1 << 26, "float16")
  x:fill(1); z:fill(1); z16:fill(1)
  x, z, z16 = nil, nil, nil   -- garbage, not yet collected
  assert(x == nil and z == nil and z16 == nil)
end
local A = ga.random.random({ s, s }, "float32")
local bytes = 4 * (s * s + (s + 2 * p) ^ 2)
local e0, e1 = ga.Event(), ga.Event()
local t = {}
for i = 1, 21 do
  e0:record()
  ga.pad(A, p, "reflect")   -- the result dropped at once, as the bench's
  e1:record(); e1:synchronize()
  local ms = ga.get_elapsed_time(e0, e1)
  t[i] = ms
  print(("%s call %2d  %7.1f us  %7.1f GB/s  used %5.0f MiB  held %5.0f MiB"):format(mode, i, ms * 1e3,
    bytes / ms / 1e6, pool:used_bytes() / 2 ^ 20, pool:total_bytes() / 2 ^ 20))
end
table.sort(t)
print(("%s median %.1f GB/s"):format(mode, bytes / t[11] / 1e6))
