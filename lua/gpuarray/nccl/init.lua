--- ga.nccl: several GPUs through NCCL (CuPy's cupy.cuda.nccl, the Lua way).
-- The communicators and collectives are C (src/nccl/nccl.c, NCCL loaded on
-- first use); this file makes the public table, lets Communicator be called
-- and carry init_all, runs each collective with its communicator's device
-- current (so one process can drive several GPUs without a scope per call),
-- and adds ga.nccl.group(fn).
return function(ga)
  local api = require "gpuarray.api"
  local raw = ga._core.nccl
  local nccl = {}
  api.def_nullary(nccl, "nccl.", {
    { "get_version() -> integer", "NCCL's version code (21903 for 2.19.3).", raw.get_version },
    { "get_unique_id() -> string", "A new NCCL unique id (128 bytes) for the ranks of one communicator.",
      raw.get_unique_id },
    { "group_start()", "Begins an NCCL group: the collectives queued until group_end launch together.",
      raw.group_start },
    { "group_end()", "Ends an NCCL group and launches what it queued.", raw.group_end },
  })

  -- NCCL is of use only with a device to run on: a machine with libnccl and
  -- no GPU answers false too, with both facts (the library's own answer
  -- first, so a missing or broken libnccl is named as such)
  local raw_available = raw.available
  api.def(nccl, [[
nccl.available() -> boolean, integer|string
Whether NCCL can be used here: true and its version (22809 for 2.28.9), or false and why
(libnccl not found, no CUDA device). Never raises.
]], function()
    local ok, info = raw_available()
    if not ok then return false, info end
    if not ga.is_available() then
      return false, ("no CUDA device (NCCL %d is installed)"):format(info)
    end
    return true, info
  end)

  -- Collectives queue on the current stream of the communicator's device:
  -- make that device current for the call, and restore the caller's after,
  -- errors included.
  local methods = raw.methods
  for _, name in ipairs({ "all_reduce", "reduce", "broadcast", "all_gather", "reduce_scatter", "send", "recv",
                          "async_error" }) do
    local op = methods[name]
    methods[name] = function(comm, ...)
      local device = comm.device
      if device == ga.get_device_id() then return op(comm, ...) end
      local _ <close> = ga.Device(device):scope()
      return op(comm, ...)
    end
  end

  --- ga.nccl.Communicator(nranks, id, rank): rank (0-based) of nranks on
  -- the current device; id is ga.nccl.get_unique_id() of one of the ranks.
  -- Communicator.init_all(devices): one process, one communicator per
  -- device (a count n for devices 0..n-1, or a list of ids), rank order.
  -- a callable table (it carries init_all) whose calls are bound by the
  -- declaration
  local construct = api.def(nil, [[
nccl.Communicator(nranks: integer, id: string, rank: integer) -> Communicator
Rank rank (0-based) of an nranks-rank communicator on the current device; id
is nccl.get_unique_id() of one of the ranks. Communicator.init_all(devices)
makes one per device in one process.
]], function(nranks, id, rank) return raw.Communicator(nranks, id, rank) end)
  nccl.Communicator = setmetatable({ init_all = raw.init_all }, {
    __call = function(_, ...) return construct(...) end,
  })
  api.attach(api.entry(construct).decl, nccl.Communicator)

  --- ga.nccl.group(fn, ...): fn(...) between group_start and group_end, so
  -- NCCL launches what it queued together (several devices from one
  -- thread, or sends and receives that would wait for each other). The
  -- group is ended even when fn raises; then the error goes on.
  api.def(nccl, [[
nccl.group(fn: function, ...: any) -> any
fn(...) between group_start and group_end, so that NCCL launches what it
queued together; the group ends even when fn raises (then the error goes on).
Returns what fn returns.
]], function(fn, ...)
    raw.group_start()
    local res = table.pack(pcall(fn, ...))
    if not res[1] then
      pcall(raw.group_end)   -- fn's error is the one to report
      error(res[2], 0)
    end
    raw.group_end()
    return table.unpack(res, 2, res.n)
  end)

  ga.nccl = nccl
end
