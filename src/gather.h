/*
** gather.h: integer-array indexing (gather.c): take, put and the
** scatter behind x[idx] = v. Lua sees core._take, core._scatter and
** core._put; lua/gpuarray/select.lua builds the public functions on them.
*/
#ifndef GA_GATHER_H
#define GA_GATHER_H

#include "ga.h"

void ga_open_gather(lua_State *L);

#endif
