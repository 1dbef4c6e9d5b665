--- interp1d (SciPy 1.10): kinds linear, nearest, nearest-up, previous,
-- next (one kernel: a binary search and the pick or the line; the
-- interp1d_linear_f32_2^24_ms key), zero, slinear, quadratic, cubic (the
-- interpolating B-spline of degree 0, 1, 2, 3, make_interp_spline's),
-- or an integer degree. fill_value: a number, {below, above}, or
-- "extrapolate"; bounds_error raises on a query outside (that check reads
-- the queries' extremes back).
return function(ga, I, C)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  require("gpuarray.api.surface")
  local fail, is_array = internal.fail, internal.is_array

  local SIMPLE = { linear = 0, nearest = 1, ["nearest-up"] = 2, previous = 3, ["next"] = 4 }
  local DEGREE = { zero = 0, slinear = 1, quadratic = 2, cubic = 3 }

  local MT = { __name = "gpuarray.interp1d" }
  local methods = {}
  MT.__index = function(self, key)
    if key == "x" then return self._x end
    if key == "y" then return self._y end
    return methods[key]
  end
  api.set_type("interp1d", function(v) return getmetatable(v) == MT end)

  MT.__call = function(self, x)
    local fname = "interp1d"
    local q = is_array(x) and x or ga.asarray(x)
    if self.bounds_error and q.size > 0 then
      local qf = q
      if ga.min(qf):item() < self.lo then fail(fname .. ": A value in x_new is below the interpolation range.") end
      if ga.max(qf):item() > self.hi then fail(fname .. ": A value in x_new is above the interpolation range.") end
    end
    local res
    if self.spline then
      res = self.spline(q)
      if not self.extrap then
        local qf = q:astype("float64")
        local shape = res.shape
        local pad = {}
        for d = 1, #shape do pad[d] = d <= q.ndim and shape[d] or 1 end
        local below = qf:lt(self.lo):reshape(#pad > 0 and pad or {})
        local above = qf:gt(self.hi):reshape(#pad > 0 and pad or {})
        res = ga.where(below, self.below, ga.where(above, self.above, res))
      end
      return res:astype(self.dtype)
    end
    local qc, shape = C.queries(q, self.trail)
    res = C.eval(C.K.simple, qc, self.r, shape, self.dtype, self.dev_x, self.dev_y, self.n, self.r, self.kind,
                 self.extrap, self.below, self.above)
    return res
  end

  api.def(I, [[
scipy.interpolate.interp1d(x: array_like, y: array_like, kind: string|integer = "linear", axis: integer = -1,
                           copy: boolean = true, bounds_error: boolean?, fill_value: number|list|string = (NaN),
                           assume_sorted: boolean = false) -> interp1d
A 1-D interpolating function (axis: y's interpolation axis, 1-based); f(x_new) evaluates on the GPU.
]], function(x, y, kind, axis, _, bounds_error, fill_value, assume_sorted)
    local fname = "scipy.interpolate.interp1d"
    local ya = is_array(y) and y or ga.asarray(y)
    local dtype = (ya.dtype == "float32" or ya.dtype == "float64") and ya.dtype or "float64"
    if ya.dtype == "complex64" or ya.dtype == "complex128" then fail(fname .. ": complex y is not supported") end
    local xs = C.list(x, fname, "x")
    local rows, r, trail, _, n = C.rows(ya, axis, fname)
    if #xs ~= n then fail(fname .. ": x and y arrays must be equal in length along interpolation axis.") end
    if not assume_sorted then
      local idx = {}
      for i = 1, n do idx[i] = i end
      table.sort(idx, function(a, b) return xs[a] < xs[b] end)
      local nx, nr = {}, {}
      for i, j in ipairs(idx) do nx[i], nr[i] = xs[j], rows[j] end
      xs, rows = nx, nr
    end
    local self = { n = n, r = r, trail = trail, dtype = dtype, lo = xs[1], hi = xs[n] }
    self._x = ga.array(xs, "float64")
    if fill_value == "extrapolate" then
      if bounds_error then fail(fname .. ': Cannot extrapolate and raise at the same time.') end
      self.extrap, self.below, self.above, self.bounds_error = true, 0 / 0, 0 / 0, false
    else
      local fv = fill_value
      if fv == nil then fv = 0 / 0 end
      if type(fv) == "string" then fail(fname .. ': fill_value must be a number, {below, above} or "extrapolate"') end
      if type(fv) == "table" then self.below, self.above = fv[1], fv[2]
      else self.below, self.above = fv, fv end
      self.extrap = false
      if bounds_error == nil then bounds_error = true end
      self.bounds_error = bounds_error
    end
    local deg
    if type(kind) == "number" then deg = kind
    elseif DEGREE[kind] then deg = DEGREE[kind]
    elseif SIMPLE[kind] then self.kind = SIMPLE[kind]
    else fail(fname .. ": kind " .. tostring(kind) .. " is not supported") end
    if deg then
      if n < deg + 1 then fail(fname .. (": x and y arrays must have at least %d entries"):format(deg + 1)) end
      local flat = {}
      for i, row in ipairs(rows) do flat[i] = row end
      local yrows = ga.array(flat, "float64")
      if deg == 0 then
        -- zero: previous-value steps (the degree-0 spline on knots x)
        self.kind = 3
      else
        self.spline = I.make_interp_spline(self._x, yrows, deg)
        self.spline.trail = trail
      end
    end
    if n < 1 then fail(fname .. ": x and y arrays must have at least 1 entry") end
    if self.kind == 0 and n < 2 then fail(fname .. ": x and y arrays must have at least 2 entries") end
    self.dev_x = self._x
    self.dev_y = C.upload(rows):astype(dtype)
    self._y = self.dev_y:reshape((function()
      local s = { n }
      for _, v in ipairs(trail) do s[#s + 1] = v end
      return s
    end)())
    return setmetatable(self, MT)
  end)
  api.class("interp1d", methods)
end
