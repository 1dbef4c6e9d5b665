-- pad's host time per call on the CPU alone (no GPU): ga.pad(A, 32,
-- "reflect") on a 64x64 float32 array over host memory (core._test.lazy_fake)
-- with the two device steps stubbed: empty gives a host array made once and
-- the row kernel is a Lua function that does nothing. Also the binder alone
-- (pad's declaration bound to an empty body) and the steps pad takes.
-- us/call, the best of REPS runs of N calls each (CPU time).
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 tools/probe/pad_host.lua
-- Run from the repository root after `make`.
local ga = require "gpuarray"
local core = require "gpuarray.core"
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"
local rows = require "gpuarray.manipulation.pad_rows"
local gather = require "gpuarray.manipulation.pad_gather"

package.path = "tools/probe/?.lua;" .. package.path
local T = require "timing"
local N = tonumber(os.getenv("N") or "200000")
local REPS = tonumber(os.getenv("REPS") or "5")
local function us(f) return T.cpu_us(f, N, REPS) end

local fake = core._test.lazy_fake
local A = fake({ 64, 64 }, "float32")
local W = { { 32, 32 }, { 32, 32 } }

-- the device steps stubbed: ga.empty and the core's (internal.empty) hand
-- back one 128x128 result made here (a fake's host allocation costs more
-- than the whole of pad's host work; every case here pads to 128x128)
local OUT = fake({ 128, 128 }, "float32")
local function stub_empty() return OUT end
ga.empty, internal.empty = stub_empty, stub_empty
local function empty_cost() return stub_empty({ 128, 128 }, "float32") end
-- the memo of pad's common call emptied (trees before it have none)
local kept = internal.pad_memo and internal.pad_memo.entries or {}
local function forget()
  for i = #kept, 1, -1 do kept[i] = nil end
end
local launches = 0
rows.kernel = function() return function() launches = launches + 1 end end

local e = api.entry("pad")
local bound = core.api.bind(e.decl, function() end)

local cases = {
  { "pad (stubbed device)", function() return ga.pad(A, 32, "reflect") end },
  { "pad, no memo entry", function()
    forget()
    return ga.pad(A, 32, "reflect")
  end },
  { "pad {{32,32},{32,32}}", function() return ga.pad(A, W, "reflect") end },
  { "binder alone", function() return bound(A, 32, "reflect") end },
  { "stub empty (subtract)", empty_cost },
  { "A.shape + A.strides", function() return A.shape, A.strides end },
  { "reflect_closed x2", function()
    local rc = internal.pad_reflect_closed
    return rc(64, 32, 32, false), rc(64, 32, 32, false)
  end },
  { "gather.merge", function() return gather.merge(A, W) end },
  { "rows.plan", function() return rows.plan({ 64, 64 }, { 256, 4 }, 4, W, "reflect") end },
}
-- the row kernel's launch step (stub kernel): the kept plan's, or the
-- plan and argument list made a call (trees before rows.launch)
local P = rows.plan({ 64, 64 }, { 256, 4 }, 4, W, "reflect")
if rows.launch then
  cases[#cases + 1] = { "rows.launch (kept plan)", function() rows.launch(ga, P, A, OUT) end }
else
  cases[#cases + 1] = { "rows.run", function() return rows.run(ga, A, W, "reflect", OUT, { 64, 64 }, { 256, 4 }) end }
end
for _, c in ipairs(cases) do
  print(("%-24s %7.3f us"):format(c[1], us(c[2])))
end
assert(launches > 0, "the row kernel was not taken")
