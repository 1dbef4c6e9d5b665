/*
** rawnames.c: the kernel a RawKernel names must be declared in its source,
** matched as a whole name ("g" is not "__global__"); the error lists the
** kernels the source declares.
*/
#include <string.h>

#include "rawkernel/rawkernel.h"

/* "scale" from "&ns::scale<float, 4>": the kernel's own name */
static size_t base_name(const char *name, const char **start) {
  while (*name == '&' || *name == ' ') name++;
  const char *e = strchr(name, '<');
  if (!e) e = name + strlen(name);
  while (e > name && e[-1] == ' ') e--;
  const char *b = e;
  while (b > name && b[-1] != ':' && b[-1] != ' ') b--;
  *start = b;
  return (size_t)(e - b);
}

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does word (n bytes) occur in src as a whole identifier? */
static int has_identifier(const char *src, const char *word, size_t n) {
  for (const char *p = src; n && *p; p++)
    if ((p == src || !ident_char(p[-1])) && strncmp(p, word, n) == 0 && !ident_char(p[n])) return 1;
  return 0;
}

/* The kernel named must be declared in the source (matched as a whole name,
** through sigparse.c). A source that defines macros may make its kernels
** with them, out of the scanner's sight: there the name as a whole
** identifier is enough (the compile at construction looks it up on a GPU).
** The error names the kernels the source does declare. */
void ga_raw_check_name(lua_State *L, const char *src, size_t srclen, const char *name, ga_sigkernel *sig,
                       const char *fname) {
  if (ga_sig_find(src, srclen, name, sig)) return;
  const char *b;
  size_t n = base_name(name, &b);
  if (n && strstr(src, "#define") && has_identifier(src, b, n)) return;
  luaL_Buffer lb;
  luaL_buffinit(L, &lb);
  ga_sigscan scan;
  int count = 0;
  ga_sig_begin(&scan, src, srclen);
  while (count < 16 && ga_sig_next(&scan, sig)) {
    luaL_addstring(&lb, count++ ? ", " : "");
    luaL_addstring(&lb, sig->name);
  }
  luaL_pushresult(&lb);
  if (count == 0) ga_error(L, "%s: the source has no kernel named '%s' (it declares no __global__ function)", fname, name);
  ga_error(L, "%s: the source has no kernel named '%s' (it declares: %s)", fname, name, lua_tostring(L, -1));
}
