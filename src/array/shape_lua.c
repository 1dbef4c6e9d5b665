/*
** shape_lua.c: the shape rules as Lua functions: ga.broadcast_shapes and the
** axis-merging hook the specs use. The rules are core/shape.c's.
*/
#include "array/array.h"

/* ===================================================================== */
/* Lua API                                                               */
/* ===================================================================== */

static int l_broadcast_shapes(lua_State *L) {
  int n = lua_gettop(L);
  if (n > 64) ga_error(L, "broadcast_shapes: too many shapes");
  int64_t storage[64][GA_MAXDIM];
  const int64_t *shapes[64];
  int ndims[64];
  for (int i = 0; i < n; i++) {
    ndims[i] = ga_checkshape(L, i + 1, storage[i], "broadcast_shapes");
    shapes[i] = storage[i];
  }
  int nd;
  int64_t out[GA_MAXDIM];
  int bad = ga_broadcast(n, ndims, shapes, &nd, out);
  if (bad >= 0) {
    /* name the earlier shape it clashes with, not always the first */
    int j = 0;
    for (int k = 0; k < bad; k++) {
      int pn[2] = {ndims[k], ndims[bad]};
      const int64_t *ps[2] = {shapes[k], shapes[bad]};
      if (ga_broadcast(2, pn, ps, &nd, out) >= 0) { j = k; break; }
    }
    ga_error(L, "broadcast_shapes: shapes %s and %s cannot be broadcast",
             ga_shape_str(L, ndims[j], shapes[j]), ga_shape_str(L, ndims[bad], shapes[bad]));
  }
  ga_pushshape(L, nd, out);
  return 1;
}

/* Test hook: the merged iteration space of (shape, strides...) */
static int l_merge_axes(lua_State *L) {
  int64_t shape[GA_MAXDIM], st[4][GA_MAXDIM];
  int64_t *strides[4];
  int nd = ga_checkshape(L, 1, shape, "_merge_axes");
  int nop = lua_gettop(L) - 1;
  if (nop > 4) nop = 4;
  for (int k = 0; k < nop; k++) {
    int snd = ga_checkintlist(L, k + 2, st[k], "_merge_axes");
    if (snd != nd) ga_error(L, "_merge_axes: strides and shape differ in length");
    strides[k] = st[k];
  }
  int m = ga_merge_axes(nd, shape, nop, strides);
  ga_pushshape(L, m, shape);
  for (int k = 0; k < nop; k++) ga_pushshape(L, m, strides[k]);
  return 1 + nop;
}

static const luaL_Reg shape_funcs[] = {
  {"broadcast_shapes", l_broadcast_shapes},
  {NULL, NULL}
};

static const luaL_Reg shape_funcs_test[] = {
  {"merge_axes", l_merge_axes},
  {NULL, NULL}
};

void ga_open_shape(lua_State *L) {
  ga_setfuncs(L, shape_funcs);
  ga_setprivate(L, GA_TEST, shape_funcs_test);
}
