/*
** device.h: ga.Device objects (device.c). The current device of a
** lua_State is ctx->device; switching goes through ga_stream_switch_device
** so that each device keeps its own current stream.
*/
#ifndef GA_DEVICE_H
#define GA_DEVICE_H

#include "ga.h"

#define GA_DEVICE_MT "gpuarray.Device"

/* The device id of a Device object or an integer at idx; raises for an id
** that does not exist */
int ga_checkdevice(lua_State *L, int idx, const char *fname);

void ga_open_device(lua_State *L);

#endif
