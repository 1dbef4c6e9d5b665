# CuPy's side of tools/probe/shortfall.lua, for ncu
import sys, cupy as cp, cupyx, cupyx.scipy.ndimage as nd
which = sys.argv[1] if len(sys.argv) > 1 else "all"
N = 1 << 26
x = cp.random.random(N, dtype=cp.float32)
def run(name, f):
    if which not in ("all", name): return
    f(); cp.cuda.Device().synchronize()
    for _ in range(3): f()
    cp.cuda.Device().synchronize()
run("copy", lambda: x.copy())
run("sum_f32", lambda: x.sum())
xn = cp.where(x < 0.01, cp.nan, x).astype(cp.float32)
run("nanmean", lambda: cp.nanmean(xn))
A = cp.random.random((4096, 4096), dtype=cp.float32)
run("pad", lambda: cp.pad(A, 32, "reflect"))
Q = 1 << 24
acc = cp.zeros(1 << 16, cp.float32)
idx = cp.random.randint(0, 1 << 16, Q).astype(cp.int64)
w = x[:Q]
run("add_at", lambda: cupyx.scatter_add(acc, idx, w))
img2 = cp.random.random((2048, 2048), dtype=cp.float32)
P = 1 << 22
coords = (cp.random.random((2, P), dtype=cp.float32) * 2047).astype(cp.float32)
run("map_coordinates", lambda: nd.map_coordinates(img2, coords, order=1))
try:
    import torch
    xb = torch.rand(N, device="cuda", dtype=torch.bfloat16)
    def tsum():
        return xb.sum()
    if which in ("all", "sum_bf16"):
        tsum(); torch.cuda.synchronize()
        for _ in range(3): tsum()
        torch.cuda.synchronize()
except Exception as e:
    print("torch:", e)
