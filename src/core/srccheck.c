/*
** srccheck.c: what a CUDA source and an NVRTC name expression must look
** like before NVRTC sees them. NVRTC is a C++ front end inside our process:
** some malformed input crashes it (issue 24: a template cut off inside its
** parameter list, compiled with a name expression). A name expression that
** is not a well-formed name is refused; a source that does not lex as C++
** (invalid UTF-8, an unterminated comment or literal, unbalanced brackets)
** is only marked suspicious: compile/ then compiles it in a child process,
** where a crash is an error and not the end of the user's program. Pure C.
*/
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static int ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* ===================================================================== */
/* name expressions                                                      */
/* ===================================================================== */

/* "&ns::scale<float, (N > 2)>", "k<int, 4>", "k": an optional '&', a
** qualified name, template arguments. Brackets must pair up: '<' opens and
** '>' closes a template list except inside () or [], where they compare. */
int ga_name_expr_check(const char *s, char *why, size_t cap) {
  static const char allowed[] = " :<>()[],&*+-.~!=|^%/?";
  size_t n = strlen(s);
  if (n == 0) { snprintf(why, cap, "it is empty"); return 0; }
  if (n > GA_NAME_EXPR_MAX) { snprintf(why, cap, "it is longer than %d bytes", GA_NAME_EXPR_MAX); return 0; }
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!ident_char(c) && !strchr(allowed, c)) {
      if (c >= 0x21 && c < 0x7f) snprintf(why, cap, "'%c' cannot be part of a name", c);
      else snprintf(why, cap, "byte 0x%02x cannot be part of a name", c);
      return 0;
    }
  }
  const char *p = s;
  while (*p == ' ') p++;
  if (*p == '&') p++;
  while (*p == ' ') p++;
  if (p[0] == ':' && p[1] == ':') p += 2;
  if (!ident_start((unsigned char)*p)) { snprintf(why, cap, "it does not start with a name"); return 0; }
  char stack[64];
  int depth = 0;
  for (; *p; p++) {
    char c = *p;
    int in_template = depth == 0 || stack[depth - 1] == '<';
    if (c == '(' || c == '[' || (c == '<' && in_template)) {
      if (depth == (int)sizeof stack) { snprintf(why, cap, "brackets nest deeper than %d", (int)sizeof stack); return 0; }
      stack[depth++] = c;
    } else if (c == ')' || c == ']' || (c == '>' && in_template)) {
      char open = c == ')' ? '(' : c == ']' ? '[' : '<';
      if (depth == 0 || stack[depth - 1] != open) {
        snprintf(why, cap, "'%c' closes %s", c, depth ? "another bracket" : "nothing");
        return 0;
      }
      depth--;
    }
  }
  if (depth) { snprintf(why, cap, "'%c' is never closed", stack[depth - 1]); return 0; }
  return 1;
}

/* ===================================================================== */
/* sources                                                               */
/* ===================================================================== */

/* The length of the UTF-8 sequence at p (at most n bytes), 0 if invalid:
** overlong forms, surrogates and code points past U+10FFFF are invalid */
static size_t utf8_len(const unsigned char *p, size_t n) {
  unsigned c = p[0];
  if (c < 0x80) return 1;
  size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (len == 0 || c > 0xf4 || len > n) return 0;
  unsigned cp = c & (0x7f >> len);
  for (size_t i = 1; i < len; i++) {
    if ((p[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3f);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return len;
}

/* Skip a backslash-newline (a line splice) at p, if any */
static const char *splice(const char *p, const char *end) {
  while (p < end && p[0] == '\\' && ((p + 1 < end && p[1] == '\n') || (p + 2 < end && p[1] == '\r' && p[2] == '\n')))
    p += p[1] == '\n' ? 2 : 3;
  return p;
}

#define SUSPECT(...) do { snprintf(why, cap, __VA_ARGS__); return 1; } while (0)

int ga_source_suspicious(const char *src, size_t len, char *why, size_t cap) {
  const unsigned char *u = (const unsigned char *)src;
  for (size_t i = 0; i < len;) {
    if (u[i] < 0x20 && (u[i] == 0 || !strchr("\t\n\v\f\r", u[i]))) SUSPECT("control byte 0x%02x at offset %zu", u[i], i);
    size_t n = utf8_len(u + i, len - i);
    if (!n) SUSPECT("invalid UTF-8 at offset %zu", i);
    i += n;
  }
  const char *p = src, *end = src + len;
  char stack[256];
  int depth = 0, line = 1, directive = 0, line_start = 1;
  while (p < end) {
    p = splice(p, end);
    if (p >= end) break;
    char c = *p;
    if (c == '\n') { line++; directive = 0; line_start = 1; p++; continue; }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') { p++; continue; }
    if (c == '#' && line_start) directive = 1;
    line_start = 0;
    if (c == '/' && p + 1 < end && p[1] == '/') {         /* to the end of the line, splices included */
      while (p < end && *p != '\n') {
        const char *q = splice(p, end);
        p = q != p ? q : p + 1;
      }
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *q = p + 2;
      int first = line;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) line += *q++ == '\n';
      if (q + 1 >= end) SUSPECT("a comment opened on line %d is never closed", first);
      p = q + 2;
      continue;
    }
    if (ident_start((unsigned char)c)) {
      const char *q = p;
      while (q < end && ident_char((unsigned char)*q)) q++;
      /* R"delim( ... )delim", also u8R, uR, UR, LR */
      if (q < end && *q == '"' && q[-1] == 'R' && q - p <= 3) {
        const char *d = q + 1, *o = d;
        while (o < end && *o != '(' && o - d <= 16 && !strchr(" )\\\t\v\f\n", *o)) o++;
        if (o >= end || *o != '(') SUSPECT("a raw string on line %d has no valid delimiter", line);
        size_t dl = (size_t)(o - d);
        const char *r = o + 1;
        int first = line;
        for (;; r++) {
          if (r >= end) SUSPECT("a raw string opened on line %d is never closed", first);
          if (*r == ')' && (size_t)(end - r) > dl + 1 && memcmp(r + 1, d, dl) == 0 && r[1 + dl] == '"') break;
          line += *r == '\n';
        }
        p = r + dl + 2;
      } else {
        p = q;
      }
      continue;
    }
    if (c >= '0' && c <= '9') {   /* digits, letters, '.', exponent signs, digit separators */
      while (p < end && (ident_char((unsigned char)*p) || *p == '.' || *p == '\'' ||
                         ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))))
        p++;
      continue;
    }
    if (c == '"' || c == '\'') {
      const char *q = p + 1;
      for (;;) {
        q = splice(q, end);
        if (q >= end || *q == '\n') {
          /* '#error don't' is text to the preprocessor, not a literal */
          if (directive) { p = q; break; }
          SUSPECT("a %s literal on line %d is never closed", c == '"' ? "string" : "character", line);
        }
        if (*q == c) { p = q + 1; break; }
        q += *q == '\\' ? 2 : 1;
      }
      continue;
    }
    if (!directive && strchr("([{", c)) {
      if (depth == (int)sizeof stack) SUSPECT("brackets nest deeper than %d", (int)sizeof stack);
      stack[depth++] = c;
    } else if (!directive && strchr(")]}", c)) {
      char open = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (depth == 0 || stack[depth - 1] != open) SUSPECT("'%c' on line %d closes %s", c, line, depth ? "another bracket" : "nothing");
      depth--;
    }
    p++;
  }
  if (depth) SUSPECT("'%c' is never closed", stack[depth - 1]);
  return 0;
}
