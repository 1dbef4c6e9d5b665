--- The file store: how ranks that share no MPI hand each other the NCCL id
-- through a directory every rank sees (a shared file system across nodes,
-- /tmp on one node). Rank 0 writes DIR/KEY.id (to a temporary name, then
-- renamed, so no rank reads half a file); every other rank polls for it
-- until a deadline, checks that it describes the same world, and answers
-- with DIR/KEY.ack.<rank>; rank 0 waits for every answer, so that the
-- error of a missing rank names it, and then removes the files. Pure Lua
-- apart from the clock and sleep it is given, and separate from NCCL: the
-- payload is any string (the specs rendezvous without a GPU).
local M = {}

--- M.parse(spec, fail) -> the directory of "file:DIR"
function M.parse(spec, fail)
  local dir = spec:match("^file:(.+)$")
  if not dir then
    fail(("store must be \"file:DIR\" (a directory every rank sees), got %q"):format(spec))
  end
  return (dir:gsub("/+$", ""))
end

local HEADER = "gpuarray-store 1"

local function write_atomically(path, text, fail)
  local tmp = ("%s.tmp%d"):format(path, math.random(1, 1 << 30))
  local f, err = io.open(tmp, "w")
  if not f then fail(("cannot write the store file %s: %s"):format(tmp, err)) end
  f:write(text)
  f:close()
  local ok, rerr = os.rename(tmp, path)
  if not ok then
    os.remove(tmp)
    fail(("cannot rename %s to %s: %s"):format(tmp, path, rerr))
  end
end

local function read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

-- a list of ranks, shortened: "1, 2, 5" or "1, 2, 3, ... (7 ranks)"
local function list(ranks)
  if #ranks <= 8 then return table.concat(ranks, ", ") end
  return table.concat(ranks, ", ", 1, 8) .. (", ... (%d ranks)"):format(#ranks)
end

--- M.rendezvous(o) -> rank 0's payload on every rank. o: dir, key, rank,
-- size, timeout (seconds), payload (a function; called on rank 0 only),
-- now and sleep (the clock), fail(msg) (raises).
function M.rendezvous(o)
  local fail = o.fail
  if not exists(o.dir) then fail(("the store directory %s does not exist (store = \"file:%s\")"):format(o.dir,
    o.dir)) end
  local base = o.dir .. "/" .. o.key
  local deadline = o.now() + o.timeout
  if o.rank == 0 then
    for r = 1, o.size - 1 do os.remove(("%s.ack.%d"):format(base, r)) end   -- a crashed job's leftovers
    local payload = o.payload()
    write_atomically(base .. ".id", ("%s\nsize %d\n%s"):format(HEADER, o.size, payload), fail)
    local waiting = {}
    for r = 1, o.size - 1 do waiting[#waiting + 1] = r end
    while #waiting > 0 do
      local still = {}
      for _, r in ipairs(waiting) do
        if not exists(("%s.ack.%d"):format(base, r)) then still[#still + 1] = r end
      end
      waiting = still
      if #waiting > 0 then
        if o.now() > deadline then
          os.remove(base .. ".id")
          for r = 1, o.size - 1 do os.remove(("%s.ack.%d"):format(base, r)) end
          fail(("rank %s of %d did not arrive within %g s (store %s, key %s: did every rank start, "
            .. "with the same store directory?)"):format(list(waiting), o.size, o.timeout, o.dir, o.key))
        end
        o.sleep(0.01)
      end
    end
    for r = 1, o.size - 1 do os.remove(("%s.ack.%d"):format(base, r)) end
    os.remove(base .. ".id")
    return payload
  end
  local text
  while true do
    text = read(base .. ".id")
    if text then break end
    if o.now() > deadline then
      fail(("rank %d waited %g s for rank 0's id in %s.id (is rank 0 running, with the same store "
        .. "directory and key?)"):format(o.rank, o.timeout, base))
    end
    o.sleep(0.01)
  end
  local size, payload = text:match("^" .. HEADER:gsub("%p", "%%%0") .. "\nsize (%d+)\n(.*)$")
  if not size then fail(("%s.id is not a store file of gpuarray"):format(base)) end
  if tonumber(size) ~= o.size then
    fail(("rank 0 announced a world of %s ranks in %s.id, this rank's environment says %d"):format(size, base,
      o.size))
  end
  write_atomically(("%s.ack.%d"):format(base, o.rank), "here\n", fail)
  return payload
end

return M
