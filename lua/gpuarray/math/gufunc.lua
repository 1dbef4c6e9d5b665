--- cupyx.GeneralizedUFunc: a Lua function on arrays made a generalized
-- ufunc by its signature ("(i,j),(j,k)->(i,k)"). The signature's core
-- dimensions are the last axes of each input (or those `axes` / `axis`
-- name, 1-based); the other axes are loop dimensions, broadcast against
-- each other. With supports_batched the function is called once with the
-- whole broadcast arrays (it must vectorize over the loop axes, as most
-- compositions of ga routines do); otherwise once per loop index on views
-- (a Lua loop: slow for many loop elements, as CuPy's Python loop is).
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local fail = internal.fail
  local is_array = internal.is_array

  -- "(i,j),(j,k)->(i,k)" -> { {"i","j"}, {"j","k"} }, { {"i","k"} }
  local function parse(sig)
    local s = sig:gsub("%s", "")
    local lhs, rhs = s:match("^(.*)%->(.*)$")
    if not lhs then fail(("GeneralizedUFunc: signature %q has no '->'"):format(sig)) end
    local function side(text)
      local list = {}
      local rest = text:gsub("%(([%w_,]*)%)", function(inner)
        local dims = {}
        for d in inner:gmatch("[^,]+") do
          if not d:match("^[%a_][%w_]*$") and not d:match("^%d+$") then
            fail(("GeneralizedUFunc: bad dimension %q in signature %q"):format(d, sig))
          end
          dims[#dims + 1] = d
        end
        list[#list + 1] = dims
        return ""
      end)
      if rest:gsub(",", "") ~= "" then fail(("GeneralizedUFunc: bad signature %q"):format(sig)) end
      return list
    end
    local ins, outs = side(lhs), side(rhs)
    if #outs == 0 then fail(("GeneralizedUFunc: signature %q has no outputs"):format(sig)) end
    return ins, outs
  end

  -- x with the listed axes (1-based, negative from the end) moved last
  local function core_last(x, axes, fname)
    local nd = x.ndim
    local seen, perm = {}, {}
    local core = {}
    for i, a in ipairs(axes) do
      if math.type(a) ~= "integer" or a == 0 or a > nd or a < -nd then
        fail(("%s: axis %s is out of range for an array of %d dimensions"):format(fname, tostring(a), nd))
      end
      core[i] = a > 0 and a or nd + a + 1
      seen[core[i]] = true
    end
    for d = 1, nd do if not seen[d] then perm[#perm + 1] = d end end
    for _, d in ipairs(core) do perm[#perm + 1] = d end
    return nd > 0 and x:transpose(perm) or x
  end

  local function broadcast_shapes(shapes)
    local n = 0
    for _, s in ipairs(shapes) do n = math.max(n, #s) end
    local r = {}
    for k = 1, n do
      local v = 1
      for _, s in ipairs(shapes) do
        local d = s[#s - n + k] or 1
        if d ~= 1 then
          if v ~= 1 and v ~= d then fail("GeneralizedUFunc: the loop dimensions cannot be broadcast together") end
          v = d
        end
      end
      r[k] = v
    end
    return r
  end

  local G = {}
  G.__index = G
  G.__name = "gpuarray.GeneralizedUFunc"
  function G:__tostring() return ("<GeneralizedUFunc '%s' %s>"):format(self.name, self.signature) end

  local OPTION_KEYS = { axes = true, axis = true, keepdims = true, out = true, dtype = true }

  function G:__call(...)
    local fname = self.name
    local args = table.pack(...)
    local opts = {}
    local last = args[args.n]
    if args.n > #self.ins and type(last) == "table" and not is_array(last) then
      opts = last
      args.n = args.n - 1
      for k in pairs(opts) do
        if not OPTION_KEYS[k] then fail(("%s: unknown option '%s'"):format(fname, tostring(k))) end
      end
    end
    local nin, nout = #self.ins, #self.outs
    if args.n ~= nin then fail(("%s: takes %d inputs, got %d"):format(fname, nin, args.n)) end
    -- the core axes of every operand
    local axes = opts.axes
    if opts.axis ~= nil then
      if axes ~= nil then fail(fname .. ": give axes or axis, not both") end
      axes = {}
      for i, dims in ipairs(self.ins) do
        if #dims > 1 then fail(fname .. ": axis needs a signature of at most one core dimension per input") end
        axes[i] = #dims == 1 and { opts.axis } or {}
      end
    end
    local xs, sizes, loops = {}, {}, {}
    for i = 1, nin do
      local x = ga.asarray(args[i])
      local dims = self.ins[i]
      if axes ~= nil and axes[i] ~= nil then
        local ax = type(axes[i]) == "table" and axes[i] or { axes[i] }
        if #ax ~= #dims then
          fail(("%s: axes entry %d names %d axes for %d core dimensions"):format(fname, i, #ax, #dims))
        end
        x = core_last(x, ax, fname)
      end
      if x.ndim < #dims then
        fail(("%s: input %d has %d dimensions, its signature needs at least %d"):format(fname, i, x.ndim, #dims))
      end
      local shape = x.shape
      local loop = {}
      for d = 1, x.ndim - #dims do loop[d] = shape[d] end
      for k, name in ipairs(dims) do
        local n = shape[x.ndim - #dims + k]
        local want = tonumber(name) or sizes[name]
        if want and want ~= n then
          fail(("%s: core dimension '%s' of input %d has size %d, expected %d"):format(fname, name, i, n, want))
        end
        sizes[name] = n
      end
      xs[i], loops[i] = x, loop
    end
    local L = broadcast_shapes(loops)
    local function core_shape(dims)
      local s = {}
      for _, name in ipairs(dims) do s[#s + 1] = tonumber(name) or sizes[name] end
      return s
    end
    -- inputs at the full loop shape
    for i = 1, nin do
      local s = { table.unpack(L) }
      for _, n in ipairs(core_shape(self.ins[i])) do s[#s + 1] = n end
      xs[i] = ga.broadcast_to(xs[i], s)
    end
    local results
    if self.supports_batched then
      results = table.pack(api.call_user(self.func, table.unpack(xs, 1, nin)))
    else
      local count = 1
      for _, n in ipairs(L) do count = count * n end
      results = { n = nout }
      local idx = {}
      for d = 1, #L do idx[d] = 1 end
      for _ = 1, count do
        local views = {}
        for i = 1, nin do
          local sel = {}
          for d = 1, #L do sel[d] = idx[d] end
          for _ = 1, #self.ins[i] do sel[#sel + 1] = {} end
          views[i] = #sel > 0 and xs[i][sel] or xs[i]
        end
        local r = table.pack(api.call_user(self.func, table.unpack(views, 1, nin)))
        for j = 1, nout do
          local v = ga.asarray(r[j])
          if results[j] == nil then
            local s = { table.unpack(L) }
            for _, n in ipairs(v.shape) do s[#s + 1] = n end
            results[j] = ga.empty(s, v.dtype)
          end
          local sel = {}
          for d = 1, #L do sel[d] = idx[d] end
          for _ = 1, v.ndim do sel[#sel + 1] = {} end
          if #sel > 0 then results[j][sel] = v else results[j]:set(v) end
        end
        for d = #L, 1, -1 do     -- the next loop index, C order
          idx[d] = idx[d] + 1
          if idx[d] <= L[d] then break end
          idx[d] = 1
        end
      end
      if count == 0 then
        local dt = nin > 0 and ga.result_type(table.unpack(xs, 1, nin)) or "float64"
        for j = 1, nout do
          local s = { table.unpack(L) }
          for _, n in ipairs(core_shape(self.outs[j])) do s[#s + 1] = n or 0 end
          results[j] = ga.empty(s, dt)
        end
      end
    end
    -- dtype, keepdims, out and the outputs' axes
    local outs = opts.out
    if outs ~= nil and nout == 1 and is_array(outs) then outs = { outs } end
    local r = {}
    for j = 1, nout do
      local v = ga.asarray(results[j])
      if opts.dtype ~= nil and v.dtype ~= ga.dtype(opts.dtype).name then v = v:astype(opts.dtype) end
      if opts.keepdims and #self.outs[j] == 0 then
        local s = v.shape
        for _ = 1, #self.ins[1] do s[#s + 1] = 1 end
        v = v:reshape(s)
      end
      if axes ~= nil and axes[nin + j] ~= nil then
        -- the core axes go where axes says (the inverse of core_last)
        local ax = type(axes[nin + j]) == "table" and axes[nin + j] or { axes[nin + j] }
        local nd, nc = v.ndim, #ax
        local perm, taken = {}, {}
        for k, a in ipairs(ax) do
          local d = a > 0 and a or nd + a + 1
          perm[d] = nd - nc + k
          taken[d] = true
        end
        local src = 1
        for d = 1, nd do
          if not taken[d] then perm[d] = src; src = src + 1 end
        end
        v = v:transpose(perm)
      end
      if outs ~= nil and outs[j] ~= nil then
        internal.check_out(outs[j], v.shape, fname)
        outs[j]:set(v)
        v = outs[j]
      end
      r[j] = v
    end
    return table.unpack(r, 1, nout)
  end

  api.def(ga, [[
GeneralizedUFunc(func: callable, signature: string, *, name: string?, doc: string?,
                 supports_batched: boolean = false, supports_out: boolean = false) -> GeneralizedUFunc
cupyx.GeneralizedUFunc: func, a Lua function of arrays, as a generalized
ufunc of signature "(i,j),(j,k)->(i,k)". Calling it: g(x1, x2, ...[,
{axes=, axis=, keepdims=, out=, dtype=}]); core axes last unless axes (one
list per operand, 1-based) or axis says otherwise; the loop axes broadcast.
supports_batched: func takes the whole arrays at once (else it runs once
per loop index, on views).
]], function(func, signature, name, doc, supports_batched, supports_out)
    local ins, outs = parse(signature)
    return setmetatable({ func = func, signature = signature, name = name or "gufunc", doc = doc,
                          ins = ins, outs = outs, supports_batched = supports_batched,
                          supports_out = supports_out, nin = #ins, nout = #outs }, G)
  end)
  internal.parse_gufunc_signature = parse   -- for the specs
end
