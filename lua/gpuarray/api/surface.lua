--- The public surface of a loaded gpuarray: every function and callable
-- object a user can reach, by the name the user reaches it with
-- ("linalg.norm", "ndarray:sum", "Stream:use"). tools/gen-reference.lua
-- checks each has a declaration; the declared spec and the options fuzzer
-- walk it. Lazily loaded namespaces (ga.scipy.*) are loaded first.
local api = require "gpuarray.api"

local surface = {}

--- Names of the namespaces that load on first use, for the walk
surface.lazy = {}

--- Object types whose methods are public: api.class(name, methods)
surface.classes = {}
function api.class(name, methods)
  surface.classes[name] = methods
end

local function callable(v)
  local t = type(v)
  if t == "function" then return true end
  if t == "userdata" or t == "table" then
    local mt = getmetatable(v)
    return mt ~= nil and type(mt) == "table" and mt.__call ~= nil
  end
  return false
end

--- A sorted list of { name = "linalg.norm", f = value }
function surface.walk(ga)
  for _, path in ipairs(surface.lazy) do
    local t = ga
    for part in path:gmatch("[^.]+") do
      if type(t) ~= "table" then break end
      t = t[part]   -- loads it
    end
  end
  local out, seen = {}, {}
  local function walk(t, prefix, depth)
    if seen[t] or depth > 4 then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == "string" and k:sub(1, 1) ~= "_" and not (depth == 0 and k == "methods") then
        local name = prefix .. k
        if callable(v) then out[#out + 1] = { name = name, f = v } end
        if type(v) == "table" and (getmetatable(v) == nil or depth == 0) then walk(v, name .. ".", depth + 1) end
      end
    end
  end
  walk(ga, "", 0)
  for k, v in pairs(ga.methods) do
    if type(k) == "string" and k:sub(1, 1) ~= "_" and callable(v) then
      out[#out + 1] = { name = "ndarray:" .. k, f = v }
    end
  end
  for cname, methods in pairs(surface.classes) do
    for k, v in pairs(methods) do
      if type(k) == "string" and k:sub(1, 1) ~= "_" and callable(v) then
        out[#out + 1] = { name = cname .. ":" .. k, f = v }
      end
    end
  end
  table.sort(out, function(a, b) return a.name < b.name end)
  return out
end

--- The names of the surface with no declaration
function surface.undeclared(ga)
  local missing = {}
  for _, s in ipairs(surface.walk(ga)) do
    if not api.by_func[s.f] then missing[#missing + 1] = s.name end
  end
  return missing
end

return surface
