--- Piecewise polynomials (SciPy 1.10): PPoly, BPoly, and the cubic
-- interpolants built on PPoly: CubicHermiteSpline, CubicSpline (bc_type
-- not-a-knot, natural, clamped, periodic, or {order, value} pairs),
-- PchipInterpolator (+ pchip_interpolate), Akima1DInterpolator. The
-- coefficients are computed in Lua (SciPy's formulas) and evaluated on the
-- GPU (interpolate/kernels.lua). c has shape (k, m, ...) as SciPy's:
-- c[1] the highest power; p(x) = sum c[a][j] (x - x_j)^(k - a) on piece j.
return function(ga, I, C)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local PP = { __name = "gpuarray.PPoly" }
  local methods = {}
  PP.__index = function(self, key)
    if key == "c" then
      local cc = C.upload(self._flat_rows())
      local shape = { self.k, self.m }
      for _, s in ipairs(self.trail) do shape[#shape + 1] = s end
      return cc:reshape(shape)
    elseif key == "x" then return ga.array(self.bp, "float64") end
    return methods[key]
  end
  local BP = { __name = "gpuarray.BPoly" }
  local bmethods = {}
  BP.__index = function(self, key)
    if key == "x" then return ga.array(self.bp, "float64") end
    return bmethods[key]
  end
  local function is_pp(v) return getmetatable(v) == PP end
  local function is_bp(v) return getmetatable(v) == BP end
  api.set_type("PPoly", is_pp)
  api.set_type("BPoly", is_bp)

  --- a PPoly from host coefficients cf[a][j][col] (a = 1..k), breakpoints
  local function make(cls, cf, bp, r, trail, extrapolate)
    local k, m = #cf, #bp - 1
    local self = { cf = cf, bp = bp, k = k, m = m, r = r, trail = trail, extrapolate = extrapolate }
    self._flat_rows = function()
      local rows = {}
      for a = 1, k do
        for j = 1, m do rows[#rows + 1] = cf[a][j] end
      end
      return rows
    end
    return setmetatable(self, cls)
  end
  I._make_ppoly = function(...) return make(PP, ...) end

  local function device(self)
    if not self._dev then self._dev = { c = C.upload(self._flat_rows()), bp = ga.array(self.bp, "float64") } end
    return self._dev
  end

  local function ext_code(e)
    if e == "periodic" then return 2 end
    return e and 1 or 0
  end

  local function call(self, x, nu, extrapolate, bern)
    if extrapolate == nil then extrapolate = self.extrapolate end
    local q, shape = C.queries(x, self.trail)
    local d = device(self)
    if bern then
      return C.eval(C.K.bpoly, q, self.r, shape, "float64", d.c, d.bp, self.k, self.m, self.r, ext_code(extrapolate))
    end
    if nu < 0 then return self:antiderivative(-nu)(x, 0, extrapolate) end
    return C.eval(C.K.ppoly, q, self.r, shape, "float64", d.c, d.bp, self.k, self.m, self.r, nu,
                  ext_code(extrapolate))
  end
  PP.__call = function(self, x, nu, extrapolate) return call(self, x, nu or 0, extrapolate) end
  BP.__call = function(self, x, nu, extrapolate)
    if nu and nu ~= 0 then fail("BPoly: derivatives are not supported; evaluate a PPoly") end
    return call(self, x, 0, extrapolate, true)
  end

  --- c, x from the user: c (k, m, ...) array_like
  local function from_user(fname, c, x, extrapolate)
    local ca = is_array(c) and c or ga.asarray(c)
    local bp = C.list(x, fname, "x")
    if ca.ndim < 2 then fail(fname .. ": Coefficients array must be at least 2-dimensional.") end
    if #bp < 2 then fail(fname .. ": at least 2 breakpoints are needed") end
    if ca.shape[2] ~= #bp - 1 then fail(fname .. ": Shapes of x and c are incompatible") end
    local k, m = ca.shape[1], ca.shape[2]
    local trail = {}
    for d = 3, ca.ndim do trail[#trail + 1] = ca.shape[d] end
    local r = 1
    for _, s in ipairs(trail) do r = r * s end
    local flat = ga.ascontiguousarray(ca):astype("float64"):reshape(-1):totable()
    local cf = {}
    for a = 1, k do
      cf[a] = {}
      for j = 1, m do
        local row = {}
        for col = 1, r do row[col] = flat[((a - 1) * m + (j - 1)) * r + col] end
        cf[a][j] = row
      end
    end
    for i = 2, #bp do
      if bp[i] < bp[i - 1] or bp[i] ~= bp[i] then fail(fname .. ": x must be strictly increasing or decreasing.") end
    end
    if extrapolate == nil then extrapolate = true end
    return cf, bp, r, trail, extrapolate
  end

  api.def(I, [[
scipy.interpolate.PPoly(c: array_like, x: array_like, extrapolate: boolean|"periodic"?, axis: integer = 1) -> PPoly
A piecewise polynomial from its coefficients c (shape (k, m, ...), highest power first) on breakpoints x
(ascending). Call p(x, nu, extrapolate).
]], function(c, x, extrapolate, axis)
    if axis ~= 1 then fail("scipy.interpolate.PPoly: only axis 1 is supported") end
    return make(PP, from_user("scipy.interpolate.PPoly", c, x, extrapolate))
  end)

  api.def(I, [[
scipy.interpolate.BPoly(c: array_like, x: array_like, extrapolate: boolean|"periodic"?, axis: integer = 1) -> BPoly
A piecewise polynomial in the Bernstein basis: coefficients c (shape (k, m, ...)) on breakpoints x. Call b(x).
]], function(c, x, extrapolate, axis)
    if axis ~= 1 then fail("scipy.interpolate.BPoly: only axis 1 is supported") end
    return make(BP, from_user("scipy.interpolate.BPoly", c, x, extrapolate))
  end)

  local function deriv_once(self)
    local k = self.k
    if k <= 1 then
      local cf = { {} }
      for j = 1, self.m do
        local row = {}
        for col = 1, self.r do row[col] = 0 end
        cf[1][j] = row
      end
      return make(PP, cf, self.bp, self.r, self.trail, self.extrapolate)
    end
    local cf = {}
    for a = 1, k - 1 do
      local pw = k - a   -- the power of row a
      cf[a] = {}
      for j = 1, self.m do
        local row = {}
        for col = 1, self.r do row[col] = self.cf[a][j][col] * pw end
        cf[a][j] = row
      end
    end
    return make(PP, cf, self.bp, self.r, self.trail, self.extrapolate)
  end

  local function antideriv_once(self)
    local k = self.k
    local cf = {}
    for a = 1, k do
      local pw = k - a + 1
      cf[a] = {}
      for j = 1, self.m do
        local row = {}
        for col = 1, self.r do row[col] = self.cf[a][j][col] / pw end
        cf[a][j] = row
      end
    end
    -- constants: continuous, zero at the first breakpoint
    cf[k + 1] = {}
    local acc = {}
    for col = 1, self.r do acc[col] = 0 end
    for j = 1, self.m do
      local row = {}
      for col = 1, self.r do row[col] = acc[col] end
      cf[k + 1][j] = row
      local h = self.bp[j + 1] - self.bp[j]
      for col = 1, self.r do
        local v, hp = 0, h
        for a = k, 1, -1 do
          v = v + cf[a][j][col] * hp
          hp = hp * h
        end
        acc[col] = acc[col] + v
      end
    end
    local ext = self.extrapolate
    if ext == "periodic" then ext = false end
    return make(PP, cf, self.bp, self.r, self.trail, ext)
  end

  api.def(methods, [[
PPoly:derivative(nu: integer = 1) -> PPoly
The nu-th derivative as a PPoly (a negative nu: the antiderivative).
]], function(self, nu)
    if nu < 0 then return self:antiderivative(-nu) end
    local p = self
    for _ = 1, nu do p = deriv_once(p) end
    return p
  end)

  api.def(methods, [[
PPoly:antiderivative(nu: integer = 1) -> PPoly
The nu-th antiderivative as a PPoly (zero at the first breakpoint, continuous).
]], function(self, nu)
    if nu < 0 then return self:derivative(-nu) end
    local p = self
    for _ = 1, nu do p = antideriv_once(p) end
    return p
  end)

  api.def(methods, [[
PPoly:integrate(a: number, b: number, extrapolate: boolean?) -> ndarray
The definite integral from a to b (per column of y).
]], function(self, a, b, extrapolate)
    local F = self:antiderivative(1)
    local v = F(ga.array({ a, b }, "float64"), 0, extrapolate == nil and true or extrapolate)
    return v[2] - v[1]
  end)
  api.class("PPoly", methods)
  api.class("BPoly", bmethods)

  -------------------------------------------------------------------------
  -- cubic Hermite family

  --- coefficients of the cubic Hermite interpolant of rows y, slopes s
  local function hermite(x, y, s, r)
    local cf = { {}, {}, {}, {} }
    for j = 1, #x - 1 do
      local h = x[j + 1] - x[j]
      local r0, r1, r2, r3 = {}, {}, {}, {}
      for col = 1, r do
        local m = (y[j + 1][col] - y[j][col]) / h
        local t = (s[j][col] + s[j + 1][col] - 2 * m) / h
        r0[col] = t / h
        r1[col] = (m - s[j][col]) / h - t
        r2[col] = s[j][col]
        r3[col] = y[j][col]
      end
      cf[1][j], cf[2][j], cf[3][j], cf[4][j] = r0, r1, r2, r3
    end
    return cf
  end
  I._hermite = hermite

  local function prep(fname, x, y, axis)
    local xs = C.list(x, fname, "x")
    local rows, r, trail, _, n = C.rows(y, axis, fname)
    if #xs ~= n then fail(fname .. ": The length of `y` along `axis` must be equal to the length of `x`.") end
    if #xs < 2 then fail(fname .. ": `x` must contain at least 2 elements.") end
    C.check_increasing(xs, fname)
    return xs, rows, r, trail
  end

  api.def(I, [[
scipy.interpolate.CubicHermiteSpline(x: array_like, y: array_like, dydx: array_like, axis: integer = 1,
                                     extrapolate: boolean|"periodic"?) -> PPoly
The piecewise cubic matching values y and derivatives dydx at x (axis: y's interpolation axis, 1-based).
]], function(x, y, dydx, axis, extrapolate)
    local fname = "scipy.interpolate.CubicHermiteSpline"
    local xs, rows, r, trail = prep(fname, x, y, axis)
    local s = C.rows(dydx, axis, fname)
    if #s ~= #xs then fail(fname .. ": The shapes of `y` and `dydx` must be identical.") end
    if extrapolate == nil then extrapolate = true end
    return make(PP, hermite(xs, rows, s, r), xs, r, trail, extrapolate)
  end)

  --- solve a tridiagonal system (a: sub, b: diag, c: super; d rows) in place
  local function tridiag(a, b, c, d, n)
    for i = 2, n do
      local w = a[i] / b[i - 1]
      b[i] = b[i] - w * c[i - 1]
      for col = 1, #d[i] do d[i][col] = d[i][col] - w * d[i - 1][col] end
    end
    for col = 1, #d[n] do d[n][col] = d[n][col] / b[n] end
    for i = n - 1, 1, -1 do
      for col = 1, #d[i] do d[i][col] = (d[i][col] - c[i] * d[i + 1][col]) / b[i] end
    end
    return d
  end

  local function bc_of(bc, fname)
    if type(bc) == "string" then
      if bc == "clamped" then return { 1, 0 } end
      if bc == "natural" then return { 2, 0 } end
      if bc == "not-a-knot" or bc == "periodic" then return bc end
      fail(fname .. ": bc_type " .. bc .. " is not allowed.")
    end
    if type(bc) == "table" and #bc == 2 and (bc[1] == 1 or bc[1] == 2) and type(bc[2]) == "number" then return bc end
    fail(fname .. ": bc_type must be a name or {order, value} with order 1 or 2")
  end

  api.def(I, [[
scipy.interpolate.CubicSpline(x: array_like, y: array_like, axis: integer = 1,
                              bc_type: string|list = "not-a-knot", extrapolate: boolean|"periodic"?) -> PPoly
The cubic spline through (x, y), twice continuously differentiable; bc_type "not-a-knot", "natural",
"clamped", "periodic", or a pair of {order, value} conditions (one per end).
]], function(x, y, axis, bc_type, extrapolate)
    local fname = "scipy.interpolate.CubicSpline"
    local xs, rows, r, trail = prep(fname, x, y, axis)
    local n = #xs
    local bl, br
    if type(bc_type) == "table" and type(bc_type[1]) == "table" then
      bl, br = bc_of(bc_type[1], fname), bc_of(bc_type[2], fname)
    else
      bl = bc_of(bc_type, fname)
      br = bl
    end
    if bl == "periodic" or br == "periodic" then
      if bl ~= br then fail(fname .. ": both ends must be periodic") end
      for col = 1, r do
        if math.abs(rows[1][col] - rows[n][col]) > 1e-12 * math.max(1, math.abs(rows[1][col])) then
          fail(fname .. ": The first and last `y` point along axis must be identical for periodic boundary conditions.")
        end
      end
    end
    local dx, slope = {}, {}
    for i = 1, n - 1 do
      dx[i] = xs[i + 1] - xs[i]
      slope[i] = {}
      for col = 1, r do slope[i][col] = (rows[i + 1][col] - rows[i][col]) / dx[i] end
    end
    local s
    if n == 2 then
      if bl == "not-a-knot" or bl == "periodic" then bl = { 1, slope[1][1] } end
      if br == "not-a-knot" or br == "periodic" then br = { 1, slope[1][1] } end
    end
    if n == 3 and bl == "not-a-knot" and br == "not-a-knot" then
      -- the parabola through three points (SciPy's 3x3 system)
      s = {}
      for i = 1, 3 do s[i] = {} end
      for col = 1, r do
        local m0, m1 = slope[1][col], slope[2][col]
        -- A = [[1,1,0],[dx1, 2(dx0+dx1), dx0],[0,1,1]], b = [2m0, 3(dx0 m1 + dx1 m0), 2m1]
        local A = { { 1, 1, 0 }, { dx[2], 2 * (dx[1] + dx[2]), dx[1] }, { 0, 1, 1 } }
        local b = { { 2 * m0 }, { 3 * (dx[1] * m1 + dx[2] * m0) }, { 2 * m1 } }
        local AA = {}
        for i = 1, 3 do AA[i] = { [1] = A[i][1], [2] = A[i][2], [3] = A[i][3] } end
        local sol = C.banded_solve(AA, b, 3, 2, 2)
        for i = 1, 3 do s[i][col] = sol[i][1] end
      end
    elseif bl == "periodic" then
      -- cyclic tridiagonal system of the n - 1 distinct slopes
      local nn = n - 1
      s = {}
      if nn == 1 then
        s[1], s[2] = {}, {}
        for col = 1, r do s[1][col], s[2][col] = 0, 0 end
      else
        local A = {}
        for i = 1, nn do A[i] = {} end
        local b = {}
        for i = 1, nn do
          local im = i == 1 and nn or i - 1   -- the interval before point i
          local ip = i                        -- the interval after
          A[i][i] = 2 * (dx[im] + dx[ip])
          local left, right = i == 1 and nn or i - 1, i == nn and 1 or i + 1
          A[i][left] = (A[i][left] or 0) + dx[ip]
          A[i][right] = (A[i][right] or 0) + dx[im]
          b[i] = {}
          for col = 1, r do b[i][col] = 3 * (dx[ip] * slope[im][col] + dx[im] * slope[ip][col]) end
        end
        local sol = C.banded_solve(A, b, nn, nn, nn)
        if not sol then fail(fname .. ": singular system") end
        for i = 1, nn do s[i] = sol[i] end
        s[n] = {}
        for col = 1, r do s[n][col] = s[1][col] end
      end
    else
      local a, bd, c, d = {}, {}, {}, {}
      for i = 2, n - 1 do
        a[i], bd[i], c[i] = dx[i], 2 * (dx[i - 1] + dx[i]), dx[i - 1]
        d[i] = {}
        for col = 1, r do d[i][col] = 3 * (dx[i] * slope[i - 1][col] + dx[i - 1] * slope[i][col]) end
      end
      d[1], d[n] = {}, {}
      if bl == "not-a-knot" then
        local dd = xs[3] - xs[1]
        bd[1], c[1] = dx[2], dd
        for col = 1, r do d[1][col] = ((dx[1] + 2 * dd) * dx[2] * slope[1][col] + dx[1] ^ 2 * slope[2][col]) / dd end
      elseif bl[1] == 1 then
        bd[1], c[1] = 1, 0
        for col = 1, r do d[1][col] = bl[2] end
      else
        bd[1], c[1] = 2, 1
        for col = 1, r do d[1][col] = 3 * slope[1][col] - 0.5 * bl[2] * dx[1] end
      end
      if br == "not-a-knot" then
        local dd = xs[n] - xs[n - 2]
        bd[n], a[n] = dx[n - 2], dd
        for col = 1, r do
          d[n][col] = (dx[n - 1] ^ 2 * slope[n - 2][col] + (2 * dd + dx[n - 1]) * dx[n - 2] * slope[n - 1][col]) / dd
        end
      elseif br[1] == 1 then
        bd[n], a[n] = 1, 0
        for col = 1, r do d[n][col] = br[2] end
      else
        bd[n], a[n] = 2, 1
        for col = 1, r do d[n][col] = 3 * slope[n - 1][col] + 0.5 * br[2] * dx[n - 1] end
      end
      s = tridiag(a, bd, c, d, n)
    end
    if extrapolate == nil then extrapolate = bl == "periodic" and "periodic" or true end
    return make(PP, hermite(xs, rows, s, r), xs, r, trail, extrapolate)
  end)

  local function sign(v) return v > 0 and 1 or (v < 0 and -1 or 0) end

  --- SciPy's pchip slopes (_find_derivatives)
  local function pchip_slopes(xs, rows, r)
    local n = #xs
    local h, m = {}, {}
    for i = 1, n - 1 do
      h[i] = xs[i + 1] - xs[i]
      m[i] = {}
      for col = 1, r do m[i][col] = (rows[i + 1][col] - rows[i][col]) / h[i] end
    end
    local d = {}
    for i = 1, n do d[i] = {} end
    if n == 2 then
      for col = 1, r do d[1][col], d[2][col] = m[1][col], m[1][col] end
      return d
    end
    local function edge(h0, h1, m0, m1)
      local v = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
      if sign(v) ~= sign(m0) then v = 0
      elseif sign(m0) ~= sign(m1) and math.abs(v) > 3 * math.abs(m0) then v = 3 * m0 end
      return v
    end
    for col = 1, r do
      for i = 2, n - 1 do
        local m0, m1 = m[i - 1][col], m[i][col]
        if sign(m0) ~= sign(m1) or m0 == 0 or m1 == 0 then d[i][col] = 0
        else
          local w1, w2 = 2 * h[i] + h[i - 1], h[i] + 2 * h[i - 1]
          d[i][col] = 1 / ((w1 / m0 + w2 / m1) / (w1 + w2))
        end
      end
      d[1][col] = edge(h[1], h[2], m[1][col], m[2][col])
      d[n][col] = edge(h[n - 1], h[n - 2], m[n - 1][col], m[n - 2][col])
    end
    return d
  end

  api.def(I, [[
scipy.interpolate.PchipInterpolator(x: array_like, y: array_like, axis: integer = 1,
                                    extrapolate: boolean?) -> PPoly
The shape-preserving piecewise cubic (PCHIP): monotone where the data are.
]], function(x, y, axis, extrapolate)
    local fname = "scipy.interpolate.PchipInterpolator"
    local xs, rows, r, trail = prep(fname, x, y, axis)
    if extrapolate == nil then extrapolate = true end
    return make(PP, hermite(xs, rows, pchip_slopes(xs, rows, r), r), xs, r, trail, extrapolate)
  end)

  api.def(I, [[
scipy.interpolate.pchip_interpolate(xi: array_like, yi: array_like, x: array_like, der: integer = 0,
                                    axis: integer = 1) -> ndarray
PchipInterpolator(xi, yi, axis)(x, der).
]], function(xi, yi, x, der, axis)
    return I.PchipInterpolator(xi, yi, axis)(x, der)
  end)

  api.def(I, [[
scipy.interpolate.Akima1DInterpolator(x: array_like, y: array_like, axis: integer = 1) -> PPoly
Akima's piecewise cubic (SciPy 1.10's weights); NaN outside x's range.
]], function(x, y, axis)
    local fname = "scipy.interpolate.Akima1DInterpolator"
    local xs, rows, r, trail = prep(fname, x, y, axis)
    local n = #xs
    if n < 3 then fail(fname .. ": at least 3 points are needed") end
    local t = {}
    for i = 1, n do t[i] = {} end
    for col = 1, r do
      local m = {}
      for i = 1, n - 1 do m[i + 2] = (rows[i + 1][col] - rows[i][col]) / (xs[i + 1] - xs[i]) end
      m[2] = 2 * m[3] - m[4]
      m[1] = 2 * m[2] - m[3]
      m[n + 2] = 2 * m[n + 1] - m[n]
      m[n + 3] = 2 * m[n + 2] - m[n + 1]
      local dm = {}
      for i = 1, n + 2 do dm[i] = math.abs(m[i + 1] - m[i]) end
      local fmax = -math.huge
      local f1, f2, f12 = {}, {}, {}
      for i = 1, n do
        f1[i], f2[i] = dm[i + 2], dm[i]
        f12[i] = f1[i] + f2[i]
        if f12[i] > fmax then fmax = f12[i] end
      end
      for i = 1, n do
        if f12[i] > 1e-9 * fmax then
          t[i][col] = (f1[i] * m[i + 1] + f2[i] * m[i + 2]) / f12[i]
        else
          t[i][col] = 0.5 * (m[i + 3] + m[i])
        end
      end
    end
    return make(PP, hermite(xs, rows, t, r), xs, r, trail, false)
  end)
end
