--- ga.fft's helpers: sample frequencies, shifts, and the plan cache.
return function(ga, fft)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
  local core = ga._core
  local fail = internal.fail

  local function check_n(n, d, fname)
    if n < 1 then fail(fname .. ": n must be a positive integer") end
    if d == 0 then fail(fname .. ": d must be a non-zero number") end
    return n, d
  end
  local function float_dtype(dt)
    if dt == nil then return "float64" end
    return ga.dtype(dt).name
  end

  api.def(fft, [[
fft.fftfreq(n: integer, d: number = 1.0, *, dtype: dtype?) -> ndarray
The sample frequencies of an n-point transform: 0, 1, ..., -(n//2), ..., -1, over d n (float64 by default).
]], function(n, d, dt)
    local m
    m, d = check_n(n, d, "fft.fftfreq")
    local k = ga.arange(m, "float64")
    local r = ga.where(k:ge((m + 1) // 2), k - m, k) * (1 / (d * m))
    dt = float_dtype(dt)
    return dt == "float64" and r or r:astype(dt)
  end)

  api.def(fft, [[
fft.rfftfreq(n: integer, d: number = 1.0, *, dtype: dtype?) -> ndarray
The sample frequencies of rfft's n//2 + 1 values: 0, 1, ..., n//2, over d n.
]], function(n, d, dt)
    local m
    m, d = check_n(n, d, "fft.rfftfreq")
    local r = ga.arange(m // 2 + 1, "float64") * (1 / (d * m))
    dt = float_dtype(dt)
    return dt == "float64" and r or r:astype(dt)
  end)

  local function shift(x, axes, sign, fname)
    if not internal.is_array(x) then x = ga.array(x) end
    local nd = x.ndim
    if axes == nil then
      axes = {}
      for d = 1, nd do axes[d] = d end
    else
      axes = internal.int_list(axes, fname, "axes")
    end
    for _, a in ipairs(axes) do
      local ax = math.tointeger(a)
      if ax == nil or ax == 0 or ax > nd or ax < -nd then
        fail(("%s: axis %s is out of range"):format(fname, tostring(a)))
      end
      if ax < 0 then ax = ax + nd + 1 end
      local n = x.shape[ax]
      local s = sign > 0 and n // 2 or -(n // 2)
      if s ~= 0 then x = ga.roll(x, s, ax) end
    end
    return x
  end
  api.def(fft, [[
fft.fftshift(x: array_like, axes: axis|list?) -> ndarray
The zero frequency moved to the centre along axes (1-based; every axis by default).
]], function(x, axes) return shift(x, axes, 1, "fft.fftshift") end)
  api.def(fft, [[
fft.ifftshift(x: array_like, axes: axis|list?) -> ndarray
fftshift undone.
]], function(x, axes) return shift(x, axes, -1, "fft.ifftshift") end)

  api.def(fft, [[
fft.cache_info(device: integer|userdata?) -> table
The plan cache of a device (the current one by default): {size=, max_size=, hits=, misses=, device=}.
]], function(device)
    -- a Device object by its id; other userdata (an ndarray) is no device
    if type(device) == "userdata" then
      local mt = getmetatable(device)
      if type(mt) ~= "table" or mt.__name ~= "gpuarray.Device" then
        fail("fft.cache_info: device must be a device id or a Device, got " .. (type(mt) == "table"
          and tostring(mt.__name) or "userdata"))
      end
      device = device.id
    end
    return core.fft.cache_info(device)
  end)
  api.def(fft, [[
fft.set_cache_size(n: integer)
At most n plans cached on the current device (0: none; default 16); the least recently used go first.
]], function(n) core.fft.set_cache_size(n) end)
end
