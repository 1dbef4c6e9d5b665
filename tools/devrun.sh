#!/bin/bash
# The lead's device call: build, every spec file alone (timeouts isolate hangs
# and crashes), then optionally make bench next to CuPy's reference. Logs go
# to /tmp/logs, packed into $OUT/logs.tgz; summaries are printed.
cd "$(dirname "$0")/.." || exit 1
W="bash ${WITH_LUA:-../.device/with-lua}"
L=/tmp/logs
rm -rf $L && mkdir -p $L
$W make -j16 all > $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
for f in ${SPECS:-spec/*_spec.lua}; do
  n=$(basename "$f" .lua)
  timeout "${SPEC_TIMEOUT:-150}" $W busted "$f" > "$L/$n.log" 2>&1
  echo "$n rc=$? $(grep -a -E '^[0-9]+ success' "$L/$n.log" | tail -1)"
done > $L/summary.txt
cat $L/summary.txt
for f in $L/*_spec.log; do grep -a -E "^(Failure|Error) →" -A5 "$f" | head -"${FAILLINES:-14}"; done > $L/failures.txt
head -c "${FAILCHARS:-7000}" $L/failures.txt
if [ -n "$BENCH" ]; then
  timeout 240 $W make bench > $L/ours.json 2> $L/bench.err
  timeout 240 python3 ../.device/bench/cupy_ref.py > $L/cupy.json 2> $L/cupy.err
  python3 ../.device/bench/compare.py $L/ours.json $L/cupy.json > $L/compare.txt
  grep -v "^missing" $L/compare.txt; tail -5 $L/bench.err
fi
tar -czf "$OUT/logs.tgz" -C $L .
