--- Sparse direct solvers: spsolve, spsolve_triangular, factorized, splu,
-- spilu (src/libs/sparse_solve.c).
--
-- spsolve chooses the factorisation by structure, as the issue asks: a
-- Hermitian matrix (its CSR equal to its conjugate transpose's, one read
-- back) with a positive diagonal is first tried with cuSOLVER's sparse
-- Cholesky, which reads only the lower triangle and does about half the
-- work of QR; anything else, or a Cholesky that finds the matrix not
-- positive definite, goes to cuSOLVER's sparse QR (CuPy's choice for every
-- matrix). Both run on the device after a fill-reducing symmetric
-- permutation computed on the host (cuSOLVER's METIS nested dissection by
-- default; permc_spec "NATURAL" keeps the order, "MMD_AT_PLUS_A" and
-- "MMD_ATA" take minimum degree): on a 2-D grid it cuts the factor's fill
-- from the band's n * sqrt(n) to about n log n. Single precision systems
-- are factorised in double (WIDE below says why).
--
-- splu is cuSOLVER's sparse LU with partial pivoting, on the host (CuPy
-- calls SciPy's SuperLU on the host too); its solve runs there as well
-- (b and x copied). spilu is cuSPARSE's incomplete LU without fill,
-- ILU(0): SuperLU's ILUT (drop_tol, fill_factor, drop_rule) has no GPU
-- counterpart, so those options are accepted and do not change the
-- factor (docs/scipy-sparse.md); its solve is two triangular solves on the
-- device.
return function(ga, L)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  require("gpuarray.api.surface")       -- api.class
  local def = api.def
  local core = ga._core
  local fail, is_array = internal.fail, internal.is_array
  local shape_str = internal.shape_str
  local sparse = ga.sparse
  local issparse = sparse.issparse
  local K = L._krylov

  --- A as a square canonical CSR matrix (sorted, no duplicates) in dt
  local function square_csr(A, fname, dt)
    if not issparse(A) then fail(fname .. ": A must be a sparse matrix, got " .. type(A)) end
    local S = A:tocsr()
    if not S._canon then S = S:tocoo():tocsr() end
    local m, n = S.shape[1], S.shape[2]
    if m ~= n then fail(("%s: A must be square, got shape {%d,%d}"):format(fname, m, n)) end
    if dt and S.dtype ~= dt then S = S:astype(dt) end
    return S, n
  end
  L._square_csr = square_csr

  --- P S P^T for a permutation p (0-based: new row i is old row p[i]):
  -- entry (r, c) moves to (pinv[r], pinv[c]); canonical CSR
  local function permuted(S, p)
    local pinv = (ga.argsort(p) - 1):astype("int32")         -- argsort of a permutation is its inverse
    local c = S:tocoo()
    local rows = pinv:take(c._row:astype("int64") + 1)
    local cols = pinv:take(c._col:astype("int64") + 1)
    local n = S.shape[1]
    local C = ga.sparse._impl.new("coo", { n, n }, c.data, rows:astype("int32"), cols:astype("int32"))
    return C:tocsr(), pinv
  end

  --- S equals its conjugate transpose (values too): one read back
  local function hermitian(S)
    local T = S:transpose():tocsr()
    if not T._canon then T = T:tocoo():tocsr() end
    if T.data.size ~= S.data.size then return false end
    if S.data.size == 0 then return true end
    local d = K.is_complex(S.dtype) and ga.conj(T.data) or T.data
    local same = ga.logical_and(ga.logical_and(ga.all(ga.equal(S._indices, T._indices)),
      ga.all(ga.equal(S._indptr, T._indptr))), ga.all(ga.equal(S.data, d)))
    return same:item()
  end

  local function positive_diagonal(S)
    local d = S:diagonal()
    if d.size == 0 then return true end
    if K.is_complex(d.dtype) then d = ga.real(d) end
    return ga.all(ga.greater(d, 0)):item()
  end

  local ORDER = { NATURAL = false, MMD_ATA = "symamd", MMD_AT_PLUS_A = "symamd", COLAMD = "metis" }

  -- the fill-reducing permutation of S's symmetrised pattern, or nil;
  -- herm: whether S is Hermitian, when the caller knows (a transpose and
  -- a read back less)
  local function ordering(S, spec, herm)
    local method = ORDER[spec or "COLAMD"]
    if not method or S.shape[1] < 3 then return nil end
    local pattern = S
    if herm == nil then herm = hermitian(S) end
    if not herm then pattern = (S + S:transpose()):tocsr() end
    return core.sparse.reorder(S.shape[1], pattern._indptr, pattern._indices, method)
  end

  -- the singularity threshold of both factorisations: a diagonal entry of
  -- R (or L) at most n eps max|A| (A singular to working precision: eps of
  -- the caller's dtype, F.eps, not of the float64 a float32 system is
  -- factorised in). With 0 only an exact zero counts, and Householder QR
  -- rarely leaves one: [[1, 2], [2, 4]] gets R(2,2) = 4.4e-16 and x ~ 1e16
  -- where SciPy's LU finds the exact zero pivot and warns. One read back.
  local function sing_tol(F)
    if not F.tol then
      local amax = F.B.data.size > 0 and K.number(ga.max(ga.abs(F.B.data))) or 0
      F.tol = F.n * F.eps * amax
    end
    return F.tol
  end

  -- single precision systems are factorised in double: a float32
  -- factorisation's error grows with the condition number (the 5-point
  -- Laplacian on 256^2, cond ~ 3e4, left ||Ax - b|| / ||b|| ~ 1e-3), while
  -- x solved in float64 and rounded to float32 has the residual of that
  -- rounding alone (3.6e-4 there, what the exact solution rounded to
  -- float32 has; SciPy's float32 SuperLU gives 9e-4). The sparse factor
  -- is made once either way; its float64 arithmetic costs little beside
  -- the symbolic work
  local WIDE = { float32 = "float64", complex64 = "complex128", float64 = "float64", complex128 = "complex128" }

  -- solve S x = b for one column b (contiguous, S's dtype); returns x and
  -- whether it is singular
  local function solve_one(F, b)
    local rb = F.p and ga.ascontiguousarray(b:take(F.p:astype("int64") + 1)) or b
    local x, sing = core.sparse.lsv(F.n, F.B._indptr, F.B._indices, F.B.data, rb, F.chol, sing_tol(F))
    if F.chol and sing >= 0 then
      -- not positive definite after all: QR (the permuted matrix is square too)
      F.chol = false
      x, sing = core.sparse.lsv(F.n, F.B._indptr, F.B._indices, F.B.data, rb, false, sing_tol(F))
    end
    if F.p then x = x:take(F.pinv:astype("int64") + 1) end
    return x, sing >= 0
  end

  def(L, [[
scipy.sparse.linalg.spsolve(A: sparse, b: sparse|array_like, permc_spec: "NATURAL"|"MMD_ATA"|"MMD_AT_PLUS_A"|"COLAMD"?,
                            use_umfpack: boolean = true) -> ndarray
Solve A x = b for square sparse A and b (n,) or (n, k): cuSOLVER's sparse Cholesky when A is Hermitian
with a positive diagonal (and positive definite), its sparse QR otherwise, after a fill-reducing
ordering (METIS nested dissection by default; permc_spec "NATURAL" keeps A's order, the MMD ones take
minimum degree). A singular A warns (Lua's warn) and gives NaN, as SciPy does for an exactly singular
one; a diagonal entry of the factor at most n eps max|A| counts as zero. float32 and complex64
systems are factorised in double precision and the solution rounded to theirs. use_umfpack is
accepted for SciPy's signature.
]], function(A, b, permc_spec, _)
    local fname = "scipy.sparse.linalg.spsolve"
    local S0 = square_csr(A, fname)
    local n = S0.shape[1]
    if issparse(b) then b = b:toarray() end
    if not is_array(b) then b = ga.asarray(b) end
    local vec = b.ndim == 1
    if not ((vec and b.size == n) or (b.ndim == 2 and b.shape[1] == n)) then
      fail(("%s: b of shape %s does not match A of shape {%d,%d}"):format(fname, shape_str(b.shape), n, n))
    end
    local dt = K.float_dtype(S0.dtype, b.dtype)
    local wdt = WIDE[dt]
    local S = S0.dtype ~= wdt and S0:astype(wdt) or S0
    local herm = hermitian(S)
    local chol = herm and positive_diagonal(S)
    local F = { n = n, chol = chol, B = S, eps = K.EPS[K.REAL[dt]] }
    local p = ordering(S, permc_spec, herm)
    if p then F.B, F.pinv = permuted(S, p); F.p = p end
    local cols = vec and 1 or b.shape[2]
    local xs, singular = {}, false
    for j = 1, cols do
      local bj = vec and b or b[{ {}, j }]
      local x, sing = solve_one(F, ga.ascontiguousarray(bj:astype(wdt)))
      xs[j] = x.dtype ~= dt and x:astype(dt) or x
      singular = singular or sing
    end
    local x = vec and xs[1] or (cols > 0 and ga.stack(xs, 2) or ga.empty({ n, 0 }, dt))
    if singular then
      warn("gpuarray: scipy.sparse.linalg.spsolve: matrix is exactly singular")
      x = ga.full(x.shape, 0 / 0, dt)
    end
    return x
  end)

  def(L, [[
scipy.sparse.linalg.spsolve_triangular(A: sparse, b: array_like, lower: boolean = true,
                                       overwrite_A: boolean = false, overwrite_b: boolean = false,
                                       unit_diagonal: boolean = false) -> ndarray
Solve A x = b for a triangular sparse A (its lower or upper triangle read, cuSPARSE's SpSV); b (n,) or
(n, k). A zero on the diagonal raises naming it (1-based), as SciPy's LinAlgError.
]], function(A, b, lower, _, _, unit)
    local fname = "scipy.sparse.linalg.spsolve_triangular"
    local S, n = square_csr(A, fname)
    if not is_array(b) then b = ga.asarray(b) end
    local vec = b.ndim == 1
    if not ((vec and b.size == n) or (b.ndim == 2 and b.shape[1] == n)) then
      fail(("%s: b of shape %s does not match A of shape {%d,%d}"):format(fname, shape_str(b.shape), n, n))
    end
    local dt = K.float_dtype(S.dtype, b.dtype)
    if S.dtype ~= dt then S = S:astype(dt) end
    if not unit and n > 0 then
      local zero = ga.equal(S:diagonal(), 0)
      local k = ga.argmax(zero):item()
      if zero[k] then fail(("%s: A is singular: diagonal %d is zero"):format(fname, k)) end
    end
    local cols = vec and 1 or b.shape[2]
    local xs = {}
    for j = 1, cols do
      local bj = vec and b or b[{ {}, j }]
      xs[j] = core.sparse.sv(n, S._indptr, S._indices, S.data, ga.ascontiguousarray(bj:astype(dt)), lower, unit, 0)
    end
    if vec then return xs[1] end
    return cols > 0 and ga.stack(xs, 2) or ga.empty({ n, 0 }, dt)
  end)

  ---------------------------------------------------------------------------
  -- SuperLU objects (splu and spilu)
  ---------------------------------------------------------------------------

  local methods = {}
  local MT = { __name = "gpuarray.SuperLU" }
  api.set_type("SuperLU", function(v) return getmetatable(v) == MT end)
  MT.__index = function(F, k)
    local m = methods[k]
    if m then return m end
    if k == "shape" then return { F._n, F._n } end
    if k == "nnz" then return F._nnz end
    if k == "L" or k == "U" or k == "perm_r" or k == "perm_c" then
      F:_factors()
      return rawget(F, "_" .. k)
    end
    return nil
  end
  MT.__tostring = function(F)
    return ("<SuperLU object (%s) of a %dx%d matrix>"):format(F._kind, F._n, F._n)
  end

  -- column by column: f(b contiguous 1-D) -> x
  local function columns(F, rhs, f, fname)
    if not is_array(rhs) then rhs = ga.asarray(rhs) end
    local n = F._n
    local vec = rhs.ndim == 1
    if not ((vec and rhs.size == n) or (rhs.ndim == 2 and rhs.shape[1] == n)) then
      fail(("%s: rhs of shape %s does not match the factorisation's %d rows"):format(fname, shape_str(rhs.shape), n))
    end
    local dt = K.float_dtype(F._dtype, rhs.dtype)
    if dt ~= F._dtype then
      fail(("%s: rhs of dtype %s cannot be solved with a %s factorisation"):format(fname, rhs.dtype, F._dtype))
    end
    if vec then return f(ga.ascontiguousarray(rhs:astype(dt))) end
    local xs = {}
    for j = 1, rhs.shape[2] do xs[j] = f(ga.ascontiguousarray(rhs[{ {}, j }]:astype(dt))) end
    return #xs > 0 and ga.stack(xs, 2) or ga.empty({ n, 0 }, dt)
  end

  api.def(methods, [[
SuperLU:solve(rhs: array_like, trans: "N"|"T"|"H" = "N") -> ndarray
Solve A x = rhs (trans "N"), A^T x = rhs ("T") or A^H x = rhs ("H") with the factorisation; rhs (n,)
or (n, k).
]], function(F, rhs, trans)
    return columns(F, rhs, function(b) return F._solve(b, trans) end, "SuperLU.solve")
  end)

  api.class("SuperLU", methods)

  local function csc_of(n, p, i, d)
    return sparse.csc_matrix(sparse.csr_matrix({ d, i + 1, p + 1 }, { shape = { n, n } }))
  end

  local function lu_object(A, fname, threshold)
    local S, n = square_csr(A, fname)
    local dt = K.float_dtype(S.dtype)
    if S.dtype ~= dt then S = S:astype(dt) end
    local lu, pos = core.sparse.lu(n, S._indptr, S._indices, S.data, threshold or 1.0)
    if pos >= 0 then fail(("%s: factor is exactly singular (zero pivot in row %d)"):format(fname, pos + 1)) end
    return lu, S, n, dt
  end

  def(L, [[
scipy.sparse.linalg.splu(A: sparse, permc_spec: string?, diag_pivot_thresh: number?, relax: integer?,
                         panel_size: integer?, options: table = {}) -> SuperLU
The sparse LU factorisation P A Q^T = L U of a square A (cuSOLVER's sparse LU with partial pivoting,
on the host): an object with solve(rhs, trans), shape, nnz, and L, U (CSC), perm_r, perm_c (1-based:
row perm_r[i] of L U is row i of A, column perm_c[j] of L U is column j of A). diag_pivot_thresh is the
pivoting threshold (default 1: partial pivoting); the ordering options are accepted for SciPy's
signature. An exactly singular A raises, as SciPy's.
]], function(A, _, thresh)
    local fname = "scipy.sparse.linalg.splu"
    local lu, S, n, dt = lu_object(A, fname, thresh)
    local F = setmetatable({ _n = n, _dtype = dt, _kind = "LU", _nnz = S.nnz }, MT)
    local transposed = {}
    F._solve = function(b, trans)
      if trans == "N" then return core.sparse.lu_solve(lu, b) end
      -- A^T x = b and A^H x = b: the LU of A^T (conjugated for H), made once
      if not transposed[trans] then
        local T = S:transpose()
        if trans == "H" and K.is_complex(dt) then T = T:conj() end
        transposed[trans] = lu_object(T, fname, thresh)
      end
      return core.sparse.lu_solve(transposed[trans], b)
    end
    F._factors = function()
      if rawget(F, "_L") then return end
      local P, Q, Lp, Li, Ld, Up, Ui, Ud = core.sparse.lu_extract(lu)
      -- L is unit lower triangular: its diagonal made explicit whether or
      -- not cuSOLVER's extract stores it (its header does not say)
      local Lx = sparse.csr_matrix({ Ld, Li + 1, Lp + 1 }, { shape = { n, n } })
      F._L = sparse.csc_matrix(sparse.tril(Lx, -1) + sparse.eye(n, { dtype = dt }))
      F._U = csc_of(n, Up, Ui, Ud)
      -- P A Q^T = L U with P, Q row lists; SciPy's Pr A Pc = L U has
      -- perm_r[i] = where row i of A went: the inverses (1-based)
      F._perm_r = ga.argsort(P):astype("int32")
      F._perm_c = ga.argsort(Q):astype("int32")
    end
    return F
  end)

  def(L, [[
scipy.sparse.linalg.spilu(A: sparse, drop_tol: number?, fill_factor: number?, drop_rule: string?,
                          permc_spec: string?, diag_pivot_thresh: number?, relax: integer?, panel_size: integer?,
                          options: table?) -> SuperLU
An incomplete LU factorisation of square A for preconditioning: cuSPARSE's ILU(0) (no fill: L and U keep
A's pattern), an object with solve(rhs, trans) (two triangular solves on the device), shape, nnz, L, U,
perm_r, perm_c (the identity). SuperLU's ILUT options are accepted and do not change the factor.
Raises for a zero pivot (a missing or vanishing diagonal).
]], function(A)
    local fname = "scipy.sparse.linalg.spilu"
    local S, n = square_csr(A, fname)
    local dt = K.float_dtype(S.dtype)
    if S.dtype ~= dt then S = S:astype(dt) end
    local data, pos = core.sparse.ilu0(n, S._indptr, S._indices, S.data)
    if pos >= 0 then fail(("%s: zero pivot in row %d (the diagonal must be present and nonzero)"):format(fname,
        pos + 1)) end
    local p, i = S._indptr, S._indices
    local F = setmetatable({ _n = n, _dtype = dt, _kind = "ILU(0)", _nnz = S.nnz }, MT)
    F._solve = function(b, trans)
      if trans == "N" then
        local y = core.sparse.sv(n, p, i, data, b, true, true, 0)        -- L y = b (unit lower)
        return core.sparse.sv(n, p, i, data, y, false, false, 0)         -- U x = y
      end
      -- a real A^H is A^T (SpSV's conjugate transpose is for complex values)
      local t = (trans == "T" or not K.is_complex(dt)) and 1 or 2
      local y = core.sparse.sv(n, p, i, data, b, false, false, t)        -- U^T y = b
      return core.sparse.sv(n, p, i, data, y, true, true, t)             -- L^T x = y
    end
    F._factors = function()
      if rawget(F, "_L") then return end
      local M = sparse.csr_matrix({ data, i + 1, p + 1 }, { shape = { n, n } })
      F._L = sparse.csc_matrix(sparse.tril(M, -1) + sparse.eye(n, { dtype = dt }))
      F._U = sparse.csc_matrix(sparse.triu(M))
      F._perm_r = ga.arange(1, n + 1, "int32")
      F._perm_c = ga.arange(1, n + 1, "int32")
    end
    return F
  end)

  def(L, [[
scipy.sparse.linalg.factorized(A: sparse) -> function
A function solve(b) -> x for the square sparse A, factored once (splu).
]], function(A)
    local F = L.splu(A)
    return function(b) return F:solve(b) end
  end)
end
