--- What the ndimage files share: boundary modes by name, per-axis
-- sequences, axes, the `output` argument, and the kernel cache. Modes are
-- SciPy's codes (scipy.ndimage._ni_support._extend_mode_to_code), so the
-- CUDA in ndimage/cuda.lua reads them as SciPy's C does.
return function(ga)
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local S = {}

  S.MODE = { nearest = 0, wrap = 1, reflect = 2, ["grid-mirror"] = 2, mirror = 3, constant = 4,
             ["grid-wrap"] = 5, ["grid-constant"] = 6 }
  --- the declaration type of a mode parameter
  S.MODES = [["reflect"|"constant"|"nearest"|"mirror"|"wrap"|"grid-constant"|"grid-mirror"|"grid-wrap"]]
  --- filters read grid-constant as constant and grid-wrap as wrap (SciPy's filters do)
  function S.filter_mode(name)
    local m = S.MODE[name]
    if m == 6 then return 4 end
    if m == 5 then return 1 end
    return m
  end

  S.FLOAT = { float16 = true, bfloat16 = true, float32 = true, float64 = true }
  S.COMPLEX = { complex64 = true, complex128 = true }

  --- an ndarray from array_like input (bool, integers, floats), checked
  function S.input(x, fname, allow_complex)
    if not is_array(x) then x = ga.asarray(x) end
    if S.COMPLEX[x.dtype] and not allow_complex then
      fail(fname .. ": complex input is not supported (filter the real and imaginary parts)")
    end
    return x
  end

  --- the number of dimensions of an array_like, read on the host (a
  -- nested Lua table's depth, an ndarray's ndim, 0 for a scalar or a
  -- boolean), so that a footprint can be checked before it is uploaded
  function S.ndim(v)
    local d = 0
    while type(v) == "table" and not is_array(v) do
      d = d + 1
      v = rawget(v, 1)
    end
    if is_array(v) then d = d + v.ndim end
    return d
  end

  --- v (a number or a list of n numbers) as a list of n numbers
  function S.seq(v, n, fname, what, integer)
    local out = {}
    if type(v) == "number" then
      for d = 1, n do out[d] = v end
    elseif is_array(v) then
      local t = v:totable()
      if type(t) ~= "table" then t = { t } end
      return S.seq(t, n, fname, what, integer)
    elseif type(v) == "table" then
      if rawlen(v) ~= n then
        fail(("%s: %s must have one entry per axis (%d), got %d"):format(fname, what, n, rawlen(v)))
      end
      for d = 1, n do
        local e = rawget(v, d)
        if type(e) ~= "number" then fail(("%s: %s must hold numbers"):format(fname, what)) end
        out[d] = e
      end
    else
      fail(("%s: %s must be a number or a list"):format(fname, what))
    end
    if integer then
      for d = 1, n do
        if math.type(out[d]) ~= "integer" then
          -- 1e300 is whole but no integer: tointeger's nil must not pass
          local i = out[d] == math.floor(out[d]) and math.tointeger(out[d])
          if not i then fail(("%s: %s must be integers, got %s"):format(fname, what, out[d])) end
          out[d] = i
        end
      end
    end
    return out
  end

  --- a list of per-axis mode names (one name for all, or one per axis)
  function S.modes(mode, n, fname)
    if type(mode) == "string" then
      if not S.MODE[mode] then fail(fname .. ": boundary mode not supported: " .. mode) end
      local out = {}
      for d = 1, n do out[d] = mode end
      return out
    end
    if type(mode) ~= "table" or rawlen(mode) ~= n then
      fail(("%s: mode must be a name or a list of one name per axis (%d)"):format(fname, n))
    end
    for d = 1, n do
      if not S.MODE[mode[d]] then fail(fname .. ": boundary mode not supported: " .. tostring(mode[d])) end
    end
    return mode
  end

  --- axes (1-based, negative from the end; nil: all) as a sorted-as-given
  -- list of 1-based axes without repeats
  function S.axes(axes, ndim, fname)
    if axes == nil then
      local out = {}
      for d = 1, ndim do out[d] = d end
      return out
    end
    if type(axes) == "number" then axes = { axes } end
    local out, seen = {}, {}
    for k = 1, rawlen(axes) do
      local a = axes[k]
      if math.type(a) ~= "integer" then fail(fname .. ": axes must be integers") end
      local ax = a < 0 and a + ndim + 1 or a
      if ax < 1 or ax > ndim then
        fail(("%s: axis %d is out of bounds for an array of dimension %d"):format(fname, a, ndim))
      end
      if seen[ax] then fail(fname .. ": axes must be unique") end
      seen[ax] = true
      out[#out + 1] = ax
    end
    return out
  end

  --- one axis (1-based, negative from the end) as a 1-based axis
  function S.axis(axis, ndim, fname)
    return S.axes({ axis }, math.max(ndim, 1), fname)[1]
  end

  --- the result dtype and the array to write (or nil) from SciPy's `output`
  function S.output(output, dtype, shape, fname)
    if output == nil then return dtype, nil end
    if is_array(output) then
      internal.check_out(output, shape, fname)
      return output.dtype, output
    end
    return ga.dtype(output).name, nil
  end

  --- the result r delivered: copied into out when one was given
  function S.deliver(r, out)
    if out == nil then return r end
    if r ~= out then out:set(r) end
    return out
  end

  --- a kernel made once per key
  local cache = {}
  function S.kernel(key, make)
    local k = cache[key]
    if not k then
      k = make()
      cache[key] = k
    end
    return k
  end

  --- C types of the dtypes the RawKernel fast paths take
  S.CTYPE = { float32 = "float", float64 = "double" }

  --- product of a list
  function S.prod(t, from, to)
    local p = 1
    for d = from or 1, to or #t do p = p * t[d] end
    return p
  end

  --- The most points of a filter whose weights or footprint the host
  -- builds as a Lua list: past it a call would run for minutes (a size of
  -- 2^53 from a typo), so it raises
  S.MAX_FILTER_POINTS = 1 << 22
  function S.check_filter_size(size, fname)
    if size > S.MAX_FILTER_POINTS then
      fail(("%s: a filter of %s points is more than the %d the host builds"):format(
        fname, size, S.MAX_FILTER_POINTS))
    end
  end

  --- the footprint of a size (an integer or one per axis): its shape and
  -- the host list of trues
  function S.full_footprint(size, n, fname)
    local fshape = S.seq(size, n, fname, "size", true)
    local count = 1
    for d = 1, #fshape do
      S.check_filter_size(fshape[d], fname)
      count = count * math.max(fshape[d], 0)     -- <= 2^44: no wrap
      S.check_filter_size(count, fname)
    end
    local flat = {}
    for k = 1, count do flat[k] = true end
    return fshape, flat
  end

  --- a list of numbers as a C initialiser
  function S.c_list(t, fmt)
    local parts = {}
    for k, v in ipairs(t) do parts[k] = (fmt or "%.17g"):format(v) end
    return table.concat(parts, ", ")
  end

  return S
end
