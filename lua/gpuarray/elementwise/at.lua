--- The engine of ufunc.at (API.md §14): a[indices] = ufunc(a[indices], b),
-- unbuffered, so that a repeated index applies once per occurrence. One
-- ElementwiseKernel over the indexed shape (b broadcast to it): each
-- element finds its place in a (1-based indices, wrapped as integer-array
-- indexing wraps: kernels/gather's ga_wrap) and updates it atomically:
-- atomicAdd / atomicMax / atomicAnd ... where the dtype and the ufunc have
-- one, else a compare-and-swap loop over the ufunc's own loop
-- (kernels/math/atomic.cuh). complex128 has no 16-byte swap: its updates
-- other than add and subtract run in one thread, in order.
--
-- Shared with the cupyx scatter functions (scatter_add, scatter_max,
-- scatter_min): M.at(ufunc, fname, a, indices, b) is the whole engine.
local internal = require "gpuarray.internal"
local args = require "gpuarray.array.args"

return function(ga, methods)
  local core = ga._core
  local fail = internal.fail
  local is_array = internal.is_array
  local M = {}

  local function ctype(dt) return internal.COMPUTE[dt] end   -- float16, bfloat16 compute in float

  -- hardware atomics: ufunc -> the dtypes with a native read-modify-write
  local ADD = { float32 = true, float64 = true, int32 = true, uint32 = true, int64 = true, uint64 = true }
  local MAXMIN = { int32 = true, uint32 = true, int64 = true, uint64 = true }
  local BITS = { int32 = true, uint32 = true, int64 = true, uint64 = true }
  local NATIVE = {
    add = function(dt) return ADD[dt] and "atomicAdd(P_, V_)" end,
    subtract = function(dt) return ADD[dt] and "atomicAdd(P_, (T_)(0 - V_))" end,
    maximum = function(dt) return MAXMIN[dt] and "atomicMax(P_, V_)" end,
    minimum = function(dt) return MAXMIN[dt] and "atomicMin(P_, V_)" end,
    fmax = function(dt) return MAXMIN[dt] and "atomicMax(P_, V_)" end,
    fmin = function(dt) return MAXMIN[dt] and "atomicMin(P_, V_)" end,
    bitwise_and = function(dt) return BITS[dt] and "atomicAnd(P_, V_)" end,
    bitwise_or = function(dt) return BITS[dt] and "atomicOr(P_, V_)" end,
    bitwise_xor = function(dt) return BITS[dt] and "atomicXor(P_, V_)" end,
  }
  -- the CUDA atomics take these types for 64-bit integers
  local ATOMIC_T = { int64 = { add = "unsigned long long", other = "long long" },
                     uint64 = { add = "unsigned long long", other = "unsigned long long" } }

  --- The statement applying the ufunc at P_ (a T_ *) with value V_
  local function update_stmt(name, dt, nin, Ci)
    local native = NATIVE[name] and NATIVE[name](dt)
    if native then
      local at = ATOMIC_T[dt]
      local T = at and ((name == "add" or name == "subtract" or name:match("^bitwise")) and at.add or at.other) or dt
      return ("{ typedef %s T_; T_ *P_ = (T_ *)p_; T_ V_ = (T_)v_; %s; }"):format(T, native)
    end
    if (name == "add" or name == "subtract") and dt:match("^complex") then
      local R = dt == "complex64" and "float" or "double"
      local sign = name == "add" and "" or "-"
      return ("{ %s *P_ = (%s *)p_; atomicAdd(P_, %sv_.re); atomicAdd(P_ + 1, %sv_.im); }"):format(R, R, sign, sign)
    end
    local call = nin == 1 and ("ga_uop1((%s)c)"):format(Ci) or ("ga_uop((%s)c, v)"):format(Ci)
    return ("ga_atomic_update(p_, [v_](%s c) -> %s { %s v = (%s)v_; (void)v; return (%s)%s; });"):format(
      dt, dt, Ci, Ci, dt, call)
  end

  local function serial(name, dt)
    return dt == "complex128" and not (name == "add" or name == "subtract")
  end

  local kernels = {}
  local function kernel(u, A, nidx, has_b)
    local name = u.name
    local key = ("%s|%s|%d|%s"):format(name, A, nidx, tostring(has_b))
    local k = kernels[key]
    if k then return k end
    local C = ctype(A)
    -- the ufunc's loop for a's dtype, on its own compute types (Ci: the
    -- inputs', so sqrt.at of an integer array computes in float64)
    local uop, Ci = methods.uop_source(u, A)
    local pre = { core.compile.kernel_source("gather"), core.compile.kernel_source("atomic"), uop }
    local ins = {}
    for d = 1, nidx do ins[#ins + 1] = ("raw int64 idx%d, int64 n%d"):format(d, d) end
    ins[#ins + 1] = "int64 rest"
    -- b raw and one element a thread ({ size = n }): in the flat loop's
    -- vectors (16 elements a thread) each element's index load waited for
    -- the atomic before it (the compiler keeps them in order)
    if has_b then ins[#ins + 1] = ("raw %s b"):format(C) end
    -- rest (the elements each index selects) is 1 for a 1-D a: no 64-bit
    -- division per element then (a few per cent of the general path's time)
    local body = { "long long s_ = i, r_ = 0;", "if (rest != 1) { s_ = i / rest; r_ = i - s_ * rest; }",
                   "long long L_ = 0;" }
    for d = 1, nidx do
      body[#body + 1] = ("L_ = L_ * n%d + ga_wrap<long long>(idx%d[s_], n%d);"):format(d, d, d)
    end
    body[#body + 1] = ("%s *p_ = &a[L_ * rest + r_];"):format(A)
    body[#body + 1] = ("%s v_ = %s;"):format(C, has_b and "b[i]" or ("(%s)0"):format(C))
    body[#body + 1] = "(void)v_;"
    if serial(name, A) then
      -- one thread walks every element in order (i counts them)
      body = { ("for (long long e_ = 0; e_ < total; e_++) {"), table.concat(body, "\n"):gsub("%f[%w_]i%f[^%w_]", "e_"),
               ("  *p_ = (%s)%s;"):format(A, u.nin == 1 and ("ga_uop1((%s)*p_)"):format(Ci)
                                                        or ("ga_uop((%s)*p_, (%s)v_)"):format(Ci, Ci)), "}" }
    else
      body[#body + 1] = update_stmt(name, A, u.nin, Ci)
    end
    local op = table.concat(body, "\n")
    if serial(name, A) then ins[#ins + 1] = "int64 total" end
    k = ga.ElementwiseKernel(table.concat(ins, ", "), ("raw %s a"):format(A), op, "ga_ufunc_at_" .. name,
                             { preamble = table.concat(pre, "\n") })
    kernels[key] = k
    return k
  end

  M.kernel = kernel   -- for the specs

  -- add.at into a small 1-D array (a histogram: many updates a bin): each
  -- block adds into a private copy of the first PRIV_BYTES of a in shared
  -- memory and merges it with coalesced atomics at the end (a bit a bin
  -- marks the bins it touched: an untouched -0.0 stays -0.0); indices past
  -- the private part update a directly. The updates' order is the
  -- atomics' anyway. On an H100 the 2^24 random updates of 2^16 float32
  -- bins were bound by L2's random atomics (259 us queued, as CuPy's).
  local PRIV_BYTES = 192 * 1024
  local PRIV = { float32 = true, float64 = true, int32 = true, uint32 = true }   -- shared-memory atomicAdd
  local priv_src = [[
extern "C" __global__ void __launch_bounds__(1024) ga_add_at_priv(T *__restrict__ a, const long long *__restrict__ idx,
    const T *__restrict__ b, long long n, long long total, int nsh) {
  extern __shared__ __align__(16) unsigned char ga_sh_[];
  T *sh = reinterpret_cast<T *>(ga_sh_);
  unsigned int *hit = reinterpret_cast<unsigned int *>(sh + nsh);
  const int nw = (nsh + 31) / 32;
  for (int k = threadIdx.x; k < nsh; k += blockDim.x) sh[k] = T(0);
  for (int k = threadIdx.x; k < nw; k += blockDim.x) hit[k] = 0u;
  __syncthreads();
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
    const long long L = ga_wrap<long long>(idx[i], n);
    const T v = b[i];
    if (L < nsh) {
      atomicAdd(&sh[L], v);
      const unsigned int m = 1u << (L & 31);
      if (!(hit[L >> 5] & m)) atomicOr(&hit[L >> 5], m);
    } else {
      atomicAdd(&a[L], v);
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < nsh; k += blockDim.x)
    if (hit[k >> 5] & (1u << (k & 31))) atomicAdd(&a[k], sh[k]);
}
]]
  local priv_kernels = {}
  local function priv_kernel(A)
    local k = priv_kernels[A]
    if not k then
      local src = core.compile.kernel_source("gather") .. ("typedef %s T;\n"):format(internal.CTYPE[A]) .. priv_src
      k = ga.RawKernel(src, "ga_add_at_priv")
      priv_kernels[A] = k
    end
    return k
  end
  M.priv_kernel = priv_kernel   -- for the specs

  --- add.at of b (broadcast to the indices' shape) at the 1-D a's idx,
  -- through the private copies when they fit; false when not taken
  local priv_dev, priv_limit = {}, {}   -- per device: {SMs, bytes}; per dtype: the shared memory allowed
  local function add_at_private(a, idx, b, total)
    local A = a.dtype
    local isz = a.itemsize
    if not PRIV[A] or a.ndim ~= 1 or a.strides[1] ~= isz or b.dtype ~= A then return false end
    local n = a.shape[1]
    if total < 8 * n or total < (1 << 20) or n > 2 * PRIV_BYTES // isz then return false end
    if idx.ndim ~= 1 or idx.strides[1] ~= 8 or b.ndim ~= 1 or b.strides[1] ~= isz then return false end
    local dev = ga.get_device_id()
    local pd = priv_dev[dev]
    if not pd then
      local props = ga.device_properties(dev)
      -- the private copy in what one block may take (less on older GPUs)
      pd = { props.multiprocessors, math.min(PRIV_BYTES, (props.shared_memory_per_block_optin or 0) - 8 * 1024) }
      priv_dev[dev] = pd
    end
    local priv_sms, priv_bytes = pd[1], pd[2]
    if priv_bytes < 32 * 1024 then return false end
    local nsh = math.min(n, priv_bytes // isz)
    local bytes = nsh * isz + ((nsh + 31) // 32) * 4
    local k = priv_kernel(A)
    if (priv_limit[A] or 0) < bytes then
      k:set_max_dynamic_shared_mem(bytes)
      priv_limit[A] = bytes
    end
    k(priv_sms, 1024, { a, idx, b, n, total, nsh }, { shared_mem = bytes })
    return true
  end

  --- The index arrays (one per leading axis, int64, broadcast together)
  -- and their shape
  local function index_arrays(indices, fname)
    local list
    if is_array(indices) then
      list = { indices }
    elseif type(indices) == "table" and is_array(indices[1]) then
      list = {}
      for i = 1, math.min(rawlen(indices), 33) do list[i] = rawget(indices, i) end
    elseif type(indices) == "table" or math.type(indices) == "integer" then
      local function check(v, depth)   -- raw reads: a metatable cannot make it endless
        if type(v) == "table" then
          if depth > 32 then fail(fname .. ": indices nest too deep") end
          for i = 1, rawlen(v) do check(rawget(v, i), depth + 1) end
        elseif math.type(v) ~= "integer" then
          fail(("%s: indices must be integers, got %s"):format(fname, tostring(v)))
        end
      end
      check(indices, 0)
      list = { ga.asarray(indices, "int64") }
    else
      fail(("%s: indices must be an integer array, a list of integers or a list of index arrays, got %s"):format(
        fname, type(indices)))
    end
    for i, v in ipairs(list) do
      if not is_array(v) then v = ga.asarray(v) end
      if not v.dtype:match("int") then fail(("%s: indices must be integers, got %s"):format(fname, v.dtype)) end
      list[i] = v.dtype == "int64" and v or v:astype("int64")
    end
    if #list > 1 then list = { ga.broadcast_arrays(table.unpack(list)) } end
    return list, list[1].shape
  end

  --- ufunc u at a[indices] with b (nil for unary ufuncs); a is updated in
  -- place; fname: the public name errors start with
  function M.at(u, fname, a, indices, b)
    if not is_array(a) then fail(fname .. ": a must be an ndarray") end
    if u.nin == 2 and b == nil then fail(fname .. ": second operand needed for ufunc") end
    if u.nin == 1 and b ~= nil then fail(fname .. ": second operand provided when ufunc is unary") end
    local list, ishape = index_arrays(indices, fname)
    local nidx = #list
    if nidx > a.ndim then
      fail(("%s: too many indices for an array of %d dimension%s"):format(fname, a.ndim, a.ndim == 1 and "" or "s"))
    end
    local A = a.dtype
    local shape = { table.unpack(ishape) }
    local rest = 1
    local ashape = a.shape
    for d = nidx + 1, #ashape do
      shape[#shape + 1] = ashape[d]
      rest = rest * ashape[d]
    end
    local total = 1
    for _, n in ipairs(shape) do total = total * n end
    if b ~= nil then
      -- cast to a's dtype first, as NumPy 1.x's at casts (unsafe)
      local C = ctype(A)
      if not is_array(b) then
        -- a complex pair is one value of a complex dtype; anything else
        -- converts as C casts (a Lua -1 into uint8 is 255)
        b = (type(b) == "table" and C:match("^complex")) and ga.asarray(b, C) or ga.asarray(b)
      end
      if b.dtype ~= C then b = b:astype(C) end
      -- b already of the indexed shape (the common case) needs no view: a
      -- view costs about a tenth of add.at's host time
      if not args.same_shape(b.shape, shape) then b = ga.broadcast_to(b, shape) end
    end
    if total == 0 then return end
    for d = 1, nidx do
      if ashape[d] == 0 then fail(("%s: index out of bounds for axis %d with size 0"):format(fname, d)) end
    end
    if u.name == "add" and nidx == 1 and rest == 1 and b ~= nil and add_at_private(a, list[1], b, total) then
      return
    end
    local kargs = {}
    for d = 1, nidx do
      kargs[#kargs + 1] = list[d]
      kargs[#kargs + 1] = ashape[d]
    end
    kargs[#kargs + 1] = rest
    if b ~= nil then kargs[#kargs + 1] = b end
    local k = kernel(u, A, nidx, b ~= nil)
    if serial(u.name, A) then kargs[#kargs + 1] = total end
    kargs[#kargs + 1] = a
    kargs[#kargs + 1] = { size = serial(u.name, A) and 1 or total }
    k(table.unpack(kargs))
  end

  return M
end
