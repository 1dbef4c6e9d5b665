/*
** diskcache.c: the on-disk kernel cache ($GPUARRAY_CACHE_DIR, default
** ~/.cache/gpuarray). Written to a temporary file, then renamed, so that
** concurrent processes share it safely.
*/
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "compile/compile.h"

/* ===================================================================== */
/* the on-disk cache                                                     */
/* ===================================================================== */

/* One file per key, <dir>/<32 hex>.bin: this header, the lowered names,
** the image. check is a hash of everything after the header, so a torn,
** truncated or bit-flipped file is refused rather than handed to the
** driver. Native byte order: the cache belongs to one machine. */
#define DISK_MAGIC "gpuarrK"   /* 8 bytes with the NUL */
#define CHECK_SEED 0xa0761d6478bd642fULL   /* seed of the file check hash */
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

const char *ga_cache_dir(void) {
  pthread_once(&dir_once, resolve_cache_dir);
  return cache_dir_path[0] ? cache_dir_path : NULL;
}

static int disk_path(char *out, size_t cap, const char *dir, const ga_key *k) {
  char hex[33];
  ga_key_hex(k, hex);
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
int ga_disk_write(const char *dir, const ga_key *k, const ga_image *img) {
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
    .magic = DISK_MAGIC, .version = GA_DISK_VERSION, .ptx = (uint32_t)img->ptx,
    .key = { k->h[0], k->h[1] }, .nnames = (uint32_t)img->nnames,
    .names_len = img->names_len, .image_len = img->image_len,
    .check = ga_hash64(img->image, img->image_len, ga_hash64(img->names, img->names_len, CHECK_SEED)),
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
int ga_disk_read(const char *dir, const ga_key *k, ga_image *out) {
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
  if (memcmp(h.magic, DISK_MAGIC, 8) != 0 || h.version != GA_DISK_VERSION || h.ptx > 1 ||
      h.key[0] != k->h[0] || h.key[1] != k->h[1] ||
      h.names_len > body || h.image_len != body - h.names_len || h.image_len == 0)
    goto fail;
  const char *names = mem + sizeof h, *image = names + h.names_len;
  /* the names block must hold exactly nnames NUL-terminated strings */
  uint32_t nuls = 0;
  for (size_t i = 0; i < h.names_len; i++) nuls += names[i] == '\0';
  if (nuls != h.nnames || (h.names_len && names[h.names_len - 1] != '\0')) goto fail;
  if (h.ptx && image[h.image_len - 1] != '\0') goto fail;
  if (ga_hash64(image, h.image_len, ga_hash64(names, h.names_len, CHECK_SEED)) != h.check) goto fail;
  *out = (ga_image){ mem, names, h.names_len, image, h.image_len, (int)h.nnames, (int)h.ptx };
  return 1;
fail:
  if (fd >= 0) close(fd);
  free(mem);
  return 0;
}
