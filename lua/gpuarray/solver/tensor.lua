--- The rest of numpy.linalg, composed from the factorisations: cond,
-- tensorsolve, tensorinv, multi_dot (the cheapest parenthesisation, as
-- NumPy), cross, matrix_transpose and linalg.matmul (the products' names
-- under linalg, as NumPy 2).
return function(ga, linalg)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local fail = internal.fail
  local shape_str = internal.shape_str
  local h = linalg._helpers

  linalg.matmul = ga.matmul
  api.alias("linalg.matmul", ga.matmul)

  --- the inverse of each matrix without the singular check: a zero pivot
  -- leaves inf/NaN (cond's NumPy rule turns them into inf)
  local function inv_unchecked(a, dt)
    local n = a.shape[a.ndim]
    local A, ipiv = linalg._lu(a, dt, nil, true)
    local I = ga.ascontiguousarray(ga.broadcast_to(ga.eye(n, dt), a.shape))
    core.solver.getrs(A, ipiv, I, false)
    return h.from_cm(I)       -- I now holds A^{-1} column-major
  end

  def(linalg, [[
linalg.cond(x: array_like, p: number|"fro"|"nuc"?) -> ndarray
The condition number of each matrix of x in the norm p (nil: 2, through the singular values;
-2: smallest over largest). A singular matrix gives inf in the norms through the inverse, as NumPy;
through the singular values inf only where the smallest is exactly 0, else a huge number (NumPy's too).
]], function(x, p)
    x = h.matrices(x, "cond")
    if p == nil or p == 2 or p == -2 then
      local S = linalg.svdvals(x)
      local hi, lo = ga.max(S, { axis = -1 }), ga.min(S, { axis = -1 })
      if p == -2 then return ga.divide(lo, hi) end
      return ga.divide(hi, lo)
    end
    local s = x.shape
    if s[#s] ~= s[#s - 1] then
      fail(("linalg.cond: matrix is not square: shape %s"):format(shape_str(s)))
    end
    local dt = h.solver_dtype(x)
    local xi = inv_unchecked(x, dt)
    local r = ga.multiply(linalg.norm(x:astype(dt), p, { -2, -1 }), linalg.norm(xi, p, { -2, -1 }))
    -- NaN from a singular matrix is inf, unless x itself had a NaN
    local xnan = ga.any(ga.isnan(x:astype(dt)), { axis = { -2, -1 } })
    return ga.where(ga.logical_and(ga.isnan(r), ga.logical_not(xnan)), math.huge, r)
  end)

  def(linalg, [[
linalg.tensorsolve(a: array_like, b: array_like, axes: axes?) -> ndarray
The x with tensordot(a, x, x.ndim) = b: a's axes past b's are x's. axes (1-based): axes of a moved to
the end first.
]], function(a, b, axes)
    a = h.array_arg(a, "linalg.tensorsolve")
    b = h.array_arg(b, "linalg.tensorsolve")
    local an = a.ndim
    if axes ~= nil then
      if type(axes) ~= "table" then axes = { axes } end
      local all = {}
      for d = 1, an do all[d] = d end
      for _, k in ipairs(axes) do
        if math.type(k) ~= "integer" or k == 0 or k > an or k < -an then
          fail(("linalg.tensorsolve: axis %s is out of range for %d dimensions"):format(tostring(k), an))
        end
        k = k < 0 and an + k + 1 or k
        for i, v in ipairs(all) do
          if v == k then table.remove(all, i); break end
        end
        all[#all + 1] = k
      end
      if #all ~= an then fail("linalg.tensorsolve: repeated axes") end
      a = a:transpose(all)
    end
    local sa = a.shape
    if b.ndim > an then fail("linalg.tensorsolve: b has more axes than a") end
    local old = { table.unpack(sa, b.ndim + 1, an) }
    local prod = 1
    for _, v in ipairs(old) do prod = prod * v end
    if a.size ~= prod * prod then
      fail(("linalg.tensorsolve: prod(a.shape[b.ndim+1:]) = %d does not match prod(a.shape[:b.ndim]) = %d"):format(
        prod, prod == 0 and 0 or a.size // prod))
    end
    local x = linalg.solve(a:reshape(prod, prod), b:reshape(prod))
    return x:reshape(old)
  end)

  def(linalg, [[
linalg.tensorinv(a: array_like, ind: integer = 2) -> ndarray
The inverse of a as an operator from its first ind axes to the rest (ind is a count of axes).
]], function(a, ind)
    a = h.array_arg(a, "linalg.tensorinv")
    if ind <= 0 then fail(("linalg.tensorinv: ind must be positive, got %d"):format(ind)) end
    local s = a.shape
    if ind > #s then fail(("linalg.tensorinv: ind %d is past the %d axes of a"):format(ind, #s)) end
    local inv_shape, prod = {}, 1
    for d = ind + 1, #s do inv_shape[#inv_shape + 1] = s[d]; prod = prod * s[d] end
    for d = 1, ind do inv_shape[#inv_shape + 1] = s[d] end
    local rest = prod == 0 and 0 or a.size // prod
    if rest ~= prod then
      fail(("linalg.tensorinv: a of shape %s is not square as a %d x %d operator"):format(shape_str(s), prod, rest))
    end
    return linalg.inv(a:reshape(prod, prod)):reshape(inv_shape)
  end)

  --- NumPy's multi_dot order: the parenthesisation with the fewest scalar
  -- multiplications (dynamic programming over the chain)
  local function chain_order(dims)
    local n = #dims - 1
    local cost, split = {}, {}
    for i = 1, n do
      cost[i], split[i] = {}, {}
      cost[i][i] = 0
    end
    for len = 2, n do
      for i = 1, n - len + 1 do
        local j = i + len - 1
        cost[i][j] = math.huge
        for k = i, j - 1 do
          local c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
          if c < cost[i][j] then cost[i][j], split[i][j] = c, k end
        end
      end
    end
    return split
  end

  def(linalg, [[
linalg.multi_dot(arrays: list, *, out: ndarray?) -> ndarray
The product of a chain of matrices in the cheapest order (NumPy's); the first may be 1-D (a row) and
the last 1-D (a column).
]], function(arrays, out)
    local n = #arrays
    if n < 2 then fail("linalg.multi_dot: at least two arrays are needed") end
    local ms = {}
    local first1, last1 = false, false
    for i = 1, n do
      local x = h.array_arg(arrays[i], "linalg.multi_dot")
      if i == 1 then first1 = x.ndim == 1 end
      if i == n then last1 = x.ndim == 1 end
      if x.ndim == 1 and (i == 1 or i == n) then
        x = i == 1 and x:reshape(1, x.size) or x:reshape(x.size, 1)
      elseif x.ndim ~= 2 then
        fail(("linalg.multi_dot: array %d has %d dimensions, 2 are needed"):format(i, x.ndim))
      end
      ms[i] = x
    end
    local dims = { ms[1].shape[1] }
    for i = 1, n do
      if i > 1 and ms[i].shape[1] ~= dims[#dims] then
        fail(("linalg.multi_dot: array %d of shape %s does not follow shape %s"):format(i,
          shape_str(ms[i].shape), shape_str(ms[i - 1].shape)))
      end
      dims[#dims + 1] = ms[i].shape[2]
    end
    local split = n > 2 and chain_order(dims)
    local function product(i, j)
      if i == j then return ms[i] end
      local k = split and split[i][j] or i
      return ga.matmul(product(i, k), product(k + 1, j))
    end
    local r = product(1, n)
    local shape = {}
    if not first1 then shape[#shape + 1] = r.shape[1] end
    if not last1 then shape[#shape + 1] = r.shape[2] end
    r = r:reshape(shape)
    if out then
      internal.check_out(out, shape, "linalg.multi_dot")
      out:set(r)
      return out
    end
    return r
  end)

  def(linalg, [[
linalg.cross(x1: array_like, x2: array_like, *, axis: integer = -1) -> ndarray
The cross product of 3-element vectors along axis (1-based; -1 the last), broadcasting the others.
]], function(x1, x2, axis)
    x1 = h.array_arg(x1, "linalg.cross")
    x2 = h.array_arg(x2, "linalg.cross")
    local function last(x, name)
      local nd = x.ndim
      local ax = axis < 0 and nd + axis + 1 or axis
      if ax < 1 or ax > nd then
        fail(("linalg.cross: axis %d is out of range for %s of %d dimensions"):format(axis, name, nd))
      end
      if x.shape[ax] ~= 3 then
        fail(("linalg.cross: %s has %d elements along axis %d, 3 are needed"):format(name, x.shape[ax], axis))
      end
      return ax == nd and x or x:swapaxes(ax, nd), ax
    end
    local a, ax = last(x1, "x1")
    local b = last(x2, "x2")
    local function c(x, k) return x[{ ga.ellipsis, k }] end
    local r = ga.stack({
      ga.subtract(ga.multiply(c(a, 2), c(b, 3)), ga.multiply(c(a, 3), c(b, 2))),
      ga.subtract(ga.multiply(c(a, 3), c(b, 1)), ga.multiply(c(a, 1), c(b, 3))),
      ga.subtract(ga.multiply(c(a, 1), c(b, 2)), ga.multiply(c(a, 2), c(b, 1))),
    }, -1)
    if ax ~= x1.ndim and r.ndim == x1.ndim then r = ga.ascontiguousarray(r:swapaxes(ax, r.ndim)) end
    return r
  end)

  def(linalg, [[
linalg.matrix_transpose(x: array_like) -> ndarray
The transpose of each matrix of x (its last two axes swapped), a view.
]], function(x)
    x = h.matrices(x, "matrix_transpose")
    return x:swapaxes(-1, -2)
  end)
end
