--- scipy.linalg's triangular, LU and Cholesky routines:
-- solve_triangular (cuBLAS trsm, src/libs/triangular.c), lu_factor,
-- lu_solve, lu, cho_factor, cho_solve.
--
-- The LU is ga.linalg's (linalg._lu: the LU of column-major A, LAPACK's
-- getrf under NumPy and SciPy), so scipy.linalg and numpy.linalg agree on
-- which matrices are singular: an exactly zero pivot (LAPACK's info > 0).
-- SciPy warns then and returns the factors; so does lu_factor here,
-- through Lua's warn() (shown once warnings are on: warn("@on")).
-- Rectangular matrices: a tall one factors with zero columns appended (the
-- first n columns eliminate as alone), a wide one as its leading square
-- block A1 followed by U2 = L^-1 P A2 (what getrf computes for them).
--
-- check_finite and overwrite_* are accepted for SciPy's signatures; check_finite
-- defaults to false as CuPy's (checking would read a value back), and no
-- input is ever overwritten.
return function(ga, sl)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local core = ga._core
  local fail = internal.fail
  local shape_str = internal.shape_str
  local la = ga.linalg
  local h = la._helpers
  local cat, batch_of = h.cat, h.batch_of

  -- raise when a check_finite caller gave inf or NaN (one read back)
  local function finite(x, fname)
    if x.size > 0 and not ga.all(ga.isfinite(x)):item() then
      fail(fname .. ": array must not contain infs or NaNs")
    end
  end

  local function trans_code(trans, fname)
    if trans == "N" or trans == 0 then return 0 end
    if trans == "T" or trans == 1 then return 1 end
    if trans == "C" or trans == 2 then return 2 end
    fail(("%s: trans must be 0, 1, 2, \"N\", \"T\" or \"C\", got %s"):format(fname, tostring(trans)))
  end

  --- a and b broadcast over their batch axes, as fresh C-order copies in
  -- dtype dt; b (..., n, k), or 1-D b as one column (vec)
  local function operands(a, b, n, fname)
    b = h.array_arg(b, fname)
    local dt = h.solver_dtype(a, b)
    local vec = b.ndim == 1
    local b2 = vec and b:reshape(b.size, 1) or b
    local sb = b2.shape
    if sb[#sb - 1] ~= n then
      fail(("%s: b of shape %s does not match a of shape %s"):format(fname, shape_str(b.shape), shape_str(a.shape)))
    end
    local ok, batch = pcall(ga.broadcast_shapes, batch_of(a.shape), batch_of(sb))
    if not ok then fail(fname .. ": the batch axes of a and b cannot be broadcast") end
    return dt, vec, batch, b2, sb[#sb]
  end

  -- the first exactly zero entry of the diagonals of A (..., n, n): nil,
  -- or its 1-based diagonal index and batch index (one read back)
  local function zero_diagonal(A)
    local n = A.shape[A.ndim]
    if A.size == 0 then return nil end
    local flat = ga.equal(ga.diagonal(A, 0, -2, -1), 0):reshape(-1)
    local k = ga.argmax(flat):item()
    if not flat[k] then return nil end
    return (k - 1) % n + 1, (k - 1) // n + 1
  end

  --- op(a) x = b for triangular a (trans 0, 1, 2: a, a^T, a^H)
  local function solve_tri(a, b, trans, lower, unit, fname, check)
    local n
    a, n = h.square(a, fname)
    local dt, vec, batch, b2, k = operands(a, b, n, fname)
    -- fresh C-order copies (trsm overwrites B; astype alone keeps an F layout)
    local A = ga.broadcast_to(a, cat(batch, { n, n })):astype(dt, "C")
    if check and not unit then
      local d, which = zero_diagonal(A)
      if d then
        fail(("%s: matrix is singular: resolution failed at diagonal %d%s"):format(fname, d,
          #batch > 0 and (" (matrix %d of the batch)"):format(which) or ""))
      end
    end
    local B = ga.broadcast_to(b2, cat(batch, { n, k })):astype(dt, "C")
    core.blas.trsm(A, B, lower, trans, unit)
    if vec then return B:reshape(cat(batch, { n })) end
    return B
  end
  sl._solve_triangular = solve_tri

  def(sl, [[
scipy.linalg.solve_triangular(a: array_like, b: array_like, trans: integer|"N"|"T"|"C" = 0,
                              lower: boolean = false, unit_diagonal: boolean = false,
                              overwrite_b: boolean = false, check_finite: boolean = false) -> ndarray
Solve op(a) x = b for triangular a (trans 0/"N": a, 1/"T": a^T, 2/"C": a^H), reading only its lower or
upper triangle; unit_diagonal takes the diagonal as ones. b is (..., n) or (..., n, k); leading axes
are batches and broadcast. A zero on the diagonal raises "matrix is singular" naming it (1-based).
]], function(a, b, trans, lower, unit, _, check_finite)
    local fname = "scipy.linalg.solve_triangular"
    local t = trans_code(trans, fname)
    if check_finite then finite(h.array_arg(a, fname), fname); finite(h.array_arg(b, fname), fname) end
    return solve_tri(a, b, t, lower, unit, fname, true)
  end)

  ---------------------------------------------------------------------------
  -- LU
  ---------------------------------------------------------------------------

  local perm_kernel
  --- 0-based row permutations from LAPACK's 1-based swap lists: row i of
  -- P A is row perm[i] of A (one thread per matrix applies its swaps)
  function sl._perm_kernel()
    perm_kernel = perm_kernel or ga.ElementwiseKernel("int64 b, raw I ipiv, int64 m, int64 k", "raw int64 perm", [[
      long long *p = &perm[b * m];
      for (long long r = 0; r < m; r++) p[r] = r;
      for (long long r = 0; r < k; r++) {
        long long s = (long long)ipiv[b * k + r] - 1;
        long long t = p[r]; p[r] = p[s]; p[s] = t;
      }
    ]], "ga_lu_perm")
    return perm_kernel
  end

  local function permutation(ipiv, m, nb)
    local k = ipiv.shape[ipiv.ndim]
    local perm = ga.empty(nb * m, "int64")
    if nb * m > 0 then sl._perm_kernel()(ga.arange(0, nb, "int64"), ipiv, m, k, perm) end
    return perm
  end

  --- the LU of each m x n matrix of a: LU (row-major, L's multipliers below
  -- the diagonal, U on and above), ipiv (..., min(m, n)) int32 1-based,
  -- perm (nb * m) 0-based int64 (row i of P a is row perm[i] of a), dt
  local function factor(a, fname)
    a = h.matrices(a, fname)
    local s = a.shape
    local m, n = s[#s - 1], s[#s]
    local k = math.min(m, n)
    local batch = batch_of(s)
    local nb = 1
    for _, v in ipairs(batch) do nb = nb * v end
    local dt = h.solver_dtype(a)
    local LU, ipiv
    if m == n then
      local A, p = la._lu(a, dt, nil, true)
      LU, ipiv = ga.ascontiguousarray(h.from_cm(A)), p
    elseif m > n then
      local padded = ga.zeros(cat(batch, { m, m }), dt)
      padded[{ ga.ellipsis, {}, { 1, n } }] = a
      local A, p = la._lu(padded, dt, nil, true)
      LU = ga.ascontiguousarray(h.from_cm(A)[{ ga.ellipsis, {}, { 1, n } }])
      ipiv = p[{ ga.ellipsis, { 1, n } }]
    else
      local A, p = la._lu(a[{ ga.ellipsis, {}, { 1, m } }], dt, nil, true)
      local LU1 = ga.ascontiguousarray(h.from_cm(A))
      ipiv = p
      -- U2 = L1^-1 P A2: the rest of the rows' eliminations
      local perm = permutation(ga.ascontiguousarray(ipiv), m, nb)
      local A2 = a[{ ga.ellipsis, {}, { m + 1, n } }]:astype(dt):reshape(nb * m, n - m)
      local rows = perm + (ga.arange(0, nb, "int64") * m):repeat_(m) + 1
      local PA2 = ga.take(A2, rows, 1):reshape(cat(batch, { m, n - m }))
      local U2 = solve_tri(LU1, PA2, 0, true, true, fname, false)
      LU = ga.concatenate({ LU1, U2 }, -1)
    end
    ipiv = ga.ascontiguousarray(ipiv):astype("int32")
    return LU, ipiv, permutation(ipiv, m, nb), dt, m, n, k, batch
  end

  -- SciPy's LinAlgWarning for an exactly zero pivot, as a Lua warning
  local function warn_singular(LU, k, fname)
    local d = zero_diagonal(LU[{ ga.ellipsis, { 1, k }, { 1, k } }])
    if d then
      warn(("gpuarray: %s: diagonal number %d is exactly zero: singular matrix"):format(fname, d))
    end
  end

  def(sl, [[
scipy.linalg.lu_factor(a: array_like, overwrite_a: boolean = false, check_finite: boolean = false)
  -> ndarray, ndarray
The LU factorisation with partial pivoting of each matrix of a: lu (L's multipliers below the diagonal,
U on and above) and piv, the row swaps as LAPACK's: row i was interchanged with row piv[i], 1-based
(API.md §14; SciPy's are 0-based), int32. An exactly zero pivot warns (Lua's warn) as SciPy's does.
]], function(a, _, check_finite)
    local fname = "scipy.linalg.lu_factor"
    if check_finite then finite(h.array_arg(a, fname), fname) end
    local LU, ipiv, _, _, _, _, k = factor(a, fname)
    warn_singular(LU, k, fname)
    return LU, ipiv
  end)

  def(sl, [[
scipy.linalg.lu_solve(lu_and_piv: list, b: array_like, trans: integer|"N"|"T"|"C" = 0,
                      overwrite_b: boolean = false, check_finite: boolean = false) -> ndarray
Solve a x = b (trans 0), a^T x = b (1) or a^H x = b (2) from lu_factor's {lu, piv} (piv 1-based). b is
(..., n) or (..., n, k); leading axes are batches and broadcast.
]], function(lu_and_piv, b, trans, _, check_finite)
    local fname = "scipy.linalg.lu_solve"
    local t = trans_code(trans, fname)
    local lu, piv = lu_and_piv[1], lu_and_piv[2]
    if lu == nil or piv == nil then fail(fname .. ": lu_and_piv must be {lu, piv} (what lu_factor returns)") end
    local n
    lu, n = h.square(h.array_arg(lu, fname), fname)
    piv = h.array_arg(piv, fname)
    if ga.dtype(piv.dtype).kind ~= "i" and ga.dtype(piv.dtype).kind ~= "u" then
      fail(("%s: piv must be an integer array, got %s"):format(fname, piv.dtype))
    end
    local want = cat(batch_of(lu.shape), { n })
    if piv.ndim ~= #want or piv.shape[piv.ndim] ~= n then
      fail(("%s: piv of shape %s does not match lu of shape %s"):format(fname, shape_str(piv.shape),
        shape_str(lu.shape)))
    end
    if check_finite then finite(lu, fname); finite(h.array_arg(b, fname), fname) end
    -- the pivots index rows: out-of-range ones must never reach cuBLAS
    if piv.size > 0 then
      local lo, hi = ga.min(piv):item(), ga.max(piv):item()
      if lo < 1 or hi > n then
        fail(("%s: pivot %d is out of range [1, %d] (piv is 1-based)"):format(fname, lo < 1 and lo or hi, n))
      end
    end
    local dt, vec, batch, b2, k = operands(lu, b, n, fname)
    local A = h.fmem(ga.broadcast_to(lu, cat(batch, { n, n })), dt)
    local ipiv = ga.broadcast_to(piv, cat(batch, { n })):astype("int32", "C")
    local B = h.fmem(ga.broadcast_to(b2, cat(batch, { n, k })), dt)
    local conj = t == 2 and h.is_complex(dt)
    if conj then B = ga.conj(B) end           -- a^H x = b: a^T conj(x) = conj(b)
    core.solver.getrs(A, ipiv, B, t ~= 0)
    local x = ga.ascontiguousarray(h.from_cm(B))
    if conj then x = ga.conj(x) end
    if vec then return x:reshape(cat(batch, { n })) end
    return x
  end)

  def(sl, [[
scipy.linalg.lu(a: array_like, permute_l: boolean = false, overwrite_a: boolean = false,
                check_finite: boolean = false) -> ndarray, ndarray, ndarray
The LU factorisation a = P L U of each m x n matrix of a (P m x m a permutation matrix, L m x k unit
lower triangular, U k x n upper triangular, k = min(m, n)); with permute_l, P L and U.
]], function(a, permute_l, _, check_finite)
    local fname = "scipy.linalg.lu"
    if check_finite then finite(h.array_arg(a, fname), fname) end
    local LU, _, perm, dt, m, _, k, batch = factor(a, fname)
    local L = ga.tril(LU[{ ga.ellipsis, {}, { 1, k } }], -1) + ga.eye(m, k, 0, dt)
    local U = ga.triu(LU[{ ga.ellipsis, { 1, k }, {} }])
    L = ga.ascontiguousarray(L)
    U = ga.ascontiguousarray(U)
    -- a = P (P a) with (P a)[i] = a[perm[i]]: P[r, i] = 1 where r = perm[i]
    local rows = ga.arange(0, m, "int64"):reshape(m, 1)
    local P = ga.equal(rows, perm:reshape(cat(batch, { 1, m }))):astype(dt)
    if permute_l then return ga.matmul(P, L), U end
    return P, L, U
  end)

  ---------------------------------------------------------------------------
  -- Cholesky
  ---------------------------------------------------------------------------

  def(sl, [[
scipy.linalg.cho_factor(a: array_like, lower: boolean = false, overwrite_a: boolean = false,
                        check_finite: boolean = false) -> ndarray, boolean
The Cholesky factor of each Hermitian positive-definite matrix of a and the triangle it is in: c, lower
(c = L with L L^H = a when lower, else U = L^H; zeros elsewhere). Hand {c, lower} to cho_solve.
Raises "matrix is not positive definite".
]], function(a, lower, _, check_finite)
    local fname = "scipy.linalg.cho_factor"
    if check_finite then finite(h.array_arg(a, fname), fname) end
    local L = la._cholesky(a, fname)
    if lower then return L, true end
    return ga.ascontiguousarray(h.conj_if(L:swapaxes(-1, -2))), false
  end)

  def(sl, [[
scipy.linalg.cho_solve(c_and_lower: list, b: array_like, overwrite_b: boolean = false,
                       check_finite: boolean = false) -> ndarray
Solve a x = b from cho_factor's {c, lower}. b is (..., n) or (..., n, k); leading axes are batches.
]], function(c_and_lower, b, _, check_finite)
    local fname = "scipy.linalg.cho_solve"
    local c, lower = c_and_lower[1], c_and_lower[2]
    if c == nil or type(lower) ~= "boolean" then
      fail(fname .. ": c_and_lower must be {c, lower} (what cho_factor returns)")
    end
    c = h.array_arg(c, fname)
    b = h.array_arg(b, fname)
    if check_finite then finite(c, fname); finite(b, fname) end
    -- both solves on b as columns: a 1-D b is one column, reshaped back
    local vec = b.ndim == 1
    local bm = vec and b:reshape(b.size, 1) or b
    local x
    if lower then
      local y = solve_tri(c, bm, 0, true, false, fname, false)       -- L y = b
      x = solve_tri(c, y, 2, true, false, fname, false)              -- L^H x = y
    else
      local y = solve_tri(c, bm, 2, false, false, fname, false)      -- U^H y = b
      x = solve_tri(c, y, 0, false, false, fname, false)             -- U x = y
    end
    if vec then
      local s = x.shape
      s[#s] = nil
      return x:reshape(s)
    end
    return x
  end)
end
