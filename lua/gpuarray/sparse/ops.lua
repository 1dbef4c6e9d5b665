--- ga.sparse arithmetic: S:dot(x) / ga.sparse.matmul (SpMV, SpMM, SpGEMM
-- through cuSPARSE), the operators (+ - * / unary - ^), elementwise
-- multiply / maximum / minimum / power, the value-wise functions CuPy's
-- sparse matrices have (abs sqrt sin tan ... on the stored values, which
-- keep zeros zero), conj, real, imag, and the reductions sum, mean, max,
-- min, argmax, argmin, diagonal, trace, count_nonzero, getnnz, nonzero,
-- getrow, getcol.
--
-- Elementwise operations of two sparse matrices run on the union (or, for
-- multiply, the intersection) of their canonical (row * n + col) keys:
-- each side's value at a key comes from a binary search into its sorted
-- keys; the result drops zeros, as SciPy's. Row and column reductions are
-- one thread per row (or column, through CSC) over its sorted entries.
return function(ga, SP)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local fail, is_array = internal.fail, internal.is_array
  local sparse, methods, MT = ga.sparse, SP.methods, SP.MT
  local issparse = SP.issparse

  local function shape_str(S)
    return ("{%d,%d}"):format(S._shape[1], S._shape[2])
  end

  -- the CSR arrays cuSPARSE multiplies for S, and whether to transpose
  local function csr_operand(S)
    if S.format == "coo" or S.format == "dia" then S = SP.tocsr(S) end
    return S, S.format == "csc"
  end

  -- the common value dtype of a matrix and an operand
  local function common(S, t)
    return SP.value_dtype(ga.result_type(S.data.dtype, t), "sparse.matmul")
  end

  local function canonical_csr(S)
    local C = SP.tocsr(S)
    if not C._canon then C = SP.tocsr(SP.tocoo(C)) end
    return C
  end
  SP.canonical_csr = canonical_csr

  local function spgemm(A, B)
    local m, k, n = A._shape[1], A._shape[2], B._shape[2]
    local t = common(A, B.data.dtype)
    A = canonical_csr(A)
    B = canonical_csr(B)
    if A.data.dtype ~= t then A = SP.astype(A, t) end
    if B.data.dtype ~= t then B = SP.astype(B, t) end
    if A.data.size == 0 or B.data.size == 0 then return SP.empty("csr", { m, n }, t) end
    local p, i, d = core.sparse.gemm(m, k, n, A._indptr, A._indices, A.data, B._indptr, B._indices, B.data)
    local C = SP.new("csr", { m, n }, d, p, i)
    C._canon = true
    return C
  end

  --- S x: x a dense vector (SpMV), a dense matrix (SpMM) or a sparse
  -- matrix (SpGEMM, a CSR result)
  local function dot(S, x)
    local m, n = S._shape[1], S._shape[2]
    if issparse(x) then
      if x._shape[1] ~= n then
        fail(("sparse.matmul: shapes %s and %s are not aligned"):format(shape_str(S), shape_str(x)))
      end
      return SP.like(S, spgemm(S, x))
    end
    if not is_array(x) then x = ga.asarray(x) end
    if x.ndim ~= 1 and x.ndim ~= 2 then fail("sparse.matmul: the dense operand must be 1-D or 2-D") end
    if x.shape[1] ~= n then
      fail(("sparse.matmul: shapes %s and %s are not aligned"):format(shape_str(S), internal.shape_str(x.shape)))
    end
    local t = common(S, x.dtype)
    -- SpMV takes CSC as the transpose of its CSR arrays; SpMM gets CSR
    local A, trans = csr_operand(x.ndim == 2 and SP.tocsr(S) or S)
    if A.data.dtype ~= t then A = SP.astype(A, t) end
    x = ga.ascontiguousarray(x:astype(t))
    local rows = trans and n or m        -- the CSR arrays' own rows
    local cols = trans and m or n
    if x.ndim == 1 then return core.sparse.mv(rows, cols, A._indptr, A._indices, A.data, x, trans) end
    return core.sparse.mm(rows, cols, A._indptr, A._indices, A.data, x, trans)
  end
  SP.dot = dot

  def(methods, [[
spmatrix:dot(other: sparse|array_like) -> spmatrix|ndarray
The matrix product: a dense vector or matrix gives an ndarray (cuSPARSE SpMV / SpMM), a sparse matrix
a CSR matrix (SpGEMM).
]], dot)

  def(sparse, [[
sparse.matmul(a: sparse, b: sparse|array_like) -> spmatrix|ndarray
The product of a sparse matrix and a dense or sparse operand (S:dot(b)).
]], function(a, b) return dot(a, b) end)

  ---------------------------------------------------------------------------
  -- the values
  ---------------------------------------------------------------------------

  -- S with new values on the same structure (same format and arrays)
  local function with_data(S, data)
    local R
    if S.format == "dia" then R = SP.new("dia", S._shape, data, S._offsets)
    else R = SP.new(S.format, S._shape, data, S._row or S._indptr, S._col or S._indices) end
    R._canon = S._canon
    return SP.like(S, R)
  end
  SP.with_data = with_data

  -- S with duplicates summed (a value-wise function must see each entry once)
  local function deduped(S)
    if S._canon or S.format == "dia" then return S end
    local R = SP.copy(S)
    R:sum_duplicates()
    return R
  end

  local function scale(S, s)
    return with_data(S, ga.multiply(S.data, s))
  end

  -- the functions CuPy's sparse matrices apply to their stored values
  -- (each maps 0 to 0, so the structure stays)
  local VALUEWISE = { "abs", "sqrt", "expm1", "log1p", "sin", "tan", "arcsin", "arctan", "sinh", "tanh", "arcsinh",
    "arctanh", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "rint", "sign" }
  for _, name in ipairs(VALUEWISE) do
    def(methods, ([[
spmatrix:%s() -> spmatrix
%s of the stored values (duplicates summed first), the structure kept: 0 maps to 0.
]]):format(name, name), function(S)
      local D = deduped(S)
      return with_data(D, ga[name](D.data))
    end)
  end

  def(methods, [[
spmatrix:conj(copy: boolean = true) -> spmatrix
The complex conjugate (the matrix itself for real values unless copy).
]], function(S, copy)
    if not S.dtype:match("complex") then return copy and SP.copy(S) or S end
    return with_data(S, ga.conj(S.data))
  end)
  methods.conjugate = methods.conj
  api.alias("spmatrix:conjugate", methods.conj)

  -- S.real and S.imag (attributes, as SciPy's)
  function methods._real_part(S)
    local D = deduped(S)
    return with_data(D, ga.ascontiguousarray(ga.real(D.data)))
  end
  function methods._imag_part(S)
    local D = deduped(S)
    return with_data(D, ga.ascontiguousarray(ga.imag(D.data)))
  end

  def(methods, [[
spmatrix:power(n: number, dtype: dtype?) -> spmatrix
Each stored value to the power n (elementwise; n = 0 would make every entry 1 and raises, as SciPy).
]], function(S, n, dtype)
    if n == 0 then fail("spmatrix.power: zero power is not supported as it would densify the matrix") end
    local D = deduped(S)
    local d = ga.power(D.data, n)
    if dtype then d = d:astype(SP.value_dtype(dtype, "spmatrix.power")) end
    return with_data(D, d)
  end)

  ---------------------------------------------------------------------------
  -- elementwise with another matrix
  ---------------------------------------------------------------------------

  -- canonical keys (row * n + col, int64 sorted) and values of S
  local function keyed(S)
    local C = canonical_csr(S)
    local c = SP.tocoo(C)
    local n = S._shape[2]
    return c._row:astype("int64") * n + c._col, c.data
  end

  -- the values of (ks, vs) at keys U (0 where absent)
  local function lookup(ks, vs, U, t)
    if ks.size == 0 or U.size == 0 then return ga.zeros(U.size, t) end
    local pos = ga.searchsorted(ks, U, "left")                         -- 1-based insertion points
    local clamped = ga.minimum(pos, ks.size)
    local found = ga.equal(ks:take(clamped), U)
    return ga.where(found, vs:take(clamped):astype(t), 0):astype(t)
  end

  local function from_keys(U, vals, shape, kind_of)
    local keep = ga.not_equal(vals, 0)
    local k = U[keep]
    local n = shape[2]
    local R = SP.new("coo", shape, vals[keep], (k // n):astype("int32"), (k % n):astype("int32"))
    R._canon = true
    return SP.like(kind_of, SP.tocsr(R))
  end

  local function same_shape(a, b, what)
    if a._shape[1] ~= b._shape[1] or a._shape[2] ~= b._shape[2] then
      fail(("%s: inconsistent shapes %s and %s"):format(what, shape_str(a), shape_str(b)))
    end
  end

  -- f(va, vb) on the union of the keys of two sparse matrices
  local function union_op(a, b, f, what)
    same_shape(a, b, what)
    local t = SP.value_dtype(ga.result_type(a.dtype, b.dtype), what)
    local ka, va = keyed(a)
    local kb, vb = keyed(b)
    if ka.size + kb.size == 0 then return SP.like(a, SP.empty("csr", a._shape, t)) end
    local U = ga.unique(ga.concatenate({ ka, kb }))
    return from_keys(U, f(lookup(ka, va, U, t), lookup(kb, vb, U, t)), a._shape, a)
  end
  SP.union_op = union_op

  local function add_sparse(a, b) return union_op(a, b, ga.add, "sparse: +") end

  -- S op D for a dense D: dense, as SciPy
  local function dense_of(x, S, what)
    if not is_array(x) then x = ga.asarray(x) end
    local ok = pcall(ga.broadcast_shapes, x.shape, S._shape)
    if not ok then
      fail(("%s: shapes %s and %s cannot be broadcast"):format(what, shape_str(S), internal.shape_str(x.shape)))
    end
    return x
  end

  MT.__add = function(a, b)
    if issparse(a) and issparse(b) then return add_sparse(a, b) end
    local S, x = a, b
    if not issparse(a) then S, x = b, a end
    if type(x) == "number" then
      if x == 0 then return SP.copy(S) end
      fail("sparse: adding a nonzero scalar to a sparse matrix is not supported")
    end
    return ga.add(S:toarray(), dense_of(x, S, "sparse: +"))
  end
  MT.__sub = function(a, b)
    if issparse(a) and issparse(b) then return union_op(a, b, ga.subtract, "sparse: -") end
    if issparse(a) then
      if type(b) == "number" then
        if b == 0 then return SP.copy(a) end
        fail("sparse: subtracting a nonzero scalar from a sparse matrix is not supported")
      end
      return ga.subtract(a:toarray(), dense_of(b, a, "sparse: -"))
    end
    if type(a) == "number" then
      if a == 0 then return scale(b, -1) end
      fail("sparse: subtracting a sparse matrix from a nonzero scalar is not supported")
    end
    return ga.subtract(dense_of(a, b, "sparse: -"), b:toarray())
  end
  MT.__unm = function(S) return scale(S, -1) end

  --- elementwise product with a sparse matrix (the intersection of the
  -- structures), a dense array (its values at the stored positions,
  -- broadcast) or a number
  local function multiply(S, other)
    if type(other) == "number" or (is_array(other) and other.ndim == 0) then return scale(S, other) end
    if issparse(other) then
      same_shape(S, other, "spmatrix.multiply")
      local t = SP.value_dtype(ga.result_type(S.dtype, other.dtype), "spmatrix.multiply")
      local ka, va = keyed(S)
      local kb, vb = keyed(other)
      local vbs = lookup(kb, vb, ka, t)
      return from_keys(ka, ga.multiply(va:astype(t), vbs), S._shape, S)
    end
    local D = other
    if not is_array(D) then D = ga.asarray(D) end
    local ok, shape = pcall(ga.broadcast_shapes, D.shape, S._shape)
    if not ok then
      fail(("spmatrix.multiply: shapes %s and %s cannot be broadcast"):format(shape_str(S),
        internal.shape_str(D.shape)))
    end
    if shape[1] ~= S._shape[1] or shape[2] ~= S._shape[2] or #shape ~= 2 then
      -- broadcasting past the matrix's shape: dense
      return ga.multiply(S:toarray(), D)
    end
    local c = SP.tocoo(deduped(S))
    local Db = ga.ascontiguousarray(ga.broadcast_to(D, S._shape)):reshape(-1)
    local vals = ga.multiply(c.data, Db:take(c._row:astype("int64") * S._shape[2] + c._col + 1))
    local t = SP.value_dtype(vals.dtype, "spmatrix.multiply")
    local R = SP.new("coo", S._shape, vals:astype(t), c._row, c._col)
    R._canon = c._canon
    return SP.like(S, SP.tocsr(R))
  end

  def(methods, [[
spmatrix:multiply(other: sparse|number|array_like) -> spmatrix|ndarray
The elementwise product with a sparse matrix, a number or a dense array (broadcast); sparse unless the
dense operand broadcasts past the matrix's shape.
]], multiply)

  local function extremum(f, name)
    return function(S, other)
      if issparse(other) then return union_op(S, other, f, "spmatrix." .. name) end
      if type(other) == "number" then
        if f(0, other) ~= 0 then return f(S:toarray(), other) end    -- dense, as SciPy
        local D = deduped(S)
        local c = SP.tocoo(D)
        local R = SP.new("coo", S._shape, f(c.data, other), c._row, c._col)
        R._canon = c._canon
        R = SP.like(S, SP.tocsr(R))
        R:eliminate_zeros()
        return R
      end
      return f(S:toarray(), other)
    end
  end
  local function lua_or_ga(g, h)
    return function(a, b)
      if type(a) == "number" and type(b) == "number" then return g(a, b) end
      return h(a, b)
    end
  end
  def(methods, [[
spmatrix:maximum(other: sparse|number|array_like) -> spmatrix|ndarray
The elementwise maximum with a sparse matrix (sparse), a number (sparse when max(0, other) = 0, else
dense) or a dense array (dense).
]], extremum(lua_or_ga(math.max, ga.maximum), "maximum"))
  def(methods, [[
spmatrix:minimum(other: sparse|number|array_like) -> spmatrix|ndarray
The elementwise minimum with a sparse matrix (sparse), a number (sparse when min(0, other) = 0, else
dense) or a dense array (dense).
]], extremum(lua_or_ga(math.min, ga.minimum), "minimum"))

  MT.__mul = function(a, b)
    if issparse(a) and (type(b) == "number" or (is_array(b) and b.ndim == 0)) then return scale(a, b) end
    if issparse(b) and (type(a) == "number" or (is_array(a) and a.ndim == 0)) then return scale(b, a) end
    if issparse(a) then
      if a._array then return multiply(a, b) end
      return dot(a, b)
    end
    if b._array then return multiply(b, a) end
    -- dense times sparse: (S^T D^T)^T
    if not is_array(a) then a = ga.asarray(a) end
    if a.ndim == 1 then return dot(SP.transpose(b), a) end
    return dot(SP.transpose(b), a:swapaxes(1, 2)):swapaxes(1, 2)
  end

  MT.__div = function(a, b)
    if issparse(a) and (type(b) == "number" or (is_array(b) and b.ndim == 0)) then
      return with_data(a, ga.divide(a.data, b))
    end
    if issparse(a) and issparse(b) then return ga.divide(a:toarray(), b:toarray()) end
    if issparse(a) then return ga.divide(a:toarray(), b) end
    return ga.divide(a, b:toarray())
  end

  MT.__pow = function(S, p)
    if not issparse(S) then fail("sparse: ^ takes a sparse matrix and a number") end
    if S._array then return S:power(p) end
    if math.type(p) ~= "integer" then fail("sparse: the matrix power needs an integer exponent") end
    if S._shape[1] ~= S._shape[2] then fail("sparse: the matrix power needs a square matrix") end
    if p < 0 then fail("sparse: exponent must be >= 0") end
    if p == 0 then return sparse.eye(S._shape[1], { dtype = S.dtype, format = "csr" }) end
    local r, base = nil, S
    while p > 0 do
      if p & 1 == 1 then r = r and dot(r, base) or base end
      p = p >> 1
      if p > 0 then base = dot(base, base) end
    end
    return r == S and SP.copy(S) or r
  end

  ---------------------------------------------------------------------------
  -- reductions
  ---------------------------------------------------------------------------

  local function axis_of(axis, fname)
    if axis == nil then return nil end
    if type(axis) == "table" then
      if #axis == 2 then return nil end
      axis = axis[1]
    end
    if axis == 1 or axis == -2 then return 1 end
    if axis == 2 or axis == -1 then return 2 end
    fail(("%s: axis must be nil, 1 or 2, got %s"):format(fname, tostring(axis)))
  end

  local function sum(S, axis, dtype, out)
    axis = axis_of(axis, "spmatrix.sum")
    local t = dtype and ga.dtype(dtype).name
    local r
    if axis == nil then
      local d = S.format == "dia" and SP.tocoo(S).data or S.data
      r = ga.sum(d, t and { dtype = t } or nil)
    else
      local m, n = S._shape[1], S._shape[2]
      local x = ga.ones(axis == 1 and m or n, S.dtype)
      r = axis == 1 and dot(SP.transpose(S), x) or dot(S, x)
      if t then r = r:astype(t) end
    end
    if out then
      internal.check_out(out, r.shape, "spmatrix.sum")
      out:set(r)
      return out
    end
    return r
  end

  def(methods, [[
spmatrix:sum(axis: axis?, dtype: dtype?, out: ndarray?) -> ndarray
The sum of every entry (a 0-d array), or along axis 1 (one value per column) or 2 (one per row), 1-D.
]], sum)

  def(methods, [[
spmatrix:mean(axis: axis?, dtype: dtype?, out: ndarray?) -> ndarray
The mean of every entry (implicit zeros included), or along axis 1 or 2.
]], function(S, axis, dtype, out)
    local a = axis_of(axis, "spmatrix.mean")
    local m, n = S._shape[1], S._shape[2]
    local count = a == nil and m * n or a == 1 and m or n
    local s = sum(S, a, dtype)
    local r = ga.divide(s, count)
    if S.dtype == "float32" and not dtype then r = r:astype("float32") end
    if out then
      internal.check_out(out, r.shape, "spmatrix.mean")
      out:set(r)
      return out
    end
    return r
  end)

  local reduce_k = {}
  --- per-row extremum of a canonical CSR matrix (one thread a row, the
  -- implicit zeros counted when the row is not full): value and 1-based
  -- column of its first occurrence
  function SP.row_extremum_kernel(kind)
    if reduce_k[kind] then return reduce_k[kind] end
    local better = kind == "max" and "ga_lt(best, v)" or "ga_lt(v, best)"
    reduce_k[kind] = ga.ElementwiseKernel("int32 start, int32 stop, raw T data, raw int32 idx, int64 ncols",
      "T val, int64 pos", ([[
      T best = T(0); long long at = -1; bool have = false;
      for (int e = start; e < stop; e++) {
        T v = data[e];
        if (!have || %s) { best = v; at = idx[e]; have = true; }
      }
      long long count = stop - start;
      if (count < ncols) {
        // the first column that is not stored holds an implicit zero
        long long z = 0;
        for (int e = start; e < stop && idx[e] == z; e++) z++;
        T v = T(0);
        if (!have || %s || (!ga_lt(v, best) && !ga_lt(best, v) && z < at)) { best = v; at = z; have = true; }
      }
      val = best;
      pos = have ? at + 1 : 0;]]):format(better, better), "ga_sparse_row_" .. kind)
    return reduce_k[kind]
  end

  -- value and 1-based index of the extremum of each row (axis 2) or column
  -- (axis 1), or of the whole matrix (axis nil: flat 1-based index)
  local function extreme(S, axis, kind, fname)
    local m, n = S._shape[1], S._shape[2]
    if m * n == 0 then fail(fname .. ": zero-size array to reduction operation which has no identity") end
    axis = axis_of(axis, fname)
    if axis == nil then
      -- the extremum of the rows' extrema, then its flat position
      local v, p = extreme(S, 2, kind, fname)
      local f = kind == "max" and ga.argmax or ga.argmin
      local r = f(v):item()
      local val = v[{ { r, r } }]:reshape({})
      return val, (r - 1) * n + p[r]
    end
    -- rows of S, or of S^T for the columns (complex values order
    -- lexicographically, as NumPy's)
    local C = canonical_csr(axis == 2 and S or SP.transpose(S))
    local rows = axis == 2 and m or n
    local cols = axis == 2 and n or m
    local k = SP.row_extremum_kernel(kind)
    local val, pos = ga.empty(rows, C.dtype), ga.empty(rows, "int64")
    if rows > 0 then
      k(C._indptr[{ { 1, rows } }], C._indptr[{ { 2, rows + 1 } }], C.data, C._indices, cols, val, pos)
    end
    return val, pos
  end

  for _, kind in ipairs({ "max", "min" }) do
    def(methods, ([[
spmatrix:%s(axis: axis?, out: ndarray?) -> ndarray
The %s of every entry, implicit zeros included (a 0-d array), or along axis 1 (one per column) or 2
(one per row), 1-D.
]]):format(kind, kind == "max" and "largest" or "smallest"), function(S, axis, out)
      local v = extreme(S, axis, kind, "spmatrix." .. kind)
      if out then
        internal.check_out(out, v.shape, "spmatrix." .. kind)
        out:set(v)
        return out
      end
      return v
    end)
    def(methods, ([[
spmatrix:arg%s(axis: axis?, out: ndarray?) -> ndarray|integer
The 1-based position of the %s: a flat index over the whole matrix (row-major), or the row (axis 1)
or column (axis 2) of each column's or row's; the first occurrence, implicit zeros included.
]]):format(kind, kind == "max" and "largest entry" or "smallest entry"), function(S, axis, out)
      local _, p = extreme(S, axis, kind, "spmatrix.arg" .. kind)
      if type(p) == "number" then return math.tointeger(p) end
      if out then
        internal.check_out(out, p.shape, "spmatrix.arg" .. kind)
        out:set(p)
        return out
      end
      return p
    end)
  end

  local function diagonal(S, k)
    local m, n = S._shape[1], S._shape[2]
    local r0 = k < 0 and -k or 0
    local count = math.max(0, math.min(m - r0, n - r0 - k))
    local out = ga.zeros(count, S.dtype)
    if count == 0 then return out end
    local c = SP.tocoo(S)
    local on = ga.equal(ga.subtract(c._col:astype("int64"), c._row:astype("int64")), k)
    local rows = c._row[on]
    if rows.size > 0 then SP.add_kernel()(rows:astype("int64") - r0, c.data[on], out) end
    return out
  end

  def(methods, [[
spmatrix:diagonal(k: integer = 0) -> ndarray
The k-th diagonal (k > 0 above the main one), duplicates summed.
]], diagonal)

  def(methods, [[
spmatrix:trace(offset: integer = 0) -> ndarray
The sum of the offset-th diagonal (a 0-d array).
]], function(S, offset) return ga.sum(diagonal(S, offset)) end)

  def(methods, [[
spmatrix:count_nonzero() -> integer
The number of nonzero entries (duplicates summed, stored zeros not counted). Reads back.
]], function(S)
    local c = SP.tocoo(deduped(S))
    if c.data.size == 0 then return 0 end
    return math.tointeger(ga.count_nonzero(c.data):item())
  end)

  def(methods, [[
spmatrix:getnnz(axis: axis?) -> integer|ndarray
The number of stored entries (explicit zeros and duplicates included), or per column (axis 1) or row
(axis 2).
]], function(S, axis)
    axis = axis_of(axis, "spmatrix.getnnz")
    if axis == nil then return S.nnz end
    local c = SP.tocoo(S)
    local idx = axis == 1 and c._col or c._row
    local len = axis == 1 and S._shape[2] or S._shape[1]
    return ga.bincount(idx:astype("int64"), { minlength = len })
  end)

  def(methods, [[
spmatrix:nonzero() -> ndarray, ndarray
The 1-based rows and columns of the nonzero entries (duplicates summed), sorted by row then column.
]], function(S)
    local c = SP.tocoo(canonical_csr(S))
    local keep = ga.not_equal(c.data, 0)
    return (c._row[keep] + 1):astype("int64"), (c._col[keep] + 1):astype("int64")
  end)

  local function pick_row(S, i, fname)
    local m = S._shape[1]
    if math.type(i) ~= "integer" then fail(fname .. ": the index must be an integer") end
    local r = i < 0 and m + i + 1 or i
    if r < 1 or r > m then fail(("%s: index %d is out of range for %d rows"):format(fname, i, m)) end
    local C = canonical_csr(S)
    local a, b = C._indptr[r], C._indptr[r + 1]
    local R
    if b > a then
      R = SP.new("csr", { 1, S._shape[2] }, C.data[{ { a + 1, b } }]:copy(), ga.array({ 0, b - a }, "int32"),
        C._indices[{ { a + 1, b } }]:copy())
    else
      R = SP.empty("csr", { 1, S._shape[2] }, S.dtype)
    end
    R._canon = true
    return SP.like(S, R)
  end

  def(methods, [[
spmatrix:getrow(i: integer) -> spmatrix
Row i (1-based; negative from the end) as a 1 x n CSR matrix.
]], function(S, i) return pick_row(S, i, "spmatrix.getrow") end)

  def(methods, [[
spmatrix:getcol(j: integer) -> spmatrix
Column j (1-based; negative from the end) as an m x 1 CSC matrix.
]], function(S, j) return SP.transpose(pick_row(SP.transpose(S), j, "spmatrix.getcol")) end)
end
