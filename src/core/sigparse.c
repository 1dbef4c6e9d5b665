/*
** sigparse.c: finding `__global__` declarations in CUDA source and typing
** their parameters. Not a C++ parser: a tokenizer that skips comments,
** literals and preprocessor lines, a top-level walk that skips function
** bodies, and a classifier for one parameter's tokens. What it cannot type
** it says so (GA_SIG_UNKNOWN) rather than guess: RawKernel then asks for a
** typed scalar.
*/
#include <string.h>

#include "core/core.h"

/* ===================================================================== */
/* tokens                                                                */
/* ===================================================================== */

enum { T_END, T_IDENT, T_NUM, T_STR, T_CHAR, T_PUNCT };

typedef struct {
  int kind;
  const char *s;
  size_t n;
} tok;

typedef struct {
  const char *p, *end;
  int bol;            /* at the beginning of a line: '#' starts a directive */
} lexer;

static int is_ident0(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static int is_ident1(int c) { return is_ident0(c) || (c >= '0' && c <= '9'); }

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* Whitespace, comments and preprocessor lines (with their continuations) */
static void skip_space(lexer *x) {
  const char *p = x->p, *e = x->end;
  while (p < e) {
    char c = *p;
    if (c == '\n') { x->bol = 1; p++; }
    else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') p++;
    else if (c == '/' && p + 1 < e && p[1] == '/') {
      while (p < e && *p != '\n') p++;
    } else if (c == '/' && p + 1 < e && p[1] == '*') {
      p += 2;
      while (p + 1 < e && !(p[0] == '*' && p[1] == '/')) p++;
      p = p + 1 < e ? p + 2 : e;
    } else if (c == '#' && x->bol) {
      while (p < e && *p != '\n') {
        if (*p == '\\' && p + 1 < e && p[1] == '\n') p++;
        else if (*p == '\\' && p + 2 < e && p[1] == '\r' && p[2] == '\n') p += 2;
        p++;
      }
    } else break;
  }
  x->p = p;
}

/* A quoted literal starting at p (the quote), escapes honoured */
static const char *skip_quoted(const char *p, const char *e) {
  char q = *p++;
  while (p < e && *p != q && *p != '\n') p += (*p == '\\' && p + 1 < e) ? 2 : 1;
  return p < e && *p == q ? p + 1 : p;
}

/* R"delim( ... )delim" starting at the quote */
static const char *skip_raw(const char *p, const char *e) {
  const char *d = ++p;
  while (p < e && *p != '(' && p - d < 16) p++;
  if (p >= e || *p != '(') return p;
  size_t dn = (size_t)(p - d);
  for (p++; p < e; p++)
    if (*p == ')' && (size_t)(e - p) > dn + 1 && memcmp(p + 1, d, dn) == 0 && p[1 + dn] == '"')
      return p + dn + 2;
  return e;
}

static tok next_tok(lexer *x) {
  tok t = {T_END, NULL, 0};
  skip_space(x);
  const char *p = x->p, *e = x->end;
  if (p >= e) {
    t.s = e;
    return t;
  }
  x->bol = 0;
  t.s = p;
  char c = *p;
  if (is_ident0((unsigned char)c)) {
    while (p < e && is_ident1((unsigned char)*p)) p++;
    if (p < e && *p == '"') {   /* u8"..", L"..", R"(..)" */
      size_t n = (size_t)(p - t.s);
      if (t.s[n - 1] == 'R') p = skip_raw(p, e);
      else p = skip_quoted(p, e);
      t.kind = T_STR;
    } else {
      t.kind = T_IDENT;
    }
  } else if (is_digit((unsigned char)c) || (c == '.' && p + 1 < e && is_digit((unsigned char)p[1]))) {
    while (p < e && (is_ident1((unsigned char)*p) || *p == '.' || *p == '\'' ||
                     ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))))
      p++;
    t.kind = T_NUM;
  } else if (c == '"') {
    p = skip_quoted(p, e);
    t.kind = T_STR;
  } else if (c == '\'') {
    p = skip_quoted(p, e);
    t.kind = T_CHAR;
  } else {
    t.kind = T_PUNCT;
    if (c == ':' && p + 1 < e && p[1] == ':') p += 2;
    else if (c == '.' && p + 2 < e && p[1] == '.' && p[2] == '.') p += 3;
    else p++;
  }
  t.n = (size_t)(p - t.s);
  x->p = p;
  return t;
}

static int is(const tok *t, const char *s) {
  size_t n = strlen(s);
  return t->n == n && memcmp(t->s, s, n) == 0;
}

static int punct(const tok *t, char c) { return t->kind == T_PUNCT && t->n == 1 && t->s[0] == c; }

/* Skip a balanced group whose opening token (open) was just read */
static void skip_group(lexer *x, char open, char close) {
  int depth = 1;
  for (tok t = next_tok(x); t.kind != T_END; t = next_tok(x)) {
    if (punct(&t, open)) depth++;
    else if (punct(&t, close) && --depth == 0) return;
  }
}

/* Up to max tokens of [b, e) */
static int tokenize(const char *b, const char *e, tok *out, int max) {
  lexer x = {b, e, 1};
  int n = 0;
  for (tok t = next_tok(&x); t.kind != T_END; t = next_tok(&x)) {
    if (n == max) return -1;
    out[n++] = t;
  }
  return n;
}

/* ===================================================================== */
/* types                                                                 */
/* ===================================================================== */

#define MAXTOK 64

static const char *const qualifiers[] = {
  "const", "volatile", "__restrict__", "__restrict", "restrict", "register",
  "struct", "class", "enum", "typename", "__grid_constant__", "static", "inline", NULL
};

static int is_qualifier(const tok *t) {
  if (t->kind != T_IDENT) return 0;
  for (int i = 0; qualifiers[i]; i++)
    if (is(t, qualifiers[i])) return 1;
  return 0;
}

static const char *const builtin_words[] = {
  "unsigned", "signed", "short", "long", "int", "char", "float", "double", "bool", "void", NULL
};

static int is_builtin_word(const tok *t) {
  if (t->kind != T_IDENT) return 0;
  for (int i = 0; builtin_words[i]; i++)
    if (is(t, builtin_words[i])) return 1;
  return 0;
}

/* unsigned/signed/short/long/int/char/float/double/bool combinations
** (LP64: long is 64 bits) */
static int builtin_dtype(const tok *t, int n) {
  int uns = 0, sgn = 0, shrt = 0, lng = 0, in = 0, chr = 0, flt = 0, dbl = 0, bl = 0;
  for (int i = 0; i < n; i++) {
    if (is(&t[i], "unsigned")) uns++;
    else if (is(&t[i], "signed")) sgn++;
    else if (is(&t[i], "short")) shrt++;
    else if (is(&t[i], "long")) lng++;
    else if (is(&t[i], "int")) in++;
    else if (is(&t[i], "char")) chr++;
    else if (is(&t[i], "float")) flt++;
    else if (is(&t[i], "double")) dbl++;
    else if (is(&t[i], "bool")) bl++;
    else return -2;
  }
  if (uns + sgn > 1 || in > 1 || lng > 2 || shrt > 1) return -2;
  if (flt) return (n == 1) ? GA_FLOAT32 : -2;
  if (dbl) return (n == 1) ? GA_FLOAT64 : -2;   /* long double: unknown */
  if (bl) return (n == 1) ? GA_BOOL : -2;
  if (chr) return (shrt || lng || in) ? -2 : uns ? GA_UINT8 : GA_INT8;
  if (shrt) return lng ? -2 : uns ? GA_UINT16 : GA_INT16;
  if (lng) return uns ? GA_UINT64 : GA_INT64;
  if (in || uns || sgn) return uns ? GA_UINT32 : GA_INT32;
  return -2;
}

static const struct { const char *name; int dtype; } named_types[] = {
  {"size_t", GA_UINT64}, {"ssize_t", GA_INT64}, {"ptrdiff_t", GA_INT64},
  {"intptr_t", GA_INT64}, {"uintptr_t", GA_UINT64},
  {"int8_t", GA_INT8}, {"int16_t", GA_INT16}, {"int32_t", GA_INT32}, {"int64_t", GA_INT64},
  {"uint8_t", GA_UINT8}, {"uint16_t", GA_UINT16}, {"uint32_t", GA_UINT32}, {"uint64_t", GA_UINT64},
  {"half", GA_FLOAT16}, {"__half", GA_FLOAT16},
  {"__nv_bfloat16", GA_BFLOAT16}, {"nv_bfloat16", GA_BFLOAT16},
  {"cuComplex", GA_COMPLEX64}, {"cuFloatComplex", GA_COMPLEX64}, {"cuDoubleComplex", GA_COMPLEX128},
  {"complex<float>", GA_COMPLEX64}, {"complex<double>", GA_COMPLEX128},
  {NULL, 0}
};

/* The tokens joined, a space only between two words: "unsigned int",
** "std::size_t", "complex<float>". Truncated to fit. */
static void join(const tok *t, int n, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    int space = i > 0 && t[i].kind != T_PUNCT && t[i - 1].kind != T_PUNCT;
    size_t need = t[i].n + (size_t)space;
    if (len + need + 1 > cap) break;
    if (space) out[len++] = ' ';
    memcpy(out + len, t[i].s, t[i].n);
    len += t[i].n;
    out[len] = '\0';
  }
}

/* Namespaces that hold the names above (std::size_t, cuda::std::int64_t,
** thrust::complex<float>) */
static const char *strip_ns(const char *s) {
  static const char *const ns[] = {"::", "cuda::std::", "std::", "cuda::", "thrust::", NULL};
  for (int again = 1; again;) {
    again = 0;
    for (int i = 0; ns[i]; i++) {
      size_t n = strlen(ns[i]);
      if (strncmp(s, ns[i], n) == 0) {
        s += n;
        again = 1;
      }
    }
  }
  return s;
}

/* The dtype of type tokens (qualifiers and name already removed), -2 if
** unknown; aliases from the scan when s is given */
static int type_dtype(const ga_sigscan *s, const tok *t, int n) {
  if (n == 0) return -2;
  int words = 1;
  for (int i = 0; i < n; i++) words &= is_builtin_word(&t[i]);
  if (words) return builtin_dtype(t, n);
  char text[GA_SIG_TYPE];
  join(t, n, text, sizeof text);
  const char *name = strip_ns(text);
  for (int i = 0; named_types[i].name; i++)
    if (strcmp(name, named_types[i].name) == 0) return named_types[i].dtype;
  int d = ga_dtype_lookup(name);   /* kernels/common/common.cuh's names: float32, int64, ... */
  if (d >= 0) return d;
  if (s)
    for (int i = s->nalias - 1; i >= 0; i--)
      if (strcmp(text, s->alias[i]) == 0) return s->alias_dtype[i];
  return -2;
}

/* Remove tokens in place; returns the new count */
static int drop_qualifiers(tok *t, int n) {
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (is_qualifier(&t[i])) continue;
    /* __attribute__((...)), alignas(...), __align__(...) */
    if (t[i].kind == T_IDENT && (is(&t[i], "__attribute__") || is(&t[i], "alignas") ||
                                 is(&t[i], "__align__")) && i + 1 < n && punct(&t[i + 1], '(')) {
      int depth = 0;
      for (i++; i < n; i++) {
        if (punct(&t[i], '(')) depth++;
        else if (punct(&t[i], ')') && --depth == 0) break;
      }
      continue;
    }
    t[m++] = t[i];
  }
  return m;
}

/* Classify a parameter's tokens (t is modified) */
static void classify(const ga_sigscan *s, const ga_sigkernel *k, tok *t, int n, ga_sigparam *out) {
  out->kind = GA_SIG_UNKNOWN;
  out->dtype = -1;
  out->tparam = -1;
  out->type[0] = out->name[0] = '\0';
  if (n < 0) {
    snprintf(out->type, sizeof out->type, "(too long to read)");
    return;
  }
  /* the default value and array bounds go; "[" makes it a pointer */
  int depth = 0, array = 0;
  for (int i = 0; i < n; i++) {
    if (punct(&t[i], '<') || punct(&t[i], '(')) depth++;
    else if (punct(&t[i], '>') || punct(&t[i], ')')) depth--;
    else if (depth == 0 && punct(&t[i], '=')) { n = i; break; }
    else if (depth == 0 && punct(&t[i], '[')) { n = i; array = 1; break; }
  }
  n = drop_qualifiers(t, n);
  /* declarator: '*' and '&' at the top level, then the name */
  int ptr = array, ref = 0, variadic = 0;
  tok type[MAXTOK] = {{T_END, NULL, 0}};
  int nt = 0;
  depth = 0;
  for (int i = 0; i < n; i++) {
    if (punct(&t[i], '<')) depth++;
    else if (punct(&t[i], '>')) depth--;
    if (depth == 0 && punct(&t[i], '*')) { ptr++; continue; }
    if (depth == 0 && (punct(&t[i], '&'))) { ref = 1; continue; }
    if (is(&t[i], "...")) { variadic = 1; continue; }
    type[nt++] = t[i];
  }
  /* the last word is the name unless it is part of the type: a builtin
  ** word, the only word, or a qualified name's tail */
  if (nt >= 2 && type[nt - 1].kind == T_IDENT && !is_builtin_word(&type[nt - 1]) &&
      !is(&type[nt - 2], "::")) {
    size_t m = type[nt - 1].n < GA_SIG_NAME - 1 ? type[nt - 1].n : GA_SIG_NAME - 1;
    memcpy(out->name, type[nt - 1].s, m);
    out->name[m] = '\0';
    nt--;
  }
  join(type, nt, out->type, sizeof out->type);
  size_t len = strlen(out->type);
  for (int i = 0; i < ptr + ref && len + 2 < sizeof out->type; i++) {
    out->type[len++] = i < ptr ? '*' : '&';
    out->type[len] = '\0';
  }
  if (variadic || ref || nt == 0) return;
  if (ptr) {
    out->kind = GA_SIG_POINTER;
    return;
  }
  if (nt == 1 && type[0].kind == T_IDENT)
    for (int i = 0; k && i < k->ntparams; i++)
      if (k->tparam_is_type[i] && strlen(k->tparams[i]) == type[0].n &&
          memcmp(k->tparams[i], type[0].s, type[0].n) == 0) {
        out->tparam = i;
        return;
      }
  int d = type_dtype(s, type, nt);
  if (d == -1) out->kind = GA_SIG_POINTER;   /* an alias of a pointer type */
  else if (d >= 0) {
    out->kind = GA_SIG_SCALAR;
    out->dtype = d;
  }
}

int ga_sig_ctype(const char *text) {
  tok t[MAXTOK];
  int n = tokenize(text, text + strlen(text), t, MAXTOK);
  if (n <= 0) return -2;
  ga_sigparam p;
  classify(NULL, NULL, t, n, &p);
  if (p.kind == GA_SIG_POINTER) return -1;
  if (p.kind == GA_SIG_SCALAR) return p.dtype;
  /* classify took a trailing word for a name: "Foo x" is no type */
  return -2;
}

const char *ga_sig_kindname(int kind) {
  switch (kind) {
    case GA_SIG_POINTER: return "pointer";
    case GA_SIG_SCALAR: return "scalar";
    default: return "unknown";
  }
}

/* ===================================================================== */
/* declarations                                                          */
/* ===================================================================== */

void ga_sig_begin(ga_sigscan *s, const char *src, size_t len) {
  memset(s, 0, sizeof *s);
  s->src = s->p = s->decl = src;
  s->end = src + len;
}

static int in_extern_c(const ga_sigscan *s) {
  int d = s->depth < GA_SIG_MAXNEST ? s->depth : GA_SIG_MAXNEST;
  for (int i = d - 1; i >= 0; i--)
    if (s->block[i]) return s->block[i] == 1;
  return 0;
}

/* What the declaration prefix [s->decl, upto) says: extern "C" (1) or
** extern "C++" (2) linkage, a namespace (3) */
static int prefix_kind(const ga_sigscan *s, const char *upto) {
  tok t[8];
  int n = tokenize(s->decl, upto, t, 8);
  if (n >= 2 && is(&t[0], "extern") && t[1].kind == T_STR)
    return is(&t[1], "\"C\"") ? 1 : 2;
  for (int i = 0; i < n; i++)
    if (is(&t[i], "namespace")) return 3;
  return 0;
}

/* `typedef <type> name;` and `using name = <type>;` at namespace scope.
** Returns 1 when it read through the ';' */
static int read_alias(ga_sigscan *s, lexer *x, int is_using) {
  const char *start = x->p;
  for (tok t = next_tok(x); t.kind != T_END; t = next_tok(x)) {
    if (punct(&t, '{') || punct(&t, '(')) {   /* typedef struct {..}, function types: not ours */
      x->p = t.s;
      return 0;
    }
    if (!punct(&t, ';')) continue;
    tok v[MAXTOK];
    int n = tokenize(start, t.s, v, MAXTOK);
    if (n < 2 || s->nalias == GA_SIG_MAXALIAS) return 1;
    tok name;
    tok *type;
    int nt;
    if (is_using) {
      if (n < 3 || v[0].kind != T_IDENT || !punct(&v[1], '=')) return 1;
      name = v[0];
      type = v + 2;
      nt = n - 2;
    } else {
      name = v[n - 1];
      if (name.kind != T_IDENT) return 1;
      type = v;
      nt = n - 1;
    }
    nt = drop_qualifiers(type, nt);
    int ptr = 0, m = 0;
    for (int i = 0; i < nt; i++) {
      if (punct(&type[i], '*')) ptr = 1;
      else type[m++] = type[i];
    }
    int d = ptr ? -1 : type_dtype(s, type, m);
    if (d == -2 || name.n >= GA_SIG_NAME) return 1;
    memcpy(s->alias[s->nalias], name.s, name.n);
    s->alias[s->nalias][name.n] = '\0';
    s->alias_dtype[s->nalias++] = d;
    return 1;
  }
  return 0;
}

/* t is the first token of the current declaration */
static int starts_decl(const ga_sigscan *s, const tok *t) {
  lexer x = {s->decl, t->s, 1};
  return next_tok(&x).kind == T_END;
}

/* template <typename T, int N, class U = float> from the prefix */
static void read_template(const ga_sigscan *s, const char *upto, ga_sigkernel *k) {
  lexer x = {s->decl, upto, 1};
  tok t;
  do t = next_tok(&x); while (t.kind != T_END && !is(&t, "template"));
  if (t.kind == T_END) return;
  t = next_tok(&x);
  if (!punct(&t, '<')) return;
  const char *b = x.p;
  int depth = 1;
  for (t = next_tok(&x); t.kind != T_END; t = next_tok(&x)) {
    int end = 0;
    if (punct(&t, '<') || punct(&t, '(')) depth++;
    else if (punct(&t, ')')) depth--;
    else if (punct(&t, '>') && --depth == 0) end = 1;
    if (end || (depth == 1 && punct(&t, ','))) {
      tok v[MAXTOK];
      int n = tokenize(b, t.s, v, MAXTOK), i = k->ntparams;
      if (i == GA_SIG_MAXTPARAMS) return;
      for (int j = 0; j < n; j++)
        if (punct(&v[j], '=')) n = j;
      k->tparam_is_type[i] = n > 0 && (is(&v[0], "typename") || is(&v[0], "class"));
      k->tparams[i][0] = '\0';
      if (n >= 2 && v[n - 1].kind == T_IDENT && v[n - 1].n < GA_SIG_NAME) {
        memcpy(k->tparams[i], v[n - 1].s, v[n - 1].n);
        k->tparams[i][v[n - 1].n] = '\0';
      }
      k->ntparams++;
      b = x.p;
      if (end) return;
    }
  }
}

/* After __global__: attributes, the return type, the name, the parameters.
** Returns 1 with k filled; x is left after the declaration. */
static int read_kernel(ga_sigscan *s, lexer *x, const char *global_at, ga_sigkernel *k) {
  memset(k, 0, sizeof *k);
  int kind = prefix_kind(s, global_at);
  k->extern_c = kind == 1 || (kind != 2 && in_extern_c(s));
  read_template(s, global_at, k);
  tok last = {T_END, NULL, 0};
  tok t;
  for (t = next_tok(x); t.kind != T_END; t = next_tok(x)) {
    if (t.kind == T_IDENT && (is(&t, "__launch_bounds__") || is(&t, "__attribute__") ||
                              is(&t, "__declspec") || is(&t, "__cluster_dims__"))) {
      tok o = next_tok(x);
      if (punct(&o, '(')) skip_group(x, '(', ')');
      continue;
    }
    if (punct(&t, '[')) { skip_group(x, '[', ']'); continue; }
    if (t.kind == T_IDENT) { last = t; continue; }
    if (punct(&t, '<') && last.kind) { skip_group(x, '<', '>'); continue; }
    if (punct(&t, '(') && last.kind) break;
    if (is(&t, "::") || punct(&t, '*') || punct(&t, '&')) continue;
    return 0;   /* not a declaration we understand */
  }
  if (t.kind == T_END) return 0;
  size_t m = last.n < sizeof k->name - 1 ? last.n : sizeof k->name - 1;
  memcpy(k->name, last.s, m);
  k->name[m] = '\0';
  k->name_at = last.s;
  k->name_len = last.n;
  /* parameters: split at top-level commas */
  const char *b = x->p;
  int depth = 1, angle = 0;
  for (t = next_tok(x); t.kind != T_END; t = next_tok(x)) {
    int end = 0;
    if (punct(&t, '(') || punct(&t, '[') || punct(&t, '{')) depth++;
    else if (punct(&t, '<')) angle++;
    else if (punct(&t, '>') && angle > 0) angle--;
    else if ((punct(&t, ')') || punct(&t, ']') || punct(&t, '}')) && --depth == 0) end = 1;
    if (end || (depth == 1 && angle == 0 && punct(&t, ','))) {
      tok v[MAXTOK];
      int n = tokenize(b, t.s, v, MAXTOK);
      b = x->p;
      if (end && k->nparams == 0 && (n == 0 || (n == 1 && is(&v[0], "void")))) break;
      if (k->nparams == GA_SIG_MAXPARAMS) {
        k->nparams = -1;
      } else if (k->nparams >= 0) {
        classify(s, k, v, n, &k->params[k->nparams]);
        k->nparams++;
      }
      if (end) break;
    }
  }
  if (t.kind == T_END) return 0;
  /* a body or the end of a declaration */
  for (t = next_tok(x); t.kind != T_END; t = next_tok(x)) {
    if (punct(&t, ';')) break;
    if (punct(&t, '{')) { skip_group(x, '{', '}'); break; }
  }
  return 1;
}

int ga_sig_next(ga_sigscan *s, ga_sigkernel *k) {
  lexer x = {s->p, s->end, s->p == s->src || s->p[-1] == '\n'};
  for (;;) {
    tok t = next_tok(&x);
    if (t.kind == T_END) {
      s->p = x.p;
      return 0;
    }
    if (punct(&t, ';')) {
      s->decl = x.p;
    } else if (punct(&t, '{')) {
      int kind = prefix_kind(s, t.s);
      if (kind == 0) {
        skip_group(&x, '{', '}');   /* a function or struct body */
      } else {
        if (s->depth < GA_SIG_MAXNEST) s->block[s->depth] = (unsigned char)(kind == 3 ? 0 : kind);
        s->depth++;
      }
      s->decl = x.p;
    } else if (punct(&t, '}')) {
      if (s->depth > 0) s->depth--;
      s->decl = x.p;
    } else if (t.kind == T_IDENT && (is(&t, "typedef") || is(&t, "using")) && starts_decl(s, &t)) {
      if (read_alias(s, &x, is(&t, "using"))) s->decl = x.p;
    } else if (t.kind == T_IDENT && is(&t, "__global__")) {
      int ok = read_kernel(s, &x, t.s, k);
      s->decl = x.p;
      if (ok) {
        s->p = x.p;
        return 1;
      }
    }
  }
}

/* ===================================================================== */
/* finding a kernel by launch name                                       */
/* ===================================================================== */

int ga_sig_find(const char *src, size_t len, const char *name, ga_sigkernel *k) {
  /* "&ns::f<float, 3>" -> base "f", args "float", "3" */
  while (*name == ' ' || *name == '&') name++;
  const char *lt = strchr(name, '<');
  const char *base_end = lt ? lt : name + strlen(name);
  while (base_end > name && base_end[-1] == ' ') base_end--;
  const char *base = base_end;
  while (base > name && is_ident1((unsigned char)base[-1])) base--;
  size_t bn = (size_t)(base_end - base);
  if (bn == 0) return 0;

  ga_sigscan s;
  ga_sig_begin(&s, src, len);
  int found = 0;
  while (ga_sig_next(&s, k)) {
    if (k->name_len == bn && memcmp(k->name_at, base, bn) == 0 && (!lt || k->ntparams > 0)) {
      found = 1;
      break;
    }
  }
  if (!found || !lt) return found;

  /* bind type template arguments */
  const char *p = lt + 1, *a = p;
  int depth = 0, i = 0;
  for (; *p; p++) {
    int end = 0;
    if (*p == '<' || *p == '(') depth++;
    else if (*p == ')') depth--;
    else if (*p == '>' && depth-- == 0) end = 1;
    if (end || (depth == 0 && *p == ',')) {
      if (i < k->ntparams && k->tparam_is_type[i]) {
        char arg[GA_SIG_TYPE];
        size_t n = (size_t)(p - a) < sizeof arg - 1 ? (size_t)(p - a) : sizeof arg - 1;
        memcpy(arg, a, n);
        arg[n] = '\0';
        int d = ga_sig_ctype(arg);
        for (int j = 0; j < k->nparams; j++) {
          ga_sigparam *q = &k->params[j];
          if (q->tparam != i) continue;
          if (d == -1) q->kind = GA_SIG_POINTER;
          else if (d >= 0) {
            q->kind = GA_SIG_SCALAR;
            q->dtype = d;
          }
          tok v[MAXTOK];
          int nv = tokenize(arg, arg + strlen(arg), v, MAXTOK);
          if (nv > 0) join(v, nv, q->type, sizeof q->type);
        }
      }
      i++;
      a = p + 1;
      if (end) break;
    }
  }
  return 1;
}
