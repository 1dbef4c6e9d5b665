/*
** scan.h: cumulative sums and products along an axis (scan.c), on the
** reduction engine's indexer and block primitives.
*/
/* feature: scan — uses: reduction */
#ifndef GA_SCAN_H
#define GA_SCAN_H

#include "reduction/reduction.h"

void ga_open_scan(lua_State *L);   /* ga.cumsum, ga.cumprod, x:cumsum() ... */

#endif
