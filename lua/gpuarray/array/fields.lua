--- The ndarray's fields made in Lua (API.md §3; the C core has the others:
-- shape, ndim, size, dtype, itemsize, nbytes, strides, T, base, flags, ...):
--
--   x.real   a view of the real parts (a complex x), or of x itself
--   x.imag   a view of the imaginary parts (a complex x); for a real x a
--            new array of zeros (NumPy's is read-only: writes to it are lost)
--   x.flat   a flat iterator: x.flat[k] reads element k (1-based, C order,
--            negative from the end), x.flat[idx] gathers (an index array or
--            a range {a, b[, step]}), x.flat[k] = v and x.flat[idx] = v
--            write (values repeat cyclically), #x.flat is x.size
--   x.mT     a view with the last two axes swapped
--
-- Writing: x.real = y and x.imag = y set those parts (y broadcast and
-- cast); x.flat = v sets every element (v repeated cyclically). The views
-- are writable the Lua way too: x.imag[{ga.ellipsis}] = 0.
return function(ga)
  local internal = require "gpuarray.internal"
  local fail, is_array = internal.fail, internal.is_array
  local core = ga._core
  local as_strided = core.ndarray.as_strided

  local PART = { complex64 = "float32", complex128 = "float64" }

  local function real(x)
    local part = PART[x.dtype]
    return as_strided(x, x.shape, x.strides, 0, part)
  end

  local function imag(x)
    local part = PART[x.dtype]
    if not part then return ga.zeros(x.shape, x.dtype) end
    return as_strided(x, x.shape, x.strides, ga.dtype(part).itemsize, part)
  end

  ---------------------------------------------------------------------------
  -- flat
  ---------------------------------------------------------------------------

  local flatiter = { __name = "gpuarray.flatiter" }

  -- 1-based flat positions for a range {a, b[, step]} over n elements
  local function range_positions(x, key)
    return ga.arange(1, x.size + 1, "int64")[{ key }]
  end

  flatiter.__index = function(it, k)
    local x = rawget(it, "base")
    if math.type(k) == "integer" then
      if x.ndim == 1 then return x[k] end
      return x:item(k)
    end
    if is_array(k) then
      if k.dtype == "bool" then return x:ravel()[k:ravel()] end
      return ga.take(x, k)
    end
    if type(k) == "table" then return ga.take(x, range_positions(x, k)) end
    if k == "copy" then return function(self) return rawget(self, "base"):flatten() end end
    if k == "size" then return x.size end
    return nil
  end

  flatiter.__newindex = function(it, k, v)
    local x = rawget(it, "base")
    if math.type(k) == "integer" then
      local n = x.size
      local z = k < 0 and n + k + 1 or k
      if k == 0 or z < 1 or z > n then fail(("flat: index %d is out of range for size %d"):format(k, n)) end
      ga.put(x, z, v)
    elseif is_array(k) and k.dtype == "bool" then
      local pos = (ga.nonzero(k:ravel()))
      if pos.size > 0 then ga.put(x, pos, v) end
    elseif is_array(k) then
      ga.put(x, k, v)
    elseif type(k) == "table" then
      local pos = range_positions(x, k)
      if pos.size > 0 then ga.put(x, pos, v) end
    else
      fail("flat: a key is an integer, a range or an index array, got " .. type(k))
    end
  end

  flatiter.__len = function(it) return rawget(it, "base").size end
  flatiter.__tostring = function(it) return ("gpuarray.flatiter(size %d)"):format(rawget(it, "base").size) end

  local function flat(x)
    return setmetatable({ base = x }, flatiter)
  end

  local GET = {
    real = real,
    imag = imag,
    flat = flat,
    mT = function(x)
      if x.ndim < 2 then fail("mT: the array must have at least 2 dimensions") end
      return x:swapaxes(-1, -2)
    end,
  }

  local SET = {
    real = function(x, v) real(x):set(v) end,
    imag = function(x, v)
      if not PART[x.dtype] then fail("imag: a " .. x.dtype .. " array has no imaginary part to set") end
      imag(x):set(v)
    end,
    flat = function(x, v)
      if x.size > 0 then ga.put(x, ga.arange(1, x.size + 1, "int64"), v) end
    end,
  }

  --- the hook C's __index and __newindex call for string keys they do not know
  local function field(x, key, ...)
    if select("#", ...) == 0 then
      local get = GET[key]
      return get and get(x) or nil
    end
    local set = SET[key]
    if not set then return false end
    set(x, (...))
    return true
  end

  local hooks = { field = field }
  core.ndarray.set_hooks(hooks)
end
