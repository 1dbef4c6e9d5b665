/*
** host_util.h: what the host examples share. A host program opens Lua as it
** always does, then gpuarray with luaopen_gpuarray (no Lua files needed on
** disk), and runs its scripts from strings.
*/
#ifndef HOST_UTIL_H
#define HOST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuarray.h>
#include <lauxlib.h>
#include <lualib.h>

/* Abort the example on a CUDA error, naming the call */
#define CUDA_OK(call)                                                                   \
  do {                                                                                  \
    cudaError_t err_ = (call);                                                          \
    if (err_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_)); \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

/* Count a failed check and say which (one thread at a time) */
#define EXPECT(cond, ...)                         \
  do {                                            \
    if (!(cond)) {                                \
      fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);               \
      fputc('\n', stderr);                        \
      host_failures++;                            \
    }                                             \
  } while (0)

static int host_failures;

/* Exit 0 with the examples' one line where there is no GPU (examples/README.md;
** CI runs the examples that far: they built against the installed tree, and
** they load) */
static inline void skip_without_device(const char *name) {
  int n = 0;
  (void)name;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("skipped: no CUDA device\n");
    exit(0);
  }
}

static inline int open_gpuarray(lua_State *L) {
  luaL_requiref(L, "gpuarray", luaopen_gpuarray, 1);
  return 0;
}

/* A new state with the standard libraries and gpuarray (global `ga` too) */
static inline lua_State *host_state(void) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  luaL_openlibs(L);
  lua_pushcfunction(L, open_gpuarray);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    fprintf(stderr, "luaopen_gpuarray: %s\n", lua_tostring(L, -1));
    exit(1);
  }
  lua_getglobal(L, "gpuarray");
  lua_setglobal(L, "ga");
  return L;
}

/* Load src, call it with the nargs values on top of the stack as its
** arguments (...), leave nresults results. On an error: print it, count a
** failure, leave nothing; returns 0. */
static inline int host_call(lua_State *L, const char *name, const char *src, int nargs, int nresults) {
  if (luaL_loadbuffer(L, src, strlen(src), name) != LUA_OK) {
    fprintf(stderr, "%s: %s\n", name, lua_tostring(L, -1));
    lua_pop(L, 1 + nargs);
    host_failures++;
    return 0;
  }
  lua_insert(L, -1 - nargs);
  if (lua_pcall(L, nargs, nresults, 0) != LUA_OK) {
    fprintf(stderr, "%s: %s\n", name, lua_tostring(L, -1));
    lua_pop(L, 1);
    host_failures++;
    return 0;
  }
  return 1;
}

static inline void full_gc(lua_State *L) {
  lua_gc(L, LUA_GCCOLLECT, 0);
  lua_gc(L, LUA_GCCOLLECT, 0);
}

/* The default pool's used bytes, read through a state of the main thread
** (-1 on an error) */
static inline long long host_pool_used(lua_State *L) {
  full_gc(L);
  if (!host_call(L, "=used", "return ga.get_default_memory_pool():used_bytes()", 0, 1)) return -1;
  long long u = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return u;
}

/* The end line every example prints, and its exit status */
static inline int host_finish(const char *name) {
  if (host_failures) {
    printf("%s: FAILED (%d checks)\n", name, host_failures);
    return 1;
  }
  printf("%s: ok\n", name);
  return 0;
}

#endif
