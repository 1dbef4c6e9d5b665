/*
** rawkernel.h: ga.RawKernel and ga.RawModule (rawkernel.c): user CUDA
** source compiled with NVRTC (through compile.c and its caches), launched
** with Lua numbers typed by the kernel's parsed signature.
*/
#ifndef GA_RAWKERNEL_H
#define GA_RAWKERNEL_H

#include "ga.h"

#define GA_RAWKERNEL_MT "gpuarray.RawKernel"
#define GA_RAWMODULE_MT "gpuarray.RawModule"

void ga_open_rawkernel(lua_State *L);

#endif
