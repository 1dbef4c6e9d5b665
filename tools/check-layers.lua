-- check-layers.lua [ROOT]: the C tree's layering, checked (make check-layers).
-- src/<layer>/ folders are ranked bottom to top; a file may include its own
-- folder's headers and the headers of layers below its own, never above, and
-- the includes between files must not form a cycle. core/ must stay free of
-- Lua states and CUDA calls, so that its rules are testable anywhere.
-- Prints one line per violation and "layers: ok (N files)" or exits 1.
local LAYERS = { "base", "core", "api", "runtime", "compile", "array", "engine", "libs", "interop", "bind" }
local rank = {}
for i, name in ipairs(LAYERS) do rank[name] = i end

local root = arg[1] or "."
local function list(dir)
  local p = io.popen(("find %q -name '*.[ch]' -type f 2>/dev/null | sort"):format(dir))
  local out = {}
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  return out
end

local problems = {}
local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end

local files = list(root .. "/src")
local edges = {}          -- file -> list of included files
local known = {}
for _, path in ipairs(files) do known[path] = true end

for _, path in ipairs(files) do
  local rel = path:sub(#root + 6)             -- after "<root>/src/"
  local layer = rel:match("^([^/]+)/")
  if not layer then
    problem("%s: every C file belongs in a layer folder (src/<layer>/)", rel)
  elseif not rank[layer] then
    problem("%s: unknown layer '%s' (layers: %s)", rel, layer, table.concat(LAYERS, " "))
  end
  edges[path] = {}
  local f = assert(io.open(path, "r"))
  local n = 0
  for line in f:lines() do
    n = n + 1
    local inc = line:match('^%s*#%s*include%s+"([^"]+)"')
    if inc and layer and rank[layer] then
      local target, tlayer
      if inc:find("/", 1, true) then
        tlayer = inc:match("^([^/]+)/")
        target = root .. "/src/" .. inc
      else
        tlayer = layer
        target = path:match("^(.*)/") .. "/" .. inc
      end
      if not known[target] then
        problem("%s:%d: includes %q, which is not a file of src/", rel, n, inc)
      elseif not rank[tlayer] then
        problem("%s:%d: includes %q from unknown layer '%s'", rel, n, inc, tlayer)
      elseif rank[tlayer] > rank[layer] then
        problem("%s:%d: includes %q: layer '%s' is above '%s'", rel, n, inc, tlayer, layer)
      else
        table.insert(edges[path], target)
      end
    end
    if layer == "core" and not path:match("%.h$") then
      local bad = line:match("(lua_State)") or line:match("(cuda%u%w*)%s*%(")
      if bad then problem("%s:%d: core/ uses %s (core has no Lua state and no CUDA calls)", rel, n, bad) end
    end
  end
  f:close()
end

-- cycles: depth-first search over the include graph
local state = {}
local function visit(node, stack)
  state[node] = "open"
  stack[#stack + 1] = node
  for _, nxt in ipairs(edges[node] or {}) do
    if state[nxt] == "open" then
      local cyc, on = {}, false
      for _, s in ipairs(stack) do
        if s == nxt then on = true end
        if on then cyc[#cyc + 1] = s:sub(#root + 6) end
      end
      cyc[#cyc + 1] = nxt:sub(#root + 6)
      problem("include cycle: %s", table.concat(cyc, " -> "))
    elseif not state[nxt] then
      visit(nxt, stack)
    end
  end
  stack[#stack] = nil
  state[node] = "done"
end
for _, path in ipairs(files) do
  if not state[path] then visit(path, {}) end
end

for _, p in ipairs(problems) do print(p) end
if #problems > 0 then
  print(("layers: %d problem%s"):format(#problems, #problems == 1 and "" or "s"))
  os.exit(1)
end
print(("layers: ok (%d files)"):format(#files))
