--- B-splines and symmetric IIR smoothing (cupyx.scipy.signal's
-- symiirorder1, symiirorder2, cspline1d, qspline1d, cspline2d, qspline2d,
-- cspline1d_eval, qspline1d_eval, spline_filter, gauss_spline).
--
-- Each is a causal recursion and an anti-causal one (the signal reversed),
-- run by lfilter's scan engine, started from mirror-symmetric initial
-- values: sums of the signal's first samples against the impulse response,
-- as long as its terms are above the precision (the coefficients on the
-- host, the few samples they weigh fetched from the device).
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local U = S.U
  local fail = U.fail

  local function name(n) return "scipy.signal." .. n end

  local function as_1d(x, fname, what)
    x = U.arr(x, fname, what or "input")
    if x.ndim ~= 1 then fail(fname .. ": the input must be 1-D") end
    return x
  end

  -- sum over k of coef(k) v[k] for k = 0 .. first k where |coef(k)|^2 <=
  -- prec2 (inclusive), v a host list; nil when no term gets that small
  local function truncated_sum(coef, v, prec2)
    local s = 0
    for k = 0, #v - 1 do
      local c = coef(k)
      s = cx.add(s, cx.mul(c, v[k + 1]))
      if cx.abs2(c) <= prec2 then return s end
    end
    return nil
  end

  local function host_values(x)
    local t = x:totable()
    for i, v in ipairs(t) do if type(v) == "table" then t[i] = cx.new(v[1], v[2]) end end
    return t
  end

  local function scalar(v) return type(v) == "number" and v or { cx.re(v), cx.im(v) } end

  -- one first-order pass: y[0] = y0, y[k] = b x[k] + z1 y[k - 1] for k >= 1
  -- (lfilter(b, {1, -z1}) over x[2..] from the state z1 y0)
  local function first_order(x, y0, b, z1)
    local n = x.size
    local dt = x.dtype
    local head = ga.full({ 1 }, scalar(y0), dt)
    if n == 1 then return head end
    local c = { b, 0.0, cx.mul(-1, z1) }
    local zi = ga.full({ 1, 1 }, scalar(cx.mul(z1, y0)), dt)
    local rest = S.lfilter_rows(c, 1, ga.ascontiguousarray(x[{ { 2, n } }]):reshape({ 1, -1 }), zi, false)
    return ga.concatenate({ head, rest:reshape({ -1 }) })
  end

  local function default_precision(dt, given)
    if given > 0 and given <= 1 then return given end
    return (dt == "float32" or dt == "complex64") and 1e-6 or 1e-15
  end

  local function symiir1(x, c0, z1, precision, fname)
    if cx.abs(z1) >= 1 then fail(fname .. ": |z1| must be less than 1.0") end
    local n = x.size
    if n == 0 then return x:copy() end
    local prec = default_precision(x.dtype, precision)
    local prec2 = prec * prec
    -- yp[0] = x[0] + sum_k z1^(k+1) x[k] (the signal mirrored before its
    -- start), the terms down to |z1^(k+1)| <= precision: few samples fetched
    local az = cx.abs(z1)
    local need = az == 0 and 1 or math.ceil(math.log(prec) / math.log(az)) + 1
    local v = host_values(x[{ { 1, math.max(1, math.min(n, need)) } }])
    local coef = function(k) return cx.ipow(z1, k + 1) end
    local s = truncated_sum(coef, v, prec2)
    if s == nil and #v < n then s = truncated_sum(coef, host_values(x), prec2) end
    if s == nil then fail(fname .. ": Sum to find symmetric boundary conditions did not converge.") end
    local head = v
    local yp0 = cx.add(head[1], s)
    local yp = first_order(x, yp0, 1.0, z1)
    -- the anti-causal pass from y[n-1] = -c0 / (z1 - 1) yp[n-1]
    local last = host_values(yp[{ { n, n } }])[1]
    local yl = cx.mul(cx.div(cx.mul(-1, c0), cx.sub(z1, 1)), last)
    if n == 1 then return ga.full({ 1 }, scalar(yl), x.dtype) end
    local rev = yp[{ { n - 1, 1, -1 } }]
    local back = first_order(ga.concatenate({ ga.zeros(1, x.dtype), rev }), yl, c0, z1)
    return ga.ascontiguousarray(back[{ { nil, nil, -1 } }])
  end
  S.symiir1 = symiir1

  api.def(signal, [[
scipy.signal.symiirorder1(input: array_like, c0: scalar, z1: scalar, precision: number = -1.0) -> ndarray
Smooth a 1-D signal with c0 / ((1 - z1 / z)(1 - z1 z)): a causal and an
anti-causal first-order pass with mirror-symmetric boundaries (|z1| < 1;
precision bounds the boundary sums: the dtype's resolution by default).
]], function(input, c0, z1, precision)
    local fname = name("symiirorder1")
    local x = as_1d(input, fname)
    local cz, cc = U.scalar(z1, fname, "z1"), U.scalar(c0, fname, "c0")
    local dt = U.inexact(x.dtype)
    if not cx.is_real(cz) or not cx.is_real(cc) then dt = ga.result_type(dt, "complex64") end
    return symiir1(U.cast(x, dt), cc, cz, precision, fname)
  end)

  -- the second-order responses (SciPy's _hc and _hs)
  local function hc(k, cs, r, om)
    if k < 0 then return 0.0 end
    if om == 0 then return cs * r ^ k * (k + 1) end
    if om == math.pi then return cs * r ^ k * (k + 1) * (1 - 2 * (k % 2)) end
    return cs * r ^ k * math.sin(om * (k + 1)) / math.sin(om)
  end
  local function hs(k, cs, rsq, om)
    k = math.abs(k)
    local rs = rsq ^ (k / 2)
    local cssq = cs * cs
    if om == 0 or om == math.pi then
      local c0 = (1 + rsq) / ((1 - rsq) ^ 3) * cssq
      local g = (1 - rsq) / (1 + rsq)
      if om == math.pi then g = g * (1 - 2 * (k % 2)) end
      return c0 * rs * (1 + g * k)
    end
    local c0 = cssq * (1 + rsq) / (1 - rsq) / (1 - 2 * rsq * math.cos(2 * om) + rsq * rsq)
    local g = (1 - rsq) / (1 + rsq) / math.tan(om)
    return c0 * rs * (math.cos(om * k) + g * math.sin(om * k))
  end

  -- the second-order pass: y[0], y[1] given, y[k] = cs v[k] + a2 y[k-1] + a3 y[k-2]
  local function second_order(v, y0, y1, cs, a2, a3)
    local n = v.size
    local dt = v.dtype
    local head = ga.array({ y0, y1 }, "float64")
    head = U.cast(head, dt)
    if n <= 2 then return head[{ { 1, n } }] end
    local c = { cs, 0.0, 0.0, -a2, -a3 }
    local zi = U.cast(ga.array({ { a2 * y1 + a3 * y0, a3 * y1 } }, "float64"), dt)
    local rest = S.lfilter_rows(c, 2, ga.ascontiguousarray(v[{ { 3, n } }]):reshape({ 1, -1 }), zi, false)
    return ga.concatenate({ head, rest:reshape({ -1 }) })
  end

  -- symiirorder2's boundary values: full sums when prec2 is nil (cspline1d's)
  local function sums2(x, r, om, prec2, fname, smooth)
    local n = x.size
    local rsq = r * r
    local cs = 1 - 2 * r * math.cos(om) + rsq
    local v = host_values(x)
    local rv = {}
    for i = 1, n do rv[i] = v[n - i + 1] end
    local function tsum(coef, vals)
      if prec2 then return truncated_sum(coef, vals, prec2) end
      local s = 0.0
      for k = 0, #vals - 1 do s = s + coef(k) * vals[k + 1] end
      return s
    end
    local y0s = tsum(function(k) return hc(k + 1, cs, r, om) end, v)
    local y1s = tsum(function(k) return hc(k + 2, cs, r, om) end, v)
    local b0 = tsum(function(k) return hs(k, cs, rsq, om) + hs(k + 1, cs, rsq, om) end, rv)
    local b1 = tsum(function(k) return hs(k - 1, cs, rsq, om) + hs(k + 2, cs, rsq, om) end, rv)
    if y0s == nil or y1s == nil or b0 == nil or b1 == nil then
      fail(fname .. ": Sum to find symmetric boundary conditions did not converge.")
    end
    local y0 = hc(0, cs, r, om) * v[1] + y0s
    local y1
    if smooth then y1 = hc(0, cs, r, om) * v[1] + hc(1, cs, r, om) * v[2] + y1s
    else y1 = hc(0, cs, r, om) * v[2] + hc(1, cs, r, om) * v[1] + y1s end
    return cs, y0, y1, b0, b1
  end

  local function symiir2(x, r, om, prec2, fname, smooth)
    local n = x.size
    if n < 2 then fail(fname .. ": the input must have at least 2 samples") end
    local cs, y0, y1, b0, b1 = sums2(x, r, om, prec2, fname, smooth)
    local a2, a3 = 2 * r * math.cos(om), -r * r
    local yf = second_order(x, y0, y1, cs, a2, a3)
    -- anti-causal: y[n-1] = b0, y[n-2] = b1, then down from n-3
    local w = yf[{ { n, 1, -1 } }]
    local back = second_order(ga.ascontiguousarray(w), b0, b1, cs, a2, a3)
    return ga.ascontiguousarray(back[{ { nil, nil, -1 } }])
  end

  api.def(signal, [[
scipy.signal.symiirorder2(input: array_like, r: number, omega: number, precision: number = -1.0) -> ndarray
Smooth a 1-D signal with a causal and an anti-causal second-order section
of poles r e^(+-i omega) (r < 1), mirror-symmetric boundaries.
]], function(input, r, omega, precision)
    local fname = name("symiirorder2")
    if r >= 1.0 then fail(fname .. ": r must be less than 1.0") end
    local x = as_1d(input, fname)
    if U.is_complex(x.dtype) then fail(fname .. ": the input must be real") end
    x = U.cast(x, U.inexact(x.dtype))
    -- (nothing to filter: the rows of an empty image are not walked one by one)
    if x.size == 0 then return x:copy() end
    local prec = precision
    if not (prec > 0 and prec <= 1) then prec = x.dtype == "float32" and 1e-6 or 1e-11 end
    return symiir2(x, r, omega, prec * prec, fname, false)
  end)

  ---------------------------------------------------------------------------
  -- spline coefficients

  local Z_CUBIC, Z_QUAD = -2 + math.sqrt(3), -3 + 2 * math.sqrt(2)

  -- the smoothing spline's poles (SciPy's _coeff_smooth)
  local function coeff_smooth(lam)
    local xi = 1 - 96 * lam + 24 * lam * math.sqrt(3 + 144 * lam)
    local omeg = math.atan(math.sqrt(144 * lam - 1), math.sqrt(xi))
    local rho = (24 * lam - 1 - math.sqrt(xi)) / (24 * lam)
    rho = rho * math.sqrt((48 * lam + 24 * lam * math.sqrt(3 + 144 * lam)) / xi)
    return rho, omeg
  end

  -- SciPy's _cubic_coeff / _quadratic_coeff: full boundary sums
  local function spline_coeff(x, zi, gain)
    local n = x.size
    local dt = x.dtype
    local powers = ga.power(ga.full(n, zi, "float64"), ga.arange(0, n, 1, "float64"))
    local s = ga.sum(U.cast(powers, dt) * x):item()
    local x0 = host_values(x[{ { 1, 1 } }])[1]
    local yplus = first_order(x, x0 + zi * s, 1.0, zi)
    local last = host_values(yplus[{ { n, n } }])[1]
    local ol = zi / (zi - 1) * last
    if n == 1 then return ga.full({ 1 }, ol * gain, dt) end
    local rev = yplus[{ { n - 1, 1, -1 } }]
    local back = first_order(ga.concatenate({ ga.zeros(1, dt), rev }), ol, -zi, zi)
    return ga.ascontiguousarray(back[{ { nil, nil, -1 } }]) * gain
  end

  api.def(signal, [[
scipy.signal.cspline1d(signal: array_like, lamb: number = 0.0) -> ndarray
The cubic B-spline coefficients of a 1-D signal (mirror-symmetric
boundaries); lamb > 0 a smoothing spline.
]], function(sig, lamb)
    local fname = name("cspline1d")
    local x = as_1d(sig, fname, "signal")
    x = U.cast(x, U.inexact(x.dtype))
    if x.size == 0 then return x:copy() end
    if lamb ~= 0.0 then
      local rho, om = coeff_smooth(lamb)
      return symiir2(x, rho, om, nil, fname, true)
    end
    return spline_coeff(x, Z_CUBIC, 6.0)
  end)

  api.def(signal, [[
scipy.signal.qspline1d(signal: array_like, lamb: number = 0.0) -> ndarray
The quadratic B-spline coefficients of a 1-D signal (lamb must be 0).
]], function(sig, lamb)
    local fname = name("qspline1d")
    if lamb ~= 0.0 then fail(fname .. ": Smoothing quadratic splines not supported yet.") end
    local x = as_1d(sig, fname, "signal")
    x = U.cast(x, U.inexact(x.dtype))
    if x.size == 0 then return x:copy() end
    return spline_coeff(x, Z_QUAD, 8.0)
  end)

  -- a 1-D transform applied to every row, then to every column
  local function rows_then_cols(x, f)
    local r, c = x.shape[1], x.shape[2]
    local a = ga.empty({ r, c }, x.dtype)
    for i = 1, r do a[i] = f(ga.ascontiguousarray(x[i])) end
    local b = ga.empty({ r, c }, x.dtype)
    for j = 1, c do b[{ {}, j }] = f(ga.ascontiguousarray(a[{ {}, j }])) end
    return b
  end

  local function spline2d(x, lam, precision, zi, gain, fname)
    x = U.arr(x, fname, "input")
    if x.ndim ~= 2 then fail(fname .. ": input must be 2-D") end
    x = U.cast(x, U.inexact(x.dtype))
    -- (nothing to filter: the rows of an empty image are not walked one by one)
    if x.size == 0 then return x:copy() end
    local prec = precision
    if not (prec > 0 and prec < 1) then prec = 1e-6 end
    if lam ~= 0.0 then
      local rho, om = coeff_smooth(lam)
      return rows_then_cols(x, function(v) return symiir2(v, rho, om, prec * prec, fname, false) end)
    end
    return rows_then_cols(x, function(v) return symiir1(v, -gain * zi, zi, prec, fname) end)
  end

  api.def(signal, [[
scipy.signal.cspline2d(input: array_like, lambda: number = 0.0, precision: number = -1.0) -> ndarray
The cubic B-spline coefficients of a 2-D image (rows, then columns;
mirror-symmetric boundaries; precision 1e-6 by default).
]], function(input, lam, precision)
    return spline2d(input, lam, precision, Z_CUBIC, 6.0, name("cspline2d"))
  end)

  api.def(signal, [[
scipy.signal.qspline2d(input: array_like, lambda: number = 0.0, precision: number = -1.0) -> ndarray
The quadratic B-spline coefficients of a 2-D image (lambda must be 0).
]], function(input, lam, precision)
    local fname = name("qspline2d")
    if lam ~= 0.0 then fail(fname .. ": Smoothing spline not yet implemented") end
    return spline2d(input, 0.0, precision, Z_QUAD, 8.0, fname)
  end)

  api.def(signal, [[
scipy.signal.spline_filter(Iin: array_like, lmbda: number = 5.0) -> ndarray
Smooth a 2-D image with a cubic smoothing spline: cspline2d's coefficients
filtered by the B-spline [1, 4, 1] / 6 along both axes.
]], function(Iin, lmbda)
    local fname = name("spline_filter")
    local x = U.arr(Iin, fname, "Iin")
    if x.ndim ~= 2 then fail(fname .. ": Iin must be 2-D") end
    local dt = x.dtype
    if dt ~= "float32" and dt ~= "float64" and dt ~= "complex64" and dt ~= "complex128" then
      fail(fname .. ": Invalid data type for Iin")
    end
    local h = ga.array({ 1.0 / 6, 4.0 / 6, 1.0 / 6 }, "float32")
    local function one(v)
      local ck = spline2d(v, lmbda, -1.0, Z_CUBIC, 6.0, fname)
      local hh = U.cast(h, ck.dtype)
      return S.conv1d_axis(S.conv1d_axis(ck, hh, 2, "reflect", 0), hh, 1, "reflect", 0)
    end
    if U.is_complex(dt) then
      return U.cast(U.complex(one(U.cast(ga.real(x), "float32")), one(U.cast(ga.imag(x), "float32"))), dt)
    end
    return U.cast(one(x), dt)
  end)

  local EVAL_SRC = {
    cubic = [[
      double v = (newx - x0) / dx;
      for (int it = 0; it < 64 && (v < 0 || v > N - 1); it++) v = v < 0 ? -v : 2.0 * (N - 1) - v;
      if (N == 1) v = 0;
      const long long jl = (long long)floor(v - 2) + 1;
      double s = 0;
      for (int q = 0; q < 4; q++) {
        const long long j = jl + q;
        const long long jj = j < 0 ? 0 : (j > N - 1 ? N - 1 : j);
        const double a = fabs(v - (double)j);
        const double b = a < 1 ? 2.0 / 3 - 0.5 * a * a * (2 - a) : (a < 2 ? (2 - a) * (2 - a) * (2 - a) / 6 : 0.0);
        s += (double)cj[jj] * b;
      }
      res = s;
    ]],
    quad = [[
      double v = (newx - x0) / dx;
      for (int it = 0; it < 64 && (v < 0 || v > N - 1); it++) v = v < 0 ? -v : 2.0 * (N - 1) - v;
      if (N == 1) v = 0;
      const long long jl = (long long)floor(v - 1.5) + 1;
      double s = 0;
      for (int q = 0; q < 3; q++) {
        const long long j = jl + q;
        const long long jj = j < 0 ? 0 : (j > N - 1 ? N - 1 : j);
        const double a = fabs(v - (double)j);
        const double b = a < 0.5 ? 0.75 - a * a : (a < 1.5 ? (a - 1.5) * (a - 1.5) / 2 : 0.0);
        s += (double)cj[jj] * b;
      }
      res = s;
    ]],
  }
  local eval_kernels = {}
  local function eval_kernel(kind)
    eval_kernels[kind] = eval_kernels[kind] or ga.ElementwiseKernel(
      "float64 newx, raw T cj, int64 N, float64 dx, float64 x0", "T res", EVAL_SRC[kind], "ga_spline_eval_" .. kind)
    return eval_kernels[kind]
  end
  S.spline_eval_kernel = eval_kernel

  local function spline_eval(kind, cj, newx, dx, x0, fname)
    cj = U.arr(cj, fname, "cj")
    if cj.ndim ~= 1 then fail(fname .. ": cj must be 1-D") end
    if U.is_complex(cj.dtype) then fail(fname .. ": cj must be real") end
    local x = U.cast(U.arr(newx, fname, "newx"), "float64")
    local dt = kind == "cubic" and U.inexact(cj.dtype) or "float64"
    local c = ga.ascontiguousarray(U.cast(cj, dt))
    if x.size == 0 then return ga.empty(x.shape, dt) end
    if cj.size == 0 then fail(fname .. ": cj must not be empty") end
    return eval_kernel(kind)(x, c, cj.size, dx + 0.0, x0 + 0.0, ga.empty(x.shape, dt))
  end

  api.def(signal, [[
scipy.signal.cspline1d_eval(cj: array_like, newx: array_like, dx: number = 1.0, x0: number = 0) -> ndarray
Evaluate cubic spline coefficients cj (samples at x0 + dx k) at newx
(values), mirrored past the ends.
]], function(cj, newx, dx, x0)
    return spline_eval("cubic", cj, newx, dx, x0, name("cspline1d_eval"))
  end)

  api.def(signal, [[
scipy.signal.qspline1d_eval(cj: array_like, newx: array_like, dx: number = 1.0, x0: number = 0) -> ndarray
Evaluate quadratic spline coefficients cj at newx (values), mirrored past the ends.
]], function(cj, newx, dx, x0)
    return spline_eval("quad", cj, newx, dx, x0, name("qspline1d_eval"))
  end)

  api.def(signal, [[
scipy.signal.gauss_spline(x: array_like, n: integer) -> ndarray
The Gaussian approximation of the B-spline basis function of order n at x.
]], function(x, n)
    local fname = name("gauss_spline")
    x = U.arr(x, fname, "x")
    if not (x.dtype == "float32" or U.is_complex(x.dtype)) then x = U.cast(x, "float64") end
    local signsq = (n + 1) / 12.0
    return ga.exp(-(x * x) / 2 / signsq) * (1 / math.sqrt(2 * math.pi * signsq))
  end)
end
