#!/usr/bin/env python3
"""Coefficients of the approximations in kernels/special/*.cuh, computed
here with mpmath (Debian: python3-mpmath) at 50 digits: Chebyshev series of
the scaled Bessel functions, of J0 J1 Y0 Y1 and their modulus and phase
functions, of 1/Gamma(1 + z) (Temme's method), and the Taylor series of
digamma about its positive root.
Prints C initialisers; paste them into the .cuh files.

    python3 tools/special/gen_coeffs.py [name]
"""
import sys
import mpmath as mp

mp.mp.dps = 50


def cheb(f, n=64, tol=mp.mpf('1e-19')):
    """Chebyshev coefficients c_k of f(t) on [-1, 1], sum c_k T_k(t) with
    c_0 taken whole; trailing ones below tol * max dropped."""
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / n) for j in range(n)]
    vals = [f(t) for t in nodes]
    c = []
    for k in range(n):
        s = mp.fsum(vals[j] * mp.cos(mp.pi * k * (j + mp.mpf(1) / 2) / n) for j in range(n))
        c.append(2 * s / n)
    c[0] /= 2
    big = max(abs(v) for v in c)
    while abs(c[-1]) < tol * big:
        c.pop()
    return c


def show(name, c):
    print('// %s: %d terms' % (name, len(c)))
    print(',\n'.join('%.20e' % float(v) for v in c))
    print()


def bessel():
    # I0, I1 on [0, 8]: t = x / 4 - 1
    show('e^-x I0(x), x in [0, 8], t = x/4 - 1', cheb(lambda t: mp.exp(-(4 * (t + 1))) * mp.besseli(0, 4 * (t + 1))))

    def i1s(t):
        x = 4 * (t + 1)
        return mp.mpf(1) / 2 if x == 0 else mp.exp(-x) * mp.besseli(1, x) / x
    show('e^-x I1(x) / x, x in [0, 8], t = x/4 - 1', cheb(i1s))

    # x > 8: sqrt(x) e^-x I(x), u = 8 / x in (0, 1], t = 2u - 1
    def big(nu):
        def f(t):
            u = (t + 1) / 2
            if u == 0:
                return 1 / mp.sqrt(2 * mp.pi)
            x = 8 / u
            return mp.sqrt(x) * mp.exp(-x) * mp.besseli(nu, x)
        return f
    show('sqrt(x) e^-x I0(x), x >= 8, t = 16/x - 1', cheb(big(0)))
    show('sqrt(x) e^-x I1(x), x >= 8, t = 16/x - 1', cheb(big(1)))

    # K0, K1 on (0, 2]: smooth functions of y = x^2, t = y/2 - 1
    def k0s(t):
        y = 2 * (t + 1)
        if y == 0:
            return -mp.euler
        x = mp.sqrt(y)
        return mp.besselk(0, x) + mp.log(x / 2) * mp.besseli(0, x)
    show('K0(x) + log(x/2) I0(x), y = x^2 in [0, 4], t = y/2 - 1', cheb(k0s))

    def k1s(t):
        y = 2 * (t + 1)
        if y == 0:
            return mp.mpf(1)
        x = mp.sqrt(y)
        return x * mp.besselk(1, x) - x * mp.log(x / 2) * mp.besseli(1, x)
    show('x K1(x) - x log(x/2) I1(x), y = x^2 in [0, 4], t = y/2 - 1', cheb(k1s))

    def kbig(nu):
        def f(t):
            u = (t + 1) / 2
            if u == 0:
                return mp.sqrt(mp.pi / 2)
            x = 2 / u
            return mp.sqrt(x) * mp.exp(x) * mp.besselk(nu, x)
        return f
    show('sqrt(x) e^x K0(x), x >= 2, t = 4/x - 1', cheb(kbig(0), 80))
    show('sqrt(x) e^x K1(x), x >= 2, t = 4/x - 1', cheb(kbig(1), 80))


def besjy():
    """J0 J1 Y0 Y1 (sf_besjy.cuh). On [0, 5], smooth functions of y = x^2
    (t = 2y/25 - 1): J0 / ((y - j01^2)(y - j02^2)) and J1 / (x (y - j11^2))
    (the zeros taken out, so that J keeps its relative accuracy near them;
    the squared zeros in two parts), (pi/2 Y0 - log(C x) J0) / (y/4) with
    C = e^euler / 2, (Y1 - 2/pi (log(x/2) J1 - 1/x)) / x. Past 5, the
    modulus and phase functions P, Q of J_n = sqrt(2/(pi x)) (P cos th -
    Q sin th), Y_n = sqrt(2/(pi x)) (P sin th + Q cos th), th = x - (2n + 1)
    pi/4, as functions of u = (5/x)^2 (t = 2u - 1; Q times x)."""
    X0 = 5
    j01, j02, j11 = mp.besseljzero(0, 1) ** 2, mp.besseljzero(0, 2) ** 2, mp.besseljzero(1, 1) ** 2
    for name, z in (('j01^2', j01), ('j02^2', j02), ('j11^2', j11)):
        hi = float(z)
        print('// %s = %.17g + %.17g' % (name, hi, float(z - mp.mpf(hi))))

    def small(kind):
        def f(t):
            y = X0 * X0 * (t + 1) / 2
            x = mp.sqrt(y)
            j0, j1 = mp.besselj(0, x), mp.besselj(1, x)
            if kind == 'j0':
                return j0 / ((y - j01) * (y - j02))
            if kind == 'j1':
                return j1 / x / (y - j11)
            if kind == 'y0':
                return (mp.pi / 2 * mp.bessely(0, x) - mp.log(x * mp.exp(mp.euler) / 2) * j0) / (y / 4)
            return (mp.bessely(1, x) - 2 / mp.pi * (mp.log(x / 2) * j1 - 1 / x)) / x
        return f
    show('J0(x) / ((x^2 - j01^2)(x^2 - j02^2)), x in [0, 5], t = 2 x^2/25 - 1', cheb(small('j0')))
    show('J1(x) / (x (x^2 - j11^2)), x in [0, 5], t = 2 x^2/25 - 1', cheb(small('j1')))
    show('(pi/2 Y0(x) - log(C x) J0(x)) / (x^2/4), x in [0, 5], t = 2 x^2/25 - 1', cheb(small('y0')))
    show('(Y1(x) - 2/pi (log(x/2) J1(x) - 1/x)) / x, x in [0, 5], t = 2 x^2/25 - 1', cheb(small('y1')))

    def pq(n, which):
        def f(t):
            u = (t + 1) / 2
            x = X0 / mp.sqrt(u)
            th = x - (2 * n + 1) * mp.pi / 4
            j, y = mp.besselj(n, x), mp.bessely(n, x)
            s = mp.sqrt(mp.pi * x / 2)
            if which == 'p':
                return s * (j * mp.cos(th) + y * mp.sin(th))
            return s * (y * mp.cos(th) - j * mp.sin(th)) * x
        return f
    for n in (0, 1):
        show('P%d(x), x >= 5, t = 2 (5/x)^2 - 1' % n, cheb(pq(n, 'p')))
        show('x Q%d(x), x >= 5, t = 2 (5/x)^2 - 1' % n, cheb(pq(n, 'q')))


def rgamma1():
    """1/Gamma(1 + z) = sum r_k z^k for |z| <= 1/2 (Temme's gamma functions
    of sf_besselv.cuh), as its even and odd parts: sum r_2j z^2j and
    sum r_2j+1 z^2j"""
    c = mp.taylor(lambda z: mp.rgamma(1 + z), 0, 40)
    n = max(k for k, v in enumerate(c) if abs(v) * mp.mpf('0.5') ** k > mp.mpf('1e-19')) + 1
    show('1/Gamma(1 + z), even part in z^2', c[0:n:2])
    show('1/Gamma(1 + z), odd part / z in z^2', c[1:n:2])


def digamma_root():
    x0 = mp.findroot(mp.digamma, 1.46)
    print('// digamma root x0 = %.25f' % float(x0), mp.nstr(x0, 40))
    c = [(-1) ** (k + 1) * mp.zeta(k + 1, x0) for k in range(1, 40)]
    c = [v for v in c if abs(v) * mp.mpf('0.25') ** 0 > 0]
    # terms d^k with |d| < 0.25: keep while c_k 0.25^k > 1e-19
    keep = [v for k, v in enumerate(c, 1) if abs(v) * mp.mpf('0.25') ** k > mp.mpf('1e-19')]
    show('psi(x0 + d) / d = sum c[k] d^k', keep)


if __name__ == '__main__':
    what = sys.argv[1] if len(sys.argv) > 1 else 'all'
    if what in ('all', 'bessel'):
        bessel()
    if what in ('all', 'besjy'):
        besjy()
    if what in ('all', 'rgamma1'):
        rgamma1()
    if what in ('all', 'digamma'):
        digamma_root()
