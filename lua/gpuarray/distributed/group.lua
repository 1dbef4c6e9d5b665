--- Group: a communicator of ga.distributed (the world that init returns,
-- and the groups new_group makes), over ga.nccl's Communicator. Ranks are
-- 0-based (identities, as launchers and NCCL number them). Collectives
-- work in place where NCCL does and queue on the current stream of the
-- group's device.
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local split = require "gpuarray.distributed.split"
  local def = api.def

  local Group = {}
  local Group_mt = { __index = Group, __name = "gpuarray.distributed.Group" }
  Group_mt.__tostring = function(g)
    if not g.comm.alive then return "<distributed.Group (destroyed)>" end
    return ("<distributed.Group rank %d of %d on device %d>"):format(g.comm.rank, g.comm.nranks, g.comm.device)
  end
  api.set_type("Group", function(v) return getmetatable(v) == Group_mt end)
  api.class("Group", Group)

  local M = {}
  --- M.methods: name -> {text (the declaration without "Group:"), impl
  -- (the group first)}: init.lua declares the world's as module functions
  M.methods, M.order = {}, {}
  local function method(text, impl)
    local name = text:match("^%s*([%w_]+)%(")
    M.methods[name] = { text = text, impl = impl }
    M.order[#M.order + 1] = name
    def(Group, "Group:" .. text:gsub("^%s*", ""), impl)
  end

  --- M.wrap(comm, local_rank) -> a Group over an nccl Communicator
  function M.wrap(comm, local_rank)
    return setmetatable({ comm = comm, local_rank_ = local_rank }, Group_mt)
  end
  M.is_group = function(v) return getmetatable(v) == Group_mt end

  local function live(g, fname)
    if not g.comm.alive then internal.fail(fname .. ": the group was destroyed or aborted") end
    return g.comm
  end

  method([[
rank() -> integer
This process's rank in the group (0-based, as launchers and NCCL number ranks).
]], function(g) return live(g, "rank").rank end)

  method([[
size() -> integer
How many ranks the group has.
]], function(g) return live(g, "size").nranks end)

  method([[
local_rank() -> integer
This process's rank on its node, as the launcher gave it (the device it uses otherwise).
]], function(g) return g.local_rank_ or live(g, "local_rank").device end)

  method([[
device() -> integer
The CUDA ordinal of the device this rank of the group uses.
]], function(g) return live(g, "device").device end)

  method([[
barrier()
Returns when every rank of the group has called barrier (a one-element all-reduce, waited for).
]], function(g)
    local c = live(g, "barrier")
    local _ <close> = ga.Device(c.device):scope()
    local one = ga.zeros({ 1 }, "int32")
    c:all_reduce(one, one)
    ga.get_current_stream():synchronize()
  end)

  local ops = [["sum"|"prod"|"max"|"min"|"avg"]]

  method(([[
all_reduce(x: ndarray, op: %s = "sum") -> ndarray
Reduces x over the ranks, in place on every rank; returns x.
]]):format(ops), function(g, x, op)
    live(g, "all_reduce"):all_reduce(x, x, op)
    return x
  end)

  method(([[
reduce(x: ndarray, root: integer = 0, op: %s = "sum") -> ndarray
Reduces x over the ranks into x on root (0-based); x is unchanged elsewhere. Returns x.
]]):format(ops), function(g, x, root, op)
    live(g, "reduce"):reduce(x, x, op, root)
    return x
  end)

  method([[
broadcast(x: ndarray, root: integer = 0) -> ndarray
Root's x (root 0-based) into x on every rank, in place; returns x.
]], function(g, x, root)
    live(g, "broadcast"):broadcast(x, root)
    return x
  end)

  method([[
all_gather(x: ndarray) -> ndarray
Every rank's x, stacked in rank order: shape {size, ...x's shape}.
]], function(g, x) return live(g, "all_gather"):all_gather(x) end)

  method(([[
reduce_scatter(x: ndarray, op: %s = "sum") -> ndarray
x of shape {size * n, ...} reduced over the ranks; rank r gets rows r*n+1 to (r+1)*n: shape {n, ...}.
]]):format(ops), function(g, x, op)
    local c = live(g, "reduce_scatter")
    local shape = x.shape
    if #shape == 0 or shape[1] % c.nranks ~= 0 then
      internal.fail(("reduce_scatter: x's first axis (shape %s) must be a multiple of the group size %d")
        :format(internal.shape_str(shape), c.nranks))
    end
    local out_shape = { shape[1] // c.nranks, table.unpack(shape, 2) }
    local _ <close> = ga.Device(c.device):scope()
    local out = ga.empty(out_shape, x.dtype)
    c:reduce_scatter(x, out, op)
    return out
  end)

  method([[
all_to_all(x: ndarray) -> ndarray
x of shape {size, ...}: row p+1 goes to rank p; row p+1 of the result came from rank p. Same shape.
]], function(g, x)
    local c = live(g, "all_to_all")
    local shape = x.shape
    if #shape == 0 or shape[1] ~= c.nranks then
      internal.fail(("all_to_all: x must have shape {%d, ...} (one row per rank), got %s")
        :format(c.nranks, internal.shape_str(shape)))
    end
    local _ <close> = ga.Device(c.device):scope()
    if not x.flags.c_contiguous then x = x:copy() end
    local out = ga.empty(shape, x.dtype)
    local rows, outs = x:reshape({ c.nranks, -1 }), out:reshape({ c.nranks, -1 })
    ga.nccl.group(function()
      for p = 0, c.nranks - 1 do
        c:send(rows[p + 1], p)
        c:recv(outs[p + 1], p)
      end
    end)
    return out
  end)

  method([[
send(x: ndarray, peer: integer) -> ndarray
Sends x to rank peer (0-based), which receives it with recv; returns x.
]], function(g, x, peer) return live(g, "send"):send(x, peer) end)

  method([[
recv(x: ndarray, peer: integer) -> ndarray
Receives into x what rank peer (0-based) sends; returns x.
]], function(g, x, peer) return live(g, "recv"):recv(x, peer) end)

  method([[
new_group(ranks: list) -> Group?
The group of the listed ranks (0-based ranks of this group; the new group's rank i is ranks[i+1]).
Every rank of this group must call it; the ranks not listed get nil (NCCL's ncclCommSplit).
]], function(g, ranks)
    local c = live(g, "new_group")
    local color, key = split.key(ranks, c.rank, c.nranks, function(msg) internal.fail("new_group: " .. msg) end)
    local _ <close> = ga.Device(c.device):scope()
    local sub = c:split(color, key)
    return sub and M.wrap(sub, g.local_rank_) or nil
  end)

  method([[
abort()
Abandons the group's communicator and what it has in flight (NCCL's ncclCommAbort), for an elastic restart.
]], function(g) if g.comm.alive then g.comm:abort() end end)

  method([[
destroy()
Frees the group's communicator after the work it queued (NCCL's ncclCommDestroy).
]], function(g) if g.comm.alive then g.comm:destroy() end end)

  return M
end
