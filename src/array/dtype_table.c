/*
** dtype_table.c: C's dtype table (core/dtype.c) handed to the Lua side once,
** as core.ndarray.dtypes, so that no Lua file types the 15 dtypes' C names,
** sizes and kinds again: a list in id order (dtypes[id + 1]) whose entries
** are also keyed by name, each {id=, name=, itemsize=, kind=, ctype=,
** char=, compute=}. compute names the dtype arithmetic on it runs in
** (ga_compute_dtype: float32 for float16 and bfloat16, else itself). char is NumPy's type character, which the ufunc loop signatures
** use ("ff->f"); bfloat16, which NumPy lacks, has ml_dtypes' 'E'.
*/
#include "array/array.h"

const char ga_dtype_chars[GA_NDTYPES + 1] = "?bhilBHILefdFDE";

int ga_dtype_of_char(char c) {
  for (int t = 0; c && t < GA_NDTYPES; t++)
    if (ga_dtype_chars[t] == c) return t;
  return -1;
}

static void push_table(lua_State *L) {
  lua_createtable(L, GA_NDTYPES, GA_NDTYPES);
  for (int t = 0; t < GA_NDTYPES; t++) {
    const ga_dtype_info *d = &ga_dtypes[t];
    lua_createtable(L, 0, 7);
    ga_setint(L, "id", t);
    ga_setstr(L, "name", d->name);
    ga_setint(L, "itemsize", d->itemsize);
    lua_pushlstring(L, &d->kind, 1);
    lua_setfield(L, -2, "kind");
    ga_setstr(L, "ctype", d->ctype);
    lua_pushlstring(L, &ga_dtype_chars[t], 1);
    lua_setfield(L, -2, "char");
    ga_setstr(L, "compute", ga_dtypes[ga_compute_dtype(t)].name);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, d->name);
    lua_rawseti(L, -2, t + 1);
  }
}

void ga_open_dtype_table(lua_State *L) {
  static const luaL_Reg none[] = {{NULL, NULL}};
  ga_setprivate(L, "ndarray", none);   /* makes sure core.ndarray exists */
  lua_getfield(L, -1, "ndarray");
  push_table(L);
  lua_setfield(L, -2, "dtypes");
  lua_pop(L, 1);
}
