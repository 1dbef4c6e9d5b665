/*
** ufunc.h: the built-in ufuncs (ufunc.c), made from the definitions in
** lua/gpuarray/ufuncs.lua and compiled by the elementwise engine, and the
** ndarray operators built on them (operators.c).
*/
#ifndef GA_UFUNC_H
#define GA_UFUNC_H

#include "ga.h"

#define GA_UFUNC_MT "gpuarray.ufunc"

typedef struct ga_ufunc ga_ufunc;

/* The ufunc at idx, or NULL */
ga_ufunc *ga_toufunc(lua_State *L, int idx);

/* Apply u to the inputs at the stack indices in_idx (u's arity of them:
** ndarrays, Lua numbers and booleans, {re, im} pairs, typed scalars) and
** push the result. out_idx: an ndarray to write into (0: allocate one);
** dtype: the loop's dtype forced (-1: resolved from the inputs). Creates
** no Lua tables; the result userdata is the only allocation. */
int ga_ufunc_apply(lua_State *L, ga_ufunc *u, const int *in_idx, int out_idx, int dtype);

void ga_open_ufunc(lua_State *L);       /* _ufunc, _ufunc_source */
void ga_open_operators(lua_State *L);   /* _install_operators */

#endif
