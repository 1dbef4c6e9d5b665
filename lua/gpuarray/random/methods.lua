--- The sampling methods that RandomState objects, Generators and the
-- module-level functions share. Each object holds `_bits` (random/bits.lua);
-- every method fills fresh arrays from it. Distribution parameters are Lua
-- numbers (uniform and normal also take ndarrays, broadcast with size);
-- size is nil (a 0-d array), an integer or a list; the trailing argument
-- may be a dtype or an options table {dtype=}.
return function(ga, bits)
  local internal = require("gpuarray.internal")
  local fail = internal.fail
  local is_array = internal.is_array
  local M = {}

  -- the trailing dtype-or-options argument
  local function dtype_of(last)
    if type(last) == "table" and not internal.is_array(last) and getmetatable(last) == nil then
      return last.dtype
    end
    return last
  end
  M.dtype_of = dtype_of

  local function draw(self, kind, size, dtype, a, b)
    return bits.fill(self._bits, ga.empty(bits.shape(size), dtype), kind, a, b)
  end

  --- [0, 1): random(size[, dtype])
  function M.random(self, size, dt)
    return draw(self, "uniform", size, bits.float_dtype(dtype_of(dt), "random.random", true), 0, 1)
  end
  M.random_sample, M.ranf, M.sample = M.random, M.random, M.random

  -- rand(d1, d2, ...[, dtype|opts]) and randn: dimensions as arguments
  local function dims(fname, ...)
    local args, shape = table.pack(...), {}
    local dt
    for i = 1, args.n do
      local v = args[i]
      if math.type(v) == "integer" then shape[#shape + 1] = v
      elseif i == args.n then dt = dtype_of(v)
      else fail(("%s: dimensions must be integers, got %s"):format(fname, tostring(v))) end
    end
    return shape, bits.float_dtype(dt, fname, true)
  end
  function M.rand(self, ...)
    local shape, dt = dims("random.rand", ...)
    return draw(self, "uniform", shape, dt, 0, 1)
  end
  function M.randn(self, ...)
    local shape, dt = dims("random.randn", ...)
    return draw(self, "normal", shape, dt, 0, 1)
  end

  -- a location-scale family: lo + scale * standard, with array parameters
  -- applied after drawing the standard variate at the broadcast shape
  local function loc_scale(self, kind, fname, loc, scale, size, dt, a0, b0)
    dt = bits.float_dtype(dtype_of(dt), fname, true)
    if is_array(loc) or is_array(scale) then
      if size == nil then
        local shapes = {}
        for _, v in ipairs({ loc, scale }) do
          if is_array(v) then shapes[#shapes + 1] = v.shape end
        end
        size = ga.broadcast_shapes(table.unpack(shapes))
      end
      local z = draw(self, kind, size, dt, a0, b0)
      local r = z * scale + loc
      return r.dtype == dt and r or r:astype(dt)
    end
    local a = bits.num(loc, a0, fname, "the first parameter")
    local b = bits.num(scale, b0, fname, "the second parameter")
    if kind == "uniform" then b = b - a end
    return draw(self, kind, size, dt, a, b)
  end

  function M.uniform(self, low, high, size, dt)
    if is_array(low) or is_array(high) then
      local lo = low or 0
      return loc_scale(self, "uniform", "random.uniform", lo, (high or 1) - lo, size, dt, 0, 1)
    end
    return loc_scale(self, "uniform", "random.uniform", low, high or 1, size, dt, 0, 1)
  end
  function M.normal(self, loc, scale, size, dt)
    return loc_scale(self, "normal", "random.normal", loc, scale, size, dt, 0, 1)
  end
  function M.standard_normal(self, size, dt)
    return draw(self, "normal", size, bits.float_dtype(dtype_of(dt), "random.standard_normal", true), 0, 1)
  end
  function M.lognormal(self, mean, sigma, size, dt)
    local fname = "random.lognormal"
    return draw(self, "lognormal", size, bits.float_dtype(dtype_of(dt), fname, true), bits.num(mean, 0, fname, "mean"),
                bits.num(sigma, 1, fname, "sigma"))
  end
  function M.exponential(self, scale, size, dt)
    local fname = "random.exponential"
    local s = bits.num(scale, 1, fname, "scale")
    if s < 0 then fail(fname .. ": scale < 0") end
    return draw(self, "exponential", size, bits.float_dtype(dtype_of(dt), fname, true), 0, s)
  end
  function M.standard_exponential(self, size, dt)
    return M.exponential(self, 1, size, dt)
  end
  function M.gamma(self, shape, scale, size, dt)
    local fname = "random.gamma"
    local k, s = bits.num(shape, nil, fname, "shape"), bits.num(scale, 1, fname, "scale")
    if k == nil or k < 0 or s < 0 then fail(fname .. ": shape and scale must be given and >= 0") end
    return draw(self, "gamma", size, bits.float_dtype(dtype_of(dt), fname), k, s)
  end
  function M.standard_gamma(self, shape, size, dt)
    return M.gamma(self, shape, 1, size, dt)
  end
  function M.beta(self, a, b, size, dt)
    local fname = "random.beta"
    a, b = bits.num(a, nil, fname, "a"), bits.num(b, nil, fname, "b")
    if a == nil or b == nil or a <= 0 or b <= 0 then fail(fname .. ": a and b must be given and > 0") end
    return draw(self, "beta", size, bits.float_dtype(dtype_of(dt), fname), a, b)
  end
  function M.poisson(self, lam, size, dt)
    local fname = "random.poisson"
    local l = bits.num(lam, 1, fname, "lam")
    if l < 0 or l > 1e15 then fail(fname .. ": lam must be in [0, 1e15]") end
    return draw(self, "poisson", size, bits.int_dtype(dtype_of(dt), fname), l)
  end
  function M.binomial(self, n, p, size, dt)
    local fname = "random.binomial"
    local nn = math.tointeger(n)
    p = bits.num(p, nil, fname, "p")
    if nn == nil or nn < 0 then fail(fname .. ": n must be a non-negative integer") end
    if p == nil or not (p >= 0 and p <= 1) then fail(fname .. ": p must be in [0, 1]") end
    return draw(self, "binomial", size, bits.int_dtype(dtype_of(dt), fname), nn, p)
  end

  -- the bounds of each integer dtype (uint64 up to Lua's largest integer)
  local BOUNDS = {
    int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
    int64 = { math.mininteger, math.maxinteger }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
    uint32 = { 0, 4294967295 }, uint64 = { 0, math.maxinteger },
  }

  --- Integers in [low, high] (inclusive: hi_incl), any integer dtype
  function M._integers(self, fname, low, high, size, dt, endpoint)
    dt = bits.int_dtype(dtype_of(dt), fname)
    local lo, hi = math.tointeger(low), math.tointeger(high)
    if high == nil then lo, hi = 0, math.tointeger(low) end
    if lo == nil or hi == nil then fail(fname .. ": low and high must be integers") end
    if not endpoint then
      if hi <= lo then fail(("%s: low >= high (%d >= %d)"):format(fname, lo, hi)) end
      hi = hi - 1
    elseif hi < lo then
      fail(("%s: low > high (%d > %d)"):format(fname, lo, hi))
    end
    local b = BOUNDS[dt]
    if lo < b[1] or hi > b[2] then
      fail(("%s: the range [%d, %d] does not fit %s"):format(fname, lo, hi, dt))
    end
    return draw(self, "integers", size, dt, lo, hi - lo)    -- hi - lo wraps into uint64 bits
  end
  --- randint(low[, high], size[, dtype]): [low, high), or [0, low) without high
  function M.randint(self, low, high, size, dt)
    return M._integers(self, "random.randint", low, high, size, dt, false)
  end

  require("gpuarray.random.sampling")(ga, bits, M)
  return M
end
