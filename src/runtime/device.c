/*
** device.c: ga.Device(id), use/scope/synchronize, ga.get_device. A device
** switch changes ctx->device (what every operation and ga_alloc follow) and
** the current stream with it (stream.c remembers one per device).
** A Device is a handle on the object header (base/object.c) like Stream and
** Event; it holds no resource, so it is alive from birth and never released.
*/
#include <string.h>

#include "runtime/runtime.h"

#define SCOPE_MT "gpuarray.DeviceScope"

typedef struct {
  ga_object obj;
  int id;
} device;

static const ga_objtype device_type = {GA_DEVICE_MT, "a Device", "device"};

static void no_such_device(lua_State *L, int id, const char *fname) {
  int n = ga_device_count();
  if (n == 0) ga_error(L, "%s: device %d does not exist (no CUDA device available)", fname, id);
  ga_error(L, "%s: device %d does not exist (%d device%s)", fname, id, n, n == 1 ? "" : "s");
}

int ga_checkdevice(lua_State *L, int idx, const char *fname) {
  device *d = (device *)ga_object_test(L, idx, &device_type);
  int id;
  if (d) {
    id = d->id;
  } else {
    int ok;
    lua_Integer v = lua_tointegerx(L, idx, &ok);
    if (!ok) ga_error(L, "%s: expected a device id or a Device, got %s", fname, luaL_typename(L, idx));
    if (v < 0 || v > 1 << 20) no_such_device(L, v < 0 ? -1 : 1 << 20, fname);
    id = (int)v;
  }
  if (id >= ga_device_count()) no_such_device(L, id, fname);
  return id;
}

static device *push_device(lua_State *L, int id) {
  device *d = (device *)ga_object_new(L, &device_type, sizeof *d, 0);
  d->id = id;
  d->obj.alive = 1;
  return d;
}

static device *checkdev(lua_State *L, int idx, const char *fname) {
  return (device *)ga_object_check(L, idx, &device_type, fname);
}

/* Switch this state to device id and make it current on the thread */
static void switch_to(lua_State *L, ga_state *ctx, int id) {
  ga_stream_switch_device(L, ctx, id);
  ga_device_enter(L, ctx);
}

/* ga.Device([id]): the current device when id is omitted */
static int l_device_new(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int id = lua_isnoneornil(L, 1) ? ctx->device : ga_checkdevice(L, 1, "Device");
  if (lua_isnoneornil(L, 1) && id >= ga_device_count()) no_such_device(L, id, "Device");
  push_device(L, id);
  return 1;
}

/* d:use() -> the previous current Device */
static int l_device_use(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int id = ga_checkdevice(L, 1, "Device.use");
  push_device(L, ctx->device);
  switch_to(L, ctx, id);
  return 1;
}

/* d:scope(): current until the returned object is closed
** (`local _ <close> = d:scope()`), errors included */
static int l_device_scope(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int id = ga_checkdevice(L, 1, "Device.scope");
  int *s = (int *)lua_newuserdatauv(L, 2 * sizeof(int), 0);
  s[0] = ctx->device;   /* where to go back */
  s[1] = 0;             /* closed */
  luaL_setmetatable(L, SCOPE_MT);
  switch_to(L, ctx, id);
  return 1;
}

static int l_scope_close(lua_State *L) {
  int *s = (int *)luaL_checkudata(L, 1, SCOPE_MT);
  if (s[1]) return 0;
  s[1] = 1;
  ga_state *ctx = ga_ctx(L);
  if (s[0] != ctx->device && s[0] < ga_device_count()) switch_to(L, ctx, s[0]);
  return 0;
}

/* d:synchronize(): wait for all work on the device, whichever is current */
static int l_device_synchronize(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int id = ga_checkdevice(L, 1, "Device.synchronize");
  ga_device_enter(L, ctx);
  ga_capture_guard_device(L, ctx, "Device.synchronize");
  if (id == ctx->device) {
    ga_cuda_check(L, cudaDeviceSynchronize(), "Device.synchronize: cudaDeviceSynchronize");
    return 0;
  }
  ga_cuda_check(L, cudaSetDevice(id), "Device.synchronize: cudaSetDevice");
  cudaError_t err = cudaDeviceSynchronize();
  cudaSetDevice(ctx->device);
  ga_cuda_check(L, err, "Device.synchronize: cudaDeviceSynchronize");
  return 0;
}

/* d:mem_info() -> free, total bytes */
static int l_device_mem_info(lua_State *L) {
  ga_state *ctx = ga_ctx(L);
  int id = ga_checkdevice(L, 1, "Device.mem_info");
  ga_device_enter(L, ctx);
  size_t f = 0, t = 0;
  if (id != ctx->device) ga_cuda_check(L, cudaSetDevice(id), "Device.mem_info: cudaSetDevice");
  cudaError_t err = cudaMemGetInfo(&f, &t);
  if (id != ctx->device) cudaSetDevice(ctx->device);
  ga_cuda_check(L, err, "Device.mem_info: cudaMemGetInfo");
  lua_pushinteger(L, (lua_Integer)f);
  lua_pushinteger(L, (lua_Integer)t);
  return 2;
}

static int l_device_index(lua_State *L) {
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;
  device *d = checkdev(L, 1, "Device");
  const char *k = ga_fieldkey(L, 2);
  if (k && strcmp(k, "id") == 0) {
    lua_pushinteger(L, d->id);
  } else if (k && strcmp(k, "compute_capability") == 0) {
    int arch = ga_device_arch(d->id);
    if (!arch) no_such_device(L, d->id, "Device");
    lua_pushfstring(L, "%d", arch);
  } else {
    return ga_error(L, "Device has no field or method '%s'", k ? k : luaL_typename(L, 2));
  }
  return 1;
}

static int l_device_eq(lua_State *L) {
  device *a = (device *)ga_object_test(L, 1, &device_type);
  device *b = (device *)ga_object_test(L, 2, &device_type);
  lua_pushboolean(L, a && b && a->id == b->id);
  return 1;
}

static int l_device_tostring(lua_State *L) {
  lua_pushfstring(L, "<CUDA Device %d>", checkdev(L, 1, "Device")->id);
  return 1;
}

/* ga.get_device() -> the current Device (no CUDA call) */
static int l_get_device(lua_State *L) {
  push_device(L, ga_ctx(L)->device);
  return 1;
}

static int l_get_device_id(lua_State *L) {
  lua_pushinteger(L, ga_ctx(L)->device);
  return 1;
}

static const luaL_Reg device_methods[] = {
  {"use", l_device_use},
  {"scope", l_device_scope},
  {"synchronize", l_device_synchronize},
  {"mem_info", l_device_mem_info},
  {NULL, NULL}
};

static const luaL_Reg device_meta[] = {
  {"__eq", l_device_eq},
  {"__tostring", l_device_tostring},
  {NULL, NULL}
};

/* the object d:scope() returns for `local _ <close> = d:scope()`: close
** serves __close and a close() method (leaving the scope by hand) */
static const luaL_Reg scope_meta[] = {
  {"__close", l_scope_close},
  {NULL, NULL}
};

static const luaL_Reg scope_methods[] = {
  {"close", l_scope_close},
  {NULL, NULL}
};

static const luaL_Reg device_funcs[] = {
  {"Device", l_device_new},
  {"get_device", l_get_device},
  {"get_device_id", l_get_device_id},
  {NULL, NULL}
};

void ga_open_device(lua_State *L) {
  ga_new_type(L, GA_DEVICE_MT, device_meta, device_methods, l_device_index);
  ga_new_type(L, SCOPE_MT, scope_meta, scope_methods, NULL);
  ga_setfuncs(L, device_funcs);
}
