--- Linear time-invariant systems (cupyx.scipy.signal's lti, dlti,
-- TransferFunction, ZerosPolesGain, StateSpace, lsim, impulse, step,
-- freqresp, bode, dlsim, dimpulse, dstep, dfreqresp, dbode, tf2ss, ss2tf,
-- zpk2ss, ss2zpk, abcd_normalize, cont2discrete, place_poles).
-- A system is a small object: its coefficients are kept on the host
-- (host/lti.lua does the algebra and the simulations, which are
-- sequential recurrences over few states) and read as ndarrays, as SciPy
-- returns arrays: sys.num, sys.den, sys.zeros, sys.poles, sys.gain (a
-- number), sys.A .. sys.D, sys.dt (nil for continuous systems).
return function(ga, signal, S)
  local api = require("gpuarray.api")
  local cx = require("gpuarray.scipy.signal.host.cx")
  local M = require("gpuarray.scipy.signal.host.mat")
  local Z = require("gpuarray.scipy.signal.host.zpk")
  local F = require("gpuarray.scipy.signal.host.freq")
  local L = require("gpuarray.scipy.signal.host.lti")
  local U = S.U
  local fail, vec = U.fail, U.vec

  local function name(n) return "scipy.signal." .. n end

  -- host matrices from an array_like (a number is 1 x 1, a list 1 x n)
  local function mat(v, fname, what)
    if v == nil then return nil end
    if type(v) == "number" then return { { v } } end
    if U.is_array(v) then
      if v.ndim == 0 then return { { v:item() } } end
      if v.ndim == 1 then
        local l = vec(v, fname, what)
        return #l == 0 and {} or { cx.reals(l) }
      end
    elseif type(v) == "table" and type(v[1]) ~= "table" then
      local l = vec(v, fname, what)
      return #l == 0 and {} or { cx.reals(l) }
    end
    local m = U.mat(v, fname, what)
    for i, r in ipairs(m) do m[i] = cx.reals(r) end
    return m
  end

  local SYS = {}       -- the methods
  local KINDS = {}     -- metatable -> "tf" | "zpk" | "ss"
  local TF, ZPK, SSM = {}, {}, {}
  KINDS[TF], KINDS[ZPK], KINDS[SSM] = "tf", "zpk", "ss"
  local HOST = setmetatable({}, { __mode = "k" })   -- system -> its host data

  local function is_sys(v) return type(v) == "table" and KINDS[getmetatable(v)] ~= nil end

  local function new(kind, h)
    local mt = kind == "tf" and TF or (kind == "zpk" and ZPK or SSM)
    local obj = setmetatable({}, mt)
    HOST[obj] = h
    return obj
  end

  local function up_rows(rows)
    if #rows == 0 then return ga.empty({ 0, 0 }, "float64") end
    return U.up2(rows, "float64")
  end

  -- the public fields, made from the host data on each read
  local function field(self, k)
    local h = HOST[self]
    local kind = KINDS[getmetatable(self)]
    if k == "dt" then return h.dt end
    if kind == "tf" then
      if k == "num" then return h.rows and U.up2(h.num) or U.up(h.num) end
      if k == "den" then return U.up(h.den) end
      if k == "inputs" then return 1 end
      if k == "outputs" then return h.rows and #h.num or 1 end
    elseif kind == "zpk" then
      if k == "zeros" then return U.up(h.z) end
      if k == "poles" then return U.up(h.p) end
      if k == "gain" then return cx.re(h.k) end
      if k == "inputs" or k == "outputs" then return 1 end
    else
      if k == "A" then return up_rows(h.A) end
      if k == "B" then return up_rows(h.B) end
      if k == "C" then return up_rows(h.C) end
      if k == "D" then return up_rows(h.D) end
      if k == "inputs" then return #h.B > 0 and #h.B[1] or (#h.D > 0 and #h.D[1] or 0) end
      if k == "outputs" then return #h.C > 0 and #h.C or #h.D end
    end
    if k == "zeros" then return field(SYS.to_zpk(self), "zeros") end
    if k == "poles" then return field(SYS.to_zpk(self), "poles") end
    return SYS[k]
  end
  for _, mt in ipairs({ TF, ZPK, SSM }) do
    mt.__index = field
    mt.__newindex = function() fail("scipy.signal: systems are read-only (make a new one)") end
  end
  TF.__tostring = function(s)
    local h = HOST[s]
    return ("TransferFunction%s(num = %d, den = %d, dt = %s)"):format(h.dt and "Discrete" or "Continuous",
      #h.num, #h.den, tostring(h.dt))
  end
  ZPK.__tostring = function(s)
    local h = HOST[s]
    return ("ZerosPolesGain%s(%d zeros, %d poles, dt = %s)"):format(h.dt and "Discrete" or "Continuous", #h.z, #h.p,
      tostring(h.dt))
  end
  SSM.__tostring = function(s)
    local h = HOST[s]
    return ("StateSpace%s(%d states, dt = %s)"):format(h.dt and "Discrete" or "Continuous", #h.A, tostring(h.dt))
  end

  -- a system's sampling time: nil (continuous), a number, or true (a
  -- discrete system whose step is left unspecified: 1)
  local function dt_arg(dt, fname)
    if dt ~= nil and dt ~= true and type(dt) ~= "number" then
      fail(("%s: dt must be a number or true, got %s"):format(fname, dt == false and "false" or "a " .. type(dt)))
    end
    return dt
  end

  --- The host data of a system argument: an lti / dlti object, or a list
  -- {num, den}, {z, p, k} or {A, B, C, D} (discrete: with dt last)
  local function make_tf(num, den, dt, fname)
    dt = dt_arg(dt, fname)
    local rows = (U.is_array(num) and num.ndim == 2) or (type(num) == "table" and not U.is_array(num)
      and type(num[1]) == "table" and rawlen(num[1]) ~= 2)
    local n = rows and mat(num, fname, "num") or vec(num, fname, "num")
    local nb, nd = S.host(fname, Z.normalize, n, vec(den, fname, "den"))
    return new("tf", { num = rows and nb or cx.reals(nb), den = cx.reals(nd), rows = rows, dt = dt })
  end
  local function make_zpk(z, p, k, dt, fname)
    dt = dt_arg(dt, fname)
    return new("zpk", { z = vec(z, fname, "z"), p = vec(p, fname, "p"), k = U.num(k, fname, "k"), dt = dt })
  end
  local function make_ss(A, B, C, D, dt, fname)
    dt = dt_arg(dt, fname)
    local a, b, c, d = S.host(fname, L.abcd_normalize, mat(A, fname, "A"), mat(B, fname, "B"), mat(C, fname, "C"),
                              mat(D, fname, "D"))
    return new("ss", { A = a, B = b, C = c, D = d, dt = dt })
  end

  local function system_of(args, n, dt, fname)
    if n == 1 and is_sys(args[1]) then return args[1] end
    if n == 2 then return make_tf(args[1], args[2], dt, fname) end
    if n == 3 then return make_zpk(args[1], args[2], args[3], dt, fname) end
    if n == 4 then return make_ss(args[1], args[2], args[3], args[4], dt, fname) end
    fail(fname .. ": `system` needs to be an instance of `lti` or have 2, 3 or 4 arguments.")
  end

  -- a system argument of the simulation functions
  local function sys_arg(system, discrete, fname)
    if is_sys(system) then
      local dt = HOST[system].dt
      if discrete and dt == nil then fail(fname .. " can only be used with discrete-time dlti systems.") end
      if not discrete and dt ~= nil then fail(fname .. " can only be used with continuous-time systems.") end
      return system
    end
    if type(system) ~= "table" then fail(fname .. ": system must be an lti object or a list of arrays") end
    local n = rawlen(system)
    if discrete then
      return system_of(system, n - 1, system[n], fname)
    end
    return system_of(system, n, nil, fname)
  end

  ---------------------------------------------------------------------------
  -- conversions of the objects

  local function as_ss(self)
    local h = HOST[self]
    local kind = KINDS[getmetatable(self)]
    if kind == "ss" then return h end
    local fname = "scipy.signal.lti"
    if kind == "tf" then
      local a, b, c, d = S.host(fname, L.tf2ss, h.num, h.den)
      return { A = a, B = b, C = c, D = d, dt = h.dt }
    end
    local a, b, c, d = S.host(fname, L.zpk2ss, h.z, h.p, h.k)
    return { A = a, B = b, C = c, D = d, dt = h.dt }
  end

  function SYS.to_ss(self) return new("ss", as_ss(self)) end
  function SYS.to_tf(self, input)
    local h = HOST[self]
    local kind = KINDS[getmetatable(self)]
    if kind == "tf" then return new("tf", h) end
    if kind == "zpk" then
      local b, a = Z.zpk2tf(h.z, h.p, h.k)
      return new("tf", { num = cx.reals(b), den = cx.reals(a), dt = h.dt })
    end
    local num, den = S.host("scipy.signal.StateSpace.to_tf", L.ss2tf, h.A, h.B, h.C, h.D, input or 0)
    local rows = type(num[1]) == "table"
    if rows and #num == 1 then num, rows = num[1], false end
    return new("tf", { num = num, den = den, rows = rows, dt = h.dt })
  end
  function SYS.to_zpk(self, input)
    local h = HOST[self]
    local kind = KINDS[getmetatable(self)]
    if kind == "zpk" then return new("zpk", h) end
    if kind == "tf" then
      if h.rows then fail("scipy.signal: to_zpk needs a single-output system") end
      local z, p, k = S.host("scipy.signal.TransferFunction.to_zpk", Z.tf2zpk, h.num, h.den)
      return new("zpk", { z = z, p = p, k = k, dt = h.dt })
    end
    local z, p, k = S.host("scipy.signal.StateSpace.to_zpk", L.ss2zpk, h.A, h.B, h.C, h.D, input or 0)
    return new("zpk", { z = z, p = p, k = k, dt = h.dt })
  end

  local function discretize(h_ss, dt, method, alpha, fname)
    local ad, bd, cd, dd = S.host(fname, L.c2d_ss, h_ss.A, h_ss.B, h_ss.C, h_ss.D, dt, method, alpha)
    return { A = ad, B = bd, C = cd, D = dd, dt = dt }
  end

  function SYS.to_discrete(self, dt, method, alpha)
    local fname = "scipy.signal.lti.to_discrete"
    if HOST[self].dt ~= nil then fail(fname .. ": the system is already discrete") end
    local d = new("ss", discretize(as_ss(self), dt, method or "zoh", alpha, fname))
    local kind = KINDS[getmetatable(self)]
    if kind == "tf" then return SYS.to_tf(d) end
    if kind == "zpk" then return SYS.to_zpk(d) end
    return d
  end

  ---------------------------------------------------------------------------
  -- constructors

  api.def(signal, [[
scipy.signal.lti(...: array_like) -> object
A continuous-time system from {num, den} (2 arrays), {zeros, poles, gain}
(3) or {A, B, C, D} (4): a TransferFunction, ZerosPolesGain or StateSpace.
]], function(...)
    return system_of({ ... }, select("#", ...), nil, name("lti"))
  end)

  api.def(signal, [[
scipy.signal.dlti(..., *, dt: number|boolean = true) -> object
A discrete-time system (sampling time dt) from 2, 3 or 4 arrays as lti.
]], function(dt, ...)
    return system_of({ ... }, select("#", ...), dt, name("dlti"))
  end)

  api.def(signal, [[
scipy.signal.TransferFunction(..., *, dt: number|boolean? = nil) -> object
A system as num(s) / den(s) (discrete, in z, when dt is given); from
another system, its transfer function.
]], function(dt, ...)
    local n = select("#", ...)
    local a = { ... }
    if n == 1 and is_sys(a[1]) then return SYS.to_tf(a[1]) end
    if n ~= 2 then fail(name("TransferFunction") .. ": needs num and den") end
    return make_tf(a[1], a[2], dt, name("TransferFunction"))
  end)

  api.def(signal, [[
scipy.signal.ZerosPolesGain(..., *, dt: number|boolean? = nil) -> object
A system as zeros, poles and gain; from another system, its zeros, poles and gain.
]], function(dt, ...)
    local n = select("#", ...)
    local a = { ... }
    if n == 1 and is_sys(a[1]) then return SYS.to_zpk(a[1]) end
    if n ~= 3 then fail(name("ZerosPolesGain") .. ": needs zeros, poles and gain") end
    return make_zpk(a[1], a[2], a[3], dt, name("ZerosPolesGain"))
  end)

  api.def(signal, [[
scipy.signal.StateSpace(..., *, dt: number|boolean? = nil) -> object
A system as x' = A x + B u, y = C x + D u (discrete: x[k+1] = ...); from
another system, its state space.
]], function(dt, ...)
    local n = select("#", ...)
    local a = { ... }
    if n == 1 and is_sys(a[1]) then return SYS.to_ss(a[1]) end
    if n ~= 4 then fail(name("StateSpace") .. ": needs A, B, C and D") end
    return make_ss(a[1], a[2], a[3], a[4], dt, name("StateSpace"))
  end)

  ---------------------------------------------------------------------------
  -- conversions as functions

  api.def(signal, [[
scipy.signal.tf2ss(num: array_like, den: array_like) -> ndarray, ndarray, ndarray, ndarray
A transfer function's state space (controller canonical form): A, B, C, D.
]], function(num, den)
    local fname = name("tf2ss")
    local n = S.num_in(num, fname)
    local a, b, c, d = S.host(fname, L.tf2ss, n, vec(den, fname, "den"))
    return up_rows(a), up_rows(b), up_rows(c), up_rows(d)
  end)

  api.def(signal, [[
scipy.signal.ss2tf(A: array_like, B: array_like, C: array_like, D: array_like, input: integer = 0) -> ndarray, ndarray
The transfer function (num one row per output, den) from input number input (0-based, as SciPy's).
]], function(A, B, C, D, input)
    local fname = name("ss2tf")
    local num, den = S.host(fname, L.ss2tf, mat(A, fname, "A"), mat(B, fname, "B"), mat(C, fname, "C"),
                            mat(D, fname, "D"), input)
    if type(num[1]) == "table" then return U.up2(num, "float64"), U.up(den, "float64") end
    return U.up({ num }, "float64"), U.up(den, "float64")
  end)

  api.def(signal, [[
scipy.signal.zpk2ss(z: array_like, p: array_like, k: number) -> ndarray, ndarray, ndarray, ndarray
Zeros, poles and gain to a state space A, B, C, D.
]], function(z, p, k)
    local fname = name("zpk2ss")
    local a, b, c, d = S.host(fname, L.zpk2ss, vec(z, fname, "z"), vec(p, fname, "p"), k)
    return up_rows(a), up_rows(b), up_rows(c), up_rows(d)
  end)

  api.def(signal, [[
scipy.signal.ss2zpk(A: array_like, B: array_like, C: array_like, D: array_like,
                    input: integer = 0) -> ndarray, ndarray, number
A state space's zeros, poles and gain (input 0-based, as SciPy's).
]], function(A, B, C, D, input)
    local fname = name("ss2zpk")
    local z, p, k = S.host(fname, L.ss2zpk, mat(A, fname, "A"), mat(B, fname, "B"), mat(C, fname, "C"),
                           mat(D, fname, "D"), input)
    return U.up(z), U.up(p), cx.re(k)
  end)

  api.def(signal, [[
scipy.signal.abcd_normalize(A: array_like? = nil, B: array_like? = nil, C: array_like? = nil,
                            D: array_like? = nil) -> ndarray, ndarray, ndarray, ndarray
The four state-space matrices, the missing ones zero with the shapes the others imply.
]], function(A, B, C, D)
    local fname = name("abcd_normalize")
    local a, b, c, d = S.host(fname, L.abcd_normalize, mat(A, fname, "A"), mat(B, fname, "B"), mat(C, fname, "C"),
                              mat(D, fname, "D"))
    return up_rows(a), up_rows(b), up_rows(c), up_rows(d)
  end)

  api.def(signal, [[
scipy.signal.cont2discrete(system: list|object, dt: number,
                           method: "zoh"|"foh"|"gbt"|"bilinear"|"tustin"|"euler"|"forward_diff"
                                   |"backward_diff"|"impulse" = "zoh", alpha: number? = nil) -> ...
Discretize a continuous system: {num, den} gives num, den, dt; {z, p, k}
gives z, p, k, dt; {A, B, C, D} gives Ad, Bd, Cd, Dd, dt; an lti object its
discrete twin.
]], function(system, dt, method, alpha)
    local fname = name("cont2discrete")
    if is_sys(system) then return SYS.to_discrete(system, dt, method, alpha) end
    if type(system) ~= "table" then fail(fname .. ": system must be an lti object or a list of arrays") end
    local n = rawlen(system)
    if n < 2 or n > 4 then
      fail(fname .. ": First argument must either be a tuple of 2 (tf), 3 (zpk), or 4 (ss) arrays.")
    end
    local sys = system_of(system, n, nil, fname)
    local d = discretize(as_ss(sys), dt, method, alpha, fname)
    if n == 4 then return up_rows(d.A), up_rows(d.B), up_rows(d.C), up_rows(d.D), dt end
    local num, den = S.host(fname, L.ss2tf, d.A, d.B, d.C, d.D, 0)
    if n == 2 then return U.up2(num, "float64"), U.up(den, "float64"), dt end
    local z, p, k = S.host(fname, Z.tf2zpk, num[1], den)
    return U.up(z), U.up(p), cx.re(k), dt
  end)

  ---------------------------------------------------------------------------
  -- simulation

  local function rows_of(v, fname, what, n_expected)
    local m = mat(v, fname, what)
    if #m == 1 and n_expected and n_expected > 1 and #m[1] == n_expected then
      local t = {}
      for i, x in ipairs(m[1]) do t[i] = { x } end
      return t
    end
    return m
  end

  -- SciPy squeezes: a single output / state gives 1-D
  local function squeezed(rows)
    if #rows == 0 then return ga.empty(0, "float64") end
    if #rows[1] == 1 then
      local l = {}
      for i, r in ipairs(rows) do l[i] = r[1] end
      return U.up(l, "float64")
    end
    return U.up2(rows, "float64")
  end

  local function lsim(system, Uin, T, X0, interp, fname)
    if T == nil then fail(fname .. ": T is required") end
    local s = sys_arg(system, false, fname)
    local h = as_ss(s)
    local t = vec(T, fname, "T")
    for i, v in ipairs(t) do t[i] = cx.re(v) end
    if #t == 0 then fail(fname .. ": T must be a rank-1 array.") end
    local u
    if Uin ~= nil and not (type(Uin) == "number" and Uin == 0) then
      local nin = #h.B > 0 and #h.B[1] or 0
      if type(Uin) == "number" then
        u = {}
        for i = 1, #t do u[i] = { Uin } end
      else
        local m = mat(Uin, fname, "U")
        if #m == 1 and nin >= 1 then
          u = {}
          for i, x in ipairs(m[1]) do u[i] = { x } end
          if nin > 1 and #m[1] == nin and #t == 1 then u = m end
        else
          u = m
        end
      end
    end
    local x0 = X0 ~= nil and cx.reals(vec(X0, fname, "X0")) or nil
    local y, x = S.host(fname, L.lsim, h.A, h.B, h.C, h.D, u, t, x0, interp)
    return U.up(t, "float64"), squeezed(y), squeezed(x)
  end

  api.def(signal, [[
scipy.signal.lsim(system: list|object, U: array_like|number?, T: array_like?, X0: array_like? = nil,
                  interp: boolean = true) -> ndarray, ndarray, ndarray
Simulate a continuous system's response to input U (one row per time in
T, uniform steps) from state X0: T, the outputs, the states (one output /
state gives 1-D arrays). interp: U linear between the samples, else held.
]], function(system, Uin, T, X0, interp)
    return lsim(system, Uin, T, X0, interp, name("lsim"))
  end)

  -- the default times are a Lua list and the simulation steps through
  -- them on the host: bounded (2^24 steps, as windows' points) rather than
  -- run for hours
  local MAX_STEPS = 1 << 24
  local function steps(n, fname, what)
    if n ~= nil and n > MAX_STEPS then
      fail(("%s: %s = %d is more than the %d steps a response is simulated for"):format(fname, what, n, MAX_STEPS))
    end
    return n
  end

  local function response(system, X0, T, N, kind, fname)
    N = steps(N, fname, "N")
    local s = sys_arg(system, false, fname)
    local h = as_ss(s)
    local t
    if T == nil then
      t = S.host(fname, L.default_times, h.A, N or 100)
    else
      t = cx.reals(vec(T, fname, "T"))
    end
    local x0 = X0 ~= nil and cx.reals(vec(X0, fname, "X0")) or nil
    local y
    if kind == "impulse" then
      local b = {}
      for i = 1, #h.A do b[i] = h.B[i][1] + (x0 and x0[i] or 0) end
      y = S.host(fname, L.lsim, h.A, h.B, h.C, h.D, nil, t, b, false)
    else
      local u = {}
      for i = 1, #t do u[i] = { 1.0 } end
      y = S.host(fname, L.lsim, h.A, h.B, h.C, h.D, u, t, x0, false)
    end
    return U.up(t, "float64"), squeezed(y)
  end

  api.def(signal, [[
scipy.signal.impulse(system: list|object, X0: array_like? = nil, T: array_like? = nil, N: integer? = nil)
                     -> ndarray, ndarray
A continuous system's impulse response: times (N = 100 over 7 time
constants by default) and the output.
]], function(system, X0, T, N) return response(system, X0, T, N, "impulse", name("impulse")) end)

  api.def(signal, [[
scipy.signal.step(system: list|object, X0: array_like? = nil, T: array_like? = nil, N: integer? = nil)
                  -> ndarray, ndarray
A continuous system's step response: times and the output.
]], function(system, X0, T, N) return response(system, X0, T, N, "step", name("step")) end)

  local function freqresp(system, w, n, fname)
    local s = sys_arg(system, false, fname)
    local kind = KINDS[getmetatable(s)]
    if kind == "ss" then s = SYS.to_zpk(s) end
    local h = HOST[s]
    if h.rows then fail(fname .. ": freqresp() requires a SISO (single input, single output) system.") end
    local worN = w ~= nil and cx.reals(vec(w, fname, "w")) or n
    local ww, hh
    if KINDS[getmetatable(s)] == "tf" then
      ww, hh = S.host(fname, F.freqs, h.num, h.den, worN)
    else
      ww, hh = S.host(fname, F.freqs_zpk, h.z, h.p, h.k, worN)
    end
    return ww, hh
  end

  api.def(signal, [[
scipy.signal.freqresp(system: list|object, w: array_like? = nil, n: integer = 10000) -> ndarray, ndarray
A continuous system's frequency response: w (rad/s; n around the poles and zeros by default) and H(jw).
]], function(system, w, n)
    local ww, hh = freqresp(system, w, n, name("freqresp"))
    return U.up(ww, "float64"), U.up(hh, "complex128")
  end)

  -- magnitude (dB) and unwrapped phase (degrees) of host responses
  local function mag_phase(hh)
    local mag, ph = {}, {}
    for i, v in ipairs(hh) do
      mag[i] = 20.0 * math.log(cx.abs(v), 10)
      ph[i] = math.atan(cx.im(v), cx.re(v))
    end
    -- numpy.unwrap
    local out = { ph[1] }
    local acc = 0.0
    for i = 2, #ph do
      local dd = ph[i] - ph[i - 1]
      local ddmod = ((dd + math.pi) % (2 * math.pi)) - math.pi
      if ddmod == -math.pi and dd > 0 then ddmod = math.pi end
      local corr = ddmod - dd
      if math.abs(dd) < math.pi then corr = 0 end
      acc = acc + corr
      out[i] = ph[i] + acc
    end
    for i = 1, #out do out[i] = out[i] * 180.0 / math.pi end
    return mag, out
  end

  api.def(signal, [[
scipy.signal.bode(system: list|object, w: array_like? = nil, n: integer = 100) -> ndarray, ndarray, ndarray
A continuous system's Bode plot: w, the magnitude (dB) and the phase (degrees).
]], function(system, w, n)
    local ww, hh = freqresp(system, w, n, name("bode"))
    local mag, ph = mag_phase(hh)
    return U.up(ww, "float64"), U.up(mag, "float64"), U.up(ph, "float64")
  end)

  local function dlsim(system, u, t, x0, fname)
    local s = sys_arg(system, true, fname)
    local is_ss = KINDS[getmetatable(s)] == "ss"
    local h = as_ss(s)
    local dt = h.dt == true and 1.0 or h.dt
    local nin = #h.B > 0 and #h.B[1] or 1
    local urows = rows_of(u, fname, "u", nin)
    if #urows == 1 and nin == 1 then
      local t2 = {}
      for i, v in ipairs(urows[1]) do t2[i] = { v } end
      urows = t2
    end
    local tl = t ~= nil and cx.reals(vec(t, fname, "t")) or nil
    local x0l = x0 ~= nil and cx.reals(vec(x0, fname, "x0")) or nil
    local tout, yout, xout = S.host(fname, L.dlsim, h.A, h.B, h.C, h.D, dt, urows, tl, x0l)
    return U.up(tout, "float64"), U.up2(yout, "float64"), is_ss and up_rows(xout) or nil, h
  end

  api.def(signal, [[
scipy.signal.dlsim(system: list|object, u: array_like, t: array_like? = nil, x0: array_like? = nil)
                   -> ndarray, ndarray[, ndarray]
Simulate a discrete system (a dlti, or a list ending in dt): times, outputs
(time x outputs) and, for a StateSpace, the states. With t, u is sampled
linearly at the system's steps up to t's last time.
]], function(system, u, t, x0)
    local tout, yout, xout = dlsim(system, u, t, x0, name("dlsim"))
    if xout then return tout, yout, xout end
    return tout, yout
  end)

  local function dresponse(system, x0, t, n, kind, fname)
    n = steps(n, fname, "n")
    local s = sys_arg(system, true, fname)
    local h = as_ss(s)
    local dt = h.dt == true and 1.0 or h.dt
    n = n or 100
    local tl
    if t == nil then
      tl = {}
      for i = 0, n - 1 do tl[i + 1] = i * (n * dt / n) end
    else
      tl = cx.reals(vec(t, fname, "t"))
    end
    local nin = #h.B > 0 and #h.B[1] or 1
    local x0l = x0 ~= nil and cx.reals(vec(x0, fname, "x0")) or nil
    local outs = {}
    local tout
    for i = 1, nin do
      local u = {}
      for q = 1, #tl do
        u[q] = {}
        for k = 1, nin do u[q][k] = 0.0 end
        if kind == "impulse" then
          if q == 1 then u[q][i] = 1.0 end
        else
          u[q][i] = 1.0
        end
      end
      local to, yo = S.host(fname, L.dlsim, h.A, h.B, h.C, h.D, dt, u, tl, x0l)
      outs[i], tout = U.up2(yo, "float64"), to
    end
    return U.up(tout, "float64"), outs
  end

  api.def(signal, [[
scipy.signal.dimpulse(system: list|object, x0: array_like? = nil, t: array_like? = nil, n: integer? = nil)
                      -> ndarray, table
A discrete system's impulse response: times and a list of outputs, one per input.
]], function(system, x0, t, n) return dresponse(system, x0, t, n, "impulse", name("dimpulse")) end)

  api.def(signal, [[
scipy.signal.dstep(system: list|object, x0: array_like? = nil, t: array_like? = nil, n: integer? = nil)
                   -> ndarray, table
A discrete system's step response: times and a list of outputs, one per input.
]], function(system, x0, t, n) return dresponse(system, x0, t, n, "step", name("dstep")) end)

  local function dfreqresp(system, w, n, whole, fname)
    local s = sys_arg(system, true, fname)
    if KINDS[getmetatable(s)] == "ss" then s = SYS.to_tf(s) end
    local h = HOST[s]
    if h.rows then fail(fname .. ": dfreqresp requires a SISO (single input, single output) system.") end
    local worN = w ~= nil and cx.reals(vec(w, fname, "w")) or n
    if KINDS[getmetatable(s)] == "tf" then
      -- z to z^-1: the shorter of num, den padded in front
      local num, den = {}, {}
      local diff = #h.num - #h.den
      for _ = 1, -diff do num[#num + 1] = 0.0 end
      for _, v in ipairs(h.num) do num[#num + 1] = v end
      for _ = 1, diff do den[#den + 1] = 0.0 end
      for _, v in ipairs(h.den) do den[#den + 1] = v end
      -- (a call that is not last in a list gives one value: keep both)
      local ww, hh = S.host(fname, F.freqz, num, den, worN, whole, nil, false)
      return ww, hh, s
    end
    local ww, hh = S.host(fname, F.freqz_zpk, h.z, h.p, h.k, worN, whole, nil)
    return ww, hh, s
  end
  S.lti_dfreqresp = dfreqresp   -- the CPU specs call the host part

  api.def(signal, [[
scipy.signal.dfreqresp(system: list|object, w: array_like? = nil, n: integer = 10000, whole: boolean = false)
                       -> ndarray, ndarray
A discrete system's frequency response: w (radians per sample) and H(e^jw).
]], function(system, w, n, whole)
    local ww, hh = dfreqresp(system, w, n, whole, name("dfreqresp"))
    return U.up(ww, "float64"), U.up(hh, "complex128")
  end)

  api.def(signal, [[
scipy.signal.dbode(system: list|object, w: array_like? = nil, n: integer = 100) -> ndarray, ndarray, ndarray
A discrete system's Bode plot: w / dt, magnitude (dB), phase (degrees).
]], function(system, w, n)
    local fname = name("dbode")
    local ww, hh, s = dfreqresp(system, w, n, false, fname)
    local dt = HOST[s].dt
    if dt == true then dt = 1.0 end
    local mag, ph = mag_phase(hh)
    for i = 1, #ww do ww[i] = ww[i] / dt end
    return U.up(ww, "float64"), U.up(mag, "float64"), U.up(ph, "float64")
  end)

  ---------------------------------------------------------------------------
  -- methods

  local function method(decl, impl) api.def(SYS, decl, impl) end
  method([[
scipy.signal.lti:impulse(X0: array_like? = nil, T: array_like? = nil, N: integer? = nil) -> ndarray, ndarray
The impulse response (impulse / dimpulse on this system).
]], function(self, X0, T, N)
    if HOST[self].dt ~= nil then return dresponse(self, X0, T, N, "impulse", "scipy.signal.dimpulse") end
    return response(self, X0, T, N, "impulse", "scipy.signal.impulse")
  end)
  method([[
scipy.signal.lti:step(X0: array_like? = nil, T: array_like? = nil, N: integer? = nil) -> ndarray, ndarray
The step response (step / dstep on this system).
]], function(self, X0, T, N)
    if HOST[self].dt ~= nil then return dresponse(self, X0, T, N, "step", "scipy.signal.dstep") end
    return response(self, X0, T, N, "step", "scipy.signal.step")
  end)
  method([[
scipy.signal.lti:output(U: array_like|number?, T: array_like?, X0: array_like? = nil) -> ndarray, ndarray, ndarray
The response to an input (lsim / dlsim on this system).
]], function(self, Uin, T, X0)
    if HOST[self].dt ~= nil then
      local tout, yout, xout = dlsim(self, Uin, T, X0, "scipy.signal.dlsim")
      return tout, yout, xout
    end
    return lsim(self, Uin, T, X0, true, "scipy.signal.lsim")
  end)
  method([[
scipy.signal.lti:freqresp(w: array_like? = nil, n: integer = 10000, whole: boolean = false) -> ndarray, ndarray
The frequency response (freqresp / dfreqresp on this system).
]], function(self, w, n, whole)
    local ww, hh
    if HOST[self].dt ~= nil then ww, hh = dfreqresp(self, w, n, whole, "scipy.signal.dfreqresp")
    else ww, hh = freqresp(self, w, n, "scipy.signal.freqresp") end
    return U.up(ww, "float64"), U.up(hh, "complex128")
  end)
  method([[
scipy.signal.lti:bode(w: array_like? = nil, n: integer = 100) -> ndarray, ndarray, ndarray
The Bode plot (bode / dbode on this system).
]], function(self, w, n)
    if HOST[self].dt ~= nil then return signal.dbode(self, w, n) end
    return signal.bode(self, w, n)
  end)
  api.def(SYS, [[
scipy.signal.lti:to_tf(input: integer = 0) -> object
This system as a TransferFunction (from input number input of a state space, 0-based).
]], SYS.to_tf)
  api.def(SYS, [[
scipy.signal.lti:to_zpk(input: integer = 0) -> object
This system as a ZerosPolesGain.
]], SYS.to_zpk)
  api.def(SYS, [[
scipy.signal.lti:to_ss() -> object
This system as a StateSpace.
]], SYS.to_ss)
  api.def(SYS, [[
scipy.signal.lti:to_discrete(dt: number, method: string = "zoh", alpha: number? = nil) -> object
A continuous system discretized with sampling time dt (cont2discrete's methods).
]], SYS.to_discrete)
  api.class("scipy.signal.lti", SYS)
  -- the methods' self type is the class name of their declarations
  api.set_type("scipy.signal.lti", is_sys)

  -- StateSpace arithmetic: series (*), parallel (+), negation
  local function ss_binop(op)
    return function(a, b)
      local function h_of(v)
        if is_sys(v) then return as_ss(v) end
        return nil
      end
      local ha, hb = h_of(a), h_of(b)
      if op == "mul" then
        if ha and hb then
          if ha.dt ~= hb.dt then fail("scipy.signal: Cannot multiply systems with different `dt`.") end
          local n1, n2 = #ha.A, #hb.A
          local A = M.zeros(n1 + n2, n1 + n2)
          local BC = M.mul(ha.B, hb.C)
          for i = 1, n1 do
            for j = 1, n1 do A[i][j] = ha.A[i][j] end
            for j = 1, n2 do A[i][n1 + j] = BC[i][j] end
          end
          for i = 1, n2 do for j = 1, n2 do A[n1 + i][n1 + j] = hb.A[i][j] end end
          local Bm = {}
          for _, r in ipairs(M.mul(ha.B, hb.D)) do Bm[#Bm + 1] = r end
          for _, r in ipairs(hb.B) do Bm[#Bm + 1] = r end
          local DC = M.mul(ha.D, hb.C)
          local Cm = {}
          for i = 1, #ha.C do
            Cm[i] = {}
            for _, v in ipairs(ha.C[i]) do Cm[i][#Cm[i] + 1] = v end
            for _, v in ipairs(DC[i]) do Cm[i][#Cm[i] + 1] = v end
          end
          return new("ss", { A = A, B = Bm, C = Cm, D = M.mul(ha.D, hb.D), dt = ha.dt })
        end
        if ha then
          local k = type(b) == "number" and b or U.num(b, "scipy.signal.StateSpace", "factor")
          return new("ss", { A = ha.A, B = M.scale(ha.B, k), C = ha.C, D = M.scale(ha.D, k), dt = ha.dt })
        end
        local k = type(a) == "number" and a or U.num(a, "scipy.signal.StateSpace", "factor")
        return new("ss", { A = hb.A, B = hb.B, C = M.scale(hb.C, k), D = M.scale(hb.D, k), dt = hb.dt })
      end
      -- add
      if ha and hb then
        if ha.dt ~= hb.dt then fail("scipy.signal: Cannot add systems with different `dt`.") end
        local n1, n2 = #ha.A, #hb.A
        local A = M.zeros(n1 + n2, n1 + n2)
        for i = 1, n1 do for j = 1, n1 do A[i][j] = ha.A[i][j] end end
        for i = 1, n2 do for j = 1, n2 do A[n1 + i][n1 + j] = hb.A[i][j] end end
        local Bm = {}
        for _, r in ipairs(ha.B) do Bm[#Bm + 1] = r end
        for _, r in ipairs(hb.B) do Bm[#Bm + 1] = r end
        local Cm = {}
        for i = 1, #ha.C do
          Cm[i] = {}
          for _, v in ipairs(ha.C[i]) do Cm[i][#Cm[i] + 1] = v end
          for _, v in ipairs(hb.C[i]) do Cm[i][#Cm[i] + 1] = v end
        end
        return new("ss", { A = A, B = Bm, C = Cm, D = M.add(ha.D, hb.D), dt = ha.dt })
      end
      local h, k = ha or hb, type(a) == "number" and a or b
      if type(k) ~= "number" then fail("scipy.signal: a StateSpace adds to a system or a number") end
      local D = {}
      for i, r in ipairs(h.D) do
        D[i] = {}
        for j, v in ipairs(r) do D[i][j] = v + k end
      end
      return new("ss", { A = h.A, B = h.B, C = h.C, D = D, dt = h.dt })
    end
  end
  SSM.__mul = ss_binop("mul")
  SSM.__add = ss_binop("add")
  SSM.__unm = function(a)
    local h = as_ss(a)
    return new("ss", { A = h.A, B = h.B, C = M.scale(h.C, -1), D = M.scale(h.D, -1), dt = h.dt })
  end
  SSM.__sub = function(a, b) return SSM.__add(a, -b) end
  SSM.__div = function(a, b)
    if type(b) ~= "number" then fail("scipy.signal: a StateSpace divides by a number") end
    return SSM.__mul(a, 1 / b)
  end

  ---------------------------------------------------------------------------
  -- pole placement

  api.def(signal, [[
scipy.signal.place_poles(A: array_like, B: array_like, poles: array_like, method: "YT"|"KNV0" = "YT",
                         rtol: number = 0.001, maxiter: integer = 30) -> table
The state feedback gain K with eig(A - B K) = poles, the eigenvectors made
robust by Tits and Yang's method (or KNV0): a table {gain_matrix,
computed_poles, requested_poles, X, rtol, nb_iter} as SciPy's Bunch.
]], function(A, B, poles, method_, rtol, maxiter)
    local fname = name("place_poles")
    local a, b = mat(A, fname, "A"), mat(B, fname, "B")
    if #a == 0 or #a ~= #a[1] then fail(fname .. ": A must be square") end
    if #b ~= #a then fail(fname .. ": B must have as many rows as A") end
    local gain, computed, requested, X, cur_rtol, nb_iter = S.host(fname, L.place_poles, a, b,
      vec(poles, fname, "poles"), method_, rtol, maxiter)
    return {
      gain_matrix = U.up2(gain, "float64"),
      computed_poles = U.up(computed),
      requested_poles = U.up(requested),
      X = U.up2(X),
      rtol = cur_rtol,
      nb_iter = nb_iter,
    }
  end)
end
