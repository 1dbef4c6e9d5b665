#!/usr/bin/env python3
"""Accuracy of kernels/special/*.cuh against SciPy, on the host (no GPU):
builds harness.cpp with the host C++ compiler, runs every function of
points.py at its test points and prints the worst error in ulps (with an
absolute floor where the function crosses zero) per function.

    python3 tools/special/check.py [name ...]
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import points  # noqa: E402


def build():
    # a name of its own (helpers share /tmp); SF_CXXFLAGS adds flags, e.g.
    # "-mfma -ffp-contract=fast" to contract a*b+c into fma as NVRTC does
    exe = '/tmp/sf_harness_%d' % os.getpid()
    subprocess.check_call(['c++', '-O1'] + os.environ.get('SF_CXXFLAGS', '').split() +
                          ['-I' + os.path.join(HERE, '../../kernels/special'),
                           os.path.join(HERE, 'harness.cpp'), '-o', exe])
    return exe


def run(exe, name, args):
    lines = []
    for row in args:
        row = list(row) + [0.0] * (4 - len(row))
        lines.append(name + ' ' + ' '.join(repr(float(v)) for v in row))
    out = subprocess.run([exe], input='\n'.join(lines) + '\n', capture_output=True, text=True).stdout.split()
    return np.array([float(v) for v in out])


def ulps(got, want, atol, logk=0):
    got, want = np.asarray(got, float), np.asarray(want, float)
    err = np.zeros(len(got))
    for i, (g, w) in enumerate(zip(got, want)):
        if np.isnan(g) and np.isnan(w):
            continue
        if np.isinf(w) or np.isinf(g) or np.isnan(g) or np.isnan(w):
            err[i] = 0 if g == w else np.inf
            continue
        d = abs(g - w)
        if d <= atol:
            continue
        err[i] = d / np.spacing(abs(w)) if w != 0 else np.inf
        if logk and w != 0:
            err[i] /= 1 + logk * abs(np.log(abs(w))) / 64
    return err


def main(names):
    exe = build()
    worst = []
    for name, spec in points.SPECS.items():
        if names and name not in names:
            continue
        args = spec['args']()
        want = spec['ref'](*[np.array(a, float) for a in zip(*args)])
        got = run(exe, spec.get('host', name), args)
        err = ulps(got, want, spec.get('atol', 0.0), spec.get('logk', 0))
        if spec.get('mp'):
            bad = err > spec.get('ulps', 4)
            if bad.any():
                sub = [args[i] for i in np.nonzero(bad)[0]]
                truth = spec['mp'](*[np.array(a, float) for a in zip(*sub)])
                err2 = ulps(got[bad], truth, spec.get('atol', 0.0), spec.get('logk', 0))
                err2[np.isnan(truth)] = np.inf
                err[bad] = np.minimum(err[bad], err2)
        i = int(np.argmax(err))
        flag = '' if err[i] <= spec.get('ulps', 4) else '   <-- over %g' % spec.get('ulps', 4)
        print('%-16s %5d pts  max %10.3g ulp at %s: got %r want %r%s' % (
            name, len(args), err[i], tuple(args[i]), got[i], want[i], flag))
        if flag:
            worst.append(name)
    print('over tolerance:', ' '.join(worst) if worst else 'none')
    os.remove(exe)


if __name__ == '__main__':
    main(sys.argv[1:])
