/*
** nvtx.c: named ranges on the NVTX 3 API, so that a timeline of Nsight
** Systems shows the user's ranges around gpuarray's kernels. The Lua side
** (lua/gpuarray/profiler/ranges.lua) checks the arguments and keeps each
** state's push/pop balance; these are the bare calls. Beside them, the CUDA
** profiler's start and stop (ga.profiler.profile).
*/
#include "profiler/profiler.h"
#include "runtime/runtime.h"

#include <stdint.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

/* range_push(name[, argb]) -> the range's nesting level as NVTX reports it
** (negative where no tool is attached: NVTX then tracks nothing) */
static int l_range_push(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  int level;
  if (lua_isnoneornil(L, 2)) {
    level = nvtxRangePushA(name);
  } else {
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = (uint32_t)luaL_checkinteger(L, 2);
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    level = nvtxRangePushEx(&a);
  }
  lua_pushinteger(L, level);
  return 1;
}

/* range_pop() -> the level of the range closed (NVTX's answer, as above) */
static int l_range_pop(lua_State *L) {
  lua_pushinteger(L, nvtxRangePop());
  return 1;
}

/* profile_start() / profile_stop(): cudaProfilerStart/Stop on this state's
** device (cupyx.profiler.profile), for a profiler started with its capture
** off (nsys --capture-range=cudaProfilerApi, ncu --profile-from-start off) */
static int l_profile_start(lua_State *L) {
  ga_device_enter(L, ga_ctx(L));
  ga_cuda_check(L, cudaProfilerStart(), "profiler.profile: cudaProfilerStart");
  return 0;
}

static int l_profile_stop(lua_State *L) {
  ga_device_enter(L, ga_ctx(L));
  ga_cuda_check(L, cudaProfilerStop(), "profiler.profile: cudaProfilerStop");
  return 0;
}

static const luaL_Reg profiler_funcs[] = {
  {"range_push", l_range_push},
  {"range_pop", l_range_pop},
  {"profile_start", l_profile_start},
  {"profile_stop", l_profile_stop},
  {NULL, NULL}
};

void ga_open_profiler(lua_State *L) {
  ga_setprivate(L, "profiler", profiler_funcs);
}
