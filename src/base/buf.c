/*
** buf.c: the growable string buffer every code generator writes into.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* ===================================================================== */
/* ga_buf: growable string buffer                                        */
/* ===================================================================== */

/* Generated sources are a few KB, so running out of host memory here is not
** a case worth threading through every code generator: we print and abort.
** After ga_buf_init, b->s is always a valid NUL-terminated string. */
static void buf_oom(void) {
  fputs("gpuarray: out of host memory (code generation buffer)\n", stderr);
  abort();
}

static void buf_reserve(ga_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) {
    if (cap > SIZE_MAX / 2) buf_oom();
    cap *= 2;
  }
  char *s = (char *)realloc(b->s, cap);
  if (!s) buf_oom();
  b->s = s;
  b->cap = cap;
}

void ga_buf_init(ga_buf *b) {
  b->s = NULL;
  b->len = b->cap = 0;
  buf_reserve(b, 255);
  b->s[0] = '\0';
}

void ga_buf_add(ga_buf *b, const char *s) {
  size_t n = strlen(s);
  buf_reserve(b, n);
  memcpy(b->s + b->len, s, n + 1);
  b->len += n;
}

void ga_buf_addf(ga_buf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;   /* an encoding error adds nothing */
  else if ((size_t)n >= b->cap - b->len) {   /* did not fit: grow, format again */
    buf_reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap2);
  }
  va_end(ap2);
  b->len += (size_t)n;
  b->s[b->len] = '\0';
}

void ga_buf_free(ga_buf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}
