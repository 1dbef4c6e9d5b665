/*
** ctoken.c: a small C tokenizer and what the engines ask of user code with
** it: is an output's first use an unconditional assignment (then the
** generated kernel never loads it)? Pure C.
*/
#include <string.h>

#include "core/core.h"

/* A tiny C tokenizer for ga_assigned_first: identifiers, numbers, strings,
** punctuation (== and the compound assignments as one token) */
typedef struct {
  const char *s;
  char tok[64];
  int ident;
} lexer;

static int lex(lexer *x) {
  const char *s = x->s;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (s[0] == '/' && s[1] == '/') { while (*s && *s != '\n') s++; continue; }
    if (s[0] == '/' && s[1] == '*') {
      const char *e = strstr(s + 2, "*/");
      s = e ? e + 2 : s + strlen(s);
      continue;
    }
    break;
  }
  if (!*s) return 0;
  x->ident = 0;
  const char *start = s;
  if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') {
    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_') s++;
    x->ident = 1;
  } else if (*s >= '0' && *s <= '9') {
    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.') s++;
  } else if (*s == '"' || *s == '\'') {
    char q = *s++;
    while (*s && *s != q) s += (*s == '\\' && s[1]) ? 2 : 1;
    if (*s) s++;
  } else if (strchr("=!<>+-*/%&|^", *s) && s[1] == '=') {
    s += 2;
  } else if ((s[0] == '<' && s[1] == '<') || (s[0] == '>' && s[1] == '>')) {
    s += (s[2] == '=') ? 3 : 2;
  } else {
    s++;
  }
  size_t n = (size_t)(s - start);
  if (n >= sizeof x->tok) n = sizeof x->tok - 1;
  memcpy(x->tok, start, n);
  x->tok[n] = '\0';
  x->s = s;
  return 1;
}

static int is_control(const char *t) {
  static const char *const kw[] = {"if", "else", "for", "while", "do", "switch", "case", "default",
                                   "return", "goto", "break", "continue", "#", NULL};
  for (int i = 0; kw[i]; i++)
    if (strcmp(t, kw[i]) == 0) return 1;
  return 0;
}

int ga_assigned_first(const char *op, const char *name) {
  if (!op) return 0;
  lexer x = {op, {0}, 0};
  int depth = 0, start = 1, assigning = 0;
  while (lex(&x)) {
    const char *t = x.tok;
    if (assigning) {               /* in "name = ...;": the right side must not read name */
      if (x.ident && strcmp(t, name) == 0) return 0;
      if (strchr("([{", t[0]) && !t[1]) depth++;
      else if (strchr(")]}", t[0]) && !t[1]) depth--;
      else if (t[0] == ';' && depth == 0) return 1;
      continue;
    }
    if (start && depth == 0) {
      if (x.ident && strcmp(t, name) == 0) {
        if (!lex(&x) || strcmp(x.tok, "=") != 0) return 0;
        assigning = 1;
        continue;
      }
      if (is_control(t) || t[0] == '{') return 0;
    }
    if (x.ident && strcmp(t, name) == 0) return 0;   /* read (or written conditionally) first */
    start = 0;
    if (strchr("([{", t[0]) && !t[1]) depth++;
    else if (strchr(")]}", t[0]) && !t[1]) depth--;
    else if (t[0] == ';' && depth == 0) start = 1;
  }
  return assigning;                /* "z = x + y" without a final ';' */
}
