/*
** sigparse.h: reading the parameter lists of __global__ functions out of a
** CUDA source string, so that RawKernel can turn Lua numbers into the C type
** each parameter declares (CuPy makes users wrap every scalar; we don't).
** Pure C, no CUDA and no Lua: specced on machines without a GPU.
*/
#ifndef GA_SIGPARSE_H
#define GA_SIGPARSE_H

#include <stddef.h>

#define GA_SIG_MAXPARAMS 128
#define GA_SIG_MAXTPARAMS 16
#define GA_SIG_TYPE 64      /* room for a type as written (truncated beyond) */
#define GA_SIG_NAME 64

typedef enum {
  GA_SIG_POINTER,   /* T *x, T x[]: takes an ndarray (its device pointer) */
  GA_SIG_SCALAR,    /* a type we know: Lua numbers convert to dtype */
  GA_SIG_UNKNOWN    /* a struct, an unbound template type, ...: typed scalars only */
} ga_sigkind;

typedef struct {
  int kind;                  /* ga_sigkind */
  int dtype;                 /* GA_SIG_SCALAR: the ga_dtype; else -1 */
  int tparam;                /* the template parameter that is the whole type, or -1 */
  char type[GA_SIG_TYPE];    /* the type, qualifiers dropped: "unsigned int", "float*" */
  char name[GA_SIG_NAME];    /* "" when the parameter is unnamed */
} ga_sigparam;

typedef struct {
  char name[GA_SIG_NAME * 2];
  int extern_c;              /* declared extern "C" (its symbol is its name) */
  int ntparams;              /* template parameters (0: not a template) */
  char tparams[GA_SIG_MAXTPARAMS][GA_SIG_NAME];
  int tparam_is_type[GA_SIG_MAXTPARAMS];
  int nparams;               /* -1: more than GA_SIG_MAXPARAMS or unreadable */
  ga_sigparam params[GA_SIG_MAXPARAMS];
} ga_sigkernel;

/* Scanning a source for every __global__ declaration, in order. Comments,
** string literals and preprocessor lines are skipped; simple aliases
** (`typedef float real;`, `using idx = long long;`) declared before a kernel
** are understood. */
#define GA_SIG_MAXALIAS 32
#define GA_SIG_MAXNEST 64
typedef struct {
  const char *src, *end, *p;
  const char *decl;          /* where the current declaration began */
  int depth;                 /* brace depth */
  unsigned char block[GA_SIG_MAXNEST];   /* per depth: 1 inside extern "C" { } */
  int nalias;
  char alias[GA_SIG_MAXALIAS][GA_SIG_NAME];
  int alias_dtype[GA_SIG_MAXALIAS];      /* -1: a pointer type */
} ga_sigscan;

void ga_sig_begin(ga_sigscan *s, const char *src, size_t len);
/* The next kernel into *k; 0 at the end of the source */
int ga_sig_next(ga_sigscan *s, ga_sigkernel *k);

/* The kernel a launch name refers to: "add", or a name expression such as
** "scale<float, 4>" / "&ns::scale<double>" whose type arguments bind the
** kernel's template parameters (parameters of type T become scalars of that
** type). Returns 1 when found. */
int ga_sig_find(const char *src, size_t len, const char *name, ga_sigkernel *k);

/* The dtype of a C type written as text ("unsigned long", "std::int32_t",
** "complex<float>"): a ga_dtype, -1 for a pointer type, -2 when unknown */
int ga_sig_ctype(const char *text);

const char *ga_sig_kindname(int kind);   /* "pointer", "scalar", "unknown" */

#endif
