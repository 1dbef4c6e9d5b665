--- Matrix functions: expm, sqrtm, logm, batched over leading axes.
--
-- expm: Higham's scaling and squaring with a diagonal Pade approximant
-- (2005; SciPy's and CuPy's algorithm family): the degree and the number of
-- squarings come from the largest 1-norm in the batch (one read back), the
-- approximant is one solve, then s squarings.
--
-- sqrtm: the product form of the Denman-Beavers iteration with
-- determinant scaling (Higham, "Functions of Matrices", 6.3): matmuls and
-- one inverse a step, quadratic convergence. SciPy uses a Schur method; it
-- has no GPU equivalent here (cuSOLVER has no Schur decomposition), so a
-- singular matrix, which the iteration cannot invert, raises.
--
-- logm: inverse scaling and squaring: square roots until ||A - I||_1 <=
-- 0.25, then log(I + X) by 8-point Gauss-Legendre quadrature of
-- X (I + t X)^-1 (the [8/8] Pade approximant), times 2^k.
--
-- A real matrix with an eigenvalue on the closed negative real axis has no
-- real principal square root or logarithm: both then compute in complex
-- arithmetic, as SciPy's do (the eigenvalues are read back once to tell).
return function(ga, sl)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail = internal.fail
  local la = ga.linalg
  local h = la._helpers

  local SINGLE = { float32 = true, complex64 = true }
  local COMPLEX = { float32 = "complex64", float64 = "complex128" }

  local function eye_like(A)
    local n = A.shape[A.ndim]
    return ga.broadcast_to(ga.eye(n, A.dtype), A.shape)
  end

  -- the largest 1-norm (max column sum) in the batch, as a Lua number
  local function norm1(A)
    if A.size == 0 then return 0 end
    return ga.max(ga.sum(ga.abs(A), { axis = -2 })):item()
  end

  -- Pade coefficients b_0..b_m, and the largest 1-norm each degree is
  -- accurate for (Higham 2005, Table 2.3 for double, 2.2 for single)
  local PADE = {
    [3] = { 120, 60, 12, 1 },
    [5] = { 30240, 15120, 3360, 420, 30, 1 },
    [7] = { 17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1 },
    [9] = { 17643225600, 8821612800, 2075673600, 302702400, 36756720, 2116800, 60540, 990, 90, 1 },
    [13] = { 64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
             10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1 },
  }
  local THETA = {
    double = { { 3, 1.495585217958292e-2 }, { 5, 2.539398330063230e-1 }, { 7, 9.504178996162932e-1 },
               { 9, 2.097847961257068 }, { 13, 5.371920351148152 } },
    single = { { 3, 4.258730016922831e-1 }, { 5, 1.880152677804762 }, { 7, 3.925724783138660 } },
  }

  local function expm(a, fname)
    a = h.square(a, fname)
    local dt = h.solver_dtype(a)
    local A = a:astype(dt)
    if A.size == 0 then return A end
    local I = eye_like(A)
    local nrm = norm1(A)
    if nrm ~= nrm then return ga.full(A.shape, 0 / 0, dt) end     -- NaN in, NaN out
    local table_ = SINGLE[dt] and THETA.single or THETA.double
    local m, s = nil, 0
    for _, e in ipairs(table_) do
      if nrm <= e[2] then m = e[1]; break end
    end
    if not m then
      local top = table_[#table_]
      m = top[1]
      s = math.max(0, math.ceil(math.log(nrm / top[2], 2)))
      if s > 0 then A = ga.multiply(A, 2.0 ^ -s) end
    end
    local b = PADE[m]
    local A2 = ga.matmul(A, A)
    local U, V
    if m == 13 then
      local A4 = ga.matmul(A2, A2)
      local A6 = ga.matmul(A4, A2)
      local inner_u = ga.matmul(A6, b[14] * A6 + b[12] * A4 + b[10] * A2)
      U = ga.matmul(A, inner_u + b[8] * A6 + b[6] * A4 + b[4] * A2 + b[2] * I)
      V = ga.matmul(A6, b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * I
    else
      -- U = A sum_{j odd} b_j A^(j-1), V = sum_{j even} b_j A^j
      local P = I
      local u, v = b[2] * I, b[1] * I
      for j = 2, m, 2 do
        P = j == 2 and A2 or ga.matmul(P, A2)
        v = v + b[j + 1] * P
        u = u + b[j + 2] * P
      end
      U, V = ga.matmul(A, u), v
    end
    local R = la.solve(V - U, V + U)
    for _ = 1, s do R = ga.matmul(R, R) end
    return R
  end

  def(sl, [[
scipy.linalg.expm(A: array_like) -> ndarray
The matrix exponential of each square matrix of A (leading axes are batches): scaling and squaring
with a Pade approximant whose degree follows the largest 1-norm of the batch.
]], function(A)
    return expm(A, "scipy.linalg.expm")
  end)
  sl._expm = expm

  --- the matrix the iterations run on, and the rotation theta that keeps
  -- them off the branch cut. Raises for a singular matrix (what the
  -- iterations cannot invert). An eigenvalue on the closed negative real
  -- axis (-r, r > 0) has no real principal root or log: the work is then
  -- complex, as SciPy's, and on e^(-i theta) A, whose eigenvalues are off
  -- that axis (-r goes to r e^(i (pi - theta))): a real matrix stays real
  -- through the Denman-Beavers steps, so without the turn they never
  -- converge for it. theta is below the angle + pi of every eigenvalue in
  -- the lower half plane (none crosses the cut), at most pi / 2 (-r and
  -- the positive eigenvalues end up equally far from it); then
  -- sqrtm(A) = e^(i theta / 2) sqrtm(e^(-i theta) A) and
  -- logm(A) = logm(e^(-i theta) A) + i theta I are the principal ones
  -- (SciPy's: i sqrt(r) and log r + i pi for -r). One read back more.
  local function working(a, fname)
    a = h.square(a, fname)
    local dt = h.solver_dtype(a)
    local A = a:astype(dt)
    if A.size == 0 then return A, 0 end
    local w = la.eigvals(A)
    if ga.any(ga.equal(w, 0)):item() then
      fail(fname .. ": the matrix is singular (an eigenvalue is 0): the GPU iteration needs an invertible matrix")
    end
    local on_cut
    if h.is_complex(w.dtype) then
      on_cut = ga.logical_and(ga.equal(ga.imag(w), 0), ga.less(ga.real(w), 0))
    else
      on_cut = ga.less(w, 0)
    end
    if not ga.any(on_cut):item() then return A, 0 end
    local theta = math.pi / 2
    if h.is_complex(w.dtype) then
      local below = ga.where(ga.less(ga.imag(w), 0), ga.add(ga.angle(w), math.pi), math.huge)
      theta = math.min(theta, ga.min(below):item() / 2)
    end
    local ct = h.is_complex(dt) and dt or COMPLEX[dt]
    local turn = ga[ct](math.cos(theta), -math.sin(theta))                -- e^(-i theta)
    return ga.multiply(A:astype(ct), turn):astype(ct), theta
  end

  local function eps_of(dt) return SINGLE[dt] and 1.1920929e-07 or 2.220446049250313e-16 end

  --- A^(1/2) by the scaled product-form Denman-Beavers iteration
  local function sqrt_db(A, fname)
    local n = A.shape[A.ndim]
    local I = eye_like(A)
    local Y, M = A, A
    local tol = math.sqrt(n) * eps_of(A.dtype) * 4
    local scale = true
    for _ = 1, 100 do
      if scale then
        -- mu = |det M|^(-1/(2n)) per matrix
        local _, logdet = la.slogdet(M)
        local mu = ga.exp(ga.multiply(logdet, -1 / (2 * n)))
        local mu_m = ga.expand_dims(ga.expand_dims(mu, -1), -1):astype(A.dtype)
        Y = ga.multiply(Y, mu_m)
        M = ga.multiply(M, ga.multiply(mu_m, mu_m))
      end
      local Mi = la.inv(M)
      local Ynew = ga.multiply(ga.matmul(Y, I + Mi), 0.5)
      M = ga.multiply(I + ga.multiply(M + Mi, 0.5), 0.5)
      local d = ga.max(ga.abs(M - I)):item()
      Y = Ynew
      if d <= tol then return Y end
      if d < 1e-2 then scale = false end
    end
    fail(fname .. ": the Denman-Beavers iteration did not converge in 100 steps")
  end

  local function frob(x) return la.norm(x, "fro", { -2, -1 }) end

  def(sl, [[
scipy.linalg.sqrtm(A: array_like, disp: boolean = true, blocksize: integer = 64) -> ndarray, ndarray
The principal square root X (X X = A) of each square matrix of A; complex when a real A has a negative
real eigenvalue. With disp false also the error estimate ||X X - A||_F^2 / ||A||_F. blocksize is
accepted for SciPy's signature. A singular A raises (see docs/scipy-linalg.md).
]], function(A, disp, _)
    local fname = "scipy.linalg.sqrtm"
    local B, theta = working(A, fname)
    if B.size == 0 then
      if disp then return B end
      return B, ga.zeros(h.batch_of(B.shape), la._REAL[B.dtype])
    end
    local X = sqrt_db(B, fname)
    if theta ~= 0 then
      X = ga.multiply(X, ga[X.dtype](math.cos(theta / 2), math.sin(theta / 2))):astype(X.dtype)
    end
    if disp then return X end
    local A0 = h.array_arg(A, fname):astype(X.dtype)
    local r = frob(ga.matmul(X, X) - A0)
    return X, ga.divide(ga.multiply(r, r), frob(A0))
  end)

  -- Gauss-Legendre nodes and weights on [0, 1], 8 points
  local GL = {
    { 0.019855071751231912, 0.050614268145188344 }, { 0.10166676129318664, 0.11119051722668717 },
    { 0.2372337950418355, 0.15685332293894352 }, { 0.4082826787521751, 0.18134189168918088 },
    { 0.5917173212478248, 0.18134189168918088 }, { 0.7627662049581645, 0.15685332293894352 },
    { 0.8983332387068134, 0.11119051722668717 }, { 0.9801449282487681, 0.050614268145188344 },
  }

  def(sl, [[
scipy.linalg.logm(A: array_like, disp: boolean = true) -> ndarray, number
The principal logarithm of each square matrix of A (expm(logm(A)) = A); complex when a real A has a
negative real eigenvalue. With disp false also the error estimate ||expm(L) - A||_1 / ||A||_1 (the
largest of the batch). A singular A raises.
]], function(A, disp)
    local fname = "scipy.linalg.logm"
    local A0 = A
    local theta
    A, theta = working(A, fname)
    if A.size == 0 then
      if disp then return A end
      return A, 0
    end
    local I = eye_like(A)
    local k, R = 0, A
    while norm1(R - I) > 0.25 do
      k = k + 1
      if k > 60 then fail(fname .. ": too many square roots (the matrix is too far from the identity)") end
      R = sqrt_db(R, fname)
    end
    local X = R - I
    local L = nil
    for _, node in ipairs(GL) do
      local term = ga.multiply(la.solve(I + ga.multiply(X, node[1]), X), node[2])
      L = L and L + term or term
    end
    if k > 0 then L = ga.multiply(L, 2.0 ^ k) end
    if theta ~= 0 then L = (L + ga.multiply(I, ga[L.dtype](0, theta))):astype(L.dtype) end
    if disp then return L end
    A0 = h.array_arg(A0, fname):astype(L.dtype)
    local err = norm1(expm(L, fname) - A0) / norm1(A0)
    return L, err
  end)
end
