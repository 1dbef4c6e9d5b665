--- ga.distributed on the CPU: each launcher's variables (in a table and in
-- a child process's real environment), the errors of an incomplete or
-- inconsistent one, the device a rank picks, the file store's rendezvous
-- and timeouts with several processes, the MPI loader's failures, and the
-- MPI id exchange under a real mpirun when one is installed.
local helper = require "helper"
local ga = helper.ga
local env = require "gpuarray.distributed.env"
local store = require "gpuarray.distributed.store"
local split = require "gpuarray.distributed.split"

local function getenv_of(t) return function(name) return t[name] end end
local function raiser(msg) error("FAIL: " .. msg, 0) end
local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return e
end

-- a child lua5.4 with this process's module paths and the given variables
-- children run the plain build's module: under `make asan` package.cpath
-- names the instrumented one, which an interpreter without the sanitizer
-- runtime (helper.sh drops LD_PRELOAD) cannot load
local CHILD_CPATH = package.cpath:gsub("build%-asan/", "build/")

local function child(vars, code)
  local parts = {}
  for k, v in pairs(vars) do parts[#parts + 1] = ("%s=%q"):format(k, v) end
  table.sort(parts)
  local cmd = ("env -u RANK -u WORLD_SIZE -u LOCAL_RANK -u SLURM_PROCID -u SLURM_NTASKS -u SLURM_LOCALID "
    .. "-u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u PMI_RANK -u PMI_SIZE -u GPUARRAY_STORE "
    .. "LUA_PATH=%q LUA_CPATH=%q %s lua5.4 -e %q"):format(package.path, CHILD_CPATH, table.concat(parts, " "), code)
  return helper.sh(cmd)
end

local function tmpdir()
  local p = io.popen("mktemp -d")
  local d = p:read("l")
  p:close()
  return d
end
local function listdir(d)
  local p = io.popen("ls -A " .. d)
  local out = p:read("a")
  p:close()
  return out
end

describe("distributed: the launcher's environment", function()
  local cases = {
    { "Open MPI", { OMPI_COMM_WORLD_RANK = "3", OMPI_COMM_WORLD_SIZE = "8", OMPI_COMM_WORLD_LOCAL_RANK = "1" }, true },
    { "MPICH/PMI", { PMI_RANK = "2", PMI_SIZE = "4", MPI_LOCALRANKID = "0" }, true },
    { "torchrun", { RANK = "1", WORLD_SIZE = "2", LOCAL_RANK = "1", MASTER_ADDR = "node7", MASTER_PORT = "29500" },
      false },
    { "Slurm", { SLURM_PROCID = "5", SLURM_NTASKS = "6", SLURM_LOCALID = "2" }, false },
  }

  it("reads each launcher's rank, size and local rank", function()
    for _, c in ipairs(cases) do
      local name, vars, mpi = c[1], c[2], c[3]
      local info = env.detect(getenv_of(vars), raiser)
      assert.are.equal(name, info.launcher)
      assert.are.equal(mpi, info.mpi)
      local r, n, l
      for k, v in pairs(vars) do
        if k:match("LOCAL") then l = tonumber(v)
        elseif k:match("RANK$") or k:match("PROCID") then r = tonumber(v)
        elseif k:match("SIZE") or k:match("NTASKS") then n = tonumber(v) end
      end
      assert.are.same({ r, n, l }, { info.rank, info.size, info.local_rank }, name)
      assert.are.equal("integer", math.type(info.rank))
    end
    local t = env.detect(getenv_of(cases[3][2]), raiser)
    assert.are.same({ "node7", "29500" }, { t.master_addr, t.master_port })
  end)

  it("no launcher: nil", function()
    assert.is_nil(env.detect(getenv_of({ HOME = "/root" }), raiser))
    assert.is_nil(env.detect(getenv_of({ RANK = "" }), raiser))
  end)

  it("the more specific launcher wins over the one it runs in", function()
    -- mpirun inside a Slurm allocation: every rank inherits SLURM_PROCID=0
    local vars = { SLURM_PROCID = "0", SLURM_NTASKS = "1", OMPI_COMM_WORLD_RANK = "1", OMPI_COMM_WORLD_SIZE = "2" }
    local info = env.detect(getenv_of(vars), raiser)
    assert.are.same({ "Open MPI", 1, 2 }, { info.launcher, info.rank, info.size })
    -- torchrun started by srun: torchrun's own RANK for its workers
    vars = { SLURM_PROCID = "0", SLURM_NTASKS = "1", RANK = "3", WORLD_SIZE = "4", LOCAL_RANK = "3" }
    info = env.detect(getenv_of(vars), raiser)
    assert.are.same({ "torchrun", 3, 4, 3 }, { info.launcher, info.rank, info.size, info.local_rank })
  end)

  it("the alternatives: PMI_LOCAL_RANK, SLURM_NPROCS; a missing local rank is nil", function()
    local info = env.detect(getenv_of({ PMI_RANK = "1", PMI_SIZE = "2", PMI_LOCAL_RANK = "1" }), raiser)
    assert.are.equal(1, info.local_rank)
    info = env.detect(getenv_of({ SLURM_PROCID = "1", SLURM_NPROCS = "3" }), raiser)
    assert.are.same({ 1, 3 }, { info.rank, info.size })
    assert.is_nil(info.local_rank)
  end)

  it("names what is missing or wrong", function()
    local function e(vars) return err_of(env.detect, getenv_of(vars), raiser) end
    assert.are.equal("FAIL: RANK is set but WORLD_SIZE is not (torchrun sets both; is the environment complete?)",
      e({ RANK = "0" }))
    assert.matches("WORLD_SIZE is set but RANK is not", e({ WORLD_SIZE = "2" }))
    assert.matches("SLURM_PROCID is set but SLURM_NTASKS or SLURM_NPROCS is not", e({ SLURM_PROCID = "0" }))
    assert.matches("OMPI_COMM_WORLD_SIZE is set but OMPI_COMM_WORLD_RANK is not", e({ OMPI_COMM_WORLD_SIZE = "2" }))
    assert.are.equal('FAIL: RANK="one" is not a non-negative integer', e({ RANK = "one", WORLD_SIZE = "2" }))
    assert.matches('PMI_SIZE="%-2" is not a non%-negative integer', e({ PMI_RANK = "0", PMI_SIZE = "-2" }))
    assert.matches('LOCAL_RANK="1.5"', e({ RANK = "0", WORLD_SIZE = "2", LOCAL_RANK = "1.5" }))
    assert.are.equal("FAIL: RANK=2 is not a rank of a world of WORLD_SIZE=2 (ranks are 0 to 1)",
      e({ RANK = "2", WORLD_SIZE = "2" }))
    assert.matches("WORLD_SIZE=0: the world needs at least one rank", e({ RANK = "0", WORLD_SIZE = "0" }))
    assert.matches("SLURM_LOCALID=4 is not below the world size SLURM_NTASKS=4",
      e({ SLURM_PROCID = "0", SLURM_NTASKS = "4", SLURM_LOCALID = "4" }))
  end)

  it("is read from a child process's real environment, for every launcher", function()
    for _, c in ipairs(cases) do
      local ok, out = child(c[2], [[local ga = require "gpuarray"
        local i = ga.distributed.environment()
        io.write(i.launcher, " ", i.rank, " ", i.size, " ", tostring(i.local_rank), " ", tostring(i.mpi))]])
      assert.is_true(ok, out)
      local info = env.detect(getenv_of(c[2]), raiser)
      assert.are.equal(("%s %d %d %d %s"):format(c[1], info.rank, info.size, info.local_rank, tostring(c[3])), out)
    end
    local ok, out = child({}, [[io.write(tostring(require("gpuarray").distributed.environment()))]])
    assert.is_true(ok, out)
    assert.are.equal("nil", out)
  end)

  it("an inconsistent environment is an error of environment() and init(), before any device", function()
    local ok, out = child({ RANK = "3", WORLD_SIZE = "2" }, [[local ga = require "gpuarray"
      local ok, e = pcall(ga.distributed.environment); print(e)
      ok, e = pcall(ga.distributed.init); print(e)]])
    assert.is_true(ok, out)
    assert.are.equal(
      "gpuarray: distributed.environment: RANK=3 is not a rank of a world of WORLD_SIZE=2 (ranks are 0 to 1)\n"
      .. "gpuarray: distributed.init: RANK=3 is not a rank of a world of WORLD_SIZE=2 (ranks are 0 to 1)\n", out)
  end)

  it("init with several ranks and no store outside MPI says how to share the id, before any device", function()
    local ok, out = child({ RANK = "0", WORLD_SIZE = "2", LOCAL_RANK = "0" }, [[local ga = require "gpuarray"
      print(select(2, pcall(ga.distributed.init)))]])
    assert.is_true(ok, out)
    assert.matches("distributed.init: torchrun started 2 ranks and there is no way to share NCCL's id: pass store = "
      .. "\"file:DIR\"", out, 1, true)
    ok, out = child({ SLURM_PROCID = "0", SLURM_NTASKS = "2", GPUARRAY_STORE = "tcp:host:1" },
      [[print(select(2, pcall(require("gpuarray").distributed.init)))]])
    assert.matches('store must be "file:DIR" (a directory every rank sees), got "tcp:host:1"', out, 1, true)
  end)

  it("under mpirun without libmpi, init names the library it could not load", function()
    local ok, out = child({ OMPI_COMM_WORLD_RANK = "0", OMPI_COMM_WORLD_SIZE = "2",
      GPUARRAY_MPI = "/nonexistent/libmpi.so" },
      [[local ga = require "gpuarray"
      print(ga._core.distributed.mpi_available())
      print(select(2, pcall(ga.distributed.init)))]])
    assert.is_true(ok, out)
    assert.matches("^false\tGPUARRAY_MPI=/nonexistent/libmpi.so could not be loaded", out)
    assert.matches("distributed.init: MPI is not available: GPUARRAY_MPI=/nonexistent/libmpi.so could not be loaded",
      out, 1, true)
    -- a library that is not MPI
    ok, out = child({ GPUARRAY_MPI = "libm.so.6" }, [[print(require("gpuarray")._core.distributed.mpi_available())]])
    assert.is_true(ok, out)
    assert.matches("false\tthe MPI library has no MPI_Initialized (is it an MPI library?)", out, 1, true)
  end)

  it("checks init's arguments", function()
    local d = ga.distributed
    assert.matches("give both n_devices and rank, or neither", err_of(d.init, 2))
    assert.matches("distributed.init: rank 2 is not in 0 to n_devices%-1 %(1%)", err_of(d.init, 2, 2))
    assert.matches("n_devices must be at least 1", err_of(d.init, 0, 0))
    assert.matches("timeout must be positive", err_of(d.init, { timeout = 0 }))
    assert.matches("unknown option 'stor'", err_of(d.init, { stor = "file:/tmp" }))
    assert.matches("the arguments started 2 ranks and there is no way to share NCCL's id", err_of(d.init, 2, 0), 1,
      true)
    assert.is_false(d.is_initialized())
  end)

  it("every collective of the module says init was not called", function()
    for _, name in ipairs({ "rank", "size", "local_rank", "device", "barrier", "abort" }) do
      assert.are.equal(("gpuarray: distributed.%s: ga.distributed.init() was not called (or the world was destroyed)")
        :format(name), err_of(ga.distributed[name]))
    end
    assert.matches("distributed.new_group: ranks must be", err_of(ga.distributed.new_group, 3))
    assert.matches("distributed.new_group: ga.distributed.init%(%) was not called",
      err_of(ga.distributed.new_group, { 0 }))
    ga.distributed.finalize()   -- nothing to do: no error
  end)
end)

describe("distributed: the device of a rank", function()
  it("is the local rank among the visible devices, else the rank modulo them", function()
    assert.are.equal(1, env.device(1, 5, 2, raiser))
    assert.are.equal(0, env.device(3, 3, 1, raiser))      -- one visible device: 0 for every rank
    assert.are.equal(1, env.device(nil, 5, 4, raiser))
    assert.are.equal(
      "FAIL: local rank 2 has no device of its own: 2 are visible (start at most 2 ranks per node, "
        .. "or give each rank its own CUDA_VISIBLE_DEVICES)",
      err_of(env.device, 2, 2, 2, raiser))
    assert.are.equal("FAIL: no CUDA device is visible to this rank", err_of(env.device, 0, 0, 0, raiser))
  end)

  it("the store key is the launcher's job id, made safe for a file name", function()
    assert.are.equal("abc", env.job_key(getenv_of({ TORCHELASTIC_RUN_ID = "abc", SLURM_JOB_ID = "7" })))
    assert.are.equal("7.2", env.job_key(getenv_of({ SLURM_JOB_ID = "7", SLURM_STEP_ID = "2" })))
    assert.are.equal("port29500", env.job_key(getenv_of({ MASTER_PORT = "29500" })))
    assert.are.equal("a_b_c", env.job_key(getenv_of({ GPUARRAY_STORE_KEY = "a/b c" })))
    assert.are.equal("job", env.job_key(getenv_of({})))
  end)
end)

describe("distributed: new_group's split", function()
  it("gives the members color 0 and their position as key, the others -1", function()
    for _ = 1, 20 do
      local size = math.random(1, 9)
      local ranks, pool = {}, {}
      for r = 0, size - 1 do pool[#pool + 1] = r end
      for _ = 1, math.random(1, size) do ranks[#ranks + 1] = table.remove(pool, math.random(#pool)) end
      for me = 0, size - 1 do
        local color, key = split.key(ranks, me, size, raiser)
        local pos
        for i, r in ipairs(ranks) do if r == me then pos = i - 1 end end
        assert.are.same(pos and { 0, pos } or { -1, 0 }, { color, key })
      end
    end
  end)

  it("names a bad list", function()
    assert.are.equal("FAIL: ranks is empty (a group needs at least one rank)", err_of(split.key, {}, 0, 2, raiser))
    assert.are.equal("FAIL: rank 2 is not in the group of 2 (ranks are 0-based: 0 to 1)", err_of(split.key, { 0,
      2 }, 0, 2, raiser))
    assert.are.equal("FAIL: rank 1 is listed twice", err_of(split.key, { 1, 1 }, 0, 2, raiser))
    assert.are.equal("FAIL: ranks[2] is not an integer (got 0.5)", err_of(split.key, { 1, 0.5 }, 0, 2, raiser))
  end)
end)

describe("distributed: the file store", function()
  it("parses file:DIR and nothing else", function()
    assert.are.equal("/shared/x", store.parse("file:/shared/x/", raiser))
    assert.matches('store must be "file:DIR"', err_of(store.parse, "/shared/x", raiser))
  end)

  -- n processes rendezvous in dir; returns each one's output
  local function run_ranks(dir, n, timeout, opts)
    opts = opts or {}
    local procs = {}
    for r = 0, n - 1 do
      if not (opts.skip and opts.skip[r]) then
        local size = opts.sizes and opts.sizes[r] or n
        local code = ([[local ga = require "gpuarray"
          local store = require "gpuarray.distributed.store"
          local core = ga._core.distributed
          local ok, v = pcall(store.rendezvous, { dir = %q, key = "k", rank = %d, size = %d, timeout = %g,
            payload = function() return ga.nccl.get_unique_id() end, now = core.now, sleep = core.sleep,
            fail = function(m) error(m, 0) end })
          io.write(ok and "id " or "error ", v)]]):format(dir, r, size, timeout)
        local cmd = ("LUA_PATH=%q LUA_CPATH=%q lua5.4 -e %q 2>&1"):format(package.path, CHILD_CPATH, code)
        procs[r] = io.popen(cmd)
      end
    end
    local out = {}
    for r = 0, n - 1 do
      if procs[r] then
        out[r] = procs[r]:read("a")
        procs[r]:close()
      end
    end
    return out
  end

  it("hands rank 0's NCCL id to every rank and cleans up", function()
    if not ga.nccl.available() then return pending("needs libnccl to make an id") end
    local dir = tmpdir()
    local out = run_ranks(dir, 4, 20)
    local id = out[0]:match("^id (%x+)$")
    assert.is_truthy(id, out[0])
    assert.are.equal(256, #id)
    for r = 1, 3 do assert.are.equal("id " .. id, out[r], "rank " .. r) end
    assert.are.equal("", listdir(dir))
    -- and again in the same directory: a fresh id
    local again = run_ranks(dir, 2, 20)
    assert.are_not.equal(out[0], again[0])
    assert.are.equal(again[0], again[1])
    os.remove(dir)
  end)

  it("times out naming the ranks that did not arrive, and rank 0 if it is the one missing", function()
    if not ga.nccl.available() then return pending("needs libnccl to make an id") end
    local dir = tmpdir()
    local t0 = os.time()
    local out = run_ranks(dir, 4, 1, { skip = { [1] = true, [3] = true } })
    assert.are.equal("error rank 1, 3 of 4 did not arrive within 1 s (store " .. dir
      .. ", key k: did every rank start, with the same store directory?)", out[0])
    assert.are.equal("id", out[2]:sub(1, 2))   -- rank 2 got the id before rank 0 gave up
    out = run_ranks(dir, 2, 0.5, { skip = { [0] = true } })
    assert.are.equal("error rank 1 waited 0.5 s for rank 0's id in " .. dir
      .. "/k.id (is rank 0 running, with the same store directory and key?)", out[1])
    assert.is_true(os.time() - t0 < 10)
    assert.are.equal("", listdir(dir))
    os.remove(dir)
  end)

  it("a rank whose world differs from rank 0's says so", function()
    if not ga.nccl.available() then return pending("needs libnccl to make an id") end
    local dir = tmpdir()
    local out = run_ranks(dir, 2, 1, { sizes = { [1] = 3 } })
    assert.are.equal("error rank 0 announced a world of 2 ranks in " .. dir .. "/k.id, this rank's environment says 3",
      out[1])
    assert.matches("^error rank 1 of 2 did not arrive", out[0])
    os.execute("rm -rf " .. dir)
  end)

  it("a missing directory is named", function()
    local e = err_of(store.rendezvous, { dir = "/nonexistent/store", key = "k", rank = 1, size = 2, timeout = 1,
      now = os.clock, sleep = function() end, fail = raiser })
    assert.are.equal('FAIL: the store directory /nonexistent/store does not exist '
      .. '(store = "file:/nonexistent/store")', e)
  end)
end)

describe("distributed: MPI's id exchange under a real mpirun", function()
  local have = helper.sh("command -v mpirun")
  local mpi_it = have and it or function(name) pending(name .. " (mpirun is not installed)") end
  mpi_it("two ranks get rank 0's bytes through MPI_Bcast, after MPI_Barrier", function()
    local code = [[local core = require("gpuarray")._core.distributed
      local r, n = core.mpi_init()
      local msg = core.mpi_bcast(r == 0 and ("x"):rep(200) .. "end-of-id-from-0" .. ("y"):rep(40) or nil, 0, 256)
      core.mpi_barrier()
      print(("rank %d of %d %s %s"):format(r, n, select(2, core.mpi_available()), msg:sub(195, 220)))
      core.mpi_finalize()]]
    local ok, out = helper.sh(("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent= "
      .. "LUA_PATH=%q LUA_CPATH=%q timeout 60 mpirun --oversubscribe -np 2 lua5.4 -e %q"):format(package.path,
      CHILD_CPATH, code))
    assert.is_true(ok, out)
    assert.matches("rank 0 of 2 Open MPI xxxxxxend%-of%-id%-from%-0yyyy\n", out)
    assert.matches("rank 1 of 2 Open MPI xxxxxxend%-of%-id%-from%-0yyyy\n", out)
  end)
end)
