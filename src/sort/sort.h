/*
** sort.h: the device side of ga.sort: a radix sort of rows and
** searchsorted (sort.c), and CUB's onesweep sort for long single rows
** (sort_cub.c).
*/
/* feature: sort — uses: none */
#ifndef GA_SORT_H
#define GA_SORT_H

#include "array/array.h"

void ga_open_sort(lua_State *L);
/* sort_cub.c: one row of n elements of dtype t sorted by CUB's onesweep
** kernels (mode 0: values, 1: int64 1-based indices, 2: uint32 positions;
** zero_eq: -0.0 equals 0.0); returns 0, having done nothing, where the
** toolkit's CCCL headers are absent */
int ga_sort_cub(lua_State *L, ga_state *ctx, int t, int mode, int zero_eq, uint64_t n, const void *x, void *out);
void ga_open_sort_cub(lua_State *L);

#endif
