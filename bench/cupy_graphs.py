#!/usr/bin/env python3
"""CuPy's side of bench/graphs.lua only: runs fusion_and_graphs of
../shared/bench/cupy_ref.py (on small inputs: its fuse cases are not
wanted here) and prints the two keys bench/graphs.lua twins,
eager_100ops_us and graph_100ops_us, for one device call that runs both.
Usage: python3 bench/cupy_graphs.py PATH/TO/cupy_ref.py"""
import importlib.util
import json
import sys

import cupy as cp

spec = importlib.util.spec_from_file_location("cupy_ref", sys.argv[1])
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)

r = {}
x, y, z = [cp.random.random(1 << 20, dtype=cp.float32) for _ in range(3)]
ref.fusion_and_graphs(r, x, y, z)
keys = ('eager_100ops_us', 'graph_100ops_us')
out = {k: r[k] for k in keys}
out['_meta'] = {'impl': 'cupy ' + cp.__version__}
print(json.dumps(out, indent=2))
