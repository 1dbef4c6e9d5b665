#!/bin/bash
# One device call, several steps (../shared/device says how the GPU machine
# is reached): run from the repository root as
#   bash tools/devrun.sh test bench probes race+memcheck+gcstress ...
# with carry [".device"]. Steps run in the order given; a step of several
# names joined by '+' runs them at the same time (the sanitizers and the
# collector stress are slow and mostly idle the GPU). Steps:
#   test      make test (every spec file in its own busted process)
#   bench     make bench, CuPy's cupy_ref.py, and compare.py's ratios
#   benchlazy make bench-lazy (lazy on, then off) and cupy_ref.py: ratios
#             of each to CuPy and of on to off (issue 29)
#   basebench the tree in .base (carried) built and benched; its ratios to
#             the bench step's results (run bench first)
#   probes    bench/launch_floor.cu and bench/write_ceiling.cu: what one
#             launch costs, and how fast the GPU writes memory
#   sanitize  make sanitize (memcheck of the suite, racecheck, synccheck)
#   race      make sanitize without memcheck (racecheck and synccheck)
#   memcheck  memcheck alone, on MEMCHECK_SPECS (default: the whole suite)
#   gcstress  make gcstress (a full collection at every allocation, then
#             the generational collector), on GCSTRESS_SPECS (default: all)
#   examples  make examples: every examples/**/*.lua and the C hosts, each
#             checking its own result (tools/run-examples)
#   difftest  make difftest N=${N:-300}
#   nvtx      tools/nvtx-check.sh: a ga.profiler range around a matmul, as
#             nsys or ncu --nvtx report it
#   sh:CMD    any shell command (through .device/with-lua)
# Each step has its own time limit (STEP_TIMEOUT, default 560 s; make test
# took 171 s on an H100 one day and over 205 s on another) and log; after
# a step, nothing it started may still run (a spec file left running once
# slowed the bench that followed it by up to 2x).
# Summary lines print as they come and go to $OUT/summary.txt at once (a
# call cut short still returns them); every log is packed into
# $OUT/logs.tgz at the end.
cd "$(dirname "$0")/.." || exit 1
W="bash .device/with-lua"
# the host examples link liblua5.4 from the carried packages (.device)
export LIBRARY_PATH=/opt/luaroot/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
L=$(mktemp -d)
OUT=${OUT:-/tmp/devrun-out}
mkdir -p "$OUT"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
say "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
say "tree: $(find src lua kernels spec bench tools -type f | sort | xargs cat | md5sum | cut -c1-12) (md5 of the sources)"
$W make -j16 all >"$L/build.log" 2>&1 || { tail -n 30 "$L/build.log"; exit 1; }
lim() { timeout "${STEP_TIMEOUT:-560}" "$@"; }

run_step() {
  local step=$1 t0
  t0=$(date +%s)
  case $step in
    test)
      lim $W make test >"$L/test.log" 2>&1
      say "test: rc=$? $(tail -n 1 "$L/test.log") ($(( $(date +%s) - t0 )) s)"
      grep -a -E '^(Failure|Error) → ' -A 6 "$L/test.log" | head -n 60
      grep -a '^busted did not finish' "$L/test.log";;
    bench)
      lim $W make bench >"$L/ours.json" 2>"$L/bench.err"
      say "bench: rc=$? ($(( $(date +%s) - t0 )) s)"
      lim python3 .device/bench/cupy_ref.py >"$L/cupy.json" 2>"$L/cupy.err"
      say "cupy_ref: rc=$? ($(( $(date +%s) - t0 )) s)"
      python3 .device/bench/compare.py "$L/ours.json" "$L/cupy.json" >"$L/compare.txt" 2>&1
      cat "$L/compare.txt"; cp "$L/compare.txt" "$L/ours.json" "$L/cupy.json" "$OUT/"
      grep -v '^$' "$L/bench.err" | tail -n 5;;
    benchlazy)
      # issue 29: make bench with lazy evaluation on, then off, in this call,
      # beside cupy_ref.py: each side's ratios to CuPy, and on's to off's
      lim $W make bench-lazy >"$L/bench-lazy.txt" 2>"$L/bench-lazy.err"
      say "bench-lazy: rc=$? ($(( $(date +%s) - t0 )) s)"
      awk '/^== lazy on/{f="on"; next} /^== lazy off/{f="off"; next} f{print > ("'"$L"'/lazy-" f ".json")}' \
        "$L/bench-lazy.txt"
      lim python3 .device/bench/cupy_ref.py >"$L/cupy.json" 2>"$L/cupy.err"
      say "cupy_ref: rc=$? ($(( $(date +%s) - t0 )) s)"
      for side in on off; do
        python3 .device/bench/compare.py "$L/lazy-$side.json" "$L/cupy.json" >"$L/compare-$side.txt" 2>&1
        echo "== lazy $side vs CuPy"; cat "$L/compare-$side.txt"
      done
      python3 .device/bench/compare.py "$L/lazy-on.json" "$L/lazy-off.json" >"$L/on-vs-off.txt" 2>&1
      echo "== lazy on vs lazy off (off as the reference)"; cat "$L/on-vs-off.txt"
      cp "$L"/lazy-*.json "$L/cupy.json" "$L"/compare-*.txt "$L/on-vs-off.txt" "$OUT/"
      grep -v '^$' "$L/bench-lazy.err" | tail -n 5;;
    basebench)
      # the tree before a change (.base, carried: git archive of the commit
      # before it) built and benched in the same call, and our bench's ratio
      # to it (run after bench: compare.py ours.json base.json, base as the
      # reference, so speedup > 1 means the change is faster)
      (cd .base && rm -rf build && bash ../.device/with-lua make -j16 all >"$L/base-build.log" 2>&1 &&
        lim bash ../.device/with-lua make bench >"$L/base.json" 2>"$L/base.err")
      say "basebench: rc=$? ($(( $(date +%s) - t0 )) s)"
      if [ -s "$L/ours.json" ]; then
        python3 .device/bench/compare.py "$L/ours.json" "$L/base.json" >"$L/vs-base.txt" 2>&1
        cp "$L/vs-base.txt" "$L/base.json" "$OUT/"; cat "$L/vs-base.txt"
      fi;;
    probes)
      nvcc -O2 -o "$L/launch_floor" bench/launch_floor.cu -lcuda >"$L/probes.log" 2>&1 &&
        "$L/launch_floor" >>"$L/probes.log" 2>&1
      nvcc -O3 -arch=native -o "$L/write_ceiling" bench/write_ceiling.cu >>"$L/probes.log" 2>&1 &&
        "$L/write_ceiling" >>"$L/probes.log" 2>&1
      say "probes: ($(( $(date +%s) - t0 )) s)"; tee -a "$OUT/summary.txt" <"$L/probes.log";;
    sanitize|race)
      local skip=
      [ "$step" = race ] && skip=memcheck
      SANITIZE_SKIP=$skip SANITIZE_OUT=build/san-$step lim $W make sanitize >"$L/$step.log" 2>&1
      say "$step: rc=$? ($(( $(date +%s) - t0 )) s)"
      grep -a '^sanitize' "$L/$step.log" | tee -a "$OUT/summary.txt"
      cp -r "build/san-$step" "$L/" 2>/dev/null;;
    memcheck)
      SANITIZE_SKIP="racecheck synccheck" SANITIZE_SPECS="${MEMCHECK_SPECS:-}" \
        SANITIZE_OUT=build/san-memcheck lim $W make sanitize >"$L/memcheck.log" 2>&1
      say "memcheck (${MEMCHECK_SPECS:-all specs}): rc=$? ($(( $(date +%s) - t0 )) s)"
      grep -a '^sanitize' "$L/memcheck.log" | tee -a "$OUT/summary.txt"
      cp -r build/san-memcheck "$L/" 2>/dev/null;;
    gcstress)
      SPEC_FILES="${GCSTRESS_SPECS:-}" lim $W make gcstress >"$L/gcstress.log" 2>&1
      say "gcstress (${GCSTRESS_SPECS:-all specs}): rc=$? ($(( $(date +%s) - t0 )) s)"
      tee -a "$OUT/summary.txt" <"$L/gcstress.log"
      cp build/gcstress.log build/gcgen.log "$L/" 2>/dev/null
      grep -a -h -E '^(Failure|Error) → ' -A 4 build/gcstress.log build/gcgen.log | head -n 40;;
    examples)
      lim $W make examples >"$L/examples.log" 2>&1
      say "make examples: rc=$? ($(( $(date +%s) - t0 )) s)"
      grep -a -E '^(examples/|examples: |    )' "$L/examples.log" | tee -a "$OUT/summary.txt";;
    difftest)
      lim $W make difftest N="${N:-300}" >"$L/difftest.log" 2>&1
      say "difftest: rc=$? $(tail -n 1 "$L/difftest.log")";;
    nvtx)
      lim $W bash tools/nvtx-check.sh >"$L/nvtx.log" 2>&1
      say "nvtx-check: rc=$? ($(( $(date +%s) - t0 )) s)"; tail -n 20 "$L/nvtx.log" | tee -a "$OUT/summary.txt";;
    sh:*)
      lim $W sh -c "${step#sh:}" >"$L/sh.log" 2>&1
      say "sh: rc=$? ($(( $(date +%s) - t0 )) s)"; tail -n 40 "$L/sh.log";;
    *) say "unknown step $step";;
  esac
}

# whatever a step left running (busted under a timeout of its own, a
# sanitizer): stopped before the next step
reap() {
  pkill -TERM -f 'busted|compute-sanitizer' 2>/dev/null && sleep 2
  pkill -KILL -f 'busted|compute-sanitizer' 2>/dev/null
  return 0
}

for step in "$@"; do
  case $step in
    *+*)
      IFS=+ read -ra parts <<<"$step"
      for i in "${!parts[@]}"; do run_step "${parts[$i]}" >"$L/par-$i.out" 2>&1 & done
      wait
      for i in "${!parts[@]}"; do cat "$L/par-$i.out"; done;;
    *) run_step "$step";;
  esac
  reap
done
tar -czf "$OUT/logs.tgz" -C "$L" .
