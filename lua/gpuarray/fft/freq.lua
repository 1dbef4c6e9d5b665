--- ga.fft's helpers: sample frequencies, shifts, and the plan cache.
return function(ga, fft)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail = internal.fail

  local function check_n(n, d, fname)
    local m = math.tointeger(n)
    if m == nil or m < 1 then fail(fname .. ": n must be a positive integer") end
    d = d or 1.0
    if type(d) ~= "number" or d == 0 then fail(fname .. ": d must be a non-zero number") end
    return m, d
  end
  local function float_dtype(dt)
    if dt == nil then return "float64" end
    return ga.dtype(dt).name
  end

  --- fftfreq(n[, d][, dtype]): 0, 1, ..., -(n//2), ..., -1, over d * n
  function fft.fftfreq(n, d, dt)
    if type(d) == "table" then d, dt = d.d, d.dtype end
    local m
    m, d = check_n(n, d, "fft.fftfreq")
    local k = ga.arange(m, "float64")
    local r = ga.where(k:ge((m + 1) // 2), k - m, k) * (1 / (d * m))
    dt = float_dtype(dt)
    return dt == "float64" and r or r:astype(dt)
  end

  --- rfftfreq(n[, d][, dtype]): 0, 1, ..., n//2, over d * n
  function fft.rfftfreq(n, d, dt)
    if type(d) == "table" then d, dt = d.d, d.dtype end
    local m
    m, d = check_n(n, d, "fft.rfftfreq")
    local r = ga.arange(m // 2 + 1, "float64") * (1 / (d * m))
    dt = float_dtype(dt)
    return dt == "float64" and r or r:astype(dt)
  end

  local function shift(x, axes, sign, fname)
    if not internal.is_array(x) then x = ga.array(x) end
    local nd = x.ndim
    if type(axes) == "table" and axes.axes then axes = axes.axes end
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
  --- fftshift(x[, axes]): the zero frequency to the centre (every axis by default)
  function fft.fftshift(x, axes) return shift(x, axes, 1, "fft.fftshift") end
  --- ifftshift(x[, axes]): fftshift undone
  function fft.ifftshift(x, axes) return shift(x, axes, -1, "fft.ifftshift") end

  --- cache_info([device]) -> {size=, max_size=, hits=, misses=, device=}: the
  -- plan cache of a device (the current one by default)
  function fft.cache_info(device)
    return core.fft.cache_info(device)
  end
  --- set_cache_size(n): at most n plans cached on the current device (0:
  -- none; default 16); the least recently used go first
  function fft.set_cache_size(n)
    core.fft.set_cache_size(n)
  end
end
