#!/bin/sh
# make bench-multi: the all-reduce bandwidth of ga.distributed beside
# PyTorch's, one process per GPU started by mpirun (Open MPI: the ranks get
# NCCL's id through MPI; without mpirun, tools/launch with torchrun's
# variables and the file store), same machine, same call, same NCCL library when
# PyTorch's can be found (its wheel's libnccl, handed to gpuarray through
# GPUARRAY_NCCL), and the ratio of the bus bandwidths.
set -e
export NCCL_NVLS_ENABLE=0       # NVLink multicast stays off on shared machines
n=${NRANKS:-2}
bytes=${BYTES:-1073741824}
if [ -z "$GPUARRAY_NCCL" ]; then
  lib=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null || true)
  [ -n "$lib" ] && [ -f "$lib" ] && export GPUARRAY_NCCL="$lib"
fi
export LUA_PATH="lua/?.lua;lua/?/init.lua;${LUA_PATH:-;}" LUA_CPATH="build/?.so;${LUA_CPATH:-;}"
if command -v mpirun > /dev/null; then
  start="mpirun --allow-run-as-root --oversubscribe -np $n"   # one node: the ranks inherit this environment
else
  start="sh tools/launch --as torchrun -n $n --"
fi
echo "started by: $start"
ours=$($start ${LUA:-lua5.4} bench/multi_gpu/allreduce.lua "$bytes" | grep 'gpuarray allreduce')
blocking=$(BENCH_BLOCKING=1 $start ${LUA:-lua5.4} bench/multi_gpu/allreduce.lua "$bytes" | grep 'gpuarray allreduce' || true)
theirs=$(python3 bench/multi_gpu/torch_allreduce.py "$n" "$bytes" 2>&1 | grep 'torch allreduce')
echo "${ours#\[rank 0\] }"
echo "${blocking#\[rank 0\] }"
echo "$theirs"
a=$(echo "$ours" | sed 's/.*busbw=//'); b=$(echo "$theirs" | sed 's/.*busbw=//')
echo "allreduce_busbw_ratio $(echo "$a $b" | awk '{printf "%.3f", $1 / $2}') (gpuarray / torch.distributed)"
c=$(echo "$blocking" | sed 's/.*busbw=//; s/ .*//')
[ -n "$blocking" ] && echo "allreduce_busbw_ratio_blocking_init $(echo "$c $b" | awk '{printf "%.3f", $1 / $2}')"
exit 0
