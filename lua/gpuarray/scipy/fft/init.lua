--- ga.scipy.fft (API.md §15): scipy.fft on cuFFT. The transforms of ga.fft
-- with SciPy's signatures (x, n, axis, norm, overwrite_x, workers, *, plan;
-- overwrite_x and workers are accepted and change nothing: cuFFT runs out
-- of place on the current stream), the Hermitian N-D forms, the discrete
-- cosine and sine transforms (dct.lua), the fast Hankel transform
-- (fht.lua) and next_fast_len.
return function(ga)
  local api = require "gpuarray.api"
  local internal = require "gpuarray.internal"
  local fail = internal.fail
  local sfft = {}
  local gfft = ga.fft
  local dct = require("gpuarray.scipy.fft.dct")(ga)
  local plans = require("gpuarray.scipy.fft.plan")(ga)

  local function input(x, fname)
    if internal.is_array(x) then return x end
    local t = type(x)
    if t == "table" or t == "number" then return ga.asarray(x) end
    fail(("%s: x must be an ndarray or a table of numbers, got %s"):format(fname, t))
  end

  local ONE = [[
scipy.fft.%s(x: array_like, n: integer?, axis: axis = -1, norm: "backward"|"ortho"|"forward"?,
              overwrite_x: boolean = false, workers: integer?, *, plan: table?) -> ndarray
%s As ga.fft.%s (n: the length along axis; axis 1-based); overwrite_x and workers change nothing
(cuFFT runs out of place, on the current stream); plan: one from fftpack.get_fft_plan, checked.
]]
  for _, t in ipairs {
    { "fft", "The 1-D discrete Fourier transform." }, { "ifft", "The inverse of fft." },
    { "rfft", "The 1-D transform of real input." }, { "irfft", "The inverse of rfft." },
    { "hfft", "The transform of a Hermitian-symmetric signal." }, { "ihfft", "The inverse of hfft." },
  } do
    local name = t[1]
    api.def(sfft, ONE:format(name, t[2], name), function(x, n, axis, norm, _, _, plan)
      x = input(x, "scipy.fft." .. name)
      plans.check(plan, x, { axis }, name)
      return gfft[name](x, n, axis, norm)
    end)
  end

  local ND = [[
scipy.fft.%s(x: array_like, s: integer|list?, axes: axis|list%s, norm: "backward"|"ortho"|"forward"?,
              overwrite_x: boolean = false, workers: integer?, *, plan: table?) -> ndarray
%s As ga.fft.%s (s: the lengths along axes; axes 1-based); overwrite_x and workers change nothing.
]]
  for _, t in ipairs {
    { "fft2", "The 2-D discrete Fourier transform.", true }, { "ifft2", "The inverse of fft2.", true },
    { "fftn", "The N-D discrete Fourier transform." }, { "ifftn", "The inverse of fftn." },
    { "rfft2", "The 2-D transform of real input.", true }, { "irfft2", "The inverse of rfft2.", true },
    { "rfftn", "The N-D transform of real input." }, { "irfftn", "The inverse of rfftn." },
  } do
    local name = t[1]
    api.def(sfft, ND:format(name, t[3] and " = ({-2, -1})" or "?", t[2], name), function(x, s, axes, norm, _, _, plan)
      x = input(x, "scipy.fft." .. name)
      plans.check(plan, x, axes, name)
      return gfft[name](x, s, axes, norm)
    end)
  end

  -- Hermitian N-D transforms: hfftn = irfftn of the conjugate, ihfftn the
  -- conjugate of rfftn, each with the norm's direction swapped (SciPy's)
  local impl = internal.fft_impl
  for _, t in ipairs {
    { "hfft2", "The 2-D transform of a Hermitian-symmetric signal (real output).", true, false },
    { "hfftn", "The N-D transform of a Hermitian-symmetric signal (real output).", false, false },
    { "ihfft2", "The inverse of hfft2.", true, true }, { "ihfftn", "The inverse of hfftn.", false, true },
  } do
    local name, two, inv = t[1], t[3], t[4]
    local fname = "scipy.fft." .. name
    api.def(sfft, ND:format(name, two and " = ({-2, -1})" or "?", t[2], name:gsub("^i?h", "%0")),
            function(x, s, axes, norm, _, _, plan)
      x = input(x, fname)
      plans.check(plan, x, axes, name)
      local y, ss, ax, nm = impl.argsn(x, s, axes, norm, fname, two)
      local swapped = impl.SWAP[nm or "backward"]
      if inv then
        local r = impl.rfftn(y, ss, ax, swapped, fname)
        return ga.conj(r, { out = r })
      end
      return impl.irfftn(ga.conj(impl.as_complex(y)), ss, ax, swapped, fname)
    end)
  end

  -- the helpers are ga.fft's own functions
  for _, name in ipairs { "fftfreq", "rfftfreq", "fftshift", "ifftshift" } do
    sfft[name] = gfft[name]
    api.alias("scipy.fft." .. name, gfft[name])
  end

  -- DCT and DST
  local function axes_of(x, axis, fname)
    local nd = x.ndim
    if nd == 0 then fail(fname .. ": x must be at least 1-d") end
    local a = axis
    if a == 0 or a > nd or a < -nd then
      fail(("%s: axis %d is out of range for %d dimensions"):format(fname, a, nd))
    end
    return a < 0 and a + nd + 1 or a
  end
  local T1 = [[
scipy.fft.%s(x: array_like, type: integer = 2, n: integer?, axis: axis = -1,
              norm: "backward"|"ortho"|"forward"?, overwrite_x: boolean = false, workers: integer?,
              orthogonalize: boolean?) -> ndarray
%s SciPy's definition of each type 1-4; n: the length along axis (crop or zero-pad); axis 1-based;
orthogonalize (default: norm == "ortho") makes the ortho transform orthogonal. float32 stays float32.
]]
  local TN = [[
scipy.fft.%s(x: array_like, type: integer = 2, s: integer|list?, axes: axis|list?,
              norm: "backward"|"ortho"|"forward"?, overwrite_x: boolean = false, workers: integer?, *,
              orthogonalize: boolean?) -> ndarray
%s Over axes (1-based; default all, or the last #s), each as the 1-D transform.
]]
  for _, kind in ipairs { "dct", "dst" } do
    local KIND = kind == "dct" and "cosine" or "sine"
    for _, inv in ipairs { false, true } do
      local name = (inv and "i" or "") .. kind
      local fname = "scipy.fft." .. name
      api.def(sfft, T1:format(name, (inv and "The inverse discrete %s transform." or "The discrete %s transform.")
                                      :format(KIND)),
              function(x, t, n, axis, norm, _, _, orth)
        x = input(x, fname)
        local a = axes_of(x, axis, fname)
        return dct.apply(kind, t, x, n and { n } or nil, { a }, norm, orth, inv, fname)
      end)
      local nname = name .. "n"
      local nfname = "scipy.fft." .. nname
      api.def(sfft, TN:format(nname, (inv and "The inverse N-D discrete %s transform." or
                                             "The N-D discrete %s transform."):format(KIND)),
              function(x, t, s, axes, norm, _, _, orth)
        x = input(x, nfname)
        local nd = x.ndim
        s, axes = internal.int_list(s, nfname, "s"), internal.int_list(axes, nfname, "axes")
        if axes == nil then
          local k = s and #s or nd
          if k > nd then fail(("%s: %d axes for a %d-d array"):format(nfname, k, nd)) end
          axes = {}
          for d = nd - k + 1, nd do axes[#axes + 1] = d end
        else
          local list = {}
          for i, ax in ipairs(axes) do list[i] = axes_of(x, ax, nfname) end
          axes = list
        end
        if s and #s ~= #axes then fail(nfname .. ": s and axes must have the same length") end
        return dct.apply(kind, t, x, s, axes, norm, orth, inv, nfname)
      end)
    end
  end
  sfft._dct = dct

  -- next_fast_len: the smallest n >= target whose factors cuFFT (and
  -- SciPy's pocketfft) transform fastest: 2, 3, 5, 7 and 11 for complex
  -- transforms, 2, 3 and 5 for real ones (SciPy's rule). The smooth numbers
  -- are walked as products of prime powers, not by stepping n one at a
  -- time: near 2^62 they lie ~10^15 apart and a step loop never ends.
  -- up: the smallest product >= target (nil when none fits in an integer),
  -- else the largest <= target
  local function fast_len(target, primes, up)
    local best
    local function walk(k, x)          -- x: a product of primes[k + 1 ..]
      if k == 1 then                   -- primes[1] is 2: its power at once
        if up then
          while x < target do
            if x > math.maxinteger // 2 then return end
            x = x * 2
          end
          if best == nil or x < best then best = x end
        else
          while x <= target // 2 do x = x * 2 end
          if best == nil or x > best then best = x end
        end
        return
      end
      local p = primes[k]
      while true do
        walk(k - 1, x)
        if up and x >= target then return end           -- higher powers: larger still
        if x > (up and math.maxinteger or target) // p then return end
        x = x * p
      end
    end
    walk(#primes, 1)
    return best
  end
  api.def(sfft, [[
scipy.fft.next_fast_len(target: integer, real: boolean = false) -> integer
The smallest length >= target that factors into 2, 3, 5, 7 and 11 (2, 3 and 5 when real), as SciPy.
]], function(target, real)
    if target < 1 then fail("scipy.fft.next_fast_len: target must be a positive integer") end
    local n = fast_len(target, real and { 2, 3, 5 } or { 2, 3, 5, 7, 11 }, true)
    if not n then
      fail(("scipy.fft.next_fast_len: target = %d is too large: no such length fits in a 64-bit integer")
        :format(target))
    end
    return n
  end)
  api.def(sfft, [[
scipy.fft.prev_fast_len(target: integer, real: boolean = false) -> integer
The largest length <= target that factors into 2, 3, 5, 7 and 11 (2, 3 and 5 when real).
]], function(target, real)
    if target < 1 then fail("scipy.fft.prev_fast_len: target must be a positive integer") end
    return fast_len(target, real and { 2, 3, 5 } or { 2, 3, 5, 7, 11 }, false)
  end)

  require("gpuarray.scipy.fft.fht")(ga, sfft)
  return sfft
end
