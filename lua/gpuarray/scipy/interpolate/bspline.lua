--- B-splines (SciPy 1.10): BSpline (evaluated by de Boor's recursion on
-- the GPU), make_interp_spline (SciPy's knots for each degree, the banded
-- collocation system solved in Lua), make_lsq_spline (the banded normal
-- equations), splder, splantider, and FITPACK's interpolating and
-- least-squares splines under their class names (InterpolatedUnivariateSpline,
-- LSQUnivariateSpline; UnivariateSpline with s = 0).
return function(ga, I, C)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local BS = { __name = "gpuarray.BSpline" }
  local methods = {}
  BS.__index = function(self, key)
    if key == "t" then return ga.array(self.tk, "float64") end
    if key == "c" then
      local shape = { #self.cf }
      for _, s in ipairs(self.trail) do shape[#shape + 1] = s end
      return C.upload(self.cf):reshape(shape)
    end
    return methods[key]
  end
  local function is_bs(v) return getmetatable(v) == BS end
  api.set_type("BSpline", is_bs)

  local function make(tk, cf, k, r, trail, extrapolate)
    return setmetatable({ tk = tk, cf = cf, k = k, r = r, trail = trail, extrapolate = extrapolate }, BS)
  end
  I._make_bspline = make

  BS.__call = function(self, x, nu, extrapolate)
    nu = nu or 0
    if extrapolate == nil then extrapolate = self.extrapolate end
    local s = self
    if nu > 0 then s = self:derivative(nu) elseif nu < 0 then s = self:antiderivative(-nu) end
    if not s._dev then s._dev = { t = ga.array(s.tk, "float64"), c = C.upload(s.cf) } end
    local q, shape = C.queries(x, s.trail)
    local n = #s.cf
    local xq = q
    if extrapolate == "periodic" then
      local a, b = s.tk[s.k + 1], s.tk[n + 1]
      xq = (q:astype("float64") - a) % (b - a) + a
    end
    return C.eval(C.K.bspline, xq, s.r, shape, "float64", s._dev.t, s._dev.c, n, s.k, s.r,
                  extrapolate and true or false)
  end

  api.def(I, [[
scipy.interpolate.BSpline(t: array_like, c: array_like, k: integer, extrapolate: boolean|"periodic" = true,
                          axis: integer = 1) -> BSpline
A spline of degree k (at most 31) from its knots t and coefficients c (n = #t - k - 1 of them along the first
axis). Call s(x, nu, extrapolate).
]], function(t, c, k, extrapolate, axis)
    local fname = "scipy.interpolate.BSpline"
    if k < 0 or k > 31 then fail(fname .. ": Spline order cannot be negative (or above 31 here).") end
    local tk = C.list(t, fname, "t")
    local rows, r, trail = C.rows(c, axis, fname)
    local n = #tk - k - 1
    if n < k + 1 then fail(fname .. (": Need at least %d knots for degree %d"):format(2 * k + 2, k)) end
    if #rows < n then fail(fname .. ": Knots, coefficients and degree are inconsistent.") end
    for i = 2, #tk do
      if tk[i] < tk[i - 1] then fail(fname .. ": Knots must be in a non-decreasing order.") end
    end
    local cf = {}
    for i = 1, n do cf[i] = rows[i] end
    return make(tk, cf, k, r, trail, extrapolate)
  end)

  local function deriv_once(s)
    local k, n = s.k, #s.cf
    if k == 0 then fail("BSpline.derivative: the degree is 0") end
    local cf = {}
    for i = 1, n - 1 do
      local den = s.tk[i + k + 1] - s.tk[i + 1]
      local row = {}
      for col = 1, s.r do row[col] = den ~= 0 and k * (s.cf[i + 1][col] - s.cf[i][col]) / den or 0 end
      cf[i] = row
    end
    local tk = {}
    for i = 2, #s.tk - 1 do tk[#tk + 1] = s.tk[i] end
    return make(tk, cf, k - 1, s.r, s.trail, s.extrapolate)
  end

  local function antideriv_once(s)
    local k, n = s.k, #s.cf
    local cf = { }
    local acc = {}
    for col = 1, s.r do acc[col] = 0 end
    cf[1] = { table.unpack(acc) }
    for i = 1, n do
      local w = (s.tk[i + k + 1] - s.tk[i]) / (k + 1)
      for col = 1, s.r do acc[col] = acc[col] + s.cf[i][col] * w end
      cf[i + 1] = { table.unpack(acc) }
    end
    local tk = { s.tk[1] }
    for _, v in ipairs(s.tk) do tk[#tk + 1] = v end
    tk[#tk + 1] = s.tk[#s.tk]
    return make(tk, cf, k + 1, s.r, s.trail, s.extrapolate)
  end

  api.def(methods, [[
BSpline:derivative(nu: integer = 1) -> BSpline
The nu-th derivative as a BSpline.
]], function(self, nu)
    local s = self
    for _ = 1, nu do s = deriv_once(s) end
    return s
  end)
  api.def(methods, [[
BSpline:antiderivative(nu: integer = 1) -> BSpline
The nu-th antiderivative as a BSpline.
]], function(self, nu)
    local s = self
    for _ = 1, nu do s = antideriv_once(s) end
    return s
  end)
  api.def(methods, [[
BSpline:integrate(a: number, b: number, extrapolate: boolean?) -> ndarray
The definite integral from a to b.
]], function(self, a, b, extrapolate)
    local F = antideriv_once(self)
    local v = F(ga.array({ a, b }, "float64"), 0, extrapolate == nil and self.extrapolate or extrapolate)
    return v[2] - v[1]
  end)
  api.class("BSpline", methods)

  local function as_bspline(tck, fname)
    if is_bs(tck) then return tck end
    if type(tck) == "table" and #tck == 3 then return I.BSpline(tck[1], tck[2], tck[3]) end
    fail(fname .. ": tck must be a BSpline or {t, c, k}")
  end
  api.def(I, [[
scipy.interpolate.splder(tck: BSpline|list, n: integer = 1) -> BSpline
The n-th derivative of a spline (a BSpline or {t, c, k}).
]], function(tck, n) return as_bspline(tck, "scipy.interpolate.splder"):derivative(n) end)
  api.def(I, [[
scipy.interpolate.splantider(tck: BSpline|list, n: integer = 1) -> BSpline
The n-th antiderivative of a spline (a BSpline or {t, c, k}).
]], function(tck, n) return as_bspline(tck, "scipy.interpolate.splantider"):antiderivative(n) end)

  --- the k + 1 nonzero B-splines at x in knot interval l (1-based: t[l] <= x < t[l+1]),
  -- for basis functions l - k .. l (Cox-de Boor)
  local function basis(t, k, x, l)
    local b = { 1.0 }
    for d = 1, k do
      local nb = {}
      for j = 0, d do
        local v = 0
        -- basis function index i = l - d + j
        local i = l - d + j
        if j > 0 then
          local den = t[i + d] - t[i]
          if den ~= 0 then v = v + (x - t[i]) / den * b[j] end
        end
        if j < d then
          local den = t[i + d + 1] - t[i + 1]
          if den ~= 0 then v = v + (t[i + d + 1] - x) / den * b[j + 1] end
        end
        nb[j + 1] = v
      end
      b = nb
    end
    return b
  end
  I._basis = basis

  local function interval(t, k, n, x)
    local l = k + 1
    while l < n and x >= t[l + 1] do l = l + 1 end
    return l
  end

  --- the collocation matrix rows of x on knots t (n functions), banded
  local function collocate(t, k, n, xs)
    local A, kl, ku = {}, 0, 0
    local l = k + 1
    for i, x in ipairs(xs) do
      while l < n and x >= t[l + 1] do l = l + 1 end
      local b = basis(t, k, x, l)
      A[i] = {}
      for j = 0, k do
        local col = l - k + j
        A[i][col] = b[j + 1]
        if col - i > ku then ku = col - i end
        if i - col > kl then kl = i - col end
      end
    end
    return A, kl, ku
  end
  I._interval = interval

  local function knots_for(xs, k, fname)
    local n = #xs
    local t = {}
    if k == 0 then
      for i = 1, n do t[i] = xs[i] end
      t[n + 1] = xs[n]
    elseif k == 1 then
      t[1] = xs[1]
      for i = 1, n do t[i + 1] = xs[i] end
      t[n + 2] = xs[n]
    elseif k % 2 == 1 then
      local m = (k - 1) // 2
      for _ = 1, k + 1 do t[#t + 1] = xs[1] end
      for i = m + 2, n - m - 1 do t[#t + 1] = xs[i] end
      for _ = 1, k + 1 do t[#t + 1] = xs[n] end
    elseif k == 2 then
      for _ = 1, k + 1 do t[#t + 1] = xs[1] end
      for i = 2, n - 2 do t[#t + 1] = (xs[i] + xs[i + 1]) / 2 end
      for _ = 1, k + 1 do t[#t + 1] = xs[n] end
    else
      fail(fname .. ": Odd degree for now only. Got " .. k .. ".")
    end
    if #t ~= n + k + 1 then fail(fname .. ": too few points for degree " .. k) end
    return t
  end

  local function interp_spline(fname, x, y, k, t, axis)
    local xs = C.list(x, fname, "x")
    local rows, r, trail, _, n = C.rows(y, axis, fname)
    if #xs ~= n then fail(fname .. ": Shapes of x and y are incompatible") end
    C.check_increasing(xs, fname)
    if k < 0 then fail(fname .. ": Expect non-negative k.") end
    if n < k + 1 then fail(fname .. (": need at least %d points for degree %d"):format(k + 1, k)) end
    local tk = t and C.list(t, fname, "t") or knots_for(xs, k, fname)
    local nt = #tk - k - 1
    if nt ~= n then fail(fname .. ": The number of knots and data points are inconsistent.") end
    local A, kl, ku = collocate(tk, k, nt, xs)
    local b = {}
    for i = 1, n do b[i] = { table.unpack(rows[i]) } end
    local sol = C.banded_solve(A, b, n, kl, ku)
    if not sol then fail(fname .. ": Colocation matrix is singular.") end
    return make(tk, sol, k, r, trail, true)
  end

  api.def(I, [[
scipy.interpolate.make_interp_spline(x: array_like, y: array_like, k: integer = 3, t: array_like?,
                                     bc_type: string|list?, axis: integer = 1,
                                     check_finite: boolean = true) -> BSpline
The interpolating B-spline of degree k through (x, y) with SciPy's knots (not-a-knot for odd k, midpoints for
even k); bc_type nil only.
]], function(x, y, k, t, bc_type, axis)
    local fname = "scipy.interpolate.make_interp_spline"
    if bc_type ~= nil and bc_type ~= "not-a-knot" then
      fail(fname .. ": only bc_type nil (not-a-knot) is implemented; use CubicSpline for boundary conditions")
    end
    return interp_spline(fname, x, y, k, t, axis)
  end)

  local function lsq(fname, x, y, t, k, w, axis)
    if k < 0 then fail(("%s: k must be non-negative, got %d"):format(fname, k)) end
    local xs = C.list(x, fname, "x")
    local rows, r, trail, _, m = C.rows(y, axis, fname)
    if #xs ~= m then fail(fname .. ": Shapes of x and y are incompatible") end
    local tk = C.list(t, fname, "t")
    local n = #tk - k - 1
    if n < k + 1 then fail(fname .. ": Need more knots.") end
    local ws = w and C.list(w, fname, "w") or nil
    local A = collocate(tk, k, n, xs)
    -- normal equations (A^T W A) c = A^T W y, bandwidth k
    local N, b = {}, {}
    for j = 1, n do
      N[j] = {}
      b[j] = {}
      for col = 1, r do b[j][col] = 0 end
    end
    for i = 1, m do
      local wi = ws and ws[i] ^ 2 or 1
      for a, va in pairs(A[i]) do
        for c2, vc in pairs(A[i]) do N[a][c2] = (N[a][c2] or 0) + wi * va * vc end
        for col = 1, r do b[a][col] = b[a][col] + wi * va * rows[i][col] end
      end
    end
    local sol = C.banded_solve(N, b, n, k, k)
    if not sol then fail(fname .. ": the least-squares system is singular (Schoenberg-Whitney fails)") end
    return make(tk, sol, k, r, trail, true)
  end

  api.def(I, [[
scipy.interpolate.make_lsq_spline(x: array_like, y: array_like, t: array_like, k: integer = 3, w: array_like?,
                                  axis: integer = 1, check_finite: boolean = true) -> BSpline
The least-squares B-spline of degree k on knots t (weights w).
]], function(x, y, t, k, w, axis)
    return lsq("scipy.interpolate.make_lsq_spline", x, y, t, k, w, axis)
  end)

  -- FITPACK's classes: a BSpline inside, ext = 0 extrapolate, 1 zeros,
  -- 2 raise, 3 the boundary value
  local US = { __name = "gpuarray.UnivariateSpline" }
  local umethods = {}
  US.__index = umethods
  api.set_type("UnivariateSpline", function(v) return getmetatable(v) == US end)
  US.__call = function(self, x, nu, ext)
    nu = nu or 0
    ext = ext or self.ext
    local xs = is_array(x) and x or ga.asarray(x)
    local y = self.spline(xs, nu, true)
    if ext == 0 then return y end
    local a, b = self.spline.tk[1], self.spline.tk[#self.spline.tk]
    local xf = xs:astype("float64")
    local outside = ga.logical_or(xf:lt(a), xf:gt(b))
    if ext == 1 then return ga.where(outside, 0.0, y) end
    if ext == 2 then
      if ga.any(outside):item() then fail("UnivariateSpline: x value out of bounds (ext = 2)") end
      return y
    end
    local ya = self.spline(ga.array({ a, b }, "float64"), nu, true):totable()
    return ga.where(xf:lt(a), ya[1], ga.where(xf:gt(b), ya[2], y))
  end
  local function wrap(spline, ext)
    if type(ext) == "string" then
      ext = ({ extrapolate = 0, zeros = 1, raise = 2, const = 3 })[ext]
      if ext == nil then fail("UnivariateSpline: unknown ext") end
    end
    return setmetatable({ spline = spline, ext = ext }, US)
  end
  api.def(umethods, [[
UnivariateSpline:derivative(n: integer = 1) -> UnivariateSpline
The n-th derivative.
]], function(self, n) return wrap(self.spline:derivative(n), self.ext) end)
  api.def(umethods, [[
UnivariateSpline:antiderivative(n: integer = 1) -> UnivariateSpline
The n-th antiderivative.
]], function(self, n) return wrap(self.spline:antiderivative(n), self.ext) end)
  api.def(umethods, [[
UnivariateSpline:get_knots() -> ndarray
The interior and end knots (without FITPACK's repeats).
]], function(self)
    local t, k = self.spline.tk, self.spline.k
    local out = {}
    for i = k + 1, #t - k do out[#out + 1] = t[i] end
    return ga.array(out, "float64")
  end)
  api.def(umethods, [[
UnivariateSpline:get_coeffs() -> ndarray
The B-spline coefficients.
]], function(self) return self.spline.c end)
  api.def(umethods, [[
UnivariateSpline:integral(a: number, b: number) -> number
The definite integral from a to b.
]], function(self, a, b) return self.spline:integrate(a, b):item() end)
  api.class("UnivariateSpline", umethods)

  local function interior_knots(xs, k)
    local t = {}
    for _ = 1, k + 1 do t[#t + 1] = xs[1] end
    return t
  end

  api.def(I, [[
scipy.interpolate.InterpolatedUnivariateSpline(x: array_like, y: array_like, w: array_like?, bbox: list = {},
                                               k: integer = 3, ext: integer|string = 0,
                                               check_finite: boolean = false) -> UnivariateSpline
FITPACK's interpolating spline of degree k (1-5): the not-a-knot spline through the points; ext: 0
extrapolate, 1 zeros, 2 raise, 3 the boundary value.
]], function(x, y, _, _, k, ext)
    local fname = "scipy.interpolate.InterpolatedUnivariateSpline"
    if k < 1 or k > 5 then fail(fname .. ": k must be in 1..5") end
    local xs = C.list(x, fname, "x")
    -- FITPACK (fpcurf, s = 0) puts the interior knots at the points
    -- x[k//2+2], ... (odd k) or at the midpoints before them (even k)
    local t = interior_knots(xs, k)
    local n = #xs
    local i0 = k // 2 + 2
    for j = 0, n - k - 2 do
      local i = i0 + j
      t[#t + 1] = k % 2 == 1 and xs[i] or (xs[i] + xs[i - 1]) / 2
    end
    for _ = 1, k + 1 do t[#t + 1] = xs[n] end
    local s = interp_spline(fname, xs, y, k, t, 1)
    return wrap(s, ext)
  end)

  api.def(I, [[
scipy.interpolate.LSQUnivariateSpline(x: array_like, y: array_like, t: array_like, w: array_like?, bbox: list = {},
                                      k: integer = 3, ext: integer|string = 0,
                                      check_finite: boolean = false) -> UnivariateSpline
FITPACK's least-squares spline of degree k on the interior knots t (the ends: bbox or x's ends).
]], function(x, y, t, w, bbox, k, ext)
    local fname = "scipy.interpolate.LSQUnivariateSpline"
    local xs = C.list(x, fname, "x")
    local ti = C.list(t, fname, "t")
    local a, b = bbox[1] or xs[1], bbox[2] or xs[#xs]
    local full = {}
    for _ = 1, k + 1 do full[#full + 1] = a end
    for _, v in ipairs(ti) do full[#full + 1] = v end
    for _ = 1, k + 1 do full[#full + 1] = b end
    return wrap(lsq(fname, xs, y, full, k, w, 1), ext)
  end)

  api.def(I, [[
scipy.interpolate.UnivariateSpline(x: array_like, y: array_like, w: array_like?, bbox: list = {}, k: integer = 3,
                                   s: number?, ext: integer|string = 0,
                                   check_finite: boolean = false) -> UnivariateSpline
FITPACK's smoothing spline; here s = 0 (the interpolating spline) only: a smoothing s raises.
]], function(x, y, w, bbox, k, s, ext)
    if s ~= 0 then
      fail("scipy.interpolate.UnivariateSpline: only s = 0 is implemented (FITPACK's smoothing knots are not); "
        .. "use make_lsq_spline")
    end
    return I.InterpolatedUnivariateSpline(x, y, w, bbox, k, ext)
  end)
end
