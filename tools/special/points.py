"""Test points and SciPy references of every scipy.special function that
kernels/special implements (tools/special/check.py on the host; the GPU
specs' values come from the same points, see gen_refs.py). Each entry:
args() -> list of argument tuples, ref(*arrays) -> SciPy's values, ulps:
the tolerance in units of the last place, atol: an absolute floor (for
functions documented with absolute error near their zeros)."""
import mpmath as mp
import numpy as np
import scipy.special as sc

mp.mp.dps = 30

rng = np.random.default_rng(20260527)
EDGE = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.5, 1e-300, 1e-10, 1e10, 1e300, -1e10, np.inf, -np.inf, np.nan]


def lin(lo, hi, n=200):
    return list(rng.uniform(lo, hi, n))


def logu(lo, hi, n=200, sign=1):
    return list(sign * np.exp(rng.uniform(np.log(lo), np.log(hi), n)))


def one(*lists):
    pts = []
    for l in lists:
        pts += list(l)
    return [(float(v),) for v in pts]


def two(xs, ys):
    return [(float(a), float(b)) for a, b in zip(xs, ys)]


def grid(xs, ys):
    return [(float(a), float(b)) for a in xs for b in ys]


def cross(*cols):
    return [tuple(float(v) for v in t) for t in zip(*cols)]


SPECS = {}


def vec(f):
    """A numpy function of an mpmath one: nan where mpmath fails"""
    def g(*arrays):
        out = []
        for row in zip(*arrays):
            try:
                v = f(*[mp.mpf(float(a)) for a in row])
                v = complex(v)
                out.append(v.real if abs(v.imag) <= 1e-30 * max(abs(v.real), 1e-300) else np.nan)
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                out.append(np.nan)
        return np.array(out, float)
    return g


INF = float('inf')


def spec(name, args, ref, ulps=4, atol=0.0, host=None, mpf=None, fix=None):
    """mpf: the same function in mpmath; a result within tolerance of either
    SciPy's or mpmath's value passes (SciPy's own error is larger than a few
    ulps in places: rgamma, beta, betaln, poch, yn)"""
    if fix:
        # deliberate differences from SciPy 1.10 at edge values (docs/scipy-special.md)
        base = ref

        def ref(*arrays):
            r = np.array(base(*arrays), float)
            for i, row in enumerate(zip(*arrays)):
                key = tuple(float(v) for v in row)
                for k, v in fix.items():
                    if all((a == b) or (a != a and b != b) for a, b in zip(key, k)):
                        r[i] = v
            return r
    SPECS[name] = {'args': args, 'ref': ref, 'ulps': ulps, 'atol': atol, 'mp': mpf and vec(mpf), 'fix': fix}
    if host:
        SPECS[name]['host'] = host


# ---------------------------------------------------------------- gamma family
spec('gamma', lambda: one(lin(-20, 20, 300), logu(1e-5, 171), EDGE, [-1, -2, 171.7, -180.5]), sc.gamma, ulps=16, mpf=mp.gamma)
spec('rgamma', lambda: one(lin(-20, 20, 300), logu(1e-5, 180), EDGE, [-1, -2, -171.5, -180.3, 175]), sc.rgamma,
     ulps=16, mpf=mp.rgamma)
spec('gammaln', lambda: one(logu(1e-5, 1e5), lin(0.5, 3.5), lin(-20, -2.5, 50), EDGE), sc.gammaln, ulps=8,
     atol=1e-15, fix={(-INF,): INF}, mpf=lambda x: mp.log(abs(mp.gamma(x))))
spec('gammasgn', lambda: one(lin(-10, 10, 100), EDGE), sc.gammasgn, ulps=0)
spec('loggamma', lambda: one(logu(1e-5, 1e5), lin(-5, 5, 50), EDGE), sc.loggamma, ulps=8, atol=1e-15)
spec('digamma', lambda: one(logu(1e-5, 1e8), lin(1.2, 1.7, 100), lin(-10, 0, 200), EDGE), sc.digamma, ulps=32,
     atol=4e-16, mpf=mp.digamma)
spec('beta', lambda: two(logu(1e-3, 100, 300) + lin(-5, 5, 100), logu(1e-3, 100, 300) + lin(-5, 5, 100)),
     sc.beta, ulps=16, mpf=mp.beta)
spec('betaln', lambda: two(logu(1e-3, 1e6, 400), logu(1e-3, 1e6, 400)), sc.betaln, ulps=16, atol=1e-14, mpf=lambda a, b: mp.log(abs(mp.beta(a, b))))
spec('poch', lambda: two(logu(1e-2, 100, 300) + lin(-10, 10, 100), lin(-5, 5, 300) + lin(-3, 3, 100)), sc.poch,
     ulps=512, mpf=mp.rf)
spec('binom', lambda: two(lin(-10, 50, 200) + list(rng.integers(0, 60, 200)), lin(-5, 20, 200) +
                          list(rng.integers(0, 30, 200))), sc.binom, ulps=512, mpf=mp.binomial)

# ---------------------------------------------------------------- Bessel
for nm in ['i0', 'i0e', 'i1', 'i1e']:
    spec(nm, lambda: one(lin(-30, 30, 300), logu(1e-5, 700), logu(1e-5, 700, sign=-1), EDGE), getattr(sc, nm),
         ulps=8, fix={'i0': {(INF,): INF, (-INF,): INF}, 'i1': {(INF,): INF, (-INF,): -INF}}.get(nm),
         mpf={'i0': lambda x: mp.besseli(0, x), 'i1': lambda x: mp.besseli(1, x),
              'i0e': lambda x: mp.exp(-abs(x)) * mp.besseli(0, x),
              'i1e': lambda x: mp.exp(-abs(x)) * mp.besseli(1, x)}[nm])
for nm in ['k0', 'k0e', 'k1', 'k1e']:
    spec(nm, lambda: one(logu(1e-8, 700, 600), lin(0, 10, 100), EDGE), getattr(sc, nm), ulps=8,
         mpf={'k0': lambda x: mp.besselk(0, x), 'k1': lambda x: mp.besselk(1, x),
              'k0e': lambda x: mp.exp(x) * mp.besselk(0, x), 'k1e': lambda x: mp.exp(x) * mp.besselk(1, x)}[nm])
for nm in ['j0', 'j1', 'y0', 'y1']:
    spec(nm, lambda: one(logu(1e-5, 1e4, 400), lin(-30, 30), EDGE), getattr(sc, nm), ulps=8, atol=2e-16,
         fix={(INF,): 0.0, (-INF,): (0.0 if nm[0] == 'j' else np.nan)},
         mpf={'j0': lambda x: mp.besselj(0, x), 'j1': lambda x: mp.besselj(1, x),
              'y0': lambda x: mp.bessely(0, x), 'y1': lambda x: mp.bessely(1, x)}[nm])
spec('yn', lambda: two(list(rng.integers(-5, 30, 400)), logu(1e-2, 1e3, 400)), sc.yn, ulps=32, atol=1e-16, mpf=lambda n, x: mp.bessely(int(n), x))
spec('spherical_yn', lambda: two(list(rng.integers(0, 20, 400)), logu(1e-2, 1e3, 400)),
     lambda n, x: sc.spherical_yn(n.astype(int), x), ulps=16, atol=1e-16)
spec('spherical_yn_d', lambda: two(list(rng.integers(0, 20, 400)), logu(1e-2, 1e3, 400)),
     lambda n, x: sc.spherical_yn(n.astype(int), x, derivative=True), ulps=16, atol=1e-16)
