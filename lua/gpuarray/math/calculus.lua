--- Differences, gradients, integrals and products of vectors (NumPy's
-- ediff1d, gradient, trapezoid, cross, unwrap): compositions of views and
-- ufuncs, so they run on the elementwise engine and its kernels. Axes are
-- 1-based (negative from the end), as everywhere in the API.
local api = require "gpuarray.api"
local internal = require "gpuarray.internal"

return function(ga)
  local fail = internal.fail
  local is_array = internal.is_array
  local def = api.def

  local U = require "gpuarray.math.util"
  local axis_of, slice = U.axis, U.slice
  local function same_kind(from, to) return U.same_kind(ga, from, to) end

  -- NumPy's float result for differences: integers and bools in float64
  local function float_dtype(dt) return U.inexact(dt) and dt or "float64" end

  -------------------------------------------------------------------------
  def(ga, [[
ediff1d(ary: array_like, to_end: array_like?, to_begin: array_like?) -> ndarray
Differences of consecutive elements of the flattened array, with to_begin
before and to_end after (cast to ary's dtype under same_kind casting).
]], function(ary, to_end, to_begin)
    local x = ga.asarray(ary):ravel()
    local dt = x.dtype
    local function part(v, what)
      if v == nil then return nil end
      v = ga.asarray(v):ravel()
      if not same_kind(v.dtype, dt) then
        fail(("ediff1d: dtype of `%s` must be compatible with input `ary` under the `same_kind` rule."):format(what))
      end
      return v
    end
    local b, e = part(to_begin, "to_begin"), part(to_end, "to_end")
    local n = x.size
    local nb, ne = b and b.size or 0, e and e.size or 0
    local nd = n > 0 and n - 1 or 0
    local r = ga.empty(nb + nd + ne, dt)
    if nb > 0 then r[{ { 1, nb } }] = b end
    if nd > 0 then ga.subtract(x[{ { 2, n } }], x[{ { 1, n - 1 } }], r[{ { nb + 1, nb + nd } }]) end
    if ne > 0 then r[{ { nb + nd + 1, nb + nd + ne } }] = e end
    return r
  end)

  -------------------------------------------------------------------------
  -- gradient: second-order central differences inside, first or second
  -- order one-sided differences at the ends; spacing a scalar per axis or
  -- the coordinates along it

  -- shape of a 1-D coefficient array placed along axis a of an nd array
  local function along(v, nd, a)
    local shape = {}
    for d = 1, nd do shape[d] = 1 end
    shape[a] = v.size
    return v:reshape(shape)
  end

  local function gradient_axis(f, a, h, edge_order, dt)
    local n = f.shape[a]
    if n < edge_order + 1 then
      fail(("gradient: Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
            .. "elements are required."))
    end
    local nd = f.ndim
    local g = ga.empty(f.shape, dt)
    local function S(lo, hi) return slice(f, a, lo, hi) end
    local function G(lo, hi) return slice(g, a, lo, hi) end
    if not is_array(h) then
      -- uniform spacing
      if n > 2 then ga.divide(ga.subtract(S(3, n), S(1, n - 2)), 2.0 * h, G(2, n - 1)) end
      if edge_order == 1 then
        ga.divide(ga.subtract(S(2, 2), S(1, 1)), h, G(1, 1))
        ga.divide(ga.subtract(S(n, n), S(n - 1, n - 1)), h, G(n, n))
      else
        G(1, 1):set(ga.divide(-1.5 * S(1, 1) + 2.0 * S(2, 2) - 0.5 * S(3, 3), h))
        G(n, n):set(ga.divide(0.5 * S(n - 2, n - 2) - 2.0 * S(n - 1, n - 1) + 1.5 * S(n, n), h))
      end
      return g
    end
    -- coordinates: NumPy's non-uniform formulas (float64 coefficients)
    local x = h:astype("float64")
    if x.ndim ~= 1 or x.size ~= n then
      fail("gradient: when 1d, distances must match the length of the corresponding dimension")
    end
    local dx = ga.subtract(x[{ { 2, n } }], x[{ { 1, n - 1 } }])
    if n > 2 then
      local dx1, dx2 = dx[{ { 1, n - 2 } }], dx[{ { 2, n - 1 } }]
      local s = dx1 + dx2
      local ca = along(-dx2 / (dx1 * s), nd, a)
      local cb = along((dx2 - dx1) / (dx1 * dx2), nd, a)
      local cc = along(dx1 / (dx2 * s), nd, a)
      G(2, n - 1):set(ca * S(1, n - 2) + cb * S(2, n - 1) + cc * S(3, n))
    end
    if edge_order == 1 then
      G(1, 1):set((S(2, 2) - S(1, 1)) / along(dx[{ { 1, 1 } }], nd, a))
      G(n, n):set((S(n, n) - S(n - 1, n - 1)) / along(dx[{ { n - 1, n - 1 } }], nd, a))
    else
      local dx1, dx2 = dx[{ { 1, 1 } }], dx[{ { 2, 2 } }]
      local s = dx1 + dx2
      local ca, cb, cc = -(2.0 * dx1 + dx2) / (dx1 * s), s / (dx1 * dx2), -dx1 / (dx2 * s)
      G(1, 1):set(along(ca, nd, a) * S(1, 1) + along(cb, nd, a) * S(2, 2) + along(cc, nd, a) * S(3, 3))
      dx1, dx2 = dx[{ { n - 2, n - 2 } }], dx[{ { n - 1, n - 1 } }]
      s = dx1 + dx2
      ca, cb, cc = dx2 / (dx1 * s), -s / (dx1 * dx2), (2.0 * dx2 + dx1) / (dx2 * s)
      G(n, n):set(along(ca, nd, a) * S(n - 2, n - 2) + along(cb, nd, a) * S(n - 1, n - 1) + along(cc, nd, a) * S(n, n))
    end
    return g
  end

  def(ga, [[
gradient(f: array_like, ...: number|ndarray|table, axis: axes?, edge_order: integer = 1) -> ndarray...
The gradient of f by central differences inside and one-sided differences
(first or second order: edge_order) at the ends. The spacings: none (1),
one scalar for every axis, or one per axis (a scalar or the coordinates
along that axis). One result per axis (1-based axis, a list, or all of
them), returned as several values; integers give float64.
]], function(f, axis, edge_order, ...)
    f = ga.asarray(f)
    local nd = f.ndim
    if nd == 0 then fail("gradient: the array must have at least one dimension") end
    if edge_order ~= 1 and edge_order ~= 2 then fail("gradient: 'edge_order' greater than 2 not supported") end
    local axes = {}
    if axis == nil then
      for d = 1, nd do axes[d] = d end
    else
      for i, a in ipairs(type(axis) == "table" and axis or { axis }) do axes[i] = axis_of(nd, a, "gradient") end
    end
    local spacing = table.pack(...)
    for i = 1, spacing.n do
      local v = spacing[i]
      if type(v) ~= "number" and type(v) ~= "table" and not is_array(v) then
        fail(("gradient: spacing %d must be a number or the coordinates, got %s"):format(i, type(v)))
      end
    end
    local h = {}
    if spacing.n == 0 then
      for i = 1, #axes do h[i] = 1.0 end
    elseif spacing.n == 1 and not is_array(spacing[1]) and type(spacing[1]) ~= "table" then
      for i = 1, #axes do h[i] = spacing[1] end
    elseif spacing.n == #axes then
      for i = 1, #axes do
        local s = spacing[i]
        if type(s) == "table" then s = ga.asarray(s) end
        if is_array(s) and s.ndim == 0 then s = s:item() end
        h[i] = s
      end
    else
      fail("gradient: invalid number of arguments")
    end
    local dt = float_dtype(f.dtype)
    if dt ~= f.dtype then f = f:astype(dt) end   -- NumPy differences integers in float64
    local out = {}
    for i, a in ipairs(axes) do out[i] = gradient_axis(f, a, h[i], edge_order, dt) end
    return table.unpack(out)
  end)

  -------------------------------------------------------------------------
  def(ga, [[
trapezoid(y: array_like, x: array_like?, dx: number = 1.0, axis: integer = -1) -> ndarray
Integral of y along axis (1-based, default the last) by the trapezoidal
rule, with sample points x (1-D along axis, or y's shape) or spacing dx.
]], function(y, x, dx, axis)
    y = ga.asarray(y)
    local nd = y.ndim
    if nd == 0 then fail("trapezoid: y must have at least one dimension") end
    local a = axis_of(nd, axis, "trapezoid")
    local n = y.shape[a]
    local d
    if x ~= nil then
      x = ga.asarray(x)
      if x.ndim == 1 then
        if x.size ~= n then fail("trapezoid: x and y have different lengths along axis") end
        d = along(ga.subtract(x[{ { 2, n } }], x[{ { 1, n - 1 } }]), nd, a)
      else
        d = ga.subtract(slice(x, a, 2, n), slice(x, a, 1, n - 1))
      end
    else
      d = dx
    end
    if n < 2 then
      local shape = y.shape
      table.remove(shape, a)
      return ga.zeros(shape, float_dtype(ga.result_type(y, d)))
    end
    local mid = ga.add(slice(y, a, 2, n), slice(y, a, 1, n - 1))
    return ga.sum(ga.multiply(d, mid) / 2.0, a)
  end)

  -------------------------------------------------------------------------
  local function component(v, k)   -- v[..., k] (a view; the vector axis last)
    local sel = {}
    for d = 1, v.ndim - 1 do sel[d] = {} end
    sel[v.ndim] = k
    return v[sel]
  end

  local function move_last(v, a)
    local perm = {}
    for d = 1, v.ndim do if d ~= a then perm[#perm + 1] = d end end
    perm[#perm + 1] = a
    return v:transpose(perm)
  end

  def(ga, [[
cross(a: array_like, b: array_like, axisa: integer = -1, axisb: integer = -1, axisc: integer = -1,
      axis: integer?) -> ndarray
Cross product of vectors of 2 or 3 components along axisa of a and axisb
of b (1-based; the last by default; axis sets all three), broadcast over
the other axes; the result's vectors lie along axisc (two 2-vectors give
the z component alone, as NumPy's).
]], function(a, b, axisa, axisb, axisc, axis)
    a, b = ga.asarray(a), ga.asarray(b)
    if axis ~= nil then axisa, axisb, axisc = axis, axis, axis end
    if a.ndim == 0 or b.ndim == 0 then fail("cross: a and b must be arrays of vectors") end
    local va = move_last(a, axis_of(a.ndim, axisa, "cross"))
    local vb = move_last(b, axis_of(b.ndim, axisb, "cross"))
    local na, nb = va.shape[va.ndim], vb.shape[vb.ndim]
    if (na ~= 2 and na ~= 3) or (nb ~= 2 and nb ~= 3) then
      fail("cross: incompatible dimensions for cross product (dimension must be 2 or 3)")
    end
    local dt = ga.result_type(a, b)
    if dt == "bool" then fail("cross: the boolean cross product is not supported (NumPy's subtract of booleans)") end
    local a0, a1 = component(va, 1), component(va, 2)
    local b0, b1 = component(vb, 1), component(vb, 2)
    local z = ga.subtract(ga.multiply(a0, b1), ga.multiply(a1, b0), nil, { dtype = dt })
    if na == 2 and nb == 2 then return z end
    local a2 = na == 3 and component(va, 3) or nil
    local b2 = nb == 3 and component(vb, 3) or nil
    local x, y
    if a2 and b2 then
      x = ga.subtract(ga.multiply(a1, b2), ga.multiply(a2, b1))
      y = ga.subtract(ga.multiply(a2, b0), ga.multiply(a0, b2))
    elseif b2 then    -- a's third component is 0
      x = ga.multiply(a1, b2)
      y = ga.negative(ga.multiply(a0, b2))
    else              -- b's third component is 0
      x = ga.negative(ga.multiply(a2, b1))
      y = ga.multiply(a2, b0)
    end
    local r = ga.stack({ x:astype(dt), y:astype(dt), z }, -1)
    local nd = r.ndim
    local c = axis_of(nd, axisc, "cross")
    if c ~= nd then
      local perm = {}
      for d = 1, nd - 1 do perm[#perm + 1] = d end
      table.insert(perm, c, nd)
      r = r:transpose(perm)
    end
    return r
  end)

  -------------------------------------------------------------------------
  -- unwrap: the jumps of p along axis larger than discont become their
  -- equivalent modulo period, and the corrections accumulate
  def(ga, [[
unwrap(p: array_like, discont: number?, axis: integer = -1, *, period: number = 6.283185307179586) -> ndarray
Unwrap by taking the complement modulo period of jumps larger than discont
(default period/2) between consecutive elements along axis (1-based,
default the last).
]], function(p, discont, axis, period)
    p = ga.asarray(p)
    local nd = p.ndim
    if nd == 0 then fail("unwrap: p must have at least one dimension") end
    local a = axis_of(nd, axis, "unwrap")
    local n = p.shape[a]
    discont = discont or period / 2
    local dt = p.dtype
    local integral = not (dt:match("^float") or dt:match("^complex"))
    local high, ambiguous
    if integral and math.type(period) == "integer" then
      high = period // 2
      ambiguous = period % 2 == 0
    else
      high = period / 2
      ambiguous = true
      if integral then dt = "float64" end
    end
    local up = p:astype(dt)
    if n < 2 then return up end
    local dd = ga.subtract(slice(p, a, 2, n), slice(p, a, 1, n - 1))
    if integral and dt == "float64" then dd = dd:astype("float64") end
    local ddmod = ga.remainder(dd + high, period) - high
    if ambiguous then
      -- NumPy: a jump of exactly period/2 upward stays positive
      ddmod = ga.where(ga.logical_and(ga.equal(ddmod, -high), ga.greater(dd, 0)), high, ddmod)
    end
    local correct = ga.where(ga.less(ga.abs(dd), discont), 0, ga.subtract(ddmod, dd))
    local acc = ga.cumsum(correct, a)
    slice(up, a, 2, n):set(ga.add(slice(p, a, 2, n), acc, nil, { dtype = dt }))
    return up
  end)
end
