"""SciPy's windows for spec/scipy/signal/windows_spec.lua."""
from scipy.signal import windows as W
from reflib import write

MS = [0, 1, 2, 5, 8, 9]
cases = []
plain = ["boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop",
         "bartlett", "hann", "hamming", "barthann", "cosine", "lanczos"]
for name in plain:
    for M in MS:
        for sym in (True, False):
            cases.append({"name": name, "args": [M], "sym": sym, "w": getattr(W, name)(M, sym=sym)})
param = [("general_cosine", [[0.5, 0.3, 0.2]]), ("general_hamming", [0.6]), ("tukey", [0.3]),
         ("tukey", [0.0]), ("tukey", [1.0]), ("kaiser", [8.6]), ("gaussian", [1.7]),
         ("general_gaussian", [1.5, 2.2]), ("chebwin", [100]), ("chebwin", [60]),
         ("exponential", [None, 3.0]), ("taylor", [5, 35, True]), ("taylor", [3, 30, False])]
for name, args in param:
    for M in MS:
        for sym in (True, False):
            cases.append({"name": name, "args": [M] + args, "sym": sym,
                          "w": getattr(W, name)(M, *args, sym=sym)})
cases.append({"name": "exponential", "args": [8, 2, 1.5], "sym": False, "w": W.exponential(8, 2, 1.5, sym=False)})
kbd = [{"M": M, "beta": b, "w": W.kaiser_bessel_derived(M, b)} for M in (0, 2, 8, 12) for b in (4.0, 9.0)]
dpss = []
for M, NW, K, sym, norm in [(16, 2.5, None, True, None), (17, 3, 3, True, None), (12, 2, 2, False, 2),
                           (10, 2.5, 3, True, "subsample"), (15, 2, None, False, "approximate"),
                           (1, 0.5, None, True, None)]:
    r = W.dpss(M, NW, K, sym=sym, norm=norm, return_ratios=(M > 1))
    w, ratios = (r if M > 1 else (r, None))
    dpss.append({"M": M, "NW": NW, "Kmax": K, "sym": sym, "norm": norm, "w": w, "ratios": ratios})
gw = []
for spec, N, fft in [("hann", 8, True), ("hamming", 7, False), (8.6, 9, True), (("kaiser", 4.0), 8, False),
                     (("gaussian", 2.0), 9, True), (("general_gaussian", 1.5, 2.0), 8, True),
                     (("tukey", 0.25), 10, True), ("triangle", 5, True), ("boxcar", 4, True),
                     (("chebwin", 80), 9, False), (("exponential", None, 2.0), 8, True),
                     (("dpss", 2.0), 12, False), (("kbd", 5.0), 8, False), ("sinc", 7, True),
                     (("general cosine", [0.4, 0.6]), 6, True), (("general_hamming", 0.7), 6, False)]:
    from scipy.signal import get_window
    gw.append({"window": list(spec) if isinstance(spec, tuple) else spec, "Nx": N, "fftbins": fft,
               "w": get_window(spec, N, fftbins=fft)})
write("ref_windows", {"cases": cases, "kbd": kbd, "dpss": dpss, "get_window": gw},
      "every window at odd and even sizes, symmetric and periodic")
