--- lfilter, sosfilt and the rest of the recursive filters. The CPU part
-- compiles the scan's kernels, checks the scan's algorithm (an emulation
-- of the three kernels, in Lua, against the sequential recurrence) and the
-- host solves (lfilter_zi, sosfilt_zi) against SciPy; the GPU part checks
-- the device results against a sequential Lua reference on random data
-- and against SciPy's values (ref_iir.py).
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_iir"
local signal = ga.scipy.signal
local S = require("gpuarray.internal").scipy_signal

-- the sequential recurrence in Lua: y and the final state
local function sequential(kind, c, N, x, zi)
  local z = {}
  for i = 1, N do z[i] = zi and zi[i] or 0.0 end
  local y = {}
  for i = 1, #x do y[i] = S.iir_host_step(kind, c, z, x[i]) end
  return y, z
end

-- the three kernels of signal_iir.cuh, emulated with B threads of L samples
local function emulate(kind, c, N, x, zi, B, LOGB, L)
  local n = #x
  local pw = S.iir_powers(kind, c, N, L, 2 * LOGB)
  local function madd(acc, k, v)
    local out = {}
    for i = 1, N do
      local s = acc[i]
      for j = 1, N do s = s + pw[k * N * N + (i - 1) * N + j] * v[j] end
      out[i] = s
    end
    return out
  end
  local function zeros() local z = {} for i = 1, N do z[i] = 0.0 end return z end
  local function chunk_state(base, t)
    local z = zeros()
    for i = 0, L - 1 do
      local g = base + t * L + i
      S.iir_host_step(kind, c, z, g < n and x[g + 1] or 0.0)
    end
    return z
  end
  local function scan(cs, kbase)
    local d, k = 1, 0
    while d < B do
      local new = {}
      for t = 0, B - 1 do new[t] = t >= d and madd(cs[t], kbase + k, cs[t - d]) or cs[t] end
      cs = new
      d, k = d * 2, k + 1
    end
    return cs
  end
  local chunk = B * L
  local nblk = (n + chunk - 1) // chunk
  local agg = {}
  for blk = 0, nblk - 1 do
    local cs = {}
    for t = 0, B - 1 do cs[t] = chunk_state(blk * chunk, t) end
    agg[blk] = scan(cs, 0)[B - 1]
  end
  local cin = {}
  local carry = zi or zeros()
  local tile = 0
  while tile * B < nblk do
    local cs = {}
    for t = 0, B - 1 do
      local b = tile * B + t
      cs[t] = b < nblk and agg[b] or zeros()
    end
    cs[0] = madd(cs[0], LOGB, carry)
    cs = scan(cs, LOGB)
    for t = 0, B - 1 do
      local b = tile * B + t
      if b < nblk then cin[b] = t == 0 and carry or cs[t - 1] end
    end
    carry = cs[B - 1]
    tile = tile + 1
  end
  local y, zf = {}, nil
  for blk = 0, nblk - 1 do
    local base = blk * chunk
    local cs = {}
    for t = 0, B - 1 do cs[t] = chunk_state(base, t) end
    cs[0] = madd(cs[0], 0, cin[blk])
    cs = scan(cs, 0)
    for t = 0, B - 1 do
      local z = {}
      for j = 1, N do z[j] = (t == 0 and cin[blk] or cs[t - 1])[j] end
      for i = 0, L - 1 do
        local g = base + t * L + i
        local out = S.iir_host_step(kind, c, z, g < n and x[g + 1] or 0.0)
        if g < n then y[g + 1] = out end
        if g == n - 1 then zf = { table.unpack(z) } end
      end
    end
  end
  return y, zf
end

local function randlist(n)
  local t = {}
  for i = 1, n do t[i] = math.random() * 2 - 1 end
  return t
end

describe("scipy.signal recursive filters", function()
  it("the scan's algorithm (three kernels emulated) equals the sequential recurrence", function()
    local b, a = REF.butter4.b, REF.butter4.a
    local c, N = S.tdf2_coefs(b, a, "lfilter")
    for _, n in ipairs({ 1, 5, 12, 13, 50, 101 }) do
      local x, zi = randlist(n), randlist(N)
      local want, wz = sequential("tdf2", c, N, x, zi)
      local got, gz = emulate("tdf2", c, N, x, zi, 4, 2, 3)
      C.close(want, got, 1e-12, "tdf2 n=" .. n)
      C.close(wz, gz, 1e-12, "tdf2 zf n=" .. n)
    end
    local sc = {}
    for si, r in ipairs(REF.sos4.sos) do
      for j, v in ipairs({ r[1], r[2], r[3], r[5], r[6] }) do sc[5 * (si - 1) + j] = v / r[4] end
    end
    local x = randlist(77)
    local want = sequential("sos", sc, 2 * #REF.sos4.sos, x)
    C.close(want, (emulate("sos", sc, 2 * #REF.sos4.sos, x, nil, 8, 3, 2)), 1e-12, "sos cascade")
  end)

  it("the Lua twin of the step is lfilter (SciPy's values)", function()
    local c, N = S.tdf2_coefs(REF.butter4.b, REF.butter4.a, "lfilter")
    C.close(REF.lfilter.y, (sequential("tdf2", c, N, REF.lfilter.x)), 1e-12, "lfilter")
  end)

  it("compiles its kernels for every dtype, both recurrences, and the serial path", function()
    for _, dt in ipairs({ "float32", "float64", "complex64", "complex128" }) do
      local m = S.iir_module(dt, "tdf2", 4)
      assert.truthy(m.local_ and m.carry and m.apply)
      S.iir_module(dt, "sos", 8)
    end
    assert.truthy(S.iir_module("float64", "tdf2", 40).serial)
  end)

  it("lfilter_zi, sosfilt_zi and lfiltic's host parts match SciPy", function()
    C.close(REF.lfilter_zi, S.lfilter_zi_host(REF.butter4.b, REF.butter4.a, "lfilter_zi"), 1e-12, "lfilter_zi")
    C.close(REF.lfilter_zi_a0, S.lfilter_zi_host({ 2, 1 }, { 4, -1 }, "lfilter_zi"), 1e-12, "lfilter_zi a0")
  end)

  it("checks its arguments before touching the device", function()
    local x = 0
    helper.assert_gaerror(function() signal.lfilter({ 1 }, { 0, 1 }, x) end, "a[1] == 0")
    helper.assert_gaerror(function() signal.lfilter({}, { 1 }, { 1, 2 }) end, "lfilter")
    helper.assert_gaerror(function() signal.lfilter({ 1 }, { 1 }, { 1, 2 }, { axiz = 1 }) end, "did you mean 'axis'")
    helper.assert_gaerror(function() signal.sosfilt({ { 1, 2, 3 } }, { 1, 2 }) end, "(n_sections, 6)")
    helper.assert_gaerror(function() signal.lfilter_zi({ 1 }, { 0 }) end, "nonzero `a` coefficient")
    helper.assert_gaerror(function() signal.filtfilt({ 1 }, { 1 }, { 1, 2 }, { method = "other" }) end, "method")
    helper.assert_gaerror(function() signal.sosfilt_zi({ { 1, 2, 3, 1, 2 } }) end, "(n_sections, 6)")
  end)

  helper.gpu_it("lfilter: float64 and float32 against the sequential recurrence, long rows (carry), axis", function()
    local c, N = S.tdf2_coefs(REF.butter4.b, REF.butter4.a, "lfilter")
    for _, n in ipairs({ 7, 4096, 4097, 70000 }) do
      local x = randlist(n)
      local want = sequential("tdf2", c, N, x)
      for _, dt in ipairs({ "float64", "float32" }) do
        local y = signal.lfilter(ga.array(REF.butter4.b, dt), ga.array(REF.butter4.a, dt), ga.array(x, dt))
        assert.are.equal(dt, y.dtype)
        assert.are.same({ n }, y.shape)
        C.close(want, y:totable(), dt == "float32" and 1e-4 or 1e-10, ("lfilter %s n=%d"):format(dt, n))
      end
    end
    -- 2-D, along the first axis and the last; Lua lists make it float64
    local rows = { randlist(300), randlist(300), randlist(300) }
    local X = ga.array(rows, "float32")
    local y = signal.lfilter(REF.butter4.b, REF.butter4.a, X)
    assert.are.equal("float64", y.dtype)
    for r = 1, 3 do C.close((sequential("tdf2", c, N, rows[r])), y[r]:totable(), 1e-5, "row " .. r) end
    local yt = signal.lfilter(REF.butter4.b, REF.butter4.a, X.T, 1)
    assert.are.same({ 300, 3 }, yt.shape)
    C.close(y:totable(), yt.T:totable(), 1e-12, "axis 1")
  end)

  helper.gpu_it("lfilter: zi and zf, SciPy's values, FIR only, complex, pure gain", function()
    local L = REF.lfilter
    local y, zf = signal.lfilter(REF.butter4.b, REF.butter4.a, L.x, -1, L.zi)
    C.close(L.y_zi, y:totable(), 1e-12, "lfilter zi")
    C.close(L.zf, zf:totable(), 1e-12, "lfilter zf")
    C.close(L.fir, signal.lfilter({ 1, 2, 3 }, { 2 }, L.x):totable(), 1e-12, "FIR")
    C.close(L.gain, signal.lfilter({ 3 }, { 2 }, L.x):totable(), 1e-14, "gain")
    local yc = signal.lfilter(REF.butter4.b, REF.butter4.a, ga.array(L.xc, "complex128"))
    assert.are.equal("complex128", yc.dtype)
    C.close(L.yc, yc:totable(), 1e-12, "complex x")
    local ycc = signal.lfilter({ { 1, 1 }, { 0.5, 0 } }, { 1, { -0.3, 0.2 } }, L.x)
    C.close(L.ycc, ycc:totable(), 1e-12, "complex coefficients")
    local big = signal.lfilter(L.long_b, { 1.0, -0.5 }, L.x)
    C.close(L.long_y, big:totable(), 1e-10, "a state too large for the scan (serial)")
    local ye = signal.lfilter(REF.butter4.b, REF.butter4.a, ga.zeros(0))
    assert.are.same({ 0 }, ye.shape)
  end)

  helper.gpu_it("sosfilt (one group and several), zi/zf, sosfilt_zi", function()
    local R = REF.sosfilt
    C.close(R.y, signal.sosfilt(R.sos, R.x):totable(), 1e-11, "sosfilt")
    C.close(R.y10, signal.sosfilt(R.sos10, R.x):totable(), 1e-9, "sosfilt 10 sections")
    local y, zf = signal.sosfilt(R.sos, R.x, -1, R.zi)
    C.close(R.y_zi, y:totable(), 1e-11, "sosfilt zi")
    C.close(R.zf, zf:totable(), 1e-11, "sosfilt zf")
    C.close(R.zi_steady, signal.sosfilt_zi(R.sos):totable(), 1e-12, "sosfilt_zi")
    local x = randlist(50000)
    local c = {}
    for si, r in ipairs(R.sos) do
      for j, v in ipairs({ r[1], r[2], r[3], r[5], r[6] }) do c[5 * (si - 1) + j] = v / r[4] end
    end
    local want = sequential("sos", c, 2 * #R.sos, x)
    C.close(want, signal.sosfilt(ga.array(R.sos, "float32"), ga.array(x, "float32")):totable(), 1e-4, "float32")
  end)

  helper.gpu_it("filtfilt (odd, even, constant, padlen, gust), sosfiltfilt, lfiltic, deconvolve", function()
    local R = REF.filtfilt
    local b, a = REF.butter4.b, REF.butter4.a
    for _, pt in ipairs({ "odd", "even", "constant" }) do
      C.close(R[pt], signal.filtfilt(b, a, R.x, -1, pt):totable(), 1e-10, "filtfilt " .. pt)
      C.close(R["sos_" .. pt], signal.sosfiltfilt(REF.sos4.sos, R.x, -1, pt):totable(), 1e-10, "sosfiltfilt " .. pt)
    end
    C.close(R.padlen5, signal.filtfilt(b, a, R.x, { padlen = 5 }):totable(), 1e-10, "padlen")
    C.close(R.gust, signal.filtfilt(b, a, R.x, { method = "gust" }):totable(), 1e-9, "gust")
    C.close(R.gust_irlen, signal.filtfilt(b, a, R.x, { method = "gust", irlen = 20 }):totable(), 1e-9, "gust irlen")
    local X = ga.array({ R.x, R.x })
    C.close({ R.odd, R.odd }, signal.filtfilt(b, a, X):totable(), 1e-10, "2-D")
    C.close(REF.lfiltic, signal.lfiltic(b, a, { 1.0, 0.5, -0.25 }, { 0.3, -0.1 }):totable(), 1e-12, "lfiltic")
    local q, r = signal.deconvolve(REF.deconv.signal, REF.deconv.divisor)
    C.close(REF.deconv.q, q:totable(), 1e-12, "quotient")
    C.close(REF.deconv.r, r:totable(), 1e-12, "remainder")
    helper.assert_gaerror(function() signal.filtfilt(b, a, { 1, 2, 3 }) end, "greater than padlen")
  end)
end)
