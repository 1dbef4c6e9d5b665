/*
** bind.h: the top of the C tree. What module.c registers: every layer's
** ga_open_* functions (declared in the layer headers below).
*/
#ifndef GA_BIND_H
#define GA_BIND_H

#include "api/api.h"
#include "interop/interop.h"

#endif
