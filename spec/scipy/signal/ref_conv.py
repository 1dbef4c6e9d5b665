"""SciPy's convolution, rank filters, Savitzky-Golay, resampling and
analytic signals for conv_spec.lua and resample_spec.lua."""
import numpy as np
import scipy.signal as S
from reflib import write

rng = np.random.default_rng(11)
a1, b1 = rng.standard_normal(13), rng.standard_normal(4)
a2, b2 = rng.standard_normal((5, 6)), rng.standard_normal((3, 2))
ai = rng.integers(-5, 6, 9)
bi = rng.integers(-3, 4, 3)
ac = rng.standard_normal(10) + 1j * rng.standard_normal(10)
bc = rng.standard_normal(3) + 1j * rng.standard_normal(3)
a3, b3 = rng.standard_normal((3, 4, 5)), rng.standard_normal((2, 2, 3))
conv = []
for name, x, h in [("1d", a1, b1), ("2d", a2, b2), ("int", ai, bi), ("complex", ac, bc), ("3d", a3, b3),
                   ("swap", b1, a1)]:
    for mode in ("full", "same", "valid"):
        for method in ("direct", "fft"):
            if name == "int" and method == "fft":
                continue
            conv.append({"name": name, "mode": mode, "method": method,
                         "convolve": S.convolve(x, h, mode, method), "correlate": S.correlate(x, h, mode, method)})
out = {"a1": a1, "b1": b1, "a2": a2, "b2": b2, "ai": ai, "bi": bi, "ac": ac, "bc": bc, "a3": a3, "b3": b3,
       "conv": conv}
x2 = rng.standard_normal((4, 7))
h2 = rng.standard_normal((1, 3))
hcol = rng.standard_normal((3, 1))
out["fftconvolve_axes"] = {"x": x2, "h": h2, "r": S.fftconvolve(x2, h2, "same", axes=1),
                           "hcol": hcol, "r2": S.fftconvolve(x2, hcol, "full", axes=[0])}
out["oaconvolve"] = S.oaconvolve(a2, b2, "same")
c2d = []
for bnd in ("fill", "wrap", "symm"):
    for mode in ("full", "same", "valid"):
        c2d.append({"boundary": bnd, "mode": mode, "conv": S.convolve2d(a2, b2, mode, bnd, 1.5),
                    "corr": S.correlate2d(a2, b2, mode, bnd, 1.5)})
out["c2d"] = c2d
out["c2d_swap"] = {"conv": S.convolve2d(b2, a2, "valid"), "corr": S.correlate2d(b2, a2, "valid")}
out["sepfir2d"] = S.sepfir2d(a2, [1.0, 2.0, 0.5], [0.3, 1.0, -0.2, 0.5, 0.1])
out["lags"] = {m: [S.correlation_lags(7, 4, m), S.correlation_lags(4, 7, m), S.correlation_lags(6, 3, m)]
               for m in ("full", "same", "valid")}
m5 = rng.standard_normal((6, 7))
dom = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
out["order"] = {"x": m5, "domain": dom, "r0": S.order_filter(m5, dom, 0), "r3": S.order_filter(m5, dom, 3),
                "medfilt": S.medfilt(m5), "medfilt35": S.medfilt(m5, [3, 5]), "medfilt1": S.medfilt(a1, 5),
                "medfilt2d": S.medfilt2d(m5, 5), "wiener": S.wiener(m5), "wiener_n": S.wiener(m5, [3, 5], 0.5)}
sg = rng.standard_normal(17)
out["savgol"] = {"x": sg, "modes": {m: S.savgol_filter(sg, 7, 2, mode=m) for m in
                                      ("mirror", "constant", "nearest", "wrap", "interp")},
                 "deriv": S.savgol_filter(sg, 6, 3, deriv=1, delta=0.5), "cval": S.savgol_filter(sg, 5, 1,
                 mode="constant", cval=2.0), "x2": m5, "axis0": S.savgol_filter(m5, 5, 2, axis=0)}
ux = rng.standard_normal(11)
uh = rng.standard_normal(5)
from scipy.signal._upfirdn import _upfirdn_modes
out["upfirdn"] = {"x": ux, "h": uh, "r": {f"{up},{dn}": S.upfirdn(uh, ux, up, dn) for up, dn in
                                          [(1, 1), (3, 1), (1, 2), (3, 2), (2, 5)]},
                  "modes": {m: S.upfirdn(uh, ux, 2, 3, mode=m) for m in _upfirdn_modes},
                  "cval": S.upfirdn(uh, ux, 2, 1, mode="constant", cval=0.7)}
rs = rng.standard_normal(20)
out["resample"] = {"x": rs, "up": S.resample(rs, 31), "down": S.resample(rs, 9), "even": S.resample(rs, 12),
                   "complex": S.resample(rs + 1j * rs[::-1], 13), "complex_up": S.resample(rs + 1j * rs[::-1], 26),
                   "window": S.resample(rs, 15, window="hann"),
                   "t": list(S.resample(rs, 8, t=np.arange(20) * 0.5))}
out["resample_poly"] = {"x": rs, "r32": S.resample_poly(rs, 3, 2), "r25": S.resample_poly(rs, 2, 5),
                        "mean": S.resample_poly(rs, 3, 4, padtype="mean"),
                        "line": S.resample_poly(rs, 5, 3, padtype="line"),
                        "window": S.resample_poly(rs, 2, 3, window=[0.2, 0.5, 0.8, 0.5, 0.2])}
dx = rng.standard_normal(64)
out["decimate"] = {"x": dx, "iir": S.decimate(dx, 4), "fir": S.decimate(dx, 3, ftype="fir"),
                   "nozp": S.decimate(dx, 2, zero_phase=False), "fir_nozp": S.decimate(dx, 3, ftype="fir",
                   zero_phase=False)}
td = rng.standard_normal((3, 12)) + np.arange(12)
out["detrend"] = {"x": td, "linear": S.detrend(td), "constant": S.detrend(td, type="constant"),
                  "bp": S.detrend(td, bp=[4, 7]), "axis0": S.detrend(td, axis=0)}
hx = rng.standard_normal(10)
out["hilbert"] = {"x": hx, "r": S.hilbert(hx), "r13": S.hilbert(hx, 13), "x2": m5, "r2": S.hilbert2(m5),
                  "r2n": S.hilbert2(m5, (8, 5))}
write("ref_conv", out, "convolution, rank filters, Savitzky-Golay, resampling, detrend, hilbert")
