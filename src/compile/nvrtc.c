/*
** nvrtc.c: NVRTC. Its version and supported targets, the final option list
** of a compile, and compiling a source to an image (CUBIN or PTX) with the
** offending lines of the user's source quoted on error.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvrtc.h>

#include "compile/compile.h"

/* ===================================================================== */
/* NVRTC: version, targets, compiling to an image                        */
/* ===================================================================== */

static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;
static int nvrtc_major, nvrtc_minor;

static int nvrtc_archs[64], nvrtc_narchs;

static void nvrtc_init(void) {
  if (nvrtcVersion(&nvrtc_major, &nvrtc_minor) != NVRTC_SUCCESS)
    nvrtc_major = nvrtc_minor = 0;
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 64) return;
  if (nvrtcGetSupportedArchs(nvrtc_archs) == NVRTC_SUCCESS) nvrtc_narchs = n;
}

void ga_nvrtc_version(int *major, int *minor) {
  pthread_once(&nvrtc_once, nvrtc_init);
  *major = nvrtc_major;
  *minor = nvrtc_minor;
}


int ga_pick_target(int arch, ga_target *t) {
  pthread_once(&nvrtc_once, nvrtc_init);
  int best = -1;
  for (int i = 0; i < nvrtc_narchs; i++) {
    if (nvrtc_archs[i] == arch) {
      snprintf(t->opt, sizeof t->opt, "-arch=sm_%d", arch);
      t->ptx = 0;
      return 1;
    }
    if (nvrtc_archs[i] < arch && nvrtc_archs[i] > best) best = nvrtc_archs[i];
  }
  if (best < 0) return 0;
  snprintf(t->opt, sizeof t->opt, "-arch=compute_%d", best);
  t->ptx = 1;
  return 1;
}

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int is_arch_opt(const char *o) {
  return has_prefix(o, "-arch") || has_prefix(o, "--gpu-architecture");
}

/* The final option list, in a scratch userdata on the stack (nothing to
** free if a later step raises). The caller's own -arch wins over ours (for
** sm_90a-style targets); -std=c++17 unless the caller chose a standard. */
const char **ga_final_options(lua_State *L, int nopts, const char *const *opts,
                                  ga_target *t, int *nall) {
  const char **all = (const char **)lua_newuserdatauv(L, ((size_t)nopts + 2) * sizeof *all, 0);
  int n = 0, has_std = 0, has_arch = 0;
  for (int i = 0; i < nopts; i++) {
    const char *o = opts[i];
    if (has_prefix(o, "-std") || has_prefix(o, "--std")) has_std = 1;
    if (is_arch_opt(o)) {
      const char *v = strchr(o, '=');
      has_arch = 1;
      t->ptx = !(v && has_prefix(v + 1, "sm_"));
      snprintf(t->opt, sizeof t->opt, "%s", o);
    }
    all[n++] = o;
  }
  if (!has_arch) all[n++] = t->opt;
  if (!has_std) all[n++] = "-std=c++17";
  *nall = n;
  return all;
}


#define PROG_NAME "kernel.cu"   /* the file name NVRTC's log gives our source */

/* Append "  line N: <text>" for each line NVRTC reports an error on */
static void quote_error_lines(ga_buf *msg, const char *log, const char *src, size_t srclen) {
  int seen[16], nseen = 0;
  for (const char *p = strstr(log, "): "); p && nseen < 16; p = strstr(p + 3, "): ")) {
    const char *after = p + 3;
    if (!has_prefix(after, "error") && !has_prefix(after, "catastrophic error")) continue;
    const char *d = p;
    while (d > log && d[-1] >= '0' && d[-1] <= '9') d--;
    /* only our file: name-expression errors come as "__nv_name_map(N)" */
    size_t pn = strlen(PROG_NAME);
    if (d == p || d < log + pn + 1 || d[-1] != '(' || memcmp(d - 1 - pn, PROG_NAME, pn) != 0) continue;
    int line = atoi(d);
    int dup = 0;
    for (int i = 0; i < nseen; i++) dup |= seen[i] == line;
    if (dup || line <= 0) continue;
    seen[nseen++] = line;
    /* find the line in the source */
    const char *s = src, *end = src + srclen;
    for (int l = 1; l < line && s < end; l++) {
      const char *nl = memchr(s, '\n', (size_t)(end - s));
      s = nl ? nl + 1 : end;
    }
    if (s >= end) continue;
    const char *e = memchr(s, '\n', (size_t)(end - s));
    if (!e) e = end;
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
    ga_buf_addf(msg, "  line %d: %.*s\n", line, (int)(e - s), s);
  }
}

#define NVCHECK(name, call) do { \
    nvrtcResult r_ = (call); \
    if (r_ != NVRTC_SUCCESS) { \
      ga_buf_addf(err, "%s: %s", name, nvrtcGetErrorString(r_)); \
      goto done; \
    } } while (0)

/* Compile with NVRTC. Returns 1 with *out filled, or 0 with the error text
** in err (everything already released). Never raises: callers may hold C
** memory, and isolate.c runs it in a child process. */
int ga_nvrtc_compile(const char *src, size_t srclen, int nall, const char *const *all,
                         int ptx, int nnames, const char *const *name_exprs,
                         ga_image *out, ga_buf *err) {
  nvrtcProgram prog = NULL;
  int ok = 0;
  char *log = NULL;
  /* NVRTC reads a C string: srclen is the truth, so terminate a copy */
  char *text = (char *)malloc(srclen + 1);
  if (!text) { ga_buf_add(err, "out of host memory"); return 0; }
  memcpy(text, src, srclen);
  text[srclen] = '\0';
  NVCHECK("nvrtcCreateProgram", nvrtcCreateProgram(&prog, text, PROG_NAME, 0, NULL, NULL));
  for (int i = 0; i < nnames; i++) {
    nvrtcResult r = nvrtcAddNameExpression(prog, name_exprs[i]);
    if (r != NVRTC_SUCCESS) {
      ga_buf_addf(err, "name expression '%s': %s", name_exprs[i], nvrtcGetErrorString(r));
      goto done;
    }
  }
  nvrtcResult r = nvrtcCompileProgram(prog, nall, all);
  if (r == NVRTC_ERROR_COMPILATION || r == NVRTC_ERROR_INVALID_OPTION) {
    size_t loglen = 0;
    NVCHECK("nvrtcGetProgramLogSize", nvrtcGetProgramLogSize(prog, &loglen));
    log = (char *)malloc(loglen + 1);
    if (!log) { ga_buf_add(err, "out of host memory"); goto done; }
    NVCHECK("nvrtcGetProgramLog", nvrtcGetProgramLog(prog, log));
    log[loglen] = '\0';
    while (loglen > 0 && (log[loglen - 1] == '\n' || log[loglen - 1] == '\0')) log[--loglen] = '\0';
    if (r == NVRTC_ERROR_INVALID_OPTION) {
      ga_buf_add(err, "invalid NVRTC option (options:");
      for (int i = 0; i < nall; i++) ga_buf_addf(err, " %s", all[i]);
      ga_buf_addf(err, ")\n%s", log);
    } else {
      ga_buf_add(err, "compile error\n");
      quote_error_lines(err, log, text, srclen);
      ga_buf_add(err, log);
    }
    goto done;
  }
  NVCHECK("nvrtcCompileProgram", r);
  /* sizes first, then one allocation for the names and the image */
  size_t names_len = 0, image_len = 0;
  for (int i = 0; i < nnames; i++) {
    const char *lowered = NULL;
    NVCHECK("nvrtcGetLoweredName", nvrtcGetLoweredName(prog, name_exprs[i], &lowered));
    /* NVRTC has answered success with no name (a source ending in a line
    ** comment holding invalid UTF-8): the expression named nothing */
    if (!lowered || !*lowered) {
      ga_buf_addf(err, "name expression '%s': NVRTC lowered it to no name (does the source define it?)",
                  name_exprs[i]);
      goto done;
    }
    names_len += strlen(lowered) + 1;
  }
  NVCHECK(ptx ? "nvrtcGetPTXSize" : "nvrtcGetCUBINSize",
          ptx ? nvrtcGetPTXSize(prog, &image_len) : nvrtcGetCUBINSize(prog, &image_len));
  out->mem = (char *)malloc(names_len + image_len + 1);
  if (!out->mem) { ga_buf_add(err, "out of host memory"); goto done; }
  char *w = out->mem;
  for (int i = 0; i < nnames; i++) {
    const char *lowered;
    NVCHECK("nvrtcGetLoweredName", nvrtcGetLoweredName(prog, name_exprs[i], &lowered));
    size_t n = lowered ? strlen(lowered) + 1 : 0;
    if (w + n > out->mem + names_len) { ga_buf_add(err, "nvrtcGetLoweredName: the names changed"); goto done; }
    memcpy(w, lowered, n);
    w += n;
  }
  NVCHECK(ptx ? "nvrtcGetPTX" : "nvrtcGetCUBIN", ptx ? nvrtcGetPTX(prog, w) : nvrtcGetCUBIN(prog, w));
  *out = (ga_image){ out->mem, out->mem, names_len, w, image_len, nnames, ptx };
  ok = 1;
done:
  if (!ok && out->mem) { free(out->mem); out->mem = NULL; }
  if (prog) nvrtcDestroyProgram(&prog);
  free(log);
  free(text);
  return ok;
}

/* Compile or raise "gpuarray: <what>: <reason>". Name expressions are
** checked first (NVRTC pastes them into a pragma of its own); isolate.c
** decides whether NVRTC runs here or in a child process. */
void ga_compile_or_raise(lua_State *L, const char *what, const char *src, size_t srclen,
                             int nall, const char *const *all, int ptx,
                             int nnames, const char *const *name_exprs, ga_image *out) {
  ga_buf err;
  char why[160];
  memset(out, 0, sizeof *out);
  /* NVRTC reads C strings: a NUL would silently cut the source short */
  if (memchr(src, '\0', srclen)) ga_error(L, "%s: the source contains a NUL byte", what);
  for (int i = 0; i < nnames; i++)
    if (!ga_name_expr_check(name_exprs[i], why, sizeof why))
      ga_error(L, "%s: name expression '%s' is not a name: %s", what, name_exprs[i], why);
  int child = ga_compile_isolated(src, srclen, nnames, why, sizeof why);
  ga_buf_init(&err);
  int ok = child ? ga_nvrtc_child(src, srclen, nall, all, ptx, nnames, name_exprs, out, &err)
                 : ga_nvrtc_here(src, srclen, nall, all, ptx, nnames, name_exprs, out, &err);
  if (ok) {
    ga_buf_free(&err);
    return;
  }
  /* into Lua before freeing; only a memory error in this push would leak it */
  lua_pushlstring(L, err.s, err.len);
  ga_buf_free(&err);
  ga_error(L, "%s: %s", what, lua_tostring(L, -1));
}
