--- ndimage interpolation (SciPy 1.10): spline_filter1d, spline_filter,
-- map_coordinates, affine_transform, zoom, shift, rotate,
-- geometric_transform. Coordinates are values as SciPy has them
-- (0-based pixel centres, API.md §14). Every transform is one
-- ElementwiseKernel per (input rank, output rank, how coordinates are
-- made, order, mode, dtypes): each output element computes its input
-- coordinate, the spline's taps and weights per axis (gnd_axis_taps in
-- ndimage/cuda.lua, checked on the host against SciPy for every mode and
-- order) and sums (order + 1)^rank taps. Orders > 1 read B-spline
-- coefficients: the input prefiltered in float64, one thread per line
-- (gnd_spline_line), after SciPy's 12-sample prepadding for nearest and
-- grid-constant.
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local CUDA = require("gpuarray.scipy.ndimage.cuda")
  local fail, is_array = internal.fail, internal.is_array
  local MODES = S.MODES

  local INT_RANGE = {
    int8 = { -128, 127 }, int16 = { -32768, 32767 }, int32 = { -2147483648, 2147483647 },
    int64 = { -9.2233720368547758e18, 9.2233720368547758e18 }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
    uint32 = { 0, 4294967295 }, uint64 = { 0, 1.8446744073709552e19 },
  }

  local function check_order(order, fname)
    if order < 0 or order > 5 then fail(fname .. ": spline order not supported") end
  end

  -------------------------------------------------------------------------
  -- prefilter

  local line_kernel = function()
    return S.kernel("spline_line", function()
      return ga.ElementwiseKernel("raw float64 c, int64 n, int64 inner, int32 order, int32 mode", "", [[
const long long o_ = i / inner, in_ = i % inner;
gnd_spline_line(&c[o_ * n * inner + in_], n, inner, order, mode);
]], "gnd_spline_filter", { preamble = CUDA.SOURCE })
    end)
  end
  M._spline_line_kernel = line_kernel

  --- c (float64, contiguous, filtered in place) along 1-based axis
  local function spline_axis(c, order, axis, mode)
    local shape = c.shape
    local n = shape[axis]
    if n <= 1 or c.size == 0 then return c end
    local inner = S.prod(shape, axis + 1, #shape)
    local lines = c.size // n
    line_kernel()(c, n, inner, order, mode, { size = lines })
    return c
  end

  api.def(M, [[
scipy.ndimage.spline_filter1d(input: array_like, order: integer = 3, axis: integer = -1,
                              output: ndarray|dtype = "float64", mode: ]] .. MODES .. [[ = "mirror") -> ndarray
The 1-D B-spline prefilter of the given order along an axis (1-based); orders 0 and 1 copy.
]], function(input, order, axis, output, mode)
    local fname = "scipy.ndimage.spline_filter1d"
    check_order(order, fname)
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, "float64", x.shape, fname)
    if order <= 1 or x.ndim == 0 then return S.deliver(x:astype(ydtype), out) end
    local ax = S.axis(axis, x.ndim, fname)
    local c = ga.ascontiguousarray(x:astype("float64"))
    if c == x then c = x:copy() end
    spline_axis(c, order, ax, S.MODE[mode])
    return S.deliver(c:astype(ydtype), out)
  end)

  --- x prefiltered along the given axes (all when nil) as float64
  local function spline_all(x, order, mode, axes)
    local c = x:astype("float64")
    if not c.flags.c_contiguous or c == x then c = ga.ascontiguousarray(c):copy() end
    for d = 1, x.ndim do
      if axes == nil or axes[d] then spline_axis(c, order, d, S.MODE[mode]) end
    end
    return c
  end

  api.def(M, [[
scipy.ndimage.spline_filter(input: array_like, order: integer = 3, output: ndarray|dtype = "float64",
                            mode: ]] .. MODES .. [[ = "mirror") -> ndarray
The multidimensional B-spline prefilter (orders 2-5): spline_filter1d along every axis.
]], function(input, order, output, mode)
    local fname = "scipy.ndimage.spline_filter"
    if order < 2 or order > 5 then fail(fname .. ": spline order not supported") end
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, "float64", x.shape, fname)
    if x.ndim == 0 then return S.deliver(x:astype(ydtype), out) end
    return S.deliver(spline_all(x, order, mode):astype(ydtype), out)
  end)

  --- x padded by p on every axis, the mode's values (nearest: edge,
  -- grid-constant: cval), as float64
  local function prepad(x, p, mode, cval)
    local N = x.ndim
    local key = "pad|" .. N
    local k = S.kernel(key, function()
      local params = { "raw X x", "int32 mode", "float64 cval", "int64 p" }
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      local b = { "long long r_ = i; long long off_ = 0; bool out_ = false; long long st_ = 1;" }
      for d = N - 1, 0, -1 do
        b[#b + 1] = ("{ const long long m = n%d + 2 * p; const long long c = r_ %% m; r_ /= m;"):format(d)
        b[#b + 1] = ("  const long long q = gnd_fix(c - p, n%d, mode); if (q < 0) out_ = true;"):format(d)
        b[#b + 1] = ("  off_ += q * st_; st_ *= n%d; }"):format(d)
      end
      b[#b + 1] = "y = out_ ? cval : (double)x[off_];"
      return ga.ElementwiseKernel(table.concat(params, ", "), "float64 y", table.concat(b, "\n"), "gnd_prepad",
                                  { preamble = CUDA.SOURCE })
    end)
    local shape = {}
    for d = 1, N do shape[d] = x.shape[d] + 2 * p end
    local y = ga.empty(shape, "float64")
    local args = { ga.ascontiguousarray(x), mode == "nearest" and 0 or 4, cval, p }
    for d = 1, N do args[#args + 1] = x.shape[d] end
    args[#args + 1] = y
    if y.size > 0 then k(table.unpack(args)) end
    return y
  end

  --- what the transform reads: (array, npad), as SciPy's prefilter step
  local function filtered(x, order, mode, cval, prefilter, axes)
    if prefilter and order > 1 then
      local npad = 0
      local src = x
      if mode == "nearest" or mode == "grid-constant" then
        npad = 12
        src = prepad(x, npad, mode, cval)
      end
      return spline_all(src, order, mode, axes), npad
    end
    return (x.ndim > 0 and internal.ascontiguous or ga.ascontiguousarray)(x), 0   -- (a 0-d x becomes 1-d)
  end

  -------------------------------------------------------------------------
  -- the transform kernel

  -- what each kind reads: cp (coordinates, the matrix: raw C, its own
  -- float type) and sp (offsets, the mapping's extra arguments: raw
  -- float64); zoom's factors are float64 scalars k0, k1, ... (no array to
  -- upload per call)
  local USES_CP = { coords = true, affine = true }
  local USES_SP = { affine = true, shift = true, user = true }

  --- spec: { nin, nout, kind = "coords"|"affine"|"zoom"|"shift"|"user",
  -- order, mode (code), grid (zoom's grid_mode), ident (list of booleans:
  -- axes read at the output's own position), yint ({lo, hi} for integer
  -- results), user (preamble, cname for "user"), i32 (the output has fewer
  -- than 2^32 elements: its position unravels in 32 bits), fast1 (order 1,
  -- mode constant, an input of fewer than 2^31 elements: the taps in
  -- 32-bit integers) }
  local function transform_kernel(spec)
    -- the key in one format (a call's host time is part of its timed cost)
    local ident = ""
    if spec.ident then
      local t = {}
      for d = 1, spec.nin do t[d] = spec.ident[d] and "1" or "0" end
      ident = table.concat(t)
    end
    local key = ("xform|%d|%d|%s|%d|%d|%s|%s|%s|%s|%s|%s"):format(spec.nin, spec.nout, spec.kind, spec.order,
      spec.mode, tostring(spec.grid), ident, spec.yint and (spec.yint[1] .. ":" .. spec.yint[2]) or "f",
      spec.user and spec.user[2] or "", tostring(spec.i32), tostring(spec.fast1))
    return S.kernel(key, function()
      local N, Mo, K = spec.nin, spec.nout, spec.order
      local params = { "raw X x" }
      if USES_CP[spec.kind] then params[#params + 1] = "raw C cp" end
      if USES_SP[spec.kind] then params[#params + 1] = "raw float64 sp" end
      if spec.kind == "zoom" then
        for d = 0, N - 1 do params[#params + 1] = "float64 k" .. d end
      end
      for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
      for d = 0, Mo - 1 do params[#params + 1] = "int64 m" .. d end
      params[#params + 1] = "float64 cval"
      params[#params + 1] = "int64 npad"
      -- y is a raw output written once per element, and the kernel runs
      -- one element per thread ({ size = n }): as the flat loop's vectors
      -- (16 elements a thread) the taps' loads, behind the inside-or-not
      -- branches, waited one element after another (map_coordinates of
      -- 2^22 points at order 1: 102 us on an H100, 80 us one per thread)
      local b = {}
      local function emit(s) b[#b + 1] = s end
      -- the output position: the outermost axis needs no remainder (i is
      -- below the size), and 32-bit division is several times cheaper
      local U = spec.i32 and "unsigned int" or "long long"
      emit(("%s r_ = (%s)i;"):format(U, U))
      for d = Mo - 1, 1, -1 do
        emit(("const double o%d = (double)(r_ %% (%s)m%d); r_ /= (%s)m%d;"):format(d, U, d, U, d))
      end
      emit("const double o0 = (double)r_;")
      -- the input coordinates
      if spec.kind == "user" then
        emit(("double oc_[%d], ic_[%d];"):format(Mo, N))
        for d = 0, Mo - 1 do emit(("oc_[%d] = o%d;"):format(d, d)) end
        emit(("%s(oc_, ic_, %d, %d, sp);"):format(spec.user[2], Mo, N))
      end
      for d = 0, N - 1 do
        local c
        if spec.ident and spec.ident[d + 1] then
          c = "o" .. d
        elseif spec.kind == "coords" then
          c = ("(double)cp[%d * _ind.size() + i]"):format(d)
        elseif spec.kind == "affine" then
          local terms = {}
          for l = 0, Mo - 1 do terms[#terms + 1] = ("(double)cp[%d] * o%d"):format(d * Mo + l, l) end
          c = ("(%s + sp[%d])"):format(table.concat(terms, " + "), d)
        elseif spec.kind == "zoom" then
          c = spec.grid and ("((o%d + 0.5) * k%d - 0.5)"):format(d, d) or ("(o%d * k%d)"):format(d, d)
        elseif spec.kind == "shift" then
          c = ("(o%d + sp[%d])"):format(d, d)
        else
          c = ("ic_[%d]"):format(d)
        end
        emit(("const double cc%d = %s + (double)npad;"):format(d, c))
      end
      emit("double t_ = 0.0; bool inside_ = true;")
      -- fast1 (order 1, mode constant, an input below 2^31 elements):
      -- gnd_axis_taps written out in 32-bit integers, the same values: a
      -- coordinate outside [0, n - 1] takes cval, the taps floor(c) and
      -- floor(c) + 1 (mirrored to n - 2 past the edge, where its weight is
      -- 0), the weights 1 - |floor(c) - c + h|
      local IT = spec.fast1 and "int" or "long long"
      for d = 0, N - 1 do
        if spec.fast1 then emit(("const int nn%d = (int)n%d;"):format(d, d)) end
        if spec.ident and spec.ident[d + 1] then
          emit(("%s i%d[1] = { (%s)o%d }; double w%d[1] = { 1.0 };"):format(IT, d, IT, d, d))
        elseif spec.fast1 then
          emit(("int i%d[2]; double w%d[2];"):format(d, d))
          emit(("if (inside_) { inside_ = cc%d >= 0.0 && cc%d <= (double)(nn%d - 1);"):format(d, d, d))
          emit(("  if (inside_) { const double s_ = floor(cc%d); const int f_ = (int)s_;"):format(d))
          emit(("    i%d[0] = f_; i%d[1] = f_ + 1 < nn%d ? f_ + 1 : (nn%d > 1 ? nn%d - 2 : 0);"):format(d, d, d, d, d))
          emit(("    w%d[0] = 1.0 - fabs(s_ - cc%d + 0.0); w%d[1] = 1.0 - fabs(s_ - cc%d + 1.0); } }"):format(
            d, d, d, d))
        else
          emit(("long long i%d[%d]; double w%d[%d];"):format(d, K + 1, d, K + 1))
          emit(("inside_ = inside_ && gnd_axis_taps(cc%d, n%d, %d, %d, i%d, w%d);"):format(d, d, spec.mode, K, d, d))
        end
      end
      emit("if (!inside_) { t_ = cval; } else {")
      for d = 0, N - 1 do
        local T = (spec.ident and spec.ident[d + 1]) and 0 or K
        emit(("#pragma unroll\nfor (int t%d = 0; t%d <= %d; ++t%d) {"):format(d, d, T, d))
        local prev = d == 0 and "1.0" or ("p%d"):format(d - 1)
        emit(("const double p%d = %s * w%d[t%d];"):format(d, prev, d, d))
      end
      local off, outside = ("i0[t0]"), { "i0[t0] < 0" }
      for d = 1, N - 1 do
        off = ("(%s) * %s%d + i%d[t%d]"):format(off, spec.fast1 and "nn" or "n", d, d, d)
        outside[#outside + 1] = ("i%d[t%d] < 0"):format(d, d)
      end
      if spec.fast1 then       -- no tap is negative (cval is decided per point)
        emit(("t_ += p%d * (double)x[%s];"):format(N - 1, off))
      else
        emit(("t_ += p%d * ((%s) ? cval : (double)x[%s]);"):format(N - 1, table.concat(outside, " || "), off))
      end
      for _ = 0, N - 1 do emit("}") end
      emit("}")
      if spec.yint then
        emit(("y[i] = (Y)gnd_round_int(t_, %.17g, %.17g);"):format(spec.yint[1], spec.yint[2]))
      else
        emit("y[i] = (Y)t_;")
      end
      return ga.ElementwiseKernel(table.concat(params, ", "), "raw Y y", table.concat(b, "\n"), "gnd_transform",
                                  { preamble = CUDA.SOURCE .. (spec.user and spec.user[1] or "") })
    end)
  end
  M._transform_kernel = transform_kernel

  --- run: src (what to read, contiguous), out shape, cp (float32 or
  -- float64 array) and sp (float64 array) as the kind reads them (zoom: cp
  -- is the list of factors), the result dtype
  local function transform(spec, src, oshape, cp, sp, ydtype, cval, npad)
    spec.yint = INT_RANGE[ydtype]
    spec.nin, spec.nout = src.ndim, #oshape
    local y = ga.empty(oshape, ydtype)
    if y.size == 0 then return y end
    spec.i32 = y.size < 2 ^ 32
    spec.fast1 = spec.order == 1 and spec.mode == S.MODE.constant and src.size < 2 ^ 31
    local k = transform_kernel(spec)
    local args = { src }
    if USES_CP[spec.kind] then args[#args + 1] = cp end
    if USES_SP[spec.kind] then args[#args + 1] = sp end
    if spec.kind == "zoom" then
      for d = 1, src.ndim do args[#args + 1] = cp[d] end
    end
    for d = 1, src.ndim do args[#args + 1] = src.shape[d] end
    for d = 1, #oshape do args[#args + 1] = oshape[d] end
    args[#args + 1] = cval
    args[#args + 1] = npad
    args[#args + 1] = y
    args[#args + 1] = { size = y.size }
    k(table.unpack(args))
    return y
  end

  local function start(fname, input, order, mode, allow0)
    check_order(order, fname)
    local x = S.input(input, fname)
    if x.ndim < 1 and not allow0 then fail(fname .. ": input and output rank must be > 0") end
    if not S.MODE[mode] then fail(fname .. ": boundary mode not supported") end
    return x
  end

  api.def(M, [[
scipy.ndimage.map_coordinates(input: array_like, coordinates: array_like, output: ndarray|dtype?, order: integer = 3,
                              mode: ]] .. MODES .. [[ = "constant", cval: number = 0.0,
                              prefilter: boolean = true) -> ndarray
The input interpolated at coordinates (shape (input rank, ...): values, 0-based pixel centres as SciPy's).
]], function(input, coordinates, output, order, mode, cval, prefilter)
    local fname = "scipy.ndimage.map_coordinates"
    local x = start(fname, input, order, mode)
    local c = is_array(coordinates) and coordinates or ga.asarray(coordinates)
    if S.COMPLEX[c.dtype] then fail(fname .. ": Complex type not supported") end
    local cshape = c.shape
    if c.ndim < 1 or cshape[1] ~= x.ndim then fail(fname .. ": invalid shape for coordinate array") end
    local oshape = {}
    for d = 2, c.ndim do oshape[d - 1] = cshape[d] end
    local ydtype, out = S.output(output, x.dtype, oshape, fname)
    local src, npad = filtered(x, order, mode, cval, prefilter)
    -- float32 coordinates are read as they are (exact in double, as SciPy
    -- converts them): no float64 copy of 2 x 4 bytes a point
    local cp = internal.ascontiguous((c.dtype == "float32" or c.dtype == "float64") and c or c:astype("float64"))
    local y = transform({ kind = "coords", order = order, mode = S.MODE[mode] }, src, oshape, cp, nil, ydtype, cval,
                        npad)
    return S.deliver(y, out)
  end)

  local function to_list2(m)
    local a = is_array(m) and m or ga.asarray(m)
    local t = a:astype("float64"):totable()
    return a, t
  end

  local function affine(fname, x, matrix, offset, output_shape, output, order, mode, cval, prefilter, ident)
    local N = x.ndim
    local ma, mt = to_list2(matrix, fname)
    local oshape
    if output_shape ~= nil then oshape = S.seq(output_shape, #output_shape, fname, "output_shape", true)
    elseif is_array(output) then oshape = output.shape
    else oshape = x.shape end
    if #oshape < 1 then fail(fname .. ": input and output rank must be > 0") end
    local ydtype, out = S.output(output, x.dtype, oshape, fname)
    if ma.ndim < 1 or ma.ndim > 2 or ma.shape[1] < 1 then fail(fname .. ": no proper affine matrix provided") end
    local off
    if ma.ndim == 2 and ma.shape[2] == N + 1 and (ma.shape[1] == N or ma.shape[1] == N + 1) then
      if ma.shape[1] == N + 1 then
        for l = 1, N + 1 do
          if mt[N + 1][l] ~= (l == N + 1 and 1 or 0) then
            fail(fname .. ": Expected homogeneous transformation matrix, but bottom row was not [0 ... 0 1]")
          end
        end
      end
      off = {}
      local m2 = {}
      for d = 1, N do
        off[d] = mt[d][N + 1]
        m2[d] = {}
        for l = 1, N do m2[d][l] = mt[d][l] end
      end
      mt = m2
      ma = ga.array(m2, "float64")
    end
    if ma.shape[1] ~= N then fail(fname .. ": affine matrix has wrong number of rows") end
    if ma.ndim == 2 and ma.shape[2] ~= #oshape then fail(fname .. ": affine matrix has wrong number of columns") end
    off = off or S.seq(offset, N, fname, "offset")
    local src, npad = filtered(x, order, mode, cval, prefilter, ident and (function()
      local a = {}
      for d = 1, N do a[d] = not ident[d] end
      return a
    end)())
    local y
    if ma.ndim == 1 then
      -- a diagonal: zoom_shift with zoom = matrix, shift = offset / matrix
      local zs, sh = {}, {}
      for d = 1, N do
        zs[d] = mt[d]
        sh[d] = off[d] / mt[d]
      end
      local spec = { kind = "affine", order = order, mode = S.MODE[mode] }
      local full = {}
      for d = 1, N do
        full[d] = {}
        for l = 1, N do full[d][l] = d == l and zs[d] or 0 end
      end
      for d = 1, N do off[d] = sh[d] * zs[d] end
      y = transform(spec, src, oshape, ga.array(full, "float64"):reshape(-1), ga.array(off, "float64"), ydtype, cval,
                    npad)
    else
      y = transform({ kind = "affine", order = order, mode = S.MODE[mode], ident = ident }, src, oshape,
                    ga.ascontiguousarray(ma:astype("float64")):reshape(-1), ga.array(off, "float64"), ydtype, cval,
                    npad)
    end
    return S.deliver(y, out)
  end

  api.def(M, [[
scipy.ndimage.affine_transform(input: array_like, matrix: array_like, offset: number|list = 0.0,
                               output_shape: list?, output: ndarray|dtype?, order: integer = 3,
                               mode: ]] .. MODES .. [[ = "constant", cval: number = 0.0,
                               prefilter: boolean = true) -> ndarray
The affine transform input[matrix @ o + offset] for each output position o (values, 0-based, as SciPy's; a
(rank+1)^2 homogeneous matrix holds the offset).
]], function(input, matrix, offset, output_shape, output, order, mode, cval, prefilter)
    local fname = "scipy.ndimage.affine_transform"
    local x = start(fname, input, order, mode)
    return affine(fname, x, matrix, offset, output_shape, output, order, mode, cval, prefilter)
  end)

  api.def(M, [[
scipy.ndimage.shift(input: array_like, shift: number|list, output: ndarray|dtype?, order: integer = 3,
                    mode: ]] .. MODES .. [[ = "constant", cval: number = 0.0, prefilter: boolean = true) -> ndarray
The input shifted by shift (a value per axis) with spline interpolation.
]], function(input, shift, output, order, mode, cval, prefilter)
    local fname = "scipy.ndimage.shift"
    local x = start(fname, input, order, mode)
    local sh = S.seq(shift, x.ndim, fname, "shift")
    for d = 1, #sh do sh[d] = -sh[d] end
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local src, npad = filtered(x, order, mode, cval, prefilter)
    local y = transform({ kind = "shift", order = order, mode = S.MODE[mode] }, src, x.shape, nil,
                        ga.array(sh, "float64"), ydtype, cval, npad)
    return S.deliver(y, out)
  end)

  api.def(M, [[
scipy.ndimage.zoom(input: array_like, zoom: number|list, output: ndarray|dtype?, order: integer = 3,
                   mode: ]] .. MODES .. [[ = "constant", cval: number = 0.0, prefilter: boolean = true, *,
                   grid_mode: boolean = false) -> ndarray
The input zoomed by zoom per axis (output shape round(shape * zoom)); grid_mode as SciPy's (pixel edges align).
]], function(input, zoom, output, order, mode, cval, prefilter, grid_mode)
    local fname = "scipy.ndimage.zoom"
    local x = start(fname, input, order, mode)
    local N = x.ndim
    local zs = S.seq(zoom, N, fname, "zoom")
    local oshape = {}
    for d = 1, N do
      -- Python's round: half to even
      local v = x.shape[d] * zs[d]
      local f = math.floor(v)
      local r = v - f
      if r > 0.5 or (r == 0.5 and f % 2 == 1) then f = f + 1 end
      oshape[d] = math.tointeger(f)
      if not oshape[d] or oshape[d] < 0 then    -- 1e19, inf, NaN: no length
        fail(("%s: zoom %s on axis %d gives no valid output length (%s)"):format(fname, zs[d], d, f))
      end
    end
    local ydtype, out = S.output(output, x.dtype, oshape, fname)
    local src, npad = filtered(x, order, mode, cval, prefilter)
    local z = {}
    for d = 1, N do
      local num, div = x.shape[d], oshape[d]
      if not grid_mode then num, div = num - 1, div - 1 end
      z[d] = div ~= 0 and num / div or 1.0
    end
    local y = transform({ kind = "zoom", order = order, mode = S.MODE[mode], grid = grid_mode }, src, oshape, z, nil,
                        ydtype, cval, npad)
    return S.deliver(y, out)
  end)

  -- SciPy's cosdg / sindg: exact at multiples of 90 degrees
  local function dg(angle)
    local a = angle % 360
    local exact = { [0] = { 1, 0 }, [90] = { 0, 1 }, [180] = { -1, 0 }, [270] = { 0, -1 } }
    if exact[a] then return exact[a][1], exact[a][2] end
    local r = math.rad(angle)
    return math.cos(r), math.sin(r)
  end

  api.def(M, [[
scipy.ndimage.rotate(input: array_like, angle: number, axes: list = ({2, 1}), reshape: boolean = true,
                     output: ndarray|dtype?, order: integer = 3, mode: ]] .. MODES .. [[ = "constant",
                     cval: number = 0.0, prefilter: boolean = true) -> ndarray
The input rotated by angle degrees in the plane of two axes (1-based; SciPy's (1, 0) is {2, 1}); reshape grows
the output to hold it all.
]], function(input, angle, axes, reshape, output, order, mode, cval, prefilter)
    local fname = "scipy.ndimage.rotate"
    local x = start(fname, input, order, mode)
    local N = x.ndim
    axes = axes or { 2, 1 }
    if N < 2 then fail(fname .. ": input array should be at least 2D") end
    if #axes ~= 2 then fail(fname .. ": axes should contain exactly two values") end
    local a = {}
    for k = 1, 2 do
      if math.type(axes[k]) ~= "integer" then fail(fname .. ": axes should contain only integer values") end
      a[k] = axes[k] < 0 and axes[k] + N + 1 or axes[k]
      if a[k] < 1 or a[k] > N then fail(fname .. ": invalid rotation plane specified") end
    end
    table.sort(a)
    local c, s = dg(angle)
    local rot = { { c, s }, { -s, c } }
    local iy, ix = x.shape[a[1]], x.shape[a[2]]
    local oy, ox
    if reshape then
      local xs, ys = {}, {}
      for k, p in ipairs({ { 0, 0 }, { 0, ix }, { iy, 0 }, { iy, ix } }) do
        ys[k] = rot[1][1] * p[1] + rot[1][2] * p[2]
        xs[k] = rot[2][1] * p[1] + rot[2][2] * p[2]
      end
      local function ptp(t) return math.max(table.unpack(t)) - math.min(table.unpack(t)) end
      oy, ox = math.floor(ptp(ys) + 0.5), math.floor(ptp(xs) + 0.5)
    else
      oy, ox = iy, ix
    end
    local oc = { rot[1][1] * (oy - 1) / 2 + rot[1][2] * (ox - 1) / 2,
                 rot[2][1] * (oy - 1) / 2 + rot[2][2] * (ox - 1) / 2 }
    local ic = { (iy - 1) / 2, (ix - 1) / 2 }
    local oshape = x.shape
    oshape[a[1]], oshape[a[2]] = math.tointeger(oy), math.tointeger(ox)
    -- an N-d affine map, the identity on the axes outside the plane
    local mat, off, ident = {}, {}, {}
    for d = 1, N do
      mat[d] = {}
      for l = 1, N do mat[d][l] = (d == l) and 1 or 0 end
      off[d] = 0
      ident[d] = true
    end
    for p = 1, 2 do
      ident[a[p]] = false
      for q = 1, 2 do mat[a[p]][a[q]] = rot[p][q] end
      off[a[p]] = ic[p] - oc[p]
    end
    return affine(fname, x, mat, off, oshape, output, order, mode, cval, prefilter, ident)
  end)

  api.def(M, [[
scipy.ndimage.geometric_transform(input: array_like, mapping: function, output_shape: list?, output: ndarray|dtype?,
                                  order: integer = 3, mode: ]] .. MODES .. [[ = "constant", cval: number = 0.0,
                                  prefilter: boolean = true, extra_arguments: list = {}) -> ndarray
An arbitrary transform: mapping(out, inp, nout, nin, extra) fills the input coordinates inp from the output
coordinates out (float64 arrays, 0-based inside, values as SciPy's; extra: the extra_arguments as a float64
array), a Lua function that ga.jit translates.
]], function(input, mapping, output_shape, output, order, mode, cval, prefilter, extra_arguments)
    local fname = "scipy.ndimage.geometric_transform"
    local x = start(fname, input, order, mode)
    local oshape = output_shape and S.seq(output_shape, #output_shape, fname, "output_shape", true) or
      (is_array(output) and output.shape or x.shape)
    local ydtype, out = S.output(output, x.dtype, oshape, fname)
    local types = require("gpuarray.jit.types")
    local A = types.array(types.T.float64)
    local translate = require("gpuarray.jit.translate")
    local unit = translate.unit(ga)
    local f = unit:func(mapping, { A, A, types.T.int32, types.T.int32, A }, "elementwise", "gnd_mapping")
    local ex = {}
    for k, v in ipairs(extra_arguments) do
      if type(v) ~= "number" then fail(fname .. ": extra_arguments must be numbers") end
      ex[k] = v
    end
    if #ex == 0 then ex[1] = 0 end
    local src, npad = filtered(x, order, mode, cval, prefilter)
    local how = { kind = "user", order = order, mode = S.MODE[mode], user = { unit:source(f, false), f.cname } }
    local y = transform(how, src, oshape, nil, ga.array(ex, "float64"), ydtype, cval, npad)
    return S.deliver(y, out)
  end)
end
