-- gmres on the bench's Poisson problem (1024^2, restart 20): the time of
-- one call (event), and with GMRES_PROF_ONE=1 a single cycle for ncu
package.path = "tools/probe/?.lua;./?.lua;" .. package.path
local ga = require "gpuarray"
local core = ga._core
local T = require "timing"
local L = ga.scipy.sparse.linalg
-- the bench's own matrix (bench/scipy_sparse.lua hands its builder out
-- through B; its cases are not run here)
local bench = { case = function() end }
require("bench.scipy_sparse")(ga, bench)
local A, b = bench.poisson(1024)
local n = b.size
local opts = { rtol = 0, atol = 0, restart = 20, maxiter = os.getenv("GMRES_PROF_ONE") and 1 or 10 }
L.gmres(A, b, opts)
ga.synchronize()
if os.getenv("GMRES_PROF_ONE") then
  ga.profiler.profile(function()
    L.gmres(A, b, opts)
    ga.synchronize()
  end)
  return
end
local ms = core._test.gpu_time_ms(function() L.gmres(A, b, opts) end, 5)
print(("gmres 10 cycles: %.3f ms (event)"):format(ms))
-- the pieces of one Arnoldi step at j = 10, queued and host
local V = ga.random.random({ 21, n }, "float32")
local w = ga.random.random(n, "float32")
local Ht = ga.zeros({ 20, 21 }, "float32")
local function both(name, f)
  local issue, _, queued = T.split_us(f, 50)
  print(("%-14s queued %8.2f us  host-issue %7.2f us"):format(name, queued, issue))
end
both("spmv", function() return A:dot(w) end)
both("V[j]", function() return V[10] end)
both("V[{1,j}]", function() return V[{ { 1, 10 } }] end)
local Vj, hrow = V[{ { 1, 10 } }], Ht[10][{ { 1, 10 } }]
both("gemv Vj w", function() ga.matmul(Vj, w, { out = hrow }) end)
both("gemv h Vj", function() return ga.matmul(hrow, Vj) end)
both("subtract", function() return ga.subtract(w, w) end)
both("Ht totable", function() return Ht:totable() end)
