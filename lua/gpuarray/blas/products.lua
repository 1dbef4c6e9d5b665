--- Products (API.md §7): matmul with NumPy's semantics over one C entry
-- point (core.blas.matmul: cuBLAS GEMM for float16/32/64 and complex, a kernel
-- of ours for integers and bool), and everything built on it: dot, vdot,
-- inner, outer, tensordot, kron; the diagonal family trace, diagonal,
-- diag, tril, triu; ga.set_matmul_precision. einsum is in einsum.lua.
--
-- Every public function here is declared (API.md §0; lua/gpuarray/api):
-- api.def binds the declaration to the implementation, which receives
-- every parameter by position, defaults filled in.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local fail = internal.fail
  local is_array = internal.is_array
  local shape_str = internal.shape_str
  local methods = ga.methods

  -- per Lua state: this closure belongs to the state that required us
  local precision = "highest"

  def(ga, [[
set_matmul_precision(precision: "highest"|"tf32")
Whether float32 and complex64 products may use TF32 tensor cores (10-bit
mantissa inputs, float32 accumulation), for this Lua state. Default "highest".
]], function(p) precision = p end)
  def(ga, [[
get_matmul_precision() -> string
The matmul precision of this Lua state: "highest" or "tf32".
]], function() return precision end)

  local function operand(x, fname)
    if is_array(x) then return x end
    local t = type(x)
    if t == "number" or t == "table" or t == "boolean" then return ga.asarray(x) end
    fail(("%s: operands must be ndarrays, numbers or tables, got %s"):format(fname, t))
  end
  internal.product_operand = operand

  local function cat(a, b)
    local r = { table.unpack(a) }
    for _, v in ipairs(b) do r[#r + 1] = v end
    return r
  end
  local function same_shape(a, b)
    if #a ~= #b then return false end
    for i = 1, #a do if a[i] ~= b[i] then return false end end
    return true
  end

  local overlaps = internal.overlaps

  def(ga, [[
matmul(x1: array_like, x2: array_like, out: ndarray?) -> ndarray
Matrix product as NumPy's: 1-D operands promoted (the axis dropped after),
leading axes are batches and broadcast, zero-size axes allowed.
]], function(a, b, out)
    a, b = operand(a, "matmul"), operand(b, "matmul")
    if a.ndim == 0 or b.ndim == 0 then fail("matmul: scalar operands are not allowed, use multiply") end
    local dt = ga.result_type(a, b)
    local sa0, sb0 = a.shape, b.shape
    local a1, b1 = #sa0 == 1, #sb0 == 1
    if a1 then a = a:reshape(1, sa0[1]) end
    if b1 then b = b:reshape(sb0[1], 1) end
    local sa, sb = a.shape, b.shape
    local m, k, n = sa[#sa - 1], sa[#sa], sb[#sb]
    if sb[#sb - 1] ~= k then
      fail(("matmul: shapes %s and %s do not match: %d columns against %d rows"):format(
        shape_str(sa0), shape_str(sb0), k, sb[#sb - 1]))
    end
    local ok, batch = pcall(ga.broadcast_shapes, { table.unpack(sa, 1, #sa - 2) }, { table.unpack(sb, 1, #sb - 2) })
    if not ok then
      fail(("matmul: batch axes of %s and %s cannot be broadcast"):format(shape_str(sa0), shape_str(sb0)))
    end
    local final = { table.unpack(batch) }
    if not a1 then final[#final + 1] = m end
    if not b1 then final[#final + 1] = n end
    if out then internal.check_out(out, final, "matmul") end
    if a.dtype ~= dt then a = a:astype(dt) end
    if b.dtype ~= dt then b = b:astype(dt) end
    local fa, fb, full = cat(batch, { m, k }), cat(batch, { k, n }), cat(batch, { m, n })
    if not same_shape(sa, fa) then a = ga.broadcast_to(a, fa) end
    if not same_shape(sb, fb) then b = ga.broadcast_to(b, fb) end
    local direct = out and out.dtype == dt and out.flags.c_contiguous and not overlaps(out, a) and not overlaps(out, b)
    local c = direct and out:reshape(full) or ga.empty(full, dt)
    core.blas.matmul(a, b, c, precision == "tf32")
    if out then
      if not direct then out:set(c) end
      return out
    end
    return c:reshape(final)
  end)

  -- x . y of two real vectors as one bandwidth-bound reduction (the
  -- reduction engine reaches copy speed; cuBLAS's dot does not)
  local dot_kernel
  local FAST_DOT = {
    float32 = true, float64 = true, int8 = true, int16 = true, int32 = true, int64 = true,
    uint8 = true, uint16 = true, uint32 = true, uint64 = true,
  }
  local function vector_dot(x, y)
    local dt = ga.result_type(x, y)
    if FAST_DOT[dt] and ga.ReductionKernel then
      if x.dtype ~= dt then x = x:astype(dt) end
      if y.dtype ~= dt then y = y:astype(dt) end
      dot_kernel = dot_kernel or ga.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "ga_dot")
      return dot_kernel(x, y)
    end
    return ga.matmul(x, y)
  end

  local function check_len(x, y, fname)
    if x.shape[1] ~= y.shape[1] then
      fail(("%s: vectors of lengths %d and %d"):format(fname, x.shape[1], y.shape[1]))
    end
  end

  def(ga, [[
dot(a: array_like, b: array_like, out: ndarray?) -> ndarray
NumPy's dot: the inner product of vectors, the matrix product of 2-D
arrays, a sum over a's last axis and b's second-to-last otherwise.
]], function(a, b, out)
    a, b = operand(a, "dot"), operand(b, "dot")
    if a.ndim == 0 or b.ndim == 0 then return ga.multiply(a, b, { out = out }) end
    if a.ndim == 1 and b.ndim == 1 then
      check_len(a, b, "dot")
      local r = vector_dot(a, b)
      if out then internal.check_out(out, {}, "dot"):set(r) return out end
      return r
    end
    if b.ndim <= 2 or a.ndim == 1 then return ga.matmul(a, b, out) end
    local r = ga.tensordot(a, b, { { -1 }, { -2 } })
    if out then internal.check_out(out, r.shape, "dot"):set(r) return out end
    return r
  end)
  methods.dot = ga.dot
  api.alias("ndarray:dot", ga.dot)

  def(ga, [[
vdot(a: array_like, b: array_like) -> ndarray
The flattened a, conjugated, dotted with the flattened b (a 0-d array).
]], function(a, b)
    a, b = operand(a, "vdot"), operand(b, "vdot")
    if a.size ~= b.size then fail(("vdot: arrays of %d and %d elements"):format(a.size, b.size)) end
    a, b = a:ravel(), b:ravel()
    if a.dtype:find("complex", 1, true) then a = ga.conj(a) end
    return vector_dot(a, b)
  end)

  def(ga, [[
inner(a: array_like, b: array_like) -> ndarray
The sum of products over the last axes of both.
]], function(a, b)
    a, b = operand(a, "inner"), operand(b, "inner")
    if a.ndim == 0 or b.ndim == 0 then return ga.multiply(a, b) end
    if a.shape[a.ndim] ~= b.shape[b.ndim] then
      fail(("inner: last axes differ: %s and %s"):format(shape_str(a.shape), shape_str(b.shape)))
    end
    if a.ndim == 1 and b.ndim == 1 then return vector_dot(a, b) end
    return ga.tensordot(a, b, { { -1 }, { -1 } })
  end)

  def(ga, [[
outer(a: array_like, b: array_like, out: ndarray?) -> ndarray
The outer product: a (flattened) as a column times b (flattened) as a row.
]], function(a, b, out)
    a, b = operand(a, "outer"):ravel(), operand(b, "outer"):ravel()
    return ga.multiply(a:reshape(a.size, 1), b:reshape(1, b.size), { out = out })
  end)

  local function norm_axis(ax, nd, fname)
    if math.type(ax) ~= "integer" then fail(fname .. ": axes are integers") end
    local r = ax < 0 and nd + ax + 1 or ax
    if r < 1 or r > nd then fail(("%s: axis %d is out of range for %d dimensions"):format(fname, ax, nd)) end
    return r
  end

  def(ga, [[
tensordot(a: array_like, b: array_like, axes: integer|list = 2) -> ndarray
Sum of products over axes: an integer N pairs the last N axes of a with the
first N of b; {{a axes}, {b axes}} pairs them by position (1-based,
negative from the end).
]], function(a, b, axes)
    a, b = operand(a, "tensordot"), operand(b, "tensordot")
    local ax, bx = {}, {}
    if math.type(axes) == "integer" then
      if axes < 0 or axes > a.ndim or axes > b.ndim then fail("tensordot: axes out of range") end
      for i = 1, axes do ax[i], bx[i] = a.ndim - axes + i, i end
    elseif type(axes) == "table" and #axes == 2 then
      local p, q = axes[1], axes[2]
      if type(p) ~= "table" then p = { p } end
      if type(q) ~= "table" then q = { q } end
      if #p ~= #q then fail("tensordot: the two axis lists differ in length") end
      for i = 1, #p do
        ax[i], bx[i] = norm_axis(p[i], a.ndim, "tensordot"), norm_axis(q[i], b.ndim, "tensordot")
      end
    else
      fail("tensordot: axes is an integer or {{a axes}, {b axes}}")
    end
    local sa, sb = a.shape, b.shape
    local used_a, used_b, kk = {}, {}, 1
    for i = 1, #ax do
      if sa[ax[i]] ~= sb[bx[i]] then
        fail(("tensordot: axis %d of %s and axis %d of %s differ"):format(ax[i], shape_str(sa), bx[i], shape_str(sb)))
      end
      if used_a[ax[i]] or used_b[bx[i]] then fail("tensordot: an axis is repeated") end
      used_a[ax[i]], used_b[bx[i]] = true, true
      kk = kk * sa[ax[i]]
    end
    local perm_a, perm_b, free_a, free_b, ma, nb = {}, {}, {}, {}, 1, 1
    for d = 1, #sa do
      if not used_a[d] then perm_a[#perm_a + 1] = d; free_a[#free_a + 1] = sa[d]; ma = ma * sa[d] end
    end
    for i = 1, #ax do perm_a[#perm_a + 1] = ax[i] end
    for i = 1, #bx do perm_b[#perm_b + 1] = bx[i] end
    for d = 1, #sb do
      if not used_b[d] then perm_b[#perm_b + 1] = d; free_b[#free_b + 1] = sb[d]; nb = nb * sb[d] end
    end
    local a2 = (#sa > 0 and a:transpose(perm_a) or a):reshape(ma, kk)
    local b2 = (#sb > 0 and b:transpose(perm_b) or b):reshape(kk, nb)
    return ga.matmul(a2, b2):reshape(cat(free_a, free_b))
  end)

  def(ga, [[
kron(a: array_like, b: array_like) -> ndarray
The Kronecker product.
]], function(a, b)
    a, b = operand(a, "kron"), operand(b, "kron")
    local nd = math.max(a.ndim, b.ndim)
    local sa, sb = a.shape, b.shape
    while #sa < nd do table.insert(sa, 1, 1) end
    while #sb < nd do table.insert(sb, 1, 1) end
    local ia, ib, res = {}, {}, {}
    for d = 1, nd do
      ia[2 * d - 1], ia[2 * d] = sa[d], 1
      ib[2 * d - 1], ib[2 * d] = 1, sb[d]
      res[d] = sa[d] * sb[d]
    end
    if nd == 0 then return ga.multiply(a, b) end
    return ga.multiply(a:reshape(ia), b:reshape(ib)):reshape(res)
  end)

  def(ga, [[
diagonal(a: array_like, offset: integer = 0, axis1: axis = 1, axis2: axis = 2) -> ndarray
A view of the diagonal of the axis1, axis2 planes (offset above the main
diagonal when positive), appended as the last axis.
]], function(x, offset, axis1, axis2)
    return core.blas.diag_view(operand(x, "diagonal"), offset, axis1, axis2)
  end)
  methods.diagonal = ga.diagonal
  api.alias("ndarray:diagonal", ga.diagonal)

  def(ga, [[
trace(a: array_like, offset: integer = 0, axis1: axis = 1, axis2: axis = 2, dtype: dtype?, out: ndarray?) -> ndarray
The sum along diagonals (a 0-d array for a matrix).
]], function(x, offset, axis1, axis2, dtype, out)
    local d = core.blas.diag_view(operand(x, "trace"), offset, axis1, axis2)
    return ga.sum(d, { axis = -1, dtype = dtype, out = out })
  end)
  methods.trace = ga.trace
  api.alias("ndarray:trace", ga.trace)

  def(ga, [[
diag(v: array_like, k: integer = 0) -> ndarray
A 1-D v placed on the k-th diagonal of a square matrix (a new array), or the
k-th diagonal of a 2-D v (a view).
]], function(v, k)
    v = operand(v, "diag")
    if v.ndim == 1 then
      local n = v.shape[1] + math.abs(k)
      local z = ga.zeros({ n, n }, v.dtype)
      core.blas.diag_view(z, k, 1, 2):set(v)
      return z
    end
    if v.ndim ~= 2 then fail(("diag: a 1-D or 2-D input, got %d-D"):format(v.ndim)) end
    return core.blas.diag_view(v, k, 1, 2)
  end)

  local function tri(name, keep)
    return function(x, k)
      x = operand(x, name)
      if x.ndim < 2 then fail(("%s: the array needs at least 2 axes, it has %d"):format(name, x.ndim)) end
      local s = x.shape
      local m, n = s[#s - 1], s[#s]
      local d = ga.subtract(ga.arange(n, "int64"):reshape(1, n), ga.arange(m, "int64"):reshape(m, 1))
      return ga.where(keep(d, k), x, ga.zeros({}, x.dtype))
    end
  end
  def(ga, [[
tril(m: array_like, k: integer = 0) -> ndarray
A copy with the elements above the k-th diagonal zeroed (the last two axes).
]], tri("tril", function(d, k) return ga.less_equal(d, k) end))
  def(ga, [[
triu(m: array_like, k: integer = 0) -> ndarray
A copy with the elements below the k-th diagonal zeroed (the last two axes).
]], tri("triu", function(d, k) return ga.greater_equal(d, k) end))
end
