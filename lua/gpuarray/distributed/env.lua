--- Who am I in the job: rank, world size and local rank from the launcher's
-- environment. Pure Lua on a getenv function (os.getenv, or a table's
-- lookup in the specs), so it is read before any device is touched and is
-- testable without one.
--
-- The order, most specific first: a launcher nested in a broader one sets
-- its own variables for the ranks it starts, while the outer one's are
-- inherited unchanged (mpirun inside a Slurm allocation: every rank has
-- SLURM_PROCID=0 and its own OMPI_COMM_WORLD_RANK).
--   1. Open MPI (mpirun):       OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK
--   2. MPICH/PMI (mpiexec):     PMI_RANK, PMI_SIZE, MPI_LOCALRANKID or PMI_LOCAL_RANK
--   3. torchrun:                RANK, WORLD_SIZE, LOCAL_RANK (MASTER_ADDR/PORT kept)
--   4. Slurm (srun):            SLURM_PROCID, SLURM_NTASKS (or SLURM_NPROCS), SLURM_LOCALID
-- Ranks are 0-based, as every launcher numbers them.
local M = {}

M.launchers = {
  { name = "Open MPI", mpi = true, rank = { "OMPI_COMM_WORLD_RANK" }, size = { "OMPI_COMM_WORLD_SIZE" },
    local_rank = { "OMPI_COMM_WORLD_LOCAL_RANK" } },
  { name = "MPICH/PMI", mpi = true, rank = { "PMI_RANK" }, size = { "PMI_SIZE" },
    local_rank = { "MPI_LOCALRANKID", "PMI_LOCAL_RANK" } },
  { name = "torchrun", rank = { "RANK" }, size = { "WORLD_SIZE" }, local_rank = { "LOCAL_RANK" } },
  { name = "Slurm", rank = { "SLURM_PROCID" }, size = { "SLURM_NTASKS", "SLURM_NPROCS" },
    local_rank = { "SLURM_LOCALID" } },
}

-- every variable looked for, for the messages
local function all_names()
  local out = {}
  for _, l in ipairs(M.launchers) do
    out[#out + 1] = ("%s (%s/%s)"):format(l.name, l.rank[1], l.size[1])
  end
  return table.concat(out, ", ")
end

-- the first of names that is set: its name and value
local function first(getenv, names)
  for _, n in ipairs(names) do
    local v = getenv(n)
    if v ~= nil and v ~= "" then return n, v end
  end
end

-- a non-negative integer, or an error naming the variable
local function count(name, value, fail)
  local n = value:match("^%s*(%d+)%s*$")
  if not n then fail(("%s=%q is not a non-negative integer"):format(name, value)) end
  return math.tointeger(tonumber(n))
end

--- M.detect(getenv, fail) -> info, or nil when no launcher's variables are
-- set (a single process). info: launcher, mpi (true under mpirun/mpiexec),
-- rank, size, local_rank (nil when the launcher did not say), vars (the
-- names read), master_addr, master_port (torchrun's). fail(msg) raises.
function M.detect(getenv, fail)
  for _, l in ipairs(M.launchers) do
    local rn, rv = first(getenv, l.rank)
    local sn, sv = first(getenv, l.size)
    if rn or sn then
      if not rn then fail(("%s is set but %s is not (%s sets both; is the environment complete?)"):format(
        sn, l.rank[1], l.name)) end
      if not sn then fail(("%s is set but %s is not (%s sets both; is the environment complete?)"):format(
        rn, table.concat(l.size, " or "), l.name)) end
      local info = { launcher = l.name, mpi = l.mpi or false, vars = { rn, sn } }
      info.rank = count(rn, rv, fail)
      info.size = count(sn, sv, fail)
      if info.size < 1 then fail(("%s=%s: the world needs at least one rank"):format(sn, sv)) end
      if info.rank >= info.size then
        fail(("%s=%d is not a rank of a world of %s=%d (ranks are 0 to %d)"):format(rn, info.rank, sn, info.size,
          info.size - 1))
      end
      local ln, lv = first(getenv, l.local_rank)
      if ln then
        info.local_rank = count(ln, lv, fail)
        info.vars[#info.vars + 1] = ln
        if info.local_rank >= info.size then
          fail(("%s=%d is not below the world size %s=%d"):format(ln, info.local_rank, sn, info.size))
        end
      end
      if l.name == "torchrun" then
        info.master_addr, info.master_port = getenv("MASTER_ADDR"), getenv("MASTER_PORT")
      end
      return info
    end
  end
  return nil
end

--- M.described(): the variables looked for, in order (for errors and docs)
M.described = all_names

--- M.device(local_rank, rank, ndevices, fail) -> the device ordinal this
-- rank uses: its local rank (or, when the launcher gave none, its rank)
-- among the visible devices; one visible device (CUDA_VISIBLE_DEVICES set
-- per rank, Slurm's --gpus-per-task) is device 0 for every rank.
function M.device(local_rank, rank, ndevices, fail)
  if ndevices < 1 then fail("no CUDA device is visible to this rank") end
  if ndevices == 1 then return 0 end
  local r = local_rank or rank % ndevices
  if r >= ndevices then
    fail(("local rank %d has no device of its own: %d are visible (start at most %d ranks per node, "
      .. "or give each rank its own CUDA_VISIBLE_DEVICES)"):format(r, ndevices, ndevices))
  end
  return r
end

--- M.job_key(getenv) -> a name for this job's files in a shared store: the
-- launcher's job id where it gives one, so jobs sharing a directory (and a
-- crashed job's leftovers) do not meet
function M.job_key(getenv)
  local function g(n) local v = getenv(n); if v and v ~= "" then return v end end
  local key = g("GPUARRAY_STORE_KEY") or g("TORCHELASTIC_RUN_ID")
    or (g("SLURM_JOB_ID") and (g("SLURM_JOB_ID") .. "." .. (g("SLURM_STEP_ID") or "0")))
    or g("OMPI_MCA_ess_base_jobid") or g("OMPI_MCA_orte_ess_jobid") or g("PMI_KVSNAME")
    or (g("MASTER_PORT") and ("port" .. g("MASTER_PORT")))
    or "job"
  return (key:gsub("[^%w%._-]", "_"))
end

return M
