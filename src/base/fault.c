/*
** fault.c: fault injection for the reliability specs. GPUARRAY_FAIL
** ("alloc:3,compile:1,launch:2,lib:1") makes the N-th call of each kind
** fail once, as if CUDA, NVRTC or a library had refused it; the test hook
** core._test.fault(kind, n) re-arms a kind from Lua. Counters are process-wide
** atomics: the hooks sit on paths that several Lua states may share.
** GPUARRAY_GC_STRESS=1 makes every device allocation run a full collection
** first (runtime/poolobj.c asks ga_gc_stress).
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static const char *const kind_names[GA_NFAULTS] = {"alloc", "compile", "launch", "lib"};

static atomic_llong counts[GA_NFAULTS];     /* calls seen since armed */
static atomic_llong targets[GA_NFAULTS];    /* the call that fails; 0: none */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static atomic_int gc_stress;

static void parse_env(void) {
  const char *gs = getenv("GPUARRAY_GC_STRESS");
  atomic_store(&gc_stress, gs && *gs && strcmp(gs, "0") != 0);
  const char *e = getenv("GPUARRAY_FAIL");
  while (e && *e) {
    for (int k = 0; k < GA_NFAULTS; k++) {
      size_t n = strlen(kind_names[k]);
      if (strncmp(e, kind_names[k], n) == 0 && e[n] == ':') {
        long long v = strtoll(e + n + 1, NULL, 10);
        if (v > 0) atomic_store(&targets[k], v);
      }
    }
    e = strchr(e, ',');
    if (e) e++;
  }
}

static void read_env(void) {
  pthread_once(&env_once, parse_env);
}

int ga_fault(ga_fault_kind kind) {
  read_env();
  long long t = atomic_load(&targets[kind]);
  if (t <= 0) return 0;
  long long c = atomic_fetch_add(&counts[kind], 1) + 1;
  if (c != t) return 0;
  atomic_store(&targets[kind], 0);     /* once: the retry and the cleanup succeed */
  return 1;
}

int ga_gc_stress(void) {
  read_env();
  return atomic_load(&gc_stress);
}

int ga_fault_kind_lookup(const char *name) {
  for (int k = 0; k < GA_NFAULTS; k++)
    if (strcmp(name, kind_names[k]) == 0) return k;
  return -1;
}

long long ga_fault_arm(ga_fault_kind kind, long long n) {
  read_env();
  long long seen = atomic_exchange(&counts[kind], 0);
  atomic_store(&targets[kind], n > 0 ? n : 0);
  return seen;
}

/* core._test.fault(kind, n) -> calls of kind counted since it was last armed;
** n > 0 makes the n-th next call fail, 0 disarms */
static int l_fault(lua_State *L) {
  const char *name = ga_checkstring(L, 1, "_fault", "the kind");
  int k = ga_fault_kind_lookup(name);
  if (k < 0) return ga_error(L, "_fault: unknown kind '%s' (alloc, compile, launch, lib)", name);
  lua_Integer n = luaL_optinteger(L, 2, 0);
  lua_pushinteger(L, (lua_Integer)ga_fault_arm((ga_fault_kind)k, n));
  return 1;
}

/* core._test.gc_stress([on]) -> whether GC stress was on; on switches it */
static int l_gc_stress(lua_State *L) {
  lua_pushboolean(L, ga_gc_stress());
  if (!lua_isnone(L, 1)) atomic_store(&gc_stress, lua_toboolean(L, 1));
  return 1;
}

static const luaL_Reg fault_funcs_test[] = {
  {"fault", l_fault},
  {"gc_stress", l_gc_stress},
  {NULL, NULL}
};

void ga_open_fault(lua_State *L) {
  ga_setprivate(L, GA_TEST, fault_funcs_test);
}
