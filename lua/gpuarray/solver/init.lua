--- ga.linalg (API.md §7) over cuSOLVER (src/solver/solver.c): solve, inv,
-- det, slogdet, cholesky, eigh, eigvalsh, qr here; svd and what is built
-- on it (lstsq, pinv, matrix_rank, norm, matrix_power) in linalg/svd.lua.
--
-- Layout: the solver works on column-major matrices. The C-order memory of
-- a row-major X is column-major X^T, so most routines hand cuSOLVER a plain
-- copy and pick the factorisation of X^T that gives what they want
-- (Cholesky's upper factor of conj(A) is L). The LU routines (solve, inv,
-- det, slogdet) all factor column-major A itself, as LAPACK does under
-- NumPy: the LU of A^T rounds differently, and one of them may find an
-- exactly zero pivot where the other finds 1e-16 (issue 24: inv and det
-- missed a singular matrix solve caught). qr and svd (of the long side)
-- transpose too. Leading axes are a batch; the inputs are copied, never
-- changed.
--
-- Every public function is declared (API.md §0, lua/gpuarray/api): the
-- binder checks types and options, the implementation receives every
-- parameter by position. eig.lua: eig, eigvals (cuSOLVER's geev);
-- tensor.lua: cond, tensorsolve, tensorinv, multi_dot, cross,
-- matrix_transpose and the other NumPy 2 names.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local fail = internal.fail
  local shape_str = internal.shape_str
  local linalg = {}
  ga.linalg = linalg

  local SOLVER = { float32 = "float32", float64 = "float64", complex64 = "complex64", complex128 = "complex128",
    float16 = "float32" }
  local REAL = { float32 = "float32", float64 = "float64", complex64 = "float32", complex128 = "float64" }
  linalg._REAL = REAL

  local function array_arg(x, fname)
    if internal.is_array(x) then return x end
    if type(x) == "table" or type(x) == "number" then return ga.asarray(x) end
    fail(("%s: an ndarray is needed, got %s"):format(fname, type(x)))
  end
  --- the dtype cuSOLVER computes x in: float16 in float32, integers and bool in float64 (NumPy)
  local function solver_dtype(...)
    local dt = ga.result_type(...)
    return SOLVER[dt] or "float64"
  end
  local function matrices(x, fname)
    x = array_arg(x, "linalg." .. fname)
    if x.ndim < 2 then
      fail(("linalg.%s: a matrix (at least 2 axes) is needed, got shape %s"):format(fname, shape_str(x.shape)))
    end
    return x
  end
  local function square(x, fname)
    x = matrices(x, fname)
    local s = x.shape
    if s[#s] ~= s[#s - 1] then
      fail(("linalg.%s: matrix is not square: shape %s"):format(fname, shape_str(s)))
    end
    return x, s[#s]
  end
  local function batch_of(s) return { table.unpack(s, 1, #s - 2) } end
  local function cat(a, b)
    local r = { table.unpack(a) }
    for _, v in ipairs(b) do r[#r + 1] = v end
    return r
  end
  --- a fresh C-order copy in dtype dt (the solver overwrites it)
  local function cmem(x, dt) return x:astype(dt, "C") end
  --- a fresh column-major copy: the C-order copy of the swapped view
  local function fmem(x, dt) return x:swapaxes(-1, -2):astype(dt, "C") end
  --- column-major matrices stored C-contiguous, seen as row-major ones
  local function from_cm(y) return y:swapaxes(-1, -2) end
  local function is_complex(dt) return dt == "complex64" or dt == "complex128" end
  local function conj_if(x) return is_complex(x.dtype) and ga.conj(x) or x end

  local function check_info(info, where, fname, what)
    if info ~= 0 then
      local b = where and where > 0 and (" (matrix %d of the batch)"):format(where) or ""
      fail(("linalg.%s: %s%s"):format(fname, what, b))
    end
  end
  linalg._check_info = check_info
  linalg._helpers = { array_arg = array_arg, solver_dtype = solver_dtype, matrices = matrices, square = square,
    cmem = cmem, fmem = fmem, from_cm = from_cm, conj_if = conj_if, is_complex = is_complex, cat = cat,
    batch_of = batch_of }

  --- LU of a column-major copy of a; raises "matrix is singular" (an
  -- exactly zero pivot, LAPACK's info > 0) when fname is given. Every LU
  -- routine (solve, inv, det, slogdet, scipy.linalg's) factors A itself
  local function lu(a, dt, fname)
    local A = fmem(a, dt)
    local ipiv, info, where = core.solver.getrf(A)
    if fname and info > 0 then check_info(info, a.ndim > 2 and where, fname, "matrix is singular") end
    return A, ipiv, info, where
  end
  -- scipy.linalg's LU routines factor on this one LU (one rule for singular)
  linalg._lu = lu

  def(linalg, [[
linalg.solve(a: array_like, b: array_like) -> ndarray
Solve a x = b. b is (..., n) or (..., n, k) (k right-hand sides); leading axes are batches and broadcast.
Raises "matrix is singular" for an exactly zero pivot of the LU.
]], function(a, b)
    local n
    a, n = square(a, "solve")
    b = array_arg(b, "linalg.solve")
    local dt = solver_dtype(a, b)
    local vec = b.ndim == 1
    local b2 = vec and b:reshape(b.size, 1) or b
    local sb = b2.shape
    if sb[#sb - 1] ~= n then
      fail(("linalg.solve: b of shape %s does not match a of shape %s"):format(shape_str(b.shape), shape_str(a.shape)))
    end
    local ok, batch = pcall(ga.broadcast_shapes, batch_of(a.shape), batch_of(sb))
    if not ok then fail("linalg.solve: batch axes of a and b cannot be broadcast") end
    -- LU of column-major A, as CuPy (the transposed solve on A^T's LU was
    -- 4% slower on the H200 at n = 4096)
    local A, ipiv = lu(ga.broadcast_to(a, cat(batch, { n, n })), dt, "solve")
    local B = fmem(ga.broadcast_to(b2, cat(batch, { n, sb[#sb] })), dt)
    core.solver.getrs(A, ipiv, B, false)
    local x = ga.ascontiguousarray(from_cm(B))
    if vec then return x:reshape(cat(batch, { n })) end
    return x
  end)

  def(linalg, [[
linalg.inv(a: array_like) -> ndarray
The inverse of each square matrix of a (leading axes are batches); raises "matrix is singular".
]], function(a)
    local n
    a, n = square(a, "inv")
    local dt = solver_dtype(a)
    local A, ipiv = lu(a, dt, "inv")
    local I = ga.eye(n, dt)
    if a.ndim > 2 then I = ga.ascontiguousarray(ga.broadcast_to(I, a.shape)) end
    core.solver.getrs(A, ipiv, I, false)   -- I is its own column-major copy; now A^{-1} column-major
    return ga.ascontiguousarray(from_cm(I))
  end)

  -- the diagonal of U and the permutation's parity, from solve's LU; zero:
  -- the matrices with an exactly zero pivot (singular: inv and solve raise
  -- for exactly these). Their det is 0 whatever follows the zero in U:
  -- LAPACK stops scaling there, but a batched LU may divide by it and leave
  -- NaN (CuPy's issue 2650 with cuBLAS's)
  local function lu_parts(a, fname)
    local n
    a, n = square(a, fname)
    local dt = solver_dtype(a)
    local A, ipiv = lu(a, dt)
    local d = ga.diagonal(A, 0, -2, -1)
    local swaps = ga.sum(ga.not_equal(ipiv, ga.arange(1, n + 1, "int64")), { axis = -1 })
    local sign = ga.subtract(1, ga.multiply(2, ga.remainder(swaps, 2))):astype(dt)
    local zero = ga.any(ga.equal(d, 0), { axis = -1 })
    return d, sign, dt, zero
  end

  def(linalg, [[
linalg.det(a: array_like) -> ndarray
The determinant of each square matrix of a (0 for a singular one, no error, as NumPy).
]], function(a)
    local d, sign, _, zero = lu_parts(a, "det")
    return ga.where(zero, 0, ga.multiply(ga.prod(d, { axis = -1 }), sign))
  end)

  def(linalg, [[
linalg.slogdet(a: array_like) -> ndarray, ndarray
The sign and the natural log of the absolute determinant (sign 0 and -inf for a singular matrix).
]], function(a)
    local d, sign, dt, zero = lu_parts(a, "slogdet")
    local ad = ga.abs(d)
    local logdet = ga.sum(ga.log(ad), { axis = -1 })
    local unit
    if is_complex(dt) then
      unit = ga.divide(d, ga.where(ga.equal(ad, 0), 1, ad):astype(dt))
    else
      unit = ga.sign(d)
    end
    sign = ga.where(zero, 0, ga.multiply(ga.prod(unit, { axis = -1 }), sign))
    return sign, ga.where(zero, -math.huge, logdet)
  end)

  --- the lower Cholesky factor of each matrix of a (Hermitian positive definite)
  local function cholesky(a, fname)
    a = square(a, fname)
    local A = cmem(a, solver_dtype(a))
    -- the memory is column-major conj(a); its upper factor U' gives L = U'^T,
    -- which is U' read row-major
    local info, where = core.solver.potrf(A, true)
    check_info(info, a.ndim > 2 and where, fname, "matrix is not positive definite")
    return ga.tril(A)
  end
  linalg._cholesky = cholesky

  def(linalg, [[
linalg.cholesky(a: array_like, *, upper: boolean = false) -> ndarray
The Cholesky factor of each Hermitian positive-definite matrix of a: lower L with L L^H = a, or upper
U = L^H with U^H U = a. Raises "matrix is not positive definite".
]], function(a, upper)
    local L = cholesky(a, "cholesky")
    if not upper then return L end
    return ga.ascontiguousarray(conj_if(L:swapaxes(-1, -2)))
  end)

  local function eig(a, uplo, vectors, fname)
    a = square(a, fname)
    local A = cmem(a, solver_dtype(a))
    -- the lower triangle of row-major a is the upper one of its memory
    local w, info, where = core.solver.syevd(A, uplo == "L", vectors)
    check_info(info, a.ndim > 2 and where, fname, "did not converge")
    return w, A
  end

  def(linalg, [[
linalg.eigh(a: array_like, UPLO|uplo: "L"|"U" = "L") -> ndarray, ndarray
Eigenvalues (ascending) and eigenvectors (the columns of v) of each Hermitian matrix of a, read from
its lower (UPLO "L") or upper triangle.
]], function(a, uplo)
    local w, A = eig(a, uplo, true, "eigh")
    -- eigenvectors of conj(a) are the conjugates of a's
    local v = from_cm(A)
    return w, is_complex(v.dtype) and ga.conj(v) or v
  end)

  def(linalg, [[
linalg.eigvalsh(a: array_like, UPLO|uplo: "L"|"U" = "L") -> ndarray
The eigenvalues (ascending) of each Hermitian matrix of a.
]], function(a, uplo)
    return (eig(a, uplo, false, "eigvalsh"))
  end)

  def(linalg, [[
linalg.qr(a: array_like, mode: "reduced"|"complete"|"r"|"raw" = "reduced") -> ndarray, ndarray
The QR factorisation of each matrix of a: Q, R ("reduced": Q m x k, R k x n with k = min(m, n);
"complete": Q m x m, R m x n), R alone ("r"), or LAPACK's Householder reflectors h (n x m, transposed
as NumPy's) and tau ("raw").
]], function(a, mode)
    a = matrices(a, "qr")
    local s = a.shape
    local m, n = s[#s - 1], s[#s]
    local k = math.min(m, n)
    local dt = solver_dtype(a)
    local A = fmem(a, dt)                       -- column-major a: (..., n, m)
    local tau = core.solver.geqrf(A)
    if mode == "raw" then return A, tau end
    local Rfull = from_cm(A)                    -- m x n, R in the upper part
    local R = ga.triu(mode == "complete" and Rfull or Rfull[{ ga.ellipsis, { 1, k }, {} }])
    if mode == "r" then return R end
    local Q
    if mode == "complete" and m > n then
      Q = ga.zeros(cat(batch_of(s), { m, m }), dt)
      Q[{ ga.ellipsis, { 1, n }, {} }] = A
    elseif m < n then
      Q = ga.ascontiguousarray(A[{ ga.ellipsis, { 1, m }, {} }])
    else
      Q = A
    end
    core.solver.orgqr(Q, tau)
    return from_cm(Q), R
  end)

  require("gpuarray.solver.svd")(ga, linalg)
  require("gpuarray.solver.eig")(ga, linalg)
  require("gpuarray.solver.tensor")(ga, linalg)
end
