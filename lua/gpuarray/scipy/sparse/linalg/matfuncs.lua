--- norm, matrix_power and expm_multiply of sparse matrices.
--
-- expm_multiply is Al-Mohy and Higham's algorithm (SciPy's): e^(tA) B by
-- s steps of a degree-m Taylor polynomial, (m, s) minimising m s for the
-- exact 1-norm of A (cheap for a sparse matrix: one column sum), after
-- shifting A by its trace / n; the polynomial stops early when two terms
-- are below tol (a read back a term). start / stop / num evaluate it at
-- num points of [start, stop], each from the previous one.
return function(ga, L)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail, is_array = internal.fail, internal.is_array
  local shape_str = internal.shape_str
  local sparse = ga.sparse
  local issparse = sparse.issparse
  local K = L._krylov
  local inf = math.huge

  local function sparse_arg(A, fname)
    if not issparse(A) then fail(fname .. ": x must be a sparse matrix, got " .. type(A)) end
    return A
  end

  def(L, [[
scipy.sparse.linalg.norm(x: sparse, ord: number|"fro"?, axis: axes?) -> ndarray
The norm of a sparse matrix (ord "fro" (default), inf, -inf, 1, -1: row and column sums of |x|) or of
its rows or columns (axis 1 or 2, 1-based: vector ords 2 (default), 1, inf, -inf, 0 and any p). A 0-d
array (no read back).
]], function(x, ord, axis)
    local fname = "scipy.sparse.linalg.norm"
    local A = sparse_arg(x, fname)
    local ad = A:abs()
    if axis == nil or (type(axis) == "table" and #axis == 2) then
      if type(axis) == "table" then
        local a1, a2 = axis[1] < 0 and axis[1] + 3 or axis[1], axis[2] < 0 and axis[2] + 3 or axis[2]
        if a1 == a2 or a1 < 1 or a1 > 2 or a2 < 1 or a2 > 2 then fail(fname .. ": invalid axis for a matrix") end
        if a1 == 2 then
          ad = ad:transpose()
        end
      end
      if ord == nil or ord == "fro" then return ga.sqrt(ga.sum(ga.multiply(ad.data, ad.data))) end
      if ord == inf then return ga.max(ad:sum(2)) end
      if ord == -inf then return ga.min(ad:sum(2)) end
      if ord == 1 then return ga.max(ad:sum(1)) end
      if ord == -1 then return ga.min(ad:sum(1)) end
      if ord == 2 or ord == -2 then
        fail(fname .. ": ord 2 and -2 (singular values) are not implemented for sparse matrices, as in SciPy")
      end
      fail(("%s: invalid norm order %s for matrices"):format(fname, tostring(ord)))
    end
    if type(axis) == "table" then
      if #axis ~= 1 then fail(fname .. ": axis is one axis or two") end
      axis = axis[1]
    end
    if axis < 0 then axis = axis + 3 end
    if axis ~= 1 and axis ~= 2 then fail(("%s: axis %s is out of range for a matrix"):format(fname, tostring(axis))) end
    -- vector norms of the columns (axis 1) or rows (axis 2) of |x|
    if ord == nil or ord == 2 then return ga.sqrt((ad:multiply(ad)):sum(axis)) end
    if ord == 1 then return ad:sum(axis) end
    if ord == inf then return ad:max(axis):toarray():reshape(-1) end
    if ord == -inf then return ad:min(axis):toarray():reshape(-1) end
    if ord == 0 then
      local nz = ad:copy()
      nz.data = ga.not_equal(nz.data, 0):astype(nz.data.dtype)
      return nz:sum(axis)
    end
    if type(ord) ~= "number" then fail(("%s: invalid norm order %s for vectors"):format(fname, tostring(ord))) end
    local p = ad:copy()
    p.data = ga.power(p.data, ord)
    return ga.power(p:sum(axis), 1 / ord)
  end)

  def(L, [[
scipy.sparse.linalg.matrix_power(A: sparse, power: integer) -> sparse
A raised to a non-negative integer power by repeated squaring (sparse products); power 0 gives the
identity.
]], function(A, power)
    local fname = "scipy.sparse.linalg.matrix_power"
    A = sparse_arg(A, fname)
    local s = A.shape
    if s[1] ~= s[2] then fail(("%s: the matrix must be square, got shape {%d,%d}"):format(fname, s[1], s[2])) end
    if power < 0 then fail(fname .. ": exponent must be >= 0") end
    if power == 0 then return sparse.eye(s[1], { dtype = A.dtype, format = A.format == "csc" and "csc" or "csr" }) end
    local result, base = nil, A
    while power > 0 do
      if power & 1 == 1 then result = result and result:dot(base) or base end
      power = power >> 1
      if power > 0 then base = base:dot(base) end
    end
    return result == A and A:copy() or result
  end)

  -- SciPy's theta_m: the 1-norm bound for a degree-m Taylor step in double
  local THETA = { { 1, 2.29e-16 }, { 2, 2.58e-08 }, { 3, 1.39e-05 }, { 4, 0.00034 }, { 5, 0.0024 }, { 6, 0.00907 },
    { 7, 0.0238 }, { 8, 0.05 }, { 9, 0.0896 }, { 10, 0.144 }, { 11, 0.214 }, { 12, 0.3 }, { 13, 0.4 }, { 14, 0.514 },
    { 15, 0.641 }, { 16, 0.781 }, { 17, 0.931 }, { 18, 1.09 }, { 19, 1.26 }, { 20, 1.44 }, { 21, 1.62 }, { 22, 1.82 },
    { 23, 2.01 }, { 24, 2.22 }, { 25, 2.43 }, { 26, 2.64 }, { 27, 2.86 }, { 28, 3.08 }, { 29, 3.31 }, { 30, 3.54 },
    { 35, 4.7 }, { 40, 6.0 }, { 45, 7.2 }, { 50, 8.5 }, { 55, 9.9 } }

  local function inf_norm(X)
    if X.size == 0 then return 0 end
    local a = ga.abs(X)
    if X.ndim == 1 then return ga.max(a):item() end
    return ga.max(ga.sum(a, { axis = 2 })):item()
  end

  --- e^(t A) B for one t (A an operator with product mv, 1-norm anorm,
  -- trace mu shifted out)
  local function expm_multiply_simple(mv, B, t, anorm, mu, dt)
    local tol = K.EPS[K.REAL[dt]] / 2
    local tn = anorm * math.abs(t)
    local m, s = 0, 1
    if tn > 0 then
      local best
      for _, e in ipairs(THETA) do
        local ss = math.max(1, math.ceil(tn / e[2]))
        if not best or e[1] * ss < best then best, m, s = e[1] * ss, e[1], ss end
      end
    end
    local F = B
    local eta = math.exp(t * mu / s)
    for _ = 1, s do
      local c1 = inf_norm(B)
      for j = 1, m do
        local coeff = t / (s * j)
        B = ga.multiply(mv(B), coeff)
        local c2 = inf_norm(B)
        F = ga.add(F, B)
        if c1 + c2 <= tol * inf_norm(F) then break end
        c1 = c2
      end
      F = ga.multiply(F, eta)
      B = F
    end
    return F
  end

  def(L, [[
scipy.sparse.linalg.expm_multiply(A: sparse|LinearOperator|array_like, B: array_like, start: number?, stop: number?,
                                  num: integer?, endpoint: boolean?, traceA: number?) -> ndarray
e^A B without forming e^A (Al-Mohy and Higham's Taylor steps, SciPy's algorithm); with start, stop and
num, the results at num evenly spaced t in [start, stop] (endpoint included by default) stacked on a new
first axis. traceA: A's trace when A is an operator (else computed).
]], function(A, B, start, stop, num, endpoint, traceA)
    local fname = "scipy.sparse.linalg.expm_multiply"
    local op = K.operator(A, fname)
    if op.m ~= op.n then fail(("%s: A must be square, got shape {%d,%d}"):format(fname, op.m, op.n)) end
    local n = op.n
    if not is_array(B) then B = ga.asarray(B) end
    if B.shape[1] ~= n or B.ndim > 2 then
      fail(("%s: B of shape %s does not match A's %d rows"):format(fname, shape_str(B.shape), n))
    end
    local dt = K.float_dtype(op.dtype or "float64", B.dtype)
    op.cast(dt)
    B = ga.ascontiguousarray(B:astype(dt))
    -- the trace and the 1-norm of A - mu I
    local mu
    if traceA then mu = traceA / math.max(n, 1)
    elseif op.sparse then mu = K.number(ga.sum(op.sparse:diagonal())) / math.max(n, 1)
    elseif op.dense then mu = K.number(ga.trace(op.dense)) / math.max(n, 1)
    else fail(fname .. ": traceA is needed for a LinearOperator") end
    local anorm
    if op.sparse then
      local S = op.sparse - sparse.eye(n, { dtype = dt }) * mu
      anorm = K.number(ga.max(S:abs():sum(1)))
    elseif op.dense then
      anorm = K.number(ga.max(ga.sum(ga.abs(ga.subtract(op.dense, ga.multiply(ga.eye(n, dt), mu))), { axis = 1 })))
    else
      -- an operator: the 1-norm estimated from two products (ones and a
      -- random vector); the Taylor loop's own test guards the accuracy
      anorm = 0
      for _, x in ipairs({ ga.ones(n, dt), ga.random.RandomState(1):standard_normal(n, K.REAL[dt]):astype(dt) }) do
        local y = ga.subtract(K.apply(op, x, dt), ga.multiply(x, mu))
        anorm = math.max(anorm, K.number(ga.sum(ga.abs(y))) / math.max(K.number(ga.sum(ga.abs(x))), 1e-300))
      end
    end
    local function mv(X)
      local Y
      if X.ndim == 1 then Y = K.apply(op, X, dt)
      else
        local cols = {}
        for j = 1, X.shape[2] do cols[j] = K.apply(op, ga.ascontiguousarray(X[{ {}, j }]), dt) end
        Y = ga.stack(cols, 2)
      end
      return ga.subtract(Y, ga.multiply(X, mu))
    end
    if start == nil and stop == nil then return expm_multiply_simple(mv, B, 1.0, anorm, mu, dt) end
    start, stop, num = start or 0, stop or 1, num or 50
    if endpoint == nil then endpoint = true end
    local step = (stop - start) / math.max(endpoint and num - 1 or num, 1)
    local out = {}
    local X = expm_multiply_simple(mv, B, start, anorm, mu, dt)
    out[1] = X
    for i = 2, num do
      X = expm_multiply_simple(mv, X, step, anorm, mu, dt)
      out[i] = X
    end
    return ga.stack(out, 1)
  end)
end
