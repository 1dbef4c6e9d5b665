-- check-version.lua: the release's version is one number in every place that
-- states it (make check-version; .ci/run runs it). Checks:
--   include/gpuarray.h   GPUARRAY_VERSION "X.Y.Z" and MAJOR/MINOR/PATCH
--   ga.version           the loaded module's (when gpuarray.core loads with
--                        the paths given; module.c copies the header's)
--   gpuarray-X.Y.Z-N.rockspec  exactly one release rockspec: its file name,
--                        version and source tag vX.Y.Z; beside it
--                        gpuarray-scm-1.rockspec, which must say the same
--                        as the release everywhere but version and source.tag
--   CHANGELOG.md         its first version heading is "## X.Y.Z"
-- Prints "version: X.Y.Z agrees (...)" or each disagreement; exit 1 on any.
-- Run from the repository root: lua5.4 tools/check-version.lua
local problems = {}
local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end

local function read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- the header
local header = read("include/gpuarray.h") or ""
local version = header:match('#define GPUARRAY_VERSION "([^"]*)"')
if not version then
  print("version: include/gpuarray.h has no #define GPUARRAY_VERSION \"X.Y.Z\"")
  os.exit(1)
end
local major, minor, patch = version:match("^(%d+)%.(%d+)%.(%d+)$")
if not major then problem('include/gpuarray.h: GPUARRAY_VERSION "%s" is not X.Y.Z', version) end
for part, want in pairs({ MAJOR = major, MINOR = minor, PATCH = patch }) do
  local got = header:match("#define GPUARRAY_VERSION_" .. part .. " (%d+)")
  if got ~= want then
    problem("include/gpuarray.h: GPUARRAY_VERSION_%s is %s, GPUARRAY_VERSION says %s", part, tostring(got),
            tostring(want))
  end
end
local seen = { "include/gpuarray.h" }

-- the module, where it loads (a built tree on LUA_CPATH)
local ok, core = pcall(require, "gpuarray.core")
if ok and type(core) == "table" then
  if core.version ~= version then
    problem("ga.version is %s (%s), the header says %s", tostring(core.version),
            package.searchpath("gpuarray.core", package.cpath) or "?", version)
  end
  seen[#seen + 1] = "ga.version"
end

-- a rockspec is Lua: run it in an empty environment
local function rockspec(path)
  local env = {}
  local chunk, err = loadfile(path, "t", env)
  if not chunk then
    problem("%s: %s", path, err)
    return nil
  end
  local done, why = pcall(chunk)
  if not done then
    problem("%s: %s", path, tostring(why))
    return nil
  end
  return env
end

-- the same value, compared through its text (keys sorted)
local function text(v)
  if type(v) ~= "table" then return ("%q"):format(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = ("[%s]=%s"):format(text(k), text(v[k])) end
  return "{" .. table.concat(out, ",") .. "}"
end

local releases = {}
local p = io.popen("ls gpuarray-*.rockspec 2>/dev/null")
for name in p:lines() do
  if name ~= "gpuarray-scm-1.rockspec" then releases[#releases + 1] = name end
end
p:close()
local release
if #releases ~= 1 then
  problem("expected one release rockspec gpuarray-X.Y.Z-N.rockspec, found %d: %s", #releases,
          table.concat(releases, " "))
else
  local name = releases[1]
  local fv, rev = name:match("^gpuarray%-(.-)%-(%d+)%.rockspec$")
  if fv ~= version then problem("%s: the file name says %s, the header %s", name, tostring(fv), version) end
  release = rockspec(name)
  if release then
    if release.version ~= ("%s-%s"):format(version, tostring(rev)) then
      problem("%s: version = %q, the file name and header say %s-%s", name, tostring(release.version), version,
              tostring(rev))
    end
    local tag = release.source and release.source.tag
    if tag ~= "v" .. version then
      problem("%s: source.tag is %s, want v%s", name, tostring(tag), version)
    end
    if release.package ~= "gpuarray" then problem("%s: package is %s", name, tostring(release.package)) end
  end
  seen[#seen + 1] = name
end

-- scm-1: the development rockspec says what the release says
local scm = rockspec("gpuarray-scm-1.rockspec")
if scm and release then
  for k in pairs(release) do if scm[k] == nil then problem("gpuarray-scm-1.rockspec lacks %s", k) end end
  for k, v in pairs(scm) do
    if k == "version" then
      if v ~= "scm-1" then problem("gpuarray-scm-1.rockspec: version = %q", tostring(v)) end
    elseif k == "source" then
      local a, b = {}, {}
      for sk, sv in pairs(v) do a[sk] = sv end
      for sk, sv in pairs(release.source or {}) do b[sk] = sv end
      b.tag = nil
      if text(a) ~= text(b) then
        problem("gpuarray-scm-1.rockspec: source differs from the release's beyond its tag")
      end
    elseif text(v) ~= text(release[k]) then
      problem("gpuarray-scm-1.rockspec: %s differs from the release rockspec's", k)
    end
  end
end

-- the changelog's newest entry
local changelog = read("CHANGELOG.md") or ""
local first = changelog:match("\n## %[?(%d+%.%d+%.%d+)%]?") or changelog:match("^## %[?(%d+%.%d+%.%d+)%]?")
if first ~= version then
  problem("CHANGELOG.md: the newest entry is %s, the header says %s", tostring(first), version)
end
seen[#seen + 1] = "CHANGELOG.md"

if #problems > 0 then
  for _, line in ipairs(problems) do print("version: " .. line) end
  os.exit(1)
end
print(("version: %s agrees (%s)"):format(version, table.concat(seen, ", ")))
