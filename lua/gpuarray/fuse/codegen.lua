--- CUDA for a traced graph (trace.lua): the definition of one
-- ElementwiseKernel, or of one ReductionKernel when the function ends in a
-- reduction. Each node becomes a variable of its eager dtype (float16 as
-- float16, so that intermediates round as the eager arrays do), computed by
-- the same CUDA statement as the eager ufunc loop, inside a lambda where
-- in0, in1 and out0 are the loop's own variables:
--   float16 _fz3 = [&]() -> float16 { const float in0 = ga_cast<float>(_fz2); float out0;
--                                     out0 = ga_sin(in0); return ga_cast<float16>(out0); }();
-- Array-like operands (arguments, intermediates) convert from their dtype
-- to the loop's compute type as the engine loads them; scalars (Lua numbers,
-- typed scalars) convert to the loop's type first, as a ufunc call does.
local internal = require("gpuarray.internal")
local trace = require "gpuarray.fuse.trace"
local jtypes = require "gpuarray.jit.types"

local CTYPE, KIND, CHARS = trace.CTYPE, trace.KIND, trace.CHARS
local INT_RANGE = trace.INT_RANGE

local M = {}

local function compute_of(dt) return internal.COMPUTE[dt] or dt end   -- float16, bfloat16: float32

--- dtype as C type, and a C value of dtype `from` as dtype `to`
local function cast(code, from, to)
  if from == to then return code end
  return ("ga_cast<%s>(%s)"):format(CTYPE[to], code)
end

local function is_scalar(n)
  return n.kind == "const" or n.kind == "luaop" or (n.kind == "arg" and not n.array)
end

local KEEP = { float32 = true, float64 = true, complex64 = true, complex128 = true }
-- Each floating-point intermediate passes through an add of -0.0 with
-- explicit rounding (x + -0.0 is x, NaN payloads aside): neither NVVM nor
-- ptxas may contract a multiply of one operation with an add of the next
-- into an FMA across it (an .rn add is never contracted), which the eager
-- kernels, storing each result, cannot do either. An empty asm would stop
-- NVVM only: ptxas contracts plain mul/add pairs it sees in the PTX.
local KEEP_SRC = [[
__device__ __forceinline__ void _fz_keep(float &v) { v = __fadd_rn(v, -0.0f); }
__device__ __forceinline__ void _fz_keep(double &v) { v = __dadd_rn(v, -0.0); }
template <typename T> __device__ __forceinline__ void _fz_keep(complex<T> &v) { _fz_keep(v.re); _fz_keep(v.im); }
]]

-- The pass costs an instruction per intermediate (5% of the bandwidth of
-- the seed's tanh(sin(x) + 0.1 x) on an H200), so it is left out where no
-- multiply can end the value: contraction joins a product to a following
-- add, and these ops end in an add, a select or a rounding, never in a
-- multiply (absolute is not here: of a complex value it is a hypot); and
-- where nothing but the store reads the value (a result no other node
-- takes).
local NO_PRODUCT = { add = true, subtract = true, negative = true, positive = true, maximum = true, minimum = true,
                     fmax = true, fmin = true, floor = true, ceil = true, trunc = true, rint = true }

local Gen = {}
Gen.__index = Gen

--- {code, dtype} of a node's value
function Gen:ref(n)
  if n.kind == "arg" then return "a" .. n.index, n.dtype end
  if n.kind == "luaop" then return "h" .. n.id, n.dtype end
  if n.kind == "const" then
    if n.weak then return jtypes.literal(n.value), n.dtype end
    if n.dtype == "bool" then return n.value and "true" or "false", "bool" end
    return ("ga_cast<%s>(%s)"):format(CTYPE[n.dtype], jtypes.literal(n.value)), n.dtype
  end
  if n == self.reduced then return "_fzr", n.dtype end
  return "_fz" .. n.id, n.dtype
end

--- operand n as loop input type t (in its compute type)
function Gen:load(n, t)
  local code, dt = self:ref(n)
  local c = compute_of(t)
  if is_scalar(n) then
    return cast(cast(code, dt, t), t, c)
  end
  return cast(code, dt, c)
end

function Gen:emit_node(n)
  local out = self.lines
  local ct = CTYPE[n.dtype]
  local id = "_fz" .. n.id
  if n.kind == "ufunc" then
    local parts = {}
    for k, a in ipairs(n.args) do
      local t = n.intypes[k]
      -- inK_type / outK_type: the names an eager ufunc kernel typedefs
      -- (ew_codegen.c), which loop bodies with complex outputs use
      local it = CTYPE[compute_of(t)]
      parts[#parts + 1] = ("typedef %s in%d_type; const %s in%d = %s;"):format(it, k - 1, it, k - 1,
        self:load(a, t))
    end
    local nout, pick = n.nout or 1, n.pick or 0
    local decls = {}
    for j = 0, nout - 1 do
      local c = n.sig:sub(#n.sig - nout + 1 + j, #n.sig - nout + 1 + j)
      local ot = CTYPE[compute_of(CHARS[c])]
      decls[#decls + 1] = ("typedef %s out%d_type; %s out%d;"):format(ot, j, ot, j)
    end
    local oc = compute_of(CHARS[n.sig:sub(#n.sig - nout + 1 + pick, #n.sig - nout + 1 + pick)])
    for _, text in ipairs(n.preamble or {}) do self:need(text) end
    -- a lambda, not a block: the engine sees the outputs written before read
    out[#out + 1] = ("%s %s = [&]() -> %s { %s %s %s; return %s; }();"):format(ct, id, ct,
      table.concat(parts, " "), table.concat(decls, " "), n.op, cast("out" .. pick, oc, n.dtype))
    if KEEP[n.dtype] and not NO_PRODUCT[n.name] and not self.stored[n] then
      -- the eager op stored this rounded value: no FMA may reach across it
      self.keep = true
      out[#out + 1] = ("_fz_keep(%s);"):format(id)
    end
  elseif n.kind == "cast" then
    local code, dt = self:ref(n.args[1])
    out[#out + 1] = ("const %s %s = %s;"):format(ct, id, cast(code, dt, n.dtype))
  elseif n.kind == "where" then
    local c, cdt = self:ref(n.args[1])
    local x, xdt = self:ref(n.args[2])
    local y, ydt = self:ref(n.args[3])
    out[#out + 1] = ("const %s %s = %s ? %s : %s;"):format(ct, id, cast(c, cdt, "bool"), cast(x, xdt, n.dtype),
      cast(y, ydt, n.dtype))
  elseif n.kind == "clip" then
    self.select = true
    local code, dt = self:ref(n.args[1])
    local v = cast(code, dt, n.dtype)
    local function bound(k)
      local b, bdt = self:ref(n.args[k])
      local r = n.clamps[k]
      if r then b = ("(%s < %dLL ? %dLL : (%s > %dLL ? %dLL : %s))"):format(b, r[1], r[1], b, r[2], r[2], b) end
      return cast(b, bdt, n.dtype)
    end
    if n.args[2] then v = ("ga_sel_max(%s, %s)"):format(v, bound(2)) end
    if n.args[3] then v = ("ga_sel_min(%s, %s)"):format(v, bound(3)) end
    out[#out + 1] = ("const %s %s = %s;"):format(ct, id, v)
  else
    error("fuse: internal: cannot emit a " .. tostring(n.kind) .. " node")
  end
end

--- The nodes roots need, in order (stopping at stop: the reduction, whose
-- value the post-map function receives)
local function needed(roots, stop)
  local seen, list = {}, {}
  local function visit(n)
    if seen[n] or n.kind == "arg" or n.kind == "const" or n.kind == "luaop" then return end
    seen[n] = true
    if n == stop then return end
    for _, a in ipairs(n.args) do
      if a then visit(a) end
    end
    list[#list + 1] = n
  end
  for _, r in ipairs(roots) do visit(r) end
  table.sort(list, function(a, b) return a.id < b.id end)
  return list
end

--- The kernel's parameters: the arguments used, then the Lua numbers
-- computed from Lua numbers (Lua arithmetic, done on the host at each call
-- as the eager code would: luaop nodes)
local function used_args(roots, stop)
  local seen, args, host = {}, {}, {}
  local function visit(n)
    if seen[n] or n == stop then return end
    seen[n] = true
    if n.kind == "arg" then args[#args + 1] = n end
    if n.kind == "luaop" then
      host[#host + 1] = n
      return
    end
    for _, a in ipairs(n.args or {}) do
      if a then visit(a) end
    end
  end
  for _, r in ipairs(roots) do visit(r) end
  table.sort(args, function(a, b) return a.index < b.index end)
  table.sort(host, function(a, b) return a.id < b.id end)
  for _, h in ipairs(host) do args[#args + 1] = h end
  return args
end

local function param_name(n)
  return n.kind == "arg" and "a" .. n.index or "h" .. n.id
end

--- A function of the call's arguments computing a luaop node's value
local function host_eval(n)
  if n.kind == "arg" then
    local i = n.index
    return function(args) return args[i] end
  end
  if n.kind == "const" then
    local v = n.value
    return function() return v end
  end
  local f = trace.FOLD[n.op]
  local a = host_eval(n.args[1])
  if #n.args == 1 then return function(args) return f(a(args)) end end
  local b = host_eval(n.args[2])
  return function(args) return f(a(args), b(args)) end
end

--- Per weak integer argument, the range its value must fit (the eager
-- call raises "does not fit" for the same values): {index, lo, hi, dtype}
local function int_checks(nodes, position)
  local byarg = {}
  local function need(a, t)
    if not (a and (a.kind == "arg" or a.kind == "luaop") and a.weak == "i") then return end
    local r = INT_RANGE[t]
    if not r then return end
    local c = byarg[a]
    if not c then
      c = { index = position[a], arg = a.kind == "arg" and a.index or nil, lo = math.mininteger,
            hi = math.maxinteger }
      byarg[a] = c
    end
    if r[1] > c.lo then c.lo = r[1] end
    if r[2] < c.hi then c.hi, c.dtype = r[2], t end
    if r[1] >= c.lo and not c.dtype then c.dtype = t end
  end
  for _, n in ipairs(nodes) do
    if n.kind == "ufunc" then
      for k, a in ipairs(n.args) do
        if KIND[n.intypes[k]] == "i" or KIND[n.intypes[k]] == "u" then need(a, n.intypes[k]) end
      end
    elseif n.kind == "where" and (KIND[n.dtype] == "i" or KIND[n.dtype] == "u") then
      need(n.args[2], n.dtype)
      need(n.args[3], n.dtype)
    end
  end
  local list = {}
  for _, c in pairs(byarg) do list[#list + 1] = c end
  table.sort(list, function(a, b) return a.index < b.index end)
  return list
end

--- A header of a ufunc's device functions (scipy.special's), once per kernel
function Gen:need(text)
  self.needs = self.needs or {}
  if self.needs[text] then return end
  self.needs[text] = true
  self.need_list = self.need_list or {}
  self.need_list[#self.need_list + 1] = text
end

function Gen:preamble(extra)
  local parts = {}
  for _, text in ipairs(self.need_list or {}) do parts[#parts + 1] = text .. "\n" end
  if self.keep then parts[#parts + 1] = KEEP_SRC end
  if self.select then parts[#parts + 1] = internal.select_defs.preamble end
  if extra then parts[#parts + 1] = extra end
  return table.concat(parts)
end

local function fail(msg) error("gpuarray: fuse: " .. msg, 0) end

--- The kernel for outputs outs of graph g: a plan table
--   {kind = "elementwise", in_params, out_params, operation, preamble, args, checks, groups}
--   {kind = "reduction", in_params, out_params, map, reduce, post, identity, reduce_type, preamble,
--    args, checks, axis, keepdims}
function M.plan(g, outs, ga)
  if #outs == 0 then fail("the fused function returned nothing") end
  local gen = setmetatable({ lines = {}, ga = ga, stored = {} }, Gen)
  for i, o in ipairs(outs) do
    if is_scalar(o) then
      fail(("result %d is a Lua number: a fused function returns values computed from its arguments"):format(i))
    end
  end
  local r = g.reduction
  local post = false
  for _, o in ipairs(outs) do post = post or o.stage == "post" end
  if post and #outs > 1 then fail("a fused function that ends in a reduction returns one result") end
  local args = used_args(outs)
  local ins, position = {}, {}
  for k, a in ipairs(args) do
    ins[k] = ("%s %s"):format(a.dtype, param_name(a))
    position[a] = k
  end
  local plan = { args = {}, host = {}, in_params = table.concat(ins, ", ") }
  for k, a in ipairs(args) do
    if a.kind == "arg" then plan.args[k] = a.index else plan.host[k] = host_eval(a) end
  end
  local all = needed(outs)
  plan.checks = int_checks(all, position)
  local arrays = false
  for _, a in ipairs(args) do arrays = arrays or a.array end
  plan.scalar_only = not arrays
  if not post then
    plan.kind = "elementwise"
    -- results that no other node reads are only stored
    local read = {}
    for _, n in ipairs(all) do
      for _, a in ipairs(n.args) do if a then read[a] = true end end
    end
    for _, o in ipairs(outs) do gen.stored[o] = not read[o] end
    for _, n in ipairs(all) do gen:emit_node(n) end
    local outp = {}
    for k, o in ipairs(outs) do
      outp[k] = ("%s o%d"):format(o.dtype, k - 1)
      local code, dt = gen:ref(o)
      gen.lines[#gen.lines + 1] = ("o%d = %s;"):format(k - 1, cast(code, dt, o.dtype))
    end
    plan.out_params = table.concat(outp, ", ")
    plan.operation = table.concat(gen.lines, "\n")
    plan.preamble = gen:preamble()
    -- outputs of different array arguments could have different shapes
    local key0
    for _, o in ipairs(outs) do
      local ks = {}
      for i in pairs(o.deps) do ks[#ks + 1] = i end
      table.sort(ks)
      local key = table.concat(ks, ",")
      if key0 and key ~= key0 then plan.groups = true end
      key0 = key0 or key
    end
    if plan.groups then
      plan.groups = {}
      for k, o in ipairs(outs) do
        plan.groups[k] = {}
        for i in pairs(o.deps) do plan.groups[k][#plan.groups[k] + 1] = i end
      end
    end
    return plan
  end
  -- a reduction: the map function, then the post-map function
  if plan.scalar_only then fail("a reduction needs an ndarray argument") end
  local o = outs[1]
  plan.kind = "reduction"
  local x = r.args[1]
  local pdecl, pargs = {}, {}
  for _, a in ipairs(args) do
    pdecl[#pdecl + 1] = ("const %s %s"):format(CTYPE[a.dtype], param_name(a))
    pargs[#pargs + 1] = param_name(a)
  end
  for _, n in ipairs(needed({ x })) do gen:emit_node(n) end
  local xcode, xdt = gen:ref(x)
  local map_fn = ("__device__ __forceinline__ %s _fz_map(%s) {\n%s\nreturn ga_cast<%s>(%s);\n}\n"):format(
    r.acc, table.concat(pdecl, ", "), table.concat(gen.lines, "\n"), r.acc, cast(xcode, xdt, xdt))
  -- the post-map function sees the scalar arguments
  gen.lines = {}
  gen.reduced = r
  local sdecl, sargs = { ("const %s &a"):format(r.acc), "const long long _red_size" }, { "a", "_red_size" }
  for _, a in ipairs(used_args({ o }, r)) do
    if not a.array then
      sdecl[#sdecl + 1] = ("const %s %s"):format(CTYPE[a.dtype], param_name(a))
      sargs[#sargs + 1] = param_name(a)
    end
  end
  local value = r.op == "mean" and "ga_r_div_n(a, _red_size)" or "a"
  gen.lines[1] = ("const %s _fzr = ga_cast<%s>(%s);"):format(CTYPE[r.dtype], CTYPE[r.dtype], value)
  for _, n in ipairs(needed({ o }, r)) do
    if n ~= r then gen:emit_node(n) end
  end
  local ocode, odt = gen:ref(o)
  local post_fn = ("__device__ __forceinline__ %s _fz_post(%s) {\n%s\nreturn %s;\n}\n"):format(
    CTYPE[o.dtype], table.concat(sdecl, ", "), table.concat(gen.lines, "\n"), cast(ocode, odt, o.dtype))
  plan.out_params = o.dtype .. " o0"
  plan.map = ("_fz_map(%s)"):format(table.concat(pargs, ", "))
  plan.reduce = r.reduce
  plan.post = ("o0 = _fz_post(%s)"):format(table.concat(sargs, ", "))
  plan.identity = r.identity
  plan.reduce_type = r.acc
  plan.axis, plan.keepdims = r.axis, r.keepdims
  plan.preamble = gen:preamble(map_fn .. post_fn)
  return plan
end

M.compute_of = compute_of
return M
