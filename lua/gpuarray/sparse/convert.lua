--- ga.sparse conversions: tocoo, tocsr, tocsc, todia, toarray, asformat,
-- transpose (T), sum_duplicates, sort_indices, eliminate_zeros, astype,
-- copy. Sorting by (row, col) is one argsort of the int64 key row * ncols
-- + col (src/sort/sort.c); duplicates are summed by atomic adds into
-- their group, found with the same flags unique uses; indptr is a
-- searchsorted of the sorted rows. DIA converts through COO both ways
-- (todia reads its distinct offsets back: one synchronisation).
return function(ga, SP)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local def = api.def
  local core = ga._core
  local fail = internal.fail
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

  -- a DIA matrix's stored entries inside its shape, nonzero ones (SciPy's
  -- tocoo drops the zeros of the padding and the explicit ones alike)
  local function dia_tocoo(S)
    local m, n = S._shape[1], S._shape[2]
    local t = S.data.dtype
    local nd = #S._offsets
    local L = S.data.ndim == 2 and S.data.shape[2] or 0
    if nd == 0 or L == 0 then
      return SP.new("coo", S._shape, ga.zeros(0, t), ga.zeros(0, "int32"), ga.zeros(0, "int32"))
    end
    local offs = ga.array(S._offsets, "int64"):reshape(nd, 1)
    local j = ga.arange(0, L, "int64"):reshape(1, L)
    local row = ga.subtract(j, offs)                                     -- (nd, L)
    local col = ga.broadcast_to(j, { nd, L })
    local keep = ga.logical_and(ga.logical_and(ga.greater_equal(row, 0), ga.less(row, m)), ga.less(col, n))
    keep = ga.logical_and(keep, ga.not_equal(S.data, 0))
    local flat = keep:reshape(-1)
    return SP.new("coo", S._shape, S.data:reshape(-1)[flat], row:reshape(-1)[flat]:astype("int32"),
      ga.ascontiguousarray(col):reshape(-1)[flat]:astype("int32"))
  end

  local function like(S, R) return SP.like(S, R) end

  local function tocoo(S)
    if S.format == "coo" then return S end
    if S.format == "dia" then return like(S, dia_tocoo(S)) end
    local major = expand(S._indptr, S.data.size)
    local R
    if S.format == "csr" then R = SP.new("coo", S._shape, S.data, major, S._indices)
    else R = SP.new("coo", S._shape, S.data, S._indices, major) end
    return like(S, R)
  end

  local function tocsr(S)
    if S.format == "csr" then return S end
    local c = tocoo(S)
    local m, n = c._shape[1], c._shape[2]
    local r, col, d = canonical(c._row, c._col, c.data, n)
    return like(S, mark(SP.new("csr", { m, n }, d, compress(r, m), col)))
  end

  local function tocsc(S)
    if S.format == "csc" then return S end
    local c = tocoo(S)
    local m, n = c._shape[1], c._shape[2]
    local col, r, d = canonical(c._col, c._row, c.data, m)
    return like(S, mark(SP.new("csc", { m, n }, d, compress(col, n), r)))
  end

  local function todia(S)
    if S.format == "dia" then return S end
    local c = tocoo(S)
    local m, n = c._shape[1], c._shape[2]
    local r, col, d = canonical(c._row, c._col, c.data, n)
    local t = c.data.dtype
    if d.size == 0 then return like(S, SP.new("dia", { m, n }, ga.zeros({ 0, 0 }, t), {})) end
    local ks = ga.subtract(col:astype("int64"), r:astype("int64"))
    local offs, _, inv = ga.unique(ks, { return_index = true, return_inverse = true })
    local list = offs:totable()
    local L = math.tointeger(ga.max(col):item()) + 1
    local data = ga.zeros({ #list, L }, t)
    -- data[diag, col] = value
    SP.add_kernel()((inv:reshape(-1):astype("int64") - 1) * L + col, d, data)
    for i, v in ipairs(list) do list[i] = math.tointeger(v) end
    return like(S, SP.new("dia", { m, n }, data, list))
  end

  local function copy_of(S)
    local R
    if S.format == "dia" then
      local offs = {}
      for i, v in ipairs(S._offsets) do offs[i] = v end
      R = SP.new("dia", S._shape, S.data:copy(), offs)
    else
      local a, b = S._row or S._indptr, S._col or S._indices
      R = SP.new(S.format, S._shape, S.data:copy(), a:copy(), b:copy())
    end
    R._canon = S._canon
    return like(S, R)
  end
  SP.copy = copy_of

  local function maybe_copy(S, R, copy)
    if copy and R == S then return copy_of(S) end
    return R
  end

  def(methods, [[
spmatrix:tocoo(copy: boolean = false) -> spmatrix
The matrix in COO format (itself if it is one, unless copy).
]], function(S, copy) return maybe_copy(S, tocoo(S), copy) end)

  def(methods, [[
spmatrix:tocsr(copy: boolean = false) -> spmatrix
The matrix in CSR format, duplicates summed and indices sorted (itself if it is CSR, unless copy).
]], function(S, copy) return maybe_copy(S, tocsr(S), copy) end)

  def(methods, [[
spmatrix:tocsc(copy: boolean = false) -> spmatrix
The matrix in CSC format, duplicates summed and indices sorted (itself if it is CSC, unless copy).
]], function(S, copy) return maybe_copy(S, tocsc(S), copy) end)

  def(methods, [[
spmatrix:todia(copy: boolean = false) -> spmatrix
The matrix in DIA format (one row of data per nonzero diagonal, offsets ascending).
]], function(S, copy) return maybe_copy(S, todia(S), copy) end)

  local CONVERT = { coo = tocoo, csr = tocsr, csc = tocsc, dia = todia }

  def(methods, [[
spmatrix:asformat(format: "coo"|"csr"|"csc"|"dia"?, copy: boolean = false) -> spmatrix
The matrix in the named format (nil: itself).
]], function(S, format, copy)
    if format == nil then return maybe_copy(S, S, copy) end
    return maybe_copy(S, CONVERT[format](S), copy)
  end)

  local function toarray(S, order, out)
    local c = tocoo(S)
    local m, n = c._shape[1], c._shape[2]
    local dense = ga.zeros({ m, n }, c.data.dtype)
    if c.data.size > 0 then SP.add_kernel()(c._row:astype("int64") * n + c._col, c.data, dense) end
    if order == "F" then dense = ga.asfortranarray and ga.asfortranarray(dense) or dense end
    if out then
      internal.check_out(out, { m, n }, "spmatrix.toarray")
      out:set(dense)
      return out
    end
    return dense
  end

  def(methods, [[
spmatrix:toarray(order: "C"|"F"?, out: ndarray?) -> ndarray
The dense matrix (duplicates summed).
]], toarray)
  def(methods, [[
spmatrix:todense(order: "C"|"F"?, out: ndarray?) -> ndarray
The dense matrix (as toarray: gpuarray has no matrix class).
]], toarray)

  local function transpose(S)
    local shape = { S._shape[2], S._shape[1] }
    if S.format == "coo" then return like(S, SP.new("coo", shape, S.data, S._col, S._row)) end
    if S.format == "dia" then
      local T = tocoo(S)
      return todia(like(S, SP.new("coo", shape, T.data, T._col, T._row)))
    end
    local T = SP.new(S.format == "csr" and "csc" or "csr", shape, S.data, S._indptr, S._indices)
    T._canon = S._canon
    return like(S, T)
  end
  SP.transpose = transpose

  def(methods, [[
spmatrix:transpose(axes: axes?, copy: boolean = false) -> spmatrix
The transpose (also S.T): CSR becomes CSC on the same arrays and back, COO swaps its index arrays. axes:
nil or {2, 1} (1-based).
]], function(S, axes, copy)
    if axes ~= nil then
      if type(axes) ~= "table" or #axes ~= 2 or not ((axes[1] == 2 or axes[1] == -1) and (axes[2] == 1 or
          axes[2] == -2)) then
        fail("spmatrix.transpose: axes of a sparse matrix can only be {2, 1} (they are swapped)")
      end
    end
    local T = transpose(S)
    if copy then T = copy_of(T) end
    return T
  end)

  -- replace S's arrays by those of R (the in-place methods)
  local function adopt(S, R)
    S.format, S._shape = R.format, R._shape
    S.data, S._row, S._col, S._indptr, S._indices, S._offsets, S._canon = R.data, R._row, R._col, R._indptr,
      R._indices, R._offsets, R._canon
    return S
  end
  SP.adopt = adopt

  def(methods, [[
spmatrix:sum_duplicates()
Sums entries that share a position and sorts them, in place.
]], function(S)
    if S._canon or S.format == "dia" then return end
    if S.format == "coo" then
      local r, c, d = canonical(S._row, S._col, S.data, S._shape[2])
      adopt(S, SP.new("coo", S._shape, d, r, c))
      S._canon = true
      return
    end
    local c = tocoo(S)
    adopt(S, CONVERT[S.format](SP.new("coo", c._shape, c.data, c._row, c._col)))
  end)
  def(methods, [[
spmatrix:sort_indices()
Sorts the indices (and sums duplicates), in place.
]], function(S) S:sum_duplicates() end)
  def(methods, [[
spmatrix:sorted_indices() -> spmatrix
A copy with sorted indices (duplicates summed).
]], function(S)
    local R = copy_of(S)
    R:sum_duplicates()
    return R
  end)

  def(methods, [[
spmatrix:eliminate_zeros()
Removes the stored zeros, in place.
]], function(S)
    local c = tocoo(S)
    local keep = ga.not_equal(c.data, 0)
    local R = SP.new("coo", c._shape, c.data[keep], c._row[keep], c._col[keep])
    R._canon = S._canon or c._canon
    if S.format == "coo" then adopt(S, R) else adopt(S, CONVERT[S.format](R)) end
    if S.format == "dia" then return end
  end)

  local function astype(S, t)
    t = SP.value_dtype(t, "spmatrix.astype")
    local R
    if S.format == "dia" then
      R = SP.new("dia", S._shape, S.data:astype(t), S._offsets)
    else
      R = SP.new(S.format, S._shape, S.data:astype(t), S._row or S._indptr, S._col or S._indices)
    end
    R._canon = S._canon
    return like(S, R)
  end
  SP.astype = astype

  def(methods, [[
spmatrix:astype(dtype: dtype, casting: "no"|"equiv"|"safe"|"same_kind"|"unsafe" = "unsafe", copy: boolean = true)
  -> spmatrix
The matrix with its values cast to dtype (float32, float64, complex64, complex128: integers and bool
become float64, float16 float32, cuSPARSE's value types).
]], function(S, t, casting, copy)
    local to = SP.value_dtype(t, "spmatrix.astype")
    if casting ~= "unsafe" and not ga.can_cast(S.dtype, to, casting) then
      fail(("spmatrix.astype: cannot cast %s to %s under the rule '%s'"):format(S.dtype, to, casting))
    end
    if to == S.dtype and not copy then return S end
    return astype(S, to)
  end)

  def(methods, [[
spmatrix:copy() -> spmatrix
A copy with its own arrays.
]], copy_of)

  SP.tocoo, SP.tocsr, SP.tocsc, SP.todia = tocoo, tocsr, tocsc, todia
  SP.canonical = canonical
  SP.compress = compress
  SP.expand = expand
end
