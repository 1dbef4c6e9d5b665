-- luacheck: ignore 212 (unused arguments: every call has the same signature)
--- Every declared public function (lua/gpuarray/api), through its binder:
-- random positional arguments and random options tables whose keys are the
-- declared names, near misses of them (one letter changed, swapped, case)
-- or anything, with values of any type, over zero-size arrays. Every call
-- must succeed or raise a gpuarray error; a binder that takes a table for
-- `true` or lets a misspelled key through is caught by spec/api.
local api = require "gpuarray.api"
local surface = require "gpuarray.api.surface"

-- calls that write files, wait on other processes or run user functions
-- many times are not fuzzed here (their own targets or specs cover them)
local SKIP = { "nccl", "distributed", "save", "load", "tofile", "fromfile", "savez", "savetxt", "loadtxt",
               "genfromtxt", "benchmark", "graph.capture", "synchronize", "set_allocator", "call_user" }

local function near_miss(name)
  local r = math.random(4)
  if #name < 2 then return name .. "x" end
  local i = math.random(#name - 1)
  if r == 1 then return name:sub(1, i - 1) .. name:sub(i + 1, i + 1) .. name:sub(i, i) .. name:sub(i + 2) end
  if r == 2 then return name:sub(1, i - 1) .. string.char(math.random(97, 122)) .. name:sub(i + 1) end
  if r == 3 then return name:upper() end
  return name .. "_"
end

local function value(F, p)
  local r = math.random(6)
  if r == 1 then return F.array() end
  if r == 2 then return F.int() end
  if r == 3 then return F.dtype() end
  if r == 4 and p and p.types[1] and p.types[1]:sub(1, 1) == '"' then return p.types[1]:sub(2, -2) end
  return F.any(1)
end

return {
  name = "decl",
  setup = function(F)
    surface.walk(F.ga)
    local list = {}
    for _, e in ipairs(api.list) do
      local skip = e.f == nil or e.kernel_only or e.info.qualname:match("^demo%.")
      for _, s in ipairs(SKIP) do skip = skip or e.info.qualname:find(s, 1, true) end
      if not skip then list[#list + 1] = e end
    end
    return list
  end,
  gen = function(F)
    local list = F.state
    local e = list[math.random(#list)]
    local info = e.info
    local args = {}
    local n = math.random(0, info.npos + 1)
    for i = 1, n do args[i] = value(F, info.params[i]) end
    if #info.params > 0 and F.chance(0.7) then
      local o = {}
      for _ = 1, math.random(0, 3) do
        local p = info.params[math.random(#info.params)]
        local key = p.name
        if F.chance(0.3) then key = near_miss(key) elseif F.chance(0.05) then key = F.word() end
        o[key] = value(F, p)
      end
      args[n + 1] = o
      n = n + 1
    end
    return { name = info.qualname, n = n, args = args }
  end,
  run = function(t, F)
    local e = api.by_name[t.name]
    return e.f(table.unpack(t.args, 1, t.n))
  end,
}
