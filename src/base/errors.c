/*
** errors.c: every error the module raises starts "gpuarray: " and names the
** function; a failed call of CUDA or a CUDA library adds the status's name.
*/
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

const char *ga_called_name(lua_State *L) {
  lua_Debug ar;
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "n", &ar) || !ar.name) return NULL;
  if (strcmp(ar.namewhat, "local") == 0 || strcmp(ar.namewhat, "upvalue") == 0) return NULL;
  return ar.name[0] == '_' && ar.name[1] == '_' ? ar.name + 2 : ar.name;   /* metamethods: "add" */
}

int ga_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushstring(L, "gpuarray: ");
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

void ga_cuda_check(lua_State *L, cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  (void)cudaGetLastError();   /* clear a non-sticky error so the next call starts clean */
  ga_error(L, "%s: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

/* ===================================================================== */
/* status names                                                          */
/* ===================================================================== */

const char *ga_status_name(const ga_statusname *names, int status) {
  for (const ga_statusname *n = names; n && n->name; n++)
    if (n->code == status) return n->name;
  return NULL;
}

void ga_status_check(lua_State *L, const ga_statusname *names, int status, const char *what) {
  if (status == 0) return;
  const char *name = ga_status_name(names, status);
  if (name) ga_error(L, "%s: %s", what, name);
  ga_error(L, "%s: status %d", what, status);
}

/* The registered tables, by library name (process-wide: the tables are
** constant, and every state registers the same ones) */
#define MAX_STATUS_LIBS 16
static pthread_mutex_t libs_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { const char *lib; const ga_statusname *names; } libs[MAX_STATUS_LIBS];
static int nlibs;

void ga_status_register(const char *lib, const ga_statusname *names) {
  pthread_mutex_lock(&libs_mu);
  int i = 0;
  while (i < nlibs && strcmp(libs[i].lib, lib) != 0) i++;
  if (i == nlibs && nlibs < MAX_STATUS_LIBS) nlibs++;
  if (i < nlibs) {
    libs[i].lib = lib;
    libs[i].names = names;
  }
  pthread_mutex_unlock(&libs_mu);
}

/* core._test.status_name(lib, code) -> the name, or nil for a code the
** library's table lacks; raises for a library no room registered */
static int l_status_name(lua_State *L) {
  const char *lib = luaL_checkstring(L, 1);
  int code = (int)luaL_checkinteger(L, 2);
  const ga_statusname *names = NULL;
  int found = 0;
  pthread_mutex_lock(&libs_mu);
  for (int i = 0; i < nlibs && !found; i++)
    if (strcmp(libs[i].lib, lib) == 0) {
      names = libs[i].names;
      found = 1;
    }
  pthread_mutex_unlock(&libs_mu);
  if (!found) return ga_error(L, "status_name: no status names for '%s'", lib);
  const char *name = ga_status_name(names, code);
  if (name) lua_pushstring(L, name);
  else lua_pushnil(L);
  return 1;
}

static const luaL_Reg errors_funcs_test[] = {
  {"status_name", l_status_name},
  {NULL, NULL}
};

void ga_open_errors(lua_State *L) {
  ga_setprivate(L, GA_TEST, errors_funcs_test);
}
