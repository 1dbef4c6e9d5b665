--- ga.fft (API.md §7): NumPy's numpy.fft on cuFFT. The C side
-- (src/fft/fft.c) transforms the last 1 to 3 axes of a C-contiguous array,
-- batched over the others, with plans from a per-device LRU cache; this
-- file does what NumPy's signatures add: n / s (crop or zero-pad), axis /
-- axes (1-based, negative from the end), norm ("backward", "ortho",
-- "forward"), real inputs promoted (float32 stays single precision, like
-- CuPy; integers and bool become float64), and any layout (the transformed
-- axes are moved last and made contiguous, and the result is moved back).
-- Every call is queued on the current stream. Every function is declared
-- (API.md §0): the binder hands each its parameters by position.
return function(ga)
  local internal = require("gpuarray.internal")
  local api = require("gpuarray.api")
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

  -- cuFFT transforms bfloat16 only for powers of two (cufftXt): no silent
  -- float32 copy either, which would hide a dtype the caller chose
  local function input(x, fname)
    if is_array(x) and x.dtype == "bfloat16" then
      fail(fname .. ": cuFFT has no bfloat16 transforms for general sizes; " ..
           "convert first: x:astype(\"float32\") (or \"complex64\")")
    end
    if is_array(x) then return x end
    if type(x) == "table" then return ga.array(x) end
    fail(fname .. ": a must be an ndarray or a table of numbers, got " .. type(x))
  end

  local function norm_factor(norm, n, forward)
    norm = norm or "backward"
    if norm == "backward" then return forward and 1 or 1 / n end
    if norm == "forward" then return forward and 1 / n or 1 end
    return 1 / math.sqrt(n)   -- "ortho" (the declarations allow these three)
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

  -- the checked arguments (x, n, axis, norm)
  local function args1(x, n, axis, norm, fname)
    x = input(x, fname)
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-d") end
    return x, n, axis_of(axis or -1, x.ndim, fname), norm
  end

  -- the checked arguments (x, s, axes, norm); axes default: the last #s
  -- axes, or all (the last two for the 2-D functions)
  local function argsn(x, s, axes, norm, fname, two)
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
  -- the result into out (NumPy 2's out=), or the result
  local function deliver(r, out, fname)
    if out == nil then return r end
    internal.check_out(out, r.shape, fname)
    out:set(r)
    return out
  end
  internal.fft_deliver = deliver

  local ND_DOC = [[
%s(a: array_like, s: integer|list?, axes: axis|list%s, norm: "backward"|"ortho"|"forward"?,
       out: ndarray?) -> ndarray
%s s: the output lengths along axes (crop or zero-pad); axes 1-based, negative from the end (default: %s).
norm: "backward" (default: the inverse scaled by 1/n), "ortho" or "forward".
]]
  -- ga.fft.NAME over impl(x, s, axes, norm, fname), which receives checked
  -- arguments; two: the 2-D forms (default axes the last two)
  local function nd_entry(name, impl, two, doc)
    local fname = "fft." .. name
    local default_axes = two and "the last two" or "all, or the last #s"
    api.def(fft, ND_DOC:format(fname, two and " = ({-2, -1})" or "?", doc, default_axes),
            function(x, s, axes, norm, out)
      x, s, axes, norm = argsn(x, s, axes, norm, fname, two)
      return deliver(impl(x, s, axes, norm, fname), out, fname)
    end)
  end

  local function cfftn(inverse)
    return function(x, s, axes, norm, fname)
      x = resize_all(as_complex(x), s, axes, fname)
      local f = norm_factor(norm, count(x, axes), not inverse)
      return scaled(c2c(x, axes, inverse), f)
    end
  end
  nd_entry("fftn", cfftn(false), false, "The N-D discrete Fourier transform.")
  nd_entry("fft2", cfftn(false), true, "The 2-D discrete Fourier transform.")
  nd_entry("ifftn", cfftn(true), false, "The inverse of fftn.")
  nd_entry("ifft2", cfftn(true), true, "The inverse of fft2.")

  local ONE_DOC = [[
%s(a: array_like, n: integer?, axis: axis = -1, norm: "backward"|"ortho"|"forward"?, out: ndarray?) -> ndarray
%s n: the length along axis (crop or zero-pad; %s); axis 1-based, negative from the end.
norm: "backward" (default: the inverse scaled by 1/n), "ortho" or "forward".
]]
  local function one_entry(name, doc, ndoc, impl)
    local fname = "fft." .. name
    api.def(fft, ONE_DOC:format(fname, doc, ndoc), function(x, n, axis, norm, out)
      x, n, axis, norm = args1(x, n, axis, norm, fname)
      return deliver(impl(x, n, axis, norm, fname), out, fname)
    end)
  end

  local function cfft1(inverse)
    return function(x, n, axis, norm, fname)
      x = resized(as_complex(x), axis, n, fname)
      local f = norm_factor(norm, x.shape[axis], not inverse)
      return scaled(c2c(x, { axis }, inverse), f)
    end
  end
  one_entry("fft", "The 1-D discrete Fourier transform.", "default the input's", cfft1(false))
  one_entry("ifft", "The inverse of fft.", "default the input's", cfft1(true))

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
    local f = norm_factor(norm, count(x, axes), true)
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
    local f = norm_factor(norm, total, false)
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

  nd_entry("rfftn", rfftn_, false, "The N-D transform of real input (the last axis halved: n//2 + 1).")
  nd_entry("rfft2", rfftn_, true, "The 2-D transform of real input.")
  nd_entry("irfftn", irfftn_, false, "The inverse of rfftn (real output; the last length default 2(m - 1)).")
  nd_entry("irfft2", irfftn_, true, "The inverse of rfft2.")
  one_entry("rfft", "The 1-D transform of real input (n//2 + 1 values).", "default the input's",
            function(x, n, axis, norm, fname) return rfftn_(x, n and { n } or nil, { axis }, norm, fname) end)
  one_entry("irfft", "The inverse of rfft (real output).", "default 2(m - 1)",
            function(x, n, axis, norm, fname) return irfftn_(x, n and { n } or nil, { axis }, norm, fname) end)

  -- Hermitian transforms, as NumPy: hfft is irfft of the conjugate with
  -- the norm's direction swapped; ihfft the conjugate of rfft
  one_entry("hfft", "The transform of a Hermitian-symmetric signal (real output).", "default 2(m - 1)",
            function(x, n, axis, norm, fname)
    return irfftn_(ga.conj(as_complex(x)), n and { n } or nil, { axis }, SWAP[norm or "backward"], fname)
  end)
  one_entry("ihfft", "The inverse of hfft (n//2 + 1 values).", "default the input's",
            function(x, n, axis, norm, fname)
    local r = rfftn_(x, n and { n } or nil, { axis }, SWAP[norm or "backward"], fname)
    return ga.conj(r, { out = r })
  end)
  internal.fft_impl = { rfftn = rfftn_, irfftn = irfftn_, argsn = argsn, SWAP = SWAP, as_complex = as_complex }

  require("gpuarray.fft.freq")(ga, fft)
  ga.fft = fft   -- published complete
end
