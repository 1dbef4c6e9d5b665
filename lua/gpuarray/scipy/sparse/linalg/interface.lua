--- LinearOperator and aslinearoperator (SciPy's interface): an operator
-- known by what it does to vectors. Built from Lua functions (matvec,
-- rmatvec, matmat, rmatmat: each takes and returns ndarrays, run through
-- api.call_user so the user's own errors pass unchanged), or from a dense
-- or sparse matrix (aslinearoperator: its products, and the matrix kept
-- in op._A for the solvers' fast paths). Operators compose as SciPy's:
-- A * B (product), A + B, A - B, -A, s * A, A ^ p, A.H, A.T.
--
-- matvec takes (N,) or (N, 1) and returns (M,) or (M, 1) alike; a
-- user's function may return either shape. matmat without a user matmat
-- runs matvec column by column.
return function(ga, L)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  require("gpuarray.api.surface")       -- api.class
  local fail, is_array = internal.fail, internal.is_array
  local shape_str = internal.shape_str
  local issparse = ga.sparse.issparse

  local methods = {}
  local MT = { __name = "gpuarray.LinearOperator" }
  L._LO_MT = MT
  local function isop(v) return getmetatable(v) == MT end
  L._islinearoperator = isop
  api.set_type("LinearOperator", isop)

  local function new(shape, dtype, mv, rmv, mm, rmm, A)
    local m, n = shape[1], shape[2]
    return setmetatable({ _shape = { m, n }, _dtype = dtype, _mv = mv, _rmv = rmv, _mm = mm, _rmm = rmm,
      _A = A }, MT)
  end
  L._new_operator = new

  MT.__index = function(op, k)
    local f = methods[k]
    if f then return f end
    if k == "shape" then return { op._shape[1], op._shape[2] } end
    if k == "dtype" then return op._dtype end
    if k == "ndim" then return 2 end
    if k == "H" then return op:adjoint() end
    if k == "T" then return op:transpose() end
    return nil
  end
  MT.__tostring = function(op)
    return ("<%dx%d LinearOperator with dtype=%s>"):format(op._shape[1], op._shape[2], tostring(op._dtype))
  end

  local function as_vector_input(op, x, n, fname)
    if not is_array(x) then x = ga.asarray(x) end
    local s = x.shape
    if not ((#s == 1 and s[1] == n) or (#s == 2 and s[1] == n and s[2] == 1)) then
      fail(("%s: dimension mismatch: the operator is %dx%d, x has shape %s"):format(fname, op._shape[1],
        op._shape[2], shape_str(s)))
    end
    return x, #s
  end

  -- the user's result in the shape SciPy promises: (M,) or (M, 1)
  local function shaped(y, m, nd, fname, what)
    if not is_array(y) then
      if y == nil then fail(("%s: the user-defined %s returned nothing"):format(fname, what)) end
      y = ga.asarray(y)
    end
    if y.size ~= m or not (y.ndim == 1 or (y.ndim == 2 and y.shape[2] == 1)) then
      fail(("%s: invalid shape %s returned by user-defined %s() (%d values expected)"):format(fname,
        shape_str(y.shape), what, m))
    end
    return nd == 1 and y:reshape(m) or y:reshape(m, 1)
  end

  local function apply_vec(op, x, adjoint, fname)
    local m, n = op._shape[1], op._shape[2]
    if adjoint then m, n = n, m end
    local nd
    x, nd = as_vector_input(op, x, n, fname)
    local f = adjoint and op._rmv or op._mv
    local y
    if f then
      y = f(x:reshape(n))
    else
      local g = adjoint and op._rmm or op._mm
      if not g then
        fail(("%s: %s is not defined for this operator"):format(fname, adjoint and "rmatvec" or "matvec"))
      end
      y = g(x:reshape(n, 1))
    end
    return shaped(y, m, nd, fname, adjoint and "rmatvec" or "matvec")
  end

  local function apply_mat(op, X, adjoint, fname)
    local m, n = op._shape[1], op._shape[2]
    if adjoint then m, n = n, m end
    if not is_array(X) then X = ga.asarray(X) end
    if X.ndim ~= 2 then fail(("%s: expected 2-d ndarray or matrix, not %d-d"):format(fname, X.ndim)) end
    if X.shape[1] ~= n then
      fail(("%s: dimension mismatch: the operator is %dx%d, X has shape %s"):format(fname, op._shape[1],
        op._shape[2], shape_str(X.shape)))
    end
    local g = adjoint and op._rmm or op._mm
    if g then
      local Y = g(X)
      if not is_array(Y) then Y = ga.asarray(Y) end
      if Y.ndim ~= 2 or Y.shape[1] ~= m or Y.shape[2] ~= X.shape[2] then
        fail(("%s: invalid shape %s returned by user-defined %s()"):format(fname, shape_str(Y.shape),
          adjoint and "rmatmat" or "matmat"))
      end
      return Y
    end
    local cols = {}
    for j = 1, X.shape[2] do cols[j] = apply_vec(op, X[{ {}, j }], adjoint, fname) end
    if #cols == 0 then return ga.empty({ m, 0 }, op._dtype or X.dtype) end
    return ga.stack(cols, 2)
  end
  L._apply_vec, L._apply_mat = apply_vec, apply_mat

  -- a user function as an operator slot: run as user code
  local function user(f)
    if f == nil then return nil end
    return function(x) return api.call_user(f, x) end
  end

  api.def(L, [[
scipy.sparse.linalg.LinearOperator(shape: shape, matvec: callable?, rmatvec: callable?, matmat: callable?,
                                   dtype: dtype?, rmatmat: callable?) -> LinearOperator
An operator known by its products: matvec(x) = A x, rmatvec(x) = A^H x, matmat(X) = A X, rmatmat(X) =
A^H X, Lua functions on ndarrays (matvec or matmat is needed). dtype nil: the dtype of matvec's result
on a zero vector (one call, as SciPy).
]], function(shape, matvec, rmatvec, matmat, dtype, rmatmat)
    local fname = "scipy.sparse.linalg.LinearOperator"
    if type(shape) ~= "table" or #shape ~= 2 or shape[1] < 0 or shape[2] < 0 then
      fail(("%s: invalid shape %s (must be 2-d)"):format(fname, type(shape) == "table" and shape_str(shape) or
        tostring(shape)))
    end
    if matvec == nil and matmat == nil then fail(fname .. ": matvec or matmat is needed") end
    local op = new(shape, dtype and ga.dtype(dtype).name, user(matvec), user(rmatvec), user(matmat), user(rmatmat))
    if not dtype then
      op._dtype = apply_vec(op, ga.zeros(shape[2]), false, fname).dtype
    end
    return op
  end)

  --- an ndarray or a sparse matrix as an operator (the matrix in op._A)
  local function from_matrix(A, fname)
    if issparse(A) then
      local AH
      local function adj()
        AH = AH or A:transpose():conj()
        return AH
      end
      return new(A.shape, A.dtype, function(x) return A:dot(x) end, function(x) return adj():dot(x) end,
        function(X) return A:dot(X) end, function(X) return adj():dot(X) end, A)
    end
    if not is_array(A) then A = ga.asarray(A) end
    if A.ndim ~= 2 then fail(("%s: a matrix needs 2 dimensions, got shape %s"):format(fname, shape_str(A.shape))) end
    local AH
    local function adj()
      AH = AH or (A.dtype:match("complex") and ga.conj(A:swapaxes(1, 2)) or A:swapaxes(1, 2))
      return AH
    end
    return new(A.shape, A.dtype, function(x) return ga.matmul(A, x) end, function(x) return ga.matmul(adj(), x) end,
      function(X) return ga.matmul(A, X) end, function(X) return ga.matmul(adj(), X) end, A)
  end
  L._from_matrix = from_matrix

  api.def(L, [[
scipy.sparse.linalg.aslinearoperator(A: LinearOperator|sparse|array_like) -> LinearOperator
A as a LinearOperator: itself if it is one, else the operator of the dense or sparse matrix.
]], function(A)
    if isop(A) then return A end
    return from_matrix(A, "scipy.sparse.linalg.aslinearoperator")
  end)

  ---------------------------------------------------------------------------
  -- methods
  ---------------------------------------------------------------------------

  api.def(methods, [[
LinearOperator:matvec(x: array_like) -> ndarray
A x for x of shape (N,) or (N, 1) (the result has the same form).
]], function(op, x) return apply_vec(op, x, false, "LinearOperator.matvec") end)

  api.def(methods, [[
LinearOperator:rmatvec(x: array_like) -> ndarray
A^H x for x of shape (M,) or (M, 1).
]], function(op, x) return apply_vec(op, x, true, "LinearOperator.rmatvec") end)

  api.def(methods, [[
LinearOperator:matmat(X: array_like) -> ndarray
A X for a matrix X of N rows.
]], function(op, X) return apply_mat(op, X, false, "LinearOperator.matmat") end)

  api.def(methods, [[
LinearOperator:rmatmat(X: array_like) -> ndarray
A^H X for a matrix X of M rows.
]], function(op, X) return apply_mat(op, X, true, "LinearOperator.rmatmat") end)

  local function scaled(op, s)
    local cs = type(s) == "number" and s or ga.conj(s)
    return new(op._shape, op._dtype,
      function(x) return ga.multiply(apply_vec(op, x, false, "LinearOperator"), s) end,
      function(x) return ga.multiply(apply_vec(op, x, true, "LinearOperator"), cs) end,
      nil, nil)
  end

  local function product(a, b)
    if a._shape[2] ~= b._shape[1] then
      fail(("LinearOperator: cannot multiply operators of shapes %s and %s"):format(shape_str(a._shape),
        shape_str(b._shape)))
    end
    return new({ a._shape[1], b._shape[2] }, ga.result_type(a._dtype, b._dtype),
      function(x) return apply_vec(a, apply_vec(b, x, false, "LinearOperator"), false, "LinearOperator") end,
      function(x) return apply_vec(b, apply_vec(a, x, true, "LinearOperator"), true, "LinearOperator") end)
  end

  api.def(methods, [[
LinearOperator:dot(x: LinearOperator|sparse|number|array_like) -> LinearOperator|ndarray
A x: a vector or a matrix gives an ndarray, an operator the product operator, a number the scaled one.
]], function(op, x)
    if isop(x) then return product(op, x) end
    if type(x) == "number" then return scaled(op, x) end
    if issparse(x) then return product(op, from_matrix(x, "LinearOperator.dot")) end
    if not is_array(x) then x = ga.asarray(x) end
    if x.ndim == 0 then return scaled(op, x) end
    if x.ndim == 1 or (x.ndim == 2 and x.shape[2] == 1) then return apply_vec(op, x, false, "LinearOperator.dot") end
    if x.ndim == 2 then return apply_mat(op, x, false, "LinearOperator.dot") end
    fail(("LinearOperator.dot: expected 1-d or 2-d array or matrix, got shape %s"):format(shape_str(x.shape)))
  end)

  api.def(methods, [[
LinearOperator:adjoint() -> LinearOperator
The Hermitian adjoint A^H (also op.H): its matvec is A's rmatvec.
]], function(op)
    return new({ op._shape[2], op._shape[1] }, op._dtype, op._rmv, op._mv, op._rmm, op._mm)
  end)

  api.def(methods, [[
LinearOperator:transpose() -> LinearOperator
The transpose A^T (also op.T): conj(A^H conj(x)).
]], function(op)
    local function cj(x) return x.dtype:match("complex") and ga.conj(x) or x end
    return new({ op._shape[2], op._shape[1] }, op._dtype,
      function(x) return cj(apply_vec(op, cj(x), true, "LinearOperator")) end,
      function(x) return cj(apply_vec(op, cj(x), false, "LinearOperator")) end)
  end)

  MT.__mul = function(a, b)
    if isop(a) then return a:dot(b) end
    if type(a) == "number" or (is_array(a) and a.ndim == 0) then return scaled(b, a) end
    fail("LinearOperator: * takes an operator and a vector, matrix, operator or number")
  end
  MT.__call = function(op, x) return op:dot(x) end
  MT.__unm = function(op) return scaled(op, -1) end
  MT.__add = function(a, b)
    if not (isop(a) and isop(b)) then fail("LinearOperator: + takes two operators") end
    if a._shape[1] ~= b._shape[1] or a._shape[2] ~= b._shape[2] then
      fail(("LinearOperator: cannot add operators of shapes %s and %s"):format(shape_str(a._shape),
        shape_str(b._shape)))
    end
    return new(a._shape, ga.result_type(a._dtype, b._dtype),
      function(x) return ga.add(apply_vec(a, x, false, "LinearOperator"), apply_vec(b, x, false, "LinearOperator")) end,
      function(x) return ga.add(apply_vec(a, x, true, "LinearOperator"), apply_vec(b, x, true, "LinearOperator")) end)
  end
  MT.__sub = function(a, b)
    if not (isop(a) and isop(b)) then fail("LinearOperator: - takes two operators") end
    return a + (-b)
  end
  MT.__pow = function(op, p)
    if math.type(p) ~= "integer" or p < 0 then fail("LinearOperator: ^ takes a non-negative integer power") end
    if op._shape[1] ~= op._shape[2] then fail("LinearOperator: ^ needs a square operator") end
    local function rep(adj)
      return function(x)
        for _ = 1, p do x = apply_vec(op, x, adj, "LinearOperator") end
        return x
      end
    end
    return new(op._shape, op._dtype, rep(false), rep(true))
  end

  api.class("LinearOperator", methods)
end
