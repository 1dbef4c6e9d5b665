--- Waveforms and wavelets (cupyx.scipy.signal's chirp, gausspulse,
-- sawtooth, square, sweep_poly, unit_impulse, max_len_seq, morlet,
-- morlet2, ricker, qmf, cwt): elementwise formulas on the device (lazily
-- fused ufunc chains), SciPy's dtype rules (float32 times stay float32).
-- max_len_seq's shift register is sequential and runs on the host.
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local U = S.U
  local fail, vec = U.fail, U.vec

  local function name(n) return "scipy.signal." .. n end
  local pi = math.pi

  -- t as a float array (float32 kept, complex kept, others float64)
  local function times(t, fname)
    t = U.arr(t, fname, "t")
    if t.dtype == "float32" or t.dtype == "float64" then return t end
    return U.cast(t, "float64")
  end

  api.def(signal, [[
scipy.signal.sawtooth(t: array_like, width: number|array_like = 1) -> ndarray
A sawtooth of period 2 pi: rising from -1 to 1 over width of the period,
falling back over the rest (width 0.5: a triangle); NaN where width is
outside [0, 1].
]], function(t, width)
    local fname = name("sawtooth")
    t = times(t, fname)
    local w = width
    if type(w) ~= "number" then w = U.arr(w, fname, "width") end
    if type(w) == "number" and (w > 1 or w < 0) then return ga.full(t.shape, 0 / 0, t.dtype) end
    local tmod = ga.mod(t, 2 * pi)
    local rising = tmod / (pi * w) - 1
    local falling = (pi * (w + 1) - tmod) / (pi * (1 - w))
    local y = ga.where(ga.less(tmod, w * (2 * pi)), rising, falling)
    if type(w) ~= "number" then
      y = ga.where(ga.logical_or(ga.greater(w, 1), ga.less(w, 0)), 0 / 0, y)
    end
    return U.cast(y, t.dtype)
  end)

  api.def(signal, [[
scipy.signal.square(t: array_like, duty: number|array_like = 0.5) -> ndarray
A square wave of period 2 pi: 1 for the duty fraction of the period, -1
after; NaN where duty is outside [0, 1].
]], function(t, duty)
    local fname = name("square")
    t = times(t, fname)
    if type(duty) ~= "number" then duty = U.arr(duty, fname, "duty") end
    if type(duty) == "number" and (duty > 1 or duty < 0) then return ga.full(t.shape, 0 / 0, t.dtype) end
    local tmod = ga.mod(t, 2 * pi)
    local y = ga.where(ga.less(tmod, duty * (2 * pi)), 1.0, -1.0)
    if type(duty) ~= "number" then
      y = ga.where(ga.logical_or(ga.greater(duty, 1), ga.less(duty, 0)), 0 / 0, y)
    end
    return U.cast(y, t.dtype)
  end)

  api.def(signal, [[
scipy.signal.gausspulse(t: array_like|"cutoff", fc: number = 1000, bw: number = 0.5, bwr: number = -6,
                        tpr: number = -60, retquad: boolean = false, retenv: boolean = false) -> ndarray
A Gaussian-modulated sinusoid at fc with fractional bandwidth bw (at bwr
dB): the in-phase part, and with retquad the quadrature part, with retenv
the envelope. t = "cutoff" returns the time (a number) where the envelope
falls to tpr dB.
]], function(t, fc, bw, bwr, tpr, retquad, retenv)
    local fname = name("gausspulse")
    if fc < 0 then fail(("%s: Center frequency (fc=%.2f) must be >=0."):format(fname, fc)) end
    if bw <= 0 then fail(("%s: Fractional bandwidth (bw=%.2f) must be > 0."):format(fname, bw)) end
    if bwr >= 0 then fail(("%s: Reference level for bandwidth (bwr=%.2f) must be < 0 dB"):format(fname, bwr)) end
    local ref = 10.0 ^ (bwr / 20.0)
    local a = -(pi * fc * bw) ^ 2 / (4.0 * math.log(ref))
    if type(t) == "string" then
      if t ~= "cutoff" then fail(fname .. ": If `t` is a string, it must be 'cutoff'") end
      if tpr >= 0 then fail(fname .. ": Reference level for time cutoff must be < 0 dB") end
      local tref = 10.0 ^ (tpr / 20.0)
      return math.sqrt(-math.log(tref) / a)
    end
    t = times(t, fname)
    local yenv = ga.exp(-a * t * t)
    local yI = yenv * ga.cos((2 * pi * fc) * t)
    if not retquad and not retenv then return yI end
    if not retquad then return yI, yenv end
    local yQ = yenv * ga.sin((2 * pi * fc) * t)
    if not retenv then return yI, yQ end
    return yI, yQ, yenv
  end)

  local METHODS = { linear = "linear", lin = "linear", li = "linear", quadratic = "quadratic", quad = "quadratic",
                    q = "quadratic", logarithmic = "logarithmic", log = "logarithmic", lo = "logarithmic",
                    hyperbolic = "hyperbolic", hyp = "hyperbolic" }

  api.def(signal, [[
scipy.signal.chirp(t: array_like, f0: number, t1: number, f1: number, method: string = "linear", phi: number = 0,
                   vertex_zero: boolean = true) -> ndarray
A frequency-swept cosine from f0 (at t = 0) to f1 (at t1): "linear",
"quadratic", "logarithmic" or "hyperbolic" sweep; phi a phase in degrees.
]], function(t, f0, t1, f1, method, phi, vertex_zero)
    local fname = name("chirp")
    local m = METHODS[method]
    if not m then
      fail(("%s: method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of '%s' was given.")
        :format(fname, tostring(method)))
    end
    if m == "logarithmic" and f0 * f1 <= 0.0 then
      fail(fname .. ": For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.")
    end
    if m == "hyperbolic" and (f0 == 0 or f1 == 0) then
      fail(fname .. ": For a hyperbolic chirp, f0 and f1 must be nonzero.")
    end
    t = times(t, fname)
    local phase
    if m == "linear" then
      local beta = (f1 - f0) / t1
      phase = (2 * pi) * (f0 * t + (0.5 * beta) * t * t)
    elseif m == "quadratic" then
      local beta = (f1 - f0) / (t1 ^ 2)
      if vertex_zero then
        phase = (2 * pi) * (f0 * t + beta * (t * t * t) / 3)
      else
        local d = t1 - t
        phase = (2 * pi) * (f1 * t + beta * (d * d * d - t1 ^ 3) / 3)
      end
    elseif m == "logarithmic" then
      if f0 == f1 then
        phase = (2 * pi * f0) * t
      else
        local beta = t1 / math.log(f1 / f0)
        phase = (2 * pi * beta * f0) * (ga.power(f1 / f0, t / t1) - 1.0)
      end
    else
      if f0 == f1 then
        phase = (2 * pi * f0) * t
      else
        local sing = -f1 * t1 / (f0 - f1)
        phase = (2 * pi * (-sing * f0)) * ga.log(ga.abs(1 - t / sing))
      end
    end
    return ga.cos(phase + phi * pi / 180)
  end)

  api.def(signal, [[
scipy.signal.sweep_poly(t: array_like, poly: array_like, phi: number = 0) -> ndarray
A cosine whose instantaneous frequency is the polynomial poly(t) (highest
power first); phi a phase in degrees.
]], function(t, poly, phi)
    local fname = name("sweep_poly")
    t = times(t, fname)
    local p = vec(poly, fname, "poly")
    -- the phase is 2 pi times poly's integral (constant 0), by Horner's rule
    local n = #p
    local ip = {}
    for i, c in ipairs(p) do ip[i] = cx.re(c) / (n - i + 1) end
    ip[n + 1] = 0.0
    local acc = t * 0 + ip[1]
    for i = 2, n + 1 do acc = acc * t + ip[i] end
    return ga.cos((2 * pi) * acc + phi * pi / 180)
  end)

  api.def(signal, [[
scipy.signal.unit_impulse(shape: shape, idx: integer|list|"mid"? = nil, dtype: dtype = "float64") -> ndarray
An array of zeros with a 1 at idx: 1-based positions (one per axis, or one
for all), the first element by default, "mid" the middle (shape // 2 + 1).
]], function(shape, idx, dtype)
    local fname = name("unit_impulse")
    local shp = type(shape) == "number" and { shape } or shape
    local out = ga.zeros(shp, dtype)
    local key = {}
    for d = 1, #shp do
      local v
      if idx == nil then v = 1
      elseif idx == "mid" then v = shp[d] // 2 + 1
      elseif type(idx) == "number" then v = idx
      else v = idx[d] end
      if math.type(v) ~= "integer" then fail(fname .. ": idx must hold integers") end
      key[d] = v
    end
    if out.size == 0 then fail(fname .. ": index out of bounds for an empty array") end
    out[key] = 1
    return out
  end)

  local MLS_TAPS = { [2] = { 1 }, [3] = { 2 }, [4] = { 3 }, [5] = { 3 }, [6] = { 5 }, [7] = { 6 }, [8] = { 7, 6, 1 },
                     [9] = { 5 }, [10] = { 7 }, [11] = { 9 }, [12] = { 11, 10, 4 }, [13] = { 12, 11, 8 },
                     [14] = { 13, 12, 2 }, [15] = { 14 }, [16] = { 15, 13, 4 }, [17] = { 14 }, [18] = { 11 },
                     [19] = { 18, 17, 14 }, [20] = { 17 }, [21] = { 19 }, [22] = { 21 }, [23] = { 18 },
                     [24] = { 23, 22, 17 }, [25] = { 22 }, [26] = { 25, 24, 20 }, [27] = { 26, 25, 22 },
                     [28] = { 25 }, [29] = { 27 }, [30] = { 29, 28, 7 }, [31] = { 28 }, [32] = { 31, 30, 10 } }

  --- the shift register of max_len_seq (host): the sequence and the final state
  local MAX_MLS = 1 << 24
  function S.mls_host(nbits, state, length, taps)
    local n_taps = #taps
    local idx = 0
    local seq = {}
    for i = 1, length do
      local fb = state[idx + 1]
      seq[i] = fb
      for ti = 1, n_taps do fb = fb ~ state[(taps[ti] + idx) % nbits + 1] end
      state[idx + 1] = fb
      idx = (idx + 1) % nbits
    end
    local rolled = {}
    for i = 1, nbits do rolled[i] = state[(i - 1 + idx) % nbits + 1] end
    return seq, rolled
  end

  api.def(signal, [[
scipy.signal.max_len_seq(nbits: integer, state: array_like? = nil, length: integer? = nil, taps: array_like? = nil)
                         -> ndarray, ndarray
A maximum length sequence (int8 zeros and ones) from a linear feedback
shift register of nbits bits (length 2^nbits - 1 by default), and the
register's final state. taps (bit positions, values) default to SciPy's table.
]], function(nbits, state, length, taps)
    local fname = name("max_len_seq")
    local tp
    if taps == nil then
      tp = MLS_TAPS[nbits]
      if not tp then fail(fname .. ": nbits must be between 2 and 32 if taps is None") end
    else
      local seen = {}
      tp = {}
      for _, v in ipairs(vec(taps, fname, "taps")) do
        v = math.tointeger(cx.re(v))
        if v == nil or v < 0 or v > nbits then
          fail(fname .. ": taps must be non-empty with values between zero and nbits (inclusive)")
        end
        if not seen[v] then
          seen[v] = true
          tp[#tp + 1] = v
        end
      end
      if #tp < 1 then fail(fname .. ": taps must be non-empty with values between zero and nbits (inclusive)") end
      table.sort(tp, function(a, b) return a > b end)
    end
    -- (a register past 62 bits has no count of states in an integer)
    if nbits < 1 or nbits > 62 then fail(fname .. ": nbits must be between 1 and 62") end
    local n_max = (1 << nbits) - 1
    if length == nil then length = n_max
    elseif length < 0 then fail(fname .. ": length must be greater than or equal to 0") end
    -- the register runs on the host into a Lua list: bounded (2^24, as
    -- windows' points) rather than run for hours
    if length > MAX_MLS then
      fail(("%s: length %d is more than the %d steps the host register runs"):format(fname, length, MAX_MLS))
    end
    local st = {}
    if state == nil then
      for i = 1, nbits do st[i] = 1 end
    else
      for i, v in ipairs(vec(state, fname, "state")) do st[i] = cx.re(v) ~= 0 and 1 or 0 end
    end
    if #st ~= nbits then fail(fname .. ": state must be a 1-D array of size nbits") end
    local any = false
    for _, v in ipairs(st) do any = any or v ~= 0 end
    if not any then fail(fname .. ": state must not be all zeros") end
    local seq, final = S.mls_host(nbits, st, length, tp)
    local sa = #seq > 0 and ga.array(seq, "int8") or ga.empty(0, "int8")
    return sa, ga.array(final, "int8")
  end)

  ---------------------------------------------------------------------------
  -- wavelets

  api.def(signal, [[
scipy.signal.morlet(M: integer, w: number = 5.0, s: number = 1.0, complete: boolean = true) -> ndarray
The complex Morlet wavelet of M points over [-2 pi s, 2 pi s] (complex128).
]], function(M, w, s, complete)
    if M == 0 then return ga.empty(0, "complex128") end
    local x = ga.linspace(-s * 2 * pi, s * 2 * pi, M)
    local re, im = ga.cos(w * x), ga.sin(w * x)
    if complete then re = re - math.exp(-0.5 * w ^ 2) end
    local g = ga.exp(-0.5 * x * x) * pi ^ -0.25
    return U.complex(re * g, im * g)
  end)

  api.def(signal, [[
scipy.signal.morlet2(M: integer, s: number, w: number = 5) -> ndarray
The complex Morlet wavelet for cwt: M points, width s, w cycles (complex128).
]], function(M, s, w)
    if M == 0 then return ga.empty(0, "complex128") end
    local x = (ga.arange(0, M, 1, "float64") - (M - 1.0) / 2) / s
    local g = ga.exp(-0.5 * x * x) * (pi ^ -0.25 * math.sqrt(1 / s))
    return U.complex(ga.cos(w * x) * g, ga.sin(w * x) * g)
  end)

  api.def(signal, [[
scipy.signal.ricker(points: integer, a: number) -> ndarray
The Ricker ("Mexican hat") wavelet of width a over points samples.
]], function(points, a)
    local A = 2 / (math.sqrt(3 * a) * pi ^ 0.25)
    local v = ga.arange(0, points, 1, "float64") - (points - 1.0) / 2
    local xsq = v * v
    return A * (1 - xsq / (a * a)) * ga.exp(-xsq / (2 * a * a))
  end)

  api.def(signal, [[
scipy.signal.qmf(hk: array_like) -> ndarray
The quadrature mirror filter of the lowpass filter hk: reversed, every other sign flipped.
]], function(hk)
    local fname = name("qmf")
    local h = U.arr(hk, fname, "hk")
    if h.ndim ~= 1 then fail(fname .. ": hk must be 1-D") end
    local n = h.size
    local sg = {}
    for k = 1, n do sg[k] = (k % 2 == 1) and 1.0 or -1.0 end
    if n == 0 then return h:copy() end
    return h[{ { nil, nil, -1 } }] * ga.array(sg, "float64")
  end)

  api.def(signal, [[
scipy.signal.cwt(data: array_like, wavelet: callable, widths: array_like, dtype: dtype? = nil, ...) -> ndarray
The continuous wavelet transform of 1-D data: one row per width, data
convolved ("same") with wavelet(N, width, ...) reversed and conjugated
(N = min(10 width, #data)); extra values are passed to wavelet.
]], function(data, wavelet, widths, dtype, ...)
    local fname = name("cwt")
    local x = U.arr(data, fname, "data")
    if x.ndim ~= 1 then fail(fname .. ": data must be 1-D") end
    local ws = vec(widths, fname, "widths")
    local extra = table.pack(...)
    local rows = {}
    local complex = false
    for i, wd in ipairs(ws) do
      wd = cx.re(wd)
      local N = math.min(math.floor(10 * wd), x.size)
      local wv = U.arr(api.call_user(wavelet, N, wd, table.unpack(extra, 1, extra.n)), fname, "the wavelet")
      complex = complex or U.is_complex(wv.dtype)
      rows[i] = S.convolve(x, S.reverse_conj(wv), "same", "auto", fname)
    end
    local dt = dtype or (complex and "complex128" or "float64")
    if type(dt) == "table" then dt = dt.name end
    local out = ga.empty({ #ws, x.size }, dt)
    for i, r in ipairs(rows) do
      if not U.is_complex(dt) and U.is_complex(r.dtype) then r = ga.real(r) end
      out[i] = r
    end
    return out
  end)
end
