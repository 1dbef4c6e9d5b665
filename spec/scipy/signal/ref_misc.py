"""SciPy's peaks, waveforms, wavelets, B-splines, chirp z-transforms and
LTI systems for peaks_spec.lua, splines_spec.lua and lti_spec.lua.
Positions are written 1-based where gpuarray returns them 1-based."""
import numpy as np
import scipy.signal as S
from reflib import write

rng = np.random.default_rng(3)
out = {}
x = np.convolve(rng.standard_normal(120), np.ones(5) / 5, "same")
x[40:43] = 3.0          # a plateau
x[90] = 2.5
pk = {"x": x}
def one(**kw):
    p, props = S.find_peaks(x, **kw)
    d = {k: (v + 1 if k in ("left_bases", "right_bases", "left_edges", "right_edges") else v)
         for k, v in props.items()}
    return {"peaks": p + 1, "props": d}
pk["plain"] = one()
pk["height"] = one(height=0.2)
pk["height2"] = one(height=(0.1, 0.5))
pk["threshold"] = one(threshold=0.05)
pk["distance"] = one(distance=7)
pk["prominence"] = one(prominence=0.3)
pk["width"] = one(width=3, rel_height=0.7)
pk["wlen"] = one(prominence=(0.1, None), wlen=11)
pk["plateau"] = one(plateau_size=2)
pk["all"] = one(height=0, threshold=0, distance=3, prominence=0.1, width=1, plateau_size=(1, 5))
p = S.find_peaks(x)[0]
pr = S.peak_prominences(x, p)
pk["prominences"] = {"peaks": p + 1, "r": [pr[0], pr[1] + 1, pr[2] + 1], "w9": [a + (1 if i else 0) for i, a in
                     enumerate(S.peak_prominences(x, p, wlen=9))]}
pw = S.peak_widths(x, p)
pk["widths"] = {"r": list(pw), "r9": list(S.peak_widths(x, p, rel_height=0.9))}
m2 = rng.standard_normal((4, 9))
pk["argrel"] = {"x": x[:30], "max": S.argrelmax(x[:30])[0] + 1, "min": S.argrelmin(x[:30], order=2)[0] + 1,
                "wrap": S.argrelmax(x[:30], mode="wrap")[0] + 1, "m2": m2,
                "m2max": [i + 1 for i in S.argrelmax(m2, axis=1)], "m2min0": [i + 1 for i in S.argrelmin(m2, axis=0)]}
out["peaks"] = pk
t = np.linspace(0, 2, 37)
wf = {"t": t}
for m in ("linear", "quadratic", "logarithmic", "hyperbolic"):
    wf["chirp_" + m] = S.chirp(t, 2.0, 1.5, 6.0, method=m, phi=30)
wf["chirp_qv"] = S.chirp(t, 2.0, 1.5, 6.0, method="quadratic", vertex_zero=False)
wf["gauss"] = list(S.gausspulse(t - 1, fc=5, retquad=True, retenv=True))
wf["gauss_cut"] = S.gausspulse("cutoff", fc=5, bw=0.3, tpr=-40)
tt = np.linspace(-7, 20, 41)
wf["tt"] = tt
wf["saw"] = S.sawtooth(tt)
wf["saw5"] = S.sawtooth(tt, 0.5)
wf["square"] = S.square(tt)
wf["square3"] = S.square(tt, 0.3)
wf["sweep"] = S.sweep_poly(t, [0.5, -1.0, 2.0, 3.0], phi=10)
wf["impulse"] = S.unit_impulse((3, 4), (1, 2))
wf["impulse_mid"] = S.unit_impulse(7, "mid")
wf["mls"] = [list(S.max_len_seq(5)), list(S.max_len_seq(6, state=[1, 0, 1, 1, 0, 1], length=40)),
             list(S.max_len_seq(4, taps=[1], length=20))]
wf["morlet"] = S.morlet(16, 4.0, 0.8)
wf["morlet_inc"] = S.morlet(15, complete=False)
wf["morlet2"] = S.morlet2(17, 3.0, 6)
wf["ricker"] = S.ricker(21, 3.0)
wf["qmf"] = S.qmf([0.1, 0.4, 0.4, 0.1])
sig = rng.standard_normal(40)
wf["cwt_x"] = sig
wf["cwt_ricker"] = S.cwt(sig, S.ricker, [1, 2, 3.5])
wf["cwt_morlet2"] = S.cwt(sig, S.morlet2, [2, 3], w=4)
wf["gauss_spline"] = S.gauss_spline(t, 3)
out["waveforms"] = wf
sx = np.sin(np.linspace(0, 6, 64)) + 0.1 * rng.standard_normal(64)
img = rng.standard_normal((40, 44))
sp = {"x": sx, "img": img,
      "sym1": S.symiirorder1(sx, 0.7, 0.5), "sym1c": S.symiirorder1(sx + 0j, 0.7 + 0.1j, 0.5 - 0.2j),
      "sym2": S.symiirorder2(sx, 0.5, 0.3), "sym2pi": S.symiirorder2(sx, 0.4, np.pi),
      "c1": S.cspline1d(sx), "c1l": S.cspline1d(sx, 0.5), "q1": S.qspline1d(sx),
      "c2": S.cspline2d(img), "c2l": S.cspline2d(img, 0.5), "q2": S.qspline2d(img),
      "filt": S.spline_filter(img, 2.0)}
cj = S.cspline1d(sx)
newx = np.linspace(-3, 70, 25)
sp["c1eval"] = S.cspline1d_eval(cj, newx)
sp["c1eval_dx"] = S.cspline1d_eval(cj, newx, dx=1.5, x0=2.0)
qj = S.qspline1d(sx)
sp["q1eval"] = S.qspline1d_eval(qj, newx)
sp["newx"] = newx
out["splines"] = sp
cz = rng.standard_normal(12) + 1j * rng.standard_normal(12)
out["czt"] = {"x": cz, "r": S.czt(cz), "m20": S.czt(cz, 20, 0.99 * np.exp(-0.2j), 0.9 * np.exp(0.3j)),
              "zoom": S.zoom_fft(cz, [0.1, 0.6], 15), "zoom_ep": S.zoom_fft(cz, 0.5, 8, fs=1.5, endpoint=True),
              "points": S.czt_points(6, 0.9 * np.exp(-0.3j), 1.1), "points_default": S.czt_points(5),
              "rows": S.czt(np.vstack([cz.real, cz.imag]), 7)}
b, a = S.butter(3, 2.0, analog=True)
A, B, C, D = S.tf2ss(b, a)
ltis = {"b": b, "a": a, "ss": [A, B, C, D]}
ltis["ss2tf"] = list(S.ss2tf(A, B, C, D))
ltis["zpk2ss"] = list(S.zpk2ss([-1.0], [-2.0, -3.0 + 1j, -3.0 - 1j], 2.0))
ltis["tf2ss_mimo"] = list(S.tf2ss([[1.0, 2.0, 3.0], [0.0, 1.0, 4.0]], [1.0, 5.0, 6.0]))
ltis["abcd"] = list(S.abcd_normalize(A=[[1.0, 2.0], [3.0, 4.0]], B=[[1.0], [0.0]], C=[[1.0, 1.0]]))
T = np.linspace(0, 5, 51)
U = np.sin(T)
ltis["lsim"] = list(S.lsim((b, a), U, T))
ltis["lsim_hold"] = list(S.lsim((A, B, C, D), U, T, X0=[0.1, 0.0, -0.2], interp=False))
ltis["impulse"] = list(S.impulse((b, a), N=20))
ltis["step"] = list(S.step((b, a), T=T[:30]))
ltis["freqresp"] = list(S.freqresp((b, a), w=[0.1, 1.0, 3.0]))
ltis["bode"] = list(S.bode((b, a), n=12))
for m in ("zoh", "foh", "bilinear", "euler", "backward_diff", "impulse"):
    ltis["c2d_" + m] = list(S.cont2discrete((A, B, C, D), 0.1, method=m))
ltis["c2d_gbt"] = list(S.cont2discrete((A, B, C, D), 0.1, method="gbt", alpha=0.3))
ltis["c2d_tf"] = list(S.cont2discrete((b, a), 0.1))
bd, ad = S.butter(3, 0.3)
u = rng.standard_normal(25)
ltis["bd"], ltis["ad"], ltis["u"] = bd, ad, u
ltis["dlsim"] = list(S.dlsim((bd, ad, 0.1), u))
Ad, Bd, Cd, Dd, _ = S.cont2discrete((A, B, C, D), 0.1)
ltis["dss"] = [Ad, Bd, Cd, Dd]
ltis["dlsim_ss"] = list(S.dlsim((Ad, Bd, Cd, Dd, 0.1), u, x0=[1.0, 0.0, 0.5]))
ltis["dlsim_t"] = list(S.dlsim((bd, ad, 0.1), u[:11], t=np.linspace(0, 1.0, 11) * 0.97))
ltis["dimpulse"] = [S.dimpulse((bd, ad, 0.1), n=15)[0], S.dimpulse((bd, ad, 0.1), n=15)[1][0]]
ltis["dstep"] = [S.dstep((bd, ad, 0.1), n=15)[0], S.dstep((bd, ad, 0.1), n=15)[1][0]]
ltis["dfreqresp"] = list(S.dfreqresp((bd, ad, 0.1), n=10))
ltis["dbode"] = list(S.dbode((bd, ad, 0.1), n=10))
Ap = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-1.0, -2.0, -3.0]])
Bp = np.array([[0.0], [0.0], [1.0]])
fsf = S.place_poles(Ap, Bp, [-2.0, -3.0 + 1j, -3.0 - 1j])
ltis["place"] = {"A": Ap, "B": Bp, "gain": fsf.gain_matrix, "poles": fsf.computed_poles}
Bf = np.eye(3)
fsf2 = S.place_poles(Ap, Bf, [-1.0, -2.0, -4.0])
ltis["place_full"] = {"gain": fsf2.gain_matrix}
Am = np.array([[1.380, -0.2077, 6.715, -5.676], [-0.5814, -4.290, 0, 0.6750],
               [1.067, 4.273, -6.654, 5.893], [0.0480, 4.273, 1.343, -2.104]])
Bm = np.array([[0, 5.679], [1.136, 1.136], [0, 0], [-3.146, 0]])
multi = []
for poles, m in (([-0.2, -0.5, -5.0566, -8.6659], "YT"), ([-0.2, -0.5, -5.0566, -8.6659], "KNV0"),
                 ([-1 + 1j, -1 - 1j, -3, -4], "YT"), ([-1 + 1j, -1 - 1j, -2 + 0.5j, -2 - 0.5j], "YT")):
    f = S.place_poles(Am, Bm, np.array(poles), method=m)
    multi.append({"poles": np.array(poles, dtype=complex), "method": m, "gain": f.gain_matrix,
                  "computed": f.computed_poles, "rtol": f.rtol, "nb_iter": f.nb_iter})
ltis["place_multi"] = {"A": Am, "B": Bm, "cases": multi}
out["lti"] = ltis
write("ref_misc", out, "peaks, waveforms, wavelets, B-splines, chirp z-transforms, LTI systems")
