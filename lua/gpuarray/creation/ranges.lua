--- Numerical ranges (API.md §2, §14): arange, linspace, logspace,
-- geomspace, meshgrid, mgrid, ogrid. These generate VALUES and follow
-- NumPy (arange is half-open, linspace includes both ends, mgrid's ranges
-- are arange's); nothing here is an index.
return function(ga)
  local internal = require "gpuarray.internal"
  local api = require "gpuarray.api"
  local args = require "gpuarray.array.args"
  local fail, is_array = internal.fail, internal.is_array
  local def = api.def

  local C = { arange = ga.arange, linspace = ga.linspace }

  local is_dtype = args.is_dtype

  def(ga, [[
arange(start: number, stop: number|dtype?, step: number|dtype?, dtype: dtype?) -> ndarray
Evenly spaced values in the half-open interval [start, stop) (arange(stop)
starts at 0), as NumPy: values, not indices. int64 when start, stop and
step are Lua integers, else float64; a dtype may also come last by position
(ga.arange(10, "float32")).
]], function(start, stop, step, dtype)
    if is_dtype(stop) then
      if step ~= nil or dtype ~= nil then fail("arange: the dtype comes last") end
      stop, dtype = nil, stop
    elseif is_dtype(step) then
      if dtype ~= nil then fail("arange: the dtype comes last") end
      step, dtype = nil, step
    end
    local a = { start, stop, step }
    local n = step ~= nil and 3 or (stop ~= nil and 2 or 1)
    if stop == nil and step ~= nil then fail("arange: a step needs a stop") end
    if dtype ~= nil then
      a[n + 1] = dtype
      return C.arange(table.unpack(a, 1, n + 1))
    end
    return C.arange(table.unpack(a, 1, n))
  end)

  -- a start or stop of linspace: a Lua number stays (a weak scalar in the
  -- dtype rules); anything else becomes an array
  local function endpoint_value(v)
    if type(v) == "number" then return v end
    return args.array(ga, v, "linspace")
  end

  local function scalar(v) return type(v) == "number" end

  -- NumPy's linspace on arrays (or complex): y = arange(num) * step + start
  -- along a new first axis, the last sample set to stop, moved to axis
  local function linspace_arrays(start, stop, num, endpoint, dtype, axis)
    local s, e = endpoint_value(start), endpoint_value(stop)
    local dt = ga.result_type(s, e, 1.0)
    local sa, ea = ga.asarray(s, dt), ga.asarray(e, dt)
    local div = endpoint and num - 1 or num
    local delta = ga.subtract(ea, sa)
    local shape = { num }
    for _ = 1, delta.ndim do shape[#shape + 1] = 1 end
    local y = ga.arange(0, num, "float64"):astype(dt):reshape(shape)
    local step
    if div > 0 then
      step = ga.divide(delta, div)
      y = ga.multiply(y, step)
    else
      step = ga.full(delta.shape, 0 / 0, dt)
      y = ga.multiply(y, delta)
    end
    y = ga.add(y, sa)
    if endpoint and num > 1 then y[num] = ea end
    local nd = y.ndim
    local ax = args.axis(axis, nd, "linspace")
    if ax ~= 1 then y = ga.moveaxis(y, 1, ax) end
    if dtype ~= nil then
      local d = args.dtype(ga, dtype)
      if ga.dtype(d).kind == "i" or ga.dtype(d).kind == "u" then y = ga.floor(y) end
      y = y:astype(d)
    end
    return y, step
  end

  local function linspace(start, stop, num, endpoint, retstep, dtype, axis)
    if num < 0 then fail(("linspace: the number of samples %d is negative"):format(num)) end
    if scalar(start) and scalar(stop) then
      if axis ~= 1 and axis ~= -1 then args.axis(axis, 1, "linspace") end
      local y = C.linspace(start, stop, num, { endpoint = endpoint, dtype = dtype })
      if not retstep then return y end
      local div = endpoint and num - 1 or num
      return y, div > 0 and (stop - start) / div or 0 / 0
    end
    local y, step = linspace_arrays(start, stop, num, endpoint, dtype, axis)
    if retstep then return y, step end
    return y
  end

  def(ga, [[
linspace(start: array_like, stop: array_like, num: integer = 50, endpoint: boolean = true,
         retstep: boolean = false, dtype: dtype?, axis: integer = 1) -> ndarray
num evenly spaced values from start to stop (stop included unless endpoint
is false). Array-like start and stop give one sequence per element, along
axis (1-based: the new axis's position in the result). Integer dtypes
round toward minus infinity. retstep also returns the step.
]], linspace)

  def(ga, [[
logspace(start: array_like, stop: array_like, num: integer = 50, endpoint: boolean = true,
         base: array_like = 10.0, dtype: dtype?, axis: integer = 1) -> ndarray
base ^ linspace(start, stop, num, endpoint): num values spaced evenly on a
log scale. An array base broadcasts with start and stop.
]], function(start, stop, num, endpoint, base, dtype, axis)
    local y = linspace(start, stop, num, endpoint, false, nil, axis)
    if type(base) ~= "number" then
      base = args.array(ga, base, "logspace")
      if base.ndim > 0 then base = base:expand_dims(args.axis(axis, y.ndim, "logspace")) end
    end
    local r = ga.power(base, y)
    if dtype ~= nil then r = r:astype(dtype, { copy = false }) end
    return r
  end)

  def(ga, [[
geomspace(start: array_like, stop: array_like, num: integer = 50, endpoint: boolean = true,
          dtype: dtype?, axis: integer = 1) -> ndarray
num values spaced evenly on a log scale from start to stop (a geometric
sequence; negative and complex ends allowed, zero not), the ends exact.
Synchronizes (zero ends are checked).
]], function(start, stop, num, endpoint, dtype, axis)
    if num < 0 then fail(("geomspace: the number of samples %d is negative"):format(num)) end
    local s = ga.multiply(args.array(ga, start, "geomspace"), 1.0)
    local e = ga.multiply(args.array(ga, stop, "geomspace"), 1.0)
    if ga.any(ga.equal(s, 0)):item() or ga.any(ga.equal(e, 0)):item() then
      fail("geomspace: a geometric sequence cannot include zero")
    end
    local dt = ga.result_type(s, e, 1.0, dtype and args.dtype(ga, dtype) or "float64")
    s, e = s:astype(dt), e:astype(dt)
    local complex = ga.dtype(dt).kind == "c"
    -- rotate start onto the positive reals, compute, rotate back
    local sign = complex and ga.divide(s, ga.abs(s)) or ga.sign(s)
    s = ga.divide(s, sign)
    e = ga.divide(e, sign)
    local y = linspace(ga.log10(s), ga.log10(e), num, endpoint, false, nil, 1)
    y = ga.power(10.0, y):astype(dt, { copy = false })
    if num > 0 then
      y[1] = s
      if num > 1 and endpoint then y[num] = e end
    end
    y = ga.multiply(y, sign)
    if axis ~= 1 then y = ga.moveaxis(y, 1, args.axis(axis, y.ndim, "geomspace")) end
    return y:astype(args.dtype(ga, dtype) or dt, { copy = false })
  end)

  def(ga, [[
meshgrid(...: array_like, *, copy: boolean = true, sparse: boolean = false, indexing: "xy"|"ij" = "xy") -> ndarray...
Coordinate matrices from coordinate vectors (each flattened): one array per
argument, as multiple return values. indexing "xy" (Cartesian, the
default) swaps the first two axes of the result; "ij" is matrix indexing.
sparse keeps each array 1 long on the other axes; copy = false returns
broadcast views.
]], function(copy, sparse, indexing, ...)
    local xi = table.pack(...)
    local nd = xi.n
    local out = {}
    for i = 1, nd do
      local s = {}
      for d = 1, nd do s[d] = 1 end
      s[i] = -1
      if indexing == "xy" and nd > 1 and i <= 2 then s[i] = 1 s[3 - i] = -1 end
      out[i] = args.array(ga, xi[i], "meshgrid"):reshape(s)
    end
    if not sparse and nd > 0 then out = { ga.broadcast_arrays(table.unpack(out, 1, nd)) } end
    if copy then
      for i = 1, nd do out[i] = out[i]:copy() end
    end
    return table.unpack(out, 1, nd)
  end)

  ---------------------------------------------------------------------------
  -- mgrid and ogrid: ga.mgrid[{ {a, b[, step]}, ... }] or ga.mgrid({a, b}, ...)
  ---------------------------------------------------------------------------

  -- One range {start, stop[, step]}: start nil is 0, step nil is 1; a step
  -- that is a {re, im} pair is NumPy's complex step: |step| points from
  -- start to stop, both included. Returns size, start, step (the value
  -- step), whether a float result is needed, and the float |step| if complex.
  local function grid_range(r, fname)
    if type(r) ~= "table" or is_array(r) then
      fail(("%s: a range is {start, stop[, step]}, got %s"):format(fname, type(r)))
    end
    local start, stop, step = rawget(r, 1), rawget(r, 2), rawget(r, 3)
    if rawlen(r) > 3 then fail(fname .. ": a range is {start, stop[, step]}: at most 3 entries") end
    start = start == nil and 0 or start
    step = step == nil and 1 or step
    if type(start) ~= "number" or type(stop) ~= "number" then
      fail(("%s: a range's start and stop must be numbers, got %s and %s"):format(fname, type(start), type(stop)))
    end
    if type(step) == "table" then
      local re, im = rawget(step, 1), rawget(step, 2)
      if type(re) ~= "number" or type(im) ~= "number" then
        fail(fname .. ": a complex step is a {re, im} pair of numbers")
      end
      local mag = math.sqrt(re * re + im * im)
      local n = math.floor(mag)
      local value = n ~= 1 and (stop - start) / (n - 1) or 1
      return n, start, value, true
    end
    if type(step) ~= "number" then
      fail(("%s: a step must be a number or a {re, im} pair, got %s"):format(fname, type(step)))
    end
    if step == 0 then fail(fname .. ": a step of 0") end
    local n = math.ceil((stop - start) / step)
    if n ~= n or n == math.huge then fail(fname .. ": the range is not finite") end
    n = math.max(0, math.tointeger(n) or math.floor(n))
    local float = math.type(start) == "float" or math.type(stop) == "float" or math.type(step) == "float"
    return n, start, step, float
  end

  -- the values of one range along its axis, as an array of dtype
  local function range_values(n, start, step, dtype)
    return ga.add(ga.multiply(ga.arange(0, n, dtype), step), start)
  end

  local function grid(sparse, fname, ranges)
    -- a single range (its first entry is a number or nil): a 1-D array
    local first = ranges[1]
    if first == nil or type(first) == "number" or (type(first) ~= "table") then
      local n, start, step, float = grid_range(ranges, fname)
      return range_values(n, start, step, float and "float64" or "int64")
    end
    local nd = #ranges
    local sizes, starts, steps, float = {}, {}, {}, false
    for k = 1, nd do
      local f
      sizes[k], starts[k], steps[k], f = grid_range(ranges[k], fname)
      float = float or f
    end
    local dtype = float and "float64" or "int64"
    local vals = {}
    for k = 1, nd do
      local s = {}
      for d = 1, nd do s[d] = 1 end
      s[k] = sizes[k]
      vals[k] = range_values(sizes[k], starts[k], steps[k], dtype):reshape(s)
    end
    if sparse then return table.unpack(vals, 1, nd) end
    local shape = { nd }
    for k = 1, nd do shape[k + 1] = sizes[k] end
    local out = ga.empty(shape, dtype)
    for k = 1, nd do out[k] = vals[k] end
    return out
  end

  local function grid_object(name, sparse, text)
    local obj = {}
    local d = api.declare(text, obj)
    setmetatable(obj, {
      __index = function(_, key)
        if type(key) ~= "table" then return nil end
        return grid(sparse, name, key)
      end,
      __call = function(_, ...)
        local r = table.pack(api.apply(d, ...))
        local ranges = {}
        for i = 1, r.n do ranges[i] = r[i] end
        if #ranges == 1 then return grid(sparse, name, ranges[1]) end
        return grid(sparse, name, ranges)
      end,
      __tostring = function() return "gpuarray." .. name end,
    })
    return obj
  end

  ga.mgrid = grid_object("mgrid", false, [[
mgrid(...: list) -> ndarray
NumPy's mgrid: ga.mgrid[{ {a, b[, step]}, ... }] (or ga.mgrid({a, b}, ...))
is a dense grid of shape {ndim, n1, n2, ...}; one range gives a 1-D array.
A range's values follow arange ({0, 5} is 0..4; start nil is 0); a step
given as a {re, im} pair (NumPy's complex step, 5j is {0, 5}) asks for
|step| points from a to b, both included. int64, or float64 when any
number is a float or the step is complex.
]])
  ga.ogrid = grid_object("ogrid", true, [[
ogrid(...: list) -> ndarray...
NumPy's ogrid: the open (sparse) form of ga.mgrid, one array per range as
multiple return values, each of length 1 on the other axes.
]])
end
