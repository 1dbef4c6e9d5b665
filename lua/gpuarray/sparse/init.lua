--- ga.sparse (API.md §7): COO, CSR and CSC matrices on the GPU, with
-- cuSPARSE products (src/sparse/sparse.c).
--
-- A matrix is a Lua object holding ndarrays. Index arrays given from Lua
-- and read back (S.row, S.col, S.indices, S.indptr) are 1-based like the
-- rest of the API; inside, they are kept 0-based int32 (what cuSPARSE
-- takes), converted once when a matrix is built. CSC keeps the CSR arrays
-- of its transpose. Constructors check what they are given: lengths,
-- indices in range, indptr starting at 1, ending at nnz + 1 and never
-- decreasing (a few reductions and one synchronisation).
--
-- This file: the object, its constructors and checks. sparse/convert.lua:
-- conversions (tocsr, tocoo, tocsc, toarray, sum_duplicates,
-- sort_indices); sparse/ops.lua: products, +, *, sum, eye, diags, random.
return function(ga)
  local internal = require("gpuarray.internal")
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
    if VALUE[t] then return t end
    if t == "float16" then return "float32" end
    if ga.dtype(t).kind == "c" then return t end
    if t == nil then fail(fname .. ": no dtype") end
    return "float64"
  end

  --- A new matrix object: fmt "coo" (row, col), "csr" (indptr, indices),
  -- "csc" (the CSR arrays of the transpose); index arrays 0-based int32
  function SP.new(fmt, shape, data, a, b)
    local S = { format = fmt, _shape = { shape[1], shape[2] }, data = data }
    if fmt == "coo" then S._row, S._col = a, b else S._indptr, S._indices = a, b end
    return setmetatable(S, MT)
  end

  function sparse.issparse(x)
    return getmetatable(x) == MT
  end
  local issparse = sparse.issparse

  local function one_based(a)
    return a + 1
  end

  MT.__index = function(S, k)
    local m = methods[k]
    if m then return m end
    if k == "shape" then return { S._shape[1], S._shape[2] } end
    if k == "nnz" then return S.data.size end
    if k == "dtype" then return S.data.dtype end
    if k == "ndim" then return 2 end
    if k == "T" then return S:transpose() end
    if k == "row" and S.format == "coo" then return one_based(S._row) end
    if k == "col" and S.format == "coo" then return one_based(S._col) end
    if k == "indices" and S.format ~= "coo" then return one_based(S._indices) end
    if k == "indptr" and S.format ~= "coo" then return one_based(S._indptr) end
    return nil
  end
  MT.__tostring = function(S)
    return ("gpuarray.sparse.%s_matrix(shape={%d,%d}, nnz=%d, dtype=%s)"):format(S.format, S._shape[1],
      S._shape[2], S.data.size, S.data.dtype)
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

  --- What a constructor was given: ("dense", x) / ("shape", {m, n}) /
  -- ("coo", data, row, col) / ("compressed", data, indices, indptr) /
  -- ("sparse", S)
  local function classify(arg, fname)
    if issparse(arg) then return "sparse", arg end
    if is_array(arg) then return "dense", arg end
    if type(arg) ~= "table" then fail(fname .. ": expected an ndarray, a shape or a tuple of arrays") end
    if #arg == 2 and math.type(arg[1]) == "integer" and math.type(arg[2]) == "integer" then return "shape", arg end
    if #arg == 2 and type(arg[2]) == "table" and not is_array(arg[2]) and #arg[2] == 2 then
      return "coo", arg[1], arg[2][1], arg[2][2]
    end
    if #arg == 3 then return "compressed", arg[1], arg[2], arg[3] end
    if type(arg[1]) == "table" and not is_array(arg[1]) then return "dense", ga.array(arg) end
    fail(fname .. ": expected (data, {row, col}), (data, indices, indptr), a dense matrix or a shape")
  end

  local function empty(fmt, shape, dtype)
    local t = SP.value_dtype(dtype or "float64", "sparse")
    local major = fmt == "csc" and shape[2] or shape[1]
    if fmt == "coo" then
      return SP.new("coo", shape, ga.zeros(0, t), ga.zeros(0, "int32"), ga.zeros(0, "int32"))
    end
    return SP.new(fmt, shape, ga.zeros(0, t), ga.zeros(major + 1, "int32"), ga.zeros(0, "int32"))
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
    return SP.new("coo", { m, n }, flat[nz], (pos // n):astype("int32"), (pos % n):astype("int32"))
  end

  local function construct(fmt, fname)
    return function(arg, opts)
      opts = internal.opts(opts, fname)
      local kind, a, b, c = classify(arg, fname)
      local shape, dtype = opts.shape, opts.dtype
      if shape then check_shape(shape, fname) end
      local S
      if kind == "sparse" then
        S = a
        if dtype and S.dtype ~= dtype then S = S:astype(dtype) end
      elseif kind == "shape" then
        return empty(fmt, check_shape(a, fname), dtype)
      elseif kind == "dense" then
        S = from_dense(a, dtype, fname)
      elseif kind == "coo" then
        S = SP.coo_from(a, b, c, shape, dtype, fname)
      else
        if fmt == "coo" then fail(fname .. ": (data, indices, indptr) builds csr_matrix or csc_matrix") end
        S = SP.compressed_from(fmt, a, b, c, shape, dtype, fname)
      end
      if S.format == fmt then return S end
      return S["to" .. fmt](S)
    end
  end

  sparse.coo_matrix = construct("coo", "sparse.coo_matrix")
  sparse.csr_matrix = construct("csr", "sparse.csr_matrix")
  sparse.csc_matrix = construct("csc", "sparse.csc_matrix")

  require("gpuarray.sparse.convert")(ga, SP)
  require("gpuarray.sparse.ops")(ga, SP)
end
