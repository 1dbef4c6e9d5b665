--- linalg.eig and linalg.eigvals: the general eigenproblem through
-- cuSOLVER's geev (src/libs/solver_geev.c), one matrix after another.
--
-- NumPy's dtype rule: a real matrix whose eigenvalues are all real gives
-- real w and v, else complex ones (float32 -> complex64). Telling which
-- reads the imaginary parts back (one synchronisation per call, as
-- NumPy's rule needs a value). A real matrix's eigenvectors come from geev
-- in LAPACK's packed form: the pair w_j, w_j+1 = conj(w_j) stores Re v_j
-- in column j and Im v_j in column j + 1; one kernel unpacks it.
return function(ga, linalg)
  local def = require("gpuarray.api").def
  local core = ga._core
  local h = linalg._helpers

  local unpack_kernel
  --- the kernel that unpacks geev's real eigenvector pairs (also for the
  -- compile spec). Memory of a batch of column-major matrices: element i
  -- is row r of column j of matrix b, i = (b n + j) n + r.
  function linalg._eig_unpack_kernel()
    unpack_kernel = unpack_kernel or ga.ElementwiseKernel("raw R vr, raw C w, int64 n", "C v", [[
      long long col = i / n;          // b n + j
      long long j = col % n;
      R im = w[col].im;
      if (im > (R)0 && j + 1 < n) v = C(vr[i], vr[i + n]);
      else if (im < (R)0 && j > 0) v = C(vr[i - n], -vr[i]);
      else v = C(vr[i], (R)0);
    ]], "ga_eig_unpack")
    return unpack_kernel
  end

  local function eig(a, vectors, fname)
    local n
    a, n = h.square(a, fname)
    local dt = h.solver_dtype(a)
    local A = h.fmem(a, dt)                           -- column-major a
    local W, VR, info, where = core.solver.geev(A, vectors)
    linalg._check_info(info, a.ndim > 2 and where, fname, "the eigenvalue iteration did not converge")
    local real_in = not h.is_complex(dt)
    local all_real = real_in and (W.size == 0 or not ga.any(ga.not_equal(ga.imag(W), 0)):item())
    if not vectors then
      if all_real then return ga.ascontiguousarray(ga.real(W)) end
      return W
    end
    local v = VR                                      -- complex, or real with real eigenvalues
    if real_in and not all_real then
      v = ga.empty(VR.shape, W.dtype)
      if v.size > 0 then linalg._eig_unpack_kernel()(VR, W, n, v) end
    end
    v = ga.ascontiguousarray(h.from_cm(v))
    if all_real then return ga.ascontiguousarray(ga.real(W)), v end
    return W, v
  end

  def(linalg, [[
linalg.eig(a: array_like) -> ndarray, ndarray
Eigenvalues w and right eigenvectors v (columns, unit norm) of each square matrix of a: a v = v diag(w).
Real a gives real w and v when every eigenvalue is real, complex ones otherwise (NumPy's rule; reading
that back synchronises).
]], function(a)
    return eig(a, true, "eig")
  end)

  def(linalg, [[
linalg.eigvals(a: array_like) -> ndarray
The eigenvalues of each square matrix of a (real when all are real and a is real, as NumPy).
]], function(a)
    return eig(a, false, "eigvals")
  end)
end
