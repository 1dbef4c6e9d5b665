/*
** random.h: Philox generation and its transforms (random.c), the device
** side of ga.random.
*/
/* feature: random — uses: none */
#ifndef GA_RANDOM_H
#define GA_RANDOM_H

#include "array/array.h"

void ga_open_random(lua_State *L);

#endif
