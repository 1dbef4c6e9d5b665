"""SciPy's IIR designs, conversions and responses for design_spec.lua."""
import numpy as np
import scipy.signal as S
from reflib import write

out = {}
proto = []
for N in range(0, 7):
    proto.append({"f": "buttap", "args": [N], "zpk": S.buttap(N)})
    proto.append({"f": "cheb1ap", "args": [N, 1.5], "zpk": S.cheb1ap(N, 1.5)})
    proto.append({"f": "cheb2ap", "args": [N, 40], "zpk": S.cheb2ap(N, 40)})
    proto.append({"f": "ellipap", "args": [N, 0.5, 60], "zpk": S.ellipap(N, 0.5, 60)})
    for norm in ("phase", "delay", "mag"):
        proto.append({"f": "besselap", "args": [N, norm], "zpk": S.besselap(N, norm)})
for N in (12, 17, 25):
    proto.append({"f": "besselap", "args": [N, "phase"], "zpk": S.besselap(N, "phase")})
proto.append({"f": "ellipap", "args": [9, 0.1, 80], "zpk": S.ellipap(9, 0.1, 80)})
out["proto"] = proto

designs = []
def add(fname, args, kw):
    for output in ("ba", "zpk", "sos"):
        kw2 = dict(kw, output=output)
        r = getattr(S, fname)(*args, **kw2)
        designs.append({"f": fname, "args": list(args), "kw": kw2, "r": list(r) if output != "sos" else [r]})
add("butter", [4, 0.2], {})
add("butter", [5, 0.3], {"btype": "high"})
add("butter", [3, [0.2, 0.5]], {"btype": "bandpass"})
add("butter", [2, [0.1, 0.4]], {"btype": "bandstop"})
add("butter", [4, 100.0], {"fs": 1000.0})
add("butter", [3, 2.0], {"analog": True})
add("butter", [2, [1.0, 3.0]], {"btype": "bandpass", "analog": True})
add("cheby1", [4, 1.0, 0.3], {})
add("cheby1", [5, 0.5, [0.2, 0.6]], {"btype": "bandstop"})
add("cheby1", [3, 2.0, 5.0], {"analog": True, "btype": "high"})
add("cheby2", [4, 40, 0.3], {})
add("cheby2", [5, 30, 0.4], {"btype": "highpass"})
add("cheby2", [3, 50, [0.2, 0.4]], {"btype": "bandpass"})
add("ellip", [4, 1, 60, 0.25], {})
add("ellip", [5, 0.5, 50, 0.3], {"btype": "high"})
add("ellip", [3, 1, 40, [0.2, 0.5]], {"btype": "bandpass"})
add("ellip", [6, 0.1, 70, 3.0], {"analog": True})
add("bessel", [4, 0.2], {})
add("bessel", [5, 0.3], {"norm": "mag", "btype": "high"})
add("bessel", [3, [0.1, 0.3]], {"norm": "delay", "btype": "bandpass"})
add("bessel", [4, 2.0], {"analog": True})
out["designs"] = designs

iirf = []
for args, kw in [([4, [0.1, 0.3]], {"rp": 1, "rs": 60, "ftype": "ellip"}),
                 ([3, 0.4], {"btype": "low", "ftype": "cheby1", "rp": 2}),
                 ([2, [50, 200]], {"fs": 1000, "ftype": "butter"}),
                 ([4, 0.5], {"btype": "hp", "ftype": "bessel_mag"}),
                 ([3, 0.3], {"btype": "lowpass", "ftype": "cheby2", "rs": 30, "output": "zpk"})]:
    kw2 = dict(kw)
    kw2.setdefault("output", "ba")
    r = S.iirfilter(*args, **kw2)
    iirf.append({"args": args, "kw": kw2, "r": list(r)})
out["iirfilter"] = iirf

ords = []
for f in ("buttord", "cheb1ord", "cheb2ord", "ellipord"):
    for args, kw in [([0.2, 0.3, 3, 40], {}), ([0.3, 0.2, 1, 60], {}),
                     ([[0.2, 0.5], [0.1, 0.6], 3, 40], {}), ([[0.1, 0.6], [0.2, 0.5], 3, 40], {}),
                     ([20, 50, 1, 40], {"analog": True}), ([100, 200, 2, 30], {"fs": 1000}),
                     ([[1.0, 4.0], [0.5, 6.0], 3, 30], {"analog": True})]:
        N, Wn = getattr(S, f)(*args, **kw)
        ords.append({"f": f, "args": args, "kw": kw, "N": N, "Wn": Wn})
out["ords"] = ords
out["band_stop_obj"] = [
    {"args": [0.25, 0, [0.2, 0.9], [0.4, 0.6], 3, 40, t],
     "r": S.band_stop_obj(0.25, 0, np.array([0.2, 0.9]), np.array([0.4, 0.6]), 3, 40, t)}
    for t in ("butter", "cheby", "ellip")]

iird = []
for args, kw in [([0.2, 0.3, 1, 40], {}), ([[0.2, 0.5], [0.1, 0.6], 1, 40], {"ftype": "cheby1"}),
                 ([0.3, 0.2, 1, 60], {"ftype": "butter", "output": "sos"}),
                 ([[0.1, 0.6], [0.2, 0.5], 2, 40], {"ftype": "cheby2", "output": "zpk"}),
                 ([100, 150, 1, 50], {"fs": 1000, "ftype": "ellip"})]:
    r = S.iirdesign(*args, **kw)
    iird.append({"args": args, "kw": kw, "r": list(r) if kw.get("output") != "sos" else [r]})
out["iirdesign"] = iird

conv = {}
z, p, k = S.ellip(5, 1, 50, 0.3, output="zpk")
conv["zpk2tf"] = {"z": z, "p": p, "k": k, "ba": list(S.zpk2tf(z, p, k))}
conv["zpk2sos"] = []
for pairing in ("nearest", "keep_odd", "minimal"):
    for zz, pp, kk in [(z, p, k), S.butter(5, 0.2, output="zpk"), S.cheby2(4, 30, [0.2, 0.5], "bandstop", output="zpk"),
                       ([], [0.5, 0.6 + 0.2j, 0.6 - 0.2j], 2.0), ([-1, -1], [0.3], 1.5), ([], [], 3.0)]:
        if pairing == "minimal" and len(zz) > len(pp):
            continue
        conv["zpk2sos"].append({"z": zz, "p": pp, "k": kk, "pairing": pairing,
                                "sos": S.zpk2sos(zz, pp, kk, pairing=pairing)})
conv["zpk2sos_analog"] = []
for zz, pp, kk in [S.butter(5, 2.0, analog=True, output="zpk"), S.cheby1(4, 1, 3.0, analog=True, output="zpk")]:
    conv["zpk2sos_analog"].append({"z": zz, "p": pp, "k": kk, "sos": S.zpk2sos(zz, pp, kk, analog=True)})
b, a = S.ellip(4, 1, 40, [0.2, 0.5], "bandpass")
conv["tf2zpk"] = {"b": b, "a": a, "zpk": list(S.tf2zpk(b, a)), "sos": S.tf2sos(b, a)}
b, a = S.cheby1(4, 1, [0.2, 0.5], "bandpass")
conv["tf2zpk_multi"] = {"b": b, "a": a, "zpk": list(S.tf2zpk(b, a))}
sos = S.butter(6, [0.1, 0.3], "bandstop", output="sos")
conv["sos2tf"] = {"sos": sos, "ba": list(S.sos2tf(sos)), "zpk": list(S.sos2zpk(sos))}
conv["normalize"] = [
    {"b": [0.0, 0.0, 2.0, 4.0], "a": [0.0, 2.0, 1.0], "r": list(S.normalize([0.0, 0.0, 2.0, 4.0], [0.0, 2.0, 1.0]))},
    {"b": [[1.0, 2.0, 3.0], [0.0, 4.0, 6.0]], "a": [4.0, 2.0], "r": list(S.normalize([[1.0, 2.0, 3.0], [0.0, 4.0, 6.0]], [4.0, 2.0]))},
]
bb, aa = [1.0, 3.0], [1.0, 2.0, 5.0]
conv["lp2"] = {
    "b": bb, "a": aa,
    "lp2lp": list(S.lp2lp(bb, aa, 2.5)), "lp2hp": list(S.lp2hp(bb, aa, 2.5)),
    "lp2bp": list(S.lp2bp(bb, aa, 2.5, 0.7)), "lp2bs": list(S.lp2bs(bb, aa, 2.5, 0.7)),
    "bilinear": list(S.bilinear(bb, aa, 10.0)),
    "lp2hp_b": list(S.lp2hp([1.0, 2.0, 3.0], [1.0, 4.0], 1.0)),
}
zz, pp, kk = [-1.0 + 0j, 2j, -2j], [-0.5 + 1j, -0.5 - 1j, -2.0 + 0j, -3 + 0j], 2.0
conv["lp2_zpk"] = {
    "z": zz, "p": pp, "k": kk,
    "lp2lp_zpk": list(S.lp2lp_zpk(zz, pp, kk, 3.0)), "lp2hp_zpk": list(S.lp2hp_zpk(zz, pp, kk, 3.0)),
    "lp2bp_zpk": list(S.lp2bp_zpk(zz, pp, kk, 3.0, 0.5)), "lp2bs_zpk": list(S.lp2bs_zpk(zz, pp, kk, 3.0, 0.5)),
    "bilinear_zpk": list(S.bilinear_zpk(zz, pp, kk, 8.0)),
}
out["conv"] = conv

resp = {}
b, a = S.butter(3, 0.3)
resp["freqz"] = [
    {"b": b, "a": a, "kw": {"worN": 8}, "r": list(S.freqz(b, a, worN=8))},
    {"b": b, "a": a, "kw": {"worN": 7, "whole": True}, "r": list(S.freqz(b, a, worN=7, whole=True))},
    {"b": b, "a": a, "kw": {"worN": 5, "include_nyquist": True}, "r": list(S.freqz(b, a, worN=5, include_nyquist=True))},
    {"b": b, "a": a, "kw": {"worN": [10.0, 100.0, 250.0], "fs": 1000}, "r": list(S.freqz(b, a, worN=[10.0, 100.0, 250.0], fs=1000))},
    {"b": [1, 2, 1], "a": [1.0], "kw": {"worN": 6}, "r": list(S.freqz([1, 2, 1], 1, worN=6))},
]
z, p, k = S.cheby1(3, 1, 0.4, output="zpk")
resp["freqz_zpk"] = {"z": z, "p": p, "k": k, "r": list(S.freqz_zpk(z, p, k, worN=6)),
                     "r2": list(S.freqz_zpk(z, p, k, worN=[0.1, 0.2], fs=2.0))}
sos = S.ellip(4, 1, 40, 0.3, output="sos")
resp["sosfreqz"] = {"sos": sos, "r": list(S.sosfreqz(sos, worN=9)), "rw": list(S.sosfreqz(sos, worN=6, whole=True))}
b, a = S.butter(3, 2.0, analog=True)
resp["freqs"] = {"b": b, "a": a, "r": list(S.freqs(b, a, worN=7)), "r2": list(S.freqs(b, a, worN=[0.5, 1.0, 4.0]))}
z, p, k = S.cheby2(3, 30, 2.0, analog=True, output="zpk")
resp["freqs_zpk"] = {"z": z, "p": p, "k": k, "r": list(S.freqs_zpk(z, p, k, worN=5))}
resp["findfreqs"] = {"r": S.findfreqs([1, 0], [1, 8, 25], 9), "zp": S.findfreqs([-1.0], [-2.0 + 1j, -2.0 - 1j], 5, kind="zp")}
b, a = S.cheby1(4, 1, 0.3)
resp["group_delay"] = {"b": b, "a": a, "r": list(S.group_delay((b, a), 8)),
                       "rw": list(S.group_delay((b, a), [0.1, 0.2], fs=1.0))}
out["resp"] = resp

misc = {
    "iirnotch": list(S.iirnotch(0.3, 30)), "iirnotch_fs": list(S.iirnotch(60, 30, fs=1000)),
    "iirpeak": list(S.iirpeak(0.3, 30)), "iirpeak_fs": list(S.iirpeak(1000, 20, fs=8000)),
    "iircomb": list(S.iircomb(20, 30, fs=200)), "iircomb_peak": list(S.iircomb(250, 10, "peak", fs=1000, pass_zero=True)),
    "gammatone_fir": list(S.gammatone(440, "fir", fs=16000)),
    "gammatone_fir2": list(S.gammatone(0.2, "fir", order=3, numtaps=20)),
    "gammatone_iir": list(S.gammatone(440, "iir", fs=16000)),
}
out["misc"] = misc
write("ref_design", out, "IIR prototypes, designs, orders, conversions, responses")
