--- Polynomials (NumPy 2's np.lib.polynomial, coefficients highest degree
-- first): poly1d, poly, roots, polyval, polyfit, polyadd, polysub,
-- polymul, polydiv, polyder, polyint. Evaluation (polyval over arrays) and
-- fitting (a Vandermonde matrix and linalg.lstsq) run on the device; the
-- coefficient arithmetic runs on the host (polynomial/coef.lua), and so do
-- the eigenvalues of roots' companion matrix (polynomial/eig.lua: linalg
-- has no general eig). The power series of ga.polynomial (lowest degree
-- first, Polynomial) are in polynomial/series.lua.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local fail, is_array = internal.fail, internal.is_array
  local C = require("gpuarray.polynomial.coef")(ga)
  local E = require("gpuarray.polynomial.eig")

  local poly1d_mt = {}
  local function is_poly1d(v) return type(v) == "table" and getmetatable(v) == poly1d_mt end
  api.set_type("poly1d", is_poly1d)

  local function result(list, dt, truepoly)
    local a = C.array(list, dt)
    if truepoly then return ga.poly1d(a) end
    return a
  end

  --- eigenvalues of a list of rows: real list, or {re, im} pairs and true
  local function eigenvalues(rows, fname)
    local wr, wi = E.eigvals(rows)
    if not wr then fail(fname .. ": eigenvalues did not converge") end
    local complex = false
    for i = 1, #wi do complex = complex or wi[i] ~= 0 end
    local out = {}
    local i = 1
    while i <= #wr do
      if complex then
        if wi[i] ~= 0 and i < #wr then
          -- LAPACK's order within a conjugate pair: positive imaginary part first
          local im = math.abs(wi[i])
          out[i], out[i + 1] = { wr[i], im }, { wr[i + 1], -im }
          i = i + 2
        else
          out[i] = { wr[i], 0.0 }
          i = i + 1
        end
      else
        out[i] = wr[i]
        i = i + 1
      end
    end
    return out, complex
  end

  api.def(ga, [[
roots(p: array_like) -> ndarray
The roots of the polynomial with coefficients p (highest degree first): the
eigenvalues of its companion matrix (host QR iteration: linalg has no general
eig on the device). float64, or complex128 when a root is complex. The order
of the roots can differ from NumPy's (LAPACK's).
]], function(p)
    if is_array(p) and p.ndim > 1 then fail("roots: Input must be a rank-1 array.") end
    local t, dt = C.read(p, "roots")
    if C.kind(dt) == "c" then fail("roots: complex coefficients are not supported") end
    local first, last
    for i, v in ipairs(t) do
      if v ~= 0 then
        first = first or i
        last = i
      end
    end
    if not first then return ga.empty(0, "float64") end
    local trailing = #t - last
    local N = last - first + 1
    local r, complex = {}, false
    if N > 1 then
      local rows = {}
      for i = 1, N - 1 do
        rows[i] = {}
        for j = 1, N - 1 do rows[i][j] = 0 end
        if i > 1 then rows[i][i - 1] = 1 end
      end
      for j = 1, N - 1 do rows[1][j] = -t[first + j] / t[first] end
      r, complex = eigenvalues(rows, "roots")
    end
    for _ = 1, trailing do r[#r + 1] = complex and { 0.0, 0.0 } or 0.0 end
    return C.array(r, complex and "complex128" or "float64")
  end)

  api.def(ga, [[
poly(seq_of_zeros: array_like) -> ndarray|number
The coefficients (highest degree first) of the monic polynomial with the
given roots; of a square matrix, its characteristic polynomial. Real when
the complex roots come in conjugate pairs. No roots: 1.0.
]], function(z)
    local roots, complex
    if is_array(z) and z.ndim == 2 then
      local n = z.shape[1]
      if n ~= z.shape[2] or n == 0 then fail("poly: input must be 1d or non-empty square 2d array.") end
      if C.kind(z.dtype) == "c" then fail("poly: complex matrices are not supported") end
      roots, complex = eigenvalues(z:astype("float64"):totable(), "poly")
    else
      if is_array(z) and z.ndim > 2 then fail("poly: input must be 1d or non-empty square 2d array.") end
      local t, dt = C.read(z, "poly", "seq_of_zeros")
      roots, complex = t, C.kind(dt) == "c"
    end
    if #roots == 0 then return 1.0 end
    -- (x - z1)(x - z2)... with complex pairs
    local re, im = { 1.0 }, { 0.0 }
    for _, zv in ipairs(roots) do
      local zr, zi = C.re(zv), C.im(zv)
      local nr, ni = {}, {}
      for i = 1, #re + 1 do
        local ar, ai = re[i] or 0, im[i] or 0
        local br, bi = re[i - 1] or 0, im[i - 1] or 0
        -- new[i] = a[i] - z * a[i-1]
        nr[i] = ar - (zr * br - zi * bi)
        ni[i] = ai - (zr * bi + zi * br)
      end
      re, im = nr, ni
    end
    if complex then
      -- conjugate-closed roots give a real polynomial
      local function count(zr, zi)
        local c = 0
        for _, b in ipairs(roots) do
          if C.re(b) == zr and C.im(b) == zi then c = c + 1 end
        end
        return c
      end
      local closed = true
      for _, a in ipairs(roots) do
        if C.im(a) ~= 0 and count(C.re(a), C.im(a)) ~= count(C.re(a), -C.im(a)) then closed = false end
      end
      if not closed then
        local out = {}
        for i = 1, #re do out[i] = { re[i], im[i] } end
        return C.array(out, "complex128")
      end
    end
    return C.array(re, "float64")
  end)

  api.def(ga, [[
polyval(p: array_like|poly1d, x: array_like) -> ndarray
The polynomial p (highest degree first) at x, by Horner's rule on the
device: y = y * x + p[i], NumPy's dtype rules.
]], function(p, x)
    local t, dt = C.read(p, "polyval")
    if not is_array(x) then x = ga.asarray(x) end
    local y = ga.zeros_like(x)
    local scalar = ga[dt]
    for _, v in ipairs(t) do
      y = y * x + (scalar and scalar(v) or v)
    end
    return y
  end)

  local function binary(name, op)
    api.def(ga, ([[
%s(a1: array_like|poly1d, a2: array_like|poly1d) -> ndarray|poly1d
%s
]]):format(name, ({ polyadd = "The sum of two polynomials (highest degree first).",
                    polysub = "The difference of two polynomials (highest degree first).",
                    polymul = "The product of two polynomials (highest degree first)." })[name]),
    function(a1, a2)
      local t1, d1 = C.read(a1, name, "a1")
      local t2, d2 = C.read(a2, name, "a2")
      return result(op(t1, t2), ga.result_type(d1, d2), is_poly1d(a1) or is_poly1d(a2))
    end)
  end
  binary("polyadd", function(a, b) return C.add(a, b) end)
  binary("polysub", function(a, b) return C.add(a, b, true) end)
  binary("polymul", C.mul)

  local function polydiv(u, v)
    local tu = C.read(u, "polydiv", "u")
    local tv = C.read(v, "polydiv", "v")
    if #tv == 0 or #tu == 0 then fail("polydiv: empty polynomial") end
    local m, n = #tu - 1, #tv - 1
    local scale = 1.0 / tv[1]
    local q, r = {}, {}
    for i = 1, math.max(m - n + 1, 1) do q[i] = 0.0 end
    for i = 1, #tu do r[i] = tu[i] + 0.0 end
    for k = 1, m - n + 1 do
      local d = scale * r[k]
      q[k] = d
      for j = 1, n + 1 do r[k + j - 1] = r[k + j - 1] - d * tv[j] end
    end
    while #r > 1 and math.abs(r[1]) <= 1e-8 do table.remove(r, 1) end
    local tp = is_poly1d(u) or is_poly1d(v)
    return result(q, "float64", tp), result(r, "float64", tp)
  end
  api.def(ga, [[
polydiv(u: array_like|poly1d, v: array_like|poly1d) -> ndarray|poly1d, ndarray|poly1d
The quotient and remainder of u / v (highest degree first), float64; the
remainder's leading values within 1e-8 of zero are dropped, as NumPy's.
]], polydiv)

  local function polyder(p, m)
    if m < 0 then fail("polyder: Order of derivative must be positive (see polyint)") end
    local t, dt = C.read(p, "polyder")
    -- past #t derivatives t stays empty: a huge m must not loop m times
    for _ = 1, math.min(m, #t + 1) do
      local n = #t - 1
      local y = {}
      for i = 1, n do y[i] = t[i] * (n - i + 1) end
      t = y
    end
    return result(t, dt, is_poly1d(p))
  end
  api.def(ga, [[
polyder(p: array_like|poly1d, m: integer = 1) -> ndarray|poly1d
The m-th derivative of the polynomial p (highest degree first).
]], polyder)

  local function polyint(p, m, k)
    if m < 0 then fail("polyint: Order of integral must be positive (see polyder)") end
    -- each integration is a host pass over all coefficients (m^2 / 2 steps)
    if m > 4096 then fail(("polyint: m = %d integrations are more than the 4096 the host computes"):format(m)) end
    local ks
    if k == nil then
      ks = {}
      for i = 1, m do ks[i] = 0.0 end
    else
      ks = C.read(k, "polyint", "k")
      if #ks == 1 and m > 1 then
        for i = 2, m do ks[i] = ks[1] end
      end
      if #ks < m then fail("polyint: k must be a scalar or a rank-1 array of length 1 or >m.") end
    end
    local t, dt = C.read(p, "polyint")
    if m > 0 then dt = "float64" end
    for j = 1, m do
      local n = #t
      local y = {}
      for i = 1, n do y[i] = t[i] / (n - i + 1) end
      y[n + 1] = ks[j] + 0.0
      t = y
    end
    return result(t, dt, is_poly1d(p))
  end
  api.def(ga, [[
polyint(p: array_like|poly1d, m: integer = 1, k: number|list|ndarray?) -> ndarray|poly1d
The m-th antiderivative of p (highest degree first); k: the integration
constants (one, or one per integration, the first for the first).
]], polyint)

  api.def(ga, [[
polyfit(x: array_like, y: array_like, deg: integer, rcond: number?, full: boolean = false,
        w: array_like?, cov: boolean|"unscaled" = false) -> ndarray, ...
The least-squares fit of a polynomial of degree deg (coefficients highest
first) to the points (x, y); y may be 2-D (a fit per column). A Vandermonde
matrix with scaled columns, solved by linalg.lstsq (SVD) on the device.
full: also residuals, rank, singular values, rcond; cov: also the
covariance matrix of the coefficients.
]], function(x, y, deg, rcond, full, w, cov)
    local order = deg + 1
    if deg < 0 then fail("polyfit: expected deg >= 0") end
    x, y = ga.asarray(x), ga.asarray(y)
    x, y = x:astype(C.float(x.dtype)), y:astype(C.float(y.dtype))
    if x.ndim ~= 1 then fail("polyfit: expected 1D vector for x") end
    if x.size == 0 then fail("polyfit: expected non-empty vector for x") end
    if y.ndim < 1 or y.ndim > 2 then fail("polyfit: expected 1D or 2D array for y") end
    if x.shape[1] ~= y.shape[1] then fail("polyfit: expected x and y to have same length") end
    local eps = x.dtype == "float32" and 1.1920928955078125e-07 or 2.220446049250313e-16
    rcond = rcond or x.size * eps
    -- the Vandermonde matrix, highest power first
    local lhs = ga.polynomial.polynomial.polyvander(x, deg)
    lhs = ga.flip(lhs, 2)
    local rhs = y
    if w ~= nil then
      w = ga.asarray(w)
      w = w:astype(C.float(w.dtype))
      if w.ndim ~= 1 then fail("polyfit: expected a 1-d array for weights") end
      if w.shape[1] ~= y.shape[1] then fail("polyfit: expected w and y to have the same length") end
      lhs = lhs * w:reshape(w.size, 1)
      rhs = rhs.ndim == 2 and rhs * w:reshape(w.size, 1) or rhs * w
    end
    local scale = ga.sqrt(ga.sum(lhs * lhs, { axis = 1 }))
    lhs = lhs / scale
    local c, resids, rank, s = ga.linalg.lstsq(lhs, rhs, rcond)
    if c.ndim == 2 then c = c / scale:reshape(order, 1) else c = c / scale end
    if full then return c, resids, rank, s, rcond end
    if cov then
      local V = ga.linalg.inv(ga.matmul(lhs:transpose(), lhs)) / ga.outer(scale, scale)
      if cov ~= "unscaled" then
        if x.size <= order then
          fail("polyfit: the number of data points must exceed order to scale the covariance matrix")
        end
        local fac = resids / (x.size - order)
        if y.ndim == 1 then return c, V * fac end
        return c, V:reshape(order, order, 1) * fac
      end
      if y.ndim == 1 then return c, V end
      return c, V:reshape(order, order, 1)
    end
    return c
  end)

  require("gpuarray.polynomial.poly1d")(ga, C, poly1d_mt, polydiv, polyder, polyint)
  require("gpuarray.polynomial.series")(ga, C, eigenvalues)
end
