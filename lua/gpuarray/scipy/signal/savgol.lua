--- savgol_filter (cupyx.scipy.signal's): the Savitzky-Golay coefficients
-- from the host (host/fir.lua) applied by ndimage's convolve1d semantics
-- along the axis (conv.lua's S.conv1d_axis); mode "interp" fits the
-- polynomial to each end's window instead, which is a small matrix
-- product (the fit is a linear projection, host/fir.lua's edge matrix).
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local R = require("gpuarray.scipy.signal.host.fir")
  local U = S.U
  local fail = U.fail

  api.def(signal, [[
scipy.signal.savgol_filter(x: array_like, window_length: integer, polyorder: integer, deriv: integer = 0,
                           delta: number = 1.0, axis: integer = -1,
                           mode: "mirror"|"constant"|"nearest"|"wrap"|"interp" = "interp",
                           cval: number = 0.0) -> ndarray
Smooth (or differentiate, deriv > 0) x with a Savitzky-Golay filter: a
polynomial of degree polyorder fitted over window_length points. "interp"
fits the ends' windows; the other modes extend x past its ends as ndimage does.
]], function(x, window_length, polyorder, deriv, delta, axis, mode, cval)
    local fname = "scipy.signal.savgol_filter"
    local coeffs = S.host(fname, R.savgol_coeffs, window_length, polyorder, deriv, delta, nil, "conv")
    x = U.arr(x, fname, "x")
    if x.ndim == 0 then fail(fname .. ": x must be at least 1-D") end
    local dt = (x.dtype == "float32" or x.dtype == "float64") and x.dtype or "float64"
    x = U.cast(x, dt)
    local ax = U.axis(axis, x.ndim, fname)
    local n = x.shape[ax]
    local w = U.up(coeffs, "float64")
    if mode ~= "interp" then return S.conv1d_axis(x, w, ax, mode, cval) end
    if window_length > n then
      fail(fname .. ": If mode is 'interp', window_length must be less than or equal to the size of x.")
    end
    local y = S.conv1d_axis(x, w, ax, "constant", 0)
    local half = window_length // 2
    if half == 0 then return y end
    local left, right = {}, {}
    for i = 1, half do
      left[i] = i - 1
      right[i] = window_length - half + i - 1
    end
    local WL = U.up2(S.host(fname, R.savgol_edge_matrix, window_length, polyorder, deriv, delta, left), "float64")
    local WR = U.up2(S.host(fname, R.savgol_edge_matrix, window_length, polyorder, deriv, delta, right), "float64")
    -- the ends: rows x window_length samples times the edge matrices
    local x2, back = S.as_rows(x, ax, dt)
    local y2 = (S.as_rows(y, ax, dt))
    local lo = ga.matmul(x2[{ {}, { 1, window_length } }], U.cast(WL, dt).T)
    local hi = ga.matmul(x2[{ {}, { n - window_length + 1, n } }], U.cast(WR, dt).T)
    y2[{ {}, { 1, half } }] = lo
    y2[{ {}, { n - half + 1, n } }] = hi
    return back(y2)
  end)
end
