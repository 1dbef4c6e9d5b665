--- ga.scipy.fftpack (API.md §15): the legacy scipy.fftpack interface on
-- ga.fft: no norm (the inverse scaled by 1/n), shape= for the N-D forms,
-- rfft/irfft in fftpack's packed real format ([y0, Re y1, Im y1, ...]),
-- and CuPy's get_fft_plan (a plan record checked against the call; the
-- cuFFT plans themselves are cached by ga.fft).
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local fail = internal.fail
  local plans = require("gpuarray.scipy.fft.plan")(ga)
  local fftpack = {}
  local gfft = ga.fft

  local function input(x, fname)
    if internal.is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" then return ga.asarray(x) end
    fail(("%s: x must be an ndarray or a table of numbers, got %s"):format(fname, t))
  end

  for _, t in ipairs { { "fft", "The 1-D discrete Fourier transform." },
                      { "ifft", "The inverse of fft (scaled by 1/n)." } } do
    local name = t[1]
    api.def(fftpack, ([[
scipy.fftpack.%s(x: array_like, n: integer?, axis: axis = -1, overwrite_x: boolean = false, plan: table?) -> ndarray
%s n: the length along axis (crop or zero-pad); axis 1-based. overwrite_x changes nothing.
]]):format(name, t[2]), function(x, n, axis, _, plan)
      x = input(x, "scipy.fftpack." .. name)
      plans.check(plan, x, { axis }, name)
      return gfft[name](x, n, axis)
    end)
  end
  for _, t in ipairs {
    { "fft2", "The 2-D discrete Fourier transform.", true }, { "ifft2", "The inverse of fft2.", true },
    { "fftn", "The N-D discrete Fourier transform." }, { "ifftn", "The inverse of fftn." },
  } do
    local name = t[1]
    api.def(fftpack, ([[
scipy.fftpack.%s(x: array_like, shape: integer|list?, axes: axis|list%s, overwrite_x: boolean = false,
                  plan: table?) -> ndarray
%s shape: the lengths along axes (crop or zero-pad); axes 1-based.
]]):format(name, t[3] and " = ({-2, -1})" or "?", t[2]), function(x, shape, axes, _, plan)
      x = input(x, "scipy.fftpack." .. name)
      plans.check(plan, x, axes, name)
      return gfft[name](x, shape, axes)
    end)
  end

  -- the packed real format: [Re y0, Re y1, Im y1, Re y2, Im y2, ...] (n values)
  local pack_k, unpack_k = {}, {}
  local function kernels(R)
    if pack_k[R] then return pack_k[R], unpack_k[R] end
    local C = R == "float32" and "complex64" or "complex128"
    pack_k[R] = ga.ElementwiseKernel(("raw %s Y, int64 n, int64 m"):format(C), ("%s y"):format(R), [[
      const long long j = i % n, b = i / n;
      const long long k = (j + 1) / 2;
      y = (j == 0 || (j & 1)) ? Y[b * m + k].re : Y[b * m + k].im]], "fftpack_pack")
    unpack_k[R] = ga.ElementwiseKernel(("raw %s x, int64 n, int64 m"):format(R), ("%s Y"):format(C), ([[
      const long long k = i %% m, b = i / m;
      if (k == 0) Y = %s(x[b * n], 0);
      else Y = %s(x[b * n + 2 * k - 1], 2 * k < n ? x[b * n + 2 * k] : 0)]]):format(C, C), "fftpack_unpack")
    return pack_k[R], unpack_k[R]
  end
  fftpack._kernels = kernels

  local function along(x, axis, fname, fn)
    local nd = x.ndim
    if nd == 0 then fail(fname .. ": x must be at least 1-d") end
    if axis == 0 or axis > nd or axis < -nd then
      fail(("%s: axis %d is out of range for %d dimensions"):format(fname, axis, nd))
    end
    if axis < 0 then axis = axis + nd + 1 end
    local moved = axis ~= nd
    local y = fn(ga.ascontiguousarray(moved and x:swapaxes(axis, nd) or x))
    return moved and y:swapaxes(axis, nd) or y
  end

  api.def(fftpack, [[
scipy.fftpack.rfft(x: array_like, n: integer?, axis: axis = -1, overwrite_x: boolean = false, plan: table?) -> ndarray
The transform of real input in fftpack's packed format: [y0, Re y1, Im y1, ..., Re y(n/2)] (n real values).
]], function(x, n, axis, _, plan)
    local fname = "scipy.fftpack.rfft"
    x = input(x, fname)
    if x.dtype == "complex64" or x.dtype == "complex128" then fail(fname .. ": x must be real") end
    plans.check(plan, x, { axis }, "rfft")
    local R = (x.dtype == "float32" or x.dtype == "float16") and "float32" or "float64"
    return along(x, axis, fname, function(xt)
      local Y = gfft.rfft(xt, n, -1)
      local N = n or xt.shape[xt.ndim]
      local shape = xt.shape
      shape[#shape] = N
      local y = ga.empty(shape, R)
      if y.size > 0 then
        local pack = kernels(R)
        pack(ga.ascontiguousarray(Y), ga.int64(N), ga.int64(N // 2 + 1), y)
      end
      return y
    end)
  end)

  api.def(fftpack, [[
scipy.fftpack.irfft(x: array_like, n: integer?, axis: axis = -1, overwrite_x: boolean = false, plan: table?) -> ndarray
The inverse of rfft: x in the packed format, a real result of n values (scaled by 1/n).
]], function(x, n, axis, _, plan)
    local fname = "scipy.fftpack.irfft"
    x = input(x, fname)
    if x.dtype == "complex64" or x.dtype == "complex128" then fail(fname .. ": x must be real") end
    plans.check(plan, x, { axis }, "irfft")
    local R = (x.dtype == "float32" or x.dtype == "float16") and "float32" or "float64"
    if x.dtype ~= R then x = x:astype(R) end
    return along(x, axis, fname, function(xt)
      local N = n or xt.shape[xt.ndim]
      if N < 1 then fail(("%s: invalid number of data points (%d)"):format(fname, N)) end
      -- crop or zero-pad the packed values to N first, as fftpack
      local cur = xt.shape[xt.ndim]
      if cur ~= N then
        local shape = xt.shape
        shape[#shape] = N
        local z = ga.zeros(shape, R)
        local key = {}
        for d = 1, xt.ndim do key[d] = {} end
        key[xt.ndim] = { 1, math.min(cur, N) }
        z[key] = xt[key]
        xt = z
      end
      local shape = xt.shape
      shape[#shape] = N // 2 + 1
      local Y = ga.empty(shape, R == "float32" and "complex64" or "complex128")
      if Y.size > 0 then
        local _, unpack = kernels(R)
        unpack(xt, ga.int64(N), ga.int64(N // 2 + 1), Y)
      end
      return gfft.irfft(Y, N, -1)
    end)
  end)

  api.def(fftpack, [[
scipy.fftpack.get_fft_plan(a: array_like, shape: integer|list?, axes: axis|list?,
                           value_type: "C2C"|"R2C"|"C2R" = "C2C") -> table
A plan record for transforms of arrays like a over axes (1-based; default the last #shape, or all), for the
plan= argument of scipy.fft's and fftpack's functions, which check it; ga.fft caches the cuFFT plans itself.
]], function(a, shape, axes, value_type)
    local fname = "scipy.fftpack.get_fft_plan"
    a = input(a, fname)
    local nd = a.ndim
    local sh = a.shape
    if shape ~= nil then
      shape = internal.int_list(shape, fname, "shape")
      sh = shape
    end
    axes = internal.int_list(axes, fname, "axes")
    if axes == nil then
      axes = {}
      local k = shape and #shape or nd
      for d = nd - k + 1, nd do axes[#axes + 1] = d end
    end
    for _, ax in ipairs(axes) do
      if ax == 0 or ax > nd or ax < -nd then fail(("%s: axis %d is out of range"):format(fname, ax)) end
    end
    if shape == nil then sh = a.shape end
    return plans.new(sh, axes, value_type)
  end)
  return fftpack
end
