--- ga.scipy.signal (cupyx.scipy.signal, API.md §15): signal processing on
-- ndarrays. Each file below adds one family's functions to the module
-- table; S is the private table they share (helpers one file offers
-- another, such as get_window's host part). Filter design runs on the
-- host in Lua (host/*.lua: small arrays, exact as SciPy's), filtering,
-- convolution, resampling and spectra on the device.
local PARTS = {
  "windows",      -- signal.windows and get_window
  "design",       -- IIR design: butter ... ellip, bessel, iirfilter, *ord, conversions, freqz
  "fir",          -- FIR design: firwin, firwin2, firls, minimum_phase, kaiser*
  "lti",          -- state space, lti / dlti systems, simulation, cont2discrete, place_poles
  "conv",         -- convolve, correlate, fftconvolve, oaconvolve, 2-D forms
  "scan",         -- the IIR engine: a linear recurrence as a parallel scan
  "iir",          -- lfilter and the other recursive filters (a parallel scan)
  "order",        -- medfilt, medfilt2d, order_filter, wiener
  "savgol",       -- savgol_coeffs, savgol_filter
  "resample",     -- resample, resample_poly, upfirdn, decimate, detrend, hilbert
  "spectral",     -- periodogram, welch, csd, coherence, stft, istft, spectrogram ...
  "peaks",        -- argrelextrema, find_peaks, peak_prominences, peak_widths
  "waveforms",    -- chirp, square, sawtooth, gausspulse, ... and the wavelets
  "bsplines",     -- cspline1d, qspline1d, ... spline_filter, gauss_spline
  "czt",          -- czt, zoom_fft, CZT, ZoomFFT, czt_points
}

return function(ga)
  local signal = {}
  local S = { U = require("gpuarray.scipy.signal.util")(ga) }
  local fail = S.U.fail
  --- Run a host design function: its {msg = ...} errors become gpuarray
  -- errors naming fname; any other error (a bug) passes unchanged
  function S.host(fname, fn, ...)
    local r = table.pack(pcall(fn, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    local e = r[2]
    if type(e) == "table" and e.msg then fail(fname .. ": " .. e.msg) end
    error(e, 0)
  end
  for _, part in ipairs(PARTS) do require("gpuarray.scipy.signal." .. part)(ga, signal, S) end
  -- the private table, for the specs (API.md: nothing private on public tables)
  require("gpuarray.internal").scipy_signal = S
  return signal
end
