-- gmres on the bench's Poisson problem (1024^2, restart 20): the time of
-- one call (event), and with GMRES_PROF_ONE=1 a single cycle for ncu
local ga = require "gpuarray"
local core = ga._core
local sparse = ga.scipy.sparse
local L = sparse.linalg
local side = 1024
local n = side * side
local i = ga.arange(0, n, "int64")
local row, col = i // side, i % side
local rows, cols, vals = { i }, { i }, { ga.full(n, 4, "float32") }
for _, c in ipairs({ { ga.greater(col, 0), -1 }, { ga.less(col, side - 1), 1 }, { ga.greater(row, 0), -side },
  { ga.less(row, side - 1), side } }) do
  local ii = i[c[1]]
  rows[#rows + 1], cols[#cols + 1] = ii, ii + c[2]
  vals[#vals + 1] = ga.full(ii.size, -1, "float32")
end
local A = sparse.coo_matrix({ ga.concatenate(vals), { ga.concatenate(rows) + 1, ga.concatenate(cols) + 1 } },
  { shape = { n, n } }):tocsr()
local b = ga.ones(n, "float32")
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
local now, sync = core.runtime.now, core._test.stream_sync
local V = ga.random.random({ 21, n }, "float32")
local w = ga.random.random(n, "float32")
local Ht = ga.zeros({ 20, 21 }, "float32")
local function both(name, f)
  f(); sync()
  local e0, e1 = ga.Event(), ga.Event()
  e0:record()
  local t = now()
  for _ = 1, 50 do f() end
  local host = (now() - t) / 50 * 1e6
  e1:record(); e1:synchronize()
  print(("%-14s queued %8.2f us  host-issue %7.2f us"):format(name, ga.get_elapsed_time(e0, e1) / 50 * 1e3, host))
end
both("spmv", function() return A:dot(w) end)
both("V[j]", function() return V[10] end)
both("V[{1,j}]", function() return V[{ { 1, 10 } }] end)
local Vj, hrow = V[{ { 1, 10 } }], Ht[10][{ { 1, 10 } }]
both("gemv Vj w", function() ga.matmul(Vj, w, { out = hrow }) end)
both("gemv h Vj", function() return ga.matmul(hrow, Vj) end)
both("subtract", function() return ga.subtract(w, w) end)
both("Ht totable", function() return Ht:totable() end)
