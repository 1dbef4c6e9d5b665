--- Coefficient lists on the host: polynomials are a few coefficients, so
-- their arithmetic (add, multiply, divide, differentiate, integrate)
-- runs in Lua on Lua numbers and returns ndarrays; evaluation over arrays
-- of points runs on the device. A list carries its dtype name (ints stay
-- integers as NumPy's do; complex values are {re, im} pairs).
return function(ga)
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local C = {}

  local function kind(dt) return ga.dtype(dt).kind end
  C.kind = kind

  --- a Lua value (number, list, 0-d or 1-D ndarray, an object with
  -- _coef_array) as {values...}, dtype
  function C.read(p, fname, what)
    what = what or "p"
    if type(p) == "table" and rawget(p, "_coef_array") then p = p._coef_array end
    if type(p) == "number" then return { p }, math.type(p) == "integer" and "int64" or "float64" end
    if is_array(p) then
      if p.ndim > 1 then fail(("%s: %s must be 1-D"):format(fname, what)) end
      local t = p:totable()
      if p.ndim == 0 then t = { t } end
      if p.dtype == "bool" then
        for i, v in ipairs(t) do t[i] = v and 1 or 0 end
        return t, "int64"
      end
      return t, p.dtype
    end
    if type(p) ~= "table" then fail(("%s: %s must be a number, a list or an ndarray, got %s"):format(fname, what,
      type(p))) end
    local t, dt = {}, "int64"
    for i = 1, rawlen(p) do
      local v = rawget(p, i)
      if type(v) ~= "number" then fail(("%s: %s must hold numbers"):format(fname, what)) end
      if math.type(v) == "float" then dt = "float64" end
      t[i] = v
    end
    return t, dt
  end

  --- the list as an ndarray of dtype (float results of integer lists stay exact)
  function C.array(t, dt)
    if #t == 0 then return ga.empty(0, dt) end
    return ga.array(t, dt)
  end

  function C.float(dt)
    local k = kind(dt)
    if k == "f" or k == "c" then return dt end
    return "float64"
  end

  --- complex helpers on {re, im} pairs and numbers
  function C.re(v) return type(v) == "table" and v[1] or v end
  function C.im(v) return type(v) == "table" and v[2] or 0 end

  -- real list operations (NumPy's np.lib.polynomial semantics)
  function C.pad_front(t, n)
    local r = {}
    for _ = 1, n do r[#r + 1] = 0 end
    for _, v in ipairs(t) do r[#r + 1] = v end
    return r
  end
  function C.add(a, b, sub)
    local n = math.max(#a, #b)
    a, b = C.pad_front(a, n - #a), C.pad_front(b, n - #b)
    local r = {}
    for i = 1, n do r[i] = sub and a[i] - b[i] or a[i] + b[i] end
    return r
  end
  function C.mul(a, b)
    local r = {}
    for i = 1, #a + #b - 1 do r[i] = 0 end
    for i = 1, #a do
      for j = 1, #b do r[i + j - 1] = r[i + j - 1] + a[i] * b[j] end
    end
    return r
  end
  -- strip leading zeros (highest first), keeping one
  function C.trim_front(t)
    local i = 1
    while i < #t and t[i] == 0 do i = i + 1 end
    return table.move(t, i, #t, 1, {})
  end
  function C.reverse(t)
    local r = {}
    for i = #t, 1, -1 do r[#r + 1] = t[i] end
    return r
  end
  return C
end
