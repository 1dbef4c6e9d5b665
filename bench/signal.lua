--- scipy.signal cases of the scipy group (/work/shared/bench/KEYS.md; the
-- CuPy twins are in cupy_ref.py): fftconvolve of a 4096^2 float32 image
-- with a 31^2 kernel ("same"), lfilter and sosfilt of 2^24 float32 samples
-- with butter(4, 0.2) cast to float32 (the IIR scan), welch of 2^24 float32
-- samples with SciPy's defaults (the segments kernel, a batched FFT, one
-- reduction).
return function(ga, B)
  local signal = ga.scipy.signal
  local N = B.N
  local rs = ga.random.RandomState(2024)
  local x = rs:random(N, "float32")
  local y = rs:random(N, "float32")
  local img4 = x[{ { 1, 4096 * 4096 } }]:reshape({ 4096, 4096 })
  local ker = y[{ { N - 31 * 31 + 1, N } }]:reshape({ 31, 31 })
  local sig = x[{ { 1, 1 << 24 } }]

  B.case("fftconvolve_f32_4096^2_31^2_ms", function()
    return B.gpu_ms(function() return signal.fftconvolve(img4, ker, "same") end, 10)
  end)
  B.case("lfilter_f32_2^24_ms", function()
    local b, a = signal.butter(4, 0.2)
    b, a = b:astype("float32"), a:astype("float32")
    return B.gpu_ms(function() return signal.lfilter(b, a, sig) end, 10)
  end)
  B.case("sosfilt_f32_2^24_ms", function()
    local sos = signal.butter(4, 0.2, { output = "sos" }):astype("float32")
    return B.gpu_ms(function() return signal.sosfilt(sos, sig) end, 10)
  end)
  B.case("welch_f32_2^24_ms", function()
    return B.gpu_ms(function() return signal.welch(sig) end, 10)
  end)
end
