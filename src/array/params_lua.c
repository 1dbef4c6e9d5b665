/*
** params_lua.c: kernel parameter lists read for the user-kernel engines
** (ElementwiseKernel, ReductionKernel), with core/params.c's messages
** raised as gpuarray errors, and the parser as a Lua test hook.
*/
#include <string.h>

#include "array/array.h"

void ga_parse_params_or_raise(lua_State *L, const char *s, ga_paramlist *out, const char *fname) {
  char err[GA_ERRMSG_MAX];
  if (ga_parse_params(s, out, fname, err) < 0) ga_error(L, "%s", err);
}

void ga_kernel_params(lua_State *L, const char *in_s, const char *out_s, ga_paramlist *in, ga_paramlist *out,
                      const char *fname) {
  char err[GA_ERRMSG_MAX];
  ga_parse_params_or_raise(L, in_s, in, fname);
  ga_parse_params_or_raise(L, out_s, out, fname);
  if (ga_params_check_disjoint(in, out, fname, err) < 0) ga_error(L, "%s", err);
}

int ga_compile_dtypes(lua_State *L, const char *kname, int nin, int nout, int *dt) {
  int n = lua_gettop(L) - 1;
  if (n != nin && n != nin + nout)
    ga_error(L, "compile: %s takes %d dtype%s (one per input) or %d (inputs and outputs), got %d", kname, nin,
             nin == 1 ? "" : "s", nin + nout, n);
  for (int j = 0; j < nin + nout; j++) {
    dt[j] = j < n ? ga_checkdtype(L, 2 + j, -1, "compile") : -1;
    if (j < n && dt[j] < 0) ga_error(L, "compile: argument %d is not a dtype (got %s)", j + 1, luaL_typename(L, 2 + j));
  }
  return n;
}

/* ===================================================================== */
/* Lua test hook                                                         */
/* ===================================================================== */

static int l_parse_params(lua_State *L) {
  const char *s = ga_checkstring(L, 1, "_parse_params", "the parameter list");
  ga_paramlist *l = (ga_paramlist *)lua_newuserdatauv(L, sizeof *l, 0);  /* large: not on the C stack */
  ga_parse_params_or_raise(L, s, l, "_parse_params");
  lua_createtable(L, l->n, 0);
  for (int k = 0; k < l->n; k++) {
    lua_createtable(L, 0, 4);
    ga_setstr(L, "name", l->p[k].name);
    ga_setstr(L, "type", l->p[k].type);
    if (l->p[k].dtype >= 0) {
      ga_setstr(L, "dtype", ga_dtypes[l->p[k].dtype].name);
    }
    ga_setbool(L, "raw", l->p[k].raw);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

static const luaL_Reg params_funcs_test[] = {
  {"parse_params", l_parse_params},
  {NULL, NULL}
};

void ga_open_params(lua_State *L) {
  ga_setprivate(L, GA_TEST, params_funcs_test);
}
