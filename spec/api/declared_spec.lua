--- Generated from the declarations (API.md §0): for every declared public
-- function, the binder's rules hold as the user meets them: an unknown
-- option, a value of a wrong type and a surplus argument raise
-- "gpuarray: <the function's name>: ...", before any work is done; and on a
-- GPU, the positional and the options forms of a call agree. The list is
-- whatever the loaded module declares, so a new declaration is covered
-- without editing this file.
local helper = require "helper"
local ga = helper.ga
local api = require "gpuarray.api"
local surface = require "gpuarray.api.surface"

surface.walk(ga)   -- loads the lazy namespaces, so their declarations are made

-- A value the binder takes for a parameter, by its first type; nil when none
-- can be made here (an object type, or an ndarray without a GPU)
local function sample(p)
  local t = p.types[1]
  if t == nil or t == "any" then return 1 end
  if t:sub(1, 1) == '"' then return t:sub(2, -2) end
  local v = ({
    boolean = false, integer = 1, number = 0.5, string = "x", table = {}, list = {}, dict = {},
    scalar = 1, dtype = "float64", shape = { 2, 2 }, axis = 1, axes = 1, array_like = 1,
  })[t]
  if v ~= nil then return v end
  if t == "function" or t == "callable" then return function(...) return ... end end
  if t == "ndarray" and helper.gpu then return ga.ones({ 2, 2 }) end
  return nil
end

-- Arguments for the required positional parameters, or nil if one cannot
-- be made
local function required_args(info)
  local args = {}
  for i = 1, info.npos do
    local p = info.params[i]
    if p.optional then break end
    local v = sample(p)
    if v == nil then return nil end
    args[#args + 1] = v
  end
  return args
end

local function first_line(s)
  return (tostring(s):match("^[^\n]*"))
end

local function expect_error(f, args, pattern, what)
  local n = #args
  local ok, e = pcall(f, table.unpack(args, 1, n))
  assert(not ok, what .. ": no error")
  assert(tostring(e):find(pattern, 1, true), ("%s: %q lacks %q"):format(what, first_line(e), pattern))
end

describe("api: every declared function", function()
  local entries = {}
  for _, e in ipairs(api.list) do
    -- kernel-only intrinsics (ga.jit's) stand for CUDA and are not called on the host
    if e.f ~= nil and not e.kernel_only and not e.info.qualname:match("^demo%.") then entries[#entries + 1] = e end
  end

  it("has a summary line and a return description", function()
    assert.is_true(#entries > 0)
    for _, e in ipairs(entries) do
      assert(e.info.doc ~= "", e.info.qualname .. ": no doc line")
    end
  end)

  it("raises on an unknown option, naming the function and the nearest name", function()
    local checked = 0
    for _, e in ipairs(entries) do
      local info = e.info
      local args = required_args(info)
      if args then
        -- fill the remaining positional slots with nil so the table is the trailing one
        for _ = #args + 1, info.npos do args[#args + 1] = nil end
        local call = {}
        for i = 1, info.npos do call[i] = args[i] end
        call[info.npos + 1] = { zz_not_an_option = 1 }
        local ok, err = pcall(e.f, table.unpack(call, 1, info.npos + 1))
        local slot0 = info.params[info.npos + 1]
        assert(not ok or (slot0 and (slot0.type or ""):find("dict", 1, true)),
               info.qualname .. ": an unknown option passed")
        local want = ("gpuarray: %s: unknown option 'zz_not_an_option'"):format(info.fname)
        local slot = info.params[info.npos + 1]
        -- a trailing named table fills a `dict` parameter or `...` instead
        local takes_dict = slot and (slot.type == "dict" or (slot.type or ""):find("dict", 1, true))
        if not (slot and (slot.vararg and takes_dict or slot.type == "dict")) then
          assert(tostring(err):sub(1, #want) == want,
                 ("%s: %q, expected %q"):format(info.qualname, first_line(err), want))
        end
        checked = checked + 1
      end
    end
    assert.is_true(checked > 0)
  end)

  it("raises on a value of a wrong type given by name, naming the function and the parameter", function()
    local co = coroutine.create(print)   -- no declared type takes a thread
    for _, e in ipairs(entries) do
      local info = e.info
      local args = required_args(info)
      if args then
        for _, p in ipairs(info.params) do
          if not p.self and not p.vararg and #p.types > 0 and (p.optional or p.kwonly) then
            local call = { table.unpack(args) }
            for _ = #call + 1, info.npos do call[#call + 1] = nil end
            call[info.npos + 1] = { [p.name] = co }
            expect_error(e.f, { table.unpack(call, 1, info.npos + 1) },
                         ("gpuarray: %s: %s must be"):format(info.fname, p.name), info.qualname .. " " .. p.name)
            break
          end
        end
      end
    end
  end)

  it("raises on a surplus argument, naming the function", function()
    for _, e in ipairs(entries) do
      local info = e.info
      local has_vararg = false
      for _, p in ipairs(info.params) do has_vararg = has_vararg or p.vararg end
      local args = required_args(info)
      if args and not has_vararg then
        local call = {}
        for i = 1, info.npos do call[i] = args[i] end
        call[info.npos + 1] = 12345   -- a number is never an options table
        local want = ("gpuarray: %s: t"):format(info.fname)   -- "too many" / "takes no"
        expect_error(e.f, { table.unpack(call, 1, info.npos + 1) }, want, info.qualname)
      end
    end
  end)
end)

-- Functions whose calls have effects beyond their result or need more than
-- one GPU: not called twice with sample arguments
local SKIP = {
  ["nccl"] = true, ["distributed"] = true, ["graph"] = true, ["set_"] = true, ["seed"] = true,
  ["free"] = true, ["synchronize"] = true, ["benchmark"] = true, ["profiler"] = true, ["save"] = true, ["load"] = true,
  ["tofile"] = true, ["savez"] = true, ["savetxt"] = true,
}
local function skipped(q)
  for k in pairs(SKIP) do
    if q:find(k, 1, true) then return true end
  end
  return false
end

-- device arrays and pinned host arrays (ga.pinned_empty): both have a
-- dtype, a shape and totable
local ARRAYS = { ["gpuarray.ndarray"] = true, ["gpuarray.PinnedArray"] = true }
local function is_array(v)
  local mt = getmetatable(v)
  return type(v) == "userdata" and type(mt) == "table" and ARRAYS[mt.__name] == true
end

-- Whether two results agree; uninit: the function returns memory it does
-- not write (empty, empty_like, pinned_empty, ...), whose values differ
-- from call to call: its dtype and shape only
local function same(a, b, uninit)
  if type(a) ~= type(b) then return false end
  if is_array(a) then
    if not is_array(b) or getmetatable(a) ~= getmetatable(b) then return false end
    if a.dtype ~= b.dtype or not helper.same(a.shape, b.shape) then return false end
    return uninit or (helper.same(a:totable(), b:totable()))
  end
  if type(a) == "table" then return (helper.same(a, b)) end
  -- other userdata (a pool, a stream, an event): constructors make a fresh
  -- object per call, so the two forms agree when they made the same kind
  if type(a) == "userdata" then return a == b or getmetatable(a) == getmetatable(b) end
  return a == b or (a ~= a and b ~= b)
end

describe("api: positional and options forms", function()
  helper.gpu_it("agree for every declared function, on sample arguments", function()
    local compared = 0
    for _, e in ipairs(api.list) do
      local info = e.info
      local has_vararg = false
      for _, p in ipairs(info.params) do has_vararg = has_vararg or p.vararg end
      -- with `...`, a trailing table may be one of the values: not compared
      local args = e.f ~= nil and not e.kernel_only and not has_vararg and not skipped(info.qualname)
        and required_args(info)
      if args then
        -- every optional positional parameter with a literal default: given by
        -- position in one call, by name in the other
        local pos, opts = { table.unpack(args) }, {}
        for i = #args + 1, info.npos do
          local p = info.params[i]
          local v = sample(p)
          pos[i] = v
          if v ~= nil then opts[p.name] = v end
        end
        local base = { table.unpack(args) }
        for i = #base + 1, info.npos do base[i] = nil end
        base[info.npos + 1] = opts
        if info.qualname:find("^random") then ga.random.seed(7) end
        local ok1, r1 = pcall(e.f, table.unpack(pos, 1, info.npos))
        if info.qualname:find("^random") then ga.random.seed(7) end
        local ok2, r2 = pcall(e.f, table.unpack(base, 1, info.npos + 1))
        assert(ok1 == ok2, ("%s: one form raised: %s / %s"):format(info.qualname, tostring(r1), tostring(r2)))
        if ok1 then
          assert(same(r1, r2, info.fname:find("empty", 1, true) ~= nil), info.qualname .. ": the two forms differ")
        else
          assert.are.equal(r1, r2, info.qualname)
        end
        compared = compared + 1
      end
    end
    assert.is_true(compared > 0)
  end)
end)
