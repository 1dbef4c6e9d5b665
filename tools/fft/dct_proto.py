#!/usr/bin/env python3
"""The DCT/DST algorithms of lua/gpuarray/scipy/fft/dct.lua, step for step
in NumPy (each function here is one kernel or one cuFFT call there), checked
against scipy.fft for every type, norm and orthogonalize, odd and even
lengths. Run: python3 tools/fft/dct_proto.py (prints the worst error)."""
import numpy as np
import scipy.fft as sf


# ---- the kernels (over the last axis) ----
def permute2(x):                      # v[j] = x[2j] (j < ceil(N/2)), x[2(N-1-j)+1] after
    N = x.shape[-1]
    j = np.arange(N)
    src = np.where(j < (N + 1) // 2, 2 * j, 2 * (N - 1 - j) + 1)
    return x[..., src]


def twiddle2(V, N):                   # y[k] = 2 Re(exp(-i pi k / 2N) V[k]), V[k] = conj(V[N-k]) past N/2
    k = np.arange(N)
    M = V.shape[-1]
    Vk = np.where(k < M, V[..., np.minimum(k, M - 1)], np.conj(V[..., np.minimum(N - k, M - 1)]))
    th = np.pi * k / (2 * N)
    return 2 * (Vk.real * np.cos(th) + Vk.imag * np.sin(th))


def twiddle3(x):                      # V[k] = exp(i pi k / 2N) (x[k] - i x[N-k]) / 2, k <= N/2 (x[N] = 0)
    N = x.shape[-1]
    k = np.arange(N // 2 + 1)
    xk = x[..., k]
    xnk = np.where(k > 0, x[..., (N - k) % N], 0)
    th = np.pi * k / (2 * N)
    re, im = xk, -xnk
    c, s = np.cos(th), np.sin(th)
    return 0.5 * ((re * c - im * s) + 1j * (re * s + im * c))


def unpermute3(v):                    # u[2n] = v[n], u[2n+1] = v[N-1-n]
    N = v.shape[-1]
    m = np.arange(N)
    src = np.where(m % 2 == 0, m // 2, N - 1 - (m - 1) // 2)
    return v[..., src]


def dct2_core(x):
    N = x.shape[-1]
    return twiddle2(np.fft.rfft(permute2(x)), N)


def dct3_core(x):                     # 2N times the inverse of dct2_core
    N = x.shape[-1]
    return 2 * N * unpermute3(np.fft.irfft(twiddle3(x), n=N))


def dct1_core(x):                     # even extension of length 2(N-1), real part
    N = x.shape[-1]
    z = np.concatenate([x, x[..., -2:0:-1]], axis=-1)
    return np.fft.rfft(z).real[..., :N]


def dst1_core(x):                     # odd extension of length 2(N+1), minus the imaginary part
    N = x.shape[-1]
    zero = np.zeros(x.shape[:-1] + (1,))
    z = np.concatenate([zero, x, zero, -x[..., ::-1]], axis=-1)
    return -np.fft.rfft(z).imag[..., 1:N + 1]


def dct4_core(x):                     # 2 Re(exp(-i pi (2k+1) / 4N) FFT_2N(x_n exp(-i pi n / 2N))[k])
    N = x.shape[-1]
    n = np.arange(N)
    z = np.zeros(x.shape[:-1] + (2 * N,), complex)
    z[..., :N] = x * np.exp(-1j * np.pi * n / (2 * N))
    Z = np.fft.fft(z)[..., :N]
    return 2 * (Z * np.exp(-1j * np.pi * (2 * n + 1) / (4 * N))).real


def alt(N):
    return (-1.0) ** np.arange(N)


def core(kind, t, x):
    N = x.shape[-1]
    if kind == 'dct':
        return {1: dct1_core, 2: dct2_core, 3: dct3_core, 4: dct4_core}[t](x)
    if t == 1:
        return dst1_core(x)
    if t == 2:
        return dct2_core(x * alt(N))[..., ::-1]
    if t == 3:
        return alt(N) * dct3_core(x[..., ::-1])
    return alt(N) * dct4_core(x[..., ::-1])


def transform(kind, t, x, norm, orth):
    """the forward transform of type t with SciPy's norm: pre-scaled entries,
    core, post-scaled entries and the overall factor"""
    N = x.shape[-1]
    x = np.array(x, float)
    if norm is None:
        norm = 'backward'
    if orth is None:
        orth = norm == 'ortho'
    size = {1: 2 * (N - 1) if kind == 'dct' else 2 * (N + 1)}.get(t, 2 * N)
    f = {'backward': 1.0, 'forward': 1.0 / size, 'ortho': 1.0 / np.sqrt(size)}[norm]
    if orth:
        if kind == 'dct' and t == 1:
            x[..., 0] *= np.sqrt(2); x[..., -1] *= np.sqrt(2)
        if kind == 'dct' and t == 3:
            x[..., 0] *= np.sqrt(2)
        if kind == 'dst' and t == 3:          # SciPy 1.10's: the first entry (not the last)
            x[..., 0] *= np.sqrt(2)
    y = core(kind, t, x) * f
    if orth:
        if kind == 'dct' and t == 1:
            y[..., 0] /= np.sqrt(2); y[..., -1] /= np.sqrt(2)
        if kind == 'dct' and t == 2:
            y[..., 0] /= np.sqrt(2)
        if kind == 'dst' and t == 2:          # likewise
            y[..., 0] /= np.sqrt(2)
    return y


INVERSE = {1: 1, 2: 3, 3: 2, 4: 4}
SWAP = {'backward': 'forward', 'forward': 'backward', 'ortho': 'ortho', None: 'forward'}


def inverse(kind, t, x, norm, orth):
    """idct/idst of type t: the forward transform of the inverse type with the norm's direction swapped"""
    return transform(kind, INVERSE[t], x, SWAP[norm], orth)


def main():
    rng = np.random.default_rng(1)
    worst = 0
    for N in [2, 3, 4, 5, 8, 17, 64]:
        x = rng.normal(size=(3, N))
        for kind in ['dct', 'dst']:
            for t in [1, 2, 3, 4]:
                if kind == 'dct' and t == 1 and N < 2:
                    continue
                for norm in [None, 'backward', 'ortho', 'forward']:
                    for orth in [None, True, False]:
                        ref = getattr(sf, kind)(x, type=t, norm=norm, orthogonalize=orth)
                        got = transform(kind, t, x, norm, orth)
                        e = np.max(np.abs(got - ref)) / np.max(np.abs(ref))
                        refi = getattr(sf, 'i' + kind)(x, type=t, norm=norm, orthogonalize=orth)
                        goti = inverse(kind, t, x, norm, orth)
                        ei = np.max(np.abs(goti - refi)) / np.max(np.abs(refi))
                        if max(e, ei) > 1e-12:
                            print('MISMATCH', kind, t, N, norm, orth, e, ei)
                        worst = max(worst, e, ei)
    print('worst relative error', worst)


if __name__ == '__main__':
    main()
