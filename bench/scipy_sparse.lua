--- scipy.sparse.linalg cases (the twins of ../shared/bench/cupy_ref.py's
-- scipy group: cg, gmres, spsolve, eigsh on the 5-point Laplacian). Each
-- first checks that it does the work CuPy's key does (iterations or
-- products counted through a callback or a counting LinearOperator), then
-- times the plain call.
return function(ga, B)
  if not (ga.scipy and ga.scipy.sparse) then return end
  local sparse = ga.scipy.sparse
  local L = sparse.linalg

  -- the 5-point Laplacian on side x side (Dirichlet): 4 on the diagonal, -1
  -- to the 4 neighbours, float32 CSR (built as cupy_ref.py's poisson()), b = ones
  local cache = {}
  local function poisson(side)
    if cache[side] then return cache[side][1], cache[side][2] end
    local n = side * side
    local i = ga.arange(0, n, "int64")
    local row, col = i // side, i % side
    local rows, cols, vals = { i }, { i }, { ga.full(n, 4, "float32") }
    for _, c in ipairs({ { ga.greater(col, 0), -1 }, { ga.less(col, side - 1), 1 }, { ga.greater(row, 0), -side },
      { ga.less(row, side - 1), side } }) do
      local ii = i[c[1]]
      rows[#rows + 1], cols[#cols + 1] = ii, ii + c[2]
      vals[#vals + 1] = ga.full(ii.size, -1, "float32")
    end
    local A = sparse.coo_matrix({ ga.concatenate(vals), { ga.concatenate(rows) + 1, ga.concatenate(cols) + 1 } },
      { shape = { n, n } }):tocsr()
    cache[side] = { A, ga.ones(n, "float32") }
    return A, cache[side][2]
  end
  B.poisson = poisson   -- for tools/probe/gmres_prof.lua

  local function counting(A)
    local count = { 0 }
    local op = L.LinearOperator(A.shape, function(v)
      count[1] = count[1] + 1
      return A:dot(v)
    end, nil, nil, A.dtype)
    return op, count
  end

  B.case("cg_poisson_1024^2_200it_ms", function()
    local A, b = poisson(1024)
    local its = 0
    L.cg(A, b, { rtol = 0, atol = 0, maxiter = 200, callback = function() its = its + 1 end })
    if its ~= 200 then error(("cg ran %d iterations, not 200"):format(its)) end
    return B.gpu_ms(function() return L.cg(A, b, { rtol = 0, atol = 0, maxiter = 200 }) end, 5)
  end)

  B.case("gmres_poisson_1024^2_200it_ms", function()
    -- SciPy's maxiter counts restart cycles: 10 cycles of 20 are CuPy's 200
    -- Arnoldi steps; a residual after each cycle (CuPy also computes one
    -- before the first: 211 products there, 210 here with x0 = 0)
    local A, b = poisson(1024)
    local op, count = counting(A)
    L.gmres(op, b, { rtol = 0, atol = 0, restart = 20, maxiter = 10 })
    if count[1] ~= 210 then error(("gmres made %d products, not 200 + 10"):format(count[1])) end
    return B.gpu_ms(function() return L.gmres(A, b, { rtol = 0, atol = 0, restart = 20, maxiter = 10 }) end, 5)
  end)

  B.case("spsolve_poisson_256^2_ms", function()
    local A, b = poisson(256)
    local x = L.spsolve(A, b)
    local res = ga.linalg.norm(ga.subtract(A:dot(x), b)):item() / ga.linalg.norm(b):item()
    if res ~= res or res >= 1e-3 then error(("spsolve's relative residual is %g"):format(res)) end
    return B.gpu_ms(function() return L.spsolve(A, b) end, 5)
  end)

  B.case("eigsh_k6_poisson_256^2_ms", function()
    -- CuPy's maxiter=200 with ncv = 38: passes until 200 steps have run,
    -- 38 + 6 x 32 = 230 products; here maxiter counts passes: 7
    local A = poisson(256)
    local op, count = counting(A)
    L.eigsh(op, { k = 6, which = "LM", maxiter = 7, tol = 0 })
    if count[1] ~= 230 then error(("eigsh made %d products, not 230"):format(count[1])) end
    return B.gpu_ms(function() return L.eigsh(A, { k = 6, which = "LM", maxiter = 7, tol = 0 }) end, 5)
  end)
end
