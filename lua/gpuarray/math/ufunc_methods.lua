--- ufunc methods (API.md §14): reduce, accumulate, reduceat, outer and at,
-- NumPy's semantics with 1-based axes and indices. Every ufunc reaches
-- them as fields: `ga.add.reduce(x)` and `ga.add:reduce(x)` are the same
-- call (the bound method drops a leading self). They are declared once,
-- as methods of the class "ufunc" (the reference lists `ufunc:reduce`);
-- errors name the ufunc: "gpuarray: add.reduce: ...".
--
-- How each runs, fastest first:
--   reduce      the built-in reductions for add, multiply, maximum, minimum,
--               fmax, fmin, logical_and, logical_or (sum, prod, max, ...);
--               a ReductionKernel over the ufunc's own loop for the other
--               reorderable ones and for where=/initial=; a sequential fold
--               per output (one axis) for the others (subtract, divide...)
--   accumulate  the scan engine (cumsum, cumprod) for add and multiply;
--               chunked scans for the other reorderable ufuncs; a
--               sequential fold per row for the rest
--   reduceat    a segmented reduction: one warp per segment (reorderable
--               ufuncs), one thread per segment otherwise (reduceat.cuh)
--   outer       the ufunc itself on broadcast views
--   at          the elementwise/at.lua engine (atomics where the dtype has them)
local api = require "gpuarray.api"
require "gpuarray.api.surface"   -- api.class
local internal = require "gpuarray.internal"

return function(ga)
  local M = {}
  local core = ga._core
  local U = require "gpuarray.math.util"
  local fail = internal.fail
  local is_array = internal.is_array

  -- NumPy's identity (a C expression) and whether the reduction may reorder
  -- its operands (several axes at once, parallel trees); `builtin` is the
  -- built-in reduction that computes the same values
  local ALGEBRA = {
    add = { id = "0", builtin = "sum" }, multiply = { id = "1", builtin = "prod" },
    maximum = { builtin = "max" }, minimum = { builtin = "min" },
    fmax = { builtin = "nanmax" }, fmin = { builtin = "nanmin" },
    logical_and = { id = "true", builtin = "all" }, logical_or = { id = "false", builtin = "any" },
    logical_xor = { id = "false" }, bitwise_and = { id = "-1" }, bitwise_or = { id = "0" },
    bitwise_xor = { id = "0" }, gcd = { id = "0" }, hypot = { id = "0" },
    logaddexp = { id = "-ga_inf_d()" }, logaddexp2 = { id = "-ga_inf_d()" },
  }
  -- the identity as a Lua value (ufunc.identity, as NumPy's)
  local IDENTITY = { add = 0, multiply = 1, logical_and = true, logical_or = false, logical_xor = false,
                     bitwise_and = -1, bitwise_or = 0, bitwise_xor = 0, gcd = 0, hypot = 0,
                     logaddexp = -math.huge, logaddexp2 = -math.huge }
  M.ALGEBRA = ALGEBRA
  local FLOAT_KIND = { f = true, c = true }
  -- add and multiply accumulate small integers in int64 / uint64, as NumPy
  local UPCAST = { bool = "int64", int8 = "int64", int16 = "int64", int32 = "int64",
                   uint8 = "uint64", uint16 = "uint64", uint32 = "uint64" }

  local function ctype(dt) return internal.COMPUTE[dt] end   -- float16, bfloat16 compute in float

  --- The axes an axis argument names (an integer or a list; 1-based,
  -- negative from the end), sorted; raises as the reductions do
  local function norm_axes(nd, axis, fname)
    if math.type(axis) == "integer" and axis >= 1 and axis <= nd then return { axis } end   -- the common case
    local seen, out = {}, {}
    for _, a in ipairs(type(axis) == "table" and axis or { axis }) do
      local d = U.axis(nd, a, fname)
      if seen[d] then fail(("%s: axis %d is repeated"):format(fname, a)) end
      seen[d] = true
      out[#out + 1] = d
    end
    table.sort(out)
    return out
  end
  M.norm_axes = norm_axes

  local defs
  local function def_of(name)
    if not defs then
      defs = {}
      for _, d in ipairs(internal.ufunc_defs) do defs[d.name] = d end
    end
    return defs[name]
  end

  --- The loop's CUDA statement (a definition's op or its per-type override)
  local function loop_op(d, sig)
    if d.ops then
      local c = sig:sub(1, 1)
      for chars, op in pairs(d.ops) do
        if chars:find(c, 1, true) then return op end
      end
    end
    return d.op
  end

  local CHAR = internal.CHARS   -- type char -> dtype name (C's table)

  --- ga_uop(a, b) (ga_uop1(a) for a unary ufunc): the ufunc's loop for
  -- operands of dtype D as a device function on the loop's compute types
  -- (the preamble of the method kernels); also the input and output
  -- compute types. The reduce-like methods pick D so that both are D's.
  local function uop_source(u, D)
    local _, sig
    if u.nin == 2 then _, sig = core.elementwise.resolve(u, D, D) else _, sig = core.elementwise.resolve(u, D) end
    local ci, co = ctype(CHAR[sig:sub(1, 1)]), ctype(CHAR[sig:sub(-1)])
    local op = loop_op(def_of(u.name), sig)
    if u.nin == 2 then
      return ("__device__ __forceinline__ %s ga_uop(%s in0, %s in1) { %s out0; %s; return out0; }\n"):format(
        co, ci, ci, co, op), ci, co
    end
    return ("__device__ __forceinline__ %s ga_uop1(%s in0) { %s out0; %s; return out0; }\n"):format(co, ci, co, op),
      ci, co
  end
  M.uop_source = uop_source

  --- The dtype a reduction-like method operates in: dtype=, else out's, else
  -- the array's (add and multiply widen small integers); then the ufunc's
  -- loop for (D, D) must give D, or D is cast to the loop's dtype where
  -- that one keeps it (divide of integers runs in float64), as NumPy's
  -- reduce resolves; logical ufuncs run on booleans.
  local resolved = setmetatable({}, { __mode = "k" })
  local function op_dtype(u, name, x, dtype, out, fname)
    local D
    if dtype ~= nil then D = ga.dtype(dtype).name
    elseif out ~= nil then D = out.dtype
    else D = UPCAST[x.dtype] and (name == "add" or name == "multiply") and UPCAST[x.dtype] or x.dtype end
    if name:match("^logical_") then return "bool" end
    -- memo per ufunc and dtype (the hot path of add.reduce resolves once)
    local memo = resolved[u]
    if not memo then
      memo = {}
      resolved[u] = memo
    end
    local r = memo[D]
    if r then return r end
    local R = core.elementwise.resolve(u, D, D)
    if R == D then r = D
    elseif ga.result_type(D, R) == R and core.elementwise.resolve(u, R, R) == R then r = R
    else
      fail(("%s: no loop of %s keeps %s (%s, %s -> %s): the method needs one whose inputs and output agree"):format(
        fname, name, D, D, D, R))
    end
    memo[D] = r
    return r
  end
  M.op_dtype = op_dtype

  -- kernels made for the methods, by source key
  local kernels = {}
  local function cached(key, make)
    local k = kernels[key]
    if not k then
      k = make()
      kernels[key] = k
    end
    return k
  end

  -- x with the listed axes (1-based, sorted) moved last, in order: a view,
  -- and the shape of the other axes
  local function axes_last(x, axes)
    local nd = x.ndim
    local red, perm, kept = {}, {}, {}
    for _, a in ipairs(axes) do red[a] = true end
    local shape = x.shape
    for d = 1, nd do
      if not red[d] then
        perm[#perm + 1] = d
        kept[#kept + 1] = shape[d]
      end
    end
    local k = 1
    for _, a in ipairs(axes) do
      perm[#perm + 1] = a
      k = k * shape[a]
    end
    return nd > 0 and x:transpose(perm) or x, kept, k, perm
  end

  local function out_shape(x, axes, keepdims)
    local red = {}
    for _, a in ipairs(axes) do red[a] = true end
    local s = {}
    for d, n in ipairs(x.shape) do
      if not red[d] then s[#s + 1] = n elseif keepdims then s[#s + 1] = 1 end
    end
    return s
  end

  --- r (a fresh result) into out when one was given
  local function deliver(r, out, fname)
    if out == nil then return r end
    internal.check_out(out, r.shape, fname)
    out:set(r)
    return out
  end

  local function mask_of(where)
    if where == nil or where == true then return nil end
    if where == false then return ga.asarray(false) end
    return ga.asarray(where, "bool")
  end

  -------------------------------------------------------------------------
  -- reduce

  -- A reorderable ufunc (or a built-in one with where=/initial=) as a
  -- ReductionKernel over its own loop: masked elements count as the
  -- identity (or, for maximum-like ufuncs without one, as initial, which
  -- changes nothing there); initial joins the result in the post-map
  local function reduce_kernel(u, name, D, has_where, has_init)
    local alg = ALGEBRA[name]
    local C = ctype(D)
    return cached(("red|%s|%s|%s|%s"):format(name, D, tostring(has_where), tostring(has_init)), function()
      local ins = "T x" .. (has_where and ", bool w" or "") .. (has_init and (", %s init"):format(C) or "")
      local fill = alg.id and ("((%s)(%s))"):format(C, alg.id) or "init"
      local map = has_where and ("(w ? ga_cast<%s>(x) : %s)"):format(C, fill) or ("ga_cast<%s>(x)"):format(C)
      local post = has_init and "y = ga_uop(a, init)" or "y = a"
      return ga.ReductionKernel(ins, D .. " y", map, "ga_uop(a, b)", post, alg.id and ("(%s)(%s)"):format(C, alg.id),
                                "ga_ufunc_reduce_" .. name, { reduce_type = C, preamble = (uop_source(u, D)) })
    end)
  end

  -- The fold of one axis per output element, in order (NumPy's loop for
  -- ufuncs that cannot reorder): x is raw, its reduced axes last
  local function fold_kernel(u, name, X, D, has_where, has_init)
    local C = ctype(D)
    return cached(("fold|%s|%s|%s|%s|%s"):format(name, X, D, tostring(has_where), tostring(has_init)), function()
      local ins = ("raw %s x%s, int64 k%s"):format(X, has_where and ", raw bool w" or "",
                                                    has_init and (", %s init"):format(C) or "")
      local op = table.concat({
        "const long long b_ = i * k;",
        ("%s acc_ = %s; bool have_ = %s;"):format(C, has_init and "init" or ("(%s)0"):format(C), tostring(has_init)),
        "for (long long j_ = 0; j_ < k; j_++) {",
        has_where and "  if (!w[b_ + j_]) continue;" or "",
        ("  %s v_ = ga_cast<%s>(x[b_ + j_]);"):format(C, C),
        "  if (have_) acc_ = ga_uop(acc_, v_); else { acc_ = v_; have_ = true; }",
        "}",
        "y = acc_;",
      }, "\n")
      return ga.ElementwiseKernel(ins, D .. " y", op, "ga_ufunc_fold_" .. name, { preamble = (uop_source(u, D)) })
    end)
  end

  local function no_identity(name)
    return ("zero-size array to reduction operation %s which has no identity"):format(name)
  end

  local function reduce(u, array, axis, dtype, out, keepdims, initial, where)
    local name = u.name
    local fname = "ufunc.reduce"   -- the bound method names the ufunc
    if u.nin ~= 2 then fail(fname .. ": reduce only supported for binary functions") end
    local x = is_array(array) and array or ga.asarray(array)
    local axes = norm_axes(x.ndim, axis, fname)
    local D = op_dtype(u, name, x, dtype, out, fname)
    local alg = ALGEBRA[name]
    -- the built-in reductions: the same values (their empty-reduction errors
    -- are NumPy's), the reduction engine's speed
    if alg and alg.builtin and (where == nil or where == true) and initial == nil then
      local f = ga[alg.builtin]
      -- f(x, axis) is the reduction's C fast path (no binder): the device
      -- time a timed call spends waiting for the host to launch
      local plain = out == nil and not keepdims and #axes == 1
      if alg.builtin == "sum" or alg.builtin == "prod" then
        -- a float array's own dtype: sum and prod run in it unasked
        if plain and D == x.dtype and FLOAT_KIND[internal.KIND[D]] then return f(x, axes[1]) end
        return f(x, axes, D, out, keepdims)
      end
      if x.dtype ~= D and not name:match("^logical_") then x = x:astype(D) end
      if plain then return f(x, axes[1]) end
      return f(x, axes, out, keepdims)
    end
    if #axes > 1 and not alg then
      fail(("%s: reduction operation '%s' is not reorderable, so at most one axis may be specified"):format(
        fname, name))
    end
    local w = mask_of(where)
    if w and not (alg and alg.id) and initial == nil then
      fail(("%s: reduction operation '%s' does not have an identity, so to use a where mask one has to specify "
            .. "'initial'"):format(fname, name))
    end
    local oshape = out_shape(x, axes, keepdims)
    local k = 1
    for _, a in ipairs(axes) do k = k * x.shape[a] end
    if k == 0 and not (alg and alg.id) then
      if initial == nil then fail(fname .. ": " .. no_identity(name)) end
      return deliver(ga.full(oshape, initial, D), out, fname)
    end
    local init = initial
    if alg then
      local kern = reduce_kernel(u, name, D, w ~= nil, init ~= nil)
      local args = { x }
      if w then args[#args + 1] = w end
      if init ~= nil then args[#args + 1] = init end
      local direct = out ~= nil and out.dtype == D
      args[#args + 1] = { axis = axes, keepdims = keepdims, out = direct and out or nil }
      local r = kern(table.unpack(args))
      return direct and r or deliver(r, out, fname)
    end
    -- one axis, in order
    local xv, kept = axes_last(x, axes)
    local args = { xv }
    if w then
      local wb = ga.broadcast_to(w, x.shape)
      args[#args + 1] = (axes_last(wb, axes))
    end
    args[#args + 1] = k
    if init ~= nil then args[#args + 1] = init end
    local y = ga.empty(kept, D)
    args[#args + 1] = y
    fold_kernel(u, name, x.dtype, D, w ~= nil, init ~= nil)(table.unpack(args))
    if keepdims then y = y:reshape(oshape) end
    return deliver(y, out, fname)
  end
  M.reduce = reduce

  -------------------------------------------------------------------------
  -- accumulate

  -- One row (length k) per thread, each element the fold so far; rows of
  -- x (raw, the axis last) from row0 on, chunk elements at a time (k: the
  -- row's length, chunk <= k; the last chunk may be short)
  local function scan_kernel(u, name, X, D, Y)
    local C = ctype(D)
    return cached(("scan|%s|%s|%s|%s"):format(name, X, D, Y), function()
      local op = table.concat({
        "const long long row_ = i / nc, c_ = i - row_ * nc;",
        "const long long b_ = row_ * k + c_ * chunk;",
        "const long long e_ = (c_ + 1) * chunk < k ? chunk : k - c_ * chunk;",
        ("%s acc_ = (%s)0;"):format(C, C),
        "for (long long j_ = 0; j_ < e_; j_++) {",
        ("  %s v_ = ga_cast<%s>(x[b_ + j_]);"):format(C, C),
        "  acc_ = j_ ? ga_uop(acc_, v_) : v_;",
        "  y[b_ + j_] = acc_;",
        "}",
        "if (e_ > 0 && nc > 1) t[i] = acc_;",
      }, "\n")
      return ga.ElementwiseKernel(("raw %s x, int64 k, int64 nc, int64 chunk"):format(X),
                                  ("raw %s y, raw %s t"):format(Y, D), op, "ga_ufunc_scan_" .. name,
                                  { preamble = (uop_source(u, D)) })
    end)
  end

  -- y[row, j] = prefix[row, c - 1] op y[row, j] for chunks c > 0
  local function carry_kernel(u, name, D, Y)
    local C = ctype(D)
    return cached(("carry|%s|%s|%s"):format(name, D, Y), function()
      local op = table.concat({
        "const long long row_ = i / k, j_ = i - row_ * k, c_ = j_ / chunk;",
        ("if (c_ > 0) y[i] = ga_uop(ga_cast<%s>(t[row_ * nc + c_ - 1]), ga_cast<%s>(y[i]));"):format(C, C),
      }, "\n")
      return ga.ElementwiseKernel(("raw %s t, int64 k, int64 nc, int64 chunk"):format(D), ("raw %s y"):format(Y),
                                  op, "ga_ufunc_carry_" .. name, { preamble = (uop_source(u, D)) })
    end)
  end

  local CHUNK = 256
  -- accumulate the last axis of the (M, k) raw view xv into yv (same shape)
  local function scan_rows(u, name, xv, yv, m, k, D, reorderable)
    if m * k == 0 then return end
    -- rows long and few: chunks scanned apart, then their totals, then carried
    local chunked = reorderable and k > 4 * CHUNK and m < 65536
    local chunk = chunked and CHUNK or k
    local nc = (k + chunk - 1) // chunk
    local t = chunked and ga.empty({ m, nc }, D) or ga.empty(1, D)
    scan_kernel(u, name, xv.dtype, D, yv.dtype)(xv, k, nc, chunk, yv, t, { size = m * nc })
    if not chunked then return end
    local tt = ga.empty({ m, nc }, D)
    scan_rows(u, name, t, tt, m, nc, D, true)
    carry_kernel(u, name, D, yv.dtype)(tt, k, nc, chunk, yv, { size = m * k })
  end

  local function accumulate(u, array, axis, dtype, out)
    local name = u.name
    local fname = "ufunc.accumulate"   -- the bound method names the ufunc
    if u.nin ~= 2 then fail(fname .. ": accumulate only supported for binary functions") end
    local x = ga.asarray(array)
    if x.ndim == 0 then fail(fname .. ": cannot accumulate on a scalar") end
    local a = norm_axes(x.ndim, axis, fname)[1]
    local D = op_dtype(u, name, x, dtype, out, fname)
    if name == "add" then return ga.cumsum(x, a, D, out) end
    if name == "multiply" then return ga.cumprod(x, a, D, out) end
    if out ~= nil then internal.check_out(out, x.shape, fname) end
    local y = out or ga.empty(x.shape, D)
    local xv, kept, k = axes_last(x, { a })
    local yv = axes_last(y, { a })
    local m = 1
    for _, n in ipairs(kept) do m = m * n end
    scan_rows(u, name, xv, yv, m, k, D, ALGEBRA[name] ~= nil)
    return y
  end
  M.accumulate = accumulate

  -------------------------------------------------------------------------
  -- reduceat: a segmented reduction (kernels/math/reduceat.cuh)

  local function reduceat_module(u, name, X, D, warp)
    return cached(("rat|%s|%s|%s|%s"):format(name, X, D, tostring(warp)), function()
      local src = table.concat({
        core.compile.kernel_source("common"), core.compile.kernel_source("math"), (uop_source(u, D)),
        core.compile.kernel_source("reduceat"),
        ("extern \"C\" __global__ void __launch_bounds__(256) k(const %s *x, const long long *idx, %s *y, "
         .. "long long m, long long n, long long s) {\n  ga_reduceat<%s, %s, %s, %s>(x, idx, y, m, n, s);\n}\n"):format(
          X, D, X, ctype(D), D, warp and "true" or "false"),
      }, "\n")
      return ga.RawKernel(src, "k")
    end)
  end

  local function reduceat(u, array, indices, axis, dtype, out)
    local name = u.name
    local fname = "ufunc.reduceat"   -- the bound method names the ufunc
    if u.nin ~= 2 then fail(fname .. ": reduceat only supported for binary functions") end
    local x = ga.asarray(array)
    if x.ndim == 0 then fail(fname .. ": cannot reduceat on a scalar") end
    local a = norm_axes(x.ndim, axis, fname)[1]
    local D = op_dtype(u, name, x, dtype, out, fname)
    local n = x.shape[a]
    -- 1-based segment starts, int64 on the device; checked (NumPy raises)
    local idx
    if is_array(indices) then
      if indices.ndim ~= 1 then fail(fname .. ": indices must be 1-D") end
      if not indices.dtype:match("int") then fail(fname .. ": indices must be integers, got " .. indices.dtype) end
      idx = indices.dtype == "int64" and ga.ascontiguousarray(indices) or indices:astype("int64")
      if idx.size > 0 then
        -- both ends read in one synchronization
        local ends = ga.concatenate({ ga.min(idx):reshape(1), ga.max(idx):reshape(1) }):totable()
        local lo, hi = ends[1], ends[2]
        if lo < 1 or hi > n then
          fail(("%s: index %d out-of-bounds in %s.reduceat [1, %d]"):format(fname, lo < 1 and lo or hi, name, n))
        end
      end
    else
      local list = internal.int_list(indices, fname, "indices", math.huge)   -- data: any length
      for _, v in ipairs(list) do
        if v < 1 or v > n then fail(("%s: index %d out-of-bounds in %s.reduceat [1, %d]"):format(fname, v, name, n)) end
      end
      idx = ga.array(#list > 0 and list or {}, "int64")
    end
    local s = idx.size
    local xv, kept = axes_last(x, { a })
    local m = 1
    for _, v in ipairs(kept) do m = m * v end
    xv = ga.ascontiguousarray(xv)
    local yshape = { table.unpack(kept) }
    yshape[#yshape + 1] = s
    local y = ga.empty(yshape, D)
    if m * s > 0 then
      local warp = ALGEBRA[name] ~= nil
      local k = reduceat_module(u, name, x.dtype, D, warp)
      local threads = m * s * (warp and 32 or 1)
      k((threads + 255) // 256, 256, { xv, idx, y, m, n, s })
    end
    -- back to x's axis order: the segment axis where axis a was
    if x.ndim > 1 then
      local perm, nk = {}, #kept
      for d = 1, x.ndim do
        if d < a then perm[d] = d elseif d == a then perm[d] = nk + 1 else perm[d] = d - 1 end
      end
      y = y:transpose(perm)
    end
    return deliver(y, out, fname)
  end
  M.reduceat = reduceat

  -------------------------------------------------------------------------
  -- outer: the ufunc over A's axes followed by B's

  local function outer(u, A, B, out, dtype)
    local fname = "ufunc.outer"   -- the bound method names the ufunc
    if u.nin ~= 2 then fail(fname .. ": outer product only supported for binary functions") end
    -- arrays as they are (no binder call: a timed call's window holds
    -- the host time before the launch)
    if not is_array(A) then A = ga.asarray(A) end
    if not is_array(B) then B = ga.asarray(B) end
    local shape = A.shape
    for _ = 1, B.ndim do shape[#shape + 1] = 1 end
    local Ar = #shape > 0 and A:reshape(shape) or A
    if dtype ~= nil then return u(Ar, B, out, { dtype = dtype }) end
    if out == nil then return u(Ar, B) end
    return u(Ar, B, out)
  end
  M.outer = outer

  -- the kernel makers, for the specs that compile them without a device
  M.kernels = { reduce = reduce_kernel, fold = fold_kernel, scan = scan_kernel, carry = carry_kernel,
                reduceat = reduceat_module }

  -------------------------------------------------------------------------
  -- declarations and the bound methods

  local UM = {}
  api.set_type("ufunc", function(v) return getmetatable(v) ~= nil and getmetatable(v).__name == "gpuarray.ufunc" end)
  api.def(UM, [[
ufunc:reduce(array: array_like, axis: axes = 1, dtype: dtype?, out: ndarray?, keepdims: boolean = false,
             initial: scalar?, where: array_like|boolean = true) -> ndarray
Reduce array's axis (1-based; NumPy's default axis 0 is 1 here; a list for
several, every axis for all of them, {} for none) by applying the binary
ufunc along it: ga.add.reduce(x) sums the first axis. dtype: the dtype the
operation runs in (default: out's, else array's; add and multiply widen
small integers as sum does). initial starts every reduction; where selects
the elements taking part (a boolean array broadcast against array).
Ufuncs that cannot reorder their operands (subtract, divide, ...) reduce
one axis, in order.
]], function(u, ...) return reduce(u, ...) end)
  api.def(UM, [[
ufunc:accumulate(array: array_like, axis: axis = 1, dtype: dtype?, out: ndarray?) -> ndarray
The running reduction along axis (1-based, default 1): element j holds the
ufunc applied to elements 1..j. add and multiply run on the scan engine
(cumsum, cumprod).
]], function(u, ...) return accumulate(u, ...) end)
  api.def(UM, [[
ufunc:reduceat(array: array_like, indices: array_like, axis: axis = 1, dtype: dtype?,
               out: ndarray?) -> ndarray
Reductions over segments of axis (1-based): output i reduces positions
indices[i] .. indices[i+1]-1 (the last one to the end), or is element
indices[i] where indices[i] >= indices[i+1]. indices are 1-based positions,
each in 1..n (NumPy raises past the ends, and so does this).
]], function(u, ...) return reduceat(u, ...) end)
  api.def(UM, [[
ufunc:outer(A: array_like, B: array_like, out: ndarray?, *, dtype: dtype?) -> ndarray
The ufunc on every pair: result[i..., j...] = ufunc(A[i...], B[j...]); shape
A.shape followed by B.shape.
]], function(u, ...) return outer(u, ...) end)
  api.def(UM, [[
ufunc:at(a: ndarray, indices: array_like|list, b: array_like?)
In place, unbuffered: a[indices] = ufunc(a[indices], b) where a repeated
index applies once per occurrence (ga.add.at accumulates; x[idx] = x[idx] +
v would not). indices: 1-based positions along a's first axis (an integer
array or list; negative ones count from the end; out-of-range ones wrap, as
integer-array indexing does), or a list of one index array per axis. b is
broadcast to the indexed shape; unary ufuncs take no b. Returns nothing.
]], function(u, ...) return internal.ufunc_at(u, "ufunc.at", ...) end)
  api.class("ufunc", UM)
  M.methods = UM

  --- The at engine for other public functions (cupyx's scatter_add,
  -- scatter_max, scatter_min): internal.ufunc_at(ga.add, "scatter_add", a,
  -- indices, b) updates a in place; errors start with fname
  internal.ufunc_at = function(u, fname, a, indices, b)
    M.at_engine = M.at_engine or require("gpuarray.elementwise.at")(ga, M)
    return M.at_engine.at(u, fname, a, indices, b)
  end

  -- the bound method of ufunc u: self may come first (u:reduce(x)) or not
  -- (u.reduce(x)); errors name it ("add.reduce")
  local function bind(u, key, f)
    local from = "gpuarray: ufunc." .. key .. ": "
    local to = "gpuarray: " .. u.name .. "." .. key .. ": "
    local function rename(ok, ...)
      if ok then return ... end
      local e = ...
      if type(e) == "string" and e:sub(1, #from) == from then e = to .. e:sub(#from + 1) end
      error(e, 0)
    end
    return function(first, ...)
      if rawequal(first, u) then return rename(pcall(f, u, ...)) end
      return rename(pcall(f, u, first, ...))
    end
  end

  local UFUNC = {}   -- key of the proxy's ufunc
  local proxy_mt = {
    __index = function(t, key)
      local u = rawget(t, UFUNC)
      if key == "identity" then return IDENTITY[u.name] end
      local f = UM[key]
      if f == nil then return nil end
      f = bind(u, key, f)
      rawset(t, key, f)
      return f
    end,
  }
  --- The methods table of a ufunc definition (core.elementwise.ufunc's `methods`)
  function M.proxy()
    return setmetatable({}, proxy_mt)
  end
  function M.attach(proxy, u)
    rawset(proxy, UFUNC, u)
  end

  return M
end
