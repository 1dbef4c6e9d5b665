--- ga.sparse = ga.scipy.sparse (API.md §7, §15): COO, CSR, CSC and DIA
-- matrices on the GPU, with cuSPARSE products (src/sparse/sparse.c).
--
-- A matrix is a Lua object holding ndarrays. Index arrays given from Lua
-- and read back (S.row, S.col, S.indices, S.indptr) are 1-based like the
-- rest of the API; inside, they are kept 0-based int32 (what cuSPARSE
-- takes), converted once when a matrix is built. CSC keeps the CSR arrays
-- of its transpose. DIA keeps data (ndiag x L, SciPy's layout: data[k, j]
-- is entry (j - offsets[k], j)) and its offsets as a Lua list (values, not
-- positions: they stay as SciPy has them). Constructors check what they
-- are given: lengths, indices in range, indptr starting at 1, ending at
-- nnz + 1 and never decreasing (a few reductions and one synchronisation).
--
-- The *_matrix and *_array constructors make the same objects; an array
-- (S.is_array) multiplies elementwise with * and ^ as SciPy's sparse
-- arrays do, a matrix takes * as the matrix product and ^ as the matrix
-- power.
--
-- This file: the object, its constructors and checks, the type tests.
-- convert.lua: conversions; ops.lua: products, arithmetic, reductions,
-- elementwise functions; construct.lua: eye, diags, random, kron, stacks,
-- bmat, tril, triu, find.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  require("gpuarray.api.surface")       -- api.class
  local def = api.def
  local fail, is_array = internal.fail, internal.is_array
  local sparse = {}
  ga.sparse = sparse

  local SP = {}            -- shared with the subfiles
  sparse._impl = SP
  local methods = {}
  SP.methods = methods
  local MT = { __name = "gpuarray.sparse_matrix" }
  SP.MT = MT

  local VALUE = { float32 = true, float64 = true, complex64 = true, complex128 = true }
  SP.VALUE = VALUE

  --- The value dtype a matrix of dtype-t data gets: NumPy's result for the
  -- floating kinds, float64 for integers and bool (cuSPARSE's types)
  function SP.value_dtype(t, fname)
    if t == nil then fail(fname .. ": no dtype") end
    t = ga.dtype(t).name
    if VALUE[t] then return t end
    if t == "float16" or t == "bfloat16" then return "float32" end
    return "float64"
  end

  --- A new matrix object: fmt "coo" (row, col), "csr" (indptr, indices),
  -- "csc" (the CSR arrays of the transpose), "dia" (a: the offsets list);
  -- index arrays 0-based int32
  function SP.new(fmt, shape, data, a, b)
    local S = { format = fmt, _shape = { shape[1], shape[2] }, data = data }
    if fmt == "coo" then S._row, S._col = a, b
    elseif fmt == "dia" then S._offsets = a
    else S._indptr, S._indices = a, b end
    return setmetatable(S, MT)
  end

  --- R with S's kind (array or matrix)
  function SP.like(S, R)
    R._array = S._array
    return R
  end

  local function issparse(x) return getmetatable(x) == MT end
  SP.issparse = issparse
  api.set_type("sparse", issparse)
  api.set_type("spmatrix", issparse)

  local function one_based(a) return a + 1 end

  -- stored entries of a DIA matrix inside its shape
  local function dia_nnz(S)
    local m, n = S._shape[1], S._shape[2]
    local L = S.data.ndim == 2 and S.data.shape[2] or 0
    local count = 0
    for _, k in ipairs(S._offsets) do
      local lo, hi = math.max(0, k), math.min(L, n, m + k)   -- columns j with 0 <= j - k < m
      if hi > lo then count = count + (hi - lo) end
    end
    return count
  end

  MT.__index = function(S, k)
    local m = methods[k]
    if m then return m end
    if k == "shape" then return { S._shape[1], S._shape[2] } end
    if k == "nnz" then return S.format == "dia" and dia_nnz(S) or S.data.size end
    if k == "dtype" then return S.data.dtype end
    if k == "ndim" then return 2 end
    if k == "size" then return S.format == "dia" and dia_nnz(S) or S.data.size end
    if k == "is_array" then return S._array == true end
    if k == "T" then return S:transpose() end
    if k == "H" then return S:transpose():conj() end
    if k == "real" then return S:_real_part() end
    if k == "imag" then return S:_imag_part() end
    if k == "has_canonical_format" or k == "has_sorted_indices" then return S._canon == true end
    if k == "row" and S.format == "coo" then return one_based(S._row) end
    if k == "col" and S.format == "coo" then return one_based(S._col) end
    if k == "indices" and (S.format == "csr" or S.format == "csc") then return one_based(S._indices) end
    if k == "indptr" and (S.format == "csr" or S.format == "csc") then return one_based(S._indptr) end
    if k == "offsets" and S.format == "dia" then return ga.array(S._offsets, "int32") end
    return nil
  end
  MT.__tostring = function(S)
    return ("gpuarray.sparse.%s_%s(shape={%d,%d}, nnz=%d, dtype=%s)"):format(S.format, S._array and "array" or
      "matrix", S._shape[1], S._shape[2], S.nnz, S.data.dtype)
  end

  ---------------------------------------------------------------------------
  -- checks
  ---------------------------------------------------------------------------

  local INT = { int8 = true, int16 = true, int32 = true, int64 = true, uint8 = true, uint16 = true,
                uint32 = true, uint64 = true }

  -- a 1-D integer index array from an ndarray or a Lua list
  local function index_array(v, fname, what)
    if type(v) == "table" and not is_array(v) then v = ga.array(v, "int64") end
    if not is_array(v) then fail(("%s: %s must be an integer array or a list"):format(fname, what)) end
    if not INT[v.dtype] then fail(("%s: %s must have an integer dtype, got %s"):format(fname, what, v.dtype)) end
    if v.ndim ~= 1 then fail(("%s: %s must be 1-D"):format(fname, what)) end
    return v
  end

  local function values_array(v, fname, dtype)
    if type(v) == "table" and not is_array(v) then v = ga.array(v, dtype) end
    if not is_array(v) then fail(fname .. ": data must be an ndarray or a list") end
    if v.ndim ~= 1 then fail(fname .. ": data must be 1-D") end
    local t = SP.value_dtype(dtype or v.dtype, fname)
    if v.dtype ~= t then v = v:astype(t) end
    return v
  end

  -- 1-based indices in [1, hi]: 0-based int32, or raise
  local function check_range(v, hi, fname, what)
    if v.size > 0 then
      local lo, top = v:min():item(), v:max():item()
      if lo < 1 or top > hi then
        fail(("%s: %s index %d out of range [1, %d]"):format(fname, what, lo < 1 and lo or top, hi))
      end
    end
    return (v - 1):astype("int32")
  end

  local function check_shape(shape, fname)
    if type(shape) ~= "table" or #shape ~= 2 or math.type(shape[1]) ~= "integer" or math.type(shape[2]) ~= "integer"
        or shape[1] < 0 or shape[2] < 0 then
      fail(fname .. ": shape must be {rows, cols} of non-negative integers")
    end
    if shape[1] >= 2 ^ 31 or shape[2] >= 2 ^ 31 then fail(fname .. ": dimensions past 2^31 - 1") end
    return shape
  end
  SP.check_shape = check_shape

  --- COO from (data, row, col) given 1-based; shape nil: the smallest
  function SP.coo_from(data, row, col, shape, dtype, fname)
    row, col = index_array(row, fname, "row"), index_array(col, fname, "col")
    data = values_array(data, fname, dtype)
    if row.size ~= data.size or col.size ~= data.size then
      fail(("%s: data, row and col have mismatched lengths %d, %d, %d"):format(fname, data.size, row.size, col.size))
    end
    if not shape then
      if data.size == 0 then fail(fname .. ": cannot infer the shape of an empty matrix (give shape)") end
      shape = { math.tointeger(row:max():item()), math.tointeger(col:max():item()) }
    end
    check_shape(shape, fname)
    return SP.new("coo", shape, data, check_range(row, shape[1], fname, "row"),
      check_range(col, shape[2], fname, "column"))
  end

  --- CSR arrays (data, indices, indptr) given 1-based, for rows x cols
  -- (nil rows: #indptr - 1; nil cols: the largest index)
  function SP.compressed_from(fmt, data, indices, indptr, shape, dtype, fname)
    indices, indptr = index_array(indices, fname, "indices"), index_array(indptr, fname, "indptr")
    data = values_array(data, fname, dtype)
    if indices.size ~= data.size then
      fail(("%s: data and indices have mismatched lengths %d and %d"):format(fname, data.size, indices.size))
    end
    local major = indptr.size - 1
    if major < 0 then fail(fname .. ": indptr must have at least one element") end
    local minor
    if shape then
      check_shape(shape, fname)
      local want = fmt == "csr" and shape[1] or shape[2]
      if want ~= major then
        fail(("%s: indptr has %d elements, the shape needs %d"):format(fname, indptr.size, want + 1))
      end
      minor = fmt == "csr" and shape[2] or shape[1]
    else
      minor = data.size > 0 and math.tointeger(indices:max():item()) or 0
      shape = fmt == "csr" and { major, minor } or { minor, major }
    end
    local first, last = indptr[1], indptr[major + 1]   -- Lua numbers
    if first ~= 1 or last ~= data.size + 1 then
      fail(("%s: indptr must start at 1 and end at nnz + 1 = %d, got %d and %d"):format(fname, data.size + 1,
        first, last))
    end
    if major > 0 and (indptr[{ { 2, major + 1 } }] - indptr[{ { 1, major } }]):min():item() < 0 then
      fail(fname .. ": indptr must not decrease")
    end
    local ind = check_range(indices, minor, fname, fmt == "csr" and "column" or "row")
    return SP.new(fmt, shape, data, (indptr - 1):astype("int32"), ind)
  end

  --- DIA from (data, offsets): data (ndiag, L) or 1-D (one diagonal)
  function SP.dia_from(data, offsets, shape, dtype, fname)
    if type(data) == "table" and not is_array(data) then data = ga.array(data, dtype) end
    if not is_array(data) then fail(fname .. ": data must be an ndarray or a nested list") end
    if data.ndim == 1 then data = data:reshape(1, data.size) end
    if data.ndim ~= 2 then fail(fname .. ": data must be 2-D (one row per diagonal)") end
    local offs = {}
    if is_array(offsets) then offsets = offsets:totable() end
    if type(offsets) == "number" then offsets = { offsets } end
    if type(offsets) ~= "table" then fail(fname .. ": offsets must be an integer or a list of integers") end
    for i, k in ipairs(offsets) do
      if math.type(k) ~= "integer" then
        k = math.tointeger(k)
        if not k then fail(fname .. ": offsets must be integers") end
      end
      offs[i] = k
    end
    if #offs ~= data.shape[1] then
      fail(("%s: the number of diagonals (%d) does not match the number of offsets (%d)"):format(fname,
        data.shape[1], #offs))
    end
    local seen = {}
    for _, k in ipairs(offs) do
      if seen[k] then fail(fname .. ": offset array contains duplicate values") end
      seen[k] = true
    end
    if not shape then fail(fname .. ": the shape of a DIA matrix must be given") end
    check_shape(shape, fname)
    local t = SP.value_dtype(dtype or data.dtype, fname)
    return SP.new("dia", shape, ga.ascontiguousarray(data:astype(t)), offs)
  end

  -- a Lua table of rows that all are plain lists of one length whose first
  -- elements are of one kind: a dense matrix written in Lua
  local function plain_rows(arg)
    local n, kind
    for i = 1, #arg do
      local r = arg[i]
      if type(r) ~= "table" or getmetatable(r) ~= nil then return false end
      n = n or #r
      if #r ~= n or n == 0 then return false end
      kind = kind or type(r[1])
      if type(r[1]) ~= kind then return false end
    end
    return #arg > 0
  end

  --- What a constructor was given: ("dense", x) / ("shape", {m, n}) /
  -- ("coo", data, row, col) / ("compressed", data, indices, indptr) /
  -- ("pair", data, offsets) / ("sparse", S). A Lua table is read as a
  -- tuple when its members say so (index arrays, or lists of differing
  -- lengths), else as the rows of a dense matrix: (data, indices, indptr)
  -- given as three plain lists of one length reads as a 3-row matrix.
  local function classify(arg, fname)
    if issparse(arg) then return "sparse", arg end
    if is_array(arg) then return "dense", arg end
    if type(arg) ~= "table" then fail(fname .. ": expected an ndarray, a shape or a tuple of arrays") end
    if #arg == 2 and math.type(arg[1]) == "integer" and math.type(arg[2]) == "integer" then return "shape", arg end
    local second = arg[2]
    if #arg == 2 and type(second) == "table" and getmetatable(second) == nil and #second == 2 and
        (type(second[1]) == "table" or is_array(second[1])) then
      return "coo", arg[1], second[1], second[2]
    end
    if plain_rows(arg) then return "dense", arg end
    if #arg == 3 then return "compressed", arg[1], arg[2], arg[3] end
    if #arg == 2 then return "pair", arg[1], arg[2] end
    fail(fname .. ": expected (data, {row, col}), (data, indices, indptr), a dense matrix or a shape")
  end
  SP.classify = classify

  local function empty(fmt, shape, dtype)
    local t = SP.value_dtype(dtype or "float64", "sparse")
    local major = fmt == "csc" and shape[2] or shape[1]
    if fmt == "coo" then
      return SP.new("coo", shape, ga.zeros(0, t), ga.zeros(0, "int32"), ga.zeros(0, "int32"))
    end
    if fmt == "dia" then return SP.new("dia", shape, ga.zeros({ 0, 0 }, t), {}) end
    local S = SP.new(fmt, shape, ga.zeros(0, t), ga.zeros(major + 1, "int32"), ga.zeros(0, "int32"))
    S._canon = true
    return S
  end
  SP.empty = empty

  -- a dense 2-D array as COO (row-major order, zeros left out)
  local function from_dense(x, dtype, fname)
    if x.ndim ~= 2 then fail(("%s: a dense matrix must be 2-D, got %d dimensions"):format(fname, x.ndim)) end
    local t = SP.value_dtype(dtype or x.dtype, fname)
    local m, n = x.shape[1], x.shape[2]
    local flat = x:astype(t):reshape(m * n)
    local nz = flat:ne(0)
    local pos = ga.arange(0, m * n, "int64")[nz]
    local S = SP.new("coo", { m, n }, flat[nz], (pos // n):astype("int32"), (pos % n):astype("int32"))
    S._canon = true
    return S
  end
  SP.from_dense = from_dense

  local function construct(fmt, kind, fname)
    return function(arg, shape, dtype, copy)
      local tag, a, b, c = classify(arg, fname)
      if shape then check_shape(shape, fname) end
      local S
      if tag == "sparse" then
        S = a
        if dtype and S.dtype ~= SP.value_dtype(dtype, fname) then S = S:astype(dtype)
        elseif copy then S = S:copy() end
        if shape and (shape[1] ~= S._shape[1] or shape[2] ~= S._shape[2]) then
          fail(("%s: shape {%d,%d} does not match the matrix's {%d,%d}"):format(fname, shape[1], shape[2],
            S._shape[1], S._shape[2]))
        end
      elseif tag == "shape" then
        S = empty(fmt, check_shape(a, fname), dtype)
      elseif tag == "dense" then
        S = from_dense(is_array(a) and a or ga.array(a), dtype, fname)
      elseif tag == "coo" then
        S = SP.coo_from(a, b, c, shape, dtype, fname)
      elseif tag == "pair" then
        if fmt ~= "dia" then
          fail(fname .. ": expected (data, {row, col}), (data, indices, indptr), a dense matrix or a shape")
        end
        S = SP.dia_from(a, b, shape, dtype, fname)
      else
        if fmt == "coo" or fmt == "dia" then
          fail(("%s: (data, indices, indptr) builds csr and csc matrices"):format(fname))
        end
        S = SP.compressed_from(fmt, a, b, c, shape, dtype, fname)
      end
      if S.format ~= fmt then S = S["to" .. fmt](S) end
      if S == a then
        -- the matrix given, already in this format: itself unless a copy
        -- or the other kind (array / matrix) is asked for
        if not copy and (kind == "array") == (a._array == true) then return S end
        S = S:copy()
      end
      S._array = kind == "array" or nil
      return S
    end
  end

  local DOC = {
    coo = "COOrdinate format: from (data, {row, col}) (1-based, duplicates kept until summed), a dense matrix, " ..
      "another sparse matrix or a shape.",
    csr = "Compressed Sparse Row format: from (data, indices, indptr) (1-based), (data, {row, col}), a dense " ..
      "matrix, another sparse matrix or a shape.",
    csc = "Compressed Sparse Column format: from (data, indices, indptr) (1-based, per column), (data, {row, " ..
      "col}), a dense matrix, another sparse matrix or a shape.",
    dia = "DIAgonal format: from (data, offsets) (data[k, j] is entry (j - offsets[k], j), 0-based as SciPy's " ..
      "layout), a dense matrix, another sparse matrix or a shape.",
  }
  for _, fmt in ipairs({ "coo", "csr", "csc", "dia" }) do
    for _, kind in ipairs({ "matrix", "array" }) do
      local name = ("%s_%s"):format(fmt, kind)
      def(sparse, ([[
sparse.%s(arg1: any, shape: shape?, dtype: dtype?, copy: boolean = false) -> spmatrix
%s
%s]]):format(name, DOC[fmt], kind == "array" and "A sparse array: * and ^ act elementwise." or
        "A sparse matrix: * is the matrix product, ^ the matrix power."), construct(fmt, kind, "sparse." .. name))
    end
  end

  ---------------------------------------------------------------------------
  -- type tests and index dtypes
  ---------------------------------------------------------------------------

  def(sparse, [[
sparse.issparse(x: any) -> boolean
Whether x is a sparse matrix or array.
]], issparse)

  def(sparse, [[
sparse.isspmatrix(x: any) -> boolean
Whether x is a sparse matrix (not a sparse array, as SciPy).
]], function(x) return issparse(x) and not x._array end)

  for _, fmt in ipairs({ "csr", "csc", "coo", "dia" }) do
    def(sparse, ([[
sparse.isspmatrix_%s(x: any) -> boolean
Whether x is a sparse matrix (not array) in %s format.
]]):format(fmt, fmt:upper()), function(x) return issparse(x) and not x._array and x.format == fmt end)
  end

  def(sparse, [[
sparse.get_index_dtype(arrays: list = {}, maxval: number?, check_contents: boolean = false) -> string
The index dtype ("int32" or "int64") that holds maxval and the values of arrays (SciPy's rule: int32
when they fit).
]], function(arrays, maxval, check_contents)
    local limit = 2147483647
    if maxval and maxval > limit then return "int64" end
    for _, a in ipairs(arrays) do
      if is_array(a) and (a.dtype == "int64" or a.dtype == "uint64" or a.dtype == "uint32") then
        if not check_contents or a.size == 0 then return "int64" end
        local lo, hi = ga.min(a):item(), ga.max(a):item()
        if lo < -limit - 1 or hi > limit then return "int64" end
      end
    end
    return "int32"
  end)

  def(sparse, [[
sparse.safely_cast_index_arrays(A: sparse, idx_dtype: dtype = "int32", msg: string = "") -> ndarray, ndarray
A's index arrays (indices and indptr, or row and col; 1-based) in idx_dtype, raising when a value does
not fit.
]], function(A, idx_dtype, msg)
    local fname = "sparse.safely_cast_index_arrays"
    local t = ga.dtype(idx_dtype).name
    local a, b
    if A.format == "coo" then a, b = A.row, A.col
    elseif A.format == "dia" then fail(fname .. ": a DIA matrix has no index arrays")
    else a, b = A.indices, A.indptr end
    local info = ga.iinfo(t)
    for _, x in ipairs({ a, b }) do
      if x.size > 0 and (ga.max(x):item() > info.max or ga.min(x):item() < info.min) then
        fail(("%s: index values too large for %s%s"):format(fname, t, msg ~= "" and (": " .. msg) or ""))
      end
    end
    return a:astype(t), b:astype(t)
  end)

  require("gpuarray.sparse.convert")(ga, SP)
  require("gpuarray.sparse.ops")(ga, SP)
  require("gpuarray.sparse.construct")(ga, SP)
  api.class("spmatrix", methods)
end
