/*
** compile.c: NVRTC compilation, the process-wide program cache, the on-disk
** kernel cache, the code-generation buffer and the launch wrapper.
**
** A program is keyed by a 128-bit hash of everything that decides its binary
** (NVRTC version, target arch, options in order, name expressions, source).
** Lookup order: the in-memory table, then one file in the cache directory,
** then NVRTC. Nothing here raises while holding a lock or owning C memory:
** NVRTC work happens in functions that return an error text instead, and the
** Lua-facing callers raise only after cleaning up.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <nvrtc.h>

#include "ga.h"

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

/* ===================================================================== */
/* hashing                                                               */
/* ===================================================================== */

/* A wyhash-style 64-bit hash: one 64x64->128 multiply per 16 bytes, a
** splitmix64 finaliser. Two seeds give the 128-bit cache key. Not for
** adversaries; for telling generated sources apart. */
#define HP0 0xa0761d6478bd642fULL
#define HP1 0xe7037ed1a0b428dbULL
#define HP2 0x8ebc6af09c88c6e3ULL
#define HP3 0x589965cc75374cc3ULL

static inline uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint64_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static inline uint64_t mum(uint64_t a, uint64_t b) {
  __uint128_t r = (__uint128_t)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static uint64_t hash64(const void *data, size_t n, uint64_t seed) {
  const uint8_t *p = (const uint8_t *)data;
  uint64_t h = mum(seed ^ HP0, (uint64_t)n ^ HP1);
  size_t left = n;
  uint64_t a = 0, b = 0;
  while (left > 16) {
    /* "+ h" keeps the state when a block multiplies to zero */
    h = mum(rd64(p) ^ HP2, rd64(p + 8) ^ h ^ HP3) + h;
    p += 16;
    left -= 16;
  }
  /* 0..16 bytes left; overlapping reads are fine since n is mixed in */
  if (left > 8) { a = rd64(p); b = rd64(p + left - 8); }
  else if (left >= 4) { a = (rd32(p) << 32) | rd32(p + left - 4); }
  else if (left > 0) { a = ((uint64_t)p[0] << 16) | ((uint64_t)p[left >> 1] << 8) | p[left - 1]; }
  h = mum(a ^ HP1 ^ h, b ^ HP2) ^ h;
  h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27; h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

typedef struct { uint64_t h[2]; } ga_key;

#define SEED0 0x6770756172726179ULL   /* "gpuarray" */
#define SEED1 0x6b65726e656c7321ULL   /* "kernels!" */

/* Chain one more piece into the key; each piece's length goes in with it,
** so ("ab","c") and ("a","bc") differ. */
static void key_add(ga_key *k, const void *data, size_t n) {
  k->h[0] = hash64(data, n, k->h[0]);
  k->h[1] = hash64(data, n, k->h[1] ^ HP3);
}

static void key_init(ga_key *k) { k->h[0] = SEED0; k->h[1] = SEED1; }

static void key_hex(const ga_key *k, char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)k->h[0], (unsigned long long)k->h[1]);
}

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

/* What NVRTC is asked for: "-arch=sm_90" (CUBIN) when it knows the arch,
** else the newest virtual arch not above it (PTX, JIT-compiled by the
** driver), so a device newer than the toolkit still runs. */
typedef struct {
  char opt[48];
  int ptx;
} ga_target;

static int pick_target(int arch, ga_target *t) {
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
static const char **final_options(lua_State *L, int nopts, const char *const *opts,
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

/* A binary ready to load: PTX (NUL included) or CUBIN, plus the lowered
** names of the name expressions, back to back, each NUL-terminated. One
** malloc (mem) holds both. */
typedef struct {
  char *mem;
  const char *names; size_t names_len;
  const char *image; size_t image_len;
  int nnames, ptx;
} ga_image;

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
** memory. */
static int nvrtc_compile(const char *src, size_t srclen, int nall, const char *const *all,
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
    const char *lowered;
    NVCHECK("nvrtcGetLoweredName", nvrtcGetLoweredName(prog, name_exprs[i], &lowered));
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
    size_t n = strlen(lowered) + 1;
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

/* Compile or raise "gpuarray: <what>: <reason>" */
static void compile_or_raise(lua_State *L, const char *what, const char *src, size_t srclen,
                             int nall, const char *const *all, int ptx,
                             int nnames, const char *const *name_exprs, ga_image *out) {
  ga_buf err;
  memset(out, 0, sizeof *out);
  ga_buf_init(&err);
  if (nvrtc_compile(src, srclen, nall, all, ptx, nnames, name_exprs, out, &err)) {
    ga_buf_free(&err);
    return;
  }
  /* into Lua before freeing; only a memory error in this push would leak it */
  lua_pushlstring(L, err.s, err.len);
  ga_buf_free(&err);
  ga_error(L, "%s: %s", what, lua_tostring(L, -1));
}

/* ===================================================================== */
/* the on-disk cache                                                     */
/* ===================================================================== */

/* One file per key, <dir>/<32 hex>.bin: this header, the lowered names,
** the image. check is a hash of everything after the header, so a torn,
** truncated or bit-flipped file is refused rather than handed to the
** driver. Native byte order: the cache belongs to one machine. */
#define DISK_MAGIC "gpuarrK"   /* 8 bytes with the NUL */
#define DISK_VERSION 1
#define DISK_MAX ((size_t)1 << 30)

typedef struct {
  char magic[8];
  uint32_t version, ptx;
  uint64_t key[2], check;
  uint32_t nnames, pad;
  uint64_t names_len, image_len;
} disk_header;
_Static_assert(sizeof(disk_header) == 64, "the cache file header has no padding");

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static char cache_dir_path[PATH_MAX];   /* "" when there is none */

static void resolve_cache_dir(void) {
  const char *env = getenv("GPUARRAY_CACHE_DIR");
  int n = -1;
  if (env && *env) n = snprintf(cache_dir_path, sizeof cache_dir_path, "%s", env);
  else {
    const char *home = getenv("HOME");
    if (home && *home) n = snprintf(cache_dir_path, sizeof cache_dir_path, "%s/.cache/gpuarray", home);
  }
  if (n < 0 || (size_t)n >= sizeof cache_dir_path - 40) cache_dir_path[0] = '\0';
}

static const char *cache_dir(void) {
  pthread_once(&dir_once, resolve_cache_dir);
  return cache_dir_path[0] ? cache_dir_path : NULL;
}

static int disk_path(char *out, size_t cap, const char *dir, const ga_key *k) {
  char hex[33];
  key_hex(k, hex);
  int n = snprintf(out, cap, "%s/%s.bin", dir, hex);
  return n > 0 && (size_t)n < cap;
}

/* mkdir -p with mode 0755 */
static int mkdir_p(const char *dir) {
  char path[PATH_MAX];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof path) return 0;
  memcpy(path, dir, n + 1);
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(path, 0755) != 0 && errno != EEXIST) return 0;
    *p = '/';
  }
  if (mkdir(path, 0755) != 0 && errno != EEXIST) return 0;
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Best effort: any failure leaves no file behind and says nothing. Written
** to a temporary name in the same directory, then renamed over the final
** name, so a reader sees either nothing or a whole file. */
static int disk_write(const char *dir, const ga_key *k, const ga_image *img) {
  char path[PATH_MAX], tmp[PATH_MAX];
  if (!dir || !disk_path(path, sizeof path, dir, k)) return 0;
  if (snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir) >= (int)sizeof tmp) return 0;
  int fd = mkstemp(tmp);
  if (fd < 0 && errno == ENOENT && mkdir_p(dir)) {   /* first write: create the directory */
    snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
    fd = mkstemp(tmp);
  }
  if (fd < 0) return 0;
  disk_header h = {
    .magic = DISK_MAGIC, .version = DISK_VERSION, .ptx = (uint32_t)img->ptx,
    .key = { k->h[0], k->h[1] }, .nnames = (uint32_t)img->nnames,
    .names_len = img->names_len, .image_len = img->image_len,
    .check = hash64(img->image, img->image_len, hash64(img->names, img->names_len, HP0)),
  };
  struct iovec iov[3] = {
    { &h, sizeof h },
    { (void *)img->names, img->names_len },
    { (void *)img->image, img->image_len },
  };
  size_t total = sizeof h + img->names_len + img->image_len;
  /* mkstemp makes 0600; the cache is as readable as a file made with 0644 */
  int ok = fchmod(fd, 0644) == 0 && writev(fd, iov, 3) == (ssize_t)total;
  ok = (close(fd) == 0) && ok;
  if (ok) ok = rename(tmp, path) == 0;
  if (!ok) unlink(tmp);
  return ok;
}

/* One open, one fstat, one read. Returns 1 with *out filled (out->mem is
** the whole file) or 0 for a missing or unusable file. */
static int disk_read(const char *dir, const ga_key *k, ga_image *out) {
  char path[PATH_MAX];
  memset(out, 0, sizeof *out);
  if (!dir || !disk_path(path, sizeof path, dir, k)) return 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st;
  char *mem = NULL;
  size_t size = 0, got = 0;
  if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(disk_header) || (size_t)st.st_size > DISK_MAX)
    goto fail;
  size = (size_t)st.st_size;
  mem = (char *)malloc(size);
  if (!mem) goto fail;
  while (got < size) {
    ssize_t r = read(fd, mem + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) goto fail;
    got += (size_t)r;
  }
  close(fd);
  fd = -1;
  disk_header h;
  memcpy(&h, mem, sizeof h);
  size_t body = size - sizeof h;
  if (memcmp(h.magic, DISK_MAGIC, 8) != 0 || h.version != DISK_VERSION || h.ptx > 1 ||
      h.key[0] != k->h[0] || h.key[1] != k->h[1] ||
      h.names_len > body || h.image_len != body - h.names_len || h.image_len == 0)
    goto fail;
  const char *names = mem + sizeof h, *image = names + h.names_len;
  /* the names block must hold exactly nnames NUL-terminated strings */
  uint32_t nuls = 0;
  for (size_t i = 0; i < h.names_len; i++) nuls += names[i] == '\0';
  if (nuls != h.nnames || (h.names_len && names[h.names_len - 1] != '\0')) goto fail;
  if (h.ptx && image[h.image_len - 1] != '\0') goto fail;
  if (hash64(image, h.image_len, hash64(names, h.names_len, HP0)) != h.check) goto fail;
  *out = (ga_image){ mem, names, h.names_len, image, h.image_len, (int)h.nnames, (int)h.ptx };
  return 1;
fail:
  if (fd >= 0) close(fd);
  free(mem);
  return 0;
}

/* ===================================================================== */
/* programs and the in-memory cache                                      */
/* ===================================================================== */

typedef struct { char *name; cudaKernel_t k; } kernel_entry;

struct ga_program {
  cudaLibrary_t lib;
  int nnames;
  const char **exprs;     /* name expressions ... */
  const char **lowered;   /* ... and what NVRTC lowered them to */
  pthread_mutex_t mu;     /* guards the kernel list */
  int nkernels, capkernels;
  kernel_entry *kernels;
};

/* Open addressing on the key; programs are never freed (they live until the
** process ends, like the CUDA context they are loaded in). */
typedef struct { ga_key key; ga_program *p; } slot;

static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER;
static slot *table;
static size_t table_cap, table_n;

static ga_program *table_find_locked(const ga_key *k) {
  if (!table_cap) return NULL;
  for (size_t i = k->h[0] & (table_cap - 1);; i = (i + 1) & (table_cap - 1)) {
    if (!table[i].p) return NULL;
    if (table[i].key.h[0] == k->h[0] && table[i].key.h[1] == k->h[1]) return table[i].p;
  }
}

static void table_put_locked(slot *t, size_t cap, const ga_key *k, ga_program *p) {
  size_t i = k->h[0] & (cap - 1);
  while (t[i].p) i = (i + 1) & (cap - 1);
  t[i].key = *k;
  t[i].p = p;
}

/* Insert p unless another thread got there first: returns the winner */
static ga_program *table_insert(const ga_key *k, ga_program *p) {
  pthread_mutex_lock(&table_mu);
  ga_program *old = table_find_locked(k);
  if (old) { pthread_mutex_unlock(&table_mu); return old; }
  if ((table_n + 1) * 2 > table_cap) {
    size_t cap = table_cap ? table_cap * 2 : 64;
    slot *t = (slot *)calloc(cap, sizeof *t);
    if (t) {
      for (size_t i = 0; i < table_cap; i++)
        if (table[i].p) table_put_locked(t, cap, &table[i].key, table[i].p);
      free(table);
      table = t;
      table_cap = cap;
    }
  }
  /* without memory to grow, a full table just stops caching */
  if (table_n + 1 < table_cap) {
    table_put_locked(table, table_cap, k, p);
    table_n++;
  }
  pthread_mutex_unlock(&table_mu);
  return p;
}

/* One allocation for the struct, the pointer arrays and the strings */
static ga_program *program_new(cudaLibrary_t lib, int nnames, const char *const *exprs,
                               const ga_image *img) {
  size_t strs = img->names_len;
  for (int i = 0; i < nnames; i++) strs += strlen(exprs[i]) + 1;
  size_t ptrs = 2 * (size_t)nnames * sizeof(char *);
  ga_program *p = (ga_program *)malloc(sizeof *p + ptrs + strs);
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  p->lib = lib;
  p->nnames = nnames;
  p->exprs = (const char **)(p + 1);
  p->lowered = p->exprs + nnames;
  char *w = (char *)(p->lowered + nnames);
  if (img->names_len) memcpy(w, img->names, img->names_len);
  for (int i = 0; i < nnames; i++) {
    p->lowered[i] = w;
    w += strlen(w) + 1;
  }
  for (int i = 0; i < nnames; i++) {
    size_t n = strlen(exprs[i]) + 1;
    memcpy(w, exprs[i], n);
    p->exprs[i] = w;
    w += n;
  }
  pthread_mutex_init(&p->mu, NULL);
  return p;
}

static cudaError_t load_library(const ga_image *img, cudaLibrary_t *lib) {
  return cudaLibraryLoadData(lib, img->image, NULL, NULL, 0, NULL, NULL, 0);
}

ga_program *ga_program_get(lua_State *L, ga_state *ctx, const char *what,
                           const char *src, size_t srclen,
                           int nopts, const char *const *opts,
                           int nnames, const char *const *name_exprs) {
  ga_device_enter(L, ctx);
  int arch = ga_device_arch(ctx->device);
  ga_target t;
  if (!pick_target(arch, &t))
    ga_error(L, "%s: NVRTC %d.%d cannot compile for sm_%d", what, nvrtc_major, nvrtc_minor, arch);
  int nall;
  const char **all = final_options(L, nopts, opts, &t, &nall);

  ga_key k;
  key_init(&k);
  int ver[3] = { nvrtc_major, nvrtc_minor, DISK_VERSION };
  key_add(&k, ver, sizeof ver);
  key_add(&k, t.opt, strlen(t.opt));
  key_add(&k, &nall, sizeof nall);
  for (int i = 0; i < nall; i++) key_add(&k, all[i], strlen(all[i]));
  key_add(&k, &nnames, sizeof nnames);
  for (int i = 0; i < nnames; i++) key_add(&k, name_exprs[i], strlen(name_exprs[i]));
  key_add(&k, src, srclen);

  pthread_mutex_lock(&table_mu);
  ga_program *p = table_find_locked(&k);
  pthread_mutex_unlock(&table_mu);
  if (p) { lua_pop(L, 1); return p; }

  const char *dir = cache_dir();
  ga_image img;
  cudaLibrary_t lib = NULL;
  cudaError_t err = cudaErrorUnknown;
  if (disk_read(dir, &k, &img)) {
    if (img.nnames == nnames) err = load_library(&img, &lib);
    if (err != cudaSuccess) {  /* e.g. written by a newer driver's JIT: recompile */
      (void)cudaGetLastError();
      free(img.mem);
    }
  }
  if (err != cudaSuccess) {
    compile_or_raise(L, what, src, srclen, nall, all, t.ptx, nnames, name_exprs, &img);
    err = load_library(&img, &lib);
    if (err != cudaSuccess) {
      free(img.mem);
      ga_cuda_check(L, err, lua_pushfstring(L, "%s: cudaLibraryLoadData", what));
    }
    disk_write(dir, &k, &img);
  }
  p = program_new(lib, nnames, name_exprs, &img);
  free(img.mem);
  if (!p) {
    cudaLibraryUnload(lib);
    ga_error(L, "%s: out of host memory", what);
  }
  ga_program *winner = table_insert(&k, p);
  if (winner != p) {   /* another thread loaded the same program meanwhile */
    cudaLibraryUnload(p->lib);
    pthread_mutex_destroy(&p->mu);
    free(p);
  }
  lua_pop(L, 1);   /* the option scratch */
  return winner;
}

cudaKernel_t ga_program_kernel(lua_State *L, ga_program *p, const char *name) {
  cudaKernel_t k = NULL;
  pthread_mutex_lock(&p->mu);
  for (int i = 0; i < p->nkernels; i++)
    if (strcmp(p->kernels[i].name, name) == 0) { k = p->kernels[i].k; break; }
  pthread_mutex_unlock(&p->mu);
  if (k) return k;

  const char *sym = name;
  for (int i = 0; i < p->nnames; i++)
    if (strcmp(p->exprs[i], name) == 0) { sym = p->lowered[i]; break; }
  cudaError_t err = cudaLibraryGetKernel(&k, p->lib, sym);
  if (err == cudaErrorSymbolNotFound) {
    (void)cudaGetLastError();
    ga_error(L, "%s: no such kernel in the program", name);
  }
  ga_cuda_check(L, err, "cudaLibraryGetKernel");

  /* remember it; out of memory here only means looking it up again */
  pthread_mutex_lock(&p->mu);
  if (p->nkernels == p->capkernels) {
    int cap = p->capkernels ? 2 * p->capkernels : 4;
    kernel_entry *e = (kernel_entry *)realloc(p->kernels, (size_t)cap * sizeof *e);
    if (e) { p->kernels = e; p->capkernels = cap; }
  }
  char *copy = p->nkernels < p->capkernels ? strdup(name) : NULL;
  if (copy) {
    p->kernels[p->nkernels].name = copy;
    p->kernels[p->nkernels].k = k;
    p->nkernels++;
  }
  pthread_mutex_unlock(&p->mu);
  return k;
}

int ga_compile_for_arch(lua_State *L, const char *what, const char *src, size_t srclen,
                        int nopts, const char *const *opts, int arch, size_t *binsize) {
  ga_target t;
  if (!pick_target(arch, &t))
    ga_error(L, "%s: NVRTC %d.%d cannot compile for sm_%d", what, nvrtc_major, nvrtc_minor, arch);
  int nall;
  const char **all = final_options(L, nopts, opts, &t, &nall);
  ga_image img;
  compile_or_raise(L, what, src, srclen, nall, all, t.ptx, 0, NULL, &img);
  *binsize = img.image_len;
  free(img.mem);
  lua_pop(L, 1);
  return 0;
}

/* ===================================================================== */
/* launching                                                             */
/* ===================================================================== */

/* ===================================================================== */
/* Lua functions                                                         */
/* ===================================================================== */

/* Options from a Lua list of strings into a scratch array on the stack;
** the strings stay alive because the table (at idx) holds them. */
static const char **check_opts(lua_State *L, int idx, int *n) {
  *n = 0;
  if (lua_isnoneornil(L, idx)) return NULL;
  luaL_checktype(L, idx, LUA_TTABLE);
  int len = (int)luaL_len(L, idx);
  const char **opts = (const char **)lua_newuserdatauv(L, ((size_t)len + 1) * sizeof *opts, 0);
  for (int i = 1; i <= len; i++) {
    if (lua_geti(L, idx, i) != LUA_TSTRING)
      ga_error(L, "options: item %d is not a string", i);
    opts[i - 1] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  *n = len;
  return opts;
}

/* _compile(src, opts, arch) -> bytes of the binary; no device needed */
static int l_compile(lua_State *L) {
  size_t len;
  const char *src = luaL_checklstring(L, 1, &len);
  int nopts;
  const char **opts = check_opts(L, 2, &nopts);
  int arch = (int)luaL_optinteger(L, 3, 90);
  size_t size = 0;
  ga_compile_for_arch(L, "compile", src, len, nopts, opts, arch, &size);
  lua_pushinteger(L, (lua_Integer)size);
  return 1;
}

static int l_cache_dir(lua_State *L) {
  lua_pushstring(L, cache_dir());   /* nil when there is none (no $HOME) */
  return 1;
}

static int l_nvrtc_version(lua_State *L) {
  pthread_once(&nvrtc_once, nvrtc_init);
  lua_pushfstring(L, "%d.%d", nvrtc_major, nvrtc_minor);
  return 1;
}

static void str_key(lua_State *L, int idx, ga_key *k) {
  size_t len;
  const char *s = luaL_checklstring(L, idx, &len);
  key_init(k);
  key_add(k, s, len);
}

/* _hash(str) -> 32 hex digits: the 128-bit key of one string */
static int l_hash(lua_State *L) {
  ga_key k;
  char hex[33];
  str_key(L, 1, &k);
  key_hex(&k, hex);
  lua_pushstring(L, hex);
  return 1;
}

/* Test hooks for the disk cache (specs, no device): the file for key
** string ks is <dir>/<_hash(ks)>.bin.
** _disk_cache_write(dir, ks, image[, {lowered names}]) -> boolean */
static int l_disk_write(lua_State *L) {
  const char *dir = luaL_checkstring(L, 1);
  ga_key k;
  str_key(L, 2, &k);
  ga_image img;
  memset(&img, 0, sizeof img);
  img.image = luaL_checklstring(L, 3, &img.image_len);
  lua_settop(L, 4);   /* the buffer below must not take slot 4 */
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (!lua_isnoneornil(L, 4)) {
    luaL_checktype(L, 4, LUA_TTABLE);
    img.nnames = (int)luaL_len(L, 4);
    for (int i = 1; i <= img.nnames; i++) {
      lua_geti(L, 4, i);
      luaL_addstring(&b, luaL_checkstring(L, -1));
      lua_pop(L, 1);
      luaL_addchar(&b, '\0');
    }
  }
  luaL_pushresult(&b);
  img.names = lua_tolstring(L, -1, &img.names_len);
  lua_pushboolean(L, disk_write(dir, &k, &img));
  return 1;
}

/* _disk_cache_read(dir, ks) -> image, {lowered names} | nil */
static int l_disk_read(lua_State *L) {
  const char *dir = luaL_checkstring(L, 1);
  ga_key k;
  str_key(L, 2, &k);
  ga_image img;
  if (!disk_read(dir, &k, &img)) {
    lua_pushnil(L);
    return 1;
  }
  /* test hook: a memory error while pushing would leak img.mem */
  lua_pushlstring(L, img.image, img.image_len);
  lua_createtable(L, img.nnames, 0);
  const char *n = img.names;
  for (int i = 1; i <= img.nnames; i++, n += strlen(n) + 1) {
    lua_pushstring(L, n);
    lua_rawseti(L, -2, i);
  }
  free(img.mem);
  return 2;
}

static const luaL_Reg compile_funcs[] = {
  {"_compile", l_compile},
  {"cache_dir", l_cache_dir},
  {"_nvrtc_version", l_nvrtc_version},
  {"_hash", l_hash},
  {"_disk_cache_write", l_disk_write},
  {"_disk_cache_read", l_disk_read},
  {NULL, NULL}
};

void ga_open_compile(lua_State *L) {
  ga_setfuncs(L, compile_funcs);
}
