/*
** params.c: CuPy-style parameter lists ("float32 x, T y, raw T z") for the
** user-kernel engines, and the placeholder bindings that turn "T" into a
** dtype. Pure C: parsing and binding run (and are specced) without a GPU.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* ===================================================================== */
/* parsing                                                               */
/* ===================================================================== */

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_'; }

/* C type names people write out of habit: they are not dtypes, and taken as
** placeholders they would produce "typedef float float;" deep in a compile
** error. Say what to write instead. */
static const char *const c_types[][2] = {
  {"float", "float32"}, {"double", "float64"}, {"int", "int32"}, {"long", "int64"},
  {"short", "int16"}, {"char", "int8"}, {"half", "float16"}, {"__half", "float16"},
  {"__nv_bfloat16", "bfloat16"}, {"nv_bfloat16", "bfloat16"}, {"unsigned", "uint32"},
  {"signed", "int32"}, {"size_t", "uint64"}, {"ptrdiff_t", "int64"}, {"void", NULL},
  {"const", NULL},
};

/* As CuPy: `i` (the element index) and names starting with '_' (what the
** generated code declares: _n, _ind, _raw_x, ...). `n` stays a user name. */
static int is_reserved(const char *name) {
  return name[0] == '_' || strcmp(name, "i") == 0;
}

/* "bool, int8, ..., complex128" for messages */
static void dtype_list(char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (int t = 0; t < GA_NDTYPES && len + 1 < cap; t++)
    len += (size_t)snprintf(out + len, cap - len, "%s%s", t ? ", " : "", ga_dtypes[t].name);
}

/* Write the message into err (GA_ERRMSG_MAX bytes) and return -1 */
static int fail(char *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, GA_ERRMSG_MAX, fmt, ap);
  va_end(ap);
  return -1;
}

/* One parameter: up to three whitespace-separated words in [s, e) */
static int parse_one(char *err, const char *s, const char *e, int index, ga_param *p,
                      const char *fname) {
  char words[3][GA_NAME_MAX];
  char text[GA_NAME_MAX];       /* the parameter as written, for messages */
  int nw = 0;
  const char *q = s;
  while (s < e && isspace((unsigned char)*s)) s++;
  while (e > s && isspace((unsigned char)e[-1])) e--;
  size_t tl = (size_t)(e - s) < sizeof text - 1 ? (size_t)(e - s) : sizeof text - 1;
  memcpy(text, s, tl);
  text[tl] = '\0';
  while (q < e) {
    while (q < e && isspace((unsigned char)*q)) q++;
    if (q >= e) break;
    const char *w = q;
    if (!is_ident_start((unsigned char)*q))
      return fail(err, "%s: parameter %d ('%s'): unexpected character '%c'", fname, index, text, *q);
    while (q < e && is_ident_char((unsigned char)*q)) q++;
    if (q < e && !isspace((unsigned char)*q))
      return fail(err, "%s: parameter %d ('%s'): unexpected character '%c'", fname, index, text, *q);
    if (nw == 3)
      return fail(err, "%s: parameter %d ('%s'): expected '[raw] type name'", fname, index, text);
    if (q - w >= GA_NAME_MAX)
      return fail(err, "%s: parameter %d: identifier '%s...' is too long", fname, index, text);
    memcpy(words[nw], w, (size_t)(q - w));
    words[nw][q - w] = '\0';
    nw++;
  }
  if (nw == 0) return fail(err, "%s: parameter %d is empty", fname, index);
  if (nw == 1)
    return fail(err, "%s: parameter %d ('%s'): expected '[raw] type name'", fname, index, words[0]);
  p->raw = 0;
  if (nw == 3) {
    if (strcmp(words[0], "raw") != 0)
      return fail(err, "%s: parameter %d: unknown keyword '%s' (only 'raw' is allowed)", fname, index,
               words[0]);
    p->raw = 1;
  }
  const char *type = words[nw - 2], *name = words[nw - 1];
  if (strcmp(type, "raw") == 0)
    return fail(err, "%s: parameter %d ('raw %s'): expected '[raw] type name'", fname, index, name);
  for (size_t k = 0; k < sizeof c_types / sizeof c_types[0]; k++) {
    if (strcmp(type, c_types[k][0]) != 0) continue;
    if (c_types[k][1])
      return fail(err, "%s: parameter %s: '%s' is a C type name: write the dtype (%s)", fname, name, type,
               c_types[k][1]);
    return fail(err, "%s: parameter %s: '%s' is not a dtype", fname, name, type);
  }
  if (is_reserved(name))
    return fail(err, "%s: parameter name '%s' is reserved (i and names starting with '_')", fname, name);
  p->dtype = ga_dtype_lookup(type);
  /* As CuPy: only one-letter types are placeholders, so a misspelt dtype
  ** ("flot32") raises here instead of becoming a type nobody binds */
  if (p->dtype < 0 && type[1] != '\0') {
    char names[160];
    dtype_list(names, sizeof names);
    return fail(err, "%s: parameter %s: unknown type '%s' (a dtype: %s; or one letter for a placeholder)",
                fname, name, type, names);
  }
  strcpy(p->name, name);
  strcpy(p->type, type);
  return 0;
}

int ga_parse_params(const char *s, ga_paramlist *out, const char *fname, char *err) {
  out->n = 0;
  const char *q = s;
  while (*q && isspace((unsigned char)*q)) q++;
  if (!*q) return 0;                     /* no parameters */
  int index = 1;
  for (const char *start = s;; index++) {
    const char *comma = strchr(start, ',');
    const char *end = comma ? comma : start + strlen(start);
    if (out->n == GA_MAXPARAMS) return fail(err, "%s: more than %d parameters", fname, GA_MAXPARAMS);
    ga_param *p = &out->p[out->n];
    if (parse_one(err, start, end, index, p, fname) < 0) return -1;
    for (int k = 0; k < out->n; k++)
      if (strcmp(out->p[k].name, p->name) == 0)
        return fail(err, "%s: parameter name '%s' is used twice", fname, p->name);
    out->n++;
    if (!comma) break;
    start = comma + 1;
  }
  return 0;
}

int ga_params_find(const ga_paramlist *l, const char *name) {
  for (int k = 0; k < l->n; k++)
    if (strcmp(l->p[k].name, name) == 0) return k;
  return -1;
}

int ga_params_check_disjoint(const ga_paramlist *in, const ga_paramlist *out, const char *fname,
                             char *err) {
  for (int k = 0; k < out->n; k++)
    if (ga_params_find(in, out->p[k].name) >= 0)
      return fail(err, "%s: parameter name '%s' is both an input and an output", fname, out->p[k].name);
  return 0;
}

/* ===================================================================== */
/* placeholder bindings                                                  */
/* ===================================================================== */

void ga_typemap_init(ga_typemap *m) { m->n = 0; }

int ga_typemap_get(const ga_typemap *m, const char *name) {
  for (int k = 0; k < m->n; k++)
    if (strcmp(m->name[k], name) == 0) return m->dtype[k];
  return -1;
}

int ga_typemap_bind(ga_typemap *m, const char *name, int dtype) {
  int cur = ga_typemap_get(m, name);
  if (cur >= 0) return cur == dtype;
  if (m->n == GA_MAXPARAMS || strlen(name) >= GA_NAME_MAX) return 0;
  strcpy(m->name[m->n], name);
  m->dtype[m->n] = dtype;
  m->n++;
  return 1;
}

int ga_param_dtype(const ga_param *p, const ga_typemap *m) {
  return p->dtype >= 0 ? p->dtype : ga_typemap_get(m, p->type);
}

void ga_typemap_typedefs(const ga_typemap *m, ga_buf *b) {
  for (int k = 0; k < m->n; k++)
    ga_buf_addf(b, "typedef %s %s;\n", ga_dtypes[m->dtype[k]].ctype, m->name[k]);
}
