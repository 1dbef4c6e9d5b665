--- What the iterative solvers share: the system (A, b, x0, M as device
-- operators in one working dtype), the reductions they run (dot products
-- and norms into 0-d device arrays, never read back), and the device
-- state that lets an iteration run without a host synchronisation.
--
-- The state: a solver keeps its scalars (rho, alpha, norms, a status
-- code, an iteration count) in one small device array `st`. Reductions
-- write their results into its slots; a one-thread "scalar step" kernel
-- runs the solver's scalar recurrences and stopping tests (SciPy's Python
-- lines, as C); the vector kernels read the slots they need and do
-- nothing once the status says the solver stopped, so x stays exactly the
-- iterate SciPy returns. The host reads the status every CHECK_EVERY
-- iterations (one synchronisation) and leaves the loop once it is set:
-- at most CHECK_EVERY - 1 iterations of launches are wasted after
-- convergence, and a solve of k iterations synchronises k / CHECK_EVERY
-- times instead of k (CuPy's loops read a norm back every iteration).
-- With a callback the host must look every iteration (SciPy calls it with
-- each iterate, and not after the solver has stopped).
return function(ga, L)
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local shape_str = internal.shape_str
  local core = ga._core
  local issparse = ga.sparse.issparse
  local K = {}
  L._krylov = K

  --- 8: a check costs one synchronisation (the device drains, ~10-30 us
  -- of idle launch queue); a missed convergence costs at most 7
  -- iterations of launches (each a few SpMV-sized kernels)
  K.CHECK_EVERY = 8

  local FLOAT = { float32 = "float32", float64 = "float64", complex64 = "complex64", complex128 = "complex128",
                  float16 = "float32" }
  --- the dtype a solver computes in: the operands' common type, integers
  -- and bool as float64 (SciPy's make_system)
  function K.float_dtype(...)
    local dt = ga.result_type(...)
    return FLOAT[dt] or "float64"
  end
  function K.is_complex(dt) return dt == "complex64" or dt == "complex128" end
  K.REAL = { float32 = "float32", float64 = "float64", complex64 = "float32", complex128 = "float64" }
  K.EPS = { float32 = 1.1920929e-07, float64 = 2.220446049250313e-16 }

  --- A as a device operator: { m, n, dtype, mv(x) -> A x, rmv(x) -> A^H x,
  -- cast(dt) }. A CSR (or CSC, COO: converted once) matrix multiplies
  -- through cuSPARSE's SpMV directly; an ndarray through matmul; a
  -- LinearOperator through its functions.
  function K.operator(A, fname, what)
    what = what or "A"
    local op = {}
    if L._islinearoperator(A) then
      op.m, op.n, op.dtype = A._shape[1], A._shape[2], A._dtype
      op.mv = function(x) return L._apply_vec(A, x, false, fname) end
      op.rmv = function(x) return L._apply_vec(A, x, true, fname) end
      op.cast = function() end
      return op
    end
    if issparse(A) then
      local S = A:tocsr()
      op.m, op.n, op.dtype = S.shape[1], S.shape[2], S.dtype
      local function bind(T)
        local m, n = op.m, op.n
        op.mv = function(x) return core.sparse.mv(m, n, T._indptr, T._indices, T.data, x, false) end
        if K.is_complex(T.dtype) then
          op.rmv = function(x) return ga.conj(core.sparse.mv(m, n, T._indptr, T._indices, T.data, ga.conj(x), true)) end
        else
          op.rmv = function(x) return core.sparse.mv(m, n, T._indptr, T._indices, T.data, x, true) end
        end
      end
      bind(S)
      op.cast = function(dt) if S.dtype ~= dt then bind(S:astype(dt)) end end
      op.sparse = S
      return op
    end
    if not is_array(A) then
      if type(A) ~= "table" and type(A) ~= "number" then
        fail(("%s: %s must be a sparse matrix, an ndarray or a LinearOperator, got %s"):format(fname, what, type(A)))
      end
      A = ga.asarray(A)
    end
    if A.ndim ~= 2 then
      fail(("%s: %s must be a matrix, got shape %s"):format(fname, what, shape_str(A.shape)))
    end
    op.m, op.n, op.dtype = A.shape[1], A.shape[2], A.dtype
    local D, DH = A, nil
    op.mv = function(x) return ga.matmul(D, x) end
    op.rmv = function(x)
      DH = DH or ga.ascontiguousarray(K.is_complex(D.dtype) and ga.conj(D:swapaxes(1, 2)) or D:swapaxes(1, 2))
      return ga.matmul(DH, x)
    end
    op.cast = function(dt) if D.dtype ~= dt then D, DH = D:astype(dt), nil end end
    op.dense = A
    return op
  end

  --- the right-hand side as a contiguous 1-D array of n values ((n,) or (n, 1) given)
  function K.vector(b, n, fname, what)
    if not is_array(b) then b = ga.asarray(b) end
    if not ((b.ndim == 1 and b.size == n) or (b.ndim == 2 and b.shape[1] == n and b.shape[2] == 1)) then
      fail(("%s: %s of shape %s does not match the operator's %d rows"):format(fname, what or "b",
        shape_str(b.shape), n))
    end
    return b:reshape(n)
  end

  --- A, b, x0 and M as one system: op (square), b and x (fresh,
  -- contiguous, dtype dt), psolve (M's product, or nil for none)
  function K.system(A, b, x0, M, fname, square)
    local op = K.operator(A, fname)
    if square ~= false and op.m ~= op.n then
      fail(("%s: A must be square, got shape {%d,%d}"):format(fname, op.m, op.n))
    end
    b = K.vector(b, op.m, fname, "b")
    local dts = { op.dtype or "float64", b.dtype }
    if x0 ~= nil then
      x0 = K.vector(x0, op.n, fname, "x0")
      dts[#dts + 1] = x0.dtype
    end
    local dt = K.float_dtype(table.unpack(dts))
    op.cast(dt)
    b = ga.ascontiguousarray(b:astype(dt))
    local x = x0 and ga.ascontiguousarray(x0:astype(dt)) or nil
    local psolve
    if M ~= nil then
      local mop = K.operator(M, fname, "M")
      if mop.m ~= op.m or mop.n ~= op.m then
        fail(("%s: M of shape {%d,%d} does not match A of shape {%d,%d}"):format(fname, mop.m, mop.n, op.m, op.n))
      end
      mop.cast(dt)
      psolve = function(v)
        local z = mop.mv(v)
        if z.dtype ~= dt then z = z:astype(dt) end
        return ga.ascontiguousarray(z)
      end
    end
    return op, b, x, dt, psolve
  end

  --- the residual product A x, contiguous in dt (a LinearOperator's
  -- function may give another dtype or layout)
  function K.apply(op, x, dt)
    local y = op.mv(x)
    if y.dtype ~= dt then y = y:astype(dt) end
    return ga.ascontiguousarray(y)
  end

  ---------------------------------------------------------------------------
  -- reductions (0-d device results: no read back)
  ---------------------------------------------------------------------------

  local dot_k, nrm2sq_k, nrm2_k
  -- k(...) or k(..., {out = out}): never a trailing nil, which a
  -- ReductionKernel counts as its output argument ("output 'z' must be an
  -- ndarray, got nil": every solver failed so in its first norm)
  local function reduce(k, out, ...)
    if out then
      local args = table.pack(...)
      args[args.n + 1] = { out = out }
      return k(table.unpack(args, 1, args.n + 1))
    end
    return k(...)
  end
  --- x^H y, as SciPy's dotprod (np.vdot)
  function K.dot(x, y, out)
    if not dot_k then K.reduction_kernels() end
    return reduce(dot_k, out, x, y)
  end
  --- x^H x (real, in x's dtype)
  function K.nrm2sq(x, out)
    if not dot_k then K.reduction_kernels() end
    return reduce(nrm2sq_k, out, x)
  end
  --- ||x||_2 (real, in x's dtype)
  function K.nrm2(x, out)
    if not dot_k then K.reduction_kernels() end
    return reduce(nrm2_k, out, x)
  end
  --- the three reduction kernels (for the compile specs)
  function K.reduction_kernels()
    dot_k = dot_k or ga.ReductionKernel("T x, T y", "T z", "ga_conj(x) * y", "a + b", "z = a", "0", "ga_krylov_dot")
    nrm2sq_k = nrm2sq_k or ga.ReductionKernel("T x", "T z", "ga_conj(x) * x", "a + b", "z = a", "0",
      "ga_krylov_nrm2sq")
    nrm2_k = nrm2_k or ga.ReductionKernel("T x", "T z", "ga_conj(x) * x", "a + b", "z = ga_sqrt(a)", "0",
      "ga_krylov_nrm2")
    return dot_k, nrm2sq_k, nrm2_k
  end

  --- a 0-d device value as a Lua number (its real part): one read back
  function K.number(x)
    if K.is_complex(x.dtype) then x = ga.real(x) end
    return x:item()
  end

  ---------------------------------------------------------------------------
  -- device state
  ---------------------------------------------------------------------------

  --- A state of named slots (a list of names) in dtype dt: st (the
  -- array), slot[name] (0-d views: reductions write into them, vector
  -- kernels read them), idx[name] (0-based, for kernel code)
  function K.state(names, dt)
    local st = ga.zeros(#names, dt)
    local slot, idx = {}, {}
    for i, name in ipairs(names) do
      idx[name] = i - 1
      slot[name] = st[{ { i, i } }]:reshape({})
    end
    return { st = st, slot = slot, idx = idx, names = names }
  end

  --- A one-thread kernel over a state: `code` is C with the slots of
  -- `names` as local variables (loaded first, stored back last); kind
  -- "T": locals of the solver's dtype (complex scalars stay complex),
  -- "real": doubles holding the real parts (norms, rotations). extra: more
  -- input parameters ("int64 itn"). It is launched over one element (the
  -- first slot) with the state as a raw output: K.run(k, state, ...).
  function K.program(name, names, code, kind, extra, preamble)
    local loads, stores = {}, {}
    for i, n in ipairs(names) do
      if kind == "real" then
        loads[i] = ("double %s = (double)ga_real(st[%d]);"):format(n, i - 1)
        stores[i] = ("st[%d] = T(%s);"):format(i - 1, n)
      else
        loads[i] = ("T %s = st[%d];"):format(n, i - 1)
        stores[i] = ("st[%d] = %s;"):format(i - 1, n)
      end
    end
    local body = table.concat(loads, "\n") .. "\n{\n" .. code .. "\n}\n" .. table.concat(stores, "\n")
    return ga.ElementwiseKernel("T one" .. (extra and (", " .. extra) or ""), "raw T st", body, name,
      preamble and { preamble = preamble } or nil)
  end

  --- run a program on a state (extra inputs after the first slot)
  function K.run(kernel, state, ...)
    local args = table.pack(...)
    args[args.n + 1] = state.st
    kernel(state.slot[state.names[1]], table.unpack(args, 1, args.n + 1))
    return state
  end

  -- the checked callback call (user code: its errors pass unchanged)
  local api = require("gpuarray.api")
  function K.callback(cb, ...)
    if cb then api.call_user(cb, ...) end
  end
end
