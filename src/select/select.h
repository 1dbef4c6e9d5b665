/*
** select.h: selecting elements: gathers and scatters by index arrays
** (gather.c: take, put, integer-array indexing) and boolean masks
** (mask.c: x[mask], x[mask] = v, nonzero, argwhere).
*/
/* feature: select — uses: reduction */
#ifndef GA_SELECT_H
#define GA_SELECT_H

#include "reduction/reduction.h"

void ga_open_gather(lua_State *L);
void ga_open_mask(lua_State *L);

#endif
