--- Building matrices (API.md §2, §14): eye, identity, tri, diagflat,
-- vander. diag, tril and triu live with the products (blas/products.lua).
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail = internal.fail
  local def = api.def

  local C = { eye = ga.eye }

  local is_dtype = args.is_dtype

  def(ga, [[
eye(N: integer, M: integer|dtype?, k: integer|dtype = 0, dtype: dtype?, order: "C"|"F" = "C") -> ndarray
An N x M matrix (M = N when nil) with ones on diagonal k (0 the main one,
k > 0 above it, k < 0 below: a diagonal offset, not an index) and zeros
elsewhere. The dtype may also come right after the sizes (ga.eye(3, "int32")).
]], function(n, m, k, dtype, order)
    if is_dtype(m) then
      if k ~= 0 or dtype ~= nil then fail("eye: the dtype comes after the sizes and k") end
      m, dtype = nil, m
    elseif is_dtype(k) then
      if dtype ~= nil then fail("eye: the dtype comes after the sizes and k") end
      k, dtype = 0, k
    end
    m = m or n
    if n < 0 or m < 0 then fail(("eye: negative dimensions %d x %d"):format(n, m)) end
    if order == "F" then
      if dtype ~= nil then return C.eye(m, n, -k, dtype):transpose() end
      return C.eye(m, n, -k):transpose()
    end
    if dtype ~= nil then return C.eye(n, m, k, dtype) end
    return C.eye(n, m, k)
  end)

  def(ga, [[
identity(n: integer, dtype: dtype?) -> ndarray
The n x n identity matrix.
]], function(n, dtype)
    if n < 0 then fail(("identity: negative dimension %d"):format(n)) end
    if dtype ~= nil then return C.eye(n, n, 0, dtype) end
    return C.eye(n, n, 0)
  end)

  def(ga, [[
tri(N: integer, M: integer?, k: integer = 0, dtype: dtype?) -> ndarray
An N x M matrix (M = N when nil) of ones at and below diagonal k (an
offset: k > 0 above the main diagonal) and zeros above it.
]], function(n, m, k, dtype)
    m = m or n
    if n < 0 or m < 0 then fail(("tri: negative dimensions %d x %d"):format(n, m)) end
    return ga.tril(ga.ones({ n, m }, dtype), k)
  end)

  def(ga, [[
diagflat(v: array_like, k: integer = 0) -> ndarray
A 2-D array with the flattened v on diagonal k (an offset).
]], function(v, k)
    return ga.diag(args.array(ga, v, "diagflat"):ravel(), k)
  end)

  -- Each row r of a Vandermonde matrix: powers of x[r], each the previous
  -- one times x[r] (NumPy's multiply.accumulate, so the rounding is the
  -- same); float16 rounds after every product, as NumPy's float16 loop does.
  local vander_kernels = {}
  local function vander_kernel(dtype)
    local k = vander_kernels[dtype]
    if k then return k end
    local step = dtype == "float16" and "v = ga_cast<Y>(ga_cast<float>(v) * ga_cast<float>(b));" or "v = v * b;"
    k = ga.ElementwiseKernel("raw X x, int64 ncol, bool inc", "Y y", ([[
      const long long r = i / ncol, c = i - r * ncol;
      const long long e = inc ? c : ncol - 1 - c;
      const Y b = ga_cast<Y>(x[r]);
      Y v = ga_cast<Y>(1);
      for (long long j = 0; j < e; j++) { %s }
      y = v;
    ]]):format(step), "ga_vander_" .. dtype)
    vander_kernels[dtype] = k
    return k
  end
  internal.vander_kernel = vander_kernel   -- for the CPU spec's NVRTC compile

  def(ga, [[
vander(x: array_like, N: integer?, increasing: boolean = false) -> ndarray
The Vandermonde matrix of the 1-D x: column j is x ^ (N - j) (x ^ (j - 1)
when increasing), N = #x columns when nil. Its dtype is x's promoted with
int64 (bool and integers give int64).
]], function(x, n, increasing)
    x = args.array(ga, x, "vander")
    if x.ndim ~= 1 then fail(("vander: x must be 1-D, got %d dimensions"):format(x.ndim)) end
    n = n or x.shape[1]
    if n < 0 then fail(("vander: N must be non-negative, got %d"):format(n)) end
    local dtype = ga.result_type(x.dtype, "int64")
    local y = ga.empty({ x.shape[1], n }, dtype)
    if y.size > 0 then vander_kernel(dtype)(x, n, increasing, y) end
    return y
  end)
end
