--- Recursive filtering (cupyx.scipy.signal's lfilter, lfiltic, lfilter_zi,
-- filtfilt, sosfilt, sosfilt_zi, sosfiltfilt, deconvolve): the filters run
-- on the device as a parallel scan over their state (scan.lua); initial
-- conditions (lfilter_zi, sosfilt_zi, lfiltic) are small host solves.
-- Arrays are filtered along `axis` (1-based, -1 the last), batched over
-- the other axes. The dtype is SciPy's: the result type of b, a, x (and
-- zi), a Lua list counting as float64; integers filter in float64.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local M = require("gpuarray.scipy.signal.host.mat")
  local U = S.U
  local fail, vec = U.fail, U.vec

  local function name(n) return "scipy.signal." .. n end

  -- the dtype a coefficient argument brings (a Lua list: float64, or
  -- complex128 with complex pairs)
  local function coef_dtype(v, list)
    if U.is_array(v) then return v.dtype end
    return cx.any_cx(list) and "complex128" or "float64"
  end

  -- SciPy's result type of the inputs, made inexact (float16 -> float32)
  local function filter_dtype(...)
    local dt = nil
    for _, d in ipairs({ ... }) do dt = dt and ga.result_type(dt, d) or d end
    return U.inexact(dt)
  end
  S.filter_dtype = filter_dtype

  --- x with axis last, as rows x n (C-contiguous, dtype dt), and the
  -- function putting a rows x m result back in x's layout
  local function as_rows(x, axis, dt)
    local nd = x.ndim
    local xl, back = U.axis_last(x, axis)
    local shape = xl.shape
    local n = shape[nd]
    local rows = 1
    for d = 1, nd - 1 do rows = rows * shape[d] end
    local x2 = ga.ascontiguousarray(U.cast(xl, dt)):reshape({ rows, n })
    return x2, function(r)
      local s = {}
      for d = 1, nd - 1 do s[d] = shape[d] end
      s[nd] = r.shape[2]
      return back(r:reshape(s))
    end
  end
  S.as_rows = as_rows

  -- zi given in x's layout with axis of length N: rows x N contiguous
  local function zi_rows(zi, x, axis, N, dt, fname)
    zi = U.arr(zi, fname, "zi")
    local want = x.shape
    want[axis] = N
    if zi.ndim ~= x.ndim then
      fail(("%s: zi must have %d dimensions (x's), got %d"):format(fname, x.ndim, zi.ndim))
    end
    local ok, b = pcall(ga.broadcast_to, zi, want)
    if not ok then
      fail(("%s: Unexpected shape for zi: expected %s, found %s."):format(fname, U.shape_str(want),
        U.shape_str(zi.shape)))
    end
    return (as_rows(b, axis, dt))
  end

  --- The host part of lfilter: b, a normalised (a[1] = 1) and padded to
  -- N + 1 coefficients, as the "tdf2" recurrence's list
  local function tdf2_coefs(b, a, fname)
    if #a == 0 or #b == 0 then fail(fname .. ": b and a must not be empty") end
    if cx.abs(a[1]) == 0 then fail(fname .. ": filter coefficient a[1] == 0 not supported") end
    local N = math.max(#a, #b) - 1
    local c = {}
    for i = 1, N + 1 do c[i] = cx.div(b[i] or 0, a[1]) end
    for i = 2, N + 1 do c[N + i] = cx.div(a[i] or 0, a[1]) end
    return c, N
  end
  S.tdf2_coefs = tdf2_coefs

  --- lfilter on rows (the engine behind lfilter, filtfilt, deconvolve)
  function S.lfilter_rows(c, N, x2, zi2, want_zf)
    if N == 0 then
      local k = c[1]
      local y
      if cx.is_real(k) then
        y = x2 * cx.re(k)
      else
        y = x2 * ga.full({ 1, 1 }, { cx.re(k), cx.im(k) }, x2.dtype)
      end
      return U.cast(y, x2.dtype), want_zf and ga.empty({ x2.shape[1], 0 }, x2.dtype) or nil
    end
    return S.iir_run("tdf2", c, N, x2, zi2, want_zf)
  end

  api.def(signal, [[
scipy.signal.lfilter(b: array_like, a: array_like, x: array_like, axis: integer = -1,
                     zi: array_like? = nil) -> ndarray[, ndarray]
Filter x along axis with the IIR/FIR filter b(z)/a(z) (transposed direct
form II). With zi (x's shape, axis of length max(#a, #b) - 1) the initial
state; then the final state zf is returned too. Runs as a parallel scan.
]], function(b, a, x, axis, zi)
    local fname = name("lfilter")
    local bl, al = vec(b, fname, "b"), vec(a, fname, "a")
    local c, N = tdf2_coefs(bl, al, fname)
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local dts = { coef_dtype(b, bl), coef_dtype(a, al), x.dtype }
    if zi ~= nil then dts[#dts + 1] = U.arr(zi, fname, "zi").dtype end
    local dt = filter_dtype(table.unpack(dts))
    local x2, back = as_rows(x, ax, dt)
    local zi2 = zi ~= nil and zi_rows(zi, x, ax, N, dt, fname) or nil
    local y, zf = S.lfilter_rows(c, N, x2, zi2, zi ~= nil)
    if zi == nil then return back(y) end
    return back(y), back(zf)
  end)

  --- lfilter_zi on the host: the steady state of a step response
  local function lfilter_zi_host(b, a, fname)
    if cx.any_complex(b) or cx.any_complex(a) then fail(fname .. ": complex coefficients are not supported") end
    b, a = cx.reals(b), cx.reals(a)
    while #a > 1 and a[1] == 0.0 do table.remove(a, 1) end
    if #a < 1 or a[1] == 0 then fail(fname .. ": There must be at least one nonzero `a` coefficient.") end
    if a[1] ~= 1.0 then
      local a0 = a[1]
      for i = 1, #b do b[i] = b[i] / a0 end
      for i = 1, #a do a[i] = a[i] / a0 end
    end
    local n = math.max(#a, #b)
    for i = #a + 1, n do a[i] = 0.0 end
    for i = #b + 1, n do b[i] = 0.0 end
    if n == 1 then return {} end
    -- I - companion(a)^T
    local IA = M.eye(n - 1)
    for i = 1, n - 1 do IA[i][1] = IA[i][1] + a[i + 1] end
    for i = 1, n - 2 do IA[i][i + 1] = IA[i][i + 1] - 1 end
    local rhs = {}
    for i = 1, n - 1 do rhs[i] = { b[i + 1] - a[i + 1] * b[1] } end
    local ok, z = pcall(M.solve, IA, rhs)
    if not ok then fail(fname .. ": the filter has no steady state (a pole at z = 1)") end
    return M.uncol(z)
  end
  S.lfilter_zi_host = lfilter_zi_host

  api.def(signal, [[
scipy.signal.lfilter_zi(b: array_like, a: array_like) -> ndarray
The initial state for lfilter that is the steady state of a unit step
response (scale it by x[1] to start without a transient).
]], function(b, a)
    local fname = name("lfilter_zi")
    return U.up(lfilter_zi_host(vec(b, fname, "b"), vec(a, fname, "a"), fname), "float64")
  end)

  api.def(signal, [[
scipy.signal.lfiltic(b: array_like, a: array_like, y: array_like, x: array_like? = nil) -> ndarray
The lfilter state that continues from past outputs y (y[1] the latest) and
inputs x (x[1] the latest, zeros when nil).
]], function(b, a, y, x)
    local fname = name("lfiltic")
    local bl, al, yl = vec(b, fname, "b"), vec(a, fname, "a"), vec(y, fname, "y")
    local N, Mb = #al - 1, #bl - 1
    local K = math.max(Mb, N)
    local xl = x ~= nil and vec(x, fname, "x") or {}
    for i = #xl + 1, Mb do xl[i] = 0.0 end
    for i = #yl + 1, N do yl[i] = 0.0 end
    local zi = {}
    for m = 1, K do zi[m] = 0.0 end
    for m = 0, Mb - 1 do
      local s = 0
      for j = m + 2, Mb + 1 do s = cx.add(s, cx.mul(bl[j], xl[j - m - 1])) end
      zi[m + 1] = s
    end
    for m = 0, N - 1 do
      local s = 0
      for j = m + 2, N + 1 do s = cx.add(s, cx.mul(al[j], yl[j - m - 1])) end
      zi[m + 1] = cx.sub(zi[m + 1], s)
    end
    local dts = { coef_dtype(b, bl), coef_dtype(a, al), coef_dtype(y, yl) }
    if x ~= nil then dts[4] = coef_dtype(x, xl) end
    local dt = filter_dtype(table.unpack(dts))
    return U.cast(U.up(zi, U.is_complex(dt) and "complex128" or "float64"), dt)
  end)

  ---------------------------------------------------------------------------
  -- filtfilt and the padding it shares with sosfiltfilt

  -- x extended by n samples at both ends of axis (SciPy's odd/even/const_ext)
  local function extend(x, n, axis, kind, fname)
    if n < 1 then return x end
    local len = x.shape[axis]
    local nd = x.ndim
    local function sl(r) return x[U.along(nd, axis, r)] end
    if kind ~= "constant" and n > len - 1 then
      fail(("%s: The extension length n (%d) is too big. It must not exceed x.shape[axis]-1, which is %d.")
        :format(fname, n, len - 1))
    end
    local left, right
    if kind == "constant" then
      local shape = x.shape
      shape[axis] = n
      left = ga.broadcast_to(sl({ 1, 1 }), shape)
      right = ga.broadcast_to(sl({ len, len }), shape)
    else
      local lext = sl({ n + 1, 2, -1 })
      local rext = sl({ len - 1, len - n, -1 })
      if kind == "odd" then
        left = 2 * sl({ 1, 1 }) - lext
        right = 2 * sl({ len, len }) - rext
      else
        left, right = lext, rext
      end
    end
    return ga.concatenate({ left, x, right }, axis)
  end
  S.extend = extend

  local function validate_pad(padtype, padlen, x, axis, ntaps, fname)
    if padtype == false then padtype = nil end   -- SciPy's None: no padding
    if padtype ~= "even" and padtype ~= "odd" and padtype ~= "constant" and padtype ~= nil then
      fail(("%s: Unknown value '%s' given to padtype.  padtype must be 'even', 'odd', 'constant', or None.")
        :format(fname, tostring(padtype)))
    end
    if padtype == nil then padlen = 0 end
    local edge = padlen == nil and ntaps * 3 or padlen
    if x.shape[axis] <= edge then
      fail(("%s: The length of the input vector x must be greater than padlen, which is %d."):format(fname, edge))
    end
    if padtype ~= nil and edge > 0 then return edge, extend(x, edge, axis, padtype, fname) end
    return edge, x
  end
  S.validate_pad = validate_pad

  -- Gustafsson's method: forward-backward and backward-forward passes and
  -- the initial conditions that make them agree (least squares), with the
  -- small matrices (impulse responses of the state) made on the host
  local function filtfilt_gust(c, N, x2, irlen)
    local n = x2.shape[2]
    if N == 0 then
      return x2 * (cx.re(c[1]) ^ 2)
    end
    local m = (irlen == nil or n <= 2 * irlen) and n or irlen
    -- Obs: the response to each unit initial state, m samples
    local Obs = M.zeros(m, N)
    local z = {}
    for i = 1, N do z[i] = i == 1 and 1.0 or 0.0 end
    for t = 1, m do Obs[t][1] = cx.re(S.iir_host_step("tdf2", c, z, 0.0)) end
    for k = 2, N do for t = k, m do Obs[t][k] = Obs[t - k + 1][1] end end
    -- S = lfilter over Obs reversed (each column)
    local Sm = M.zeros(m, N)
    for k = 1, N do
      local zz = {}
      for i = 1, N do zz[i] = 0.0 end
      for t = 1, m do Sm[t][k] = cx.re(S.iir_host_step("tdf2", c, zz, Obs[m - t + 1][k])) end
    end
    local twoN = 2 * N
    local Mt, Wt = M.zeros(2 * m, twoN), M.zeros(2 * m, twoN)
    local full = m == n
    for t = 1, m do
      for k = 1, N do
        local sr, obs, obsr, s = Sm[m - t + 1][k], Obs[t][k], Obs[m - t + 1][k], Sm[t][k]
        if full then
          Mt[t][k], Mt[t][N + k] = sr - obs, obsr - s
          Wt[t][k], Wt[t][N + k] = sr, obsr
        else
          Mt[t][k], Mt[m + t][N + k] = sr - obs, obsr - s
          Wt[t][k], Wt[m + t][N + k] = sr, obsr
        end
      end
    end
    local nr = full and m or 2 * m
    for t = nr + 1, 2 * m do Mt[t], Wt[t] = nil, nil end
    -- pinv(M) = (M^T M)^-1 M^T (M has full column rank)
    local MT = M.T(Mt)
    local pinv = M.solve(M.mul(MT, Mt), MT)
    local dt = x2.dtype
    local rev = function(a) return a[{ {}, { nil, nil, -1 } }] end
    local function lf(v) return (S.lfilter_rows(c, N, ga.ascontiguousarray(v), nil, false)) end
    local y_f = lf(x2)
    local y_fb = rev(lf(rev(y_f)))
    local y_b = rev(lf(rev(x2)))
    local y_bf = lf(y_b)
    local delta = y_bf - y_fb
    if not full then delta = ga.concatenate({ delta[{ {}, { 1, m } }], delta[{ {}, { n - m + 1, n } }] }, 2) end
    local ic = ga.matmul(delta, U.cast(U.up2(pinv, "float64"), dt).T)
    local wic = ga.matmul(ic, U.cast(U.up2(Wt, "float64"), dt).T)
    local y = ga.ascontiguousarray(y_fb)
    if full then return y + wic end
    y[{ {}, { 1, m } }] = y[{ {}, { 1, m } }] + wic[{ {}, { 1, m } }]
    y[{ {}, { n - m + 1, n } }] = y[{ {}, { n - m + 1, n } }] + wic[{ {}, { m + 1, 2 * m } }]
    return y
  end

  api.def(signal, [[
scipy.signal.filtfilt(b: array_like, a: array_like, x: array_like, axis: integer = -1,
                      padtype: "odd"|"even"|"constant"|boolean? = "odd", padlen: integer? = nil,
                      method: "pad"|"gust" = "pad", irlen: integer? = nil) -> ndarray
Zero-phase filtering: lfilter forward, then backward over the result. "pad"
extends x by padlen samples (3 max(#a, #b) by default) at both ends and
starts each pass at lfilter_zi's steady state (padtype false: no padding,
SciPy's None); "gust" picks the initial states by Gustafsson's method.
]], function(b, a, x, axis, padtype, padlen, method, irlen)
    local fname = name("filtfilt")
    local bl, al = vec(b, fname, "b"), vec(a, fname, "a")
    local c, N = tdf2_coefs(bl, al, fname)
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local dt = filter_dtype(coef_dtype(b, bl), coef_dtype(a, al), x.dtype)
    if method == "gust" then
      local x2, back = as_rows(x, ax, dt)
      return back(filtfilt_gust(c, N, x2, irlen))
    end
    local edge, ext = validate_pad(padtype, padlen, x, ax, math.max(#al, #bl), fname)
    local zi = lfilter_zi_host(bl, al, fname)
    local x2, back = as_rows(ext, ax, dt)
    local n = x2.shape[2]
    local y
    if N == 0 then
      y = S.lfilter_rows(c, 0, S.lfilter_rows(c, 0, x2))
    else
      local zrow = U.cast(U.up(zi, "float64"), dt):reshape({ 1, N })
      local y1 = S.lfilter_rows(c, N, x2, ga.ascontiguousarray(zrow * x2[{ {}, { 1, 1 } }]), false)
      local r1 = ga.ascontiguousarray(y1[{ {}, { nil, nil, -1 } }])
      local y2 = S.lfilter_rows(c, N, r1, ga.ascontiguousarray(zrow * r1[{ {}, { 1, 1 } }]), false)
      y = y2[{ {}, { nil, nil, -1 } }]
    end
    if edge > 0 then y = y[{ {}, { edge + 1, n - edge } }] end
    return back(ga.ascontiguousarray(y))
  end)

  ---------------------------------------------------------------------------
  -- second-order sections

  local function sos_coefs(sos, fname)
    local rows = S.sos_in(sos, fname)
    if #rows == 0 then fail(fname .. ": sos must have at least one section") end
    local c = {}
    for si, r in ipairs(rows) do
      if cx.abs(r[4]) == 0 then fail(fname .. ": sos[:, 3] must not be zero") end
      for j = 1, 3 do c[5 * (si - 1) + j] = cx.div(r[j], r[4]) end
      for j = 5, 6 do c[5 * (si - 1) + j - 1] = cx.div(r[j], r[4]) end
    end
    return c, #rows, rows
  end

  local GROUP = 4   -- sections run in one fused scan (a state of 8)

  --- sosfilt on rows: the sections in groups of GROUP, each group one scan
  -- over its cascade; zi3 (n_sections x rows x 2) or nil
  function S.sosfilt_rows(c, ns, x2, zi3, want_zf)
    local rows = x2.shape[1]
    local y = x2
    local zfs = want_zf and {} or nil
    local s = 1
    while s <= ns do
      local g = math.min(GROUP, ns - s + 1)
      local cg = table.move(c, 5 * (s - 1) + 1, 5 * (s + g - 1), 1, {})
      local zig
      if zi3 then
        zig = ga.ascontiguousarray(zi3[{ { s, s + g - 1 }, {}, {} }]:transpose({ 2, 1, 3 })):reshape({ rows, 2 * g })
      end
      local zf
      y, zf = S.iir_run("sos", cg, 2 * g, ga.ascontiguousarray(y), zig, want_zf)
      if want_zf then zfs[#zfs + 1] = zf:reshape({ rows, g, 2 }):transpose({ 2, 1, 3 }) end
      s = s + g
    end
    if want_zf then return y, ga.concatenate(zfs, 1) end
    return y
  end

  -- zi given as (n_sections, ..., 2 at axis, ...): n_sections x rows x 2
  local function sos_zi(zi, x, axis, ns, dt, fname)
    zi = U.arr(zi, fname, "zi")
    local want = { ns }
    for d = 1, x.ndim do want[d + 1] = x.shape[d] end
    want[axis + 1] = 2
    if zi.ndim ~= #want then
      fail(("%s: Invalid zi shape. With axis=%d, an input with shape %s, and an sos array with %d sections, "
        .. "zi must have shape %s, got %s."):format(fname, axis, U.shape_str(x.shape), ns, U.shape_str(want),
        U.shape_str(zi.shape)))
    end
    for d = 1, #want do
      if zi.shape[d] ~= want[d] then
        fail(("%s: Invalid zi shape. zi must have shape %s, got %s."):format(fname, U.shape_str(want),
          U.shape_str(zi.shape)))
      end
    end
    local parts = {}
    for s = 1, ns do
      local r = as_rows(zi[s], axis, dt)
      parts[s] = r:reshape({ 1, r.shape[1], 2 })
    end
    return ga.concatenate(parts, 1)
  end

  local function sos_dtype(sos, rows, x)
    local sdt = U.is_array(sos) and sos.dtype or "float64"
    for _, r in ipairs(rows) do if cx.any_cx(r) then sdt = "complex128" end end
    return filter_dtype(sdt, x.dtype)
  end

  api.def(signal, [[
scipy.signal.sosfilt(sos: array_like, x: array_like, axis: integer = -1, zi: array_like? = nil) -> ndarray[, ndarray]
Filter x with cascaded second-order sections sos (n x 6). With zi (shape
(n_sections, ..., 2, ...): 2 at axis) the initial states; then the final
states are returned too. The sections run fused, 4 at a time, as a scan.
]], function(sos, x, axis, zi)
    local fname = name("sosfilt")
    local c, ns, rows = sos_coefs(sos, fname)
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local dt = sos_dtype(sos, rows, x)
    if zi ~= nil then dt = filter_dtype(dt, U.arr(zi, fname, "zi").dtype) end
    local x2, back = as_rows(x, ax, dt)
    local zi3 = zi ~= nil and sos_zi(zi, x, ax, ns, dt, fname) or nil
    local y, zf = S.sosfilt_rows(c, ns, x2, zi3, zi ~= nil)
    if zi == nil then return back(y) end
    local parts = {}
    for s = 1, ns do
      local zs = back(zf[s])
      local shape = zs.shape
      table.insert(shape, 1, 1)
      parts[s] = zs:reshape(shape)
    end
    return back(y), ga.concatenate(parts, 1)
  end)

  local function sosfilt_zi_host(rows, fname)
    local zi = {}
    local scale = 1.0
    for s, r in ipairs(rows) do
      local b, a = { r[1], r[2], r[3] }, { r[4], r[5], r[6] }
      local z = lfilter_zi_host(b, a, fname)
      zi[s] = { scale * z[1], scale * z[2] }
      scale = scale * (cx.re(b[1]) + cx.re(b[2]) + cx.re(b[3])) / (cx.re(a[1]) + cx.re(a[2]) + cx.re(a[3]))
    end
    return zi
  end

  api.def(signal, [[
scipy.signal.sosfilt_zi(sos: array_like) -> ndarray
The initial states (n_sections x 2) for sosfilt that are the steady state
of a unit step response.
]], function(sos)
    local fname = name("sosfilt_zi")
    return U.up2(sosfilt_zi_host(S.sos_in(sos, fname), fname), "float64", 2)
  end)

  api.def(signal, [[
scipy.signal.sosfiltfilt(sos: array_like, x: array_like, axis: integer = -1,
                         padtype: "odd"|"even"|"constant"|boolean? = "odd", padlen: integer? = nil) -> ndarray
Zero-phase filtering with second-order sections: sosfilt forward and
backward, padded and started at sosfilt_zi's steady state as filtfilt.
]], function(sos, x, axis, padtype, padlen)
    local fname = name("sosfiltfilt")
    local c, ns, rows = sos_coefs(sos, fname)
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local ax = U.axis(axis, x.ndim, fname)
    local dt = sos_dtype(sos, rows, x)
    local ntaps = 2 * ns + 1
    local z2, z5 = 0, 0
    for _, r in ipairs(rows) do
      if cx.abs(r[3]) == 0 then z2 = z2 + 1 end
      if cx.abs(r[6]) == 0 then z5 = z5 + 1 end
    end
    ntaps = ntaps - math.min(z2, z5)
    local edge, ext = validate_pad(padtype, padlen, x, ax, ntaps, fname)
    local zi = U.cast(U.up2(sosfilt_zi_host(rows, fname), "float64", 2), dt):reshape({ ns, 1, 2 })
    local x2, back = as_rows(ext, ax, dt)
    local n = x2.shape[2]
    local y1 = S.sosfilt_rows(c, ns, x2, ga.ascontiguousarray(zi * x2[{ {}, { 1, 1 } }]:reshape({ 1, -1, 1 })), false)
    local r1 = ga.ascontiguousarray(y1[{ {}, { nil, nil, -1 } }])
    local y2 = S.sosfilt_rows(c, ns, r1, ga.ascontiguousarray(zi * r1[{ {}, { 1, 1 } }]:reshape({ 1, -1, 1 })), false)
    local y = y2[{ {}, { nil, nil, -1 } }]
    if edge > 0 then y = y[{ {}, { edge + 1, n - edge } }] end
    return back(ga.ascontiguousarray(y))
  end)

  api.def(signal, [[
scipy.signal.deconvolve(signal: array_like, divisor: array_like) -> ndarray, ndarray
Polynomial division of 1-D sequences: quotient and remainder, with
signal = convolve(divisor, quotient) + remainder.
]], function(sig, divisor)
    local fname = name("deconvolve")
    local num = U.arr(sig, fname, "signal")
    local den = U.arr(divisor, fname, "divisor")
    if num.ndim > 1 then fail(fname .. ": signal must be 1-D.") end
    if den.ndim > 1 then fail(fname .. ": divisor must be 1-D.") end
    num, den = num:reshape({ -1 }), den:reshape({ -1 })
    local N, D = num.size, den.size
    if D > N then return ga.empty(0, "float64"), num end
    local dl = vec(den, fname, "divisor")
    local dt = filter_dtype(num.dtype, den.dtype)
    -- the quotient is the impulse response of num / den: lfilter(1, den, num)
    local c, K = tdf2_coefs({ 1.0 }, dl, fname)
    local q = S.lfilter_rows(c, K, ga.ascontiguousarray(U.cast(num[{ { 1, N - D + 1 } }], dt)):reshape({ 1, -1 }))
    q = q:reshape({ -1 })
    local rem = U.cast(num, dt) - signal.convolve(U.cast(den, dt), q, "full", "direct")
    return q, rem
  end)
end
