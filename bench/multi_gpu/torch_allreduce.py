"""The reference for bench/multi_gpu/allreduce.lua: torch.distributed's
all_reduce over NCCL, one process per GPU, the same bytes, warm-up,
iterations and timing (CUDA events on the current stream)."""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def run(rank, nranks, nbytes, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=nranks, device_id=torch.device("cuda", rank))
    x = torch.zeros(nbytes // 4, dtype=torch.float32, device="cuda")
    for _ in range(5):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    t0 = torch.cuda.Event(enable_timing=True)
    t1 = torch.cuda.Event(enable_timing=True)
    iters = 20
    t0.record()
    for _ in range(iters):
        dist.all_reduce(x)
    t1.record()
    t1.synchronize()
    ms = t0.elapsed_time(t1) / iters
    algbw = nbytes / (ms * 1e6)
    if rank == 0:
        v = torch.cuda.nccl.version()
        print("torch allreduce: bytes=%d ranks=%d nccl=%s ms=%.4f algbw=%.1f busbw=%.1f"
              % (nbytes, nranks, ".".join(map(str, v)), ms, algbw, algbw * 2 * (nranks - 1) / nranks),
              flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else torch.cuda.device_count()
    nbytes = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
    mp.spawn(run, args=(n, nbytes, 29500 + os.getpid() % 1000), nprocs=n)
