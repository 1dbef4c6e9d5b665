--- ga.sparse products and arithmetic: S:dot(x) / ga.sparse.matmul (SpMV,
-- SpMM, SpGEMM through cuSPARSE), S * scalar, S + S, S:sum([axis]); the
-- constructors eye, diags and random.
return function(ga, SP)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail, is_array = internal.fail, internal.is_array
  local sparse, methods, MT = ga.sparse, SP.methods, SP.MT
  local issparse = sparse.issparse

  local function shape_str(S)
    return ("{%d,%d}"):format(S._shape[1], S._shape[2])
  end

  -- the CSR arrays cuSPARSE multiplies for S, and whether to transpose
  local function csr_operand(S)
    if S.format == "coo" then S = S:tocsr() end
    return S, S.format == "csc"
  end

  -- the common value dtype of a matrix and an operand
  local function common(S, t)
    return SP.value_dtype(ga.result_type(S.data.dtype, t), "sparse.matmul")
  end

  local function spgemm(A, B)
    local m, k, n = A._shape[1], A._shape[2], B._shape[2]
    local t = common(A, B.data.dtype)
    A = A:tocsr()
    B = B:tocsr()
    if not A._canon then A = A:tocoo():tocsr() end
    if not B._canon then B = B:tocoo():tocsr() end
    if A.data.dtype ~= t then A = A:astype(t) end
    if B.data.dtype ~= t then B = B:astype(t) end
    if A.data.size == 0 or B.data.size == 0 then return SP.empty("csr", { m, n }, t) end
    local p, i, d = core.sparse.gemm(m, k, n, A._indptr, A._indices, A.data, B._indptr, B._indices, B.data)
    local C = SP.new("csr", { m, n }, d, p, i)
    C._canon = true
    return C
  end

  --- S:dot(x): x a dense vector (SpMV), a dense matrix (SpMM) or a sparse
  -- matrix (SpGEMM, a CSR result)
  function methods.dot(S, x)
    local m, n = S._shape[1], S._shape[2]
    if issparse(x) then
      if x._shape[1] ~= n then
        fail(("sparse.matmul: shapes %s and %s are not aligned"):format(shape_str(S), shape_str(x)))
      end
      return spgemm(S, x)
    end
    if not is_array(x) then x = ga.asarray(x) end
    if x.ndim ~= 1 and x.ndim ~= 2 then fail("sparse.matmul: the dense operand must be 1-D or 2-D") end
    if x.shape[1] ~= n then
      fail(("sparse.matmul: shapes %s and %s are not aligned"):format(shape_str(S), internal.shape_str(x.shape)))
    end
    local t = common(S, x.dtype)
    -- SpMV takes CSC as the transpose of its CSR arrays; SpMM gets CSR
    local A, trans = csr_operand(x.ndim == 2 and S:tocsr() or S)
    if A.data.dtype ~= t then A = A:astype(t) end
    x = ga.ascontiguousarray(x:astype(t))
    local rows = trans and n or m        -- the CSR arrays' own rows
    local cols = trans and m or n
    if x.ndim == 1 then return core.sparse.mv(rows, cols, A._indptr, A._indices, A.data, x, trans) end
    return core.sparse.mm(rows, cols, A._indptr, A._indices, A.data, x, trans)
  end
  function sparse.matmul(a, b)
    if not issparse(a) then fail("sparse.matmul: the first operand must be a sparse matrix") end
    return a:dot(b)
  end

  local function scale(S, s)
    local R = SP.new(S.format, S._shape, S.data * s, S._row or S._indptr, S._col or S._indices)
    R._canon = S._canon
    return R
  end

  MT.__mul = function(a, b)
    if issparse(a) and type(b) == "number" then return scale(a, b) end
    if issparse(b) and type(a) == "number" then return scale(b, a) end
    if issparse(a) and (is_array(b) or issparse(b)) then return a:dot(b) end
    fail("sparse: * takes a sparse matrix and a number (or a matrix operand: the product)")
  end
  MT.__unm = function(S) return scale(S, -1) end

  --- S + S2 (same shape): a CSR matrix
  MT.__add = function(a, b)
    if not (issparse(a) and issparse(b)) then fail("sparse: + takes two sparse matrices") end
    if a._shape[1] ~= b._shape[1] or a._shape[2] ~= b._shape[2] then
      fail(("sparse: + needs one shape, got %s and %s"):format(shape_str(a), shape_str(b)))
    end
    local t = common(a, b.data.dtype)
    local ca, cb = a:tocoo(), b:tocoo()
    local c = SP.new("coo", a._shape, ga.concatenate({ ca.data:astype(t), cb.data:astype(t) }),
      ga.concatenate({ ca._row, cb._row }), ga.concatenate({ ca._col, cb._col }))
    return c:tocsr()
  end
  MT.__sub = function(a, b)
    if not (issparse(a) and issparse(b)) then fail("sparse: - takes two sparse matrices") end
    return a + scale(b, -1)
  end

  --- S:sum([axis]): every entry (a 0-d array), or along axis 1 (one value
  -- per column) or 2 (one per row), as 1-D arrays
  function methods.sum(S, axis)
    if type(axis) == "table" then axis = axis.axis end
    if axis == nil then return S.data:sum() end
    local m, n = S._shape[1], S._shape[2]
    if axis == 1 or axis == -2 then return S:transpose():dot(ga.ones(m, S.data.dtype)) end
    if axis == 2 or axis == -1 then return S:dot(ga.ones(n, S.data.dtype)) end
    fail(("sparse.sum: axis must be nil, 1 or 2, got %s"):format(tostring(axis)))
  end

  local function finish(c, fmt)
    fmt = fmt or "csr"
    if fmt == "coo" then return c end
    if fmt ~= "csr" and fmt ~= "csc" then fail("sparse: format must be \"coo\", \"csr\" or \"csc\"") end
    return c["to" .. fmt](c)
  end

  -- the positions of diagonal k of an m x n matrix: 0-based rows (int32), count
  local function diagonal(m, n, k)
    local r0 = k < 0 and -k or 0
    local count = math.max(0, math.min(m - r0, n - r0 - k))
    return ga.arange(r0, r0 + count, "int32"), count
  end

  --- ga.sparse.eye(m[, n][, {k=, dtype=, format=}])
  function sparse.eye(m, n, opts)
    if type(n) == "table" then n, opts = nil, n end
    opts = internal.opts(opts, "sparse.eye")
    n = n or m
    SP.check_shape({ m, n }, "sparse.eye")
    local k = opts.k or 0
    internal.integer(k, "sparse.eye", "k")
    local r, count = diagonal(m, n, k)
    local t = SP.value_dtype(opts.dtype or "float64", "sparse.eye")
    return finish(SP.new("coo", { m, n }, ga.ones(count, t), r, r + k), opts.format)
  end

  --- ga.sparse.diags(diagonals[, offsets][, {shape=, dtype=, format=}]):
  -- diagonals a list of lists/arrays (or one), offsets an integer or a list
  function sparse.diags(diagonals, offsets, opts)
    if type(offsets) == "table" and offsets[1] == nil and not is_array(offsets) then offsets, opts = nil, offsets end
    opts = internal.opts(opts, "sparse.diags")
    offsets = offsets or 0
    if type(diagonals) ~= "table" and not is_array(diagonals) then
      fail("sparse.diags: diagonals must be a list or an ndarray, got " .. type(diagonals))
    end
    if is_array(diagonals) or type(diagonals[1]) ~= "table" and not is_array(diagonals[1]) then
      diagonals = { diagonals }
    end
    if type(offsets) ~= "table" then offsets = { offsets } end
    if #offsets ~= #diagonals then
      fail(("sparse.diags: %d diagonals but %d offsets"):format(#diagonals, #offsets))
    end
    for _, k in ipairs(offsets) do
      if math.type(k) ~= "integer" then fail("sparse.diags: offsets must be integers, got " .. tostring(k)) end
    end
    local ds = {}
    for i, d in ipairs(diagonals) do ds[i] = is_array(d) and d or ga.array(d) end
    local shape = opts.shape
    if not shape then
      local m = ds[1].size + math.abs(offsets[1])
      shape = { m, m }
    end
    SP.check_shape(shape, "sparse.diags")
    local dts = { opts.dtype }
    for _, d in ipairs(ds) do dts[#dts + 1] = d.dtype end
    local t = ga.result_type(table.unpack(dts))   -- all at once (order-free)
    t = SP.value_dtype(t, "sparse.diags")
    local rows, cols, vals = {}, {}, {}
    for i, d in ipairs(ds) do
      local k = offsets[i]
      local r, count = diagonal(shape[1], shape[2], k)
      if d.size ~= 1 and d.size < count then
        fail(("sparse.diags: diagonal %d has %d values, offset %d needs %d"):format(i, d.size, k, count))
      end
      rows[i], cols[i] = r, r + k
      if count == 0 then vals[i] = ga.zeros(0, t)
      elseif d.size == 1 then vals[i] = ga.full(count, d:item(), t)
      else vals[i] = d[{ { 1, count } }]:astype(t) end
    end
    local c = SP.new("coo", shape, ga.concatenate(vals), ga.concatenate(rows), ga.concatenate(cols))
    return finish(c, opts.format)
  end

  --- ga.sparse.random(m, n[, density][, {dtype=, seed=, format=}]): round(density
  -- * m * n) entries at distinct random positions, values uniform in [0, 1)
  function sparse.random(m, n, density, opts)
    if type(density) == "table" then density, opts = nil, density end
    opts = internal.opts(opts, "sparse.random")
    density = density or opts.density or 0.01
    SP.check_shape({ m, n }, "sparse.random")
    if type(density) ~= "number" or density < 0 or density > 1 then
      fail("sparse.random: density must be in [0, 1]")
    end
    local total = m * n
    local k = math.floor(density * total + 0.5)
    local t = SP.value_dtype(opts.dtype or "float64", "sparse.random")
    local rs = ga.random.RandomState(opts.seed)
    local keys = ga.zeros(0, "int64")
    while keys.size < k do
      local draw = rs:randint(0, total, k - keys.size + (k - keys.size) // 64 + 16, "int64")
      keys = ga.unique(ga.concatenate({ keys, draw }))
    end
    if keys.size > k then
      -- keep k of them, chosen by a random permutation (then re-sorted)
      keys = ga.sort(keys:take(rs:permutation(keys.size)[{ { 1, k } }] + 1))
    end
    local rows = (keys // n):astype("int32")
    local vals = rs:random(k, t == "float32" and "float32" or "float64"):astype(t)
    local S = SP.new("csr", { m, n }, vals, SP.compress(rows, m), (keys % n):astype("int32"))
    S._canon = true
    return finish(S, opts.format)
  end
end
