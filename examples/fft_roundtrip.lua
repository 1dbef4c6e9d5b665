--- The seeds' fftpack example: an FFT round trip on 2^20 values and its
-- error, with Parseval's identity as a check of the forward transform.
--   lua5.4 examples/fft_roundtrip.lua
local example = dofile((arg[0]:match("^(.*)/") or ".") .. "/common.lua")
local ga = example.gpuarray()

local n = 1 << 20
ga.random.seed(42)
local x = ga.random.random(n)                          -- float64 in [0, 1)
local X = ga.fft.fft(x)                                -- complex128
local back = ga.real(ga.fft.ifft(X))
local err = ga.abs(back - x):max():item()
print(("fft/ifft round trip on 2^20 float64 values: max error %.3e"):format(err))

-- the real-input pair: rfft keeps n // 2 + 1 frequencies, irfft needs n back
local r = ga.fft.irfft(ga.fft.rfft(x), n)
local rerr = ga.abs(r - x):max():item()
print(("rfft/irfft round trip: max error %.3e"):format(rerr))

-- Parseval: sum |x|^2 = sum |X|^2 / n
local ex = (x * x):sum():item()
local eX = (ga.abs(X) ^ 2):sum():item() / n
print(("Parseval: %.12g vs %.12g (relative difference %.1e)"):format(ex, eX, math.abs(ex - eX) / ex))

-- the plan made by the first call was reused by the others of this shape
local info = ga.fft.cache_info()
print(("plan cache: %d plans, %d hits, %d misses"):format(info.size, info.hits, info.misses))

-- checks: the round trips, Parseval, and five coefficients of the forward
-- transform against the DFT's sum computed here on the CPU
example.check(err < 1e-12 and rerr < 1e-12, "round trip errors %.3g and %.3g", err, rerr)
example.check(math.abs(ex - eX) / ex < 1e-12, "Parseval: %.17g vs %.17g", ex, eX)
local hx = x:totable()
local Xr, Xi = ga.real(X), ga.imag(X)
local got, want = {}, {}
for _, k in ipairs({ 0, 1, 2, 12345, n // 2 }) do   -- 0-based frequencies
  local re, im = 0, 0
  for j = 0, n - 1 do
    local a = -2 * math.pi * ((k * j) % n) / n   -- the angle reduced first: exact for large k * j
    re, im = re + hx[j + 1] * math.cos(a), im + hx[j + 1] * math.sin(a)
  end
  got[#got + 1], want[#want + 1] = Xr:item(k + 1), re
  got[#got + 1], want[#want + 1] = Xi:item(k + 1), im
end
-- |X[k]| is about sqrt(n) / 2 but X[0] is about n / 2: judged against sqrt(n)
example.close(got, want, 1e-9, "fft coefficients", math.sqrt(n))
print("fft_roundtrip: ok")
