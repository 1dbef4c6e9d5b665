/*
** errors.c: every error the module raises starts "gpuarray: " and names the
** function; a failed call of CUDA or a CUDA library adds the status's name.
*/
#include <stdarg.h>
#include <stdio.h>

#include "base/base.h"

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
