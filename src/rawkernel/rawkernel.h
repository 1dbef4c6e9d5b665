/*
** rawkernel.h: ga.RawKernel and ga.RawModule (rawkernel.c): CUDA source
** written by the user, compiled by NVRTC, launched with the user's grid;
** rawnames.c says which kernel names a source declares.
*/
/* feature: rawkernel — uses: none */
#ifndef GA_RAWKERNEL_H
#define GA_RAWKERNEL_H

#include "array/array.h"

#define GA_RAWKERNEL_MT "gpuarray.RawKernel"
#define GA_RAWMODULE_MT "gpuarray.RawModule"

/* rawnames.c: raise "<fname>: the source has no kernel named '<name>' (it
** declares: ...)" unless src declares it (sig: scratch for the scan) */
void ga_raw_check_name(lua_State *L, const char *src, size_t srclen, const char *name, ga_sigkernel *sig,
                       const char *fname);

void ga_open_rawkernel(lua_State *L);

#endif
