/*
** blas.h: cuBLAS (blas.c: its handle and status names) and the matrix
** products over it (matmul.c: GEMM for floats, an integer GEMM kernel of
** ours for integers and bool).
*/
/* feature: blas — uses: none */
#ifndef GA_BLAS_H
#define GA_BLAS_H

#include "libhandle/libhandle.h"

/* blas.c */
extern const ga_libdesc ga_cublas;
void ga_open_blas(lua_State *L);

/* matmul.c: core.blas.matmul (cuBLAS GEMM, integer GEMM kernel), core.blas.diag_view */
void ga_open_matmul(lua_State *L);

#endif
