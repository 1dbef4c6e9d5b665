#!/bin/sh
# ncu's time, DRAM and L2 figures for every kernel of tools/probe/shortfall.lua
# (ours) and shortfall_cupy.py (CuPy, PyTorch for bfloat16): run on the GPU
# machine from the repository root, through .device/with-lua, after make
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum
out=${OUT:-/tmp}
LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" ncu --metrics $M --csv lua5.4 tools/probe/shortfall.lua "$@" >"$out/ncu-ours.csv" 2>"$out/ncu-ours.err"
echo "ours: rc=$?"
ncu --metrics $M --csv python3 tools/probe/shortfall_cupy.py "$@" >"$out/ncu-cupy.csv" 2>"$out/ncu-cupy.err"
echo "cupy: rc=$?"
