/*
** params.h: CuPy-style kernel parameter lists, shared by ElementwiseKernel
** and ReductionKernel ("float32 x, T y, raw T z"). Implemented in params.c
** (pure C: parsing, binding placeholders to dtypes, reserved names).
*/
#ifndef GA_PARAMS_H
#define GA_PARAMS_H

#include "ga.h"

#define GA_MAXPARAMS 32
#define GA_NAME_MAX 64

typedef struct {
  char name[GA_NAME_MAX];   /* the identifier used in the CUDA code */
  char type[GA_NAME_MAX];   /* as written: "float32", "T", ... */
  int dtype;                /* fixed dtype, or -1 for a placeholder type */
  int raw;                  /* "raw": indexed by the user, not per element */
} ga_param;

typedef struct {
  int n;
  ga_param p[GA_MAXPARAMS];
} ga_paramlist;

/* Parse "type name, raw type name, ..." (empty string: no parameters).
** Raises "gpuarray: <fname>: ..." naming the bad parameter: unknown
** syntax, duplicate names, reserved names (i, n, and names starting with
** '_'). Placeholder types are identifiers that are not dtype names. */
void ga_parse_params(lua_State *L, const char *s, ga_paramlist *out, const char *fname);

/* Index of the parameter called name, or -1 */
int ga_params_find(const ga_paramlist *l, const char *name);
/* Raise when an output parameter reuses an input's name */
void ga_params_check_disjoint(lua_State *L, const ga_paramlist *in, const ga_paramlist *out,
                              const char *fname);
/* core._parse_params(s) -> list of {name=, type=, dtype= (nil for a
** placeholder), raw=}: the parser as a Lua function, for specs */
int ga_l_parse_params(lua_State *L);

/* Placeholder bindings: type name -> dtype */
typedef struct {
  int n;
  char name[GA_MAXPARAMS][GA_NAME_MAX];
  int dtype[GA_MAXPARAMS];
} ga_typemap;

void ga_typemap_init(ga_typemap *m);
int ga_typemap_get(const ga_typemap *m, const char *name);        /* -1 if unbound */
/* Bind name to dtype; returns 0 when name is bound to another dtype */
int ga_typemap_bind(ga_typemap *m, const char *name, int dtype);

/* The dtype of a parameter under the bindings (-1 if unbound) */
int ga_param_dtype(const ga_param *p, const ga_typemap *m);

/* "typedef float T;\n..." for every binding, for generated sources */
void ga_typemap_typedefs(const ga_typemap *m, ga_buf *b);

#endif
