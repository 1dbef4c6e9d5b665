--- Making indices (API.md §4, §14): nonzero argwhere (flatnonzero is with
-- the sorting/searching routines),
-- indices ix_ ravel_multi_index unravel_index diag_indices(_from)
-- mask_indices tril_indices(_from) triu_indices(_from) ndindex.
--
-- Every index these return or take is 1-based (API.md §14): indices'
-- grids count from 1, unravel_index returns and ravel_multi_index takes and
-- returns 1-based positions, tril_indices gives 1-based rows and columns.
-- Several arrays come back as multiple return values (as NumPy's tuples).
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def
  local methods = ga.methods

  local C = { nonzero = ga.nonzero, argwhere = ga.argwhere }

  local function array(a, fname) return args.array(ga, a, fname) end

  def(ga, [[
nonzero(a: array_like) -> ndarray...
The 1-based positions of the nonzero (true) elements of a, one int64
array per axis (multiple return values), in C order. Synchronizes (the
count decides the size).
]], function(a)
    return C.nonzero(array(a, "nonzero"))
  end)
  methods.nonzero = ga.nonzero
  api.alias("ndarray:nonzero", ga.nonzero)

  def(ga, [[
argwhere(a: array_like) -> ndarray
The 1-based coordinates of the nonzero elements of a, an int64 array of
shape {count, a.ndim}, in C order. Synchronizes.
]], function(a)
    return C.argwhere(array(a, "argwhere"))
  end)

  local function dims_of(dimensions, fname)
    local d = type(dimensions) == "table" and args.plain(dimensions, fname, "the dimensions") or { dimensions }
    for _, n in ipairs(d) do args.count(n, fname, "each dimension") end
    return d
  end

  def(ga, [[
indices(dimensions: shape, dtype: dtype = "int64", sparse: boolean = false) -> ndarray
A grid of 1-based indices: an array of shape {ndim, d1, d2, ...} whose
slice k holds each element's position along axis k (counting from 1).
sparse returns one array per axis instead (multiple return values), each
of length 1 on the other axes.
]], function(dimensions, dtype, sparse)
    local d = dims_of(dimensions, "indices")
    local nd = #d
    local vals = {}
    for k = 1, nd do
      local s = {}
      for j = 1, nd do s[j] = 1 end
      s[k] = d[k]
      vals[k] = ga.arange(1, d[k] + 1, "int64"):astype(dtype, { copy = false }):reshape(s)
    end
    if sparse then return table.unpack(vals, 1, nd) end
    local shape = { nd }
    for k = 1, nd do shape[k + 1] = d[k] end
    local out = ga.empty(shape, dtype)
    for k = 1, nd do
      if out.size > 0 then out[k] = vals[k] end
    end
    return out
  end)

  def(ga, [[
ix_(...: array_like) -> ndarray...
Open-mesh index arrays from 1-D sequences (positions, or bool masks turned
into their 1-based positions): argument k becomes an array of length 1 on
every axis but k, for indexing the cross product. Multiple return values.
]], function(...)
    local n = select("#", ...)
    local out = {}
    for k = 1, n do
      local v = select(k, ...)
      local x = (type(v) == "table" and rawlen(v) == 0) and ga.empty({ 0 }, "int64") or array(v, "ix_")
      if x.ndim ~= 1 then fail(("ix_: argument %d must be 1-D, got %d dimensions"):format(k, x.ndim)) end
      if x.dtype == "bool" then x = (C.nonzero(x)) end
      local s = {}
      for j = 1, n do s[j] = 1 end
      s[k] = x.shape[1]
      out[k] = x:reshape(s)
    end
    return table.unpack(out, 1, n)
  end)

  -- C-order (or F-order) element strides of dims
  local elem_strides = args.elem_strides

  local function all_integers(list)
    for _, v in ipairs(list) do
      if math.type(v) ~= "integer" then return false end
    end
    return true
  end

  def(ga, [[
ravel_multi_index(multi_index: list, dims: shape, mode: "raise"|"wrap"|"clip"|list = "raise",
                  order: "C"|"F" = "C") -> ndarray
The 1-based flat positions (in an array of shape dims, read in order) of
the 1-based coordinates multi_index = {rows, cols, ...} (one array-like per
axis, broadcast together). mode per axis or for all: "raise" (checked:
synchronizes for arrays), "wrap" (modulo the length: 0 is the last),
"clip" (clamped into 1..n). Lua integers in, a Lua integer out.
]], function(multi_index, dims, mode, order)
    local d = dims_of(dims, "ravel_multi_index")
    local mi = args.plain(multi_index, "ravel_multi_index", "multi_index")
    if #mi ~= #d then
      fail(("ravel_multi_index: %d coordinate arrays for %d dimensions"):format(#mi, #d))
    end
    local modes = type(mode) == "table" and args.plain(mode, "ravel_multi_index", "mode") or {}
    if type(mode) == "table" and #modes ~= #d then
      fail(("ravel_multi_index: %d modes for %d dimensions"):format(#modes, #d))
    end
    for k = 1, #d do
      modes[k] = modes[k] or mode
      if modes[k] ~= "raise" and modes[k] ~= "wrap" and modes[k] ~= "clip" then
        fail(("ravel_multi_index: mode %s is not raise, wrap or clip"):format(tostring(modes[k])))
      end
    end
    local st, size = elem_strides(d, order)
    if all_integers(mi) then
      local flat = 0
      for k = 1, #d do
        local i, n = mi[k], d[k]
        if modes[k] == "wrap" then
          if n == 0 then fail("ravel_multi_index: cannot wrap into an empty axis") end
          i = (i - 1) % n + 1
        elseif modes[k] == "clip" then
          i = math.max(1, math.min(n, i))
        elseif i < 1 or i > n then
          fail(("ravel_multi_index: coordinate %d is out of range for axis %d of length %d"):format(i, k, n))
        end
        flat = flat + (i - 1) * st[k]
      end
      if size == 0 then fail("ravel_multi_index: dims have no elements") end
      return flat + 1
    end
    local flat = nil
    for k = 1, #d do
      local i = array(mi[k], "ravel_multi_index")
      if not args.INDEX_DTYPES[i.dtype] then
        fail(("ravel_multi_index: coordinates must be integers, array %d is %s"):format(k, i.dtype))
      end
      i = i:astype("int64", { copy = false })
      local n = d[k]
      if modes[k] == "wrap" then
        if n == 0 then fail("ravel_multi_index: cannot wrap into an empty axis") end
        i = ga.add(ga.remainder(ga.subtract(i, 1), n), 1)
      elseif modes[k] == "clip" then
        i = ga.clip(i, 1, math.max(n, 1))
      elseif i.size > 0 and (ga.min(i):item() < 1 or ga.max(i):item() > n) then
        fail(("ravel_multi_index: a coordinate is out of range for axis %d of length %d"):format(k, n))
      end
      local term = ga.multiply(ga.subtract(i, 1), st[k])
      flat = flat and ga.add(flat, term) or term
    end
    return ga.add(flat, 1)
  end)

  def(ga, [[
unravel_index(indices: integer|list|ndarray, shape: shape, order: "C"|"F" = "C") -> ndarray...
The 1-based coordinates (one per axis of shape, multiple return values) of
the 1-based flat positions indices in an array of shape, read in order.
Positions outside 1..size raise (arrays: synchronizes). A Lua integer
gives Lua integers.
]], function(indices, shape, order)
    local d = dims_of(shape, "unravel_index")
    local nd = #d
    local _, size = elem_strides(d, order)
    local axes = {}
    if order == "F" then
      for k = 1, nd do axes[k] = k end
    else
      for k = nd, 1, -1 do axes[#axes + 1] = k end
    end
    if math.type(indices) == "integer" then
      if indices < 1 or indices > size then
        fail(("unravel_index: position %d is out of range for %d elements"):format(indices, size))
      end
      local z, out = indices - 1, {}
      for _, k in ipairs(axes) do
        out[k] = z % d[k] + 1
        z = z // d[k]
      end
      return table.unpack(out, 1, nd)
    end
    local x = array(indices, "unravel_index")
    if not args.INDEX_DTYPES[x.dtype] then fail("unravel_index: positions must be integers, got " .. x.dtype) end
    x = x:astype("int64", { copy = false })
    if x.size > 0 and (ga.min(x):item() < 1 or ga.max(x):item() > size) then
      fail(("unravel_index: a position is out of range for %d elements"):format(size))
    end
    local z = ga.subtract(x, 1)
    local out = {}
    for i, k in ipairs(axes) do
      out[k] = ga.add(ga.remainder(z, d[k]), 1)
      if i < nd then z = ga.floor_divide(z, d[k]) end
    end
    return table.unpack(out, 1, nd)
  end)

  local function diag_indices(n, ndim)
    local idx = ga.arange(1, n + 1, "int64")
    local out = {}
    for k = 1, ndim do out[k] = idx end
    return table.unpack(out, 1, ndim)
  end

  def(ga, [[
diag_indices(n: integer, ndim: integer = 2) -> ndarray...
The 1-based positions of the main diagonal of an n x ... x n array of ndim
dimensions: ndim copies of 1..n (int64), multiple return values.
]], function(n, ndim)
    args.count(n, "diag_indices", "n")
    args.count(ndim, "diag_indices", "ndim")
    if ndim > 32 then fail(("diag_indices: ndim %d is more than 32 dimensions"):format(ndim)) end
    return diag_indices(n, ndim)
  end)

  def(ga, [[
diag_indices_from(arr: ndarray) -> ndarray...
ga.diag_indices for arr, which has at least 2 dimensions, all of one length.
]], function(arr)
    if arr.ndim < 2 then fail("diag_indices_from: the array must have at least 2 dimensions") end
    local s = arr.shape
    for d = 2, #s do
      if s[d] ~= s[1] then fail("diag_indices_from: all dimensions of the array must be of equal length") end
    end
    return diag_indices(s[1], arr.ndim)
  end)

  local function tril_indices(n, k, m, fname)
    m = m or n
    args.count(n, fname, "n")
    args.count(m, fname, "m")
    return C.nonzero(ga.tri(n, m, k, "bool"))
  end

  local function triu_indices(n, k, m, fname)
    m = m or n
    args.count(n, fname, "n")
    args.count(m, fname, "m")
    return C.nonzero(ga.logical_not(ga.tri(n, m, k - 1, "bool")))
  end

  def(ga, [[
tril_indices(n: integer, k: integer = 0, m: integer?) -> ndarray...
The 1-based rows and columns (two int64 arrays) of the elements of an
n x m array (m = n when nil) at and below diagonal k (an offset), in C order.
]], function(n, k, m) return tril_indices(n, k, m, "tril_indices") end)

  def(ga, [[
triu_indices(n: integer, k: integer = 0, m: integer?) -> ndarray...
The 1-based rows and columns of the elements at and above diagonal k of
an n x m array, in C order.
]], function(n, k, m) return triu_indices(n, k, m, "triu_indices") end)

  local function square_2d(arr, fname)
    if arr.ndim ~= 2 then fail(fname .. ": the array must be 2-D") end
    return arr.shape[1], arr.shape[2]
  end

  def(ga, [[
tril_indices_from(arr: ndarray, k: integer = 0) -> ndarray...
ga.tril_indices for the shape of the 2-D arr.
]], function(arr, k)
    local n, m = square_2d(arr, "tril_indices_from")
    return tril_indices(n, k, m, "tril_indices_from")
  end)

  def(ga, [[
triu_indices_from(arr: ndarray, k: integer = 0) -> ndarray...
ga.triu_indices for the shape of the 2-D arr.
]], function(arr, k)
    local n, m = square_2d(arr, "triu_indices_from")
    return triu_indices(n, k, m, "triu_indices_from")
  end)

  def(ga, [[
mask_indices(n: integer, mask_func: callable, k: integer = 0) -> ndarray...
The 1-based rows and columns where mask_func(ones n x n, k) is nonzero
(ga.triu, ga.tril or a function of yours), in C order.
]], function(n, mask_func, k)
    args.count(n, "mask_indices", "n")
    local a = api.call_user(mask_func, ga.ones({ n, n }, "int64"), k)
    if not is_array(a) then fail("mask_indices: mask_func must return an ndarray") end
    return C.nonzero(ga.not_equal(a, 0))
  end)

  def(ga, [[
ndindex(...: integer|shape) -> function
An iterator over the 1-based indices of an array of the given shape (as
integers or one list), in C order: each step gives a new list {i1, i2, ...}
(a key that reads that element: x[idx]). A shape of no axes gives {} once.
]], function(...)
    local n = select("#", ...)
    local shape = (n == 1 and type((...)) == "table") and args.plain((...), "ndindex", "shape") or { ... }
    for _, d in ipairs(shape) do args.count(d, "ndindex", "each length") end
    local nd = #shape
    local cur, done = nil, args.prod(shape) == 0
    return function()
      if done then return nil end
      if cur == nil then
        cur = {}
        for d = 1, nd do cur[d] = 1 end
      else
        local d = nd
        while d >= 1 do
          if cur[d] < shape[d] then
            cur[d] = cur[d] + 1
            break
          end
          cur[d] = 1
          d = d - 1
        end
        if d < 1 then
          done = true
          return nil
        end
      end
      local r = {}
      for d = 1, nd do r[d] = cur[d] end
      return r
    end
  end)
end
