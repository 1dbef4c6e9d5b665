--- ga.sparse conversions: tocoo, tocsr, tocsc, toarray, transpose (T),
-- sum_duplicates, sort_indices, astype, copy. Sorting by (row, col) is one
-- argsort of the int64 key row * ncols + col (src/sort/sort.c);
-- duplicates are summed by atomic adds into their group, found with the
-- same flags unique uses; indptr is a searchsorted of the sorted rows.
return function(ga, SP)
  local core = ga._core
  local methods = SP.methods

  local PREAMBLE = [[
template <typename T> __device__ __forceinline__ void ga_sp_add(T *p, T v) { atomicAdd(p, v); }
__device__ __forceinline__ void ga_sp_add(complex64 *p, complex64 v) {
  atomicAdd(&p->re, v.re); atomicAdd(&p->im, v.im);
}
__device__ __forceinline__ void ga_sp_add(complex128 *p, complex128 v) {
  atomicAdd(&p->re, v.re); atomicAdd(&p->im, v.im);
}
]]
  local add_kernel
  --- out[p] += v (atomic), out raw; for the compile specs too
  function SP.add_kernel()
    add_kernel = add_kernel or ga.ElementwiseKernel("int64 p, T v", "raw T out", "ga_sp_add(&out[p], v)",
      "ga_sparse_add", { preamble = PREAMBLE })
    return add_kernel
  end

  --- Sorted (by row, then column) COO arrays without duplicates: row, col
  -- (0-based int32) and data
  local function canonical(row, col, data, ncols)
    if data.size == 0 then return row, col, data end
    local key = row:astype("int64") * ncols + col
    local idx = ga.argsort(key)
    local ks = key:take(idx)
    local flags = core.sort.unique_flags(ks)
    local uk = ks[flags]
    local d = data:take(idx)
    if uk.size ~= data.size then
      local sums = ga.zeros(uk.size, data.dtype)
      SP.add_kernel()(ga.cumsum(flags) - 1, d, sums)
      d = sums
    end
    return (uk // ncols):astype("int32"), (uk % ncols):astype("int32"), d
  end

  -- 0-based row of each entry from a 0-based indptr (major x nnz)
  local function expand(indptr, nnz)
    if nnz == 0 then return ga.zeros(0, "int32") end
    return (ga.searchsorted(indptr, ga.arange(0, nnz, "int32"), "right") - 2):astype("int32")
  end

  local function compress(major_idx, nmajor)
    return (ga.searchsorted(major_idx, ga.arange(0, nmajor + 1, "int32"), "left") - 1):astype("int32")
  end

  local function mark(S)
    S._canon = true
    return S
  end

  function methods.tocoo(S)
    if S.format == "coo" then return S end
    local major = expand(S._indptr, S.data.size)
    if S.format == "csr" then return SP.new("coo", S._shape, S.data, major, S._indices) end
    return SP.new("coo", S._shape, S.data, S._indices, major)
  end

  function methods.tocsr(S)
    if S.format == "csr" then return S end
    local c = S:tocoo()
    local m, n = c._shape[1], c._shape[2]
    local r, col, d = canonical(c._row, c._col, c.data, n)
    return mark(SP.new("csr", { m, n }, d, compress(r, m), col))
  end

  function methods.tocsc(S)
    if S.format == "csc" then return S end
    local c = S:tocoo()
    local m, n = c._shape[1], c._shape[2]
    local col, r, d = canonical(c._col, c._row, c.data, m)
    return mark(SP.new("csc", { m, n }, d, compress(col, n), r))
  end

  function methods.toarray(S)
    local c = S:tocoo()
    local m, n = c._shape[1], c._shape[2]
    local out = ga.zeros({ m, n }, c.data.dtype)
    if c.data.size > 0 then SP.add_kernel()(c._row:astype("int64") * n + c._col, c.data, out) end
    return out
  end
  methods.todense = methods.toarray

  function methods.transpose(S)
    local shape = { S._shape[2], S._shape[1] }
    if S.format == "coo" then return SP.new("coo", shape, S.data, S._col, S._row) end
    local T = SP.new(S.format == "csr" and "csc" or "csr", shape, S.data, S._indptr, S._indices)
    T._canon = S._canon
    return T
  end

  -- replace S's arrays by those of R (same format): the in-place methods
  local function adopt(S, R)
    S.data, S._row, S._col, S._indptr, S._indices, S._canon = R.data, R._row, R._col, R._indptr, R._indices,
      R._canon
    return S
  end

  --- sums entries that share a position and sorts them (in place)
  function methods.sum_duplicates(S)
    if S._canon then return S end
    if S.format == "coo" then
      local r, c, d = canonical(S._row, S._col, S.data, S._shape[2])
      adopt(S, SP.new("coo", S._shape, d, r, c))
      S._canon = true
      return S
    end
    local c = S:tocoo()
    return adopt(S, c["to" .. S.format](c))
  end
  methods.sort_indices = methods.sum_duplicates

  function methods.astype(S, t)
    local R = SP.new(S.format, S._shape, S.data:astype(SP.value_dtype(t, "astype")),
      S._row or S._indptr, S._col or S._indices)
    R._canon = S._canon
    return R
  end

  function methods.copy(S)
    return S:astype(S.data.dtype)
  end

  SP.canonical = canonical
  SP.compress = compress
end
