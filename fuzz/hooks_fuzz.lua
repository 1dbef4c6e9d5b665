-- luacheck: ignore 212 (unused arguments: every hook has the same signature)
--- The core test hooks that generate code or touch caches (reachable from
-- Lua like the rest): reduction, scan, mask, copy and gather sources, axis
-- merging and reduction axes, hashing, the disk cache (in a scratch
-- directory), and now and then an NVRTC compile with random options.
local internal = require("gpuarray.internal")
local dir = os.tmpname()
os.remove(dir)

local HOOKS = {
  function(F)
    local fn = F.pick({ internal.reductions.sum, internal.reductions.max, print })
    return F.core._test.reduction_source(fn, F.any(0), F.any(1), F.any(1))
  end,
  function(F) return F.core._test.scan_source(F.pick({ "cumsum", "cumprod", F.word() }), F.any(0), F.any(0), F.any(0),
    F.int(), F.any(0), F.any(0), F.any(0)) end,
  function(F) return F.core._test.mask_source(F.any(0), F.any(0), F.any(0), F.int(), F.any(0), F.any(0), F.any(0)) end,
  function(F) return F.core._test.copy_wrapper(F.any(0), F.any(0), F.any(0), F.any(0), F.int(), F.int(), F.any(0)) end,
  function(F)
    return F.core._test.gather_wrapper(F.any(0), F.any(0), F.any(0), F.any(0), F.any(0), F.int(), F.int(), F.any(0))
  end,
  function(F)
    local s = F.shape(false)
    local st = {}
    for d = 1, #s do st[d] = F.chance(0.8) and 8 * math.random(-3, 3) or F.int() end
    return F.core._test.merge_axes(s, st, F.chance(0.5) and st or F.any(1))
  end,
  function(F) return F.core._test.reduce_axes(F.int(), F.any(1)) end,
  function(F) return F.core._test.hash(F.any(0)) end,
  function(F)
    local function name() return F.chance(0.9) and F.word() or F.any(0) end
    local names = F.chance(0.7) and F.args(math.random(0, 3), name) or F.any(1)
    if type(names) == "table" then names.n = nil end
    F.core._test.disk_cache_write(dir, F.word(), F.chance(0.9) and ("x"):rep(math.random(0, 3000)) or F.any(0), names)
    return F.core._test.disk_cache_read(dir, F.word())
  end,
  function(F)
    if not F.chance(0.02) then return end     -- NVRTC is slow: rarely
    local opt = F.pick({ "-O3", "--std=c++14", "-arch=sm_80", "--bogus", "-DX=1", "\0" })
    local o = F.chance(0.5) and { opt } or F.any(1)
    return F.core._test.compile(F.chance(0.5) and "__global__ void k(float *x) { x[0] = 1; }" or F.word(), o,
      F.chance(0.8) and F.pick({ 70, 80, 90, 100 }) or F.int())
  end,
}

return {
  name = "hooks",
  -- the hooks are the specs' internal entry points: their luaL_check
  -- messages (no "gpuarray: " prefix) are counted, not findings
  lax_argcheck = true,
  teardown = function() os.execute("rm -rf '" .. dir .. "'") end,
  gen = function(F) return math.random(#HOOKS) end,
  run = function(i, F)
    -- the hooks draw their own arguments: replay with FUZZ_SEED
    return HOOKS[i](F)
  end,
}
