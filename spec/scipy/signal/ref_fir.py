"""SciPy's FIR designs and partial fractions for fir_host_spec.lua."""
import numpy as np
import scipy.signal as S
from reflib import write

out = {}
out["kaiser"] = {"beta": [S.kaiser_beta(a) for a in (10, 30, 60)],
                 "atten": S.kaiser_atten(31, 0.1), "ord": list(S.kaiserord(65, 0.05))}
fw = []
for args, kw in [([31, 0.3], {}), ([30, 0.2], {}), ([25, [0.2, 0.5]], {"pass_zero": False}),
                 ([25, [0.2, 0.5]], {}), ([33, 0.4], {"pass_zero": False}),
                 ([41, [0.1, 0.3, 0.6]], {"pass_zero": "bandpass"}), ([21, 100], {"fs": 1000}),
                 ([31, 0.3], {"window": ("kaiser", 6.0)}), ([31, 0.3], {"width": 0.05}),
                 ([31, 0.3], {"scale": False, "window": "hann"}), ([15, 0.6], {"pass_zero": "highpass"}),
                 ([31, [0.3, 0.7]], {"pass_zero": "bandstop", "window": "blackman"})]:
    fw.append({"args": args, "kw": {k: (list(v) if isinstance(v, tuple) else v) for k, v in kw.items()},
               "h": S.firwin(*args, **kw)})
out["firwin"] = fw
f2 = []
for args, kw in [([31, [0, 0.3, 0.5, 1], [1, 1, 0, 0]], {}), ([30, [0, 0.4, 0.4, 1], [1, 1, 0, 0]], {}),
                 ([25, [0, 0.5, 1], [0, 1, 0]], {"antisymmetric": True}),
                 ([24, [0, 0.5, 1], [0, 1, 1]], {"antisymmetric": True, "window": None}),
                 ([21, [0, 100, 250, 500], [0, 1, 1, 0]], {"fs": 1000, "nfreqs": 65})]:
    f2.append({"args": args, "kw": kw, "h": S.firwin2(*args, **kw)})
out["firwin2"] = f2
fl = []
for args, kw in [([31, [0, 0.3, 0.4, 1], [1, 1, 0, 0]], {}),
                 ([21, [0, 0.2, 0.3, 0.6, 0.7, 1], [0, 0, 1, 1, 0, 0]], {"weight": [1, 2, 1]}),
                 ([15, [0, 100, 200, 500], [1, 1, 0, 0]], {"fs": 1000})]:
    fl.append({"args": args, "kw": kw, "h": S.firls(*args, **kw)})
out["firls"] = fl
h = S.firwin(31, 0.3)
h2 = S.remez(21, [0, 0.2, 0.3, 0.5], [1, 0])
out["minimum_phase"] = [{"h": h, "method": "homomorphic", "r": S.minimum_phase(h)},
                        {"h": h2, "method": "hilbert", "r": S.minimum_phase(h2, "hilbert")},
                        {"h": h2, "method": "homomorphic", "n_fft": 256, "r": S.minimum_phase(h2, n_fft=256)}]
sg = []
for args, kw in [([5, 2], {}), ([7, 3], {"deriv": 1}), ([8, 2], {}), ([9, 4], {"deriv": 2, "delta": 0.5}),
                 ([6, 2], {"pos": 1}), ([5, 2], {"use": "dot"}), ([5, 3], {"deriv": 4})]:
    sg.append({"args": args, "kw": kw, "c": S.savgol_coeffs(*args, **kw)})
out["savgol_coeffs"] = sg
# the interp edge matrix: savgol_filter on unit vectors
edges = []
for wl, po, d, delta in [(5, 2, 0, 1.0), (7, 3, 1, 0.5), (6, 2, 0, 1.0)]:
    n = 12
    rows_left, rows_right = [], []
    for j in range(wl):
        x = np.zeros(n); x[j] = 1
        y = S.savgol_filter(x, wl, po, deriv=d, delta=delta, mode="interp")
        rows_left.append(y[:wl // 2])
        x = np.zeros(n); x[n - wl + j] = 1
        y = S.savgol_filter(x, wl, po, deriv=d, delta=delta, mode="interp")
        rows_right.append(y[n - wl // 2:])
    edges.append({"wl": wl, "po": po, "deriv": d, "delta": delta,
                  "left": np.array(rows_left).T, "right": np.array(rows_right).T})
out["savgol_edges"] = edges
rz = {}
b, a = [1, 2, 3, 1], [1, 5, 8, 4]
rz["residue"] = {"b": b, "a": a, "r": list(S.residue(b, a))}
b2, a2 = [2, 0, 1], [1, -1.5, 0.5, 0]
rz["residue2"] = {"b": b2, "a": a2, "r": list(S.residue(b2, a2))}
rz["residuez"] = {"b": [1, -1, 2], "a": [1, -0.75, 0.125], "r": list(S.residuez([1, -1, 2], [1, -0.75, 0.125]))}
rz["residuez2"] = {"b": [2, 1], "a": [1, -1, 0.25], "r": list(S.residuez([2, 1], [1, -1, 0.25]))}
r, p, k = S.residue(b, a)
rz["invres"] = {"r": r, "p": p, "k": k, "ba": list(S.invres(r, p, k))}
r, p, k = S.residuez([1, -1, 2], [1, -0.75, 0.125])
rz["invresz"] = {"r": r, "p": p, "k": k, "ba": list(S.invresz(r, p, k))}
rz["unique_roots"] = [{"p": [1, 1.0005, 2, 2.0001, 3], "tol": 1e-3, "rtype": t,
                       "r": list(S.unique_roots([1, 1.0005, 2, 2.0001, 3], 1e-3, t))} for t in ("min", "max", "avg")]
out["residue"] = rz
write("ref_fir", out, "FIR designs, Savitzky-Golay coefficients and edges, partial fractions")
