"""SciPy's recursive filtering for iir_spec.lua."""
import numpy as np
import scipy.signal as S
from reflib import write

rng = np.random.default_rng(7)
b, a = S.butter(4, 0.2)
sos4 = S.butter(4, 0.2, output="sos")
x = rng.standard_normal(40)
zi = rng.standard_normal(4)
y_zi, zf = S.lfilter(b, a, x, zi=zi)
xc = x + 1j * rng.standard_normal(40)
long_b = rng.standard_normal(45)
out = {
    "butter4": {"b": b, "a": a},
    "sos4": {"sos": sos4},
    "lfilter": {"x": x, "y": S.lfilter(b, a, x), "zi": zi, "y_zi": y_zi, "zf": zf,
                "fir": S.lfilter([1, 2, 3], [2], x), "gain": S.lfilter([3], [2], x),
                "xc": xc, "yc": S.lfilter(b, a, xc),
                "ycc": S.lfilter([1 + 1j, 0.5], [1, -0.3 + 0.2j], x),
                "long_b": long_b, "long_y": S.lfilter(long_b, [1.0, -0.5], x)},
    "lfilter_zi": S.lfilter_zi(b, a),
    "lfilter_zi_a0": S.lfilter_zi([2, 1], [4, -1]),
    "lfiltic": S.lfiltic(b, a, [1.0, 0.5, -0.25], [0.3, -0.1]),
}
sos = S.ellip(6, 1, 50, [0.2, 0.4], "bandpass", output="sos")
sos10 = S.butter(20, 0.3, output="sos")
zis = rng.standard_normal((len(sos), 2))
ys, zfs = S.sosfilt(sos, x, zi=zis)
out["sosfilt"] = {"sos": sos, "sos10": sos10, "x": x, "y": S.sosfilt(sos, x), "y10": S.sosfilt(sos10, x),
                  "zi": zis, "y_zi": ys, "zf": zfs, "zi_steady": S.sosfilt_zi(sos)}
xf = rng.standard_normal(60)
out["filtfilt"] = {"x": xf, "odd": S.filtfilt(b, a, xf), "even": S.filtfilt(b, a, xf, padtype="even"),
                   "constant": S.filtfilt(b, a, xf, padtype="constant"),
                   "padlen5": S.filtfilt(b, a, xf, padlen=5),
                   "gust": S.filtfilt(b, a, xf, method="gust"),
                   "gust_irlen": S.filtfilt(b, a, xf, method="gust", irlen=20),
                   "sos_odd": S.sosfiltfilt(sos4, xf), "sos_even": S.sosfiltfilt(sos4, xf, padtype="even"),
                   "sos_constant": S.sosfiltfilt(sos4, xf, padtype="constant")}
sig = np.array([0.0, 1, 0, 0, 1, 1, 0, 0]) * 1.0
sig = np.convolve([2.0, 1.0, 0.5], [1.0, -1.0, 3.0, 0.5, 2.0]) + np.array([0, 0, 0, 0, 0, 0, 0.1])
q, r = S.deconvolve(sig, [2.0, 1.0, 0.5])
out["deconv"] = {"signal": sig, "divisor": [2.0, 1.0, 0.5], "q": q, "r": r}
write("ref_iir", out, "lfilter, sosfilt, filtfilt, sosfiltfilt, initial states, deconvolve")
