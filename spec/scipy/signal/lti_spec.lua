--- LTI systems against SciPy 1.10 (ref_misc.py): the host algebra and
-- simulations (host/lti.lua) on the CPU, the objects and the public
-- functions (which upload their results) on the GPU.
local helper = require "helper"
local ga = helper.ga
local C = require "scipy.signal.check"
local REF = require "scipy.signal.ref_misc"
local L = require "gpuarray.scipy.signal.host.lti"
local signal = ga.scipy.signal

local R = REF.lti

local function col(list)
  local t = {}
  for i, v in ipairs(list) do t[i] = { v } end
  return t
end

describe("scipy.signal LTI systems", function()
  it("tf2ss, ss2tf, zpk2ss, abcd_normalize on the host", function()
    local A, B, Cm, D = L.tf2ss(R.b, R.a)
    C.close(R.ss, { A, B, Cm, D }, 1e-12, "tf2ss")
    local num, den = L.ss2tf(A, B, Cm, D, 0)
    C.close(R.ss2tf, { num, den }, 1e-10, "ss2tf")
    C.close(R.zpk2ss, { L.zpk2ss({ -1.0 }, { -2.0, C.cx({ { -3.0, 1 } })[1], C.cx({ { -3.0, -1 } })[1] }, 2.0) },
      1e-12, "zpk2ss")
    C.close(R.tf2ss_mimo, { L.tf2ss({ { 1.0, 2.0, 3.0 }, { 0.0, 1.0, 4.0 } }, { 1.0, 5.0, 6.0 }) }, 1e-12, "tf2ss rows")
    C.close(R.abcd, { L.abcd_normalize({ { 1.0, 2.0 }, { 3.0, 4.0 } }, { { 1.0 }, { 0.0 } }, { { 1.0, 1.0 } }) }, 0,
      "abcd_normalize")
  end)

  it("cont2discrete (every method) on the host", function()
    local A, B, Cm, D = table.unpack(R.ss)
    for _, m in ipairs({ "zoh", "foh", "bilinear", "euler", "backward_diff", "impulse" }) do
      local ad, bd, cd, dd = L.c2d_ss(A, B, Cm, D, 0.1, m)
      C.close(R["c2d_" .. m], { ad, bd, cd, dd, 0.1 }, 1e-10, "cont2discrete " .. m)
    end
    local ad, bd, cd, dd = L.c2d_ss(A, B, Cm, D, 0.1, "gbt", 0.3)
    C.close(R.c2d_gbt, { ad, bd, cd, dd, 0.1 }, 1e-10, "cont2discrete gbt")
  end)

  it("lsim (interpolated, held, initial state), dlsim (tf, ss, resampled) on the host", function()
    local A, B, Cm, D = table.unpack(R.ss)
    local T = R.lsim[1]
    local urows = col(R.lsim[1])
    for i = 1, #T do urows[i] = { math.sin(T[i]) } end
    local y = L.lsim(A, B, Cm, D, urows, T, nil, true)
    local ys = {}
    for i, r in ipairs(y) do ys[i] = r[1] end
    C.close(R.lsim[2], ys, 1e-9, "lsim")
    local y2, x2 = L.lsim(A, B, Cm, D, urows, T, { 0.1, 0.0, -0.2 }, false)
    local y2s = {}
    for i, r in ipairs(y2) do y2s[i] = r[1] end
    C.close(R.lsim_hold[2], y2s, 1e-9, "lsim held")
    C.close(R.lsim_hold[3], x2, 1e-9, "lsim states")
    local Ad, Bd, Cd, Dd = table.unpack(R.dss)
    local t, yo, xo = L.dlsim(Ad, Bd, Cd, Dd, 0.1, col(R.u), nil, { 1.0, 0.0, 0.5 })
    C.close(R.dlsim_ss, { t, yo, xo }, 1e-10, "dlsim ss")
  end)

  it("system methods bind their self (no device needed); dfreqresp's host part gives both w and H", function()
    local sys = signal.lti(R.b, R.a)
    local ss = sys:to_ss()
    assert.are.equal(1, ss.inputs)
    local back = ss:to_zpk():to_tf():to_ss()
    assert.are.equal(1, back.outputs)
    assert.is_not_nil(tostring(sys:to_discrete(0.1)):find("Discrete", 1, true))
    local S = require("gpuarray.internal").scipy_signal
    local w, h = S.lti_dfreqresp({ R.bd, R.ad, 0.1 }, nil, 10, false, "scipy.signal.dfreqresp")
    C.close(R.dfreqresp, { w, h }, 1e-12, "dfreqresp (host)")
  end)

  it("place_poles: single input and full-rank B give SciPy's gain", function()
    local P = R.place
    local K, poles = L.place_poles(P.A, P.B, { -2.0, C.cx({ { -3.0, 1 } })[1], C.cx({ { -3.0, -1 } })[1] }, "YT",
                                   1e-3, 30)
    C.close(P.gain, K, 1e-8, "gain")
    C.close(P.poles, poles, 1e-8, "computed poles")
    local Kf = L.place_poles(P.A, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { -1.0, -2.0, -4.0 }, "YT", 1e-3, 30)
    C.close(R.place_full.gain, Kf, 1e-10, "full-rank B")
    local ok, e = pcall(L.place_poles, P.A, P.B, { -1.0, -2.0 }, "YT", 1e-3, 30)
    assert(not ok and e.msg:find("number of poles", 1, true))
    ok, e = pcall(L.place_poles, P.A, P.B, { -1.0, -1.0, -2.0 }, "YT", 1e-3, 30)
    assert(not ok and e.msg:find("repeated", 1, true))
  end)

  it("place_poles: multi-input YT and KNV0 (real and complex poles) give SciPy's gain, rtol and nb_iter", function()
    local P = R.place_multi
    for i, c in ipairs(P.cases) do
      local K, poles, _, _, rtol, nb = L.place_poles(P.A, P.B, C.cx(c.poles), c.method, 1e-3, 30)
      local what = c.method .. " case " .. i
      C.close(c.gain, K, 1e-8, what .. " gain")
      C.close(c.computed, poles, 1e-8, what .. " computed poles")
      C.close(c.rtol, rtol, 1e-6, what .. " rtol")
      assert.are.equal(c.nb_iter, nb, what .. " nb_iter")
    end
    local ok, e = pcall(L.place_poles, P.A, P.B, C.cx(P.cases[3].poles), "KNV0", 1e-3, 30)
    assert(not ok and e.msg:find("KNV0", 1, true))
  end)

  helper.gpu_it("objects: lti / dlti, conversions, fields as ndarrays, to_discrete, arithmetic", function()
    local sys = signal.lti(R.b, R.a)
    C.close(R.b, sys.num:totable(), 1e-14, "num")
    local ss = sys:to_ss()
    C.close(R.ss[1], ss.A:totable(), 1e-12, "A")
    assert.are.equal(1, ss.inputs)
    local z = sys:to_zpk()
    assert.are.same({ 3 }, z.poles.shape)
    local d = ss:to_discrete(0.1)
    C.close(R.c2d_zoh[1], d.A:totable(), 1e-10, "to_discrete")
    assert.are.equal(0.1, d.dt)
    local dl = signal.dlti(REF.lti.bd, REF.lti.ad, { dt = 0.1 })
    assert.are.equal(0.1, dl.dt)
    local s2 = ss * 2
    C.close(ga.array(R.ss[2]):totable(), (s2.B / 2):totable(), 1e-14, "StateSpace * 2")
    local par = ss + ss
    assert.are.same({ 6, 6 }, par.A.shape)
    local ser = ss * ss
    assert.are.same({ 6, 6 }, ser.A.shape)
    local tf2 = signal.TransferFunction(ss)
    C.close(R.ss2tf[2], tf2.den:totable(), 1e-10, "TransferFunction(ss)")
  end)

  helper.gpu_it("lsim, impulse, step, freqresp, bode, tf2ss / ss2tf / zpk2ss / cont2discrete as functions", function()
    local T = ga.array(R.lsim[1])
    local t, y = signal.lsim({ R.b, R.a }, ga.sin(T), T)
    C.close(R.lsim[2], y:totable(), 1e-9, "lsim")
    C.close(R.lsim[1], t:totable(), 0, "lsim T")
    local ti, hi = signal.impulse({ R.b, R.a }, { N = 20 })
    C.close(R.impulse, { ti:totable(), hi:totable() }, 1e-9, "impulse")
    local ts, hs = signal.step({ R.b, R.a }, { T = T[{ { 1, 30 } }] })
    C.close(R.step, { ts:totable(), hs:totable() }, 1e-9, "step")
    local w, h = signal.freqresp({ R.b, R.a }, { 0.1, 1.0, 3.0 })
    C.close(R.freqresp, { w:totable(), h:totable() }, 1e-12, "freqresp")
    local bw, mag, ph = signal.bode({ R.b, R.a }, { n = 12 })
    C.close(R.bode, { bw:totable(), mag:totable(), ph:totable() }, 1e-10, "bode")
    local A, B, Cm, D = signal.tf2ss(R.b, R.a)
    C.close(R.ss, { A:totable(), B:totable(), Cm:totable(), D:totable() }, 1e-12, "tf2ss")
    local num, den = signal.ss2tf(A, B, Cm, D)
    C.close(R.ss2tf, { num:totable(), den:totable() }, 1e-10, "ss2tf")
    local out = { signal.cont2discrete({ A, B, Cm, D }, 0.1, "foh") }
    C.close(R.c2d_foh, { out[1]:totable(), out[2]:totable(), out[3]:totable(), out[4]:totable(), out[5] }, 1e-10,
      "cont2discrete foh")
    local tfd = { signal.cont2discrete({ R.b, R.a }, 0.1) }
    C.close(R.c2d_tf, { tfd[1]:totable(), tfd[2]:totable(), tfd[3] }, 1e-10, "cont2discrete tf")
  end)

  helper.gpu_it("dlsim (tf, ss, t), dimpulse, dstep, dfreqresp, dbode, place_poles", function()
    local t, y = signal.dlsim({ R.bd, R.ad, 0.1 }, R.u)
    C.close(R.dlsim, { t:totable(), y:totable() }, 1e-10, "dlsim")
    local Ad, Bd, Cd, Dd = table.unpack(R.dss)
    local t2, y2, x2 = signal.dlsim({ Ad, Bd, Cd, Dd, 0.1 }, R.u, nil, { 1.0, 0.0, 0.5 })
    C.close(R.dlsim_ss, { t2:totable(), y2:totable(), x2:totable() }, 1e-10, "dlsim ss")
    local tt = {}
    for i = 0, 10 do tt[i + 1] = i / 10 * 0.97 end
    local u11 = {}
    for i = 1, 11 do u11[i] = R.u[i] end
    local t3, y3 = signal.dlsim({ R.bd, R.ad, 0.1 }, u11, tt)
    C.close(R.dlsim_t, { t3:totable(), y3:totable() }, 1e-10, "dlsim with t")
    local ti, yi = signal.dimpulse({ R.bd, R.ad, 0.1 }, { n = 15 })
    C.close(R.dimpulse, { ti:totable(), yi[1]:totable() }, 1e-10, "dimpulse")
    local tsd, ysd = signal.dstep({ R.bd, R.ad, 0.1 }, { n = 15 })
    C.close(R.dstep, { tsd:totable(), ysd[1]:totable() }, 1e-10, "dstep")
    local w, h = signal.dfreqresp({ R.bd, R.ad, 0.1 }, { n = 10 })
    C.close(R.dfreqresp, { w:totable(), h:totable() }, 1e-12, "dfreqresp")
    local bw, mag, ph = signal.dbode({ R.bd, R.ad, 0.1 }, { n = 10 })
    C.close(R.dbode, { bw:totable(), mag:totable(), ph:totable() }, 1e-10, "dbode")
    local fsf = signal.place_poles(R.place.A, R.place.B, { -2.0, { -3.0, 1 }, { -3.0, -1 } })
    C.close(R.place.gain, fsf.gain_matrix:totable(), 1e-8, "place_poles")
  end)
end)
