--- One rank of the all-reduce bandwidth bench, one process per GPU as
-- PyTorch's torch.distributed runs, started by mpirun (or tools/launch):
-- ga.distributed.init from the launcher's environment, then an in-place
-- sum of SIZE bytes of float32, WARMUP untimed then ITERS timed between two
-- events on the current stream. Rank 0 prints one line: bytes, ms per
-- call, algorithm and bus bandwidth (GB/s), bus = algorithm x 2(n-1)/n, the
-- figure nccl-tests reports.
local ga = require "gpuarray"

local D = ga.distributed
-- BENCH_BLOCKING=1: NCCL's blocking init (a non-blocking communicator's
-- calls return before NCCL's own thread has queued them; the bench shows both)
D.init({ timeout = 120, blocking = os.getenv("BENCH_BLOCKING") == "1" })
local rank, nranks = D.rank(), D.size()
local bytes = tonumber(arg[1]) or (1 << 30)
local iters, warmup = 20, 5

local x = ga.zeros(bytes // 4, "float32")
for _ = 1, warmup do D.all_reduce(x) end
ga.synchronize()
local t0, t1 = ga.Event(), ga.Event()
t0:record()
for _ = 1, iters do D.all_reduce(x) end
t1:record()
t1:synchronize()
local ms = ga.get_elapsed_time(t0, t1) / iters
local algbw = bytes / (ms * 1e6)
if rank == 0 then
  print(("gpuarray allreduce: bytes=%d ranks=%d nccl=%d ms=%.4f algbw=%.1f busbw=%.1f"):format(
    bytes, nranks, ga.nccl.get_version(), ms, algbw, algbw * 2 * (nranks - 1) / nranks)
    .. (os.getenv("BENCH_BLOCKING") == "1" and " (blocking init)" or ""))
end
D.finalize()
