/*
** sparse.h: cuSPARSE products (SpMV, SpMM, SpGEMM) for ga.sparse
** (sparse.c).
*/
/* feature: sparse — uses: none */
#ifndef GA_SPARSE_H
#define GA_SPARSE_H

#include "libhandle/libhandle.h"

/* sparse.c: cuSPARSE (SpMV, SpMM, SpGEMM) for ga.sparse */
extern const ga_libdesc ga_cusparse;
void ga_open_sparse(lua_State *L);

#endif
