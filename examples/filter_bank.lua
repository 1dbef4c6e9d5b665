--- A filter bank on the GPU with ga.scipy.signal: three tones in noise,
-- a Butterworth band-pass (second-order sections) run forwards and
-- backwards (sosfiltfilt: no phase shift), the Welch spectrum of the
-- result, and its peaks. Prints what it found, checks it, and draws the
-- spectrum into filter_bank_spectrum.pgm (a grayscale image any viewer
-- opens; PGM is a one-line header and the pixel bytes).
--   lua5.4 examples/filter_bank.lua [output.pgm]
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local signal = ga.scipy.signal
local fs = 1000.0                      -- samples per second
local n = 1 << 18                      -- 262 seconds of signal
local tones = { 50.0, 120.0, 310.0 }   -- Hz; the band-pass keeps the first two

-- the signal: the tones (amplitudes 1, 0.5, 1) in white noise of deviation 2
local t = ga.arange(0, n, 1, "float64") / fs
local x = ga.random.RandomState(7):normal(0, 2, n)
for i, f in ipairs(tones) do x = x + (i == 2 and 0.5 or 1.0) * ga.sin((2 * math.pi * f) * t) end

-- a 6th-order Butterworth band-pass, 40 to 200 Hz, as second-order sections
local sos = signal.butter(6, { 40, 200 }, "bandpass", { output = "sos", fs = fs })
print(("band-pass: %d second-order sections"):format(sos.shape[1]))
local y = signal.sosfiltfilt(sos, x)

-- the Welch spectrum (Hann windows of 2048 samples, half overlap)
local f, P = signal.welch(y, fs, { nperseg = 2048 })
local fl, Pl = f:totable(), P:totable()

-- the peaks that stand out: prominence above 5% of the largest power
local top = P:max():item()
local peaks, props = signal.find_peaks(P, { prominence = 0.05 * top })
local found = {}
for i, p in ipairs(peaks:totable()) do          -- 1-based positions into f and P
  found[i] = fl[p]
  print(("peak %d: %7.2f Hz, power %.3e, prominence %.3e"):format(i, fl[p], Pl[p], props.prominences[i]))
end

-- check: the two tones in the pass band, none of the stopped one
local bin = fs / 2048
assert(#found == 2, ("expected 2 peaks, found %d"):format(#found))
assert(math.abs(found[1] - tones[1]) <= bin and math.abs(found[2] - tones[2]) <= bin,
  ("peaks at %.2f and %.2f Hz, expected %.0f and %.0f"):format(found[1], found[2], tones[1], tones[2]))
local stop = 0
for i, fv in ipairs(fl) do
  if math.abs(fv - tones[3]) <= bin then stop = math.max(stop, Pl[i]) end
end
assert(stop < 1e-3 * Pl[peaks:totable()[1]], "the 310 Hz tone should be filtered out")
print(("310 Hz after the filter: %.2e (%.0f dB below the 50 Hz peak)"):format(stop,
  10 * math.log(Pl[peaks:totable()[1]] / stop, 10)))

-- the picture: one column per frequency bin up to 500 Hz, log power upwards
local W, H = #Pl, 256
local lo, hi = math.huge, -math.huge
local logp = {}
for i, v in ipairs(Pl) do
  logp[i] = math.log(math.max(v, 1e-30), 10)
  lo, hi = math.min(lo, logp[i]), math.max(hi, logp[i])
end
local rows = {}
for r = 1, H do
  local level = hi - (r - 1) / (H - 1) * (hi - lo)
  local bytes = {}
  for c = 1, W do
    local v = logp[c] >= level and 230 or 20
    for _, pf in ipairs(found) do
      if math.abs(fl[c] - pf) < 0.5 * bin then v = 255 end
    end
    bytes[c] = string.char(v)
  end
  rows[r] = table.concat(bytes)
end
local path = arg and arg[1] or "filter_bank_spectrum.pgm"
local out = assert(io.open(path, "wb"))
out:write(("P5\n%d %d\n255\n"):format(W, H), table.concat(rows))
out:close()
print(("wrote %s (%d x %d): the Welch spectrum, log scale"):format(path, W, H))
print("filter_bank: ok")
