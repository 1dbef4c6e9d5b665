#!/bin/bash
# The lead's device call: build, every spec file in its own busted process
# (timeouts isolate hangs and crashes; compile-bound files run in parallel,
# timing-sensitive ones alone afterwards), then optionally make bench next to
# CuPy's reference. Logs go to /tmp/logs, packed into $OUT/logs.tgz.
cd "$(dirname "$0")/.." || exit 1
W="bash ${WITH_LUA:-../.device/with-lua}"
L=/tmp/logs
rm -rf $L && mkdir -p $L
export W L
$W make -j16 all > $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
one() {
  n=$(basename "$1" .lua)
  s=$(date +%s)
  timeout "${SPEC_TIMEOUT:-400}" $W busted "$1" > "$L/$n.log" 2>&1
  echo "$n rc=$? $(( $(date +%s) - s ))s $(grep -a -E '^[0-9]+ success' "$L/$n.log" | tail -1 | sed 's/ : .*//')"
}
export -f one
ALONE="spec/stream_spec.lua spec/pinned_spec.lua"
ls ${SPECS:-spec/*_spec.lua} | grep -v -e stream_spec -e pinned_spec | xargs -P "${JOBS:-8}" -I{} bash -c 'one {}' > $L/summary.txt
for f in $ALONE; do [ -f "$f" ] && one "$f" >> $L/summary.txt; done
sort $L/summary.txt
for f in $L/*_spec.log; do grep -a -E "^(Failure|Error) →" -A5 "$f" | head -"${FAILLINES:-14}"; done > $L/failures.txt
head -c "${FAILCHARS:-7000}" $L/failures.txt
for e in ${EXAMPLES:-}; do timeout 60 $W env LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 "$e" > "$L/$(basename "$e").out" 2>&1; echo "example $e rc=$?"; done
if [ -n "$BENCH" ]; then
  timeout 240 $W make bench > $L/ours.json 2> $L/bench.err
  timeout 240 python3 ../.device/bench/cupy_ref.py > $L/cupy.json 2> $L/cupy.err
  python3 ../.device/bench/compare.py $L/ours.json $L/cupy.json > $L/compare.txt
  grep -v "^missing" $L/compare.txt; tail -3 $L/bench.err
fi
tar -czf "$OUT/logs.tgz" -C $L .
