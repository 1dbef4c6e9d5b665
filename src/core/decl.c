/*
** decl.c: the declaration parser (decl.h has the grammar). Everything a
** declaration owns lives in one block (d->mem): the text, split in place,
** then the arrays, sized from counts of the separators before parsing.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/decl.h"

const char *const ga_decltype_names[GA_DT_NBASE] = {
  "any", "boolean", "integer", "number", "string", "table", "list", "dict", "function", "callable",
  "ndarray", "array_like", "scalar", "dtype", "shape", "axis", "axes", "userdata", "object",
};

typedef struct {
  char *err;
  size_t errsz;
} perr;

static int fail(perr *e, const char *fmt, const char *a, const char *b) {
  snprintf(e->err, e->errsz, fmt, a ? a : "", b ? b : "");
  return -1;
}

/* fail, then free the declaration's block: the message's arguments point
** into that block (the name, the parameter), so they are read first */
static int fail_free(ga_decl *d, perr *e, const char *fmt, const char *a, const char *b) {
  fail(e, fmt, a, b);
  ga_decl_free(d);
  return -1;
}

/* Bump allocation of string copies inside the declaration's block */
typedef struct {
  char *p;
  size_t left;
} arena;

static char *astrdup(arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  if (n > a->left) abort();   /* sized in ga_decl_parse: cannot happen */
  char *r = a->p;
  memcpy(r, s, n);
  a->p += n;
  a->left -= n;
  return r;
}

static char *trim(char *s) {
  while (*s && isspace((unsigned char)*s)) s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
  return s;
}

static int is_ident(const char *s, int dots) {
  if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_' || (dots && *s == '.'))) return 0;
  return 1;
}

/* Index of the first c at depth 0 (outside quotes, (), {}, []) in s, or -1 */
static long find_top(const char *s, char c) {
  int depth = 0;
  char q = 0;
  for (const char *p = s; *p; p++) {
    if (q) {
      if (*p == '\\' && p[1]) p++;
      else if (*p == q) q = 0;
      continue;
    }
    if (*p == '"' || *p == '\'') { q = *p; continue; }
    if (*p == c && depth == 0) return p - s;
    if (*p == '(' || *p == '{' || *p == '[') depth++;
    else if ((*p == ')' || *p == '}' || *p == ']') && depth > 0) depth--;
  }
  return -1;
}

/* A quoted literal (s starts with its quote): its text, unquoted in place */
static char *unquote(char *s, perr *e, int *ok) {
  char q = s[0];
  size_t n = strlen(s);
  *ok = n >= 2 && s[n - 1] == q;
  if (!*ok) {
    fail(e, "bad string literal %s", s, NULL);
    return NULL;
  }
  s[n - 1] = '\0';
  /* Lua's escapes a default needs: \n \t \r \\ \" \' */
  char *r = s + 1, *w = s + 1;
  for (; *r; r++) {
    if (*r != '\\' || !r[1]) { *w++ = *r; continue; }
    char c = *++r;
    *w++ = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
  }
  *w = '\0';
  return s + 1;
}

static int parse_type(ga_declparam *p, char *t, ga_declalt *alts, perr *e) {
  size_t n = strlen(t);
  if (n && t[n - 1] == '?') {
    p->optional = 1;
    t[--n] = '\0';
    t = trim(t);
  }
  p->alt = alts;
  p->nalt = 0;
  while (*t) {
    long bar = find_top(t, '|');
    if (bar >= 0) t[bar] = '\0';
    char *a = trim(t);
    ga_declalt *alt = &alts[p->nalt++];
    if (*a == '"' || *a == '\'') {
      int ok;
      alt->kind = GA_DT_ENUM;
      alt->text = unquote(a, e, &ok);
      if (!ok) return -1;
    } else if (is_ident(a, 1)) {
      alt->kind = GA_DT_CUSTOM;
      alt->text = a;
      for (int k = 0; k < GA_DT_NBASE; k++)
        if (strcmp(a, ga_decltype_names[k]) == 0) alt->kind = k, alt->text = NULL;
    } else {
      return fail(e, "parameter '%s': bad type '%s'", p->names[0], a);
    }
    if (bar < 0) break;
    t += bar + 1;
  }
  if (p->nalt == 0) return fail(e, "parameter '%s': empty type", p->names[0], NULL);
  /* `any` alone or among others means no check */
  for (int k = 0; k < p->nalt; k++)
    if (p->alt[k].kind == GA_DT_ANY) p->nalt = 0;
  return 0;
}

static int parse_default(ga_declparam *p, char *v, arena *a, perr *e) {
  p->default_text = v;
  p->optional = 1;
  if (strcmp(v, "nil") == 0) { p->defkind = GA_DEF_NIL; return 0; }
  if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0) {
    p->defkind = GA_DEF_BOOL;
    p->defbool = v[0] == 't';
    return 0;
  }
  if (strcmp(v, "{}") == 0) { p->defkind = GA_DEF_TABLE; return 0; }
  if (v[0] == '(' && v[strlen(v) - 1] == ')') { p->defkind = GA_DEF_NIL; return 0; }
  if (v[0] == '"' || v[0] == '\'') {
    int ok;
    /* default_text keeps its quotes for the reference */
    p->defkind = GA_DEF_STR;
    p->defstr = unquote(astrdup(a, v), e, &ok);
    return ok ? 0 : -1;
  }
  const char *num = v;
  int neg = 0;
  if (*num == '-') neg = 1, num++;
  if (strcmp(num, "math.huge") == 0) {
    p->defkind = GA_DEF_NUM;
    p->defnum = neg ? -HUGE_VAL : HUGE_VAL;
    return 0;
  }
  char *end;
  if (*num && strspn(num, "0123456789") == strlen(num)) {
    p->defkind = GA_DEF_INT;
    p->defint = strtoll(v, &end, 10);
    return 0;
  }
  double x = strtod(v, &end);
  if (end != v && *end == '\0' && !isalpha((unsigned char)v[strlen(v) - 1])) {
    p->defkind = GA_DEF_NUM;
    p->defnum = x;
    return 0;
  }
  return fail(e, "parameter '%s': bad default '%s'", p->names[0], v);
}

/* One parameter's text (trimmed, not empty, not `*`) */
static int parse_param(ga_declparam *p, char *s, const char **names, ga_declalt *alts, arena *a, perr *e) {
  memset(p, 0, sizeof *p);
  p->names = names;
  long eq = find_top(s, '=');
  char *def = NULL;
  if (eq >= 0) {
    s[eq] = '\0';
    def = trim(s + eq + 1);
  }
  long colon = find_top(s, ':');
  char *type = NULL;
  if (colon >= 0) {
    s[colon] = '\0';
    type = trim(s + colon + 1);
  }
  char *n = trim(s);
  if (strcmp(n, "...") == 0) {
    p->vararg = 1;
    p->optional = 1;
    names[p->nnames++] = "...";
  } else {
    while (*n) {
      long bar = find_top(n, '|');
      if (bar >= 0) n[bar] = '\0';
      char *one = trim(n);
      if (!is_ident(one, 0)) return fail(e, "bad parameter name '%s'", one, NULL);
      names[p->nnames++] = one;
      if (bar < 0) break;
      n += bar + 1;
    }
    if (p->nnames == 0) return fail(e, "a parameter has no name", NULL, NULL);
  }
  if (type) {
    /* the reference shows the type as written; parsing cuts a copy */
    p->type_text = type;
    if (parse_type(p, astrdup(a, type), alts, e) < 0) return -1;
  }
  if (def) {
    if (p->vararg) return fail(e, "'...' takes no default", NULL, NULL);
    if (*def == '\0') return fail(e, "parameter '%s': empty default", p->names[0], NULL);
    if (parse_default(p, def, a, e) < 0) return -1;
  }
  return 0;
}

int ga_decl_parse(ga_decl *d, const char *text, size_t len, char *err, size_t errsz) {
  perr e = { err, errsz };
  memset(d, 0, sizeof *d);
  d->vararg = -1;
  if (memchr(text, '\0', len)) return fail(&e, "the declaration contains a NUL byte", NULL, NULL);
  /* upper bounds: parameters (every `,`, plus self), names and alternatives
  ** (every `|`, plus one a parameter); strings: the text, a copy of each
  ** type and default (parsing cuts them), the names of a method and the
  ** one-line signature (the text again plus the separators it adds) */
  size_t commas = 0, bars = 0;
  for (size_t i = 0; i < len; i++) commas += text[i] == ',', bars += text[i] == '|';
  size_t maxp = commas + 2, maxa = bars + maxp;
  size_t strroom = 4 * len + 8 * maxp + 64;
  size_t bytes = maxp * sizeof(ga_declparam) + maxa * (sizeof(ga_declalt) + sizeof(char *)) + strroom;
  char *mem = calloc(1, bytes);
  if (!mem) return fail(&e, "out of memory", NULL, NULL);
  d->mem = mem;
  ga_declparam *params = (ga_declparam *)mem;
  ga_declalt *alts = (ga_declalt *)(params + maxp);
  const char **names = (const char **)(alts + maxa);
  arena a = { (char *)(names + maxa), strroom };
  d->p = params;
  char *buf = a.p;
  memcpy(buf, text, len);
  buf[len] = '\0';
  a.p += len + 1;
  a.left -= len + 1;

  char *s = buf;
  while (*s && isspace((unsigned char)*s)) s++;
  char *open = strchr(s, '(');
  if (!open) return fail_free(d, &e, "no '(' in the declaration%s%s", NULL, NULL);
  *open = '\0';
  char *qual = trim(s);
  char *colon = strchr(qual, ':');
  const char *method = NULL;
  if (colon) {
    *colon = '\0';
    method = colon + 1;
    if (!is_ident(qual, 1) || !is_ident(method, 0))
      return fail_free(d, &e, "bad method name '%s:%s'", qual, method);
    d->self_class = qual;
  } else if (!is_ident(qual, 1)) {
    return fail_free(d, &e, "bad function name '%s'%s", qual, NULL);
  }
  long close = find_top(open + 1, ')');
  if (close < 0) return fail_free(d, &e, "%s: no ')' closes the parameters%s", qual, NULL);
  char *plist = open + 1;
  plist[close] = '\0';
  /* returns: the rest of that line; doc: the lines after it */
  char *rest = plist + close + 1;
  char *nl = strchr(rest, '\n');
  if (nl) *nl = '\0';
  char *ret = trim(rest);
  if (*ret) {
    if (strncmp(ret, "->", 2) != 0)
      return fail_free(d, &e, "%s: expected '->' or the end of the line after ')', got '%s'", qual, ret);
    d->returns = trim(ret + 2);
  }
  d->doc = nl ? trim(nl + 1) : "";

  int kwonly = 0, star = 0, n = 0;
  if (d->self_class) {
    ga_declparam *p = &params[n++];
    names[0] = "self";
    p->names = names++;
    p->nnames = 1;
    alts[0].kind = strcmp(d->self_class, "ndarray") == 0 ? GA_DT_NDARRAY : GA_DT_CUSTOM;
    alts[0].text = d->self_class;
    p->alt = alts++;
    p->nalt = 1;
    p->type_text = d->self_class;
    d->npos = 1;
  }
  char *cur = plist;
  for (;;) {
    long comma = find_top(cur, ',');
    if (comma >= 0) cur[comma] = '\0';
    char *piece = trim(cur);
    if (*piece == '\0') {
      if (comma >= 0 || star || n > (d->self_class ? 1 : 0))
        return fail_free(d, &e, "%s: an empty parameter%s", qual, NULL);
    } else if (strcmp(piece, "*") == 0) {
      /* after `...` it only repeats what `...` says */
      if (star) return fail_free(d, &e, "%s: '*' twice%s", qual, NULL);
      star = kwonly = 1;
    } else {
      ga_declparam *p = &params[n];
      if (parse_param(p, piece, names, alts, &a, &e) < 0) return ga_decl_free(d), -1;
      names += p->nnames;
      alts += p->nalt;
      if (p->vararg) {
        if (d->vararg >= 0 || kwonly) return fail_free(d, &e, "%s: '...' after '*' or '...'%s", qual, NULL);
        d->vararg = n;
        kwonly = 1;   /* what follows `...` is by name only */
      } else {
        p->kwonly = kwonly;
        if (!kwonly) d->npos++;
        for (int k = 0; k < n; k++)
          for (int i = 0; i < params[k].nnames; i++)
            for (int j = 0; j < p->nnames; j++)
              if (strcmp(params[k].names[i], p->names[j]) == 0)
                return fail_free(d, &e, "%s: the name '%s' is declared twice", qual, p->names[j]);
      }
      n++;
    }
    if (comma < 0) break;
    cur += comma + 1;
  }
  d->np = n;
  for (int k = 0; k < n; k++)
    for (int i = 0; i < params[k].nalt; i++) params[k].kinds |= 1u << params[k].alt[i].kind;
  /* a required positional parameter after an optional one could never be
  ** left out: the declaration is refused */
  int seen_opt = 0;
  for (int k = 0; k < n; k++) {
    ga_declparam *p = &params[k];
    if (p->vararg || p->kwonly) continue;
    if (p->optional) seen_opt = 1;
    else if (seen_opt)
      return fail_free(d, &e, "%s: required parameter '%s' after an optional one", qual, p->names[0]);
  }

  /* names: errors say "sum" for ndarray:sum, "Stream.use" for Stream:use */
  char tmp[256];
  if (d->self_class) {
    if (strcmp(d->self_class, "ndarray") == 0) {
      d->fname = method;
    } else {
      snprintf(tmp, sizeof tmp, "%s.%s", d->self_class, method);
      d->fname = astrdup(&a, tmp);
    }
    snprintf(tmp, sizeof tmp, "%s:%s", d->self_class, method);
    d->qualname = astrdup(&a, tmp);
  } else {
    d->qualname = d->fname = qual;
  }
  /* the signature as one line, for the reference and ga.help */
  char *out = a.p;
  size_t left = a.left, w = 0;
#define PUT(...) do { int k_ = snprintf(out + w, w < left ? left - w : 0, __VA_ARGS__); \
                      if (k_ > 0) w += (size_t)k_; } while (0)
  PUT("%s(", d->qualname);
  int first = 1;
  for (int k = d->self_class ? 1 : 0; k < n; k++) {
    ga_declparam *p = &params[k];
    int after_vararg = k > 0 && params[k - 1].vararg;
    if (p->kwonly && !after_vararg && (k == 0 || !params[k - 1].kwonly)) {
      PUT("%s*", first ? "" : ", ");
      first = 0;
    }
    PUT("%s", first ? "" : ", ");
    first = 0;
    for (int i = 0; i < p->nnames; i++) PUT("%s%s", i ? "|" : "", p->names[i]);
    if (p->type_text) PUT(": %s", p->type_text);
    if (p->default_text) PUT(" = %s", p->default_text);
  }
  PUT(")");
  if (d->returns && *d->returns) PUT(" -> %s", d->returns);
#undef PUT
  if (w >= left) return fail_free(d, &e, "%s: the signature is too long%s", qual, NULL);
  d->signature = out;
  return 0;
}

void ga_decl_free(ga_decl *d) {
  free(d->mem);
  d->mem = NULL;
  d->p = NULL;
  d->np = 0;
}

int ga_decl_find(const ga_decl *d, const char *name) {
  for (int k = 0; k < d->np; k++)
    for (int a = 0; a < d->p[k].nnames; a++)
      if (d->p[k].names[a][0] == name[0] && strcmp(d->p[k].names[a], name) == 0) return k;
  return -1;
}

int ga_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 40 || lb > 40) return 3;
  if ((la > lb ? la - lb : lb - la) > 2) return 3;
  int dp[41][41];
  for (size_t i = 0; i <= la; i++) dp[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) dp[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int cost = a[i - 1] != b[j - 1];
      int v = dp[i - 1][j] + 1;
      if (dp[i][j - 1] + 1 < v) v = dp[i][j - 1] + 1;
      if (dp[i - 1][j - 1] + cost < v) v = dp[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && dp[i - 2][j - 2] + 1 < v)
        v = dp[i - 2][j - 2] + 1;
      dp[i][j] = v;
    }
  return dp[la][lb] > 3 ? 3 : dp[la][lb];
}
