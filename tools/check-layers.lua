-- check-layers.lua [ROOT]: the C tree's layering, checked (make check-layers,
-- and before every build of the module: a violation fails `make`).
--
-- src/<layer>/ folders are ranked bottom to top (BELOW and ABOVE, below). Between
-- libhandle and interop sit the feature rooms: every other folder of src/ is
-- one (elementwise, reduction, sort, ...), and names itself and the rooms it
-- uses in its one header, <feature>/<feature>.h, on a line such as
--   /* feature: scan — uses: reduction */      ("uses: none" for no other)
-- A file of a layer may include its own folder's headers and those of
-- layers below it, never above (interop and bind, above the rooms, may
-- include any room's header). A file of a room may include its own folder's
-- headers, the layers below the rooms, and the header <g>/<g>.h of each room
-- g its uses: line names; nothing else. Rooms may not use each other in a
-- cycle, and the includes between files must not form one either. core/
-- stays free of Lua states and CUDA calls, so that its rules are testable
-- anywhere. Prints one line per violation and "layers: ok (N files, M
-- features)", or exits 1.
local BELOW = { "base", "core", "api", "runtime", "compile", "array", "libhandle" }
local ABOVE = { "interop", "bind" }
local rank = {}
for i, name in ipairs(BELOW) do rank[name] = i end
local FEATURE_RANK = #BELOW + 1
for i, name in ipairs(ABOVE) do rank[name] = FEATURE_RANK + i end

local root = arg[1] or "."
local function list(cmd)
  local p = io.popen(cmd)
  local out = {}
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  return out
end

local problems = {}
local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end

local function read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- the rooms: every folder of src/ that is not a layer, with its uses: line
local features, nfeatures = {}, 0
for _, dir in ipairs(list(("find %q -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort"):format(root .. "/src"))) do
  local name = dir:match("([^/]+)$")
  if not rank[name] then
    nfeatures = nfeatures + 1
    local header = ("%s/%s.h"):format(name, name)
    local text = read(dir .. "/" .. name .. ".h")
    local line = text and text:match("feature:%s*[^\n]*")
    if not text then
      problem("%s/: a feature room needs its header %s (or '%s' is a misspelt layer: %s %s)", name, header,
              name, table.concat(BELOW, " "), table.concat(ABOVE, " "))
    elseif not line then
      problem("%s: no feature line (/* feature: %s — uses: <features or none> */)", header, name)
    else
      local own = line:match("^feature:%s*([%w_]+)")
      local uses = line:match("uses:%s*(.-)%s*%*/") or line:match("uses:%s*(.-)%s*$")
      if own ~= name then
        problem("%s: the feature line names '%s', the folder is '%s'", header, tostring(own), name)
      end
      if not uses then problem("%s: the feature line has no uses: list", header) end
      local set, order = {}, {}
      for word in (uses or ""):gmatch("[%w_]+") do
        if word ~= "none" then
          set[word] = true
          order[#order + 1] = word
        end
      end
      features[name] = { uses = set, order = order, header = header }
    end
  end
end
for name, f in pairs(features) do
  for _, u in ipairs(f.order) do
    if u == name then problem("%s: a feature does not list itself in uses:", f.header)
    elseif not features[u] then problem("%s: uses '%s', which is no feature room of src/", f.header, u) end
  end
end

-- cycles among the rooms' uses: lines
do
  local state = {}
  local function visit(name, stack)
    state[name] = "open"
    stack[#stack + 1] = name
    local names = {}
    for u in pairs(features[name].uses) do names[#names + 1] = u end
    table.sort(names)
    for _, u in ipairs(names) do
      if features[u] then
        if state[u] == "open" then
          local cyc, on = {}, false
          for _, s in ipairs(stack) do
            if s == u then on = true end
            if on then cyc[#cyc + 1] = s end
          end
          cyc[#cyc + 1] = u
          problem("feature cycle: %s", table.concat(cyc, " uses "))
        elseif not state[u] then
          visit(u, stack)
        end
      end
    end
    stack[#stack] = nil
    state[name] = "done"
  end
  local names = {}
  for name in pairs(features) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    if not state[name] then visit(name, {}) end
  end
end

local function rank_of(folder)
  if rank[folder] then return rank[folder] end
  if features[folder] then return FEATURE_RANK end
  return nil
end

local files = list(("find %q -name '*.[ch]' -type f 2>/dev/null | sort"):format(root .. "/src"))
local edges = {}          -- file -> list of included files
local known = {}
for _, path in ipairs(files) do known[path] = true end

for _, path in ipairs(files) do
  local rel = path:sub(#root + 6)             -- after "<root>/src/"
  local folder = rel:match("^([^/]+)/")
  local frank = folder and rank_of(folder)
  if not folder then
    problem("%s: every C file belongs in a layer or feature folder (src/<folder>/)", rel)
  end
  edges[path] = {}
  local f = assert(io.open(path, "r"))
  local n = 0
  for line in f:lines() do
    n = n + 1
    local inc = line:match('^%s*#%s*include%s+"([^"]+)"')
    if inc and frank then
      local target, tfolder
      if inc:find("/", 1, true) then
        tfolder = inc:match("^([^/]+)/")
        target = root .. "/src/" .. inc
      else
        tfolder = folder
        target = path:match("^(.*)/") .. "/" .. inc
      end
      local trank = rank_of(tfolder)
      local ok = true
      if not known[target] then
        problem("%s:%d: includes %q, which is not a file of src/", rel, n, inc)
        ok = false
      elseif not trank then
        problem("%s:%d: includes %q from unknown folder '%s'", rel, n, inc, tfolder)
        ok = false
      elseif tfolder ~= folder and features[tfolder] then
        -- another room: only its header, and only from a room that declares
        -- it (or from the layers above the rooms)
        if inc ~= ("%s/%s.h"):format(tfolder, tfolder) then
          problem("%s:%d: includes %q: another room is reached through its header %s/%s.h only", rel, n, inc,
                  tfolder, tfolder)
          ok = false
        elseif features[folder] and not features[folder].uses[tfolder] then
          local decl = #features[folder].order > 0 and table.concat(features[folder].order, " ") or "none"
          problem("%s:%d: includes %q: feature '%s' does not declare it uses '%s' (%s says uses: %s)", rel, n,
                  inc, folder, tfolder, features[folder].header, decl)
          ok = false
        elseif not features[folder] and frank < FEATURE_RANK then
          problem("%s:%d: includes %q: layer '%s' is below the feature rooms", rel, n, inc, folder)
          ok = false
        end
      elseif trank > frank then
        problem("%s:%d: includes %q: layer '%s' is above '%s'", rel, n, inc, tfolder, folder)
        ok = false
      end
      if ok then table.insert(edges[path], target) end
    end
    if folder == "core" and not path:match("%.h$") then
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
print(("layers: ok (%d files, %d features)"):format(#files, nfeatures))
