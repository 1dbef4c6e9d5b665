-- luacheck: ignore 212 (unused arguments: every call has the same signature)
--- ga.nccl's argument checks: communicator ids (hex strings mutated in
-- length and content), ranks, rank counts, device lists, groups. Every
-- input has at least one bad field, so no call ever reaches NCCL's
-- rendezvous (which would wait for ranks that never come).
local HEX = "0123456789abcdef"

local function hex_id(F)
  local n = F.chance(0.5) and 256 or F.pick({ 0, 1, 128, 255, 257, 512 })
  local t = {}
  for i = 1, n do
    local k = math.random(16)
    t[i] = HEX:sub(k, k)
  end
  local s = table.concat(t)
  if #s == 256 and F.chance(0.7) then   -- one character that is no hex digit
    local at = math.random(256)
    s = s:sub(1, at - 1) .. F.pick({ "g", "Z", " ", "\0", "-", "x" }) .. s:sub(at + 1)
  end
  return s
end

local function bad_rank(F, nranks)
  if type(nranks) ~= "number" then return F.int() end
  return F.pick({ -1, nranks, nranks + 1, math.mininteger, math.maxinteger })
end

local CALLS = {
  function(F, t) return F.ga.nccl.Communicator(t.nranks, t.id, t.rank) end,
  function(F, t) return F.ga.nccl.Communicator.init_all(t.devices) end,
  function(F, t) return F.ga.nccl.group(t.fn) end,
  function(F, t) return F.ga.nccl.available() end,
}

return {
  name = "nccl",
  gen = function(F)
    local nranks = F.chance(0.7) and math.random(-2, 9) or F.any(1)
    local id = F.chance(0.8) and hex_id(F) or F.any(1)
    local rank = F.chance(0.5) and bad_rank(F, nranks) or (F.chance(0.5) and F.int() or F.any(1))
    if type(nranks) == "number" and nranks >= 1 and type(rank) == "number" and rank >= 0 and rank < nranks
       and type(id) == "string" and #id == 256 and id:match("^%x+$") then
      rank = nranks   -- keep one field bad: never a real rendezvous
    end
    local devices = F.chance(0.5) and F.any(1) or { F.int(), F.int() }
    local fn = F.chance(0.5) and F.any(0) or function() error("gpuarray: inside the group", 0) end
    return { call = math.random(#CALLS), nranks = nranks, id = id, rank = rank, devices = devices, fn = fn }
  end,
  run = function(t, F) return CALLS[t.call](F, t) end,
}
