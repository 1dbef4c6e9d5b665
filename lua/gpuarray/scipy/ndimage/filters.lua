--- ndimage filters (SciPy 1.10): correlate/convolve (N-d and 1-D),
-- gaussian (and its derivatives, gradient magnitude, Laplacian), uniform,
-- minimum/maximum, median/rank/percentile, sobel, prewitt, laplace.
-- Separable filters run one 1-D pass per axis (ndimage/separable.lua),
-- each pass writing the result dtype as SciPy's do (so integer results
-- truncate between passes, as SciPy's); footprint filters run the N-d
-- stencil (ndimage/stencil.lua). Axes are 1-based (negative from the end).
return function(ga, M, S, St, P)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local fail, is_array = internal.fail, internal.is_array
  local MODES = S.MODES

  -- the weights' dtype: float32 data filters in float32, the rest in float64
  local function wdtype(x)
    return x.dtype == "float32" and "float32" or "float64"
  end

  local function host_list(v, fname, what)
    if is_array(v) then v = v:totable() end
    if type(v) == "number" then v = { v } end
    if type(v) ~= "table" then fail(("%s: %s must be a list or an array"):format(fname, what)) end
    return v
  end

  local function check_origin(origin, size, fname)
    S.check_filter_size(size, fname)    -- the passes build size weights on the host
    if size // 2 + origin < 0 or size // 2 + origin >= size then fail(fname .. ": invalid origin") end
  end

  -- 0-d input filters as a 1-element 1-D array and comes back 0-d
  local function lift(x)
    if x.ndim == 0 then return x:reshape(1), true end
    return x, false
  end
  local function drop(y, was0)
    if was0 then return y:reshape({}) end
    return y
  end

  --- correlate1d's work: a list of weights along a 1-based axis
  local function corr1d(x, w, axis, ydtype, mode, cval, origin, fname)
    if #w == 0 then fail(fname .. ": no filter weights given") end
    check_origin(origin, #w, fname)
    return P.pass(x, axis, w, "corr", S.filter_mode(mode), cval, origin, ydtype)
  end
  M._corr1d = corr1d

  local function run1d(fname, input, weights, axis, output, mode, cval, origin, flip)
    local x = S.input(input, fname)
    local x1, was0 = lift(x)
    local w = host_list(weights, fname, "weights")
    if flip then
      local r = {}
      for k = 1, #w do r[k] = w[#w + 1 - k] end
      w = r
      origin = -origin
      if #w % 2 == 0 then origin = origin - 1 end
    end
    local ax = S.axis(axis, x1.ndim, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    if mode == nil then fail(fname .. ": mode must be a name") end
    local y = corr1d(x1, w, ax, ydtype, mode, cval, origin, fname)
    return S.deliver(drop(y, was0), out)
  end

  api.def(M, [[
scipy.ndimage.correlate1d(input: array_like, weights: array_like, axis: integer = -1, output: ndarray|dtype?,
                          mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0, origin: integer = 0) -> ndarray
A 1-D correlation along an axis (1-based, negative from the end):
output[i] = sum_j weights[j] * input[i + j - #weights // 2 - origin] (0-based j).
]], function(input, weights, axis, output, mode, cval, origin)
    return run1d("scipy.ndimage.correlate1d", input, weights, axis, output, mode, cval, origin, false)
  end)

  api.def(M, [[
scipy.ndimage.convolve1d(input: array_like, weights: array_like, axis: integer = -1, output: ndarray|dtype?,
                         mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0, origin: integer = 0) -> ndarray
A 1-D convolution along an axis (1-based): correlate1d with the weights reversed.
]], function(input, weights, axis, output, mode, cval, origin)
    return run1d("scipy.ndimage.convolve1d", input, weights, axis, output, mode, cval, origin, true)
  end)

  -------------------------------------------------------------------------
  -- N-d correlate / convolve

  local function correlate_nd(fname, input, weights, output, mode, cval, origin, flip)
    local x = S.input(input, fname)
    local w = is_array(weights) and weights or ga.asarray(weights)
    if S.COMPLEX[w.dtype] then fail(fname .. ": complex weights are not supported") end
    local x1, was0 = lift(x)
    if w.ndim == 0 and x1.ndim == 1 then w = w:reshape(1) end
    if w.ndim ~= x1.ndim then fail(fname .. ": filter weights array has incorrect shape.") end
    local fshape = w.shape
    for d = 1, #fshape do
      if fshape[d] == 0 then fail(fname .. ": no filter weights given") end
    end
    local N = x1.ndim
    local origins = S.seq(origin, N, fname, "origin", true)
    if flip then
      w = ga.flip(w)
      for d = 1, N do
        origins[d] = -origins[d]
        if fshape[d] % 2 == 0 then origins[d] = origins[d] - 1 end
      end
    end
    local half, modes = {}, {}
    for d = 1, N do
      check_origin(origins[d], fshape[d], fname)
      half[d] = fshape[d] // 2 + origins[d]
      modes[d] = S.filter_mode(mode)
    end
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local spec = { ndim = N, fshape = fshape, half = half, modes = modes, op = "corr", full = true }
    local wa = ga.ascontiguousarray(w:astype(wdtype(x)))
    return S.deliver(drop(St.run(spec, x1, ydtype, { wa }, cval), was0), out)
  end

  api.def(M, [[
scipy.ndimage.correlate(input: array_like, weights: array_like, output: ndarray|dtype?,
                        mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0, origin: integer|list = 0) -> ndarray
A multidimensional correlation with weights of the input's rank (zero weights are skipped, as SciPy's).
]], function(input, weights, output, mode, cval, origin)
    return correlate_nd("scipy.ndimage.correlate", input, weights, output, mode, cval, origin, false)
  end)

  api.def(M, [[
scipy.ndimage.convolve(input: array_like, weights: array_like, output: ndarray|dtype?,
                       mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0, origin: integer|list = 0) -> ndarray
A multidimensional convolution: correlate with the weights reversed on every axis.
]], function(input, weights, output, mode, cval, origin)
    return correlate_nd("scipy.ndimage.convolve", input, weights, output, mode, cval, origin, true)
  end)

  -------------------------------------------------------------------------
  -- separable filters: one pass per axis, in axis order, each writing the
  -- result dtype

  --- the moving average of size values along axis. SciPy keeps a running
  -- sum in double and writes sum / size: integer data sum exactly, so the
  -- sum (weights of one, in float64) divided by size is SciPy's value to
  -- the last bit, which an integer output's truncation makes visible
  -- (113 against 112 for 339 / 3 computed as three thirds); floating data
  -- take the weights 1 / size (the tiled kernels; SciPy's values to a few
  -- ulps).
  local function mean_pass(x, axis, size, mode, cval, origin, ydtype)
    local ones = {}
    if S.FLOAT[x.dtype] then
      for k = 1, size do ones[k] = 1 / size end
      return P.pass(x, axis, ones, "corr", mode, cval, origin, ydtype)
    end
    for k = 1, size do ones[k] = 1 end
    local sum = P.pass(x, axis, ones, "corr", mode, cval, origin, "float64")
    return (sum / size):astype(ydtype)
  end
  M._mean_pass = mean_pass

  --- passes = list of { axis, weights (list), op ("min"/"max") and size,
  -- or mean (a size), mode, origin }; the result of the last pass (a copy
  -- of x if none)
  local function separable(x, passes, ydtype, cval)
    if #passes == 0 then return x:astype(ydtype) end
    local y = x
    for _, p in ipairs(passes) do
      local mode = S.filter_mode(p.mode)
      if p.mean then
        y = mean_pass(y, p.axis, p.mean, mode, cval, p.origin or 0, ydtype)
      else
        local w = p.weights
        local op = "corr"
        if p.op then
          op = p.op
          w = {}
          for k = 1, p.size do w[k] = 1 end
        end
        y = P.pass(y, p.axis, w, op, mode, cval, p.origin or 0, ydtype)
      end
    end
    return y
  end
  M._separable = separable

  --- SciPy's _gaussian_kernel1d(sigma, order, radius), reversed as
  -- gaussian_filter1d hands it to correlate1d
  -- the host computes every weight and order^2 polynomial terms
  local MAX_GAUSS_TERMS = S.MAX_FILTER_POINTS
  local function gauss_weights(sigma, order, radius, fname)
    if order < 0 then fail(fname .. ": order must be non-negative") end
    if order >= MAX_GAUSS_TERMS or radius >= MAX_GAUSS_TERMS
       or (2 * radius + 1) * (order + 1) + (order + 1) * (order + 1) > MAX_GAUSS_TERMS then
      fail(("%s: a Gaussian kernel of radius %d and order %d is too large (more than %d terms)"):format(
        fname, radius, order, MAX_GAUSS_TERMS))
    end
    local s2 = sigma * sigma
    local phi, total = {}, 0
    for k = -radius, radius do
      local v = math.exp(-0.5 / s2 * k * k)
      phi[#phi + 1] = v
      total = total + v
    end
    for k = 1, #phi do phi[k] = phi[k] / total end
    local w = phi
    if order > 0 then
      -- q: the polynomial factor of the order-th derivative, q' = D q + P q
      local q = {}
      for e = 0, order do q[e] = 0 end
      q[0] = 1
      for _ = 1, order do
        local nq = {}
        for e = 0, order do
          local v = 0
          if e + 1 <= order then v = v + (e + 1) * q[e + 1] end
          if e >= 1 then v = v - q[e - 1] / s2 end
          nq[e] = v
        end
        q = nq
      end
      w = {}
      for k = -radius, radius do
        local v, xp = 0, 1
        for e = 0, order do
          v = v + xp * q[e]
          xp = xp * k
        end
        w[#w + 1] = v * phi[k + radius + 1]
      end
    end
    local r = {}
    for k = 1, #w do r[k] = w[#w + 1 - k] end
    return r
  end
  M._gauss_weights = gauss_weights

  local function gauss_radius(sigma, truncate, radius, fname)
    local lw = math.floor(truncate * sigma + 0.5)
    if radius ~= nil then lw = radius end
    if math.type(lw) ~= "integer" and lw ~= math.floor(lw) or lw < 0 then
      fail(fname .. ": Radius must be a nonnegative integer.")
    end
    -- a float past 2^63 (sigma * truncate huge, or inf) has no integer
    if lw >= MAX_GAUSS_TERMS then
      fail(("%s: radius %s is more than the %d weights of a Gaussian kernel (sigma * truncate too large)"):format(
        fname, lw, MAX_GAUSS_TERMS))
    end
    return math.tointeger(lw)
  end

  api.def(M, [[
scipy.ndimage.gaussian_filter1d(input: array_like, sigma: number, axis: integer = -1, order: integer = 0,
                                output: ndarray|dtype?, mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
                                truncate: number = 4.0, *, radius: integer?) -> ndarray
A 1-D Gaussian filter (or its order-th derivative) along an axis (1-based).
]], function(input, sigma, axis, order, output, mode, cval, truncate, radius)
    local fname = "scipy.ndimage.gaussian_filter1d"
    local lw = gauss_radius(sigma, truncate, radius, fname)
    local w = gauss_weights(sigma, order, lw, fname)
    return run1d(fname, input, w, axis, output, mode, cval, 0, false)
  end)

  local function gaussian(fname, input, sigma, order, output, mode, cval, truncate, radius, axes)
    local x = S.input(input, fname)
    local x1, was0 = lift(x)
    local ax = S.axes(axes, x1.ndim, fname)
    local n = #ax
    local sigmas = S.seq(sigma, n, fname, "sigma")
    local orders = S.seq(order, n, fname, "order", true)
    local modes = S.modes(mode, n, fname)
    local radii = radius ~= nil and S.seq(radius, n, fname, "radius", true) or {}
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local passes = {}
    for k = 1, n do
      if sigmas[k] > 1e-15 then
        local lw = gauss_radius(sigmas[k], truncate, radii[k], fname)
        passes[#passes + 1] = { axis = ax[k], weights = gauss_weights(sigmas[k], orders[k], lw, fname),
                                mode = modes[k] }
      end
    end
    return S.deliver(drop(separable(x1, passes, ydtype, cval), was0), out)
  end
  M._gaussian = gaussian

  api.def(M, [[
scipy.ndimage.gaussian_filter(input: array_like, sigma: number|list, order: integer|list = 0, output: ndarray|dtype?,
                              mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0, truncate: number = 4.0,
                              *, radius: integer|list?, axes: axes?) -> ndarray
A multidimensional Gaussian filter: one 1-D pass per axis (axes: 1-based, default all).
]], function(input, sigma, order, output, mode, cval, truncate, radius, axes)
    return gaussian("scipy.ndimage.gaussian_filter", input, sigma, order, output, mode, cval, truncate, radius, axes)
  end)

  api.def(M, [[
scipy.ndimage.uniform_filter1d(input: array_like, size: integer, axis: integer = -1, output: ndarray|dtype?,
                               mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0, origin: integer = 0) -> ndarray
A 1-D moving average of size values along an axis (1-based).
]], function(input, size, axis, output, mode, cval, origin)
    local fname = "scipy.ndimage.uniform_filter1d"
    if size < 1 then fail(fname .. ": incorrect filter size") end
    check_origin(origin, size, fname)
    local x = S.input(input, fname)
    local x1, was0 = lift(x)
    local ax = S.axis(axis, x1.ndim, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local y = separable(x1, { { axis = ax, mean = size, mode = mode, origin = origin } }, ydtype, cval)
    return S.deliver(drop(y, was0), out)
  end)

  api.def(M, [[
scipy.ndimage.uniform_filter(input: array_like, size: integer|list = 3, output: ndarray|dtype?,
                             mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0, origin: integer|list = 0,
                             *, axes: axes?) -> ndarray
A multidimensional moving average: one 1-D pass per axis.
]], function(input, size, output, mode, cval, origin, axes)
    local fname = "scipy.ndimage.uniform_filter"
    local x = S.input(input, fname)
    local x1, was0 = lift(x)
    local ax = S.axes(axes, x1.ndim, fname)
    local sizes = S.seq(size, #ax, fname, "size", true)
    local origins = S.seq(origin, #ax, fname, "origin", true)
    local modes = S.modes(mode, #ax, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local passes = {}
    for k = 1, #ax do
      if sizes[k] > 1 then
        check_origin(origins[k], sizes[k], fname)
        passes[#passes + 1] = { axis = ax[k], mean = sizes[k], mode = modes[k], origin = origins[k] }
      elseif sizes[k] < 1 then
        fail(fname .. ": incorrect filter size")
      end
    end
    return S.deliver(drop(separable(x1, passes, ydtype, cval), was0), out)
  end)

  -------------------------------------------------------------------------
  -- minimum / maximum

  for _, which in ipairs({ "minimum", "maximum" }) do
    local op = which == "minimum" and "min" or "max"
    api.def(M, ([[
scipy.ndimage.%s_filter1d(input: array_like, size: integer, axis: integer = -1, output: ndarray|dtype?,
                          mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0, origin: integer = 0) -> ndarray
The 1-D moving %s of size values along an axis (1-based).
]]):format(which, which), function(input, size, axis, output, mode, cval, origin)
      local fname = ("scipy.ndimage.%s_filter1d"):format(which)
      if size < 1 then fail(fname .. ": incorrect filter size") end
      check_origin(origin, size, fname)
      local x = S.input(input, fname)
      local x1, was0 = lift(x)
      local ax = S.axis(axis, x1.ndim, fname)
      local ydtype, out = S.output(output, x.dtype, x.shape, fname)
      local y = separable(x1, { { axis = ax, op = op, size = size, mode = mode, origin = origin } }, ydtype, cval)
      return S.deliver(drop(y, was0), out)
    end)
  end

  --- a footprint as a host list of booleans (C order) and its shape
  local function footprint_of(fp)
    local a = is_array(fp) and fp or ga.asarray(fp)
    local flat = a:astype("bool"):reshape(-1):totable()
    if type(flat) ~= "table" then flat = { flat } end
    return a.shape, flat
  end

  --- minimum/maximum over a footprint, with optional structure (grey
  -- morphology); separable when there is no structure and the footprint
  -- is full (SciPy's _min_or_max_filter)
  local function min_or_max(fname, x, size, footprint, structure, ydtype, mode, cval, origin, op)
    local x1, was0 = lift(x)
    local N = x1.ndim
    local fshape, flat, sv
    if structure == nil then
      if footprint == nil then
        if size == nil then fail(fname .. ": no footprint provided") end
      else
        fshape, flat = footprint_of(footprint, fname)
        local any, all = false, true
        for _, v in ipairs(flat) do
          any = any or v
          all = all and v
        end
        if not any then fail(fname .. ": All-zero footprint is not supported.") end
        if all then
          size = fshape
          fshape, flat = nil, nil
        end
      end
    else
      local s = is_array(structure) and structure or ga.asarray(structure)
      sv = ga.ascontiguousarray(s:astype("float64")):reshape(-1)
      if footprint == nil then
        fshape = s.shape
        flat = {}
        for k = 1, S.prod(fshape) do flat[k] = true end
      else
        fshape, flat = footprint_of(footprint, fname)
      end
      if #s.shape ~= N then fail(fname .. ": structure array has incorrect shape") end
    end
    local origins = S.seq(origin, N, fname, "origin", true)
    if fshape == nil then
      local sizes = S.seq(size, N, fname, "size", true)
      local modes = S.modes(mode, N, fname)
      local passes = {}
      for d = 1, N do
        if sizes[d] > 1 then
          check_origin(origins[d], sizes[d], fname)
          passes[#passes + 1] = { axis = d, op = op, size = sizes[d], mode = modes[d], origin = origins[d] }
        elseif sizes[d] < 1 then
          fail(fname .. ": incorrect filter size")
        end
      end
      return drop(separable(x1, passes, ydtype, cval), was0)
    end
    if #fshape ~= N then fail(fname .. ": footprint array has incorrect shape.") end
    if type(mode) ~= "string" then fail(fname .. ": mode must be one name for a footprint filter") end
    local half, modes = {}, {}
    for d = 1, N do
      check_origin(origins[d], fshape[d], fname)
      half[d] = fshape[d] // 2 + origins[d]
      modes[d] = S.filter_mode(mode)
    end
    local spec = { ndim = N, fshape = fshape, half = half, modes = modes, op = op, full = false,
                   structure = sv ~= nil }
    local extra = { ga.array(flat, "bool") }
    if sv then extra[2] = sv end
    return drop(St.run(spec, x1, ydtype, extra, cval), was0)
  end
  M._min_or_max = min_or_max

  for _, which in ipairs({ "minimum", "maximum" }) do
    local op = which == "minimum" and "min" or "max"
    api.def(M, ([[
scipy.ndimage.%s_filter(input: array_like, size: integer|list?, footprint: array_like?, output: ndarray|dtype?,
                        mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0,
                        origin: integer|list = 0) -> ndarray
The multidimensional %s filter over size or footprint (separable when the footprint is full).
]]):format(which, which), function(input, size, footprint, output, mode, cval, origin)
      local fname = ("scipy.ndimage.%s_filter"):format(which)
      local x = S.input(input, fname)
      local ydtype, out = S.output(output, x.dtype, x.shape, fname)
      return S.deliver(min_or_max(fname, x, size, footprint, nil, ydtype, mode, cval, origin, op), out)
    end)
  end

  -------------------------------------------------------------------------
  -- rank, median, percentile

  local function rank_filter(fname, input, rank, percentile, operation, size, footprint, output, mode, cval, origin)
    local x = S.input(input, fname)
    local x1, was0 = lift(x)
    local N = x1.ndim
    local fshape, flat
    if footprint == nil then
      if size == nil then fail(fname .. ": no footprint or filter size provided") end
      fshape, flat = S.full_footprint(size, N, fname)
    else
      fshape, flat = footprint_of(footprint, fname)
    end
    if #fshape ~= N then fail(fname .. ": filter footprint array has incorrect shape.") end
    local origins = S.seq(origin, N, fname, "origin", true)
    for d = 1, N do check_origin(origins[d], fshape[d], fname) end
    local count, full = 0, true
    for _, v in ipairs(flat) do
      if v then count = count + 1 else full = false end
    end
    if operation == "median" then
      rank = count // 2
    elseif operation == "percentile" then
      if percentile < 0 then percentile = percentile + 100 end
      if percentile < 0 or percentile > 100 then fail(fname .. ": invalid percentile") end
      if percentile == 100 then rank = count - 1 else rank = math.floor(count * percentile / 100) end
    end
    if rank < 0 then rank = rank + count end
    if rank < 0 or rank >= count then fail(fname .. ": rank not within filter footprint size") end
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    if type(mode) ~= "string" then fail(fname .. ": mode must be one name") end
    local fp = footprint
    if footprint == nil then fp = ga.ones(fshape, "bool") end
    if rank == 0 or rank == count - 1 then
      local y = min_or_max(fname, x1, nil, fp, nil, ydtype, mode, cval, origin, rank == 0 and "min" or "max")
      return S.deliver(drop(y, was0), out)
    end
    local half, modes = {}, {}
    for d = 1, N do
      half[d] = fshape[d] // 2 + origins[d]
      modes[d] = S.filter_mode(mode)
    end
    local spec = { ndim = N, fshape = fshape, half = half, modes = modes, op = "rank", full = full,
                   count = count, rank = rank }
    local extra = {}
    if not full then extra[1] = ga.array(flat, "bool") end
    return S.deliver(drop(St.run(spec, x1, ydtype, extra, cval), was0), out)
  end

  api.def(M, [[
scipy.ndimage.rank_filter(input: array_like, rank: integer, size: integer|list?, footprint: array_like?,
                          output: ndarray|dtype?, mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
                          origin: integer|list = 0) -> ndarray
The rank-th smallest value of each footprint (rank 0-based as SciPy's, a count; negative from the largest).
]], function(input, rank, size, footprint, output, mode, cval, origin)
    return rank_filter("scipy.ndimage.rank_filter", input, rank, nil, "rank", size, footprint, output, mode, cval,
                       origin)
  end)

  api.def(M, [[
scipy.ndimage.median_filter(input: array_like, size: integer|list?, footprint: array_like?, output: ndarray|dtype?,
                            mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
                            origin: integer|list = 0) -> ndarray
The median of each footprint (a sorting network in registers for small full footprints).
]], function(input, size, footprint, output, mode, cval, origin)
    return rank_filter("scipy.ndimage.median_filter", input, nil, nil, "median", size, footprint, output, mode,
                       cval, origin)
  end)

  api.def(M, [[
scipy.ndimage.percentile_filter(input: array_like, percentile: number, size: integer|list?, footprint: array_like?,
                                output: ndarray|dtype?, mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
                                origin: integer|list = 0) -> ndarray
The percentile (0-100, negative from 100) of each footprint, as SciPy's: the value of rank floor(count * p / 100).
]], function(input, percentile, size, footprint, output, mode, cval, origin)
    return rank_filter("scipy.ndimage.percentile_filter", input, nil, percentile, "percentile", size, footprint,
                       output, mode, cval, origin)
  end)

  -------------------------------------------------------------------------
  -- derivatives

  local function edge(fname, input, axis, output, mode, cval, smooth)
    local x = S.input(input, fname)
    local x1, was0 = lift(x)
    local N = x1.ndim
    local ax = S.axis(axis, N, fname)
    local modes = S.modes(mode, N, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local passes = { { axis = ax, weights = { -1, 0, 1 }, mode = modes[ax] } }
    for d = 1, N do
      if d ~= ax then passes[#passes + 1] = { axis = d, weights = smooth, mode = modes[d] } end
    end
    return S.deliver(drop(separable(x1, passes, ydtype, cval), was0), out)
  end

  api.def(M, [[
scipy.ndimage.sobel(input: array_like, axis: integer = -1, output: ndarray|dtype?,
                    mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0) -> ndarray
The Sobel derivative along an axis (1-based): [-1, 0, 1] along it, [1, 2, 1] along the others.
]], function(input, axis, output, mode, cval)
    return edge("scipy.ndimage.sobel", input, axis, output, mode, cval, { 1, 2, 1 })
  end)

  api.def(M, [[
scipy.ndimage.prewitt(input: array_like, axis: integer = -1, output: ndarray|dtype?,
                      mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0) -> ndarray
The Prewitt derivative along an axis (1-based): [-1, 0, 1] along it, [1, 1, 1] along the others.
]], function(input, axis, output, mode, cval)
    return edge("scipy.ndimage.prewitt", input, axis, output, mode, cval, { 1, 1, 1 })
  end)

  --- sum over axes of derivative2(x, axis) (SciPy's generic_laplace);
  -- squared and square-rooted for the gradient magnitude
  local function sum_axes(_, x, ydtype, modes, cval, deriv, magnitude)
    local N = x.ndim
    if N == 0 then return x:astype(ydtype) end
    local acc = deriv(x, 1, ydtype, modes[1], cval)
    if magnitude then acc = ga.multiply(acc, acc):astype(ydtype) end
    for d = 2, N do
      local t = deriv(x, d, ydtype, modes[d], cval)
      if magnitude then t = ga.multiply(t, t):astype(ydtype) end
      acc = ga.add(acc, t):astype(ydtype)
    end
    if magnitude then acc = ga.sqrt(acc):astype(ydtype) end
    return acc
  end
  M._sum_axes = sum_axes

  api.def(M, [[
scipy.ndimage.laplace(input: array_like, output: ndarray|dtype?, mode: ]] .. MODES .. [[|list = "reflect",
                      cval: number = 0.0) -> ndarray
The Laplace filter: the sum over the axes of the [1, -2, 1] second differences.
]], function(input, output, mode, cval)
    local fname = "scipy.ndimage.laplace"
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local modes = S.modes(mode, x.ndim, fname)
    return S.deliver(sum_axes(fname, x, ydtype, modes, cval, function(a, d, dt, m, c)
      return corr1d(a, { 1, -2, 1 }, d, dt, m, c, 0, fname)
    end), out)
  end)

  local function gauss_deriv(fname, sigma, truncate, radius, order)
    return function(a, d, dt, m, c)
      local orders = {}
      for k = 1, a.ndim do orders[k] = k == d and order or 0 end
      return gaussian(fname, a, sigma, orders, dt, m, c, truncate, radius, nil)
    end
  end

  api.def(M, [[
scipy.ndimage.gaussian_laplace(input: array_like, sigma: number|list, output: ndarray|dtype?,
                               mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0, *, truncate: number = 4.0,
                               radius: integer|list?) -> ndarray
The Laplacian of Gaussian: the sum over the axes of the second Gaussian derivative along each.
]], function(input, sigma, output, mode, cval, truncate, radius)
    local fname = "scipy.ndimage.gaussian_laplace"
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local modes = S.modes(mode, x.ndim, fname)
    return S.deliver(sum_axes(fname, x, ydtype, modes, cval, gauss_deriv(fname, sigma, truncate, radius, 2)), out)
  end)

  api.def(M, [[
scipy.ndimage.gaussian_gradient_magnitude(input: array_like, sigma: number|list, output: ndarray|dtype?,
                                          mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0, *,
                                          truncate: number = 4.0, radius: integer|list?) -> ndarray
The gradient magnitude with Gaussian derivatives: sqrt of the sum over the axes of the squared first derivative.
]], function(input, sigma, output, mode, cval, truncate, radius)
    local fname = "scipy.ndimage.gaussian_gradient_magnitude"
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local modes = S.modes(mode, x.ndim, fname)
    return S.deliver(sum_axes(fname, x, ydtype, modes, cval, gauss_deriv(fname, sigma, truncate, radius, 1), true),
                     out)
  end)
end
