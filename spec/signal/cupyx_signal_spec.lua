--- ga.signal (cupyx.signal): against references written here in Lua
-- (SciPy has no twin of these), on random data.
local helper = require "helper"
local ga = helper.ga
local internal = require "gpuarray.internal"
local C = require "scipy.signal.check"
local signal = ga.signal

local function randlist(n)
  local t = {}
  for i = 1, n do t[i] = math.random() * 2 - 1 end
  return t
end

describe("ga.signal (cupyx.signal)", function()
  it("compiles its kernels, checks its arguments, cfar_alpha", function()
    local k = internal.cupyx_signal_kernel
    k("freq_shift"):compile("float64", "float64", "complex128")
    k("cfar1"):compile("float32", "int64", "int64", "int64", "float32", "float32")
    k("cfar2"):compile("float32", "int64", "int64", "int64", "int64", "int64", "int64", "float32", "float32")
    k("conv3o"):compile("float32", "float32", "int64", "int64", "int64", "float32")
    k("channelize"):compile("complex64", "complex64", "int64", "int64", "complex64")
    C.close(16 * (1e-3 ^ (-1 / 16) - 1), signal.cfar_alpha(1e-3, 16), 1e-15, "cfar_alpha")
    helper.assert_gaerror(function() signal.convolve1d3o({ 1, 2 }, { 1 }, "full") end, "mode")
  end)

  helper.gpu_it("freq_shift, ca_cfar (1-D, 2-D), convolve1d3o", function()
    local x = randlist(37)
    local r = signal.freq_shift(ga.array(x), 50.0, 1000.0)
    assert.are.equal("complex128", r.dtype)
    local want = {}
    for n = 0, #x - 1 do
      local c = -2 * math.pi * 50 / 1000 * n
      want[n + 1] = { x[n + 1] * math.cos(c), x[n + 1] * math.sin(c) }
    end
    C.close(want, r:totable(), 1e-12, "freq_shift")
    -- CA-CFAR 1-D: the mean of the reference cells around each cell, times alpha
    local a = {}
    for i = 1, 64 do a[i] = math.random() end
    a[30] = 40
    local g, ref = 2, 4
    local mask, det = signal.ca_cfar(ga.array(a, "float32"), g, ref, 1e-3)
    local alpha = signal.cfar_alpha(1e-3, 2 * ref)
    local m = mask:totable()
    for xi = 1, 64 do
      local x0 = xi - 1
      local w = 0
      if x0 >= g + ref and x0 < 64 - g - ref then
        for j = x0 - g - ref, x0 + g + ref do
          if math.abs(j - x0) > g then w = w + a[j + 1] end
        end
        w = w * alpha / (2 * ref)
      end
      assert(math.abs(m[xi] - w) <= 1e-4 * math.max(1, w), ("ca_cfar mask[%d]: %g, want %g"):format(xi, m[xi], w))
    end
    assert.is_true(det:totable()[30])
    -- 2-D
    local img = {}
    for i = 1, 12 do img[i] = randlist(15) end
    local m2 = signal.ca_cfar(ga.array(img, "float32"), { 1, 2 }, { 2, 1 }, 1e-2):totable()
    local N = 2 * 2 * (2 * 1 + 2 * 2 + 1) + 2 * (2 * 1 + 1) * 1
    local al = signal.cfar_alpha(1e-2, N)
    for i = 0, 11 do
      for j = 0, 14 do
        local w = 0
        if i >= 3 and i < 9 and j >= 3 and j < 12 then
          for p = i - 3, i + 3 do
            for q = j - 3, j + 3 do
              if not (math.abs(p - i) <= 1 and math.abs(q - j) <= 2) then w = w + img[p + 1][q + 1] end
            end
          end
          w = w * al / N
        end
        assert(math.abs(m2[i + 1][j + 1] - w) <= 1e-4 * math.max(1, math.abs(w)), ("ca_cfar 2-D [%d][%d]"):format(i, j))
      end
    end
    -- convolve1d3o
    local s, k = randlist(20), {}
    for xx = 1, 3 do
      k[xx] = {}
      for yy = 1, 2 do k[xx][yy] = randlist(4) end
    end
    local got = signal.convolve1d3o(ga.array(s), ga.array(k)):totable()
    assert.are.equal(20 - 4 + 1, #got)
    for n = 0, #got - 1 do
      local acc = 0
      for xx = 0, 2 do for yy = 0, 1 do for zz = 0, 3 do
        acc = acc + s[n + 3 - xx] * s[n + 2 - yy] * s[n + 4 - zz] * k[xx + 1][yy + 1][zz + 1]
      end end end
      assert(math.abs(got[n + 1] - acc) < 1e-10, "convolve1d3o " .. n)
    end
  end)

  helper.gpu_it("pulse_compression, pulse_doppler, channelize_poly", function()
    local x = {}
    for i = 1, 4 do x[i] = randlist(16) end
    local tmpl = randlist(5)
    local X, T = ga.array(x), ga.array(tmpl)
    local pc = signal.pulse_compression(X, T)
    local want = ga.fft.ifft(ga.fft.fft(X, 16) * ga.conj(ga.fft.fft(T, 16)), 16)
    C.close(want:totable(), pc:totable(), 1e-12, "pulse_compression")
    local pcn = signal.pulse_compression(X, T, true, "hann")
    -- a named window is get_window(window, n, fftbins = false): the symmetric one (CuPy's)
    local w = ga.scipy.signal.windows.hann(5, true)
    local tw = T * w
    tw = tw / ga.linalg.norm(tw)
    C.close(ga.fft.ifft(ga.fft.fft(X, 16) * ga.conj(ga.fft.fft(tw, 16)), 16):totable(), pcn:totable(), 1e-12,
      "pulse_compression normalized, windowed")
    local pd = signal.pulse_doppler(X, "hamming", 8)
    local hw = ga.scipy.signal.windows.hamming(4, true):reshape({ 4, 1 })
    C.close(ga.fft.fft(X * hw, 8, 1):totable(), pd:totable(), 1e-12, "pulse_doppler")
    -- channelizer: y[b][c] = conj(sum_t h[t C + c] x[(b - t) C + C - 1 - c]), then conj(fft).T
    local C_, xs, hs = 4, randlist(32), randlist(12)
    local got = signal.channelize_poly(ga.array(xs), ga.array(hs), C_)
    assert.are.same({ 4, 8 }, got.shape)
    local y = {}
    for b = 0, 7 do
      y[b + 1] = {}
      for c = 0, C_ - 1 do
        local acc = 0
        for t = 0, 2 do
          if t <= b then acc = acc + hs[t * C_ + c + 1] * xs[(b - t) * C_ + (C_ - 1 - c) + 1] end
        end
        y[b + 1][c + 1] = acc
      end
    end
    local ref = ga.conj(ga.fft.fft(ga.array(y))).T
    C.close(ref:totable(), got:totable(), 1e-10, "channelize_poly")
  end)
end)
