-- Host time of the binder (src/api/) per call, on the CPU alone (no GPU):
-- declared functions called through api.def's binding against the same
-- implementation called directly. ns/call, the best of REPS runs of N
-- calls each (CPU time: the machine may be shared).
--   lua5.4 tools/probe/binder.lua          (N=2000000 REPS=5 by default)
-- Run from the repository root after `make`.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local ga = require "gpuarray"
local api = require "gpuarray.api"

local N = tonumber(os.getenv("N") or "2000000")
local REPS = tonumber(os.getenv("REPS") or "5")

local function ns(f)
  local best = math.huge
  for _ = 1, REPS do
    local t = os.clock()
    f(N)
    best = math.min(best, (os.clock() - t) / N * 1e9)
  end
  return best
end

local probe = {}
local function impl(a, _b, _c) return a end
api.def(probe, [[
probe_f(a: number, b: integer = 1, c: boolean = false) -> number
A Lua function of three parameters.
]], impl)
api.def(probe, [[
probe_c(a: number, b: number) -> number
A C function (math.max) of two parameters.
]], math.max)
local methods = ga.methods
api.def(methods, [[
ndarray:probe_m(n: integer?, flag: boolean = false) -> ndarray
A Lua method of an ndarray.
]], function(self, _n, _flag) return self end)
local x = ga.empty(0, "float32")   -- size 0: no device needed
local f, c, opts = probe.probe_f, probe.probe_c, { c = true }
-- the same method undeclared: x:m() looks it up through the ndarray's __index
methods.probe_raw = function(self, _n, _flag) return self end
local empty = ga.empty
local maxf = math.max

local cases = {
  { "positional f(1.5, 2)", function(n) for _ = 1, n do f(1.5, 2) end end,
    function(n) for _ = 1, n do impl(1.5, 2, false) end end },
  { "options f(1.5, {c = true})", function(n) for _ = 1, n do f(1.5, opts) end end,
    function(n) for _ = 1, n do impl(1.5, 1, true) end end },
  { "options fresh f(1.5, {c = true})", function(n) for _ = 1, n do f(1.5, { c = true }) end end,
    function(n) for _ = 1, n do impl(1.5, 1, true) end end },
  { "method x:probe_m(2)", function(n) for _ = 1, n do x:probe_m(2) end end,
    function(n) for _ = 1, n do x:probe_raw(2, false) end end },
  { "C impl probe_c(1, 2)", function(n) for _ = 1, n do c(1, 2) end end,
    function(n) for _ = 1, n do maxf(1, 2) end end },
  { "ga.empty(0, 'float32')", function(n) for _ = 1, n do empty(0, "float32") end end, nil },
  { "ga.empty(0, 'float32', {order='C'})", function(n) for _ = 1, n do empty(0, "float32", { order = "C" }) end end,
    nil },
}
print(("%-38s %10s %10s %10s"):format("case", "bound ns", "direct ns", "added ns"))
for _, cs in ipairs(cases) do
  local b = ns(cs[2])
  local d = cs[3] and ns(cs[3])
  print(("%-38s %10.1f %10s %10s"):format(cs[1], b, d and ("%.1f"):format(d) or "-",
                                          d and ("%.1f"):format(b - d) or "-"))
  collectgarbage()
end
