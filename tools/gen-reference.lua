-- gen-reference.lua [--check] [OUT]: docs/reference.md from the
-- declarations (API.md §0). With --check, compares with the committed page
-- and lists every public name that has no declaration; exit 1 on either.
-- Run with the module's paths (make reference / make reference-check).
local check = arg[1] == "--check"
-- (not `check and arg[2] or arg[1]`: without arg[2] that is "--check")
local outpath
if check then outpath = arg[2] or "docs/reference.md" else outpath = arg[1] or "docs/reference.md" end
local ga = require "gpuarray"
local api = require "gpuarray.api"
local surface = require "gpuarray.api.surface"

local undeclared = surface.undeclared(ga)

-- sections: the namespace of each qualname ("linalg", "random.Generator",
-- top level "ga"); methods under their class
local sections, order = {}, {}
for _, e in ipairs(api.list) do
  if e.f ~= nil then
    local q = e.info.qualname
    local sec = e.info.class or q:match("^(.*)%.[%w_]+$") or "ga"
    if not sections[sec] then
      sections[sec] = {}
      order[#order + 1] = sec
    end
    table.insert(sections[sec], e)
  end
end
table.sort(order, function(a, b)
  if a == "ga" then return b ~= "ga" end
  if b == "ga" then return false end
  return a < b
end)

local out = {
  "# Reference",
  "",
  "Generated from the declarations by `make reference` (tools/gen-reference.lua):",
  "do not edit by hand. One entry per public function and method: its",
  "signature (API.md §0: positional arguments, then an options table that",
  "takes any optional parameter by name), its parameters with types and",
  "defaults, and what it returns. `ga.help(f)` returns the same text.",
  "",
  "Types: `array_like` is an ndarray, a Lua number or boolean, or a nested",
  "table; `axes` an integer or a list of integers; `shape` likewise; `dtype`",
  "a dtype name or object; `T?` means T or nil; a quoted string is one of",
  "the values allowed. Axes and indices are 1-based (API.md §0, §14).",
  "",
}
for _, sec in ipairs(order) do
  out[#out + 1] = "## " .. (sec == "ga" and "ga" or sec)
  out[#out + 1] = ""
  local list = sections[sec]
  table.sort(list, function(a, b) return a.info.qualname < b.info.qualname end)
  for _, e in ipairs(list) do out[#out + 1] = api.render(e) end
end
local text = table.concat(out, "\n")

if check then
  local f = io.open(outpath, "r")
  local old = f and f:read("a") or ""
  if f then f:close() end
  local bad = 0
  if old ~= text then
    print(("reference: %s differs from the declarations: run make reference"):format(outpath))
    bad = 1
  end
  if #undeclared > 0 then
    print(("reference: %d public names have no declaration:"):format(#undeclared))
    print("  " .. table.concat(undeclared, " "))
    bad = 1
  end
  if bad == 0 then print(("reference: ok (%d declarations)"):format(#api.list)) end
  os.exit(bad == 0 and 0 or 1)
end
local f = assert(io.open(outpath, "w"))
f:write(text)
f:close()
print(("reference: %s written (%d declarations, %d public names undeclared)"):format(outpath, #api.list,
                                                                                 #undeclared))
