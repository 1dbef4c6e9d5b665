--- The seeds' fftpack example: an FFT round trip on 2^20 values and its
-- error, with Parseval's identity as a check of the forward transform.
--   lua5.4 examples/fft_roundtrip.lua
local ga = require "gpuarray"

local n = 1 << 20
ga.random.seed(42)
local x = ga.random.random(n)                          -- float64 in [0, 1)
local X = ga.fft.fft(x)                                -- complex128
local back = ga.real(ga.fft.ifft(X))
local err = ga.abs(back - x):max():item()
print(("fft/ifft round trip on 2^20 float64 values: max error %.3e"):format(err))

-- the real-input pair: rfft keeps n // 2 + 1 frequencies, irfft needs n back
local r = ga.fft.irfft(ga.fft.rfft(x), n)
print(("rfft/irfft round trip: max error %.3e"):format(ga.abs(r - x):max():item()))

-- Parseval: sum |x|^2 = sum |X|^2 / n
local ex = (x * x):sum():item()
local eX = (ga.abs(X) ^ 2):sum():item() / n
print(("Parseval: %.12g vs %.12g (relative difference %.1e)"):format(ex, eX, math.abs(ex - eX) / ex))

-- the plan made by the first call was reused by the others of this shape
local info = ga.fft.cache_info()
print(("plan cache: %d plans, %d hits, %d misses"):format(info.size, info.hits, info.misses))
assert(err < 1e-12, "round trip error too large")
