-- pad's row kernel (lua/gpuarray/manipulation/pad_rows.lua) over its knobs,
-- on the bench's case (4096^2 float32, 32 each side, reflect): vectors in
-- flight per thread (rows.U) and threads per block (each row split in as
-- many tiles as that takes, one block a tile). Each variant is
-- checked against ga.pad's result, then timed queued (events around 20
-- calls) and one call at a time (the bench's measure: events around one
-- call, the median of 21), with its result allocated per call as pad does.
-- The same two times for ga.pad itself, the bare launch of the shipped
-- plan (no allocation, no binder) and copy, for the gaps between them.
--   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 tools/probe/pad_tune.lua
package.path = "tools/probe/?.lua;" .. package.path
local ga = require "gpuarray"
local T = require "timing"
local rows = require "gpuarray.manipulation.pad_rows"

local s, p = 4096, 32
local A = ga.random.random({ s, s }, "float32")
local want = ga.pad(A, p, "reflect")
local bytes = 4 * (s * s + (s + 2 * p) ^ 2)
local one_us = T.one_us

local function report(name, f)
  local q = T.queued_us(f, 20)
  local o = one_us(f)
  print(("%-34s queued %6.1f us  one %6.1f us  gap %5.1f  one-call %6.0f GB/s"):format(name, q, o, o - q,
    bytes / o / 1e3))
end

local x = ga.random.random(1 << 26, "float32")
local z = ga.empty_like(x)
local q = T.queued_us(function() z:set(x) end, 20)
local o = one_us(function() z:set(x) end)
print(("%-34s queued %6.1f us  one %6.1f us  gap %5.1f  one-call %6.0f GB/s"):format("copy 2^26 f32", q, o, o - q,
  8 * (1 << 26) / o / 1e3))
x, z = nil, nil
collectgarbage()

report("ga.pad", function() return ga.pad(A, p, "reflect") end)

local W = { { p, p }, { p, p } }
local U0, T0 = rows.U, rows.MAX_THREADS
local shipped = assert(rows.plan({ s, s }, { 4 * s, 4 }, 4, W, "reflect"))
do   -- the shipped plan launched bare: no allocation, no binder, no memo
  local name, src = rows.source("reflect", 4, 1)
  local k = ga.RawKernel(src, name)
  local out = ga.empty({ s + 2 * p, s + 2 * p }, "float32")
  local argv = { A, out, table.unpack(shipped.args) }
  report(("shipped U=%d block=%d grid=%d, bare"):format(U0, shipped.block, shipped.grid),
    function() k(shipped.grid, shipped.block, argv) end)
  report("ga.empty of pad's result alone", function() return ga.empty({ s + 2 * p, s + 2 * p }, "float32") end)
end
-- (vectors a thread has in flight, threads a block), each row split in
-- as many tiles as that takes; with its result allocated per call, as pad
for _, c in ipairs { { 4, 288 }, { 1, 128 }, { 1, 256 }, { 2, 128 }, { 2, 256 }, { 2, 512 }, { 4, 128 },
                     { 4, 256 }, { 8, 128 }, { 8, 160 }, { 4, 96 }, { 2, 96 } } do
  local U, threads = c[1], c[2]
  rows.U, rows.MAX_THREADS = U, threads
  local plan = assert(rows.plan({ s, s }, { 4 * s, 4 }, 4, W, "reflect"))
  local nv = (s + 2 * p) // 4
  local per_row = (nv + U * threads - 1) // (U * threads)
  plan.args[1], plan.args[2] = (s + 2 * p) * per_row, per_row
  local grid = plan.args[1]
  local name, src = rows.source("reflect", 4, 1)
  local k = ga.RawKernel(src, name)
  local out = ga.empty({ s + 2 * p, s + 2 * p }, "float32")
  k(grid, threads, { A, out, table.unpack(plan.args) })
  local label = ("U=%d block=%d grid=%d"):format(U, threads, grid)
  if not ga.all(ga.equal(out, want)):item() then
    print(label .. "  WRONG RESULT")
  else
    report(label, function()
      local y = ga.empty({ s + 2 * p, s + 2 * p }, "float32")
      k(grid, threads, { A, y, table.unpack(plan.args) })
    end)
  end
end
rows.U, rows.MAX_THREADS = U0, T0
