--- poly1d (NumPy's one-variable polynomial class, coefficients highest
-- degree first): p.coeffs (p.c, p.coef, p.coefficients: an ndarray),
-- p.order (p.o), p.roots (p.r), p.variable; p(x) evaluates (at a poly1d:
-- composes); + - * with numbers and poly1d, / by a number (a poly1d) or by
-- a poly1d (quotient and remainder), ^ a non-negative integer, ==, #p (the
-- order); p:deriv(m), p:integ(m, k).
return function(ga, C, mt, polydiv, polyder, polyint)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local fail, is_array = internal.fail, internal.is_array
  require("gpuarray.api.surface")   -- api.class
  local methods = {}
  local function is_poly1d(v) return type(v) == "table" and getmetatable(v) == mt end

  mt.__name = "gpuarray.poly1d"
  mt.__index = function(self, k)
    if k == "coeffs" or k == "c" or k == "coef" or k == "coefficients" then return rawget(self, "_coef_array") end
    if k == "order" or k == "o" then return rawget(self, "_order") end
    if k == "roots" or k == "r" then return ga.roots(rawget(self, "_coef_array")) end
    if k == "variable" then return rawget(self, "_variable") end
    return methods[k]
  end

  local function make(arr, variable)
    -- leading zeros dropped (one kept), as NumPy's trim_zeros(c, 'f')
    local t = arr:totable()
    local first = #t + 1
    for i, v in ipairs(t) do
      local nz = type(v) == "table" and (v[1] ~= 0 or v[2] ~= 0) or (v ~= 0 and v ~= false)
      if nz then
        first = i
        break
      end
    end
    if first > #t then arr = ga.zeros(1, arr.dtype)
    elseif first > 1 then arr = arr[{ { first, #t } }]:copy() end
    return setmetatable({ _coef_array = arr, _order = arr.size - 1, _variable = variable or "x" }, mt)
  end

  api.def(ga, [[
poly1d(c_or_r: array_like|poly1d, r: boolean = false, variable: string?) -> poly1d
A polynomial from its coefficients (highest degree first), or from its
roots with r = true. Leading zeros are dropped.
]], function(c, r, variable)
    if is_poly1d(c) then return make(c.coeffs:copy(), variable or c.variable) end
    if r then
      local p = ga.poly(c)
      if type(p) == "number" then p = ga.array({ p }, "float64") end
      return make(p, variable)
    end
    if not is_array(c) then c = ga.asarray(c) end
    if c.ndim > 1 then fail("poly1d: Polynomial must be 1d only.") end
    if c.ndim == 0 then c = c:reshape(1) end
    if c.size == 0 then c = ga.zeros(1, c.dtype) end
    return make(c, variable)
  end)
  api.set_type("poly1d", is_poly1d)

  mt.__call = function(self, x)
    if is_poly1d(x) then
      local t = C.read(self, "poly1d")
      local acc = ga.poly1d({ 0 })
      for _, v in ipairs(t) do acc = acc * x + v end
      return acc
    end
    return ga.polyval(self, x)
  end
  mt.__add = function(a, b) return ga.polyadd(a, b) end
  mt.__sub = function(a, b) return ga.polysub(a, b) end
  mt.__mul = function(a, b) return ga.polymul(a, b) end
  mt.__unm = function(a) return ga.polymul(a, { -1 }) end
  mt.__div = function(a, b)
    if type(b) == "number" then return ga.poly1d(a.coeffs / b) end
    return polydiv(a, b)
  end
  mt.__pow = function(a, n)
    if math.type(n) ~= "integer" or n < 0 then fail("poly1d: Power to non-negative integers only.") end
    local r = ga.poly1d({ 1 })
    for _ = 1, n do r = r * a end
    return r
  end
  mt.__eq = function(a, b)
    if not (is_poly1d(a) and is_poly1d(b)) then return false end
    local ta, tb = C.read(a, "poly1d"), C.read(b, "poly1d")
    if #ta ~= #tb then return false end
    for i = 1, #ta do if ta[i] ~= tb[i] then return false end end
    return true
  end
  mt.__len = function(a) return a.order end
  mt.__tostring = function(a)
    local t = C.read(a, "poly1d")
    local parts = {}
    for i, v in ipairs(t) do parts[i] = tostring(v) end
    return "poly1d({" .. table.concat(parts, ", ") .. "})"
  end

  api.def(methods, [[
poly1d:deriv(m: integer = 1) -> poly1d
The m-th derivative.
]], function(self, m) return polyder(self, m) end)
  api.def(methods, [[
poly1d:integ(m: integer = 1, k: number|list|ndarray?) -> poly1d
The m-th antiderivative with integration constants k (default 0).
]], function(self, m, k) return polyint(self, m, k) end)
  api.class("poly1d", methods)
end
