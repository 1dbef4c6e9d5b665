#!/bin/bash
# nvtx-check.sh: does a profiler see ga.profiler's ranges around gpuarray's
# kernels? Runs a script that puts the range "gpuarray-nvtx-check" around a
# matmul under whichever of Nsight Systems (nsys) and Nsight Compute (ncu)
# exists, and prints what the report shows of the range: nsys's NVTX
# summary line, or the kernels ncu profiled inside the range (--nvtx-include
# profiles only those). With neither tool it says so and checks the calls
# through tools/nvtx-inject.c, a minimal NVTX tool that prints each push
# and pop. Run from the repository root after `make` (tools/devrun.sh nvtx).
# The last line: "nvtx-check: ok (<how>)" or "nvtx-check: FAILED (<why>)".
cd "$(dirname "$0")/.." || exit 1
LUA=${LUA:-lua5.4}
RANGE=gpuarray-nvtx-check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;"
if ! "$LUA" -e 'os.exit(require("gpuarray").is_available() and 0 or 1)' 2>/dev/null; then
  echo "nvtx-check: skipped: no CUDA device"
  exit 0
fi
# where the toolkit and the Nsight installers put the tools
for d in "${CUDA_HOME:-/usr/local/cuda}/bin" /opt/nvidia/nsight-systems/*/bin /usr/local/cuda/nsight-compute-* \
         /opt/nvidia/nsight-compute/*; do
  [ -d "$d" ] && PATH=$PATH:$d
done
cat >"$tmp/range.lua" <<LUA
local ga = require "gpuarray"
local a = ga.random.rand(512, 512):astype("float32")
local b = ga.random.rand(512, 512):astype("float32")
ga.matmul(a, b)   -- compiled and warmed outside the range
ga.synchronize()
local c = ga.profiler.time_range("$RANGE", function() return ga.matmul(a, b) end, { sync = true })
print(("matmul inside the range: %d x %d, sum %.3f"):format(c.shape[1], c.shape[2], c:sum():item()))
LUA
ok=0
if command -v nsys >/dev/null 2>&1; then
  echo "nsys: $(nsys --version 2>&1 | head -n 1)"
  if nsys profile --trace=cuda,nvtx --force-overwrite true -o "$tmp/report" "$LUA" "$tmp/range.lua" \
       >"$tmp/nsys.log" 2>&1; then
    # the NVTX summary (nvtx_sum; nvtxsum in older releases) names the range
    for r in nvtx_sum nvtxsum; do
      nsys stats --report "$r" --format csv "$tmp/report.nsys-rep" >"$tmp/nvtx.csv" 2>/dev/null && break
    done
    if grep -q "$RANGE" "$tmp/nvtx.csv"; then
      echo "nsys: the report's NVTX ranges include it:"
      grep "$RANGE" "$tmp/nvtx.csv"
      nsys stats --report cuda_gpu_kern_sum --format csv "$tmp/report.nsys-rep" 2>/dev/null | head -n 4
      ok=1 how="nsys"
    else
      echo "nsys: the range is not in the report's NVTX summary:"; head -n 20 "$tmp/nvtx.csv"
    fi
  else
    echo "nsys profile failed:"; tail -n 20 "$tmp/nsys.log"
  fi
fi
if [ $ok = 0 ] && command -v ncu >/dev/null 2>&1; then
  echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
  # only the kernels launched inside the range are profiled
  if ncu --nvtx --nvtx-include "$RANGE/" --metrics gpu__time_duration.sum "$LUA" "$tmp/range.lua" \
       >"$tmp/ncu.log" 2>&1 && grep -q -E '^  [^ ].*\(([0-9]+, ?)+[0-9]+\)x\(' "$tmp/ncu.log"; then
    echo "ncu: kernels profiled inside the range $RANGE (--nvtx-include $RANGE/):"
    grep -E '^  [^ ].*\(([0-9]+, ?)+[0-9]+\)x\(' "$tmp/ncu.log" | head -n 5
    ok=1 how="ncu --nvtx"
  else
    echo "ncu: no kernel profiled inside the range:"; tail -n 20 "$tmp/ncu.log"
  fi
fi
if [ $ok = 0 ] && ! command -v nsys >/dev/null 2>&1 && ! command -v ncu >/dev/null 2>&1; then
  echo "neither nsys nor ncu is installed here: the NVTX calls checked through tools/nvtx-inject.c instead"
  if cc -shared -fPIC -I"${CUDA_HOME:-/usr/local/cuda}/include" -o "$tmp/inject.so" tools/nvtx-inject.c &&
     NVTX_INJECTION64_PATH="$tmp/inject.so" "$LUA" "$tmp/range.lua" >"$tmp/inject.log" 2>&1; then
    cat "$tmp/inject.log"
    grep -q "^nvtx: push $RANGE\$" "$tmp/inject.log" && ok=1 how="tools/nvtx-inject.c, no Nsight tool here"
  else
    cat "$tmp/inject.log" 2>/dev/null
  fi
fi
if [ $ok = 1 ]; then echo "nvtx-check: ok ($how: the range $RANGE around a matmul)"
else echo "nvtx-check: FAILED (the range $RANGE was not seen)"; exit 1; fi
