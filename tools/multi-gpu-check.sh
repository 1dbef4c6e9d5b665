#!/bin/sh
# tools/multi-gpu-check.sh: issue 31's checks on a machine with two GPUs, in
# one call, one summary line each ("PASS name" or "FAIL name" and the end of
# its output). Run from the project's root with Lua and Open MPI set up:
#   bash .device/with-lua sh tools/device-mpi.sh sh tools/multi-gpu-check.sh
# (carry .device, filled by ../shared/device/prepare and tools/device-mpi.sh
# prepare). Where mpirun is absent its steps say SKIP. The torchrun, Slurm,
# Open MPI and MPICH starts are tools/launch: two plain processes with that
# launcher's variables and the file store, the same code path as under the
# real launcher except how the processes are started.
set -u
export NCCL_NVLS_ENABLE=0                 # NVLink multicast stays off on shared machines
export LUA_PATH="lua/?.lua;lua/?/init.lua;${LUA_PATH:-;}" LUA_CPATH="build/?.so;${LUA_CPATH:-;}"
LUA=${LUA:-lua5.4}
log=$(mktemp -d)
fails=0
step() {   # step NAME EXPECTED_REGEX_OR_- CMD...: PASS when CMD succeeds and its output matches
  name=$1; want=$2; shift 2
  if timeout 240 "$@" > "$log/out" 2>&1 && { [ "$want" = - ] || grep -Eq "$want" "$log/out"; }; then
    echo "PASS $name"
  else
    echo "FAIL $name"; tail -n 15 "$log/out" | sed 's/^/    /'; fails=$((fails + 1))
  fi
  cp "$log/out" "$log/$(echo "$name" | tr -c 'a-zA-Z0-9\n' _)"
}
have_mpi() { command -v mpirun > /dev/null; }
MPIRUN="mpirun --allow-run-as-root --oversubscribe -np 2"
ranks=spec/distributed/ranks/collectives.lua

step "build" - make -j16 all
echo "GPUs: $(nvidia-smi -L 2>/dev/null | wc -l); mpirun: $(command -v mpirun || echo none)"

# one process: the specs of the room (distributed arrays on both GPUs, nccl across GPUs, SAXPY via tools/launch)
step "specs spec/distributed spec/nccl (one process, 2 GPUs)" " 0 failures / 0 errors" busted spec/distributed spec/nccl

# every collective, every start
checks_all() {   # $1: label, then the environment and the start
  label=$1; shift
  before=$fails
  step "collectives: $label" "checks passed" "$@"
  c=$(grep -Ec "rank [01] of 2: [0-9]+ checks passed" "$log/out")
  [ "$fails" != "$before" ] || [ "$c" = 2 ] || { echo "FAIL collectives: $label: $c of 2 ranks passed"; fails=$((fails + 1)); }
}
if have_mpi; then
  checks_all "mpirun -np 2 (NCCL id through MPI)" $MPIRUN $LUA $ranks
  checks_all "mpirun -np 2, sockets only (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1)" \
    env NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 $MPIRUN $LUA $ranks
else
  echo "SKIP collectives: mpirun -np 2 (no mpirun: run under tools/device-mpi.sh)"
fi
for as in torchrun slurm openmpi mpich; do
  checks_all "$as's variables + file store" sh tools/launch --as $as -n 2 -- $LUA $ranks
done
checks_all "torchrun's variables, sockets only (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1)" \
  env NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 sh tools/launch --as torchrun -n 2 -- $LUA $ranks
checks_all "torchrun's variables, blocking NCCL init" env CHECK_BLOCKING=1 sh tools/launch --as torchrun -n 2 -- $LUA $ranks

# timeouts instead of hangs: a rank that never starts, a rank that never joins NCCL
store=$(mktemp -d)
step "timeout: rank 1 never starts -> rank 0 names it" "rank 1 of 2 did not arrive within 3 s" \
  env RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 GPUARRAY_STORE=file:$store GPUARRAY_STORE_KEY=t1 \
  $LUA -e 'local ok, e = pcall(require("gpuarray").distributed.init, {timeout = 3}); print(e); os.exit(ok and 1 or 0)'
step "timeout: rank 1 takes the id but never joins NCCL -> rank 0 aborts the init" "NCCL did not connect the 2 ranks within 5 s" \
  sh -c "env RANK=1 WORLD_SIZE=2 GPUARRAY_STORE_KEY=t2 $LUA -e '
      local core = require(\"gpuarray\")._core.distributed
      require(\"gpuarray.distributed.store\").rendezvous({ dir = \"$store\", key = \"t2\", rank = 1, size = 2, timeout = 15,
        now = core.now, sleep = core.sleep, fail = error })' &
    env RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 GPUARRAY_STORE=file:$store GPUARRAY_STORE_KEY=t2 \
      $LUA -e 'local ok, e = pcall(require(\"gpuarray\").distributed.init, {timeout = 5}); print(e); os.exit(ok and 1 or 0)'
    st=\$?; wait; exit \$st"
rm -rf "$store"

# the examples: two ranks against one process
number() { sed -n "s/.*$1 \([-+0-9.e]*\).*/\1/p" "$2" | head -n 1; }
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; s = (b < 0 ? -b : b); exit !(a != "" && d <= t * s) }'; }
for ex in saxpy cg; do
  key=$( [ $ex = saxpy ] && echo "=" || echo "checksum" )
  tol=$( [ $ex = saxpy ] && echo 1e-9 || echo 1e-6 )
  step "example $ex: one process" "ranks 1" $LUA examples/multi_gpu/$ex.lua
  one=$(number "$key" "$log/out")
  starts="tools/launch"
  have_mpi && starts="$starts mpirun"
  for how in $starts; do
    if [ $how = mpirun ]; then step "example $ex: mpirun -np 2" "ranks 2" $MPIRUN $LUA examples/multi_gpu/$ex.lua
    else step "example $ex: torchrun's variables, 2 processes" "ranks 2" sh tools/launch --as torchrun -n 2 -- $LUA examples/multi_gpu/$ex.lua; fi
    two=$(number "$key" "$log/out")
    if close "$two" "$one" $tol; then echo "PASS example $ex ($how): 2 ranks $two = 1 rank $one (rel. $tol)"
    else echo "FAIL example $ex ($how): 2 ranks '$two' vs 1 rank '$one'"; fails=$((fails + 1)); fi
  done
done

# all-reduce bandwidth beside torch.distributed (when PyTorch is here)
if python3 -c 'import torch' 2> /dev/null; then
  step "bench-multi (1 GiB all-reduce vs torch.distributed)" "allreduce_busbw_ratio" sh bench/multi_gpu/run.sh
  grep -E "gpuarray allreduce|torch allreduce|ratio|started by" "$log/out" | sed 's/^/    /'
else
  echo "SKIP bench-multi: no PyTorch here"
fi

echo "multi-gpu-check: $fails failed"
rm -rf "$log"
[ "$fails" -eq 0 ]
