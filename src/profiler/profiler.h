/*
** profiler.h: ga.profiler's NVTX ranges and the CUDA profiler's start and
** stop (nvtx.c). NVTX 3 is header-only:
** nothing is linked; a tool attached to the process (Nsight Systems,
** Nsight Compute) injects its library at the first NVTX call, and without
** one each call is a no-op.
*/
/* feature: profiler — uses: none */
#ifndef GA_PROFILER_H
#define GA_PROFILER_H

#include "base/base.h"

/* core.profiler: range_push(name[, argb]), range_pop(), profile_start(),
** profile_stop() */
void ga_open_profiler(lua_State *L);

#endif
