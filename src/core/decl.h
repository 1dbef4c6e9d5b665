/*
** decl.h: declarations of public functions (API.md §0, "One rule for every
** signature"), parsed. A declaration is text, written once per function
** in Lua or C alike:
**
**   linalg.norm(x: array_like, ord: number|"fro"|"nuc"? , axis: axes?,
**               keepdims: boolean = false) -> ndarray
**   Matrix or vector norm.
**
** The signature may span lines until its parentheses close; the rest of
** its last line after `->` names the returns; the lines after it are the
** documentation (the first one is the summary). Parameters:
**   name[|alias...][: type][= default]      positional or by name
**   *                                       the ones after it: by name only
**   ...[: type]                             any number of positional values
** A type is alternatives joined by `|`: a base type (ga_decltype's names
** below), a string literal ("reflect": an enumeration), or any other
** identifier (an object type, checked by the binder's registry). A `?`
** after the type, or a default, makes the parameter optional. Defaults are
** Lua literals (nil true false numbers strings {}) or `(text)`: computed by
** the function, nil for the binder, the text for the reference.
** `Class:method(...)` declares a method: self is its first parameter.
** Pure C: no Lua state, no CUDA (specced through the api layer's binding).
*/
#ifndef GA_DECL_H
#define GA_DECL_H

#include <stddef.h>

typedef enum {
  GA_DT_ANY, GA_DT_BOOLEAN, GA_DT_INTEGER, GA_DT_NUMBER, GA_DT_STRING, GA_DT_TABLE,
  GA_DT_LIST, GA_DT_DICT, GA_DT_FUNCTION, GA_DT_CALLABLE, GA_DT_NDARRAY, GA_DT_ARRAYLIKE,
  GA_DT_SCALAR, GA_DT_DTYPE, GA_DT_SHAPE, GA_DT_AXIS, GA_DT_AXES, GA_DT_USERDATA,
  GA_DT_OBJECT, GA_DT_NBASE,
  GA_DT_ENUM = GA_DT_NBASE,  /* a string literal: text holds it */
  GA_DT_CUSTOM               /* another identifier: text holds it */
} ga_decltype;

/* The base types' names as written in declarations, by ga_decltype */
extern const char *const ga_decltype_names[GA_DT_NBASE];

typedef struct {
  int kind;           /* ga_decltype */
  const char *text;   /* GA_DT_ENUM: the literal; GA_DT_CUSTOM: the name */
} ga_declalt;

typedef enum { GA_DEF_NONE, GA_DEF_NIL, GA_DEF_BOOL, GA_DEF_INT, GA_DEF_NUM, GA_DEF_STR, GA_DEF_TABLE } ga_defkind;

typedef struct {
  const char **names;       /* the name, then its aliases */
  int nnames;
  ga_declalt *alt;          /* the type's alternatives (none: any value) */
  int nalt;
  int optional;             /* nil is fine: `?` or a default */
  int kwonly;               /* after `*`: only by name */
  int vararg;               /* `...` */
  unsigned kinds;           /* 1u << kind of each alternative: the binder's quick test */
  int defkind;              /* ga_defkind; GA_DEF_NONE: required unless optional */
  int defbool;
  long long defint;
  double defnum;
  const char *defstr;
  const char *type_text;    /* as written (NULL: none), for the reference */
  const char *default_text; /* as written (NULL: none) */
} ga_declparam;

typedef struct {
  char *mem;                /* one block: the copied text and every array */
  const char *qualname;     /* "linalg.norm", "ndarray:fill" */
  const char *fname;        /* the name errors use: "linalg.norm", "fill" */
  const char *self_class;   /* "ndarray" for ndarray:fill, else NULL */
  ga_declparam *p;
  int np;
  int npos;                 /* how many can be given by position (vararg excluded) */
  int vararg;               /* index of the `...` parameter, or -1 */
  const char *returns;      /* after `->`, or NULL */
  const char *doc;          /* the lines after the signature ("" if none) */
  const char *signature;    /* the signature as one line, normalised spacing */
} ga_decl;

/* Parse text into d. Returns 0, or -1 with a message in err (errsz bytes).
** On success d owns memory: release it with ga_decl_free. */
int ga_decl_parse(ga_decl *d, const char *text, size_t len, char *err, size_t errsz);
void ga_decl_free(ga_decl *d);

/* The parameter named name (or an alias), or -1 */
int ga_decl_find(const ga_decl *d, const char *name);

/* Restricted Damerau-Levenshtein (optimal string alignment) distance of two
** short strings: a transposition counts 1; capped at 3 */
int ga_edit_distance(const char *a, const char *b);

#endif
