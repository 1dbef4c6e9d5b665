--- generic_filter, generic_filter1d (a Lua function translated by ga.jit
-- into a device function, called per output element / per line) and
-- generic_laplace, generic_gradient_magnitude (a Lua callback per axis).
--
-- generic_filter's function is the Lua twin of SciPy's function(buffer):
--   function(values, n, ...) ... return v end
-- values: the footprint's values (float64, 0-based inside the function
-- as every array in ga.jit code), n their count, then extra_arguments
-- (numbers). generic_filter1d's function fills an output line from an
-- input line, SciPy's function(iline, oline):
--   function(iline, oline, nin, nout, ...) ... end
-- iline holds nout + filter_size - 1 float64 values (the line extended by
-- the mode), oline nout float64 values. A function the jit cannot
-- translate raises the jit's error naming the Lua line.
return function(ga, M, S)
  local api = require("gpuarray.api")
  local internal = require("gpuarray.internal")
  local CUDA = require("gpuarray.scipy.ndimage.cuda")
  local translate = require("gpuarray.jit.translate")
  local types = require("gpuarray.jit.types")
  local fail, is_array = internal.fail, internal.is_array
  local MODES = S.MODES

  local function extra_types(extra, fname)
    local ts, vals = {}, {}
    for k, v in ipairs(extra or {}) do
      if type(v) ~= "number" then fail(fname .. ": extra_arguments must be numbers") end
      ts[k] = math.type(v) == "integer" and types.T.int64 or types.T.float64
      vals[k] = v
    end
    return ts, vals
  end

  --- the user's function as CUDA: (preamble, the device function's name)
  local function device_fn(fn, argtypes, fname, want_ret)
    if type(fn) ~= "function" then fail(fname .. ": function must be a Lua function (translated by ga.jit)") end
    local unit = translate.unit(ga)
    local f = unit:func(fn, argtypes, "elementwise", "gnd_user")
    if want_ret and (not f.nret or f.nret ~= 1) then
      fail(fname .. ": the function must return one value")
    end
    return unit:source(f, false), f.cname
  end
  M._device_fn = device_fn

  api.def(M, [[
scipy.ndimage.generic_filter(input: array_like, function: function, size: integer|list?, footprint: array_like?,
                             output: ndarray|dtype?, mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
                             origin: integer|list = 0, extra_arguments: list = {}) -> ndarray
A filter computing function(values, n, ...) over each footprint: a Lua function that ga.jit translates (values
0-based, float64).
]], function(input, fn, size, footprint, output, mode, cval, origin, extra_arguments)
    local fname = "scipy.ndimage.generic_filter"
    local x = S.input(input, fname)
    local x1 = x.ndim == 0 and x:reshape(1) or x
    local N = x1.ndim
    local fshape, flat
    if footprint == nil then
      if size == nil then fail(fname .. ": no footprint or filter size provided") end
      fshape, flat = S.full_footprint(size, N, fname)
    else
      local a = is_array(footprint) and footprint or ga.asarray(footprint)
      fshape = a.shape
      flat = a:astype("bool"):reshape(-1):totable()
      if type(flat) ~= "table" then flat = { flat } end
    end
    if #fshape ~= N then fail(fname .. ": filter footprint array has incorrect shape.") end
    local origins = S.seq(origin, N, fname, "origin", true)
    local count = 0
    for _, v in ipairs(flat) do if v then count = count + 1 end end
    local ets, evals = extra_types(extra_arguments, fname)
    local argtypes = { types.array(types.T.float64), types.T.int32 }
    for _, t in ipairs(ets) do argtypes[#argtypes + 1] = t end
    local pre, cname = device_fn(fn, argtypes, fname, true)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local params = { "raw X x", "raw bool fp" }
    for d = 0, N - 1 do params[#params + 1] = "int64 n" .. d end
    params[#params + 1] = "float64 cval"
    local eargs = {}
    for k, t in ipairs(ets) do
      params[#params + 1] = ("%s e%d"):format(t == types.T.int64 and "int64" or "float64", k)
      eargs[k] = "e" .. k
    end
    local b = { "long long r_ = i;" }
    for d = N - 1, 0, -1 do b[#b + 1] = ("const long long c%d = r_ %% n%d; r_ /= n%d;"):format(d, d, d) end
    b[#b + 1] = ("double v_[%d]; int m_ = 0; int k_ = 0;"):format(math.max(count, 1))
    local mode_code = S.filter_mode(mode)
    for d = 0, N - 1 do
      local h = fshape[d + 1] // 2 + origins[d + 1]
      if h < 0 or h >= fshape[d + 1] then fail(fname .. ": invalid origin") end
      b[#b + 1] = ("for (int j%d = 0; j%d < %d; ++j%d) {"):format(d, d, fshape[d + 1], d)
      b[#b + 1] = ("const long long q%d = gnd_fix(c%d + j%d - %d, n%d, %d);"):format(d, d, d, h, d, mode_code)
    end
    local off, outside = "q0", { "q0 < 0" }
    for d = 1, N - 1 do
      off = ("(%s) * n%d + q%d"):format(off, d, d)
      outside[#outside + 1] = ("q%d < 0"):format(d)
    end
    b[#b + 1] = ("if (fp[k_]) v_[m_++] = (%s) ? cval : (double)x[%s];"):format(table.concat(outside, " || "), off)
    b[#b + 1] = "++k_;"
    for _ = 0, N - 1 do b[#b + 1] = "}" end
    local call = { "v_", tostring(count) }
    for _, e in ipairs(eargs) do call[#call + 1] = e end
    b[#b + 1] = ("y = (Y)%s(%s);"):format(cname, table.concat(call, ", "))
    local k = ga.ElementwiseKernel(table.concat(params, ", "), "Y y", table.concat(b, "\n"), "gnd_generic",
                                   { preamble = CUDA.SOURCE .. pre })
    local xc = ga.ascontiguousarray(x1)
    local y = ga.empty(x1.shape, ydtype)
    if y.size > 0 then
      local args = { xc, ga.array(flat, "bool") }
      for d = 1, N do args[#args + 1] = x1.shape[d] end
      args[#args + 1] = cval
      for _, v in ipairs(evals) do args[#args + 1] = v end
      args[#args + 1] = y
      k(table.unpack(args))
    end
    if x.ndim == 0 then y = y:reshape({}) end
    return S.deliver(y, out)
  end)

  api.def(M, [[
scipy.ndimage.generic_filter1d(input: array_like, function: function, filter_size: integer, axis: integer = -1,
                               output: ndarray|dtype?, mode: ]] .. MODES .. [[ = "reflect", cval: number = 0.0,
                               origin: integer = 0, extra_arguments: list = {}) -> ndarray
A 1-D filter along an axis (1-based) computed by function(iline, oline, nin, nout, ...) per line: a Lua
function that ga.jit translates.
]], function(input, fn, filter_size, axis, output, mode, cval, origin, extra_arguments)
    local fname = "scipy.ndimage.generic_filter1d"
    if filter_size < 1 then fail(fname .. ": invalid filter size") end
    if filter_size // 2 + origin < 0 or filter_size // 2 + origin >= filter_size then
      fail(fname .. ": invalid origin")
    end
    local x = S.input(input, fname)
    local x1 = x.ndim == 0 and x:reshape(1) or x
    local ax = S.axis(axis, x1.ndim, fname)
    local ets, evals = extra_types(extra_arguments, fname)
    local argtypes = { types.array(types.T.float64), types.array(types.T.float64), types.T.int64, types.T.int64 }
    for _, t in ipairs(ets) do argtypes[#argtypes + 1] = t end
    local unit = translate.unit(ga)
    if type(fn) ~= "function" then fail(fname .. ": function must be a Lua function (translated by ga.jit)") end
    local f = unit:func(fn, argtypes, "elementwise", "gnd_user1d")
    local pre = unit:source(f, false)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local shape = x1.shape
    local n = shape[ax]
    local outer, inner = S.prod(shape, 1, ax - 1), S.prod(shape, ax + 1, #shape)
    local lines = outer * inner
    local nin = n + filter_size - 1
    local h = filter_size // 2 + origin
    -- one thread per line: the extended line into scratch, the function, the line out
    local params = { "raw X x", "raw float64 ib", "raw float64 ob", "int64 n", "int64 inner", "int64 nin",
                     "int64 h", "float64 cval" }
    local eargs = {}
    for k, t in ipairs(ets) do
      params[#params + 1] = ("%s e%d"):format(t == types.T.int64 and "int64" or "float64", k)
      eargs[#eargs + 1] = "e" .. k
    end
    local call = { "&ib[i * nin]", "&ob[i * n]", "nin", "n" }
    for _, e in ipairs(eargs) do call[#call + 1] = e end
    local body = ([[
const long long o_ = i / inner, in_ = i %% inner;
const long long base_ = o_ * n * inner + in_;
for (long long t = 0; t < nin; ++t) {
  const long long q = gnd_fix(t - h, n, %d);
  ib[i * nin + t] = q < 0 ? cval : (double)x[base_ + q * inner];
}
%s(%s);
for (long long t = 0; t < n; ++t) yb[base_ + t * inner] = (Y)ob[i * n + t];
]]):format(S.filter_mode(mode), f.cname, table.concat(call, ", "))
    params[#params + 1] = "raw Y yb"
    local k = ga.ElementwiseKernel(table.concat(params, ", "), "", body, "gnd_generic1d",
                                   { preamble = CUDA.SOURCE .. pre })
    local y = ga.empty(shape, ydtype)
    if y.size > 0 then
      local ib = ga.empty(lines * nin, "float64")
      local ob = ga.empty(lines * n, "float64")
      local args = { ga.ascontiguousarray(x1), ib, ob, n, inner, nin, h, cval }
      for _, v in ipairs(evals) do args[#args + 1] = v end
      args[#args + 1] = y
      args[#args + 1] = { size = lines }
      k(table.unpack(args))
    end
    if x.ndim == 0 then y = y:reshape({}) end
    return S.deliver(y, out)
  end)

  --- the user's derivative callback: derivative(input, axis (1-based),
  -- output dtype, mode, cval, ...) -> an array
  local function user_deriv(fn, extra)
    return function(a, d, dt, m, c)
      local r = api.call_user(fn, a, d, dt, m, c, table.unpack(extra or {}))
      if not is_array(r) then fail("the derivative function must return an ndarray") end
      return r
    end
  end

  api.def(M, [[
scipy.ndimage.generic_laplace(input: array_like, derivative2: callable, output: ndarray|dtype?,
                              mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0,
                              extra_arguments: list = {}) -> ndarray
The sum over the axes of derivative2(input, axis, dtype, mode, cval, ...) (axis 1-based; it returns an ndarray).
]], function(input, derivative2, output, mode, cval, extra_arguments)
    local fname = "scipy.ndimage.generic_laplace"
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local modes = S.modes(mode, math.max(x.ndim, 1), fname)
    return S.deliver(M._sum_axes(fname, x, ydtype, modes, cval, user_deriv(derivative2, extra_arguments)), out)
  end)

  api.def(M, [[
scipy.ndimage.generic_gradient_magnitude(input: array_like, derivative: callable, output: ndarray|dtype?,
                                         mode: ]] .. MODES .. [[|list = "reflect", cval: number = 0.0,
                                         extra_arguments: list = {}) -> ndarray
sqrt of the sum over the axes of derivative(input, axis, dtype, mode, cval, ...)^2 (axis 1-based).
]], function(input, derivative, output, mode, cval, extra_arguments)
    local fname = "scipy.ndimage.generic_gradient_magnitude"
    local x = S.input(input, fname)
    local ydtype, out = S.output(output, x.dtype, x.shape, fname)
    local modes = S.modes(mode, math.max(x.ndim, 1), fname)
    return S.deliver(M._sum_axes(fname, x, ydtype, modes, cval, user_deriv(derivative, extra_arguments), true), out)
  end)
end
