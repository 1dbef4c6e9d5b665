--- Declarations of public functions (API.md §0, "One rule for every
-- signature"). Every public function is declared once, as text:
--
--   api.def(ga.linalg, [[
--   linalg.norm(x: array_like, ord: number|"fro"|"nuc"?, axis: axes?,
--               keepdims: boolean = false) -> ndarray
--   Matrix or vector norm.
--   ]], function(x, ord, axis, keepdims) ... end)
--
-- src/core/decl.h has the grammar. The binder (src/api/) applies the
-- declaration to every call: positional arguments, then a trailing options
-- table for any optional parameter by name; unknown keys (with the nearest
-- name suggested), wrong types and surplus arguments raise naming the
-- function; the implementation receives every parameter by position, with
-- its default filled in, then the `...` values. The reference page
-- (docs/reference.md, tools/gen-reference.lua) and ga.help read the same
-- declarations, so they cannot drift from the code.
local core = require "gpuarray.core"
local capi = core.api

local api = {}

--- Every declaration in the order made: entries { info = (the parsed
-- declaration, core.api.info), f = the function, also = {other public
-- names of f} }
api.list = {}
api.by_func = {}   -- a declared function (or callable object) -> its entry
api.by_name = {}   -- qualname ("linalg.norm", "ndarray:fill") and fname -> entry

local function key_of(qualname)
  return qualname:match("[:.]([%w_]+)$") or qualname
end

-- an entry's info table is made when first read (the reference, ga.help,
-- the specs): the module's Lua heap stays small, and with it the
-- collector's work per array a program makes
local Entry = {
  __index = function(e, k)
    if k ~= "info" then return nil end
    local info = capi.info(e.decl)
    rawset(e, "info", info)
    return info
  end,
}

local function register(d, f)
  local qualname, fname = capi.names(d)
  local e = setmetatable({ f = f, decl = d, also = {}, qualname = qualname }, Entry)
  api.list[#api.list + 1] = e
  if f ~= nil then api.by_func[f] = e end
  api.by_name[qualname] = e
  if api.by_name[fname] == nil then api.by_name[fname] = e end
  return e
end

--- Declare and bind: f applies the declaration, then calls impl with every
-- parameter's value by position. Sets tbl[name] = f when tbl is given
-- (name: the declaration's last name) and returns f.
function api.def(tbl, text, impl)
  local d = capi.parse(text)
  local f = capi.bind(d, impl)
  local e = register(d, f)
  if tbl ~= nil then tbl[key_of(e.qualname)] = f end
  return f
end

--- Declare and bind a list of functions that take no arguments, each entry
-- {signature, summary, f}: tbl[name] = a bound function that checks there
-- are none and calls f() (C functions of the module under their public
-- names). prefix goes before each signature ("nccl." for ga.nccl's).
function api.def_nullary(tbl, prefix, list)
  for _, d in ipairs(list) do
    local c = d[3]
    api.def(tbl, prefix .. d[1] .. "\n" .. d[2], function() return c() end)
  end
end

--- Declare a function that applies its declaration itself (a C function
-- on a hot path, a callable object such as a ufunc): returns the parsed
-- declaration to hand to it. f may be nil when it is made later (then
-- api.attach(d, f)).
function api.declare(text, f)
  local d = capi.parse(text)
  register(d, f)
  return d
end

function api.attach(d, f)
  for _, e in ipairs(api.list) do
    if e.decl == d then
      e.f = f
      api.by_func[f] = e
      return
    end
  end
  error("gpuarray: api.attach: an undeclared declaration", 2)
end

--- Another public name of a declared function (ga.amax for ga.max,
-- ndarray:sum for ga.sum): the reference lists it with the declaration
function api.alias(name, f)
  local e = api.by_func[f]
  if not e then error(("gpuarray: api.alias: %s is not declared"):format(name), 2) end
  e.also[#e.also + 1] = name
  if api.by_name[name] == nil then api.by_name[name] = e end
end

--- An object type declarations may name (`sparse`, `LinearOperator`):
-- checker(v) says whether v is one
api.set_type = capi.set_type

--- Run fn(...) as user code from inside a public function: the public
-- functions it calls name themselves in their errors
api.call_user = capi.call_user

--- The binder alone: the values a call would pass to the implementation
api.apply = capi.apply

-------------------------------------------------------------------------
-- The reference text of one declaration (docs/reference.md and ga.help)

local function md_escape(s)
  return (s:gsub("|", "\\|"))
end

function api.render(e)
  local info = e.info
  local out = {}
  out[#out + 1] = ("### `%s`"):format(info.qualname)
  out[#out + 1] = ""
  out[#out + 1] = "```lua"
  out[#out + 1] = info.signature
  out[#out + 1] = "```"
  out[#out + 1] = ""
  if info.doc ~= "" then
    out[#out + 1] = info.doc
    out[#out + 1] = ""
  end
  local rows = {}
  for _, p in ipairs(info.params) do
    if not p.self then
      local name = table.concat(p.names, ", ")
      local how
      if p.vararg then how = "any number, by position"
      elseif p.kwonly then how = "by name"
      else how = "by position or name" end
      local default = p.default or (p.optional and "nil" or "required")
      rows[#rows + 1] = ("| `%s` | %s | %s | %s |"):format(md_escape(name), md_escape(p.type or "any"),
                                                          md_escape(default), how)
    end
  end
  if #rows > 0 then
    out[#out + 1] = "| parameter | type | default | given |"
    out[#out + 1] = "| --- | --- | --- | --- |"
    for _, r in ipairs(rows) do out[#out + 1] = r end
    out[#out + 1] = ""
  end
  out[#out + 1] = "Returns: " .. (info.returns or "nothing") .. "."
  if #e.also > 0 then
    table.sort(e.also)
    out[#out + 1] = ""
    out[#out + 1] = "Also reached as: " .. table.concat(e.also, ", "):gsub("[^, ]+", "`%0`") .. "."
  end
  return table.concat(out, "\n") .. "\n"
end

--- The entry of a function or of a name ("linalg.norm", "ndarray:sum", "sum")
function api.entry(f_or_name)
  if type(f_or_name) == "string" then
    local n = f_or_name:gsub("^ga%.", "")
    return api.by_name[n]
  end
  return api.by_func[f_or_name]
end

return api
