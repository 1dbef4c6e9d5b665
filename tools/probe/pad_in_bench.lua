-- Run through LUA_INIT around make bench: wraps ga.pad to print, for each
-- call, what the default pool held and had free before and after (does
-- pad's bench case grow the pool, or take chunks cached by other areas?).
--   LUA_INIT=@tools/probe/pad_in_bench.lua make bench
local ok, ga = pcall(require, "gpuarray")
if not ok or not ga.pad then return end
local pad, n = ga.pad, 0
ga.pad = function(...)
  local pool = ga.get_default_memory_pool()
  local held, free = pool:total_bytes(), pool:free_bytes()
  local r = pad(...)
  n = n + 1
  io.stderr:write(("pad call %d: held %d -> %d MiB, free %d -> %d MiB, free blocks %d\n"):format(n,
    held >> 20, pool:total_bytes() >> 20, free >> 20, pool:free_bytes() >> 20, pool:n_free_blocks()))
  return r
end
