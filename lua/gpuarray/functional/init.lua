--- Functional programming (API.md §14): apply_along_axis, apply_over_axes,
-- vectorize, piecewise.
--
-- apply_along_axis and apply_over_axes call the user's function from Lua,
-- once per 1-D slice or per axis, as NumPy's do from Python. vectorize
-- translates the Lua function to CUDA with ga.jit.elementwisekernel (one
-- kernel per argument dtypes): a function outside the jit's Lua subset
-- raises a clear error when first called. With a signature (a generalized
-- ufunc such as "(n),(n)->()") the function runs from Lua on each core
-- slice instead, as NumPy's does. Axes are 1-based (API.md §0).
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local call_user = api.call_user

  local function as_array(x, fname)
    if is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" or t == "boolean" or t == "userdata" then return ga.asarray(x) end
    fail(("%s: expected an array, got %s"):format(fname, t))
  end

  local function norm_axis(axis, nd, fname)
    if axis >= 1 and axis <= nd then return axis end
    if axis <= -1 and axis >= -nd then return nd + 1 + axis end
    fail(("%s: axis %d is out of range for an array of %d dimensions"):format(fname, axis, nd))
  end

  -- every index tuple of a shape, in C order, passed to fn(idx)
  local function each_index(shape, fn)
    local nd = #shape
    for _, n in ipairs(shape) do if n == 0 then return end end
    local idx = {}
    for d = 1, nd do idx[d] = 1 end
    while true do
      fn(idx)
      local d = nd
      while d >= 1 do
        idx[d] = idx[d] + 1
        if idx[d] <= shape[d] then break end
        idx[d] = 1
        d = d - 1
      end
      if d < 1 then return end
    end
  end

  -- perm moving the trailing k axes of an nd array to start at position d
  local function trailing_to(nd, k, d)
    local outer = nd - k
    local p = {}
    for a = 1, d - 1 do p[#p + 1] = a end
    for a = outer + 1, nd do p[#p + 1] = a end
    for a = d, outer do p[#p + 1] = a end
    return p
  end

  def(ga, [[
apply_along_axis(func1d: callable, axis: axis, arr: array_like, ...) -> ndarray
func1d(slice, ...) on every 1-D slice of arr along axis (1-based), from Lua;
the results (arrays or numbers, all of the first one's shape) take the
axis's place: arr.shape[..axis-1] .. result.shape .. arr.shape[axis+1..].
]], function(func, axis, arr, ...)
    arr = as_array(arr, "apply_along_axis")
    local nd = arr.ndim
    if nd == 0 then fail("apply_along_axis: arr must have at least one dimension") end
    local d = norm_axis(axis, nd, "apply_along_axis")
    local p = {}
    for a = 1, nd do if a ~= d then p[#p + 1] = a end end
    p[#p + 1] = d
    local moved = arr:transpose(p)
    local outer = moved.shape
    outer[#outer] = nil
    local nouter = 1
    for _, n in ipairs(outer) do nouter = nouter * n end
    if nouter == 0 then fail("apply_along_axis: cannot apply_along_axis when any iteration dimensions are 0") end
    local extra = table.pack(...)
    local results, rshape = {}, nil
    each_index(outer, function(idx)
      local key = {}
      for k, v in ipairs(idx) do key[k] = v end
      key[#key + 1] = {}
      local res = as_array(call_user(func, moved[key], table.unpack(extra, 1, extra.n)), "apply_along_axis")
      if not rshape then
        rshape = res.shape
      elseif internal.shape_str(res.shape) ~= internal.shape_str(rshape) then
        fail(("apply_along_axis: func1d returned shape %s after %s"):format(internal.shape_str(res.shape),
          internal.shape_str(rshape)))
      end
      results[#results + 1] = res
    end)
    local full = {}
    for _, n in ipairs(outer) do full[#full + 1] = n end
    for _, n in ipairs(rshape) do full[#full + 1] = n end
    local buff = ga.reshape(ga.stack(results), full)
    -- a 1-D arr and a number result: the 0-d array itself (ascontiguousarray
    -- makes at least 1-D, as NumPy's does)
    if #full == 0 then return buff end
    return ga.ascontiguousarray(buff:transpose(trailing_to(buff.ndim, #rshape, d)))
  end)

  def(ga, [[
apply_over_axes(func: callable, a: array_like, axes: axes) -> ndarray
func(a, axis) repeatedly, once per axis of axes (1-based, in order), each on
the previous result; a result with one dimension fewer gets it back as a
length-1 axis (a reduction keeps its dimensions).
]], function(func, a, axes)
    local val = as_array(a, "apply_over_axes")
    local nd = val.ndim
    if type(axes) ~= "table" then axes = { axes } end
    for _, axis in ipairs(axes) do
      local d = norm_axis(axis, nd, "apply_over_axes")
      local res = as_array(call_user(func, val, d), "apply_over_axes")
      if res.ndim == val.ndim then
        val = res
      else
        res = ga.expand_dims(res, d)
        if res.ndim ~= val.ndim then
          fail("apply_over_axes: function is not returning an array of the correct shape")
        end
        val = res
      end
    end
    return val
  end)

  ---------------------------------------------------------------------------
  -- vectorize

  local Vectorized = {}
  Vectorized.__index = Vectorized
  Vectorized.__name = "gpuarray.vectorize"

  -- "(m,n),(n)->(m)" -> { ins = {{"m","n"},{"n"}}, outs = {{"m"}} }
  local function parse_signature(sig)
    local function dims_list(part)
      local list = {}
      for group in part:gmatch("%b()") do
        local dims = {}
        for name in group:sub(2, -2):gmatch("[^,%s]+") do
          if not name:match("^[%a_][%w_]*$") then
            fail(("vectorize: bad dimension name %q in signature %q"):format(name, sig))
          end
          dims[#dims + 1] = name
        end
        list[#list + 1] = dims
      end
      return list
    end
    local lhs, rhs = sig:match("^%s*(.-)%s*%->%s*(.-)%s*$")
    if not lhs then fail(("vectorize: signature %q is not of the form (...),(...)->(...)"):format(sig)) end
    local check = function(part)
      local rest = part:gsub("%b()", ""):gsub("[,%s]", "")
      if rest ~= "" then fail(("vectorize: signature %q is not of the form (...),(...)->(...)"):format(sig)) end
    end
    check(lhs)
    check(rhs)
    local r = { ins = dims_list(lhs), outs = dims_list(rhs) }
    if #r.ins == 0 or #r.outs == 0 then
      fail(("vectorize: signature %q is not of the form (...),(...)->(...)"):format(sig))
    end
    return r
  end

  local function otypes_list(otypes)
    if otypes == nil then return nil end
    local list = {}
    if type(otypes) == "string" then
      -- NumPy's type characters ("fd") or one dtype name
      if pcall(ga.dtype, otypes) then return { ga.dtype(otypes).name } end
      local CHARS = internal.CHARS   -- C's table (E: bfloat16), and NumPy's q, Q for long long
      for c in otypes:gmatch(".") do
        if c == "q" or c == "Q" then c = c == "q" and "l" or "L" end
        if not CHARS[c] then fail(("vectorize: invalid otype specified: %s"):format(c)) end
        list[#list + 1] = CHARS[c]
      end
      return list
    end
    for i, t in ipairs(otypes) do
      local ok, dt = pcall(ga.dtype, t)
      if not ok then fail(("vectorize: otypes entry %d is not a dtype: %s"):format(i, tostring(t))) end
      list[i] = dt.name
    end
    return list
  end

  def(ga, [[
vectorize(pyfunc: function, otypes: string|list?, doc: string?, excluded: list?, cache: boolean = false,
          signature: string?) -> vectorize
A callable that applies pyfunc elementwise to its (broadcast) arguments, on
the GPU: pyfunc is translated to CUDA by ga.jit.elementwisekernel (the jit's
Lua subset; a function outside it raises when called). otypes: the outputs'
dtypes (names or NumPy type characters). excluded: 1-based positions of
arguments passed unchanged. signature: a generalized ufunc ("(n),(n)->()"):
pyfunc then runs from Lua on each core slice.
]], function(fn, otypes, doc, excluded, cache, signature)
    local self = setmetatable({ pyfunc = fn, otypes = otypes_list(otypes), __doc = doc, cache = cache,
                                excluded = {}, signature = signature }, Vectorized)
    for _, k in ipairs(excluded or {}) do
      if math.type(k) ~= "integer" or k < 1 then
        fail("vectorize: excluded must list 1-based argument positions (integers)")
      end
      self.excluded[k] = true
    end
    if signature then
      self.sig = parse_signature(signature)
    end
    return self
  end)
  api.set_type("vectorize", function(v) return getmetatable(v) == Vectorized end)

  -- the jit kernel of the function, built on first use
  local function jit_kernel(self)
    if not self.kernel then
      local ok, k = pcall(ga.jit.elementwisekernel, self.pyfunc, { name = "vectorized" })
      if not ok then
        fail("vectorize: cannot translate the function to CUDA (" .. tostring(k):gsub("^gpuarray: ", "") .. ")")
      end
      self.kernel = k
    end
    return self.kernel
  end

  local function cast_outputs(self, ...)
    local outs = table.pack(...)
    if self.otypes then
      if #self.otypes ~= outs.n then
        fail(("vectorize: otypes lists %d dtypes, the function gives %d results"):format(#self.otypes, outs.n))
      end
      for i = 1, outs.n do
        if outs[i].dtype ~= self.otypes[i] then outs[i] = outs[i]:astype(self.otypes[i]) end
      end
    end
    return table.unpack(outs, 1, outs.n)
  end

  -- a generalized ufunc from Lua: loop over the broadcast outer shape,
  -- calling pyfunc on the core slices
  local function call_signature(self, args)
    local sig = self.sig
    local vec = {}
    for i = 1, args.n do
      if not self.excluded[i] then vec[#vec + 1] = i end
    end
    if #vec ~= #sig.ins then
      fail(("vectorize: the signature takes %d arguments, got %d"):format(#sig.ins, #vec))
    end
    local sizes, outer_shapes = {}, {}
    local arrays = {}
    for j, i in ipairs(vec) do
      local a = as_array(args[i], "vectorize")
      local core = sig.ins[j]
      local nd, nc = a.ndim, #core
      if nd < nc then
        fail(("vectorize: argument %d has %d dimensions, its core dimensions %s need %d"):format(i, nd,
          "(" .. table.concat(core, ",") .. ")", nc))
      end
      local shape = a.shape
      for k, name in ipairs(core) do
        local n = shape[nd - nc + k]
        if sizes[name] and sizes[name] ~= n then
          fail(("vectorize: inconsistent size for core dimension %q: %d and %d"):format(name, sizes[name], n))
        end
        sizes[name] = n
      end
      outer_shapes[j] = { table.unpack(shape, 1, nd - nc) }
      arrays[i] = a
    end
    local outer = ga.broadcast_shapes(table.unpack(outer_shapes))
    local bargs = {}
    for i = 1, args.n do bargs[i] = args[i] end
    for j, i in ipairs(vec) do
      local a = arrays[i]
      local full = { table.unpack(outer) }
      local shape = a.shape
      for k = #shape - #sig.ins[j] + 1, #shape do full[#full + 1] = shape[k] end
      bargs[i] = ga.broadcast_to(a, full)
    end
    local results = {}
    local nres = #sig.outs
    each_index(outer, function(idx)
      local call = {}
      for i = 1, args.n do
        if self.excluded[i] or not arrays[i] then
          call[i] = bargs[i]
        else
          local key = {}
          for k, v in ipairs(idx) do key[k] = v end
          for _ = 1, bargs[i].ndim - #idx do key[#key + 1] = {} end
          call[i] = #key > 0 and bargs[i][key] or bargs[i]
          if not is_array(call[i]) then call[i] = ga.asarray(call[i]) end
        end
      end
      local outs = table.pack(call_user(self.pyfunc, table.unpack(call, 1, args.n)))
      if outs.n ~= nres then
        fail(("vectorize: the signature has %d outputs, the function gave %d"):format(nres, outs.n))
      end
      for r = 1, nres do
        local o = as_array(outs[r], "vectorize")
        if not results[r] then
          local core = sig.outs[r]
          if o.ndim ~= #core then
            fail(("vectorize: output %d has %d dimensions, the signature says %d"):format(r, o.ndim, #core))
          end
          local full = { table.unpack(outer) }
          for _, n in ipairs(o.shape) do full[#full + 1] = n end
          results[r] = ga.empty(full, self.otypes and self.otypes[r] or o.dtype)
        end
        -- a view of the slot (ranges keep every axis), set by broadcasting
        local key = {}
        for k, v in ipairs(idx) do key[k] = { v, v } end
        for _ = 1, o.ndim do key[#key + 1] = {} end
        local slot = #key == 0 and results[r] or results[r][key]
        slot:set(o)
      end
    end)
    for r = 1, nres do
      if not results[r] then
        -- an empty outer shape: NumPy needs otypes to know the dtype
        if not self.otypes then fail("vectorize: cannot call a vectorized function on size 0 inputs without otypes") end
        local full = { table.unpack(outer) }
        for _, name in ipairs(sig.outs[r]) do
          if not sizes[name] then fail(("vectorize: unknown size for core dimension %q"):format(name)) end
          full[#full + 1] = sizes[name]
        end
        results[r] = ga.empty(full, self.otypes[r])
      end
    end
    return table.unpack(results, 1, nres)
  end

  function Vectorized:__call(...)
    local args = table.pack(...)
    if self.sig then return call_signature(self, args) end
    for i = 1, args.n do
      local v = args[i]
      if type(v) == "table" and not self.excluded[i] then args[i] = ga.asarray(v) end
    end
    local any_array = false
    for i = 1, args.n do any_array = any_array or is_array(args[i]) end
    if not any_array then
      -- scalars only: a 0-d result, as NumPy gives a scalar
      for i = 1, args.n do
        if not self.excluded[i] and type(args[i]) ~= "userdata" then
          args[i] = ga.asarray(args[i])
          break
        end
      end
    end
    local k = jit_kernel(self)
    local ok, kern = pcall(k._kernel, k, table.unpack(args, 1, args.n))
    if not ok then
      fail("vectorize: cannot translate the function to CUDA (" .. tostring(kern):gsub("^gpuarray: ", "") .. ")")
    end
    return cast_outputs(self, kern(table.unpack(args, 1, args.n)))
  end

  function Vectorized:__tostring()
    return "gpuarray.vectorize(" .. tostring(self.pyfunc) .. ")"
  end

  ---------------------------------------------------------------------------
  -- piecewise

  def(ga, [[
piecewise(x: array_like, condlist: list|ndarray, funclist: list, ...) -> ndarray
x's shape and dtype: where condition k holds, funclist[k] (a value, or a
function called on x[cond] and the extra arguments); one more function than
conditions is the "otherwise" case; elsewhere 0. Later conditions win.
]], function(x, condlist, funclist, ...)
    x = as_array(x, "piecewise")
    local conds = {}
    if is_array(condlist) then
      if condlist.ndim == x.ndim + 1 and x.ndim > 0 or (x.ndim == 0 and condlist.ndim == 1) then
        for i = 1, condlist.shape[1] do
          local c = condlist[i]
          conds[i] = is_array(c) and c or ga.asarray(c, "bool")
        end
      else
        conds[1] = condlist
      end
    else
      local first = condlist[1]
      if first ~= nil and type(first) ~= "table" and not is_array(first) and x.ndim ~= 0 then
        conds[1] = ga.asarray(condlist, "bool")     -- one condition written as a list
      else
        for i, c in ipairs(condlist) do conds[i] = is_array(c) and c or ga.asarray(c, "bool") end
      end
    end
    for i, c in ipairs(conds) do
      if c.dtype ~= "bool" then conds[i] = c:astype("bool") end
      if internal.shape_str(conds[i].shape) ~= internal.shape_str(x.shape) then
        conds[i] = ga.broadcast_to(conds[i], x.shape)
      end
    end
    local n, nf = #conds, #funclist
    if n == nf - 1 then
      local any = ga.zeros(x.shape, "bool")
      for _, c in ipairs(conds) do any = ga.logical_or(any, c) end
      conds[n + 1] = ga.logical_not(any)
      n = n + 1
    elseif n ~= nf then
      fail(("piecewise: with %d condition(s), either %d or %d functions are expected"):format(n, n, n + 1))
    end
    local extra = table.pack(...)
    local y = ga.zeros(x.shape, x.dtype)
    for k = 1, n do
      local f, c = funclist[k], conds[k]
      if type(f) == "function" or (type(f) == "table" and getmetatable(f) and getmetatable(f).__call) then
        if x.ndim == 0 then
          if c:item() then y:set(as_array(call_user(f, x, table.unpack(extra, 1, extra.n)), "piecewise")) end
        else
          local vals = x[c]
          if vals.size > 0 then
            y[c] = call_user(f, vals, table.unpack(extra, 1, extra.n))
          end
        end
      else
        y = ga.where(c, f, y):astype(x.dtype)
      end
    end
    return y
  end)
end
