/*
** sparse.h: cuSPARSE products (SpMV, SpMM, SpGEMM) for ga.sparse
** (sparse.c).
*/
/* feature: sparse — uses: solver blas */
#ifndef GA_SPARSE_H
#define GA_SPARSE_H

#include "solver/solver.h"

/* sparse.c: cuSPARSE (SpMV, SpMM, SpGEMM) for ga.sparse */
extern const ga_libdesc ga_cusparse;
void ga_open_sparse(lua_State *L);
/* sparse_solve.c: sparse direct solvers (cuSOLVER sparse Cholesky, QR, LU; SpSV; ILU(0)) */
void ga_open_sparse_solve(lua_State *L);

#endif
