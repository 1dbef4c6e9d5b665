#!/usr/bin/env python3
"""CuPy's side of bench/fftrand.lua only (the same keys and measures as
../shared/bench/cupy_ref.py, whose helpers it imports), for one device call
that runs both. Usage: python3 bench/cupy_fftrand.py PATH/TO/cupy_ref.py"""
import importlib.util
import json
import sys

import cupy as cp

spec = importlib.util.spec_from_file_location("cupy_ref", sys.argv[1])
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
gpu_ms, gbps, N = ref.gpu_ms, ref.gbps, ref.N

r = {}
x = cp.random.random(N, dtype=cp.float32)
y = cp.random.random(N, dtype=cp.float32)
c = (x[:1 << 24] + 1j * y[:1 << 24]).astype(cp.complex64)
r['fft_c64_2^24_ms'] = gpu_ms(lambda: cp.fft.fft(c))
r['rfft_f32_2^24_ms'] = gpu_ms(lambda: cp.fft.rfft(x[:1 << 24]))
c2 = c.reshape(4096, 4096)
r['fft2_c64_4096^2_ms'] = gpu_ms(lambda: cp.fft.fft2(c2))
r['rand_f32_GBps'] = gbps(4 * N, lambda: cp.random.random(N, dtype=cp.float32))
r['randn_f32_GBps'] = gbps(4 * N, lambda: cp.random.standard_normal(N, dtype=cp.float32))
rng = cp.random.default_rng(1234)
r['rng_random_f32_GBps'] = gbps(4 * N, lambda: rng.random(N, dtype=cp.float32))
r['rng_normal_f32_GBps'] = gbps(4 * N, lambda: rng.standard_normal(N, dtype=cp.float32))
r['randint_i32_GBps'] = gbps(4 * N, lambda: cp.random.randint(0, 1000, N, dtype=cp.int32))
z = cp.empty_like(x)
r['copy_f32_GBps'] = gbps(8 * N, lambda: cp.copyto(z, x))
r['_meta'] = {'impl': 'cupy ' + cp.__version__}
json.dump(r, sys.stdout, indent=1)
print()
