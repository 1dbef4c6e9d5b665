--- scipy.linalg's special matrices, built on the device: the structured
-- ones (toeplitz, hankel, circulant, hilbert, convolution_matrix) gather
-- from one vector with an index matrix (SciPy's as_strided views, as a
-- take), the others are a few elementwise operations or one small kernel
-- (fiedler_companion). Values keep the input's dtype as SciPy's do.
return function(ga, sl)
  local internal = require("gpuarray.internal")
  local def = require("gpuarray.api").def
  local fail = internal.fail
  local shape_str = internal.shape_str
  local h = ga.linalg._helpers

  local function vector(x, fname, what)
    x = h.array_arg(x, fname)
    if x.ndim ~= 1 then x = x:reshape(x.size) end      -- SciPy ravels
    return x, what
  end

  --- the m x n matrix of ci i + cj j + off (0-based i, j), int64
  local function index_matrix(m, n, ci, cj, off)
    local i = ga.arange(0, m, "int64"):reshape(m, 1)
    local j = ga.arange(0, n, "int64"):reshape(1, n)
    return ga.add(ga.add(ga.multiply(i, ci), ga.multiply(j, cj)), off)
  end

  -- vals gathered by a 0-based index matrix
  local function gather(vals, idx)
    if idx.size == 0 then return ga.empty(idx.shape, vals.dtype) end
    return ga.take(vals, ga.add(idx, 1))
  end

  local function toeplitz(c, r, fname)
    c = vector(c, fname)
    if r == nil then r = ga.conj(c) else r = vector(r, fname) end
    local dt = ga.result_type(c, r)
    local vals = ga.concatenate({ ga.flip(c):astype(dt), r[{ { 2, r.size } }]:astype(dt) })
    -- out[i, j] = vals[len(c) - 1 - i + j]
    return gather(vals, index_matrix(c.size, r.size, -1, 1, c.size - 1))
  end

  def(sl, [[
scipy.linalg.toeplitz(c: array_like, r: array_like?) -> ndarray
The Toeplitz matrix with first column c and first row r (r[1] is ignored; nil: conj(c), a Hermitian
matrix). c and r are flattened.
]], function(c, r) return toeplitz(c, r, "scipy.linalg.toeplitz") end)

  def(sl, [[
scipy.linalg.hankel(c: array_like, r: array_like?) -> ndarray
The Hankel matrix with first column c and last row r (r[1] is ignored; nil: zeros).
]], function(c, r)
    local fname = "scipy.linalg.hankel"
    c = vector(c, fname)
    if r == nil then r = ga.zeros_like(c) else r = vector(r, fname) end
    local dt = ga.result_type(c, r)
    local vals = ga.concatenate({ c:astype(dt), r[{ { 2, r.size } }]:astype(dt) })
    return gather(vals, index_matrix(c.size, r.size, 1, 1, 0))
  end)

  def(sl, [[
scipy.linalg.circulant(c: array_like) -> ndarray
The circulant matrix whose first column is c: out[i, j] = c[(i - j) mod n].
]], function(c)
    c = vector(c, "scipy.linalg.circulant")
    local n = c.size
    if n == 0 then return ga.empty({ 0, 0 }, c.dtype) end
    return gather(c, ga.remainder(index_matrix(n, n, 1, -1, n), n))
  end)

  def(sl, [[
scipy.linalg.hilbert(n: integer) -> ndarray
The n x n Hilbert matrix 1 / (i + j - 1) (1-based i, j), float64.
]], function(n)
    if n < 0 then fail("scipy.linalg.hilbert: n must be non-negative, got " .. n) end
    return ga.divide(1.0, ga.add(index_matrix(n, n, 1, 1, 1), 0.0))
  end)

  def(sl, [[
scipy.linalg.companion(a: array_like) -> ndarray
The companion matrix of the polynomial with coefficients a (highest degree first): its eigenvalues are
the roots. a[1] must not be zero (one read back checks it).
]], function(a)
    local fname = "scipy.linalg.companion"
    a = h.array_arg(a, fname)
    if a.ndim ~= 1 then fail(fname .. ": incorrect shape for a: a must be one-dimensional") end
    if a.size < 2 then fail(fname .. ": the length of a must be at least 2") end
    local lead = a[1]
    if lead == 0 or lead == false then fail(fname .. ": the first coefficient in a must not be zero") end
    local n = a.size - 1
    local first = ga.divide(ga.negative(a[{ { 2, a.size } }]), ga.multiply(a[{ { 1, 1 } }], 1.0))
    local c = ga.zeros({ n, n }, first.dtype)
    c[{ { 1, 1 }, {} }] = first:reshape(1, n)
    if n > 1 then c[{ { 2, n }, { 1, n - 1 } }] = ga.eye(n - 1, first.dtype) end
    return c
  end)

  def(sl, [[
scipy.linalg.convolution_matrix(a: array_like, n: integer, mode: "full"|"valid"|"same" = "full") -> ndarray
The matrix A with A v = convolve(a, v, mode) for vectors v of length n (a Toeplitz matrix).
]], function(a, n, mode)
    local fname = "scipy.linalg.convolution_matrix"
    if n <= 0 then fail(fname .. ": n must be a positive integer") end
    a = h.array_arg(a, fname)
    if a.ndim ~= 1 then fail(fname .. ": convolution_matrix expects a one-dimensional array as input") end
    if a.size == 0 then fail(fname .. ": len(a) must be at least 1") end
    local z = ga.zeros(n - 1, a.dtype)
    local az = ga.concatenate({ a, z })
    local raz = ga.concatenate({ ga.flip(a), z })
    local len = az.size
    local col0, row0
    -- SciPy's slices, 0-based half-open [lo, hi), taken as 1-based ranges
    local function slice(x, lo, hi)
      if lo < 0 then lo = lo + x.size end
      if hi < 0 then hi = hi + x.size end
      return x[{ { lo + 1, hi } }]
    end
    if mode == "full" then
      col0, row0 = az, slice(raz, len - n, len)
    else
      local tb, te
      if mode == "same" then
        local trim = math.min(n, a.size) - 1
        tb = trim // 2
        te = trim - tb
      else
        tb = math.min(n, a.size) - 1
        te = tb
      end
      col0 = slice(az, tb, len - te)
      row0 = slice(raz, len - n - tb, len - tb)
    end
    return toeplitz(col0, row0, fname)
  end)

  def(sl, [[
scipy.linalg.dft(n: integer, scale: "sqrtn"|"n"?) -> ndarray
The n x n discrete Fourier transform matrix exp(-2 pi i j k / n) (0-based j, k), complex128; scale
"sqrtn" divides by sqrt(n), "n" by n.
]], function(n, scale)
    if n < 0 then fail("scipy.linalg.dft: n must be non-negative, got " .. n) end
    -- the exponent reduced mod n exactly, in integers, before the angle
    local t = ga.remainder(ga.multiply(ga.arange(0, n, "int64"):reshape(n, 1), ga.arange(0, n, "int64")), n)
    local ang = ga.multiply(t:astype("float64"), -2 * math.pi / math.max(n, 1))
    local m = ga.add(ga.cos(ang):astype("complex128"), ga.multiply(ga.sin(ang):astype("complex128"),
      ga.complex128(0, 1)))
    if scale == "sqrtn" then m = ga.divide(m, math.sqrt(n)) elseif scale == "n" then m = ga.divide(m, n) end
    return m
  end)

  def(sl, [[
scipy.linalg.fiedler(a: array_like) -> ndarray
The symmetric Fiedler matrix |a[i] - a[j]|.
]], function(a)
    a = h.array_arg(a, "scipy.linalg.fiedler")
    if a.ndim ~= 1 then fail("scipy.linalg.fiedler: a must be one-dimensional, got shape " .. shape_str(a.shape)) end
    if a.size == 0 then return ga.empty(0, "float64") end
    return ga.abs(ga.subtract(a:reshape(a.size, 1), a:reshape(1, a.size)))
  end)

  local fc_kernel
  function sl._fiedler_companion_kernel()
    -- out is n x n (n = len(a) - 1), a already divided by a[0]; SciPy's
    -- five strided assignments as one rule per element (0-based r, c)
    fc_kernel = fc_kernel or ga.ElementwiseKernel("raw T a, int64 n", "T out", [[
      long long r = i / n, c = i % n;
      T v = (T)0;
      if (r == 0 && c == 0) v = -a[1];
      else if (r == 1 && c == 0) v = (T)1;
      else if ((r & 1) && r >= 3 && c == r - 2) v = (T)1;
      else if (!(r & 1) && r >= 2 && c == r - 1) v = -a[r + 1];
      else if (!(r & 1) && c == r + 2) v = (T)1;
      else if (!(r & 1) && c == r + 1) v = -a[r + 2];
      out = v;
    ]], "ga_fiedler_companion")
    return fc_kernel
  end

  def(sl, [[
scipy.linalg.fiedler_companion(a: array_like) -> ndarray
The Fiedler companion matrix of the polynomial a (highest degree first): pentadiagonal, with the roots
as eigenvalues. a[1] must not be zero.
]], function(a)
    local fname = "scipy.linalg.fiedler_companion"
    a = h.array_arg(a, fname)
    if a.ndim == 0 then a = a:reshape(1) end
    if a.ndim ~= 1 then fail(fname .. ": input 'a' must be a 1-D array") end
    if a.size <= 2 then
      if a.size == 2 then
        return ga.negative(ga.divide(a[{ { 2, 2 } }], a[{ { 1, 1 } }])):reshape(1, 1)
      end
      return ga.empty(0, a.dtype)
    end
    if a[1] == 0 then fail(fname .. ": leading coefficient is zero") end
    a = ga.divide(a, a[{ { 1, 1 } }])
    local n = a.size - 1
    local out = ga.empty({ n, n }, a.dtype)
    sl._fiedler_companion_kernel()(a, n, out)
    return out
  end)

  def(sl, [[
scipy.linalg.hadamard(n: integer, dtype: dtype = "int64") -> ndarray
The n x n Hadamard matrix of Sylvester's construction (n a power of 2): (-1)^popcount(i & j).
]], function(n, dtype)
    -- tested before the doubling loop: (1 << lg) < n never ends past 2^62
    if n < 1 or n & (n - 1) ~= 0 then
      fail("scipy.linalg.hadamard: n must be a positive integer, and n must be a power of 2")
    end
    local lg = 0
    while (1 << lg) < n do lg = lg + 1 end
    local H = ga.ones({ 1, 1 }, dtype)
    for _ = 1, lg do
      H = ga.vstack({ ga.hstack({ H, H }), ga.hstack({ H, ga.negative(H) }) })
    end
    return H
  end)

  def(sl, [[
scipy.linalg.helmert(n: integer, full: boolean = false) -> ndarray
The Helmert matrix of order n: (n - 1) x n, or n x n with full (its first row constant).
]], function(n, full)
    if n < 0 then fail("scipy.linalg.helmert: n must be non-negative, got " .. n) end
    local k = ga.arange(0, n, "float64")
    local H = ga.subtract(ga.tril(ga.ones({ n, n }), -1), ga.diag(k))
    local d = ga.multiply(k, ga.add(k, 1))
    if n > 0 then
      H[{ { 1, 1 }, {} }] = 1
      d[1] = n
    end
    local Hf = ga.divide(H, ga.sqrt(d):reshape(n, 1))
    if full then return Hf end
    return ga.ascontiguousarray(Hf[{ { 2, n }, {} }])
  end)

  def(sl, [[
scipy.linalg.leslie(f: array_like, s: array_like) -> ndarray
The Leslie matrix: first row the fecundities f (n), subdiagonal the survival rates s (n - 1).
]], function(f, s)
    local fname = "scipy.linalg.leslie"
    f, s = h.array_arg(f, fname), h.array_arg(s, fname)
    if f.ndim ~= 1 then fail(fname .. ": incorrect shape for f: f must be one-dimensional") end
    if s.ndim ~= 1 then fail(fname .. ": incorrect shape for s: s must be one-dimensional") end
    if f.size ~= s.size + 1 then
      fail(fname .. ": incorrect lengths for f and s: the length of s must be one less than the length of f")
    end
    if s.size == 0 then fail(fname .. ": the length of s must be at least 1") end
    local n = f.size
    local dt = ga.result_type(f, s)
    local a = ga.zeros({ n, n }, dt)
    a[{ { 1, 1 }, {} }] = f:reshape(1, n)
    a[{ { 2, n }, { 1, n - 1 } }] = ga.diag(s:astype(dt))
    return a
  end)

  def(sl, [[
scipy.linalg.block_diag(...: array_like) -> ndarray
The block-diagonal matrix of the arrays given (0-d and 1-D ones are rows: 1 x 1, 1 x n); none gives
a 1 x 0 matrix.
]], function(...)
    local fname = "scipy.linalg.block_diag"
    local arrs = table.pack(...)
    local mats, dts = {}, {}
    for i = 1, arrs.n do
      local x = h.array_arg(arrs[i], fname)
      if x.ndim > 2 then
        fail(("%s: argument %d has %d dimensions, at most 2 are allowed"):format(fname, i, x.ndim))
      end
      if x.ndim < 2 then x = x:reshape(1, x.size) end
      mats[#mats + 1] = x
      dts[#dts + 1] = x.dtype
    end
    if #mats == 0 then return ga.empty({ 1, 0 }, "float64") end
    local rows, cols = 0, 0
    for _, x in ipairs(mats) do rows, cols = rows + x.shape[1], cols + x.shape[2] end
    local out = ga.zeros({ rows, cols }, ga.result_type(table.unpack(dts)))
    local r, c = 0, 0
    for _, x in ipairs(mats) do
      local m, n = x.shape[1], x.shape[2]
      if m > 0 and n > 0 then out[{ { r + 1, r + m }, { c + 1, c + n } }] = x end
      r, c = r + m, c + n
    end
    return out
  end)

  def(sl, [[
scipy.linalg.khatri_rao(a: array_like, b: array_like) -> ndarray
The column-wise Kronecker product of a (n x k) and b (m x k): (n m) x k.
]], function(a, b)
    local fname = "scipy.linalg.khatri_rao"
    a, b = h.array_arg(a, fname), h.array_arg(b, fname)
    if a.ndim ~= 2 or b.ndim ~= 2 then fail(fname .. ": the both arrays should be 2-dimensional") end
    if a.shape[2] ~= b.shape[2] then
      fail(fname .. ": the number of columns for both arrays should be equal")
    end
    local k = a.shape[2]
    local c = ga.multiply(a:reshape(a.shape[1], 1, k), b:reshape(1, b.shape[1], k))
    return c:reshape(a.shape[1] * b.shape[1], k)
  end)

  def(sl, [[
scipy.linalg.bandwidth(a: array_like) -> integer, integer
The lower and upper bandwidths of the 2-D array a: the largest i - j and j - i of its nonzero entries
(0, 0 for a diagonal or empty matrix). Reads the result back.
]], function(a)
    local fname = "scipy.linalg.bandwidth"
    a = h.array_arg(a, fname)
    if a.ndim ~= 2 then fail(("%s: input array must be 2-D, got shape %s"):format(fname, shape_str(a.shape))) end
    local m, n = a.shape[1], a.shape[2]
    if m * n == 0 then return 0, 0 end
    local d = index_matrix(m, n, 1, -1, 0)                 -- i - j
    local nz = ga.not_equal(a, 0)
    local lower = ga.max(ga.where(nz, ga.maximum(d, 0), 0)):item()
    local upper = ga.max(ga.where(nz, ga.maximum(ga.negative(d), 0), 0)):item()
    return math.tointeger(lower), math.tointeger(upper)
  end)
end
