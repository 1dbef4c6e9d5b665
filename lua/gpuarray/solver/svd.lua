--- The SVD and what is built on it: linalg.svd, lstsq, pinv, matrix_rank,
-- norm, matrix_power (the last two only partly need it).
--
-- svd picks the cuSOLVER method per dtype (METHOD below, chosen from the
-- H200 measurements in docs/linalg.md: CuPy calls gesvd, the slowest), or
-- the one given as opts.method ("gesvd", "gesvdj", "gesvdp"; "gram" for
-- values only: the eigenvalues of the smaller Gram matrix computed in
-- float64, accurate to float64's eps * sigma_max^2 in sigma^2, far inside
-- float32's resolution).
return function(ga, linalg)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail = internal.fail
  local h = linalg._helpers
  local REAL = linalg._REAL
  local cat, batch_of, from_cm, is_complex = h.cat, h.batch_of, h.from_cm, h.is_complex

  -- defaults (H200, 1000 x 1000, docs/linalg.md): gesvdp for square
  -- matrices with vectors (f64 32 ms; gesvd 128/149 ms; gesvdj 54/88 ms but
  -- only 1.6e-4 in float32); gesvd for the others (gesvdp's econ/full modes
  -- of rectangular matrices are not verified yet); values alone: gram
  -- (10 ms) in single precision, gesvdj in double. Single-precision gesvdp
  -- gives wrong factors for some matrices (CUDA 13.0 on the H200: 35% of
  -- random float32 1000 x 1000 ones, relative error up to 38, none of 840
  -- in float64), so "gesvdp*" runs float32 and complex64 through double
  -- precision and rounds the factors back.
  linalg._svd_method = {
    vectors = { float32 = "gesvdp*", float64 = "gesvdp", complex64 = "gesvdp*", complex128 = "gesvdp" },
    rectangular = "gesvd",
    values = { float32 = "gram", float64 = "gesvdj", complex64 = "gram", complex128 = "gesvdj" },
    -- a batch of more than one matrix of at most this many rows and columns
    -- goes to gesvdjBatched (its documented limit: src/solver/solver_batched.c)
    batched_max = 32,
  }

  local function eye_batch(batch, n, dt)
    return ga.ascontiguousarray(ga.broadcast_to(ga.eye(n, dt), cat(batch, { n, n })))
  end

  -- singular values from the Gram matrix of the shorter side, in float64
  local function gram_values(a, m, n, dt)
    local wide = is_complex(dt) and "complex128" or "float64"
    local x = a:astype(wide)
    local xh = x:swapaxes(-1, -2)
    if is_complex(dt) then xh = ga.conj(xh) end
    local G = m >= n and ga.matmul(xh, x) or ga.matmul(x, xh)
    local w = linalg.eigvalsh(G)
    w = ga.flip(ga.maximum(w, 0), -1)
    return ga.sqrt(w):astype(REAL[dt])
  end

  --- linalg.svd(a[, {full_matrices=true, compute_uv=true, method=}])
  -- -> U, S, Vh (or S alone without compute_uv); S descending
  function linalg.svd(a, opts)
    a = h.matrices(a, "svd")
    opts = internal.opts(opts, "linalg.svd")
    local full = opts.full_matrices ~= false
    local uv = opts.compute_uv ~= false
    local dt = h.solver_dtype(a)
    local s = a.shape
    local m, n = s[#s - 1], s[#s]
    local batch = batch_of(s)
    local method = opts.method
    if method ~= nil and type(method) ~= "string" then
      fail("linalg.svd: method must be a string, got " .. type(method))
    end
    if not method then
      local d = linalg._svd_method
      local nb = 1
      for _, v in ipairs(batch) do nb = nb * v end
      if nb > 1 and math.max(m, n) <= d.batched_max then
        -- more than one small matrix: one gesvdjBatched call for them all
        method = "gesvdj"
      else
        method = not uv and d.values[dt] or m == n and d.vectors[dt] or d.rectangular
      end
    end
    if method == "gesvdp*" then
      local wide = is_complex(dt) and "complex128" or "float64"
      local U, S, Vh = linalg.svd(a:astype(wide), { full_matrices = full, compute_uv = uv, method = "gesvdp" })
      if not uv then return S:astype(REAL[dt]) end
      return U:astype(dt), S:astype(REAL[dt]), Vh:astype(dt)
    end
    if method == "gram" then
      if uv then fail("linalg.svd: method \"gram\" gives values only (compute_uv = false)") end
      if m * n == 0 then return ga.empty(cat(batch, { 0 }), REAL[dt]) end
      return gram_values(a, m, n, dt)
    end
    local k = math.min(m, n)
    if k == 0 then
      local S = ga.empty(cat(batch, { 0 }), REAL[dt])
      if not uv then return S end
      local U = full and eye_batch(batch, m, dt) or ga.empty(cat(batch, { m, 0 }), dt)
      local Vh = full and eye_batch(batch, n, dt) or ga.empty(cat(batch, { 0, n }), dt)
      return U, S, Vh
    end
    -- cuSOLVER wants rows >= columns: A column-major when tall, else A^T
    local tall = m >= n
    local A = tall and h.fmem(a, dt) or h.cmem(a, dt)
    -- gesvdj without vectors gave wrong values on the H200 (2.8 relative to
    -- gesvd for a 7 x 12 float64 matrix, 3.7 for complex128; 2026-11-24):
    -- compute them and drop them
    local vectors = uv or method == "gesvdj"
    local S, Um, Vm, vt, info, where, perturbation = core.solver.gesvd(A, method, full, vectors)
    if perturbation ~= 0 then
      -- gesvdp's own error estimate is exactly 0 for every good result we
      -- measured and nonzero for every wrong one: redo those with gesvd
      A = tall and h.fmem(a, dt) or h.cmem(a, dt)
      S, Um, Vm, vt, info, where = core.solver.gesvd(A, "gesvd", full, vectors)
    end
    linalg._check_info(info, #batch > 0 and where, "svd", "did not converge")
    if not uv then return S end
    local U, Vh
    if tall then
      -- A = U S V^H: Um holds U column-major, Vm holds V (or V^H when vt)
      U = from_cm(Um)
      if vt then Vh = from_cm(Vm) else Vh = h.conj_if(Vm) end
    else
      -- A^T = U' S V'^H, so A = conj(V') S U'^T: Um read row-major is U'^T
      Vh = Um
      if vt then U = Vm else U = h.conj_if(from_cm(Vm)) end
    end
    return U, S, Vh
  end

  local function conj_t(x) return h.conj_if(x:swapaxes(-1, -2)) end

  --- linalg.pinv(a[, rcond]): the pseudo-inverse through the SVD; singular
  -- values at most rcond * max(S) count as zero (rcond 1e-15)
  function linalg.pinv(a, rcond)
    a = h.matrices(a, "pinv")
    rcond = rcond or 1e-15
    local U, S, Vh = linalg.svd(a, { full_matrices = false })
    local cut = ga.multiply(ga.max(S, { axis = -1, keepdims = true }), rcond)
    local keep = ga.greater(S, cut)
    local sinv = ga.where(keep, ga.reciprocal(ga.where(keep, S, 1)), 0)
    local scaled = ga.multiply(conj_t(U), ga.expand_dims(sinv:astype(U.dtype), -1))
    return ga.matmul(conj_t(Vh), scaled)
  end

  --- linalg.lstsq(a, b[, rcond]) -> x, residuals, rank, s (NumPy's): a is
  -- m x n, b m or m x k; rcond defaults to eps * max(m, n)
  function linalg.lstsq(a, b, rcond)
    if rcond ~= nil and type(rcond) ~= "number" then
      fail("linalg.lstsq: rcond must be a number, got " .. type(rcond))
    end
    a = h.matrices(a, "lstsq")
    b = h.array_arg(b, "linalg.lstsq")
    if a.ndim ~= 2 then fail("linalg.lstsq: a must be 2-D") end
    local m, n = a.shape[1], a.shape[2]
    if b.ndim < 1 or b.ndim > 2 or b.shape[1] ~= m then
      fail(("linalg.lstsq: b of shape %s does not match a of shape %s"):format(internal.shape_str(b.shape),
        internal.shape_str(a.shape)))
    end
    local dt = h.solver_dtype(a, b)
    a, b = a:astype(dt), b:astype(dt)
    local U, S, Vh = linalg.svd(a, { full_matrices = false })
    local eps = (dt == "float32" or dt == "complex64") and 1.1920929e-07 or 2.220446049250313e-16
    rcond = rcond or eps * math.max(m, n)
    local smax = S.size > 0 and ga.max(S):item() or 0
    local keep = ga.greater(S, rcond * smax)
    local rank = S.size > 0 and ga.count_nonzero(keep):item() or 0
    local sinv = ga.where(keep, ga.reciprocal(ga.where(keep, S, 1)), 0):astype(dt)
    local b2 = b.ndim == 1 and b:reshape(m, 1) or b
    local y = ga.multiply(ga.matmul(conj_t(U), b2), sinv:reshape(sinv.size, 1))
    local x = ga.matmul(conj_t(Vh), y)
    local resid
    if rank == n and m > n then
      local r = ga.subtract(ga.matmul(a, x), b2)
      resid = ga.sum(ga.multiply(ga.abs(r), ga.abs(r)), { axis = 1 })
    else
      resid = ga.empty(0, REAL[dt])
    end
    if b.ndim == 1 then x = x:reshape(n) end
    return x, resid, rank, S
  end

  --- linalg.matrix_rank(a[, tol]): singular values above tol (default
  -- max(S) * max(m, n) * eps); a 1-D a has rank 1 unless all zero
  function linalg.matrix_rank(a, tol)
    a = h.array_arg(a, "linalg.matrix_rank")
    if a.ndim < 2 then return ga.count_nonzero(ga.not_equal(a, 0)) > 0 and 1 or 0 end
    local S = linalg.svd(a, { compute_uv = false })
    local s = a.shape
    if not tol then
      local eps = (S.dtype == "float32") and 1.1920929e-07 or 2.220446049250313e-16
      tol = ga.multiply(ga.max(S, { axis = -1, keepdims = true }), math.max(s[#s], s[#s - 1]) * eps)
    end
    return ga.count_nonzero(ga.greater(S, tol), { axis = -1 })
  end

  --- linalg.matrix_power(a, p): repeated squaring; p < 0 inverts first
  function linalg.matrix_power(a, p)
    local n
    a, n = h.square(a, "matrix_power")
    if math.type(p) ~= "integer" then fail("linalg.matrix_power: the exponent is an integer") end
    if p == 0 then
      return ga.ascontiguousarray(ga.broadcast_to(ga.eye(n, a.dtype), a.shape))
    end
    if p < 0 then a, p = linalg.inv(a), -p end
    local result, base = nil, a
    while p > 0 do
      if p & 1 == 1 then result = result and ga.matmul(result, base) or base end
      p = p >> 1
      if p > 0 then base = ga.matmul(base, base) end
    end
    return result == a and a:copy() or result
  end

  require("gpuarray.solver.norm")(ga, linalg)
end
