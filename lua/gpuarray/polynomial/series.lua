--- ga.polynomial (NumPy's numpy.polynomial, power series: coefficients
-- lowest degree first): polynomial.polyvander, polycompanion, polyval,
-- polyvalfromroots; polyutils.as_series, trimseq, trimcoef; and the
-- Polynomial class's basics (evaluation with its domain and window,
-- degree, deriv, integ, roots, trim, cutdeg, + - * and ==).
return function(ga, C, eigenvalues)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  require("gpuarray.api.surface")   -- api.class
  local fail, is_array = internal.fail, internal.is_array

  local polynomial = { polynomial = {}, polyutils = {} }
  ga.polynomial = polynomial
  local P, U = polynomial.polynomial, polynomial.polyutils

  local function asarray(x)
    if is_array(x) then return x end
    return ga.asarray(x)
  end

  ---------------------------------------------------------------------------
  -- polyutils
  local function check_series(a)
    if a.ndim ~= 1 then fail("polynomial.polyutils.as_series: Coefficient array is not 1-d") end
    if a.size == 0 then fail("polynomial.polyutils.as_series: Coefficient array is empty") end
  end
  local function trim_list(t)
    local n = #t
    while n > 1 and t[n] == 0 do n = n - 1 end
    return table.move(t, 1, n, 1, {})
  end

  api.def(U, [[
polynomial.polyutils.as_series(alist: list, trim: boolean = true) -> list
The 1-D coefficient arrays of alist in one common float (or complex) dtype,
their trailing zeros trimmed (one kept) unless trim is false.
]], function(alist, trim)
    local arrays, dt = {}, nil
    for i, a in ipairs(alist) do
      a = asarray(a)
      if a.ndim == 0 then a = a:reshape(1) end
      check_series(a)
      arrays[i] = a
      local f = C.float(a.dtype)
      dt = dt and ga.result_type(dt, f) or f
    end
    for i, a in ipairs(arrays) do
      if trim then
        local t = a:totable()
        local n = #t
        while n > 1 and (t[n] == 0 or (type(t[n]) == "table" and t[n][1] == 0 and t[n][2] == 0)) do n = n - 1 end
        a = a[{ { 1, n } }]
      end
      arrays[i] = a:astype(dt)
    end
    return arrays
  end)

  api.def(U, [[
polynomial.polyutils.trimseq(seq: list|ndarray) -> list|ndarray
seq without its trailing zeros (one element kept).
]], function(seq)
    if is_array(seq) then
      local t = seq:totable()
      local n = #t
      if n == 0 then return seq end
      while n > 1 and t[n] == 0 do n = n - 1 end
      return seq[{ { 1, n } }]
    end
    return trim_list(seq)
  end)

  api.def(U, [[
polynomial.polyutils.trimcoef(c: array_like, tol: number = 0) -> ndarray
c without its trailing coefficients of absolute value <= tol (all of them:
one zero).
]], function(c, tol)
    if tol < 0 then fail("polynomial.polyutils.trimcoef: tol must be non-negative") end
    c = U.as_series({ c })[1]
    local t = ga.abs(c):totable()
    local last = 0
    for i, v in ipairs(t) do if v > tol then last = i end end
    if last == 0 then return c[{ { 1, 1 } }] * 0 end
    return c[{ { 1, last } }]:copy()
  end)

  ---------------------------------------------------------------------------
  -- polynomial.polynomial
  local vander_kernel
  internal.polyvander_kernel = function()
    vander_kernel = vander_kernel or ga.ElementwiseKernel("raw T x, int64 m", "T v", [[
      const T xi = x[i / m];
      T acc = T(1);
      for (long long j = i % m; j > 0; j--) acc = acc * xi;
      v = acc;
    ]], "ga_polyvander")
    return vander_kernel
  end

  api.def(P, [[
polynomial.polynomial.polyvander(x: array_like, deg: integer) -> ndarray
The Vandermonde matrix of the power series: v[..., j + 1] = x^j for j = 0..deg
(repeated products, as NumPy's), shape x.shape + {deg + 1}; x float.
]], function(x, deg)
    if deg < 0 then fail("polynomial.polynomial.polyvander: deg must be non-negative") end
    x = asarray(x)
    if x.ndim == 0 then x = x:reshape(1) end
    x = ga.ascontiguousarray(x:astype(C.float(x.dtype)))
    local shape = x.shape
    shape[#shape + 1] = deg + 1
    return internal.polyvander_kernel()(x, deg + 1, ga.empty(shape, x.dtype))
  end)

  local function companion(t)
    if #t < 2 then fail("polynomial.polynomial.polycompanion: Series must have maximum degree of at least 1.") end
    if #t == 2 then return { { -t[1] / t[2] } } end
    local n = #t - 1
    local rows = {}
    for i = 1, n do
      rows[i] = {}
      for j = 1, n do rows[i][j] = (i == j + 1) and 1.0 or 0.0 end
      rows[i][n] = rows[i][n] - t[i] / t[n + 1]
    end
    return rows
  end

  api.def(P, [[
polynomial.polynomial.polycompanion(c: array_like) -> ndarray
The companion matrix of the power series c (lowest degree first).
]], function(c)
    local a = U.as_series({ c })[1]
    if C.kind(a.dtype) == "c" then fail("polynomial.polynomial.polycompanion: complex series are not supported") end
    return ga.array(companion(a:totable()), a.dtype)
  end)

  api.def(P, [[
polynomial.polynomial.polyval(x: array_like, c: array_like, tensor: boolean = true) -> ndarray
The power series c (lowest degree first; N-D c: one series per trailing
index) at x by Horner's rule on the device. tensor: every series at every x.
]], function(x, c, tensor)
    if not is_array(x) then x = ga.asarray(x) end
    c = asarray(c)
    if c.ndim == 0 then c = c:reshape(1) end
    if C.kind(c.dtype) ~= "f" and C.kind(c.dtype) ~= "c" then c = c:astype("float64") end
    local n = c.shape[1]
    if n == 0 then fail("polynomial.polynomial.polyval: c has no coefficients") end
    if c.ndim == 1 then
      local t, cs = c:totable(), ga[c.dtype]
      local c0 = cs(t[n]) + x * 0
      for i = n - 1, 1, -1 do c0 = cs(t[i]) + c0 * x end
      return c0
    end
    if is_array(x) and tensor then
      local shape = c.shape
      for _ = 1, x.ndim do shape[#shape + 1] = 1 end
      c = c:reshape(shape)
    end
    local c0 = c[n] + x * 0
    -- an empty result (series or points): its shape and dtype from one
    -- step, not n steps over nothing (n may be 2^32)
    if c0.size == 0 then return c0 end
    for i = n - 1, 1, -1 do c0 = c[i] + c0 * x end
    return c0
  end)

  api.def(P, [[
polynomial.polynomial.polyvalfromroots(x: array_like, r: array_like, tensor: boolean = true) -> ndarray
The product of (x - r[i]) over the roots r (over r's first axis).
]], function(x, r, tensor)
    if type(x) == "table" then x = ga.asarray(x) end
    r = asarray(r)
    if r.ndim == 0 then r = r:reshape(1) end
    if C.kind(r.dtype) ~= "f" and C.kind(r.dtype) ~= "c" then r = r:astype("float64") end
    if is_array(x) then
      if tensor then
        local shape = r.shape
        for _ = 1, x.ndim do shape[#shape + 1] = 1 end
        r = r:reshape(shape)
      elseif x.ndim >= r.ndim then
        fail("polynomial.polynomial.polyvalfromroots: x.ndim must be < r.ndim when tensor == False")
      end
    end
    return ga.prod(ga.subtract(x, r), { axis = 1 })
  end)

  --- the roots of a power series (sorted, as NumPy's polyroots)
  local function series_roots(t)
    if #t < 2 then return ga.empty(0, "float64") end
    if #t == 2 then return ga.array({ -t[1] / t[2] }, "float64") end
    local m = companion(t)
    -- NumPy takes the eigenvalues of the reversed companion matrix: the same values
    local r, complex = eigenvalues(m, "polynomial.Polynomial.roots")
    table.sort(r, function(a, b)
      if C.re(a) ~= C.re(b) then return C.re(a) < C.re(b) end
      return C.im(a) < C.im(b)
    end)
    return ga.array(r, complex and "complex128" or "float64")
  end

  ---------------------------------------------------------------------------
  -- Polynomial
  local mt = { __name = "gpuarray.Polynomial" }
  local methods = {}
  mt.__index = methods
  local function is_poly(v) return type(v) == "table" and getmetatable(v) == mt end
  api.set_type("Polynomial", is_poly)

  local function pair(v, name)
    if v == nil then return { -1.0, 1.0 } end
    local t = is_array(v) and v:totable() or v
    if type(t) ~= "table" or #t ~= 2 then fail(("polynomial.Polynomial: %s must be {lo, hi}"):format(name)) end
    return { t[1] + 0.0, t[2] + 0.0 }
  end
  local function new(list, dt, domain, window, symbol)
    local coef = C.array(list, dt)
    return setmetatable({ coef = coef, domain = domain, window = window, symbol = symbol or "x", _list = list }, mt)
  end
  local function mapparms(self)
    local old, new_ = self.domain, self.window
    local oldlen, newlen = old[2] - old[1], new_[2] - new_[1]
    return (old[2] * new_[1] - old[1] * new_[2]) / oldlen, newlen / oldlen
  end

  api.def(polynomial, [[
polynomial.Polynomial(coef: array_like, domain: list|ndarray?, window: list|ndarray?,
  symbol: string = "x") -> Polynomial
A power series (coefficients lowest degree first) whose argument is mapped
from domain to window (default {-1, 1} both: no mapping) before evaluation.
]], function(coef, domain, window, symbol)
    local a = U.as_series({ coef }, false)[1]
    if C.kind(a.dtype) == "c" then fail("polynomial.Polynomial: complex coefficients are not supported") end
    return new(a:totable(), a.dtype, pair(domain, "domain"), pair(window, "window"), symbol)
  end)

  local function like(self, list) return new(list, "float64", self.domain, self.window, self.symbol) end
  local function other(self, o)
    if is_poly(o) then
      if o.domain[1] ~= self.domain[1] or o.domain[2] ~= self.domain[2] or o.window[1] ~= self.window[1]
          or o.window[2] ~= self.window[2] then
        fail("polynomial.Polynomial: domains and windows differ")
      end
      return o._list
    end
    if type(o) == "number" then return { o } end
    fail("polynomial.Polynomial: arithmetic with a number or a Polynomial only")
  end
  local function sum(a, b, sign)
    local r = {}
    for i = 1, math.max(#a, #b) do r[i] = (a[i] or 0) + sign * (b[i] or 0) end
    return r
  end
  mt.__add = function(a, b)
    if not is_poly(a) then a, b = b, a end
    return like(a, sum(a._list, other(a, b), 1))
  end
  mt.__sub = function(a, b)
    if is_poly(a) then return like(a, sum(a._list, other(a, b), -1)) end
    return like(b, sum(other(b, a), b._list, -1))
  end
  mt.__mul = function(a, b)
    if not is_poly(a) then a, b = b, a end
    return like(a, C.mul(a._list, other(a, b)))
  end
  mt.__unm = function(a) return like(a, sum({}, a._list, -1)) end
  mt.__eq = function(a, b)
    if not (is_poly(a) and is_poly(b)) or #a._list ~= #b._list then return false end
    for i = 1, #a._list do if a._list[i] ~= b._list[i] then return false end end
    return a.domain[1] == b.domain[1] and a.domain[2] == b.domain[2] and a.window[1] == b.window[1]
      and a.window[2] == b.window[2]
  end
  mt.__len = function(a) return #a._list end
  mt.__tostring = function(a)
    local parts = {}
    for i, v in ipairs(a._list) do parts[i] = tostring(v) end
    return "Polynomial({" .. table.concat(parts, ", ") .. "})"
  end
  mt.__call = function(self, x)
    local off, scl = mapparms(self)
    if type(x) == "table" then x = ga.asarray(x) end
    local arg = ga.float64(off) + ga.float64(scl) * x
    return P.polyval(arg, self.coef)
  end

  api.def(methods, [[
Polynomial:degree() -> integer
The degree (the count of coefficients minus one).
]], function(self) return #self._list - 1 end)

  api.def(methods, [[
Polynomial:deriv(m: integer = 1) -> Polynomial
The m-th derivative (with the domain's scale).
]], function(self, m)
    if m < 0 then fail("Polynomial.deriv: The order of derivation must be non-negative") end
    local _, scl = mapparms(self)
    local c = {}
    for i, v in ipairs(self._list) do c[i] = v + 0.0 end
    for _ = 1, m do
      if #c <= 1 then c = { 0.0 } else
        local d = {}
        for j = 2, #c do d[j - 1] = (j - 1) * c[j] * scl end
        c = d
      end
    end
    return like(self, c)
  end)

  api.def(methods, [[
Polynomial:integ(m: integer = 1, k: list = {}, lbnd: number?) -> Polynomial
The m-th antiderivative; k: the integration constants, each set so that the
integral is k[i] at lbnd (default 0).
]], function(self, m, k, lbnd)
    if m < 0 then fail("Polynomial.integ: The order of integration must be non-negative") end
    if #k > m then fail("Polynomial.integ: Too many integration constants") end
    local off, scl = mapparms(self)
    lbnd = lbnd == nil and 0 or off + scl * lbnd
    local s = 1.0 / scl
    local c = {}
    for i, v in ipairs(self._list) do c[i] = v + 0.0 end
    for i = 1, m do
      for j = 1, #c do c[j] = c[j] * s end
      local ki = k[i] or 0
      if #c == 1 and c[1] == 0 then
        c[1] = c[1] + ki
      else
        local t = { 0.0 }
        for j = 1, #c do t[j + 1] = c[j] / j end
        local v = 0.0
        for j = #t, 1, -1 do v = v * lbnd + t[j] end
        t[1] = t[1] + ki - v
        c = t
      end
    end
    return like(self, c)
  end)

  api.def(methods, [[
Polynomial:roots() -> ndarray
The roots, sorted (real part, then imaginary), mapped back to the domain.
]], function(self)
    local r = series_roots(trim_list(self._list))
    local off, scl = mapparms(self)
    if off == 0 and scl == 1 then return r end
    return (r - off) / scl
  end)

  api.def(methods, [[
Polynomial:trim(tol: number = 0) -> Polynomial
Without the trailing coefficients of absolute value <= tol.
]], function(self, tol)
    local c = U.trimcoef(self.coef, tol)
    return new(c:totable(), c.dtype, self.domain, self.window, self.symbol)
  end)

  api.def(methods, [[
Polynomial:cutdeg(deg: integer) -> Polynomial
Truncated to degree deg.
]], function(self, deg)
    if deg < 0 then fail("Polynomial.cutdeg: deg must be non-negative") end
    return like(self, table.move(self._list, 1, math.min(deg + 1, #self._list), 1, {}))
  end)

  api.def(methods, [[
Polynomial:copy() -> Polynomial
A copy.
]], function(self)
    return new(table.move(self._list, 1, #self._list, 1, {}), self.coef.dtype, self.domain, self.window, self.symbol)
  end)
  api.class("Polynomial", methods)
end
