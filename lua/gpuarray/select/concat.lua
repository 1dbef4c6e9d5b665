--- NumPy's index-expression concatenators (API.md §14): ga.r_ and ga.c_.
-- ga.r_[{a, b, 5, ...}] (or ga.r_(a, b, 5, ...)) joins arrays, lists and
-- scalars along the first axis; ga.c_ along the last, as columns (1-D
-- arrays become {n, 1}). NumPy's slice items (r_[0:5]) are written as
-- ranges of their own here (ga.arange(0, 5), ga.linspace(...)), because a
-- Lua list cannot be told apart from a slice.
--
-- A first item that is a string is NumPy's directive, with 1-based axes:
-- "axis" or "axis,ndmin" or "axis,ndmin,trans1d" (trans1d: the position,
-- 1-based, negative from the end, that the axis of a 1-D item takes when
-- it is raised to ndmin dimensions; -1, the default, the last). The matrix
-- directives "r" and "c" have no matrix type to make here and raise.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array

  local function directive(s, fname)
    if s == "r" or s == "c" then fail(fname .. ": the matrix directives 'r' and 'c' are not supported") end
    local parts = {}
    for p in (s .. ","):gmatch("([^,]*),") do parts[#parts + 1] = p end
    local nums = {}
    for i, p in ipairs(parts) do
      nums[i] = math.tointeger(tonumber(p))
      if nums[i] == nil or #parts > 3 then fail(("%s: unknown directive %q"):format(fname, s)) end
    end
    return nums[1], nums[2], nums[3]
  end

  local function is_scalar(v)
    local t = type(v)
    return t == "number" or t == "boolean" or (t == "userdata" and not is_array(v))
  end

  local function concatenator(fname, items, axis, ndmin, trans1d)
    local n = rawlen(items)
    local first = 1
    if type(rawget(items, 1)) == "string" then
      local a, m, t = directive(rawget(items, 1), fname)
      axis = a
      if m then ndmin = m end
      if t then trans1d = t end
      first = 2
    end
    local objs, types = {}, {}
    for k = first, n do
      local item = rawget(items, k)
      if item == nil then fail(("%s: item %d is nil"):format(fname, k)) end
      if type(item) == "string" then fail(fname .. ": a directive must be the first item") end
      local x = args.array(ga, item, fname)
      local nd = x.ndim
      if nd < ndmin then
        local s = x.shape
        for _ = 1, ndmin - nd do table.insert(s, 1, 1) end
        x = x:reshape(s)
        if trans1d ~= -1 and not is_scalar(item) then
          -- NumPy's trans1d: the item's own axes start at position k1
          local k2 = ndmin - nd
          local k1 = trans1d > 0 and trans1d - 1 or trans1d + k2 + 1
          local perm = {}
          for d = 0, k1 - 1 do perm[#perm + 1] = d + 1 end
          for d = k2, ndmin - 1 do perm[#perm + 1] = d + 1 end
          for d = k1, k2 - 1 do perm[#perm + 1] = d + 1 end
          x = x:transpose(perm)
        end
      end
      objs[#objs + 1] = x
      types[#types + 1] = is_scalar(item) and item or x
    end
    if #objs == 0 then return ga.empty({ 0 }, "float64") end
    local dtype = ga.result_type(table.unpack(types))
    for i, x in ipairs(objs) do
      if x.dtype ~= dtype then objs[i] = x:astype(dtype) end
    end
    return ga.concatenate(objs, axis)
  end

  local function object(name, text, axis, ndmin, trans1d)
    local obj = {}
    local d = api.declare(text, obj)
    setmetatable(obj, {
      __index = function(_, key)
        if type(key) ~= "table" or is_array(key) then return nil end
        return concatenator(name, key, axis, ndmin, trans1d)
      end,
      __call = function(_, ...)
        return concatenator(name, table.pack(api.apply(d, ...)), axis, ndmin, trans1d)
      end,
      __tostring = function() return "gpuarray." .. name end,
    })
    return obj
  end

  ga.r_ = object("r_", [=[
r_(...: any) -> ndarray
NumPy's r_: ga.r_[{a, b, 5}] (or ga.r_(a, b, 5)) joins arrays, lists and
scalars along axis 1 (scalars and 0-d arrays as 1-element arrays), in
their common dtype. A first string item is a directive: "axis[,ndmin[,trans1d]]"
with 1-based axes. Ranges are written as arrays (ga.arange).
]=], 1, 1, -1)

  ga.c_ = object("c_", [=[
c_(...: any) -> ndarray
NumPy's c_: ga.c_[{a, b}] joins along the last axis, 1-D items as columns
({n} becomes {n, 1}): ga.r_ with the directive "-1,2,1".
]=], -1, 2, 1)
end
