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

/* The parser reads C strings: a NUL inside the Lua string would cut the
** list short without a word. The kernel constructors pass the strings at
** slots 1 and 2 (the same pointers): check their Lua lengths there. */
static void check_nul(lua_State *L, int idx, const char *s, const char *fname) {
  size_t n;
  if (lua_type(L, idx) == LUA_TSTRING && lua_tolstring(L, idx, &n) == s && strlen(s) != n)
    ga_error(L, "%s: the parameter list holds a NUL byte", fname);
}

void ga_kernel_params(lua_State *L, const char *in_s, const char *out_s, ga_paramlist *in, ga_paramlist *out,
                      const char *fname) {
  char err[GA_ERRMSG_MAX];
  check_nul(L, 1, in_s, fname);
  check_nul(L, 2, out_s, fname);
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
  const char *s = luaL_checkstring(L, 1);
  check_nul(L, 1, s, "_parse_params");
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
