"""SciPy's spectral analysis, peaks, waveforms and wavelets for
spectral_spec.lua and peaks_spec.lua."""
import numpy as np
import scipy.signal as S
from reflib import write

rng = np.random.default_rng(5)
x = rng.standard_normal(300)
y = rng.standard_normal(300)
x2 = rng.standard_normal((2, 200))
out = {"x": x, "y": y, "x2": x2}
out["welch"] = {
    "default": list(S.welch(x)), "n64": list(S.welch(x, fs=10.0, nperseg=64)),
    "lin": list(S.welch(x, nperseg=50, noverlap=10, detrend="linear")),
    "nodt": list(S.welch(x, nperseg=64, detrend=False, window="hamming")),
    "spec": list(S.welch(x, nperseg=64, scaling="spectrum")),
    "nfft": list(S.welch(x, nperseg=60, nfft=100)),
    "median": list(S.welch(x, nperseg=64, average="median")),
    "twosided": list(S.welch(x, nperseg=32, return_onesided=False)),
    "axis0": list(S.welch(x2.T, nperseg=32, axis=0)),
    "rows": list(S.welch(x2, nperseg=32)),
    "odd": list(S.welch(x, nperseg=33)),
    "win": list(S.welch(x, window=np.hanning(40))),
}
out["csd"] = {"default": list(S.csd(x, y, nperseg=64)), "median": list(S.csd(x, y, nperseg=64, average="median"))}
out["periodogram"] = {"default": list(S.periodogram(x)), "hann": list(S.periodogram(x, 5.0, "hann")),
                      "nfft": list(S.periodogram(x, nfft=512)), "short": list(S.periodogram(x, nfft=200)),
                      "spec": list(S.periodogram(x, scaling="spectrum", detrend="linear"))}
out["coherence"] = list(S.coherence(x, y, nperseg=64))
out["spectrogram"] = {m: list(S.spectrogram(x, nperseg=64, mode=m)) for m in ("psd", "magnitude", "angle", "phase")}
out["spectrogram"]["complex"] = list(S.spectrogram(x, nperseg=64, mode="complex"))
out["stft"] = {"default": list(S.stft(x, nperseg=64)), "noboundary": list(S.stft(x, nperseg=50, noverlap=20,
               boundary=None, padded=False)), "even": list(S.stft(x, nperseg=40, boundary="even")),
               "psd": list(S.stft(x, nperseg=64, scaling="psd"))}
f, t, Z = S.stft(x, nperseg=64)
out["istft"] = {"Z": Z, "default": list(S.istft(Z, nperseg=64)),
                "nobound": list(S.istft(S.stft(x, nperseg=50, noverlap=25, boundary=None)[2], nperseg=50,
                                        noverlap=25, boundary=False))}
out["istft"]["Znb"] = S.stft(x, nperseg=50, noverlap=25, boundary=None)[2]
tt = np.sort(rng.uniform(0, 10, 50))
yy = np.sin(2 * tt) + 0.1 * rng.standard_normal(50)
ff = np.linspace(0.1, 5, 30)
out["lombscargle"] = {"x": tt, "y": yy, "f": ff, "r": S.lombscargle(tt, yy, ff),
                      "pn": S.lombscargle(tt, yy, ff, precenter=True, normalize=True)}
ev = np.sort(rng.uniform(0, 20, 40))
out["vectorstrength"] = {"events": ev, "one": list(S.vectorstrength(ev, 2.5)),
                         "many": list(S.vectorstrength(ev, [1.0, 2.5, 3.3]))}
out["cola"] = [[w, n, o, S.check_COLA(w, n, o), S.check_NOLA(w, n, o)] for w, n, o in
               [("hann", 256, 128), ("hann", 255, 100), ("boxcar", 100, 50), ("bartlett", 64, 32),
                ("hamming", 64, 48), ("blackman", 50, 0)]]
write("ref_spectral", out, "welch csd periodogram coherence spectrogram stft istft lombscargle vectorstrength")
