--- Run by every rank of a job (tools/multi-gpu-check.sh starts it under
-- mpirun, and under torchrun's, Slurm's, Open MPI's and MPICH's variables
-- with the file store): ga.distributed.init from the launcher's
-- environment, then every collective of the world and of groups against
-- Lua references of rank-dependent values. Prints one line "rank R of N:
-- K checks passed ..." or raises with the rank, the check and the values.
-- CHECK_TIMEOUT (seconds, default 60) and CHECK_BLOCKING=1 (blocking NCCL
-- init) come from the environment.
local ga = require "gpuarray"
local D = ga.distributed

local info = D.environment()
local world = D.init({ timeout = tonumber(os.getenv("CHECK_TIMEOUT")) or 60,
                       blocking = os.getenv("CHECK_BLOCKING") == "1" })
local r, n = D.rank(), D.size()
local checks = 0

local function show(v)
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for i = 1, math.min(#v, 8) do parts[i] = show(v[i]) end
  return "{" .. table.concat(parts, ", ") .. (#v > 8 and ", ..." or "") .. "}"
end
local function check(ok, what, got, want)
  if not ok then
    error(("rank %d of %d: %s: got %s, want %s"):format(r, n, what, show(got), show(want)), 2)
  end
  checks = checks + 1
end
local function same(got, want)
  if type(got) ~= type(want) then return false end
  if type(got) ~= "table" then return got == want end
  if #got ~= #want then return false end
  for i = 1, #got do if not same(got[i], want[i]) then return false end end
  return true
end
local function expect(x, want, what)
  local got = x:totable()
  check(same(got, want), what, got, want)
end
local function list(m, f) local t = {} for i = 1, m do t[i] = f(i) end return t end

-- who we are
check(D.is_initialized(), "is_initialized after init")
check(world:rank() == r and world:size() == n, "the world's rank and size", { world:rank(), world:size() }, { r, n })
if info then
  check(info.rank == r and info.size == n, "environment agrees with NCCL", { info.rank, info.size }, { r, n })
end
local ndev = ga.device_count()
local want_dev = ndev == 1 and 0 or ((info and info.local_rank) or r) % ndev
check(D.device() == want_dev, "device of the local rank", D.device(), want_dev)

local m = 1000
-- all_reduce, every op, in place
for _, dtype in ipairs({ "float32", "float64", "int32", "int64" }) do
  local x = ga.asarray(list(m, function(i) return (r + 1) * i end), dtype)
  local y = D.all_reduce(x)
  check(rawequal(x, y), "all_reduce returns x itself")
  expect(x, list(m, function(i) return i * n * (n + 1) // 2 end), "all_reduce sum " .. dtype)
  -- in the same order on every rank (pairs' order differs between processes:
  -- ranks would reduce with different ops)
  for _, case in ipairs({ { "max", function(i) return n * i end }, { "min", function(i) return i end } }) do
    local op, f = case[1], case[2]
    x = ga.asarray(list(m, function(i) return (r + 1) * i end), dtype)
    expect(D.all_reduce(x, op), list(m, f), ("all_reduce %s %s"):format(op, dtype))
  end
end
local p = ga.asarray(list(10, function() return r + 1 end), "int64")
local fact = 1
for k = 1, n do fact = fact * k end
expect(D.all_reduce(p, "prod"), list(10, function() return fact end), "all_reduce prod")

-- broadcast from the last rank, reduce to rank 0
local b = ga.asarray(list(7, function(i) return 10 * r + i end), "float64")
check(rawequal(D.broadcast(b, n - 1), b), "broadcast returns x")
expect(b, list(7, function(i) return 10 * (n - 1) + i end), "broadcast from rank n-1")
local red = ga.asarray(list(5, function(i) return r + i end), "float64")
D.reduce(red, 0)
if r == 0 then expect(red, list(5, function(i) return n * (n - 1) / 2 + n * i end), "reduce to rank 0") end

-- all_gather: {n, ...}
local g = D.all_gather(ga.asarray(list(3, function(i) return 100 * r + i end), "int32"))
check(same(g.shape, { n, 3 }), "all_gather's shape", g.shape, { n, 3 })
expect(g, list(n, function(q) return list(3, function(i) return 100 * (q - 1) + i end) end), "all_gather")

-- reduce_scatter: {n*2, 3} -> {2, 3}, rank r gets rows 2r+1, 2r+2 of the sum
local rs = D.reduce_scatter(ga.asarray(list(2 * n, function(row) return list(3, function(j)
  return (r + 1) * (10 * row + j) end) end), "float64"))
check(same(rs.shape, { 2, 3 }), "reduce_scatter's shape", rs.shape, { 2, 3 })
expect(rs, list(2, function(k) return list(3, function(j) return (10 * (2 * r + k) + j) * n * (n + 1) / 2 end) end),
  "reduce_scatter")

-- all_to_all: row p+1 goes to rank p
local a2a = D.all_to_all(ga.asarray(list(n, function(q) return list(4,
  function(j) return 100 * r + 10 * (q - 1) + j end) end),
  "int64"))
expect(a2a, list(n, function(q) return list(4, function(j) return 100 * (q - 1) + 10 * r + j end) end), "all_to_all")
local ok, e = pcall(D.all_to_all, ga.zeros({ n + 1, 2 }))
check(not ok and tostring(e):match("one row per rank") ~= nil, "all_to_all's shape error", e, "one row per rank")

-- send/recv around the ring, in one NCCL group
local to, from = (r + 1) % n, (r - 1) % n
local s, v = ga.asarray(list(6, function(i) return 1000 * r + i end), "float32"), ga.zeros({ 6 }, "float32")
ga.nccl.group(function()
  D.send(s, to)
  D.recv(v, from)
end)
expect(v, list(6, function(i) return 1000 * from + i end), "send/recv ring")

D.barrier()

-- groups: the world reversed, and rank 0 alone
local rev = {}
for q = n - 1, 0, -1 do rev[#rev + 1] = q end
local grp = D.new_group(rev)
check(grp ~= nil and grp:rank() == n - 1 - r and grp:size() == n, "reversed group's rank", grp and grp:rank(),
  n - 1 - r)
local gx = ga.asarray({ grp:rank() }, "int64")
grp:broadcast(gx, 0)
expect(gx, { 0 }, "broadcast in the reversed group from its rank 0 (world rank n-1)")
local solo = D.new_group({ 0 })
check((solo ~= nil) == (r == 0), "new_group({0}): a group on rank 0 only", solo ~= nil, r == 0)
if solo then
  local sx = ga.asarray({ 5, 6 }, "float64")
  expect(solo:all_reduce(sx), { 5, 6 }, "all_reduce in a group of one")
end
grp:abort()
ok, e = pcall(grp.all_reduce, grp, gx)
check(not ok and tostring(e):match("destroyed or aborted") ~= nil, "an aborted group raises", e, "destroyed or aborted")

D.barrier()
print(("rank %d of %d: %d checks passed (device %d, %s)"):format(r, n, checks, D.device(),
  info and info.launcher or "no launcher"))
D.finalize()
