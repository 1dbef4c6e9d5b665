--- ga.distributed: start under the launchers people already use (mpirun/
-- mpiexec, srun, torchrun) and run NCCL's collectives across processes
-- (API.md §18; CuPy's cupyx.distributed). init reads rank, world size and
-- local rank from the launcher's environment (env.lua) before it touches a
-- device, makes the local rank's GPU current, makes NCCL's id on rank 0 and
-- hands it over through MPI (libmpi loaded on first use, src/distributed/)
-- or a file store (store.lua), then starts NCCL non-blocking so that a rank
-- that never comes is a timeout naming it, not a hang. The world and the
-- groups are group.lua's Group.
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local env = require "gpuarray.distributed.env"
  local store = require "gpuarray.distributed.store"
  local core = ga._core.distributed
  local raw_nccl = ga._core.nccl
  local group = require("gpuarray.distributed.group")(ga)
  local def = api.def

  local distributed = {}
  local state = {}   -- world (the Group init returned), info (who we are), mpi (MPI used)

  local function failer(fname) return function(msg) internal.fail(fname .. ": " .. msg) end end

  def(distributed, [[
distributed.environment() -> table?
What init reads, without touching a device: {launcher, rank, size, local_rank, mpi, vars,
master_addr, master_port}, or nil when no launcher's variables are set. Looked for in this
order: Open MPI (OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK), MPICH/PMI (PMI_RANK/PMI_SIZE,
MPI_LOCALRANKID or PMI_LOCAL_RANK), torchrun (RANK/WORLD_SIZE/LOCAL_RANK), Slurm
(SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID). Ranks are 0-based, as launchers number them.
]], function()
    return env.detect(os.getenv, failer("distributed.environment"))
  end)

  -- How NCCL's id will go from rank 0 to the others: decided (and what it
  -- needs checked) before any device is touched
  local function exchange(info, store_spec, use_mpi, fail)
    if info.size == 1 then return "none" end
    if store_spec then
      store.parse(store_spec, fail)
      return "store"
    end
    if use_mpi or info.mpi then
      local ok, why = core.mpi_available()
      if not ok then fail("MPI is not available: " .. why) end
      return "mpi"
    end
    fail(("%s started %d ranks and there is no way to share NCCL's id: pass store = \"file:DIR\" (a directory "
      .. "every rank sees; or set GPUARRAY_STORE) or start under mpirun/mpiexec"):format(info.launcher, info.size))
  end

  -- NCCL's id, from rank 0 to every rank
  local function share_id(how, info, store_spec, timeout, fail)
    if how == "none" then return raw_nccl.get_unique_id() end
    if how == "store" then
      return store.rendezvous({
        dir = store.parse(store_spec, fail), key = env.job_key(os.getenv), rank = info.rank, size = info.size,
        timeout = timeout, payload = raw_nccl.get_unique_id, now = core.now, sleep = core.sleep, fail = fail,
      })
    end
    local r, n = core.mpi_init()
    state.mpi = true
    if r ~= info.rank or n ~= info.size then
      fail(("MPI says rank %d of %d, the environment (%s) says rank %d of %d"):format(r, n, info.launcher,
        info.rank, info.size))
    end
    return core.mpi_bcast(r == 0 and raw_nccl.get_unique_id() or nil, 0, 256)
  end

  -- NCCL's communicator, started non-blocking and polled until the deadline
  local function connect(info, id, timeout, blocking, fail)
    if blocking then return raw_nccl.Communicator(info.size, id, info.rank) end
    local comm = raw_nccl.Communicator_nonblocking(info.size, id, info.rank)
    local deadline = core.now() + timeout
    while not comm:poll() do
      if core.now() > deadline then
        comm:abort()
        fail(("NCCL did not connect the %d ranks within %g s (rank %d; a rank that never called init, a "
          .. "stale id, or a network that blocks NCCL's sockets)"):format(info.size, timeout, info.rank))
      end
      core.sleep(0.002)
    end
    -- connected: the world goes on as a blocking communicator (a
    -- non-blocking one queues every call through NCCL's thread: 0.82x
    -- PyTorch's all-reduce bandwidth, 1.0x blocking), split from this one,
    -- which is then let go
    local world = comm:split(0, info.rank, true)
    comm:destroy()
    return world
  end

  def(distributed, [[
distributed.init(n_devices: integer?, rank: integer?, *, use_mpi: boolean = false, store: string?,
                 timeout: number = 300, device: integer?, blocking: boolean = false) -> Group
Joins the job and returns the world group (CuPy's init_process_group). Without n_devices and rank,
they come from the launcher's environment (distributed.environment); no launcher: a world of one.
The GPU is `device`, else the local rank's among the visible ones. NCCL's id goes from rank 0 to the
others through the store ("file:DIR", a directory every rank sees; default: env GPUARRAY_STORE),
else through MPI under mpirun/mpiexec (or use_mpi). Waits at most timeout seconds, then raises
naming who did not arrive. blocking = true starts NCCL blocking (no timeout). Ranks are 0-based.
]], function(n_devices, rank, use_mpi, store_spec, timeout, device, blocking)
    local fail = failer("distributed.init")
    if state.world and state.world.comm.alive then
      fail("already initialized (ga.distributed.finalize() or the world's destroy() first)")
    end
    if timeout ~= timeout or timeout <= 0 then fail(("timeout must be positive (got %s)"):format(tostring(timeout))) end
    local info
    if n_devices ~= nil or rank ~= nil then
      if n_devices == nil or rank == nil then fail("give both n_devices and rank, or neither (then the launcher's)") end
      if n_devices < 1 then fail(("n_devices must be at least 1 (got %d)"):format(n_devices)) end
      if rank < 0 or rank >= n_devices then
        fail(("rank %d is not in 0 to n_devices-1 (%d)"):format(rank, n_devices - 1))
      end
      info = { launcher = "the arguments", mpi = false, rank = rank, size = n_devices, vars = {} }
    else
      info = env.detect(os.getenv, fail) or { launcher = "no launcher", mpi = false, rank = 0, size = 1, vars = {} }
    end
    store_spec = store_spec or os.getenv("GPUARRAY_STORE")
    if store_spec == "" then store_spec = nil end
    local how = exchange(info, store_spec, use_mpi, fail)
    local ok, why = ga.nccl.available()
    if not ok then fail("NCCL is not available: " .. tostring(why)) end
    local dev = device or env.device(info.local_rank, info.rank, ga.device_count(), fail)
    ga.Device(dev):use()
    local id = share_id(how, info, store_spec, timeout, fail)
    state.info = info
    state.world = group.wrap(connect(info, id, timeout, blocking, fail), info.local_rank)
    return state.world
  end)

  def(distributed, [[
distributed.is_initialized() -> boolean
Whether init has made a world that is not destroyed.
]], function() return state.world ~= nil and state.world.comm.alive end)

  local function world(fname)
    if not (state.world and state.world.comm.alive) then
      internal.fail(fname .. ": ga.distributed.init() was not called (or the world was destroyed)")
    end
    return state.world
  end

  def(distributed, [[
distributed.finalize()
Destroys the world communicator and ends MPI when init started it.
]], function()
    if state.world and state.world.comm.alive then state.world.comm:destroy() end
    state.world = nil
    if state.mpi then core.mpi_finalize() end
  end)

  -- The world's methods as functions of the module: ga.distributed.all_reduce(x)
  -- (destroy is finalize's part there)
  for _, name in ipairs(group.order) do
    if name ~= "destroy" then
      local m = group.methods[name]
      def(distributed, "distributed." .. m.text:gsub("^%s*", ""), function(...)
        return m.impl(world("distributed." .. name), ...)
      end)
    end
  end
  ga.distributed = distributed
  require("gpuarray.distributed.array")(ga, distributed)
end
