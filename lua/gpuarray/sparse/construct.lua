--- ga.sparse constructors and combinators (SciPy's sparse/_construct.py):
-- eye identity eye_array diags diags_array spdiags random rand random_array
-- kron kronsum hstack vstack bmat block_array block_diag tril triu find,
-- and the array-API names matrix_transpose permute_dims swapaxes.
-- Everything is built in COO on the device (index arithmetic and
-- concatenations) and converted once to the format asked for.
return function(ga, SP)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local sparse = ga.sparse
  local issparse = SP.issparse


  -- c (COO) in format fmt (nil: default)
  local function finish(c, fmt, default)
    fmt = fmt or default or "csr"
    if fmt == "coo" then return c end
    return SP["to" .. fmt](c)
  end

  local function as_array_kind(S, array)
    S._array = array or nil
    return S
  end

  -- the positions of diagonal k of an m x n matrix: 0-based rows (int32), count
  local function diagonal(m, n, k)
    local r0 = k < 0 and -k or 0
    local count = math.max(0, math.min(m - r0, n - r0 - k))
    return ga.arange(r0, r0 + count, "int32"), count
  end

  local function eye(m, n, k, dtype, format, fname)
    n = n or m
    SP.check_shape({ m, n }, fname)
    local r, count = diagonal(m, n, k)
    local t = SP.value_dtype(dtype or "float64", fname)
    local c = SP.new("coo", { m, n }, ga.ones(count, t), r, r + k)
    c._canon = true
    return finish(c, format, "csr")
  end

  def(sparse, [[
sparse.eye(m: integer, n: integer?, k: integer = 0, dtype: dtype = "float64", format: "coo"|"csr"|"csc"|"dia"?)
  -> spmatrix
The m x n sparse matrix with ones on diagonal k (default format CSR).
]], function(m, n, k, dtype, format) return eye(m, n, k, dtype, format, "sparse.eye") end)

  def(sparse, [[
sparse.identity(n: integer, dtype: dtype = "float64", format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
The n x n sparse identity.
]], function(n, dtype, format) return eye(n, n, 0, dtype, format, "sparse.identity") end)

  def(sparse, [[
sparse.eye_array(m: integer, n: integer?, *, k: integer = 0, dtype: dtype = "float64",
                 format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
eye as a sparse array (elementwise * and ^).
]], function(m, n, k, dtype, format) return as_array_kind(eye(m, n, k, dtype, format, "sparse.eye_array"), true) end)

  local function diags(diagonals, offsets, shape, format, dtype, fname)
    if type(diagonals) ~= "table" and not is_array(diagonals) then
      fail(fname .. ": diagonals must be a list or an ndarray, got " .. type(diagonals))
    end
    if is_array(offsets) then offsets = offsets:totable() end
    if type(offsets) ~= "table" then offsets = { offsets } end
    if is_array(diagonals) and diagonals.ndim <= 1 or not is_array(diagonals) and type(diagonals[1]) ~= "table"
        and not is_array(diagonals[1]) then
      diagonals = { diagonals }
    elseif is_array(diagonals) then
      -- one row a diagonal: their count checked before the rows are taken
      -- (a {2^31, 0} array has 2^31 empty rows)
      if diagonals.shape[1] ~= #offsets then
        fail(("%s: %d diagonals but %d offsets"):format(fname, diagonals.shape[1], #offsets))
      end
      local rows = {}
      for i = 1, diagonals.shape[1] do rows[i] = diagonals[i] end
      diagonals = rows
    end
    if #diagonals == 0 then fail(fname .. ": no diagonals given") end
    if #offsets ~= #diagonals then
      fail(("%s: %d diagonals but %d offsets"):format(fname, #diagonals, #offsets))
    end
    for _, k in ipairs(offsets) do
      if math.type(k) ~= "integer" then fail(fname .. ": offsets must be integers, got " .. tostring(k)) end
    end
    local ds = {}
    for i, d in ipairs(diagonals) do ds[i] = is_array(d) and d or ga.array(d) end
    if not shape then
      local m = ds[1].size + math.abs(offsets[1])
      shape = { m, m }
    end
    SP.check_shape(shape, fname)
    local dts = { dtype }
    for _, d in ipairs(ds) do dts[#dts + 1] = d.dtype end
    local t = SP.value_dtype(ga.result_type(table.unpack(dts)), fname)   -- all at once (order-free)
    local rows, cols, vals = {}, {}, {}
    local seen = {}
    for i, d in ipairs(ds) do
      local k = offsets[i]
      if seen[k] then fail(fname .. ": offset array contains duplicate values") end
      seen[k] = true
      local r, count = diagonal(shape[1], shape[2], k)
      if d.size ~= 1 and d.size < count then
        fail(("%s: diagonal %d has %d values, offset %d needs %d"):format(fname, i, d.size, k, count))
      end
      rows[i], cols[i] = r, r + k
      if count == 0 then vals[i] = ga.zeros(0, t)
      elseif d.size == 1 then vals[i] = ga.full(count, d:reshape(1)[1], t)
      else vals[i] = d:reshape(d.size)[{ { 1, count } }]:astype(t) end
    end
    local c = SP.new("coo", shape, ga.concatenate(vals), ga.concatenate(rows), ga.concatenate(cols))
    return finish(c, format, "dia")
  end

  def(sparse, [[
sparse.diags(diagonals: array_like, offsets: integer|list|ndarray = 0, shape: shape?,
             format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
A sparse matrix from diagonals (a list of lists or arrays, or one) placed at offsets (0 the main
diagonal, > 0 above); a diagonal of one value is repeated. Default format DIA.
]], function(d, o, s, f, t) return diags(d, o, s, f, t, "sparse.diags") end)

  def(sparse, [[
sparse.diags_array(diagonals: array_like, *, offsets: integer|list|ndarray = 0, shape: shape?,
                   format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
diags as a sparse array.
]], function(d, o, s, f, t) return as_array_kind(diags(d, o, s, f, t, "sparse.diags_array"), true) end)

  def(sparse, [[
sparse.spdiags(data: array_like, diags: integer|list|ndarray, m: integer|list?, n: integer?,
               format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
The m x n matrix whose diagonal diags[k] holds row k of data, aligned as DIA's layout (data[k, j] is
entry (j - diags[k], j)). m may be the shape {m, n}.
]], function(data, dgs, m, n, format)
    local fname = "sparse.spdiags"
    if type(m) == "table" then m, n = m[1], m[2] end
    if not is_array(data) then data = ga.array(data) end
    if data.ndim == 1 then data = data:reshape(1, data.size) end
    m = m or data.shape[2]
    n = n or m
    local S = SP.dia_from(data, dgs, { m, n }, nil, fname)
    if format == nil or format == "dia" then return S end
    return SP["to" .. format](S)
  end)

  -- k distinct random positions of an m x n matrix (sorted keys) and the
  -- values (uniform [0, 1), or sampler(k) as user code)
  local function random(m, n, density, format, dtype, seed, sampler, fname, default_format)
    SP.check_shape({ m, n }, fname)
    if density < 0 or density > 1 then fail(fname .. ": density expected to be 0 <= density <= 1") end
    local total = m * n
    local k = math.floor(density * total + 0.5)
    local t = SP.value_dtype(dtype or "float64", fname)
    local rs = ga.random.RandomState(seed)
    local keys = ga.zeros(0, "int64")
    while keys.size < k do
      local draw = rs:randint(0, total, k - keys.size + (k - keys.size) // 64 + 16, "int64")
      keys = ga.unique(ga.concatenate({ keys, draw }))
    end
    if keys.size > k then
      -- keep k of them, chosen by a random permutation (then re-sorted)
      keys = ga.sort(keys:take(rs:permutation(keys.size)[{ { 1, k } }] + 1))
    end
    local vals
    if sampler then
      vals = api.call_user(sampler, k)
      if not is_array(vals) then vals = ga.asarray(vals) end
      if vals.size ~= k then fail(("%s: the sampler returned %d values, %d were asked"):format(fname, vals.size, k)) end
      vals = vals:reshape(k):astype(t)
    else
      vals = rs:random(k, (t == "float32" or t == "complex64") and "float32" or "float64"):astype(t)
    end
    local S = SP.new("coo", { m, n }, vals, (keys // n):astype("int32"), (keys % n):astype("int32"))
    S._canon = true
    return finish(S, format, default_format)
  end

  def(sparse, [[
sparse.random(m: integer, n: integer, density: number = 0.01, format: "coo"|"csr"|"csc"|"dia" = "coo",
              dtype: dtype?, random_state|seed: integer?, data_rvs: callable?) -> spmatrix
An m x n matrix with round(density m n) entries at distinct random positions, values uniform in [0, 1)
or data_rvs(k) (a Lua function returning k values).
]], function(m, n, density, format, dtype, seed, rvs)
    return random(m, n, density, format, dtype, seed, rvs, "sparse.random", "coo")
  end)

  def(sparse, [[
sparse.rand(m: integer, n: integer, density: number = 0.01, format: "coo"|"csr"|"csc"|"dia" = "coo",
            dtype: dtype?, random_state|seed: integer?) -> spmatrix
random with uniform values in [0, 1).
]], function(m, n, density, format, dtype, seed)
    return random(m, n, density, format, dtype, seed, nil, "sparse.rand", "coo")
  end)

  def(sparse, [[
sparse.random_array(shape: shape, *, density: number = 0.01, format: "coo"|"csr"|"csc"|"dia" = "coo",
                    dtype: dtype?, random_state|seed: integer?, data_sampler: callable?) -> spmatrix
random as a sparse array of the given shape {m, n}.
]], function(shape, density, format, dtype, seed, sampler)
    if type(shape) ~= "table" or #shape ~= 2 then fail("sparse.random_array: shape must be {m, n}") end
    return as_array_kind(random(shape[1], shape[2], density, format, dtype, seed, sampler, "sparse.random_array",
      "coo"), true)
  end)

  ---------------------------------------------------------------------------
  -- combinators
  ---------------------------------------------------------------------------

  local function as_sparse(x, fname)
    if issparse(x) then return x end
    if is_array(x) or type(x) == "table" then
      local D = is_array(x) and x or ga.array(x)
      if D.ndim == 1 then D = D:reshape(1, D.size) end
      if D.ndim ~= 2 then fail(fname .. ": blocks must be 2-D") end
      return SP.from_dense(D, nil, fname)
    end
    fail(("%s: a block must be a sparse matrix or an array, got %s"):format(fname, type(x)))
  end

  local function kron(A, B, format, fname)
    A, B = SP.tocoo(as_sparse(A, fname)), SP.tocoo(as_sparse(B, fname))
    local am, an, bm, bn = A._shape[1], A._shape[2], B._shape[1], B._shape[2]
    local shape = { am * bm, an * bn }
    SP.check_shape(shape, fname)
    local t = SP.value_dtype(ga.result_type(A.dtype, B.dtype), fname)
    local na, nb = A.data.size, B.data.size
    if na == 0 or nb == 0 then return finish(SP.empty("coo", shape, t), format, "csr") end
    -- every pair (a entry, b entry): row = ra bm + rb, col = ca bn + cb
    local ra = A._row:astype("int64"):reshape(na, 1)
    local ca = A._col:astype("int64"):reshape(na, 1)
    local rb = B._row:astype("int64"):reshape(1, nb)
    local cb = B._col:astype("int64"):reshape(1, nb)
    local rows = ga.add(ga.multiply(ra, bm), rb):reshape(-1)
    local cols = ga.add(ga.multiply(ca, bn), cb):reshape(-1)
    local vals = ga.multiply(A.data:astype(t):reshape(na, 1), B.data:astype(t):reshape(1, nb)):reshape(-1)
    local c = SP.new("coo", shape, vals, rows:astype("int32"), cols:astype("int32"))
    return finish(c, format, "csr")
  end

  def(sparse, [[
sparse.kron(A: sparse|array_like, B: sparse|array_like, format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
The Kronecker product of A and B.
]], function(A, B, format) return kron(A, B, format, "sparse.kron") end)

  def(sparse, [[
sparse.kronsum(A: sparse|array_like, B: sparse|array_like, format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
The Kronecker sum kron(I_n, A) + kron(B, I_m) of square A (m x m) and B (n x n).
]], function(A, B, format)
    local fname = "sparse.kronsum"
    A, B = as_sparse(A, fname), as_sparse(B, fname)
    if A._shape[1] ~= A._shape[2] then fail(fname .. ": A is not square") end
    if B._shape[1] ~= B._shape[2] then fail(fname .. ": B is not square") end
    local t = SP.value_dtype(ga.result_type(A.dtype, B.dtype), fname)
    local L = kron(eye(B._shape[1], nil, 0, t, "coo", fname), A, "coo", fname)
    local R = kron(B, eye(A._shape[1], nil, 0, t, "coo", fname), "coo", fname)
    return finish(SP.tocoo(L + R), format, "csr")
  end)

  --- the blocks (a list of lists, nil for an empty block) assembled
  local function bmat(blocks, format, dtype, fname)
    if type(blocks) ~= "table" or is_array(blocks) or issparse(blocks) then
      fail(fname .. ": blocks must be a list of lists")
    end
    local nr = #blocks
    local nc = 0
    for i = 1, nr do
      if type(blocks[i]) ~= "table" or issparse(blocks[i]) or is_array(blocks[i]) then
        fail(fname .. ": blocks must be 2-D (a list of rows of blocks)")
      end
      nc = math.max(nc, #blocks[i])
      if i > 1 and #blocks[i] ~= #blocks[1] then fail(fname .. ": the block rows must have the same length") end
    end
    if nr == 0 or nc == 0 then fail(fname .. ": blocks must not be empty") end
    local heights, widths = {}, {}
    local B = {}
    for i = 1, nr do
      B[i] = {}
      for j = 1, nc do
        local x = blocks[i][j]
        if x ~= nil and x ~= false then
          local S = SP.tocoo(as_sparse(x, fname))
          B[i][j] = S
          local h, w = S._shape[1], S._shape[2]
          if heights[i] and heights[i] ~= h then
            fail(("%s: blocks[%d,:] has incompatible row dimensions: got blocks[%d,%d].shape[1] == %d, expected %d")
              :format(fname, i, i, j, h, heights[i]))
          end
          if widths[j] and widths[j] ~= w then
            fail(("%s: blocks[:,%d] has incompatible column dimensions: got blocks[%d,%d].shape[2] == %d, " ..
              "expected %d"):format(fname, j, i, j, w, widths[j]))
          end
          heights[i], widths[j] = h, w
        end
      end
    end
    for i = 1, nr do if not heights[i] then fail(("%s: blocks[%d,:] is all nil"):format(fname, i)) end end
    for j = 1, nc do if not widths[j] then fail(("%s: blocks[:,%d] is all nil"):format(fname, j)) end end
    local dts = { dtype }
    local rows, cols, vals = {}, {}, {}
    local r0 = 0
    for i = 1, nr do
      local c0 = 0
      for j = 1, nc do
        local S = B[i][j]
        if S then
          dts[#dts + 1] = S.dtype
          rows[#rows + 1] = S._row + r0
          cols[#cols + 1] = S._col + c0
          vals[#vals + 1] = S.data
        end
        c0 = c0 + widths[j]
      end
      r0 = r0 + heights[i]
    end
    local t = SP.value_dtype(ga.result_type(table.unpack(dts)), fname)
    for i, v in ipairs(vals) do vals[i] = v:astype(t) end
    local shape = { r0, 0 }
    for j = 1, nc do shape[2] = shape[2] + widths[j] end
    local c = SP.new("coo", shape, ga.concatenate(vals), ga.concatenate(rows):astype("int32"),
      ga.concatenate(cols):astype("int32"))
    return finish(c, format, "coo")
  end

  def(sparse, [[
sparse.bmat(blocks: list, format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
A sparse matrix from a list of rows of blocks (sparse matrices, arrays, or nil / false for an empty
block); the blocks of a row share their height, of a column their width.
]], function(blocks, format, dtype) return bmat(blocks, format, dtype, "sparse.bmat") end)

  def(sparse, [[
sparse.block_array(blocks: list, *, format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
bmat as a sparse array.
]], function(blocks, format, dtype) return as_array_kind(bmat(blocks, format, dtype, "sparse.block_array"), true) end)

  def(sparse, [[
sparse.hstack(blocks: list, format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
The blocks side by side (one row of bmat).
]], function(blocks, format, dtype)
    if type(blocks) ~= "table" or #blocks == 0 then fail("sparse.hstack: blocks must be a non-empty list") end
    return bmat({ blocks }, format, dtype, "sparse.hstack")
  end)

  def(sparse, [[
sparse.vstack(blocks: list, format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
The blocks stacked vertically (one column of bmat).
]], function(blocks, format, dtype)
    if type(blocks) ~= "table" or #blocks == 0 then fail("sparse.vstack: blocks must be a non-empty list") end
    local col = {}
    for i, b in ipairs(blocks) do col[i] = { b } end
    return bmat(col, format, dtype, "sparse.vstack")
  end)

  def(sparse, [[
sparse.block_diag(mats: list, format: "coo"|"csr"|"csc"|"dia"?, dtype: dtype?) -> spmatrix
The block-diagonal matrix of mats.
]], function(mats, format, dtype)
    local fname = "sparse.block_diag"
    if type(mats) ~= "table" or #mats == 0 then fail(fname .. ": mats must be a non-empty list") end
    local rows, cols, vals, dts = {}, {}, {}, { dtype }
    local r0, c0 = 0, 0
    for _, x in ipairs(mats) do
      local S = SP.tocoo(as_sparse(x, fname))
      rows[#rows + 1] = S._row + r0
      cols[#cols + 1] = S._col + c0
      vals[#vals + 1] = S.data
      dts[#dts + 1] = S.dtype
      r0, c0 = r0 + S._shape[1], c0 + S._shape[2]
    end
    local t = SP.value_dtype(ga.result_type(table.unpack(dts)), fname)
    for i, v in ipairs(vals) do vals[i] = v:astype(t) end
    local c = SP.new("coo", { r0, c0 }, ga.concatenate(vals), ga.concatenate(rows):astype("int32"),
      ga.concatenate(cols):astype("int32"))
    return finish(c, format, "coo")
  end)

  local function triangle(A, k, format, upper, fname)
    local S = as_sparse(A, fname)
    local c = SP.tocoo(S)
    local d = ga.subtract(c._col:astype("int64"), c._row:astype("int64"))
    local keep = upper and ga.greater_equal(d, k) or ga.less_equal(d, k)
    local R = SP.new("coo", c._shape, c.data[keep], c._row[keep], c._col[keep])
    R._canon = c._canon
    return SP.like(S, finish(R, format, S.format == "dia" and "csr" or S.format))
  end

  def(sparse, [[
sparse.tril(A: sparse|array_like, k: integer = 0, format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
The entries of A on and below diagonal k (default: A's format).
]], function(A, k, format) return triangle(A, k, format, false, "sparse.tril") end)

  def(sparse, [[
sparse.triu(A: sparse|array_like, k: integer = 0, format: "coo"|"csr"|"csc"|"dia"?) -> spmatrix
The entries of A on and above diagonal k (default: A's format).
]], function(A, k, format) return triangle(A, k, format, true, "sparse.triu") end)

  def(sparse, [[
sparse.find(A: sparse|array_like) -> ndarray, ndarray, ndarray
The rows, columns (1-based) and values of A's nonzero entries, duplicates summed, sorted by row then
column.
]], function(A)
    local S = as_sparse(A, "sparse.find")
    local c = SP.tocoo(SP.canonical_csr(S))
    local keep = ga.not_equal(c.data, 0)
    return (c._row[keep] + 1):astype("int64"), (c._col[keep] + 1):astype("int64"), c.data[keep]
  end)

  def(sparse, [[
sparse.matrix_transpose(A: sparse) -> spmatrix
The transpose of A (A.T).
]], function(A) return SP.transpose(A) end)

  def(sparse, [[
sparse.permute_dims(A: sparse, axes: axes?, copy: boolean = false) -> spmatrix
A with its axes permuted: nil or {2, 1} transposes, {1, 2} keeps (1-based).
]], function(A, axes, copy)
    if axes ~= nil and type(axes) == "table" and #axes == 2 and (axes[1] == 1 or axes[1] == -2) and
        (axes[2] == 2 or axes[2] == -1) then
      return copy and SP.copy(A) or A
    end
    return A:transpose(axes, copy)
  end)

  def(sparse, [[
sparse.swapaxes(A: sparse, axis1: integer, axis2: integer) -> spmatrix
A with the two axes (1-based, negative from the end) swapped: the transpose, or A when they are the same.
]], function(A, a1, a2)
    local function norm(a)
      local r = a < 0 and a + 3 or a
      if r ~= 1 and r ~= 2 then fail(("sparse.swapaxes: axis %d is out of range for 2 dimensions"):format(a)) end
      return r
    end
    if norm(a1) == norm(a2) then return A end
    return SP.transpose(A)
  end)
end
