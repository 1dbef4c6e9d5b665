--- ga.fft (API.md §7): NumPy's numpy.fft on cuFFT. The C side
-- (src/fft/fft.c) transforms the last 1 to 3 axes of a C-contiguous array,
-- batched over the others, with plans from a per-device LRU cache; this
-- file does what NumPy's signatures add: n / s (crop or zero-pad), axis /
-- axes (1-based, negative from the end), norm ("backward", "ortho",
-- "forward"), real inputs promoted (float32 stays single precision, like
-- CuPy; integers and bool become float64), and any layout (the transformed
-- axes are moved last and made contiguous, and the result is moved back).
-- Every call is queued on the current stream.
return function(ga)
  local internal = require("gpuarray.internal")
  local core = ga._core
  local fail = internal.fail
  local is_array = internal.is_array
  local fft = {}

  local SINGLE = { float16 = true, float32 = true, complex64 = true }
  local function complex_of(dt) return SINGLE[dt] and "complex64" or "complex128" end
  local function real_of(dt) return SINGLE[dt] and "float32" or "float64" end
  local function is_complex(dt) return dt == "complex64" or dt == "complex128" end

  local function as_complex(x)
    local want = complex_of(x.dtype)
    return x.dtype == want and x or x:astype(want)
  end
  local function as_real(x, fname)
    if is_complex(x.dtype) then fail(fname .. ": the input must be real, got " .. x.dtype) end
    local want = real_of(x.dtype)
    return x.dtype == want and x or x:astype(want)
  end

  local function input(x, fname)
    if is_array(x) then return x end
    if type(x) == "table" then return ga.array(x) end
    fail(fname .. ": x must be an ndarray, got " .. type(x))
  end

  local function norm_factor(norm, n, forward, fname)
    norm = norm or "backward"
    if norm == "backward" then return forward and 1 or 1 / n end
    if norm == "forward" then return forward and 1 / n or 1 end
    if norm == "ortho" then return 1 / math.sqrt(n) end
    fail(("%s: norm must be \"backward\", \"ortho\" or \"forward\", got %s"):format(fname, tostring(norm)))
  end
  local SWAP = { backward = "forward", forward = "backward", ortho = "ortho" }

  local function scaled(r, f)
    if f ~= 1 then r:mul_(f) end
    return r
  end

  local function axis_of(ax, nd, fname)
    local a = math.tointeger(ax)
    if a == nil or a == 0 or a > nd or a < -nd then
      fail(("%s: axis %s is out of range for %d dimensions"):format(fname, tostring(ax), nd))
    end
    return a < 0 and a + nd + 1 or a
  end

  -- x with axis resized to m: a view when cropping, zero-padded otherwise
  local function resized(x, axis, m, fname)
    local cur = x.shape[axis]
    if m == nil or m == cur then return x end
    if math.type(m) ~= "integer" or m < 1 then
      fail(("%s: invalid number of data points (%s)"):format(fname, tostring(m)))
    end
    local key = {}
    for d = 1, x.ndim do key[d] = {} end
    if m < cur then
      key[axis] = { 1, m }
      return x[key]
    end
    local shape = x.shape
    shape[axis] = m
    local z = ga.zeros(shape, x.dtype)
    if cur > 0 then
      key[axis] = { 1, cur }
      z[key] = x
    end
    return z
  end

  -- x's axes permuted so that axes (a list) come last, in their order; the
  -- inverse permutation, or nil when it is the identity
  local function to_last(x, axes)
    local nd = x.ndim
    local chosen, perm = {}, {}
    for _, a in ipairs(axes) do chosen[a] = true end
    for d = 1, nd do
      if not chosen[d] then perm[#perm + 1] = d end
    end
    for _, a in ipairs(axes) do perm[#perm + 1] = a end
    local ident = true
    for d = 1, nd do ident = ident and perm[d] == d end
    if ident then return ga.ascontiguousarray(x), nil end
    local inv = {}
    for d = 1, nd do inv[perm[d]] = d end
    return ga.ascontiguousarray(x:transpose(perm)), inv
  end
  local function back(r, inv)
    return inv and r:transpose(inv) or r
  end

  -- complex-to-complex over distinct axes (at most 3 per cuFFT call)
  local function c2c(x, axes, inverse)
    local i = 1
    while i <= #axes do
      local chunk, seen = {}, {}
      while i <= #axes and #chunk < 3 and not seen[axes[i]] do
        chunk[#chunk + 1] = axes[i]
        seen[axes[i]] = true
        i = i + 1
      end
      local y, inv = to_last(x, chunk)
      x = back(core.fft.exec(y, "c2c", #chunk, inverse), inv)
    end
    return x
  end

  -- the arguments (x, n, axis, norm) or (x, {n=, axis=, norm=})
  local function args1(x, n, axis, norm, fname)
    if type(n) == "table" and not is_array(n) then n, axis, norm = n.n, n.axis, n.norm end
    internal.integer(n, fname, "n")
    x = input(x, fname)
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-d") end
    return x, n, axis_of(axis or -1, x.ndim, fname), norm
  end

  -- (x, s, axes, norm) or (x, {s=, axes=, norm=}); axes default: the last
  -- #s axes, or all (the last two for the 2-D functions)
  local function argsn(x, s, axes, norm, fname, two)
    if type(s) == "table" and not is_array(s) and (s.s or s.axes or s.norm) then
      s, axes, norm = s.s, s.axes, s.norm
    end
    x = input(x, fname)
    local nd = x.ndim
    s, axes = internal.int_list(s, fname, "s"), internal.int_list(axes, fname, "axes")
    if axes == nil then
      local k = s and #s or (two and 2 or nd)
      if k > nd then fail(("%s: %d axes for a %d-d array"):format(fname, k, nd)) end
      axes = {}
      for d = nd - k + 1, nd do axes[#axes + 1] = d end
    else
      local a = {}
      for i, ax in ipairs(axes) do a[i] = axis_of(ax, nd, fname) end
      axes = a
    end
    if s and #s ~= #axes then fail(fname .. ": s and axes must have the same length") end
    if #axes == 0 then fail(fname .. ": at least one axis") end
    return x, s, axes, norm
  end

  local function resize_all(x, s, axes, fname)
    if s then
      for i, a in ipairs(axes) do x = resized(x, a, s[i], fname) end
    end
    return x
  end
  local function count(x, axes)
    local n = 1
    for _, a in ipairs(axes) do n = n * x.shape[a] end
    return n
  end

  -- ---------------------------------------------------------------------
  -- complex transforms
  -- ga.fft.NAME(x[, s][, axes][, norm]) over impl(x, s, axes, norm, fname),
  -- which receives checked arguments; two: the 2-D forms' default axes
  local function nd_entry(name, impl, two)
    local fname = "fft." .. name
    return function(x, s, axes, norm)
      x, s, axes, norm = argsn(x, s, axes, norm, fname, two)
      return impl(x, s, axes, norm, fname)
    end
  end

  local function cfftn(inverse)
    return function(x, s, axes, norm, fname)
      x = resize_all(as_complex(x), s, axes, fname)
      local f = norm_factor(norm, count(x, axes), not inverse, fname)
      return scaled(c2c(x, axes, inverse), f)
    end
  end
  fft.fftn, fft.fft2 = nd_entry("fftn", cfftn(false)), nd_entry("fft2", cfftn(false), true)
  fft.ifftn, fft.ifft2 = nd_entry("ifftn", cfftn(true)), nd_entry("ifft2", cfftn(true), true)

  local function cfft1(fname, inverse)
    return function(x, n, axis, norm)
      x, n, axis, norm = args1(x, n, axis, norm, fname)
      x = resized(as_complex(x), axis, n, fname)
      local f = norm_factor(norm, x.shape[axis], not inverse, fname)
      return scaled(c2c(x, { axis }, inverse), f)
    end
  end
  fft.fft, fft.ifft = cfft1("fft.fft", false), cfft1("fft.ifft", true)

  -- ---------------------------------------------------------------------
  -- real transforms: r2c over the last of the axes, c2c over the others
  -- (one cuFFT call when the axes are the array's last ones, up to 3)
  local function trailing(x, axes)
    if #axes > 3 then return false end
    for i, a in ipairs(axes) do
      if a ~= x.ndim - #axes + i then return false end
    end
    return true
  end

  local function rfftn_(x, s, axes, norm, fname)
    x = resize_all(as_real(x, fname), s, axes, fname)
    local f = norm_factor(norm, count(x, axes), true, fname)
    local last = axes[#axes]
    local r
    if trailing(x, axes) then
      r = core.fft.exec(ga.ascontiguousarray(x), "r2c", #axes)
    else
      local y, inv = to_last(x, { last })
      r = back(core.fft.exec(y, "r2c", 1), inv)
      local rest = table.move(axes, 1, #axes - 1, 1, {})
      if #rest > 0 then r = c2c(r, rest, false) end
    end
    return scaled(r, f)
  end

  local function irfftn_(x, s, axes, norm, fname)
    x = as_complex(x)
    local last = axes[#axes]
    local n = s and s[#s] or 2 * (x.shape[last] - 1)
    if n < 1 then fail(("%s: invalid number of data points (%d)"):format(fname, n)) end
    local rest = table.move(axes, 1, #axes - 1, 1, {})
    if s then
      for i = 1, #rest do x = resized(x, rest[i], s[i], fname) end
    end
    x = resized(x, last, n // 2 + 1, fname)
    local total = n
    for _, a in ipairs(rest) do total = total * x.shape[a] end
    local f = norm_factor(norm, total, false, fname)
    local r
    if trailing(x, axes) then
      r = core.fft.exec(ga.ascontiguousarray(x), "c2r", #axes, n)
    else
      if #rest > 0 then x = c2c(x, rest, true) end
      local y, inv = to_last(x, { last })
      r = back(core.fft.exec(y, "c2r", 1, n), inv)
    end
    return scaled(r, f)
  end

  fft.rfftn, fft.rfft2 = nd_entry("rfftn", rfftn_), nd_entry("rfft2", rfftn_, true)
  fft.irfftn, fft.irfft2 = nd_entry("irfftn", irfftn_), nd_entry("irfft2", irfftn_, true)
  function fft.rfft(x, n, axis, norm)
    local fname = "fft.rfft"
    x, n, axis, norm = args1(x, n, axis, norm, fname)
    return rfftn_(x, n and { n } or nil, { axis }, norm, fname)
  end
  function fft.irfft(x, n, axis, norm)
    local fname = "fft.irfft"
    x, n, axis, norm = args1(x, n, axis, norm, fname)
    return irfftn_(x, n and { n } or nil, { axis }, norm, fname)
  end

  --- Hermitian transforms, as NumPy: hfft is irfft of the conjugate with
  -- the norm's direction swapped; ihfft the conjugate of rfft
  function fft.hfft(x, n, axis, norm)
    local fname = "fft.hfft"
    x, n, axis, norm = args1(x, n, axis, norm, fname)
    norm_factor(norm, 1, true, fname)
    return irfftn_(ga.conj(as_complex(x)), n and { n } or nil, { axis }, SWAP[norm or "backward"], fname)
  end
  function fft.ihfft(x, n, axis, norm)
    local fname = "fft.ihfft"
    x, n, axis, norm = args1(x, n, axis, norm, fname)
    norm_factor(norm, 1, true, fname)
    local r = rfftn_(x, n and { n } or nil, { axis }, SWAP[norm or "backward"], fname)
    return ga.conj(r, { out = r })
  end

  require("gpuarray.fft.freq")(ga, fft)
  ga.fft = fft   -- published complete
end
