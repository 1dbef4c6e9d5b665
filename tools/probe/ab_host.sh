#!/bin/sh
# The per-call keys (overhead_*, launch_floor, eager_100ops, ...: the bench
# keys ending in _us) of this tree and of .base (the tree before a change,
# carried), run in turn ROUNDS times in one call, so that both trees see the
# same machine state; prints each key's median and best per tree. Run on the
# GPU machine from the repository root, through .device/with-lua, after make.
# The keys move by up to 50% from one process to the next (docs/performance.md),
# so one run of each tree, one after the other, does not compare them.
ROUNDS=${ROUNDS:-3}
PATTERN=${PATTERN:-_us\$}
AREAS=${AREAS:-}   # GPUARRAY_BENCH_AREAS for both trees (empty: all)
PIN=${PIN:-}       # a CPU to run both trees on (taskset -c), for steadier host times
OPS=${OPS:-}       # non-empty: time tools/probe/ab_ops.lua's pieces instead of the bench keys
out=${OUT:-/tmp}/ab
mkdir -p "$out"
(cd .base && rm -rf build && make -j16 all >"$out/base-build.log" 2>&1) || { tail -n 20 "$out/base-build.log"; exit 1; }
i=1
while [ "$i" -le "$ROUNDS" ]; do
  for tree in ours base; do
    dir=.; [ "$tree" = base ] && dir=.base
    script=bench/run.lua; [ -n "$OPS" ] && script=$(cd "$dir" && [ "$tree" = base ] && echo ../tools/probe/ab_ops.lua || echo tools/probe/ab_ops.lua)
    (cd "$dir" && env ${AREAS:+GPUARRAY_BENCH_AREAS=$AREAS} GPUARRAY_BENCH_ONLY="$PATTERN" LUA_PATH="lua/?.lua;lua/?/init.lua;./?.lua;;" \
      LUA_CPATH="build/?.so;;" ${PIN:+taskset -c $PIN} lua5.4 "$script" >"$out/$tree-$i.json" 2>"$out/$tree-$i.err")
  done
  i=$((i + 1))
done
python3 - "$out" "$ROUNDS" <<'PY'
import json, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
runs = {t: [json.load(open(f"{out}/{t}-{i}.json")) for i in range(1, rounds + 1)] for t in ("ours", "base")}
keys = sorted(k for k in runs["ours"][0] if k in runs["base"][0] and not k.startswith("_"))
print(f"{'key':34} {'ours med':>9} {'base med':>9} {'diff':>7} {'ours min':>9} {'base min':>9} {'diff':>7}")
for k in keys:
    o = [r[k] for r in runs["ours"] if k in r]; b = [r[k] for r in runs["base"] if k in r]
    if not isinstance(o[0], (int, float)): continue
    mo, mb = statistics.median(o), statistics.median(b)
    print(f"{k:34} {mo:9.3f} {mb:9.3f} {mo - mb:+7.3f} {min(o):9.3f} {min(b):9.3f} {min(o) - min(b):+7.3f}")
PY
